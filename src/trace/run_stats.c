/* --stats: what one host process of sysgate did, on one line when its
 * guest process image ends (exit, or execve into a new sysgate image):
 * the CPU module's counts (cpu.h, struct cpu_stats) and the host's
 * getrusage (page faults, CPU time: sysgate's own with the guest's, as
 * there is no telling them apart). docs/performance.md says how to read
 * it. */
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

#include "cpu/cpu.h"
#include "trace/trace.h"

void trace_print_run_stats(const struct trace *tr, const char *event,
			   const struct cpu_stats *cpu)
{
	int fd = tr ? trace_output_fd(tr) : STDERR_FILENO;
	struct cpu_stats st = *cpu;
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) != 0)
		return;
	dprintf(fd,
		"sysgate: stats pid %d %s: %llu guest instructions, %llu decoded, "
		"%llu bytes of decoded code (%llu pools, %llu slots), "
		"%ld page faults (%ld minor, %ld major), "
		"%ld.%06ld s CPU (%ld.%06ld user, %ld.%06ld system)\n",
		(int)getpid(), event, (unsigned long long)st.executed,
		(unsigned long long)st.decoded,
		(unsigned long long)(st.pool_bytes + st.slot_bytes),
		(unsigned long long)st.pool_bytes, (unsigned long long)st.slot_bytes,
		ru.ru_minflt + ru.ru_majflt, ru.ru_minflt, ru.ru_majflt,
		(long)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
		       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1000000),
		(long)((ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) % 1000000),
		(long)ru.ru_utime.tv_sec, (long)ru.ru_utime.tv_usec,
		(long)ru.ru_stime.tv_sec, (long)ru.ru_stime.tv_usec);
}
