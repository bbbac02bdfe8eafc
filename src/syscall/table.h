/* The three syscall tables (module systab): generated at build time from
 * tables/syscall_32.tbl, tables/syscall_64.tbl and tables/syscall_args.in
 * by tools/systab_gen.sh, and expanded in table.c.
 *
 * sg_syscall_table() (declared in syscall.h) gives the rows used for
 * dispatch; this header adds what the trace and the CLI need from the same
 * data: argument kinds per row, the --syscalls=ABI coverage list, and
 * ABI-name lookup.
 */
#ifndef SG_SYSCALL_TABLE_H
#define SG_SYSCALL_TABLE_H

#include <stdbool.h>
#include <stdio.h>
#include "syscall/syscall.h"

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
