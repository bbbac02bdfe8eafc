/* What strace adds after some results: fcntl's flags, poll's revents,
 * select's sets, the GDT entry set_thread_area chose, personality's and
 * sched_getscheduler's names, ... */
#include <stdio.h>
#include <string.h>
#include <sys/personality.h>

#include "trace/trace_internal.h"

/* What strace adds after some results: fcntl's flags, poll's revents. */
void trace_print_result_note(struct tline *l, const struct trace *tr,
			     const struct sg_syscall_call *call,
			     const struct mm *mm)
{
	struct targ a = { l, mm, call, tr, 0, true, TARG_WHOLE };

	if (call->result < 0 && call->result >= -4095)
		return;
	if (trace_is_call(call, "set_thread_area") && call->result == 0) {
		int32_t entry;

		/* the kernel wrote back the GDT entry it chose */
		if (tread(&a, &entry, targ_ulong(&a, call->args[0]), sizeof(entry)))
			tl_printf(l, " (entry_number=%d)", entry);
	} else if (trace_is_call(call, "poll") || trace_is_call(call, "ppoll") ||
	    trace_is_call(call, "ppoll_time64")) {
		trace_print_poll_note(&a);
	} else if (trace_is_call(call, "select") || trace_is_call(call, "_newselect") ||
		   trace_is_call(call, "pselect6") || trace_is_call(call, "pselect6_time64")) {
		trace_print_select_note(&a);
	} else if (trace_is_call(call, "time")) {
		trace_print_time_note(&a);
	} else if (trace_is_call(call, "recvmmsg") || trace_is_call(call, "recvmmsg_time64")) {
		/* the timeout's rest, which the kernel wrote back */
		if (call->args[4]) {
			tl_puts(l, " (left ");
			trace_print_timespec(&a, call->table == SG_TABLE_X64 ? call->args[4]
							: (uint32_t)call->args[4],
					     call->table == SG_TABLE_I386 &&
					     !trace_is_call(call, "recvmmsg_time64") ? 4 : 8);
			tl_putc(l, ')');
		}
	} else if (trace_is_call(call, "rt_sigtimedwait") || trace_is_call(call, "rt_sigtimedwait_time64")) {
		tl_puts(l, " (");
		tprint_signame(l, (int)call->result, false);
		tl_putc(l, ')');
	} else if (trace_is_call(call, "personality")) {
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
	} else if (trace_is_call(call, "prctl") &&
		   call->args[0] == (uint64_t)xlat_value(&xlat_prctlop, "PR_GET_DUMPABLE")) {
		const char *name = trace_suid_dump_name((uint64_t)call->result);

		if (name)
			tl_printf(l, " (%s)", name);
	} else if (trace_is_call(call, "sched_getscheduler")) {
		const char *policy = xlat_name(&xlat_schedpolicy, (uint64_t)call->result);

		if (policy)
			tl_printf(l, " (%s)", policy);
	} else if (trace_is_call(call, "fcntl") || trace_is_call(call, "fcntl64")) {
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
