/* Decoder: lengths against Capstone, operand/address sizes, RIP-relative,
 * prefixes, and the invalid encodings that must raise #UD or #GP. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <capstone/capstone.h>
#include <cmocka.h>
#include "cpu/insn.h"
#include "cpu/ops.h"

static uint8_t *page;
static struct cpu cpu64, cpu32;
static struct insn *scratch; /* where the tests decode: an entry of cpu64's cache */

static void decode(struct insn *i, struct cpu *c, const char *bytes, size_t n)
{
	memset(page, 0x90, 64);
	memcpy(page, bytes, n);
	insn_decode(i, c, (uint64_t)(uintptr_t)page);
}

static size_t cs_len(csh h, const uint8_t *code, size_t n)
{
	cs_insn *ci;
	size_t len = 0;

	if (cs_disasm(h, code, n, 0x1000, 1, &ci) == 1) {
		len = ci->size;
		cs_free(ci, 1);
	}
	return len;
}

/* 66 on a near branch in 64-bit mode: Intel ignores it (rel32), Capstone
 * decodes it as AMD does (rel16). sysgate is an Intel CPU. */
static bool is_intel_branch(const struct insn *i, const struct cpu *c)
{
	return c->mode == CPU_MODE_64 && (insn_cold(i)->pfx & PFX_OSZ) &&
	       (insn_cold(i)->fn == op_jcc_Jb || insn_cold(i)->fn == op_jmp_Jz || insn_cold(i)->fn == op_call_Jz ||
		insn_cold(i)->fn == op_ret_Iw);
}

/* Known encodings: each must decode (not #UD) to Capstone's length. */
static const struct { const char *b; unsigned n; bool m64; } known[] = {
	{ "\x48\x8b\x05\x10\x00\x00\x00", 7, true },       /* mov rax,[rip+16] */
	{ "\x64\x48\x8b\x04\x25\x28\x00\x00\x00", 9, true }, /* mov rax,fs:0x28 */
	{ "\x67\x8b\x04\x98", 4, true },                   /* mov eax,[eax+ebx*4] */
	{ "\x66\x41\x81\xc0\x34\x12", 6, true },           /* add r8w,0x1234 */
	{ "\x48\xb8\x01\x02\x03\x04\x05\x06\x07\x08", 10, true }, /* movabs */
	{ "\x48\xa1\x01\x02\x03\x04\x05\x06\x07\x08", 10, true }, /* mov rax,moffs64 */
	{ "\x67\xa1\x01\x02\x03\x04", 6, true },           /* mov eax,moffs32 */
	{ "\xf3\x0f\x1e\xfa", 4, true },                   /* endbr64 */
	{ "\x66\x0f\x1f\x84\x00\x00\x00\x00\x00", 9, true }, /* nopw */
	{ "\x66\x2e\x0f\x1f\x84\x00\x00\x00\x00\x00", 10, true },
	{ "\xf0\x48\x0f\xb1\x0e", 5, true },               /* lock cmpxchg */
	{ "\x66\x0f\x70\xc0\x1b", 5, true },               /* pshufd */
	{ "\x66\x0f\x73\xd8\x04", 5, true },               /* psrldq */
	{ "\xc8\x10\x00\x01", 4, true },                   /* enter */
	{ "\xf7\x05\x00\x00\x00\x00\x01\x00\x00\x00", 10, true }, /* test [rip],imm32 */
	{ "\x0f\x84\x00\x01\x00\x00", 6, true },
	{ "\x66\x0f\x84\x00\x01\x00\x00", 7, true },       /* Intel: 66 ignored in 64-bit */
	{ "\x8e\xe8", 2, false },                          /* mov gs,ax */
	{ "\x65\xa1\x14\x00\x00\x00", 6, false },          /* mov eax,gs:0x14 */
	{ "\x67\x8b\x47\x04", 4, false },                  /* 16-bit addressing */
	{ "\x67\x8b\x06\x34\x12", 5, false },              /* [disp16] */
	{ "\x66\xb8\x34\x12", 4, false },                  /* mov ax,imm16 */
	{ "\xcd\x80", 2, false },
	{ "\x0f\x34", 2, false },
	{ "\x40", 1, false },                              /* inc eax */
	{ "\x60", 1, false },
	{ "\xd9\x7c\x24\x04", 4, false },                  /* fnstcw */
	{ "\xdf\xe0", 2, false },                          /* fnstsw ax */
};

static void test_known(void **state)
{
	csh h64, h32;

	assert_int_equal(cs_open(CS_ARCH_X86, CS_MODE_64, &h64), CS_ERR_OK);
	assert_int_equal(cs_open(CS_ARCH_X86, CS_MODE_32, &h32), CS_ERR_OK);
	for (size_t k = 0; k < sizeof(known) / sizeof(known[0]); k++) {
		struct insn *i = scratch;
		struct cpu *c = known[k].m64 ? &cpu64 : &cpu32;

		decode(i, c, known[k].b, known[k].n);
		if (insn_cold(i)->fn == op_ud || insn_cold(i)->fn == op_gp)
			fail_msg("case %zu decodes as a fault", k);
		assert_int_equal(insn_cold(i)->len, known[k].n);
		if (is_intel_branch(i, c))
			continue;
		assert_int_equal(insn_cold(i)->len, cs_len(known[k].m64 ? h64 : h32, page, 16));
	}
	cs_close(&h64);
	cs_close(&h32);
}

static void test_fields(void **state)
{
	struct insn *i = scratch;

	/* RIP-relative: resolved at decode time, from no base when the
	 * address fits 32 bits sign-extended, else from a RIP-relative base
	 * register holding its multiple of 4 GiB (the page is a host address:
	 * above 4 GiB on x86_64 hosts), the displacement then 32 bits */
	decode(i, &cpu64, "\x48\x8b\x05\x10\x00\x00\x00", 7);
	assert_int_equal(insn_cold(i)->osz, 8);
	assert_int_equal(insn_ea(&cpu64, i), (uintptr_t)page + 7 + 16);
	if ((uintptr_t)page + 7 + 16 == (uint64_t)(int64_t)(int32_t)((uintptr_t)page + 7 + 16)) {
		assert_int_equal(i->base, GREG_NONE);
	} else {
		assert_int_equal(i->base, GREG_RIP_BASE);
		assert_int_equal(cpu64.r[GREG_RIP_BASE] & 0xffffffffu, 0);
		assert_int_equal(insn_disp(i), (int32_t)((uintptr_t)page + 7 + 16));
		assert_int_equal(i->v, (int32_t)((uintptr_t)page + 7 + 16));
	}

	decode(i, &cpu64, "\x64\x48\x8b\x04\x25\x28\x00\x00\x00", 9);
	assert_int_equal(insn_seg(i), SEG_FS);
	cpu64.base[SEG_FS] = 0x10000;
	assert_int_equal(insn_ea(&cpu64, i), 0x10028);

	decode(i, &cpu64, "\x2e\x8b\x00", 3); /* CS override ignored in 64-bit mode */
	assert_int_equal(insn_seg(i), SEG_DS);

	decode(i, &cpu64, "\x67\x8b\x04\x98", 4);
	assert_int_equal(insn_cold(i)->asz, 4);
	cpu64.r[R_AX] = 0xffffffff;
	cpu64.r[R_BX] = 1;
	assert_int_equal(insn_ea(&cpu64, i), 3); /* wraps at 32 bits */

	decode(i, &cpu64, "\x88\xe0", 2); /* mov al,ah */
	assert_int_equal(insn_reg8(i), 16 + 0);
	decode(i, &cpu64, "\x40\x88\xe0", 3); /* mov al,spl */
	assert_int_equal(insn_reg8(i), R_SP);

	decode(i, &cpu64, "\x66\x50", 2); /* push ax */
	assert_int_equal(insn_cold(i)->osz, 2);
	decode(i, &cpu64, "\x50", 1);
	assert_int_equal(insn_cold(i)->osz, 8);
	decode(i, &cpu32, "\x50", 1);
	assert_int_equal(insn_cold(i)->osz, 4);

	decode(i, &cpu32, "\x67\x8b\x47\x04", 4); /* mov eax,[bx+4] */
	assert_int_equal(i->base, R_BX);
	assert_int_equal(insn_index(i), GREG_NONE);
	assert_int_equal(insn_disp(i), 4);

	decode(i, &cpu64, "\x48\x41\x8b\x00", 4); /* REX not last: ignored */
	assert_int_equal(insn_cold(i)->osz, 4);
	assert_int_equal(i->base, R_R8);
}

static void test_invalid(void **state)
{
	static const struct { const char *b; unsigned n; bool m64; insn_fn fn; } bad[] = {
		{ "\x0f\x0b", 2, true, op_ud },               /* ud2 */
		{ "\x06", 1, true, op_ud },                   /* push es in 64-bit */
		{ "\x60", 1, true, op_ud },                   /* pusha in 64-bit */
		{ "\xd6", 1, true, op_ud },
		{ "\xf0\x01\xc0", 3, true, op_ud },           /* lock on a register */
		{ "\xf0\x89\x00", 3, true, op_ud },           /* lock mov */
		{ "\x8d\xc0", 2, true, op_ud },               /* lea with a register */
		{ "\x0f\x05", 2, false, op_syscall },         /* decodes; #UD when run */
		{ "\x0f\x01\xf8", 3, true, op_grp7 },
		{ "\xf4", 1, true, op_gp },                   /* hlt */
		{ "\x66\x66\x66\x66\x66\x66\x66\x66\x66\x66\x66\x66\x66\x66\x90", 15, true, op_xchg_rAXr },
		{ "\x66\x66\x66\x66\x66\x66\x66\x66\x66\x66\x66\x66\x66\x66\x66\x90", 16, true, op_gp },
	};

	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		struct insn *i = scratch;

		decode(i, bad[k].m64 ? &cpu64 : &cpu32, bad[k].b, bad[k].n);
		if (insn_cold(i)->fn != bad[k].fn)
			fail_msg("case %zu: wrong handler", k);
	}
}

/* Random encodings: whenever both decode, the lengths agree. */
static void test_random_lengths(void **state)
{
	static const uint8_t prefixes[] = { 0x66, 0x67, 0xf2, 0xf3, 0x2e, 0x64, 0x65, 0x48, 0x41, 0x4c, 0x0f };
	csh h[2];
	uint64_t r = 88172645463325252ull;
	unsigned compared = 0;

	assert_int_equal(cs_open(CS_ARCH_X86, CS_MODE_64, &h[0]), CS_ERR_OK);
	assert_int_equal(cs_open(CS_ARCH_X86, CS_MODE_32, &h[1]), CS_ERR_OK);
	for (int n = 0; n < 20000; n++) {
		uint8_t b[16];
		struct insn *i = scratch;
		int m = n & 1;
		size_t want;

		for (int k = 0; k < 16; k++) {
			r ^= r << 13, r ^= r >> 7, r ^= r << 17;
			b[k] = (uint8_t)r;
		}
		if (r % 3 == 0)
			b[0] = prefixes[(r >> 20) % sizeof(prefixes)];
		if (m && (b[0] & 0xf0) == 0x40)
			continue;
		decode(i, m ? &cpu32 : &cpu64, (const char *)b, 16);
		if (insn_cold(i)->fn == op_ud || insn_cold(i)->fn == op_gp || is_intel_branch(i, m ? &cpu32 : &cpu64))
			continue;
		want = cs_len(h[m], page, 16);
		if (!want)
			continue;
		if (want != insn_cold(i)->len)
			fail_msg("%s-bit %02x %02x %02x %02x %02x %02x: len %u, capstone %zu",
				 m ? "32" : "64", b[0], b[1], b[2], b[3], b[4], b[5], insn_cold(i)->len, want);
		compared++;
	}
	assert_true(compared > 5000);
	cs_close(&h[0]);
	cs_close(&h[1]);
}

/* cpu_decode_one: lengths and flows of the SDM's encodings (which
 * instructions may transfer control), faults, and bytes that end early. */
static const struct {
	const char *b;
	unsigned n;
	bool m64;
	enum cpu_insn_flow flow;
} flows[] = {
	{ "\xcf", 1, true, CPU_INSN_BRANCHES },                 /* iretd */
	{ "\x48\xcf", 2, true, CPU_INSN_BRANCHES },             /* iretq */
	{ "\xf4", 1, true, CPU_INSN_BRANCHES },                 /* hlt: #GP at CPL 3 */
	{ "\x0f\x0b", 2, true, CPU_INSN_BRANCHES },             /* ud2 */
	{ "\xcc", 1, true, CPU_INSN_BRANCHES },                 /* int3 */
	{ "\x0f\x05", 2, true, CPU_INSN_BRANCHES },             /* syscall */
	{ "\xff\x2d\x00\x00\x00\x00", 6, true, CPU_INSN_BRANCHES }, /* jmp far [rip] */
	{ "\xe2\xfe", 2, true, CPU_INSN_BRANCHES },             /* loop */
	{ "\xe3\x00", 2, true, CPU_INSN_BRANCHES },             /* jrcxz */
	{ "\xc2\x08\x00", 3, true, CPU_INSN_BRANCHES },        /* ret 8 */
	{ "\xe8\x00\x00\x00\x00", 5, true, CPU_INSN_BRANCHES }, /* call */
	{ "\x74\x00", 2, true, CPU_INSN_BRANCHES },             /* je */
	{ "\xf3\xa4", 2, true, CPU_INSN_FALLS_THROUGH },        /* rep movsb */
	{ "\x90", 1, true, CPU_INSN_FALLS_THROUGH },
	{ "\x0f\x31", 2, true, CPU_INSN_FALLS_THROUGH },        /* rdtsc */
	{ "\x0f\xa2", 2, true, CPU_INSN_FALLS_THROUGH },        /* cpuid */
	{ "\x0f\x94\xc0", 3, true, CPU_INSN_FALLS_THROUGH },    /* sete al */
	{ "\xd9\xe8", 2, true, CPU_INSN_FALLS_THROUGH },        /* fld1 */
	{ "\xce", 1, true, CPU_INSN_FAULTS },                   /* into: #UD in 64-bit mode */
	{ "\x06", 1, true, CPU_INSN_FAULTS },                   /* push es: likewise */
	{ "\xcd\x80", 2, false, CPU_INSN_BRANCHES },            /* int 0x80 */
	{ "\x0f\x34", 2, false, CPU_INSN_BRANCHES },            /* sysenter */
	{ "\xce", 1, false, CPU_INSN_BRANCHES },                /* into */
	{ "\xea\x00\x00\x00\x00\x23\x00", 7, false, CPU_INSN_BRANCHES }, /* jmp 0x23:0 */
	{ "\xe3\x00", 2, false, CPU_INSN_BRANCHES },            /* jecxz */
	{ "\xcf", 1, false, CPU_INSN_BRANCHES },                /* iretd */
	{ "\x06", 1, false, CPU_INSN_FALLS_THROUGH },           /* push es */
};

static void test_decode_one(void **state)
{
	static const uint8_t long_insn[16] = { 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66,
					       0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x90 };
	enum cpu_insn_flow flow;
	unsigned len;
	uint32_t r = 12345;

	for (size_t k = 0; k < sizeof(flows) / sizeof(flows[0]); k++) {
		enum cpu_mode mode = flows[k].m64 ? CPU_MODE_64 : CPU_MODE_32;

		if (!cpu_decode_one(mode, (const uint8_t *)flows[k].b, flows[k].n, &len, &flow))
			fail_msg("case %zu: truncated", k);
		if (len != flows[k].n || flow != flows[k].flow)
			fail_msg("case %zu: len %u flow %d, expected %u %d", k, len, flow,
				 flows[k].n, flows[k].flow);
		/* one byte short: not an instruction yet */
		assert_false(cpu_decode_one(mode, (const uint8_t *)flows[k].b, flows[k].n - 1,
					    &len, &flow));
	}
	/* over 15 bytes: #GP */
	assert_true(cpu_decode_one(CPU_MODE_64, long_insn, sizeof(long_insn), &len, &flow));
	assert_int_equal(flow, CPU_INSN_FAULTS);
	/* the same decoder as the cache's: the same lengths */
	for (int n = 0; n < 20000; n++) {
		uint8_t b[16];
		struct insn *i = scratch;
		struct cpu *c = n & 1 ? &cpu32 : &cpu64;

		for (int k = 0; k < 16; k++) {
			r ^= r << 13, r ^= r >> 7, r ^= r << 17;
			b[k] = (uint8_t)r;
		}
		decode(i, c, (const char *)b, 16);
		assert_true(cpu_decode_one(c->mode, b, 16, &len, &flow));
		assert_int_equal(len, insn_cold(i)->len);
		if (insn_cold(i)->fn == op_ud || insn_cold(i)->fn == op_gp)
			assert_int_not_equal(flow, CPU_INSN_FALLS_THROUGH);
	}
}

static int setup(void **state)
{
	page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT,
		    -1, 0);
	cpu_init(&cpu64, CPU_MODE_64);
	cpu_init(&cpu32, CPU_MODE_32);
	scratch = insn_scratch(&cpu64, INSN_SCRATCH_DECODE);
	return page == MAP_FAILED;
}

static int teardown(void **state)
{
	munmap(page, 4096);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known),
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_invalid),
		cmocka_unit_test(test_random_lengths),
		cmocka_unit_test(test_decode_one),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
