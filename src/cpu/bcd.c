/* The 32-bit-only decimal adjust instructions: DAA, DAS, AAA, AAS, AAM,
 * AAD (#UD in 64-bit mode, by their table rows). */
#include "cpu/ops.h"

/* SF, ZF, PF of an 8-bit result, plus the given CF and AF. */
static void put_bcd_flags(struct cpu *c, uint8_t al, bool cf, bool af)
{
	uint64_t f = (cf ? FL_CF : 0) | (af ? FL_AF : 0);

	if (al == 0)
		f |= FL_ZF;
	if (al & 0x80)
		f |= FL_SF;
	if (!__builtin_parity(al))
		f |= FL_PF;
	flags_put(c, FL_ARITH, f);
}

static void decimal_adjust(struct cpu *c, bool sub)
{
	uint64_t f = flags_get(c);
	uint8_t al = (uint8_t)c->r[R_AX], old = al;
	bool old_cf = f & FL_CF, cf = false, af = false;

	if ((al & 0xf) > 9 || (f & FL_AF)) {
		cf = old_cf || (sub ? al < 6 : al > 0xf9);
		al = sub ? al - 6 : al + 6;
		af = true;
	}
	if (old > 0x99 || old_cf) {
		al = sub ? al - 0x60 : al + 0x60;
		cf = true;
	}
	reg_set(c, R_AX, 1, al);
	put_bcd_flags(c, al, cf, af);
}

void op_daa(struct cpu *c, const struct insn *i) { decimal_adjust(c, false); }
void op_das(struct cpu *c, const struct insn *i) { decimal_adjust(c, true); }

static void ascii_adjust(struct cpu *c, bool sub)
{
	uint16_t ax = (uint16_t)c->r[R_AX];
	bool adj = (ax & 0xf) > 9 || (flags_get(c) & FL_AF);

	if (adj)
		ax = sub ? (uint16_t)(ax - 0x106) : (uint16_t)(ax + 0x106); /* AX +- 6, AH +- 1 */
	ax &= 0xff0f;
	reg_set(c, R_AX, 2, ax);
	put_bcd_flags(c, (uint8_t)ax, adj, adj);
}

void op_aaa(struct cpu *c, const struct insn *i) { ascii_adjust(c, false); }
void op_aas(struct cpu *c, const struct insn *i) { ascii_adjust(c, true); }

void op_aam(struct cpu *c, const struct insn *i)
{
	uint8_t al = (uint8_t)c->r[R_AX], base = (uint8_t)insn_imm(i);

	if (!base) {
		cpu_raise(c, VEC_DE);
		return;
	}
	reg_set(c, R_AX, 2, (uint16_t)((al / base) << 8 | (al % base)));
	put_bcd_flags(c, al % base, false, false);
}

void op_aad(struct cpu *c, const struct insn *i)
{
	uint16_t ax = (uint16_t)c->r[R_AX];
	uint8_t al = (uint8_t)((ax & 0xff) + (ax >> 8) * (uint8_t)insn_imm(i));

	reg_set(c, R_AX, 2, al);
	put_bcd_flags(c, al, false, false);
}
