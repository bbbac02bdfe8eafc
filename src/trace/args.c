/* Arguments and results of one traced call, printed by the kinds that
 * tables/syscall_args.in gives each row (see docs/trace-format.md). Guest
 * memory is read only through src/mm's checked copies: a bad pointer is
 * shown as its address, as strace does. */
#define _GNU_SOURCE /* O_TMPFILE */
#include <errno.h>
#include <fcntl.h>
#include <string.h>

#include "mm/mm.h"
#include "trace/trace_internal.h"

#define AT_FDCWD_VALUE (-100)

static const struct {
	const char *name;
	int nr;
} errno_names[] = {
#define SG_ERRNO(name, nr) { #name, nr },
#include "errno_names.h"
#undef SG_ERRNO
};

const char *trace_errno_name(long err)
{
	for (size_t i = 0; i < sizeof(errno_names) / sizeof(errno_names[0]); i++)
		if (errno_names[i].nr == err)
			return errno_names[i].name;
	return NULL;
}

/* The register as the guest's long: 32-bit ABIs keep the low half. */
static uint64_t as_ulong(enum sg_table t, uint64_t v)
{
	return guest_long_bytes(t) == 4 ? (uint32_t)v : v;
}

static int64_t as_long(enum sg_table t, uint64_t v)
{
	return guest_long_bytes(t) == 4 ? (int32_t)(uint32_t)v : (int64_t)v;
}

static void print_hex(struct tline *l, uint64_t v)
{
	if (v)
		tl_printf(l, "%#llx", (unsigned long long)v);
	else
		tl_putc(l, '0');
}

static void print_ptr(struct tline *l, uint64_t v)
{
	if (v)
		tl_printf(l, "%#llx", (unsigned long long)v);
	else
		tl_puts(l, "NULL");
}

/* n bytes at guest address addr, quoted and cut at TRACE_STRLEN. */
static void print_buf(struct tline *l, const struct mm *mm, uint64_t addr,
		      uint64_t n)
{
	unsigned char tmp[TRACE_STRLEN];
	size_t shown = n < TRACE_STRLEN ? n : TRACE_STRLEN;

	if (!addr || copy_from_guest(mm, tmp, addr, shown) != 0) {
		print_ptr(l, addr);
		return;
	}
	tl_quote(l, tmp, shown, n > shown);
}

/* A NUL-terminated guest string, cut at TRACE_STRLEN bytes. */
static void print_str(struct tline *l, const struct mm *mm, uint64_t addr)
{
	char tmp[TRACE_STRLEN + 1];
	long n;

	if (!addr) {
		tl_puts(l, "NULL");
		return;
	}
	n = strncpy_from_guest(mm, tmp, addr, sizeof(tmp));
	if (n >= 0) {
		tl_quote(l, (const unsigned char *)tmp, (size_t)n, false);
	} else if (n == -ENAMETOOLONG &&
		   copy_from_guest(mm, tmp, addr, TRACE_STRLEN) == 0) {
		tl_quote(l, (const unsigned char *)tmp, TRACE_STRLEN, true);
	} else {
		print_ptr(l, addr);
	}
}

bool trace_print_arg(struct tline *l, const struct mm *mm,
		     const struct sg_syscall_call *call,
		     const struct systab_sig *sig, unsigned i, bool exiting)
{
	enum sg_table t = call->table;
	uint64_t v = call->args[i];
	uint64_t next = i + 1 < 6 ? call->args[i + 1] : 0;

	switch (sig->arg[i]) {
	case SYSTAB_ARG_NONE:
	case SYSTAB_ARG_HI64:
		return false;
	case SYSTAB_ARG_INT:
	case SYSTAB_ARG_FD:
		tl_printf(l, "%d", (int)(uint32_t)v);
		break;
	case SYSTAB_ARG_DIRFD:
		if ((int)(uint32_t)v == AT_FDCWD_VALUE)
			tl_puts(l, "AT_FDCWD");
		else
			tl_printf(l, "%d", (int)(uint32_t)v);
		break;
	case SYSTAB_ARG_LONG:
		tl_printf(l, "%lld", (long long)as_long(t, v));
		break;
	case SYSTAB_ARG_ULONG:
	case SYSTAB_ARG_SIZE:
		tl_printf(l, "%llu", (unsigned long long)as_ulong(t, v));
		break;
	case SYSTAB_ARG_HEX:
	case SYSTAB_ARG_FLAGS:
		print_hex(l, as_ulong(t, v));
		break;
	case SYSTAB_ARG_PTR:
		print_ptr(l, as_ulong(t, v));
		break;
	case SYSTAB_ARG_OCT:
		tl_printf(l, "%#03o", (unsigned)v);
		break;
	case SYSTAB_ARG_CMODE:
		/* open(2) ignores the mode unless it creates a file */
		if (i == 0 || !((call->args[i - 1] & O_CREAT) ||
				(call->args[i - 1] & O_TMPFILE) == O_TMPFILE))
			return false;
		tl_printf(l, "%#03o", (unsigned)v);
		break;
	case SYSTAB_ARG_STR:
		print_str(l, mm, as_ulong(t, v));
		break;
	case SYSTAB_ARG_IBUF:
		print_buf(l, mm, as_ulong(t, v), as_ulong(t, next));
		break;
	case SYSTAB_ARG_OBUF:
		/* filled by the call: only its result says how much */
		if (exiting && call->result >= 0)
			print_buf(l, mm, as_ulong(t, v), (uint64_t)call->result);
		else
			print_ptr(l, as_ulong(t, v));
		break;
	case SYSTAB_ARG_OFF64:
		tl_printf(l, "%lld", (long long)v);
		break;
	case SYSTAB_ARG_LO64:
		tl_printf(l, "%lld",
			  (long long)((uint32_t)v | (uint64_t)(uint32_t)next << 32));
		break;
	default:
		print_hex(l, v);
		break;
	}
	return true;
}

void trace_print_result(struct tline *l, const struct sg_syscall_call *call,
			unsigned ret_kind)
{
	long r = call->result;

	tl_puts(l, "= ");
	if (ret_kind == SYSTAB_RET_NONE) {
		tl_putc(l, '?');
	} else if (r < 0 && r >= -4095) {
		const char *name = trace_errno_name(-r);

		if (name)
			tl_printf(l, "-1 %s (%s)", name, strerror((int)-r));
		else
			tl_printf(l, "-1 ERRNO_%ld (%s)", -r, strerror((int)-r));
	} else if (ret_kind == SYSTAB_RET_HEX) {
		print_hex(l, as_ulong(call->table, (uint64_t)r));
	} else if (ret_kind == SYSTAB_RET_OCT) {
		tl_printf(l, "%#lo", (unsigned long)r);
	} else {
		tl_printf(l, "%ld", r);
	}
}
