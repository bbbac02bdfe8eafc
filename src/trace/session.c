/* A trace's life: created from the options (filter, output, flags), the
 * page it shares with forks and execve'd images (a memfd: the open line,
 * the task count, the -c counts), destroyed; the options an execve passes
 * on to the new image. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "hostfd/hostfd.h"
#include "trace/trace.h"
#include "trace/trace_internal.h"

/* The shared page lives in a memfd (close-on-exec, among sysgate's own
 * descriptors: hostfd.h), so that a guest execve, which re-enters sysgate,
 * can pass it on (trace_exec_options) and the new image keeps sharing it. */

/* The header, then the counts of each table (the same binary after an
 * execve: the same sizes). */
static size_t shared_layout(struct trace *tr, char *base)
{
	size_t off = (sizeof(*tr->sh) + 63) & ~(size_t)63;

	for (int t = 0; t < SG_TABLE__COUNT; t++) {
		const struct sg_syscall_table *tab = sg_syscall_table(t);

		if (base)
			tr->counts[t] = tab ? (struct trace_count *)(base + off) : NULL;
		off += (tab ? tab->size : 0) * sizeof(struct trace_count);
	}
	return off;
}

static int shared_init(struct trace *tr, int inherited_fd)
{
	pthread_mutexattr_t attr;
	int fd = inherited_fd;

	tr->shared_size = shared_layout(tr, NULL);

	if (fd <= 0) {
		int mfd = memfd_create("sysgate-trace", MFD_CLOEXEC);

		if (mfd < 0)
			return -1;
		fd = hostfd_dup(mfd, &tr->shared_fd);
		close(mfd);
		if (fd < 0 || ftruncate(fd, (off_t)tr->shared_size) < 0) {
			if (fd >= 0)
				close(fd);
			return -1;
		}
	} else {
		fcntl(fd, F_SETFD, FD_CLOEXEC);
		hostfd_adopt(fd, &tr->shared_fd);
	}
	tr->shared_fd = fd;
	tr->sh = mmap(NULL, tr->shared_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (tr->sh == MAP_FAILED) {
		tr->sh = NULL;
		return -1;
	}
	shared_layout(tr, (char *)tr->sh);
	if (inherited_fd > 0)
		return 0; /* set up by the image before the exec */
	pthread_mutexattr_init(&attr);
	pthread_mutexattr_setpshared(&attr, PTHREAD_PROCESS_SHARED);
	pthread_mutexattr_setrobust(&attr, PTHREAD_MUTEX_ROBUST);
	pthread_mutex_init(&tr->sh->lock, &attr);
	pthread_mutexattr_destroy(&attr);
	tr->sh->tasks = 1;
	tr->sh->root_pid = getpid();
	return 0;
}

/* A task that died holding the lock left nothing half-done that matters:
 * take it over. */
void trace_sh_lock(struct trace *tr)
{
	if (pthread_mutex_lock(&tr->sh->lock) == EOWNERDEAD)
		pthread_mutex_consistent(&tr->sh->lock);
}

void trace_sh_unlock(struct trace *tr)
{
	pthread_mutex_unlock(&tr->sh->lock);
}

struct trace *trace_create_opts(int fd, const struct sg_options *opts)
{
	struct trace *tr = calloc(1, sizeof(*tr));

	if (!tr) {
		errno = ENOMEM;
		return NULL;
	}
	if (trace_filter_init(&tr->filter, opts ? opts->trace_filter : NULL) < 0) {
		int err = errno;

		free(tr);
		errno = err;
		return NULL;
	}
	tr->fd = fd >= 0 ? fd : STDERR_FILENO;
	tr->own_fd = fd >= 0 && fd != STDERR_FILENO;
	if (tr->own_fd)
		hostfd_hold(fd, &tr->fd); /* moved if the guest's range grows */
	tr->flags = opts ? opts->trace : SG_TRACE_SYSCALLS;
	tr->ff_fd = -1;
	if (!(opts && opts->trace_ff_prefix))
		tr->flags &= ~(unsigned)SG_TRACE_PER_TASK;
	if (tr->filter.decode_paths) /* -e decode-fds=path: as -y */
		tr->flags |= SG_TRACE_FDPATHS;
	tr->strlen = opts ? opts->trace_strlen : TRACE_STRLEN;
	if (tr->strlen > TRACE_STRLEN_MAX)
		tr->strlen = TRACE_STRLEN_MAX;
	tr->insn_start = opts ? opts->trace_start : 0;
	tr->insn_count = opts ? opts->trace_count : 0;
	pthread_mutex_init(&tr->lock, NULL);
	if ((opts && opts->trace_filter && !(tr->filter_spec = strdup(opts->trace_filter))) ||
	    ((tr->flags & SG_TRACE_PER_TASK) &&
	     !(tr->ff_prefix = strdup(opts->trace_ff_prefix)))) {
		trace_destroy(tr);
		errno = ENOMEM;
		return NULL;
	}
	tr->tl_fd = -1;
	tr->tl_first_tid = trace_tid();
	if ((tr->flags & SG_TRACE_TIMELINE) && opts->trace_timeline &&
	    timeline_open(tr, opts->trace_timeline, opts->trace_shared_fd > 0) < 0) {
		int err = errno;

		trace_destroy(tr);
		errno = err ? err : ENOMEM;
		return NULL;
	}
	if (shared_init(tr, opts ? opts->trace_shared_fd : 0) < 0) {
		trace_destroy(tr);
		errno = ENOMEM;
		return NULL;
	}
	if (!(opts && opts->trace_shared_fd > 0))
		tr->sh->to_file = opts && opts->trace_fd >= 0 &&
				  opts->trace_fd != STDERR_FILENO;
	return tr;
}

struct trace *trace_create(int fd, unsigned flags)
{
	struct sg_options o;

	memset(&o, 0, sizeof(o));
	o.trace = flags;
	o.trace_strlen = TRACE_STRLEN;
	return trace_create_opts(fd, &o);
}

void trace_destroy(struct trace *tr)
{
	if (!tr)
		return;
	if (tr->own_fd) {
		hostfd_forget(tr->fd);
		close(tr->fd);
	}
	trace_filter_free(&tr->filter);
	pthread_mutex_destroy(&tr->lock);
	if (tr->sh)
		munmap(tr->sh, tr->shared_size);
	if (tr->shared_fd > 0) {
		hostfd_forget(tr->shared_fd);
		close(tr->shared_fd);
	}
	free(tr->filter_spec);
	free(tr->ff_prefix);
	if (tr->ff_fd >= 0)
		hostfd_close(tr->ff_fd);
	timeline_close(tr);
	free(tr);
}

/* --- across execve ------------------------------------------------------ */

static int add_opt(char **out, int n, int max, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int add_opt(char **out, int n, int max, const char *fmt, ...)
{
	va_list ap;
	int r;

	if (n < 0 || n >= max - 1) /* room for the NULL */
		return -1;
	va_start(ap, fmt);
	r = vasprintf(&out[n], fmt, ap);
	va_end(ap);
	return r < 0 ? -1 : n + 1;
}

int trace_exec_options(struct trace *tr, char **out, int max)
{
	static const struct {
		unsigned flag;
		const char *opt;
	} flag_opts[] = {
		{ SG_TRACE_FOLLOW, "-f" },
		{ SG_TRACE_FDPATHS, "-y" },
		{ SG_TRACE_SUMMARY, "-c" },
		{ SG_TRACE_DURATION, "-T" },
		{ SG_TRACE_TIME, "-t" },
	};
	char what[64] = "";
	int n = 0;

	if (tr->flags & SG_TRACE_SYSCALLS)
		strcat(what, tr->flags & SG_TRACE_ENTRY ? ",entry" : ",syscalls");
	if (tr->flags & SG_TRACE_INSN)
		strcat(what, ",insn");
	if (tr->flags & SG_TRACE_BLOCKS)
		strcat(what, ",blocks");
	if (what[0])
		n = add_opt(out, n, max, "--trace=%s", what + 1);
	for (size_t i = 0; i < sizeof(flag_opts) / sizeof(flag_opts[0]); i++)
		if (tr->flags & flag_opts[i].flag)
			n = add_opt(out, n, max, "%s", flag_opts[i].opt);
	if (tr->flags & (SG_TRACE_TIME_US | SG_TRACE_TIME_EPOCH))
		n = add_opt(out, n, max, "%s", tr->flags & SG_TRACE_TIME_EPOCH ? "-ttt" : "-tt");
	if (tr->strlen != TRACE_STRLEN)
		n = add_opt(out, n, max, "-s%u", tr->strlen);
	if (tr->filter_spec)
		n = add_opt(out, n, max, "-e%s", tr->filter_spec);
	if (tr->flags & SG_TRACE_PER_TASK)
		n = add_opt(out, n, max, "--trace-ff=%s", tr->ff_prefix);
	if (tr->tl_path)
		n = add_opt(out, n, max, "--trace-timeline=%s", tr->tl_path);
	if (tr->insn_start)
		n = add_opt(out, n, max, "--trace-start=%#llx", (unsigned long long)tr->insn_start);
	if (tr->insn_count)
		n = add_opt(out, n, max, "--trace-count=%llu",
			    (unsigned long long)(tr->insn_count > tr->insn_shown
						 ? tr->insn_count - tr->insn_shown : 1));
	if (tr->shared_fd > 0) {
		/* the new image maps the same page: one open line, one count */
		fcntl(tr->shared_fd, F_SETFD, 0);
		n = add_opt(out, n, max, "--trace-shared=%d", tr->shared_fd);
	}
	if (n < 0)
		return -1;
	out[n] = NULL;
	return n;
}
