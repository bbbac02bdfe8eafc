/* What an execve resets and what it keeps, as the new image sees it, and
 * execs that fail returning to the old image with the kernel's errno.
 * Usage: sys_execreset DIR. The program sets handlers, an ignored signal,
 * action flags and masks, a blocked and a pending signal, an alternate
 * stack, then in a fork child a pending signal, a POSIX timer, an
 * interval timer, close-on-exec and inherited descriptors, and execs
 * itself as "sys_execreset DIR check FD FD TIMER -", which prints what it
 * finds; then a vfork child execs it as "... wait ... FD", which waits
 * for a byte the parent writes once the exec let it go on. sysgate may load the new program in place
 * (docs/syscalls.md, execve): each of these is then its own work. */
#include "sys.h"
#include <fcntl.h>
#include <signal.h>
#include <time.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>

extern char **environ;

static void on_signal(int sig)
{
	(void)sig;
}

static const char *errno_text(int e)
{
	switch (e) {
	case E2BIG: return "E2BIG";
	case ENOEXEC: return "ENOEXEC";
	case ELOOP: return "ELOOP";
	case ELIBBAD: return "ELIBBAD";
	default: return err_name(e);
	}
}

static int check(int cloexec_fd, int kept_fd, long timer)
{
	const int sigs[] = { SIGHUP, SIGINT, SIGQUIT, SIGUSR1, SIGUSR2, SIGPIPE,
				    SIGALRM, SIGTERM, SIGCHLD, SIGWINCH, SIGRTMIN + 2 };
	struct itimerspec its;
	struct itimerval itv;
	sigset_t blocked, pending;
	stack_t ss;

	printf("after exec:\n");
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction sa;
		int empty = 1;

		sigaction(sigs[i], NULL, &sa);
		for (int s = 1; s < 32; s++)
			if (sigismember(&sa.sa_mask, s))
				empty = 0;
		printf("  signal %d: %s, flags %#x, mask %s\n", sigs[i] == SIGRTMIN + 2 ? 99 : sigs[i],
		       sa.sa_handler == SIG_DFL ? "default" :
		       sa.sa_handler == SIG_IGN ? "ignored" : "handled",
		       (unsigned)sa.sa_flags & ~0x04000000u /* SA_RESTORER */,
		       empty ? "empty" : "set");
	}
	sigprocmask(SIG_BLOCK, NULL, &blocked);
	sigpending(&pending);
	printf("  SIGHUP blocked %d, SIGINT blocked %d pending %d\n",
	       sigismember(&blocked, SIGHUP), sigismember(&blocked, SIGINT),
	       sigismember(&pending, SIGINT));
	sigaltstack(NULL, &ss);
	printf("  altstack %s\n", ss.ss_flags & SS_DISABLE ? "disabled" : "enabled");
	errno = 0;
	printf("  the old POSIX timer: %s\n",
	       syscall(SYS_timer_gettime, (int)timer, &its) ? errno_text(errno) : "alive");
	getitimer(ITIMER_REAL, &itv);
	printf("  interval timer %s\n", itv.it_value.tv_sec > 100 ? "kept" : "gone");
	printf("  close-on-exec fd %s, inherited fd %s\n",
	       fcntl(cloexec_fd, F_GETFD) < 0 ? "closed" : "open",
	       fcntl(kept_fd, F_GETFD) < 0 ? "closed" : "open");
	return 0;
}

/* An exec that must fail: the old image goes on. */
static void must_fail(const char *label, const char *path, char **argv)
{
	errno = 0;
	execve(path, argv, environ);
	printf("%s: -1 %s, the old image goes on\n", label, errno_text(errno));
}

static void write_file(const char *path, const void *data, size_t len, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);

	if (fd < 0 || write(fd, data, len) != (ssize_t)len)
		exit(3);
	close(fd);
	chmod(path, mode);
}

/* /bin/true (a dynamic host program) with its interpreter renamed to one
 * that does not exist. 0: no such program here. */
static int copy_without_interp(const char *to)
{
	static char buf[4 << 20];
	const char *names[] = { "/lib64/ld-linux-x86-64.so.2", "/lib/ld-linux.so.2" };
	int fd = open("/bin/true", O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf));

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return 0;
	for (size_t k = 0; k < 2; k++) {
		size_t len = strlen(names[k]);

		for (ssize_t i = 0; i + (ssize_t)len <= n; i++) {
			if (!memcmp(buf + i, names[k], len)) {
				memcpy(buf + i + len - 4, "XX", 2); /* ".so.2" -> ".XX.2" */
				write_file(to, buf, (size_t)n, 0755);
				return 1;
			}
		}
	}
	return 0;
}

static void failures(const char *dir, char *self)
{
	char path[4096], *argv[] = { self, NULL };
	static char big[200 << 10];
	char *bigv[] = { self, big, NULL };
	static char *many[64];

	printf("failing execs:\n");
	snprintf(path, sizeof(path), "%s/missing", dir);
	must_fail("a missing file", path, argv);
	must_fail("a directory", dir, argv);
	snprintf(path, sizeof(path), "%s/text", dir);
	write_file(path, "just some text\n", 15, 0755);
	must_fail("a file of text", path, argv);
	snprintf(path, sizeof(path), "%s/script", dir);
	write_file(path, "#!/nonexistent/interpreter\n", 27, 0755);
	must_fail("a script whose interpreter is missing", path, argv);
	snprintf(path, sizeof(path), "%s/elf-no-interp", dir);
	if (copy_without_interp(path))
		must_fail("an ELF whose interpreter is missing", path, argv);
	else
		printf("an ELF whose interpreter is missing: -1 ENOENT, the old image goes on\n");
	memset(big, 'a', sizeof(big) - 1);
	must_fail("a 200 KiB argument", "/proc/self/exe", bigv);
	/* 40 x 100 KiB: more than a quarter of the 8 MiB stack limit */
	many[0] = self;
	for (int i = 1; i <= 40; i++)
		many[i] = big + sizeof(big) - (100 << 10);
	must_fail("4 MB of arguments", "/proc/self/exe", many);
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	struct itimerval itv = { .it_value = { .tv_sec = 1000 } };
	sigset_t set;
	stack_t ss;
	timer_t timer = 0;
	char a[16], b[16], tid[16], go[16];
	char *cargv[] = { argv[0], argv[1], "check", a, b, tid, go, NULL };
	int status, pipefd[2];
	pid_t pid;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc > 6 && !strcmp(argv[2], "wait")) {
		char c;

		return read(atoi(argv[6]), &c, 1) == 1 ? 0 : 5;
	}
	if (argc > 6 && !strcmp(argv[2], "check"))
		return check(atoi(argv[3]), atoi(argv[4]), atol(argv[5]));
	if (argc < 2)
		return 2;

	failures(argv[1], argv[0]);

	signal(SIGUSR1, on_signal);
	signal(SIGUSR2, SIG_IGN);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART | SA_NODEFER;
	sigaddset(&sa.sa_mask, SIGQUIT);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGRTMIN + 2, &sa, NULL);
	sa.sa_handler = SIG_IGN; /* ignored with flags and a mask: both go */
	sigaction(SIGPIPE, &sa, NULL);
	sa.sa_handler = SIG_DFL;
	sigaction(SIGWINCH, &sa, NULL);
	sigemptyset(&set);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGINT);
	sigprocmask(SIG_BLOCK, &set, NULL);
	raise(SIGINT); /* pending across the exec */
	ss.ss_sp = malloc(1 << 16);
	ss.ss_size = 1 << 16;
	ss.ss_flags = 0;
	sigaltstack(&ss, NULL);
	if (pipe(pipefd))
		return 6;

	printf("fork and exec:\n");
	pid = fork();
	if (pid == 0) {
		/* a fork child's own: pending signals, timers */
		raise(SIGINT); /* pending across the exec */
		if (syscall(SYS_timer_create, CLOCK_MONOTONIC, NULL, &timer))
			_exit(4);
		setitimer(ITIMER_REAL, &itv, NULL);
		snprintf(a, sizeof(a), "%d", open("/dev/null", O_RDONLY | O_CLOEXEC));
		snprintf(b, sizeof(b), "%d", open("/dev/null", O_RDONLY));
		snprintf(tid, sizeof(tid), "%ld", (long)(intptr_t)timer);
		snprintf(go, sizeof(go), "-1");
		execve("/proc/self/exe", cargv, environ);
		_exit(99);
	}
	waitpid(pid, &status, 0);
	printf("  status %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));

	/* the vfork parent goes on at the child's exec: the new image waits
	 * for a byte the parent writes then */
	printf("vfork and exec:\n");
	snprintf(go, sizeof(go), "%d", pipefd[0]);
	cargv[2] = "wait";
	pid = vfork();
	if (pid == 0) {
		execve("/proc/self/exe", cargv, environ);
		_exit(99);
	}
	if (write(pipefd[1], "", 1) != 1)
		return 7;
	waitpid(pid, &status, 0);
	printf("  the vfork parent went on, status %d\n",
	       WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	return 0;
}
