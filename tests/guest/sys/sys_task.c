/* Handles on tasks: pidfd_open, pidfd_send_signal (with and without a
 * siginfo), pidfd_getfd, and get_robust_list of this thread, another
 * thread and no task; rt_sigaction's struct read back whole (its mask in
 * two words on i386 and x32); i386's old sigaction (67) and old mmap (90).
 * Raw system calls: no libc wrapper is needed. */
#include "sys.h"

#include <linux/futex.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>

#ifndef PIDFD_NONBLOCK
#define PIDFD_NONBLOCK 04000
#endif

/* 50 ms: long enough for another task to reach the call it blocks in, so
 * that the order of the two (which a trace shows) is the same in every
 * run */
static void settle(void)
{
	struct timespec t = { 0, 50 * 1000 * 1000 };

	nanosleep(&t, NULL);
}

static long pidfd_open(pid_t pid, unsigned flags)
{
	return syscall(SYS_pidfd_open, pid, flags);
}

static long pidfd_send_signal(int fd, int sig, siginfo_t *info, unsigned flags)
{
	return syscall(SYS_pidfd_send_signal, fd, sig, info, flags);
}

static void pidfds(void)
{
	int self = (int)pidfd_open(getpid(), 0), p[2], fd, st;
	struct pollfd pfd;
	siginfo_t si;
	sigset_t set;
	pid_t child;
	char buf[8];

	FACT("pidfd_open self", self >= 0);
	CHECK("pidfd_open -1", pidfd_open(-1, 0));
	CHECK("pidfd_open bad flags", pidfd_open(getpid(), 1));
	CHECK("pidfd_open no such pid", pidfd_open(0x3ffffff0, 0));
	CHECK("pidfd_send_signal bad fd", pidfd_send_signal(-1, SIGUSR1, NULL, 0));
	CHECK("pidfd_send_signal bad flags", pidfd_send_signal(self, 0, NULL, 0x100));
	CHECK("pidfd_send_signal probe", pidfd_send_signal(self, 0, NULL, 0));

	/* to ourselves with a siginfo: SI_QUEUE and a value, as sigqueue */
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	memset(&si, 0, sizeof(si));
	si.si_signo = SIGUSR1;
	si.si_code = SI_QUEUE;
	si.si_pid = getpid();
	si.si_uid = getuid();
	si.si_value.sival_int = 42;
	CHECK("pidfd_send_signal info", pidfd_send_signal(self, SIGUSR1, &si, 0));
	memset(&si, 0, sizeof(si));
	CHECK("sigwaitinfo", sigwaitinfo(&set, &si));
	printf("si_code SI_QUEUE %s, value %d, pid ours %s\n",
	       si.si_code == SI_QUEUE ? "yes" : "no", si.si_value.sival_int,
	       si.si_pid == getpid() ? "yes" : "no");
	CHECK("pidfd_send_signal null info", pidfd_send_signal(self, SIGUSR1, NULL, 0));
	memset(&si, 0, sizeof(si));
	CHECK("sigwaitinfo", sigwaitinfo(&set, &si));
	printf("si_code SI_USER %s, pid ours %s\n", si.si_code == SI_USER ? "yes" : "no",
	       si.si_pid == getpid() ? "yes" : "no");

	/* pidfd_getfd: our own pipe's write end, duplicated through the pidfd */
	CHECK("pipe", pipe(p));
	fd = (int)syscall(SYS_pidfd_getfd, self, p[1], 0);
	FACT("pidfd_getfd", fd >= 0 && fd != p[1]);
	CHECK("write via getfd", write(fd, "abc", 3));
	CHECK("read pipe", read(p[0], buf, sizeof(buf)));
	CHECK("pidfd_getfd bad target", syscall(SYS_pidfd_getfd, self, 999, 0));
	CHECK("pidfd_getfd bad flags", syscall(SYS_pidfd_getfd, self, p[1], 1));
	close(fd);

	/* a child: the pidfd is readable once it has exited. SIGTERM blocked
	 * across the fork and taken only in the child's sigsuspend, so that
	 * its trace shows the suspend every time (a sleep only made it likely:
	 * natively too, the signal could come before the child blocked) */
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, NULL);
	child = fork();
	if (child == 0) {
		sigemptyset(&set);
		sigsuspend(&set);
		_exit(0);
	}
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	fd = (int)pidfd_open(child, PIDFD_NONBLOCK);
	FACT("pidfd_open child", fd >= 0);
	if (fd < 0)
		kill(child, SIGTERM); /* no hang where pidfds do not work */
	pfd.fd = fd;
	pfd.events = POLLIN;
	CHECK("poll running child", poll(&pfd, 1, 0));
	/* SIGCHLD held until the child is reaped: delivered at the unblock,
	 * not before or after poll or waitpid as the child's death races
	 * this task (natively too: seen in 4 of 16 traces at load 11) */
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, NULL);
	CHECK("pidfd_send_signal SIGTERM", pidfd_send_signal(fd, SIGTERM, NULL, 0));
	CHECK("poll ended child", poll(&pfd, 1, 5000));
	CHECK("waitpid", waitpid(child, &st, 0) == child);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	printf("child killed by SIGTERM: %s\n",
	       WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM ? "yes" : "no");
	CHECK("pidfd_send_signal after reaping", pidfd_send_signal(fd, SIGTERM, NULL, 0));
	close(fd);
	close(self);
	close(p[0]);
	close(p[1]);
}

struct robust_head {
	void *list;
	long futex_offset;
	void *pending;
};

static pthread_barrier_t ready, done;
static pid_t other_tid;

static void *other_thread(void *arg)
{
	(void)arg;
	other_tid = (pid_t)syscall(SYS_gettid);
	settle(); /* the main thread waits at the barrier first */
	pthread_barrier_wait(&ready);
	pthread_barrier_wait(&done);
	settle(); /* the main thread waits in pthread_join before it ends */
	return NULL;
}

static void robust_list(void)
{
	static struct robust_head mine = { &mine, 0, NULL };
	struct robust_head *head = NULL, *before = NULL;
	size_t len = 0;
	pthread_t th;

	CHECK("get_robust_list self", syscall(SYS_get_robust_list, 0, &before, &len));
	FACT("libc registered one", before != NULL);
	FACT("len is the head's size", len == sizeof(struct robust_head));
	CHECK("set_robust_list", syscall(SYS_set_robust_list, &mine, sizeof(mine)));
	CHECK("get_robust_list self again", syscall(SYS_get_robust_list, 0, &head, &len));
	FACT("head is ours", head == &mine);
	CHECK("get_robust_list own tid", syscall(SYS_get_robust_list, syscall(SYS_gettid), &head, &len));
	FACT("head is ours", head == &mine);

	pthread_barrier_init(&ready, NULL, 2);
	pthread_barrier_init(&done, NULL, 2);
	pthread_create(&th, NULL, other_thread, NULL);
	pthread_barrier_wait(&ready);
	head = NULL;
	CHECK("get_robust_list other thread", syscall(SYS_get_robust_list, other_tid, &head, &len));
	FACT("its own head", head != NULL && head != &mine && head != before);
	settle(); /* the other thread waits at this barrier first */
	pthread_barrier_wait(&done);
	pthread_join(th, NULL);

	CHECK("get_robust_list no such task", syscall(SYS_get_robust_list, 0x3ffffff0, &head, &len));
	CHECK("get_robust_list bad head pointer", syscall(SYS_get_robust_list, 0, (void *)8, &len));
	CHECK("get_robust_list bad len pointer", syscall(SYS_get_robust_list, 0, &head, (void *)8));
	syscall(SYS_set_robust_list, before, sizeof(mine));
}

/* rt_sigaction's struct as the kernel declares it: longs, and the mask
 * as 64 bits in longs (two words on i386 and x32, packed after the
 * restorer) */
struct kernel_sigaction {
	unsigned long handler, flags, restorer;
	unsigned long mask[64 / (8 * sizeof(unsigned long))];
};

static void set_mask(struct kernel_sigaction *k, uint64_t m)
{
	for (size_t i = 0; i < sizeof(k->mask) / sizeof(k->mask[0]); i++)
		k->mask[i] = (unsigned long)(m >> (i * 8 * sizeof(unsigned long)));
}

static uint64_t get_mask(const struct kernel_sigaction *k)
{
	uint64_t m = 0;

	for (size_t i = 0; i < sizeof(k->mask) / sizeof(k->mask[0]); i++)
		m |= (uint64_t)k->mask[i] << (i * 8 * sizeof(unsigned long));
	return m;
}

static void restorer_stub(void)
{
}

/* every field of the struct set, read back, the old one returned */
static void rt_sigaction_fields(void)
{
	/* SIGUSR2 in the low word, SIGRTMIN+8 (40) in the high one */
	const uint64_t mask = 1ull << (SIGUSR2 - 1) | 1ull << (40 - 1);
	const unsigned long flags = SA_RESTART | SA_NODEFER | 0x04000000 /* SA_RESTORER */;
	struct kernel_sigaction act = { (unsigned long)restorer_stub, flags,
					(unsigned long)restorer_stub, { 0 } };
	struct kernel_sigaction old;

	set_mask(&act, mask);
	memset(&old, 0x55, sizeof(old));
	CHECK("rt_sigaction set", syscall(SYS_rt_sigaction, SIGWINCH, &act, &old, 8));
	FACT("rt_sigaction old is SIG_DFL", old.handler == 0 && get_mask(&old) == 0);
	memset(&old, 0x55, sizeof(old));
	CHECK("rt_sigaction get", syscall(SYS_rt_sigaction, SIGWINCH, NULL, &old, 8));
	FACT("rt_sigaction handler", old.handler == (unsigned long)restorer_stub);
	FACT("rt_sigaction flags", old.flags == flags);
	FACT("rt_sigaction restorer", old.restorer == (unsigned long)restorer_stub);
	FACT("rt_sigaction mask, both words", get_mask(&old) == mask);
	act.handler = 0; /* SIG_DFL */
	CHECK("rt_sigaction reset", syscall(SYS_rt_sigaction, SIGWINCH, &act, NULL, 8));
	CHECK("rt_sigaction bad size", syscall(SYS_rt_sigaction, SIGWINCH, NULL, &old, 4));
}

#ifdef __i386__
/* i386's old mmap (90): its six arguments in a struct in memory */
struct mmap_arg_i386 {
	uint32_t addr, len, prot, flags, fd, offset;
};

static void old_mmap(void)
{
	int fd = memfd_create("oldmmap", 0);
	char page[4096];
	struct mmap_arg_i386 arg = { 0, 4096, PROT_READ, MAP_SHARED, (uint32_t)fd, 4096 };
	long r;

	memset(page, 'a', sizeof(page));
	CHECK("memfd page 1", write(fd, page, sizeof(page)));
	memset(page, 'b', sizeof(page));
	CHECK("memfd page 2", write(fd, page, sizeof(page)));
	r = syscall(SYS_mmap, &arg);
	FACT("i386 old mmap of the second page", r != -1 && ((char *)r)[0] == 'b' &&
							 ((char *)r)[4095] == 'b');
	if (r != -1)
		munmap((void *)r, 4096);
	arg.offset = 100;
	CHECK("i386 old mmap unaligned offset", syscall(SYS_mmap, &arg));
	arg.offset = 0;
	arg.fd = 999;
	CHECK("i386 old mmap bad fd", syscall(SYS_mmap, &arg));
	arg.flags = MAP_PRIVATE | MAP_ANONYMOUS;
	arg.fd = (uint32_t)-1;
	arg.prot = PROT_READ | PROT_WRITE;
	r = syscall(SYS_mmap, &arg);
	FACT("i386 old mmap anonymous, zeroed", r != -1 && ((char *)r)[100] == 0);
	if (r != -1)
		munmap((void *)r, 4096);
	CHECK("i386 old mmap NULL", syscall(SYS_mmap, NULL));
	close(fd);
}

/* i386's old sigaction (67): struct old_sigaction { handler, mask (one
 * word), flags, restorer }, the uapi header's i386 struct sigaction */
struct old_sigaction_i386 {
	unsigned long handler, mask, flags, restorer;
};

static volatile int old_hits, old_blocked;

static void old_handler(int sig)
{
	sigset_t cur;

	old_hits += sig;
	sigprocmask(SIG_BLOCK, NULL, &cur);
	old_blocked = sigismember(&cur, SIGUSR2);
}

static void old_sigaction(void)
{
	struct old_sigaction_i386 sa = { (unsigned long)old_handler, 1ul << (SIGUSR2 - 1),
					 SA_RESTART | SA_RESETHAND, 0 };
	struct old_sigaction_i386 old;

	memset(&old, 0x55, sizeof(old));
	CHECK("i386 sigaction set", syscall(SYS_sigaction, SIGWINCH, &sa, &old));
	FACT("i386 sigaction old is SIG_DFL", old.handler == 0 && old.mask == 0);
	memset(&old, 0x55, sizeof(old));
	CHECK("i386 sigaction get", syscall(SYS_sigaction, SIGWINCH, NULL, &old));
	FACT("i386 sigaction handler", old.handler == (unsigned long)old_handler);
	FACT("i386 sigaction mask", old.mask == 1ul << (SIGUSR2 - 1));
	FACT("i386 sigaction SA_RESTART", (old.flags & SA_RESTART) != 0);
	raise(SIGWINCH);
	FACT("i386 sigaction handler ran", old_hits == SIGWINCH);
	FACT("i386 sigaction mask held in the handler", old_blocked == 1);
	CHECK("i386 sigaction after SA_RESETHAND", syscall(SYS_sigaction, SIGWINCH, NULL, &old));
	FACT("i386 sigaction reset to SIG_DFL", old.handler == 0);
}
#endif

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	rt_sigaction_fields();
#ifdef __i386__
	if (abi_only_checks()) {
		old_sigaction();
		old_mmap();
	}
#endif
	pidfds();
	robust_list();
	return 0;
}
