/* Build-time reference, never linked: the kernel's guest-visible structures
 * as the real uapi headers lay them out for the ABI this is compiled for
 * (-m32 or -mx32, `-S` only). See src/syscall/CMakeLists.txt. */
#include <stddef.h>
#include <asm/stat.h>
#include <asm/ldt.h>
#include <asm/signal.h>
#include <linux/fcntl.h>
#include <linux/resource.h>
#include <linux/time_types.h>
#include <linux/uio.h>

#define EMIT(name, val) \
	__asm__ volatile(".ascii \"@@ " #name " %c0\\n\"" : : "i"((long)(val)))
#define SIZE(name, type) EMIT(name##_SIZE, sizeof(type))
#define OFF(name, type, field) EMIT(name##_##field, offsetof(type, field))

void layout_ref(void);
void layout_ref(void)
{
	SIZE(STAT, struct stat);
	OFF(STAT, struct stat, st_dev);
	OFF(STAT, struct stat, st_ino);
	OFF(STAT, struct stat, st_mode);
	OFF(STAT, struct stat, st_nlink);
	OFF(STAT, struct stat, st_uid);
	OFF(STAT, struct stat, st_gid);
	OFF(STAT, struct stat, st_rdev);
	OFF(STAT, struct stat, st_size);
	OFF(STAT, struct stat, st_blksize);
	OFF(STAT, struct stat, st_blocks);
	OFF(STAT, struct stat, st_atime);
	OFF(STAT, struct stat, st_atime_nsec);
	OFF(STAT, struct stat, st_mtime);
	OFF(STAT, struct stat, st_mtime_nsec);
	OFF(STAT, struct stat, st_ctime);
	OFF(STAT, struct stat, st_ctime_nsec);
#ifdef __i386__
	SIZE(STAT64, struct stat64);
	OFF(STAT64, struct stat64, st_dev);
	OFF(STAT64, struct stat64, __st_ino);
	OFF(STAT64, struct stat64, st_mode);
	OFF(STAT64, struct stat64, st_nlink);
	OFF(STAT64, struct stat64, st_uid);
	OFF(STAT64, struct stat64, st_gid);
	OFF(STAT64, struct stat64, st_rdev);
	OFF(STAT64, struct stat64, st_size);
	OFF(STAT64, struct stat64, st_blksize);
	OFF(STAT64, struct stat64, st_blocks);
	OFF(STAT64, struct stat64, st_atime);
	OFF(STAT64, struct stat64, st_atime_nsec);
	OFF(STAT64, struct stat64, st_mtime);
	OFF(STAT64, struct stat64, st_mtime_nsec);
	OFF(STAT64, struct stat64, st_ctime);
	OFF(STAT64, struct stat64, st_ctime_nsec);
	OFF(STAT64, struct stat64, st_ino);
#endif
	SIZE(OLD_TIMESPEC, struct __kernel_old_timespec);
	SIZE(OLD_TIMEVAL, struct __kernel_old_timeval);
	SIZE(TIMESPEC64, struct __kernel_timespec);
	SIZE(RLIMIT, struct rlimit);
	SIZE(RLIMIT64, struct rlimit64);
	SIZE(IOVEC, struct iovec);
	OFF(IOVEC, struct iovec, iov_len);
	SIZE(STACK, stack_t);
	OFF(STACK, stack_t, ss_flags);
	OFF(STACK, stack_t, ss_size);
	SIZE(USER_DESC, struct user_desc);
	SIZE(FLOCK, struct flock);
	OFF(FLOCK, struct flock, l_start);
	OFF(FLOCK, struct flock, l_len);
	OFF(FLOCK, struct flock, l_pid);
	SIZE(FLOCK64, struct flock64);
	OFF(FLOCK64, struct flock64, l_start);
	OFF(FLOCK64, struct flock64, l_len);
	OFF(FLOCK64, struct flock64, l_pid);
}
