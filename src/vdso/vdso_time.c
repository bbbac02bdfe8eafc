/* The vDSO time functions, built for each ABI (-m32 / -mx32 / -m64) into
 * that ABI's image. Each one is a private call into sysgate: the system
 * call number of the same function for this ABI (so the arguments mean
 * exactly what the system call's do), made through vdso_private_entry.
 * sysgate's entry code recognises the return address vdso_private_return
 * and answers with the host's own clock (its libc, its vDSO), without a
 * host kernel entry (docs/loader.md, vDSO). No data, no relocations: the
 * image maps as one read+exec blob. */
#include <asm/unistd.h>

#if defined(__i386__)
typedef long sreg; /* eax */
#else
typedef long long sreg; /* rax, also for x32 (whose time_t is 64-bit) */
#endif

__asm__(".text\n"
	"\t.type vdso_private_entry, @function\n"
	"vdso_private_entry:\n"
#if defined(__i386__)
	"\tint $0x80\n"
#else
	"\tsyscall\n"
#endif
	"vdso_private_return:\n"
	"\tret\n"
	"\t.size vdso_private_entry, . - vdso_private_entry\n");

static inline sreg vdso_call(sreg nr, sreg a, sreg b, sreg c)
{
	sreg ret;

#if defined(__i386__)
	__asm__ volatile("call vdso_private_entry"
			 : "=a"(ret)
			 : "a"(nr), "b"(a), "c"(b), "d"(c)
			 : "memory");
#else
	__asm__ volatile("call vdso_private_entry"
			 : "=a"(ret)
			 : "a"(nr), "D"(a), "S"(b), "d"(c)
			 : "rcx", "r11", "memory");
#endif
	return ret;
}

/* guest pointers as register values (zero-extended for x32) */
#define P(ptr) ((sreg)(unsigned long)(ptr))

int __vdso_clock_gettime(int clock, void *ts)
{
	return (int)vdso_call(__NR_clock_gettime, clock, P(ts), 0);
}

int __vdso_gettimeofday(void *tv, void *tz)
{
	return (int)vdso_call(__NR_gettimeofday, P(tv), P(tz), 0);
}

sreg __vdso_time(void *tloc)
{
	return vdso_call(__NR_time, P(tloc), 0, 0);
}

int __vdso_clock_getres(int clock, void *res)
{
	return (int)vdso_call(__NR_clock_getres, clock, P(res), 0);
}

int __vdso_getcpu(unsigned *cpu, unsigned *node, void *cache)
{
	return (int)vdso_call(__NR_getcpu, P(cpu), P(node), P(cache));
}

#if defined(__i386__)
int __vdso_clock_gettime64(int clock, void *ts)
{
	return (int)vdso_call(__NR_clock_gettime64, clock, P(ts), 0);
}
#elif !defined(__ILP32__)
/* x86_64 also exports the plain names, as weak aliases (x32 does not) */
#define WEAK_ALIAS(name, target) \
	extern __typeof(target) name __attribute__((weak, alias(#target)))
WEAK_ALIAS(clock_gettime, __vdso_clock_gettime);
WEAK_ALIAS(gettimeofday, __vdso_gettimeofday);
WEAK_ALIAS(time, __vdso_time);
WEAK_ALIAS(clock_getres, __vdso_clock_getres);
WEAK_ALIAS(getcpu, __vdso_getcpu);
#endif
