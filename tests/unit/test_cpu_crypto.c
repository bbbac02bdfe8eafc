/* AES-NI, PCLMULQDQ and SHA: the portable C (crypto.c) against the host's
 * instructions on random operands, every immediate of the forms that take
 * one, where the host has them (the handlers use the host's when it does,
 * so difftest alone would not see the C); and AES-128 of FIPS-197's example
 * through the portable AESKEYGENASSIST/AESENC/AESENCLAST and back through
 * AESIMC/AESDEC/AESDECLAST, on every host. */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "cpu/crypto.h"

static uint64_t rng = 0x243f6a8885a308d3ull;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void test_portable_vs_host(void **state)
{
	static const char *const names[CR_COUNT] = {
		"aesenc", "aesenclast", "aesdec", "aesdeclast", "aesimc", "aeskeygenassist",
		"pclmulqdq", "sha1rnds4", "sha1nexte", "sha1msg1", "sha1msg2", "sha256rnds2",
		"sha256msg1", "sha256msg2",
	};
	unsigned compared = 0;

	for (int op = 0; op < CR_COUNT; op++) {
		cpu_xmm d, s, x0, host, port;
		unsigned n = 0;

		for (unsigned k = 0; k < 4096; k++) {
			unsigned imm = (unsigned)rnd() & 0xff;

			d.q[0] = rnd(), d.q[1] = rnd(), s.q[0] = rnd(), s.q[1] = rnd();
			x0.q[0] = rnd(), x0.q[1] = rnd();
			host = d, port = d;
			if (!crypto_host((enum crypto_op)op, &host, &s, imm, &x0))
				break;
			crypto_portable((enum crypto_op)op, &port, &s, imm, &x0);
			if (memcmp(&host, &port, 16))
				fail_msg("%s imm %#x: host %016llx%016llx, portable %016llx%016llx",
					 names[op], imm, (unsigned long long)host.q[1],
					 (unsigned long long)host.q[0], (unsigned long long)port.q[1],
					 (unsigned long long)port.q[0]);
			n++;
		}
		if (!n)
			printf("%s: skipped, the host lacks it (or SG_PORTABLE_CRYPTO)\n", names[op]);
		compared += n;
	}
	printf("portable against the host: %u operand sets equal\n", compared);
}

/* FIPS-197 appendix C.1: AES-128, key 00..0f, plaintext 00112233..ff. */
static void test_aes128_fips197(void **state)
{
	static const uint8_t rcon[10] = { 1, 2, 4, 8, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36 };
	static const uint8_t want[16] = { 0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30,
					  0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4, 0xc5, 0x5a };
	cpu_xmm rk[11], block, t, zero = { 0 };

	for (unsigned k = 0; k < 16; k++) {
		rk[0].b[k] = (uint8_t)k;
		block.b[k] = (uint8_t)(k * 0x11);
	}
	for (unsigned r = 1; r <= 10; r++) {
		/* the usual expansion: keygenassist, broadcast word 3, fold */
		t = zero;
		crypto_portable(CR_AESKEYGENASSIST, &t, &rk[r - 1], rcon[r - 1], NULL);
		uint32_t w = t.d[3], *p = rk[r - 1].d, *q = rk[r].d;

		q[0] = p[0] ^ w;
		q[1] = p[1] ^ q[0];
		q[2] = p[2] ^ q[1];
		q[3] = p[3] ^ q[2];
	}
	block.q[0] ^= rk[0].q[0], block.q[1] ^= rk[0].q[1];
	for (unsigned r = 1; r < 10; r++)
		crypto_portable(CR_AESENC, &block, &rk[r], 0, NULL);
	crypto_portable(CR_AESENCLAST, &block, &rk[10], 0, NULL);
	assert_memory_equal(block.b, want, 16);
	/* and back: the equivalent inverse cipher */
	block.q[0] ^= rk[10].q[0], block.q[1] ^= rk[10].q[1];
	for (unsigned r = 9; r >= 1; r--) {
		cpu_xmm dk = zero;

		crypto_portable(CR_AESIMC, &dk, &rk[r], 0, NULL);
		crypto_portable(CR_AESDEC, &block, &dk, 0, NULL);
	}
	crypto_portable(CR_AESDECLAST, &block, &rk[0], 0, NULL);
	for (unsigned k = 0; k < 16; k++)
		assert_int_equal(block.b[k], (uint8_t)(k * 0x11));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_portable_vs_host),
		cmocka_unit_test(test_aes128_fips197),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
