/* The AVX program of the gdb tests (tests/e2e/gdb, scenario avx): known
 * 256-bit values in YMM0 and YMM1 when probe() is entered, for gdb's
 * p $ymm0.v8_int32 (xmm0 and the upper half ymm0h together); gdb then
 * sets an element of each half of $ymm1, which the program reads back
 * from YMM1 and prints. The registers are loaded and read by inline asm
 * only: the compiler knows nothing of them, so it puts no VZEROUPPER
 * around the call. */
#include <stdio.h>

__attribute__((noinline)) void probe(void)
{
	__asm__ volatile("" ::: "memory"); /* MARK: probe */
}

int main(void)
{
	static const int low[8] = { 1, -2, 3, -4, 0x10000005, 6, 7, 0x7fffffff };
	static const int high[8] = { 100, 200, 300, 400, -500, 600, 700, 800 };
	int back[8];

	__asm__ volatile("vmovdqu %0, %%ymm0" : : "m"(low));
	__asm__ volatile("vmovdqu %0, %%ymm1" : : "m"(high));
	probe();
	__asm__ volatile("vmovdqu %%ymm1, %0" : "=m"(back));
	__asm__ volatile("vzeroupper");
	for (int i = 0; i < 8; i++)
		printf("ymm1[%d] = %d\n", i, back[i]);
	return 0;
}
