/* Bit instructions: BT BTS BTR BTC, BSF BSR LZCNT POPCNT, BSWAP. */
#include "cpu/ops.h"

enum { BT, BTS, BTR, BTC };

static uint64_t bit_apply(unsigned op, uint64_t v, uint64_t m)
{
	switch (op) {
	case BTS: return v | m;
	case BTR: return v & ~m;
	case BTC: return v ^ m;
	default: return v;
	}
}

/* Only CF changes (= the old bit); ZF is kept, the others are undefined. */
static void bit_test(struct cpu *c, const struct insn *i, unsigned op, int64_t off, bool reg_off)
{
	const struct insn_cold *ic = insn_cold(i);
	unsigned sz = ic->osz, bits = sz * 8;
	uint64_t m, v, res;

	if (ic->mod == 3) {
		m = 1ull << (off & (bits - 1));
		v = rm_read(c, i, sz);
		res = bit_apply(op, v, m);
		if (op != BT)
			rm_write(c, i, sz, res);
	} else {
		uint64_t ea = insn_offset(c, i);

		if (reg_off) {
			/* A register bit offset reaches beyond the operand:
			 * signed, in operand-size units, added before the
			 * address-size truncation (16-bit addresses wrap). */
			int64_t unit = off >> (sz == 2 ? 4 : sz == 4 ? 5 : 6);
			ea += (uint64_t)(unit * (int64_t)sz);
			if (ic->asz != 8)
				ea = ic->asz == 4 ? (uint32_t)ea : (uint16_t)ea;
		}
		ea += c->base[insn_seg(i)];
		if (c->mode == CPU_MODE_32)
			ea = (uint32_t)ea;
		m = 1ull << (off & (bits - 1));
		v = mem_read(ea, sz);
		if (op == BT) {
			res = v;
		} else if (ic->pfx & PFX_LOCK) {
			do
				res = bit_apply(op, v, m);
			while (!mem_cas(ea, sz, &v, res));
		} else {
			res = bit_apply(op, v, m);
			mem_write(ea, sz, res);
		}
	}
	flags_put(c, FL_CF, v & m ? FL_CF : 0);
}

void op_btx_EvGv(struct cpu *c, const struct insn *i)
{
	unsigned sz = insn_cold(i)->osz;

	bit_test(c, i, (insn_cold(i)->op >> 3) & 3, (int64_t)sign_extend(greg_get(c, i, sz), sz), true);
}

void op_btx_EvIb(struct cpu *c, const struct insn *i)
{
	bit_test(c, i, i->reg & 3, (int64_t)(insn_imm(i) & 0xff), false);
}

/* BSF/BSR: source 0 sets ZF and leaves the destination alone. */
void op_bsf_GvEv(struct cpu *c, const struct insn *i)
{
	uint64_t v = rm_read(c, i, insn_cold(i)->osz);

	if (v)
		greg_set(c, i, insn_cold(i)->osz, (uint64_t)__builtin_ctzll(v));
	flags_put(c, FL_ZF, v ? 0 : FL_ZF);
}

void op_bsr_GvEv(struct cpu *c, const struct insn *i)
{
	uint64_t v = rm_read(c, i, insn_cold(i)->osz);

	if (v)
		greg_set(c, i, insn_cold(i)->osz, (uint64_t)(63 - __builtin_clzll(v)));
	flags_put(c, FL_ZF, v ? 0 : FL_ZF);
}

void op_lzcnt_GvEv(struct cpu *c, const struct insn *i)
{
	unsigned bits = insn_cold(i)->osz * 8;
	uint64_t v = rm_read(c, i, insn_cold(i)->osz);
	unsigned n = v ? (unsigned)__builtin_clzll(v) - (64 - bits) : bits;

	greg_set(c, i, insn_cold(i)->osz, n);
	flags_put(c, FL_CF | FL_ZF, (v ? 0 : FL_CF) | (n ? 0 : FL_ZF));
}

void op_popcnt_GvEv(struct cpu *c, const struct insn *i)
{
	uint64_t v = rm_read(c, i, insn_cold(i)->osz);

	greg_set(c, i, insn_cold(i)->osz, (uint64_t)__builtin_popcountll(v));
	flags_put(c, FL_ARITH, v ? 0 : FL_ZF);
}

/* BSWAP with a 16-bit operand is undefined; hardware clears the word. */
void op_bswap_r(struct cpu *c, const struct insn *i)
{
	uint64_t v = reg_get(c, i->rm, insn_cold(i)->osz);

	switch (insn_cold(i)->osz) {
	case 2: v = 0; break;
	case 4: v = __builtin_bswap32((uint32_t)v); break;
	default: v = __builtin_bswap64(v); break;
	}
	reg_set(c, i->rm, insn_cold(i)->osz, v);
}
