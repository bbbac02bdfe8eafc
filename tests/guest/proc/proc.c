/* Processes: fork, vfork, wait4/waitpid/waitid with statuses and rusage,
 * SIGCHLD with its siginfo, execve of itself, of a #! script and of
 * things that cannot run (ENOENT, EACCES, ENOEXEC), posix_spawn, a pipe
 * between parent and child. Output is compared with a native run. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;
static char self[PATH_MAX];
static volatile int chld_code, chld_status, chld_pid_ok;
static volatile pid_t expect_pid;

static void on_chld(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	chld_code = si->si_code;
	chld_status = si->si_status;
	chld_pid_ok = si->si_pid == expect_pid;
}

static void show_status(const char *what, int st)
{
	if (WIFEXITED(st))
		printf("%s: exited %d\n", what, WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		printf("%s: killed by %d\n", what, WTERMSIG(st));
	else
		printf("%s: status %#x\n", what, st);
}

/* Deaths by a signal's default action; the parent must see
 * WIFSIGNALED with that signal (the core-dump bit is not compared). */
static volatile int *volatile bad_ptr = (volatile int *)16;

static void die_as(const char *how)
{
	if (!strcmp(how, "abort"))
		abort();
	if (!strcmp(how, "fault")) {
		*bad_ptr = 1;
	}
	if (!strcmp(how, "kill-segv"))
		kill(getpid(), SIGSEGV);
	if (!strcmp(how, "kill-bus"))
		kill(getpid(), SIGBUS);
	if (!strcmp(how, "ud2"))
		__asm__ volatile("ud2");
	if (!strcmp(how, "term"))
		raise(SIGTERM);
	if (!strcmp(how, "blocked-fault")) {
		sigset_t s;

		/* a blocked fault signal is forced: still death */
		sigemptyset(&s);
		sigaddset(&s, SIGSEGV);
		sigprocmask(SIG_BLOCK, &s, NULL);
		*bad_ptr = 1;
	}
}

static int child_mode(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "exec-child")) {
		printf("exec child: argc=%d", argc);
		for (int i = 2; i < argc; i++)
			printf(" [%s]", argv[i]);
		printf(" env=%s\n", getenv("PROC_TEST") ? getenv("PROC_TEST") : "(none)");
		return 6;
	}
	if (argc >= 2 && !strcmp(argv[1], "script-mode")) {
		/* #!SELF script-mode: argv = SELF script-mode SCRIPT ARGS */
		printf("script: argc=%d last=%s\n", argc, strrchr(argv[argc - 1], '/') ? "path" : argv[argc - 1]);
		return 8;
	}
	if (argc >= 2 && !strcmp(argv[1], "die")) {
		/* an exec'd image that dies of a signal's default action */
		die_as(argv[2]);
		return 30;
	}
	if (argc >= 2 && !strcmp(argv[1], "spawned")) {
		printf("spawned child\n");
		return 9;
	}
	return -1;
}

static void test_fork(void)
{
	struct rusage ru;
	siginfo_t si;
	pid_t pid;
	int st, fds[2];
	char buf[32];

	pid = fork();
	if (pid == 0)
		_exit(3);
	printf("wait4: pid ok=%d\n", wait4(pid, &st, 0, &ru) == pid);
	show_status("fork child", st);

	pid = fork();
	if (pid == 0) {
		for (;;)
			pause();
	}
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	show_status("killed child", st);

	pid = fork();
	if (pid == 0)
		_exit(12);
	memset(&si, 0, sizeof(si));
	waitid(P_PID, (id_t)pid, &si, WEXITED);
	printf("waitid: code=%d status=%d pid ok=%d signo=%d\n", si.si_code, si.si_status,
	       si.si_pid == pid, si.si_signo);

	pid = vfork();
	if (pid == 0)
		_exit(4);
	waitpid(pid, &st, 0);
	show_status("vfork child", st);

	if (pipe(fds) == 0) {
		pid = fork();
		if (pid == 0) {
			close(fds[0]);
			if (write(fds[1], "through the pipe", 17) != 17)
				_exit(1);
			_exit(0);
		}
		close(fds[1]);
		memset(buf, 0, sizeof(buf));
		if (read(fds[0], buf, sizeof(buf)) > 0)
			printf("pipe: %s\n", buf);
		close(fds[0]);
		waitpid(pid, &st, 0);
	}
	st = waitpid(-1, &st, WNOHANG);
	printf("no more children: %d %s\n", st, strerrorname_np(errno));
}

static void test_sigchld(void)
{
	struct sigaction sa;
	sigset_t s, old;
	int st;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_chld;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigaction(SIGCHLD, &sa, NULL);
	sigemptyset(&s);
	sigaddset(&s, SIGCHLD);
	sigprocmask(SIG_BLOCK, &s, &old);
	expect_pid = fork();
	if (expect_pid == 0)
		_exit(21);
	sigsuspend(&old);
	sigprocmask(SIG_SETMASK, &old, NULL);
	waitpid(expect_pid, &st, 0);
	printf("SIGCHLD: code=%d status=%d pid ok=%d\n", chld_code, chld_status, chld_pid_ok);
	signal(SIGCHLD, SIG_DFL);
}

static void run_exec(const char *what, const char *path, char *const argv[])
{
	pid_t pid;
	int st;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		char *envp[] = { "PROC_TEST=yes", NULL };

		execve(path, argv, envp);
		printf("%s: execve failed: %s\n", what, strerrorname_np(errno));
		_exit(127);
	}
	waitpid(pid, &st, 0);
	show_status(what, st);
}

static void test_exec(const char *dir)
{
	char script[PATH_MAX + 16], text[PATH_MAX + 16], noexec[PATH_MAX + 16];
	char *argv[] = { self, "exec-child", "one", "two words", NULL };
	char *sargv[] = { script, "sarg", NULL };
	FILE *f;

	run_exec("exec self", self, argv);
	snprintf(script, sizeof(script), "%s/script", dir);
	f = fopen(script, "w");
	fprintf(f, "#!%s script-mode\n", self);
	fclose(f);
	chmod(script, 0755);
	run_exec("exec script", script, sargv);

	snprintf(text, sizeof(text), "%s/text", dir);
	f = fopen(text, "w");
	fprintf(f, "just text\n");
	fclose(f);
	chmod(text, 0755);
	argv[0] = text;
	run_exec("exec text", text, argv);
	snprintf(noexec, sizeof(noexec), "%s/noexec", dir);
	f = fopen(noexec, "w");
	fclose(f);
	chmod(noexec, 0644);
	argv[0] = noexec;
	run_exec("exec no x bit", noexec, argv);
	argv[0] = "/nonexistent/prog";
	run_exec("exec missing", "/nonexistent/prog", argv);
	run_exec("exec directory", dir, argv);
	argv[0] = self;
}

static void test_die(void)
{
	static const char *const hows[] = {
		"abort", "fault", "kill-segv", "kill-bus", "ud2", "term", "blocked-fault",
	};
	char how[32], label[64];
	char *argv[] = { self, "die", how, NULL };
	pid_t pid;
	int st;

	for (unsigned i = 0; i < sizeof(hows) / sizeof(hows[0]); i++) {
		snprintf(how, sizeof(how), "%s", hows[i]);
		fflush(stdout);
		pid = fork();
		if (pid == 0) {
			die_as(how);
			_exit(30);
		}
		waitpid(pid, &st, 0);
		snprintf(label, sizeof(label), "die %s in a fork", how);
		show_status(label, st);
		snprintf(label, sizeof(label), "die %s after exec", how);
		run_exec(label, self, argv);
	}
}

/* execveat: relative to a directory fd, an fd itself (AT_EMPTY_PATH, as
 * fexecve), a symlink refused with AT_SYMLINK_NOFOLLOW, a bad flag. */
static void run_execveat(const char *what, int dirfd, const char *path, char *const argv[],
			 int flags)
{
	pid_t pid;
	int st;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		char *envp[] = { "PROC_TEST=at", NULL };

		syscall(SYS_execveat, dirfd, path, argv, envp, flags);
		printf("%s: execveat failed: %s\n", what, strerrorname_np(errno));
		_exit(127);
	}
	waitpid(pid, &st, 0);
	show_status(what, st);
}

static void test_execveat(const char *dir)
{
	char *argv[] = { self, "exec-child", "at", NULL };
	char link[PATH_MAX + 16], *slash = strrchr(self, '/');
	char selfdir[PATH_MAX];
	int dfd, fd;

	snprintf(selfdir, sizeof(selfdir), "%.*s", (int)(slash - self), self);
	dfd = open(selfdir, O_RDONLY | O_DIRECTORY);
	run_execveat("execveat dirfd", dfd, slash + 1, argv, 0);
	close(dfd);
	fd = open(self, O_RDONLY);
	run_execveat("execveat AT_EMPTY_PATH", fd, "", argv, AT_EMPTY_PATH);
	run_execveat("execveat empty path without the flag", fd, "", argv, 0);
	close(fd);
	snprintf(link, sizeof(link), "%s/link", dir);
	if (symlink(self, link) == 0) {
		run_execveat("execveat symlink", AT_FDCWD, link, argv, 0);
		run_execveat("execveat AT_SYMLINK_NOFOLLOW", AT_FDCWD, link, argv,
			     AT_SYMLINK_NOFOLLOW);
		unlink(link);
	}
	run_execveat("execveat bad flag", AT_FDCWD, self, argv, 0x1);
}

static void *fork_in_thread(void *arg)
{
	pid_t pid = fork();
	int st;

	(void)arg;
	if (pid == 0)
		_exit(13); /* the child's only thread is this one */
	waitpid(pid, &st, 0);
	show_status("fork from a thread", st);
	return NULL;
}

static void *thread_child_exits(void *arg)
{
	(void)arg;
	exit(14);
}

static void test_fork_threads(void)
{
	pthread_t th;
	pid_t pid;
	int st;

	pthread_create(&th, NULL, fork_in_thread, NULL);
	pthread_join(th, NULL);
	/* a forked child whose second thread ends the process */
	pid = fork();
	if (pid == 0) {
		pthread_create(&th, NULL, thread_child_exits, NULL);
		for (;;)
			pause();
	}
	waitpid(pid, &st, 0);
	show_status("exit from a child's thread", st);
}

static void test_spawn(void)
{
	char *argv[] = { self, "spawned", NULL };
	pid_t pid;
	int st, r;

	fflush(stdout);
	r = posix_spawn(&pid, self, NULL, NULL, argv, environ);
	waitpid(pid, &st, 0);
	printf("posix_spawn: %d\n", r);
	show_status("spawned", st);
}

int main(int argc, char **argv)
{
	ssize_t n;
	int r = child_mode(argc, argv);

	if (r >= 0)
		return r;
	setvbuf(stdout, NULL, _IONBF, 0);
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return 1;
	self[n] = 0;
	test_fork();
	test_sigchld();
	test_exec(argc > 1 ? argv[1] : "/tmp");
	test_execveat(argc > 1 ? argv[1] : "/tmp");
	test_spawn();
	test_fork_threads();
	test_die();
	return 0;
}
