/* segv: one line of output, then a store through NULL with no handler:
 * the trace ends with the fault's signal line and "+++ killed by SIGSEGV
 * +++" (with " (core dumped)" where the kernel would write a core). */
#include <string.h>
#include <unistd.h>

int main(void)
{
	static const char msg[] = "about to fault\n";
	volatile int *nowhere = NULL;

	write(1, msg, strlen(msg));
	*nowhere = 1;
	return 0;
}
