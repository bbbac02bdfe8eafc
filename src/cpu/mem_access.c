/* cpu_insn_accesses: the memory one instruction would read or write at
 * the CPU's present state, from the CPU's own decoder and the handlers'
 * memory column (handler_mem.def, op_handler_mem): for the gdb stub's read
 * and access watchpoints, which this answers without running anything. */
#include "cpu/insn.h"
#include "cpu/optable.h"

/* Bytes of a MSZ_* size code for this instruction. */
static uint64_t size_of(const struct cpu *c, const struct insn *i, unsigned code)
{
	const struct insn_cold *ic = insn_cold(i);
	static const uint16_t fixed[] = {
		[MSZ_0] = 0, [MSZ_1] = 1, [MSZ_2] = 2, [MSZ_4] = 4, [MSZ_8] = 8,
		[MSZ_10] = 10, [MSZ_16] = 16, [MSZ_32] = 32, [MSZ_512] = 512,
	};
	bool small_env = (ic->pfx & PFX_OSZ) && !(ic->rex & 8); /* x87: the 16-bit layouts */
	unsigned lanes = code & MSZ_LANES ? VEX_L(i) : 0;

	switch (code & ~MSZ_LANES) {
	case MSZ_OSZ: return ic->osz;
	case MSZ_OSZ2: return 2u * ic->osz;
	case MSZ_FAR: return ic->osz + 2u;
	case MSZ_Y: return ic->rex & 8 ? 8 : 4;
	case MSZ_W48: return VEX_W(i) ? 8 : 4;
	case MSZ_DUP: return VEX_L(i) ? 32 : 8;
	case MSZ_CX8: return ic->rex & 8 ? 16 : 8;
	case MSZ_X87ENV: return small_env ? 14 : 28;
	case MSZ_X87STATE: return small_env ? 94 : 108;
	case MSZ_XSAVE: return cpu_xstate_size(c->xcr0);
	case MSZ_MOVSXD: return c->mode != CPU_MODE_64 ? 2 : ic->osz == 8 ? 4 : ic->osz;
	default:
		if ((code & ~MSZ_LANES) < sizeof(fixed) / sizeof(fixed[0]))
			return (uint64_t)fixed[code & ~MSZ_LANES] << lanes;
		return 0;
	}
}

/* An offset of the address size in segment seg, as insn_ea forms it:
 * 32-bit mode wraps at 4 GiB. */
static uint64_t linear(const struct cpu *c, const struct insn *i, unsigned seg, uint64_t off)
{
	uint64_t a = insn_cold(i)->asz == 8 ? off : insn_cold(i)->asz == 4 ? (uint32_t)off : (uint16_t)off;

	a += c->base[seg];
	return c->mode == CPU_MODE_32 ? (uint32_t)a : a;
}

/* A stack address: 64-bit mode RSP, 32-bit mode ESP (flat SS), as push()
 * and pop() form it. */
static uint64_t stack_at(const struct cpu *c, uint64_t sp)
{
	return c->mode == CPU_MODE_64 ? sp : (uint32_t)sp;
}

static void add(struct cpu_mem_access *out, int *n, uint64_t addr, uint64_t len, bool reads,
		bool writes)
{
	if (!len || *n >= CPU_MEM_ACCESSES_MAX)
		return;
	out[*n] = (struct cpu_mem_access){
		.addr = addr, .len = len, .reads = reads, .writes = writes,
	};
	(*n)++;
}

/* The string elements at seg:reg: count of them, downwards with DF. */
static void string_operand(const struct cpu *c, const struct insn *i, unsigned seg,
			   unsigned reg, uint64_t count, bool reads, bool writes,
			   struct cpu_mem_access *out, int *n)
{
	uint64_t at = linear(c, i, seg, c->r[reg]);

	if (cpu_get_rflags(c) & FL_DF)
		at = linear(c, i, seg, c->r[reg] - (count - 1) * insn_cold(i)->osz);
	add(out, n, at, count * insn_cold(i)->osz, reads, writes);
}

/* Elements at most one string instruction is looked at for: a watchpoint
 * further on stops it at a later turn (a REP instruction is
 * interruptible: the stub sees it again after each stop). */
#define STRING_ELEMENTS_MAX 4096

static void implicit(const struct cpu *c, const struct insn *i, unsigned kind, uint64_t size,
		     struct cpu_mem_access *out, int *n)
{
	const struct insn_cold *ic = insn_cold(i);
	uint64_t sp = c->r[R_SP], slot = ic->osz, count = 1;
	unsigned src_seg = insn_seg(i); /* DS unless overridden */

	if (kind >= IM_MOVS && kind <= IM_SCAS && (ic->pfx & (PFX_REP | PFX_REPNE))) {
		count = ic->asz == 8 ? c->r[R_CX] : ic->asz == 4 ? (uint32_t)c->r[R_CX]
							       : (uint16_t)c->r[R_CX];
		if (!count)
			return;
		if (count > STRING_ELEMENTS_MAX)
			count = STRING_ELEMENTS_MAX;
	}
	switch (kind) {
	case IM_PUSH: add(out, n, stack_at(c, sp - slot), slot, false, true); break;
	case IM_POP: add(out, n, stack_at(c, sp), slot, true, false); break;
	case IM_PUSH2: add(out, n, stack_at(c, sp - 2 * slot), 2 * slot, false, true); break;
	case IM_POP2: add(out, n, stack_at(c, sp), 2 * slot, true, false); break;
	case IM_IRET:
		add(out, n, stack_at(c, sp), (c->mode == CPU_MODE_64 ? 5 : 3) * slot, true, false);
		break;
	case IM_PUSHA: add(out, n, stack_at(c, sp - 8 * slot), 8 * slot, false, true); break;
	case IM_POPA: add(out, n, stack_at(c, sp), 8 * slot, true, false); break;
	case IM_ENTER: { /* the frame pointer, then one slot per nesting level */
		unsigned level = ic->imm2 & 31, slots = level ? level + 1 : 1;

		add(out, n, stack_at(c, sp - slots * slot), slots * slot, false, true);
		break;
	}
	case IM_LEAVE: add(out, n, stack_at(c, c->r[R_BP]), slot, true, false); break;
	case IM_MOVS:
		string_operand(c, i, src_seg, R_SI, count, true, false, out, n);
		string_operand(c, i, SEG_ES, R_DI, count, false, true, out, n);
		break;
	case IM_CMPS:
		string_operand(c, i, src_seg, R_SI, count, true, false, out, n);
		string_operand(c, i, SEG_ES, R_DI, count, true, false, out, n);
		break;
	case IM_STOS: string_operand(c, i, SEG_ES, R_DI, count, false, true, out, n); break;
	case IM_LODS: string_operand(c, i, src_seg, R_SI, count, true, false, out, n); break;
	case IM_SCAS: string_operand(c, i, SEG_ES, R_DI, count, true, false, out, n); break;
	case IM_XLAT:
		add(out, n, linear(c, i, insn_seg(i), c->r[R_BX] + (c->r[R_AX] & 0xff)), 1, true, false);
		break;
	case IM_MASKMOV: add(out, n, linear(c, i, insn_seg(i), c->r[R_DI]), size, false, true); break;
	}
}

static int accesses_of(const struct cpu *c, struct insn *i, const uint8_t *bytes, size_t len,
		       struct cpu_mem_access out[CPU_MEM_ACCESSES_MAX])
{
	int h = insn_decode_bytes(i, c->mode == CPU_MODE_64, bytes, len), n = 0;
	const struct op_mem *m;
	uint64_t size;

	if (h <= 0)
		return h;
	m = &op_handler_mem[h];
	size = size_of(c, i, m->size);
	if (m->access != MO_NONE && insn_cold(i)->mod != 3) {
		uint64_t off = (uint64_t)insn_disp(i);

		if (i->base == GREG_RIP)
			off += c->rip + insn_cold(i)->len;
		else if (i->base != GREG_NONE)
			off += c->r[i->base];
		if (insn_index(i) != GREG_NONE)
			off += c->r[insn_index(i)] << insn_scale(i);
		add(out, &n, linear(c, i, insn_seg(i), off), size, m->access != MO_W, m->access != MO_R);
	}
	if (m->implicit != IM_NONE)
		implicit(c, i, m->implicit, size, out, &n);
	return n;
}

int cpu_insn_accesses(const struct cpu *c, const uint8_t *bytes, size_t len,
		      struct cpu_mem_access out[CPU_MEM_ACCESSES_MAX])
{
	int n = accesses_of(c, insn_scratch_shared_take(), bytes, len, out);

	insn_scratch_shared_give();
	return n;
}
