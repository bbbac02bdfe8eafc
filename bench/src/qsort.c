/* qsort: sort N pseudo-random ints with libc qsort and a comparison
 * callback, print a checksum. CPU-bound with indirect calls, compares and
 * branches (the Blink comparison's second workload). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000;
	int *v = malloc((size_t)n * sizeof(*v));
	uint32_t seed = 12345;
	uint64_t sum = 0;
	long i;

	if (!v)
		return 1;
	for (i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		v[i] = (int)(seed >> 1);
	}
	qsort(v, (size_t)n, sizeof(*v), cmp_int);
	for (i = 1; i < n; i++)
		if (v[i - 1] > v[i])
			return 2;
	for (i = 0; i < n; i += 97)
		sum = sum * 31 + (uint32_t)v[i];
	printf("%ld sorted, checksum %llx\n", n, (unsigned long long)sum);
	return 0;
}
