/* The fork and exec program of the gdb tests (tests/e2e/gdb): a child
 * that gdb lets go (detach-on-fork) and that exits 3 through after_fork
 * (where gdb has a breakpoint in the parent), a vfork child that exits 4,
 * then an execve of argv[1] with the arguments after it (this program
 * again, then gdbprog), whose breakpoints gdb must find after reloading
 * the symbols of the new image. */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) int after_fork(int status)
{
	return status; /* MARK: after-fork */
}

int main(int argc, char **argv)
{
	pid_t child = fork();
	int st = 0;

	if (child == 0) /* through the breakpointed function: gdb let go of
			   the child, its copy of the code must be the program's */
		_exit(after_fork(3));
	waitpid(child, &st, 0);
	after_fork(WEXITSTATUS(st));
	child = vfork();
	if (child == 0)
		_exit(4);
	waitpid(child, &st, 0);
	after_fork(WEXITSTATUS(st));
	if (argc > 1)
		execv(argv[1], argv + 1);
	return 1;
}
