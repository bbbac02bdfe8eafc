/* limits: what the guest may do within its resource limits must not
 * depend on sysgate's own needs. With all but one descriptor below
 * RLIMIT_NOFILE in use, execve of a dynamic program (the host's
 * /bin/true: the kernel opens it and its ld.so without descriptors, ld.so
 * then needs one at a time) still runs; with none left, open and pipe
 * fail with EMFILE. (With none left at all, the kernel still execs and
 * ld.so fails; sysgate cannot read a file without a descriptor: not
 * tested, docs/syscalls.md.) */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static void run_true(const char *what)
{
	int st;
	pid_t pid = fork();

	if (pid == 0) {
		char *argv[] = { "true", NULL }, *envp[] = { NULL };

		execve("/bin/true", argv, envp);
		_exit(100 + errno);
	}
	waitpid(pid, &st, 0);
	printf("%-36s %s %d\n", what, WIFEXITED(st) ? "exit" : "signal",
	       WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
}

int main(void)
{
	struct rlimit rl = { 32, 32 };
	int n = 0;

	fflush(stdout);
	if (setrlimit(RLIMIT_NOFILE, &rl)) {
		perror("setrlimit");
		return 1;
	}
	while (open("/dev/null", O_RDONLY) >= 0)
		n++;
	printf("open with none left: %s\n", strerror(errno));
	printf("pipe with none left: %s\n", pipe((int[2]){ 0, 0 }) ? strerror(errno) : "ok");
	close(31);
	run_true("execve /bin/true, one left");
	close(30);
	run_true("execve /bin/true, two left");
	return 0;
}
