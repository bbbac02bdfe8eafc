/* isolation_check GUEST_DIR: a guest in a process of its own
 * (SG_MODE_OWN_PROCESS, the default) cannot hurt the program embedding it
 * (issue 20, points 3 and 4), built against the installed library
 * (check_install.sh). GUEST_DIR/isolate-{i386,x32,x86_64} (tests/guest/
 * isolate.c); the expected statuses come from running isolate-x86_64
 * natively (the same source; the x32 and i386 builds' twin, so this runs
 * where i386 code cannot).
 *
 *   abort, term   the guest dies of the signal, sg_run says so (the
 *                 embedder lived on: it goes on checking)
 *   close         the embedder's 0, 1, 2 are still open, the same files
 *   cwd           the embedder's working directory and umask unchanged
 *   fds           30 runs leave the embedder's descriptors as they were
 *   count         a descriptor of the embedder's (no FD_CLOEXEC) is not
 *                 open in the guest: it has as many as natively spawned
 *   fork          sg_run returns once, in the embedder only
 *   at once       two 32-bit guests (i386, x32), and two static non-PIE
 *                 x86_64 ones, loaded and run at the same time
 *   hooks         in the embedder, on sg_run's thread; they hold over
 *                 the guest's fork: exit_group + 10 in parent and child
 *   gdb           sg_gdb_attach: the stub in the guest's process answers
 *                 the first stop and the exit (as natively) by hand
 *   stdio         stdout_fd: hello's output lands in a pipe (natively
 *                 its stdout: the same text)
 */
#define _GNU_SOURCE
#include <asm/unistd_64.h>
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <sysgate.h>
#include "api_check.h"

extern char **environ;
static char dir[4096];

static void guest_path(char *buf, size_t size, const char *abi)
{
	snprintf(buf, size, "%s/isolate-%s", dir, abi);
}

/* The native run's status, as an sg_exit. */
static struct sg_exit native(const char *mode)
{
	char path[4200];
	struct sg_exit e = { 0 };
	int ws = 0;
	pid_t pid;

	guest_path(path, sizeof(path), "x86_64");
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		/* the same stdio the library run gets below: /dev/null, and
		 * nothing else open, as a program spawned with only 0, 1, 2 */
		dup2(null, 0);
		dup2(null, 1);
		for (int fd = 3; fd < 1024; fd++)
			close(fd);
		execl(path, path, mode, (char *)NULL);
		_exit(127);
	}
	waitpid(pid, &ws, 0);
	e.signaled = WIFSIGNALED(ws);
	e.signal = e.signaled ? WTERMSIG(ws) : 0;
	e.code = e.signaled ? 0 : WEXITSTATUS(ws);
	return e;
}

static sg_process *load(const char *abi, const char *mode, int out_fd)
{
	char path[4200];
	char *argv[] = { path, (char *)mode, NULL };
	struct sg_options o;
	sg_process *p = NULL;
	enum sg_err err;

	guest_path(path, sizeof(path), abi);
	sg_options_init(&o);
	o.stdin_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	o.stdout_fd = out_fd >= 0 ? out_fd : open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (sg_create(&o, &p) != SG_OK)
		return NULL;
	err = sg_load(p, path, argv, environ);
	close(o.stdin_fd);
	if (out_fd < 0)
		close(o.stdout_fd);
	if (err != SG_OK) {
		fprintf(stderr, "isolation_check: load %s: %s\n", path, sg_strerror(err));
		sg_destroy(p);
		return NULL;
	}
	return p;
}

static int same_exit(const struct sg_exit *a, const struct sg_exit *b)
{
	return a->signaled == b->signaled &&
	       (a->signaled ? a->signal == b->signal : a->code == b->code);
}

/* Run MODE on abi; its status against the native one. */
static void run_mode(const char *abi, const char *mode)
{
	struct sg_exit want = native(mode), st = { 0 };
	sg_process *p = load(abi, mode, -1);

	CHECK(p && sg_run(p, &st) == SG_OK && same_exit(&st, &want),
	      "%s %s: signaled %d signal %d code %d, natively signaled %d signal %d code %d",
	      abi, mode, st.signaled, st.signal, st.code, want.signaled, want.signal, want.code);
	sg_destroy(p);
}

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	while (d && readdir(d))
		n++;
	if (d)
		closedir(d);
	return n;
}

struct concurrent {
	sg_process *p;
	struct sg_exit st;
	enum sg_err err;
};

static void *run_thread(void *arg)
{
	struct concurrent *c = arg;

	c->err = sg_run(c->p, &c->st);
	return NULL;
}

/* Two guests loaded at the same time, run in two threads at once. */
static void at_once(const char *abi1, const char *abi2)
{
	struct sg_exit want = native("cwd");
	struct concurrent c[2] = { { .p = load(abi1, "cwd", -1) }, { .p = load(abi2, "cwd", -1) } };
	pthread_t th[2];

	CHECK(c[0].p && c[1].p, "%s and %s loaded at the same time", abi1, abi2);
	if (!c[0].p || !c[1].p) {
		sg_destroy(c[0].p);
		sg_destroy(c[1].p);
		return;
	}
	for (int i = 0; i < 2; i++)
		pthread_create(&th[i], NULL, run_thread, &c[i]);
	for (int i = 0; i < 2; i++) {
		pthread_join(th[i], NULL);
		CHECK(c[i].err == SG_OK && same_exit(&c[i].st, &want), "%s at once: code %d (native %d)",
		      i ? abi2 : abi1, c[i].st.code, want.code);
		sg_destroy(c[i].p);
	}
}

/* One packet of the GDB remote protocol out ($text#checksum), the reply's
 * text back (acks skipped and given); false on a timeout (10 s). */
static bool gdb_ask(int fd, const char *text, char *reply, size_t size)
{
	char out[256];
	unsigned sum = 0;
	size_t n = 0;
	bool in = false;

	for (const char *c = text; *c; c++)
		sum += (unsigned char)*c;
	snprintf(out, sizeof(out), "$%s#%02x", text, sum & 0xff);
	if (send(fd, out, strlen(out), MSG_NOSIGNAL) < 0)
		return false;
	for (;;) {
		struct pollfd pf = { .fd = fd, .events = POLLIN };
		char ch;

		if (poll(&pf, 1, 10000) != 1 || read(fd, &ch, 1) != 1)
			return false;
		if (!in) {
			in = ch == '$';
			continue;
		}
		if (ch == '#') {
			char cs[2];

			reply[n] = 0;
			if (read(fd, cs, 2) != 2)
				return false;
			/* the ack; after an exit reply (W, X) the guest's process
			 * may be gone already, its socket closed: no SIGPIPE, and
			 * the reply stands (the stub needs no ack of its last) */
			if (send(fd, "+", 1, MSG_NOSIGNAL) != 1 && reply[0] != 'W' && reply[0] != 'X')
				return false;
			return true;
		}
		if (n + 1 < size)
			reply[n++] = ch;
	}
}

/* Where the hooks ran: this process, the thread in sg_run. */
struct where {
	pid_t pid;
	pthread_t thread;
	int calls, elsewhere;
	int tids[2];
};

static enum sg_hook_action exit_plus_10(sg_process *p, struct sg_syscall_info *info, void *user)
{
	struct where *w = user;

	(void)p;
	if (getpid() != w->pid || !pthread_equal(pthread_self(), w->thread))
		w->elsewhere++;
	if (w->calls < 2)
		w->tids[w->calls] = info->tid;
	w->calls++;
	info->args[0] += 10;
	return SG_HOOK_CONTINUE;
}

/* On the guest's fork (in its parent process): exit_group + 10 from now
 * on, added inside the hook. */
static void add_on_fork(sg_process *p, const struct sg_event_info *ev, void *user)
{
	static const unsigned exit_group_nr[] = { __NR_exit_group };

	if (ev->event == SG_EVENT_FORK)
		sg_hook_syscall_nrs(p, SG_ABI_X64, exit_group_nr, 1, SG_HOOK_ON_ENTRY,
				    exit_plus_10, user, NULL);
}

int main(int argc, char **argv)
{
	static const char *const abis[] = { "x86_64", "i386", "x32" };
	struct stat before[3], after[3];
	char cwd[4096], cwd_after[4096];
	mode_t mask;
	pid_t self = getpid();
	int marks[2];

	if (argc != 2)
		return 2;
	snprintf(dir, sizeof(dir), "%s", argv[1]);
	for (int i = 0; i < 3; i++)
		fstat(i, &before[i]);
	if (!getcwd(cwd, sizeof(cwd)))
		return 2;
	mask = umask(022);
	umask(mask);
	if (pipe2(marks, O_CLOEXEC | O_NONBLOCK) != 0)
		return 2;

	for (size_t a = 0; a < sizeof(abis) / sizeof(abis[0]); a++) {
		const char *abi = abis[a];
		char mark;

		/* deaths by signal come back as the status */
		run_mode(abi, "abort");
		run_mode(abi, "term");
		/* the guest's close(0..2) */
		run_mode(abi, "close");
		for (int i = 0; i < 3; i++)
			CHECK(fstat(i, &after[i]) == 0 && after[i].st_ino == before[i].st_ino &&
			      after[i].st_dev == before[i].st_dev,
			      "%s close: the embedder's descriptor %d closed or changed", abi, i);
		/* its chdir and umask */
		run_mode(abi, "cwd");
		CHECK(getcwd(cwd_after, sizeof(cwd_after)) && !strcmp(cwd, cwd_after),
		      "%s cwd: the embedder's is now %s", abi, cwd_after);
		CHECK(umask(mask) == mask, "%s cwd: the embedder's umask changed", abi);
		/* its fork: sg_run returns in the embedder only */
		{
			struct sg_exit want = native("fork"), st = { 0 };
			sg_process *p = load(abi, "fork", -1);
			enum sg_err err = p ? sg_run(p, &st) : SG_ERR_STATE;

			if (getpid() != self) {
				/* a second process returned from sg_run */
				if (write(marks[1], "x", 1) < 0)
					_exit(98);
				_exit(99);
			}
			CHECK(err == SG_OK && same_exit(&st, &want), "%s fork: code %d (native %d)",
			      abi, st.code, want.code);
			CHECK(read(marks[0], &mark, 1) != 1, "%s fork: sg_run returned twice", abi);
			sg_destroy(p);
		}
	}
	/* nothing of the embedder's is open in the guest's process: a
	 * descriptor without FD_CLOEXEC here is not there */
	{
		int leak = open("/dev/null", O_RDONLY);

		run_mode("x86_64", "count");
		close(leak);
	}
	/* descriptors the guest leaves open stay in its process */
	{
		int n0 = count_fds(), n1;

		for (int i = 0; i < 30; i++)
			run_mode(abis[i % 3], "fds");
		n1 = count_fds();
		CHECK(n1 == n0, "fds: %d descriptors before 30 runs, %d after", n0, n1);
	}
	/* several guests at once */
	at_once("i386", "x32");
	at_once("i386", "i386");
	at_once("x86_64", "x86_64"); /* static, non-PIE: the same addresses */
	/* hooks run here and hold over the guest's fork: its child's
	 * exit_group(6) becomes 16, the parent's 16 + 1 becomes 27 */
	{
		static const unsigned exit_group_nr[] = { __NR_exit_group };
		struct sg_exit want = native("fork"), st = { 0 };
		struct where w = { .pid = getpid(), .thread = pthread_self() };
		sg_process *p = load("x86_64", "fork", -1);

		CHECK(p && sg_hook_syscall_nrs(p, SG_ABI_X64, exit_group_nr, 1, SG_HOOK_ON_ENTRY,
					       exit_plus_10, &w, NULL) == SG_OK, "fork hooks: hook");
		CHECK(p && sg_run(p, &st) == SG_OK && !st.signaled && st.code == want.code + 20,
		      "fork hooks: status %d, natively %d (+ 20 expected)", st.code, want.code);
		CHECK(w.calls == 2 && w.tids[0] != w.tids[1] && !w.elsewhere,
		      "fork hooks: %d calls (tids %d %d), %d not on sg_run's thread", w.calls,
		      w.tids[0], w.tids[1], w.elsewhere);
		sg_destroy(p);
	}
	/* memory in pieces bigger than one message: 256 KiB written and read
	 * back; with a hole in the middle a read fails and copies nothing,
	 * a write fails */
	{
		size_t n = 256 * 1024;
		uint8_t *out = malloc(n), *in = malloc(n + 4096);
		uint64_t a = 0;
		sg_process *p = load("x86_64", "cwd", -1);

		for (size_t i = 0; out && i < n; i++)
			out[i] = (uint8_t)(i * 7 + i / 251);
		CHECK(p && out && in && sg_mem_map(p, &a, n, 3 /* PROT_READ | PROT_WRITE */) == SG_OK &&
		      sg_mem_write(p, a, out, n) == SG_OK && sg_mem_read(p, a, in, n) == SG_OK &&
		      !memcmp(in, out, n), "256 KiB through the channel");
		if (in)
			memset(in, 0x5a, n + 4096);
		CHECK(p && in && sg_mem_unmap(p, a + n / 2, 4096) == SG_OK &&
		      sg_mem_read(p, a, in, n) == SG_ERR_FAULT && in[0] == 0x5a && in[n - 8192] == 0x5a,
		      "a read over a hole: not SG_ERR_FAULT, or bytes copied");
		CHECK(p && out && sg_mem_write(p, a, out, n) == SG_ERR_FAULT, "a write over a hole");
		sg_destroy(p);
		free(out);
		free(in);
	}
	/* a hook added inside a hook holds for that process from its next
	 * call: the parent's exit_group(7) becomes 17 (its child's
	 * exit_group came before, or its hooks had passed: still 6) */
	{
		struct sg_exit want = native("fork"), st = { 0 };
		struct where w = { .pid = getpid(), .thread = pthread_self() };
		sg_process *p = load("x86_64", "fork", -1);

		CHECK(p && sg_hook_event(p, add_on_fork, &w) == SG_OK &&
		      sg_run(p, &st) == SG_OK && !st.signaled && st.code == want.code + 10,
		      "hook added in a hook: status %d, natively %d (+ 10 expected)", st.code,
		      want.code);
		sg_destroy(p);
	}
	/* options: stdio of its own is for a process of its own */
	{
		struct sg_options o;
		sg_process *p = NULL;

		sg_options_init(&o);
		o.mode = SG_MODE_IN_PROCESS;
		o.stdout_fd = 1;
		CHECK(sg_create(&o, &p) == SG_ERR_INVAL, "stdout_fd in-process accepted");
		sg_options_init(&o);
		o.mode = (enum sg_mode)7;
		CHECK(sg_create(&o, &p) == SG_ERR_INVAL, "mode 7 accepted");
	}
	/* gdb: the stub serves in the guest's process; a few packets of the
	 * remote protocol by hand: the stop before the first instruction,
	 * continue, the exit as hello ends natively (W, its status in hex) */
	{
		struct sg_exit want = native("cwd");
		struct concurrent c = { .p = load("x86_64", "cwd", -1) };
		char reply[512], expect[16];
		pthread_t th;
		int sv[2];

		if (c.p && socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0) {
			CHECK(sg_gdb_attach(c.p, sv[0], 0) == SG_OK, "gdb attach");
			close(sv[0]);
			pthread_create(&th, NULL, run_thread, &c);
			CHECK(gdb_ask(sv[1], "?", reply, sizeof(reply)) &&
			      (reply[0] == 'T' || reply[0] == 'S') && !strncmp(reply + 1, "05", 2),
			      "gdb: the first stop '%s' (SIGTRAP expected)", reply);
			snprintf(expect, sizeof(expect), "W%02x", want.code);
			CHECK(gdb_ask(sv[1], "c", reply, sizeof(reply)) && !strncmp(reply, expect, 3),
			      "gdb: after continue '%s', natively the exit %s", reply, expect);
			pthread_join(th, NULL);
			CHECK(c.err == SG_OK && same_exit(&c.st, &want), "gdb: status %d", c.st.code);
			close(sv[1]);
		}
		sg_destroy(c.p);
	}
	/* stdio as given: hello's output into a pipe, as it writes natively */
	{
		char path[4200], want[256] = { 0 }, got[256] = { 0 };
		char *av[] = { path, NULL };
		int pipefd[2];
		struct sg_options o;
		struct sg_exit st = { 0 };
		sg_process *p = NULL;
		FILE *f;
		int code = -1;

		snprintf(path, sizeof(path), "%s/hello-x86_64", dir);
		f = popen(path, "r");
		if (f) {
			if (fread(want, 1, sizeof(want) - 1, f) == 0)
				want[0] = 0;
			code = pclose(f);
			code = WIFEXITED(code) ? WEXITSTATUS(code) : -1;
		}
		if (pipe2(pipefd, O_CLOEXEC) == 0) {
			sg_options_init(&o);
			o.stdout_fd = pipefd[1];
			CHECK(sg_create(&o, &p) == SG_OK && sg_load(p, path, av, environ) == SG_OK &&
			      sg_run(p, &st) == SG_OK && st.code == code,
			      "stdio: hello's status %d, natively %d", st.code, code);
			sg_destroy(p);
			close(pipefd[1]);
			if (read(pipefd[0], got, sizeof(got) - 1) < 0)
				got[0] = 0;
			close(pipefd[0]);
			CHECK(want[0] && !strcmp(got, want), "stdio: '%s' in the pipe, natively '%s'", got, want);
		}
	}
	if (failures)
		return 1;
	fprintf(stderr, "isolation_check: all checks passed\n");
	return 0;
}
