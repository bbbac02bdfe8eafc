/* The extended state in signal frames (arch/x86/kernel/fpu/signal.c), as
 * a program sees it on a CPU with XSAVE enabled (CPUID OSXSAVE): uc_flags
 * has UC_FP_XSTATE; the fpstate's software bytes carry FP_XSTATE_MAGIC1,
 * xstate_size = CPUID 0xD.0 EBX, extended_size = it + 4 (+ the 112-byte
 * fsave header for i386), xfeatures = XCR0, FP_XSTATE_MAGIC2 after the
 * XSAVE image; XSTATE_BV has x87 and SSE. A handler that changes XMM3,
 * MXCSR (and, with AVX enabled, YMM3's upper half) in the frame sees them
 * after sigreturn; a frame without MAGIC2 restores the legacy region
 * alone; a reserved header byte set fails the sigreturn with SIGSEGV.
 * Printed facts are the same on every XSAVE CPU whatever its XCR0
 * (compared with the native run); the YMM part, which runs where AVX is
 * enabled, says "ok" on stderr and exits 1 when YMM3's upper half did not
 * come back from the frame. i386 (against a native i386 run only): the
 * fsave header before the FXSAVE image, with pi pushed on the x87 stack:
 * its control word, tag word, CS, ST0, status and FXSR magic. */
#include <stdlib.h>
#include <cpuid.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>
#include <sys/syscall.h>

#define MAGIC1 0x46505853u
#define MAGIC2 0x46505845u
#define XMM3 (160 + 3 * 16)

enum what { LOOK, CHANGE, NO_MAGIC2, CORRUPT, FSAVE };
static volatile enum what what;
static uint32_t xstate_size, ymm_off;
static uint64_t xcr0;
static sigjmp_buf segv_jb;
static const uint8_t xmm_new[16] = { 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
				     0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xf0, 0x0f };

static uint8_t *fx_of(ucontext_t *uc, int *ia32)
{
#ifdef __i386__
	*ia32 = 1;
	return (uint8_t *)uc->uc_mcontext.fpregs + 112; /* past the fsave header */
#else
	*ia32 = 0;
	return (uint8_t *)uc->uc_mcontext.fpregs;
#endif
}

static void on_usr1(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	int ia32;
	uint8_t *fx = fx_of(uc, &ia32);
	uint32_t sw[12], magic2, mxcsr;
	uint64_t xfeatures, bv;

	(void)sig, (void)si;
	memcpy(sw, fx + 464, sizeof(sw));
	memcpy(&xfeatures, fx + 464 + 8, 8);
	memcpy(&bv, fx + 512, 8);
#ifdef __i386__
	if (what == FSAVE) {
		struct _libc_fpstate *h = uc->uc_mcontext.fpregs;
		long double pi;

		__asm__ volatile("fldpi\n\tfstpt %0" : "=m"(pi));
		printf("fsave cw %#lx tag %#lx cssel %#lx\n", h->cw & 0xffff, h->tag & 0xffff,
		       h->cssel & 0xffff);
		printf("fsave st0 is pi: %d\n", !memcmp(&h->_st[0], &pi, 10));
		printf("fsave status is sw: %d, magic FXSR: %d\n",
		       (h->status & 0xffff) == (h->sw & 0xffff), (h->status >> 16) == 0);
		return;
	}
#endif
	if (what == LOOK) {
		printf("uc_flags UC_FP_XSTATE: %d\n", !!(uc->uc_flags & 1));
		printf("fxsave image 64-byte aligned: %d\n", !((uintptr_t)fx & 63));
		printf("magic1: %d\n", sw[0] == MAGIC1);
		printf("xstate_size = CPUID 0xD.0 EBX: %d\n", sw[4] == xstate_size);
		printf("extended_size = xstate_size + 4 (+ 112 for i386): %d\n",
		       sw[1] == xstate_size + 4 + (ia32 ? 112 : 0));
		printf("xfeatures = XCR0: %d\n", xfeatures == xcr0);
		printf("XSTATE_BV has x87 and SSE: %d\n", (bv & 3) == 3);
		memcpy(&magic2, fx + sw[4], 4);
		printf("magic2 after the image: %d\n", magic2 == MAGIC2);
		return;
	}
	memcpy(fx + XMM3, xmm_new, 16);
	memcpy(&mxcsr, fx + 24, 4);
	mxcsr = (mxcsr & ~0x6000u) | 0x4000u; /* round up */
	memcpy(fx + 24, &mxcsr, 4);
	if (ymm_off) { /* the AVX state, marked present (a vzeroupper the
			* compiler put before the call may have left it initial) */
		memset(fx + ymm_off + 3 * 16, 0x5a, 16);
		bv |= 4;
		memcpy(fx + 512, &bv, 8);
	}
	if (what == NO_MAGIC2)
		memset(fx + sw[4], 0, 4);
	if (what == CORRUPT)
		memset(fx + 512 + 16, 0xff, 4); /* the first reserved header bytes */
}

static void on_segv(int sig)
{
	(void)sig;
	siglongjmp(segv_jb, 1);
}

/* kill(getpid(), SIGUSR1) with XMM3 = in; XMM3 and MXCSR after the handler */
__attribute__((target("sse2"))) static void signal_with_xmm3(const uint8_t in[16], uint8_t out[16],
						       uint32_t *mxcsr)
{
	long pid = getpid();

#if defined(__i386__)
	__asm__ volatile("movdqu %1, %%xmm3\n\tint $0x80\n\tmovdqu %%xmm3, %0"
			 : "=m"(*(uint8_t(*)[16])out)
			 : "m"(*(const uint8_t(*)[16])in), "a"(SYS_kill), "b"(pid), "c"(SIGUSR1)
			 : "xmm3", "memory");
#else
	long nr = SYS_kill;

	__asm__ volatile("movdqu %2, %%xmm3\n\tsyscall\n\tmovdqu %%xmm3, %0"
			 : "=m"(*(uint8_t(*)[16])out), "+a"(nr)
			 : "m"(*(const uint8_t(*)[16])in), "D"(pid), "S"((long)SIGUSR1)
			 : "rcx", "r11", "xmm3", "memory");
#endif
	__asm__ volatile("stmxcsr %0" : "=m"(*mxcsr));
}

__attribute__((target("avx"))) static int ymm_check(void)
{
	uint8_t in[16] = { 1 }, out[16], hi[16];
	uint32_t mxcsr;

	__asm__ volatile("vpcmpeqb %%ymm3, %%ymm3, %%ymm3" : : : "xmm3");
	signal_with_xmm3(in, out, &mxcsr);
	__asm__ volatile("vextractf128 $1, %%ymm3, %0" : "=m"(hi) : : "xmm3");
	fprintf(stderr, "ymm3 upper half from the frame: %s\n",
		hi[0] == 0x5a && hi[15] == 0x5a ? "ok" : "WRONG");
	return hi[0] == 0x5a && hi[15] == 0x5a ? 0 : 1;
}

int main(void)
{
	unsigned a, b, c, d;
	uint8_t in[16], out[16];
	uint32_t mxcsr, lo, hi;
	struct sigaction sa;

	setvbuf(stdout, NULL, _IONBF, 0);
	__cpuid(1, a, b, c, d);
	if (!(c & (1u << 27))) {
		printf("no OSXSAVE\n");
		return 0;
	}
	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	xcr0 = (uint64_t)hi << 32 | lo;
	__cpuid_count(0xd, 0, a, b, c, d);
	xstate_size = b;
	if ((xcr0 & 6) == 6) {
		__cpuid(1, a, b, c, d);
		if (c & (1u << 28)) {
			__cpuid_count(0xd, 2, a, b, c, d);
			ymm_off = b;
		}
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_usr1;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGUSR1, &sa, NULL);
	signal(SIGSEGV, on_segv);
	memset(in, 0xa5, 16);

	what = LOOK;
	signal_with_xmm3(in, out, &mxcsr);
	printf("xmm3 kept: %d, mxcsr %#x\n", !memcmp(in, out, 16), mxcsr);

	what = CHANGE;
	signal_with_xmm3(in, out, &mxcsr);
	printf("xmm3 from the frame: %d, mxcsr %#x\n", !memcmp(out, xmm_new, 16), mxcsr);
	__asm__ volatile("ldmxcsr %0" : : "m"((uint32_t){ 0x1f80 }));

	what = NO_MAGIC2;
	signal_with_xmm3(in, out, &mxcsr);
	printf("without magic2, xmm3 from the legacy region: %d, mxcsr %#x\n",
	       !memcmp(out, xmm_new, 16), mxcsr);
	__asm__ volatile("ldmxcsr %0" : : "m"((uint32_t){ 0x1f80 }));

	what = CORRUPT;
	if (sigsetjmp(segv_jb, 1) == 0) {
		signal_with_xmm3(in, out, &mxcsr);
		printf("corrupt header: no SIGSEGV\n");
	} else {
		printf("corrupt header: SIGSEGV\n");
	}
	__asm__ volatile("ldmxcsr %0" : : "m"((uint32_t){ 0x1f80 }));

#ifdef __i386__
	if (!getenv("E2E_REF_TWIN")) {
		long pid = getpid();

		what = FSAVE;
		__asm__ volatile("fldpi\n\tint $0x80\n\tfstp %%st(0)"
				 : : "a"(SYS_kill), "b"(pid), "c"(SIGUSR1) : "memory");
	}
#endif
	if (ymm_off) {
		what = CHANGE;
		return ymm_check(); /* exit status 1 if the frame's YMM3 was lost */
	} else {
		fprintf(stderr, "ymm3: AVX state not enabled (XCR0 %#llx)\n",
			(unsigned long long)xcr0);
	}
	return 0;
}
