/* strace-format syscall trace: one line per call, written with one
 * write(2) so lines of different threads never interleave.
 *
 * The arguments are formatted when the call enters (input strings are
 * read before the call can change or unmap them, as strace does) and the
 * line is printed when it returns, with the output buffers and structs
 * and the result. Calls that never return (exit, exit_group) are printed
 * on entry with "= ?". With -f and several threads, the start of the line
 * is written on entry, and a line of another thread in between leaves it
 * "<unfinished ...>", resumed by "<... name resumed>" (strace's form).
 * See docs/trace-format.md.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "mm/mm.h"
#include "syscall/carried.h"
#include "syscall/compat/compat.h"
#include "trace/trace.h"
#include "hostfd/hostfd.h"
#include "trace/trace_internal.h"

/* The call between enter and exit, per guest thread (= host thread). Each
 * argument's text is kept at off[i]..off[i]+len[i] of text; the ones
 * printed on exit are formatted then. */
static __thread struct pending {
	const struct sg_syscall_call *call;
	struct sg_syscall_call view; /* socketcall shown as its call */
	char text[sizeof(((struct tline *)0)->buf)];
	size_t used;
	unsigned off[6], len[6];
	bool shown[6], late[6];
	bool split[6];      /* printed in two: head on entry, tail on return */
	unsigned sfx_off[6], sfx_len[6]; /* the tails */
	bool head_sfx;      /* the open line's last argument has a tail */
	unsigned head;      /* args written with the open line (-f threads) */
	bool opened;        /* the head was written */
	size_t open_len;    /* columns the open line took */
	bool fork_counted;  /* a fork/clone counted as a new task on entry */
	struct trace_task task; /* the thread as the call's entry saw it */
	struct timespec start;
	const char *restart; /* "ERESTARTSYS (...)": interrupted, see below */
	char resuming[32];   /* the call an ERESTART_RESTARTBLOCK left */
	bool resuming_restart; /* ... itself shown as restart_syscall */
	uint64_t resume_rip; /* ... and where (a restart enters it again) */
	bool as_restart;     /* this call is that one again */
	bool entry_multi;    /* several tasks when the call began (strace
				* writes a line's start, prefix and all, then) */
} pending;

__thread uint64_t trace_entry_sp;

static int my_tid(void)
{
	return (int)syscall(SYS_gettid);
}

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

/* Several tasks are traced into one output: prefixes, lines left open
 * (never with -ff, where each task has its own file). */
static bool multi(const struct trace *tr)
{
	return !(tr->flags & SG_TRACE_PER_TASK) &&
	       __atomic_load_n(&tr->sh->tasks, __ATOMIC_RELAXED) > 1;
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
	tr->tl_first_tid = my_tid();
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
	int tid = my_tid(), fd, flags = O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC;
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

static void write_all(struct trace *tr, const char *p, size_t left)
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
static void close_open_line(struct trace *tr, int except_tid)
{
	static const char unfinished[] = " <unfinished ...>\n";

	if (tr->sh->open_tid && tr->sh->open_tid != except_tid) {
		write_all(tr, unfinished, sizeof(unfinished) - 1);
		tr->sh->open_tid = 0;
	}
}

/* Write a whole line (a newline is added). */
void trace_emit(struct trace *tr, struct tline *l)
{
	l->buf[l->len++] = '\n'; /* tl_* always leave room for it */
	if ((tr->flags & SG_TRACE_FOLLOW) && !(tr->flags & SG_TRACE_PER_TASK)) {
		trace_sh_lock(tr);
		close_open_line(tr, 0);
		write_all(tr, l->buf, l->len);
		trace_sh_unlock(tr);
	} else {
		write_all(tr, l->buf, l->len);
	}
}

/* "[pid  123] " with -f and more than one task (several: as they were
 * when the line began); -t/-tt/-ttt time. */
static void print_prefix_as(struct trace *tr, struct tline *l, bool several)
{
	/* strace -f -o FILE starts every line with the pid ("%-5d "); on a
	 * terminal it adds "[pid N] " while several tasks run */
	if (tr->flags & SG_TRACE_PER_TASK)
		; /* -ff: the file says which task */
	else if (tr->sh->to_file && (tr->flags & SG_TRACE_FOLLOW))
		tl_printf(l, "%-5d ", my_tid());
	else if (several)
		tl_printf(l, "[pid %5d] ", my_tid());
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
	print_prefix_as(tr, l, multi(tr));
}

static const char *mech_name(enum cpu_syscall_mech mech)
{
	switch (mech) {
	case CPU_MECH_SYSCALL: return "syscall";
	case CPU_MECH_SYSENTER: return "sysenter";
	case CPU_MECH_INT80: return "int80";
	}
	return "?";
}

static enum sg_abi abi_of(enum sg_table t)
{
	return t == SG_TABLE_I386 ? SG_ABI_I386 : t == SG_TABLE_X32 ? SG_ABI_X32 : SG_ABI_X64;
}

/* The trace cannot call core's sg_abi_name (dependencies point one way). */
static const char *proc_abi_name(enum sg_abi abi)
{
	return abi == SG_ABI_I386 ? "i386" : abi == SG_ABI_X32 ? "x32" : "x86_64";
}

/* " [i386 int80 4 sys_write]": the path of the call (SG_TRACE_ENTRY). */
/* The entry column starts here when the line is shorter, so the columns
 * of successive lines line up. */
#define TRACE_ENTRY_COLUMN 80

static void print_entry_note(struct tline *l, const struct sg_syscall_call *call)
{
	const struct sg_syscall_table *tab = sg_syscall_table(call->table);
	unsigned attrs = trace_entry_attrs(call);
	size_t col = l->col0 + l->len;

	/* aligned: a column for the table, the mechanism and the number,
	 * which is the table's row number in decimal (x32's without its
	 * 0x40000000 bit: the table says x32) */
	tl_putc(l, ' ');
	while (col + 1 < TRACE_ENTRY_COLUMN && l->len + 1 < sizeof(l->buf) - 1) {
		tl_putc(l, ' ');
		col++;
	}
	tl_printf(l, "[%-6s %-8s %3llu", tab ? tab->abi_name : "?", mech_name(call->mech),
		  (unsigned long long)(call->table == SG_TABLE_X32 ? call->nr & ~0x40000000ull
								 : call->nr));
	if (call->row)
		tl_printf(l, " %s", call->row->entry);
	if (attrs & TRACE_ENTRY_MISSING)
		tl_puts(l, " missing");
	if (attrs & TRACE_ENTRY_COMPAT)
		tl_puts(l, " compat"); /* a compat handler translated the layout */
	if (attrs & TRACE_ENTRY_VDSO_FN) /* a vDSO time function, answered in sysgate */
		tl_puts(l, " vdso-fn");
	else if (attrs & TRACE_ENTRY_VDSO)
		tl_puts(l, " vdso");
	/* the table is chosen per call: INT 0x80 from 64-bit code is i386 */
	if (pending.task.abi != SG_ABI_NONE && pending.task.abi != abi_of(call->table))
		tl_printf(l, " from-%s", proc_abi_name(pending.task.abi));
	tl_putc(l, ']');
}

/* Six hex arguments for numbers without a row (strace's syscall_0x...). */
static const struct systab_sig unknown_sig = {
	SYSTAB_RET_DEC, 6,
	{ SYSTAB_ARG_HEX, SYSTAB_ARG_HEX, SYSTAB_ARG_HEX, SYSTAB_ARG_HEX,
	  SYSTAB_ARG_HEX, SYSTAB_ARG_HEX },
};

/* The calls socketcall and ipc carry that are shown under a name of their
 * own while an i386 row runs them (send, recv and accept: sendto,
 * recvfrom and accept4, syscall/carried.h): a copy of that row and its
 * argument kinds with the name and count changed, per carried call. */
static struct sg_syscall_row renamed_rows[SG_CARRIED__COUNT];
static struct systab_sig renamed_sigs[SG_CARRIED__COUNT];
static pthread_once_t renamed_once = PTHREAD_ONCE_INIT;

static void renamed_rows_init(void)
{
	const struct sg_syscall_table *tab = sg_syscall_table(SG_TABLE_I386);

	for (unsigned id = 0; tab && id < SG_CARRIED__COUNT; id++) {
		const struct sg_carried_def *def = sg_carried_def((enum sg_carried_id)id);
		const struct systab_sig *sig;

		if (def->row < 0 || (unsigned)def->row >= tab->size ||
		    !tab->rows[def->row].name[0] || !strcmp(tab->rows[def->row].name, def->name) ||
		    !(sig = systab_sig(SG_TABLE_I386, (unsigned)def->row)))
			continue;
		renamed_rows[id] = tab->rows[def->row];
		/* the carried names are short ("socket", "recvmmsg") */
		snprintf(renamed_rows[id].name, sizeof(renamed_rows[id].name), "%s", def->name);
		renamed_rows[id].nargs = def->nargs;
		renamed_sigs[id] = *sig;
		renamed_sigs[id].nargs = (unsigned char)def->nargs;
	}
}

static const struct systab_sig *sig_of(const struct sg_syscall_call *call)
{
	const struct systab_sig *sig;

	if (call->row >= renamed_rows && call->row < renamed_rows + SG_CARRIED__COUNT)
		return &renamed_sigs[call->row - renamed_rows];
	sig = call->row ? systab_sig(call->table, call->index) : NULL;
	return sig ? sig : &unknown_sig;
}

/* Format argument i into pending.text. */
static void format_arg(struct trace *tr, const struct mm *mm,
		       const struct sg_syscall_call *call,
		       const struct systab_sig *sig, unsigned i, bool exiting)
{
	struct tline arg = { .len = 0 };
	size_t room = sizeof(pending.text) - pending.used;

	pending.shown[i] = trace_print_arg(&arg, mm, tr, call, sig, i, exiting);
	if (arg.len > room)
		arg.len = room;
	memcpy(pending.text + pending.used, arg.buf, arg.len);
	pending.off[i] = (unsigned)pending.used;
	pending.len[i] = (unsigned)arg.len;
	pending.used += arg.len;
}

/* Part of a split argument (the head as its text, the tail after it). */
static void format_part(struct trace *tr, const struct mm *mm,
			const struct sg_syscall_call *call,
			const struct systab_sig *sig, unsigned i, int part)
{
	struct tline arg = { .len = 0 };
	size_t room = sizeof(pending.text) - pending.used;
	bool shown = trace_print_arg_part(&arg, mm, tr, call, sig, i, part);

	if (arg.len > room)
		arg.len = room;
	memcpy(pending.text + pending.used, arg.buf, arg.len);
	if (part == TARG_TAIL) {
		pending.sfx_off[i] = (unsigned)pending.used;
		pending.sfx_len[i] = (unsigned)arg.len;
	} else {
		pending.shown[i] = shown;
		pending.off[i] = (unsigned)pending.used;
		pending.len[i] = (unsigned)arg.len;
	}
	pending.used += arg.len;
}

static void put_text(struct tline *l, unsigned off, unsigned len)
{
	for (unsigned k = 0; k < len; k++)
		tl_putc(l, pending.text[off + k]);
}

/* Arguments from..to-1 of pending, with strace's ", " separators; first:
 * no separator before the first one shown. */
static bool print_args(struct tline *l, const struct systab_sig *sig,
		       unsigned from, unsigned to, bool first)
{
	for (unsigned i = from; i < to && i < sig->nargs && i < 6; i++) {
		if (!pending.shown[i])
			continue;
		if (!first)
			tl_puts(l, ", ");
		put_text(l, pending.off[i], pending.len[i]);
		put_text(l, pending.sfx_off[i], pending.sfx_len[i]);
		first = false;
	}
	return first;
}

static const char *name_of(const struct sg_syscall_call *call, char *buf,
			   size_t size)
{
	if (pending.as_restart)
		return "restart_syscall";
	if (call->row)
		return call->row->name;
	snprintf(buf, size, "syscall_%#llx", (unsigned long long)call->nr);
	return buf;
}

static bool is_call(const struct sg_syscall_call *call, const char *name)
{
	return call->row && !strcmp(call->row->name, name);
}

/* A call that returns -EINTR with a signal to deliver: the kernel returned
 * one of its restart codes, which a tracer sees ("= ? ERESTARTSYS (To be
 * restarted if SA_RESTART is set)"); what happens next (restart, -EINTR)
 * is decided at the delivery. The code is the one the kernel's handler
 * uses for the call. NULL: a plain -EINTR (calls never restarted). */
static const char *restart_code(const struct sg_syscall_call *call,
				const struct trace_task *task)
{
	static const char *const nohand[] = {
		"pause", "rt_sigsuspend", "sigsuspend", "select", "_newselect",
		"pselect6", "pselect6_time64", "ppoll", "ppoll_time64", "msgrcv",
		"msgsnd",
	};
	static const char *const eintr[] = {
		"epoll_wait", "epoll_pwait", "epoll_pwait2", "rt_sigtimedwait",
		"rt_sigtimedwait_time64", "io_getevents", "io_pgetevents",
		"io_pgetevents_time64", "semop", "semtimedop", "semtimedop_time64",
	};
	static const char sys[] = "ERESTARTSYS (To be restarted if SA_RESTART is set)";
	static const char nohandler[] = "ERESTARTNOHAND (To be restarted if no handler)";
	static const char block[] = "ERESTART_RESTARTBLOCK (Interrupted by signal)";
	const char *name = call->row ? call->row->name : "";

	if (call->result == -SG_ERESTARTNOINTR)
		return "ERESTARTNOINTR (To be restarted)"; /* never started */
	if (call->result != -EINTR || !task->signal_to_deliver)
		return NULL; /* a real -EINTR (nothing to deliver) */
	for (size_t i = 0; i < sizeof(eintr) / sizeof(eintr[0]); i++)
		if (!strcmp(name, eintr[i]))
			return NULL;
	for (size_t i = 0; i < sizeof(nohand) / sizeof(nohand[0]); i++)
		if (!strcmp(name, nohand[i]))
			return nohandler;
	if (!strcmp(name, "nanosleep") || !strcmp(name, "clock_nanosleep") ||
	    !strcmp(name, "clock_nanosleep_time64"))
		/* TIMER_ABSTIME sleeps are restarted as they are */
		return !strcmp(name, "nanosleep") || !(call->args[1] & 1) ? block : nohandler;
	if (!strcmp(name, "poll"))
		return (int32_t)call->args[2] >= 0 ? block : nohandler;
	if (!strcmp(name, "restart_syscall"))
		return task->restart_armed ? block : NULL; /* interrupted again */
	if (!strcmp(name, "futex") || !strcmp(name, "futex_time64")) {
		uint32_t cmd = (uint32_t)call->args[1] & 0x7f; /* FUTEX_CMD_MASK */

		/* a wait with a timeout resumes through the restart block */
		if ((cmd == 0 || cmd == 9) && call->args[3]) /* WAIT, WAIT_BITSET */
			return block;
	}
	return sys;
}

/* Result, result notes, -T, the entry annotation. */
static void finish_line(struct trace *tr, struct tline *l, const struct mm *mm,
			const struct sg_syscall_call *call, unsigned ret_kind)
{
	tl_putc(l, ' ');
	tl_tab_to_result(l);
	if (pending.restart && ret_kind != SYSTAB_RET_NONE) {
		tl_printf(l, "= ? %s", pending.restart);
		ret_kind = SYSTAB_RET_NONE; /* no result note */
	} else {
		trace_print_result(l, tr, call, ret_kind);
	}
	if (ret_kind != SYSTAB_RET_NONE && !pending.as_restart)
		trace_print_result_note(l, tr, call, mm);
	if ((tr->flags & SG_TRACE_DURATION) && ret_kind != SYSTAB_RET_NONE) {
		struct timespec now;
		long long ns;

		clock_gettime(CLOCK_MONOTONIC, &now);
		ns = (now.tv_sec - pending.start.tv_sec) * 1000000000ll +
		     (now.tv_nsec - pending.start.tv_nsec);
		tl_printf(l, " <%lld.%06lld>", ns / 1000000000, ns % 1000000000 / 1000);
	}
	if (tr->flags & SG_TRACE_ENTRY)
		print_entry_note(l, call);
}

/* Is this call printed at all? -c prints only the table; without -f only
 * the first thread of the first process is traced. */
static bool shows_lines(const struct trace *tr)
{
	return !(tr->flags & SG_TRACE_SUMMARY) && (tr->flags & SG_TRACE_SYSCALLS);
}

static bool traced_task(struct trace *tr)
{
	if (tr->flags & SG_TRACE_FOLLOW)
		return true;
	if (!tr->main_tid)
		tr->main_tid = my_tid();
	return tr->main_tid == my_tid();
}

/* The line is open with its first head arguments (multi-thread -f). */
static void open_line(struct trace *tr, const struct sg_syscall_call *call,
		      const struct systab_sig *sig)
{
	struct tline l = { .len = 0 };
	char nbuf[32];
	unsigned head = 0;

	while (head < sig->nargs && head < 6 && !pending.late[head])
		head++;
	print_prefix_as(tr, &l, pending.entry_multi);
	tl_printf(&l, "%s(", name_of(call, nbuf, sizeof(nbuf)));
	print_args(&l, sig, 0, head, true);
	/* a split argument's tail comes first on return (" => {...}, 88") */
	pending.head_sfx = head > 0 && pending.split[head - 1];
	if (head < sig->nargs && head > 0 && l.buf[l.len - 1] != '(' && !pending.head_sfx)
		tl_puts(&l, ", ");
	trace_sh_lock(tr);
	close_open_line(tr, 0);
	write_all(tr, l.buf, l.len);
	tr->sh->open_tid = my_tid();
	trace_sh_unlock(tr);
	pending.head = head;
	pending.opened = true;
	pending.open_len = l.len;
}

/* i386 socketcall(call, args) and ipc(call, first, second, third, ptr,
 * fifth): shown as the call they carry, with its arguments in its own
 * order, as strace shows them (syscall/carried.h). view is filled and
 * returned; call itself when it carries nothing the trace can name (an
 * unknown sub-call, an unreadable block, semop and the time32 semtimedop,
 * which have no i386 row). */
static const struct sg_syscall_call *carried_call_view(const struct sg_syscall_call *call,
						       struct sg_syscall_call *view,
						       const struct mm *mm)
{
	const struct sg_syscall_table *tab = sg_syscall_table(SG_TABLE_I386);
	bool ipc = is_call(call, "ipc");
	struct sg_carried c;
	uint32_t addr;

	if ((!ipc && !is_call(call, "socketcall")) || call->table != SG_TABLE_I386 ||
	    !tab || !mm)
		return call;
	if ((ipc ? sg_carried_ipc : sg_carried_socketcall)(call->args, copy_from_guest, mm, &c) ||
	    c.row < 0 || (unsigned)c.row >= tab->size)
		return call;
	pthread_once(&renamed_once, renamed_rows_init);
	*view = *call;
	view->index = (unsigned)c.row;
	view->nr = (unsigned)c.row;
	view->row = renamed_rows[c.id].name[0] ? &renamed_rows[c.id] : &tab->rows[c.row];
	memcpy(view->args, c.args, sizeof(view->args));
	/* ipc's shmat returns 0 and stores the address: shown as returned */
	if (c.result_at && call->result == 0 &&
	    !copy_from_guest(mm, &addr, c.result_at, sizeof(addr)))
		view->result = addr;
	return view;
}

void trace_initial_execve(struct trace *tr, const struct trace_task *task,
			  uint64_t sp)
{
	const struct mm *mm = task->mm;
	enum sg_table table = task->abi == SG_ABI_I386 ? SG_TABLE_I386
			      : task->abi == SG_ABI_X32 ? SG_TABLE_X32 : SG_TABLE_X64;
	const struct sg_syscall_table *tab = sg_syscall_table(table);
	unsigned word = task->abi == SG_ABI_X64 ? 8 : 4;
	uint64_t argc = 0, v = 0, at, execfn = 0;
	struct sg_syscall_call call;

	if (!tab || copy_from_guest(mm, &argc, sp, word))
		return;
	/* past argv and envp (each NULL-terminated) to the auxv pairs */
	at = sp + (argc + 2) * word;
	do {
		v = 0;
		if (copy_from_guest(mm, &v, at, word))
			return;
		at += word;
	} while (v);
	for (uint64_t type = 1; type; at += 2 * word) {
		type = 0;
		if (copy_from_guest(mm, &type, at, word) ||
		    copy_from_guest(mm, &v, at + word, word))
			return;
		if (type == 31) /* AT_EXECFN */
			execfn = v;
	}
	memset(&call, 0, sizeof(call));
	call.table = table;
	for (unsigned r = 0; r < tab->size; r++)
		if (!strcmp(tab->rows[r].name, "execve")) {
			call.index = r;
			call.row = &tab->rows[r];
			break;
		}
	if (!call.row)
		return;
	call.nr = table == SG_TABLE_X32 ? call.index | 0x40000000u : call.index;
	/* (-c's breakdown by mechanism counts it under the ABI's own) */
	call.mech = table == SG_TABLE_I386 ? CPU_MECH_INT80 : CPU_MECH_SYSCALL;
	call.args[0] = execfn;
	call.args[1] = sp + word;
	call.args[2] = sp + (argc + 2) * word;
	/* no entry column: the guest made no call, its starter did (and
	 * only one thread exists yet, so the flags can be lent) */
	unsigned flags = tr->flags;

	tr->flags &= ~(unsigned)SG_TRACE_ENTRY;
	trace_syscall_enter(tr, task, &call);
	trace_syscall_exit(tr, task, &call);
	tr->flags = flags;
	if (tr->flags & SG_TRACE_SUMMARY)
		trace_count_as_starter(tr, &call);
}

/* i386's old select(2) (82) takes one pointer to its five arguments
 * (struct compat_sel_arg_struct): shown with them, as strace does. */
static const struct sg_syscall_call *oldselect_view(const struct sg_syscall_call *call,
						    struct sg_syscall_call *view,
						    const struct mm *mm)
{
	struct compat_sel_arg_struct s;

	if (!is_call(call, "select") || call->table != SG_TABLE_I386 || !mm ||
	    copy_from_guest(mm, &s, (uint32_t)call->args[0], sizeof(s)))
		return call;
	*view = *call;
	memset(view->args, 0, sizeof(view->args));
	view->args[0] = s.n;
	view->args[1] = s.inp;
	view->args[2] = s.outp;
	view->args[3] = s.exp;
	view->args[4] = s.tvp;
	return view;
}

/* socketcall, ipc or the old select shown as the call it carries */
static const struct sg_syscall_call *carried_view(const struct sg_syscall_call *call,
						  struct sg_syscall_call *view,
						  const struct mm *mm)
{
	const struct sg_syscall_call *v = carried_call_view(call, view, mm);

	return v != call ? v : oldselect_view(call, view, mm);
}

/* A new thread or child process: prefixes from now on (strace prints them
 * while it traces more than one task). */
static bool is_fork(const struct sg_syscall_call *call)
{
	return is_call(call, "clone") || is_call(call, "clone3") ||
	       is_call(call, "fork") || is_call(call, "vfork");
}

/* Counted when the call starts: strace attaches the child during the
 * call, so the child's first lines (a vfork child's execve) and the rest
 * of the parent's call already have prefixes. */
static void note_fork_enter(struct trace *tr, const struct sg_syscall_call *call)
{
	pending.fork_counted = (tr->flags & SG_TRACE_FOLLOW) && is_fork(call);
	if (pending.fork_counted)
		__atomic_add_fetch(&tr->sh->tasks, 1, __ATOMIC_RELAXED);
}

/* ... and uncounted if it failed. */
static void note_new_task(struct trace *tr, const struct sg_syscall_call *call)
{
	if (pending.fork_counted && call->result < 0)
		__atomic_sub_fetch(&tr->sh->tasks, 1, __ATOMIC_RELAXED);
	pending.fork_counted = false;
}

/* A task is gone (after its last line): prefixes stop with the last but
 * one, as strace's do. */
static void note_task_gone(struct trace *tr)
{
	if ((tr->flags & SG_TRACE_FOLLOW) &&
	    __atomic_load_n(&tr->sh->tasks, __ATOMIC_RELAXED) > 1)
		__atomic_sub_fetch(&tr->sh->tasks, 1, __ATOMIC_RELAXED);
}

/* A thread that is not the last ends with exit(2): strace sees it go,
 * "+++ exited with 0 +++" (the leader's line comes with the process's
 * end). */
static void thread_exit_line(struct trace *tr, const struct trace_task *task,
			     const struct sg_syscall_call *call)
{
	struct tline end = { .len = 0 };

	if (!is_call(call, "exit") || !task->exit_ends_thread)
		return;
	if (tr->tl_fd >= 0) {
		char text[64];
		int n = snprintf(text, sizeof(text), "+++ exited with %d +++",
				 (int)(call->args[0] & 0xff));

		timeline_instant(tr, "exit", text, (size_t)n);
	}
	if (!shows_lines(tr))
		return;
	if (tr->filter.quiet_exit) {
		note_task_gone(tr);
		return;
	}
	trace_print_prefix(tr, &end);
	tl_printf(&end, "+++ exited with %d +++", (int)(call->args[0] & 0xff));
	trace_emit(tr, &end);
	note_task_gone(tr);
}

/* --trace-timeline: the call as a slice named by its whole strace line
 * (no prefix, never split), from its entry to now. */
static void timeline_line(struct trace *tr, const struct trace_task *task,
			  const struct sg_syscall_call *call, const struct systab_sig *sig,
			  unsigned ret_kind)
{
	static __thread struct tline full;
	static __thread int started_tid;
	uint64_t now = timeline_now_ns();
	uint64_t start = (uint64_t)pending.start.tv_sec * 1000000000u +
			 (uint64_t)pending.start.tv_nsec;
	char nbuf[32];

	if (started_tid != my_tid()) {
		/* a new task's first event ends its creator's flow */
		started_tid = my_tid();
		if (started_tid != tr->tl_first_tid)
			timeline_task_start(tr, start);
	}
	full.len = 0;
	full.col0 = 0;
	tl_printf(&full, "%s(", name_of(call, nbuf, sizeof(nbuf)));
	print_args(&full, sig, 0, 6, true);
	tl_putc(&full, ')');
	finish_line(tr, &full, task->mm, call, ret_kind);
	timeline_syscall(tr, call, full.buf, full.len, start,
			 ret_kind == SYSTAB_RET_NONE || now < start ? start : now,
			 is_fork(call));
}

void trace_syscall_enter(struct trace *tr, const struct trace_task *task,
			 const struct sg_syscall_call *orig)
{
	const struct sg_syscall_call *call = carried_view(orig, &pending.view, task->mm);
	const struct systab_sig *sig = sig_of(call);

	/* the interrupted call entered again, or restart_syscall(2) going on
	 * with it (the restart block of a timed wait) */
	bool resumes = pending.resuming[0] && call->row &&
		       ((task->rip == pending.resume_rip &&
			 !strcmp(call->row->name, pending.resuming)) ||
			!strcmp(call->row->name, "restart_syscall"));
	char resumed[sizeof(pending.resuming)];

	memcpy(resumed, pending.resuming, sizeof(resumed));

	pending.call = NULL;
	pending.restart = NULL;
	pending.as_restart = false;
	pending.resuming[0] = '\0';
	pending.task = *task;
	trace_entry_sp = task->sp;
	pending.entry_multi = multi(tr); /* before a fork counts its child */
	note_fork_enter(tr, call);
	if (!traced_task(tr))
		return;
	if (!trace_filter_wants(&tr->filter, call)) {
		/* strace shows a thread's end whatever -e trace= says */
		if (shows_lines(tr) || tr->tl_fd >= 0)
			thread_exit_line(tr, task, call);
		return;
	}
	clock_gettime(CLOCK_MONOTONIC, &pending.start);
	pending.call = orig;
	pending.used = 0;
	pending.opened = false;
	pending.head = 0;
	memset(pending.shown, 0, sizeof(pending.shown));
	memset(pending.sfx_len, 0, sizeof(pending.sfx_len));
	pending.head_sfx = false;
	for (unsigned i = 0; i < sig->nargs && i < 6; i++) {
		pending.split[i] = trace_arg_is_split(call, sig, i);
		if (pending.split[i]) {
			pending.late[i] = false;
			format_part(tr, task->mm, call, sig, i, TARG_HEAD);
			continue;
		}
		pending.late[i] = trace_arg_is_late(call, sig, i);
		if (!pending.late[i])
			format_arg(tr, task->mm, call, sig, i, false);
	}
	if (resumes) {
		/* the kernel goes on through restart_syscall(2), which strace
		 * shows with what it resumes; sysgate enters the call again */
		int n = snprintf(pending.text, sizeof(pending.text),
				 "<... resuming interrupted %s ...>",
				 /* strace names the call shown last */
				 pending.resuming_restart ? "restart_syscall" : resumed);

		memset(pending.late, 0, sizeof(pending.late));
		memset(pending.shown, 0, sizeof(pending.shown));
		memset(pending.split, 0, sizeof(pending.split));
		pending.shown[0] = true;
		pending.off[0] = 0;
		pending.len[0] = (unsigned)n;
		pending.used = (size_t)n;
		pending.as_restart = true;
	}
	if (tr->tl_fd >= 0 && sig->ret == SYSTAB_RET_NONE)
		timeline_line(tr, task, call, sig, SYSTAB_RET_NONE);
	if (!shows_lines(tr)) {
		if (tr->tl_fd >= 0)
			thread_exit_line(tr, task, call); /* its exit, as an event */
		return;
	}
	if (sig->ret == SYSTAB_RET_NONE) {
		/* no exit will come: print now, as strace does */
		struct tline l = { .len = 0 };
		char nbuf[32];

		if (!trace_filter_status(&tr->filter, call, false)) { /* unfinished */
			pending.call = NULL;
			thread_exit_line(tr, task, call);
			return;
		}

		trace_print_prefix(tr, &l);
		tl_printf(&l, "%s(", name_of(call, nbuf, sizeof(nbuf)));
		print_args(&l, sig, 0, 6, true);
		tl_putc(&l, ')');
		finish_line(tr, &l, task->mm, call, SYSTAB_RET_NONE);
		trace_emit(tr, &l);
		pending.call = NULL;
		thread_exit_line(tr, task, call);
		return;
	}
	/* a fork's child may print before the call returns: the line is
	 * begun now, as strace writes it, with the prefixes of before
	 * (with -e status=, only once the result says it is shown) */
	if ((pending.entry_multi || pending.fork_counted) && tr->filter.status == ~0u &&
	    !(tr->flags & SG_TRACE_PER_TASK))
		open_line(tr, call, sig);
}

void trace_syscall_exit(struct trace *tr, const struct trace_task *task,
			const struct sg_syscall_call *orig)
{
	struct sg_syscall_call view;
	const struct sg_syscall_call *call = carried_view(orig, &view, task->mm);
	const struct systab_sig *sig = sig_of(call);
	struct tline l = { .len = 0 };
	char nbuf[32];

	if (task != &pending.task)
		pending.task = *task;
	if (sig->ret == SYSTAB_RET_NONE) { /* shown on entry (exit, exit_group) */
		pending.call = NULL;
		return;
	}
	if (pending.call != orig) {
		if (!traced_task(tr) || !trace_filter_wants(&tr->filter, call))
			return;
		/* no enter was seen: format everything now */
		pending.used = 0;
		pending.opened = false;
		memset(pending.late, 1, sizeof(pending.late));
		memset(pending.split, 0, sizeof(pending.split));
		memset(pending.sfx_len, 0, sizeof(pending.sfx_len));
		clock_gettime(CLOCK_MONOTONIC, &pending.start);
		pending.entry_multi = multi(tr);
	}
	if (call->result == 0 && is_fork(call)) {
		/* the child's side: a tracer never sees it return */
		pending.call = NULL;
		pending.fork_counted = false;
		return;
	}
	if ((tr->flags & SG_TRACE_SUMMARY) && sig->ret != SYSTAB_RET_NONE) {
		/* exit and exit_group never return: strace counts only calls
		 * it sees return */
		struct timespec now;

		clock_gettime(CLOCK_MONOTONIC, &now);
		trace_count_call(tr, call,
				 (uint64_t)((now.tv_sec - pending.start.tv_sec) * 1000000000ll +
					    (now.tv_nsec - pending.start.tv_nsec)));
	}
	pending.restart = restart_code(call, task);
	if (pending.restart && !strncmp(pending.restart, "ERESTART_", 9) && call->row &&
	    strlen(call->row->name) < sizeof(pending.resuming)) {
		/* ERESTART_RESTARTBLOCK: resumed through restart_syscall */
		strcpy(pending.resuming, call->row->name);
		pending.resuming_restart = pending.as_restart;
		pending.resume_rip = task->rip;
	}
	for (unsigned i = 0; i < sig->nargs && i < 6; i++)
		if (pending.split[i])
			format_part(tr, task->mm, call, sig, i, TARG_TAIL);
		else if (pending.late[i])
			format_arg(tr, task->mm, call, sig, i, true);
	pending.call = NULL;
	if (tr->tl_fd >= 0)
		timeline_line(tr, task, call, sig, sig->ret);
	if (!shows_lines(tr)) {
		note_new_task(tr, call);
		return;
	}
	if (pending.opened) {
		/* Both endings are built first: whether another task's line
		 * came in between (the line was left "<unfinished ...>") is
		 * only known under the lock that writes, so it is decided
		 * there; a decision taken earlier could let another task open
		 * its line in between and glue this tail to it. */
		static __thread struct tline resumed_line;
		struct tline *resumed = &resumed_line;

		l.col0 = pending.open_len;
		if (pending.head_sfx)
			put_text(&l, pending.sfx_off[pending.head - 1],
				 pending.sfx_len[pending.head - 1]);
		print_args(&l, sig, pending.head, 6, !pending.head_sfx);
		tl_putc(&l, ')');
		finish_line(tr, &l, task->mm, call, sig->ret);
		l.buf[l.len++] = '\n';
		resumed->len = 0;
		resumed->col0 = 0;
		trace_print_prefix(tr, resumed);
		tl_printf(resumed, "<... %s resumed>", name_of(call, nbuf, sizeof(nbuf)));
		if (pending.head_sfx)
			put_text(resumed, pending.sfx_off[pending.head - 1],
				 pending.sfx_len[pending.head - 1]);
		print_args(resumed, sig, pending.head, 6, !pending.head_sfx);
		tl_putc(resumed, ')');
		finish_line(tr, resumed, task->mm, call, sig->ret);
		resumed->buf[resumed->len++] = '\n';
		trace_sh_lock(tr);
		if (tr->sh->open_tid == my_tid()) {
			tr->sh->open_tid = 0;
			write_all(tr, l.buf, l.len);
		} else {
			close_open_line(tr, 0);
			write_all(tr, resumed->buf, resumed->len);
		}
		trace_sh_unlock(tr);
		note_new_task(tr, call);
		return;
	}
	if (!trace_filter_status(&tr->filter, call, true)) { /* -e status= */
		note_new_task(tr, call);
		return;
	}
	print_prefix_as(tr, &l, pending.entry_multi);
	tl_printf(&l, "%s(", name_of(call, nbuf, sizeof(nbuf)));
	print_args(&l, sig, 0, 6, true);
	tl_putc(&l, ')');
	finish_line(tr, &l, task->mm, call, sig->ret);
	trace_emit(tr, &l);
	note_new_task(tr, call);
}

void trace_syscall_exec(struct trace *tr, const struct sg_syscall_call *call)
{
	struct sg_syscall_call done = *call;

	if (pending.call != call)
		return;
	done.result = 0;
	pending.call = &done;
	trace_syscall_exit(tr, &pending.task, &done);
}

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
		note_task_gone(tr);
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
	note_task_gone(tr);
}

/* --- result notes ----------------------------------------------------------- */

void trace_print_poll_note(const struct targ *a);

/* What strace adds after some results: fcntl's flags, poll's revents. */
void trace_print_result_note(struct tline *l, const struct trace *tr,
			     const struct sg_syscall_call *call,
			     const struct mm *mm)
{
	struct targ a = { l, mm, call, tr, 0, true, TARG_WHOLE };

	if (call->result < 0 && call->result >= -4095)
		return;
	if (is_call(call, "set_thread_area") && call->result == 0) {
		int32_t entry;

		/* the kernel wrote back the GDT entry it chose */
		if (tread(&a, &entry, targ_ulong(&a, call->args[0]), sizeof(entry)))
			tl_printf(l, " (entry_number=%d)", entry);
	} else if (is_call(call, "poll") || is_call(call, "ppoll") ||
	    is_call(call, "ppoll_time64")) {
		trace_print_poll_note(&a);
	} else if (is_call(call, "select") || is_call(call, "_newselect") ||
		   is_call(call, "pselect6") || is_call(call, "pselect6_time64")) {
		trace_print_select_note(&a);
	} else if (is_call(call, "time")) {
		trace_print_time_note(&a);
	} else if (is_call(call, "recvmmsg") || is_call(call, "recvmmsg_time64")) {
		/* the timeout's rest, which the kernel wrote back */
		if (call->args[4]) {
			tl_puts(l, " (left ");
			trace_print_timespec(&a, call->table == SG_TABLE_X64 ? call->args[4]
							: (uint32_t)call->args[4],
					     call->table == SG_TABLE_I386 &&
					     !is_call(call, "recvmmsg_time64") ? 4 : 8);
			tl_putc(l, ')');
		}
	} else if (is_call(call, "rt_sigtimedwait") || is_call(call, "rt_sigtimedwait_time64")) {
		tl_puts(l, " (");
		tprint_signame(l, (int)call->result, false);
		tl_putc(l, ')');
	} else if (is_call(call, "personality")) {
		/* <sys/personality.h> has enumerators, no macros to generate
		 * a set from: the ones a Linux program runs with */
		static const struct {
			unsigned value;
			const char *name;
		} pers[] = { { PER_LINUX, "PER_LINUX" }, { PER_LINUX_32BIT, "PER_LINUX_32BIT" },
			     { PER_LINUX32, "PER_LINUX32" } };

		for (size_t i = 0; i < sizeof(pers) / sizeof(pers[0]); i++)
			if ((uint32_t)call->result == pers[i].value)
				tl_printf(l, " (%s)", pers[i].name);
	} else if (is_call(call, "prctl") &&
		   call->args[0] == (uint64_t)xlat_value(&xlat_prctlop, "PR_GET_DUMPABLE")) {
		const char *name = trace_suid_dump_name((uint64_t)call->result);

		if (name)
			tl_printf(l, " (%s)", name);
	} else if (is_call(call, "sched_getscheduler")) {
		const char *policy = xlat_name(&xlat_schedpolicy, (uint64_t)call->result);

		if (policy)
			tl_printf(l, " (%s)", policy);
	} else if (is_call(call, "fcntl") || is_call(call, "fcntl64")) {
		const char *cmd = xlat_name(&xlat_fcntlcmd, (uint32_t)call->args[1]);

		if (!cmd)
			return;
		/* the result printed as strace does: hex, then the flags */
		if (!strcmp(cmd, "F_GETFL") ||
		    (!strcmp(cmd, "F_GETFD") && call->result)) {
			size_t eq = l->len;

			while (eq > 0 && l->buf[eq - 1] != '=')
				eq--;
			l->len = eq;
			tl_printf(l, " %#lx (flags ", call->result);
			if (!strcmp(cmd, "F_GETFL"))
				tk_accmodeflags(&a, (uint64_t)call->result);
			else
				tprint_flags(l, &xlat_fdflags, (uint64_t)call->result);
			tl_putc(l, ')');
		}
	}
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
