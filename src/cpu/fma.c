/* FMA3 (VFMADD/VFMSUB/VFNMADD/VFNMSUB/VFMADDSUB/VFMSUBADD, the 132, 213
 * and 231 operand orders, PS/PD/SS/SD by VEX.W) and F16C (VCVTPH2PS,
 * VCVTPS2PH). Portable C: each element is one C99 fma()/fmaf() — a single
 * rounding — computed with the host MXCSR set to the guest's rounding,
 * DAZ and FTZ, every exception masked and no flag set, so that the flags
 * after it are the ones the element raised; an unmasked one gives #XM with
 * the destination unchanged (the flags set), as the hardware. (libm's fma
 * runs the host's own VFMADD where it has one; its software fallback
 * rounds in the current mode, and the DAZ/FTZ flushes are done here.) */
#include <math.h>
#include "cpu/ops.h"

#define MXCSR_FLAGS 0x3fu
#define MXCSR_DAZ 0x40u
#define MXCSR_FTZ 0x8000u
#define MXCSR_UE 0x10u
#define MXCSR_UM 0x800u

static inline uint32_t host_mxcsr(void)
{
	uint32_t v;

	__asm__ volatile("stmxcsr %0" : "=m"(v));
	return v;
}

static inline void set_host_mxcsr(uint32_t v)
{
	__asm__ volatile("ldmxcsr %0" : : "m"(v));
}

/* the YMM helpers of avx.c, for these two families */
static void ymm_read(const struct cpu *c, unsigned r, cpu_xmm v[2])
{
	v[0] = c->xmm[r];
	v[1] = c->ymm_hi[r];
}

static void ymm_write(struct cpu *c, unsigned r, const cpu_xmm v[2], bool l256)
{
	c->xmm[r] = v[0];
	if (l256)
		c->ymm_hi[r] = v[1];
	else
		memset(&c->ymm_hi[r], 0, sizeof(cpu_xmm));
}

static bool read_rm(struct cpu *c, const struct insn *i, cpu_xmm v[2], unsigned n)
{
	memset(v, 0, 2 * sizeof(cpu_xmm));
	if (insn_cold(i)->mod == 3) {
		ymm_read(c, i->rm, v);
		return true;
	}
	uint64_t a = insn_ea(c, i);

	if (n >= 16) {
		for (unsigned k = 0; k < n; k += 16)
			mem_read16(a + k, (uint8_t *)v + k);
	} else {
		uint64_t x = mem_read(a, n);

		memcpy(v, &x, n);
	}
	return true;
}

/* One FMA element and its helpers, written once and instantiated for
 * double (_d) and float (_f): T the type, U its bits, SIGN, EXP and QUIET
 * the sign, exponent and quiet-NaN masks, FMA libm's fused multiply-add.
 *
 * Operands are classified by their bits: a floating-point compare (isnan,
 * fpclassify) would itself raise #D for a denormal in the host MXCSR that
 * collects the element's flags. DAZ flushes a denormal input, FTZ a
 * denormal result, to 0 with its sign.
 *
 * NaN operands: the result is the first NaN of the two factors and then
 * the addend (whatever registers the 132/213/231 order takes them from,
 * as the AMD host does), quietened, its sign kept — the negations of
 * FMSUB/FNMADD do not reach it; an SNaN raises #I (in the host MXCSR, by
 * the quietening addition).
 *
 * o: bit 0 negates the product, bit 1 the addend. *tiny: a denormal
 * result, which raises #U when unmasked, exact or not. */
#define FMA_ELEMENT(S, T, U, SIGN, EXP, QUIET, FMA)                                   \
	static U bits_##S(T x)                                                         \
	{                                                                              \
		U b;                                                                   \
		memcpy(&b, &x, sizeof(b));                                             \
		return b;                                                              \
	}                                                                              \
	static bool nan_##S(T x)                                                       \
	{                                                                              \
		return (bits_##S(x) & ~(SIGN)) > (EXP);                                \
	}                                                                              \
	static bool denormal_##S(T x)                                                  \
	{                                                                              \
		return !(bits_##S(x) & (EXP)) && (bits_##S(x) & ~((SIGN) | (EXP)));    \
	}                                                                              \
	static T flush_##S(T x, bool on)                                               \
	{                                                                              \
		U b = bits_##S(x) & (SIGN);                                            \
		if (on && denormal_##S(x))                                             \
			memcpy(&x, &b, sizeof(b));                                     \
		return x;                                                              \
	}                                                                              \
	static bool nan_first_##S(T *res, const T o[3])                                \
	{                                                                              \
		for (int k = 0; k < 3; k++) {                                          \
			if (!nan_##S(o[k]))                                            \
				continue;                                              \
			for (int j = k; j < 3; j++)                                    \
				if (nan_##S(o[j]) && !(bits_##S(o[j]) & (QUIET))) {    \
					volatile T sink = o[j] + (T)0; /* raises #I */ \
					(void)sink;                                    \
				}                                                      \
			*res = o[k] + (T)0;                                            \
			return true;                                                   \
		}                                                                      \
		return false;                                                          \
	}                                                                              \
	static T fma_element_##S(T a, T b, T c, unsigned o, uint32_t mx, bool *tiny)   \
	{                                                                              \
		const T in[3] = { a, b, c };                                           \
		T res;                                                                 \
		if (!nan_first_##S(&res, in)) {                                        \
			T x = flush_##S(a, mx & MXCSR_DAZ), y = flush_##S(b, mx & MXCSR_DAZ), \
			  z = flush_##S(c, mx & MXCSR_DAZ);                            \
			res = FMA((o & 1) ? -x : x, y, (o & 2) ? -z : z);              \
		}                                                                      \
		if (!(mx & MXCSR_UM) && denormal_##S(res))                             \
			*tiny = true;                                                  \
		return flush_##S(res, mx & MXCSR_FTZ);                                 \
	}

FMA_ELEMENT(d, double, uint64_t, 1ull << 63, 0x7ff0000000000000ull, 1ull << 51, fma)
FMA_ELEMENT(f, float, uint32_t, 1u << 31, 0x7f800000u, 1u << 22, fmaf)

/* op: bit 0 negate the product, bit 1 subtract c; alt: FMADDSUB (1) or
 * FMSUBADD (2): even elements subtract (1) / add (2), odd the other. */
enum { F_ADD = 0, F_SUB = 2, F_NADD = 1, F_NSUB = 3 };

static void fma_run(struct cpu *c, const struct insn *i, unsigned order, unsigned op, unsigned alt,
		    bool scalar)
{
	bool dbl = VEX_W(i), l256 = VEX_L(i) && !scalar;
	unsigned esz = dbl ? 8 : 4, n = scalar ? 1 : (l256 ? 32 : 16) / esz;
	cpu_xmm d[2], v[2], m[2], r[2], *a, *b, *cc;
	uint32_t saved, raised, mx = c->mxcsr;
	bool tiny = false;

	if (!avx_enabled(c)) {
		op_ud(c, i);
		return;
	}
	if (!read_rm(c, i, m, scalar ? esz : (l256 ? 32 : 16)))
		return;
	ymm_read(c, i->reg, d);
	ymm_read(c, VEX_V(i), v);
	/* 132: d*m + v; 213: v*d + m; 231: v*m + d */
	a = order == 132 ? d : v;
	b = order == 213 ? d : m;
	cc = order == 132 ? v : order == 213 ? m : d;
	memcpy(r, d, sizeof(r));
	saved = host_mxcsr();
	set_host_mxcsr((mx | 0x1f80) & ~MXCSR_FLAGS);
	for (unsigned k = 0; k < n; k++) {
		unsigned o = op;

		if (alt)
			o = ((k & 1) ^ (alt == 2)) ? F_ADD : F_SUB;
		if (dbl)
			r[k / 2].fd[k % 2] = fma_element_d(a[k / 2].fd[k % 2], b[k / 2].fd[k % 2],
							   cc[k / 2].fd[k % 2], o, mx, &tiny);
		else
			r[k / 4].f[k % 4] = fma_element_f(a[k / 4].f[k % 4], b[k / 4].f[k % 4],
							  cc[k / 4].f[k % 4], o, mx, &tiny);
	}
	raised = host_mxcsr() & MXCSR_FLAGS;
	set_host_mxcsr(saved);
	/* computed masked, underflow is flagged only when tiny and inexact;
	 * unmasked, a tiny exact result raises it too */
	if (tiny)
		raised |= MXCSR_UE;
	c->mxcsr = mx | raised;
	if (raised & ~(mx >> 7) & MXCSR_FLAGS) {
		cpu_raise(c, VEC_XM);
		return;
	}
	ymm_write(c, i->reg, r, l256);
}

#define FMA_ROWS(X) \
	X(0x96, 132, fmaddsub, F_ADD, 1, false) X(0xa6, 213, fmaddsub, F_ADD, 1, false) \
	X(0xb6, 231, fmaddsub, F_ADD, 1, false) \
	X(0x97, 132, fmsubadd, F_ADD, 2, false) X(0xa7, 213, fmsubadd, F_ADD, 2, false) \
	X(0xb7, 231, fmsubadd, F_ADD, 2, false) \
	X(0x98, 132, fmadd_p, F_ADD, 0, false) X(0xa8, 213, fmadd_p, F_ADD, 0, false) \
	X(0xb8, 231, fmadd_p, F_ADD, 0, false) \
	X(0x99, 132, fmadd_s, F_ADD, 0, true) X(0xa9, 213, fmadd_s, F_ADD, 0, true) \
	X(0xb9, 231, fmadd_s, F_ADD, 0, true) \
	X(0x9a, 132, fmsub_p, F_SUB, 0, false) X(0xaa, 213, fmsub_p, F_SUB, 0, false) \
	X(0xba, 231, fmsub_p, F_SUB, 0, false) \
	X(0x9b, 132, fmsub_s, F_SUB, 0, true) X(0xab, 213, fmsub_s, F_SUB, 0, true) \
	X(0xbb, 231, fmsub_s, F_SUB, 0, true) \
	X(0x9c, 132, fnmadd_p, F_NADD, 0, false) X(0xac, 213, fnmadd_p, F_NADD, 0, false) \
	X(0xbc, 231, fnmadd_p, F_NADD, 0, false) \
	X(0x9d, 132, fnmadd_s, F_NADD, 0, true) X(0xad, 213, fnmadd_s, F_NADD, 0, true) \
	X(0xbd, 231, fnmadd_s, F_NADD, 0, true) \
	X(0x9e, 132, fnmsub_p, F_NSUB, 0, false) X(0xae, 213, fnmsub_p, F_NSUB, 0, false) \
	X(0xbe, 231, fnmsub_p, F_NSUB, 0, false) \
	X(0x9f, 132, fnmsub_s, F_NSUB, 0, true) X(0xaf, 213, fnmsub_s, F_NSUB, 0, true) \
	X(0xbf, 231, fnmsub_s, F_NSUB, 0, true)

#define FMA_HANDLER(opc, order, name, op, alt, scalar) \
	void op_v_##name##order(struct cpu *c, const struct insn *i) \
	{ \
		fma_run(c, i, order, op, alt, scalar); \
	}
FMA_ROWS(FMA_HANDLER)
#undef FMA_HANDLER

/* ---- F16C ---- */

/* IEEE half -> float: exact (a NaN keeps its payload, quietened). */
static float half_to_float(uint16_t h, uint32_t *flags)
{
	uint32_t s = (uint32_t)(h >> 15) << 31, e = (h >> 10) & 31, m = h & 0x3ff, f;

	if (e == 31) {
		if (m && !(m & 0x200))
			*flags |= 1; /* SNaN: invalid */
		f = s | 0x7f800000u | (m << 13) | (m ? 0x400000u : 0);
	} else if (e == 0) {
		if (!m) {
			f = s;
		} else {
			/* denormal half: normalise */
			int sh = 0;

			while (!(m & 0x400))
				m <<= 1, sh++;
			f = s | (uint32_t)(127 - 15 + 1 - sh) << 23 | (m & 0x3ff) << 13;
		}
	} else {
		f = s | (e + 127 - 15) << 23 | m << 13;
	}
	float r;
	memcpy(&r, &f, 4);
	return r;
}

/* float -> half, rounded as rc says (0 nearest even, 1 down, 2 up, 3 to
 * zero); *flags gets IE (SNaN), OE|PE, UE|PE, PE, DE (denormal input
 * without DAZ). */
static uint16_t float_to_half(uint32_t f, unsigned rc, uint32_t mxcsr, uint32_t *flags)
{
	uint32_t s = f >> 31, e = (f >> 23) & 0xff, m = f & 0x7fffff;
	uint16_t hs = (uint16_t)(s << 15);
	bool up;

	if (e == 0xff) {
		if (m) {
			if (!(m & 0x400000))
				*flags |= 1;
			return (uint16_t)(hs | 0x7e00 | (m >> 13));
		}
		return (uint16_t)(hs | 0x7c00);
	}
	if (e == 0 && m) {
		if (mxcsr & MXCSR_DAZ)
			return hs;
		*flags |= 2; /* DE */
	}
	if (e == 0 && !m)
		return hs;
	/* value = 1.m * 2^(e-127) (or 0.m * 2^-126): as an integer significand
	 * with 24 bits and an exponent */
	int exp = e ? (int)e - 127 : -126;
	uint64_t sig = e ? (m | 0x800000u) : m; /* value = sig * 2^(exp-23) */
	int hexp = exp + 15;                     /* biased half exponent for a normal */
	int shift;                               /* bits of sig to drop */

	if (hexp >= 1)
		shift = 13;               /* 24 -> 11 bits */
	else
		shift = 13 + (1 - hexp);  /* denormal half: fewer bits */
	uint64_t keep, rem, half;
	if (shift > 40) { /* far below the smallest denormal: under half of it */
		keep = 0;
		rem = 1;
		half = 2;
	} else {
		keep = sig >> shift;
		rem = sig & ((1ull << shift) - 1);
		half = 1ull << (shift - 1);
	}
	switch (rc) {
	case 0: up = rem > half || (rem == half && half && (keep & 1)); break;
	case 1: up = s && rem; break;
	case 2: up = !s && rem; break;
	default: up = false; break;
	}
	if (rem)
		*flags |= 0x20; /* PE */
	keep += up;
	uint32_t out;
	if (hexp >= 1) {
		if (keep == 0x800) { /* rounded up past 11 bits */
			keep = 0x400;
			hexp++;
		}
		if (hexp >= 31) { /* overflow */
			*flags |= 0x08 | 0x20;
			bool inf = rc == 0 || (rc == 1 && s) || (rc == 2 && !s);
			return (uint16_t)(hs | (inf ? 0x7c00 : 0x7bff));
		}
		out = (uint32_t)hexp << 10 | (uint32_t)(keep & 0x3ff);
	} else {
		/* keep is the denormal significand; 0x400 means it rounded up to
		 * the smallest normal */
		out = (uint32_t)keep;
		if (rem)
			*flags |= 0x10; /* UE (tiny and inexact) */
	}
	return (uint16_t)(hs | out);
}

/* VCVTPH2PS xmm/ymm, xmm/m64/m128 (VEX.W0, vvvv 1111b). */
void op_v_cvtph2ps(struct cpu *c, const struct insn *i)
{
	bool l256 = VEX_L(i);
	unsigned n = l256 ? 8 : 4;
	cpu_xmm s[2], r[2];
	uint32_t flags = 0;

	if (!avx_enabled(c) || VEX_V_SET(i) || VEX_W(i)) {
		op_ud(c, i);
		return;
	}
	if (!read_rm(c, i, s, l256 ? 16 : 8))
		return;
	for (unsigned k = 0; k < n; k++)
		r[k / 4].f[k % 4] = half_to_float(s[0].w[k], &flags);
	c->mxcsr |= flags;
	if (flags & ~(c->mxcsr >> 7) & MXCSR_FLAGS) {
		cpu_raise(c, VEC_XM);
		return;
	}
	ymm_write(c, i->reg, r, l256);
}

/* VCVTPS2PH xmm/m64/m128, xmm/ymm, imm8 (VEX.W0, vvvv 1111b): imm8[2]
 * set: MXCSR's rounding, else imm8[1:0]. */
void op_v_cvtps2ph(struct cpu *c, const struct insn *i)
{
	bool l256 = VEX_L(i);
	unsigned n = l256 ? 8 : 4, rc = insn_imm(i) & 4 ? (c->mxcsr >> 13) & 3 : insn_imm(i) & 3;
	cpu_xmm s[2], r[2];
	uint32_t flags = 0;

	if (!avx_enabled(c) || VEX_V_SET(i) || VEX_W(i)) {
		op_ud(c, i);
		return;
	}
	ymm_read(c, i->reg, s);
	memset(r, 0, sizeof(r));
	for (unsigned k = 0; k < n; k++)
		r[0].w[k] = float_to_half(s[k / 4].d[k % 4], rc, c->mxcsr, &flags);
	/* before the store: Intel sets the flags of a store that faults
	 * (AMD leaves MXCSR as it was, docs/cpu.md) */
	c->mxcsr |= flags;
	if (flags & ~(c->mxcsr >> 7) & MXCSR_FLAGS) {
		cpu_raise(c, VEC_XM);
		return;
	}
	if (insn_cold(i)->mod == 3)
		ymm_write(c, i->rm, r, false);
	else if (l256)
		mem_write16(insn_ea(c, i), &r[0]);
	else
		mem_write(insn_ea(c, i), 8, r[0].q[0]);
}
