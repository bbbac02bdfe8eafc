/* The XSAVE family against the host CPU (64-bit mode): each trial loads a
 * random state with XRSTOR64 (mask 7), runs one instruction on a second
 * area — XSAVE, XSAVEOPT, XSAVEC, XRSTOR (each with and without REX.W,
 * random instruction masks, random headers: compacted or standard, reserved
 * bits and bytes, bad MXCSR), XGETBV 1, VZEROUPPER, VZEROALL — then saves
 * the final state with XSAVE64 (mask 7). The same bytes run natively and
 * interpreted with XCR0 = x87|SSE|AVX; the second area, the final image and
 * whether the instruction raised #GP must agree. Skipped where the host
 * lacks XSAVEC or AVX. The host's own XCR0 may have more components
 * (AVX-512): masks and header bits the trials use are x87/SSE/AVX or bits
 * the host's XCR0 lacks too, so both CPUs judge them alike. */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <cmocka.h>
#include "../host_cpu.h"
#include "cpu/cpu.h"

#define AREA 1024
#define STD_SIZE 832 /* legacy 512 + header 64 + AVX 256 */

static uint8_t *code, *mem, *stack;
static uint64_t rng = 0x9e3779b97f4a7c15ull;
static sigjmp_buf native_jb;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* The snippet runs with rdi = the start image, rsi = the area under test,
 * rbx = the final image, ecx = XGETBV's index; the host's x87/MXCSR/upper
 * YMM state is put back after it. */
void run_native_xs(void *code, void *start, void *area, void *fin, uint32_t ecx);
__asm__(".text\n"
	".globl run_native_xs\n"
	"run_native_xs:\n"
	"push %rbx; push %rbp; push %r12; push %r13; push %r14; push %r15\n"
	"sub $8,%rsp; stmxcsr (%rsp)\n"
	"mov %rdi,%rax; mov %rsi,%rdi; mov %rdx,%rsi; mov %rcx,%rbx; mov %r8d,%ecx\n"
	"call *%rax\n"
	"fninit; ldmxcsr (%rsp); add $8,%rsp; vzeroupper\n"
	"pop %r15; pop %r14; pop %r13; pop %r12; pop %rbp; pop %rbx\n"
	"ret\n");

static void on_segv(int sig, siginfo_t *si, void *uc)
{
	siglongjmp(native_jb, 1);
}

static bool host_has(void)
{
	uint32_t a, b, c, d;

	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(1), "c"(0));
	if (!(c & (1u << 27)) || !(c & (1u << 28)))
		return false; /* OSXSAVE, AVX */
	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0xd), "c"(1));
	return (a & 7) == 7; /* XSAVEOPT, XSAVEC, XGETBV 1 */
}

static uint64_t host_xcr0(void)
{
	uint32_t lo, hi;

	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return (uint64_t)hi << 32 | lo;
}

/* Bits neither this model's XCR0 nor the host's has: both CPUs must
 * reject them in a header and ignore them in a mask. */
static uint64_t foreign_bits;

static uint64_t foreign_bit(void)
{
	for (;;) {
		uint64_t b = 1ull << (rnd() % 63);

		if (b & foreign_bits)
			return b;
	}
}

static void fill(uint8_t *p, size_t n)
{
	for (size_t k = 0; k < n; k++)
		p[k] = (uint8_t)rnd();
}

/* A random standard- or compacted-format area: legacy region, header,
 * AVX state. valid: a header and MXCSR XRSTOR takes, bv within 7. */
static void random_area(uint8_t *a, bool valid)
{
	uint64_t bv = rnd() & 7, comp = 0;
	uint32_t mxcsr = (uint32_t)rnd() & 0xffff;

	if (host_cpu_is_amd() && rnd() % 4 == 0)
		mxcsr = 0x1f80;

	fill(a, AREA);
	if (rnd() % 4 == 0)
		bv = 7;
	if (!valid && rnd() % 3 == 0)
		comp = 1ull << 63 | bv | (rnd() & 7);
	/* components loaded with their initial values: in use on Intel
	 * CPUs, not on AMD's, nor for sysgate (src/cpu/xsave.c, XINUSE) */
	if (host_cpu_is_amd() && rnd() % 8 == 0)
		memset(a, 0, 160), a[0] = 0x7f, a[1] = 3; /* x87 initial */
	if (host_cpu_is_amd() && rnd() % 8 == 0)
		memset(a + 160, 0, 256); /* XMM all 0 */
	if (host_cpu_is_amd() && rnd() % 8 == 0)
		memset(a + 576, 0, 256); /* upper YMM all 0 */
	/* a reserved MXCSR bit; AMD's MXCSR_MASK has bit 17 (MM, misaligned
	 * SSE exceptions), sysgate's is Intel's 0xffff */
	if (!valid && rnd() % 16 == 0)
		mxcsr |= 1u << (host_cpu_is_amd() ? 18 + rnd() % 14 : 16 + rnd() % 16);
	memcpy(a + 24, &mxcsr, 4);
	memset(a + 512, 0, 64);
	if (!valid) {
		unsigned r = (unsigned)(rnd() % 16);

		if (r == 0)
			bv |= foreign_bit();
		else if (r == 1 && comp)
			comp |= foreign_bit() & ~(1ull << 63);
		else if (r == 2)
			a[512 + 8 + rnd() % 56] = (uint8_t)(1 + rnd() % 255);
		else if (r == 3 && comp)
			comp &= ~(rnd() & 7); /* bv may name a component comp lacks */
	}
	memcpy(a + 512, &bv, 8);
	memcpy(a + 520, &comp, 8);
}

struct op {
	const char *name;
	uint8_t bytes[12];
	unsigned len;
	bool restore;
};

static const struct op ops[] = {
	{ "xsave", { 0x0f, 0xae, 0x26 }, 3, false },
	{ "xsave64", { 0x48, 0x0f, 0xae, 0x26 }, 4, false },
	{ "xsaveopt", { 0x0f, 0xae, 0x36 }, 3, false },
	{ "xsaveopt64", { 0x48, 0x0f, 0xae, 0x36 }, 4, false },
	{ "xsavec", { 0x0f, 0xc7, 0x26 }, 3, false },
	{ "xsavec64", { 0x48, 0x0f, 0xc7, 0x26 }, 4, false },
	{ "xrstor", { 0x0f, 0xae, 0x2e }, 3, true },
	{ "xrstor64", { 0x48, 0x0f, 0xae, 0x2e }, 4, true },
	{ "fxrstor64", { 0x48, 0x0f, 0xae, 0x0e }, 4, true },
	/* xgetbv; and $7,%eax (the host's AVX-512 components out);
	 * mov %eax,(%rsi); mov %edx,4(%rsi) */
	{ "xgetbv1", { 0x0f, 0x01, 0xd0, 0x83, 0xe0, 0x07, 0x89, 0x06, 0x89, 0x56, 0x04 }, 11, false },
	{ "vzeroupper", { 0xc5, 0xf8, 0x77 }, 3, false },
	{ "vzeroall", { 0xc5, 0xfc, 0x77 }, 3, false },
};

static unsigned emit(uint8_t *p, const struct op *op, uint64_t mask, uint8_t end)
{
	static const uint8_t pro[] = { 0xb8, 7, 0, 0, 0, 0x31, 0xd2, 0x48, 0x0f, 0xae, 0x2f };
	static const uint8_t epi[] = { 0xb8, 7, 0, 0, 0, 0x31, 0xd2, 0x48, 0x0f, 0xae, 0x23 };
	unsigned n = 0;
	uint32_t lo = (uint32_t)mask, hi = (uint32_t)(mask >> 32);

	memcpy(p + n, pro, sizeof(pro)), n += sizeof(pro);
	p[n++] = 0xb8, memcpy(p + n, &lo, 4), n += 4;
	p[n++] = 0xba, memcpy(p + n, &hi, 4), n += 4;
	memcpy(p + n, op->bytes, op->len), n += op->len;
	memcpy(p + n, epi, sizeof(epi)), n += sizeof(epi);
	p[n++] = end;
	return n;
}

/* Bytes compared: on an AMD host FOP, FIP and FDP (6..23) are stored only
 * with FSW.ES set and otherwise show what the FPU held before: host code's
 * pointers natively (docs/cpu.md, "Host vendor differences"). */
static bool ignored(size_t off)
{
	return host_cpu_is_amd() && off >= 6 && off < 24;
}

static bool quiet; /* a first attempt: differences not printed */

static int compare(const char *what, const char *name, unsigned trial, const uint8_t *interp,
		   const uint8_t *native, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (interp[k] != native[k] && !ignored(k)) {
			if (!quiet)
				fprintf(stderr, "%s trial %u: %s byte %zu: %02x, native %02x\n", name, trial,
				what, k, interp[k], native[k]);
			return 1;
		}
	return 0;
}

/* true: the snippet raised #GP (SIGSEGV) natively */
static __attribute__((noinline)) bool run_native(uint8_t *start, uint8_t *area, uint8_t *fin)
{
	struct sigaction sa = { 0 }, old_segv;
	bool fault = false;

	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigaction(SIGSEGV, &sa, &old_segv);
	if (sigsetjmp(native_jb, 1) == 0)
		run_native_xs(code, start, area, fin, 1);
	else
		fault = true;
	sigaction(SIGSEGV, &old_segv, NULL);
	return fault;
}

static void test_xsave_vs_host(void **state)
{
	uint8_t *start = mem, *area = mem + AREA, *fin = mem + 2 * AREA;
	uint8_t area0[AREA], n_area[AREA], n_fin[AREA];
	unsigned ntrials = 20000, trials = 0, faults = 0, bad = 0, per_op[sizeof(ops) / sizeof(ops[0])] = { 0 };

	cpu_install_fault_handler(); /* cmocka installs its own per test */
	if (!host_has()) {
		printf("skipped: the host lacks OSXSAVE, AVX, XSAVEOPT, XSAVEC or XGETBV 1\n");
		skip();
	}
	foreign_bits = ~host_xcr0() & ~7ull & ~(1ull << 63);
	if (getenv("XSAVE_TRIALS")) /* long runs (docs/testing.md) */
		ntrials = (unsigned)strtoul(getenv("XSAVE_TRIALS"), NULL, 0);
	for (unsigned t = 0; t < ntrials && bad < 5; t++) {
		unsigned k = (unsigned)(rnd() % (sizeof(ops) / sizeof(ops[0])));
		const struct op *op = &ops[k];
		uint64_t mask = rnd() & 7;
		bool native_fault = false, interp_fault;
		struct cpu *cpu;

		if (rnd() % 4 == 0)
			mask = 7;
		if (rnd() % 8 == 0)
			mask |= foreign_bit();
		random_area(start, true);
		if (op->restore)
			random_area(area0, false);
		else
			fill(area0, AREA);

		/* with every XMM register 0 the host reports SSE in use or
		 * not by timing (the SDM allows both; docs/testing.md): a
		 * difference counts when it repeats */
		for (unsigned attempt = 0; attempt < 3; attempt++) {
			unsigned diff = 0;

			quiet = attempt < 2;
			/* natively */
			memcpy(area, area0, AREA);
			memset(fin, 0, AREA);
			emit(code, op, mask, 0xc3);
			native_fault = run_native(start, area, fin);
			memcpy(n_area, area, AREA);
			memcpy(n_fin, fin, AREA);

			/* interpreted */
			memcpy(area, area0, AREA);
			memset(fin, 0, AREA);
			emit(code, op, mask, 0xcc);
			cpu_invalidate_code((uint64_t)(uintptr_t)code, 4096);
			cpu = calloc(1, sizeof(*cpu));
			cpu_init(cpu, CPU_MODE_64);
			cpu->xcr0 = CPU_XSTATE_X87 | CPU_XSTATE_SSE | CPU_XSTATE_AVX;
			cpu->r[R_DI] = (uintptr_t)start;
			cpu->r[R_SI] = (uintptr_t)area;
			cpu->r[R_BX] = (uintptr_t)fin;
			cpu->r[R_CX] = 1;
			cpu->r[R_SP] = (uintptr_t)(stack + 65536 - 64);
			cpu->rip = (uintptr_t)code;
			cpu_run(cpu);
			interp_fault = cpu->stop == CPU_STOP_FAULT && cpu->fault.vector == VEC_GP;
			if (!interp_fault && (cpu->stop != CPU_STOP_FAULT || cpu->fault.vector != VEC_BP)) {
				if (!quiet) fprintf(stderr, "%s trial %u: stopped %d vector %d\n", op->name, t, cpu->stop,
					cpu->fault.vector);
				diff++;
			} else if (interp_fault != native_fault) {
				if (!quiet) fprintf(stderr, "%s trial %u: #GP %d, native %d (mask %llx)\n", op->name, t,
					interp_fault, native_fault, (unsigned long long)mask);
				diff++;
			} else {
				diff += (unsigned)compare("area", op->name, t, area, n_area, AREA);
				if (!native_fault)
					diff += (unsigned)compare("final state", op->name, t, fin, n_fin,
								 STD_SIZE);
			}
			cpu_release(cpu);
			free(cpu);
			if (!diff)
				break;
			if (!quiet)
				bad += diff;
		}
		trials++;
		faults += native_fault;
		per_op[k]++;
	}
	printf("%u trials (%u #GP on both), %u differences\n", trials, faults, bad);
	for (size_t k = 0; k < sizeof(ops) / sizeof(ops[0]); k++)
		printf("  %s: %u\n", ops[k].name, per_op[k]);
	assert_int_equal(bad, 0);
}

static int setup(void **state)
{
	code = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	mem = mmap(NULL, 4 * AREA, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT,
		   -1, 0);
	stack = malloc(65536);
	cpu_install_fault_handler();
	return code == MAP_FAILED || mem == MAP_FAILED || !stack;
}

static int teardown(void **state)
{
	munmap(code, 4096);
	munmap(mem, 4 * AREA);
	free(stack);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_xsave_vs_host),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
