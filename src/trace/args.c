/* Arguments and results of one traced call, printed by the kinds that
 * tables/syscall_args.in gives each row (see docs/trace-format.md): the
 * base kinds here, the named constants of src/trace/kinds.in through their
 * generated sets, the structs in structs.c and sockets.c. Guest memory is
 * read only through src/mm's checked copies: a bad pointer is shown as its
 * address, as strace does. */
#define _GNU_SOURCE /* O_TMPFILE */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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

/* The kinds of kinds.in, indexed by kind - SYSTAB_ARG__EXT. */
static const struct kind_info {
	const struct xlat *xlat;
	bool (*print)(const struct targ *a, uint64_t v);
	bool late;
} ext_kinds[] = {
#define TRACE_KIND_FLAGS(k) { &xlat_##k, NULL, false },
#define TRACE_KIND_ENUM(k) { &xlat_##k, NULL, false },
#define TRACE_KIND_STRUCT(k) { NULL, tk_##k, false },
#define TRACE_KIND_OSTRUCT(k) { NULL, tk_##k, true },
#define TRACE_KIND(up, k, style) TRACE_KIND_##style(k)
#include "trace_kinds.h"
#undef TRACE_KIND
#undef TRACE_KIND_FLAGS
#undef TRACE_KIND_ENUM
#undef TRACE_KIND_STRUCT
#undef TRACE_KIND_OSTRUCT
};

static const struct kind_info *ext_kind(unsigned kind)
{
	if (kind < SYSTAB_ARG__EXT || kind - SYSTAB_ARG__EXT >=
	    sizeof(ext_kinds) / sizeof(ext_kinds[0]))
		return NULL;
	return &ext_kinds[kind - SYSTAB_ARG__EXT];
}

bool trace_kind_is_late(unsigned kind)
{
	const struct kind_info *k = ext_kind(kind);

	return kind == SYSTAB_ARG_OBUF || (k && k->late);
}

bool trace_arg_is_late(const struct sg_syscall_call *call,
		       const struct systab_sig *sig, unsigned i)
{
	if (sig->arg[i] == SYSTAB_ARG_IOCTLARG) /* by the request */
		return trace_ioctl_fills(call->args[1]);
	if (sig->arg[i] == SYSTAB_ARG_PRCTLARG) /* by the option */
		return trace_prctl_fills(call);
	if (sig->arg[i] == SYSTAB_ARG_FCNTLARG) { /* F_GETLK fills its flock */
		const char *cmd = xlat_name(&xlat_fcntlcmd, (uint32_t)call->args[1]);

		return cmd && strstr(cmd, "GETLK");
	}
	if (i == 1 && sig->arg[0] == SYSTAB_ARG_CLONE3ARGS)
		return true; /* clone3's size: after " => {...}", on return */
	return trace_kind_is_late(sig->arg[i]);
}

uint64_t targ_ulong(const struct targ *a, uint64_t v)
{
	return guest_long_bytes(targ_table(a)) == 4 ? (uint32_t)v : v;
}

int64_t targ_long(const struct targ *a, uint64_t v)
{
	return guest_long_bytes(targ_table(a)) == 4 ? (int32_t)(uint32_t)v
						    : (int64_t)v;
}

void tprint_hex(struct tline *l, uint64_t v)
{
	if (v)
		tl_printf(l, "%#llx", (unsigned long long)v);
	else
		tl_putc(l, '0');
}

void tprint_ptr(struct tline *l, uint64_t v)
{
	if (v)
		tl_printf(l, "%#llx", (unsigned long long)v);
	else
		tl_puts(l, "NULL");
}

bool tread(const struct targ *a, void *dst, uint64_t addr, size_t n)
{
	return addr && a->mm && copy_from_guest(a->mm, dst, addr, n) == 0;
}

/* -y: "<path>" of what the link names (nothing when it names nothing). */
static void print_fd_path(const struct targ *a, const char *link)
{
	char path[512];
	ssize_t n;

	if (!(a->tr->flags & SG_TRACE_FDPATHS))
		return;
	n = readlink(link, path, sizeof(path) - 1);
	if (n <= 0)
		return;
	path[n] = '\0';
	tl_putc(a->l, '<');
	tl_puts(a->l, path);
	tl_putc(a->l, '>');
}

void tprint_fd(const struct targ *a, int fd)
{
	char link[64];

	tl_printf(a->l, "%d", fd);
	if (!(a->tr->flags & SG_TRACE_FDPATHS) || fd < 0)
		return;
	/* guest fds are host fds (DESIGN.md), so /proc/self/fd names them */
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	print_fd_path(a, link);
}

/* The calls whose result is a new descriptor (strace's RVAL_FD): -y shows
 * its path after the number, "= 3</etc/passwd>". */
static bool returns_fd(const struct sg_syscall_call *call)
{
	static const char *const names[] = {
		"open", "openat", "openat2", "creat", "dup", "dup2", "dup3", "socket",
		"accept", "accept4", "epoll_create", "epoll_create1", "eventfd",
		"eventfd2", "signalfd", "signalfd4", "timerfd_create", "inotify_init",
		"inotify_init1", "memfd_create", "pidfd_open", "pidfd_getfd",
		"fanotify_init", "userfaultfd", "perf_event_open", "open_by_handle_at",
		"open_tree", "fsopen", "fsmount", "fspick", "io_uring_setup",
		"memfd_secret", "landlock_create_ruleset", "mq_open",
	};
	const char *name = call->row ? call->row->name : "";

	if (!strcmp(name, "fcntl") || !strcmp(name, "fcntl64")) {
		const char *cmd = xlat_name(&xlat_fcntlcmd, (uint32_t)call->args[1]);

		return cmd && !strncmp(cmd, "F_DUPFD", 7);
	}
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}

/* n bytes at guest address addr, quoted and cut at -s. */
void tprint_buf(const struct targ *a, uint64_t addr, uint64_t n, bool hex)
{
	unsigned char tmp[TRACE_STRLEN_MAX];
	size_t shown = n < a->tr->strlen ? n : a->tr->strlen;

	if (!tread(a, tmp, addr, shown) && shown) {
		tprint_ptr(a->l, addr);
		return;
	}
	if (!addr && !n) {
		tprint_ptr(a->l, addr);
		return;
	}
	if (hex)
		tl_quote_hex(a->l, tmp, shown, n > shown);
	else
		tl_quote(a->l, tmp, shown, n > shown);
}

/* A NUL-terminated guest string, cut after max bytes. */
static void print_cstring(const struct targ *a, uint64_t addr, size_t max)
{
	char tmp[TRACE_PATH_MAX + 1];
	long n;

	if (!addr) {
		tl_puts(a->l, "NULL");
		return;
	}
	n = a->mm ? strncpy_from_guest(a->mm, tmp, addr, max + 1) : -EFAULT;
	if (n >= 0) {
		tl_quote(a->l, (const unsigned char *)tmp, (size_t)n, false);
	} else if (n == -ENAMETOOLONG && tread(a, tmp, addr, max)) {
		tl_quote(a->l, (const unsigned char *)tmp, max, true);
	} else {
		tprint_ptr(a->l, addr);
	}
}

/* A string argument that is not a path: cut at -s bytes. */
void tprint_str(const struct targ *a, uint64_t addr)
{
	print_cstring(a, addr, a->tr->strlen);
}

/* A path: strace shows it whole, whatever -s says. */
void tprint_path(const struct targ *a, uint64_t addr)
{
	print_cstring(a, addr, TRACE_PATH_MAX);
}

static bool print_ext(const struct targ *a, unsigned kind, uint64_t v)
{
	const struct kind_info *k = ext_kind(kind);

	if (!k) {
		tprint_hex(a->l, v);
		return true;
	}
	if (k->print) {
		if (k->late && (!a->exiting || a->call->result < 0)) {
			tprint_ptr(a->l, targ_ulong(a, v));
			return true;
		}
		return k->print(a, v);
	}
	if (k->xlat->style == XLAT_FLAGS)
		tprint_flags(a->l, k->xlat, (uint32_t)v);
	else
		tprint_enum(a->l, k->xlat, (int32_t)(uint32_t)v);
	return true;
}

bool trace_arg_is_split(const struct sg_syscall_call *call,
			const struct systab_sig *sig, unsigned i)
{
	return sig->arg[i] == SYSTAB_ARG_CLONEFL || sig->arg[i] == SYSTAB_ARG_CLONE3ARGS ||
	       sig->arg[i] == SYSTAB_ARG_SOCKLENIO || sig->arg[i] == SYSTAB_ARG_OFFINOUT ||
	       (sig->arg[i] == SYSTAB_ARG_IOCTLARG && trace_ioctl_splits(call->args[1]));
}

bool trace_print_arg_part(struct tline *l, const struct mm *mm,
			  const struct trace *tr, const struct sg_syscall_call *call,
			  const struct systab_sig *sig, unsigned i, int part)
{
	struct targ a = { l, mm, call, tr, i, part == TARG_TAIL, part };
	const struct kind_info *k = ext_kind(sig->arg[i]);

	return k && k->print ? k->print(&a, call->args[i]) : false;
}

bool trace_print_arg(struct tline *l, const struct mm *mm,
		     const struct trace *tr, const struct sg_syscall_call *call,
		     const struct systab_sig *sig, unsigned i, bool exiting)
{
	struct targ a = { l, mm, call, tr, i, exiting, TARG_WHOLE };
	uint64_t v = call->args[i];
	uint64_t next = i + 1 < 6 ? call->args[i + 1] : 0;

	switch (sig->arg[i]) {
	case SYSTAB_ARG_NONE:
	case SYSTAB_ARG_HI64:
		return false;
	case SYSTAB_ARG_INT:
		tl_printf(l, "%d", (int)(uint32_t)v);
		break;
	case SYSTAB_ARG_FD:
		tprint_fd(&a, (int)(uint32_t)v);
		break;
	case SYSTAB_ARG_DIRFD:
		if ((int)(uint32_t)v == AT_FDCWD_VALUE) {
			tl_puts(l, "AT_FDCWD");
			/* -y: the working directory, as strace shows it */
			print_fd_path(&a, "/proc/self/cwd");
		} else {
			tprint_fd(&a, (int)(uint32_t)v);
		}
		break;
	case SYSTAB_ARG_LONG:
		tl_printf(l, "%lld", (long long)targ_long(&a, v));
		break;
	case SYSTAB_ARG_ULONG:
	case SYSTAB_ARG_SIZE:
		tl_printf(l, "%llu", (unsigned long long)targ_ulong(&a, v));
		break;
	case SYSTAB_ARG_HEX:
	case SYSTAB_ARG_FLAGS:
		tprint_hex(l, targ_ulong(&a, v));
		break;
	case SYSTAB_ARG_PTR:
		tprint_ptr(l, targ_ulong(&a, v));
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
		tprint_path(&a, targ_ulong(&a, v));
		break;
	case SYSTAB_ARG_IBUF:
		tprint_buf(&a, targ_ulong(&a, v), targ_ulong(&a, next), false);
		break;
	case SYSTAB_ARG_OBUF:
		/* filled by the call: only its result says how much */
		if (exiting && call->result >= 0)
			tprint_buf(&a, targ_ulong(&a, v), (uint64_t)call->result,
				   false);
		else
			tprint_ptr(l, targ_ulong(&a, v));
		break;
	case SYSTAB_ARG_OFF64:
		tl_printf(l, "%lld", (long long)v);
		break;
	case SYSTAB_ARG_LO64:
		tl_printf(l, "%lld",
			  (long long)((uint32_t)v | (uint64_t)(uint32_t)next << 32));
		break;
	default:
		return print_ext(&a, sig->arg[i], v);
	}
	return true;
}

void trace_print_result(struct tline *l, const struct trace *tr,
			const struct sg_syscall_call *call, unsigned ret_kind)
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
		tprint_hex(l, guest_long_bytes(call->table) == 4 ? (uint32_t)r
								 : (uint64_t)r);
	} else if (ret_kind == SYSTAB_RET_OCT) {
		tl_printf(l, "%#lo", (unsigned long)r);
	} else if ((tr->flags & SG_TRACE_FDPATHS) && returns_fd(call)) {
		struct targ a = { l, NULL, call, tr, 0, true, TARG_WHOLE };

		tprint_fd(&a, (int)r);
	} else {
		tl_printf(l, "%ld", r);
	}
}
