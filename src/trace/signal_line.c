/* The signal line: "--- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED,
 * si_pid=123, si_uid=0, si_status=0, si_utime=0, si_stime=0} ---", the
 * fields strace shows for each kind of sender. Guest and host signal
 * numbers and siginfo codes are the same on x86. */
#define _GNU_SOURCE
#include <signal.h>

#include "trace/trace.h"
#include "trace/trace_internal.h"

/* The code's name: sender codes (SI_USER, ...) first, then the ones that
 * belong to the signal (CLD_EXITED, SEGV_MAPERR, ...). */
static void print_code(struct tline *l, int signo, int code)
{
	const struct xlat *own = NULL;
	const char *name = xlat_name(&xlat_sicode, (uint64_t)(int64_t)code);

	if (code > 0 && code != SI_KERNEL) {
		switch (signo) {
		case SIGCHLD: own = &xlat_cldcode; break;
		case SIGSEGV: own = &xlat_segvcode; break;
		case SIGBUS: own = &xlat_buscode; break;
		case SIGILL: own = &xlat_illcode; break;
		case SIGFPE: own = &xlat_fpecode; break;
		case SIGTRAP: own = &xlat_trapcode; break;
		}
		name = own ? xlat_name(own, (uint64_t)code) : NULL;
	}
	if (name)
		tl_puts(l, name);
	else
		tl_printf(l, "%d", code);
}

static bool is_fault(int signo)
{
	return signo == SIGSEGV || signo == SIGBUS || signo == SIGILL ||
	       signo == SIGFPE || signo == SIGTRAP;
}

void trace_print_siginfo(struct tline *l, const siginfo_t *si)
{
	int code = si->si_code;

	tl_puts(l, "{si_signo=");
	tprint_signame(l, si->si_signo, false);
	tl_puts(l, ", si_code=");
	print_code(l, si->si_signo, code);
	if (code == SI_USER || code == SI_TKILL) {
		tl_printf(l, ", si_pid=%d, si_uid=%u", si->si_pid, si->si_uid);
	} else if (code == SI_QUEUE || code == SI_MESGQ) {
		tl_printf(l, ", si_pid=%d, si_uid=%u, si_int=%d, si_ptr=",
			  si->si_pid, si->si_uid, si->si_value.sival_int);
		tprint_ptr(l, (uint64_t)(uintptr_t)si->si_value.sival_ptr);
	} else if (code == SI_TIMER) {
		tl_printf(l, ", si_timerid=%#x, si_overrun=%d, si_int=%d, si_ptr=",
			  si->si_timerid, si->si_overrun, si->si_value.sival_int);
		tprint_ptr(l, (uint64_t)(uintptr_t)si->si_value.sival_ptr);
	} else if (code > 0 && code != SI_KERNEL && si->si_signo == SIGCHLD) {
		tl_printf(l, ", si_pid=%d, si_uid=%u, si_status=", si->si_pid,
			  si->si_uid);
		if (code == CLD_EXITED)
			tl_printf(l, "%d", si->si_status);
		else
			tprint_signame(l, si->si_status, false);
		tl_printf(l, ", si_utime=%lld, si_stime=%lld",
			  (long long)si->si_utime, (long long)si->si_stime);
	} else if (code > 0 && code != SI_KERNEL && is_fault(si->si_signo)) {
		/* strace's printaddr: NULL, not glibc's "(nil)" */
		tl_puts(l, ", si_addr=");
		tprint_ptr(l, (uint64_t)(uintptr_t)si->si_addr);
	} else if (code == SI_KERNEL && is_fault(si->si_signo)) {
		tl_puts(l, ", si_addr=NULL");
	}
	tl_putc(l, '}');
}

void trace_signal(struct trace *tr, int tid, const siginfo_t *si)
{
	struct tline l = { .len = 0 };

	if (tr && tr->tl_fd >= 0) { /* --trace-timeline: an instant event */
		struct tline ev = { .len = 0 };

		tl_puts(&ev, "--- ");
		tprint_signame(&ev, si->si_signo, false);
		tl_putc(&ev, ' ');
		trace_print_siginfo(&ev, si);
		tl_puts(&ev, " ---");
		timeline_instant(tr, "signal", ev.buf, ev.len);
	}
	if (!tr || (tr->flags & SG_TRACE_SUMMARY) || !(tr->flags & SG_TRACE_SYSCALLS))
		return;
	if (!(tr->flags & SG_TRACE_FOLLOW) && tr->main_tid && tid &&
	    tid != tr->main_tid)
		return;
	if (si->si_signo < 1 || si->si_signo > 64 ||
	    !(tr->filter.signals >> (si->si_signo - 1) & 1)) /* -e signal= */
		return;
	trace_print_prefix(tr, &l);
	tl_puts(&l, "--- ");
	tprint_signame(&l, si->si_signo, false);
	tl_putc(&l, ' ');
	trace_print_siginfo(&l, si);
	tl_puts(&l, " ---");
	trace_emit(tr, &l);
}
