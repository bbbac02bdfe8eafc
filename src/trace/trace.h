/* strace-format syscall trace (DESIGN.md, Trace). */
#ifndef SG_TRACE_H
#define SG_TRACE_H

#include "syscall/syscall.h"

struct trace;

/* fd < 0: stderr. flags: enum sg_trace_flags. */
struct trace *trace_create(int fd, unsigned flags);
void trace_destroy(struct trace *tr);

/* Called by syscall_entry before and after the handler runs. The line is
 * printed on exit (enter only remembers what the exit line needs, e.g.
 * calls that never return such as exit_group print at enter). */
void trace_syscall_enter(struct trace *tr, struct sg_thread *t,
			 const struct sg_syscall_call *call);
void trace_syscall_exit(struct trace *tr, struct sg_thread *t,
			const struct sg_syscall_call *call);

/* "+++ exited with N +++" / "+++ killed by SIGX +++" */
void trace_exit(struct trace *tr, const struct sg_exit *status);

#endif
