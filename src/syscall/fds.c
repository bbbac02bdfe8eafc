/* The guest's descriptors and sysgate's own (src/hostfd/hostfd.h): every
 * call that names a descriptor is checked at the entry (the fd/dirfd
 * argument kinds of tables/syscall_args.in); here the calls that need more
 * than that: close_range around sysgate's descriptors, /proc/self/fd
 * listings and paths without them, RLIMIT_NOFILE as the guest set it.
 * docs/syscalls.md, Descriptors. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <linux/close_range.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include "hostfd/hostfd.h"
#include "syscall/compat/compat.h"
#include "syscall/handler.h"

#define PROC_SUPER_MAGIC 0x9fa0

bool sc_names_private_fd(unsigned fd_args, const uint64_t *a)
{
	for (unsigned i = 0; fd_args; i++, fd_args >>= 1)
		if ((fd_args & 1) && hostfd_is_private((int)a[i]))
			return true;
	return false;
}

/* SCM_RIGHTS of a message to send naming one of sysgate's: -EBADF, as
 * the kernel's for a descriptor that is not open. */
long sc_cmsg_rights_check(const struct msghdr *h)
{
	for (struct cmsghdr *c = CMSG_FIRSTHDR(h); c; c = CMSG_NXTHDR((struct msghdr *)h, c)) {
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS ||
		    c->cmsg_len < CMSG_LEN(0))
			continue;
		for (size_t off = 0; off + sizeof(int) <= c->cmsg_len - CMSG_LEN(0);
		     off += sizeof(int)) {
			int fd;

			memcpy(&fd, CMSG_DATA(c) + off, sizeof(fd));
			if (hostfd_is_private(fd))
				return -EBADF;
		}
	}
	return 0;
}

/* poll/ppoll entries naming one of sysgate's get a number never open for
 * the call (the kernel's answer for a closed one: POLLNVAL) and theirs
 * back after it (the kernel writes only revents). */
_Static_assert(ARRAY_SIZE(((struct sc_poll_saved *)0)->fd) == HOSTFD_MAX,
	       "room for every private descriptor");

int sc_poll_hide(struct pollfd *fds, uint64_t n, struct sc_poll_saved *saved)
{
	saved->n = 0;
	if (!fds || hostfd_list((int[1]){ 0 }, 1) == 0)
		return 0;
	for (uint64_t i = 0; i < n && saved->n < HOSTFD_MAX; i++) {
		if (!hostfd_is_private(fds[i].fd))
			continue;
		saved->idx[saved->n] = i;
		saved->fd[saved->n++] = fds[i].fd;
		fds[i].fd = INT_MAX;
	}
	return saved->n;
}

void sc_poll_unhide(struct pollfd *fds, const struct sc_poll_saved *saved)
{
	for (int i = 0; i < saved->n; i++)
		fds[saved->idx[i]].fd = saved->fd[i];
}

/* The bits of sysgate's descriptors in a select set leave it: a native
 * kernel ignores numbers past the process's descriptor table, which for a
 * guest that never opened that many (the usual case for numbers up at
 * the soft limit) is where sysgate's are; the set comes back without
 * them. */
void sc_fdset_drop_private(uint64_t *bits, int n)
{
	int own[HOSTFD_MAX];
	int k = hostfd_list(own, HOSTFD_MAX);

	for (int i = 0; i < k; i++)
		if (own[i] < n)
			bits[own[i] / 64] &= ~(1ull << (own[i] % 64));
}

/* Each descriptor number the fd directory at path lists, to each(fd, ctx)
 * (the directory's own descriptor, open for the listing, left out); false
 * when it cannot be read. */
static bool each_fd_entry(const char *path, void (*each)(long fd, void *ctx), void *ctx)
{
	char buf[4096];
	long dir, n;

	dir = host_syscall4(SYS_openat, AT_FDCWD, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
	if (dir < 0)
		return false;
	while ((n = host_syscall3(SYS_getdents64, dir, buf, sizeof(buf))) > 0) {
		for (long off = 0; off < n;) {
			const char *name = buf + off + offsetof(struct sc_linux_dirent64, d_name);
			uint16_t reclen;
			long fd;

			memcpy(&reclen, buf + off + offsetof(struct sc_linux_dirent64, d_reclen),
			       sizeof(reclen));
			if (!reclen)
				break;
			off += reclen;
			if (*name < '0' || *name > '9')
				continue;
			fd = strtol(name, NULL, 10);
			if (fd != dir || strcmp(path, "/proc/self/fd"))
				each(fd, ctx);
		}
	}
	host_syscall1(SYS_close, dir);
	return true;
}

/* The size of the descriptor table a native process with the guest's open
 * descriptors would have at least: the kernel's table starts with 64
 * entries and grows to hold a new descriptor h to (h / 128 + 1) rounded up
 * to a power of two, times 128 (fs/file.c, alloc_fdtable), and select
 * ignores numbers past it. sysgate's own table is larger (its descriptors
 * sit in a high block), so the guest's is computed from its highest open
 * descriptor (a table that grew for one closed since is not known). */
static void note_highest_guest_fd(long fd, void *highest)
{
	if (!hostfd_is_private(fd) && fd > *(long *)highest)
		*(long *)highest = fd;
}

int sc_guest_fd_table_size(void)
{
	long highest = -1, grow, pow2 = 1;

	if (!each_fd_entry("/proc/self/fd", note_highest_guest_fd, &highest))
		return INT_MAX;
	if (highest < 64)
		return 64;
	grow = highest / 128 + 1;
	while (pow2 < grow)
		pow2 <<= 1;
	return pow2 * 128 > INT_MAX ? INT_MAX : (int)(pow2 * 128);
}

/* --- close_range ----------------------------------------------------------- */

/* The guest's range less sysgate's descriptors: one host call per gap. */
SG_SYSCALL_DEFINE3(sys_close_range, fd, max_fd, flags_arg)
{
	unsigned first = (unsigned)fd, last = (unsigned)max_fd, flags = (unsigned)flags_arg;
	int own[HOSTFD_MAX];
	int n = hostfd_list(own, HOSTFD_MAX);
	unsigned from = first;
	long r;

	/* the kernel's checks come first: no gap is closed for a call it
	 * refuses */
	if (first > last || (flags & ~(CLOSE_RANGE_UNSHARE | CLOSE_RANGE_CLOEXEC)))
		return host_syscall3(SYS_close_range, first, last, flags); /* -EINVAL */
	for (int i = 0; i < n; i++) {
		unsigned fd = (unsigned)own[i];

		if (fd < from || fd > last)
			continue;
		if (fd > from) {
			r = host_syscall3(SYS_close_range, from, fd - 1, flags);
			if (r)
				return r;
		}
		from = fd + 1;
	}
	if (from > last || from == 0) /* the rest is ours (or past UINT_MAX) */
		return 0;
	return host_syscall3(SYS_close_range, from, last, flags);
}

/* --- /proc/self/fd ------------------------------------------------------- */

/* The N of "fd/N[/...]" or "fdinfo/N[/...]" (after /proc/PID/); -1 if
 * entry is not one. */
static long proc_fd_entry_number(const char *entry)
{
	const char *num;
	char *end;
	long fd;

	if (strncmp(entry, "fd/", 3) == 0)
		num = entry + 3;
	else if (strncmp(entry, "fdinfo/", 7) == 0)
		num = entry + 7;
	else
		return -1;
	if (*num < '0' || *num > '9')
		return -1;
	fd = strtol(num, &end, 10);
	return *end == '\0' || *end == '/' ? fd : -1;
}

/* "fd/N" or "fdinfo/N" (after /proc/self/) naming one of sysgate's. */
bool sc_proc_fd_entry_private(const char *entry)
{
	long fd = proc_fd_entry_number(entry);

	return fd >= 0 && fd <= INT_MAX && hostfd_is_private(fd);
}

/* fd is a directory /proc/<pid>/fd or fdinfo (or a task's): pid; else 0. */
static long proc_fd_dir_pid(int fd)
{
	char link[64], target[128];
	struct statfs sfs;
	const char *rest;
	long pid, n;

	if (host_syscall2(SYS_fstatfs, fd, &sfs) || sfs.f_type != PROC_SUPER_MAGIC)
		return 0;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = host_syscall4(SYS_readlinkat, AT_FDCWD, link, target, sizeof(target) - 1);
	if (n <= 0)
		return 0;
	target[n] = 0;
	if (strncmp(target, "/proc/", 6))
		return 0;
	pid = strtol(target + 6, NULL, 10);
	rest = strchr(target + 6, '/');
	if (rest && strncmp(rest, "/task/", 6) == 0)
		rest = strchr(rest + 6, '/');
	return pid > 0 && rest && (strcmp(rest, "/fd") == 0 || strcmp(rest, "/fdinfo") == 0)
		       ? pid : 0;
}

static long other_sysgate_floor(struct sg_thread *t, long pid);

struct count_from {
	long floor, count;
};

static void count_from_floor(long fd, void *c)
{
	struct count_from *cf = c;

	cf->count += fd >= cf->floor;
}

/* How many entries of the fd directory of pid are sysgate's own: ours
 * (registered), or another sysgate's (at or above its floor, counted in
 * its listing); 0 for a process not running sysgate. */
static long hidden_fd_count(struct sg_thread *t, long pid)
{
	struct count_from cf = { -1, 0 };
	char path[64];

	if (pid == host_syscall0(SYS_getpid)) {
		int own[HOSTFD_MAX];

		return hostfd_list(own, HOSTFD_MAX);
	}
	cf.floor = other_sysgate_floor(t, pid);
	if (cf.floor < 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/%ld/fd", pid);
	each_fd_entry(path, count_from_floor, &cf);
	return cf.count;
}

static dev_t proc_dev(void)
{
	static dev_t dev; /* procfs's, once */
	struct stat st;

	if (!dev && host_syscall2(SYS_stat, "/proc", &st) == 0)
		dev = st.st_dev;
	return dev;
}

/* What a stat of a /proc fd directory or of a /proc view (path.c) would
 * show natively: the directory's size is its entry count, from which
 * sysgate's own descriptors are taken out as from its listing; a view
 * (a memory file standing for /proc/self/maps and the like) has the
 * stat of the proc file it stands for (size 0, procfs's block size).
 * Cheap first: only a procfs directory of mode 0500 or a file with no
 * links (memory files have none) can be one. */
bool sc_stat_may_differ(unsigned mode, uint64_t nlink, uint64_t dev)
{
	return (S_ISDIR(mode) && (mode & 07777) == 0500 && dev == proc_dev()) ||
	       (S_ISREG(mode) && nlink == 0);
}

/* The object is dfd (path NULL or "") or path from dfd, which the host
 * found to be as sc_stat_may_differ says. SC_STAT_FD_DIR: *hidden of its
 * entries are sysgate's; SC_STAT_VIEW: view (PATH_MAX) is the proc file
 * to stat instead; else SC_STAT_SAME. */
enum sc_stat_kind sc_stat_classify(struct sg_thread *t, int dfd, const char *path, int flags,
				   long *hidden, char *view)
{
	enum sc_stat_kind kind = SC_STAT_SAME;
	char link[64], target[PATH_MAX];
	const char *name;
	long fd = dfd, n, pid;
	struct stat st;

	if (path && *path)
		fd = host_syscall4(SYS_openat, dfd, path,
				   O_PATH | O_CLOEXEC |
					   (flags & AT_SYMLINK_NOFOLLOW ? O_NOFOLLOW : 0), 0);
	if (fd < 0 || host_syscall2(SYS_fstat, fd, &st))
		goto out;
	if (S_ISDIR(st.st_mode) && (pid = proc_fd_dir_pid((int)fd)) > 0) {
		*hidden = hidden_fd_count(t, pid);
		kind = SC_STAT_FD_DIR;
	} else if (S_ISREG(st.st_mode)) {
		snprintf(link, sizeof(link), "/proc/self/fd/%ld", fd);
		n = host_syscall4(SYS_readlinkat, AT_FDCWD, link, target, sizeof(target) - 1);
		if (n > 0) {
			target[n] = '\0';
			name = sc_proc_view_path(target);
			if (name && strlen(name) < PATH_MAX) {
				strcpy(view, name);
				kind = SC_STAT_VIEW;
			}
		}
	}
out:
	if (fd >= 0 && fd != dfd)
		host_syscall1(SYS_close, fd);
	return kind;
}

void sc_stat_fixup(struct sg_thread *t, int dfd, const char *path, int flags,
		   struct stat *st)
{
	char view[PATH_MAX];
	long hidden = 0;
	struct stat real;

	if (!sc_stat_may_differ(st->st_mode, st->st_nlink, st->st_dev))
		return;
	switch (sc_stat_classify(t, dfd, path, flags, &hidden, view)) {
	case SC_STAT_FD_DIR:
		st->st_size = st->st_size > hidden ? st->st_size - hidden : 0;
		break;
	case SC_STAT_VIEW:
		if (host_syscall2(SYS_stat, view, &real) == 0)
			*st = real;
		break;
	default:
		break;
	}
}

/* Another process running sysgate (the same binary) keeps its own
 * descriptors at and above its host soft limit (hostfd.h): that limit, or
 * -1 when pid is not one. Its guest's descriptors above it (a limit
 * lowered after they were opened) are hidden too: a rare case. */
static long other_sysgate_floor(struct sg_thread *t, long pid)
{
	char path[64], exe[PATH_MAX], buf[4096], *line;
	long n, limit = -1;

	snprintf(path, sizeof(path), "/proc/%ld/exe", pid);
	n = host_syscall4(SYS_readlinkat, AT_FDCWD, path, exe, sizeof(exe) - 1);
	if (n <= 0 || !sc_host_exe(t))
		return -1;
	exe[n] = 0;
	if (strcmp(exe, sc_host_exe(t)) != 0)
		return -1;
	snprintf(path, sizeof(path), "/proc/%ld/limits", pid);
	if (host_read_small_file(path, buf, sizeof(buf)) < 0)
		return -1;
	line = strstr(buf, "Max open files");
	if (line)
		limit = strtol(line + strlen("Max open files"), NULL, 10);
	return limit > 0 ? limit : -1;
}

bool sc_is_sysgate_process(struct sg_thread *t, long pid)
{
	return other_sysgate_floor(t, pid) >= 0;
}

bool sc_other_proc_fd_entry_private(struct sg_thread *t, long pid, const char *entry)
{
	long fd = proc_fd_entry_number(entry), floor;

	if (fd < 0)
		return false;
	floor = other_sysgate_floor(t, pid);
	return floor >= 0 && fd >= floor;
}

/* Drop the entries naming sysgate's descriptors from n bytes of directory
 * entries at guest address buf (name_off: where d_name starts; reclen is
 * the u16 before it, or before d_type for linux_dirent64): ours (floor
 * -1), or another sysgate's, those at or above floor. New length. */
static long hide_entries(struct sg_thread *t, uint64_t buf, long n, size_t reclen_off,
			 size_t name_off, long floor)
{
	char *copy = malloc((size_t)n);
	long in = 0, out = 0;

	if (!copy || copy_from_guest(sc_mm(t), copy, buf, (size_t)n)) {
		free(copy);
		return n;
	}
	while (in < n) {
		uint16_t reclen;
		char *d = copy + in;

		memcpy(&reclen, d + reclen_off, sizeof(reclen));
		if (!reclen || in + reclen > n)
			break;
		long num = d[name_off] >= '0' && d[name_off] <= '9'
				   ? strtol(d + name_off, NULL, 10) : -1;
		bool hide = num >= 0 && (floor < 0 ? hostfd_is_private(num) : num >= floor);

		if (!hide) {
			memmove(copy + out, d, reclen);
			out += reclen;
		}
		in += reclen;
	}
	if (out != n)
		copy_to_guest(sc_mm(t), buf, copy, (size_t)out);
	free(copy);
	return out;
}

long sc_getdents_hide(struct sg_thread *t, int fd, uint64_t buf, long n,
		      enum sc_dirent kind, bool *again)
{
#define DIRENT_OFFS(T) { offsetof(struct T, d_reclen), offsetof(struct T, d_name) }
	static const size_t offs[][2] = {
		[SC_DIRENT64] = DIRENT_OFFS(sc_linux_dirent64),
		[SC_DIRENT_LONG] = DIRENT_OFFS(sc_linux_dirent),
		[SC_DIRENT_COMPAT] = DIRENT_OFFS(compat_linux_dirent),
	};
#undef DIRENT_OFFS
	long out, pid, floor = -1;

	*again = false;
	if (n <= 0 || !(pid = proc_fd_dir_pid(fd)))
		return n;
	if (pid == host_syscall0(SYS_getpid)) {
		if (!hostfd_list((int[1]){ 0 }, 1))
			return n;
	} else if ((floor = other_sysgate_floor(t, pid)) < 0) {
		return n;
	}
	out = hide_entries(t, buf, n, offs[kind][0], offs[kind][1], floor);
	*again = out == 0; /* only ours in this batch: not the end yet */
	return out;
}

/* x86_64 and x32 getdents (kernel longs in struct linux_dirent). */
SG_SYSCALL_DEFINE3(sys_getdents, fd, dirent, count)
{
	long err = 0, n;
	bool again;
	void *buf = sc_buf(t, dirent, (uint32_t)count, PROT_WRITE, &err);

	if (err)
		return err;
	do {
		n = host_syscall3(SYS_getdents, fd, buf, (uint32_t)count);
		n = sc_getdents_hide(t, fd, dirent, n, SC_DIRENT_LONG, &again);
	} while (again);
	return n;
}

/* --- RLIMIT_NOFILE, RLIMIT_AS --------------------------------------------- */

/* RLIMIT_AS: the address space sysgate reserved for itself at start-up
 * (mm_own_reserved) is not the guest's, so the guest's limit is the
 * host's less it and the host's the guest's plus it (saturating at
 * RLIM_INFINITY); otherwise a guest's `ulimit -v` would count sysgate's
 * 32 GiB page map and refuse every later mmap (docs/syscalls.md). */
static rlim_t as_to_guest(const struct mm *mm, rlim_t v)
{
	uint64_t own = mm_own_reserved(mm);

	return v == RLIM_INFINITY ? v : v > own ? v - own : 0;
}

static rlim_t as_to_host(const struct mm *mm, rlim_t v)
{
	uint64_t own = mm_own_reserved(mm);

	return v >= RLIM_INFINITY - own ? RLIM_INFINITY : v + own;
}

long sc_host_getrlimit(const struct mm *mm, int resource, struct rlimit *r)
{
	uint64_t soft, hard;
	long ret;

	if (resource == RLIMIT_AS) {
		ret = host_syscall2(SYS_getrlimit, resource, r);
		if (ret == 0) {
			r->rlim_cur = as_to_guest(mm, r->rlim_cur);
			r->rlim_max = as_to_guest(mm, r->rlim_max);
		}
		return ret;
	}
	if (resource != RLIMIT_NOFILE)
		return host_syscall2(SYS_getrlimit, resource, r);
	hostfd_nofile_get(&soft, &hard);
	r->rlim_cur = soft;
	r->rlim_max = hard;
	return 0;
}

long sc_host_setrlimit(const struct mm *mm, int resource, const struct rlimit *r)
{
	if (resource == RLIMIT_AS) {
		struct rlimit h = { as_to_host(mm, r->rlim_cur), as_to_host(mm, r->rlim_max) };

		if (r->rlim_cur > r->rlim_max)
			return -EINVAL;
		return host_syscall2(SYS_setrlimit, resource, &h);
	}
	if (resource != RLIMIT_NOFILE)
		return host_syscall2(SYS_setrlimit, resource, r);
	return hostfd_nofile_set(r->rlim_cur, r->rlim_max);
}

SG_SYSCALL_DEFINE2(sys_getrlimit, resource, rlim)
{
	struct rlimit r;
	long ret = sc_host_getrlimit(sc_mm(t), (int)resource, &r);

	if (ret)
		return ret;
	return copy_to_guest(sc_mm(t), rlim, &r, sizeof(r)) ? -EFAULT : 0;
}

SG_SYSCALL_DEFINE2(sys_setrlimit, resource, rlim)
{
	struct rlimit r;

	if (copy_from_guest(sc_mm(t), &r, rlim, sizeof(r)))
		return -EFAULT;
	return sc_host_setrlimit(sc_mm(t), (int)resource, &r);
}

/* The guest's own RLIMIT_NOFILE and RLIMIT_AS as sc_host_*; anything else
 * passes. */
SG_SYSCALL_DEFINE4(sys_prlimit64, upid, resource_arg, new_rlim, old_rlim)
{
	int pid = upid, resource = (int)resource_arg;
	struct rlimit newr, oldr;
	long ret;

	if ((resource != RLIMIT_NOFILE && resource != RLIMIT_AS) ||
	    (pid != 0 && pid != host_syscall0(SYS_getpid))) {
		long err = 0;
		void *in = sc_buf(t, new_rlim, sizeof(newr), PROT_READ, &err);
		void *out = err ? NULL : sc_buf(t, old_rlim, sizeof(oldr), PROT_WRITE, &err);

		return err ? err : host_syscall4(SYS_prlimit64, pid, resource, in, out);
	}
	if (new_rlim && copy_from_guest(sc_mm(t), &newr, new_rlim, sizeof(newr)))
		return -EFAULT;
	if (new_rlim && newr.rlim_cur > newr.rlim_max)
		return -EINVAL;
	sc_host_getrlimit(sc_mm(t), resource, &oldr);
	if (new_rlim) {
		ret = sc_host_setrlimit(sc_mm(t), resource, &newr);
		if (ret)
			return ret;
	}
	if (old_rlim && copy_to_guest(sc_mm(t), old_rlim, &oldr, sizeof(oldr)))
		return -EFAULT;
	return 0;
}
