/* The stack program of the gdb tests (tests/e2e/gdb): a push and a pop,
 * a call and a return, whose stack slots gdb watches with awatch and
 * rwatch: the instructions name no memory operand for them. */
#include <stdio.h>

__attribute__((noinline)) long callee(long v)
{
	return v + 1;
}

__attribute__((noinline)) long stack_ops(long v)
{
#if defined(__i386__)
	__asm__ volatile("push $7\n\tpop %%eax" ::: "eax", "memory");
#else
	__asm__ volatile("push $7\n\tpop %%rax" ::: "rax", "memory");
#endif
	return callee(v) * 2;
}

int main(void)
{
	printf("%ld\n", stack_ops(20));
	return 0;
}
