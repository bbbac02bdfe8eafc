/* forkexec: a fork whose child exits 5, then an execve that fails
 * (ENOENT); exits with the child's status + 1 = 6. api_more_check.c
 * counts the events (one fork, one exec, the exit_group) against this. */
#include <errno.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
	char *argv[] = { "/nonexistent/prog", NULL };
	char *envp[] = { NULL };
	pid_t pid = fork();
	int st = 0;

	if (pid == 0)
		_exit(5);
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return 1;
	execve(argv[0], argv, envp);
	return errno == ENOENT ? WEXITSTATUS(st) + 1 : 2;
}
