/* Build-time reference, never linked: the kernel's guest-visible structures
 * as the real uapi headers lay them out for the ABI this is compiled for
 * (-m32 or -mx32, `-S` only). See tools/layout_ref_gen.sh. */
#include <stddef.h>
#include <asm/stat.h>
#include <asm/ldt.h>
#include <asm/signal.h>
#include <linux/fcntl.h>
#include <linux/resource.h>
#include <linux/time_types.h>
#include <linux/uio.h>
#include <asm/statfs.h>
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
#include <linux/filter.h>
#include <linux/in.h>
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
	/* --- file system --- */
#ifdef __i386__
	SIZE(OLDSTAT, struct __old_kernel_stat);
	OFF(OLDSTAT, struct __old_kernel_stat, st_ino);
	OFF(OLDSTAT, struct __old_kernel_stat, st_mode);
	OFF(OLDSTAT, struct __old_kernel_stat, st_uid);
	OFF(OLDSTAT, struct __old_kernel_stat, st_rdev);
	OFF(OLDSTAT, struct __old_kernel_stat, st_size);
	OFF(OLDSTAT, struct __old_kernel_stat, st_atime);
	OFF(OLDSTAT, struct __old_kernel_stat, st_ctime);
#endif
	SIZE(STATFS, struct statfs);
	OFF(STATFS, struct statfs, f_bsize);
	OFF(STATFS, struct statfs, f_blocks);
	OFF(STATFS, struct statfs, f_files);
	OFF(STATFS, struct statfs, f_fsid);
	OFF(STATFS, struct statfs, f_namelen);
	OFF(STATFS, struct statfs, f_frsize);
	OFF(STATFS, struct statfs, f_flags);
	SIZE(STATFS64, struct statfs64);
	OFF(STATFS64, struct statfs64, f_blocks);
	OFF(STATFS64, struct statfs64, f_bavail);
	OFF(STATFS64, struct statfs64, f_ffree);
	OFF(STATFS64, struct statfs64, f_fsid);
	OFF(STATFS64, struct statfs64, f_namelen);
	OFF(STATFS64, struct statfs64, f_flags);
	SIZE(UTIMBUF, struct utimbuf);
	OFF(UTIMBUF, struct utimbuf, modtime);
	/* --- quotas --- */
	SIZE(IF_DQBLK, struct if_dqblk);
	OFF(IF_DQBLK, struct if_dqblk, dqb_valid);
	SIZE(IF_NEXTDQBLK, struct if_nextdqblk);
	SIZE(IF_DQINFO, struct if_dqinfo);
	SIZE(FS_DISK_QUOTA, struct fs_disk_quota);
	SIZE(FS_QUOTA_STATV, struct fs_quota_statv);
	SIZE(FS_QUOTA_STAT, struct fs_quota_stat);
	OFF(FS_QUOTA_STAT, struct fs_quota_stat, qs_flags);
	OFF(FS_QUOTA_STAT, struct fs_quota_stat, qs_uquota);
	OFF(FS_QUOTA_STAT, struct fs_quota_stat, qs_gquota);
	OFF(FS_QUOTA_STAT, struct fs_quota_stat, qs_incoredqs);
	OFF(FS_QUOTA_STAT, struct fs_quota_stat, qs_btimelimit);
	OFF(FS_QUOTA_STAT, struct fs_quota_stat, qs_rtbtimelimit);
	OFF(FS_QUOTA_STAT, struct fs_quota_stat, qs_bwarnlimit);
	OFF(FS_QUOTA_STAT, struct fs_quota_stat, qs_iwarnlimit);
	EMIT(FS_QUOTA_STAT_nextents, offsetof(struct fs_quota_stat, qs_uquota.qfs_nextents));
	/* --- time, resources --- */
	SIZE(ITIMERVAL, struct __kernel_old_itimerval);
	SIZE(ITIMERSPEC, struct __kernel_itimerspec);
	SIZE(SIGEVENT, struct sigevent);
	OFF(SIGEVENT, struct sigevent, sigev_signo);
	OFF(SIGEVENT, struct sigevent, sigev_notify);
	EMIT(SIGEVENT_tid, offsetof(struct sigevent, _sigev_un._tid));
	EMIT(SIGEVENT_attribute,
	     offsetof(struct sigevent, _sigev_un._sigev_thread._attribute));
	SIZE(MQ_ATTR, struct mq_attr);
	OFF(MQ_ATTR, struct mq_attr, mq_msgsize);
	OFF(MQ_ATTR, struct mq_attr, mq_curmsgs);
	SIZE(RUSAGE, struct rusage);
	OFF(RUSAGE, struct rusage, ru_stime);
	OFF(RUSAGE, struct rusage, ru_maxrss);
	OFF(RUSAGE, struct rusage, ru_nivcsw);
	SIZE(SYSINFO, struct sysinfo);
	OFF(SYSINFO, struct sysinfo, loads);
	OFF(SYSINFO, struct sysinfo, totalram);
	OFF(SYSINFO, struct sysinfo, freeswap);
	OFF(SYSINFO, struct sysinfo, procs);
	OFF(SYSINFO, struct sysinfo, totalhigh);
	OFF(SYSINFO, struct sysinfo, mem_unit);
	SIZE(TMS, struct tms);
	OFF(TMS, struct tms, tms_cstime);
	/* --- sockets --- */
	SIZE(SOCK_FPROG, struct sock_fprog);
	OFF(SOCK_FPROG, struct sock_fprog, filter);
	SIZE(GROUP_REQ, struct group_req);
	OFF(GROUP_REQ, struct group_req, gr_group);
	SIZE(GROUP_SOURCE_REQ, struct group_source_req);
	OFF(GROUP_SOURCE_REQ, struct group_source_req, gsr_source);
	/* --- System V IPC (the IPC_64 forms) --- */
	SIZE(IPC64_PERM, struct ipc64_perm);
	OFF(IPC64_PERM, struct ipc64_perm, mode);
	OFF(IPC64_PERM, struct ipc64_perm, seq);
	EMIT(IPC_64, IPC_64);
	SIZE(SEMID64_DS, struct semid64_ds);
	OFF(SEMID64_DS, struct semid64_ds, sem_otime);
	OFF(SEMID64_DS, struct semid64_ds, sem_ctime);
	OFF(SEMID64_DS, struct semid64_ds, sem_nsems);
	SIZE(SHMID64_DS, struct shmid64_ds);
	OFF(SHMID64_DS, struct shmid64_ds, shm_segsz);
	OFF(SHMID64_DS, struct shmid64_ds, shm_atime);
	OFF(SHMID64_DS, struct shmid64_ds, shm_ctime);
	OFF(SHMID64_DS, struct shmid64_ds, shm_cpid);
	OFF(SHMID64_DS, struct shmid64_ds, shm_nattch);
	SIZE(MSQID64_DS, struct msqid64_ds);
	OFF(MSQID64_DS, struct msqid64_ds, msg_stime);
	OFF(MSQID64_DS, struct msqid64_ds, msg_cbytes);
	OFF(MSQID64_DS, struct msqid64_ds, msg_qbytes);
	OFF(MSQID64_DS, struct msqid64_ds, msg_lspid);
	SIZE(SHMINFO64, struct shminfo64);
	OFF(SHMINFO64, struct shminfo64, shmall);
}
