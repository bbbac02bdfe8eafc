/* System call entry and dispatch (DESIGN.md, Data flow step 4); the
 * tables and the handler signature are the systab module's (table.h). */
#ifndef SG_SYSCALL_H
#define SG_SYSCALL_H

#include <stdint.h>
#include <stdio.h>
#include "syscall/table.h"

struct sg_thread;

/* The call itself: the handler (or the vDSO function's answer, -ENOSYS,
 * -EBADF for a descriptor of sysgate's own) -> call->result. */
void syscall_handle(struct sg_thread *t, struct sg_syscall_call *call);

/* Runs one decoded call: syscall_handle, with whatever goes around it
 * (core/thread.c: the embedding hooks and the trace, where the kernel
 * has syscall_enter_from_user_mode and syscall_exit_to_user_mode). */
typedef void (*syscall_run_fn)(struct sg_thread *t, struct sg_syscall_call *call);

/* Handle a CPU_STOP_SYSCALL: pick the table for this call as the kernel
 * does, read the arguments, run it (run; NULL: syscall_handle alone),
 * write the result, and set the resume rip (SYSENTER: the vDSO landing
 * pad). A SYSENTER the kernel refuses before its entry work (no landing
 * pad, an unreadable sixth argument) is not run. Returns the table and
 * row the call went to (the run loop's restart needs them). */
struct systab_slot syscall_entry(struct sg_thread *t, syscall_run_fn run);

/* coverage.c: one line per row of table (implemented, missing, or
 * unsupported with the reason from tables/syscall_unsupported.in), then
 * the totals: what `sysgate --syscalls=ABI` prints. */
void syscall_print_coverage(FILE *out, enum sg_table table);

/* -errno a row without a handler answers when it is deliberately
 * unsupported (tables/syscall_unsupported.in), else 0. */
long syscall_unsupported_errno(const struct sg_syscall_row *row);

#endif
