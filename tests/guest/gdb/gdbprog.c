/* The program the gdb end-to-end tests debug (tests/e2e/gdb): a global
 * to watch, a call chain for bt, a loop for next. Line numbers matter to
 * the tests: they find them by the marker comments, not by number. */
#include <stdio.h>

volatile int counter;
int answer = 42;

__attribute__((noinline)) int leaf(int x)
{
	counter += x; /* MARK: leaf-store */
	return counter * 2;
}

__attribute__((noinline)) int middle(int x)
{
	return leaf(x + 1) + 1;
}

int main(void)
{
	int total = 0;

	for (int i = 0; i < 3; i++)
		total += middle(i); /* MARK: loop */
	counter = 100; /* MARK: after-loop */
	printf("total %d counter %d\n", total, counter);
	return answer - 42;
}
