/* General-purpose-register instructions of BMI1 (ANDN, BEXTR, BLSI,
 * BLSMSK, BLSR, TZCNT), BMI2 (BZHI, MULX, PDEP, PEXT, RORX, SARX, SHLX,
 * SHRX) and ADX (ADCX, ADOX). The VEX forms take their operand size from
 * VEX.W (64-bit mode only; 32 bits elsewhere), their extra register from
 * VEX.vvvv; VEX.L = 1 is #UD. */
#include "cpu/cache.h"
#include "cpu/ops.h"

static unsigned vex_size(const struct insn *i)
{
	return insn_cold(i)->rex & 8 ? 8 : 4;
}

/* VEX.L must be 0; an unused VEX.vvvv must be 1111b (0 un-inverted). */
static bool vex_bad(struct cpu *c, const struct insn *i, bool uses_v)
{
	if (VEX_L(i) || (!uses_v && VEX_V_SET(i))) {
		op_ud(c, i);
		return true;
	}
	return false;
}

static uint64_t vreg(const struct cpu *c, const struct insn *i, unsigned sz)
{
	return reg_get(c, VEX_V(i), sz);
}

static uint64_t top_bit(uint64_t v, unsigned sz)
{
	return v >> (sz * 8 - 1) & 1;
}

/* SF and ZF from res, CF as given, OF clear (AF, PF: undefined, 0);
 * inline, so that a fast form's constant size folds. */
static inline void bmi_flags(struct cpu *c, unsigned sz, uint64_t res, bool cf)
{
	flags_put_arith(c, (top_bit(res, sz) ? FL_SF : 0) | (res ? 0 : FL_ZF) | (cf ? FL_CF : 0));
}

void op_andn_GyByEy(struct cpu *c, const struct insn *i)
{
	unsigned sz = vex_size(i);
	uint64_t res;

	if (vex_bad(c, i, true))
		return;
	res = ~vreg(c, i, sz) & rm_read(c, i, sz) & size_mask(sz);
	greg_set(c, i, sz, res);
	bmi_flags(c, sz, res, false);
}

/* VEX 0F38 F3 /1 BLSR, /2 BLSMSK, /3 BLSI: into VEX.vvvv. */
void op_blsx_ByEy(struct cpu *c, const struct insn *i)
{
	unsigned sz = vex_size(i), op = i->reg & 7;
	uint64_t src, res;

	if (op < 1 || op > 3) {
		op_ud(c, i);
		return;
	}
	if (vex_bad(c, i, true))
		return;
	src = rm_read(c, i, sz);
	if (op == 1)
		res = src & (src - 1);
	else if (op == 2)
		res = src ^ (src - 1);
	else
		res = src & (0 - src);
	res &= size_mask(sz);
	reg_set(c, VEX_V(i), sz, res);
	if (op == 2) /* BLSMSK: ZF clear */
		flags_put(c, FL_ARITH, (top_bit(res, sz) ? FL_SF : 0) | (src ? 0 : FL_CF));
	else
		bmi_flags(c, sz, res, op == 1 ? src == 0 : src != 0);
}

void op_bextr_GyEyBy(struct cpu *c, const struct insn *i)
{
	unsigned sz = vex_size(i), bits = sz * 8;
	uint64_t ctl, src, res;
	unsigned start, len;

	if (vex_bad(c, i, true))
		return;
	src = rm_read(c, i, sz);
	ctl = vreg(c, i, sz);
	start = ctl & 0xff;
	len = ctl >> 8 & 0xff;
	res = start >= bits ? 0 : src >> start;
	if (len < 64)
		res &= (1ull << len) - 1;
	res &= size_mask(sz);
	greg_set(c, i, sz, res);
	flags_put(c, FL_ARITH, res ? 0 : FL_ZF);
}

/* TZCNT (F3 0F BC): source 0 gives the operand size and CF. */
void op_tzcnt_GvEv(struct cpu *c, const struct insn *i)
{
	unsigned bits = insn_cold(i)->osz * 8;
	uint64_t v = rm_read(c, i, insn_cold(i)->osz);
	unsigned n = v ? (unsigned)__builtin_ctzll(v) : bits;

	greg_set(c, i, insn_cold(i)->osz, n);
	flags_put(c, FL_CF | FL_ZF, (v ? 0 : FL_CF) | (n ? 0 : FL_ZF));
}

/* BZHI's result: v with the bits from index n up cleared (none when n is
 * the width or more). */
static inline uint64_t bzhi_value(uint64_t v, unsigned n, unsigned bits)
{
	return n < bits ? v & ((1ull << n) - 1) : v;
}

void op_bzhi_GyEyBy(struct cpu *c, const struct insn *i)
{
	unsigned sz = vex_size(i), bits = sz * 8, n;
	uint64_t res;

	if (vex_bad(c, i, true))
		return;
	n = vreg(c, i, sz) & 0xff;
	res = bzhi_value(rm_read(c, i, sz), n, bits);
	greg_set(c, i, sz, res);
	bmi_flags(c, sz, res, n > bits - 1);
}

/* BZHI of registers (bmi_specialise; Perl's `bzhi %edx,%eax,%edx`), 32
 * or 64 bits by VEX.W: the index register's number in insn.imm (BZHI has
 * no immediate), VEX.L 0 checked at decode time (vvvv is an operand: no
 * #UD of it); result and flags as op_bzhi_GyEyBy's. */
#define FAST_BZHI(BITS, T)                                                             \
	static const struct insn *fast_bzhi##BITS(struct cpu *c, const struct insn *i) \
	{                                                                              \
		unsigned n = (uint8_t)c->r[insn_imm(i)];                                    \
		T res = (T)bzhi_value((T)c->r[i->rm], n, BITS);                        \
		REG_PUT##BITS(c->r[i->reg], res);                                      \
		bmi_flags(c, BITS / 8, res, n > BITS - 1);                             \
		return exec_next(c, i);                                                \
	}
FAST_BZHI(32, uint32_t)
FAST_BZHI(64, uint64_t)

void bmi_specialise(struct insn *i)
{
	if (insn_cold(i)->fn == op_bzhi_GyEyBy && insn_cold(i)->mod == 3 && !VEX_L(i)) {
		insn_imm(i) = VEX_V(i);
		i->exec = vex_size(i) == 8 ? fast_bzhi64 : fast_bzhi32;
	}
}

void op_pext_GyByEy(struct cpu *c, const struct insn *i)
{
	unsigned sz = vex_size(i), k = 0;
	uint64_t src, mask, res = 0;

	if (vex_bad(c, i, true))
		return;
	src = vreg(c, i, sz);
	mask = rm_read(c, i, sz);
	for (; mask; mask &= mask - 1, k++)
		if (src & mask & (0 - mask))
			res |= 1ull << k;
	greg_set(c, i, sz, res);
}

void op_pdep_GyByEy(struct cpu *c, const struct insn *i)
{
	unsigned sz = vex_size(i), k = 0;
	uint64_t src, mask, res = 0;

	if (vex_bad(c, i, true))
		return;
	src = vreg(c, i, sz);
	mask = rm_read(c, i, sz);
	for (; mask; mask &= mask - 1, k++)
		if (src >> k & 1)
			res |= mask & (0 - mask);
	greg_set(c, i, sz, res);
}

/* MULX: rDX * r/m, the low half into VEX.vvvv, then the high half into
 * ModRM.reg (the same register: the high half). No flags. */
void op_mulx_GyByEy(struct cpu *c, const struct insn *i)
{
	unsigned sz = vex_size(i);
	uint64_t a, b;
	unsigned __int128 p;

	if (vex_bad(c, i, true))
		return;
	b = rm_read(c, i, sz);
	a = reg_get(c, R_DX, sz);
	p = (unsigned __int128)a * b;
	if (sz == 4) {
		reg_set(c, VEX_V(i), 4, (uint32_t)p);
		greg_set(c, i, 4, (uint32_t)(p >> 32));
	} else {
		reg_set(c, VEX_V(i), 8, (uint64_t)p);
		greg_set(c, i, 8, (uint64_t)(p >> 64));
	}
}

/* SHLX, SARX, SHRX: the count from VEX.vvvv, masked; no flags. */
static void shiftx(struct cpu *c, const struct insn *i, int kind)
{
	unsigned sz = vex_size(i), n;
	uint64_t v, res;

	if (vex_bad(c, i, true))
		return;
	v = rm_read(c, i, sz);
	n = (unsigned)(vreg(c, i, sz) & (sz == 8 ? 63 : 31));
	if (kind < 0)
		res = v << n;
	else if (kind > 0)
		res = v >> n;
	else /* arithmetic */
		res = (uint64_t)((int64_t)sign_extend(v, sz) >> n);
	greg_set(c, i, sz, res & size_mask(sz));
}

void op_shlx_GyEyBy(struct cpu *c, const struct insn *i)
{
	shiftx(c, i, -1);
}

void op_sarx_GyEyBy(struct cpu *c, const struct insn *i)
{
	shiftx(c, i, 0);
}

void op_shrx_GyEyBy(struct cpu *c, const struct insn *i)
{
	shiftx(c, i, 1);
}

/* RORX: rotate right by imm8 (masked); VEX.vvvv unused; no flags. */
void op_rorx_GyEyIb(struct cpu *c, const struct insn *i)
{
	unsigned sz = vex_size(i), bits = sz * 8, n;
	uint64_t v;

	if (vex_bad(c, i, false))
		return;
	v = rm_read(c, i, sz);
	n = (unsigned)(insn_imm(i) & (bits - 1));
	if (n)
		v = (v >> n | v << (bits - n)) & size_mask(sz);
	greg_set(c, i, sz, v);
}

/* ADCX (66 0F 38 F6): add with CF, only CF changes; ADOX (F3): with OF,
 * only OF. 66 is the mandatory prefix, not an operand size: 32 or 64
 * (REX.W) bits. */
void op_adx_GyEy(struct cpu *c, const struct insn *i)
{
	unsigned sz = insn_cold(i)->rex & 8 ? 8 : 4;
	uint64_t flag = insn_cold(i)->pfx & PFX_REP ? FL_OF : FL_CF;
	uint64_t a = greg_get(c, i, sz), b = rm_read(c, i, sz);
	uint64_t in = flags_get(c) & flag ? 1 : 0;
	uint64_t res = (a + b + in) & size_mask(sz);
	bool out = sz == 8 ? (res < a || (in && res == a)) : ((a + b + in) >> 32) != 0;

	greg_set(c, i, sz, res);
	flags_put(c, flag, out ? flag : 0);
}
