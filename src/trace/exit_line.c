/* The last line of a process: "+++ exited with N +++" or "+++ killed by
 * SIG (core dumped) +++", its timeline event, and -c's table, printed by
 * the first process when it ends. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "trace/trace.h"
#include "trace/trace_internal.h"


/* Will the host kernel write a core for this death? The signal's default
 * action must be to dump, the process dumpable, and either core_pattern
 * a pipe (the kernel then ignores RLIMIT_CORE) or RLIMIT_CORE at least a
 * page (an ELF core's minimum). The CLI dies of the guest's signal, so
 * this is what the kernel will decide for it (fs/coredump.c); a dump
 * that fails later (an unwritable directory) is not foreseen. */
static bool host_dumps_core(int sig)
{
	struct rlimit rl;
	char pattern[2] = "";
	int fd;

	switch (sig) {
	case SIGQUIT: case SIGILL: case SIGTRAP: case SIGABRT: case SIGBUS:
	case SIGFPE: case SIGSEGV: case SIGXCPU: case SIGXFSZ: case SIGSYS:
		break;
	default:
		return false;
	}
	if (prctl(PR_GET_DUMPABLE) <= 0)
		return false;
	fd = open("/proc/sys/kernel/core_pattern", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		if (read(fd, pattern, 1) != 1)
			pattern[0] = '\0';
		close(fd);
	}
	if (pattern[0] == '|')
		return true;
	return getrlimit(RLIMIT_CORE, &rl) == 0 && rl.rlim_cur >= 4096;
}

void trace_exit(struct trace *tr, const struct sg_exit *status)
{
	struct tline l = { .len = 0 };

	if (tr->tl_fd >= 0) {
		char text[64];
		int n = status->signaled
			? snprintf(text, sizeof(text), "+++ killed by signal %d +++", status->signal)
			: snprintf(text, sizeof(text), "+++ exited with %d +++", status->code);
		struct tline name = { .len = 0 };

		if (status->signaled) { /* by name, as the trace line */
			tl_puts(&name, "+++ killed by ");
			tprint_signame(&name, status->signal, false);
			tl_puts(&name, " +++");
			timeline_instant(tr, "exit", name.buf, name.len);
		} else {
			timeline_instant(tr, "exit", text, (size_t)n);
		}
		if (getpid() == tr->sh->root_pid)
			timeline_finish(tr);
	}
	if (tr->flags & SG_TRACE_SUMMARY) {
		/* one table for the whole run, as strace's, printed by the
		 * first process (its execve'd images included) when it ends:
		 * the calls of every traced process so far (forks add to the
		 * shared counts; without -f only the first one counts) */
		if (getpid() == tr->sh->root_pid)
			trace_print_summary(tr);
		return;
	}
	if (!(tr->flags & SG_TRACE_SYSCALLS))
		return;
	/* -e quiet=exit; -e signal= without the signal that killed it
	 * (strace shows "+++ killed by" only for the signals it shows) */
	if (tr->filter.quiet_exit || (status->signaled && status->signal >= 1 &&
				      status->signal <= 64 &&
				      !(tr->filter.signals >> (status->signal - 1) & 1))) {
		trace_note_task_gone(tr);
		return;
	}
	trace_print_prefix(tr, &l);
	if (status->signaled) {
		tl_puts(&l, "+++ killed by ");
		tprint_signame(&l, status->signal, false);
		tl_puts(&l, host_dumps_core(status->signal) ? " (core dumped) +++" : " +++");
	} else {
		tl_printf(&l, "+++ exited with %d +++", status->code);
	}
	trace_emit(tr, &l);
	trace_note_task_gone(tr);
}
