/* Cross-thread stores into decoded code, with nothing else stored in
 * between: thread B stores a function's immediate on page P (so P is the
 * last page B's stores found plain), thread A then runs the function
 * (sysgate decodes P, which makes P code), and B's next store, again to P
 * and its first since, must drop A's decoded copy: A, after a system call
 * (where sysgate's threads pick up code another dropped) and CPUID (the
 * serialising instruction cross-modifying code asks for natively), must
 * run the new immediate. Natively every call returns what B stored last.
 * sysgate's per-thread cache of the last plain page (store_plain,
 * docs/isolation.md) fails this if decoding a page does not invalidate
 * it. */
#define _GNU_SOURCE
#include <cpuid.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>

enum { ROUNDS = 200 };

typedef int (*fn_t)(void);

static unsigned char *page;        /* P: "mov eax, imm32; ret" at P+3 */
static volatile uint32_t *imm;     /* P+4, aligned */
static unsigned step;              /* A to B: calls done */
static uint32_t *posted;           /* P+64, B to A: the value B stored last
				    * (on P: B's stores all go to P) */

/* sched_yield without a store (libc's i386 wrapper calls through the
 * vDSO, pushing a return address): the waits must not spin away the
 * other thread's time on a loaded host */
static void yield_nostore(void)
{
#if defined(__i386__)
	long ret = 158; /* __NR_sched_yield */
	__asm__ volatile("int $0x80" : "+a"(ret) : : "memory");
#elif defined(__ILP32__)
	long ret = 0x40000000 | 24;
	__asm__ volatile("syscall" : "+a"(ret) : : "rcx", "r11", "memory");
#else
	long ret = 24;
	__asm__ volatile("syscall" : "+a"(ret) : : "rcx", "r11", "memory");
#endif
}

static void *writer(void *arg)
{
	(void)arg;
	for (unsigned r = 0; r < ROUNDS; r++) {
		*imm = 2 * r + 1;
		__atomic_store_n(posted, 2 * r + 1, __ATOMIC_RELEASE);
		while (__atomic_load_n(&step, __ATOMIC_ACQUIRE) != 2 * r + 1)
			yield_nostore();
		*imm = 2 * r + 2; /* B's first store since A decoded P */
		/* after the store has dropped the code, which sysgate does
		 * after the store itself: A must not run before that */
		__atomic_store_n(posted, 2 * r + 2, __ATOMIC_RELEASE);
		while (__atomic_load_n(&step, __ATOMIC_ACQUIRE) != 2 * r + 2)
			yield_nostore();
	}
	return NULL;
}

static int call_when(uint32_t want)
{
	unsigned a, b, c, d;

	while (__atomic_load_n(posted, __ATOMIC_ACQUIRE) != want)
		sched_yield();
	sched_yield();
	__cpuid(0, a, b, c, d);
	(void)a, (void)b, (void)c, (void)d;
	return ((fn_t)(page + 3))();
}

int main(void)
{
	pthread_t t;
	int first = 0, second = 0;

	page = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS,
		    -1, 0);
	if (page == MAP_FAILED)
		return 1;
	page[3] = 0xb8; /* mov eax, imm32 */
	page[8] = 0xc3; /* ret */
	imm = (volatile uint32_t *)(page + 4);
	*imm = 0;
	posted = (uint32_t *)(page + 64);
	if (pthread_create(&t, NULL, writer, NULL))
		return 1;
	for (unsigned r = 0; r < ROUNDS; r++) {
		first += call_when(2 * r + 1) == (int)(2 * r + 1);
		__atomic_store_n(&step, 2 * r + 1, __ATOMIC_RELEASE);
		second += call_when(2 * r + 2) == (int)(2 * r + 2);
		__atomic_store_n(&step, 2 * r + 2, __ATOMIC_RELEASE);
	}
	pthread_join(t, NULL);
	printf("rounds %d: first calls right %d, second calls right %d\n", ROUNDS, first, second);
	return 0;
}
