/* The trap flag (EFLAGS.TF) set by POPF and by a signal frame's flags:
 * a SIGTRAP (TRAP_TRACE, si_addr the next instruction) after each
 * instruction that starts with TF set, the handler runs with TF clear and
 * sigreturn brings it back; a system call in the stepped stretch runs and
 * is not itself stepped; the POPF that clears TF still traps. Prints each
 * trap as the label it stopped at (the instruction boundaries of the
 * stretch), so the output is the same for every load address and for x32
 * and its -m64 twin, and compared with the native run. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#ifdef __x86_64__
#define REG_PC REG_RIP
#define PUSHF "pushfq\n\t"
#define POPF "popfq\n\t"
#define SP "%%rsp"
#define CLOBBERS "rcx", "r11", "memory", "cc"
typedef unsigned long long reg_t; /* x32 too: PUSHFQ */
#else
typedef unsigned long reg_t;
#define CLOBBERS "memory", "cc"
#define REG_PC REG_EIP
#define PUSHF "pushfl\n\t"
#define POPF "popfl\n\t"
#define SP "%%esp"
#endif

#define TF 0x100ul
#define MAX_TRAPS 64

extern char at0[], at1[], at2[], at3[], at4[], at5[], at6[], at7[];
static char *const labels[] = { at0, at1, at2, at3, at4, at5, at6, at7 };
static volatile unsigned long trap_at[MAX_TRAPS];
static volatile int trap_code[MAX_TRAPS], trap_tf_in_handler[MAX_TRAPS];
static volatile unsigned ntraps;
static volatile unsigned long frame_tf;

static void on_trap(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	reg_t flags;

	(void)sig;
	__asm__ volatile(PUSHF "pop %0" : "=r"(flags));
	if (ntraps < MAX_TRAPS) {
		trap_at[ntraps] = (unsigned long)si->si_addr;
		trap_code[ntraps] = si->si_code;
		trap_tf_in_handler[ntraps] = (flags & TF) != 0;
		ntraps++;
	}
	frame_tf |= (unsigned long)uc->uc_mcontext.gregs[REG_EFL] & TF;
	/* the frame's pc is where the trap left off: si_addr */
	if ((unsigned long)uc->uc_mcontext.gregs[REG_PC] != (unsigned long)si->si_addr)
		trap_code[ntraps - 1] = -1;
}

int main(void)
{
	struct sigaction sa;
	long pid = 0;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_trap;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGTRAP, &sa, NULL);

	/* TF on; nop; mov; getpid through SYSCALL / INT 0x80; add; TF off */
	__asm__ volatile(PUSHF
			 "orl $0x100, (" SP ")\n\t"
			 POPF
			 "at0: nop\n\t"
			 "at1: mov %1, %0\n\t"
#ifdef __x86_64__
			 "at2: syscall\n\t"
#else
			 "at2: int $0x80\n\t"
#endif
			 "at3: add $1, %0\n\t"
			 "at4: " PUSHF
			 "at5: andl $~0x100, (" SP ")\n\t"
			 "at6: " POPF
			 "at7:\n\t"
			 : "=a"(pid)
			 : "i"(SYS_getpid)
			 : CLOBBERS);
	printf("getpid + 1 matches: %d\n", pid == getpid() + 1);
	printf("traps: %u, TF in the frames: %d\n", ntraps, frame_tf == TF);
	for (unsigned k = 0; k < ntraps && k < MAX_TRAPS; k++) {
		int at = -1;

		for (unsigned l = 0; l < sizeof(labels) / sizeof(labels[0]); l++)
			if (trap_at[k] == (unsigned long)labels[l])
				at = (int)l;
		printf("trap %u: at%d code %d tf-in-handler %d\n", k, at, trap_code[k],
		       trap_tf_in_handler[k]);
	}
	return 0;
}
