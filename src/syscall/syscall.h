/* System call entry and dispatch (DESIGN.md, Data flow step 4); the
 * tables and the handler signature are the systab module's (table.h). */
#ifndef SG_SYSCALL_H
#define SG_SYSCALL_H

#include <stdint.h>
#include <stdio.h>
#include "core/process.h"
#include "syscall/table.h"

/* One call, as the entry code sees it and the trace prints it. */
struct sg_syscall_call {
	enum cpu_syscall_mech mech;
	enum sg_table table;
	uint64_t nr;             /* as the guest gave it (x32 bit included) */
	unsigned index;          /* row index in the table */
	const struct sg_syscall_row *row; /* NULL for unknown numbers */
	uint64_t args[6];
	long result;
	bool vdso;               /* arrived through the vDSO's __kernel_vsyscall */
	bool vdso_fn;            /* a vDSO function's private call (clock_gettime,
				  * ...): answered in sysgate, no kernel entry;
				  * traced only with SG_TRACE_ENTRY */
};

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
