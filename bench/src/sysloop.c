/* sysloop: N one-byte read(0) + write(1) pairs, like `dd bs=1`: the cost of
 * a system call round trip through the emulator, nothing else. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000;
	long i, moved = 0;
	char c;

	for (i = 0; i < n; i++) {
		if (read(0, &c, 1) != 1)
			break;
		moved += write(1, &c, 1);
	}
	fprintf(stderr, "%ld bytes\n", moved);
	return moved == n ? 0 : 1;
}
