/* SSE2 packed integer instructions on XMM registers: logic, compare,
 * add/subtract (wrapping and unsigned saturating), min/max, unpack,
 * shuffle, shifts by immediate. Legacy-SSE m128 operands must be 16-byte
 * aligned (#GP otherwise). */
#include "cpu/cache.h"
#include "cpu/ops.h"
#include "cpu/sse_lanes.h"
#include "optable_exec.h"

/* dst = f(dst, src) lane by lane; LANE is the cpu_xmm member, N the count.
 * The 128-bit function (sse_lanes.h) is also what the VEX forms run on
 * each 128-bit lane (avx.c). */
#define PACKED_OP(name, LANE, N, EXPR) \
	void lane_##name(cpu_xmm *d, const cpu_xmm *s) \
	{ \
		for (int k = 0; k < (N); k++) { \
			__typeof__(d->LANE[0]) a = d->LANE[k], b = s->LANE[k]; \
			d->LANE[k] = (__typeof__(d->LANE[0]))(EXPR); \
		} \
	} \
	void op_##name##_VxWx(struct cpu *c, const struct insn *i) \
	{ \
		cpu_xmm s; \
		if (!xmm_rm_load(c, i, &s, true)) \
			return; \
		lane_##name(&c->xmm[i->reg], &s); \
	}

PACKED_OPS(PACKED_OP)
#undef PACKED_OP

/* PMULUDQ: the even dwords multiplied into quadwords. */
void op_pmuludq_VxWx(struct cpu *c, const struct insn *i)
{
	cpu_xmm s, *d = &c->xmm[i->reg];

	if (!xmm_rm_load(c, i, &s, true))
		return;
	d->q[0] = (uint64_t)d->d[0] * s.d[0];
	d->q[1] = (uint64_t)d->d[2] * s.d[2];
}

/* Saturating packs: dst's lanes then src's, narrowed. */
static inline uint8_t sat_u8(int v) { return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v); }
static inline int8_t sat_s8(int v) { return (int8_t)(v < -128 ? -128 : v > 127 ? 127 : v); }
static inline int16_t sat_s16(int32_t v) { return (int16_t)(v < -32768 ? -32768 : v > 32767 ? 32767 : v); }

#define PACK_OP(name, OUT, IN, N, SAT) \
	void op_##name##_VxWx(struct cpu *c, const struct insn *i) \
	{ \
		cpu_xmm s, a = c->xmm[i->reg], *d = &c->xmm[i->reg]; \
		if (!xmm_rm_load(c, i, &s, true)) \
			return; \
		for (int k = 0; k < (N); k++) { \
			d->OUT[k] = (__typeof__(d->OUT[0]))SAT(IN(a, k)); \
			d->OUT[k + (N)] = (__typeof__(d->OUT[0]))SAT(IN(s, k)); \
		} \
	}
#define S16(x, k) ((int16_t)(x).w[k])
#define S32(x, k) ((int32_t)(x).d[k])
PACK_OP(packuswb, b, S16, 8, sat_u8)
PACK_OP(packsswb, b, S16, 8, sat_s8)
PACK_OP(packssdw, w, S32, 4, sat_s16)
#undef S16
#undef S32
#undef PACK_OP

/* Interleave the low (hi = 0) or high halves of dst and src, lane by lane. */
#define UNPACK_OP(name, LANE, N, HI) \
	void op_##name##_VxWx(struct cpu *c, const struct insn *i) \
	{ \
		cpu_xmm s, a = c->xmm[i->reg], *d = &c->xmm[i->reg]; \
		if (!xmm_rm_load(c, i, &s, true)) \
			return; \
		for (int k = 0; k < (N) / 2; k++) { \
			d->LANE[2 * k] = a.LANE[k + (HI) * (N) / 2]; \
			d->LANE[2 * k + 1] = s.LANE[k + (HI) * (N) / 2]; \
		} \
	}

UNPACK_OP(punpcklbw, b, 16, 0)
UNPACK_OP(punpcklwd, w, 8, 0)
UNPACK_OP(punpckldq, d, 4, 0)
UNPACK_OP(punpcklqdq, q, 2, 0)
UNPACK_OP(punpckhbw, b, 16, 1)
UNPACK_OP(punpckhwd, w, 8, 1)
UNPACK_OP(punpckhdq, d, 4, 1)
UNPACK_OP(punpckhqdq, q, 2, 1)
UNPACK_OP(unpcklps, d, 4, 0)
#undef UNPACK_OP

void op_pshufd_VxWxIb(struct cpu *c, const struct insn *i)
{
	cpu_xmm s;

	if (!xmm_rm_load(c, i, &s, true))
		return;
	for (int k = 0; k < 4; k++)
		c->xmm[i->reg].d[k] = s.d[(insn_imm(i) >> (2 * k)) & 3];
}

/* PSHUFLW shuffles words 0..3 and copies 4..7; PSHUFHW the reverse. */
static void pshufw_half(struct cpu *c, const struct insn *i, int half)
{
	cpu_xmm s;

	if (!xmm_rm_load(c, i, &s, true))
		return;
	c->xmm[i->reg] = s;
	for (int k = 0; k < 4; k++)
		c->xmm[i->reg].w[4 * half + k] = s.w[4 * half + ((insn_imm(i) >> (2 * k)) & 3)];
}

void op_pshuflw_VxWxIb(struct cpu *c, const struct insn *i) { pshufw_half(c, i, 0); }
void op_pshufhw_VxWxIb(struct cpu *c, const struct insn *i) { pshufw_half(c, i, 1); }

/* Shifts by immediate of xmm[rm]: counts past the lane width give 0 (or
 * all sign bits for arithmetic right shifts). */
#define SHIFT_IMM(name, LANE, N, BITS, EXPR) \
	void op_##name##_UxIb(struct cpu *c, const struct insn *i) \
	{ \
		cpu_xmm *d = &c->xmm[i->rm]; \
		unsigned n = (unsigned)(insn_imm(i) & 0xff); \
		for (int k = 0; k < (N); k++) { \
			__typeof__(d->LANE[0]) a = d->LANE[k]; \
			d->LANE[k] = (__typeof__(d->LANE[0]))(EXPR); \
		} \
	}

SHIFT_IMMS(SHIFT_IMM)
#undef SHIFT_IMM

/* Byte shifts of the whole register (sse_lanes.h). */
void op_psrldq_UxIb(struct cpu *c, const struct insn *i)
{
	cpu_xmm s = c->xmm[i->rm];

	lane_psrldq(&c->xmm[i->rm], &s, (unsigned)(insn_imm(i) & 0xff));
}

void op_pslldq_UxIb(struct cpu *c, const struct insn *i)
{
	cpu_xmm s = c->xmm[i->rm];

	lane_pslldq(&c->xmm[i->rm], &s, (unsigned)(insn_imm(i) & 0xff));
}

/* The exec forms with the handlers inlined (EXEC rows of handler_props.def). */
SG_EXEC_FORMS_sse_int
