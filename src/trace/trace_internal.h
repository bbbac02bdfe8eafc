/* Private to src/trace: the line being built and the argument printers. */
#ifndef SG_TRACE_INTERNAL_H
#define SG_TRACE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "syscall/table.h"

struct mm;

/* strace's limits: strings and buffers are cut after this many bytes. */
#define TRACE_STRLEN 32
/* strace's alignment: " = result" starts at this column when it can. */
#define TRACE_RESULT_COLUMN 40

/* One output line, built in place and written with a single write(2).
 * Overlong text is cut (the line still ends with '\n'). */
struct tline {
	char buf[2048];
	size_t len;
};

void tl_putc(struct tline *l, char c);
void tl_puts(struct tline *l, const char *s);
void tl_printf(struct tline *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* n bytes as a C string literal the way strace quotes them; "..." after
 * the closing quote when more is true. */
void tl_quote(struct tline *l, const unsigned char *p, size_t n, bool more);
/* Spaces up to TRACE_RESULT_COLUMN (or none), as strace's tabto(). */
void tl_tab_to_result(struct tline *l);

/* Width of the guest's long and pointer: 4 for i386 and x32, 8 for x86_64. */
static inline unsigned guest_long_bytes(enum sg_table t)
{
	return t == SG_TABLE_X64 ? 8 : 4;
}

/* Print argument i of call (kind from sig) into l. Kinds shown on exit
 * (SYSTAB_ARG_OBUF) need the result: pass exiting = true then. Returns
 * false for a slot that prints nothing (the high word of an i386 64-bit
 * offset). */
bool trace_print_arg(struct tline *l, const struct mm *mm,
		     const struct sg_syscall_call *call,
		     const struct systab_sig *sig, unsigned i, bool exiting);

/* "= 3", "= 0x7f...", "= -1 ENOENT (No such file or directory)", "= ?" */
void trace_print_result(struct tline *l, const struct sg_syscall_call *call,
			unsigned ret_kind);

/* "ENOENT" for 2; NULL when the kernel has no name for the number. */
const char *trace_errno_name(long err);

#endif
