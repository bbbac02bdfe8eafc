/* Alignment check: with EFLAGS.AC set (POPF; Linux sets CR0.AM), a
 * misaligned access raises #AC, delivered as SIGBUS / BUS_ADRALN with
 * si_addr NULL, and the handler starts with AC still set. AC is set and
 * cleared inside each asm block: libc itself may access memory misaligned.
 * Compared with the program run natively. */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#ifdef __i386__
#define SP "%%esp"
typedef unsigned long flags_t;
#else
#define SP "%%rsp"
typedef unsigned long long flags_t; /* x32 too: PUSHF/POP are 64-bit */
#endif
#define SET_AC "pushf\n\torl $0x40000, (" SP ")\n\tpopf\n\t"
#define CLEAR_AC "pushf\n\tandl $~0x40000, (" SP ")\n\tpopf\n\t"

static sigjmp_buf jb;
static volatile int got_sig, got_code, got_addr_null, got_ac;
static char buf[32] __attribute__((aligned(16)));

static void on_bus(int sig, siginfo_t *si, void *ctx)
{
	flags_t fl;

	(void)ctx;
	__asm__ volatile("pushf\n\tpop %0\n\t" CLEAR_AC : "=r"(fl) : : "memory", "cc");
	got_ac = (fl & 0x40000) != 0;
	got_sig = sig;
	got_code = si->si_code;
	got_addr_null = si->si_addr == NULL;
	siglongjmp(jb, 1);
}

static void report(const char *what)
{
	if (got_sig)
		printf("%s: signal %d code %d (BUS_ADRALN %d) addr_null %d ac_in_handler %d\n",
		       what, got_sig, got_code, BUS_ADRALN, got_addr_null, got_ac);
	else
		printf("%s: no fault\n", what);
	got_sig = got_code = got_addr_null = got_ac = 0;
}

static void load32(const char *p, int ac)
{
	unsigned v;

	if (sigsetjmp(jb, 1) == 0) {
		if (ac)
			__asm__ volatile(SET_AC "movl (%1), %0\n\t" CLEAR_AC
					 : "=r"(v) : "r"(p) : "memory", "cc");
		else
			__asm__ volatile("movl (%1), %0" : "=r"(v) : "r"(p) : "memory");
	}
}

static void store16(char *p)
{
	if (sigsetjmp(jb, 1) == 0)
		__asm__ volatile(SET_AC "movw $0x1234, (%0)\n\t" CLEAR_AC
				 : : "r"(p) : "memory", "cc");
}

static void flags_after(void)
{
	flags_t fl;

	__asm__ volatile(SET_AC "pushf\n\tpop %0\n\t" CLEAR_AC : "=r"(fl) : : "memory", "cc");
	printf("pushf shows AC: %d\n", (fl & 0x40000) != 0);
	__asm__ volatile("pushf\n\tpop %0" : "=r"(fl) : : "memory");
	printf("AC after clear: %d\n", (fl & 0x40000) != 0);
}

int main(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_bus;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGSEGV, &sa, NULL);

	flags_after();
	load32(buf + 1, 1);
	report("dword load at +1, AC set");
	load32(buf + 4, 1);
	report("dword load at +4, AC set");
	load32(buf + 1, 0);
	report("dword load at +1, AC clear");
	store16(buf + 3);
	report("word store at +3, AC set");
	store16(buf + 2);
	report("word store at +2, AC set");
	return 0;
}
