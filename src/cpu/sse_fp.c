/* The SSE/AVX floating-point arithmetic in portable C: ADD, SUB, MUL,
 * DIV, SQRT, MIN and MAX, packed and scalar, single and double (the FP4
 * rows of opcodes_sse.def; their VEX forms run them per lane, avx.c),
 * the conversions CVTSS2SD..CVTTSD2SI (not the MMX CVTPI2PS..CVTPD2PI),
 * ADDSUB, HADD, HSUB, (U)COMISS/SD, ROUNDxx, DPPS and DPPD.
 * Built only with -DSG_PORTABLE_FP=ON, which runs these rows here instead
 * of on the host's instruction (sse_host.c: simd_exec calls the row's
 * simd_c_<name> where one is defined), so the C is checked against the
 * host by the same unit tests (unit.test_cpu_avx_portable,
 * unit.test_cpu_simd_portable).
 *
 * The x86 rules written out (SDM vol. 1, 11.5 and 4.8.3): MXCSR's rounding
 * control through C99 <fenv.h>; DAZ (a denormal operand is a zero of its
 * sign, no DE) and FTZ (a tiny result becomes a zero of its sign, UE and
 * PE) in C; a NaN operand gives the first NaN operand quietened (IE for an
 * SNaN), an invalid operation the default NaN (negative, quiet, payload 0)
 * and IE; a denormal operand DE; the overflow, underflow, divide-by-zero
 * and precision flags from the C operation's exceptions (IEEE 754's, which
 * x86 reports when every exception is masked: simd_exec runs every row so
 * and raises #XM for what the guest left unmasked). MIN and MAX return the
 * second operand when either is a NaN (IE) or both are zeros. With
 * underflow unmasked a tiny result raises UE even when exact (then #XM).
 * The one
 * host-dependent fact left: tininess is detected after rounding on x86,
 * before on some other hosts, which moves UE (and FTZ) at the boundary. */
#ifdef SG_PORTABLE_FP
#include <fenv.h>
#include <math.h>
#include "cpu/ops.h"
#include "cpu/sse_host.h"

enum { FE_IE = 1, FE_DE = 2, FE_ZE = 4, FE_OE = 8, FE_UE = 16, FE_PE = 32 };
#define MX_DAZ 0x40u
#define MX_FTZ 0x8000u
#define MX_UM 0x800u

/* The per-instruction context: the guest's MXCSR (for RC, DAZ, FTZ) and
 * the flags raised so far; the host's floating-point environment is the
 * default one (no DAZ/FTZ of the host's, exceptions masked) while the C
 * operations run, and is put back after. */
struct fp_ctx {
	uint32_t mxcsr;
	unsigned flags;
	fenv_t saved;
};

static void fp_begin(struct fp_ctx *x, uint32_t mxcsr)
{
	static const int rc[4] = { FE_TONEAREST, FE_DOWNWARD, FE_UPWARD, FE_TOWARDZERO };

	x->mxcsr = mxcsr;
	x->flags = 0;
	fegetenv(&x->saved);
	fesetenv(FE_DFL_ENV);
	fesetround(rc[(mxcsr >> 13) & 3]);
}

static void fp_end(struct fp_ctx *x, struct simd_frame *f)
{
	fesetenv(&x->saved);
	f->mxcsr |= x->flags;
}

/* The IEEE exceptions of one C operation, as MXCSR flags. */
static unsigned fp_raised(void)
{
	int e = fetestexcept(FE_ALL_EXCEPT);

	return (e & FE_INVALID ? FE_IE : 0) | (e & FE_DIVBYZERO ? FE_ZE : 0) |
	       (e & FE_OVERFLOW ? FE_OE : 0) | (e & FE_UNDERFLOW ? FE_UE : 0) |
	       (e & FE_INEXACT ? FE_PE : 0);
}

/* One set of element functions per width: T the C type, U its bits. */
#define FP_WIDTH(SFX, T, U, EXP_MASK, QUIET, DEFAULT_NAN)                                        \
	static inline U bits_##SFX(T v)                                                         \
	{                                                                                       \
		U u;                                                                            \
		memcpy(&u, &v, sizeof(u));                                                      \
		return u;                                                                       \
	}                                                                                       \
	static inline T from_##SFX(U u)                                                         \
	{                                                                                       \
		T v;                                                                            \
		memcpy(&v, &u, sizeof(v));                                                      \
		return v;                                                                       \
	}                                                                                       \
	static inline bool is_nan_##SFX(U u)                                                    \
	{                                                                                       \
		return (u & (EXP_MASK)) == (EXP_MASK) &&                                         \
		       (u & (((EXP_MASK) & -(EXP_MASK)) - 1)) != 0;                             \
	}                                                                                       \
	static inline bool is_snan_##SFX(U u)                                                   \
	{                                                                                       \
		return is_nan_##SFX(u) && !(u & (QUIET));                                       \
	}                                                                                       \
	static inline bool is_denormal_##SFX(U u)                                               \
	{                                                                                       \
		return (u & (EXP_MASK)) == 0 && (u << 1) != 0;                                  \
	}                                                                                       \
	static inline bool is_zero_##SFX(U u)                                                   \
	{                                                                                       \
		return (U)(u << 1) == 0;                                                        \
	}                                                                                       \
	/* DAZ on an operand; DE for a denormal one without it */                               \
	static inline U operand_##SFX(struct fp_ctx *x, U u)                                    \
	{                                                                                       \
		if (!is_denormal_##SFX(u))                                                      \
			return u;                                                               \
		if (x->mxcsr & MX_DAZ)                                                          \
			return u & ~(U)0 << (sizeof(U) * 8 - 1);                                \
		x->flags |= FE_DE;                                                              \
		return u;                                                                       \
	}                                                                                       \
	/* the result of the C operation r: its flags, then FTZ */                              \
	static inline U result_##SFX(struct fp_ctx *x, T r)                                     \
	{                                                                                       \
		U u = bits_##SFX(r);                                                            \
		x->flags |= fp_raised();                                                        \
		if (!(x->mxcsr & MX_UM) && is_denormal_##SFX(u))                                \
			x->flags |= FE_UE; /* unmasked: tiny, exact or not */                   \
		else if ((x->mxcsr & MX_FTZ) && is_denormal_##SFX(u)) {                         \
			x->flags |= FE_UE | FE_PE;                                              \
			u &= ~(U)0 << (sizeof(U) * 8 - 1);                                      \
		}                                                                               \
		return u;                                                                       \
	}                                                                                       \
	/* NaN operands: the first NaN quietened, IE for an SNaN; false if none */              \
	static inline bool nan_##SFX(struct fp_ctx *x, U a, U b, bool two, U *out)              \
	{                                                                                       \
		bool na = two && is_nan_##SFX(a), nb = is_nan_##SFX(b);                         \
		if (!na && !nb)                                                                 \
			return false;                                                           \
		if ((na && is_snan_##SFX(a)) || (nb && is_snan_##SFX(b)))                       \
			x->flags |= FE_IE;                                                      \
		*out = (na ? a : b) | (QUIET);                                                  \
		return true;                                                                    \
	}                                                                                       \
	static inline U arith_##SFX(struct fp_ctx *x, char op, U a, U b)                        \
	{                                                                                       \
		volatile T va, vb, r; /* in order with the fenv calls */                        \
		U out;                                                                          \
		if (nan_##SFX(x, a, b, op != 'q', &out))                                        \
			return out;                                                             \
		if (op == 'q' && (b >> (sizeof(U) * 8 - 1)) && !is_zero_##SFX(b) &&            \
		    !(is_denormal_##SFX(b) && (x->mxcsr & MX_DAZ))) {                           \
			x->flags |= FE_IE; /* the root of a negative: before DE */              \
			return (DEFAULT_NAN);                                                   \
		}                                                                               \
		/* SQRT has one operand; x / 0 is ZE alone, no DE for a denormal x */          \
		if (op != 'q' && !(op == '/' && is_zero_##SFX(b) && !(x->mxcsr & MX_DAZ)))     \
			a = operand_##SFX(x, a);                                                \
		b = operand_##SFX(x, b);                                                        \
		va = from_##SFX(a);                                                             \
		vb = from_##SFX(b);                                                             \
		feclearexcept(FE_ALL_EXCEPT);                                                   \
		switch (op) {                                                                   \
		case '+': r = va + vb; break;                                                   \
		case '-': r = va - vb; break;                                                   \
		case '*': r = va * vb; break;                                                   \
		case '/': r = va / vb; break;                                                   \
		default: r = sqrt##SFX(vb); break;                                              \
		}                                                                               \
		if (isnan(r)) { /* an invalid operation on non-NaN operands */                  \
			x->flags |= FE_IE;                                                      \
			return (DEFAULT_NAN);                                                   \
		}                                                                               \
		return result_##SFX(x, r);                                                      \
	}                                                                                       \
	/* MIN/MAX: the second operand for a NaN (IE) or two zeros */                           \
	static inline U minmax_##SFX(struct fp_ctx *x, bool max, U a, U b)                      \
	{                                                                                       \
		T fa, fb;                                                                       \
		if (is_nan_##SFX(a) || is_nan_##SFX(b)) {                                       \
			x->flags |= FE_IE;                                                      \
			if ((x->mxcsr & MX_DAZ) && is_denormal_##SFX(b)) /* no DE here */      \
				b &= ~(U)0 << (sizeof(U) * 8 - 1);                              \
			return b;                                                               \
		}                                                                               \
		a = operand_##SFX(x, a);                                                        \
		b = operand_##SFX(x, b);                                                        \
		if (is_zero_##SFX(a) && is_zero_##SFX(b))                                       \
			return b;                                                               \
		fa = from_##SFX(a);                                                             \
		fb = from_##SFX(b);                                                             \
		return (max ? fa > fb : fa < fb) ? a : b;                                       \
	}

#define sqrtf32 sqrtf
#define sqrtf64 sqrt
FP_WIDTH(f32, float, uint32_t, 0x7f800000u, 0x00400000u, 0xffc00000u)
FP_WIDTH(f64, double, uint64_t, 0x7ff0000000000000ull, 0x0008000000000000ull,
	 0xfff8000000000000ull)
#undef FP_WIDTH

/* x1 = op(x1, x2) element by element: all four (PS), two (PD) or the low
 * one (SS, SD: the rest of x1 kept). */
#define FP_ROW(name, SFX, LANE, N, EXPR)                                                        \
	void simd_c_##name(struct simd_frame *f)                                                \
	{                                                                                       \
		struct fp_ctx x;                                                                \
		fp_begin(&x, f->mxcsr);                                                         \
		for (int k = 0; k < (N); k++) {                                                 \
			__typeof__(f->x1.LANE[0]) a = f->x1.LANE[k], b = f->x2.LANE[k];         \
			f->x1.LANE[k] = (EXPR);                                                 \
		}                                                                               \
		fp_end(&x, f);                                                                  \
	}
#define FP_ROWS4(n, EXPR32, EXPR64)                                                             \
	FP_ROW(n##ps, f32, d, 4, EXPR32) FP_ROW(n##pd, f64, q, 2, EXPR64)                        \
	FP_ROW(n##ss, f32, d, 1, EXPR32) FP_ROW(n##sd, f64, q, 1, EXPR64)
FP_ROWS4(add, arith_f32(&x, '+', a, b), arith_f64(&x, '+', a, b))
FP_ROWS4(sub, arith_f32(&x, '-', a, b), arith_f64(&x, '-', a, b))
FP_ROWS4(mul, arith_f32(&x, '*', a, b), arith_f64(&x, '*', a, b))
FP_ROWS4(div, arith_f32(&x, '/', a, b), arith_f64(&x, '/', a, b))
FP_ROWS4(sqrt, arith_f32(&x, 'q', a, b), arith_f64(&x, 'q', a, b))
FP_ROWS4(min, minmax_f32(&x, false, a, b), minmax_f64(&x, false, a, b))
FP_ROWS4(max, minmax_f32(&x, true, a, b), minmax_f64(&x, true, a, b))
#undef FP_ROWS4
#undef FP_ROW

/* ---- conversions (CVT*: SDM's exception lists: FP -> FP raises IE and DE
 * and, narrowing, OE UE PE; FP -> integer IE and PE only, no DE; integer
 * -> FP PE) ---- */

static inline uint32_t sign_of(uint64_t u, unsigned bits)
{
	return (uint32_t)(u >> (bits - 1)) & 1;
}

/* A NaN into the other width: sign, payload's top bits, quietened; IE
 * for an SNaN. */
static uint64_t nan_widen(struct fp_ctx *x, uint32_t u)
{
	if (is_snan_f32(u))
		x->flags |= FE_IE;
	return (uint64_t)sign_of(u, 32) << 63 | 0x7ff8000000000000ull | (uint64_t)(u & 0x7fffff) << 29;
}

static uint32_t nan_narrow(struct fp_ctx *x, uint64_t u)
{
	if (is_snan_f64(u))
		x->flags |= FE_IE;
	return sign_of(u, 64) << 31 | 0x7fc00000u | (uint32_t)(u >> 29 & 0x7fffff);
}

static uint64_t cvt_f32_f64(struct fp_ctx *x, uint32_t u)
{
	if (is_nan_f32(u))
		return nan_widen(x, u);
	return bits_f64((double)from_f32(operand_f32(x, u))); /* exact */
}

static uint32_t cvt_f64_f32(struct fp_ctx *x, uint64_t u)
{
	volatile double v;
	volatile float r;

	if (is_nan_f64(u))
		return nan_narrow(x, u);
	v = from_f64(operand_f64(x, u));
	feclearexcept(FE_ALL_EXCEPT);
	r = (float)v;
	return result_f32(x, r);
}

/* FP (exactly in a double) -> a signed integer of bits bits, rounded by
 * RC or truncated: out of range or NaN gives IE and the integer
 * indefinite (only the sign bit set), no PE. */
static uint64_t cvt_to_int(struct fp_ctx *x, bool nan, double v, bool truncate, unsigned bits)
{
	double lim = bits == 64 ? 0x1p63 : 0x1p31, r;

	if (!nan) {
		r = truncate ? trunc(v) : nearbyint(v);
		if (r >= -lim && r < lim) {
			if (r != v)
				x->flags |= FE_PE;
			return (uint64_t)(int64_t)r & (bits == 64 ? ~0ull : 0xffffffffull);
		}
	}
	x->flags |= FE_IE;
	return 1ull << (bits - 1);
}

/* DAZ on a source of a conversion to an integer (no DE there) */
static double int_src_f32(const struct fp_ctx *x, uint32_t u)
{
	if ((x->mxcsr & MX_DAZ) && is_denormal_f32(u))
		u &= 0x80000000u;
	return from_f32(u);
}

static double int_src_f64(const struct fp_ctx *x, uint64_t u)
{
	if ((x->mxcsr & MX_DAZ) && is_denormal_f64(u))
		u &= 0x8000000000000000ull;
	return from_f64(u);
}

#define F32_INT(x, u, t, bits) cvt_to_int(x, is_nan_f32(u), int_src_f32(x, u), t, bits)
#define F64_INT(x, u, t, bits) cvt_to_int(x, is_nan_f64(u), int_src_f64(x, u), t, bits)

/* integer -> float / double under RC (PE from the C conversion) */
static uint32_t cvt_i64_f32(struct fp_ctx *x, int64_t n)
{
	volatile int64_t v = n;
	volatile float r;

	feclearexcept(FE_ALL_EXCEPT);
	r = (float)v;
	x->flags |= fp_raised();
	return bits_f32(r);
}

static uint64_t cvt_i64_f64(struct fp_ctx *x, int64_t n)
{
	volatile int64_t v = n;
	volatile double r;

	feclearexcept(FE_ALL_EXCEPT);
	r = (double)v;
	x->flags |= fp_raised();
	return bits_f64(r);
}

/* One conversion row: BODY with x (the context) and f (the frame). */
#define CVT_ROW(name, BODY)                                                                     \
	void simd_c_##name(struct simd_frame *f)                                                \
	{                                                                                       \
		struct fp_ctx x;                                                                \
		cpu_xmm in = f->x2;                                                             \
		fp_begin(&x, f->mxcsr);                                                         \
		BODY;                                                                           \
		fp_end(&x, f);                                                                  \
	}

CVT_ROW(cvtss2sd, f->x1.q[0] = cvt_f32_f64(&x, in.d[0]))
CVT_ROW(cvtsd2ss, f->x1.d[0] = cvt_f64_f32(&x, in.q[0]))
CVT_ROW(cvtps2pd, for (int k = 0; k < 2; k++) f->x1.q[k] = cvt_f32_f64(&x, in.d[k]))
CVT_ROW(cvtpd2ps, for (int k = 0; k < 2; k++) f->x1.d[k] = cvt_f64_f32(&x, in.q[k]);
	f->x1.q[1] = 0)
CVT_ROW(cvtdq2ps, for (int k = 0; k < 4; k++) f->x1.d[k] = cvt_i64_f32(&x, (int32_t)in.d[k]))
CVT_ROW(cvtdq2pd, for (int k = 0; k < 2; k++) f->x1.q[k] = cvt_i64_f64(&x, (int32_t)in.d[k]))
CVT_ROW(cvtps2dq, for (int k = 0; k < 4; k++) f->x1.d[k] = (uint32_t)F32_INT(&x, in.d[k], false, 32))
CVT_ROW(cvttps2dq, for (int k = 0; k < 4; k++) f->x1.d[k] = (uint32_t)F32_INT(&x, in.d[k], true, 32))
CVT_ROW(cvtpd2dq, for (int k = 0; k < 2; k++) f->x1.d[k] = (uint32_t)F64_INT(&x, in.q[k], false, 32);
	f->x1.q[1] = 0)
CVT_ROW(cvttpd2dq, for (int k = 0; k < 2; k++) f->x1.d[k] = (uint32_t)F64_INT(&x, in.q[k], true, 32);
	f->x1.q[1] = 0)
/* the GPR forms: eax/rax in and out (REX.W / VEX.W: the _w rows) */
CVT_ROW(cvtsi2ss, (void)in; f->x1.d[0] = cvt_i64_f32(&x, (int32_t)f->rax))
CVT_ROW(cvtsi2ss_w, (void)in; f->x1.d[0] = cvt_i64_f32(&x, (int64_t)f->rax))
CVT_ROW(cvtsi2sd, (void)in; f->x1.q[0] = cvt_i64_f64(&x, (int32_t)f->rax))
CVT_ROW(cvtsi2sd_w, (void)in; f->x1.q[0] = cvt_i64_f64(&x, (int64_t)f->rax))
CVT_ROW(cvtss2si, f->rax = F32_INT(&x, in.d[0], false, 32))
CVT_ROW(cvtss2si_w, f->rax = F32_INT(&x, in.d[0], false, 64))
CVT_ROW(cvttss2si, f->rax = F32_INT(&x, in.d[0], true, 32))
CVT_ROW(cvttss2si_w, f->rax = F32_INT(&x, in.d[0], true, 64))
CVT_ROW(cvtsd2si, f->rax = F64_INT(&x, in.q[0], false, 32))
CVT_ROW(cvtsd2si_w, f->rax = F64_INT(&x, in.q[0], false, 64))
CVT_ROW(cvttsd2si, f->rax = F64_INT(&x, in.q[0], true, 32))
CVT_ROW(cvttsd2si_w, f->rax = F64_INT(&x, in.q[0], true, 64))
#undef CVT_ROW

/* ---- ADDSUB, HADD, HSUB (SSE3) and COMIS/UCOMIS ---- */

/* x1 = op(x1, x2) over the pairs the row names: out[k] = (p, q, op). */
#define PAIR_ROW(name, SFX, LANE, N, PICK)                                                      \
	void simd_c_##name(struct simd_frame *f)                                                \
	{                                                                                       \
		struct fp_ctx x;                                                                \
		cpu_xmm a = f->x1, b = f->x2;                                                   \
		fp_begin(&x, f->mxcsr);                                                         \
		for (int k = 0; k < (N); k++) {                                                 \
			__typeof__(a.LANE[0]) p, q;                                             \
			char op;                                                                \
			PICK;                                                                   \
			f->x1.LANE[k] = arith_##SFX(&x, op, p, q);                              \
		}                                                                               \
		fp_end(&x, f);                                                                  \
	}
/* ADDSUB: even elements subtract, odd add */
PAIR_ROW(addsubps, f32, d, 4, (p = a.d[k], q = b.d[k], op = k & 1 ? '+' : '-'))
PAIR_ROW(addsubpd, f64, q, 2, (p = a.q[k], q = b.q[k], op = k & 1 ? '+' : '-'))
/* HADD/HSUB: adjacent pairs of x1, then of x2 */
#define HPAIR(LANE, N, o)                                                                       \
	(p = k < (N) / 2 ? a.LANE[2 * k] : b.LANE[2 * k - (N)],                                 \
	 q = k < (N) / 2 ? a.LANE[2 * k + 1] : b.LANE[2 * k + 1 - (N)], op = (o))
PAIR_ROW(haddps, f32, d, 4, HPAIR(d, 4, '+'))
PAIR_ROW(hsubps, f32, d, 4, HPAIR(d, 4, '-'))
PAIR_ROW(haddpd, f64, q, 2, HPAIR(q, 2, '+'))
PAIR_ROW(hsubpd, f64, q, 2, HPAIR(q, 2, '-'))
#undef HPAIR
#undef PAIR_ROW

/* (U)COMISS/SD: ZF PF CF = 111 unordered, 000 greater, 001 less, 100
 * equal; OF SF AF clear. IE for an SNaN, or (COMIS) any NaN. */
#define COMI_ROW(name, SFX, LANE, QUIET_OK)                                                     \
	void simd_c_##name(struct simd_frame *f)                                                \
	{                                                                                       \
		struct fp_ctx x;                                                                \
		__typeof__(f->x1.LANE[0]) a = f->x1.LANE[0], b = f->x2.LANE[0];                 \
		fp_begin(&x, f->mxcsr);                                                         \
		if (is_nan_##SFX(a) || is_nan_##SFX(b)) {                                       \
			if (!(QUIET_OK) || is_snan_##SFX(a) || is_snan_##SFX(b))                \
				x.flags |= FE_IE;                                               \
			f->rflags = 0x45;                                                       \
		} else {                                                                        \
			a = operand_##SFX(&x, a);                                               \
			b = operand_##SFX(&x, b);                                               \
			f->rflags = from_##SFX(a) == from_##SFX(b)  ? 0x40                      \
				    : from_##SFX(a) < from_##SFX(b) ? 0x01                      \
								    : 0;                        \
		}                                                                               \
		fp_end(&x, f);                                                                  \
	}
COMI_ROW(ucomiss, f32, d, true)
COMI_ROW(ucomisd, f64, q, true)
COMI_ROW(comiss, f32, d, false)
COMI_ROW(comisd, f64, q, false)
#undef COMI_ROW

/* ---- ROUND (SSE4.1) and DPPS/DPPD ---- */

/* ROUNDxx: imm8[1:0] the rounding (imm8[2]: MXCSR's instead), imm8[3] no
 * PE; IE for an SNaN (quietened), DAZ applies, no DE. */
#define ROUND_ROW(name, SFX, LANE, N)                                                           \
	void simd_c_##name(struct simd_frame *f)                                                \
	{                                                                                       \
		static const int rc[4] = { FE_TONEAREST, FE_DOWNWARD, FE_UPWARD, FE_TOWARDZERO }; \
		struct fp_ctx x;                                                                \
		cpu_xmm in = f->x2;                                                             \
		fp_begin(&x, f->mxcsr);                                                         \
		if (!(f->imm & 4))                                                              \
			fesetround(rc[f->imm & 3]);                                             \
		for (int k = 0; k < (N); k++) {                                                 \
			__typeof__(in.LANE[0]) u = in.LANE[k], out;                             \
			volatile __typeof__(from_##SFX(u)) v, r;                                \
			if (nan_##SFX(&x, u, u, false, &out)) {                                 \
				f->x1.LANE[k] = out;                                            \
				continue;                                                       \
			}                                                                       \
			if ((x.mxcsr & MX_DAZ) && is_denormal_##SFX(u))                         \
				u &= (__typeof__(u))1 << (sizeof(u) * 8 - 1);                   \
			v = from_##SFX(u);                                                      \
			r = nearbyint##SFX(v);                                                  \
			if (r != v && !(f->imm & 8))                                            \
				x.flags |= FE_PE;                                               \
			f->x1.LANE[k] = bits_##SFX(r);                                          \
		}                                                                               \
		fp_end(&x, f);                                                                  \
	}
#define nearbyintf32 nearbyintf
#define nearbyintf64 nearbyint
ROUND_ROW(roundps, f32, d, 4)
ROUND_ROW(roundpd, f64, q, 2)
ROUND_ROW(roundss, f32, d, 1)
ROUND_ROW(roundsd, f64, q, 1)
#undef ROUND_ROW

/* DPPS/DPPD: the products imm8[7:4] selects (+0.0 for the others), summed
 * in the SDM's order ((p0 + p1) + (p2 + p3)), each step rounded, into the
 * elements imm8[3:0] selects (+0.0 elsewhere). */
void simd_c_dpps(struct simd_frame *f)
{
	struct fp_ctx x;
	uint32_t p[4], sum;

	fp_begin(&x, f->mxcsr);
	for (int k = 0; k < 4; k++)
		p[k] = f->imm >> (4 + k) & 1 ? arith_f32(&x, '*', f->x1.d[k], f->x2.d[k]) : 0;
	sum = arith_f32(&x, '+', arith_f32(&x, '+', p[0], p[1]), arith_f32(&x, '+', p[2], p[3]));
	for (int k = 0; k < 4; k++)
		f->x1.d[k] = f->imm >> k & 1 ? sum : 0;
	fp_end(&x, f);
}

void simd_c_dppd(struct simd_frame *f)
{
	struct fp_ctx x;
	uint64_t p[2], sum;

	fp_begin(&x, f->mxcsr);
	for (int k = 0; k < 2; k++)
		p[k] = f->imm >> (4 + k) & 1 ? arith_f64(&x, '*', f->x1.q[k], f->x2.q[k]) : 0;
	sum = arith_f64(&x, '+', p[0], p[1]);
	for (int k = 0; k < 2; k++)
		f->x1.q[k] = f->imm >> k & 1 ? sum : 0;
	fp_end(&x, f);
}
#endif
