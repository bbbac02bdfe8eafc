/* System call entry and dispatch (DESIGN.md, Data flow step 4).
 *
 * Every handler takes the .tbl entry point name and this signature; the
 * result is the value or -errno. Arguments arrive already zero-extended to
 * 64 bits from the guest registers of that ABI's convention.
 */
#ifndef SG_SYSCALL_H
#define SG_SYSCALL_H

#include <stdint.h>
#include <stdio.h>
#include "core/process.h"

typedef long (*sg_syscall_fn)(struct sg_thread *t, const uint64_t *a);

#define SG_SYSCALL_DEFINE(entry) long entry(struct sg_thread *t, const uint64_t *a)

enum sg_table { SG_TABLE_IA32, SG_TABLE_X64, SG_TABLE_X32, SG_TABLE__COUNT };

struct sg_syscall_row {
	const char *name;        /* "read" */
	const char *entry;       /* "sys_read" / "compat_sys_..." */
	sg_syscall_fn fn;        /* NULL: not implemented yet -> -ENOSYS */
	unsigned nargs;          /* for the trace; 6 if unknown */
	unsigned fd_args;        /* bit i: argument i names a descriptor
				  * (tables/syscall_args.in kinds fd, dirfd) */
};

/* The generated tables, indexed by number (x32: without the 0x40000000 bit). */
struct sg_syscall_table {
	const char *abi_name;    /* "i386", "x86_64", "x32" */
	unsigned size;           /* rows 0..size-1 (holes have name NULL) */
	const struct sg_syscall_row *rows;
};
const struct sg_syscall_table *sg_syscall_table(enum sg_table table);

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
