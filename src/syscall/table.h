/* The three syscall tables (module systab): generated at build time from
 * tables/syscall_32.tbl, tables/syscall_64.tbl and tables/syscall_args.in
 * by tools/systab_gen.sh, and expanded in table.c.
 *
 * sg_syscall_table() gives the rows used for dispatch; with them the
 * header gives what the trace and the CLI need from the same data:
 * argument kinds per row, the --syscalls=ABI coverage list, and ABI-name
 * lookup. It is below the syscall module (docs/architecture.md, Layers):
 * signal's sigreturn handlers and the trace include it, not syscall.h.
 */
#ifndef SG_SYSCALL_TABLE_H
#define SG_SYSCALL_TABLE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cpu/cpu.h" /* enum cpu_syscall_mech */
#include "sysgate.h" /* enum sg_abi */

struct sg_thread;

/* Every handler takes the .tbl entry point name and this signature; the
 * result is the value or -errno. Arguments arrive already zero-extended to
 * 64 bits from the guest registers of that ABI's convention. */
typedef long (*sg_syscall_fn)(struct sg_thread *t, const uint64_t *a);

#define SG_SYSCALL_DEFINE(entry) long entry(struct sg_thread *t, const uint64_t *a)

/* The kernel's restart codes (include/linux/errno.h): what a handler
 * returns, negated, when a signal interrupted its call. The code alone
 * decides what the signal's delivery does with the call (signal/deliver.c,
 * docs/signals.md "Interrupted system calls"); the guest never sees one,
 * only a tracer does (the trace prints them as strace does).
 *   ERESTARTSYS             restarted after a handler with SA_RESTART, and
 *                           when no handler runs; else EINTR (the default
 *                           of a blocking host call, handler.h)
 *   ERESTARTNOINTR          always restarted: the call did not start (the
 *                           signal module's sig_host_call) or must not fail
 *   ERESTARTNOHAND          restarted only when no handler runs
 *   ERESTART_RESTARTBLOCK   as NOHAND, but it goes on through the ABI's
 *                           restart_syscall with what the handler left in
 *                           the thread's restart block (the time left) */
#define SG_ERESTARTSYS 512
#define SG_ERESTARTNOINTR 513
#define SG_ERESTARTNOHAND 514
#define SG_ERESTART_RESTARTBLOCK 516

/* Whether a call's result is one of those codes (ENOIOCTLCMD, 515, is
 * the kernel's and never leaves a handler). */
static inline bool sg_restart_code(long result)
{
	/* one compare on the way out of every call */
	return (unsigned long)(-result - SG_ERESTARTSYS) <= SG_ERESTART_RESTARTBLOCK - SG_ERESTARTSYS &&
	       result != -515;
}

/* A call's table: the ABI whose calling convention and numbers it follows
 * (an x86_64 program's INT 0x80 uses i386's). The public enum sg_abi is
 * the fact; the tables follow its order, without SG_ABI_NONE. */
enum sg_table {
	SG_TABLE_I386 = SG_ABI_I386 - 1,
	SG_TABLE_X32 = SG_ABI_X32 - 1,
	SG_TABLE_X64 = SG_ABI_X64 - 1,
	SG_TABLE__COUNT
};

static inline enum sg_abi systab_abi(enum sg_table table)
{
	return (enum sg_abi)(table + 1);
}

/* A row holds no pointer, so the tables are plain .rodata that a
 * static-PIE sysgate does not relocate at start-up (each relocated page is
 * a page fault of every start, docs/performance.md): the names in the row,
 * the handler as an index into one array of entry points (table.c). */
#define SYSTAB_NAME_MAX 32  /* the longest name in tables/, 28, and its NUL */
#define SYSTAB_ENTRY_MAX 40 /* the longest entry point, 33, and its NUL */
struct sg_syscall_row {
	char name[SYSTAB_NAME_MAX];   /* "read"; "" for a hole */
	char entry[SYSTAB_ENTRY_MAX]; /* "sys_read" / "compat_sys_..." */
	uint16_t handler;        /* systab_row_fn's index; 0: none */
	uint8_t nargs;           /* for the trace; 6 if unknown */
	uint8_t fd_args;         /* bit i: argument i names a descriptor
				  * (tables/syscall_args.in kinds fd, dirfd) */
};

/* The row's handler; NULL: not implemented yet -> -ENOSYS (or row NULL). */
sg_syscall_fn systab_row_fn(const struct sg_syscall_row *row);

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

/* x32 numbers are the x32 table's row index with this bit set
 * (<asm/unistd.h> __X32_SYSCALL_BIT; table.c checks it against the header). */
#define SYSTAB_X32_BIT 0x40000000u

/* Where one call goes: the table, the row index, the row. */
struct systab_slot {
	enum sg_table table;
	unsigned index;
	const struct sg_syscall_row *row; /* NULL: a hole or past the end */
};

/* The table choice, as the kernel's entry makes it, for the entry code and
 * the run loop's restart alike. i386_entry: INT 0x80, SYSENTER, or SYSCALL
 * outside 64-bit mode: the i386 table, index nr. Else (64-bit SYSCALL) the
 * x64 table when nr is below its size, else with SYSTAB_X32_BIT set the
 * x32 table at nr without the bit, else the x64 table (no row). nr is the
 * low 32 bits of rax, compared unsigned. */
struct systab_slot systab_pick(bool i386_entry, uint32_t nr);

/* restart_syscall's number in table's ABI as the guest passes it (x32:
 * with SYSTAB_X32_BIT), read from the table's "restart_syscall" row. */
uint32_t systab_restart_nr(enum sg_table table);

/* How the trace prints one argument register (tables/syscall_args.in). */
enum systab_arg {
	SYSTAB_ARG_NONE,
	SYSTAB_ARG_INT,   /* signed 32-bit decimal */
	SYSTAB_ARG_LONG,  /* signed decimal, guest long width */
	SYSTAB_ARG_ULONG, /* unsigned decimal, guest long width */
	SYSTAB_ARG_SIZE,  /* as ULONG */
	SYSTAB_ARG_HEX,   /* 0x..., 0 as 0 */
	SYSTAB_ARG_PTR,   /* 0x..., 0 as NULL */
	SYSTAB_ARG_FD,    /* int */
	SYSTAB_ARG_DIRFD, /* int, -100 as AT_FDCWD */
	SYSTAB_ARG_STR,   /* NUL-terminated guest string */
	SYSTAB_ARG_IBUF,  /* guest bytes, length in the next register */
	SYSTAB_ARG_OBUF,  /* guest bytes written by the call, length = result */
	SYSTAB_ARG_OCT,   /* octal mode */
	SYSTAB_ARG_CMODE, /* octal mode, shown only if the flags before it create */
	SYSTAB_ARG_FLAGS, /* bit set (hex for now) */
	SYSTAB_ARG_OFF64, /* 64-bit offset in one register */
	SYSTAB_ARG_LO64,  /* i386: low word of a 64-bit offset... */
	SYSTAB_ARG_HI64,  /* ...and its high word in the next register */
};

/* How the trace prints the result. */
enum systab_ret {
	SYSTAB_RET_DEC,
	SYSTAB_RET_HEX,
	SYSTAB_RET_OCT,
	SYSTAB_RET_NONE, /* does not return (exit, exit_group): "= ?" */
};

struct systab_sig {
	unsigned char ret;    /* enum systab_ret */
	unsigned char nargs;  /* argument registers, as row->nargs */
	unsigned short arg[6]; /* enum systab_arg per register (the trace has
				* more than 256 kinds) */
};

/* Argument kinds of row index of table t; NULL for holes and bad input. */
const struct systab_sig *systab_sig(enum sg_table t, unsigned index);

/* The row's entry point is sys_ni_syscall: Linux has no implementation
 * either (break, vm86 on a 64-bit kernel, ...), so -ENOSYS is right. */
bool systab_row_is_ni(const struct sg_syscall_row *row);

/* "i386", "x32", "x86_64" (also "ia32", "x64") -> table: 0, or -1. */
int systab_lookup_abi(const char *name, enum sg_table *out);

/* --syscalls=ABI: one line per row ("<nr> <name> <entry> <status>", status
 * implemented / missing / ni), then a line of totals. */
void systab_print_coverage(FILE *out, enum sg_table t);

#endif
