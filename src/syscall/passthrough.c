/* Calls that mean the same thing to the host kernel as to the guest: the
 * arguments only need their guest pointers checked (and paths copied).
 * One line per entry point; the PA() list says what each argument is
 * (internal.h). Entry points shared by several ABIs appear once.
 */
#define _GNU_SOURCE /* struct statx */
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/sysinfo.h>
#include <sys/times.h>
#include <sys/utsname.h>
#include <time.h>

#include "syscall/handler.h"

/* Not a call at all: the tables name it for retired numbers. */
SG_SYSCALL_DEFINE(sys_ni_syscall)
{
	return -ENOSYS;
}

/* --- identity -------------------------------------------------------- */
SG_PASSTHROUGH(sys_getpid, SYS_getpid)
SG_PASSTHROUGH(sys_getppid, SYS_getppid)
SG_PASSTHROUGH(sys_gettid, SYS_gettid)
SG_PASSTHROUGH(sys_getuid, SYS_getuid)
SG_PASSTHROUGH(sys_geteuid, SYS_geteuid)
SG_PASSTHROUGH(sys_getgid, SYS_getgid)
SG_PASSTHROUGH(sys_getegid, SYS_getegid)
SG_PASSTHROUGH(sys_getpgrp, SYS_getpgrp)
SG_PASSTHROUGH(sys_getpgid, SYS_getpgid, PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_getsid, SYS_getsid, PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_setpgid, SYS_setpgid, PA(PA_VAL, 0), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_setsid, SYS_setsid)
SG_PASSTHROUGH(sys_getresuid, SYS_getresuid, PA(PA_OUTN, 4), PA(PA_OUTN, 4),
	       PA(PA_OUTN, 4))
SG_PASSTHROUGH(sys_getresgid, SYS_getresgid, PA(PA_OUTN, 4), PA(PA_OUTN, 4),
	       PA(PA_OUTN, 4))
SG_PASSTHROUGH(sys_newuname, SYS_uname, PA(PA_OUTN, sizeof(struct utsname)))
SG_PASSTHROUGH(sys_umask, SYS_umask, PA(PA_VAL, 0))

/* lseek, _llseek, getdents64: compat_dirs.c (directory offsets of compat
 * guests) */
/* --- file descriptors -------------------------------------------------- */
SG_PASSTHROUGH(sys_read, SYS_read, PA(PA_VAL, 0), PA(PA_OUT, 2), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_write, SYS_write, PA(PA_VAL, 0), PA(PA_IN, 2),
	       PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_pread64, SYS_pread64, PA(PA_VAL, 0), PA(PA_OUT, 2),
	       PA(PA_VAL, 0), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_pwrite64, SYS_pwrite64, PA(PA_VAL, 0), PA(PA_IN, 2),
	       PA(PA_VAL, 0), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_close, SYS_close, PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_dup, SYS_dup, PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_dup2, SYS_dup2, PA(PA_VAL, 0), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_dup3, SYS_dup3, PA(PA_VAL, 0), PA(PA_VAL, 0),
	       PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_pipe, SYS_pipe, PA(PA_OUTN, 2 * sizeof(int)))
SG_PASSTHROUGH(sys_pipe2, SYS_pipe2, PA(PA_OUTN, 2 * sizeof(int)),
	       PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_fsync, SYS_fsync, PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_fdatasync, SYS_fdatasync, PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_ftruncate, SYS_ftruncate, PA(PA_VAL, 0), PA(PA_VAL, 0))
SG_PASSTHROUGH(compat_sys_ftruncate, SYS_ftruncate, PA(PA_VAL, 0),
	       PA(PA_S32, 0)) /* compat_off_t */
/* getdents: fds.c (a /proc/self/fd listing without sysgate's own) */
SG_PASSTHROUGH(sys_fchdir, SYS_fchdir, PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_fchmod, SYS_fchmod, PA(PA_VAL, 0), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_flock, SYS_flock, PA(PA_VAL, 0), PA(PA_VAL, 0))
/* ioctl: ioctl.c; fcntl: fs.c (pointer arguments by command) */

/* --- paths -------------------------------------------------------------- */
/* open/openat: fs.c (/proc/self/maps is the guest's) */
SG_PASSTHROUGH(sys_creat, SYS_creat, PA(PA_PATH, 0), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_access, SYS_access, PA(PA_PATH, 0), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_faccessat, SYS_faccessat, PA(PA_VAL, 0), PA(PA_PATH, 0),
	       PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_faccessat2, SYS_faccessat2, PA(PA_VAL, 0), PA(PA_PATH, 0),
	       PA(PA_VAL, 0), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_chdir, SYS_chdir, PA(PA_PATH, 0))
/* getcwd: path.c (the sysroot) */
SG_PASSTHROUGH(sys_mkdir, SYS_mkdir, PA(PA_PATH, 0), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_mkdirat, SYS_mkdirat, PA(PA_VAL, 0), PA(PA_PATH, 0),
	       PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_rmdir, SYS_rmdir, PA(PA_PATH, 0))
SG_PASSTHROUGH(sys_unlink, SYS_unlink, PA(PA_PATH, 0))
SG_PASSTHROUGH(sys_unlinkat, SYS_unlinkat, PA(PA_VAL, 0), PA(PA_PATH, 0),
	       PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_rename, SYS_rename, PA(PA_PATH, 0), PA(PA_PATH, 0))
SG_PASSTHROUGH(sys_renameat, SYS_renameat, PA(PA_VAL, 0), PA(PA_PATH, 0),
	       PA(PA_VAL, 0), PA(PA_PATH, 0))
SG_PASSTHROUGH(sys_renameat2, SYS_renameat2, PA(PA_VAL, 0), PA(PA_PATH, 0),
	       PA(PA_VAL, 0), PA(PA_PATH, 0), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_link, SYS_link, PA(PA_PATH, 0), PA(PA_PATH, 0))
/* the target is the link's content, not a path looked up (no sysroot) */
SG_PASSTHROUGH(sys_symlink, SYS_symlink, PA(PA_STR, 0), PA(PA_PATH, 0))
SG_PASSTHROUGH(sys_chmod, SYS_chmod, PA(PA_PATH, 0), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_fchmodat, SYS_fchmodat, PA(PA_VAL, 0), PA(PA_PATH, 0),
	       PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_truncate, SYS_truncate, PA(PA_PATH, 0), PA(PA_VAL, 0))
SG_PASSTHROUGH(compat_sys_truncate, SYS_truncate, PA(PA_PATH, 0),
	       PA(PA_S32, 0))

/* --- stat: x86_64 and x32 share struct stat; struct statx is one layout --
 * Passed through, then what the host wrote looked at: a /proc fd
 * directory's size and a /proc view's stat are the guest's (fds.c,
 * sc_stat_fixup; the cheap test first, the path resolved again only
 * then). */

static long stat_fixed(struct sg_thread *t, long r, int dfd, uint64_t path_addr, int flags,
		       uint64_t buf)
{
	char path[PATH_MAX];
	struct stat st;

	if (r || copy_from_guest(sc_mm(t), &st, buf, sizeof(st)) ||
	    !sc_stat_may_differ(st.st_mode, st.st_nlink, st.st_dev))
		return r;
	if (path_addr && sc_path(t, path_addr, path, true))
		return r;
	sc_stat_fixup(t, dfd, path_addr ? path : NULL, flags, &st);
	return copy_to_guest(sc_mm(t), buf, &st, sizeof(st)) ? -EFAULT : r;
}

SG_SYSCALL_DEFINE(sys_newstat)
{
	static const uint16_t spec[] = { PA(PA_PATH, 0), PA(PA_OUTN, sizeof(struct stat)) };

	return stat_fixed(t, sc_passthrough(t, a, SYS_stat, spec, ARRAY_SIZE(spec)), AT_FDCWD,
			  a[0], 0, a[1]);
}

SG_SYSCALL_DEFINE(sys_newlstat)
{
	static const uint16_t spec[] = { PA(PA_PATH, 0), PA(PA_OUTN, sizeof(struct stat)) };

	return stat_fixed(t, sc_passthrough(t, a, SYS_lstat, spec, ARRAY_SIZE(spec)), AT_FDCWD,
			  a[0], AT_SYMLINK_NOFOLLOW, a[1]);
}

SG_SYSCALL_DEFINE(sys_newfstat)
{
	static const uint16_t spec[] = { PA(PA_VAL, 0), PA(PA_OUTN, sizeof(struct stat)) };

	return stat_fixed(t, sc_passthrough(t, a, SYS_fstat, spec, ARRAY_SIZE(spec)), (int)a[0],
			  0, 0, a[1]);
}

SG_SYSCALL_DEFINE(sys_newfstatat)
{
	static const uint16_t spec[] = { PA(PA_VAL, 0), PA(PA_PATH, 0),
					 PA(PA_OUTN, sizeof(struct stat)), PA(PA_VAL, 0) };

	return stat_fixed(t, sc_passthrough(t, a, SYS_newfstatat, spec, ARRAY_SIZE(spec)),
			  (int)a[0], a[1], (int)a[3], a[2]);
}

SG_SYSCALL_DEFINE(sys_statx)
{
	static const uint16_t spec[] = { PA(PA_VAL, 0), PA(PA_PATH, 0), PA(PA_VAL, 0),
					 PA(PA_VAL, 0), PA(PA_OUTN, 256) };
	long r = sc_passthrough(t, a, SYS_statx, spec, ARRAY_SIZE(spec));
	char path[PATH_MAX], view[PATH_MAX];
	struct statx stx;
	long hidden = 0;

	if (r || copy_from_guest(sc_mm(t), &stx, a[4], sizeof(stx)) ||
	    !(stx.stx_mask & STATX_TYPE) ||
	    !sc_stat_may_differ(stx.stx_mode, stx.stx_nlink,
				makedev(stx.stx_dev_major, stx.stx_dev_minor)))
		return r;
	if (a[1] && sc_path(t, a[1], path, true))
		return r;
	switch (sc_stat_classify(t, (int)a[0], a[1] ? path : NULL, (int)a[2], &hidden, view)) {
	case SC_STAT_FD_DIR:
		stx.stx_size = stx.stx_size > (uint64_t)hidden ? stx.stx_size - (uint64_t)hidden : 0;
		break;
	case SC_STAT_VIEW:
		if (host_syscall5(SYS_statx, AT_FDCWD, view, (int)a[2] & ~AT_EMPTY_PATH,
				  (unsigned)a[3], &stx))
			return r;
		break;
	default:
		return r;
	}
	return copy_to_guest(sc_mm(t), a[4], &stx, sizeof(stx)) ? -EFAULT : r;
}

/* --- misc ------------------------------------------------------------------ */
SG_PASSTHROUGH(sys_getrandom, SYS_getrandom, PA(PA_OUT, 1), PA(PA_VAL, 0),
	       PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_sched_yield, SYS_sched_yield)
SG_PASSTHROUGH(sys_sched_getaffinity, SYS_sched_getaffinity, PA(PA_VAL, 0),
	       PA(PA_VAL, 0), PA(PA_OUT, 1))
/* prlimit64, getrlimit, setrlimit: fds.c (RLIMIT_NOFILE is the guest's) */
/* Guest threads are host threads and addresses are host addresses. */
SG_PASSTHROUGH(sys_kill, SYS_kill, PA(PA_VAL, 0), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_tkill, SYS_tkill, PA(PA_VAL, 0), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_tgkill, SYS_tgkill, PA(PA_VAL, 0), PA(PA_VAL, 0),
	       PA(PA_VAL, 0))
/* pidfds name host processes, which guest processes are;
 * pidfd_send_signal is in sigwait.c (its siginfo) */
SG_PASSTHROUGH(sys_pidfd_open, SYS_pidfd_open, PA(PA_VAL, 0), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_pidfd_getfd, SYS_pidfd_getfd, PA(PA_VAL, 0), PA(PA_VAL, 0),
	       PA(PA_VAL, 0))

/* --- time with 64-bit time_t (x86_64, x32, and the i386 *_time64 rows) ---- */
SG_PASSTHROUGH(sys_clock_gettime, SYS_clock_gettime, PA(PA_VAL, 0),
	       PA(PA_OUTN, 16))
SG_PASSTHROUGH(sys_clock_getres, SYS_clock_getres, PA(PA_VAL, 0),
	       PA(PA_OUTN, 16))
/* nanosleep, clock_nanosleep: time.c (restart block) */
SG_PASSTHROUGH(sys_gettimeofday, SYS_gettimeofday, PA(PA_OUTN, 16),
	       PA(PA_OUTN, 8))
SG_PASSTHROUGH(sys_time, SYS_time, PA(PA_OUTN, 8))

/* --- more of the same, mostly x86_64/x32 (the i386 forms of these
 * structures differ and need compat handlers) ------------------------------ */
/* wait4: wait.c (a traced child's own syscall stops are not the guest's) */
SG_PASSTHROUGH(sys_getrusage, SYS_getrusage, PA(PA_VAL, 0),
	       PA(PA_OUTN, sizeof(struct rusage)))
SG_PASSTHROUGH(sys_sysinfo, SYS_sysinfo, PA(PA_OUTN, sizeof(struct sysinfo)))
SG_PASSTHROUGH(sys_times, SYS_times, PA(PA_OUTN, sizeof(struct tms)))
SG_PASSTHROUGH(sys_alarm, SYS_alarm, PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_pause, SYS_pause)
SG_PASSTHROUGH(sys_sync, SYS_sync)
SG_PASSTHROUGH(sys_syncfs, SYS_syncfs, PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_personality, SYS_personality, PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_getcpu, SYS_getcpu, PA(PA_OUTN, 4), PA(PA_OUTN, 4),
	       PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_sched_setaffinity, SYS_sched_setaffinity, PA(PA_VAL, 0),
	       PA(PA_VAL, 0), PA(PA_IN, 1))
SG_PASSTHROUGH(sys_eventfd2, SYS_eventfd2, PA(PA_VAL, 0), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_epoll_create1, SYS_epoll_create1, PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_memfd_create, SYS_memfd_create, PA(PA_PATH, 0),
	       PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_fallocate, SYS_fallocate, PA(PA_VAL, 0), PA(PA_VAL, 0),
	       PA(PA_VAL, 0), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_fadvise64, SYS_fadvise64, PA(PA_VAL, 0), PA(PA_VAL, 0),
	       PA(PA_VAL, 0), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_sendfile64, SYS_sendfile, PA(PA_VAL, 0), PA(PA_VAL, 0),
	       PA(PA_OUTN, 8), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_utimensat, SYS_utimensat, PA(PA_VAL, 0), PA(PA_PATH, 0),
	       PA(PA_INN, 2 * sizeof(struct timespec)), PA(PA_VAL, 0))
/* 32-bit ids (i386 *32 rows share these entry points) */
SG_PASSTHROUGH(sys_setuid, SYS_setuid, PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_setgid, SYS_setgid, PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_setresuid, SYS_setresuid, PA(PA_VAL, 0), PA(PA_VAL, 0),
	       PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_setresgid, SYS_setresgid, PA(PA_VAL, 0), PA(PA_VAL, 0),
	       PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_chown, SYS_chown, PA(PA_PATH, 0), PA(PA_VAL, 0),
	       PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_lchown, SYS_lchown, PA(PA_PATH, 0), PA(PA_VAL, 0),
	       PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_fchown, SYS_fchown, PA(PA_VAL, 0), PA(PA_VAL, 0),
	       PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_fchownat, SYS_fchownat, PA(PA_VAL, 0), PA(PA_PATH, 0),
	       PA(PA_VAL, 0), PA(PA_VAL, 0), PA(PA_VAL, 0))

/* --- memory locks of the whole process (msync, mlock, munlock, madvise,
 * mincore of a range: memory.c, guest ranges only) ------------------------- */
SG_PASSTHROUGH(sys_mlockall, SYS_mlockall, PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_munlockall, SYS_munlockall)

/* --- administration: the host kernel decides by the caller's privileges
 * (a root user in a user namespace may mount, set its namespace's host
 * name, ...), as it would for the native program. No layout differs:
 * mount's data is at most a page the kernel copies as far as it can, a
 * file handle is { u32 bytes; int type; bytes } in every ABI. -------- */
SG_PASSTHROUGH(sys_mount, SYS_mount, PA(PA_STR, 0), PA(PA_PATH, 0),
	       PA(PA_STR, 0), PA(PA_VAL, 0), PA(PA_INN, 4096))
SG_PASSTHROUGH(sys_umount2, SYS_umount2, PA(PA_PATH, 0), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_umount, SYS_umount2, PA(PA_PATH, 0), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_oldumount, SYS_umount2, PA(PA_PATH, 0)) /* flags 0 */
SG_PASSTHROUGH(sys_pivot_root, SYS_pivot_root, PA(PA_PATH, 0), PA(PA_PATH, 0))
SG_PASSTHROUGH(sys_sethostname, SYS_sethostname, PA(PA_IN, 1), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_setdomainname, SYS_setdomainname, PA(PA_IN, 1),
	       PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_swapon, SYS_swapon, PA(PA_PATH, 0), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_swapoff, SYS_swapoff, PA(PA_PATH, 0))
SG_PASSTHROUGH(sys_acct, SYS_acct, PA(PA_PATH, 0))
SG_PASSTHROUGH(sys_vhangup, SYS_vhangup)
/* 8 + MAX_HANDLE_SZ (128) bytes at most; the mount id is an int or, with
 * AT_HANDLE_MNT_ID_UNIQUE, a u64 */
SG_PASSTHROUGH(sys_name_to_handle_at, SYS_name_to_handle_at, PA(PA_VAL, 0),
	       PA(PA_PATH, 0), PA(PA_OUTN, 136), PA(PA_OUTN, 8), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_open_by_handle_at, SYS_open_by_handle_at, PA(PA_VAL, 0),
	       PA(PA_INN, 136), PA(PA_VAL, 0))
SG_PASSTHROUGH(compat_sys_open_by_handle_at, SYS_open_by_handle_at,
	       PA(PA_VAL, 0), PA(PA_INN, 136), PA(PA_VAL, 0))

/* --- more paths ----------------------------------------------------------- */
SG_PASSTHROUGH(sys_chroot, SYS_chroot, PA(PA_PATH, 0))
SG_PASSTHROUGH(sys_mknod, SYS_mknod, PA(PA_PATH, 0), PA(PA_VAL, 0),
	       PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_mknodat, SYS_mknodat, PA(PA_VAL, 0), PA(PA_PATH, 0),
	       PA(PA_VAL, 0), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_linkat, SYS_linkat, PA(PA_VAL, 0), PA(PA_PATH, 0),
	       PA(PA_VAL, 0), PA(PA_PATH, 0), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_symlinkat, SYS_symlinkat, PA(PA_STR, 0), PA(PA_VAL, 0),
	       PA(PA_PATH, 0))
/* struct utimbuf / timeval[2] of kernel longs: x86_64 and x32 alike */
SG_PASSTHROUGH(sys_utime, SYS_utime, PA(PA_PATH, 0), PA(PA_INN, 16))
SG_PASSTHROUGH(sys_utimes, SYS_utimes, PA(PA_PATH, 0), PA(PA_INN, 32))
SG_PASSTHROUGH(sys_futimesat, SYS_futimesat, PA(PA_VAL, 0), PA(PA_PATH, 0),
	       PA(PA_INN, 32))
/* struct statfs of kernel longs (120 bytes): x86_64 and x32 alike */
SG_PASSTHROUGH(sys_statfs, SYS_statfs, PA(PA_PATH, 0), PA(PA_OUTN, 120))
SG_PASSTHROUGH(sys_fstatfs, SYS_fstatfs, PA(PA_VAL, 0), PA(PA_OUTN, 120))

/* --- extended attributes (names are strings, not paths) -------------------- */
SG_PASSTHROUGH(sys_setxattr, SYS_setxattr, PA(PA_PATH, 0), PA(PA_STR, 0),
	       PA(PA_IN, 3), PA(PA_VAL, 0), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_lsetxattr, SYS_lsetxattr, PA(PA_PATH, 0), PA(PA_STR, 0),
	       PA(PA_IN, 3), PA(PA_VAL, 0), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_fsetxattr, SYS_fsetxattr, PA(PA_VAL, 0), PA(PA_STR, 0),
	       PA(PA_IN, 3), PA(PA_VAL, 0), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_getxattr, SYS_getxattr, PA(PA_PATH, 0), PA(PA_STR, 0),
	       PA(PA_OUT, 3), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_lgetxattr, SYS_lgetxattr, PA(PA_PATH, 0), PA(PA_STR, 0),
	       PA(PA_OUT, 3), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_fgetxattr, SYS_fgetxattr, PA(PA_VAL, 0), PA(PA_STR, 0),
	       PA(PA_OUT, 3), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_listxattr, SYS_listxattr, PA(PA_PATH, 0), PA(PA_OUT, 2),
	       PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_llistxattr, SYS_llistxattr, PA(PA_PATH, 0), PA(PA_OUT, 2),
	       PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_flistxattr, SYS_flistxattr, PA(PA_VAL, 0), PA(PA_OUT, 2),
	       PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_removexattr, SYS_removexattr, PA(PA_PATH, 0),
	       PA(PA_STR, 0))
SG_PASSTHROUGH(sys_lremovexattr, SYS_lremovexattr, PA(PA_PATH, 0),
	       PA(PA_STR, 0))
SG_PASSTHROUGH(sys_fremovexattr, SYS_fremovexattr, PA(PA_VAL, 0),
	       PA(PA_STR, 0))

/* --- descriptors of every kind: struct epoll_event is packed (12 bytes) in
 * all three ABIs; inotify, eventfd, timerfd, signalfd carry no pointers of
 * their own ----------------------------------------------------------------- */
SG_PASSTHROUGH(sys_epoll_create, SYS_epoll_create, PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_epoll_ctl, SYS_epoll_ctl, PA(PA_VAL, 0), PA(PA_VAL, 0),
	       PA(PA_VAL, 0), PA(PA_INN, 12))
SG_PASSTHROUGH(sys_epoll_wait, SYS_epoll_wait, PA(PA_VAL, 0),
	       PA(PA_OUTE, PA_ELEM(2, 12)), PA(PA_VAL, 0), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_epoll_pwait, SYS_epoll_pwait, PA(PA_VAL, 0),
	       PA(PA_OUTE, PA_ELEM(2, 12)), PA(PA_VAL, 0), PA(PA_VAL, 0),
	       PA(PA_INN, 8), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_epoll_pwait2, SYS_epoll_pwait2, PA(PA_VAL, 0),
	       PA(PA_OUTE, PA_ELEM(2, 12)), PA(PA_VAL, 0), PA(PA_INN, 16),
	       PA(PA_INN, 8), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_inotify_init, SYS_inotify_init)
SG_PASSTHROUGH(sys_inotify_init1, SYS_inotify_init1, PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_inotify_add_watch, SYS_inotify_add_watch, PA(PA_VAL, 0),
	       PA(PA_PATH, 0), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_inotify_rm_watch, SYS_inotify_rm_watch, PA(PA_VAL, 0),
	       PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_eventfd, SYS_eventfd, PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_timerfd_create, SYS_timerfd_create, PA(PA_VAL, 0),
	       PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_timerfd_settime, SYS_timerfd_settime, PA(PA_VAL, 0),
	       PA(PA_VAL, 0), PA(PA_INN, 32), PA(PA_OUTN, 32))
SG_PASSTHROUGH(sys_timerfd_gettime, SYS_timerfd_gettime, PA(PA_VAL, 0),
	       PA(PA_OUTN, 32))
/* a sigset of 64 bits is the same bytes in the compat ABIs */
SG_PASSTHROUGH(sys_signalfd, SYS_signalfd, PA(PA_VAL, 0), PA(PA_IN, 2),
	       PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_signalfd4, SYS_signalfd4, PA(PA_VAL, 0), PA(PA_IN, 2),
	       PA(PA_VAL, 0), PA(PA_VAL, 0))
SG_PASSTHROUGH(compat_sys_signalfd, SYS_signalfd, PA(PA_VAL, 0), PA(PA_IN, 2),
	       PA(PA_VAL, 0))
SG_PASSTHROUGH(compat_sys_signalfd4, SYS_signalfd4, PA(PA_VAL, 0),
	       PA(PA_IN, 2), PA(PA_VAL, 0), PA(PA_VAL, 0))

/* --- data movement between descriptors (loff_t is 64-bit everywhere) ------- */
SG_PASSTHROUGH(sys_splice, SYS_splice, PA(PA_VAL, 0), PA(PA_OUTN, 8),
	       PA(PA_VAL, 0), PA(PA_OUTN, 8), PA(PA_VAL, 0), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_tee, SYS_tee, PA(PA_VAL, 0), PA(PA_VAL, 0), PA(PA_VAL, 0),
	       PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_copy_file_range, SYS_copy_file_range, PA(PA_VAL, 0),
	       PA(PA_OUTN, 8), PA(PA_VAL, 0), PA(PA_OUTN, 8), PA(PA_VAL, 0),
	       PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_sync_file_range, SYS_sync_file_range, PA(PA_VAL, 0),
	       PA(PA_VAL, 0), PA(PA_VAL, 0), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_readahead, SYS_readahead, PA(PA_VAL, 0), PA(PA_VAL, 0),
	       PA(PA_VAL, 0))

/* --- scheduling and priorities: struct sched_param is one int,
 * struct sched_attr fixed-width ------------------------------------------------ */
SG_PASSTHROUGH(sys_getpriority, SYS_getpriority, PA(PA_VAL, 0), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_setpriority, SYS_setpriority, PA(PA_VAL, 0), PA(PA_VAL, 0),
	       PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_sched_setparam, SYS_sched_setparam, PA(PA_VAL, 0),
	       PA(PA_INN, 4))
SG_PASSTHROUGH(sys_sched_getparam, SYS_sched_getparam, PA(PA_VAL, 0),
	       PA(PA_OUTN, 4))
SG_PASSTHROUGH(sys_sched_setscheduler, SYS_sched_setscheduler, PA(PA_VAL, 0),
	       PA(PA_VAL, 0), PA(PA_INN, 4))
SG_PASSTHROUGH(sys_sched_getscheduler, SYS_sched_getscheduler, PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_sched_get_priority_max, SYS_sched_get_priority_max,
	       PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_sched_get_priority_min, SYS_sched_get_priority_min,
	       PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_sched_rr_get_interval, SYS_sched_rr_get_interval,
	       PA(PA_VAL, 0), PA(PA_OUTN, 16))
SG_PASSTHROUGH(sys_sched_setattr, SYS_sched_setattr, PA(PA_VAL, 0),
	       PA(PA_INN, 48), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_sched_getattr, SYS_sched_getattr, PA(PA_VAL, 0),
	       PA(PA_OUT, 2), PA(PA_VAL, 0), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_ioprio_set, SYS_ioprio_set, PA(PA_VAL, 0), PA(PA_VAL, 0),
	       PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_ioprio_get, SYS_ioprio_get, PA(PA_VAL, 0), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_membarrier, SYS_membarrier, PA(PA_VAL, 0), PA(PA_VAL, 0),
	       PA(PA_VAL, 0))

/* --- ids, capabilities, namespaces (the guest process is sysgate's) --------- */
SG_PASSTHROUGH(sys_setreuid, SYS_setreuid, PA(PA_VAL, 0), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_setregid, SYS_setregid, PA(PA_VAL, 0), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_setfsuid, SYS_setfsuid, PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_setfsgid, SYS_setfsgid, PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_getgroups, SYS_getgroups, PA(PA_VAL, 0),
	       PA(PA_OUTE, PA_ELEM(0, 4)))
SG_PASSTHROUGH(sys_setgroups, SYS_setgroups, PA(PA_VAL, 0),
	       PA(PA_INE, PA_ELEM(0, 4)))
/* cap_user_header (8 bytes, written back on a version mismatch) and two
 * cap_user_data structs (12 bytes each, version 2 and 3) */
SG_PASSTHROUGH(sys_capget, SYS_capget, PA(PA_OUTN, 8), PA(PA_OUTN, 24))
SG_PASSTHROUGH(sys_capset, SYS_capset, PA(PA_OUTN, 8), PA(PA_INN, 24))
SG_PASSTHROUGH(sys_unshare, SYS_unshare, PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_setns, SYS_setns, PA(PA_VAL, 0), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_landlock_create_ruleset, SYS_landlock_create_ruleset,
	       PA(PA_IN, 1), PA(PA_VAL, 0), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_landlock_add_rule, SYS_landlock_add_rule, PA(PA_VAL, 0),
	       PA(PA_VAL, 0), PA(PA_INN, 12), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_landlock_restrict_self, SYS_landlock_restrict_self,
	       PA(PA_VAL, 0), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_add_key, SYS_add_key, PA(PA_STR, 0), PA(PA_STR, 0),
	       PA(PA_IN, 3), PA(PA_VAL, 0), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_request_key, SYS_request_key, PA(PA_STR, 0),
	       PA(PA_STR, 0), PA(PA_STR, 0), PA(PA_VAL, 0))

/* --- timers and message queues with 64-bit time (x86_64, x32 and the
 * i386 *_time64 rows): itimerval/itimerspec of kernel longs, 32 bytes;
 * struct mq_attr 64 bytes; struct sigevent 64 bytes ------------------------ */
SG_PASSTHROUGH(sys_getitimer, SYS_getitimer, PA(PA_VAL, 0), PA(PA_OUTN, 32))
SG_PASSTHROUGH(sys_setitimer, SYS_setitimer, PA(PA_VAL, 0), PA(PA_INN, 32),
	       PA(PA_OUTN, 32))
SG_PASSTHROUGH(sys_timer_create, SYS_timer_create, PA(PA_VAL, 0),
	       PA(PA_INN, 64), PA(PA_OUTN, 4))
SG_PASSTHROUGH(sys_timer_settime, SYS_timer_settime, PA(PA_VAL, 0),
	       PA(PA_VAL, 0), PA(PA_INN, 32), PA(PA_OUTN, 32))
SG_PASSTHROUGH(sys_timer_gettime, SYS_timer_gettime, PA(PA_VAL, 0),
	       PA(PA_OUTN, 32))
SG_PASSTHROUGH(sys_timer_getoverrun, SYS_timer_getoverrun, PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_timer_delete, SYS_timer_delete, PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_mq_open, SYS_mq_open, PA(PA_STR, 0), PA(PA_VAL, 0),
	       PA(PA_VAL, 0), PA(PA_INN, 64))
SG_PASSTHROUGH(sys_mq_unlink, SYS_mq_unlink, PA(PA_STR, 0))
SG_PASSTHROUGH(sys_mq_timedsend, SYS_mq_timedsend, PA(PA_VAL, 0),
	       PA(PA_IN, 2), PA(PA_VAL, 0), PA(PA_VAL, 0), PA(PA_INN, 16))
SG_PASSTHROUGH(sys_mq_timedreceive, SYS_mq_timedreceive, PA(PA_VAL, 0),
	       PA(PA_OUT, 2), PA(PA_VAL, 0), PA(PA_OUTN, 4), PA(PA_INN, 16))
SG_PASSTHROUGH(sys_mq_notify, SYS_mq_notify, PA(PA_VAL, 0), PA(PA_INN, 64))
SG_PASSTHROUGH(sys_mq_getsetattr, SYS_mq_getsetattr, PA(PA_VAL, 0),
	       PA(PA_INN, 64), PA(PA_OUTN, 64))
/* i386 epoll_pwait2: a 64-bit timespec and a sigset of the same bytes */
SG_PASSTHROUGH(compat_sys_epoll_pwait2, SYS_epoll_pwait2, PA(PA_VAL, 0),
	       PA(PA_OUTE, PA_ELEM(2, 12)), PA(PA_VAL, 0), PA(PA_INN, 16),
	       PA(PA_INN, 8), PA(PA_VAL, 0))
