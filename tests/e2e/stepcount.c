/* stepcount PROGRAM [ARGS...]: runs PROGRAM natively under ptrace, one
 * PTRACE_SINGLESTEP at a time, and prints how many instructions it
 * executed up to its end (the last one, exit_group's system call,
 * included): the reality e2e.stats.* compares sysgate --stats with.
 * Meant for straight-line asm guests: a REP string instruction steps
 * once per iteration here. Status: 0, or 2 when the program could not
 * be traced (no ptrace in this container, an exec failure). */
#include <signal.h>
#include <stdio.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	unsigned long long steps = 0;
	int status, sig = 0;
	pid_t pid;

	if (argc < 2) {
		fprintf(stderr, "usage: stepcount PROGRAM [ARGS...]\n");
		return 2;
	}
	pid = fork();
	if (pid < 0)
		return 2;
	if (pid == 0) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) != 0)
			_exit(126);
		execv(argv[1], argv + 1);
		_exit(127);
	}
	/* the stop at the exec, before the first instruction */
	if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status))
		return 2;
	for (;;) {
		if (ptrace(PTRACE_SINGLESTEP, pid, NULL, (void *)(long)sig) != 0)
			return 2;
		if (waitpid(pid, &status, 0) != pid)
			return 2;
		if (!WIFSTOPPED(status)) {
			steps++; /* the instruction that ended it (exit_group) */
			break;
		}
		/* a trap after one instruction; any other signal is the
		 * program's own, handed on with the next step */
		sig = WSTOPSIG(status) == SIGTRAP ? 0 : WSTOPSIG(status);
		if (!sig)
			steps++;
	}
	printf("%llu\n", steps);
	return 0;
}
