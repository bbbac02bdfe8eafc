/* How a call is shown: i386's socketcall and ipc as the call they carry
 * (syscall/carried.h, the demultiplexer the dispatch uses too), the old
 * select(2) with its five arguments, and the argument kinds of the row
 * shown (a renamed copy for the carried calls strace names differently,
 * six hex numbers for a number without a row). */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "mm/mm.h"
#include "syscall/carried.h"
#include "syscall/compat/compat.h"
#include "trace/trace_internal.h"

bool trace_is_call(const struct sg_syscall_call *call, const char *name)
{
	return call->row && !strcmp(call->row->name, name);
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

const struct systab_sig *trace_sig_of(const struct sg_syscall_call *call)
{
	const struct systab_sig *sig;

	if (call->row >= renamed_rows && call->row < renamed_rows + SG_CARRIED__COUNT)
		return &renamed_sigs[call->row - renamed_rows];
	sig = call->row ? systab_sig(call->table, call->index) : NULL;
	return sig ? sig : &unknown_sig;
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
	bool ipc = trace_is_call(call, "ipc");
	struct sg_carried c;
	uint32_t addr;

	if ((!ipc && !trace_is_call(call, "socketcall")) || call->table != SG_TABLE_I386 ||
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

/* i386's old select(2) (82) takes one pointer to its five arguments
 * (struct compat_sel_arg_struct): shown with them, as strace does. */
static const struct sg_syscall_call *oldselect_view(const struct sg_syscall_call *call,
						    struct sg_syscall_call *view,
						    const struct mm *mm)
{
	struct compat_sel_arg_struct s;

	if (!trace_is_call(call, "select") || call->table != SG_TABLE_I386 || !mm ||
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
const struct sg_syscall_call *trace_call_view(const struct sg_syscall_call *call,
					      struct sg_syscall_call *view, const struct mm *mm)
{
	const struct sg_syscall_call *v = carried_call_view(call, view, mm);

	return v != call ? v : oldselect_view(call, view, mm);
}
