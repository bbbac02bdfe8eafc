/* The decoder: prefixes, REX, opcode maps, ModRM/SIB/displacement,
 * immediates, into a struct insn. Table-driven (optable.h); an invalid
 * encoding becomes an instruction whose handler raises #UD, an over-long
 * one (> 15 bytes) raises #GP (SDM Vol. 2, 2.3.11). */
#include "cpu/cache.h"
#include "cpu/ops.h"
#include "cpu/optable.h"

#define MAX_INSN_LEN 15

/* Where the bytes come from: guest memory at addr (the code cache), or
 * bytes[0..avail) (cpu_decode_one; reading past them sets truncated). */
struct fetch {
	uint64_t addr;
	const uint8_t *bytes;
	unsigned avail;
	unsigned n;
	bool too_long, truncated;
};

/* A guest byte, which may fault (the handler longjmps out of the decode,
 * whose output is then discarded): asm like mem_load, but without its
 * "memory" clobber, which made the compiler store and reload the decode's
 * fields around each byte. */
static inline uint8_t fetch_byte(uint64_t addr)
{
	uint32_t v;

	__asm__ volatile("movzbl (%1), %0" : "=r"(v) : "r"(g2h(addr)));
	return (uint8_t)v;
}

static inline uint8_t peek8(struct fetch *f, unsigned at)
{
	if (!f->bytes)
		return fetch_byte(f->addr + at);
	if (at >= f->avail) {
		f->truncated = true;
		return 0;
	}
	return f->bytes[at];
}

static inline uint8_t next8(struct fetch *f)
{
	if (f->n >= MAX_INSN_LEN) {
		f->too_long = true;
		return 0;
	}
	return peek8(f, f->n++);
}

static uint64_t next_n(struct fetch *f, unsigned bytes)
{
	uint64_t v = 0;

	for (unsigned k = 0; k < bytes; k++)
		v |= (uint64_t)next8(f) << (8 * k);
	return v;
}

static inline uint8_t byte_reg(unsigned r, bool rex)
{
	return (!rex && r >= 4 && r < 8) ? (uint8_t)(16 + r - 4) : (uint8_t)r;
}

/* 16-bit addressing (67h in 32-bit mode): base/index pairs of ModRM.rm. */
static void modrm16(struct insn *i, struct fetch *f, unsigned mod, unsigned rm)
{
	static const uint8_t base[8] = { R_BX, R_BX, R_BP, R_BP, GREG_NONE, GREG_NONE, R_BP, R_BX };
	static const uint8_t index[8] = { R_SI, R_DI, R_SI, R_DI, R_SI, R_DI, GREG_NONE, GREG_NONE };

	i->base = base[rm];
	insn_set_index(i, index[rm], 0);
	if (rm == 4 || rm == 5)
		i->base = index[rm], insn_set_index(i, GREG_NONE, 0);
	if (mod == 0 && rm == 6) {
		i->base = GREG_NONE;
		insn_disp(i) = (int16_t)next_n(f, 2);
	} else if (mod == 1) {
		insn_disp(i) = (int8_t)next8(f);
	} else if (mod == 2) {
		insn_disp(i) = (int16_t)next_n(f, 2);
	}
	if (i->base == R_BP && !(insn_cold(i)->pfx & PFX_SEG))
		insn_seg(i) = SEG_SS;
}

static inline __attribute__((always_inline)) void
modrm_mem(struct insn *i, struct fetch *f, unsigned mod, unsigned rm, bool m64)
{
	unsigned rexb = (insn_cold(i)->rex & 1) << 3, rexx = (insn_cold(i)->rex & 2) << 2;

	if (insn_cold(i)->asz == 2) {
		modrm16(i, f, mod, rm);
		return;
	}
	if (rm == 4) {
		uint8_t sib = next8(f);
		unsigned idx = ((sib >> 3) & 7) | rexx;

		insn_set_index(i, idx == 4 ? GREG_NONE : idx, sib >> 6);
		if ((sib & 7) == 5 && mod == 0) {
			i->base = GREG_NONE;
			insn_disp(i) = (int32_t)next_n(f, 4);
		} else {
			i->base = (uint8_t)((sib & 7) | rexb);
		}
	} else if (rm == 5 && mod == 0) {
		i->base = m64 ? GREG_RIP : GREG_NONE;
		insn_disp(i) = (int32_t)next_n(f, 4);
	} else {
		i->base = (uint8_t)(rm | rexb);
	}
	if (mod == 1)
		insn_disp(i) = (int8_t)next8(f);
	else if (mod == 2)
		insn_disp(i) = (int32_t)next_n(f, 4);
}

static void immediates(struct insn *i, struct fetch *f, unsigned flags)
{
	struct insn_cold *ic = insn_cold(i);
	unsigned z = ic->osz == 2 ? 2 : 4;

	switch (flags & F_IMM_MASK) {
	case F_I8: insn_imm(i) = next8(f); break;
	case F_I8S: insn_imm(i) = (uint64_t)(int64_t)(int8_t)next8(f); break;
	case F_I16: insn_imm(i) = next_n(f, 2); break;
	case F_IZ: insn_imm(i) = sign_extend(next_n(f, z), z); break;
	case F_IV: insn_imm(i) = next_n(f, ic->osz == 8 ? 8 : z); break;
	case F_MOFFS:
		insn_disp(i) = (int64_t)next_n(f, ic->asz);
		ic->mod = 0;
		break;
	case F_ENTER:
		insn_imm(i) = next_n(f, 2);
		ic->imm2 = next8(f);
		break;
	}
	if (flags & F_FARPTR)
		ic->imm2 = (uint16_t)next_n(f, 2);
}

/* An encoding that raises #UD or #GP whatever the state: its handler
 * raises it. */
static const struct op_entry *make_fault(struct insn *i, struct fetch *f, insn_fn fn)
{
	insn_cold(i)->fn = fn;
	insn_cold(i)->len = (uint8_t)(f->n ? f->n : 1);
	return NULL;
}

/* The legacy prefixes (SDM Vol. 2, 2.1.1), the switch of decode_row's. */
static const bool legacy_prefix[256] = {
	[0xf0] = true, [0xf2] = true, [0xf3] = true, [0x66] = true, [0x67] = true, [0x26] = true,
	[0x2e] = true, [0x36] = true, [0x3e] = true, [0x64] = true, [0x65] = true,
};

/* What decode_row returns for x87 instructions: they have no row of the
 * maps, and run through exec_plain like any FLOW_PLAIN handler. */
static const struct op_entry x87_row = { .flow = FLOW_PLAIN, .spec = SPEC_NONE };

/* Prefixes, opcode, operands and the table's handler into *i: the row it
 * used (x87_row for x87), or NULL for an encoding that faults whatever the
 * state (i->fn raises it). */
static inline __attribute__((always_inline)) const struct op_entry *
decode_row(struct insn *i, struct fetch *f, bool m64, uint64_t addr)
{
	struct insn_cold *ic = insn_cold(i);
	const struct op_entry *e;
	unsigned map = M1, b, last_rep = 0, pslot, flags, modrm = 0;
	int seg = -1;

	memset(i, 0, sizeof(*i));
	memset(insn_ext(i), 0, sizeof(struct insn_ext));
	memset(insn_cold(i), 0, sizeof(struct insn_cold));
	i->exec = exec_generic;
	ic->addr = addr;
	i->base = GREG_NONE;
	insn_set_index(i, GREG_NONE, 0);
	ic->mod = 3;
	for (;;) {
		b = next8(f);
		if (f->too_long)
			return make_fault(i, f, op_gp);
		if (!legacy_prefix[b]) { /* most bytes: one load, no switch */
			if (m64 && (b & 0xf0) == 0x40) {
				ic->rex = (uint8_t)b; /* only counts right before the opcode */
				continue;
			}
			goto opcode;
		}
		switch (b) {
		case 0xf0: ic->pfx |= PFX_LOCK; break;
		case 0xf2: ic->pfx |= PFX_REPNE; last_rep = b; break;
		case 0xf3: ic->pfx |= PFX_REP; last_rep = b; break;
		case 0x66: ic->pfx |= PFX_OSZ; break;
		case 0x67: ic->pfx |= PFX_ASZ; break;
		/* 64-bit mode ignores ES/CS/SS/DS overrides, even after FS/GS */
		case 0x26: if (!m64) seg = SEG_ES; break;
		case 0x2e: if (!m64) seg = SEG_CS; break;
		case 0x36: if (!m64) seg = SEG_SS; break;
		case 0x3e: if (!m64) seg = SEG_DS; break;
		case 0x64: seg = SEG_FS; break;
		case 0x65: seg = SEG_GS; break;
		}
		ic->rex = 0;
	}
opcode:
	/* VEX (C4/C5): in 32-bit mode only with ModRM-like bits 7:6 = 11,
	 * else LES/LDS */
	if ((b == 0xc4 || b == 0xc5) && (m64 || (peek8(f, f->n) & 0xc0) == 0xc0)) {
		unsigned v1 = next8(f), v2 = b == 0xc4 ? next8(f) : v1, mmmmm = b == 0xc4 ? v1 & 31 : 1;

		/* 66/F2/F3/LOCK or REX before it: #UD */
		if (f->too_long)
			return make_fault(i, f, op_gp);
		if ((ic->pfx & (PFX_LOCK | PFX_REP | PFX_REPNE | PFX_OSZ)) || ic->rex || mmmmm < 1 ||
		    mmmmm > 3)
			return make_fault(i, f, op_ud);
		/* R, X, B (inverted) and W: REX's bits; 32-bit mode has none */
		ic->rex = m64 ? (uint8_t)(0x40 | (~v1 >> 5 & 4) | (b == 0xc4 ? (~v1 >> 5 & 3) | (v2 >> 4 & 8) : 0))
			     : 0;
		/* vvvv, L, and W, which selects element sizes in every mode
		 * (FMA PS/PD, gathers) though it widens no GPR outside 64-bit */
		ic->imm2 = (uint16_t)((~v2 >> 3 & (m64 ? 15 : 7)) | (v2 & 4) << 2 |
				     (b == 0xc4 ? (v2 & 0x80) >> 2 : 0) |
				     (!m64 && !(v2 & 0x40) ? VEX_V_TOP : 0));
		pslot = v2 & 3; /* none, 66, F3, F2: the P_ order */
		map = MV0F + mmmmm - 1;
		b = next8(f);
		if (f->too_long)
			return make_fault(i, f, op_gp);
		ic->op = (uint8_t)b;
		insn_seg(i) = seg >= 0 && (!m64 || seg >= SEG_FS) ? (uint8_t)seg : SEG_DS;
		if (seg >= 0 && (!m64 || seg >= SEG_FS))
			ic->pfx |= PFX_SEG;
		ic->asz = m64 ? (ic->pfx & PFX_ASZ ? 4 : 8) : (ic->pfx & PFX_ASZ ? 2 : 4);
		goto table;
	}
	if (b == 0x0f) {
		b = next8(f);
		map = M0F;
		if (b == 0x38 || b == 0x3a) {
			map = b == 0x38 ? M38 : M3A;
			b = next8(f);
		}
		if (f->too_long)
			return make_fault(i, f, op_gp);
	}
	ic->op = (uint8_t)b;
	if (last_rep) /* F2 and F3 together: the last one counts */
		ic->pfx &= (uint8_t)~(last_rep == 0xf3 ? PFX_REPNE : PFX_REP);
	if (seg >= 0 && (!m64 || seg >= SEG_FS)) {
		insn_seg(i) = (uint8_t)seg;
		ic->pfx |= PFX_SEG;
	} else {
		insn_seg(i) = SEG_DS;
	}
	ic->asz = m64 ? (ic->pfx & PFX_ASZ ? 4 : 8) : (ic->pfx & PFX_ASZ ? 2 : 4);
	pslot = last_rep == 0xf3 ? P_F3 : last_rep == 0xf2 ? P_F2 : ic->pfx & PFX_OSZ ? P_66 : P_NP;

	if (map == M1 && b >= 0xd8 && b <= 0xdf) {
		insn_fn fn;

		modrm = next8(f);
		ic->modrm = (uint8_t)modrm;
		ic->mod = (uint8_t)(modrm >> 6);
		i->reg = (modrm >> 3) & 7;
		i->rm = (uint8_t)((modrm & 7) | ((ic->rex & 1) << 3));
		ic->osz = 4;
		if (ic->mod != 3) {
			modrm_mem(i, f, ic->mod, modrm & 7, m64);
			fn = op_handler_fn[op_x87_mem[b - 0xd8][i->reg]];
		} else {
			fn = op_handler_fn[op_x87_reg[b - 0xd8][modrm & 0x3f]];
		}
		if (f->too_long)
			return make_fault(i, f, op_gp);
		if (!fn || (ic->pfx & PFX_LOCK))
			return make_fault(i, f, op_ud);
		ic->fn = fn;
		i->exec = exec_plain; /* x87: no control transfer */
		ic->len = (uint8_t)f->n;
		return &x87_row;
	}

table:
	e = &op_maps[map][b][pslot];
	flags = e->flags;
	if (flags & F_MODRM) {
		modrm = next8(f);
		ic->modrm = (uint8_t)modrm;
		ic->mod = (uint8_t)(modrm >> 6);
		i->reg = (uint8_t)(((modrm >> 3) & 7) | ((ic->rex & 4) << 1));
		insn_reg8(i) = byte_reg(i->reg, ic->rex);
		if (flags & F_MOD3)
			ic->mod = 3;
		if (ic->mod == 3) {
			i->rm = (uint8_t)((modrm & 7) | ((ic->rex & 1) << 3));
			insn_rm8(i) = byte_reg(i->rm, ic->rex);
		}
	}
	if (e->group) {
		e = &op_groups[e->group - 1][((modrm >> 3) & 7) + (ic->mod == 3 ? 8 : 0)];
		flags = e->flags;
	}
	if (!e->handler)
		return make_fault(i, f, op_ud);

	if (flags & F_BYTE)
		ic->osz = 1;
	else if (m64 && (flags & F_F64))
		ic->osz = 8;
	else if (ic->rex & 8)
		ic->osz = 8;
	else if (ic->pfx & PFX_OSZ)
		ic->osz = 2;
	else if (m64 && (flags & F_D64))
		ic->osz = 8;
	else
		ic->osz = 4;

	if (flags & F_OPREG) {
		i->rm = (uint8_t)((b & 7) | ((ic->rex & 1) << 3));
		insn_rm8(i) = byte_reg(i->rm, ic->rex);
	}
	if ((flags & F_MODRM) && ic->mod != 3)
		modrm_mem(i, f, ic->mod, modrm & 7, m64);
	if (flags & (F_IMM_MASK | F_FARPTR)) /* most instructions have none: no call */
		immediates(i, f, flags);
	if (f->too_long)
		return make_fault(i, f, op_gp);
	ic->len = (uint8_t)f->n;
	if ((m64 && (flags & F_NO64)) || (!m64 && (flags & F_ONLY64)))
		return make_fault(i, f, op_ud);
	if ((ic->pfx & PFX_LOCK) && (!(flags & F_LOCKOK) || ic->mod == 3))
		return make_fault(i, f, op_ud);
	ic->fn = op_handler_fn[e->handler];
	ic->ends_run = e->flow == FLOW_END;
	if (e->flow == FLOW_PLAIN) {
		const struct op_exec_form *x = &op_exec_forms[e->exec];

		i->exec = x->reg && ic->mod == 3 ? x->reg : x->exec ? x->exec : exec_plain;
	}
	return e;
}

/* decode_row of caller's bytes: one copy for the three callers; the
 * cache's decode has its own, inlined with its fetch in registers. */
static __attribute__((noinline)) const struct op_entry *
decode_row_bytes(struct insn *i, struct fetch *f, bool m64)
{
	return decode_row(i, f, m64, 0);
}

/* The fast form for the decoded row e (decode time); inlined, as its
 * call cost ~10 host instructions a decode. */
static inline __attribute__((always_inline)) void
specialise(struct insn *i, const struct cpu *c, const struct op_entry *e, bool m64)
{
	struct insn_cold *ic = insn_cold(i);
	if (!e || e == &x87_row)
		return;
	bool addr32_in_64 = m64 && insn_addr32_in_64(i);

	if (ic->mod != 3 && ic->asz != (m64 ? 8 : 4) && !addr32_in_64)
		return; /* insn_ea_fast's condition: 16-bit addresses stay generic */
	ic->flat = insn_seg(i) != SEG_FS && insn_seg(i) != SEG_GS && c->base[insn_seg(i)] == 0;
	if (c->lf.rf & FL_AC)
		return; /* no fast forms: they skip the #AC test (insn.h, mem_read_fast) */
	if (addr32_in_64) {
		/* x32's addr32 operands: only the flat-32 shape is exact
		 * (insn.h, insn_addr32_in_64), and only ALU and MOV pick
		 * their memory forms by shape; LEA of a 32-bit register
		 * needs no address size (the result is truncated anyway) */
		if (e->spec == SPEC_MOVE && ic->fn == op_lea_GvM && ic->osz == 4)
			move_specialise(i, m64);
		else if (insn_index(i) == GREG_NONE && ic->flat &&
			 (e->spec == SPEC_ALU || e->spec == SPEC_MOVE))
			e->spec == SPEC_ALU ? alu_specialise(i) : move_specialise(i, m64);
		return;
	}
	switch (e->spec) {
	case SPEC_ALU: alu_specialise(i); break;
	case SPEC_MOVE: move_specialise(i, m64); break;
	case SPEC_SHIFT: shift_specialise(i); break;
	case SPEC_COND: cond_specialise(i); break;
	case SPEC_CONTROL: control_specialise(i, m64); break;
	case SPEC_AVX: avx_specialise(c, i); break;
	case SPEC_NOP: /* lflive's walk and the pairs pass it (neither flags nor memory) */
		i->exec = fast_nop;
		ic->lf = LF_NEUTRAL_NOFAULT;
		break;
	case SPEC_BMI: bmi_specialise(i); break;
	}
}

/* A RIP-relative operand's address, known now (the fast forms never
 * write cpu->rip): the displacement, from no base where it fits 32 bits,
 * else from the RIP-relative base register holding its multiple of
 * 4 GiB (cpu.h; none free: no base, and only the any-address shape). */
static void resolve_rip(struct insn *i, struct cpu *c)
{
	const struct insn_cold *ic = insn_cold(i);
	int64_t d = insn_disp(i) + (int64_t)(ic->addr + ic->len);
	uint64_t high = (uint64_t)(d - (int64_t)(int32_t)d);

	i->base = GREG_NONE;
	insn_disp(i) = d;
	if (high == 0)
		return;
	for (unsigned k = GREG_RIP_BASE; k < GREG_RIP_BASE + GREG_RIP_BASES; k++) {
		if (c->r[k] == 0)
			c->r[k] = high;
		if (c->r[k] == high) {
			i->base = (uint8_t)k;
			insn_disp(i) = (int32_t)d;
			return;
		}
	}
}

unsigned insn_decode(struct insn *i, struct cpu *c, uint64_t addr)
{
	bool m64 = c->mode == CPU_MODE_64;
	struct fetch f = { .addr = addr };
	const struct op_entry *e = decode_row(i, &f, m64, addr);

	if (i->base == GREG_RIP)
		resolve_rip(i, c);
	insn_set_v(i);
	specialise(i, c, e, m64);
	return e ? e->spec : SPEC_NONE;
}

bool insn_decode_canned(struct insn *i, const struct cpu *c, const uint8_t *bytes, unsigned n)
{
	bool m64 = c->mode == CPU_MODE_64;
	struct fetch f = { .bytes = bytes, .avail = n > MAX_INSN_LEN ? MAX_INSN_LEN : n };
	const struct op_entry *e = decode_row_bytes(i, &f, m64);

	if (f.truncated || insn_cold(i)->len != n)
		return false;
	insn_set_v(i);
	specialise(i, c, e, m64);
	return true;
}

int insn_decode_bytes(struct insn *i, bool m64, const uint8_t *bytes, size_t n)
{
	const struct insn_cold *ic = insn_cold(i);
	struct fetch f = { .bytes = bytes, .avail = n > MAX_INSN_LEN ? MAX_INSN_LEN : (unsigned)n };
	const struct op_entry *e = decode_row_bytes(i, &f, m64);

	if (f.truncated)
		return -1;
	if (!e)
		return 0;
	if (e == &x87_row)
		return ic->mod == 3 ? op_x87_reg[ic->op - 0xd8][ic->modrm & 0x3f]
				   : op_x87_mem[ic->op - 0xd8][i->reg & 7];
	return e->handler;
}

bool cpu_decode_one(enum cpu_mode mode, const uint8_t *bytes, size_t n, unsigned *len,
		    enum cpu_insn_flow *flow)
{
	struct fetch f = { .bytes = bytes, .avail = n > MAX_INSN_LEN ? MAX_INSN_LEN : (unsigned)n };
	struct insn *i = insn_scratch_shared_take();
	const struct op_entry *e = decode_row_bytes(i, &f, mode == CPU_MODE_64);

	*len = insn_cold(i)->len;
	insn_scratch_shared_give();
	if (f.truncated)
		return false;
	if (!e)
		*flow = CPU_INSN_FAULTS;
	else if (e->flow == FLOW_BRANCH || e->flow == FLOW_END)
		*flow = CPU_INSN_BRANCHES;
	else
		*flow = CPU_INSN_FALLS_THROUGH;
	return true;
}
