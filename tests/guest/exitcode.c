/* exitcode N: exit(N), so the parent sees N & 0xff. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: exitcode N\n");
		return 100;
	}
	exit((int)strtol(argv[1], NULL, 0));
}
