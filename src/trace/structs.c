/* The struct and special-form kinds of kinds.in for files, time and
 * memory, printed as strace shows them: open flags, fcntl's argument, file
 * status, times, vectors, argv, limits, pipes, random bytes, _llseek.
 * Layouts per guest ABI are read field by field at the kernel's offsets;
 * processes and signals are in structs_task.c, sockets in sockets.c. */
#include <poll.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/uio.h>
#include <linux/stat.h> /* struct statx: one layout in every ABI */

#include "syscall/compat/compat.h"
#include "trace/trace_internal.h"

/* Guest pointer / long width of the call's ABI. */
static unsigned wl(const struct targ *a)
{
	return guest_long_bytes(targ_table(a));
}

bool tk_accmodeflags(const struct targ *a, uint64_t v)
{
	static const char *const acc[] = { "O_RDONLY", "O_WRONLY", "O_RDWR",
					   "O_ACCMODE" };
	uint32_t f = (uint32_t)v;

	tl_puts(a->l, acc[f & 3]);
	if (f & ~3u) {
		tl_putc(a->l, '|');
		tprint_flags(a->l, &xlat_openflags, f & ~3u);
	}
	return true;
}

static bool print_flock(const struct targ *a, uint64_t v);

/* fcntl's third argument depends on the command. */
bool tk_fcntlarg(const struct targ *a, uint64_t v)
{
	const char *cmd = xlat_name(&xlat_fcntlcmd, (uint32_t)a->call->args[1]);

	if (cmd && strstr(cmd, "GETLK")) /* filled by the call: on return */
		return a->exiting && a->call->result >= 0 ? print_flock(a, v)
							 : (tprint_ptr(a->l, targ_ulong(a, v)), true);
	if (!cmd || !strncmp(cmd, "F_GET", 5) || !strcmp(cmd, "F_NOTIFY"))
		return cmd == NULL ? (tprint_hex(a->l, v), true) : false;
	if (!strcmp(cmd, "F_SETFD"))
		tprint_flags(a->l, &xlat_fdflags, (uint32_t)v);
	else if (!strcmp(cmd, "F_SETFL"))
		tk_accmodeflags(a, v & ~(uint64_t)3);
	else if (strstr(cmd, "LK"))
		print_flock(a, v);
	else
		tl_printf(a->l, "%d", (int)(uint32_t)v);
	return true;
}


/* --- file status ------------------------------------------------------- */

/* S_IFDIR|S_ISVTX|0777: the type, the special bits by name, the rest. */
static void print_mode(struct tline *l, uint32_t mode)
{
	const char *type = xlat_name(&xlat_filetype, mode & 0170000);

	if (!type) {
		tl_printf(l, "%#o", mode);
		return;
	}
	tl_printf(l, "%s|", type);
	if (mode & 07000) {
		tprint_flags(l, &xlat_modebits, mode & 07000);
		tl_putc(l, '|');
	}
	tl_printf(l, "%#04o", mode & 0777);
}

static void print_dev(struct tline *l, uint64_t dev)
{
	unsigned major = (unsigned)(((dev >> 8) & 0xfff) | ((dev >> 32) & ~0xfffu));
	unsigned minor = (unsigned)((dev & 0xff) | ((dev >> 12) & ~0xffu));

	tl_printf(l, "makedev(%#x, %#x)", major, minor);
}

/* strace's short form: type and permissions, then the device of a device
 * file or the size of anything else. */
static void print_stat_short(struct tline *l, uint32_t mode, uint64_t rdev,
			     uint64_t size)
{
	uint32_t type = mode & 0170000;

	tl_puts(l, "{st_mode=");
	print_mode(l, mode);
	if (type == 0020000 || type == 0060000) {
		tl_puts(l, ", st_rdev=");
		print_dev(l, rdev);
	} else {
		tl_printf(l, ", st_size=%llu", (unsigned long long)size);
	}
	tl_puts(l, ", ...}");
}

/* struct stat of x86_64 (x32 uses it too); i386's old struct stat. */
bool tk_stat(const struct targ *a, uint64_t v)
{
	unsigned char b[sizeof(struct stat)];
	uint64_t addr = targ_ulong(a, v);

	if (targ_table(a) == SG_TABLE_I386) {
		if (!tread(a, b, addr, sizeof(struct compat_stat)))
			goto bad;
		print_stat_short(a->l, (uint32_t)GUEST_FIELD(b, struct compat_stat, st_mode),
				 GUEST_FIELD(b, struct compat_stat, st_rdev),
				 GUEST_FIELD(b, struct compat_stat, st_size));
		return true;
	}
	if (!tread(a, b, addr, sizeof(b)))
		goto bad;
	print_stat_short(a->l, (uint32_t)GUEST_FIELD(b, struct stat, st_mode),
			 GUEST_FIELD(b, struct stat, st_rdev),
			 GUEST_FIELD(b, struct stat, st_size));
	return true;
bad:
	tprint_ptr(a->l, addr);
	return true;
}

/* i386 struct stat64 (64-bit fields 4-byte aligned). */
bool tk_stat64(const struct targ *a, uint64_t v)
{
	unsigned char b[sizeof(struct compat_stat64)];
	uint64_t addr = targ_ulong(a, v);

	if (!tread(a, b, addr, sizeof(b))) {
		tprint_ptr(a->l, addr);
		return true;
	}
	print_stat_short(a->l, (uint32_t)GUEST_FIELD(b, struct compat_stat64, st_mode),
			 GUEST_FIELD(b, struct compat_stat64, st_rdev),
			 GUEST_FIELD(b, struct compat_stat64, st_size));
	return true;
}

/* struct statx, the same for every ABI. */
bool tk_statx(const struct targ *a, uint64_t v)
{
	unsigned char b[sizeof(struct statx)];
	uint64_t addr = targ_ulong(a, v);

	if (!tread(a, b, addr, sizeof(b))) {
		tprint_ptr(a->l, addr);
		return true;
	}
	tl_puts(a->l, "{stx_mask=");
	tprint_flags(a->l, &xlat_statxmask, GUEST_FIELD(b, struct statx, stx_mask));
	tl_puts(a->l, ", stx_attributes=");
	tprint_flags(a->l, &xlat_statxattr, GUEST_FIELD(b, struct statx, stx_attributes));
	tl_puts(a->l, ", stx_mode=");
	print_mode(a->l, (uint32_t)GUEST_FIELD(b, struct statx, stx_mode));
	tl_printf(a->l, ", stx_size=%llu, ...}",
		  (unsigned long long)GUEST_FIELD(b, struct statx, stx_size));
	return true;
}

/* --- time -------------------------------------------------------------- */

bool trace_print_timespec(const struct targ *a, uint64_t addr, unsigned w)
{
	unsigned char b[sizeof(struct timespec)];

	if (!addr) {
		tl_puts(a->l, "NULL");
		return true;
	}
	if (!tread(a, b, addr, w == 4 ? sizeof(struct compat_timespec) : sizeof(struct timespec))) {
		tprint_ptr(a->l, addr);
		return true;
	}
	if (w == 4)
		tl_printf(a->l, "{tv_sec=%d, tv_nsec=%d}",
			  (int32_t)GUEST_FIELD(b, struct compat_timespec, tv_sec),
			  (int32_t)GUEST_FIELD(b, struct compat_timespec, tv_nsec));
	else
		tl_printf(a->l, "{tv_sec=%lld, tv_nsec=%lld}",
			  (long long)GUEST_FIELD(b, struct timespec, tv_sec),
			  (long long)GUEST_FIELD(b, struct timespec, tv_nsec));
	return true;
}

/* struct timespec: 32-bit fields on i386 only (x32's time_t is 64-bit). */
bool tk_timespec(const struct targ *a, uint64_t v)
{
	return trace_print_timespec(a, targ_ulong(a, v),
			      targ_table(a) == SG_TABLE_I386 ? 4 : 8);
}

bool tk_otimespec(const struct targ *a, uint64_t v)
{
	return tk_timespec(a, v);
}

/* struct __kernel_timespec of the *_time64 calls. */
bool tk_timespec64(const struct targ *a, uint64_t v)
{
	return trace_print_timespec(a, targ_ulong(a, v), 8);
}

bool tk_otimespec64(const struct targ *a, uint64_t v)
{
	return tk_timespec64(a, v);
}

/* --- vectors and arrays --------------------------------------------------- */

void trace_print_iov(const struct targ *a, uint64_t addr, uint64_t count,
		     uint64_t budget)
{
	bool compat = wl(a) == 4;
	size_t size = compat ? sizeof(struct compat_iovec) : sizeof(struct iovec);
	unsigned char probe[sizeof(struct iovec)];

	if (count && !tread(a, probe, addr, size)) {
		tprint_ptr(a->l, addr);
		return;
	}
	tl_putc(a->l, '[');
	for (uint64_t i = 0; i < count; i++) {
		unsigned char b[sizeof(struct iovec)];
		uint64_t base, len;

		if (i == TRACE_MAX_ELEMS) {
			tl_puts(a->l, ", ...");
			break;
		}
		if (!tread(a, b, addr + i * size, size))
			break;
		base = compat ? GUEST_FIELD(b, struct compat_iovec, iov_base)
			      : GUEST_FIELD(b, struct iovec, iov_base);
		len = compat ? GUEST_FIELD(b, struct compat_iovec, iov_len)
			     : GUEST_FIELD(b, struct iovec, iov_len);
		if (i)
			tl_puts(a->l, ", ");
		tl_puts(a->l, "{iov_base=");
		if (budget == TRACE_IOV_ADDRESSES) {
			tprint_ptr(a->l, base);
		} else {
			tprint_buf(a, base, len < budget ? len : budget, false);
			budget -= len < budget ? len : budget;
		}
		tl_printf(a->l, ", iov_len=%llu}", (unsigned long long)len);
	}
	tl_putc(a->l, ']');
}

bool tk_iovec(const struct targ *a, uint64_t v)
{
	trace_print_iov(a, targ_ulong(a, v),
			targ_ulong(a, a->call->args[a->i + 1]), UINT64_MAX);
	return true;
}

bool tk_oiovec(const struct targ *a, uint64_t v)
{
	trace_print_iov(a, targ_ulong(a, v),
			targ_ulong(a, a->call->args[a->i + 1]),
			(uint64_t)a->call->result);
	return true;
}

/* [{fd=0, events=POLLIN}, ...] */
bool tk_pollfd(const struct targ *a, uint64_t v)
{
	uint64_t addr = targ_ulong(a, v);
	uint64_t n = (uint32_t)a->call->args[a->i + 1];

	if (!addr) { /* strace: NULL, even for no elements */
		tprint_ptr(a->l, addr);
		return true;
	}
	tl_putc(a->l, '[');
	for (uint64_t i = 0; i < n; i++) {
		unsigned char b[sizeof(struct pollfd)];

		if (i == TRACE_MAX_ELEMS) {
			tl_puts(a->l, ", ...");
			break;
		}
		if (!tread(a, b, addr + sizeof(struct pollfd) * i, sizeof(struct pollfd))) {
			if (!i) {
				a->l->len--;
				tprint_ptr(a->l, addr);
				return true;
			}
			break;
		}
		if (i)
			tl_puts(a->l, ", ");
		tl_puts(a->l, "{fd=");
		tprint_fd(a, (int32_t)GUEST_FIELD(b, struct pollfd, fd));
		tl_puts(a->l, ", events=");
		tprint_flags(a->l, &xlat_pollevents, GUEST_FIELD(b, struct pollfd, events));
		tl_putc(a->l, '}');
	}
	tl_putc(a->l, ']');
	return true;
}

/* " ([{fd=0, revents=POLLIN}])" after poll's result; " (Timeout)" for 0. */
void trace_print_poll_note(const struct targ *a)
{
	uint64_t addr = targ_ulong(a, a->call->args[0]);
	uint64_t n = (uint32_t)a->call->args[1];
	bool first = true;

	if (a->call->result == 0) {
		tl_puts(a->l, " (Timeout)");
		return;
	}
	tl_puts(a->l, " ([");
	for (uint64_t i = 0; i < n && i < TRACE_MAX_ELEMS; i++) {
		unsigned char b[sizeof(struct pollfd)];

		if (!tread(a, b, addr + sizeof(b) * i, sizeof(b)))
			break;
		if (!GUEST_FIELD(b, struct pollfd, revents))
			continue;
		if (!first)
			tl_puts(a->l, ", ");
		tl_printf(a->l, "{fd=%d, revents=", (int32_t)GUEST_FIELD(b, struct pollfd, fd));
		tprint_flags(a->l, &xlat_pollevents, GUEST_FIELD(b, struct pollfd, revents));
		tl_putc(a->l, '}');
		first = false;
	}
	tl_putc(a->l, ']');
	/* ppoll: the time left, which the kernel wrote back */
	if (a->call->row && !strncmp(a->call->row->name, "ppoll", 5) && a->call->args[2]) {
		tl_puts(a->l, ", left ");
		trace_print_timespec(a, targ_ulong(a, a->call->args[2]),
				     targ_table(a) == SG_TABLE_I386 &&
				     !strstr(a->call->row->name, "time64") ? 4 : 8);
	}
	tl_putc(a->l, ')');
}

/* execve's argv: ["ls", "-l"] */
bool tk_argv(const struct targ *a, uint64_t v)
{
	uint64_t addr = targ_ulong(a, v);
	unsigned w = wl(a);

	if (!addr) {
		tl_puts(a->l, "NULL");
		return true;
	}
	tl_putc(a->l, '[');
	for (unsigned i = 0;; i++) {
		uint64_t p = 0;

		if (!tread(a, &p, addr + (uint64_t)i * w, w)) {
			if (!i) {
				a->l->len--;
				tprint_ptr(a->l, addr);
				return true;
			}
			break;
		}
		if (!p)
			break;
		if (i == TRACE_MAX_ELEMS) {
			tl_puts(a->l, ", ...");
			break;
		}
		if (i)
			tl_puts(a->l, ", ");
		tprint_str(a, p);
	}
	tl_putc(a->l, ']');
	return true;
}

/* execve's envp, as strace abbreviates it: 0x7ffd... / * 37 vars * / */
bool tk_envp(const struct targ *a, uint64_t v)
{
	uint64_t addr = targ_ulong(a, v);
	unsigned w = wl(a), n = 0;
	uint64_t p = 0;

	if (!addr) {
		tl_puts(a->l, "NULL");
		return true;
	}
	while (n < 100000 && tread(a, &p, addr + (uint64_t)n * w, w) && p)
		n++;
	tl_printf(a->l, "%#llx /* %u var%s */", (unsigned long long)addr, n,
		  n == 1 ? "" : "s");
	return true;
}

/* --- limits, pipes, random bytes, offsets -------------------------------- */

static void print_rlim(struct tline *l, uint64_t v, unsigned w, bool is64)
{
	uint64_t inf = w == 4 ? 0xffffffffu : ~(uint64_t)0;

	if (v == inf)
		tl_puts(l, is64 ? "RLIM64_INFINITY" : "RLIM_INFINITY");
	else if (v > 1024 && v % 1024 == 0)
		tl_printf(l, "%llu*1024", (unsigned long long)(v / 1024));
	else
		tl_printf(l, "%llu", (unsigned long long)v);
}

/* struct rlimit in kernel longs (x32's are 64-bit: sys_getrlimit, the
 * x86_64 layout), or struct rlimit64 for prlimit64. */
bool tk_rlimit(const struct targ *a, uint64_t v)
{
	bool is64 = a->call->row && !strcmp(a->call->row->name, "prlimit64");
	unsigned w = !is64 && targ_table(a) == SG_TABLE_I386 ? 4 : 8;
	uint64_t addr = targ_ulong(a, v);
	unsigned char b[sizeof(struct rlimit)]; /* x86_64's = rlimit64 */

	if (!addr) {
		tl_puts(a->l, "NULL");
		return true;
	}
	if (!tread(a, b, addr, w == 4 ? sizeof(struct compat_rlimit) : sizeof(b))) {
		tprint_ptr(a->l, addr);
		return true;
	}
	tl_puts(a->l, "{rlim_cur=");
	print_rlim(a->l, w == 4 ? GUEST_FIELD(b, struct compat_rlimit, rlim_cur)
			      : GUEST_FIELD(b, struct rlimit, rlim_cur), w, is64);
	tl_puts(a->l, ", rlim_max=");
	print_rlim(a->l, w == 4 ? GUEST_FIELD(b, struct compat_rlimit, rlim_max)
			      : GUEST_FIELD(b, struct rlimit, rlim_max), w, is64);
	tl_putc(a->l, '}');
	return true;
}

bool tk_orlimit(const struct targ *a, uint64_t v)
{
	return tk_rlimit(a, v);
}

/* pipe's two descriptors: [3, 4] */
bool tk_fds2(const struct targ *a, uint64_t v)
{
	int32_t fd[2];
	uint64_t addr = targ_ulong(a, v);

	if (!tread(a, fd, addr, sizeof(fd))) {
		tprint_ptr(a->l, addr);
		return true;
	}
	tl_putc(a->l, '[');
	tprint_fd(a, fd[0]);
	tl_puts(a->l, ", ");
	tprint_fd(a, fd[1]);
	tl_putc(a->l, ']');
	return true;
}

/* getrandom's bytes: binary, so strace shows them all in \x form. */
bool tk_xbuf(const struct targ *a, uint64_t v)
{
	tprint_buf(a, targ_ulong(a, v), (uint64_t)a->call->result, true);
	return true;
}

/* statx's flags: the sync type always (AT_STATX_SYNC_AS_STAT is 0), then
 * the AT_* flags. */
bool tk_statxflags(const struct targ *a, uint64_t v)
{
	uint32_t f = (uint32_t)v;
	uint32_t sync_bits = (uint32_t)(xlat_value(&xlat_statxsync, "AT_STATX_FORCE_SYNC") |
					xlat_value(&xlat_statxsync, "AT_STATX_DONT_SYNC"));

	tprint_enum(a->l, &xlat_statxsync, f & sync_bits);
	if (f & ~sync_bits) {
		tl_putc(a->l, '|');
		tprint_flags(a->l, &xlat_atflags, f & ~sync_bits);
	}
	return true;
}

/* A string that is not a path (names, values): cut at -s. */
bool tk_cstr(const struct targ *a, uint64_t v)
{
	tprint_str(a, targ_ulong(a, v));
	return true;
}

/* A path the call wrote (getcwd): up to its NUL, as strace shows it. */
bool tk_ocstr(const struct targ *a, uint64_t v)
{
	tprint_path(a, targ_ulong(a, v));
	return true;
}

/* A slot shown by the kind before it (_llseek's low offset word). */
bool tk_skip(const struct targ *a, uint64_t v)
{
	(void)a;
	(void)v;
	return false;
}

/* _llseek(fd, offset_high, offset_low, result, whence): one offset. */
bool tk_llseekoff(const struct targ *a, uint64_t v)
{
	tl_printf(a->l, "%lld", (long long)((uint64_t)(uint32_t)v << 32 |
					    (uint32_t)a->call->args[a->i + 1]));
	return true;
}

/* _llseek's resulting offset, a 64-bit value the call stores: [15] */
bool tk_oloff(const struct targ *a, uint64_t v)
{
	uint64_t addr = targ_ulong(a, v);
	int64_t off;

	if (!tread(a, &off, addr, sizeof(off))) {
		tprint_ptr(a->l, addr);
		return true;
	}
	tl_printf(a->l, "[%lld]", (long long)off);
	return true;
}


/* getdents: the address and how many entries the call returned, as
 * strace's short form: 0x7ff... / * 30 entries * /. reclen_at: where
 * d_reclen is in the ABI's record. */
static bool print_dirents(const struct targ *a, uint64_t v, unsigned reclen_at)
{
	uint64_t addr = targ_ulong(a, v), off = 0, len = (uint64_t)a->call->result;
	unsigned n = 0;
	uint16_t reclen;

	while (off + reclen_at + 2 <= len && tread(a, &reclen, addr + off + reclen_at, 2) &&
	       reclen) {
		n++;
		off += reclen;
	}
	tl_printf(a->l, "%#llx /* %u entries */", (unsigned long long)addr, n);
	return true;
}

bool tk_odirents(const struct targ *a, uint64_t v)
{
	/* x32's getdents is the 64-bit one: kernel longs */
	return print_dirents(a, v, targ_table(a) == SG_TABLE_I386
					   ? offsetof(struct compat_linux_dirent, d_reclen)
					   : offsetof(struct sc_linux_dirent, d_reclen));
}

bool tk_odirents64(const struct targ *a, uint64_t v)
{
	return print_dirents(a, v, offsetof(struct sc_linux_dirent64, d_reclen));
}

/* A CPU mask of n bytes: [0 1] */
static void print_cpuset(const struct targ *a, uint64_t addr, size_t n)
{
	unsigned char bits[128];
	bool first = true;

	if (n > sizeof(bits))
		n = sizeof(bits);
	if (!tread(a, bits, addr, n)) {
		tprint_ptr(a->l, addr);
		return;
	}
	tl_putc(a->l, '[');
	for (size_t i = 0; i < 8 * n; i++) {
		if (!(bits[i / 8] >> (i % 8) & 1))
			continue;
		tl_printf(a->l, first ? "%zu" : " %zu", i);
		first = false;
	}
	tl_putc(a->l, ']');
}

/* sched_getaffinity's mask, the bytes the call returned */
bool tk_ocpuset(const struct targ *a, uint64_t v)
{
	print_cpuset(a, targ_ulong(a, v), (size_t)a->call->result);
	return true;
}

/* sched_setaffinity's, as long as its size argument */
bool tk_cpuset(const struct targ *a, uint64_t v)
{
	print_cpuset(a, targ_ulong(a, v), (size_t)targ_ulong(a, a->call->args[a->i - 1]));
	return true;
}

/* mknod's mode: S_IFIFO|0600 */
bool tk_mknodmode(const struct targ *a, uint64_t v)
{
	print_mode(a->l, (uint32_t)v);
	return true;
}

/* mknod's device: only for character and block devices, as strace */
bool tk_mknoddev(const struct targ *a, uint64_t v)
{
	const char *type = xlat_name(&xlat_filetype, a->call->args[a->i - 1] & 0170000);

	if (!type || (strcmp(type, "S_IFCHR") && strcmp(type, "S_IFBLK")))
		return false;
	/* i386 mknod's dev is a 32-bit old-encoded value, as the others' low word */
	print_dev(a->l, targ_table(a) == SG_TABLE_I386 ? (uint32_t)v : v);
	return true;
}

/* struct flock: {l_type=F_WRLCK, l_whence=SEEK_SET, l_start=0, l_len=3}
 * (F_GETLK: l_pid too); off_t fields are 32-bit in i386's struct flock,
 * 64-bit in x86_64's, x32's and i386's flock64 (the *LK64 commands). */
static bool print_flock(const struct targ *a, uint64_t v)
{
	const char *cmd = xlat_name(&xlat_fcntlcmd, (uint32_t)a->call->args[1]);
	bool is_i386 = targ_table(a) == SG_TABLE_I386;
	/* i386's flock64 is packed (l_start at 4); x86_64's, x32's aligned */
	enum { FLOCK32, FLOCK64_PACKED, FLOCK64 } form =
		!is_i386 ? FLOCK64 : cmd && strstr(cmd, "LK64") ? FLOCK64_PACKED : FLOCK32;
	static const size_t sizes[] = { sizeof(struct compat_flock),
					sizeof(struct compat_flock64), sizeof(struct flock) };
	uint64_t addr = targ_ulong(a, v);
	unsigned char b[sizeof(struct flock)];
	int64_t ltype, whence, start, len, pid;
	const char *type;

	if (!tread(a, b, addr, sizes[form])) {
		tprint_ptr(a->l, addr);
		return true;
	}
#define FLOCK_FIELD(f)                                                              \
	(form == FLOCK32 ? (int64_t)(__typeof__(((struct compat_flock *)0)->f))     \
				   GUEST_FIELD(b, struct compat_flock, f)           \
	 : form == FLOCK64_PACKED ? (int64_t)(__typeof__(((struct compat_flock64 *)0)->f)) \
				   GUEST_FIELD(b, struct compat_flock64, f)         \
	 : (int64_t)(__typeof__(((struct flock *)0)->f))GUEST_FIELD(b, struct flock, f))
	ltype = FLOCK_FIELD(l_type);
	whence = FLOCK_FIELD(l_whence);
	start = FLOCK_FIELD(l_start);
	len = FLOCK_FIELD(l_len);
	pid = FLOCK_FIELD(l_pid);
#undef FLOCK_FIELD
	type = xlat_name(&xlat_locktype, (uint64_t)ltype);
	tl_puts(a->l, "{l_type=");
	if (type)
		tl_puts(a->l, type);
	else
		tl_printf(a->l, "%#x /* F_??? */", (unsigned)(uint16_t)ltype);
	tl_puts(a->l, ", l_whence=");
	tprint_enum(a->l, &xlat_whence, whence);
	tl_printf(a->l, ", l_start=%lld, l_len=%lld", (long long)start, (long long)len);
	if (cmd && strstr(cmd, "GETLK"))
		tl_printf(a->l, ", l_pid=%d", (int32_t)pid);
	tl_putc(a->l, '}');
	return true;
}

/* struct sysinfo in kernel longs: x32 has x86_64's (sys_sysinfo, 64-bit
 * __kernel_long_t; unit.test_syscall_structs checks it against -mx32). */
bool tk_osysinfo(const struct targ *a, uint64_t v)
{
	bool compat = targ_table(a) == SG_TABLE_I386;
	uint64_t addr = targ_ulong(a, v);
	unsigned char b[sizeof(struct sysinfo)];
	_Static_assert(sizeof(struct sysinfo) >= sizeof(struct compat_sysinfo), "buffer");

	if (!tread(a, b, addr, compat ? sizeof(struct compat_sysinfo) : sizeof(struct sysinfo))) {
		tprint_ptr(a->l, addr);
		return true;
	}
#define SYSINFO_FIELD(f) \
	(compat ? GUEST_FIELD(b, struct compat_sysinfo, f) : GUEST_FIELD(b, struct sysinfo, f))
	tl_printf(a->l, "{uptime=%lld, loads=[%llu, %llu, %llu]",
		  compat ? (long long)(int32_t)GUEST_FIELD(b, struct compat_sysinfo, uptime)
			 : (long long)GUEST_FIELD(b, struct sysinfo, uptime),
		  (unsigned long long)SYSINFO_FIELD(loads[0]),
		  (unsigned long long)SYSINFO_FIELD(loads[1]),
		  (unsigned long long)SYSINFO_FIELD(loads[2]));
	tl_printf(a->l, ", totalram=%llu, freeram=%llu, sharedram=%llu, bufferram=%llu"
		  ", totalswap=%llu, freeswap=%llu",
		  (unsigned long long)SYSINFO_FIELD(totalram),
		  (unsigned long long)SYSINFO_FIELD(freeram),
		  (unsigned long long)SYSINFO_FIELD(sharedram),
		  (unsigned long long)SYSINFO_FIELD(bufferram),
		  (unsigned long long)SYSINFO_FIELD(totalswap),
		  (unsigned long long)SYSINFO_FIELD(freeswap));
	tl_printf(a->l, ", procs=%u, totalhigh=%llu, freehigh=%llu, mem_unit=%u}",
		  (unsigned)SYSINFO_FIELD(procs), (unsigned long long)SYSINFO_FIELD(totalhigh),
		  (unsigned long long)SYSINFO_FIELD(freehigh), (unsigned)SYSINFO_FIELD(mem_unit));
#undef SYSINFO_FIELD
	return true;
}

/* mmap2's offset is in 4096-byte pages; strace shows it in bytes. */
bool tk_pgoff(const struct targ *a, uint64_t v)
{
	tprint_hex(a->l, (uint64_t)(uint32_t)v << 12);
	return true;
}
