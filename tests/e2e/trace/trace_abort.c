/* Deaths by signals that are not faults: a child killed by another
 * process's SIGTERM, then the program itself by abort()'s SIGABRT. */
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
	int p[2], status;
	char c;
	pid_t child;
	sigset_t chld;

	if (pipe(p) != 0)
		return 1;
	child = fork();
	if (child == 0) {
		close(p[0]);
		if (write(p[1], "r", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(p[1]);
	if (read(p[0], &c, 1) != 1)
		return 1;
	/* time for the child to be in pause(), so that both traces show it
	 * interrupted (there is no way for it to say it is there) */
	usleep(500000);
	/* SIGCHLD held until the child is reaped: delivered at the unblock,
	 * not before or after wait4 as the child's death races the parent */
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);
	kill(child, SIGTERM);
	waitpid(child, &status, 0);
	sigprocmask(SIG_UNBLOCK, &chld, NULL);
	abort();
}
