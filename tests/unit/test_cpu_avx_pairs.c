/* The AVX fast-form pairs (src/cpu/avx_fast.c, avx_fuse_decoded) against
 * the host CPU: random runs of 2..8 VEX.128 forms of VAESENC,
 * VAESENCLAST, VPXOR and VPCLMULQDQ (every immediate selector) on
 * registers, VMOVDQU loads and VPXOR m128 (base + disp8, any alignment),
 * random registers, executed twice by a loop in the snippet: the first pass
 * decodes them one by one (single forms), the second runs the pairs the
 * decoder made. XMM0..15 and MXCSR after it must equal the native run's.
 * Skipped where the host lacks AVX, AES-NI or PCLMULQDQ. */
#include "test_cpu_simd_harness.h"
#include <cpuid.h>

static bool host_has_ops(void)
{
	unsigned a, b, c, d;

	if (!__get_cpuid(1, &a, &b, &c, &d))
		return false;
	/* AVX (28), AES (25), PCLMULQDQ (1), OSXSAVE (27) */
	return (c & (1u << 28 | 1u << 25 | 1u << 1 | 1u << 27)) == (1u << 28 | 1u << 25 | 1u << 1 | 1u << 27);
}

/* VEX.128.66.<map> op /r [ib]: C4, R X B (inverted) and the map, W0
 * vvvv (inverted) L0 pp=01. */
static unsigned emit_vex(uint8_t *p, unsigned map, uint8_t op, unsigned dst, unsigned src1,
			 unsigned src2, int imm)
{
	unsigned n = 0;

	p[n++] = 0xc4;
	p[n++] = (uint8_t)((dst >> 3 ? 0 : 0x80) | 0x40 | (src2 >> 3 ? 0 : 0x20) | map);
	p[n++] = (uint8_t)((~src1 & 15) << 3 | 1);
	p[n++] = op;
	p[n++] = (uint8_t)(0xc0 | (dst & 7) << 3 | (src2 & 7));
	if (imm >= 0)
		p[n++] = (uint8_t)imm;
	return n;
}

/* ... and with a memory operand disp8(%rsi), prefix pp (1: 66, 2: F3). */
static unsigned emit_vex_mem(uint8_t *p, uint8_t op, unsigned pp, unsigned dst, unsigned src1,
			     uint8_t disp)
{
	unsigned n = 0;

	p[n++] = 0xc4;
	p[n++] = (uint8_t)((dst >> 3 ? 0 : 0x80) | 0x60 | 1); /* map 0F */
	p[n++] = (uint8_t)((~src1 & 15) << 3 | pp);
	p[n++] = op;
	p[n++] = (uint8_t)(0x40 | (dst & 7) << 3 | 6);
	p[n++] = disp;
	return n;
}

static void test_avx_pairs_vs_host(void **state)
{
	unsigned bad = 0, trials = 3000;
	uint8_t code[256];

	(void)state;
	if (!host_has_ops())
		skip();
	h_rng = 0x9e3779b97f4a7c15ull;
	for (unsigned t = 0; t < trials; t++) {
		struct fstate start;
		unsigned n = 0, len = 2 + (unsigned)(h_rnd() % 7), top;
		char name[32];

		memset(&start, 0, sizeof(start));
		for (unsigned k = 0; k < sizeof(start.fx.xmm); k++)
			start.fx.xmm[k / 16][k % 16] = (uint8_t)h_rnd();
		start.fx.mxcsr = 0x1f80;
		start.fx.fcw = 0x37f;
		start.rflags = 2;
		start.r[6] = (uint64_t)(uintptr_t)h_buf; /* rsi: the memory operands' base */
		for (unsigned k = 0; k < 256; k++)
			h_buf[k] = (uint8_t)h_rnd();
		/* mov $2, %ecx; top: <run>; dec %ecx; jnz top */
		code[n++] = 0xb9, code[n++] = 2, code[n++] = 0, code[n++] = 0, code[n++] = 0;
		top = n;
		for (unsigned k = 0; k < len; k++) {
			unsigned d = (unsigned)(h_rnd() % 16), s1 = (unsigned)(h_rnd() % 16);
			unsigned s2 = (unsigned)(h_rnd() % 16);

			switch (h_rnd() % 6) {
			case 4: /* VMOVDQU xmm, disp8(%rsi) */
				n += emit_vex_mem(code + n, 0x6f, 2, d, 0, (uint8_t)(h_rnd() % 128));
				break;
			case 5: /* VPXOR xmm, xmm, disp8(%rsi) */
				n += emit_vex_mem(code + n, 0xef, 1, d, s1, (uint8_t)(h_rnd() % 128));
				break;
			case 0: n += emit_vex(code + n, 2, 0xdc, d, s1, s2, -1); break; /* VAESENC */
			case 1: n += emit_vex(code + n, 2, 0xdd, d, s1, s2, -1); break; /* VAESENCLAST */
			case 2: n += emit_vex(code + n, 1, 0xef, d, s1, s2, -1); break; /* VPXOR */
			default: /* VPCLMULQDQ, selector bits 0 and 4 */
				n += emit_vex(code + n, 3, 0x44, d, s1, s2,
					      (int)(h_rnd() & 0x11));
				break;
			}
		}
		code[n++] = 0xff, code[n++] = 0xc9; /* dec %ecx */
		code[n++] = 0x75, code[n] = (uint8_t)(top - (n + 1)), n++; /* jnz top */
		snprintf(name, sizeof(name), "pairs trial %u", t);
		bad += (unsigned)h_run(code, n, &start, false, CMP_SSE, 0, name);
	}
	fprintf(stderr, "AVX pairs: %u runs, %u mismatches\n", trials, bad);
	assert_int_equal(bad, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_avx_pairs_vs_host),
	};

	return cmocka_run_group_tests(tests, h_setup, h_teardown);
}
