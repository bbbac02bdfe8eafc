/* The signal program of the gdb tests (tests/e2e/gdb): a handled
 * SIGUSR1, then (no argument) a SIGSEGV nobody handles, or (argument
 * "spin") a loop that only gdb can end, by setting stop_spinning after
 * interrupting it with Ctrl-C. */
#include <signal.h>
#include <stdio.h>
#include <string.h>

volatile int spins;
volatile int stop_spinning;

static void on_usr1(int sig __attribute__((unused)))
{
	spins += 1000;
}

int main(int argc, char **argv)
{
	signal(SIGUSR1, on_usr1);
	raise(SIGUSR1); /* MARK: raise */
	printf("spins %d\n", spins);
	fflush(stdout);
	if (argc > 1 && !strcmp(argv[1], "spin")) {
		while (!stop_spinning)
			spins++; /* MARK: spin */
		printf("stopped spinning\n");
		return 0;
	}
	*(volatile int *)8 = 1; /* MARK: segv */
	return 0;
}
