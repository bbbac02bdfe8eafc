/* timeloop: N iterations of getppid() (a real system call) and
 * clock_gettime(CLOCK_MONOTONIC) (the vDSO natively): the cheapest calls,
 * so the fixed cost per call dominates. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000;
	unsigned long sum = 0;
	struct timespec ts;
	long i;

	for (i = 0; i < n; i++) {
		sum += (unsigned long)getppid();
		clock_gettime(CLOCK_MONOTONIC, &ts);
		sum += (unsigned long)ts.tv_nsec & 1;
	}
	printf("%ld iterations %s\n", n, sum ? "ok" : "zero");
	return 0;
}
