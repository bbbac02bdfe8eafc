/* Blocking calls interrupted by a signal: does the call restart, fail with
 * EINTR, or go on with the time it had left? The kernel decides from the
 * code each call's handler returns (-ERESTARTSYS, -ERESTARTNOHAND,
 * -ERESTART_RESTARTBLOCK, -EINTR) and from what the signal did: a handler
 * with SA_RESTART, one without, or no handler at all (a stop and continue,
 * or under a tracer a signal whose default is to ignore it). The program
 * prints, per call and per way of interrupting it, the call's result (its
 * errno name, or ok: the event it waited for came), which handlers ran,
 * and for a timed call that timed out whether it waited the rest of its
 * time or started it again from the signal:
 *
 *   the signal is sent SIGNAL_MS after the call's start (TIMED_SIGNAL_MS
 *   for a timed call), once the caller is asleep in it; the event the
 *   call waits for (a byte in a pipe, a child's exit, ...) comes
 *   EVENT_AFTER_SIGNAL_MS after the signal; a timed call waits
 *   TIMEOUT_MS.
 *
 * Nothing that depends on the host's speed is printed, so the native run
 * (x32: its -m64 twin) is the oracle. Arguments: none, every
 * call under SIGUSR1 with SA_RESTART, without it, and SIGSTOP+SIGCONT;
 * "nohandler": a child's exit (SIGCHLD, default action) at the signal time,
 * only for the calls that restart then (natively the signal wakes nothing;
 * under `sysgate --trace` it interrupts the host call, and sysgate must
 * restart as the kernel does when no handler runs; a call whose code is
 * -EINTR gives EINTR under any tracer, strace's too, so it is left out). */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/msg.h>
#include <sys/select.h>
#include <sys/sem.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* A timed call that started its time again from the signal cannot be back
 * before the signal's time + TIMEOUT_MS (timers do not fire early): one
 * back sooner went on with the rest of its time, and may come back up to
 * the signal's time late on a loaded host (a native 600 ms sleep on a
 * busy one came back 150 ms late) */
#define TIMED_SIGNAL_MS 500
#define TIMEOUT_MS 1000
#define SIGNAL_MS 100 /* calls waiting for an event */
#define EVENT_AFTER_SIGNAL_MS 200

enum how { BY_RESTART_HANDLER, BY_HANDLER, BY_STOP, BY_NOHANDLER };
static const char *const how_name[] = {
	"SIGUSR1 handler, SA_RESTART", "SIGUSR1 handler", "SIGSTOP+SIGCONT",
	"SIGCHLD, no handler",
};

/* what one case has made for the call and for the child providing its
 * event */
struct res {
	int pipe[2];
	int sock[2];
	int listen_fd;
	struct sockaddr_un addr;
	socklen_t addrlen;
	int ep;
	int sem;
	int msq;
	uint32_t *word; /* shared with the children */
	pid_t eventer;
};

struct tcase {
	const char *name;
	void (*setup)(struct res *);
	long (*call)(struct res *);
	void (*event)(struct res *); /* in the child; NULL: a timed call */
	bool restarts_without_handler; /* the code is not -EINTR */
};

static volatile int usr1_hits, usr2_hits;

static void on_usr1(int sig)
{
	(void)sig;
	usr1_hits++;
}

static void on_usr2(int sig)
{
	(void)sig;
	usr2_hits++;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* The helpers act at a time after the call's start, which the parent
 * sends them once both are forked (a fork under an emulator can take
 * longer than the margins): go[0] gives it, in ms of CLOCK_MONOTONIC. */
static int go[2];

/* When the signaller sent its signal, in ms after the call's start (0:
 * not yet), in memory the helpers share with the parent: the event comes
 * a while after it, and a timed call that went on with the rest of its
 * time is told from one that started again from when it came. */
static volatile double *signal_sent_ms;

/* The parent is asleep in the call (a signal sent before it is in the
 * call would be delivered before it, natively too, on a loaded host) */
static void wait_asleep(pid_t pid)
{
	char path[64], buf[256];

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	for (int i = 0; i < 1500; i++) {
		FILE *f = fopen(path, "r");
		const char *paren;
		size_t n = 0;

		if (f) {
			n = fread(buf, 1, sizeof(buf) - 1, f);
			fclose(f);
		}
		buf[n] = 0;
		paren = strrchr(buf, ')');
		if (paren && paren[1] == ' ' && paren[2] == 'S')
			return;
		sleep_ms(2);
	}
}

static void sleep_until(double start_ms, int ms)
{
	long long at_ns = (long long)((start_ms + ms) * 1e6);
	struct timespec ts = { (time_t)(at_ns / 1000000000), (long)(at_ns % 1000000000) };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static double wait_go(void)
{
	double start;

	if (read(go[0], &start, sizeof(start)) != sizeof(start))
		_exit(3);
	return start;
}

static struct timespec rel_ts(int ms)
{
	return (struct timespec){ ms / 1000, (ms % 1000) * 1000000L };
}

/* --- the calls ------------------------------------------------------------- */

static void setup_pipe(struct res *r)
{
	if (pipe(r->pipe))
		perror("pipe");
}

static void write_byte(struct res *r)
{
	if (write(r->pipe[1], "x", 1) != 1)
		_exit(3);
}

static long do_read(struct res *r)
{
	char c;

	return read(r->pipe[0], &c, 1);
}

static long do_select(struct res *r)
{
	fd_set in;

	FD_ZERO(&in);
	FD_SET(r->pipe[0], &in);
	return select(r->pipe[0] + 1, &in, NULL, NULL, NULL);
}

static long do_select_timed(struct res *r)
{
	fd_set in;
	struct timeval tv = { TIMEOUT_MS / 1000, (TIMEOUT_MS % 1000) * 1000 };

	FD_ZERO(&in);
	FD_SET(r->pipe[0], &in);
	return select(r->pipe[0] + 1, &in, NULL, NULL, &tv);
}

static long do_pselect(struct res *r)
{
	fd_set in;
	sigset_t none;

	sigemptyset(&none);
	FD_ZERO(&in);
	FD_SET(r->pipe[0], &in);
	return pselect(r->pipe[0] + 1, &in, NULL, NULL, NULL, &none);
}

/* SIGUSR1 blocked but for the call's own mask (the pattern pselect is
 * for): its handler runs while the call waits, and the call gives EINTR */
static void mask_usr1(int how)
{
	sigset_t s;

	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	sigprocmask(how, &s, NULL);
}

static void block_usr1(void)
{
	mask_usr1(SIG_BLOCK);
}

/* the call's result, with SIGUSR1 unblocked after it and errno kept */
static long unblock_usr1_after(long got)
{
	int err = errno;

	mask_usr1(SIG_UNBLOCK);
	errno = err;
	return got;
}

static void setup_pipe_block_usr1(struct res *r)
{
	setup_pipe(r);
	block_usr1();
}

static long do_pselect_unmasking(struct res *r)
{
	return unblock_usr1_after(do_pselect(r));
}

static long do_ppoll_unmasking(struct res *r)
{
	struct pollfd p = { .fd = r->pipe[0], .events = POLLIN };
	sigset_t none;

	sigemptyset(&none);
	return unblock_usr1_after(ppoll(&p, 1, NULL, &none));
}

static long do_epoll_pwait_unmasking(struct res *r)
{
	struct epoll_event ev;
	sigset_t none;

	sigemptyset(&none);
	return unblock_usr1_after(epoll_pwait(r->ep, &ev, 1, -1, &none));
}

static void setup_epoll_block_usr1(struct res *r);

static long do_poll(struct res *r)
{
	struct pollfd p = { .fd = r->pipe[0], .events = POLLIN };

	return poll(&p, 1, -1);
}

static long do_poll_timed(struct res *r)
{
	struct pollfd p = { .fd = r->pipe[0], .events = POLLIN };

	return poll(&p, 1, TIMEOUT_MS);
}

static long do_ppoll_timed(struct res *r)
{
	struct pollfd p = { .fd = r->pipe[0], .events = POLLIN };
	struct timespec ts = rel_ts(TIMEOUT_MS);

	return ppoll(&p, 1, &ts, NULL);
}

static void setup_epoll(struct res *r)
{
	struct epoll_event ev = { .events = EPOLLIN };

	setup_pipe(r);
	r->ep = epoll_create1(0);
	ev.data.fd = r->pipe[0];
	epoll_ctl(r->ep, EPOLL_CTL_ADD, r->pipe[0], &ev);
}

static void setup_epoll_block_usr1(struct res *r)
{
	setup_epoll(r);
	block_usr1();
}

static long do_epoll_wait(struct res *r)
{
	struct epoll_event ev;

	return epoll_wait(r->ep, &ev, 1, -1);
}

static long do_epoll_wait_timed(struct res *r)
{
	struct epoll_event ev;

	return epoll_wait(r->ep, &ev, 1, TIMEOUT_MS);
}

static void setup_none(struct res *r)
{
	(void)r;
}

static void child_exits(struct res *r)
{
	(void)r;
	_exit(0);
}

static long do_wait4(struct res *r)
{
	int status;
	long got = wait4(r->eventer, &status, 0, NULL);

	if (got == r->eventer)
		r->eventer = 0; /* reaped */
	return got > 0 ? 0 : got;
}

static void send_usr2(struct res *r)
{
	(void)r;
	kill(getppid(), SIGUSR2);
}

static long do_pause(struct res *r)
{
	(void)r;
	return pause();
}

static long do_sigsuspend(struct res *r)
{
	sigset_t none;

	(void)r;
	sigemptyset(&none);
	return sigsuspend(&none);
}

/* SIGUSR2 blocked while the call waits for it */
static void setup_block_usr2(struct res *r)
{
	sigset_t s;

	(void)r;
	sigemptyset(&s);
	sigaddset(&s, SIGUSR2);
	sigprocmask(SIG_BLOCK, &s, NULL);
}

static long do_sigwaitinfo(struct res *r)
{
	sigset_t s;
	long got;

	(void)r;
	sigemptyset(&s);
	sigaddset(&s, SIGUSR2);
	got = sigwaitinfo(&s, NULL);
	return got == SIGUSR2 ? 0 : got;
}

static long do_sigtimedwait(struct res *r)
{
	sigset_t s;
	struct timespec ts = rel_ts(TIMEOUT_MS);

	(void)r;
	sigemptyset(&s);
	sigaddset(&s, SIGUSR2);
	return sigtimedwait(&s, NULL, &ts);
}

static long do_nanosleep(struct res *r)
{
	struct timespec ts = rel_ts(TIMEOUT_MS);

	(void)r;
	return syscall(SYS_nanosleep, &ts, NULL);
}

static long do_clock_nanosleep(struct res *r)
{
	struct timespec ts = rel_ts(TIMEOUT_MS);
	int e;

	(void)r;
	e = clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
	errno = e;
	return e ? -1 : 0;
}

static long do_clock_nanosleep_abs(struct res *r)
{
	struct timespec ts;
	int e;

	(void)r;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_nsec += (TIMEOUT_MS % 1000) * 1000000L;
	ts.tv_sec += TIMEOUT_MS / 1000 + ts.tv_nsec / 1000000000L;
	ts.tv_nsec %= 1000000000L;
	e = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	errno = e;
	return e ? -1 : 0;
}

static void setup_word(struct res *r)
{
	r->word = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	*r->word = 0;
}

static void wake_word(struct res *r)
{
	__atomic_store_n(r->word, 1, __ATOMIC_SEQ_CST);
	syscall(SYS_futex, r->word, FUTEX_WAKE, 1, NULL, NULL, 0);
}

static long do_futex_wait(struct res *r)
{
	long got;

	/* a wake with the word still 0 is spurious: wait again */
	while ((got = syscall(SYS_futex, r->word, FUTEX_WAIT, 0, NULL, NULL, 0)) == 0 &&
	       !*r->word)
		;
	return got < 0 && errno == EAGAIN ? 0 : got;
}

static long do_futex_wait_timed(struct res *r)
{
	struct timespec ts = rel_ts(TIMEOUT_MS);

	return syscall(SYS_futex, r->word, FUTEX_WAIT, 0, &ts, NULL, 0);
}

static long do_futex_wait_bitset(struct res *r)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_nsec += (TIMEOUT_MS % 1000) * 1000000L;
	ts.tv_sec += TIMEOUT_MS / 1000 + ts.tv_nsec / 1000000000L;
	ts.tv_nsec %= 1000000000L;
	return syscall(SYS_futex, r->word, FUTEX_WAIT_BITSET, 0, &ts, NULL,
		       FUTEX_BITSET_MATCH_ANY);
}

static void setup_sem(struct res *r)
{
	r->sem = semget(IPC_PRIVATE, 1, 0600);
}

static void sem_post1(struct res *r)
{
	struct sembuf op = { 0, 1, 0 };

	semop(r->sem, &op, 1);
}

static long do_semop(struct res *r)
{
	struct sembuf op = { 0, -1, 0 };

	return semop(r->sem, &op, 1);
}

static long do_semtimedop(struct res *r)
{
	struct sembuf op = { 0, -1, 0 };
	struct timespec ts = rel_ts(TIMEOUT_MS);

	return semtimedop(r->sem, &op, 1, &ts);
}

struct msg1 {
	long type;
	char text[8];
};

static void setup_msq(struct res *r)
{
	r->msq = msgget(IPC_PRIVATE, 0600);
}

static void msg_post(struct res *r)
{
	struct msg1 m = { 1, "x" };

	msgsnd(r->msq, &m, sizeof(m.text), 0);
}

static long do_msgrcv(struct res *r)
{
	struct msg1 m;
	long got = msgrcv(r->msq, &m, sizeof(m.text), 0, 0);

	return got > 0 ? 0 : got;
}

static void setup_listen(struct res *r)
{
	memset(&r->addr, 0, sizeof(r->addr));
	r->addr.sun_family = AF_UNIX;
	/* abstract: nothing left in the file system */
	snprintf(r->addr.sun_path + 1, sizeof(r->addr.sun_path) - 1, "sg-intr-%d",
		 (int)getpid());
	r->addrlen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 +
				 strlen(r->addr.sun_path + 1));
	r->listen_fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (bind(r->listen_fd, (struct sockaddr *)&r->addr, r->addrlen) ||
	    listen(r->listen_fd, 1))
		perror("bind/listen");
}

static void connect_to(struct res *r)
{
	int s = socket(AF_UNIX, SOCK_STREAM, 0);

	if (connect(s, (struct sockaddr *)&r->addr, r->addrlen))
		_exit(3);
}

static long do_accept(struct res *r)
{
	long got = accept(r->listen_fd, NULL, NULL);

	if (got >= 0)
		close((int)got);
	return got >= 0 ? 0 : got;
}

/* a listener whose backlog is full: a unix socket's connect waits until
 * the event accepts the one already queued */
static void setup_listen_full(struct res *r)
{
	setup_listen(r);
	r->sock[1] = socket(AF_UNIX, SOCK_STREAM, 0);
	if (connect(r->sock[1], (struct sockaddr *)&r->addr, r->addrlen))
		perror("connect");
	listen(r->listen_fd, 0);
}

static void accept_one(struct res *r)
{
	if (accept(r->listen_fd, NULL, NULL) < 0)
		_exit(3);
}

static long do_connect(struct res *r)
{
	r->sock[0] = socket(AF_UNIX, SOCK_STREAM, 0);
	return connect(r->sock[0], (struct sockaddr *)&r->addr, r->addrlen);
}

static void setup_pair(struct res *r)
{
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, r->sock))
		perror("socketpair");
}

static void send_byte(struct res *r)
{
	if (send(r->sock[1], "x", 1, 0) != 1)
		_exit(3);
}

static long do_recv(struct res *r)
{
	char c;

	return recv(r->sock[0], &c, 1, 0);
}

static long do_read_sock(struct res *r)
{
	char c;

	return read(r->sock[0], &c, 1);
}

/* a receive timeout: the socket calls' code is -EINTR then */
static void setup_pair_rcvtimeo(struct res *r)
{
	struct timeval tv = { TIMEOUT_MS / 1000, (TIMEOUT_MS % 1000) * 1000 };

	setup_pair(r);
	setsockopt(r->sock[0], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
}

static const struct tcase cases[] = {
	/* waiting for an event */
	{ "read (pipe)", setup_pipe, do_read, write_byte, true },
	{ "select", setup_pipe, do_select, write_byte, true },
	{ "pselect", setup_pipe, do_pselect, write_byte, true },
	{ "pselect (its mask unblocks)", setup_pipe_block_usr1, do_pselect_unmasking, write_byte,
	  true },
	{ "ppoll (its mask unblocks)", setup_pipe_block_usr1, do_ppoll_unmasking, write_byte,
	  true },
	{ "epoll_pwait (its mask unblocks)", setup_epoll_block_usr1, do_epoll_pwait_unmasking,
	  write_byte, false },
	{ "poll (no timeout)", setup_pipe, do_poll, write_byte, true },
	{ "epoll_wait (no timeout)", setup_epoll, do_epoll_wait, write_byte, false },
	{ "wait4", setup_none, do_wait4, child_exits, true },
	{ "pause", setup_none, do_pause, send_usr2, true },
	{ "sigsuspend", setup_none, do_sigsuspend, send_usr2, true },
	{ "sigwaitinfo", setup_block_usr2, do_sigwaitinfo, send_usr2, false },
	{ "futex wait", setup_word, do_futex_wait, wake_word, true },
	{ "semop", setup_sem, do_semop, sem_post1, false },
	{ "msgrcv", setup_msq, do_msgrcv, msg_post, true },
	{ "accept", setup_listen, do_accept, connect_to, true },
	{ "connect (backlog full)", setup_listen_full, do_connect, accept_one, true },
	{ "recv", setup_pair, do_recv, send_byte, true },
	/* timed */
	{ "nanosleep", setup_none, do_nanosleep, NULL, true },
	{ "clock_nanosleep (relative)", setup_none, do_clock_nanosleep, NULL, true },
	{ "clock_nanosleep (absolute)", setup_none, do_clock_nanosleep_abs, NULL, true },
	{ "select (timeout)", setup_pipe, do_select_timed, NULL, true },
	{ "poll (timeout)", setup_pipe, do_poll_timed, NULL, true },
	{ "ppoll (timeout)", setup_pipe, do_ppoll_timed, NULL, true },
	{ "epoll_wait (timeout)", setup_epoll, do_epoll_wait_timed, NULL, false },
	{ "futex wait (timeout)", setup_word, do_futex_wait_timed, NULL, true },
	{ "futex wait_bitset (absolute)", setup_word, do_futex_wait_bitset, NULL, true },
	{ "semtimedop", setup_sem, do_semtimedop, NULL, false },
	{ "sigtimedwait", setup_block_usr2, do_sigtimedwait, NULL, false },
	{ "recv (SO_RCVTIMEO)", setup_pair_rcvtimeo, do_recv, NULL, false },
	{ "read (socket, SO_RCVTIMEO)", setup_pair_rcvtimeo, do_read_sock, NULL, false },
};

static void set_handlers(enum how how)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sa.sa_flags = how == BY_RESTART_HANDLER ? SA_RESTART : 0;
	sigaction(SIGUSR1, &sa, NULL);
	/* the event of pause and sigsuspend ends them (no SA_RESTART) */
	sa.sa_handler = on_usr2;
	sa.sa_flags = 0;
	sigaction(SIGUSR2, &sa, NULL);
}

static pid_t signaller(enum how how, int signal_ms)
{
	pid_t parent = getpid(), pid = fork();

	double start;

	if (pid != 0)
		return pid;
	start = wait_go();
	sleep_until(start, signal_ms);
	wait_asleep(parent);
	*signal_sent_ms = now_ms() - start;
	switch (how) {
	case BY_RESTART_HANDLER:
	case BY_HANDLER:
		kill(parent, SIGUSR1);
		break;
	case BY_STOP:
		kill(parent, SIGSTOP);
		sleep_ms(30);
		kill(parent, SIGCONT);
		break;
	case BY_NOHANDLER:
		_exit(0); /* SIGCHLD */
	}
	pause(); /* killed when the call is back: no SIGCHLD during it */
	_exit(0);
}

static pid_t eventer(const struct tcase *c, struct res *r)
{
	double start;
	pid_t pid;

	if (!c->event)
		return 0;
	pid = fork();
	if (pid != 0)
		return pid;
	start = wait_go();
	while (!*signal_sent_ms)
		sleep_ms(2);
	sleep_until(start, (int)*signal_sent_ms + EVENT_AFTER_SIGNAL_MS);
	c->event(r);
	pause();
	_exit(0);
}

static void reap(pid_t pid)
{
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
}

static void release(struct res *r)
{
	sigset_t s;

	for (int i = 0; i < 2; i++) {
		if (r->pipe[i] >= 0)
			close(r->pipe[i]);
		if (r->sock[i] >= 0)
			close(r->sock[i]);
	}
	if (r->listen_fd >= 0)
		close(r->listen_fd);
	if (r->ep >= 0)
		close(r->ep);
	if (r->sem >= 0)
		semctl(r->sem, 0, IPC_RMID);
	if (r->msq >= 0)
		msgctl(r->msq, IPC_RMID, NULL);
	if (r->word)
		munmap(r->word, 4096);
	/* a SIGUSR2 still pending (the call came back before it) is dropped */
	sigemptyset(&s);
	sigaddset(&s, SIGUSR2);
	signal(SIGUSR2, SIG_IGN);
	sigprocmask(SIG_UNBLOCK, &s, NULL);
}

/* A timed call's trial tells nothing when the signaller, starved on a
 * loaded host, sent its signal too near the call's timeout or not before
 * it ended (the timeout may then win, natively too: a futex wait woken
 * after its timer fired gives ETIMEDOUT): such a trial is run again. Seen
 * under ASan at load 16: signals sent after the 1 s timeout, or never. */
#define SIGNAL_LATE_MS (TIMEOUT_MS - 250)
#define TRIALS 4

static void run(const struct tcase *c, enum how how)
{
	struct res r;
	double start, took;
	pid_t sig_pid;
	long got;
	int err;
	const char *when = "";
	int hits1, hits2;
	bool late;
	int trial = 0;

again:
	r = (struct res){ .pipe = { -1, -1 }, .sock = { -1, -1 }, .listen_fd = -1,
			  .ep = -1, .sem = -1, .msq = -1 };
	set_handlers(how);
	c->setup(&r);
	usr1_hits = usr2_hits = 0;
	*signal_sent_ms = 0;
	if (pipe(go))
		perror("pipe");
	r.eventer = eventer(c, &r);
	sig_pid = signaller(how, c->event ? SIGNAL_MS : TIMED_SIGNAL_MS);
	start = now_ms();
	for (int i = 0; i < (r.eventer ? 2 : 1); i++)
		if (write(go[1], &start, sizeof(start)) != sizeof(start))
			perror("write");
	close(go[0]);
	close(go[1]);
	errno = 0;
	got = c->call(&r);
	err = errno;
	took = now_ms() - start;
	hits1 = usr1_hits;
	hits2 = usr2_hits;
	reap(sig_pid);
	reap(r.eventer);
	release(&r);
	late = !c->event && (*signal_sent_ms == 0 || *signal_sent_ms > SIGNAL_LATE_MS);
	if (late && ++trial < TRIALS)
		goto again;
	if (late) {
		printf("%-31s %-28s the signal never came in time (%d trials, last at %.0f ms)\n",
		       c->name, how_name[how], TRIALS, *signal_sent_ms);
		return;
	}
	/* a call waiting for an event says by its result what ended it; a
	 * timed one that timed out went on with the rest of its time if it
	 * came back before the signal's time + TIMEOUT_MS (the signaller
	 * notes the time before it signals) */
	if (!c->event && (got >= 0 || err != EINTR))
		when = took < *signal_sent_ms + TIMEOUT_MS ? ", at the timeout"
							   : ", later (the whole timeout again)";
	printf("%-31s %-28s %s%s%s%s\n", c->name, how_name[how],
	       got < 0 ? strerrorname_np(err) : "ok", when,
	       hits1 ? " (the handler ran)" : "", hits2 ? " (the event's handler ran)" : "");
}

/* One case, all its ways, in a process of its own writing to out: the
 * cases run side by side (their waits are sleeps), each with its own
 * signaller, eventer and shared page. */
static pid_t run_case(const struct tcase *c, bool nohandler, int out)
{
	pid_t pid = fork();

	if (pid != 0)
		return pid;
	if (dup2(out, STDOUT_FILENO) < 0)
		_exit(1);
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal_sent_ms = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (signal_sent_ms == MAP_FAILED)
		_exit(1);
	if (nohandler) {
		if (c->restarts_without_handler)
			run(c, BY_NOHANDLER);
	} else {
		run(c, BY_RESTART_HANDLER);
		run(c, BY_HANDLER);
		run(c, BY_STOP);
	}
	fflush(stdout);
	_exit(0);
}

/* Cases at once: enough to take the run from ~70 s to ~20, few enough
 * that a loaded host still wakes each caller well within the margins */
#define CASES_AT_ONCE 8

int main(int argc, char **argv)
{
	bool nohandler = argc > 1 && !strcmp(argv[1], "nohandler");
	size_t n = sizeof(cases) / sizeof(cases[0]);

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (size_t first = 0; first < n; first += CASES_AT_ONCE) {
		size_t end = first + CASES_AT_ONCE < n ? first + CASES_AT_ONCE : n;
		int outs[CASES_AT_ONCE];
		pid_t pids[CASES_AT_ONCE];

		for (size_t i = first; i < end; i++) {
			int p[2];

			if (pipe(p)) {
				perror("pipe");
				return 1;
			}
			pids[i - first] = run_case(&cases[i], nohandler, p[1]);
			close(p[1]);
			outs[i - first] = p[0];
		}
		/* in the cases' order: the output is the same as one by one */
		for (size_t i = first; i < end; i++) {
			char buf[4096];
			ssize_t got;
			int status = 0;

			while ((got = read(outs[i - first], buf, sizeof(buf))) > 0)
				fwrite(buf, 1, (size_t)got, stdout);
			close(outs[i - first]);
			if (waitpid(pids[i - first], &status, 0) < 0 || !WIFEXITED(status) ||
			    WEXITSTATUS(status) != 0)
				printf("%s: the case's process ended badly (status %#x)\n",
				       cases[i].name, status);
		}
	}
	return 0;
}
