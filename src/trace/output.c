/* Writing the lines: to the output, or with -ff to the calling task's
 * own file; whole lines with one write(2), another task's open line
 * closed first ("<unfinished ...>"); the "[pid N] " and time prefixes. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "hostfd/hostfd.h"
#include "trace/trace.h"
#include "trace/trace_internal.h"

int trace_tid(void)
{
	return (int)syscall(SYS_gettid);
}

/* Several tasks are traced into one output: prefixes, lines left open
 * (never with -ff, where each task has its own file). */
bool trace_multi(const struct trace *tr)
{
	return !(tr->flags & SG_TRACE_PER_TASK) &&
	       __atomic_load_n(&tr->sh->tasks, __ATOMIC_RELAXED) > 1;
}

int trace_output_fd(const struct trace *tr)
{
	return __atomic_load_n(&tr->fd, __ATOMIC_ACQUIRE);
}

/* -ff: the descriptor of the calling task's file, PREFIX.TID, opened when
 * the task writes its first line (truncated the first time this run opens
 * it, appended to after, as by a new image after an execve). One is kept
 * open at a time, as one of sysgate's private descriptors; the caller
 * holds tr->lock. -1 when it cannot be opened. */
static int ff_task_fd(struct trace *tr)
{
	int tid = trace_tid(), fd, flags = O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC;
	char path[PATH_MAX + 16];
	bool begun = false;

	if (tr->ff_fd >= 0 && tr->ff_tid == tid)
		return tr->ff_fd;
	if (tr->ff_fd >= 0) {
		hostfd_close(tr->ff_fd);
		tr->ff_fd = -1;
	}
	trace_sh_lock(tr);
	for (unsigned i = 0; i < tr->sh->ff_nbegun && i < 1024; i++)
		begun |= tr->sh->ff_begun[i] == tid;
	if (!begun)
		tr->sh->ff_begun[tr->sh->ff_nbegun++ % 1024] = tid;
	trace_sh_unlock(tr);
	snprintf(path, sizeof(path), "%s.%d", tr->ff_prefix, tid);
	fd = open(path, flags | (begun ? 0 : O_TRUNC), 0666);
	if (fd < 0)
		return -1;
	/* a private number, out of the guest's way (hostfd.h) */
	tr->ff_fd = hostfd_dup(fd, &tr->ff_fd);
	close(fd);
	tr->ff_tid = tid;
	return tr->ff_fd;
}

int trace_write_fd(int fd, const void *p, size_t n)
{
	const char *b = p;

	while (n) {
		ssize_t w = write(fd, b, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		b += w;
		n -= (size_t)w;
	}
	return 0;
}

void trace_write_all(struct trace *tr, const char *p, size_t left)
{
	if (tr->flags & SG_TRACE_PER_TASK) {
		int fd;

		pthread_mutex_lock(&tr->lock);
		fd = ff_task_fd(tr);
		if (fd >= 0)
			trace_write_fd(fd, p, left);
		pthread_mutex_unlock(&tr->lock);
		return;
	}
	trace_write_fd(trace_output_fd(tr), p, left);
}

/* Close the line another task left open: strace's "<unfinished ...>".
 * Called with the shared lock held. */
void trace_close_open_line(struct trace *tr, int except_tid)
{
	static const char unfinished[] = " <unfinished ...>\n";

	if (tr->sh->open_tid && tr->sh->open_tid != except_tid) {
		trace_write_all(tr, unfinished, sizeof(unfinished) - 1);
		tr->sh->open_tid = 0;
	}
}

/* Write a whole line (a newline is added). */
void trace_emit(struct trace *tr, struct tline *l)
{
	l->buf[l->len++] = '\n'; /* tl_* always leave room for it */
	if ((tr->flags & SG_TRACE_FOLLOW) && !(tr->flags & SG_TRACE_PER_TASK)) {
		trace_sh_lock(tr);
		trace_close_open_line(tr, 0);
		trace_write_all(tr, l->buf, l->len);
		trace_sh_unlock(tr);
	} else {
		trace_write_all(tr, l->buf, l->len);
	}
}

/* "[pid  123] " with -f and more than one task (several: as they were
 * when the line began); -t/-tt/-ttt time. */
void trace_print_prefix_as(struct trace *tr, struct tline *l, bool several)
{
	/* strace -f -o FILE starts every line with the pid ("%-5d "); on a
	 * terminal it adds "[pid N] " while several tasks run */
	if (tr->flags & SG_TRACE_PER_TASK)
		; /* -ff: the file says which task */
	else if (tr->sh->to_file && (tr->flags & SG_TRACE_FOLLOW))
		tl_printf(l, "%-5d ", trace_tid());
	else if (several)
		tl_printf(l, "[pid %5d] ", trace_tid());
	if (tr->flags & (SG_TRACE_TIME | SG_TRACE_TIME_US | SG_TRACE_TIME_EPOCH)) {
		struct timespec now;
		struct tm tm;

		clock_gettime(CLOCK_REALTIME, &now);
		if (tr->flags & SG_TRACE_TIME_EPOCH) {
			tl_printf(l, "%lld.%06ld ", (long long)now.tv_sec,
				  now.tv_nsec / 1000);
			return;
		}
		localtime_r(&now.tv_sec, &tm);
		tl_printf(l, "%02d:%02d:%02d", tm.tm_hour, tm.tm_min, tm.tm_sec);
		if (tr->flags & SG_TRACE_TIME_US)
			tl_printf(l, ".%06ld", now.tv_nsec / 1000);
		tl_putc(l, ' ');
	}
}

void trace_print_prefix(struct trace *tr, struct tline *l)
{
	trace_print_prefix_as(tr, l, trace_multi(tr));
}
