/* Path policy, the one place every path-taking handler goes through
 * (sc_path): the guest's own /proc/self, and the sysroot.
 *
 * /proc/self, /proc/thread-self and /proc/<own pid> would show sysgate;
 * exe names the guest program instead, and opening maps, smaps,
 * smaps_rollup, numa_maps, auxv, cmdline or environ read-only gives a
 * memory file with the guest's view (the same bytes the kernel would give
 * a native run). Which file an open reached is asked of the kernel after
 * the open (sc_proc_view: procfs, and its name under /proc/self/fd), so
 * every spelling, symlink and directory fd leads to the same view.
 *
 * Sysroot (-L DIR, SYSGATE_SYSROOT): an absolute path that exists under
 * DIR is used from there, as qemu-user's -L does, so a guest sees its own
 * /lib, /usr and /etc where the sysroot has them and the host's
 * everywhere else. /proc, /dev and /sys are always the host's. */
#define _GNU_SOURCE /* O_PATH */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <linux/magic.h>

#include "syscall/handler.h"

/* "/proc/self/X", "/proc/thread-self/X", "/proc/<own pid>/X" -> "X";
 * anything else -> NULL. */
static const char *proc_self_entry(const char *path)
{
	static const char *const selves[] = { "self/", "thread-self/" };
	const char *rest;
	char *end;
	long pid;

	if (strncmp(path, "/proc/", 6) != 0)
		return NULL;
	rest = path + 6;
	for (unsigned i = 0; i < ARRAY_SIZE(selves); i++)
		if (strncmp(rest, selves[i], strlen(selves[i])) == 0)
			return rest + strlen(selves[i]);
	if (*rest < '1' || *rest > '9')
		return NULL;
	pid = strtol(rest, &end, 10);
	if (*end != '/' || pid != host_syscall0(SYS_getpid))
		return NULL;
	return end + 1;
}

bool sc_is_proc_self(const char *path, const char *name)
{
	const char *entry = proc_self_entry(path);

	return entry && strcmp(entry, name) == 0;
}

bool sc_is_proc_exe(const char *path)
{
	return sc_is_proc_self(path, "exe");
}

/* /proc/self/fd/N, /dev/fd/N (and fdinfo) naming one of sysgate's, or
 * /proc/<pid>/fd/N one of another sysgate process's. */
static bool proc_fd_private(struct sg_thread *t, const char *path)
{
	const char *entry = proc_self_entry(path);
	char *end;
	long pid;

	if (!entry && strncmp(path, "/dev/fd/", 8) == 0)
		entry = path + 5;
	if (entry)
		return sc_proc_fd_entry_private(entry);
	if (strncmp(path, "/proc/", 6) != 0 || path[6] < '1' || path[6] > '9')
		return false;
	pid = strtol(path + 6, &end, 10);
	return *end == '/' && sc_other_proc_fd_entry_private(t, pid, end + 1);
}

/* Host-only trees: never looked up under the sysroot. */
static bool host_only(const char *path)
{
	static const char *const trees[] = { "/proc", "/dev", "/sys" };

	for (unsigned i = 0; i < ARRAY_SIZE(trees); i++) {
		size_t n = strlen(trees[i]);

		if (strncmp(path, trees[i], n) == 0 &&
		    (path[n] == '/' || path[n] == '\0'))
			return true;
	}
	return false;
}

/* Rewrite buf to <sysroot><buf> when that exists (without following a
 * final symlink: a link in the sysroot is the sysroot's file). */
static long apply_sysroot(const char *sysroot, char *buf)
{
	char rooted[PATH_MAX];
	struct stat st;
	int n;

	if (!sysroot || !sysroot[0] || buf[0] != '/' || buf[1] == '\0' ||
	    host_only(buf))
		return 0;
	n = snprintf(rooted, sizeof(rooted), "%s%s", sysroot, buf);
	if (n >= (int)sizeof(rooted))
		return 0; /* too long under the sysroot: the host's path */
	if (host_syscall4(SYS_newfstatat, AT_FDCWD, rooted, &st,
			  AT_SYMLINK_NOFOLLOW) != 0)
		return 0;
	memcpy(buf, rooted, (size_t)n + 1);
	return 0;
}

size_t sc_guest_view(const char *sysroot, char *path)
{
	size_t n = sysroot ? strlen(sysroot) : 0, len = strlen(path);

	/* a sysroot of "/" (or none) changes nothing; the sysroot is
	 * canonical (sg_create), as the host's paths are */
	if (n <= 1 || strncmp(path, sysroot, n) != 0 ||
	    (path[n] != '/' && path[n] != '\0'))
		return len;
	if (path[n] == '\0') {
		strcpy(path, "/");
		return 1;
	}
	memmove(path, path + n, len - n + 1);
	return len - n;
}

/* getcwd(buf, size): the host's answer, as a chroot into the sysroot
 * would show it; -ERANGE when it does not fit with its NUL. */
static long do_getcwd(struct sg_thread *t, uint64_t buf, uint64_t size)
{
	char cwd[PATH_MAX];
	long r = host_syscall2(SYS_getcwd, cwd, sizeof(cwd));
	size_t len;

	if (r < 0)
		return r;
	len = sc_guest_view(sc_sysroot(t), cwd) + 1;
	if (len > size)
		return -ERANGE;
	return copy_to_guest(sc_mm(t), buf, cwd, len) ? -EFAULT : (long)len;
}

SG_SYSCALL_DEFINE2(sys_getcwd, buf, size)
{
	return do_getcwd(t, buf, size);
}

long sc_path(struct sg_thread *t, uint64_t addr, char *buf, bool exe_alias)
{
	long n = strncpy_from_guest(sc_mm(t), buf, addr, PATH_MAX);

	if (n < 0)
		return n;
	if (proc_fd_private(t, buf))
		return -ENOENT; /* sysgate's own descriptor (hostfd.h) */
	if (exe_alias && sc_exe_path(t) && sc_is_proc_exe(buf)) {
		size_t len = strlen(sc_exe_path(t));

		if (len >= PATH_MAX)
			return -ENAMETOOLONG;
		memcpy(buf, sc_exe_path(t), len + 1);
		return 0;
	}
	return apply_sysroot(sc_sysroot(t), buf);
}

/* --- /proc/self files with the guest's content ---------------------------- */

static long write_memfd(long fd, const void *data, size_t len)
{
	const char *p = data;

	while (len) {
		long n = host_syscall3(SYS_write, fd, p, len);

		if (n == -EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? n : -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Guest memory [start, end) into fd (cmdline, environ: read at open time,
 * as the kernel reads them from the live stack at read time). */
static long write_guest_range(struct sg_thread *t, long fd, uint64_t start,
			      uint64_t end)
{
	char chunk[4096];

	while (start < end) {
		size_t n = end - start < sizeof(chunk) ? end - start : sizeof(chunk);

		if (copy_from_guest(sc_mm(t), chunk, start, n))
			return 0; /* the kernel stops at what it cannot read */
		long r = write_memfd(fd, chunk, n);

		if (r)
			return r;
		start += n;
	}
	return 0;
}

/* Is n a thread of this process (so /proc/<n> is this process)? */
static bool own_thread(long n)
{
	long pid = host_syscall0(SYS_getpid);

	return n == pid || host_syscall3(SYS_tgkill, pid, n, 0) == 0;
}

/* Strip the last component of path (digits only) into *n. */
static bool pop_number(char *path, long *n)
{
	char *slash = strrchr(path, '/'), *end;

	if (!slash || slash[1] < '0' || slash[1] > '9')
		return false;
	*n = strtol(slash + 1, &end, 10);
	*slash = '\0';
	return *end == '\0';
}

/* Does fd (an open file or an O_PATH one) name /proc/<pid>/ENTRY or
 * /proc/<pid>/task/<tid>/ENTRY (*id: the pid or tid)? The kernel has
 * resolved the path already (any spelling, symlinks, a /proc/self
 * directory fd), so its name of the file says, not the guest's string.
 * entry gets the last component. sc_own_proc_file: of this process. */
static bool proc_file_thread(long fd, char *entry, size_t size, long *id)
{
	char link[40], path[PATH_MAX], *last;
	struct statfs sfs;
	long n;

	if (host_syscall2(SYS_fstatfs, fd, &sfs) != 0 || sfs.f_type != PROC_SUPER_MAGIC)
		return false;
	snprintf(link, sizeof(link), "/proc/self/fd/%ld", fd);
	n = host_syscall4(SYS_readlinkat, AT_FDCWD, link, path, sizeof(path) - 1);
	if (n <= 0)
		return false;
	path[n] = '\0';
	last = strrchr(path, '/');
	if (!last || strlen(last + 1) >= size)
		return false;
	memcpy(entry, last + 1, strlen(last + 1) + 1);
	*last = '\0';
	if (!pop_number(path, id))
		return false;
	last = strrchr(path, '/');
	if (last && strcmp(last + 1, "task") == 0) {
		*last = '\0';
		if (!pop_number(path, id))
			return false;
	}
	return true;
}

bool sc_own_proc_file(long fd, char *entry, size_t size)
{
	long id;

	return proc_file_thread(fd, entry, size, &id) && own_thread(id);
}

static long fill_proc_file(struct sg_thread *t, const char *entry, long fd)
{
	const struct mm_exec_info *x = mm_exec_info(sc_mm(t));

	if (strcmp(entry, "maps") == 0)
		return mm_write_maps(sc_mm(t), (int)fd);
	if (strcmp(entry, "smaps") == 0)
		return mm_write_smaps(sc_mm(t), (int)fd);
	if (strcmp(entry, "smaps_rollup") == 0)
		return mm_write_smaps_rollup(sc_mm(t), (int)fd);
	if (strcmp(entry, "numa_maps") == 0)
		return mm_write_numa_maps(sc_mm(t), (int)fd);
	if (strcmp(entry, "auxv") == 0)
		return write_memfd(fd, x->auxv, x->auxv_len);
	if (strcmp(entry, "cmdline") == 0)
		return write_guest_range(t, fd, x->arg_start, x->arg_end);
	return write_guest_range(t, fd, x->env_start, x->env_end);
}

/* A view's memory file is named after the file it stands for, so that
 * readlink of its descriptor can answer as the kernel would for the
 * file (the host shows "/memfd:NAME (deleted)"). */
#define PROC_VIEW_NAME "sysgate-view:"
#define PROC_VIEW_PREFIX "/memfd:" PROC_VIEW_NAME
#define PROC_VIEW_SUFFIX " (deleted)"

const char *sc_proc_view_path(const char *target)
{
	static __thread char path[PATH_MAX];
	size_t n = strlen(target), lp = strlen(PROC_VIEW_PREFIX),
	       ls = strlen(PROC_VIEW_SUFFIX);

	if (n <= lp + ls || strncmp(target, PROC_VIEW_PREFIX, lp) ||
	    strcmp(target + n - ls, PROC_VIEW_SUFFIX) || n - lp - ls >= sizeof(path))
		return NULL;
	memcpy(path, target + lp, n - lp - ls);
	path[n - lp - ls] = '\0';
	return path;
}

/* The memory file mfd, filled, as a descriptor like the one open() gave
 * for the proc file fd: read-only, with its permissions (maps 0444, auxv
 * and environ 0400). */
static long reopen_read_only(long mfd, long fd)
{
	struct stat st;
	char link[40];

	if (host_syscall2(SYS_fstat, fd, &st) == 0)
		host_syscall2(SYS_fchmod, mfd, st.st_mode & 07777);
	snprintf(link, sizeof(link), "/proc/self/fd/%ld", mfd);
	return host_syscall4(SYS_openat, AT_FDCWD, link, O_RDONLY | O_CLOEXEC, 0);
}

long sc_proc_view(struct sg_thread *t, long fd, int flags)
{
	static const char *const emulated[] = { "maps", "smaps", "smaps_rollup",
						"numa_maps", "auxv", "cmdline",
						"environ" };
	const size_t lp = strlen(PROC_VIEW_NAME);
	char entry[16], link[40], name[249]; /* memfd names: 249 bytes at most */
	bool known = false;
	long mfd, r, n;

	if (fd < 0 || (flags & O_PATH))
		return fd;
	/* the kernel writes through mem even to read-only pages, so a guest
	 * could write sysgate's memory, text included, past the store check
	 * (docs/isolation.md): refused, for this process and another
	 * sysgate's (a parent's write into its child) */
	if ((flags & O_ACCMODE) != O_RDONLY) {
		long id;

		if (proc_file_thread(fd, entry, sizeof(entry), &id) && strcmp(entry, "mem") == 0 &&
		    (own_thread(id) || sc_is_sysgate_process(t, id))) {
			host_syscall1(SYS_close, fd);
			return -EACCES;
		}
		return fd;
	}
	if (!sc_own_proc_file(fd, entry, sizeof(entry)))
		return fd;
	/* the host's own are the guest's then, and live (core/identity.c) */
	if (sc_host_shows_guest(t) &&
	    (strcmp(entry, "cmdline") == 0 || strcmp(entry, "environ") == 0))
		return fd;
	for (unsigned i = 0; i < ARRAY_SIZE(emulated) && !known; i++)
		known = strcmp(entry, emulated[i]) == 0;
	if (!known)
		return fd;
	memcpy(name, PROC_VIEW_NAME, lp);
	snprintf(link, sizeof(link), "/proc/self/fd/%ld", fd);
	n = host_syscall4(SYS_readlinkat, AT_FDCWD, link, name + lp,
			  sizeof(name) - lp - 1);
	name[n > 0 ? lp + (size_t)n : lp] = '\0';
	mfd = host_syscall2(SYS_memfd_create, name, 1u /* MFD_CLOEXEC */);
	r = mfd;
	if (mfd >= 0) {
		r = fill_proc_file(t, entry, mfd);
		if (r == 0) {
			long rfd = reopen_read_only(mfd, fd);

			if (rfd >= 0) {
				host_syscall1(SYS_close, mfd);
				mfd = rfd;
			} else {
				r = host_syscall3(SYS_lseek, mfd, 0, SEEK_SET);
			}
		}
		/* in place of the host's file, at the fd number it got */
		if (r >= 0)
			r = host_syscall3(SYS_dup3, mfd, fd, flags & O_CLOEXEC);
		host_syscall1(SYS_close, mfd);
	}
	if (r < 0) {
		host_syscall1(SYS_close, fd);
		return r;
	}
	return fd;
}
