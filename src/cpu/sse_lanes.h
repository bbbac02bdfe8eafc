/* The SSE2 integer operations that are a function of two 128-bit values
 * lane by lane (sse_int.c): the legacy handlers and the VEX forms, on each
 * 128-bit lane (avx.c), run the same lane_<name>(dst, src). Private to
 * src/cpu. Columns: name, cpu_xmm member, count, result of a (dst) and b
 * (src). */
#ifndef SG_CPU_SSE_LANES_H
#define SG_CPU_SSE_LANES_H

#include <string.h>
#include "cpu/cpu.h"

#define PACKED_OPS(X) \
	X(pand, q, 2, a & b) \
	X(pandn, q, 2, ~a & b) \
	X(por, q, 2, a | b) \
	X(pxor, q, 2, a ^ b) \
	X(pcmpeqb, b, 16, a == b ? 0xff : 0) \
	X(pcmpeqw, w, 8, a == b ? 0xffff : 0) \
	X(pcmpeqd, d, 4, a == b ? 0xffffffffu : 0) \
	X(pcmpgtb, b, 16, (int8_t)a > (int8_t)b ? 0xff : 0) \
	X(pcmpgtw, w, 8, (int16_t)a > (int16_t)b ? 0xffff : 0) \
	X(pcmpgtd, d, 4, (int32_t)a > (int32_t)b ? 0xffffffffu : 0) \
	X(paddb, b, 16, a + b) \
	X(paddw, w, 8, a + b) \
	X(paddd, d, 4, a + b) \
	X(paddq, q, 2, a + b) \
	X(psubb, b, 16, a - b) \
	X(psubw, w, 8, a - b) \
	X(psubd, d, 4, a - b) \
	X(psubq, q, 2, a - b) \
	X(paddusb, b, 16, a + b > 0xff ? 0xff : a + b) \
	X(paddusw, w, 8, a + b > 0xffff ? 0xffff : a + b) \
	X(psubusb, b, 16, a > b ? a - b : 0) \
	X(psubusw, w, 8, a > b ? a - b : 0) \
	X(pminub, b, 16, a < b ? a : b) \
	X(pmaxub, b, 16, a > b ? a : b) \
	X(pminsw, w, 8, (int16_t)a < (int16_t)b ? a : b) \
	X(pmaxsw, w, 8, (int16_t)a > (int16_t)b ? a : b)

/* The shifts of each lane by an immediate (sse_int.c, op_<name>_UxIb):
 * name, cpu_xmm member, count, width, result of a shifted by n. */
#define SHIFT_IMMS(X) \
	X(psrlw, w, 8, 16, n > 15 ? 0 : a >> n) \
	X(psllw, w, 8, 16, n > 15 ? 0 : a << n) \
	X(psraw, w, 8, 16, (int16_t)a >> (n > 15 ? 15 : n)) \
	X(psrld, d, 4, 32, n > 31 ? 0 : a >> n) \
	X(pslld, d, 4, 32, n > 31 ? 0 : a << n) \
	X(psrad, d, 4, 32, (int32_t)a >> (n > 31 ? 31 : n)) \
	X(psrlq, q, 2, 64, n > 63 ? 0 : a >> n) \
	X(psllq, q, 2, 64, n > 63 ? 0 : a << n)

#define PACKED_LANE_DECL(name, ...) void lane_##name(cpu_xmm *d, const cpu_xmm *s);
PACKED_OPS(PACKED_LANE_DECL)
#undef PACKED_LANE_DECL

/* PALIGNR on one lane: bytes n..n+15 of the 32 bytes hi:lo (lo first),
 * zeros past their end. PSRLDQ by n is it with hi = 0; PSLLDQ by n is lo
 * = 0, hi = the source, from byte 16 - n (all zero past 16). */
static inline void lane_alignr(cpu_xmm *d, const cpu_xmm *hi, const cpu_xmm *lo, unsigned n)
{
	/* by quadwords and bit shifts: a 16-byte load at a byte offset into
	 * bytes just stored (a 48-byte buffer) stalls on store forwarding */
	const uint64_t w[7] = { lo->q[0], lo->q[1], hi->q[0], hi->q[1], 0, 0, 0 };
	unsigned m = n > 32 ? 32 : n, q = m >> 3, b = (m & 7) * 8;
	uint64_t r0, r1;

	/* (x << 1) << (63 - b) is x << (64 - b), and 0 for b = 0 */
	r0 = w[q] >> b | (w[q + 1] << 1) << (63 - b);
	r1 = w[q + 1] >> b | (w[q + 2] << 1) << (63 - b);
	d->q[0] = r0;
	d->q[1] = r1;
}

static inline void lane_psrldq(cpu_xmm *d, const cpu_xmm *s, unsigned n)
{
	static const cpu_xmm zero;

	lane_alignr(d, &zero, s, n);
}

static inline void lane_pslldq(cpu_xmm *d, const cpu_xmm *s, unsigned n)
{
	static const cpu_xmm zero;

	lane_alignr(d, s, &zero, n > 16 ? 32 : 16 - n);
}

#endif
