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

#define SIGBIT64(n) (1ull << ((n) - 1))

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

/* The calls glibc does not make for us, raw: tkill, rt_tgsigqueueinfo,
 * pause, rt_sigpending, the old signalfd, and the i386 forms (old
 * sigprocmask, sigpending, sigsuspend with a 32-bit mask, time32 and
 * time64 rt_sigtimedwait); elsewhere their 64-bit equivalents, so that
 * every ABI prints the same lines. */
static long raw_timedwait(const uint64_t *set, siginfo_t *si, long nsec, int time64)
{
#ifdef __i386__
	if (!time64) {
		struct { int32_t sec, nsec; } ts32 = { 0, (int32_t)nsec };

		return syscall(177, set, si, &ts32, 8); /* rt_sigtimedwait */
	} else {
		struct { int64_t sec, nsec; } ts64 = { 0, nsec };

		return syscall(421, set, si, &ts64, 8); /* rt_sigtimedwait_time64 */
	}
#else
	struct timespec ts = { 0, nsec };

	(void)time64;
	return syscall(SYS_rt_sigtimedwait, set, si, &ts, 8);
#endif
}

static long raw_sigprocmask_old(int how, uint32_t set, uint32_t *old)
{
#ifdef __i386__
	return syscall(126, how, &set, old); /* sigprocmask, old_sigset_t */
#else
	uint64_t s = set, o = 0;
	long r = syscall(SYS_rt_sigprocmask, how, &s, &o, 8);

	*old = (uint32_t)o;
	return r;
#endif
}

static long raw_sigpending_old(uint32_t *set)
{
#ifdef __i386__
	return syscall(73, set); /* sigpending */
#else
	uint64_t s = 0;
	long r = syscall(SYS_rt_sigpending, &s, 8);

	*set = (uint32_t)s;
	return r;
#endif
}

static long raw_sigsuspend_old(uint32_t mask)
{
#ifdef __i386__
	return syscall(72, 0, 0, mask); /* sigsuspend */
#else
	uint64_t m = mask;

	return syscall(SYS_rt_sigsuspend, &m, 8);
#endif
}

static void test_raw_calls(void)
{
	uint64_t usr12 = SIGBIT64(SIGUSR1) | SIGBIT64(SIGUSR2), pend = 0;
	uint32_t old32 = 0, pend32 = 0;
	siginfo_t si, qi;
	struct signalfd_siginfo fdsi;
	pid_t tid = (pid_t)syscall(SYS_gettid);
	long r;
	int fd;

	set(SIGUSR1, on_info, 0);
	hits = 0;
	syscall(SYS_tkill, tid, SIGUSR1);
	printf("tkill: hits=%d code=%d pid_ok=%d\n", hits, last_code, last_pid_ok);
	memset(&qi, 0, sizeof(qi));
	qi.si_signo = SIGUSR1;
	qi.si_code = SI_QUEUE;
	qi.si_pid = getpid();
	qi.si_uid = getuid();
	qi.si_value.sival_int = 4321;
	r = syscall(SYS_rt_tgsigqueueinfo, getpid(), tid, SIGUSR1, &qi);
	printf("rt_tgsigqueueinfo: r=%ld hits=%d code=%d val=%d\n", r, hits, last_code,
	       last_val);
	qi.si_code = SI_USER; /* to oneself: allowed (EPERM is for others) */
	r = syscall(SYS_rt_tgsigqueueinfo, getpid(), tid, SIGUSR1, &qi);
	printf("rt_tgsigqueueinfo SI_USER: r=%ld errno=%s\n", r, r ? strerrorname_np(errno) : "-");

	/* pause: EINTR after the handler */
	set_plain(SIGALRM, on_plain, SA_RESTART);
	hits = 0;
	arm_timer(10000);
	r = syscall(SYS_pause);
	printf("pause: r=%ld errno=%s hits=%d\n", r, strerrorname_np(errno), hits);

	/* old 32-bit masks */
	raw_sigprocmask_old(SIG_BLOCK, (uint32_t)usr12, &old32);
	raise(SIGUSR1);
	raw_sigpending_old(&pend32);
	syscall(SYS_rt_sigpending, &pend, 8);
	printf("old sigpending: usr1=%d rt_sigpending: usr1=%d\n",
	       !!(pend32 & SIGBIT64(SIGUSR1)), !!(pend & SIGBIT64(SIGUSR1)));
	hits = 0;
	r = raw_sigsuspend_old(0);
	raw_sigprocmask_old(SIG_BLOCK, 0, &pend32);
	printf("old sigsuspend: r=%ld errno=%s hits=%d mask back=%d\n", r,
	       strerrorname_np(errno), hits, pend32 == (uint32_t)usr12);

	/* rt_sigtimedwait, time32 and time64 forms: one pending, then none */
	for (int time64 = 0; time64 < 2; time64++) {
		raise(SIGUSR2);
		memset(&si, 0, sizeof(si));
		r = raw_timedwait(&usr12, &si, 1000000, time64);
		printf("rt_sigtimedwait time%d: r=%ld signo=%d code=%d pid_ok=%d", time64 ? 64 : 32,
		       r, si.si_signo, si.si_code, si.si_pid == getpid());
		r = raw_timedwait(&usr12, &si, 1000000, time64);
		printf(" then r=%ld errno=%s\n", r, strerrorname_np(errno));
	}

	/* the old signalfd (no flags argument) */
	fd = (int)syscall(SYS_signalfd, -1, &usr12, 8);
	syscall(SYS_tkill, tid, SIGUSR2);
	r = read(fd, &fdsi, sizeof(fdsi));
	printf("old signalfd: n=%ld signo=%u code=%d\n", r, fdsi.ssi_signo, fdsi.ssi_code);
	close(fd);
	raw_sigprocmask_old(SIG_SETMASK, old32, &pend32);
	hits = 0;
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
	test_raw_calls();
	test_vdso_restorer();
	test_old_calls();
	signal(SIGTERM, SIG_DFL);
	raise(SIGTERM);
	return 0;
}
