/* strace-format syscall lines: one line per call, written with one
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
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "mm/mm.h"
#include "trace/trace.h"
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
	unsigned sfx_arg;   /* which argument that is */
	unsigned head;      /* args written with the open line (-f threads) */
	bool opened;        /* the head was written */
	size_t open_len;    /* columns the open line took */
	bool fork_counted;  /* a fork/clone counted as a new task on entry */
	struct trace_task task; /* the thread as the call's entry saw it */
	struct timespec start;
	const char *restart; /* "ERESTARTSYS (...)": interrupted, see below */
	char resuming[32];   /* the call an ERESTART_RESTARTBLOCK left */
	bool resuming_restart; /* ... itself shown as restart_syscall */
	bool as_restart;     /* this call is that one again */
	bool entry_multi;    /* several tasks when the call began (strace
				* writes a line's start, prefix and all, then) */
	const struct sg_syscall_call *exec_shown; /* an execve's line printed by
				* trace_syscall_exec: its return (an execve in
				* place) prints nothing more */
} pending;

__thread uint64_t trace_entry_sp;

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

/* A call a signal interrupted returns one of the kernel's restart codes
 * (syscall/table.h), which a tracer sees as strace prints them ("= ?
 * ERESTARTSYS (To be restarted if SA_RESTART is set)"); what happens next
 * (restart, EINTR) is decided at the delivery. NULL: any other result. */
static const char *restart_code(const struct sg_syscall_call *call)
{
	switch (call->result) {
	case -SG_ERESTARTSYS:
		return "ERESTARTSYS (To be restarted if SA_RESTART is set)";
	case -SG_ERESTARTNOINTR:
		return "ERESTARTNOINTR (To be restarted)";
	case -SG_ERESTARTNOHAND:
		return "ERESTARTNOHAND (To be restarted if no handler)";
	case -SG_ERESTART_RESTARTBLOCK:
		return "ERESTART_RESTARTBLOCK (Interrupted by signal)";
	default:
		return NULL;
	}
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
		tr->main_tid = trace_tid();
	return tr->main_tid == trace_tid();
}

/* The line is open with its first head arguments (multi-thread -f). */
static void open_line(struct trace *tr, const struct sg_syscall_call *call,
		      const struct systab_sig *sig)
{
	struct tline l = { .len = 0 };
	char nbuf[32];
	unsigned head = 0, last;

	while (head < sig->nargs && head < 6 && !pending.late[head])
		head++;
	/* the open line's last argument: the skips after clone's flags
	 * (which print the whole call) show nothing */
	last = head;
	while (last > 1 && !pending.shown[last - 1] && !pending.split[last - 1])
		last--;
	trace_print_prefix_as(tr, &l, pending.entry_multi);
	tl_printf(&l, "%s(", name_of(call, nbuf, sizeof(nbuf)));
	print_args(&l, sig, 0, head, true);
	/* a split argument's tail comes first on return (" => {...}, 88") */
	pending.head_sfx = last > 0 && pending.split[last - 1];
	pending.sfx_arg = last - 1;
	if (head < sig->nargs && head > 0 && l.buf[l.len - 1] != '(' && !pending.head_sfx)
		tl_puts(&l, ", ");
	trace_sh_lock(tr);
	trace_close_open_line(tr, 0);
	trace_write_all(tr, l.buf, l.len);
	tr->sh->open_tid = trace_tid();
	trace_sh_unlock(tr);
	pending.head = head;
	pending.opened = true;
	pending.open_len = l.len;
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

/* A new thread or child process: prefixes from now on (strace prints them
 * while it traces more than one task). */
static bool is_fork(const struct sg_syscall_call *call)
{
	return trace_is_call(call, "clone") || trace_is_call(call, "clone3") ||
	       trace_is_call(call, "fork") || trace_is_call(call, "vfork");
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
void trace_note_task_gone(struct trace *tr)
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

	if (!trace_is_call(call, "exit") || !task->exit_ends_thread)
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
		trace_note_task_gone(tr);
		return;
	}
	trace_print_prefix(tr, &end);
	tl_printf(&end, "+++ exited with %d +++", (int)(call->args[0] & 0xff));
	trace_emit(tr, &end);
	trace_note_task_gone(tr);
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

	if (started_tid != trace_tid()) {
		/* a new task's first event ends its creator's flow */
		started_tid = trace_tid();
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
	const struct sg_syscall_call *call = trace_call_view(orig, &pending.view, task->mm);
	const struct systab_sig *sig = trace_sig_of(call);

	/* restart_syscall(2) going on with an interrupted timed wait (its
	 * restart block) */
	bool resumes = pending.resuming[0] && call->row &&
		       !strcmp(call->row->name, "restart_syscall");
	char resumed[sizeof(pending.resuming)];

	memcpy(resumed, pending.resuming, sizeof(resumed));

	pending.call = NULL;
	pending.restart = NULL;
	pending.as_restart = false;
	pending.resuming[0] = '\0';
	pending.task = *task;
	trace_entry_sp = task->sp;
	pending.entry_multi = trace_multi(tr); /* before a fork counts its child */
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
	const struct sg_syscall_call *call = trace_call_view(orig, &view, task->mm);
	const struct systab_sig *sig = trace_sig_of(call);
	struct tline l = { .len = 0 };
	char nbuf[32];

	if (pending.exec_shown == orig && orig->result == 0) {
		pending.exec_shown = NULL;
		return; /* the line is out, the new image's registers in task */
	}
	pending.exec_shown = NULL;
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
		pending.entry_multi = trace_multi(tr);
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
	pending.restart = restart_code(call);
	if (call->result == -SG_ERESTART_RESTARTBLOCK && call->row &&
	    strlen(call->row->name) < sizeof(pending.resuming)) {
		/* resumed through restart_syscall */
		strcpy(pending.resuming, call->row->name);
		pending.resuming_restart = pending.as_restart;
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
			put_text(&l, pending.sfx_off[pending.sfx_arg],
				 pending.sfx_len[pending.sfx_arg]);
		print_args(&l, sig, pending.head, 6, !pending.head_sfx);
		tl_putc(&l, ')');
		finish_line(tr, &l, task->mm, call, sig->ret);
		l.buf[l.len++] = '\n';
		resumed->len = 0;
		resumed->col0 = 0;
		trace_print_prefix(tr, resumed);
		tl_printf(resumed, "<... %s resumed>", name_of(call, nbuf, sizeof(nbuf)));
		if (pending.head_sfx)
			put_text(resumed, pending.sfx_off[pending.sfx_arg],
				 pending.sfx_len[pending.sfx_arg]);
		print_args(resumed, sig, pending.head, 6, !pending.head_sfx);
		tl_putc(resumed, ')');
		finish_line(tr, resumed, task->mm, call, sig->ret);
		resumed->buf[resumed->len++] = '\n';
		trace_sh_lock(tr);
		if (tr->sh->open_tid == trace_tid()) {
			tr->sh->open_tid = 0;
			trace_write_all(tr, l.buf, l.len);
		} else {
			trace_close_open_line(tr, 0);
			trace_write_all(tr, resumed->buf, resumed->len);
		}
		trace_sh_unlock(tr);
		note_new_task(tr, call);
		return;
	}
	if (!trace_filter_status(&tr->filter, call, true)) { /* -e status= */
		note_new_task(tr, call);
		return;
	}
	trace_print_prefix_as(tr, &l, pending.entry_multi);
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
	pending.exec_shown = call;
}
