/* Read and access watchpoints (Z3, Z4): the data an instruction is about
 * to read or write, from Capstone's operands (base + index * scale +
 * displacement, segment base for FS/GS, RIP-relative from the next
 * instruction; REP string operations over RCX elements), and the stack
 * slots that PUSH, POP, CALL, RET, LEAVE, ENTER, PUSHF/POPF and
 * PUSHA/POPA touch without naming them. Only in core's slow loop, only
 * while such a watchpoint is set. */
#include <capstone/capstone.h>
#include <string.h>

#include "gdb/stub.h"
#include "mm/mm.h"

/* The general register a Capstone address register names: its encoding
 * number, or -1; *rip set for RIP/EIP. */
static int gpr_of(x86_reg r, bool *rip)
{
	static const struct { x86_reg r64, r32; } gpr[16] = {
		{ X86_REG_RAX, X86_REG_EAX }, { X86_REG_RCX, X86_REG_ECX },
		{ X86_REG_RDX, X86_REG_EDX }, { X86_REG_RBX, X86_REG_EBX },
		{ X86_REG_RSP, X86_REG_ESP }, { X86_REG_RBP, X86_REG_EBP },
		{ X86_REG_RSI, X86_REG_ESI }, { X86_REG_RDI, X86_REG_EDI },
		{ X86_REG_R8, X86_REG_R8D }, { X86_REG_R9, X86_REG_R9D },
		{ X86_REG_R10, X86_REG_R10D }, { X86_REG_R11, X86_REG_R11D },
		{ X86_REG_R12, X86_REG_R12D }, { X86_REG_R13, X86_REG_R13D },
		{ X86_REG_R14, X86_REG_R14D }, { X86_REG_R15, X86_REG_R15D },
	};

	*rip = r == X86_REG_RIP || r == X86_REG_EIP;
	for (int i = 0; i < 16; i++)
		if (gpr[i].r64 == r || gpr[i].r32 == r)
			return i;
	return -1;
}

static uint64_t reg_value(const struct cpu *c, x86_reg r, uint64_t next_pc)
{
	bool rip;
	int g;

	if (r == X86_REG_INVALID)
		return 0;
	g = gpr_of(r, &rip);
	if (rip)
		return next_pc;
	return g >= 0 ? c->r[g] : 0;
}

/* The first read or access watchpoint that [ea, ea+len) overlaps (a read
 * watchpoint only if the access reads): its kind and address. */
static int match(const struct gdb_stub *s, uint64_t ea, uint64_t len, bool reads,
		 uint64_t *addr)
{
	for (unsigned i = 0; i < s->nwp; i++) {
		const struct gdb_watch *w = &s->wps[i];

		if (w->kind == GDB_STOP_WATCH || ea >= w->addr + w->len || w->addr >= ea + len)
			continue;
		if (w->kind == GDB_STOP_RWATCH && !reads)
			continue;
		*addr = w->addr;
		return w->kind;
	}
	return GDB_STOP_NONE;
}

/* The stack bytes the instruction reads or writes implicitly: false if
 * none. A push writes below the stack pointer, a pop reads at it; a slot
 * is the operand size (2 with a 0x66 prefix, else 8 in 64-bit mode, 4 in
 * 32-bit mode), a near CALL or RET's the address size. */
static bool stack_access(const struct cpu *c, const cs_insn *in, uint64_t *ea, uint64_t *len,
			 bool *reads)
{
	bool wide = c->mode == CPU_MODE_64;
	uint64_t slot = in->detail->x86.prefix[2] == X86_PREFIX_OPSIZE ? 2 : wide ? 8 : 4;
	uint64_t sp = c->r[R_SP];

	switch (in->id) {
	case X86_INS_CALL:
		slot = wide ? 8 : 4;
		/* fall through */
	case X86_INS_PUSH:
	case X86_INS_PUSHF:
	case X86_INS_PUSHFD:
	case X86_INS_PUSHFQ:
	case X86_INS_ENTER: /* its push of the frame pointer */
		*ea = sp - slot;
		*len = slot;
		*reads = false;
		break;
	case X86_INS_PUSHAW:
	case X86_INS_PUSHAL:
		*ea = sp - 8 * slot;
		*len = 8 * slot;
		*reads = false;
		break;
	case X86_INS_RET:
		slot = wide ? 8 : 4;
		/* fall through */
	case X86_INS_POP:
	case X86_INS_POPF:
	case X86_INS_POPFD:
	case X86_INS_POPFQ:
		*ea = sp;
		*len = slot;
		*reads = true;
		break;
	case X86_INS_POPAW:
	case X86_INS_POPAL:
		*ea = sp;
		*len = 8 * slot;
		*reads = true;
		break;
	case X86_INS_LEAVE: /* mov sp, bp; pop bp */
		*ea = c->r[R_BP];
		*len = slot;
		*reads = true;
		break;
	default:
		return false;
	}
	if (!wide)
		*ea = (uint32_t)*ea;
	return true;
}

static __thread struct {
	csh cs;
	int mode;
} dis;

/* Does the instruction at pc touch a Z3/Z4 watchpoint? Its kind and
 * address, or GDB_STOP_NONE. */
int gdb_access_hit(struct gdb_stub *s, struct sg_thread *t, uint64_t pc, uint64_t *addr)
{
	const struct cpu *c = &t->cpu;
	int mode = c->mode == CPU_MODE_64 ? CS_MODE_64 : CS_MODE_32;
	uint8_t bytes[15];
	size_t n = sizeof(bytes);
	cs_insn *in = NULL;
	int hit = GDB_STOP_NONE;

	if (dis.mode != mode) {
		if (dis.mode)
			cs_close(&dis.cs);
		dis.mode = 0;
		if (cs_open(CS_ARCH_X86, mode, &dis.cs) != CS_ERR_OK)
			return GDB_STOP_NONE;
		cs_option(dis.cs, CS_OPT_DETAIL, CS_OPT_ON);
		dis.mode = mode;
	}
	while (n && copy_from_guest(t->proc->mm, bytes, pc, n) != 0)
		n--;
	if (!n || cs_disasm(dis.cs, bytes, n, pc, 1, &in) != 1)
		return GDB_STOP_NONE;
	const cs_x86 *x = &in->detail->x86;
	bool rep = x->prefix[0] == X86_PREFIX_REP || x->prefix[0] == X86_PREFIX_REPNE;

	for (unsigned k = 0; k < x->op_count && hit == GDB_STOP_NONE; k++) {
		const cs_x86_op *op = &x->operands[k];
		uint64_t ea, len;

		if (op->type != X86_OP_MEM)
			continue;
		ea = reg_value(c, op->mem.base, pc + in->size) +
		     reg_value(c, op->mem.index, pc + in->size) * (uint64_t)op->mem.scale +
		     (uint64_t)op->mem.disp;
		if (op->mem.segment == X86_REG_FS)
			ea += c->base[SEG_FS];
		else if (op->mem.segment == X86_REG_GS)
			ea += c->base[SEG_GS];
		if (c->mode == CPU_MODE_32)
			ea = (uint32_t)ea;
		len = op->size ? op->size : 1;
		if (rep) /* every element, whichever the direction */
			len *= c->r[R_CX] > 4096 ? 4096 : c->r[R_CX];
		hit = match(s, ea, len, op->access & CS_AC_READ, addr);
	}
	if (hit == GDB_STOP_NONE) {
		uint64_t ea, len;
		bool reads;

		if (stack_access(c, in, &ea, &len, &reads))
			hit = match(s, ea, len, reads, addr);
	}
	cs_free(in, 1);
	return hit;
}
