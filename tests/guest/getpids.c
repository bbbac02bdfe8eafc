/* getpids N: N getpid calls (the hooked-call cost, examples/hook_cost.c);
 * exit 0. */
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000;

	for (long i = 0; i < n; i++)
		syscall(SYS_getpid);
	return 0;
}
