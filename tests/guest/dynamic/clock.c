/* clock_gettime, gettimeofday and time through glibc, which takes them
 * from the vDSO: the values must agree with each other. The e2e cases
 * also check with --trace that they never reach the kernel. */
#include <stdio.h>
#include <sys/time.h>
#include <time.h>

int main(void)
{
	struct timespec mono1, mono2, real;
	struct timeval tv;
	time_t t;

	clock_gettime(CLOCK_MONOTONIC, &mono1);
	clock_gettime(CLOCK_REALTIME, &real);
	gettimeofday(&tv, NULL);
	t = time(NULL);
	clock_gettime(CLOCK_MONOTONIC, &mono2);
	printf("monotonic ordered: %d\n",
	       mono2.tv_sec > mono1.tv_sec ||
		       (mono2.tv_sec == mono1.tv_sec && mono2.tv_nsec >= mono1.tv_nsec));
	printf("realtime after 2020: %d\n", real.tv_sec > 1577836800);
	printf("gettimeofday within 2 s: %d\n",
	       tv.tv_sec - real.tv_sec >= 0 && tv.tv_sec - real.tv_sec < 2);
	printf("time within 2 s: %d\n", t - real.tv_sec >= -1 && t - real.tv_sec < 2);
	return 0;
}
