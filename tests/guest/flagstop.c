/* Asynchronous signals landing in straight-line arithmetic: the EFLAGS a
 * handler finds in its context must be the ones the instruction at the
 * saved rip would see. The loop "add; mov x6; cmp; cld; jmp" lets sysgate
 * drop the ADD's flags (the CMP overwrites them first, docs/cpu.md
 * "Flags"); a stop between them must not show stale flags (the MOVs run
 * as a triple headed by the ADD and one inside the stretch, pairs.c: the
 * run-on steps over a triple as over a pair), and the
 * run-on to the CMP that such a stop makes reaches the CLD, a table
 * handler, which ends it (a NULL next instruction). Natively the property
 * always holds: the output (counts of signals and of inconsistent
 * contexts) is the same in both runs. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <ucontext.h>

#define SIGNALS 1500
#define ARITH 0x8d5u /* CF PF AF ZF SF OF */

void spin(void);
extern char spin_add[], spin_mov[], spin_cmp[], spin_cld[], spin_jmp[], spin_exit[];

#ifdef __i386__
#define PUSH_BX "push %ebx\n"
#define POP_BX "pop %ebx\n"
#else
#define PUSH_BX "push %rbx\n"
#define POP_BX "pop %rbx\n"
#endif

__asm__(".text\n"
	".globl spin, spin_add, spin_mov, spin_cmp, spin_cld, spin_jmp, spin_exit\n"
	"spin:\n" PUSH_BX
	"mov $0x7ffffff3, %ebx\n"
	"mov $0x40000000, %edx\n"
	"xor %eax, %eax\n"
	"spin_add: add %ebx, %eax\n"
	"spin_mov: mov %eax, %ecx\n"
	"mov %ecx, %ecx\n"
	"mov %ecx, %ecx\n"
	"mov %ecx, %ecx\n"
	"mov %ecx, %ecx\n"
	"mov %ecx, %ecx\n"
	"spin_cmp: cmp %edx, %eax\n"
	"spin_cld: cld\n"
	"spin_jmp: jmp spin_add\n"
	"spin_exit:\n" POP_BX "ret\n");

/* The arithmetic flags of a 32-bit a + b or a - b. */
static unsigned flags_of(uint32_t a, uint32_t b, int sub)
{
	uint32_t r = sub ? a - b : a + b;
	unsigned f = 0;

	if (sub ? a < b : r < a)
		f |= 0x1;
	if (!__builtin_parity(r & 0xff))
		f |= 0x4;
	if ((a ^ b ^ r) & 0x10)
		f |= 0x10;
	if (r == 0)
		f |= 0x40;
	if (r & 0x80000000u)
		f |= 0x80;
	if (sub ? ((a ^ b) & (a ^ r)) >> 31 : (~(a ^ b) & (a ^ r)) >> 31)
		f |= 0x800;
	return f;
}

static volatile unsigned long signals, inconsistent, in_loop;

static void on_alarm(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
#ifdef __i386__
	greg_t *pc = &uc->uc_mcontext.gregs[REG_EIP];
	uint32_t eax = (uint32_t)uc->uc_mcontext.gregs[REG_EAX];
	uint32_t ebx = (uint32_t)uc->uc_mcontext.gregs[REG_EBX];
	uint32_t edx = (uint32_t)uc->uc_mcontext.gregs[REG_EDX];
	unsigned fl = (unsigned)uc->uc_mcontext.gregs[REG_EFL] & ARITH;
#else
	greg_t *pc = &uc->uc_mcontext.gregs[REG_RIP];
	uint32_t eax = (uint32_t)uc->uc_mcontext.gregs[REG_RAX];
	uint32_t ebx = (uint32_t)uc->uc_mcontext.gregs[REG_RBX];
	uint32_t edx = (uint32_t)uc->uc_mcontext.gregs[REG_RDX];
	unsigned fl = (unsigned)uc->uc_mcontext.gregs[REG_EFL] & ARITH;
#endif
	uintptr_t rip = (uintptr_t)*pc;
	unsigned want;

	(void)sig, (void)si;
	if (rip >= (uintptr_t)spin_mov && rip <= (uintptr_t)spin_cmp)
		want = flags_of(eax - ebx, ebx, 0); /* after the ADD */
	else if (rip == (uintptr_t)spin_cld || rip == (uintptr_t)spin_jmp ||
		 rip == (uintptr_t)spin_add)
		want = flags_of(eax, edx, 1); /* after the CMP */
	else
		return; /* not in the loop yet (or the first ADD not run) */
	in_loop++;
	if (rip == (uintptr_t)spin_add && eax == 0)
		return; /* before the first ADD: no flags to check */
	if (fl != want)
		inconsistent++;
	if (++signals == SIGNALS)
		*pc = (greg_t)(uintptr_t)spin_exit;
}

int main(void)
{
	struct sigaction sa;
	struct itimerval it = { { 0, 300 }, { 0, 300 } };

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_alarm;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
	spin();
	it.it_value.tv_usec = it.it_interval.tv_usec = 0;
	setitimer(ITIMER_REAL, &it, NULL);
	printf("%d signals in the loop, %lu with flags other than the instruction at rip sees\n",
	       SIGNALS, inconsistent);
	return inconsistent != 0;
}
