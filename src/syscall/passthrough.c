/* Calls that mean the same thing to the host kernel as to the guest: the
 * arguments only need their guest pointers checked (and paths copied).
 * One line per entry point; the PA() list says what each argument is
 * (internal.h). Entry points shared by several ABIs appear once.
 */
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/times.h>
#include <sys/utsname.h>
#include <time.h>

#include "syscall/internal.h"

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
SG_PASSTHROUGH(sys_lseek, SYS_lseek, PA(PA_VAL, 0), PA(PA_VAL, 0),
	       PA(PA_VAL, 0))
SG_PASSTHROUGH(compat_sys_lseek, SYS_lseek, PA(PA_VAL, 0), PA(PA_S32, 0),
	       PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_fsync, SYS_fsync, PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_fdatasync, SYS_fdatasync, PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_ftruncate, SYS_ftruncate, PA(PA_VAL, 0), PA(PA_VAL, 0))
SG_PASSTHROUGH(compat_sys_ftruncate, SYS_ftruncate, PA(PA_VAL, 0),
	       PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_getdents64, SYS_getdents64, PA(PA_VAL, 0), PA(PA_OUT, 2),
	       PA(PA_VAL, 0))
/* linux_dirent has kernel longs: x86_64 and x32 alike (i386 differs) */
SG_PASSTHROUGH(sys_getdents, SYS_getdents, PA(PA_VAL, 0), PA(PA_OUT, 2),
	       PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_fchdir, SYS_fchdir, PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_fchmod, SYS_fchmod, PA(PA_VAL, 0), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_flock, SYS_flock, PA(PA_VAL, 0), PA(PA_VAL, 0))
/* ioctl and fcntl carry pointers whose size depends on the command; the
 * common terminal and descriptor commands have the same layout in all
 * three ABIs, so for now they go through unchanged. */
SG_PASSTHROUGH(sys_ioctl, SYS_ioctl, PA(PA_VAL, 0), PA(PA_VAL, 0),
	       PA(PA_VAL, 0))
SG_PASSTHROUGH(compat_sys_ioctl, SYS_ioctl, PA(PA_VAL, 0), PA(PA_VAL, 0),
	       PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_fcntl, SYS_fcntl, PA(PA_VAL, 0), PA(PA_VAL, 0),
	       PA(PA_VAL, 0))

/* --- paths -------------------------------------------------------------- */
/* open/openat: fs.c (/proc/self/maps is the guest's) */
SG_PASSTHROUGH(sys_creat, SYS_creat, PA(PA_PATH, 0), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_access, SYS_access, PA(PA_PATH, 0), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_faccessat, SYS_faccessat, PA(PA_VAL, 0), PA(PA_PATH, 0),
	       PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_faccessat2, SYS_faccessat2, PA(PA_VAL, 0), PA(PA_PATH, 0),
	       PA(PA_VAL, 0), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_chdir, SYS_chdir, PA(PA_PATH, 0))
SG_PASSTHROUGH(sys_getcwd, SYS_getcwd, PA(PA_OUT, 1), PA(PA_VAL, 0))
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
SG_PASSTHROUGH(sys_symlink, SYS_symlink, PA(PA_PATH, 0), PA(PA_PATH, 0))
SG_PASSTHROUGH(sys_chmod, SYS_chmod, PA(PA_PATH, 0), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_fchmodat, SYS_fchmodat, PA(PA_VAL, 0), PA(PA_PATH, 0),
	       PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_truncate, SYS_truncate, PA(PA_PATH, 0), PA(PA_VAL, 0))
SG_PASSTHROUGH(compat_sys_truncate, SYS_truncate, PA(PA_PATH, 0),
	       PA(PA_S32, 0))

/* --- stat: x86_64 and x32 share struct stat; struct statx is one layout -- */
SG_PASSTHROUGH(sys_newstat, SYS_stat, PA(PA_PATH, 0),
	       PA(PA_OUTN, sizeof(struct stat)))
SG_PASSTHROUGH(sys_newlstat, SYS_lstat, PA(PA_PATH, 0),
	       PA(PA_OUTN, sizeof(struct stat)))
SG_PASSTHROUGH(sys_newfstat, SYS_fstat, PA(PA_VAL, 0),
	       PA(PA_OUTN, sizeof(struct stat)))
SG_PASSTHROUGH(sys_newfstatat, SYS_newfstatat, PA(PA_VAL, 0), PA(PA_PATH, 0),
	       PA(PA_OUTN, sizeof(struct stat)), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_statx, SYS_statx, PA(PA_VAL, 0), PA(PA_PATH, 0),
	       PA(PA_VAL, 0), PA(PA_VAL, 0), PA(PA_OUTN, 256))

/* --- misc ------------------------------------------------------------------ */
SG_PASSTHROUGH(sys_getrandom, SYS_getrandom, PA(PA_OUT, 1), PA(PA_VAL, 0),
	       PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_sched_yield, SYS_sched_yield)
SG_PASSTHROUGH(sys_sched_getaffinity, SYS_sched_getaffinity, PA(PA_VAL, 0),
	       PA(PA_VAL, 0), PA(PA_OUT, 1))
/* rlimit64 and the 64-bit struct rlimit (x86_64 and x32: kernel longs) */
SG_PASSTHROUGH(sys_prlimit64, SYS_prlimit64, PA(PA_VAL, 0), PA(PA_VAL, 0),
	       PA(PA_INN, 16), PA(PA_OUTN, 16))
SG_PASSTHROUGH(sys_getrlimit, SYS_getrlimit, PA(PA_VAL, 0), PA(PA_OUTN, 16))
SG_PASSTHROUGH(sys_setrlimit, SYS_setrlimit, PA(PA_VAL, 0), PA(PA_INN, 16))
/* Guest threads are host threads and addresses are host addresses. */
SG_PASSTHROUGH(sys_kill, SYS_kill, PA(PA_VAL, 0), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_tkill, SYS_tkill, PA(PA_VAL, 0), PA(PA_VAL, 0))
SG_PASSTHROUGH(sys_tgkill, SYS_tgkill, PA(PA_VAL, 0), PA(PA_VAL, 0),
	       PA(PA_VAL, 0))

/* --- time with 64-bit time_t (x86_64, x32, and the i386 *_time64 rows) ---- */
SG_PASSTHROUGH(sys_clock_gettime, SYS_clock_gettime, PA(PA_VAL, 0),
	       PA(PA_OUTN, 16))
SG_PASSTHROUGH(sys_clock_getres, SYS_clock_getres, PA(PA_VAL, 0),
	       PA(PA_OUTN, 16))
SG_PASSTHROUGH(sys_clock_nanosleep, SYS_clock_nanosleep, PA(PA_VAL, 0),
	       PA(PA_VAL, 0), PA(PA_INN, 16), PA(PA_OUTN, 16))
SG_PASSTHROUGH(sys_nanosleep, SYS_nanosleep, PA(PA_INN, 16), PA(PA_OUTN, 16))
SG_PASSTHROUGH(sys_gettimeofday, SYS_gettimeofday, PA(PA_OUTN, 16),
	       PA(PA_OUTN, 8))
SG_PASSTHROUGH(sys_time, SYS_time, PA(PA_OUTN, 8))

/* --- more of the same, mostly x86_64/x32 (the i386 forms of these
 * structures differ and need compat handlers) ------------------------------ */
SG_PASSTHROUGH(sys_wait4, SYS_wait4, PA(PA_VAL, 0), PA(PA_OUTN, sizeof(int)),
	       PA(PA_VAL, 0), PA(PA_OUTN, sizeof(struct rusage)))
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
SG_PASSTHROUGH(sys_close_range, SYS_close_range, PA(PA_VAL, 0), PA(PA_VAL, 0),
	       PA(PA_VAL, 0))
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
