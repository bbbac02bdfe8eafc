/* A signal lands inside a long REP string instruction, as on hardware
 * (interrupts are taken between iterations): the handler sees rip at the
 * instruction and rCX part-way, and the instruction then finishes from
 * there with the right result. Under sysgate a REP used to run to its end
 * before any signal (fuzz_cpu: a `repne lodsd` with ECX near 2^32 kept a
 * signal out for 15 s). The output is yes/no lines only, the same natively:
 * REPNE SCASB over 16 MiB takes milliseconds natively, against a 1 ms
 * timer. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <ucontext.h>

#define LEN (16u << 20)

extern const char rep_scas_insn[], rep_movs_insn[];
static volatile unsigned mid_scas, mid_movs, signals;

static void on_alarm(int sig, siginfo_t *si, void *ctx)
{
	const ucontext_t *uc = ctx;
#ifdef __x86_64__
	uintptr_t ip = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
	uint64_t cx = (uint64_t)uc->uc_mcontext.gregs[REG_RCX];
#else
	uintptr_t ip = (uintptr_t)uc->uc_mcontext.gregs[REG_EIP];
	uint64_t cx = (uint32_t)uc->uc_mcontext.gregs[REG_ECX];
#endif
	(void)sig, (void)si;
	signals++;
	if (cx > 0 && cx < LEN) {
		mid_scas += ip == (uintptr_t)rep_scas_insn;
		mid_movs += ip == (uintptr_t)rep_movs_insn;
	}
}

/* the address of the zero byte's successor, and rCX after */
static __attribute__((noinline)) const char *scan(const char *p, unsigned long *left)
{
	unsigned long n = LEN;

	__asm__ volatile(".globl rep_scas_insn\n"
			 "rep_scas_insn: repne scasb"
			 : "+D"(p), "+c"(n)
			 : "a"(0), "m"(*(const char(*)[LEN])p)
			 : "cc");
	*left = n;
	return p;
}

static __attribute__((noinline)) void copy(char *dst, const char *src)
{
	unsigned long n = LEN;

	__asm__ volatile(".globl rep_movs_insn\n"
			 "rep_movs_insn: rep movsb"
			 : "+D"(dst), "+S"(src), "+c"(n), "=m"(*(char(*)[LEN])dst)
			 : "m"(*(const char(*)[LEN])src));
}

int main(void)
{
	struct sigaction sa;
	struct itimerval tick = { { 0, 1000 }, { 0, 1000 } }, off = { { 0, 0 }, { 0, 0 } };
	char *buf = malloc(LEN), *dst = malloc(LEN);
	unsigned long left = 0;
	const char *end = NULL;
	int rounds, ok = 1, same = 1;

	if (!buf || !dst)
		return 1;
	for (unsigned k = 0; k < LEN; k++)
		buf[k] = (char)(k % 251 + 1);
	buf[LEN - 1] = 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_alarm;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &tick, NULL);
	/* until a signal landed mid-way in each, at most 20 times */
	for (rounds = 0; rounds < 20 && (!mid_scas || !mid_movs); rounds++) {
		end = scan(buf, &left);
		ok &= end == buf + LEN && left == 0;
		memset(dst, 0, LEN);
		copy(dst, buf);
		same &= memcmp(dst, buf, LEN) == 0;
	}
	setitimer(ITIMER_REAL, &off, NULL);
	printf("repne scasb found the zero at the end every time: %s\n", ok ? "yes" : "no");
	printf("rep movsb copied intact every time: %s\n", same ? "yes" : "no");
	printf("a signal landed inside repne scasb: %s\n", mid_scas ? "yes" : "no");
	printf("a signal landed inside rep movsb: %s\n", mid_movs ? "yes" : "no");
	printf("signals: %s\n", signals ? "some" : "none");
	return 0;
}
