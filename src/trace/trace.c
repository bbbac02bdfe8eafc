/* strace-format syscall trace: one line per call, written whole with one
 * write(2) so lines of different threads never interleave.
 *
 * The arguments are formatted when the call enters (input strings are
 * read before the call can change or unmap them, as strace does) and the
 * line is printed when it returns, with the output buffers and the
 * result. Calls that never return (exit, exit_group) are printed on entry
 * with "= ?". See docs/trace-format.md.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/process.h"
#include "trace/trace.h"
#include "trace/trace_internal.h"

struct trace {
	int fd;
	bool own_fd;
	unsigned flags;
};

/* The call between enter and exit, per guest thread (= host thread): its
 * arguments as formatted on entry. Output buffers (SYSTAB_ARG_OBUF) are
 * formatted on exit, when the result says how much was written. */
#define ARG_TEXT_MAX 192 /* a quoted 32-byte string is at most 4*32+5 */
static __thread struct pending {
	const struct sg_syscall_call *call;
	char arg[6][ARG_TEXT_MAX];
	bool shown[6]; /* false: the slot prints nothing (HI64) */
} pending;

struct trace *trace_create(int fd, unsigned flags)
{
	struct trace *tr = calloc(1, sizeof(*tr));

	if (!tr)
		return NULL;
	tr->fd = fd >= 0 ? fd : STDERR_FILENO;
	tr->own_fd = fd >= 0 && fd != STDERR_FILENO;
	tr->flags = flags;
	return tr;
}

void trace_destroy(struct trace *tr)
{
	if (!tr)
		return;
	if (tr->own_fd)
		close(tr->fd);
	free(tr);
}

static void emit(struct trace *tr, struct tline *l)
{
	const char *p = l->buf;
	size_t left;

	l->buf[l->len++] = '\n'; /* tl_* always leave room for it */
	left = l->len;
	while (left) {
		ssize_t n = write(tr->fd, p, left);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		p += n;
		left -= (size_t)n;
	}
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

/* " [i386 int80 4 sys_write]": the path of the call (SG_TRACE_ENTRY). */
static void print_entry_note(struct tline *l, const struct sg_syscall_call *call)
{
	const struct sg_syscall_table *tab = sg_syscall_table(call->table);

	tl_printf(l, " [%s %s ", tab ? tab->abi_name : "?", mech_name(call->mech));
	if (call->table == SG_TABLE_X32)
		tl_printf(l, "%#llx", (unsigned long long)call->nr);
	else
		tl_printf(l, "%llu", (unsigned long long)call->nr);
	if (call->row)
		tl_printf(l, " %s", call->row->entry);
	if (!call->row || (!call->row->fn && !systab_row_is_ni(call->row)))
		tl_puts(l, " missing");
	if (call->vdso_fn)
		tl_puts(l, " vdso-fn");
	else if (call->vdso)
		tl_puts(l, " vdso");
	tl_putc(l, ']');
}

/* Six hex arguments for numbers without a row (strace's syscall_0x...). */
static const struct systab_sig unknown_sig = {
	SYSTAB_RET_DEC, 6,
	{ SYSTAB_ARG_HEX, SYSTAB_ARG_HEX, SYSTAB_ARG_HEX, SYSTAB_ARG_HEX,
	  SYSTAB_ARG_HEX, SYSTAB_ARG_HEX },
};

static const struct systab_sig *sig_of(const struct sg_syscall_call *call)
{
	const struct systab_sig *sig =
		call->row ? systab_sig(call->table, call->index) : NULL;

	return sig ? sig : &unknown_sig;
}

/* Format the arguments of call into pending.arg[]. exiting: all of them
 * (no enter was seen); else all but the output buffers, done on exit. */
static void format_args(const struct mm *mm, const struct sg_syscall_call *call,
			const struct systab_sig *sig, bool exiting)
{
	for (unsigned i = 0; i < sig->nargs && i < 6; i++) {
		struct tline arg = { .len = 0 };
		bool late = sig->arg[i] == SYSTAB_ARG_OBUF;

		if (late != exiting && !(exiting && pending.call != call))
			continue;
		pending.shown[i] = trace_print_arg(&arg, mm, call, sig, i, exiting);
		if (arg.len >= ARG_TEXT_MAX)
			arg.len = ARG_TEXT_MAX - 1;
		memcpy(pending.arg[i], arg.buf, arg.len);
		pending.arg[i][arg.len] = '\0';
	}
}

/* "name(arg, arg, ...)" from pending.arg[] */
static void print_call(struct tline *l, const struct sg_syscall_call *call,
		       const struct systab_sig *sig)
{
	bool first = true;

	if (call->row)
		tl_printf(l, "%s(", call->row->name);
	else
		tl_printf(l, "syscall_%#llx(", (unsigned long long)call->nr);
	for (unsigned i = 0; i < sig->nargs && i < 6; i++) {
		if (!pending.shown[i])
			continue;
		if (!first)
			tl_puts(l, ", ");
		tl_puts(l, pending.arg[i]);
		first = false;
	}
	tl_putc(l, ')');
}

static void finish_line(struct trace *tr, struct tline *l,
			const struct sg_syscall_call *call, unsigned ret_kind)
{
	tl_putc(l, ' ');
	tl_tab_to_result(l);
	trace_print_result(l, call, ret_kind);
	if (tr->flags & SG_TRACE_ENTRY)
		print_entry_note(l, call);
	emit(tr, l);
}

static const struct mm *mm_of(struct sg_thread *t)
{
	return t && t->proc ? t->proc->mm : NULL;
}

void trace_syscall_enter(struct trace *tr, struct sg_thread *t,
			 const struct sg_syscall_call *call)
{
	const struct systab_sig *sig = sig_of(call);

	memset(pending.shown, 0, sizeof(pending.shown));
	pending.call = call;
	format_args(mm_of(t), call, sig, false);
	if (sig->ret == SYSTAB_RET_NONE) {
		/* no exit will come: print now, as strace does */
		struct tline l = { .len = 0 };

		print_call(&l, call, sig);
		finish_line(tr, &l, call, SYSTAB_RET_NONE);
		pending.call = NULL;
	}
}

void trace_syscall_exit(struct trace *tr, struct sg_thread *t,
			const struct sg_syscall_call *call)
{
	const struct systab_sig *sig = sig_of(call);
	struct tline l = { .len = 0 };

	if (sig->ret == SYSTAB_RET_NONE && pending.call != call)
		return; /* printed on entry */
	if (pending.call != call)
		memset(pending.shown, 0, sizeof(pending.shown));
	format_args(mm_of(t), call, sig, true);
	print_call(&l, call, sig);
	finish_line(tr, &l, call, sig->ret);
	pending.call = NULL;
}

void trace_exit(struct trace *tr, const struct sg_exit *status)
{
	struct tline l = { .len = 0 };

	if (status->signaled) {
		const char *abbrev = sigabbrev_np(status->signal);

		if (abbrev)
			tl_printf(&l, "+++ killed by SIG%s +++", abbrev);
		else
			tl_printf(&l, "+++ killed by SIG%d +++", status->signal);
	} else {
		tl_printf(&l, "+++ exited with %d +++", status->code);
	}
	emit(tr, &l);
}
