/* Shifts and rotates: ROL ROR RCL RCR SHL SHR SAL SAR (group 2), SHLD,
 * SHRD. Counts are masked to 5 bits (6 with 64-bit operands); a masked
 * count of 0 changes nothing, flags included. */
#include "cpu/units.h"

enum { SH_ROL, SH_ROR, SH_RCL, SH_RCR, SH_SHL, SH_SHR, SH_SAL, SH_SAR };

static inline bool msb(uint64_t v, unsigned sz)
{
	return (v >> (sz * 8 - 1)) & 1;
}

/* Rotates change only CF and OF: an overlay on the lazy record. */
static void put_cf_of(struct cpu *c, bool cf, bool of)
{
	flags_set_cf_of(c, cf, of);
}

/* A count of 0 changes no flags, but the operand is still accessed (a bad
 * address faults) and a 32-bit register is still zero-extended (host). */
static void shift_by_zero(struct cpu *c, const struct insn *i)
{
	if (insn_cold(i)->mod != 3)
		mem_read(insn_ea(c, i), insn_cold(i)->osz);
	else if (insn_cold(i)->osz == 4)
		reg_set(c, i->rm, 4, c->r[i->rm]);
}

static void shift(struct cpu *c, const struct insn *i, unsigned count)
{
	unsigned sz = insn_cold(i)->osz, bits = sz * 8;
	unsigned n = count & (sz == 8 ? 63 : 31);
	uint64_t ea = 0, v, res, mask = size_mask(sz);
	bool cf, of;

	if (!n) {
		shift_by_zero(c, i);
		return;
	}
	v = rmw_load(c, i, sz, &ea);
	switch (i->reg & 7) {
	case SH_ROL: {
		unsigned r = n % bits;
		res = r ? ((v << r) | (v >> (bits - r))) & mask : v;
		rmw_store(c, i, sz, ea, res);
		cf = res & 1;
		put_cf_of(c, cf, msb(res, sz) ^ cf);
		return;
	}
	case SH_ROR: {
		unsigned r = n % bits;
		res = r ? ((v >> r) | (v << (bits - r))) & mask : v;
		rmw_store(c, i, sz, ea, res);
		put_cf_of(c, msb(res, sz), msb(res, sz) ^ msb(res << 1, sz));
		return;
	}
	case SH_RCL:
	case SH_RCR: {
		/* Rotate the (bits + 1)-bit value CF:v. */
		unsigned w = bits + 1, r = n % w;
		unsigned __int128 t = (unsigned __int128)flags_cf(c) << bits | v;
		unsigned __int128 wmask = ((unsigned __int128)1 << w) - 1;

		if ((i->reg & 7) == SH_RCR)
			r = (w - r) % w;
		if (r)
			t = ((t << r) | (t >> (w - r))) & wmask;
		res = (uint64_t)t & mask;
		cf = (t >> bits) & 1;
		rmw_store(c, i, sz, ea, res);
		if ((i->reg & 7) == SH_RCL)
			put_cf_of(c, cf, msb(res, sz) ^ cf);
		else
			put_cf_of(c, cf, msb(res, sz) ^ msb(res << 1, sz));
		return;
	}
	case SH_SHL:
	case SH_SAL:
		res = n < 64 ? (v << n) & mask : 0;
		cf = n <= bits ? (v >> (bits - n)) & 1 : 0;
		of = msb(res, sz) ^ cf;
		break;
	case SH_SHR:
		res = n < bits ? v >> n : 0;
		cf = (v >> (n - 1)) & 1;
		of = msb(v, sz);
		break;
	default: { /* SAR */
		int64_t sv = (int64_t)sign_extend(v, sz);
		res = (uint64_t)(sv >> n) & mask;
		cf = (sv >> (n - 1)) & 1;
		of = false;
		break;
	}
	}
	rmw_store(c, i, sz, ea, res);
	flags_set_resco(c, sz, res, cf, of);
}

void op_shift_EvIb(struct cpu *c, const struct insn *i) { shift(c, i, (unsigned)insn_imm(i)); }
void op_shift_Ev1(struct cpu *c, const struct insn *i) { shift(c, i, 1); }
void op_shift_EvCL(struct cpu *c, const struct insn *i) { shift(c, i, (uint8_t)c->r[R_CX]); }

/* SHLD/SHRD: 0F A4/AC take imm8, 0F A5/AD take CL. */
static void double_shift(struct cpu *c, const struct insn *i, bool left)
{
	unsigned sz = insn_cold(i)->osz, bits = sz * 8;
	unsigned n = (insn_cold(i)->op & 1 ? (uint8_t)c->r[R_CX] : (unsigned)insn_imm(i)) & (sz == 8 ? 63 : 31);
	uint64_t ea = 0, d, s = greg_get(c, i, sz), res, mask = size_mask(sz);
	bool cf;

	if (!n) {
		shift_by_zero(c, i);
		return;
	}
	d = rmw_load(c, i, sz, &ea);
	if (n > bits) {
		/* 16-bit operands, counts 17..31: the SDM leaves it undefined. */
		res = 0;
		cf = false;
	} else if (left) {
		res = ((d << n) | (s >> (bits - n))) & mask;
		cf = (d >> (bits - n)) & 1;
	} else {
		res = ((d >> n) | (s << (bits - n))) & mask;
		cf = (d >> (n - 1)) & 1;
	}
	rmw_store(c, i, sz, ea, res);
	flags_set_resco(c, sz, res, cf, msb(res, sz) ^ msb(d, sz));
}

void op_shld_EvGv(struct cpu *c, const struct insn *i) { double_shift(c, i, true); }
void op_shrd_EvGv(struct cpu *c, const struct insn *i) { double_shift(c, i, false); }

/* ---- fast forms: 16/32/64-bit register by an immediate (nonzero: chosen
 * at decode time, shift_specialise; 16-bit ones only for 1..15, where
 * the count's 5-bit mask and the width agree) or 32/64-bit by CL (zero at
 * run time: nothing changes, flags included); n = count & (bits - 1). */
#define FAST_SHIFTS(SUFFIX, COUNT, BITS, T, ST, SZ)                                                 \
	static const struct insn *fast_rol##BITS##SUFFIX(struct cpu *c, const struct insn *i)              \
	{                                                                            \
		unsigned n = (unsigned)(COUNT) & (BITS - 1);                         \
		if (n == 0) { /* flags kept; a 32-bit destination still zero-extends */ \
			REG_PUT##BITS(c->r[i->rm], c->r[i->rm]);                     \
			return exec_next(c, i);                                      \
		}                                                                    \
		T v = (T)c->r[i->rm], res = (T)((v << n) | (v >> (BITS - n)));       \
		bool cf = res & 1;                                                   \
		REG_PUT##BITS(c->r[i->rm], res);                                     \
		flags_set_cf_of(c, cf, (res >> (BITS - 1)) ^ cf);                    \
		return exec_next(c, i); \
	}                                                                            \
	static const struct insn *fast_ror##BITS##SUFFIX(struct cpu *c, const struct insn *i)              \
	{                                                                            \
		unsigned n = (unsigned)(COUNT) & (BITS - 1);                         \
		if (n == 0) { /* flags kept; a 32-bit destination still zero-extends */ \
			REG_PUT##BITS(c->r[i->rm], c->r[i->rm]);                     \
			return exec_next(c, i);                                      \
		}                                                                    \
		T v = (T)c->r[i->rm], res = (T)((v >> n) | (v << (BITS - n)));       \
		REG_PUT##BITS(c->r[i->rm], res);                                     \
		flags_set_cf_of(c, res >> (BITS - 1),                                \
				((res >> (BITS - 1)) ^ (res >> (BITS - 2))) & 1);    \
		return exec_next(c, i); \
	}                                                                            \
	static const struct insn *fast_shl##BITS##SUFFIX(struct cpu *c, const struct insn *i)              \
	{                                                                            \
		unsigned n = (unsigned)(COUNT) & (BITS - 1);                         \
		if (n == 0) { /* flags kept; a 32-bit destination still zero-extends */ \
			REG_PUT##BITS(c->r[i->rm], c->r[i->rm]);                     \
			return exec_next(c, i);                                      \
		}                                                                    \
		T v = (T)c->r[i->rm], res = (T)(v << n);                             \
		bool cf = (v >> (BITS - n)) & 1;                                     \
		REG_PUT##BITS(c->r[i->rm], res);                                     \
		flags_set_resco(c, SZ, res, cf, (res >> (BITS - 1)) ^ cf);           \
		return exec_next(c, i); \
	}                                                                            \
	static const struct insn *fast_shr##BITS##SUFFIX(struct cpu *c, const struct insn *i)              \
	{                                                                            \
		unsigned n = (unsigned)(COUNT) & (BITS - 1);                         \
		if (n == 0) { /* flags kept; a 32-bit destination still zero-extends */ \
			REG_PUT##BITS(c->r[i->rm], c->r[i->rm]);                     \
			return exec_next(c, i);                                      \
		}                                                                    \
		T v = (T)c->r[i->rm], res = (T)(v >> n);                             \
		REG_PUT##BITS(c->r[i->rm], res);                                     \
		flags_set_resco(c, SZ, res, (v >> (n - 1)) & 1, v >> (BITS - 1));    \
		return exec_next(c, i); \
	}                                                                            \
	static const struct insn *fast_sar##BITS##SUFFIX(struct cpu *c, const struct insn *i)              \
	{                                                                            \
		unsigned n = (unsigned)(COUNT) & (BITS - 1);                         \
		if (n == 0) { /* flags kept; a 32-bit destination still zero-extends */ \
			REG_PUT##BITS(c->r[i->rm], c->r[i->rm]);                     \
			return exec_next(c, i);                                      \
		}                                                                    \
		ST sv = (ST)c->r[i->rm];                                             \
		T res = (T)(sv >> n);                                                \
		REG_PUT##BITS(c->r[i->rm], res);                                     \
		flags_set_resco(c, SZ, res, (sv >> (n - 1)) & 1, false);             \
		return exec_next(c, i); \
	}

/* Flag-free twins (lflive.c), units of the pairs (units.h). */
#define FAST_SHIFTS_NF(BITS, T, ST) SHIFT_NF_OPS(UNIT_SHIFT_NF, BITS, T, ST)

FAST_SHIFTS(, insn_imm_v(i), 16, uint16_t, int16_t, 2)
FAST_SHIFTS(, insn_imm_v(i), 32, uint32_t, int32_t, 4)
FAST_SHIFTS(, insn_imm_v(i), 64, uint64_t, int64_t, 8)
FAST_SHIFTS(_cl, c->r[R_CX], 32, uint32_t, int32_t, 4)
FAST_SHIFTS(_cl, c->r[R_CX], 64, uint64_t, int64_t, 8)
FAST_SHIFTS_NF(16, uint16_t, int16_t)
FAST_SHIFTS_NF(32, uint32_t, int32_t)
FAST_SHIFTS_NF(64, uint64_t, int64_t)

#define SHIFT_ROW(NAME, SUFFIX) { fast_##NAME##32##SUFFIX, fast_##NAME##64##SUFFIX, fast_##NAME##16##SUFFIX }
static const insn_exec fast_shift[8][FAST_WIDTHS] = {
	[SH_ROL] = SHIFT_ROW(rol, ), [SH_ROR] = SHIFT_ROW(ror, ), [SH_SHL] = SHIFT_ROW(shl, ),
	[SH_SAL] = SHIFT_ROW(shl, ), [SH_SHR] = SHIFT_ROW(shr, ), [SH_SAR] = SHIFT_ROW(sar, ),
};

static const insn_exec fast_shift_nf[8][FAST_WIDTHS] = {
	[SH_ROL] = SHIFT_ROW(rol, _nf), [SH_ROR] = SHIFT_ROW(ror, _nf), [SH_SHL] = SHIFT_ROW(shl, _nf),
	[SH_SAL] = SHIFT_ROW(shl, _nf), [SH_SHR] = SHIFT_ROW(shr, _nf), [SH_SAR] = SHIFT_ROW(sar, _nf),
};

/* SHL/SHR/SAR of a 32/64-bit register by CL, flag-free (lflive.c's
 * twins: CPython's 'shl %cl,%rax; lea -1(%rax),%rdx; and ...', the dict's
 * mask from its log2 size). A count of 0 leaves the register (a 32-bit
 * one zero-extended) as the flagged forms do. */
#define FAST_SHIFT_CL_NF(NAME, BITS, T, EXPR)                                                  \
	static const struct insn *fast_##NAME##BITS##_cl_nf(struct cpu *c, const struct insn *i) \
	{                                                                                      \
		unsigned n = (unsigned)c->r[R_CX] & (BITS - 1);                                \
		T v = (T)c->r[i->rm];                                                          \
		REG_PUT##BITS(c->r[i->rm], (T)(EXPR));                                         \
		return exec_next(c, i);                                                        \
	}
#define FAST_SHIFTS_CL_NF(BITS, T, ST)                         \
	FAST_SHIFT_CL_NF(shl, BITS, T, v << n)                 \
	FAST_SHIFT_CL_NF(shr, BITS, T, v >> n)                 \
	FAST_SHIFT_CL_NF(sar, BITS, T, (ST)v >> n)
FAST_SHIFTS_CL_NF(32, uint32_t, int32_t)
FAST_SHIFTS_CL_NF(64, uint64_t, int64_t)

static const insn_exec fast_shift_cl_nf[8][2] = {
	[SH_SHL] = { fast_shl32_cl_nf, fast_shl64_cl_nf }, [SH_SAL] = { fast_shl32_cl_nf, fast_shl64_cl_nf },
	[SH_SHR] = { fast_shr32_cl_nf, fast_shr64_cl_nf }, [SH_SAR] = { fast_sar32_cl_nf, fast_sar64_cl_nf },
};

/* lflive.c: the flag-free twin of a shift by an immediate or by CL
 * (shift_specialise marked it LF_TWIN_SHIFT). */
insn_exec shift_flag_free(const struct insn *i)
{
	if (insn_cold(i)->fn == op_shift_EvCL)
		return fast_shift_cl_nf[i->reg & 7][insn_cold(i)->osz == 8];
	return fast_shift_nf[i->reg & 7][fast_width(insn_cold(i)->osz)];
}

static const insn_exec fast_shift_cl[8][2] = {
	[SH_ROL] = { fast_rol32_cl, fast_rol64_cl }, [SH_ROR] = { fast_ror32_cl, fast_ror64_cl },
	[SH_SHL] = { fast_shl32_cl, fast_shl64_cl }, [SH_SAL] = { fast_shl32_cl, fast_shl64_cl },
	[SH_SHR] = { fast_shr32_cl, fast_shr64_cl }, [SH_SAR] = { fast_sar32_cl, fast_sar64_cl },
};

/* SHL/SHR/SAR of a byte register by 1..7 (C0, and D0's count of 1):
 * CPython's start-up walks its line tables with 'shr $3,%dl' (~90 host
 * instructions each in the table handler); AH..BH through reg_get. */
#define FAST_SHIFT8(NAME, RES, CF, OF)                                                   \
	static const struct insn *fast_##NAME##8(struct cpu *c, const struct insn *i)   \
	{                                                                                \
		unsigned n = (unsigned)insn_imm_v(i);                                         \
		uint8_t v = (uint8_t)reg_get(c, insn_rm8(i), 1), res = (uint8_t)(RES);        \
		reg_set(c, insn_rm8(i), 1, res);                                              \
		flags_set_resco(c, 1, res, CF, OF);                                      \
		return exec_next(c, i);                                                  \
	}
FAST_SHIFT8(shl, v << n, (v >> (8 - n)) & 1, ((res >> 7) ^ (v >> (8 - n))) & 1)
FAST_SHIFT8(shr, v >> n, (v >> (n - 1)) & 1, v >> 7)
FAST_SHIFT8(sar, (int8_t)v >> n, ((int8_t)v >> (n - 1)) & 1, false)

static const insn_exec fast_shift8[8] = {
	[SH_SHL] = fast_shl8, [SH_SAL] = fast_shl8, [SH_SHR] = fast_shr8, [SH_SAR] = fast_sar8,
};

void shift_specialise(struct insn *i)
{
	struct insn_cold *ic = insn_cold(i);
	insn_exec f;

	if ((ic->fn == op_shift_EvIb || ic->fn == op_shift_Ev1) && ic->mod == 3 && ic->osz == 1) {
		unsigned n = ic->fn == op_shift_Ev1 ? 1 : (unsigned)insn_imm(i) & 31;

		f = fast_shift8[i->reg & 7];
		if (!f || n == 0 || n > 7)
			return; /* 8..31: past the width (generic rules) */
		insn_imm(i) = n;
		i->v = (int32_t)n; /* the count alone: fast_shift8 reads rm8 from the cold record */
		i->exec = f;
		ic->lf = LF_WRITES; /* all six for a nonzero count; no twin */
		return;
	}

	if (ic->fn == op_shift_EvCL && ic->mod == 3 && (ic->osz == 4 || ic->osz == 8)) {
		f = fast_shift_cl[i->reg & 7][ic->osz == 8];
		if (f)
			i->exec = f;
		/* lflive.c: SHL/SHR/SAR by CL write every arithmetic flag or,
		 * with a count of 0, none, and read none: the walk passes them
		 * as it passes rotates (LF_CFOF), their twins flag-free */
		if (f && fast_shift_cl_nf[i->reg & 7][ic->osz == 8])
			ic->lf = LF_CFOF | LF_TWIN_SHIFT;
		return;
	}
	if ((ic->fn != op_shift_EvIb && ic->fn != op_shift_Ev1) || ic->mod != 3 ||
	    (ic->osz != 2 && ic->osz != 4 && ic->osz != 8))
		return;
	/* D1 /r, a count of 1 (glibc's msort halves with "shr %rdx"; ~80 host
	 * instructions in the table handler): the immediate forms' fast forms
	 * and twins, which read the count from imm (D1 has none: 0 until
	 * here; op_shift_Ev1, the single steps' handler, ignores it) */
	if (ic->fn == op_shift_Ev1) {
		insn_imm(i) = 1;
		i->v = 1;
	}
	if (((unsigned)insn_imm(i) & (ic->osz * 8 - 1)) == 0)
		return; /* count 0: the generic form's rules */
	if (ic->osz == 2 && ((unsigned)insn_imm(i) & 31) > 15)
		return; /* 16..31: the 5-bit count passes the width (generic rules) */
	f = fast_shift[i->reg & 7][fast_width(ic->osz)];
	if (!f)
		return;
	/* lflive.c: a nonzero count (the condition here) writes every
	 * arithmetic flag of SHL/SHR/SAR; rotates write only CF and OF */
	i->exec = f;
	ic->lf = (uint8_t)(((i->reg & 7) == SH_ROL || (i->reg & 7) == SH_ROR ? LF_CFOF : LF_WRITES) |
			  LF_TWIN_SHIFT);
}
