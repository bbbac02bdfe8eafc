/* Fast forms of the hot VEX instructions (docs/cpu.md, "AVX fast forms"):
 * what OpenSSL's AES-GCM (aesni_ctr32_ghash_6x and its GHASH) is made of —
 * VAESENC/VAESENCLAST/VAESDEC/VAESDECLAST and VPCLMULQDQ on registers,
 * VPXOR and the other bitwise and SSE2 integer operations, VMOVDQU/
 * VMOVUPS/VMOVDQA loads, stores and register moves, VPALIGNR, VPSRLDQ and
 * VPSLLDQ. avx_specialise picks one at decode time for the operand kinds
 * (register or memory, VEX.128 or VEX.256, the PCLMULQDQ immediate), where
 * the table handler's checks can be settled there (VEX.L and vvvv of the
 * encoding, and XCR0: AVX enabled, set by cpu_init and never changed by
 * the guest, XSETBV being privileged); each hands anything unusual to the
 * table handler (avx.c), which raises what it raises: a misaligned VMOVDQA
 * operand (#GP), a store that is not plain (another page, decoded code,
 * memory that is not the guest's: avx.c's ordered store). The 128-bit lane
 * functions are sse_lanes.h's facts; AES-NI and PCLMULQDQ run the host's
 * instructions, so these forms exist only where the host has them and the
 * build does not force the portable path (crypto.c). */
#include <immintrin.h>
#include <stddef.h>
#include "cpu/cache.h"
#include "cpu/crypto.h"
#include "cpu/ops.h"
#include "cpu/sse_lanes.h"

/* A VEX.128 result clears bits 255:128 of its destination. */
static inline void zero_upper(struct cpu *c, unsigned r)
{
	c->ymm_hi[r].q[0] = 0;
	c->ymm_hi[r].q[1] = 0;
}

/* The forms name their XMM registers by their byte offsets in struct cpu,
 * which avx_specialise keeps in a field the form does not use: insn.disp
 * for the register forms (no displacement), insn.imm for the memory forms
 * without an immediate: a load each where a register number costs a load,
 * a shift and an add. A register's upper half is 16 entries further
 * (ymm_hi follows xmm). */
enum { XR_REG, XR_VVVV, XR_RM };
_Static_assert(offsetof(struct cpu, ymm_hi) == offsetof(struct cpu, xmm) + 16 * sizeof(cpu_xmm),
	       "ymm_hi follows xmm");
_Static_assert(offsetof(struct cpu, ymm_hi) + 16 * sizeof(cpu_xmm) <= 65536,
	       "register offsets fit 16 bits");

static inline cpu_xmm *xoff(struct cpu *c, const void *field, unsigned which)
{
	uint16_t off;

	memcpy(&off, (const uint8_t *)field + 2 * which, sizeof(off));
	return (cpu_xmm *)((uint8_t *)c + off);
}
#define xr(c, i, which) xoff(c, &insn_disp(i), which) /* register forms */
#define xm(c, i, which) xoff(c, &insn_imm(i), which)  /* memory forms */

static uint64_t reg_offsets(const struct insn *i)
{
	uint64_t x = offsetof(struct cpu, xmm), n = sizeof(cpu_xmm);

	return (x + n * i->reg) | (x + n * VEX_V(i)) << 16 | (x + n * i->rm) << 32;
}

/* A legacy SSE result into the register at d: bits 255:128 kept. */
static inline void put_whole(cpu_xmm *d, cpu_xmm v)
{
	d[0] = v;
}

/* A VEX.128 result into the register at d: bits 255:128 cleared. */
static inline void put_low(cpu_xmm *d, cpu_xmm v)
{
	d[0] = v;
	d[16].q[0] = 0;
	d[16].q[1] = 0;
}

/* Write a VEX.128 result to XMM r (r in a register: the compiler would
 * reload insn.reg after each store through c, which may alias it). */
static inline void put_xmm(struct cpu *c, unsigned r, cpu_xmm v)
{
	c->xmm[r] = v;
	zero_upper(c, r);
}

/* ---- two-operand integer and bitwise operations: dst = op(vvvv, r/m) ---- */

/* sse_lanes.h's lane functions, inlined here: the same EXPR per element. */
#define FAST_LANE(name, LANE, N, EXPR)                                                          \
	static inline void fast_lane_##name(cpu_xmm *d, const cpu_xmm *s)                       \
	{                                                                                       \
		for (int k = 0; k < (N); k++) {                                                 \
			__typeof__(d->LANE[0]) a = d->LANE[k], b = s->LANE[k];                  \
			d->LANE[k] = (__typeof__(d->LANE[0]))(EXPR);                            \
		}                                                                               \
	}
PACKED_OPS(FAST_LANE)
#undef FAST_LANE

/* Four forms per operation: r/m a register or memory, VEX.128 or VEX.256. */
#define FAST_BINARY(name, lane)                                                                 \
	static const struct insn *fast_v##name##_rx(struct cpu *c, const struct insn *i)        \
	{                                                                                       \
		cpu_xmm a = *xr(c, i, XR_VVVV), *d = xr(c, i, XR_REG);                          \
		lane(&a, xr(c, i, XR_RM));                                                      \
		put_low(d, a);                                                                  \
		return exec_next(c, i);                                                         \
	}                                                                                       \
	static const struct insn *fast_v##name##_ry(struct cpu *c, const struct insn *i)        \
	{                                                                                       \
		const cpu_xmm *v = xr(c, i, XR_VVVV), *b = xr(c, i, XR_RM);                     \
		cpu_xmm a = v[0], h = v[16], *d = xr(c, i, XR_REG);                             \
		lane(&a, &b[0]);                                                                \
		lane(&h, &b[16]);                                                               \
		d[0] = a;                                                                       \
		d[16] = h;                                                                      \
		return exec_next(c, i);                                                         \
	}

/* ... and in the four address shapes (insn.h, EA_SHAPES) for memory. */
#define FAST_BINARY_MEM(name, lane, SH, EA)                                                     \
	static const struct insn *fast_v##name##_mx##SH(struct cpu *c, const struct insn *i)    \
	{                                                                                       \
		cpu_xmm a, b;                                                                   \
		mem_read16(EA(c, i), &b);                                                       \
		a = *xm(c, i, XR_VVVV);                                                         \
		lane(&a, &b);                                                                   \
		put_low(xm(c, i, XR_REG), a);                                                   \
		return exec_next(c, i);                                                         \
	}                                                                                       \
	static const struct insn *fast_v##name##_my##SH(struct cpu *c, const struct insn *i)    \
	{                                                                                       \
		cpu_xmm a, h, b[2], *d;                                                         \
		uint64_t addr = EA(c, i);                                                       \
		mem_read16(addr, &b[0]);                                                        \
		mem_read16(addr + 16, &b[1]);                                                   \
		a = xm(c, i, XR_VVVV)[0];                                                       \
		h = xm(c, i, XR_VVVV)[16];                                                      \
		lane(&a, &b[0]);                                                                \
		lane(&h, &b[1]);                                                                \
		d = xm(c, i, XR_REG);                                                           \
		d[0] = a;                                                                       \
		d[16] = h;                                                                      \
		return exec_next(c, i);                                                         \
	}

#define FAST_PACKED(name, ...)                                                                  \
	FAST_BINARY(name, fast_lane_##name) EA_SHAPES(FAST_BINARY_MEM, name, fast_lane_##name)
PACKED_OPS(FAST_PACKED)
#undef FAST_PACKED

/* The handler rows of these operations: the packed-float logic is the
 * same bitwise operation as its integer twin. */
#define FAST_BINARY_ROWS(X)                                                                     \
	X(op_v_pand, pand) X(op_v_andps, pand) X(op_v_andpd, pand) X(op_v_pandn, pandn)         \
	X(op_v_andnps, pandn) X(op_v_andnpd, pandn) X(op_v_por, por) X(op_v_orps, por)          \
	X(op_v_orpd, por) X(op_v_pxor, pxor) X(op_v_xorps, pxor) X(op_v_xorpd, pxor)            \
	X(op_v_pcmpeqb, pcmpeqb) X(op_v_pcmpeqw, pcmpeqw) X(op_v_pcmpeqd, pcmpeqd)              \
	X(op_v_pcmpgtb, pcmpgtb) X(op_v_pcmpgtw, pcmpgtw) X(op_v_pcmpgtd, pcmpgtd)              \
	X(op_v_paddb, paddb) X(op_v_paddw, paddw) X(op_v_paddd, paddd) X(op_v_paddq, paddq)     \
	X(op_v_psubb, psubb) X(op_v_psubw, psubw) X(op_v_psubd, psubd) X(op_v_psubq, psubq)     \
	X(op_v_paddusb, paddusb) X(op_v_paddusw, paddusw) X(op_v_psubusb, psubusb)              \
	X(op_v_psubusw, psubusw) X(op_v_pminub, pminub) X(op_v_pmaxub, pmaxub)                  \
	X(op_v_pminsw, pminsw) X(op_v_pmaxsw, pmaxsw)

/* ---- byte shifts and alignment (sse_lanes.h's lane_alignr) ---- */

/* VPSRLDQ/VPSLLDQ vvvv, r/m (register only), imm8: each lane by imm8. */
#define FAST_BYTE_SHIFT(name)                                                                   \
	static const struct insn *fast_v##name##_x(struct cpu *c, const struct insn *i)         \
	{                                                                                       \
		cpu_xmm s;                                                                      \
		s = c->xmm[i->rm];                                                              \
		lane_##name(&c->xmm[VEX_V(i)], &s, (unsigned)(insn_imm(i) & 0xff));                  \
		zero_upper(c, VEX_V(i));                                                        \
		return exec_next(c, i);                                                         \
	}                                                                                       \
	static const struct insn *fast_v##name##_y(struct cpu *c, const struct insn *i)         \
	{                                                                                       \
		cpu_xmm s, h;                                                                   \
		s = c->xmm[i->rm];                                                              \
		h = c->ymm_hi[i->rm];                                                           \
		lane_##name(&c->xmm[VEX_V(i)], &s, (unsigned)(insn_imm(i) & 0xff));                  \
		lane_##name(&c->ymm_hi[VEX_V(i)], &h, (unsigned)(insn_imm(i) & 0xff));               \
		return exec_next(c, i);                                                         \
	}
FAST_BYTE_SHIFT(psrldq)
FAST_BYTE_SHIFT(pslldq)
#undef FAST_BYTE_SHIFT

/* VPALIGNR reg, vvvv, r/m, imm8: each lane (vvvv:r/m) >> 8 * imm8.
 * Inlined into every handler, so that they jump to the next one: called,
 * its exec_next left their frames under the next handler's, and a guest
 * loop of VPALIGNR (OpenSSL's SHA-512) overflowed the host stack. */
static inline __attribute__((always_inline)) const struct insn *
vpalignr(struct cpu *c, const struct insn *i, const cpu_xmm *b, bool l256)
{
	unsigned n = (unsigned)(insn_imm(i) & 0xff);
	cpu_xmm lo, hi;

	lane_alignr(&lo, &c->xmm[VEX_V(i)], &b[0], n);
	if (l256)
		lane_alignr(&hi, &c->ymm_hi[VEX_V(i)], &b[1], n);
	if (l256) {
		c->xmm[i->reg] = lo;
		c->ymm_hi[i->reg] = hi;
	} else {
		put_xmm(c, i->reg, lo);
	}
	return exec_next(c, i);
}

static const struct insn *fast_vpalignr_rx(struct cpu *c, const struct insn *i)
{
	cpu_xmm b[1];

	b[0] = c->xmm[i->rm];
	return vpalignr(c, i, b, false);
}

static const struct insn *fast_vpalignr_ry(struct cpu *c, const struct insn *i)
{
	cpu_xmm b[2];

	b[0] = c->xmm[i->rm];
	b[1] = c->ymm_hi[i->rm];
	return vpalignr(c, i, b, true);
}

#define FAST_PALIGNR_MEM(_, SH, EA)                                                             \
	static const struct insn *fast_vpalignr_mx##SH(struct cpu *c, const struct insn *i)     \
	{                                                                                       \
		cpu_xmm b[1];                                                                   \
		mem_read16(EA(c, i), &b[0]);                                                    \
		return vpalignr(c, i, b, false);                                                \
	}                                                                                       \
	static const struct insn *fast_vpalignr_my##SH(struct cpu *c, const struct insn *i)     \
	{                                                                                       \
		cpu_xmm b[2];                                                                   \
		uint64_t addr = EA(c, i);                                                       \
		mem_read16(addr, &b[0]);                                                        \
		mem_read16(addr + 16, &b[1]);                                                   \
		return vpalignr(c, i, b, true);                                                 \
	}
EA_SHAPES(FAST_PALIGNR_MEM, palignr)
#undef FAST_PALIGNR_MEM

/* ---- VPSHUFB, VPUNPCKLQDQ, VPUNPCKHQDQ reg, vvvv, r/m (registers) ---- */

/* (V)PSHUFB per lane on the host's PSHUFB (every x86-64-v2 host has SSSE3,
 * docs/cpu.md: the legacy rows already run it there); in C with
 * SG_PORTABLE_SIMD, which runs no SSSE3 instruction of the host. */
#ifdef SG_PORTABLE_SIMD
#define PSHUFB_TARGET
static inline cpu_xmm pshufb_lane(const cpu_xmm *a, const cpu_xmm *b)
{
	cpu_xmm r;

	for (int k = 0; k < 16; k++)
		r.b[k] = b->b[k] & 0x80 ? 0 : a->b[b->b[k] & 15];
	return r;
}
#else
#define PSHUFB_TARGET __attribute__((target("ssse3")))
PSHUFB_TARGET static inline cpu_xmm pshufb_lane(const cpu_xmm *a, const cpu_xmm *b)
{
	cpu_xmm r;
	__m128i x = _mm_load_si128((const __m128i *)a), y = _mm_load_si128((const __m128i *)b);

	_mm_store_si128((__m128i *)&r, _mm_shuffle_epi8(x, y));
	return r;
}
#endif

/* VPUNPCKLQDQ: (vvvv.q[0], r/m.q[0]); VPUNPCKHQDQ: the high quadwords. */
static inline cpu_xmm unpacklqdq_lane(const cpu_xmm *a, const cpu_xmm *b)
{
	return (cpu_xmm){ .q = { a->q[0], b->q[0] } };
}

static inline cpu_xmm unpackhqdq_lane(const cpu_xmm *a, const cpu_xmm *b)
{
	return (cpu_xmm){ .q = { a->q[1], b->q[1] } };
}

#define FAST_LANE_FN(name, lane, ...)                                                           \
	__VA_ARGS__ static const struct insn *fast_v##name##_rx(struct cpu *c,                  \
								const struct insn *i)           \
	{                                                                                       \
		cpu_xmm r = lane(xr(c, i, XR_VVVV), xr(c, i, XR_RM));                           \
		put_low(xr(c, i, XR_REG), r);                                                   \
		return exec_next(c, i);                                                         \
	}                                                                                       \
	__VA_ARGS__ static const struct insn *fast_v##name##_ry(struct cpu *c,                  \
								const struct insn *i)           \
	{                                                                                       \
		const cpu_xmm *a = xr(c, i, XR_VVVV), *b = xr(c, i, XR_RM);                     \
		cpu_xmm lo = lane(&a[0], &b[0]), hi = lane(&a[16], &b[16]), *d;                 \
		d = xr(c, i, XR_REG);                                                           \
		d[0] = lo;                                                                      \
		d[16] = hi;                                                                     \
		return exec_next(c, i);                                                         \
	}
FAST_LANE_FN(pshufb, pshufb_lane, PSHUFB_TARGET)
FAST_LANE_FN(punpcklqdq, unpacklqdq_lane)
FAST_LANE_FN(punpckhqdq, unpackhqdq_lane)
#undef FAST_LANE_FN

/* ---- VPMOVMSKB r32/r64, xmm/ymm (glibc's AVX2 string functions) ----
 * The bytes' sign bits into the low 16 or 32 bits, the rest of the GPR
 * zero; register source only (G_REG_ANY). 8 bytes at a time: each sign
 * bit moved to its byte's bit 0, then one multiply gathers the 8 into the
 * top byte (byte k's bit lands on bit 56 + k). */
static inline uint32_t sign_bits8(uint64_t q)
{
	return (uint32_t)((((q >> 7) & 0x0101010101010101ull) * 0x0102040810204080ull) >> 56);
}

static inline uint32_t sign_bits16(const cpu_xmm *v)
{
	return sign_bits8(v->q[0]) | sign_bits8(v->q[1]) << 8;
}

static const struct insn *fast_vpmovmskb_x(struct cpu *c, const struct insn *i)
{
	c->r[i->reg] = sign_bits16(xr(c, i, XR_RM));
	return exec_next(c, i);
}

static const struct insn *fast_vpmovmskb_y(struct cpu *c, const struct insn *i)
{
	const cpu_xmm *s = xr(c, i, XR_RM);

	c->r[i->reg] = sign_bits16(s) | sign_bits16(s + 16) << 16; /* s + 16: ymm_hi */
	return exec_next(c, i);
}

/* ---- loads, stores and register moves ---- */

/* VMOVDQU/VMOVUPS/VMOVUPD xmm|ymm, m (aligned: VMOVDQA/APS/APD, a
 * misaligned operand goes to the table handler's #GP), and the register
 * form of all six: dst = r/m. */
/* A 16-byte load into XMM reg, put there by PUT: put_low for a VEX form
 * (the upper half zeroed), put_whole for a legacy one (kept). */
#define FAST_LOAD16(name, PUT, suffix, align, SH, EA)                                           \
	static const struct insn *fast_##name##suffix##SH(struct cpu *c, const struct insn *i)   \
	{                                                                                       \
		cpu_xmm v;                                                                      \
		uint64_t addr = EA(c, i);                                                       \
		if (align && __builtin_expect((addr & 15) != 0, 0))                             \
			return exec_generic(c, i);                                              \
		mem_read16(addr, &v);                                                           \
		PUT(xm(c, i, XR_REG), v);                                                       \
		return exec_next(c, i);                                                         \
	}
#define FAST_LOAD(suffix, align, SH, EA)                                                        \
	FAST_LOAD16(vload_mx, put_low, suffix, align, SH, EA)                                   \
	static const struct insn *fast_vload_my##suffix##SH(struct cpu *c, const struct insn *i) \
	{                                                                                       \
		cpu_xmm v[2], *d;                                                               \
		uint64_t addr;                                                                  \
		addr = EA(c, i);                                                                \
		if (align && __builtin_expect((addr & 31) != 0, 0))                             \
			return exec_generic(c, i);                                              \
		/* both halves read before either register half is written */                   \
		mem_read16(addr, &v[0]);                                                        \
		mem_read16(addr + 16, &v[1]);                                                   \
		d = xm(c, i, XR_REG);                                                           \
		d[0] = v[0];                                                                    \
		d[16] = v[1];                                                                   \
		return exec_next(c, i);                                                         \
	}
EA_SHAPES(FAST_LOAD, , false)
EA_SHAPES(FAST_LOAD, _a, true)
#undef FAST_LOAD

/* dst reg <- src reg; for the store rows (0F 11/29/7F) the operands are
 * the other way round, so the register forms take them as arguments. */
static inline const struct insn *vmove_rr(struct cpu *c, const struct insn *i, unsigned dst,
					  unsigned src, bool l256)
{
	cpu_xmm *d = xr(c, i, dst), *s = xr(c, i, src);

	if (l256) {
		d[0] = s[0];
		d[16] = s[16];
	} else {
		put_low(d, s[0]);
	}
	return exec_next(c, i);
}

static const struct insn *fast_vload_rx(struct cpu *c, const struct insn *i)
{
	return vmove_rr(c, i, XR_REG, XR_RM, false);
}

static const struct insn *fast_vload_ry(struct cpu *c, const struct insn *i)
{
	return vmove_rr(c, i, XR_REG, XR_RM, true);
}

static const struct insn *fast_vstore_rx(struct cpu *c, const struct insn *i)
{
	return vmove_rr(c, i, XR_RM, XR_REG, false);
}

static const struct insn *fast_vstore_ry(struct cpu *c, const struct insn *i)
{
	return vmove_rr(c, i, XR_RM, XR_REG, true);
}

/* VMOVDQU/VMOVUPS/VMOVUPD m, xmm|ymm (aligned: VMOVDQA/APS/APD/NTxx): a
 * plain store (store_plain: the guest's page, no decoded code, within the
 * page) goes straight to memory in order; the rest, and a misaligned
 * aligned form, through the table handler (avx.c, store_ymm). */
#define FAST_STORE(suffix, align, SH, EA)                                                       \
	static const struct insn *fast_vstore_mx##suffix##SH(struct cpu *c, const struct insn *i) \
	{                                                                                       \
		uint64_t addr;                                                                  \
		const cpu_xmm *v = xm(c, i, XR_REG);                                            \
		addr = EA(c, i);                                                                \
		if (align && __builtin_expect((addr & 15) != 0, 0))                             \
			return exec_generic(c, i);                                              \
		EXEC_STORE_OR_GENERIC(c, i, addr, 16);                                          \
		mem_store16_nocheck(addr, v);                                                   \
		return exec_next(c, i);                                                         \
	}                                                                                       \
	static const struct insn *fast_vstore_my##suffix##SH(struct cpu *c, const struct insn *i) \
	{                                                                                       \
		uint64_t addr;                                                                  \
		const cpu_xmm *lo = xm(c, i, XR_REG), *hi = lo + 16;                            \
		addr = EA(c, i);                                                                \
		if (align && __builtin_expect((addr & 31) != 0, 0))                             \
			return exec_generic(c, i);                                              \
		EXEC_STORE_OR_GENERIC(c, i, addr, 32);                                          \
		mem_store16_nocheck(addr, lo);                                                  \
		mem_store16_nocheck(addr + 16, hi);                                             \
		return exec_next(c, i);                                                         \
	}
EA_SHAPES(FAST_STORE, , false)
EA_SHAPES(FAST_STORE, _a, true)
#undef FAST_STORE

/* ---- AES-NI and PCLMULQDQ, VEX.128 register forms, on the host's ---- */

#ifndef SG_PORTABLE_CRYPTO
/* One always-inline body per operation (x: VVVV, y: RM, bits 255:128 of
 * the destination cleared), run by its fast form and by the pairs below. */
#define VEX128_RUN(name, EXPR)                                                                  \
	__attribute__((target("aes,pclmul"), always_inline)) static inline void pair_run_##name( \
		struct cpu *c, const struct insn *i)                                            \
	{                                                                                       \
		cpu_xmm *d = xr(c, i, XR_REG);                                                  \
		__m128i x, y;                                                                   \
		x = _mm_load_si128((const __m128i *)xr(c, i, XR_VVVV));                         \
		y = _mm_load_si128((const __m128i *)xr(c, i, XR_RM));                           \
		_mm_store_si128((__m128i *)&d[0], (EXPR));                                      \
		_mm_store_si128((__m128i *)&d[16], _mm_setzero_si128());                        \
	}
#define VEX128_OPS(X)                                                                           \
	X(aesenc, _mm_aesenc_si128(x, y)) X(aesenclast, _mm_aesenclast_si128(x, y))             \
	X(aesdec, _mm_aesdec_si128(x, y)) X(aesdeclast, _mm_aesdeclast_si128(x, y))             \
	X(pxor, _mm_xor_si128(x, y))                                                            \
	/* the immediate selects the quadwords (bits 0 and 4): one form each */                \
	X(pclmul00, _mm_clmulepi64_si128(x, y, 0x00))                                           \
	X(pclmul01, _mm_clmulepi64_si128(x, y, 0x01))                                           \
	X(pclmul10, _mm_clmulepi64_si128(x, y, 0x10))                                           \
	X(pclmul11, _mm_clmulepi64_si128(x, y, 0x11))
VEX128_OPS(VEX128_RUN)
#undef VEX128_RUN
#define FAST_CRYPTO(name)                                                                       \
	__attribute__((target("aes,pclmul"))) static const struct insn *fast_v##name(           \
		struct cpu *c, const struct insn *i)                                            \
	{                                                                                       \
		pair_run_##name(c, i);                                                          \
		return exec_next(c, i);                                                         \
	}
FAST_CRYPTO(aesenc)
FAST_CRYPTO(aesenclast)
FAST_CRYPTO(aesdec)
FAST_CRYPTO(aesdeclast)
FAST_CRYPTO(pclmul00)
FAST_CRYPTO(pclmul01)
FAST_CRYPTO(pclmul10)
FAST_CRYPTO(pclmul11)
#undef FAST_CRYPTO

/* Pairs (decode time, like fused.c's CMP+Jcc): OpenSSL's AES-GCM
 * interleaves these VEX.128 forms (aesni_ctr32_ghash_6x: VAESENC runs,
 * VPXOR, VPCLMULQDQ, VMOVDQU loads); when one is decoded right after
 * another, the first's exec runs both and dispatches once (avx_fuse).
 * The register forms cannot fault; a load (base + disp, flat 64-bit: the
 * shape 64-bit code uses) sets cpu.cur to its own instruction first, so
 * a fault in the second names the second, with the first done, as when
 * they run apart. The second keeps its own exec for a jump to it. */

/* VMOVDQU/VMOVUPS/VMOVUPD xmm, m128 and VPXOR xmm, xmm, m128 */
static inline __attribute__((always_inline)) void pair_run_load(struct cpu *c,
								 const struct insn *i)
{
	cpu_xmm v;

	mem_read16(insn_ea_flat64(c, i), &v);
	put_low(xm(c, i, XR_REG), v);
}

static inline __attribute__((always_inline)) void pair_run_pxor_m(struct cpu *c,
								   const struct insn *i)
{
	cpu_xmm a, b;

	mem_read16(insn_ea_flat64(c, i), &b);
	a = *xm(c, i, XR_VVVV);
	fast_lane_pxor(&a, &b);
	put_low(xm(c, i, XR_REG), a);
}

/* the pair members: name, their single form */
#define PAIR_UNITS(X)                                                                           \
	X(aesenc, fast_vaesenc) X(aesenclast, fast_vaesenclast) X(pxor, fast_vpxor_rx)          \
	X(pclmul00, fast_vpclmul00) X(pclmul01, fast_vpclmul01) X(pclmul10, fast_vpclmul10)     \
	X(pclmul11, fast_vpclmul11) X(load, fast_vload_mx_f64) X(pxor_m, fast_vpxor_mx_f64)
enum { PAIR_UNIT_COUNT = 9 };

#define PAIR_ONE(a, b)                                                                          \
	__attribute__((target("aes,pclmul"))) static const struct insn *pair_##a##_##b(         \
		struct cpu *c, const struct insn *i)                                            \
	{                                                                                       \
		pair_run_##a(c, i);                                                             \
		pair_run_##b(c, i + 1);                                                         \
		return exec_next(c, i + 1);                                                     \
	}
#define PAIR_SECOND(a, ...)                                                                     \
	PAIR_ONE(a, aesenc) PAIR_ONE(a, aesenclast) PAIR_ONE(a, pxor) PAIR_ONE(a, pclmul00)     \
	PAIR_ONE(a, pclmul01) PAIR_ONE(a, pclmul10) PAIR_ONE(a, pclmul11) PAIR_ONE(a, load)     \
	PAIR_ONE(a, pxor_m)
PAIR_UNITS(PAIR_SECOND)
#undef PAIR_SECOND
#undef PAIR_ONE
#define PAIR_ROW(a, ...)                                                                        \
	{ pair_##a##_aesenc, pair_##a##_aesenclast, pair_##a##_pxor, pair_##a##_pclmul00,       \
	  pair_##a##_pclmul01, pair_##a##_pclmul10, pair_##a##_pclmul11, pair_##a##_load,      \
	  pair_##a##_pxor_m },
static const insn_exec pair_forms[PAIR_UNIT_COUNT][PAIR_UNIT_COUNT] = { PAIR_UNITS(PAIR_ROW) };
#undef PAIR_ROW

/* The single forms the pairs are made of, in PAIR_UNITS' order. */
static int pair_index(insn_exec e)
{
#define PAIR_SINGLE(name, form) form,
	static const insn_exec single[PAIR_UNIT_COUNT] = { PAIR_UNITS(PAIR_SINGLE) };
#undef PAIR_SINGLE

	for (int k = 0; k < PAIR_UNIT_COUNT; k++)
		if (e == single[k])
			return k;
	return -1;
}

void avx_fuse_decoded(struct insn *pool, uint32_t n)
{
	struct insn *second = &pool[n - 1], *first;
	int a, b;

	if (n < 2)
		return;
	first = second - 1;
	if (!insn_cold(first)->seq || (b = pair_index(second->exec)) < 0 || (a = pair_index(first->exec)) < 0)
		return;
	first->exec = pair_forms[a][b];
}

static bool crypto_fast_form(struct insn *i)
{
	static const insn_exec pclmul[4] = { fast_vpclmul00, fast_vpclmul01, fast_vpclmul10,
					     fast_vpclmul11 };
	insn_fn fn = insn_cold(i)->fn;
	enum crypto_op op;
	insn_exec e;

	if (fn == op_v_aesenc)
		op = CR_AESENC, e = fast_vaesenc;
	else if (fn == op_v_aesenclast)
		op = CR_AESENCLAST, e = fast_vaesenclast;
	else if (fn == op_v_aesdec)
		op = CR_AESDEC, e = fast_vaesdec;
	else if (fn == op_v_aesdeclast)
		op = CR_AESDECLAST, e = fast_vaesdeclast;
	else if (fn == op_v_pclmulqdq)
		op = CR_PCLMULQDQ, e = pclmul[(insn_imm(i) & 1) | (insn_imm(i) >> 3 & 2)];
	else
		return false;
	/* VEX.256 (VAES, VPCLMULQDQ 256) is #UD: the table handler */
	if (insn_cold(i)->mod == 3 && !VEX_L(i) && crypto_host_has(op))
		i->exec = e;
	return true;
}
#else
static bool crypto_fast_form(struct insn *i)
{
	(void)i;
	return false;
}

void avx_fuse_decoded(struct insn *pool, uint32_t n)
{
	(void)pool, (void)n;
}
#endif

/* ---- the legacy SSE encodings of the same and of OpenSSL's SHA-256 ---- */

/* OpenSSL's SHA-NI loop (sha256_block_data_order_shaext) is legacy SSE:
 * SHA256RNDS2/MSG1/MSG2, PADDD, MOVDQA loads and moves, PSHUFD, PALIGNR,
 * PSHUFB. A legacy form writes bits 127:0 of its destination and keeps
 * bits 255:128; its register operands are found by the same offsets
 * (xr/xm: the VEX operand unused). */

/* dst = op(dst, r/m) for sse_lanes.h's PACKED_OPS, register forms. */
#define FAST_LEGACY_BINARY(name, ...)                                                           \
	static const struct insn *fast_##name##_r(struct cpu *c, const struct insn *i)          \
	{                                                                                       \
		cpu_xmm *d = xr(c, i, XR_REG), a = *d, b = *xr(c, i, XR_RM);                    \
		fast_lane_##name(&a, &b);                                                       \
		*d = a;                                                                         \
		return exec_next(c, i);                                                         \
	}
PACKED_OPS(FAST_LEGACY_BINARY)
#undef FAST_LEGACY_BINARY

/* MOVDQA/MOVAPS/MOVDQU/MOVUPS xmm, xmm|m128 (op_mova_VxWx, op_movu_VxWx):
 * a misaligned operand of the aligned forms goes to the table handler's
 * #GP. */
static const struct insn *fast_load_r(struct cpu *c, const struct insn *i)
{
	*xr(c, i, XR_REG) = *xr(c, i, XR_RM);
	return exec_next(c, i);
}

#define FAST_LEGACY_LOAD(suffix, align, SH, EA) FAST_LOAD16(load_m, put_whole, suffix, align, SH, EA)
EA_SHAPES(FAST_LEGACY_LOAD, , false)
EA_SHAPES(FAST_LEGACY_LOAD, _a, true)
#undef FAST_LEGACY_LOAD
#undef FAST_LOAD16

/* MOVQ xmm, m64 (F3 0F 7E: the high quadword zeroed) and MOVQ m64, xmm
 * (66 0F D6), the own SHA-256's message schedule (gcc -O2, x86_64: two
 * dwords a step); the register forms keep their exec forms (sse_move.c).
 * A store that is not plain goes through the table handler. */
#define FAST_LEGACY_MOVQ(_, SH, EA)                                                             \
	static const struct insn *fast_movq_load_m##SH(struct cpu *c, const struct insn *i)     \
	{                                                                                       \
		uint64_t v = mem_read_fast(EA(c, i), 8);                                        \
		cpu_xmm *d = xm(c, i, XR_REG);                                                  \
		d->q[0] = v;                                                                    \
		d->q[1] = 0;                                                                    \
		return exec_next(c, i);                                                         \
	}                                                                                       \
	static const struct insn *fast_movq_store_m##SH(struct cpu *c, const struct insn *i)    \
	{                                                                                       \
		uint64_t addr = EA(c, i);                                                       \
		EXEC_STORE_OR_GENERIC(c, i, addr, 8);                                           \
		mem_write_nocheck(addr, 8, xm(c, i, XR_REG)->q[0]);                             \
		return exec_next(c, i);                                                         \
	}
EA_SHAPES(FAST_LEGACY_MOVQ, movq)
#undef FAST_LEGACY_MOVQ

/* PACKUSWB xmm, xmm: dst's then src's words, signed, saturated to
 * unsigned bytes; PUNPCKL/H{BW,WD,DQ,QDQ} xmm, xmm: the low or high
 * halves of dst and src interleaved (the bench's own SHA-256, gcc -O2 for
 * x86_64: its byte swap of the block; sse_int.c's table handlers, the
 * same SDM facts, ran ~230 host instructions a PACKUSWB). On the host's
 * SSE2 instructions (every x86-64 host has them); in C, as sse_int.c's,
 * with SG_PORTABLE_SIMD. */
#define LEGACY_UNPACKS(X)                                                                       \
	X(punpcklbw, b, 16, 0, _mm_unpacklo_epi8) X(punpcklwd, w, 8, 0, _mm_unpacklo_epi16)     \
	X(punpckldq, d, 4, 0, _mm_unpacklo_epi32) X(punpcklqdq, q, 2, 0, _mm_unpacklo_epi64)    \
	X(punpckhbw, b, 16, 1, _mm_unpackhi_epi8) X(punpckhwd, w, 8, 1, _mm_unpackhi_epi16)     \
	X(punpckhdq, d, 4, 1, _mm_unpackhi_epi32) X(punpckhqdq, q, 2, 1, _mm_unpackhi_epi64)
#ifdef SG_PORTABLE_SIMD
static inline uint8_t fast_sat_u8(int16_t v)
{
	return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
}

static const struct insn *fast_packuswb_r(struct cpu *c, const struct insn *i)
{
	cpu_xmm *d = xr(c, i, XR_REG), a = *d, b = *xr(c, i, XR_RM);

	for (int k = 0; k < 8; k++) {
		d->b[k] = fast_sat_u8((int16_t)a.w[k]);
		d->b[k + 8] = fast_sat_u8((int16_t)b.w[k]);
	}
	return exec_next(c, i);
}

#define FAST_LEGACY_UNPACK(name, LANE, N, HI, HOST)                                             \
	static const struct insn *fast_##name##_r(struct cpu *c, const struct insn *i)          \
	{                                                                                       \
		cpu_xmm *d = xr(c, i, XR_REG), a = *d, b = *xr(c, i, XR_RM);                    \
		for (int k = 0; k < (N) / 2; k++) {                                             \
			d->LANE[2 * k] = a.LANE[k + (HI) * (N) / 2];                            \
			d->LANE[2 * k + 1] = b.LANE[k + (HI) * (N) / 2];                        \
		}                                                                               \
		return exec_next(c, i);                                                         \
	}
#else
#define FAST_LEGACY_SSE2(name, HOST)                                                            \
	static const struct insn *fast_##name##_r(struct cpu *c, const struct insn *i)          \
	{                                                                                       \
		cpu_xmm *d = xr(c, i, XR_REG);                                                  \
		__m128i x = _mm_load_si128((const __m128i *)d);                                 \
		__m128i y = _mm_load_si128((const __m128i *)xr(c, i, XR_RM));                  \
		_mm_store_si128((__m128i *)d, HOST(x, y));                                      \
		return exec_next(c, i);                                                         \
	}
FAST_LEGACY_SSE2(packuswb, _mm_packus_epi16)
#define FAST_LEGACY_UNPACK(name, LANE, N, HI, HOST) FAST_LEGACY_SSE2(name, HOST)
#endif
LEGACY_UNPACKS(FAST_LEGACY_UNPACK)
#undef FAST_LEGACY_UNPACK

/* PSRLW/PSLLW/PSRAW/PSRLD/PSLLD/PSRAD/PSRLQ/PSLLQ xmm, imm8 (the own
 * SHA-256's vectorised message schedule: its rotates are two shifts and
 * an OR) on the host's shift by a count in a register, whose counts past
 * the lane width give what the immediate forms give; sse_int.c's table
 * handlers with SG_PORTABLE_SIMD. */
#define LEGACY_SHIFT_IMMS(X)                                                                    \
	X(psrlw, _mm_srl_epi16) X(psllw, _mm_sll_epi16) X(psraw, _mm_sra_epi16)                 \
	X(psrld, _mm_srl_epi32) X(pslld, _mm_sll_epi32) X(psrad, _mm_sra_epi32)                 \
	X(psrlq, _mm_srl_epi64) X(psllq, _mm_sll_epi64)
#ifndef SG_PORTABLE_SIMD
#define FAST_LEGACY_SHIFT_IMM(name, HOST)                                                       \
	static const struct insn *fast_##name##_imm(struct cpu *c, const struct insn *i)        \
	{                                                                                       \
		cpu_xmm *d = xr(c, i, XR_RM);                                                   \
		__m128i x = _mm_load_si128((const __m128i *)d);                                 \
		x = HOST(x, _mm_cvtsi32_si128((int)(insn_imm(i) & 0xff)));                           \
		_mm_store_si128((__m128i *)d, x);                                               \
		return exec_next(c, i);                                                         \
	}
LEGACY_SHIFT_IMMS(FAST_LEGACY_SHIFT_IMM)
#undef FAST_LEGACY_SHIFT_IMM
#endif

/* PSHUFD xmm, xmm, imm8: dword k of the result is the source's dword
 * (imm8 >> 2k) & 3. */
static const struct insn *fast_pshufd_r(struct cpu *c, const struct insn *i)
{
	cpu_xmm s = *xr(c, i, XR_RM), *d = xr(c, i, XR_REG);
	unsigned imm = (unsigned)insn_imm(i);

	d->d[0] = s.d[imm & 3];
	d->d[1] = s.d[imm >> 2 & 3];
	d->d[2] = s.d[imm >> 4 & 3];
	d->d[3] = s.d[imm >> 6 & 3];
	return exec_next(c, i);
}

/* PALIGNR xmm, xmm, imm8: (dst:src) >> 8 * imm8. */
static const struct insn *fast_palignr_r(struct cpu *c, const struct insn *i)
{
	cpu_xmm *d = xr(c, i, XR_REG), hi = *d, lo = *xr(c, i, XR_RM);

	lane_alignr(d, &hi, &lo, (unsigned)(insn_imm(i) & 0xff));
	return exec_next(c, i);
}

/* PSHUFB xmm, xmm (pshufb_lane above). */
PSHUFB_TARGET static const struct insn *fast_pshufb_r(struct cpu *c, const struct insn *i)
{
	cpu_xmm *d = xr(c, i, XR_REG);

	*d = pshufb_lane(d, xr(c, i, XR_RM));
	return exec_next(c, i);
}

#ifndef SG_PORTABLE_CRYPTO
/* AES-NI, PCLMULQDQ and SHA register forms on the host's instructions:
 * dst = op(dst, src[, xmm0]). */
#define FAST_LEGACY_CRYPTO(name, target_isa, EXPR)                                              \
	__attribute__((target(target_isa))) static const struct insn *fast_##name(              \
		struct cpu *c, const struct insn *i)                                            \
	{                                                                                       \
		cpu_xmm *d = xr(c, i, XR_REG);                                                  \
		__m128i x, y;                                                                   \
		x = _mm_load_si128((const __m128i *)d);                                         \
		y = _mm_load_si128((const __m128i *)xr(c, i, XR_RM));                           \
		_mm_store_si128((__m128i *)d, (EXPR));                                          \
		return exec_next(c, i);                                                         \
	}
#define XMM0 _mm_load_si128((const __m128i *)&c->xmm[0])
FAST_LEGACY_CRYPTO(aesenc, "aes", _mm_aesenc_si128(x, y))
FAST_LEGACY_CRYPTO(aesenclast, "aes", _mm_aesenclast_si128(x, y))
FAST_LEGACY_CRYPTO(aesdec, "aes", _mm_aesdec_si128(x, y))
FAST_LEGACY_CRYPTO(aesdeclast, "aes", _mm_aesdeclast_si128(x, y))
FAST_LEGACY_CRYPTO(pclmul00, "pclmul", _mm_clmulepi64_si128(x, y, 0x00))
FAST_LEGACY_CRYPTO(pclmul01, "pclmul", _mm_clmulepi64_si128(x, y, 0x01))
FAST_LEGACY_CRYPTO(pclmul10, "pclmul", _mm_clmulepi64_si128(x, y, 0x10))
FAST_LEGACY_CRYPTO(pclmul11, "pclmul", _mm_clmulepi64_si128(x, y, 0x11))
FAST_LEGACY_CRYPTO(sha256rnds2, "sha", _mm_sha256rnds2_epu32(x, y, XMM0))
FAST_LEGACY_CRYPTO(sha256msg1, "sha", _mm_sha256msg1_epu32(x, y))
FAST_LEGACY_CRYPTO(sha256msg2, "sha", _mm_sha256msg2_epu32(x, y))
FAST_LEGACY_CRYPTO(sha1rnds4_0, "sha", _mm_sha1rnds4_epu32(x, y, 0))
FAST_LEGACY_CRYPTO(sha1rnds4_1, "sha", _mm_sha1rnds4_epu32(x, y, 1))
FAST_LEGACY_CRYPTO(sha1rnds4_2, "sha", _mm_sha1rnds4_epu32(x, y, 2))
FAST_LEGACY_CRYPTO(sha1rnds4_3, "sha", _mm_sha1rnds4_epu32(x, y, 3))
FAST_LEGACY_CRYPTO(sha1nexte, "sha", _mm_sha1nexte_epu32(x, y))
FAST_LEGACY_CRYPTO(sha1msg1, "sha", _mm_sha1msg1_epu32(x, y))
FAST_LEGACY_CRYPTO(sha1msg2, "sha", _mm_sha1msg2_epu32(x, y))
#undef XMM0
#undef FAST_LEGACY_CRYPTO

/* handler, its operation (crypto_host_has), its form */
#define LEGACY_CRYPTO_ROWS(X)                                                                   \
	X(op_aesenc_VxWx, CR_AESENC, fast_aesenc)                                               \
	X(op_aesenclast_VxWx, CR_AESENCLAST, fast_aesenclast)                                   \
	X(op_aesdec_VxWx, CR_AESDEC, fast_aesdec)                                               \
	X(op_aesdeclast_VxWx, CR_AESDECLAST, fast_aesdeclast)                                   \
	X(op_sha256rnds2_VxWx, CR_SHA256RNDS2, fast_sha256rnds2)                                \
	X(op_sha256msg1_VxWx, CR_SHA256MSG1, fast_sha256msg1)                                   \
	X(op_sha256msg2_VxWx, CR_SHA256MSG2, fast_sha256msg2)                                   \
	X(op_sha1nexte_VxWx, CR_SHA1NEXTE, fast_sha1nexte)                                      \
	X(op_sha1msg1_VxWx, CR_SHA1MSG1, fast_sha1msg1)                                         \
	X(op_sha1msg2_VxWx, CR_SHA1MSG2, fast_sha1msg2)

static insn_exec legacy_crypto_form(const struct insn *i)
{
	static const insn_exec pclmul[4] = { fast_pclmul00, fast_pclmul01, fast_pclmul10,
					     fast_pclmul11 };
	static const insn_exec sha1rnds4[4] = { fast_sha1rnds4_0, fast_sha1rnds4_1,
						fast_sha1rnds4_2, fast_sha1rnds4_3 };
	insn_fn fn = insn_cold(i)->fn;

#define CRYPTO_PICK(handler, op, form)                                                          \
	if (fn == handler)                                                                      \
		return crypto_host_has(op) ? form : NULL;
	LEGACY_CRYPTO_ROWS(CRYPTO_PICK)
#undef CRYPTO_PICK
	if (fn == op_pclmulqdq_VxWxIb)
		return crypto_host_has(CR_PCLMULQDQ) ? pclmul[(insn_imm(i) & 1) | (insn_imm(i) >> 3 & 2)] : NULL;
	if (fn == op_sha1rnds4_VxWxIb)
		return crypto_host_has(CR_SHA1RNDS4) ? sha1rnds4[insn_imm(i) & 3] : NULL;
	return NULL;
}
#define LEGACY_CRYPTO_IS(handler, op, form) fn == handler ||
#define LEGACY_CRYPTO_HANDLERS(fn)                                                              \
	(LEGACY_CRYPTO_ROWS(LEGACY_CRYPTO_IS) fn == op_pclmulqdq_VxWxIb || fn == op_sha1rnds4_VxWxIb)
#else
static insn_exec legacy_crypto_form(const struct insn *i)
{
	(void)i;
	return NULL;
}
#define LEGACY_CRYPTO_HANDLERS(fn) false
#endif

/* The legacy handlers with a fast form here. */
static bool legacy_has_fast_form(insn_fn fn)
{
#define LEGACY_BINARY_IS(name, ...) fn == op_##name##_VxWx ||
#define LEGACY_UNPACK_IS(name, ...) fn == op_##name##_VxWx ||
#define LEGACY_SHIFT_IMM_IS(name, ...) fn == op_##name##_UxIb ||
	return PACKED_OPS(LEGACY_BINARY_IS) fn == op_mova_VxWx || fn == op_movu_VxWx ||
	       fn == op_mova_WxVx || fn == op_movu_WxVx ||
	       fn == op_pshufd_VxWxIb || fn == op_simd_palignr || fn == op_simd_pshufb ||
	       fn == op_packuswb_VxWx || fn == op_movq_VxWq || fn == op_movq_WqVx ||
	       LEGACY_SHIFT_IMMS(LEGACY_SHIFT_IMM_IS) LEGACY_UNPACKS(LEGACY_UNPACK_IS) LEGACY_CRYPTO_HANDLERS(fn);
#undef LEGACY_BINARY_IS
#undef LEGACY_UNPACK_IS
#undef LEGACY_SHIFT_IMM_IS
}

/* The legacy form of i, or NULL: the table's exec stays. */
static insn_exec legacy_form(const struct insn *i)
{
	const struct insn_cold *ic = insn_cold(i);
	insn_fn fn = ic->fn;

	if (fn == op_mova_VxWx)
		return ic->mod == 3 ? fast_load_r : EA_PICK(i, fast_load_m_a);
	if (fn == op_movu_VxWx)
		return ic->mod == 3 ? fast_load_r : EA_PICK(i, fast_load_m);
	/* MOVUPS/MOVUPD/MOVDQU/MOVAPS/MOVAPD/MOVDQA/MOVNTPS/MOVNTPD m128, xmm
	 * (memcpy, memset): the VEX.128 stores' forms, a store writing no
	 * register; the register forms keep their exec forms (sse_move.c) */
	if (fn == op_movq_VxWq || fn == op_movq_WqVx) {
		if (ic->mod == 3)
			return NULL;
		return fn == op_movq_VxWq ? EA_PICK(i, fast_movq_load_m) : EA_PICK(i, fast_movq_store_m);
	}
	if (fn == op_movu_WxVx || fn == op_mova_WxVx) {
		if (ic->mod == 3)
			return NULL;
		return fn == op_mova_WxVx ? EA_PICK(i, fast_vstore_mx_a) : EA_PICK(i, fast_vstore_mx);
	}
	if (ic->mod != 3)
		return NULL;
#define LEGACY_BINARY_PICK(name, ...)                                                           \
	if (fn == op_##name##_VxWx)                                                             \
		return fast_##name##_r;
	PACKED_OPS(LEGACY_BINARY_PICK)
#undef LEGACY_BINARY_PICK
#ifndef SG_PORTABLE_SIMD
#define LEGACY_SHIFT_IMM_PICK(name, ...)                                                        \
	if (fn == op_##name##_UxIb)                                                             \
		return fast_##name##_imm;
	LEGACY_SHIFT_IMMS(LEGACY_SHIFT_IMM_PICK)
#undef LEGACY_SHIFT_IMM_PICK
#endif
	if (fn == op_packuswb_VxWx)
		return fast_packuswb_r;
#define LEGACY_UNPACK_PICK(name, ...)                                                           \
	if (fn == op_##name##_VxWx)                                                             \
		return fast_##name##_r;
	LEGACY_UNPACKS(LEGACY_UNPACK_PICK)
#undef LEGACY_UNPACK_PICK
	if (fn == op_pshufd_VxWxIb)
		return fast_pshufd_r;
	if (fn == op_simd_palignr)
		return fast_palignr_r;
	if (fn == op_simd_pshufb)
		return fast_pshufb_r;
	return legacy_crypto_form(i);
}

/* VZEROUPPER (VEX.128 0F 77; glibc's AVX2 string functions end with it):
 * bits 255:128 of the mode's YMM registers cleared (16 in 64-bit mode, 8
 * outside: a mode switch drops the decoded code), a 16-byte store each;
 * op_vzero's #UD conditions (AVX enabled, vvvv 1111b) are settled at
 * decode time. The zero goes through an empty asm so that the compiler
 * sees no memset in the stores (it made one REP STOS of them). */
#define FAST_VZEROUPPER(REGS)                                                                \
	static const struct insn *fast_vzeroupper##REGS(struct cpu *c, const struct insn *i) \
	{                                                                                    \
		__m128i zero = _mm_setzero_si128();                                          \
		__asm__("" : "+x"(zero));                                                    \
		_Pragma("GCC unroll 16") for (unsigned k = 0; k < REGS; k++)                 \
			_mm_store_si128((__m128i *)&c->ymm_hi[k], zero);                     \
		return exec_next(c, i);                                                      \
	}
FAST_VZEROUPPER(8)
FAST_VZEROUPPER(16)

/* ---- decode time ---- */

static void pick_form(const struct cpu *c, struct insn *i);

void avx_specialise(const struct cpu *c, struct insn *i)
{
	insn_exec table = i->exec, legacy;

	if (legacy_has_fast_form(insn_cold(i)->fn)) {
		legacy = legacy_form(i);
		if (legacy)
			i->exec = legacy;
	} else if (avx_enabled(c)) { /* else #UD: the table handler */
		pick_form(c, i);
	}
	if (i->exec == table)
		return;
	if (insn_cold(i)->mod == 3)
		insn_disp(i) = (int64_t)reg_offsets(i);
	else if (insn_cold(i)->fn != op_v_palignr) /* the memory forms without an immediate */
		insn_imm(i) = reg_offsets(i);
}

static void pick_form(const struct cpu *c, struct insn *i)
{
	insn_fn fn = insn_cold(i)->fn;
	bool mem = insn_cold(i)->mod != 3, l256 = VEX_L(i);

#define BINARY_PICK(handler, name)                                                              \
	if (fn == handler) {                                                                    \
		i->exec = mem ? (l256 ? EA_PICK(i, fast_v##name##_my)                           \
				     : EA_PICK(i, fast_v##name##_mx))                           \
			      : (l256 ? fast_v##name##_ry : fast_v##name##_rx);                 \
		return;                                                                         \
	}
	FAST_BINARY_ROWS(BINARY_PICK)
#undef BINARY_PICK
	if (crypto_fast_form(i))
		return;
	if ((fn == op_v_pshufb || fn == op_v_punpcklqdq || fn == op_v_punpckhqdq) && !mem) {
		if (fn == op_v_pshufb)
			i->exec = l256 ? fast_vpshufb_ry : fast_vpshufb_rx;
		else if (fn == op_v_punpcklqdq)
			i->exec = l256 ? fast_vpunpcklqdq_ry : fast_vpunpcklqdq_rx;
		else
			i->exec = l256 ? fast_vpunpckhqdq_ry : fast_vpunpckhqdq_rx;
		return;
	}
	if (fn == op_v_palignr) {
		i->exec = mem ? (l256 ? EA_PICK(i, fast_vpalignr_my) : EA_PICK(i, fast_vpalignr_mx))
			      : (l256 ? fast_vpalignr_ry : fast_vpalignr_rx);
		return;
	}
	if ((fn == op_v_psrldq_imm || fn == op_v_pslldq_imm) && !mem) {
		if (fn == op_v_psrldq_imm)
			i->exec = l256 ? fast_vpsrldq_y : fast_vpsrldq_x;
		else
			i->exec = l256 ? fast_vpslldq_y : fast_vpslldq_x;
		return;
	}
	if (VEX_V_SET(i)) /* vvvv must be 1111b for the moves: #UD, the table handler's */
		return;
	if (fn == op_vzero) {
		if (!l256) /* VZEROALL: the table handler */
			i->exec = c->mode == CPU_MODE_64 ? fast_vzeroupper16 : fast_vzeroupper8;
	} else if (fn == op_v_pmovmskb) /* registers only (G_REG_ANY) */
		i->exec = l256 ? fast_vpmovmskb_y : fast_vpmovmskb_x;
	else if (fn == op_v_movdqu || fn == op_v_movups || fn == op_v_movupd)
		i->exec = mem ? (l256 ? EA_PICK(i, fast_vload_my) : EA_PICK(i, fast_vload_mx))
			      : (l256 ? fast_vload_ry : fast_vload_rx);
	else if (fn == op_v_movdqa || fn == op_v_movaps || fn == op_v_movapd)
		i->exec = mem ? (l256 ? EA_PICK(i, fast_vload_my_a) : EA_PICK(i, fast_vload_mx_a))
			      : (l256 ? fast_vload_ry : fast_vload_rx);
	else if (fn == op_v_movu_store)
		i->exec = mem ? (l256 ? EA_PICK(i, fast_vstore_my) : EA_PICK(i, fast_vstore_mx))
			      : (l256 ? fast_vstore_ry : fast_vstore_rx);
	else if (fn == op_v_mova_store)
		i->exec = mem ? (l256 ? EA_PICK(i, fast_vstore_my_a) : EA_PICK(i, fast_vstore_mx_a))
			      : (l256 ? fast_vstore_ry : fast_vstore_rx);
}
