/* The struct and special-form kinds of kinds.in for waiting, timers,
 * file systems, identities and socket options, printed as strace shows
 * them: uname, statfs, select's fd sets, pselect6's mask, epoll events,
 * itimerspec/itimerval, group lists, prctl, setsockopt/getsockopt values,
 * in/out lengths ("[128 => 16]"), times, rusage, timer_create's sigevent,
 * utimensat's times, get_robust_list. Each is read at the guest ABI's
 * offsets (i386's compat layouts; x32's are the 64-bit ones unless its
 * table entry is a compat one, noted where it is). */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/time.h>
#include <sys/times.h>
#include <time.h>

#include "syscall/compat/compat.h"
#include "trace/trace_internal.h"

static uint64_t rd(const void *p, unsigned size)
{
	uint64_t v = 0;

	memcpy(&v, p, size); /* little-endian guest and host */
	return v;
}

static int64_t rds(const void *p, unsigned size)
{
	return size == 4 ? (int32_t)rd(p, 4) : size == 2 ? (int16_t)rd(p, 2)
			 : (int64_t)rd(p, 8);
}

/* Guest pointer / long width of the call's ABI. */
static unsigned wl(const struct targ *a)
{
	return guest_long_bytes(targ_table(a));
}

/* Width of a kernel long in the call's struct: 4 for i386's compat
 * layouts, 8 for x86_64 and x32 (whose __kernel_long_t is 64-bit). */
static unsigned kl(const struct targ *a)
{
	return targ_table(a) == SG_TABLE_I386 ? 4 : 8;
}

static bool row_is(const struct targ *a, const char *name)
{
	return a->call->row && !strcmp(a->call->row->name, name);
}

static bool row_ends(const struct targ *a, const char *suffix)
{
	const char *n = a->call->row ? a->call->row->name : "";
	size_t ln = strlen(n), ls = strlen(suffix);

	return ln >= ls && !strcmp(n + ln - ls, suffix);
}

/* Read n bytes or print the address (strace's umove_or_printaddr). */
static bool get(const struct targ *a, void *dst, uint64_t addr, size_t n)
{
	if (!addr) {
		tl_puts(a->l, "NULL");
		return false;
	}
	if (!tread(a, dst, addr, n)) {
		tprint_ptr(a->l, addr);
		return false;
	}
	return true;
}

/* --- identity ------------------------------------------------------------ */

/* {sysname="Linux", nodename="vm", ...}: strace's abbreviated form */
bool tk_uname(const struct targ *a, uint64_t v)
{
	char u[2 * 65];

	if (!get(a, u, targ_ulong(a, v), sizeof(u)))
		return true;
	tl_puts(a->l, "{sysname=");
	tl_quote(a->l, (const unsigned char *)u, strnlen(u, 65), false);
	tl_puts(a->l, ", nodename=");
	tl_quote(a->l, (const unsigned char *)u + 65, strnlen(u + 65, 65), false);
	tl_puts(a->l, ", ...}");
	return true;
}

/* A uid or gid: -1 as -1 (also the 16-bit calls' 0xffff), others unsigned. */
bool tk_uid(const struct targ *a, uint64_t v)
{
	uint32_t id = (uint32_t)v;
	bool id16 = targ_table(a) == SG_TABLE_I386 && !row_ends(a, "32");

	if (id16)
		id &= 0xffff;
	if (id == UINT32_MAX || (id16 && id == 0xffff))
		tl_puts(a->l, "-1");
	else
		tl_printf(a->l, "%u", id);
	return true;
}

/* getresuid's three: [0]; 16-bit for i386's call without the 32 */
bool tk_ouidval(const struct targ *a, uint64_t v)
{
	unsigned w = targ_table(a) == SG_TABLE_I386 && !row_ends(a, "32") ? 2 : 4;
	unsigned char b[4];

	if (get(a, b, targ_ulong(a, v), w)) {
		tl_putc(a->l, '[');
		tk_uid(a, rd(b, w));
		tl_putc(a->l, ']');
	}
	return true;
}

bool tk_uint(const struct targ *a, uint64_t v)
{
	tl_printf(a->l, "%u", (uint32_t)v);
	return true;
}

/* getgroups/setgroups: [0, 4, 27]; 16-bit ids for i386's calls without
 * the 32 suffix. n from the result (get) or the first argument (set). */
static void print_gids(const struct targ *a, uint64_t addr, int64_t n)
{
	unsigned w = targ_table(a) == SG_TABLE_I386 && !row_ends(a, "32") ? 2 : 4;

	if (!addr) {
		tl_puts(a->l, "NULL");
		return;
	}
	if (n < 0 || (n > 0 && !tread(a, (unsigned char[4]){ 0 }, addr, w))) {
		tprint_ptr(a->l, addr);
		return;
	}
	tl_putc(a->l, '[');
	for (int64_t i = 0; i < n; i++) {
		unsigned char b[4];

		if (i == TRACE_MAX_ELEMS) {
			tl_puts(a->l, ", ...");
			break;
		}
		if (!tread(a, b, addr + (uint64_t)i * w, w))
			break;
		tl_printf(a->l, i ? ", %llu" : "%llu", (unsigned long long)rd(b, w));
	}
	tl_putc(a->l, ']');
}

bool tk_gidlist(const struct targ *a, uint64_t v)
{
	print_gids(a, targ_ulong(a, v), (int32_t)a->call->args[0]);
	return true;
}

bool tk_ogidlist(const struct targ *a, uint64_t v)
{
	/* getgroups(0, p) only counts: nothing is written */
	print_gids(a, targ_ulong(a, v), (int32_t)a->call->args[0] ? a->call->result : 0);
	return true;
}

/* --- file systems ---------------------------------------------------------- */

/* ST_VALID (0x0020, "f_flags support is implemented") is set by every
 * statfs; the kernel defines it in include/linux/statfs.h, which is not
 * exported to user space, so no header names it: strace prints it. */
#define ST_VALID_BIT 0x20u

static void print_statfs_flags(struct tline *l, uint64_t f)
{
	bool first = true;

	if (!f) {
		tl_putc(l, '0');
		return;
	}
	/* ascending order: the named bits below ST_VALID, it, the rest */
	if (f & (ST_VALID_BIT - 1)) {
		tprint_flags(l, &xlat_statfsflags, f & (ST_VALID_BIT - 1));
		first = false;
	}
	if (f & ST_VALID_BIT) {
		tl_puts(l, first ? "ST_VALID" : "|ST_VALID");
		first = false;
	}
	if (f & ~(uint64_t)(2 * ST_VALID_BIT - 1)) {
		if (!first)
			tl_putc(l, '|');
		tprint_flags(l, &xlat_statfsflags, f & ~(uint64_t)(2 * ST_VALID_BIT - 1));
	}
}

/* struct statfs: i386's (32-bit words), its statfs64 (64-bit counts
 * aligned to 4), and x86_64's, which x32 shares (64-bit words) */
enum statfs_form { STATFS_I386, STATFS64_I386, STATFS_X86_64 };

static void print_statfs(const struct targ *a, uint64_t addr, enum statfs_form form)
{
	static const size_t sizes[] = { sizeof(struct compat_statfs),
					sizeof(struct compat_statfs64),
					sizeof(struct sc_statfs_x86_64) };
	unsigned char b[sizeof(struct sc_statfs_x86_64)];
	const char *magic;
	uint64_t type;

	if (!get(a, b, addr, sizes[form]))
		return;
#define STATFS_FIELD(f)                                                                 \
	(form == STATFS_I386	  ? GUEST_FIELD(b, struct compat_statfs, f)             \
	 : form == STATFS64_I386 ? GUEST_FIELD(b, struct compat_statfs64, f)           \
				  : GUEST_FIELD(b, struct sc_statfs_x86_64, f))
	type = STATFS_FIELD(f_type);
	magic = xlat_name(&xlat_fsmagic, type);
	tl_puts(a->l, "{f_type=");
	if (magic)
		tl_puts(a->l, magic);
	else
		tl_printf(a->l, "%#llx", (unsigned long long)type);
	tl_printf(a->l, ", f_bsize=%llu, f_blocks=%llu, f_bfree=%llu, f_bavail=%llu, "
		  "f_files=%llu, f_ffree=%llu, f_fsid={val=[",
		  (unsigned long long)STATFS_FIELD(f_bsize),
		  (unsigned long long)STATFS_FIELD(f_blocks),
		  (unsigned long long)STATFS_FIELD(f_bfree),
		  (unsigned long long)STATFS_FIELD(f_bavail),
		  (unsigned long long)STATFS_FIELD(f_files),
		  (unsigned long long)STATFS_FIELD(f_ffree));
	tprint_hex(a->l, STATFS_FIELD(f_fsid[0]));
	tl_puts(a->l, ", ");
	tprint_hex(a->l, STATFS_FIELD(f_fsid[1]));
	tl_printf(a->l, "]}, f_namelen=%llu, f_frsize=%llu, f_flags=",
		  (unsigned long long)STATFS_FIELD(f_namelen),
		  (unsigned long long)STATFS_FIELD(f_frsize));
	print_statfs_flags(a->l, STATFS_FIELD(f_flags));
#undef STATFS_FIELD
	tl_putc(a->l, '}');
}

bool tk_statfs(const struct targ *a, uint64_t v)
{
	print_statfs(a, targ_ulong(a, v), kl(a) == 4 ? STATFS_I386 : STATFS_X86_64);
	return true;
}

bool tk_statfs64(const struct targ *a, uint64_t v)
{
	if (targ_table(a) != SG_TABLE_I386)
		return tk_statfs(a, v);
	print_statfs(a, targ_ulong(a, v), STATFS64_I386);
	return true;
}

/* --- select, pselect6 ----------------------------------------------------- */

/* The descriptors set in the first nfds bits: [3 4] (-y: with their
 * paths, except in the result's note, as strace). */
static void print_fdset(const struct targ *a, uint64_t addr, int nfds, bool paths)
{
	unsigned char bits[1024 / 8];
	size_t bytes;
	bool first = true;

	if (nfds < 0)
		nfds = 0;
	if (nfds > 1024)
		nfds = 1024;
	bytes = ((size_t)nfds + 7) / 8;
	if (!addr) {
		tl_puts(a->l, "NULL");
		return;
	}
	if (bytes && !tread(a, bits, addr, bytes)) {
		tprint_ptr(a->l, addr);
		return;
	}
	tl_putc(a->l, '[');
	for (int fd = 0; fd < nfds; fd++) {
		if (!(bits[fd / 8] >> (fd % 8) & 1))
			continue;
		if (!first)
			tl_putc(a->l, ' ');
		if (paths)
			tprint_fd(a, fd);
		else
			tl_printf(a->l, "%d", fd);
		first = false;
	}
	tl_putc(a->l, ']');
}

bool tk_fdset(const struct targ *a, uint64_t v)
{
	print_fdset(a, targ_ulong(a, v), (int32_t)a->call->args[0], true);
	return true;
}

/* {tv_sec=0, tv_usec=1000} in kernel longs */
static void print_timeval(const struct targ *a, uint64_t addr, unsigned w)
{
	unsigned char b[sizeof(struct timeval)];

	if (!get(a, b, addr, w == 4 ? sizeof(struct compat_timeval) : sizeof(b)))
		return;
	if (w == 4)
		tl_printf(a->l, "{tv_sec=%d, tv_usec=%d}",
			  (int32_t)GUEST_FIELD(b, struct compat_timeval, tv_sec),
			  (int32_t)GUEST_FIELD(b, struct compat_timeval, tv_usec));
	else
		tl_printf(a->l, "{tv_sec=%lld, tv_usec=%lld}",
			  (long long)GUEST_FIELD(b, struct timeval, tv_sec),
			  (long long)GUEST_FIELD(b, struct timeval, tv_usec));
}

bool tk_timeval(const struct targ *a, uint64_t v)
{
	print_timeval(a, targ_ulong(a, v), kl(a));
	return true;
}

bool tk_otimeval(const struct targ *a, uint64_t v)
{
	return tk_timeval(a, v);
}

/* pselect6's sixth argument and io_pgetevents' (compat.h's argpacks):
 * {sigmask=[USR1], sigsetsize=8} */
bool tk_pselectmask(const struct targ *a, uint64_t v)
{
	bool compat = kl(a) == 4;
	unsigned char b[sizeof(struct sc_sigset_argpack64)];
	uint64_t size, mask;

	if (!get(a, b, targ_ulong(a, v),
		 compat ? sizeof(struct compat_sigset_argpack) : sizeof(b)))
		return true;
	size = compat ? GUEST_FIELD(b, struct compat_sigset_argpack, size)
		      : GUEST_FIELD(b, struct sc_sigset_argpack64, size);
	mask = compat ? GUEST_FIELD(b, struct compat_sigset_argpack, p)
		      : GUEST_FIELD(b, struct sc_sigset_argpack64, p);
	tl_puts(a->l, "{sigmask=");
	/* strace decodes a mask of one guest word up to the kernel's 8 bytes */
	if (size < wl(a) || size > 8)
		tprint_ptr(a->l, mask);
	else
		tk_sigset(a, mask);
	tl_printf(a->l, ", sigsetsize=%llu}", (unsigned long long)size);
	return true;
}

/* " (in [3], out [4], left {...})" after select's result, " (Timeout)". */
void trace_print_select_note(const struct targ *a)
{
	static const char *const names[] = { "in", "out", "except" };
	int nfds = (int32_t)a->call->args[0];
	bool timespec = a->call->row && !strncmp(a->call->row->name, "pselect6", 8);
	bool first = true;

	if (a->call->result == 0) {
		tl_puts(a->l, " (Timeout)");
		return;
	}
	tl_puts(a->l, " (");
	for (unsigned k = 0; k < 3; k++) {
		uint64_t addr = targ_ulong(a, a->call->args[1 + k]);
		unsigned char bits[1024 / 8];
		size_t bytes = (size_t)(nfds < 0 ? 0 : nfds > 1024 ? 1024 : nfds);
		bool any = false;

		bytes = (bytes + 7) / 8;
		if (!addr || !bytes || !tread(a, bits, addr, bytes))
			continue;
		for (size_t i = 0; i < bytes; i++)
			any |= bits[i] != 0;
		if (!any)
			continue;
		tl_printf(a->l, "%s%s ", first ? "" : ", ", names[k]);
		print_fdset(a, addr, nfds, false);
		first = false;
	}
	if (a->call->args[4]) {
		tl_puts(a->l, first ? "left " : ", left ");
		if (timespec)
			trace_print_timespec(a, targ_ulong(a, a->call->args[4]),
					     row_ends(a, "time64") ? 8 : kl(a));
		else
			print_timeval(a, targ_ulong(a, a->call->args[4]), kl(a));
	}
	tl_putc(a->l, ')');
}

/* --- epoll ------------------------------------------------------------------ */

/* struct epoll_event is packed in every ABI (12 bytes) */
static void print_epoll_event(struct tline *l, const unsigned char *b)
{
	tl_puts(l, "{events=");
	tprint_flags(l, &xlat_epollevents, GUEST_FIELD(b, struct epoll_event, events));
	tl_printf(l, ", data={u32=%u, u64=%llu}}",
		  (uint32_t)GUEST_FIELD(b, struct epoll_event, data.u32),
		  (unsigned long long)GUEST_FIELD(b, struct epoll_event, data.u64));
}

bool tk_epollevent(const struct targ *a, uint64_t v)
{
	unsigned char b[12];

	if (get(a, b, targ_ulong(a, v), sizeof(b)))
		print_epoll_event(a->l, b);
	return true;
}

/* epoll_wait's events: as many as the result */
bool tk_oepollevents(const struct targ *a, uint64_t v)
{
	uint64_t addr = targ_ulong(a, v);
	unsigned char b[sizeof(struct epoll_event)];

	if (a->call->result > 0 && !tread(a, b, addr, sizeof(b))) {
		tprint_ptr(a->l, addr);
		return true;
	}
	tl_putc(a->l, '[');
	for (long i = 0; i < a->call->result; i++) {
		if (i == TRACE_MAX_ELEMS) {
			tl_puts(a->l, ", ...");
			break;
		}
		if (!tread(a, b, addr + sizeof(b) * (uint64_t)i, sizeof(b)))
			break;
		if (i)
			tl_puts(a->l, ", ");
		print_epoll_event(a->l, b);
	}
	tl_putc(a->l, ']');
	return true;
}

/* --- timers ------------------------------------------------------------------- */

/* The width of a timespec in the call: the *64 calls' and x86_64/x32's
 * are 64-bit, i386's others 32-bit. */
static unsigned ts_width(const struct targ *a)
{
	return row_ends(a, "64") ? 8 : kl(a);
}

static void print_itimerspec(const struct targ *a, uint64_t addr, unsigned w)
{
	unsigned char b[sizeof(struct itimerspec)];

	if (!get(a, b, addr, w == 4 ? sizeof(struct compat_itimerspec) : sizeof(b)))
		return;
	tl_puts(a->l, "{it_interval=");
	trace_print_timespec(a, addr, w);
	tl_puts(a->l, ", it_value=");
	trace_print_timespec(a, addr + (w == 4 ? offsetof(struct compat_itimerspec, it_value)
					      : offsetof(struct itimerspec, it_value)), w);
	tl_putc(a->l, '}');
}

bool tk_itimerspec(const struct targ *a, uint64_t v)
{
	print_itimerspec(a, targ_ulong(a, v), ts_width(a));
	return true;
}

bool tk_oitimerspec(const struct targ *a, uint64_t v)
{
	return tk_itimerspec(a, v);
}

bool tk_itimerval(const struct targ *a, uint64_t v)
{
	uint64_t addr = targ_ulong(a, v);
	unsigned w = kl(a);
	unsigned char b[sizeof(struct itimerval)];

	if (!get(a, b, addr, w == 4 ? sizeof(struct compat_itimerval) : sizeof(b)))
		return true;
	tl_puts(a->l, "{it_interval=");
	print_timeval(a, addr, w);
	tl_puts(a->l, ", it_value=");
	print_timeval(a, addr + (w == 4 ? offsetof(struct compat_itimerval, it_value)
				       : offsetof(struct itimerval, it_value)), w);
	tl_putc(a->l, '}');
	return true;
}

bool tk_oitimerval(const struct targ *a, uint64_t v)
{
	return tk_itimerval(a, v);
}

/* times(2): {tms_utime=0, tms_stime=0, tms_cutime=0, tms_cstime=0} */
bool tk_otms(const struct targ *a, uint64_t v)
{
	bool compat = kl(a) == 4;
	unsigned char b[sizeof(struct tms)];

	if (!get(a, b, targ_ulong(a, v), compat ? sizeof(struct compat_tms) : sizeof(b)))
		return true;
#define TMS_FIELD(f) \
	(compat ? (long long)(int32_t)GUEST_FIELD(b, struct compat_tms, f) \
		: (long long)GUEST_FIELD(b, struct tms, f))
	tl_printf(a->l, "{tms_utime=%lld, tms_stime=%lld, tms_cutime=%lld, tms_cstime=%lld}",
		  TMS_FIELD(tms_utime), TMS_FIELD(tms_stime), TMS_FIELD(tms_cutime),
		  TMS_FIELD(tms_cstime));
#undef TMS_FIELD
	return true;
}

/* getrusage: the two times, then "..." as strace abbreviates */
bool tk_orusage(const struct targ *a, uint64_t v)
{
	uint64_t addr = targ_ulong(a, v);
	unsigned w = kl(a);
	size_t stime = w == 4 ? offsetof(struct compat_rusage, ru_stime)
			      : offsetof(struct rusage, ru_stime);
	unsigned char b[2 * sizeof(struct timeval)];

	if (!get(a, b, addr, stime + (w == 4 ? sizeof(struct compat_timeval)
					    : sizeof(struct timeval))))
		return true;
	tl_puts(a->l, "{ru_utime=");
	print_timeval(a, addr, w);
	tl_puts(a->l, ", ru_stime=");
	print_timeval(a, addr + stime, w);
	tl_puts(a->l, ", ...}");
	return true;
}

/* timer_create's struct sigevent: sigval (a pointer's width), signo,
 * notify, the thread id; x32's entry is compat_sys_timer_create. */
bool tk_sigevent(const struct targ *a, uint64_t v)
{
	bool compat = wl(a) == 4;
	/* up to the thread id: strace reads no further */
	size_t need = compat ? offsetof(struct compat_sigevent, tid) + sizeof(int32_t)
			     : offsetof(struct sc_sigevent64, tid) + sizeof(int32_t);
	unsigned char b[sizeof(struct sc_sigevent64)];
	const char *notify;
	uint32_t how;
	int32_t signo, tid;
	uint64_t value;

	if (!get(a, b, targ_ulong(a, v), need))
		return true;
#define SIGEV_FIELD(f) \
	(compat ? GUEST_FIELD(b, struct compat_sigevent, f) : GUEST_FIELD(b, struct sc_sigevent64, f))
	how = (uint32_t)SIGEV_FIELD(sigev_notify);
	signo = (int32_t)SIGEV_FIELD(sigev_signo);
	tid = (int32_t)SIGEV_FIELD(tid);
	value = SIGEV_FIELD(sigev_value);
#undef SIGEV_FIELD
	notify = xlat_name(&xlat_sigevnotify, how);
	tl_putc(a->l, '{');
	if (!notify || strcmp(notify, "SIGEV_NONE")) {
		tl_printf(a->l, "sigev_value={sival_int=%d, sival_ptr=", (int32_t)value);
		tprint_ptr(a->l, value);
		tl_puts(a->l, "}, ");
	}
	tl_puts(a->l, "sigev_signo=");
	if (notify && strcmp(notify, "SIGEV_NONE"))
		tprint_signame(a->l, signo, false);
	else
		tl_printf(a->l, "%d", signo);
	tl_puts(a->l, ", sigev_notify=");
	if (notify)
		tl_puts(a->l, notify);
	else
		tl_printf(a->l, "%#x /* SIGEV_??? */", how);
	if (notify && !strcmp(notify, "SIGEV_THREAD_ID"))
		tl_printf(a->l, ", sigev_notify_thread_id=%d", tid);
	tl_putc(a->l, '}');
	return true;
}

/* [N]: an int the call stored (timer_create's id, sched_getparam's
 * priority) */
bool tk_oint(const struct targ *a, uint64_t v)
{
	int32_t id;

	if (get(a, &id, targ_ulong(a, v), sizeof(id)))
		tl_printf(a->l, "[%d]", id);
	return true;
}

bool tk_intptr(const struct targ *a, uint64_t v)
{
	return tk_oint(a, v);
}

/* get_robust_list's head and length, pointer-sized: [0x...], [24] */
bool tk_optrval(const struct targ *a, uint64_t v)
{
	unsigned char b[8];

	if (get(a, b, targ_ulong(a, v), wl(a))) {
		tl_putc(a->l, '[');
		tprint_ptr(a->l, rd(b, wl(a)));
		tl_putc(a->l, ']');
	}
	return true;
}

bool tk_oulongval(const struct targ *a, uint64_t v)
{
	unsigned char b[8];

	if (get(a, b, targ_ulong(a, v), wl(a)))
		tl_printf(a->l, "[%llu]", (unsigned long long)rd(b, wl(a)));
	return true;
}

/* utimensat's two times, each with the date strace adds in a comment,
 * UTIME_NOW and UTIME_OMIT by name. */
bool tk_utimes(const struct targ *a, uint64_t v)
{
	uint64_t addr = targ_ulong(a, v);
	unsigned w = ts_width(a);
	struct timespec ts[2];
	struct compat_timespec ts32[2];

	if (!get(a, w == 4 ? (void *)ts32 : (void *)ts, addr, w == 4 ? sizeof(ts32) : sizeof(ts)))
		return true;
	tl_putc(a->l, '[');
	for (unsigned k = 0; k < 2; k++) {
		int64_t sec = w == 4 ? ts32[k].tv_sec : ts[k].tv_sec;
		int64_t nsec = w == 4 ? ts32[k].tv_nsec : ts[k].tv_nsec;
		time_t t = (time_t)sec;
		struct tm tm;
		char date[64];

		if (k)
			tl_puts(a->l, ", ");
		if (nsec == UTIME_NOW || nsec == UTIME_OMIT) {
			tl_puts(a->l, nsec == UTIME_NOW ? "UTIME_NOW" : "UTIME_OMIT");
			continue;
		}
		tl_printf(a->l, "{tv_sec=%lld, tv_nsec=%lld}", (long long)sec, (long long)nsec);
		if (!localtime_r(&t, &tm) || !strftime(date, sizeof(date), "%FT%T", &tm))
			continue;
		tl_printf(a->l, " /* %s", date);
		if (nsec)
			tl_printf(a->l, ".%09lld", (long long)nsec);
		if (strftime(date, sizeof(date), "%z", &tm))
			tl_puts(a->l, date);
		tl_puts(a->l, " */");
	}
	tl_putc(a->l, ']');
	return true;
}

/* --- in/out values ------------------------------------------------------------ */

/* Split kinds keep what they read on entry for the return. */
static __thread struct {
	bool read;
	uint64_t value;
} entry_value[6];

/* A socklen_t the call reads and rewrites: "[128 => 16]", or "[16]" when
 * it did not change (or the call failed). */
bool tk_socklenio(const struct targ *a, uint64_t v)
{
	uint64_t addr = targ_ulong(a, v);
	uint32_t len;

	if (a->part == TARG_TAIL) {
		if (!entry_value[a->i].read)
			return true;
		if (a->call->result >= 0 && tread(a, &len, addr, sizeof(len)) &&
		    len != entry_value[a->i].value)
			tl_printf(a->l, " => %u", len);
		tl_putc(a->l, ']');
		return true;
	}
	entry_value[a->i].read = false;
	if (!get(a, &len, addr, sizeof(len)))
		return true;
	if (a->part == TARG_WHOLE) {
		tl_printf(a->l, "[%u]", len);
		return true;
	}
	entry_value[a->i].read = true;
	entry_value[a->i].value = len;
	tl_printf(a->l, "[%u", len);
	return true;
}

/* sendfile's offset: "[0] => [3]" (loff_t, i386's sendfile an off_t) */
bool tk_offinout(const struct targ *a, uint64_t v)
{
	uint64_t addr = targ_ulong(a, v);
	unsigned w = targ_table(a) == SG_TABLE_I386 && row_is(a, "sendfile") ? 4 : 8;
	unsigned char b[8];

	if (a->part == TARG_TAIL) {
		if (addr && a->call->result >= 0 && tread(a, b, addr, w))
			tl_printf(a->l, " => [%lld]", (long long)rds(b, w));
		return true;
	}
	if (get(a, b, addr, w))
		tl_printf(a->l, "[%lld]", (long long)rds(b, w));
	return true;
}

/* splice's offsets: NULL or [0] */
bool tk_loffptr(const struct targ *a, uint64_t v)
{
	unsigned char b[8];

	if (get(a, b, targ_ulong(a, v), 8))
		tl_printf(a->l, "[%lld]", (long long)rds(b, 8));
	return true;
}

/* lseek's off_t: 64-bit on x86_64 and x32, 32-bit on i386 */
bool tk_fileoff(const struct targ *a, uint64_t v)
{
	tl_printf(a->l, "%lld", targ_table(a) == SG_TABLE_I386 ? (long long)(int32_t)v
								 : (long long)v);
	return true;
}

/* truncate's and ftruncate's length: the kernel's unsigned long (64 bits
 * on x32 as on x86_64, 32 on i386), unsigned as strace prints it */
bool tk_filelen(const struct targ *a, uint64_t v)
{
	tl_printf(a->l, "%llu", targ_table(a) == SG_TABLE_I386 ? (unsigned long long)(uint32_t)v
								 : (unsigned long long)v);
	return true;
}

/* --- socket options ----------------------------------------------------------- */

static const struct xlat *sockopt_set(uint32_t level)
{
	const char *name = xlat_name(&xlat_sollevel, level);

	if (!name)
		return NULL;
	if (!strcmp(name, "SOL_SOCKET"))
		return &xlat_sockoptso;
	if (!strcmp(name, "SOL_IP"))
		return &xlat_sockoptip;
	if (!strcmp(name, "SOL_TCP"))
		return &xlat_sockopttcp;
	if (!strcmp(name, "SOL_IPV6"))
		return &xlat_sockoptipv6;
	return NULL;
}

bool tk_sockoptname(const struct targ *a, uint64_t v)
{
	const struct xlat *x = sockopt_set((uint32_t)a->call->args[1]);

	if (x)
		tprint_enum(a->l, x, (int32_t)(uint32_t)v);
	else
		tl_printf(a->l, "%d", (int32_t)(uint32_t)v);
	return true;
}

/* An option's value: an int as [1], other sizes as their bytes. */
static void print_sockopt_value(const struct targ *a, uint64_t addr, int64_t len)
{
	int32_t i;

	if (len == sizeof(i)) {
		if (get(a, &i, addr, sizeof(i)))
			tl_printf(a->l, "[%d]", i);
		return;
	}
	if (len < 0 || !addr) {
		tprint_ptr(a->l, addr);
		return;
	}
	tprint_buf(a, addr, (uint64_t)len, false);
}

bool tk_sockoptval(const struct targ *a, uint64_t v)
{
	print_sockopt_value(a, targ_ulong(a, v), (int32_t)a->call->args[4]);
	return true;
}

/* getsockopt: as long as the length the kernel wrote back */
bool tk_osockoptval(const struct targ *a, uint64_t v)
{
	uint32_t len;

	if (!tread(a, &len, targ_ulong(a, a->call->args[4]), sizeof(len))) {
		tprint_ptr(a->l, targ_ulong(a, v));
		return true;
	}
	print_sockopt_value(a, targ_ulong(a, v), len);
	return true;
}


/* --- prctl ----------------------------------------------------------------- */

/* PR_SET_DUMPABLE's argument and PR_GET_DUMPABLE's result: the kernel's
 * SUID_DUMP_* (include/linux/sched/coredump.h, not exported to user
 * space, so no header names them; strace prints them). */
static const char *const suid_dump_names[] = { "SUID_DUMP_DISABLE", "SUID_DUMP_USER",
					       "SUID_DUMP_ROOT" };

const char *trace_suid_dump_name(uint64_t v)
{
	return v < sizeof(suid_dump_names) / sizeof(suid_dump_names[0]) ? suid_dump_names[v]
									   : NULL;
}

static const char *prctl_op(const struct targ *a)
{
	return xlat_name(&xlat_prctlop, (uint32_t)a->call->args[0]);
}

/* Options strace shows with no argument at all. */
static bool prctl_takes_none(const char *op)
{
	static const char *const none[] = {
		"PR_GET_DUMPABLE", "PR_GET_KEEPCAPS", "PR_GET_SECCOMP", "PR_GET_TIMERSLACK",
		"PR_GET_TIMING", "PR_GET_NO_NEW_PRIVS", "PR_GET_THP_DISABLE",
		"PR_TASK_PERF_EVENTS_DISABLE", "PR_TASK_PERF_EVENTS_ENABLE",
		"PR_GET_IO_FLUSHER", "PR_GET_CHILD_SUBREAPER_NONE",
	};

	for (size_t i = 0; i < sizeof(none) / sizeof(none[0]); i++)
		if (!strcmp(op, none[i]))
			return true;
	return false;
}

/* PR_SET_NAME/PR_GET_NAME's comm: at most 15 bytes and the NUL */
static void print_comm(const struct targ *a, uint64_t addr)
{
	char comm[16];
	size_t n;

	if (!get(a, comm, addr, sizeof(comm)))
		return;
	n = strnlen(comm, sizeof(comm));
	tl_quote(a->l, (const unsigned char *)comm, n < 15 ? n : 15, n > 15);
}

/* The option's arguments (slots 1..4); false for the ones it has not. */
bool tk_prctlarg(const struct targ *a, uint64_t v)
{
	const char *op = prctl_op(a);

	if (!op) {
		tprint_hex(a->l, targ_ulong(a, v));
		return true;
	}
	if (prctl_takes_none(op))
		return false;
	if (!strcmp(op, "PR_SET_NAME") || !strcmp(op, "PR_GET_NAME")) {
		if (a->i != 1)
			return false;
		if (!strcmp(op, "PR_GET_NAME") && (!a->exiting || a->call->result < 0))
			tprint_ptr(a->l, targ_ulong(a, v));
		else
			print_comm(a, targ_ulong(a, v));
		return true;
	}
	if (!strcmp(op, "PR_SET_PDEATHSIG")) {
		if (a->i != 1)
			return false;
		tprint_signame(a->l, (int)v, false);
		return true;
	}
	if (!strcmp(op, "PR_GET_PDEATHSIG")) {
		int32_t sig;

		if (a->i != 1)
			return false;
		if (!a->exiting || a->call->result < 0) {
			tprint_ptr(a->l, targ_ulong(a, v));
		} else if (get(a, &sig, targ_ulong(a, v), sizeof(sig))) {
			tl_putc(a->l, '[');
			tprint_signame(a->l, sig, false);
			tl_putc(a->l, ']');
		}
		return true;
	}
	if (!strcmp(op, "PR_SET_DUMPABLE")) {
		const char *name = trace_suid_dump_name(targ_ulong(a, v));

		if (a->i != 1)
			return false;
		if (name)
			tl_puts(a->l, name);
		else
			tl_printf(a->l, "%#llx /* SUID_DUMP_??? */", (unsigned long long)targ_ulong(a, v));
		return true;
	}
	if (!strcmp(op, "PR_SET_NO_NEW_PRIVS") ||
	    !strcmp(op, "PR_SET_KEEPCAPS") || !strcmp(op, "PR_SET_CHILD_SUBREAPER")) {
		if (a->i != 1 && strcmp(op, "PR_SET_NO_NEW_PRIVS"))
			return false;
		tl_printf(a->l, "%llu", (unsigned long long)targ_ulong(a, v));
		return true;
	}
	tprint_hex(a->l, targ_ulong(a, v));
	return true;
}

/* PR_GET_NAME and PR_GET_PDEATHSIG fill what their argument points to. */
bool trace_prctl_fills(const struct sg_syscall_call *call)
{
	const char *op = xlat_name(&xlat_prctlop, (uint32_t)call->args[0]);

	return op && (!strcmp(op, "PR_GET_NAME") || !strcmp(op, "PR_GET_PDEATHSIG"));
}

/* --- xattr values, siginfo ---------------------------------------------------- */

bool tk_xattrval(const struct targ *a, uint64_t v)
{
	tprint_buf(a, targ_ulong(a, v), targ_ulong(a, a->call->args[a->i + 1]), false);
	return true;
}

bool tk_oxattrval(const struct targ *a, uint64_t v)
{
	uint64_t addr = targ_ulong(a, v);

	if (!addr || !targ_ulong(a, a->call->args[a->i + 1]))
		tprint_ptr(a->l, addr);
	else
		tprint_buf(a, addr, (uint64_t)a->call->result, false);
	return true;
}

/* A guest siginfo in the host's layout: the three ints (signo, errno,
 * code), then the union: right after them in i386's and x32's (compat,
 * 4-byte aligned), at the host's (8-byte aligned) offset in x86_64's; the
 * union's words are copied as they are (pid, uid, the value's low half),
 * which is what strace shows of the sender. */
#define SIGINFO_HEAD (3 * sizeof(int32_t))
#define SIGINFO_UNION offsetof(siginfo_t, _sifields)
_Static_assert(offsetof(siginfo_t, si_code) + sizeof(int32_t) == SIGINFO_HEAD, "siginfo head");
_Static_assert(sizeof(siginfo_t) == 128, "siginfo size");

static void print_guest_siginfo(const struct targ *a, uint64_t addr)
{
	unsigned char b[sizeof(siginfo_t)];
	siginfo_t si;
	size_t un = targ_table(a) == SG_TABLE_X64 ? SIGINFO_UNION : SIGINFO_HEAD;

	if (!get(a, b, addr, sizeof(b)))
		return;
	memset(&si, 0, sizeof(si));
	memcpy(&si, b, SIGINFO_HEAD);
	memcpy((unsigned char *)&si + SIGINFO_UNION, b + un,
	       sizeof(si) - SIGINFO_UNION < sizeof(b) - un ? sizeof(si) - SIGINFO_UNION
							 : sizeof(b) - un);
	trace_print_siginfo(a->l, &si);
}

bool tk_siginfo(const struct targ *a, uint64_t v)
{
	print_guest_siginfo(a, targ_ulong(a, v));
	return true;
}

bool tk_osiginfo(const struct targ *a, uint64_t v)
{
	return tk_siginfo(a, v);
}

/* mremap's new address: only with MREMAP_FIXED, as strace shows it */
bool tk_mremapaddr(const struct targ *a, uint64_t v)
{
	if (!(a->call->args[3] & xlat_value(&xlat_mremapflags, "MREMAP_FIXED")))
		return false;
	tprint_ptr(a->l, targ_ulong(a, v));
	return true;
}

/* A time with its date in local time, as strace adds it: in a C comment
 * after it (in an argument) or in parentheses (a result). */
static void print_time_with_date(struct tline *l, int64_t sec, bool comment)
{
	time_t t = (time_t)sec;
	struct tm tm;
	char date[64];

	tl_printf(l, "%lld", (long long)sec);
	if (!localtime_r(&t, &tm) || !strftime(date, sizeof(date), "%FT%T%z", &tm))
		return;
	tl_printf(l, comment ? " /* %s */" : " (%s)", date);
}

/* time(2)'s [t] with the date, and its result's note */
bool tk_otime(const struct targ *a, uint64_t v)
{
	unsigned char b[8];

	if (get(a, b, targ_ulong(a, v), wl(a))) {
		tl_putc(a->l, '[');
		print_time_with_date(a->l, rds(b, wl(a)), true);
		tl_putc(a->l, ']');
	}
	return true;
}

void trace_print_time_note(const struct targ *a)
{
	struct tline *l = a->l;
	size_t eq = l->len;

	/* the result printed again, with its date */
	while (eq > 0 && l->buf[eq - 1] != '=')
		eq--;
	l->len = eq;
	tl_putc(l, ' ');
	print_time_with_date(l, targ_long(a, (uint64_t)a->call->result), false);
}
