/* Build-time reference for the unit tests, never linked: what the
 * translation assumes beyond the generated layouts (layouts.in), from the
 * real uapi headers laid out for the ABI this is compiled for (-m32 or
 * -mx32, `-S` only; tools/layout_ref_gen.sh): the structs i386 and x32
 * pass to the host unchanged, and the signal-frame parts the trace's
 * sigreturn offsets are made of. */
#include <stddef.h>
#include <asm/stat.h>
#include <asm/ldt.h>
#include <asm/signal.h>
#include <linux/fcntl.h>
#include <linux/resource.h>
#include <linux/time_types.h>
#include <asm/sembuf.h>
#include <linux/ipc.h>
#include <asm/shmbuf.h>
#include <asm/msgbuf.h>
#include <asm/siginfo.h>
#include <asm/sigcontext.h>
#include <asm/ucontext.h>
#include <linux/sysinfo.h>
#include <linux/mqueue.h>
#include <linux/times.h>
#include <linux/utime.h>
#include <linux/quota.h>
#include <linux/dqblk_xfs.h>

#define EMIT(name, val) \
	__asm__ volatile(".ascii \"@@ " #name " %c0\\n\"" : : "i"((long)(val)))
#define SIZE(name, type) EMIT(name##_SIZE, sizeof(type))
#define OFF(name, type, field) EMIT(name##_##field, offsetof(type, field))

void layout_ref(void);
void layout_ref(void)
{
	/* signal frames, for the trace's sigreturn masks (trace/sigframe.h) */
	SIZE(SIGCONTEXT_32, struct sigcontext_32);
	OFF(SIGCONTEXT_32, struct sigcontext_32, oldmask);
	SIZE(FPSTATE_32, struct _fpstate_32);
	SIZE(SIGINFO, siginfo_t);
	OFF(UCONTEXT, struct ucontext, uc_sigmask);
	/* --- what x32 (and i386) pass to the host unchanged --- */
	SIZE(STAT, struct stat);
	OFF(STAT, struct stat, st_ino);
	OFF(STAT, struct stat, st_mode);
	OFF(STAT, struct stat, st_nlink);
	OFF(STAT, struct stat, st_uid);
	OFF(STAT, struct stat, st_rdev);
	OFF(STAT, struct stat, st_size);
	OFF(STAT, struct stat, st_blocks);
	OFF(STAT, struct stat, st_atime);
	OFF(STAT, struct stat, st_ctime_nsec);
	SIZE(OLD_TIMEVAL, struct __kernel_old_timeval);
	SIZE(TIMESPEC64, struct __kernel_timespec);
	SIZE(RLIMIT, struct rlimit);
	SIZE(RLIMIT64, struct rlimit64);
	SIZE(USER_DESC, struct user_desc);
	SIZE(FLOCK, struct flock);
	OFF(FLOCK, struct flock, l_start);
	OFF(FLOCK, struct flock, l_pid);
	/* --- file system --- */
	SIZE(UTIMBUF, struct utimbuf);
	/* --- quotas --- */
	SIZE(IF_DQBLK, struct if_dqblk);
	SIZE(IF_NEXTDQBLK, struct if_nextdqblk);
	SIZE(IF_DQINFO, struct if_dqinfo);
	SIZE(FS_DISK_QUOTA, struct fs_disk_quota);
	SIZE(FS_QUOTA_STATV, struct fs_quota_statv);
	SIZE(FS_QUOTA_STAT, struct fs_quota_stat);
	OFF(FS_QUOTA_STAT, struct fs_quota_stat, qs_iwarnlimit);
	/* --- time, resources --- */
	SIZE(ITIMERVAL, struct __kernel_old_itimerval);
	SIZE(ITIMERSPEC, struct __kernel_itimerspec);
	SIZE(MQ_ATTR, struct mq_attr);
	SIZE(RUSAGE, struct rusage);
	OFF(RUSAGE, struct rusage, ru_nivcsw);
	SIZE(SYSINFO, struct sysinfo);
	OFF(SYSINFO, struct sysinfo, mem_unit);
	SIZE(TMS, struct tms);
	/* --- System V IPC (the IPC_64 forms) --- */
	SIZE(SEMID64_DS, struct semid64_ds);
	SIZE(SHMID64_DS, struct shmid64_ds);
	OFF(SHMID64_DS, struct shmid64_ds, shm_nattch);
	SIZE(MSQID64_DS, struct msqid64_ds);
	OFF(MSQID64_DS, struct msqid64_ds, msg_qbytes);
}
