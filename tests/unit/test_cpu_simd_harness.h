/* Shared by the x87/SIMD differential tests (test_cpu_x87.c,
 * test_cpu_simd*.c): a snippet runs natively from an RWX page with every
 * GPR, RFLAGS and the whole FXSAVE state loaded from a struct fstate and
 * saved back, then in the interpreter from the same state; the two results
 * are compared field by field. The oracle is the host CPU. */
#ifndef TEST_CPU_SIMD_HARNESS_H
#define TEST_CPU_SIMD_HARNESS_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <cmocka.h>
#include "../host_cpu.h"
#include "cpu/cpu.h"

/* FXSAVE64 layout (SDM Vol. 1, 10.5.1), the test's own copy. */
struct tfx {
	uint16_t fcw, fsw;
	uint8_t ftw, rsvd0;
	uint16_t fop;
	uint64_t fip, fdp;
	uint32_t mxcsr, mxcsr_mask;
	uint8_t st[8][16];
	uint8_t xmm[16][16];
	uint8_t rsvd[96];
};

struct fstate {
	uint64_t r[16];
	uint64_t rflags;
	uint64_t pad;
	struct tfx fx __attribute__((aligned(16))); /* offset 144 */
};

void run_native_fx(struct fstate *s, void *code);
__asm__(".text\n"
	".globl run_native_fx\n"
	"run_native_fx:\n"
	"push %rbx; push %rbp; push %r12; push %r13; push %r14; push %r15\n"
	"sub $8,%rsp; stmxcsr (%rsp)\n"
	"push %rdi\n"
	"push %rsi\n"
	"fxrstor64 144(%rdi)\n"
	"pushq 128(%rdi); popfq\n"
	"mov 0(%rdi),%rax; mov 8(%rdi),%rcx; mov 16(%rdi),%rdx; mov 24(%rdi),%rbx\n"
	"mov 40(%rdi),%rbp; mov 48(%rdi),%rsi\n"
	"mov 64(%rdi),%r8; mov 72(%rdi),%r9; mov 80(%rdi),%r10; mov 88(%rdi),%r11\n"
	"mov 96(%rdi),%r12; mov 104(%rdi),%r13; mov 112(%rdi),%r14; mov 120(%rdi),%r15\n"
	"mov 56(%rdi),%rdi\n"
	"call *(%rsp)\n"
	"xchg %rdi,8(%rsp)\n"
	"mov %rax,0(%rdi); mov %rcx,8(%rdi); mov %rdx,16(%rdi); mov %rbx,24(%rdi)\n"
	"mov %rbp,40(%rdi); mov %rsi,48(%rdi)\n"
	"mov %r8,64(%rdi); mov %r9,72(%rdi); mov %r10,80(%rdi); mov %r11,88(%rdi)\n"
	"mov %r12,96(%rdi); mov %r13,104(%rdi); mov %r14,112(%rdi); mov %r15,120(%rdi)\n"
	"pushfq; popq 128(%rdi)\n"
	"mov 8(%rsp),%rax; mov %rax,56(%rdi)\n"
	"fxsave64 144(%rdi)\n"
	"fninit\n"
	"cld\n"
	"add $16,%rsp\n"
	"ldmxcsr (%rsp); add $8,%rsp\n"
	"pop %r15; pop %r14; pop %r13; pop %r12; pop %rbp; pop %rbx\n"
	"ret\n");

#define HBUF_SIZE 2048
static uint8_t *h_code, *h_buf;
static uint8_t h_expect[HBUF_SIZE];
/* Bytes of h_buf the next h_run does not compare (set by the caller,
 * cleared by h_run): vendor-defined fields, see h_host_amd. */
static bool h_ignore[HBUF_SIZE];

/* The host is an AMD CPU. sysgate models an Intel CPU (CPUID says
 * GenuineIntel); where AMD defines a field differently the tests compare
 * it only on other hosts (docs/cpu.md, "Host vendor differences"):
 * - FXSAVE stores FIP, FDP and FOP as 0 unless FSW.ES is set, and FXRSTOR
 *   does not load them then: once an instruction sets ES, the image shows
 *   what the FPU held before (a stale FDP of host code, seen in a flaky
 *   FPATAN trial), so the pointer fields are not compared at all, neither
 *   in the image nor in what FNSTENV/FNSAVE store. */
static bool h_host_amd(void)
{
	static int amd = -1;

	if (amd < 0)
		amd = host_cpu_is_amd();
	return amd;
}
static uint8_t *h_stack;
static uint64_t h_rng;

static uint64_t h_rnd(void)
{
	h_rng ^= h_rng << 13;
	h_rng ^= h_rng >> 7;
	h_rng ^= h_rng << 17;
	return h_rng;
}

static int h_setup(void **state)
{
	h_code = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	h_buf = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT,
		     -1, 0);
	h_stack = malloc(65536);
	cpu_install_fault_handler();
	return h_code == MAP_FAILED || h_buf == MAP_FAILED || !h_stack;
}

static int h_teardown(void **state)
{
	munmap(h_code, 4096);
	munmap(h_buf, 4096);
	free(h_stack);
	return 0;
}

/* Guest state from the image: ST fields are in stack order, tags and the
 * cpu's registers physical. */
static void h_load_cpu(struct cpu *c, const struct fstate *s)
{
	unsigned top = (s->fx.fsw >> 11) & 7;

	memcpy(c->r, s->r, sizeof(s->r));
	cpu_set_rflags(c, s->rflags);
	c->x87.fcw = s->fx.fcw;
	c->x87.fsw = s->fx.fsw & ~0x3800;
	c->x87.top = (uint8_t)top;
	c->x87.ftw_tags = 0;
	for (int r = 0; r < 8; r++)
		if (!(s->fx.ftw >> r & 1))
			c->x87.ftw_tags |= (uint16_t)(3u << (2 * r));
	c->x87.fop = s->fx.fop;
	c->x87.fip = s->fx.fip;
	c->x87.fdp = s->fx.fdp;
	for (int k = 0; k < 8; k++)
		memcpy(&c->x87.st[(top + k) & 7], s->fx.st[k], 10);
	c->mxcsr = s->fx.mxcsr;
	memcpy(c->xmm, s->fx.xmm, 256);
}

static void h_save_cpu(const struct cpu *c, struct fstate *s)
{
	memset(s, 0, sizeof(*s));
	memcpy(s->r, c->r, sizeof(s->r));
	s->rflags = cpu_get_rflags(c);
	s->fx.fcw = c->x87.fcw;
	s->fx.fsw = (uint16_t)((c->x87.fsw & ~0x3800) | (c->x87.top & 7) << 11);
	for (int r = 0; r < 8; r++)
		if (((c->x87.ftw_tags >> (2 * r)) & 3) != 3)
			s->fx.ftw |= (uint8_t)(1u << r);
	s->fx.fop = c->x87.fop;
	s->fx.fip = c->x87.fip;
	s->fx.fdp = c->x87.fdp;
	for (int k = 0; k < 8; k++)
		memcpy(s->fx.st[k], &c->x87.st[(c->x87.top + k) & 7], 10);
	s->fx.mxcsr = c->mxcsr;
	memcpy(s->fx.xmm, c->xmm, 256);
}

#define CMP_X87 1u   /* FCW FSW FTW FOP FIP FDP ST0..7 */
#define CMP_SSE 2u   /* MXCSR XMM0..15 */
#define CMP_GPR 4u
#define CMP_MEM 8u

/* Runs bytes[0..len) natively then interpreted (64- or 32-bit mode) from
 * *start; compares what `what` says and the arithmetic flags in fmask.
 * Returns 0, or 1 after printing the first difference. Interpreter stop:
 * *vec (-1 if it reached the end). */
static int h_run(const uint8_t *bytes, unsigned len, const struct fstate *start,
		 bool mode32, unsigned what, uint64_t fmask, const char *name)
{
	struct fstate native = *start, interp;
	struct cpu *cpu;
	uint8_t saved_buf[HBUF_SIZE];
	uint64_t m32 = mode32 ? 0xffffffffull : ~0ull;
	int bad = 0;

	memcpy(saved_buf, h_buf, HBUF_SIZE);
	memcpy(h_code, bytes, len);
	h_code[len] = 0xc3;
	run_native_fx(&native, h_code);
	memcpy(h_expect, h_buf, HBUF_SIZE);
	memcpy(h_buf, saved_buf, HBUF_SIZE);

	h_code[len] = 0xcc;
	cpu_invalidate_code((uint64_t)(uintptr_t)h_code, 4096);
	cpu = calloc(1, sizeof(*cpu));
	cpu_init(cpu, mode32 ? CPU_MODE_32 : CPU_MODE_64);
	h_load_cpu(cpu, start);
	cpu->r[4] = (uint64_t)(uintptr_t)(h_stack + 65536 - 64);
	cpu->rip = (uint64_t)(uintptr_t)h_code;
	cpu_run(cpu);
	if (cpu->stop != CPU_STOP_FAULT || cpu->fault.vector != VEC_BP) {
		fprintf(stderr, "%s: stopped %d vector %d at +%llx\n", name, cpu->stop,
			cpu->fault.vector,
			(unsigned long long)(cpu->fault.insn_addr - (uintptr_t)h_code));
		cpu_release(cpu);
		free(cpu);
		memset(h_ignore, 0, sizeof(h_ignore));
		return 1;
	}
	h_save_cpu(cpu, &interp);
	cpu_release(cpu);
	free(cpu);

	if (what & CMP_GPR)
		for (int r = 0; r < 16; r++)
			if (r != 4 && (interp.r[r] & m32) != (native.r[r] & m32)) {
				fprintf(stderr, "%s: r%d %llx, native %llx\n", name, r,
					(unsigned long long)interp.r[r],
					(unsigned long long)native.r[r]);
				bad = 1;
			}
	if ((interp.rflags & fmask) != (native.rflags & fmask)) {
		fprintf(stderr, "%s: rflags %llx, native %llx\n", name,
			(unsigned long long)interp.rflags, (unsigned long long)native.rflags);
		bad = 1;
	}
	if (what & CMP_X87) {
#define F(f) if (interp.fx.f != native.fx.f) { \
		fprintf(stderr, "%s: " #f " %llx, native %llx\n", name, \
			(unsigned long long)interp.fx.f, (unsigned long long)native.fx.f); \
		bad = 1; }
		F(fcw) F(fsw) F(ftw)
		if (!h_host_amd()) {
			F(fop) F(fip) F(fdp)
		}
#undef F
		for (int k = 0; k < 8; k++)
			if (memcmp(interp.fx.st[k], native.fx.st[k], 10)) {
				long double a, b;
				memcpy(&a, interp.fx.st[k], 16);
				memcpy(&b, native.fx.st[k], 16);
				fprintf(stderr, "%s: st%d %Lg, native %Lg\n", name, k, a, b);
				bad = 1;
			}
	}
	if (what & CMP_SSE) {
		if (interp.fx.mxcsr != native.fx.mxcsr) {
			fprintf(stderr, "%s: mxcsr %x, native %x\n", name, interp.fx.mxcsr,
				native.fx.mxcsr);
			bad = 1;
		}
		for (int k = 0; k < (mode32 ? 8 : 16); k++)
			if (memcmp(interp.fx.xmm[k], native.fx.xmm[k], 16)) {
				const uint64_t *a = (const uint64_t *)interp.fx.xmm[k];
				const uint64_t *b = (const uint64_t *)native.fx.xmm[k];
				fprintf(stderr, "%s: xmm%d %016llx%016llx, native %016llx%016llx\n",
					name, k, (unsigned long long)a[1], (unsigned long long)a[0],
					(unsigned long long)b[1], (unsigned long long)b[0]);
				bad = 1;
			}
	}
	for (int k = 0; k < HBUF_SIZE; k++)
		if (h_ignore[k])
			h_buf[k] = h_expect[k];
	memset(h_ignore, 0, sizeof(h_ignore));
	if ((what & CMP_MEM) && memcmp(h_buf, h_expect, HBUF_SIZE)) {
		for (int k = 0; k < HBUF_SIZE; k++)
			if (h_buf[k] != h_expect[k]) {
				fprintf(stderr, "%s: memory +%d %02x, native %02x\n", name, k,
					h_buf[k], h_expect[k]);
				break;
			}
		bad = 1;
	}
	return bad;
}

#endif
