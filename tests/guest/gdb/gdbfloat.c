/* The register program of the gdb tests (tests/e2e/gdb): known values in
 * the x87 stack, XMM registers, MXCSR and the x87 control word when
 * probe() is entered, for gdb's p $st0, $xmm1, $mxcsr, $fctrl. */
#include <stdio.h>

__attribute__((noinline)) void probe(void)
{
	__asm__ volatile("" ::: "memory"); /* MARK: probe */
}

int main(void)
{
	static const double pair[2] = { 1.5, -2.25 };
	static const long double third = 1.0L / 3;
	unsigned mxcsr = 0x1f80 | 0x6000; /* round toward zero */
	unsigned short cw = 0x037f & ~0x0300; /* x87 single precision */

	__asm__ volatile("fldcw %0" : : "m"(cw));
	__asm__ volatile("ldmxcsr %0" : : "m"(mxcsr));
	/* no clobber: i386 without -msse cannot name xmm1 (-O0: unused) */
	__asm__ volatile("movupd %0, %%xmm1" : : "m"(pair));
	__asm__ volatile("fldt %0\n\tfld1\n\tfldpi" : : "m"(third));
	probe();
	__asm__ volatile("fstp %%st(0)\n\tfstp %%st(0)\n\tfstp %%st(0)" ::: "memory");
	printf("done\n");
	return 0;
}
