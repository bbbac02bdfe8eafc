/* The host CPU's vendor, for the tests that use the host as the oracle:
 * sysgate models Intel, and on an AMD host they accept the documented
 * vendor differences by name (docs/cpu.md, "Host vendor and host kernel
 * differences"). Read with CPUID at run time, never assumed. */
#ifndef SG_TESTS_HOST_CPU_H
#define SG_TESTS_HOST_CPU_H
#include <stdbool.h>
#include <stdint.h>

static inline bool host_cpu_is_amd(void)
{
	uint32_t a, b, c, d;

	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0), "c"(0));
	(void)a;
	return b == 0x68747541 && d == 0x69746e65 && c == 0x444d4163; /* AuthenticAMD */
}
#endif
