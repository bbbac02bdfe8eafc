/* System call entry and dispatch (DESIGN.md, Data flow step 4); the
 * tables and the handler signature are the systab module's (table.h). */
#ifndef SG_SYSCALL_H
#define SG_SYSCALL_H

#include <stdint.h>
#include <stdio.h>
#include "core/process.h"
#include "syscall/table.h"

/* Handle a CPU_STOP_SYSCALL: pick the table for this call as the kernel
 * does, read the arguments, trace, dispatch, write the result, and set the
 * resume rip (SYSENTER: the vDSO landing pad). */
void syscall_entry(struct sg_thread *t);

/* coverage.c: one line per row of table (implemented, missing, or
 * unsupported with the reason from tables/syscall_unsupported.in), then
 * the totals: what `sysgate --syscalls=ABI` prints. */
void syscall_print_coverage(FILE *out, enum sg_table table);

/* -errno a row without a handler answers when it is deliberately
 * unsupported (tables/syscall_unsupported.in), else 0. */
long syscall_unsupported_errno(const struct sg_syscall_row *row);

#endif
