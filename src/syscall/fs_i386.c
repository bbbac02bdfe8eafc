/* i386 file-system calls whose arguments differ from the host's: 64-bit
 * offsets and lengths split into lo/hi register halves, the old stat,
 * statfs layouts, time32 timestamps, compat off_t. Directories (getdents,
 * readdir, lseek positions): compat_dirs.c. */
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>

#include "syscall/compat/compat.h"
#include "syscall/handler.h"

static inline uint64_t lohi(uint64_t lo, uint64_t hi)
{
	return (uint32_t)lo | (hi << 32);
}

/* --- lo/hi halves (arch/x86/kernel/sys_ia32.c order) ---------------------- */

SG_SYSCALL_DEFINE(sys_ia32_truncate64)
{
	char path[PATH_MAX];
	long r;

	if ((int64_t)lohi(a[1], a[2]) < 0)
		return -EINVAL; /* before the path, as the kernel */
	r = sc_path(t, a[0], path, true);
	return r ? r : host_syscall2(SYS_truncate, path, lohi(a[1], a[2]));
}

SG_SYSCALL_DEFINE(sys_ia32_ftruncate64)
{
	return host_syscall2(SYS_ftruncate, a[0], lohi(a[1], a[2]));
}

/* fadvise64(fd, off_lo, off_hi, len, advice): len is a 32-bit size_t */
SG_SYSCALL_DEFINE(sys_ia32_fadvise64)
{
	return host_syscall4(SYS_fadvise64, a[0], lohi(a[1], a[2]),
			     (uint32_t)a[3], a[4]);
}

SG_SYSCALL_DEFINE(sys_ia32_fadvise64_64)
{
	return host_syscall4(SYS_fadvise64, a[0], lohi(a[1], a[2]),
			     lohi(a[3], a[4]), a[5]);
}

SG_SYSCALL_DEFINE(sys_ia32_fallocate)
{
	return host_syscall4(SYS_fallocate, a[0], a[1], lohi(a[2], a[3]),
			     lohi(a[4], a[5]));
}

SG_SYSCALL_DEFINE(sys_ia32_readahead)
{
	return host_syscall3(SYS_readahead, a[0], lohi(a[1], a[2]),
			     (uint32_t)a[3]);
}

SG_SYSCALL_DEFINE(sys_ia32_sync_file_range)
{
	return host_syscall4(SYS_sync_file_range, a[0], lohi(a[1], a[2]),
			     lohi(a[3], a[4]), a[5]);
}

/* --- the old stat (18, 28, 84) ------------------------------------------------ */

static long old_stat(struct sg_thread *t, int fd, uint64_t path_addr,
		     int flags, uint64_t buf)
{
	char path[PATH_MAX];
	struct compat_old_stat c;
	struct stat st;
	long r;

	if (fd == AT_FDCWD) {
		const char *hp;

		r = sc_path_host(t, path_addr, path, true, &hp);
		if (r)
			return r;
		r = host_syscall4(SYS_newfstatat, AT_FDCWD, hp, &st, flags);
		if (r == 0)
			sc_stat_fixup(t, AT_FDCWD, hp, flags, &st);
	} else {
		r = host_syscall2(SYS_fstat, fd, &st);
		if (r == 0)
			sc_stat_fixup(t, fd, NULL, 0, &st);
	}
	if (r)
		return r;
	r = put_compat_old_stat(&c, &st);
	return r ? r : copy_to_guest(sc_mm(t), buf, &c, sizeof(c));
}

SG_SYSCALL_DEFINE(sys_stat)
{
	return old_stat(t, AT_FDCWD, a[0], 0, a[1]);
}

SG_SYSCALL_DEFINE(sys_lstat)
{
	return old_stat(t, AT_FDCWD, a[0], AT_SYMLINK_NOFOLLOW, a[1]);
}

SG_SYSCALL_DEFINE(sys_fstat)
{
	return old_stat(t, (int)a[0] == AT_FDCWD ? -1 : (int)a[0], 0, 0, a[1]);
}

/* --- statfs ---------------------------------------------------------------- */

/* path_addr 0: by descriptor fd. */
static long host_statfs(struct sg_thread *t, uint64_t path_addr, int fd,
			struct statfs *s)
{
	char path[PATH_MAX];
	long r;

	const char *hp;

	if (!path_addr)
		return host_syscall2(SYS_fstatfs, fd, s);
	r = sc_path_host(t, path_addr, path, true, &hp);
	return r ? r : host_syscall2(SYS_statfs, hp, s);
}

static long statfs32(struct sg_thread *t, uint64_t path_addr, int fd,
		     uint64_t buf)
{
	struct compat_statfs c;
	struct statfs s;
	long r = host_statfs(t, path_addr, fd, &s);

	if (!r)
		r = put_compat_statfs(&c, &s);
	return r ? r : copy_to_guest(sc_mm(t), buf, &c, sizeof(c));
}

/* statfs64(path, size, buf): size must be the guest struct's */
static long statfs64(struct sg_thread *t, uint64_t path_addr, int fd,
		     uint64_t size, uint64_t buf)
{
	struct compat_statfs64 c;
	struct statfs s;
	long r;

	if ((uint32_t)size != sizeof(c))
		return -EINVAL;
	r = host_statfs(t, path_addr, fd, &s);
	if (r)
		return r;
	put_compat_statfs64(&c, &s);
	return copy_to_guest(sc_mm(t), buf, &c, sizeof(c));
}

SG_SYSCALL_DEFINE(compat_sys_statfs)
{
	return a[0] ? statfs32(t, a[0], 0, a[1]) : -EFAULT;
}

SG_SYSCALL_DEFINE(compat_sys_fstatfs)
{
	return statfs32(t, 0, (int)a[0], a[1]);
}

SG_SYSCALL_DEFINE(compat_sys_statfs64)
{
	/* the size is checked before the path */
	if ((uint32_t)a[1] != sizeof(struct compat_statfs64))
		return -EINVAL;
	return a[0] ? statfs64(t, a[0], 0, a[1], a[2]) : -EFAULT;
}

SG_SYSCALL_DEFINE(compat_sys_fstatfs64)
{
	return statfs64(t, 0, (int)a[0], a[1], a[2]);
}

/* --- timestamps with 32-bit seconds ---------------------------------------- */

/* utimensat with host timespecs (NULL: now); path_addr 0 with fd: futimens */
static long set_times(struct sg_thread *t, int dfd, uint64_t path_addr,
		      const struct timespec *ts, int flags)
{
	char path[PATH_MAX];
	long r;

	const char *hp;

	if (!path_addr)
		return host_syscall4(SYS_utimensat, dfd, NULL, ts, flags);
	r = sc_path_host(t, path_addr, path, true, &hp);
	return r ? r : host_syscall4(SYS_utimensat, dfd, hp, ts, flags);
}

SG_SYSCALL_DEFINE(sys_utime32)
{
	struct compat_utimbuf c;
	struct timespec ts[2];

	if (!a[1])
		return set_times(t, AT_FDCWD, a[0], NULL, 0);
	if (copy_from_guest(sc_mm(t), &c, a[1], sizeof(c)))
		return -EFAULT;
	get_compat_utimbuf(ts, &c);
	return set_times(t, AT_FDCWD, a[0], ts, 0);
}

/* utimes/futimesat: timeval[2]; microseconds must be below 10^6 */
static long utimes32(struct sg_thread *t, int dfd, uint64_t path_addr,
		     uint64_t tv_addr)
{
	struct compat_timeval c[2];
	struct timespec ts[2];

	if (!tv_addr)
		return path_addr ? set_times(t, dfd, path_addr, NULL, 0)
				 : host_syscall4(SYS_futimesat, dfd, NULL, NULL, 0);
	if (copy_from_guest(sc_mm(t), c, tv_addr, sizeof(c)))
		return -EFAULT;
	for (int i = 0; i < 2; i++) {
		if (c[i].tv_usec < 0 || c[i].tv_usec >= 1000000)
			return -EINVAL;
		ts[i].tv_sec = c[i].tv_sec;
		ts[i].tv_nsec = (long)c[i].tv_usec * 1000;
	}
	if (!path_addr) {
		struct timeval tv[2] = { { ts[0].tv_sec, c[0].tv_usec },
					 { ts[1].tv_sec, c[1].tv_usec } };

		return host_syscall3(SYS_futimesat, dfd, NULL, tv);
	}
	return set_times(t, dfd, path_addr, ts, 0);
}

SG_SYSCALL_DEFINE(sys_utimes_time32)
{
	return a[0] ? utimes32(t, AT_FDCWD, a[0], a[1]) : -EFAULT;
}

SG_SYSCALL_DEFINE(sys_futimesat_time32)
{
	return utimes32(t, (int)a[0], a[1], a[2]);
}

/* utimensat_time32: UTIME_NOW / UTIME_OMIT travel in tv_nsec unchanged */
SG_SYSCALL_DEFINE(sys_utimensat_time32)
{
	struct compat_timespec c[2];
	struct timespec ts[2];

	if (!a[2])
		return set_times(t, (int)a[0], a[1], NULL, (int)a[3]);
	if (copy_from_guest(sc_mm(t), c, a[2], sizeof(c)))
		return -EFAULT;
	get_compat_timespec(&ts[0], &c[0]);
	get_compat_timespec(&ts[1], &c[1]);
	return set_times(t, (int)a[0], a[1], ts, (int)a[3]);
}

/* --- sendfile with a compat off_t ------------------------------------------ */

SG_SYSCALL_DEFINE(compat_sys_sendfile)
{
	int32_t off32;
	int64_t off;
	long r;

	if (!a[2])
		return host_blocking4(t, SYS_sendfile, a[0], a[1], NULL,
				     (uint32_t)a[3]);
	if (copy_from_guest(sc_mm(t), &off32, a[2], sizeof(off32)))
		return -EFAULT;
	off = off32;
	r = host_blocking4(t, SYS_sendfile, a[0], a[1], &off, (uint32_t)a[3]);
	off32 = (int32_t)off;
	/* the kernel writes the offset back whatever the result */
	if (copy_to_guest(sc_mm(t), a[2], &off32, sizeof(off32)))
		return -EFAULT;
	return r;
}
