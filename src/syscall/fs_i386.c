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

/* --- lo/hi halves (arch/x86/kernel/sys_ia32.c order): each 64-bit
 * offset or length arrives joined from its two registers (SG_ARGV) ------ */

SG_SYSCALL_DEFINE2(sys_ia32_truncate64, filename, length)
{
	char path[PATH_MAX];
	long r;

	if (length < 0)
		return -EINVAL; /* before the path, as the kernel */
	r = sc_path(t, filename, path, true);
	return r ? r : host_syscall2(SYS_truncate, path, length);
}

SG_SYSCALL_DEFINE2(sys_ia32_ftruncate64, fd, length)
{
	return host_syscall2(SYS_ftruncate, fd, length);
}

/* len is a 32-bit size_t */
SG_SYSCALL_DEFINE4(sys_ia32_fadvise64, fd, offset, len, advice)
{
	return host_syscall4(SYS_fadvise64, fd, offset, (uint32_t)len, advice);
}

SG_SYSCALL_DEFINE4(sys_ia32_fadvise64_64, fd, offset, len, advice)
{
	return host_syscall4(SYS_fadvise64, fd, offset, len, advice);
}

SG_SYSCALL_DEFINE4(sys_ia32_fallocate, fd, mode, offset, len)
{
	return host_syscall4(SYS_fallocate, fd, mode, offset, len);
}

SG_SYSCALL_DEFINE3(sys_ia32_readahead, fd, offset, count)
{
	return host_syscall3(SYS_readahead, fd, offset, (uint32_t)count);
}

SG_SYSCALL_DEFINE4(sys_ia32_sync_file_range, fd, offset, nbytes, flags)
{
	return host_syscall4(SYS_sync_file_range, fd, offset, nbytes, flags);
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

SG_SYSCALL_DEFINE2(sys_stat, filename, statbuf)
{
	return old_stat(t, AT_FDCWD, filename, 0, statbuf);
}

SG_SYSCALL_DEFINE2(sys_lstat, filename, statbuf)
{
	return old_stat(t, AT_FDCWD, filename, AT_SYMLINK_NOFOLLOW, statbuf);
}

SG_SYSCALL_DEFINE2(sys_fstat, fd, statbuf)
{
	return old_stat(t, fd == AT_FDCWD ? -1 : fd, 0, 0, statbuf);
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

SG_SYSCALL_DEFINE2(compat_sys_statfs, pathname, buf)
{
	return pathname ? statfs32(t, pathname, 0, buf) : -EFAULT;
}

SG_SYSCALL_DEFINE2(compat_sys_fstatfs, fd, buf)
{
	return statfs32(t, 0, (int)fd, buf);
}

SG_SYSCALL_DEFINE3(compat_sys_statfs64, pathname, sz, buf)
{
	/* the size is checked before the path */
	if ((uint32_t)sz != sizeof(struct compat_statfs64))
		return -EINVAL;
	return pathname ? statfs64(t, pathname, 0, sz, buf) : -EFAULT;
}

SG_SYSCALL_DEFINE3(compat_sys_fstatfs64, fd, sz, buf)
{
	return statfs64(t, 0, (int)fd, sz, buf);
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

SG_SYSCALL_DEFINE2(sys_utime32, filename, times)
{
	struct compat_utimbuf c;
	struct timespec ts[2];

	if (!times)
		return set_times(t, AT_FDCWD, filename, NULL, 0);
	if (copy_from_guest(sc_mm(t), &c, times, sizeof(c)))
		return -EFAULT;
	get_compat_utimbuf(ts, &c);
	return set_times(t, AT_FDCWD, filename, ts, 0);
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

SG_SYSCALL_DEFINE2(sys_utimes_time32, filename, utimes)
{
	return filename ? utimes32(t, AT_FDCWD, filename, utimes) : -EFAULT;
}

SG_SYSCALL_DEFINE3(sys_futimesat_time32, dfd, filename, utimes)
{
	return utimes32(t, (int)dfd, filename, utimes);
}

/* utimensat_time32: UTIME_NOW / UTIME_OMIT travel in tv_nsec unchanged */
SG_SYSCALL_DEFINE4(sys_utimensat_time32, dfd, filename, utimes, flags)
{
	struct compat_timespec c[2];
	struct timespec ts[2];

	if (!utimes)
		return set_times(t, (int)dfd, filename, NULL, (int)flags);
	if (copy_from_guest(sc_mm(t), c, utimes, sizeof(c)))
		return -EFAULT;
	get_compat_timespec(&ts[0], &c[0]);
	get_compat_timespec(&ts[1], &c[1]);
	return set_times(t, (int)dfd, filename, ts, (int)flags);
}

/* --- sendfile with a compat off_t ------------------------------------------ */

SG_SYSCALL_DEFINE4(compat_sys_sendfile, out_fd, in_fd, uoffset, count)
{
	int32_t off32;
	int64_t off;
	long r;

	if (!uoffset)
		return host_blocking4(t, SYS_sendfile, out_fd, in_fd, NULL,
				     (uint32_t)count);
	if (copy_from_guest(sc_mm(t), &off32, uoffset, sizeof(off32)))
		return -EFAULT;
	off = off32;
	r = host_blocking4(t, SYS_sendfile, out_fd, in_fd, &off, (uint32_t)count);
	off32 = (int32_t)off;
	/* the kernel writes the offset back whatever the result */
	if (copy_to_guest(sc_mm(t), uoffset, &off32, sizeof(off32)))
		return -EFAULT;
	return r;
}
