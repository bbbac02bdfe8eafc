/* RDRAND and RDSEED at every operand size: CF set (a value) and values that
 * differ, as on the host; the output holds no random value, so it equals
 * the native run's. Where CPUID lacks them the program says so and stops. */
#include <cpuid.h>
#include <stdint.h>
#include <stdio.h>

#define TRIES 64

#define RAND_LOOP(INSN, T, SUFFIX)                                                        \
	static void INSN##_##SUFFIX(void)                                                  \
	{                                                                                  \
		T v[TRIES];                                                                \
		unsigned set = 0, distinct = 0;                                            \
		for (int k = 0; k < TRIES; k++) {                                          \
			unsigned char cf = 0;                                              \
			for (int retry = 0; retry < 100 && !cf; retry++)                   \
				__asm__ volatile(#INSN " %0; setc %1" : "=r"(v[k]), "=qm"(cf)); \
			set += cf;                                                         \
		}                                                                          \
		for (int k = 0; k < TRIES; k++) {                                          \
			int seen = 0;                                                      \
			for (int j = 0; j < k; j++)                                        \
				seen |= v[j] == v[k];                                      \
			distinct += !seen;                                                 \
		}                                                                          \
		printf(#INSN " " #SUFFIX ": CF set %u/%d, distinct %s\n", set, TRIES,      \
		       distinct > TRIES / 2 ? "yes" : "no");                               \
	}

RAND_LOOP(rdrand, uint16_t, 16)
RAND_LOOP(rdrand, uint32_t, 32)
RAND_LOOP(rdseed, uint16_t, 16)
RAND_LOOP(rdseed, uint32_t, 32)
#ifdef __x86_64__
RAND_LOOP(rdrand, unsigned long long, 64)
RAND_LOOP(rdseed, unsigned long long, 64)
#endif

int main(void)
{
	unsigned a, b, c, d;

	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c >> 30 & 1) ||
	    !__get_cpuid_count(7, 0, &a, &b, &c, &d) || !(b >> 18 & 1)) {
		printf("no RDRAND/RDSEED\n");
		return 0;
	}
	rdrand_16();
	rdrand_32();
	rdseed_16();
	rdseed_32();
#ifdef __x86_64__
	rdrand_64();
	rdseed_64();
#endif
	return 0;
}
