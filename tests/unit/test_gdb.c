/* src/gdb: the remote protocol's framing (gdb's manual, "Overview": "$"
 * body "#" two hex digits of the byte sum mod 256; '}' escapes the next
 * byte xor 0x20; 0x03 interrupts) and the target descriptions' agreement
 * with the g packet's layout. `test_gdb --tdesc ABI` prints a target
 * description for tests/unit/gdb_tdesc_check.py, which compares it with
 * gdb's own feature files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/process.h"
#include "gdb/gdb.h"

static void test_checksum_and_frame(void **state)
{
	char out[64];
	size_t n;

	/* 'O' 0x4f + 'K' 0x4b = 0x9a: gdbserver's "$OK#9a" */
	assert_int_equal(rsp_checksum("OK", 2), 0x9a);
	n = rsp_frame(out, sizeof(out), "OK", 2);
	assert_int_equal(n, 6);
	assert_memory_equal(out, "$OK#9a", 6);
	/* empty reply: "$#00" */
	n = rsp_frame(out, sizeof(out), "", 0);
	assert_int_equal(n, 4);
	assert_memory_equal(out, "$#00", 4);
	/* does not fit: nothing */
	assert_int_equal(rsp_frame(out, 5, "OK", 2), 0);
}

static enum rsp_event feed_all(struct rsp_reader *r, const char *s, size_t n,
			       enum rsp_event *first)
{
	enum rsp_event last = RSP_NONE;

	*first = RSP_NONE;
	for (size_t i = 0; i < n; i++) {
		enum rsp_event e = rsp_feed(r, s[i]);

		if (e != RSP_NONE) {
			if (*first == RSP_NONE)
				*first = e;
			last = e;
		}
	}
	return last;
}

static void test_reader(void **state)
{
	static struct rsp_reader r;
	enum rsp_event first;

	/* an ack, then a packet with a right checksum ('m'+'0'+','+'4' =
	 * 0x6d+0x30+0x2c+0x34 = 0xfd) */
	assert_int_equal(feed_all(&r, "+$m0,4#fd", 9, &first), RSP_PACKET);
	assert_int_equal(first, RSP_ACK);
	assert_string_equal(r.buf, "m0,4");
	/* the same with a wrong checksum */
	assert_int_equal(feed_all(&r, "$m0,4#fe", 8, &first), RSP_BAD_CHECKSUM);
	/* Ctrl-C between packets */
	assert_int_equal(rsp_feed(&r, 0x03), RSP_INTERRUPT);
	/* an X packet's binary: "}]" is '}' (0x5d ^ 0x20 = 0x7d) */
	{
		char pkt[32] = "$X0,1:}]#";
		uint8_t sum = rsp_checksum("X0,1:}]", 7);
		size_t n = strlen(pkt);

		snprintf(pkt + n, sizeof(pkt) - n, "%02x", sum);
		assert_int_equal(feed_all(&r, pkt, strlen(pkt), &first), RSP_PACKET);
		assert_int_equal(r.len, 6);
		assert_memory_equal(r.buf, "X0,1:}", 6);
	}
}

static void test_escape_and_hex(void **state)
{
	const uint8_t in[] = { '$', '#', '}', '*', 'a', 0 };
	char out[32];
	uint8_t back[8];
	size_t used, n = rsp_escape(out, sizeof(out), in, sizeof(in), &used);

	assert_int_equal(used, sizeof(in));
	assert_int_equal(n, 10);
	assert_memory_equal(out, "}\x04}\x03}]}\x0a" "a\0", 10);
	/* no room for an escape pair: stop before it */
	n = rsp_escape(out, 1, in, sizeof(in), &used);
	assert_int_equal(n, 0);
	assert_int_equal(used, 0);

	rsp_hex(out, (const uint8_t *)"\x00\x7f\xff", 3);
	assert_string_equal(out, "007fff");
	assert_int_equal(rsp_unhex(back, sizeof(back), "007FfF", 6), 3);
	assert_memory_equal(back, "\x00\x7f\xff", 3);
	assert_int_equal(rsp_unhex(back, sizeof(back), "0g", 2), -1);
	assert_int_equal(rsp_unhex(back, sizeof(back), "123", 3), -1);
}

/* Every <reg> of the description: their number and the sum of their
 * sizes are the g packet's (registers.c). */
static void check_tdesc(enum sg_abi abi, const char *arch)
{
	const char *xml = tdesc_xml(abi), *p = xml;
	unsigned regs = 0;
	size_t bits = 0;

	assert_non_null(strstr(xml, arch));
	while ((p = strstr(p, "<reg "))) {
		const char *b = strstr(p, "bitsize=\"");

		assert_non_null(b);
		bits += strtoul(b + 9, NULL, 10);
		regs++;
		p++;
	}
	assert_int_equal(regs, regs_count(abi));
	assert_int_equal(bits % 8, 0);
	assert_int_equal(bits / 8, regs_size(abi));
}

static void test_tdesc_layout(void **state)
{
	check_tdesc(SG_ABI_I386, "<architecture>i386</architecture>");
	check_tdesc(SG_ABI_X32, "<architecture>i386:x64-32</architecture>");
	check_tdesc(SG_ABI_X64, "<architecture>i386:x86-64</architecture>");
}

/* The n-th <reg> of the description is the n-th register of g/p/P: each
 * xmmK and ymmKh, found by its name, reads and writes that half of the
 * CPU's YMM register K and nothing else. */
static void check_vector_regs(enum sg_abi abi, unsigned nvec)
{
	static struct sg_thread t;
	const char *p = tdesc_xml(abi);
	unsigned n = 0, seen = 0;

	for (unsigned k = 0; k < 16; k++)
		for (unsigned b = 0; b < 16; b++) {
			((uint8_t *)&t.cpu.xmm[k])[b] = (uint8_t)(k * 16 + b);
			((uint8_t *)&t.cpu.ymm_hi[k])[b] = (uint8_t)(0x80 ^ (k * 16 + b));
		}
	while ((p = strstr(p, "<reg name=\""))) {
		unsigned k;
		char tail[4] = "";
		uint8_t got[16], put[16];
		cpu_xmm before_lo, before_hi;

		p += 11;
		if (sscanf(p, "ymm%u%3[h\"]", &k, tail) == 2 && !strcmp(tail, "h\"")) {
			assert_true(k < nvec);
			before_lo = t.cpu.xmm[k];
			assert_int_equal(regs_read(&t, abi, n, got), 16);
			assert_memory_equal(got, &t.cpu.ymm_hi[k], 16);
			for (unsigned b = 0; b < 16; b++)
				put[b] = (uint8_t)(0x5a + b * 3 + k);
			assert_true(regs_write(&t, abi, n, put));
			assert_memory_equal(&t.cpu.ymm_hi[k], put, 16);
			assert_memory_equal(&t.cpu.xmm[k], &before_lo, 16);
			seen++;
		} else if (sscanf(p, "xmm%u%1[\"]", &k, tail) == 2) {
			before_hi = t.cpu.ymm_hi[k];
			assert_int_equal(regs_read(&t, abi, n, got), 16);
			assert_memory_equal(got, &t.cpu.xmm[k], 16);
			for (unsigned b = 0; b < 16; b++)
				put[b] = (uint8_t)(0xa5 ^ (b + 7 * k));
			assert_true(regs_write(&t, abi, n, put));
			assert_memory_equal(&t.cpu.xmm[k], put, 16);
			assert_memory_equal(&t.cpu.ymm_hi[k], &before_hi, 16);
		}
		n++;
	}
	assert_int_equal(n, regs_count(abi));
	/* past the last register: nothing */
	assert_int_equal(regs_read(&t, abi, n, (uint8_t[16]){ 0 }), 0);
	assert_int_equal(seen, CPU_XCR0 & CPU_XSTATE_AVX ? nvec : 0);
}

static void test_vector_registers(void **state)
{
	check_vector_regs(SG_ABI_I386, 8);
	check_vector_regs(SG_ABI_X32, 16);
	check_vector_regs(SG_ABI_X64, 16);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_checksum_and_frame),
		cmocka_unit_test(test_reader),
		cmocka_unit_test(test_escape_and_hex),
		cmocka_unit_test(test_tdesc_layout),
		cmocka_unit_test(test_vector_registers),
	};

	if (argc == 3 && !strcmp(argv[1], "--tdesc")) {
		enum sg_abi abi = !strcmp(argv[2], "i386") ? SG_ABI_I386 :
				  !strcmp(argv[2], "x32") ? SG_ABI_X32 : SG_ABI_X64;

		fputs(tdesc_xml(abi), stdout);
		return 0;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
