/* Signals as the kernel delivers them: handlers and siginfo, masks,
 * SA_* flags, the alternate stack, faults, registers changed through the
 * ucontext, FP state around handlers, EINTR and SA_RESTART, sigsuspend,
 * sigtimedwait, signalfd. Output is compared with a native run. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <fenv.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#ifndef SS_AUTODISARM
#define SS_AUTODISARM (1U << 31) /* linux/signal.h; older glibc lacks it */
#endif

static volatile sig_atomic_t hits, last_sig, depth, max_depth;
static volatile int last_code, last_pid_ok, last_val;
static volatile uintptr_t last_addr;
static sigjmp_buf jb;

static void on_info(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	hits++;
	last_sig = sig;
	last_code = si->si_code;
	last_pid_ok = si->si_pid == getpid();
	last_val = si->si_value.sival_int;
	last_addr = (uintptr_t)si->si_addr;
}

static void on_plain(int sig)
{
	hits++;
	last_sig = sig;
}

static void set(int sig, void (*fn)(int, siginfo_t *, void *), int flags)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = fn;
	sa.sa_flags = flags | SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

static void set_plain(int sig, void (*fn)(int), int flags)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sa.sa_flags = flags;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

static int blocked(int sig)
{
	sigset_t cur;

	sigprocmask(SIG_BLOCK, NULL, &cur);
	return sigismember(&cur, sig);
}

static void test_basic(void)
{
	union sigval v = { .sival_int = 1234 };

	set(SIGUSR1, on_info, 0);
	hits = 0;
	kill(getpid(), SIGUSR1);
	printf("kill: hits=%d sig=%d code=%d pid_ok=%d\n", hits, last_sig, last_code, last_pid_ok);
	sigqueue(getpid(), SIGUSR1, v);
	printf("sigqueue: hits=%d code=%d val=%d\n", hits, last_code, last_val);
	syscall(SYS_tgkill, getpid(), syscall(SYS_gettid), SIGUSR1);
	printf("tgkill: hits=%d code=%d\n", hits, last_code);
	set_plain(SIGUSR2, on_plain, 0);
	raise(SIGUSR2);
	printf("plain handler: hits=%d sig=%d\n", hits, last_sig);
}

static void test_mask(void)
{
	sigset_t s, pend;

	set_plain(SIGUSR2, on_plain, 0);
	hits = 0;
	sigemptyset(&s);
	sigaddset(&s, SIGUSR2);
	sigprocmask(SIG_BLOCK, &s, NULL);
	raise(SIGUSR2);
	sigpending(&pend);
	printf("blocked: hits=%d pending=%d\n", hits, sigismember(&pend, SIGUSR2));
	sigprocmask(SIG_UNBLOCK, &s, NULL);
	printf("unblocked: hits=%d\n", hits);
}

static volatile int raises;

static void nest_handler(int sig)
{
	depth++;
	if (depth > max_depth)
		max_depth = depth;
	if (raises < 2) {
		raises++;
		raise(sig);
	}
	depth--;
}

static void test_flags(void)
{
	struct sigaction cur;

	set_plain(SIGUSR1, nest_handler, SA_NODEFER);
	depth = max_depth = raises = 0;
	raise(SIGUSR1);
	printf("nodefer: max depth=%d\n", max_depth);
	set_plain(SIGUSR1, nest_handler, 0);
	depth = max_depth = raises = 0;
	raise(SIGUSR1);
	printf("defer: max depth=%d\n", max_depth);
	set_plain(SIGUSR1, on_plain, SA_RESETHAND);
	raise(SIGUSR1);
	sigaction(SIGUSR1, NULL, &cur);
	printf("resethand: now default=%d\n", cur.sa_handler == SIG_DFL);
	signal(SIGUSR1, SIG_IGN);
	hits = 0;
	raise(SIGUSR1);
	printf("ignored: hits=%d\n", hits);
}

static char altstack[65536];
static volatile int on_alt, alt_flags;

static void alt_handler(int sig)
{
	char here;
	stack_t cur;

	(void)sig;
	on_alt = &here >= altstack && &here < altstack + sizeof(altstack);
	sigaltstack(NULL, &cur);
	alt_flags = cur.ss_flags;
}

static void test_altstack(void)
{
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack) }, old;

	sigaltstack(&ss, NULL);
	set_plain(SIGUSR2, alt_handler, SA_ONSTACK);
	raise(SIGUSR2);
	printf("altstack: on=%d flags=%d\n", on_alt, alt_flags);
	set_plain(SIGUSR2, alt_handler, 0);
	raise(SIGUSR2);
	printf("no SA_ONSTACK: on=%d flags=%d\n", on_alt, alt_flags);
	ss.ss_flags = SS_DISABLE;
	sigaltstack(&ss, &old);
	printf("old: size_ok=%d flags=%d\n", old.ss_size == sizeof(altstack), old.ss_flags);
}

static void test_autodisarm(void)
{
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack),
		       .ss_flags = SS_AUTODISARM }, cur;

	if (sigaltstack(&ss, NULL)) {
		printf("autodisarm: %s\n", strerrorname_np(errno));
		return;
	}
	set_plain(SIGUSR2, alt_handler, SA_ONSTACK);
	raise(SIGUSR2);
	sigaltstack(NULL, &cur);
	/* An rt frame's sigreturn re-arms the stack from uc_stack; glibc's
	 * i386 plain handler gets the old sigframe, whose sigreturn has no
	 * stack_t to restore, so it stays disarmed. Printed as "as the frame
	 * says" so that i386 and its x86_64 twin print the same line. */
#ifdef __i386__
	unsigned want_after = SS_DISABLE;
#else
	unsigned want_after = SS_AUTODISARM;
#endif
	printf("autodisarm: on=%d flags in handler=%#x after as the frame says=%d\n",
	       on_alt, (unsigned)alt_flags, (unsigned)cur.ss_flags == want_after);
	ss.ss_flags = SS_DISABLE;
	sigaltstack(&ss, NULL);
}

static void fault_handler(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	last_sig = sig;
	last_code = si->si_code;
	last_addr = (uintptr_t)si->si_addr;
	siglongjmp(jb, 1);
}

static volatile int zero;

static void test_faults(void)
{
	char *volatile page = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *gone = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	volatile int r = 0;

	munmap(gone, 4096);
	set(SIGSEGV, fault_handler, 0);
	set(SIGFPE, fault_handler, 0);
	set(SIGILL, fault_handler, 0);
	if (!sigsetjmp(jb, 1))
		page[8] = 1;
	printf("write to read-only: sig=%d code=%d addr_ok=%d\n", last_sig, last_code,
	       last_addr == (uintptr_t)page + 8);
	if (!sigsetjmp(jb, 1))
		r = gone[16];
	printf("read unmapped: sig=%d code=%d addr_ok=%d\n", last_sig, last_code,
	       last_addr == (uintptr_t)gone + 16);
	/* a mapping without access is there: SEGV_ACCERR, not MAPERR */
	mprotect(page, 4096, PROT_NONE);
	last_sig = last_code = 0;
	if (!sigsetjmp(jb, 1))
		r = page[24];
	printf("read PROT_NONE: sig=%d code=%d addr_ok=%d\n", last_sig, last_code,
	       last_addr == (uintptr_t)page + 24);
	last_sig = last_code = 0;
	if (!sigsetjmp(jb, 1))
		page[32] = 2;
	printf("write PROT_NONE: sig=%d code=%d addr_ok=%d\n", last_sig, last_code,
	       last_addr == (uintptr_t)page + 32);
	munmap(page, 4096);
	page = mmap(NULL, 8192, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	last_sig = last_code = 0;
	if (!sigsetjmp(jb, 1))
		r = page[4096 + 40];
	printf("read mmap'd PROT_NONE: sig=%d code=%d addr_ok=%d\n", last_sig, last_code,
	       last_addr == (uintptr_t)page + 4096 + 40);
	munmap(page, 8192);
	if (!sigsetjmp(jb, 1))
		r = 7 / zero;
	printf("divide: sig=%d code=%d\n", last_sig, last_code);
	if (!sigsetjmp(jb, 1))
		__asm__ volatile("ud2");
	printf("ud2: sig=%d code=%d\n", last_sig, last_code);
	printf("mask after siglongjmp: segv blocked=%d\n", blocked(SIGSEGV));
	(void)r;
}

/* Fault signals sent by a process or thread (kill, tgkill, sigqueue) are
 * ordinary signals: SI_USER/SI_TKILL/SI_QUEUE with the sender's pid, the
 * handler returns to where the signal found the program, a blocked one
 * waits, an ignored one is dropped. */
static volatile pid_t last_sender;
static volatile int sent_hits;

static void on_sent(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	sent_hits++;
	last_sig = sig;
	last_code = si->si_code;
	last_sender = si->si_pid;
	last_val = si->si_value.sival_int;
}

static pthread_t main_thread;
static volatile int sender_go;

static void *send_to_main(void *arg)
{
	while (!sender_go)
		usleep(100);
	pthread_kill(main_thread, (int)(long)arg);
	return NULL;
}

static void test_sent_faults(void)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE };
	union sigval v = { .sival_int = 77 };
	sigset_t s, pend;
	pthread_t th;
	pid_t child;
	int st;

	for (unsigned i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		int sig = sigs[i];

		set(sig, on_sent, 0);
		sent_hits = 0;
		kill(getpid(), sig);
		printf("kill(%d): hits=%d sig=%d code=%d pid_ok=%d\n", sig, sent_hits,
		       last_sig, last_code, last_sender == getpid());
		syscall(SYS_tgkill, getpid(), (pid_t)syscall(SYS_gettid), sig);
		printf("tgkill(%d): hits=%d code=%d pid_ok=%d\n", sig, sent_hits, last_code,
		       last_sender == getpid());
		sigqueue(getpid(), sig, v);
		printf("sigqueue(%d): hits=%d code=%d val=%d\n", sig, sent_hits, last_code,
		       last_val);

		/* from another thread, to a main thread that sleeps, then spins */
		main_thread = pthread_self();
		sender_go = 0;
		pthread_create(&th, NULL, send_to_main, (void *)(long)sig);
		sender_go = 1;
		while (sent_hits < 4)
			usleep(100);
		pthread_join(th, NULL);
		sender_go = 0;
		pthread_create(&th, NULL, send_to_main, (void *)(long)sig);
		sender_go = 1;
		while (sent_hits < 5)
			;
		pthread_join(th, NULL);
		printf("from a thread(%d): hits=%d code=%d pid_ok=%d\n", sig, sent_hits,
		       last_code, last_sender == getpid());

		/* from another process */
		fflush(stdout);
		child = fork();
		if (child == 0) {
			kill(getppid(), sig);
			_exit(0);
		}
		while (sent_hits < 6)
			usleep(100);
		waitpid(child, &st, 0);
		printf("from a child(%d): hits=%d code=%d pid_ok=%d\n", sig, sent_hits,
		       last_code, last_sender == child);

		/* blocked: pending until unblocked */
		sigemptyset(&s);
		sigaddset(&s, sig);
		sigprocmask(SIG_BLOCK, &s, NULL);
		kill(getpid(), sig);
		sigpending(&pend);
		printf("blocked(%d): hits=%d pending=%d\n", sig, sent_hits,
		       sigismember(&pend, sig));
		sigprocmask(SIG_UNBLOCK, &s, NULL);
		printf("unblocked(%d): hits=%d code=%d\n", sig, sent_hits, last_code);

		signal(sig, SIG_IGN);
		kill(getpid(), sig);
		printf("ignored(%d): hits=%d\n", sig, sent_hits);
		signal(sig, SIG_DFL);
	}
}

/* int3 is a trap: the handler changes eax/rax through the ucontext and
 * sigreturn must put the changed value in place. */
static void trap_handler(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;

	last_sig = sig;
	last_code = si->si_code;
#ifdef __x86_64__
	uc->uc_mcontext.gregs[REG_RAX] = 42;
#else
	uc->uc_mcontext.gregs[REG_EAX] = 42;
#endif
}

static void test_ucontext(void)
{
	int v;

	set(SIGTRAP, trap_handler, 0);
	__asm__ volatile("mov $1, %%eax\n\tint3\n\tmov %%eax, %0" : "=r"(v) : : "eax");
	printf("int3: sig=%d code=%d eax after=%d\n", last_sig, last_code, v);
}

static unsigned get_mxcsr(void)
{
	unsigned v;

	__asm__ volatile("stmxcsr %0" : "=m"(v));
	return v;
}

static void set_mxcsr(unsigned v)
{
	__asm__ volatile("ldmxcsr %0" : : "m"(v));
}

static volatile unsigned handler_mxcsr, handler_fround;

static void fp_handler(int sig)
{
	(void)sig;
	handler_mxcsr = get_mxcsr();
	handler_fround = fegetround();
	set_mxcsr(0x1f80 | 0x6000);
	fesetround(FE_UPWARD);
}

static void test_fp(void)
{
	volatile double x = 1.0 / 3.0;

	set_plain(SIGUSR1, fp_handler, 0);
	set_mxcsr(0x1f80 | 0x2000); /* round down */
	fesetround(FE_TOWARDZERO);
	raise(SIGUSR1);
	printf("fp in handler: mxcsr=%#x round=%d\n", handler_mxcsr & ~0x3fu,
	       handler_fround == FE_TONEAREST);
	printf("fp after: mxcsr=%#x round=%d x=%.17g\n", get_mxcsr() & ~0x3fu,
	       fegetround() == FE_TOWARDZERO, (double)(x * 3.0));
	fesetround(FE_TONEAREST);
	set_mxcsr(0x1f80);
}

static int pfd[2];

static void alarm_writes(int sig)
{
	(void)sig;
	hits++;
	if (write(pfd[1], "x", 1) != 1)
		_exit(9);
}

static void arm_timer(int usec)
{
	struct itimerval it = { .it_value = { 0, usec } };

	setitimer(ITIMER_REAL, &it, NULL);
}

static void test_eintr(void)
{
	char c;
	ssize_t n;

	if (pipe(pfd))
		return;
	set_plain(SIGALRM, alarm_writes, SA_RESTART);
	hits = 0;
	arm_timer(20000);
	n = read(pfd[0], &c, 1);
	printf("SA_RESTART read: n=%zd hits=%d\n", n, hits);
	set_plain(SIGALRM, alarm_writes, 0);
	arm_timer(20000);
	n = read(pfd[0], &c, 1);
	printf("no SA_RESTART read: n=%zd errno=%s hits=%d\n", n, n < 0 ? strerrorname_np(errno) : "-", hits);
	n = read(pfd[0], &c, 1); /* the byte the handler wrote */
	/* a guest spinning in a loop still gets its signal */
	hits = 0;
	arm_timer(20000);
	while (!hits)
		;
	printf("spin: hits=%d\n", hits);
	close(pfd[0]);
	close(pfd[1]);
}

static void test_wait(void)
{
	sigset_t s, old, now;
	siginfo_t si;
	struct signalfd_siginfo fdsi;
	int r, fd;

	set_plain(SIGUSR1, on_plain, 0);
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	sigaddset(&s, SIGUSR2);
	sigprocmask(SIG_BLOCK, &s, &old);
	hits = 0;
	raise(SIGUSR1);
	sigemptyset(&now);
	r = sigsuspend(&now);
	printf("sigsuspend: r=%d errno=%s hits=%d usr1 still blocked=%d\n", r,
	       strerrorname_np(errno), hits, blocked(SIGUSR1));
	raise(SIGUSR2);
	r = sigwaitinfo(&s, &si);
	printf("sigwaitinfo: r=%d code=%d pid_ok=%d\n", r, si.si_code, si.si_pid == getpid());
	{
		struct timespec ts = { 0, 1000000 };

		r = sigtimedwait(&s, &si, &ts);
		printf("sigtimedwait timeout: r=%d errno=%s\n", r, strerrorname_np(errno));
	}
	fd = signalfd(-1, &s, SFD_CLOEXEC);
	raise(SIGUSR2);
	r = (int)read(fd, &fdsi, sizeof(fdsi));
	printf("signalfd: n=%d signo=%u code=%d\n", r, fdsi.ssi_signo, fdsi.ssi_code);
	close(fd);
	sigprocmask(SIG_SETMASK, &old, NULL);
}

#ifdef __i386__
/* No SA_RESTORER: the kernel returns through the vDSO's __kernel_sigreturn
 * (plain handler: sigframe) or __kernel_rt_sigreturn (SA_SIGINFO). */
struct k_sigaction {
	void *handler;
	unsigned long flags;
	void *restorer;
	unsigned mask[2];
};

/* the old i386 calls: signal (48) is SA_ONESHOT|SA_NOMASK, sigaction (67)
 * has a 32-bit mask */
struct old_sigaction32 {
	void *handler;
	unsigned long mask, flags;
	void *restorer;
};

static void test_old_calls(void)
{
	struct old_sigaction32 o = { (void *)on_plain, 0, 0, NULL }, old;
	long prev;

	hits = 0;
	prev = syscall(48, SIGUSR1, (long)on_plain);
	raise(SIGUSR1);
	prev = syscall(48, SIGUSR1, (long)SIG_DFL);
	printf("signal(48): hits=%d prev is handler=%d\n", hits, prev == (long)on_plain);
	syscall(67, SIGUSR2, &o, NULL);
	raise(SIGUSR2);
	syscall(67, SIGUSR2, NULL, &old);
	printf("sigaction(67): hits=%d handler kept=%d\n", hits, old.handler == (void *)on_plain);
}

static void test_vdso_restorer(void)
{
	struct k_sigaction ka = { (void *)on_plain, 0, NULL, { 0, 0 } };

	hits = 0;
	syscall(SYS_rt_sigaction, SIGUSR1, &ka, NULL, 8);
	raise(SIGUSR1);
	ka.handler = (void *)on_info;
	ka.flags = SA_SIGINFO;
	syscall(SYS_rt_sigaction, SIGUSR1, &ka, NULL, 8);
	raise(SIGUSR1);
	printf("vdso restorer: hits=%d code=%d\n", hits, last_code);
}
#else
static void test_old_calls(void)
{
	printf("signal(48): hits=1 prev is handler=0\n");
	printf("sigaction(67): hits=2 handler kept=1\n");
}

static void test_vdso_restorer(void)
{
	printf("vdso restorer: hits=2 code=-6\n");
}
#endif

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	test_basic();
	test_mask();
	test_flags();
	test_altstack();
	test_autodisarm();
	test_faults();
	test_sent_faults();
	test_ucontext();
	test_fp();
	test_eintr();
	test_wait();
	test_vdso_restorer();
	test_old_calls();
	signal(SIGTERM, SIG_DFL);
	raise(SIGTERM);
	return 0;
}
