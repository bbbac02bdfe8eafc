/* alloc: malloc/realloc/free loops (brk and mmap-backed chunks), and a
 * qsort of 1000 ints from a fixed LCG. Output is ABI-independent. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t lcg_state = 12345;

static uint32_t lcg(void)
{
	lcg_state = lcg_state * 1103515245u + 12345u;
	return lcg_state >> 1;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

int main(void)
{
	enum { SLOTS = 200, ROUNDS = 5000, N = 1000 };
	unsigned char *slot[SLOTS] = { 0 };
	size_t size[SLOTS] = { 0 };
	unsigned long bad = 0, total = 0;

	for (int r = 0; r < ROUNDS; r++) {
		int i = (int)(lcg() % SLOTS);
		size_t n = lcg() % (r % 97 == 0 ? 300000 : 2000); /* some above the mmap threshold */

		for (size_t k = 0; k < size[i]; k++) /* contents survived? */
			bad += slot[i][k] != (unsigned char)(i + k);
		if (lcg() % 3 == 0) {
			free(slot[i]);
			slot[i] = NULL;
			size[i] = 0;
			continue;
		}
		unsigned char *p = realloc(slot[i], n ? n : 1);
		if (!p) {
			printf("realloc(%zu) failed\n", n);
			return 1;
		}
		for (size_t k = 0; k < (n < size[i] ? n : size[i]); k++)
			bad += p[k] != (unsigned char)(i + k);
		for (size_t k = 0; k < n; k++)
			p[k] = (unsigned char)(i + k);
		slot[i] = p;
		size[i] = n;
		total += n;
	}
	for (int i = 0; i < SLOTS; i++)
		free(slot[i]);
	printf("malloc/realloc: rounds=%d bytes=%lu bad=%lu\n", ROUNDS, total, bad);

	int *v = malloc(N * sizeof(*v));
	if (!v)
		return 1;
	for (int i = 0; i < N; i++)
		v[i] = (int)(lcg() % 100000) - 50000;
	qsort(v, N, sizeof(*v), cmp_int);
	int sorted = 1;
	uint32_t sum = 0;
	for (int i = 0; i < N; i++) {
		if (i && v[i - 1] > v[i])
			sorted = 0;
		sum = sum * 33 + (uint32_t)v[i];
	}
	printf("qsort: n=%d sorted=%d min=%d max=%d median=%d hash=%08x\n", N, sorted, v[0],
	       v[N - 1], v[N / 2], (unsigned)sum);
	free(v);

	char *big = calloc(1, 8 << 20); /* mmap-backed, must read as zero */
	if (!big)
		return 1;
	unsigned long nz = 0;
	for (size_t k = 0; k < (8u << 20); k += 4096)
		nz += big[k] != 0;
	memset(big, 1, 8 << 20);
	free(big);
	printf("calloc 8 MiB: nonzero pages=%lu\n", nz);
	return bad || !sorted || nz ? 1 : 0;
}
