/* Probe (run_case.sh --probe): exits 0 natively where the host CPU has
 * RDRAND and RDSEED (CPUID.1:ECX[30], CPUID.7.0:EBX[18]). sysgate's CPU
 * model has both on every host (src/cpu/cpuid.c: the kernel's random
 * bytes); where the host lacks one, the native run of rdrand only says so,
 * and e2e.rdrand's oracle is expected/rdrand-{32,64}.out. Built for each
 * ABI: an i386 probe that cannot run (no IA32 emulation) sends the i386
 * case to that file too. */
#include <cpuid.h>

int main(void)
{
	unsigned a, b, c, d;

	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c >> 30 & 1))
		return 1;
	if (!__get_cpuid_count(7, 0, &a, &b, &c, &d) || !(b >> 18 & 1))
		return 1;
	return 0;
}
