/* rt_sigreturn's CS and SS as the kernel honours them. For a 64-bit
 * process (x86_64, x32): CS 0x23 in the sigcontext returns to 32-bit
 * mode (there an int3 traps; the frame says CS 0x23, ESP only, no
 * UC_STRICT_RESTORE_SS), CS 0x33 back to 64-bit mode; an SS that cannot
 * be loaded gives SIGSEGV, unless UC_STRICT_RESTORE_SS was cleared, when
 * the kernel puts the user data segment instead; a CS that is no code
 * segment gives SIGSEGV. For an i386 process: the data segment registers
 * the frame changes are reloaded, null ones read back 0; CS 0x33 runs
 * 64-bit code; a bad SS or CS gives SIGSEGV, its frame showing them. Needs
 * the kernel's 32-bit code segment (IA32 emulation): the cases probe for
 * it. Output is the same for x32 and its -m64 twin. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

#ifdef __x86_64__
#ifndef UC_SIGCONTEXT_SS
#define UC_SIGCONTEXT_SS 0x2
#define UC_STRICT_RESTORE_SS 0x4
#endif

struct selectors {
	unsigned short cs, gs, fs, ss;
};

/* 32-bit code: SS into ECX, then trap */
__asm__(".pushsection .text\n"
	".code32\n"
	"code32: mov %ss, %ecx\n"
	"int3\n"
	".code64\n"
	".popsection");
extern char code32[];

static gregset_t initial;
static volatile unsigned short want_cs, want_ss;
static volatile int clear_strict, got_segv;

static struct selectors *sels(ucontext_t *uc)
{
	return (struct selectors *)&uc->uc_mcontext.gregs[REG_CSGSFS];
}

static void show(const char *who, ucontext_t *uc)
{
	printf("%s: cs %#x ss %#x uc_flags SIGCONTEXT_SS %d STRICT_RESTORE_SS %d\n", who,
	       sels(uc)->cs, sels(uc)->ss, !!(uc->uc_flags & UC_SIGCONTEXT_SS),
	       !!(uc->uc_flags & UC_STRICT_RESTORE_SS));
}

static void on_usr1(int sig, siginfo_t *info, void *uc_void)
{
	ucontext_t *uc = uc_void;

	(void)sig; (void)info;
	show("SIGUSR1", uc);
	memcpy(initial, uc->uc_mcontext.gregs, sizeof(gregset_t));
	sels(uc)->cs = want_cs;
	sels(uc)->ss = want_ss;
	if (want_cs == 0x23) {
		uc->uc_mcontext.gregs[REG_RIP] = (unsigned long)code32;
		uc->uc_mcontext.gregs[REG_RSP] = (long long)0x8badf00d5aadc0deULL;
		uc->uc_mcontext.gregs[REG_RCX] = 0;
	}
	if (clear_strict)
		uc->uc_flags &= ~UC_STRICT_RESTORE_SS;
}

/* SIGTRAP from the 32-bit code, SIGSEGV from a bad return: report, then
 * back to where SIGUSR1 came from (64-bit mode). */
static void on_back(int sig, siginfo_t *info, void *uc_void)
{
	ucontext_t *uc = uc_void;

	(void)info;
	show(sig == SIGTRAP ? "SIGTRAP" : "SIGSEGV", uc);
	if (sig == SIGTRAP)
		printf("SIGTRAP: rsp %#llx, SS read in 32-bit mode %#llx\n",
		       (unsigned long long)uc->uc_mcontext.gregs[REG_RSP],
		       (unsigned long long)uc->uc_mcontext.gregs[REG_RCX]);
	else
		got_segv = 1;
	memcpy(uc->uc_mcontext.gregs, initial, sizeof(gregset_t));
}

static void attempt(const char *what, unsigned short cs, unsigned short ss, int nonstrict)
{
	unsigned short now;

	want_cs = cs;
	want_ss = ss;
	clear_strict = nonstrict;
	got_segv = 0;
	printf("-- %s: cs %#x ss %#x%s\n", what, cs, ss, nonstrict ? ", strict flag cleared" : "");
	fflush(stdout);
	raise(SIGUSR1);
	__asm__ volatile("mov %%ss, %0" : "=r"(now));
	printf("back: SIGSEGV %d, ss now %#x\n", got_segv, now);
	fflush(stdout);
}

static int run(void)
{
	struct sigaction sa;
	stack_t st;

	memset(&st, 0, sizeof(st));
	st.ss_size = 65536;
	st.ss_sp = malloc(st.ss_size);
	sigaltstack(&st, NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_flags = SA_SIGINFO;
	sa.sa_sigaction = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sa.sa_sigaction = on_back;
	sigaction(SIGTRAP, &sa, NULL);
	sigaction(SIGSEGV, &sa, NULL);

	attempt("to 32-bit mode", 0x23, 0x2b, 0);
	attempt("64-bit, null SS", 0x33, 0, 0);
	attempt("64-bit, SS a code segment", 0x33, 0x33, 0);
	attempt("64-bit, null SS", 0x33, 0, 1);
	attempt("to 32-bit mode, null SS", 0x23, 0, 1);
	attempt("data segment as CS", 0x2b, 0x2b, 0);
	return 0;
}
#endif

#ifdef __i386__
/* what the registers are where the sigreturn lands: DS, ES, SS, CS into
 * EAX, EDX, ECX, EBX, then trap; the same bytes in 32- and 64-bit mode */
__asm__(".pushsection .text\n"
	"landing: mov %ds, %eax\n"
	"mov %es, %edx\n"
	"mov %ss, %ecx\n"
	"mov %cs, %ebx\n"
	"int3\n"
	".popsection");
extern char landing[];

static gregset_t initial;
static volatile unsigned want_cs, want_ss, want_ds;
static volatile int got_segv;

static void on_usr1(int sig, siginfo_t *info, void *uc_void)
{
	ucontext_t *uc = uc_void;

	(void)sig; (void)info;
	printf("SIGUSR1: cs %#x ss %#x\n", (unsigned)uc->uc_mcontext.gregs[REG_CS],
	       (unsigned)uc->uc_mcontext.gregs[REG_SS]);
	memcpy(initial, uc->uc_mcontext.gregs, sizeof(gregset_t));
	uc->uc_mcontext.gregs[REG_CS] = want_cs;
	uc->uc_mcontext.gregs[REG_SS] = want_ss;
	uc->uc_mcontext.gregs[REG_DS] = want_ds;
	uc->uc_mcontext.gregs[REG_ES] = want_ds;
	uc->uc_mcontext.gregs[REG_EIP] = (unsigned long)landing;
}

static void on_back(int sig, siginfo_t *info, void *uc_void)
{
	ucontext_t *uc = uc_void;
	greg_t *g = uc->uc_mcontext.gregs;

	(void)info;
	if (sig == SIGTRAP)
		printf("SIGTRAP: cs %#x ss %#x; read there: ds %#x es %#x ss %#x cs %#x\n",
		       (unsigned)g[REG_CS], (unsigned)g[REG_SS], (unsigned)g[REG_EAX],
		       (unsigned)g[REG_EDX], (unsigned)g[REG_ECX], (unsigned)g[REG_EBX]);
	else {
		printf("SIGSEGV: cs %#x ss %#x\n", (unsigned)g[REG_CS], (unsigned)g[REG_SS]);
		got_segv = 1;
	}
	memcpy(g, initial, sizeof(gregset_t));
}

static void attempt(const char *what, unsigned cs, unsigned ss, unsigned ds)
{
	want_cs = cs;
	want_ss = ss;
	want_ds = ds;
	got_segv = 0;
	printf("-- %s: cs %#x ss %#x ds/es %#x\n", what, cs, ss, ds);
	fflush(stdout);
	raise(SIGUSR1);
	printf("back: SIGSEGV %d\n", got_segv);
	fflush(stdout);
}

static int run(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_flags = SA_SIGINFO;
	sa.sa_sigaction = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	sa.sa_sigaction = on_back;
	sigaction(SIGTRAP, &sa, NULL);
	sigaction(SIGSEGV, &sa, NULL);

	attempt("null DS and ES", 0x23, 0x2b, 0);
	attempt("DS and ES an unloadable selector", 0x23, 0x2b, 0x33);
	attempt("64-bit CS", 0x33, 0x2b, 0x2b);
	attempt("SS a code segment", 0x23, 0x23, 0x2b);
	attempt("null SS", 0x23, 0, 0x2b);
	attempt("data segment as CS", 0x2b, 0x2b, 0x2b);
	return 0;
}
#endif

int main(void)
{
	return run();
}
