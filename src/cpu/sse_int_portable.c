/* The integer rows of the host-executed SIMD table in portable C: the SSE2
 * XMM rows sse_int.c does not have (shifts by an XMM count, saturating
 * add/sub, PMULLW/PMULHW/PMULHUW, PAVGx, PMADDWD, PSADBW), the shuffles
 * and moves (UNPCKHPS, SHUFPS/PD, MOVDDUP, MOVSLDUP, MOVSHDUP, LDDQU,
 * MOVNTDQA, PINSRW, PEXTRW), SSSE3, SSE4.1 and SSE4.2 (PCMPGTQ and the
 * four string compares with their flags) — and so their VEX forms, which
 * run these rows per 128-bit lane (avx.c).
 * Built only with -DSG_PORTABLE_SIMD=ON: simd_exec (sse_host.c) then calls
 * the row's simd_c_<name> instead of the host's instruction, on the same
 * frame (x1 the destination, x2 the source, x0 the implicit XMM0, rax/rcx/
 * rdx the GPR operands, imm the imm8), so unit.test_cpu_simd_portable and
 * unit.test_cpu_avx_portable check the C against the host. Left on the
 * host in every build: the MMX forms (mm operands, sse_host.c's x87 ->
 * MMX transition). The definitions are the SDM's (vol. 2, each
 * instruction's Operation section). */
#ifdef SG_PORTABLE_SIMD
#include <stdlib.h>
#include <string.h>
#include "cpu/ops.h"
#include "cpu/sse_host.h"

#define ROW(name) void simd_c_##name(struct simd_frame *f)

static inline int16_t sat16(int32_t v)
{
	return (int16_t)(v > INT16_MAX ? INT16_MAX : v < INT16_MIN ? INT16_MIN : v);
}

static inline int8_t sat8(int32_t v)
{
	return (int8_t)(v > INT8_MAX ? INT8_MAX : v < INT8_MIN ? INT8_MIN : v);
}

static inline uint16_t satu16(int32_t v)
{
	return (uint16_t)(v > UINT16_MAX ? UINT16_MAX : v < 0 ? 0 : v);
}

/* ---- SSE2 ---- */

/* Shifts by the source's low quadword: past the width a logical shift
 * gives 0, an arithmetic one the sign. */
#define SHIFT(name, T, field, n, expr)                                                  \
	ROW(name)                                                                       \
	{                                                                               \
		uint64_t count = f->x2.q[0];                                            \
		for (int k = 0; k < (n); k++) {                                         \
			T v = (T)f->x1.field[k];                                        \
			f->x1.field[k] = expr;                                          \
		}                                                                       \
	}
SHIFT(psrlw, uint16_t, w, 8, count > 15 ? 0 : (uint16_t)(v >> count))
SHIFT(psrld, uint32_t, d, 4, count > 31 ? 0 : v >> count)
SHIFT(psrlq, uint64_t, q, 2, count > 63 ? 0 : v >> count)
SHIFT(psllw, uint16_t, w, 8, count > 15 ? 0 : (uint16_t)(v << count))
SHIFT(pslld, uint32_t, d, 4, count > 31 ? 0 : v << count)
SHIFT(psllq, uint64_t, q, 2, count > 63 ? 0 : v << count)
SHIFT(psraw, int16_t, w, 8, (uint16_t)(v >> (count > 15 ? 15 : count)))
SHIFT(psrad, int32_t, d, 4, (uint32_t)(v >> (count > 31 ? 31 : count)))
#undef SHIFT

/* Element-wise: a the destination's element, b the source's. */
#define ELEMENTWISE(name, T, field, n, expr)                                            \
	ROW(name)                                                                       \
	{                                                                               \
		for (int k = 0; k < (n); k++) {                                         \
			T a = (T)f->x1.field[k], b = (T)f->x2.field[k];                 \
			(void)a; /* PABSx read the source only */                       \
			f->x1.field[k] = expr;                                          \
		}                                                                       \
	}
ELEMENTWISE(pmullw, int16_t, w, 8, (uint16_t)((int32_t)a * b))
ELEMENTWISE(pmulhw, int16_t, w, 8, (uint16_t)(((int32_t)a * b) >> 16))
ELEMENTWISE(pmulhuw, uint16_t, w, 8, (uint16_t)(((uint32_t)a * b) >> 16))
ELEMENTWISE(pavgb, uint8_t, b, 16, (uint8_t)((a + b + 1) >> 1))
ELEMENTWISE(pavgw, uint16_t, w, 8, (uint16_t)((a + b + 1) >> 1))
ELEMENTWISE(paddsb, int8_t, b, 16, (uint8_t)sat8(a + b))
ELEMENTWISE(psubsb, int8_t, b, 16, (uint8_t)sat8(a - b))
ELEMENTWISE(paddsw, int16_t, w, 8, (uint16_t)sat16(a + b))
ELEMENTWISE(psubsw, int16_t, w, 8, (uint16_t)sat16(a - b))
/* SSSE3 */
ELEMENTWISE(psignb, int8_t, b, 16, (uint8_t)(b < 0 ? -a : b == 0 ? 0 : a))
ELEMENTWISE(psignw, int16_t, w, 8, (uint16_t)(b < 0 ? -a : b == 0 ? 0 : a))
ELEMENTWISE(psignd, int32_t, d, 4, b < 0 ? 0u - (uint32_t)a : b == 0 ? 0 : (uint32_t)a)
ELEMENTWISE(pmulhrsw, int16_t, w, 8, (uint16_t)((((int32_t)a * b >> 14) + 1) >> 1))
ELEMENTWISE(pabsb, int8_t, b, 16, (uint8_t)(b < 0 ? -b : b))
ELEMENTWISE(pabsw, int16_t, w, 8, (uint16_t)(b < 0 ? -b : b))
ELEMENTWISE(pabsd, int32_t, d, 4, b < 0 ? 0u - (uint32_t)b : (uint32_t)b)
/* SSE4.1, SSE4.2 */
ELEMENTWISE(pminsb, int8_t, b, 16, (uint8_t)(a < b ? a : b))
ELEMENTWISE(pmaxsb, int8_t, b, 16, (uint8_t)(a > b ? a : b))
ELEMENTWISE(pminuw, uint16_t, w, 8, a < b ? a : b)
ELEMENTWISE(pmaxuw, uint16_t, w, 8, a > b ? a : b)
ELEMENTWISE(pminsd, int32_t, d, 4, (uint32_t)(a < b ? a : b))
ELEMENTWISE(pmaxsd, int32_t, d, 4, (uint32_t)(a > b ? a : b))
ELEMENTWISE(pminud, uint32_t, d, 4, a < b ? a : b)
ELEMENTWISE(pmaxud, uint32_t, d, 4, a > b ? a : b)
ELEMENTWISE(pmulld, uint32_t, d, 4, a * b)
ELEMENTWISE(pcmpeqq, uint64_t, q, 2, a == b ? ~0ull : 0)
ELEMENTWISE(pcmpgtq, int64_t, q, 2, a > b ? ~0ull : 0)
#undef ELEMENTWISE

ROW(pmaddwd)
{
	for (int k = 0; k < 4; k++) /* 0x8000 * 0x8000 twice wraps to 0x80000000 */
		f->x1.d[k] = (uint32_t)((int32_t)(int16_t)f->x1.w[2 * k] * (int16_t)f->x2.w[2 * k]) +
			     (uint32_t)((int32_t)(int16_t)f->x1.w[2 * k + 1] *
					(int16_t)f->x2.w[2 * k + 1]);
}

ROW(psadbw)
{
	for (int h = 0; h < 2; h++) {
		unsigned sum = 0;

		for (int k = 8 * h; k < 8 * h + 8; k++)
			sum += (unsigned)abs(f->x1.b[k] - f->x2.b[k]);
		f->x1.q[h] = sum;
	}
}

ROW(unpckhps)
{
	cpu_xmm a = f->x1, b = f->x2;

	f->x1.d[0] = a.d[2];
	f->x1.d[1] = b.d[2];
	f->x1.d[2] = a.d[3];
	f->x1.d[3] = b.d[3];
}

ROW(shufps)
{
	cpu_xmm a = f->x1, b = f->x2;

	f->x1.d[0] = a.d[f->imm & 3];
	f->x1.d[1] = a.d[f->imm >> 2 & 3];
	f->x1.d[2] = b.d[f->imm >> 4 & 3];
	f->x1.d[3] = b.d[f->imm >> 6 & 3];
}

ROW(shufpd)
{
	cpu_xmm a = f->x1, b = f->x2;

	f->x1.q[0] = a.q[f->imm & 1];
	f->x1.q[1] = b.q[f->imm >> 1 & 1];
}

ROW(movddup)
{
	f->x1.q[0] = f->x1.q[1] = f->x2.q[0];
}

ROW(movsldup)
{
	f->x1.d[0] = f->x1.d[1] = f->x2.d[0];
	f->x1.d[2] = f->x1.d[3] = f->x2.d[2];
}

ROW(movshdup)
{
	f->x1.d[0] = f->x1.d[1] = f->x2.d[1];
	f->x1.d[2] = f->x1.d[3] = f->x2.d[3];
}

ROW(lddqu)
{
	f->x1 = f->x2;
}

ROW(movntdqa)
{
	f->x1 = f->x2;
}

ROW(pinsrw)
{
	f->x1.w[f->imm & 7] = (uint16_t)f->rax;
}

ROW(pextrw)
{
	f->rax = f->x2.w[f->imm & 7];
}

/* ---- SSSE3 ---- */

ROW(pshufb)
{
	cpu_xmm a = f->x1;

	for (int k = 0; k < 16; k++)
		f->x1.b[k] = f->x2.b[k] & 0x80 ? 0 : a.b[f->x2.b[k] & 15];
}

/* Horizontal pairs: the destination's pairs, then the source's. */
#define HORIZONTAL(name, T, field, n, expr)                                             \
	ROW(name)                                                                       \
	{                                                                               \
		cpu_xmm r;                                                              \
		for (int k = 0; k < (n); k++) {                                         \
			const cpu_xmm *s = k < (n) / 2 ? &f->x1 : &f->x2;               \
			int p = 2 * (k % ((n) / 2));                                    \
			T a = (T)s->field[p], b = (T)s->field[p + 1];                   \
			r.field[k] = expr;                                              \
		}                                                                       \
		f->x1 = r;                                                              \
	}
HORIZONTAL(phaddw, uint16_t, w, 8, (uint16_t)(a + b))
HORIZONTAL(phsubw, uint16_t, w, 8, (uint16_t)(a - b))
HORIZONTAL(phaddd, uint32_t, d, 4, a + b)
HORIZONTAL(phsubd, uint32_t, d, 4, a - b)
HORIZONTAL(phaddsw, int16_t, w, 8, (uint16_t)sat16(a + b))
HORIZONTAL(phsubsw, int16_t, w, 8, (uint16_t)sat16(a - b))
#undef HORIZONTAL

/* unsigned bytes of the destination times signed bytes of the source */
ROW(pmaddubsw)
{
	for (int k = 0; k < 8; k++)
		f->x1.w[k] = (uint16_t)sat16(f->x1.b[2 * k] * (int8_t)f->x2.b[2 * k] +
					     f->x1.b[2 * k + 1] * (int8_t)f->x2.b[2 * k + 1]);
}

/* destination:source shifted right by imm8 bytes */
ROW(palignr)
{
	uint8_t cat[48] = { 0 };

	memcpy(cat, f->x2.b, 16);
	memcpy(cat + 16, f->x1.b, 16);
	memcpy(f->x1.b, cat + (f->imm > 32 ? 32 : f->imm), 16);
}

/* ---- SSE4.1 ---- */

ROW(pblendvb)
{
	for (int k = 0; k < 16; k++)
		if (f->x0.b[k] & 0x80)
			f->x1.b[k] = f->x2.b[k];
}

ROW(blendvps)
{
	for (int k = 0; k < 4; k++)
		if (f->x0.d[k] >> 31)
			f->x1.d[k] = f->x2.d[k];
}

ROW(blendvpd)
{
	for (int k = 0; k < 2; k++)
		if (f->x0.q[k] >> 63)
			f->x1.q[k] = f->x2.q[k];
}

ROW(blendps)
{
	for (int k = 0; k < 4; k++)
		if (f->imm >> k & 1)
			f->x1.d[k] = f->x2.d[k];
}

ROW(blendpd)
{
	for (int k = 0; k < 2; k++)
		if (f->imm >> k & 1)
			f->x1.q[k] = f->x2.q[k];
}

ROW(pblendw)
{
	for (int k = 0; k < 8; k++)
		if (f->imm >> k & 1)
			f->x1.w[k] = f->x2.w[k];
}

/* ZF: destination AND source all zero; CF: NOT destination AND source */
ROW(ptest)
{
	uint64_t and = (f->x1.q[0] & f->x2.q[0]) | (f->x1.q[1] & f->x2.q[1]);
	uint64_t andn = (~f->x1.q[0] & f->x2.q[0]) | (~f->x1.q[1] & f->x2.q[1]);

	f->rflags = 2 | (and == 0 ? FL_ZF : 0) | (andn == 0 ? FL_CF : 0);
}

/* PMOVSX/PMOVZX: the source's low elements widened */
#define PMOVX(n, S, sfield, D, dfield, count)                                           \
	ROW(pmovsx##n)                                                                  \
	{                                                                               \
		cpu_xmm r;                                                              \
		for (int k = 0; k < (count); k++)                                       \
			r.dfield[k] = (D)(S)f->x2.sfield[k];                            \
		f->x1 = r;                                                              \
	}                                                                               \
	ROW(pmovzx##n)                                                                  \
	{                                                                               \
		cpu_xmm r;                                                              \
		for (int k = 0; k < (count); k++)                                       \
			r.dfield[k] = f->x2.sfield[k];                                  \
		f->x1 = r;                                                              \
	}
PMOVX(bw, int8_t, b, uint16_t, w, 8)
PMOVX(bd, int8_t, b, uint32_t, d, 4)
PMOVX(bq, int8_t, b, uint64_t, q, 2)
PMOVX(wd, int16_t, w, uint32_t, d, 4)
PMOVX(wq, int16_t, w, uint64_t, q, 2)
PMOVX(dq, int32_t, d, uint64_t, q, 2)
#undef PMOVX

ROW(pmuldq)
{
	for (int k = 0; k < 2; k++)
		f->x1.q[k] = (uint64_t)((int64_t)(int32_t)f->x1.d[2 * k] * (int32_t)f->x2.d[2 * k]);
}

ROW(packusdw)
{
	cpu_xmm r;

	for (int k = 0; k < 4; k++) {
		r.w[k] = satu16((int32_t)f->x1.d[k]);
		r.w[k + 4] = satu16((int32_t)f->x2.d[k]);
	}
	f->x1 = r;
}

/* the lowest unsigned word and its index (the first of equal ones) */
ROW(phminposuw)
{
	unsigned at = 0;

	for (unsigned k = 1; k < 8; k++)
		if (f->x2.w[k] < f->x2.w[at])
			at = k;
	f->x1.q[0] = f->x2.w[at] | (uint64_t)at << 16;
	f->x1.q[1] = 0;
}

/* eight sums of absolute differences: a 4-byte block of the source
 * (imm8[1:0]) against eleven bytes of the destination from imm8[2] * 4 */
ROW(mpsadbw)
{
	const uint8_t *a = f->x1.b + (f->imm >> 2 & 1) * 4, *b = f->x2.b + (f->imm & 3) * 4;
	cpu_xmm r;

	for (int k = 0; k < 8; k++) {
		unsigned sum = 0;

		for (int j = 0; j < 4; j++)
			sum += (unsigned)abs(a[k + j] - b[j]);
		r.w[k] = (uint16_t)sum;
	}
	f->x1 = r;
}

/* simd_exec has cleared imm8[7:6] for an m32 source (SF_M32SEL) */
ROW(insertps)
{
	uint32_t v = f->x2.d[f->imm >> 6 & 3];

	f->x1.d[f->imm >> 4 & 3] = v;
	for (int k = 0; k < 4; k++)
		if (f->imm >> k & 1)
			f->x1.d[k] = 0;
}

ROW(extractps)
{
	f->rax = f->x1.d[f->imm & 3];
}

ROW(pextrb)
{
	f->rax = f->x1.b[f->imm & 15];
}

ROW(pextrw_rm)
{
	f->rax = f->x1.w[f->imm & 7];
}

ROW(pextrd)
{
	f->rax = f->x1.d[f->imm & 3];
}

ROW(pextrd_w) /* PEXTRQ */
{
	f->rax = f->x1.q[f->imm & 1];
}

ROW(pinsrb)
{
	f->x1.b[f->imm & 15] = (uint8_t)f->rax;
}

ROW(pinsrd)
{
	f->x1.d[f->imm & 3] = (uint32_t)f->rax;
}

ROW(pinsrd_w) /* PINSRQ */
{
	f->x1.q[f->imm & 1] = f->rax;
}

/* ---- SSE4.2 string compares (SDM vol. 2, 4.1) ----
 * imm8[1:0]: unsigned bytes, unsigned words, signed bytes, signed words;
 * [3:2]: equal any, ranges, equal each, equal ordered; [5:4]: polarity;
 * [6]: the most significant index (..I) or a byte/word mask (..M).
 * Operand 1 (a) is the destination register, operand 2 (b) the source. */
static int64_t str_elem(const cpu_xmm *x, unsigned imm, int k)
{
	switch (imm & 3) {
	case 0: return x->b[k];
	case 1: return x->w[k];
	case 2: return (int8_t)x->b[k];
	default: return (int16_t)x->w[k];
	}
}

static int str_implicit_len(const cpu_xmm *x, unsigned imm, int n)
{
	int k = 0;

	while (k < n && str_elem(x, imm, k) != 0)
		k++;
	return k;
}

static int str_explicit_len(int64_t v, int n)
{
	if (v < 0)
		v = v == INT64_MIN ? INT64_MAX : -v;
	return v > n ? n : (int)v;
}

/* IntRes2 (before the output selection); sets the flags */
static unsigned str_compare(struct simd_frame *f, int la, int lb)
{
	unsigned imm = f->imm;
	int n = imm & 1 ? 8 : 16;
	unsigned res1 = 0, res2, all = (1u << n) - 1;
	int64_t a[16], b[16];

	for (int k = 0; k < n; k++) {
		a[k] = str_elem(&f->x1, imm, k);
		b[k] = str_elem(&f->x2, imm, k);
	}
	for (int i = 0; i < n; i++) { /* i: an element of operand 2 */
		bool r = false;

		switch (imm >> 2 & 3) {
		case 0: /* equal any: invalid elements compare false */
			for (int j = 0; j < la && i < lb; j++)
				r |= b[i] == a[j];
			break;
		case 1: /* ranges: pairs a[j] <= b <= a[j + 1], both valid */
			for (int j = 0; j + 1 < la && i < lb; j += 2)
				r |= a[j] <= b[i] && b[i] <= a[j + 1];
			break;
		case 2: /* equal each: two invalid elements compare true */
			r = i >= la && i >= lb ? true : i >= la || i >= lb ? false : a[i] == b[i];
			break;
		case 3: /* equal ordered: the needle a at b[i]; past a's end true */
			r = true;
			for (int j = 0; j < n - i && r; j++)
				r = j >= la ? true : i + j >= lb ? false : a[j] == b[i + j];
			break;
		}
		res1 |= (unsigned)r << i;
	}
	switch (imm >> 4 & 3) {
	case 1: res2 = ~res1 & all; break;
	case 3: res2 = res1 ^ (all & ((1u << lb) - 1)); break;
	default: res2 = res1; break;
	}
	f->rflags = 2 | (res2 ? FL_CF : 0) | (lb < n ? FL_ZF : 0) | (la < n ? FL_SF : 0) |
		    (res2 & 1 ? FL_OF : 0);
	return res2;
}

static void str_index(struct simd_frame *f, unsigned res2)
{
	int n = f->imm & 1 ? 8 : 16;

	f->rcx = !res2 ? (unsigned)n : f->imm & 0x40 ? 31u - (unsigned)__builtin_clz(res2)
						     : (unsigned)__builtin_ctz(res2);
}

static void str_mask(struct simd_frame *f, unsigned res2)
{
	memset(&f->x0, 0, sizeof(f->x0));
	if (!(f->imm & 0x40))
		f->x0.w[0] = (uint16_t)res2;
	else if (f->imm & 1)
		for (int k = 0; k < 8; k++)
			f->x0.w[k] = res2 >> k & 1 ? 0xffff : 0;
	else
		for (int k = 0; k < 16; k++)
			f->x0.b[k] = res2 >> k & 1 ? 0xff : 0;
}

#define STR_N(f) ((f)->imm & 1 ? 8 : 16)
#define STR_EXPLICIT(f, w)                                                                    \
	str_compare(f, str_explicit_len(w ? (int64_t)f->rax : (int32_t)f->rax, STR_N(f)),  \
		    str_explicit_len(w ? (int64_t)f->rdx : (int32_t)f->rdx, STR_N(f)))
#define STR_IMPLICIT(f)                                                                       \
	str_compare(f, str_implicit_len(&f->x1, f->imm, STR_N(f)),                            \
		    str_implicit_len(&f->x2, f->imm, STR_N(f)))

ROW(pcmpestri) { str_index(f, STR_EXPLICIT(f, false)); }
ROW(pcmpestri_w) { str_index(f, STR_EXPLICIT(f, true)); }
ROW(pcmpestrm) { str_mask(f, STR_EXPLICIT(f, false)); }
ROW(pcmpestrm_w) { str_mask(f, STR_EXPLICIT(f, true)); }
ROW(pcmpistri) { str_index(f, STR_IMPLICIT(f)); }
ROW(pcmpistrm) { str_mask(f, STR_IMPLICIT(f)); }
#endif
