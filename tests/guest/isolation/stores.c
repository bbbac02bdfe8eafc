/* stores: guest stores to memory the program never mapped.
 * Natively every such access is SIGSEGV/SEGV_MAPERR at the first byte
 * outside; under sysgate the address may hold sysgate's own image, bss,
 * heap, stack or decoded code, and must fault the same way, unwritten.
 *
 * Run by store_driver (a host tool): the program sends its own maps view
 * on fd 4, the driver answers on fd 3 with the host mappings of this
 * process the view does not show (sysgate's: none natively), a line
 * "ADDR PREVFREE" each (PREVFREE: the page below ADDR is unmapped on the
 * host, so the program can map it and store across into ADDR), then
 * "end". The program fills the list up to TARGETS with unmapped addresses
 * of its own, so both runs print the same lines. After the stores it
 * says "done" and waits for the driver's "ok" (the driver reads the
 * targets through /proc/PID/mem meanwhile). 64-bit registers: x86_64 and
 * x32 (whose siginfo carries 32 bits of si_addr: compared as such). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define TARGETS 6
#define MAGIC 0x5ca1ab1e5ca1ab1eull

static sigjmp_buf env;
static volatile int got_sig, got_code;
static volatile uint32_t got_addr;

static void on_fault(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	got_sig = sig;
	got_code = si->si_code;
	got_addr = (uint32_t)(uintptr_t)si->si_addr;
	siglongjmp(env, 1);
}

enum kind { K_MOV8, K_MOV1, K_ADD, K_XCHG, K_LOCK_ADD, K_CMPXCHG, K_STOS, K_REP_STOSB,
	    K_REP_MOVSB, K_PUSH, K_CALL, K_MOVDQU, K_MOVQ_XMM, K_FSTP80, K_FXSAVE, K_VMOVDQU256,
	    K_KINDS };
static const char *const kind_name[K_KINDS] = {
	"mov m64", "mov m8", "add m32", "xchg m64", "lock add m64", "lock cmpxchg m64",
	"stosq", "rep stosb", "rep movsb", "push", "call", "movdqu", "movq m64,xmm",
	"fstp m80", "fxsave", "vmovdqu m256",
};
static int have_avx; /* CPUID and XGETBV as the program sees them */

typedef long long v2di __attribute__((vector_size(16)));
static uint64_t src[8] = { MAGIC, MAGIC, MAGIC, MAGIC, MAGIC, MAGIC, MAGIC, MAGIC };

static void do_access(enum kind k, uint64_t a)
{
	uint64_t v = MAGIC, n = 16;
	v2di x = { (long long)MAGIC, (long long)MAGIC };

	switch (k) {
	case K_MOV8: __asm__ volatile("movq %1, (%0)" : : "r"(a), "r"(v) : "memory"); break;
	case K_MOV1: __asm__ volatile("movb %b1, (%0)" : : "r"(a), "q"(v) : "memory"); break;
	case K_ADD: __asm__ volatile("addl %k1, (%0)" : : "r"(a), "r"(v) : "memory", "cc"); break;
	case K_XCHG: __asm__ volatile("xchgq %1, (%0)" : "+r"(a), "+r"(v) : : "memory"); break;
	case K_LOCK_ADD:
		__asm__ volatile("lock addq %1, (%0)" : : "r"(a), "r"(v) : "memory", "cc");
		break;
	case K_CMPXCHG: {
		uint64_t old = 0;
		__asm__ volatile("lock cmpxchgq %2, (%1)"
				 : "+a"(old) : "r"(a), "r"(v) : "memory", "cc");
		break;
	}
	case K_STOS: __asm__ volatile("stosq" : "+D"(a) : "a"(v) : "memory"); break;
	case K_REP_STOSB:
		__asm__ volatile("cld; rep stosb" : "+D"(a), "+c"(n) : "a"(v) : "memory");
		break;
	case K_REP_MOVSB: {
		uint64_t s = (uint64_t)(uintptr_t)src;
		__asm__ volatile("cld; rep movsb" : "+D"(a), "+S"(s), "+c"(n) : : "memory");
		break;
	}
	case K_PUSH:
		/* on the alternate signal stack's handler; rsp back by longjmp */
		__asm__ volatile("movq %%rsp, %%r12; movq %0, %%rsp; pushq %1; movq %%r12, %%rsp"
				 : : "r"(a + 8), "r"(v) : "r12", "memory");
		break;
	case K_CALL:
		__asm__ volatile("movq %%rsp, %%r12; movq %0, %%rsp; call 1f; 1: movq %%r12, %%rsp"
				 : : "r"(a + 8) : "r12", "memory");
		break;
	case K_MOVDQU:
		__asm__ volatile("movdqu %1, (%0)" : : "r"(a), "x"(x) : "memory");
		break;
	case K_MOVQ_XMM:
		__asm__ volatile("movq %1, (%0)" : : "r"(a), "x"(x) : "memory");
		break;
	case K_FSTP80:
		__asm__ volatile("fninit; fldpi; fstpt (%0)" : : "r"(a) : "memory");
		break;
	case K_FXSAVE: __asm__ volatile("fxsave64 (%0)" : : "r"(a) : "memory"); break;
	case K_VMOVDQU256:
		if (have_avx)
			__asm__ volatile("vmovdqu %%ymm0, (%0)" : : "r"(a) : "memory");
		break;
	default: break;
	}
}

static const char *code_name(int sig, int code)
{
	if (sig == 0)
		return "no fault";
	if (sig != SIGSEGV)
		return "another signal";
	return code == SEGV_MAPERR ? "SIGSEGV SEGV_MAPERR"
	       : code == SEGV_ACCERR ? "SIGSEGV SEGV_ACCERR" : "SIGSEGV other code";
}

/* One access; prints what it raised and where, relative to want. */
static void try_access(const char *what, enum kind k, uint64_t a, uint64_t want)
{
	got_sig = got_code = 0;
	got_addr = 0;
	if (sigsetjmp(env, 1) == 0)
		do_access(k, a);
	if (!got_sig)
		printf("%s %s: no fault\n", what, kind_name[k]);
	else if (got_addr == (uint32_t)want ||
		 /* FXSAVE: where in its 512 bytes the hardware reports the
		  * fault is the CPU's choice (this AMD host: the last byte) */
		 (k == K_FXSAVE && got_addr - (uint32_t)want < 512))
		printf("%s %s: %s, si_addr where expected\n", what, kind_name[k],
		       code_name(got_sig, got_code));
	else
		printf("%s %s: %s, si_addr %+d from where expected\n", what, kind_name[k],
		       code_name(got_sig, got_code), (int32_t)(got_addr - (uint32_t)want));
}

static char *read_line(int fd, char *buf, size_t size)
{
	size_t n = 0;

	ssize_t got = 0;

	while (n + 1 < size && (got = read(fd, buf + n, 1)) == 1 && buf[n] != '\n')
		n++;
	buf[n] = 0;
	if (got != 1 && n == 0)
		snprintf(buf, size, "end"); /* the driver is gone */
	return buf;
}

static void send_maps(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];

	while (f && fgets(line, sizeof(line), f))
		if (write(4, line, strlen(line)) < 0)
			exit(2);
	if (f)
		fclose(f);
	if (write(4, "end\n", 4) != 4)
		exit(2);
}

int main(void)
{
	uint64_t target[TARGETS];
	int prev_free[TARGETS];
	unsigned n = 0, foreign;
	char line[128];
	struct sigaction sa;
	static char altstack[65536];
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack) };
	uint8_t *own;

	setvbuf(stdout, NULL, _IONBF, 0);
	have_avx = __builtin_cpu_supports("avx");
	printf("AVX: %s\n", have_avx ? "yes" : "no (vmovdqu m256 stores nothing)");
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_fault;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
	sigaction(SIGSEGV, &sa, NULL);
	sigaltstack(&ss, NULL);
	/* own unmapped pages, every other one of a range given back (before
	 * anything else is mapped, so nothing lands there later) */
	own = mmap(NULL, 2 * TARGETS * 4096 + 8192, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (own == MAP_FAILED)
		return 2;
	send_maps();
	while (strcmp(read_line(3, line, sizeof(line)), "end") != 0) {
		unsigned long long a;
		int pf;

		if (n < TARGETS && sscanf(line, "%llx %d", &a, &pf) == 2) {
			target[n] = a;
			prev_free[n++] = pf;
		}
	}
	foreign = n;
	for (unsigned i = n; i < TARGETS; i++) {
		uint8_t *p = own + 8192 + 2 * i * 4096;

		munmap(p, 4096);
		target[i] = (uint64_t)(uintptr_t)p;
		prev_free[i] = 1; /* the page below is ours: stays mapped */
	}
	for (unsigned t = 0; t < TARGETS; t++) {
		char what[32];

		snprintf(what, sizeof(what), "target %u", t);
		for (unsigned k = 0; k < K_KINDS; k++)
			try_access(what, (enum kind)k, target[t], target[t]);
	}
	/* The guest's own read-only and PROT_NONE pages stay SEGV_ACCERR
	 * (the map marks the first, not the second: both reach the host) */
	{
		uint8_t *ro = mmap(NULL, 2 * 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (ro == MAP_FAILED || mprotect(ro + 4096, 4096, PROT_NONE))
			return 2;
		for (unsigned k = 0; k < K_KINDS; k++)
			try_access("read-only page", (enum kind)k, (uint64_t)(uintptr_t)ro,
				   (uint64_t)(uintptr_t)ro);
		for (unsigned k = 0; k < K_KINDS; k++)
			try_access("PROT_NONE page", (enum kind)k, (uint64_t)(uintptr_t)ro + 4096,
				   (uint64_t)(uintptr_t)ro + 4096);
		munmap(ro, 2 * 4096);
	}
	/* A store across a page boundary into such memory: nothing of it
	 * lands on the guest's page either. Into a foreign target whose
	 * page below the program can map, else into the page above own's
	 * first (x32 cannot map next to memory above 4 GiB). */
	{
		uint8_t *below = NULL;
		uint64_t into = 0;

		for (unsigned t = 0; t < foreign && !below; t++) {
			void *want = (void *)(uintptr_t)(target[t] - 4096);

			if (!prev_free[t] || (uint64_t)(uintptr_t)want != target[t] - 4096)
				continue;
			below = mmap(want, 4096, PROT_READ | PROT_WRITE,
				     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
			if (below != want) {
				if (below != MAP_FAILED)
					munmap(below, 4096);
				below = NULL;
				continue;
			}
			into = target[t];
		}
		if (!below) {
			below = own;
			into = (uint64_t)(uintptr_t)own + 4096;
			munmap(own + 4096, 4096);
		}
		memset(below + 4080, 0x11, 16);
		try_access("across a page boundary into one:", K_MOV8, into - 4, into);
		printf("  the guest's part: %s\n",
		       below[4092] == 0x11 && below[4095] == 0x11 ? "unchanged" : "written");
	}
	if (write(4, "done\n", 5) != 5)
		return 2;
	read_line(3, line, sizeof(line));
	printf("driver: %s\n", line);
	return 0;
}
