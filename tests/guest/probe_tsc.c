/* Probe (run_case.sh --probe): exits 0 natively where the host kernel
 * enforces prctl(PR_SET_TSC, PR_TSC_SIGSEGV), RDTSC then raising SIGSEGV.
 * Under some hypervisors the prctl succeeds and RDTSC still runs (seen on a
 * Zen 5 VM, kernel 6.18): there the native run of tsc shows the host, not
 * the kernel's documented behaviour, and e2e.tsc's oracle is
 * expected/tsc.out. Built for each ABI: an i386 probe that cannot run
 * (no IA32 emulation) sends the i386 case to that file too. */
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

static void on_segv(int sig)
{
	(void)sig;
	_exit(0);
}

int main(void)
{
	unsigned lo, hi;

	signal(SIGSEGV, on_segv);
	if (prctl(PR_SET_TSC, PR_TSC_SIGSEGV) != 0)
		return 2;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return 1;
}
