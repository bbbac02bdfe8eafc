/* A CPU-bound guest for the interpreter's speed (docs/cpu.md): an FNV-1a
 * hash loop over a buffer and a qsort of 200000 integers, no system calls
 * in between. Built by hand, static, for each ABI:
 *   gcc -O2 -static -m64 -o perf_guest-x86_64 perf_guest.c (and -m32)
 *   time ./perf_guest-x86_64; time sysgate ./perf_guest-x86_64 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define N 200000

static int cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

int main(void)
{
	static uint8_t buf[1 << 16];
	static int v[N];
	uint32_t h = 2166136261u, seed = 1;

	for (unsigned k = 0; k < sizeof(buf); k++)
		buf[k] = (uint8_t)(k * 31 + 7);
	for (int round = 0; round < 300; round++)
		for (unsigned k = 0; k < sizeof(buf); k++)
			h = (h ^ buf[k]) * 16777619u;
	for (int k = 0; k < N; k++) {
		seed = seed * 1103515245u + 12345u;
		v[k] = (int)(seed >> 1);
	}
	qsort(v, N, sizeof(v[0]), cmp);
	printf("%08x %d %d\n", h, v[0], v[N - 1]);
	return 0;
}
