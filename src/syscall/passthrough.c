/* Calls that mean the same thing to the host kernel as to the guest: the
 * arguments only need their guest pointers checked (and paths copied).
 * One line per entry point: what each argument is (a path, a buffer and
 * its length, ...) is its shape in tables/syscall_args.in, written once
 * for the trace and for this (SG_ARGS_<entry>, handler.h). Entry points
 * shared by several ABIs appear once.
 */
#define _GNU_SOURCE /* struct statx */
#include <fcntl.h>
#include <mqueue.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysinfo.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
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
SG_PASSTHROUGH(sys_getpgid, SYS_getpgid)
SG_PASSTHROUGH(sys_getsid, SYS_getsid)
SG_PASSTHROUGH(sys_setpgid, SYS_setpgid)
SG_PASSTHROUGH(sys_setsid, SYS_setsid)
SG_PASSTHROUGH(sys_getresuid, SYS_getresuid)
SG_PASSTHROUGH(sys_getresgid, SYS_getresgid)
SG_PASSTHROUGH(sys_newuname, SYS_uname)
SG_PASSTHROUGH(sys_umask, SYS_umask)

/* lseek, _llseek, getdents64: compat_dirs.c (directory offsets of compat
 * guests) */
/* --- file descriptors -------------------------------------------------- */
/* read and write on a socket with a timeout in their direction: an
 * interrupted call's code is -EINTR (sc_sock_interrupted) */
SG_SYSCALL_DEFINE3(sys_read, fd, buf, count)
{
	return sc_sock_interrupted(SC_PASSTHROUGH(t, sys_read, SYS_read), (uint32_t)fd, true);
}

SG_SYSCALL_DEFINE3(sys_write, fd, buf, count)
{
	return sc_sock_interrupted(SC_PASSTHROUGH(t, sys_write, SYS_write), (uint32_t)fd,
				   false);
}
SG_PASSTHROUGH(sys_pread64, SYS_pread64)
SG_PASSTHROUGH(sys_pwrite64, SYS_pwrite64)
SG_PASSTHROUGH(sys_close, SYS_close)
SG_PASSTHROUGH(sys_dup, SYS_dup)
SG_PASSTHROUGH(sys_dup2, SYS_dup2)
SG_PASSTHROUGH(sys_dup3, SYS_dup3)
SG_PASSTHROUGH(sys_pipe, SYS_pipe)
SG_PASSTHROUGH(sys_pipe2, SYS_pipe2)
SG_PASSTHROUGH(sys_fsync, SYS_fsync)
SG_PASSTHROUGH(sys_fdatasync, SYS_fdatasync)
SG_PASSTHROUGH(sys_ftruncate, SYS_ftruncate)
SG_PASSTHROUGH(compat_sys_ftruncate, SYS_ftruncate) /* compat_off_t */
/* getdents: fds.c (a /proc/self/fd listing without sysgate's own) */
SG_PASSTHROUGH(sys_fchdir, SYS_fchdir)
SG_PASSTHROUGH(sys_fchmod, SYS_fchmod)
SG_PASSTHROUGH(sys_flock, SYS_flock)
/* ioctl: ioctl.c; fcntl: fs.c (pointer arguments by command) */

/* --- paths -------------------------------------------------------------- */
/* open/openat/creat: fs.c (/proc/self/maps is the guest's) */
SG_PASSTHROUGH(sys_access, SYS_access)
SG_PASSTHROUGH(sys_faccessat, SYS_faccessat)
SG_PASSTHROUGH(sys_faccessat2, SYS_faccessat2)
SG_PASSTHROUGH(sys_chdir, SYS_chdir)
/* getcwd: path.c (the sysroot) */
SG_PASSTHROUGH(sys_mkdir, SYS_mkdir)
SG_PASSTHROUGH(sys_mkdirat, SYS_mkdirat)
SG_PASSTHROUGH(sys_rmdir, SYS_rmdir)
SG_PASSTHROUGH(sys_unlink, SYS_unlink)
SG_PASSTHROUGH(sys_unlinkat, SYS_unlinkat)
SG_PASSTHROUGH(sys_rename, SYS_rename)
SG_PASSTHROUGH(sys_renameat, SYS_renameat)
SG_PASSTHROUGH(sys_renameat2, SYS_renameat2)
SG_PASSTHROUGH(sys_link, SYS_link)
SG_PASSTHROUGH(sys_symlink, SYS_symlink)
SG_PASSTHROUGH(sys_chmod, SYS_chmod)
SG_PASSTHROUGH(sys_fchmodat, SYS_fchmodat)
SG_PASSTHROUGH(sys_truncate, SYS_truncate)
SG_PASSTHROUGH(compat_sys_truncate, SYS_truncate)

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

SG_SYSCALL_DEFINE2(sys_newstat, filename, statbuf)
{
	return stat_fixed(t, SC_PASSTHROUGH(t, sys_newstat, SYS_stat), AT_FDCWD, filename, 0,
			  statbuf);
}

SG_SYSCALL_DEFINE2(sys_newlstat, filename, statbuf)
{
	return stat_fixed(t, SC_PASSTHROUGH(t, sys_newlstat, SYS_lstat), AT_FDCWD, filename,
			  AT_SYMLINK_NOFOLLOW, statbuf);
}

SG_SYSCALL_DEFINE2(sys_newfstat, fd, statbuf)
{
	return stat_fixed(t, SC_PASSTHROUGH(t, sys_newfstat, SYS_fstat), fd, 0, 0, statbuf);
}

SG_SYSCALL_DEFINE4(sys_newfstatat, dfd, filename, statbuf, flag)
{
	return stat_fixed(t, SC_PASSTHROUGH(t, sys_newfstatat, SYS_newfstatat), dfd, filename,
			  (int)flag, statbuf);
}

SG_SYSCALL_DEFINE5(sys_statx, dfd, filename, flags, mask, buffer)
{
	long r = SC_PASSTHROUGH(t, sys_statx, SYS_statx);
	char path[PATH_MAX], view[PATH_MAX];
	struct statx stx;
	long hidden = 0;

	if (r || copy_from_guest(sc_mm(t), &stx, buffer, sizeof(stx)) ||
	    !(stx.stx_mask & STATX_TYPE) ||
	    !sc_stat_may_differ(stx.stx_mode, stx.stx_nlink,
				makedev(stx.stx_dev_major, stx.stx_dev_minor)))
		return r;
	if (filename && sc_path(t, filename, path, true))
		return r;
	switch (sc_stat_classify(t, dfd, filename ? path : NULL, (int)flags, &hidden, view)) {
	case SC_STAT_FD_DIR:
		stx.stx_size = stx.stx_size > (uint64_t)hidden ? stx.stx_size - (uint64_t)hidden : 0;
		break;
	case SC_STAT_VIEW:
		if (host_syscall5(SYS_statx, AT_FDCWD, view, (int)flags & ~AT_EMPTY_PATH,
				  (unsigned)mask, &stx))
			return r;
		break;
	default:
		return r;
	}
	return copy_to_guest(sc_mm(t), buffer, &stx, sizeof(stx)) ? -EFAULT : r;
}

/* --- misc ------------------------------------------------------------------ */
SG_PASSTHROUGH(sys_getrandom, SYS_getrandom)
SG_PASSTHROUGH(sys_sched_yield, SYS_sched_yield)
SG_PASSTHROUGH(sys_sched_getaffinity, SYS_sched_getaffinity)
/* prlimit64, getrlimit, setrlimit: fds.c (RLIMIT_NOFILE is the guest's) */
/* Guest threads are host threads and addresses are host addresses. */
SG_PASSTHROUGH(sys_kill, SYS_kill)
SG_PASSTHROUGH(sys_tkill, SYS_tkill)
SG_PASSTHROUGH(sys_tgkill, SYS_tgkill)
/* pidfds name host processes, which guest processes are;
 * pidfd_send_signal is in sigwait.c (its siginfo) */
SG_PASSTHROUGH(sys_pidfd_open, SYS_pidfd_open)
SG_PASSTHROUGH(sys_pidfd_getfd, SYS_pidfd_getfd)

/* --- time with 64-bit time_t (x86_64, x32, and the i386 *_time64 rows) ---- */
SG_PASSTHROUGH(sys_clock_gettime, SYS_clock_gettime)
SG_PASSTHROUGH(sys_clock_getres, SYS_clock_getres)
/* nanosleep, clock_nanosleep: time.c (restart block) */
SG_PASSTHROUGH(sys_gettimeofday, SYS_gettimeofday)
SG_PASSTHROUGH(sys_time, SYS_time)

/* --- more of the same, mostly x86_64/x32 (the i386 forms of these
 * structures differ and need compat handlers) ------------------------------ */
/* wait4: wait.c (a traced child's own syscall stops are not the guest's) */
SG_PASSTHROUGH(sys_getrusage, SYS_getrusage)
SG_PASSTHROUGH(sys_sysinfo, SYS_sysinfo)
SG_PASSTHROUGH(sys_times, SYS_times)
SG_PASSTHROUGH(sys_alarm, SYS_alarm)
SG_PASSTHROUGH_INTERRUPTED_AS(sys_pause, SYS_pause, -SG_ERESTARTNOHAND)
SG_PASSTHROUGH(sys_sync, SYS_sync)
SG_PASSTHROUGH(sys_syncfs, SYS_syncfs)
SG_PASSTHROUGH(sys_personality, SYS_personality)
SG_PASSTHROUGH(sys_getcpu, SYS_getcpu)
SG_PASSTHROUGH(sys_sched_setaffinity, SYS_sched_setaffinity)
SG_PASSTHROUGH(sys_eventfd2, SYS_eventfd2)
SG_PASSTHROUGH(sys_epoll_create1, SYS_epoll_create1)
SG_PASSTHROUGH(sys_memfd_create, SYS_memfd_create)
SG_PASSTHROUGH(sys_fallocate, SYS_fallocate)
SG_PASSTHROUGH(sys_fadvise64, SYS_fadvise64)
SG_PASSTHROUGH(sys_sendfile64, SYS_sendfile)
SG_PASSTHROUGH(sys_utimensat, SYS_utimensat)
/* 32-bit ids (i386 *32 rows share these entry points) */
SG_PASSTHROUGH(sys_setuid, SYS_setuid)
SG_PASSTHROUGH(sys_setgid, SYS_setgid)
SG_PASSTHROUGH(sys_setresuid, SYS_setresuid)
SG_PASSTHROUGH(sys_setresgid, SYS_setresgid)
SG_PASSTHROUGH(sys_chown, SYS_chown)
SG_PASSTHROUGH(sys_lchown, SYS_lchown)
SG_PASSTHROUGH(sys_fchown, SYS_fchown)
SG_PASSTHROUGH(sys_fchownat, SYS_fchownat)

/* --- memory locks of the whole process (msync, mlock, munlock, madvise,
 * mincore of a range: memory.c, guest ranges only) ------------------------- */
SG_PASSTHROUGH(sys_mlockall, SYS_mlockall)
SG_PASSTHROUGH(sys_munlockall, SYS_munlockall)

/* --- administration: the host kernel decides by the caller's privileges
 * (a root user in a user namespace may mount, set its namespace's host
 * name, ...), as it would for the native program. No layout differs:
 * mount's data is at most a page the kernel copies as far as it can, a
 * file handle is { u32 bytes; int type; bytes } in every ABI. -------- */
SG_PASSTHROUGH(sys_mount, SYS_mount)
SG_PASSTHROUGH(sys_umount2, SYS_umount2)
SG_PASSTHROUGH(sys_umount, SYS_umount2)
SG_PASSTHROUGH(sys_oldumount, SYS_umount2) /* flags 0 */
SG_PASSTHROUGH(sys_pivot_root, SYS_pivot_root)
SG_PASSTHROUGH(sys_sethostname, SYS_sethostname)
SG_PASSTHROUGH(sys_setdomainname, SYS_setdomainname)
SG_PASSTHROUGH(sys_swapon, SYS_swapon)
SG_PASSTHROUGH(sys_swapoff, SYS_swapoff)
SG_PASSTHROUGH(sys_acct, SYS_acct)
SG_PASSTHROUGH(sys_vhangup, SYS_vhangup)
SG_PASSTHROUGH(sys_name_to_handle_at, SYS_name_to_handle_at)
SG_PASSTHROUGH(sys_open_by_handle_at, SYS_open_by_handle_at)
SG_PASSTHROUGH(compat_sys_open_by_handle_at, SYS_open_by_handle_at)

/* --- more paths ----------------------------------------------------------- */
SG_PASSTHROUGH(sys_chroot, SYS_chroot)
SG_PASSTHROUGH(sys_mknod, SYS_mknod)
SG_PASSTHROUGH(sys_mknodat, SYS_mknodat)
SG_PASSTHROUGH(sys_linkat, SYS_linkat)
SG_PASSTHROUGH(sys_symlinkat, SYS_symlinkat)
/* struct utimbuf / timeval[2] of kernel longs: x86_64 and x32 alike */
SG_PASSTHROUGH(sys_utime, SYS_utime)
SG_PASSTHROUGH(sys_utimes, SYS_utimes)
SG_PASSTHROUGH(sys_futimesat, SYS_futimesat)
/* struct statfs of kernel longs (120 bytes): x86_64 and x32 alike */
SG_PASSTHROUGH(sys_statfs, SYS_statfs)
SG_PASSTHROUGH(sys_fstatfs, SYS_fstatfs)

/* --- extended attributes ------------------------------------------------------ */
SG_PASSTHROUGH(sys_setxattr, SYS_setxattr)
SG_PASSTHROUGH(sys_lsetxattr, SYS_lsetxattr)
SG_PASSTHROUGH(sys_fsetxattr, SYS_fsetxattr)
SG_PASSTHROUGH(sys_getxattr, SYS_getxattr)
SG_PASSTHROUGH(sys_lgetxattr, SYS_lgetxattr)
SG_PASSTHROUGH(sys_fgetxattr, SYS_fgetxattr)
SG_PASSTHROUGH(sys_listxattr, SYS_listxattr)
SG_PASSTHROUGH(sys_llistxattr, SYS_llistxattr)
SG_PASSTHROUGH(sys_flistxattr, SYS_flistxattr)
SG_PASSTHROUGH(sys_removexattr, SYS_removexattr)
SG_PASSTHROUGH(sys_lremovexattr, SYS_lremovexattr)
SG_PASSTHROUGH(sys_fremovexattr, SYS_fremovexattr)

/* --- descriptors of every kind: struct epoll_event is packed (12 bytes) in
 * all three ABIs; inotify, eventfd, timerfd, signalfd carry no pointers of
 * their own ----------------------------------------------------------------- */
SG_PASSTHROUGH(sys_epoll_create, SYS_epoll_create)
SG_PASSTHROUGH(sys_epoll_ctl, SYS_epoll_ctl)
SG_PASSTHROUGH_INTERRUPTED_AS(sys_epoll_wait, SYS_epoll_wait, -EINTR)
/* epoll_pwait, epoll_pwait2: the guest waits with the call's mask
 * (sc_wait_mask_begin); interrupted, their code is -EINTR itself */
static long epoll_pwait_masked(struct sg_thread *t, const uint64_t *a, long nr,
			       const uint32_t *spec, unsigned nargs)
{
	struct sc_wait_mask w;

	if (sc_wait_mask_begin(t, a[4], a[5], &w))
		return sc_wait_mask_end(t, &w, -EINTR);
	return sc_wait_mask_end(t, &w,
				sc_interrupted_as(sc_passthrough(t, a, nr, spec, nargs), -EINTR));
}

SG_SYSCALL_DEFINE(sys_epoll_pwait)
{
	static const uint32_t spec[] = { SG_ARGS_sys_epoll_pwait };

	return epoll_pwait_masked(t, a, SYS_epoll_pwait, spec, ARRAY_SIZE(spec));
}

SG_SYSCALL_DEFINE(sys_epoll_pwait2)
{
	static const uint32_t spec[] = { SG_ARGS_sys_epoll_pwait2 };

	return epoll_pwait_masked(t, a, SYS_epoll_pwait2, spec, ARRAY_SIZE(spec));
}
SG_PASSTHROUGH(sys_inotify_init, SYS_inotify_init)
SG_PASSTHROUGH(sys_inotify_init1, SYS_inotify_init1)
SG_PASSTHROUGH(sys_inotify_add_watch, SYS_inotify_add_watch)
SG_PASSTHROUGH(sys_inotify_rm_watch, SYS_inotify_rm_watch)
SG_PASSTHROUGH(sys_eventfd, SYS_eventfd)
SG_PASSTHROUGH(sys_timerfd_create, SYS_timerfd_create)
SG_PASSTHROUGH(sys_timerfd_settime, SYS_timerfd_settime)
SG_PASSTHROUGH(sys_timerfd_gettime, SYS_timerfd_gettime)
/* a sigset of 64 bits is the same bytes in the compat ABIs */
SG_PASSTHROUGH(sys_signalfd, SYS_signalfd)
SG_PASSTHROUGH(sys_signalfd4, SYS_signalfd4)
SG_PASSTHROUGH(compat_sys_signalfd, SYS_signalfd)
SG_PASSTHROUGH(compat_sys_signalfd4, SYS_signalfd4)

/* --- data movement between descriptors (loff_t is 64-bit everywhere) ------- */
SG_PASSTHROUGH(sys_splice, SYS_splice)
SG_PASSTHROUGH(sys_tee, SYS_tee)
SG_PASSTHROUGH(sys_copy_file_range, SYS_copy_file_range)
SG_PASSTHROUGH(sys_sync_file_range, SYS_sync_file_range)
SG_PASSTHROUGH(sys_readahead, SYS_readahead)

/* --- scheduling and priorities: struct sched_param is one int,
 * struct sched_attr fixed-width ------------------------------------------------ */
SG_PASSTHROUGH(sys_getpriority, SYS_getpriority)
SG_PASSTHROUGH(sys_setpriority, SYS_setpriority)
SG_PASSTHROUGH(sys_sched_setparam, SYS_sched_setparam)
SG_PASSTHROUGH(sys_sched_getparam, SYS_sched_getparam)
SG_PASSTHROUGH(sys_sched_setscheduler, SYS_sched_setscheduler)
SG_PASSTHROUGH(sys_sched_getscheduler, SYS_sched_getscheduler)
SG_PASSTHROUGH(sys_sched_get_priority_max, SYS_sched_get_priority_max)
SG_PASSTHROUGH(sys_sched_get_priority_min, SYS_sched_get_priority_min)
SG_PASSTHROUGH(sys_sched_rr_get_interval, SYS_sched_rr_get_interval)
SG_PASSTHROUGH(sys_sched_setattr, SYS_sched_setattr)
SG_PASSTHROUGH(sys_sched_getattr, SYS_sched_getattr)
SG_PASSTHROUGH(sys_ioprio_set, SYS_ioprio_set)
SG_PASSTHROUGH(sys_ioprio_get, SYS_ioprio_get)
SG_PASSTHROUGH(sys_membarrier, SYS_membarrier)

/* --- ids, capabilities, namespaces (the guest process is sysgate's) --------- */
SG_PASSTHROUGH(sys_setreuid, SYS_setreuid)
SG_PASSTHROUGH(sys_setregid, SYS_setregid)
SG_PASSTHROUGH(sys_setfsuid, SYS_setfsuid)
SG_PASSTHROUGH(sys_setfsgid, SYS_setfsgid)
SG_PASSTHROUGH(sys_getgroups, SYS_getgroups)
SG_PASSTHROUGH(sys_setgroups, SYS_setgroups)
SG_PASSTHROUGH(sys_capget, SYS_capget)
SG_PASSTHROUGH(sys_capset, SYS_capset)
SG_PASSTHROUGH(sys_unshare, SYS_unshare)
SG_PASSTHROUGH(sys_setns, SYS_setns)
SG_PASSTHROUGH(sys_landlock_create_ruleset, SYS_landlock_create_ruleset)
SG_PASSTHROUGH(sys_landlock_add_rule, SYS_landlock_add_rule)
SG_PASSTHROUGH(sys_landlock_restrict_self, SYS_landlock_restrict_self)
SG_PASSTHROUGH(sys_add_key, SYS_add_key)
SG_PASSTHROUGH(sys_request_key, SYS_request_key)

/* --- timers and message queues with 64-bit time (x86_64, x32 and the
 * i386 *_time64 rows): itimerval/itimerspec of kernel longs, 32 bytes;
 * struct mq_attr 64 bytes; struct sigevent 64 bytes ------------------------ */
SG_PASSTHROUGH(sys_getitimer, SYS_getitimer)
SG_PASSTHROUGH(sys_setitimer, SYS_setitimer)
SG_PASSTHROUGH(sys_timer_settime, SYS_timer_settime)
SG_PASSTHROUGH(sys_timer_gettime, SYS_timer_gettime)
SG_PASSTHROUGH(sys_timer_getoverrun, SYS_timer_getoverrun)
SG_PASSTHROUGH(sys_timer_delete, SYS_timer_delete)
SG_PASSTHROUGH(sys_mq_open, SYS_mq_open)
SG_PASSTHROUGH(sys_mq_unlink, SYS_mq_unlink)
SG_PASSTHROUGH(sys_mq_timedsend, SYS_mq_timedsend)
SG_PASSTHROUGH(sys_mq_timedreceive, SYS_mq_timedreceive)
SG_PASSTHROUGH(sys_mq_notify, SYS_mq_notify)
SG_PASSTHROUGH(sys_mq_getsetattr, SYS_mq_getsetattr)
/* i386 epoll_pwait2: a 64-bit timespec and a sigset of the same bytes */
SG_SYSCALL_DEFINE(compat_sys_epoll_pwait2)
{
	static const uint32_t spec[] = { SG_ARGS_compat_sys_epoll_pwait2 };

	return epoll_pwait_masked(t, a, SYS_epoll_pwait2, spec, ARRAY_SIZE(spec));
}
