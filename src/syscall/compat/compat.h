/* Guest structures of the 32-bit ABIs (i386; x32 where it shares them) and
 * their converters: get_compat_* reads guest -> host form, put_compat_*
 * fills the guest form from the host one. Sizes and offsets are asserted
 * here from the kernel ABI, and checked again by tests/unit/test_syscall_compat.c
 * against the real headers compiled with -m32 / -mx32.
 */
#ifndef SG_SYSCALL_COMPAT_H
#define SG_SYSCALL_COMPAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <time.h>
#include <sys/time.h>
#include <sys/resource.h>
#include <fcntl.h>

typedef uint32_t compat_uptr_t;
typedef int32_t compat_long_t;
typedef uint32_t compat_ulong_t;
/* i386 aligns 64-bit integers to 4 inside structures */
typedef uint64_t compat_u64 __attribute__((aligned(4)));
typedef int64_t compat_s64 __attribute__((aligned(4)));

#define COMPAT_ASSERT_SIZE(type, n) \
	_Static_assert(sizeof(type) == (n), "size of " #type)
#define COMPAT_ASSERT_OFF(type, field, n) \
	_Static_assert(offsetof(type, field) == (n), #type "." #field)

/* i386 struct stat (oldstat family: stat/lstat/fstat 106-108) */
struct compat_stat {
	uint32_t st_dev;
	uint32_t st_ino;
	uint16_t st_mode;
	uint16_t st_nlink;
	uint16_t st_uid;
	uint16_t st_gid;
	uint32_t st_rdev;
	uint32_t st_size;
	uint32_t st_blksize;
	uint32_t st_blocks;
	uint32_t st_atime_;
	uint32_t st_atime_nsec;
	uint32_t st_mtime_;
	uint32_t st_mtime_nsec;
	uint32_t st_ctime_;
	uint32_t st_ctime_nsec;
	uint32_t unused4;
	uint32_t unused5;
};
COMPAT_ASSERT_SIZE(struct compat_stat, 64);
COMPAT_ASSERT_OFF(struct compat_stat, st_mode, 8);
COMPAT_ASSERT_OFF(struct compat_stat, st_rdev, 16);
COMPAT_ASSERT_OFF(struct compat_stat, st_atime_, 32);
COMPAT_ASSERT_OFF(struct compat_stat, st_ctime_nsec, 52);

/* i386 struct stat64 (stat64/lstat64/fstat64/fstatat64) */
struct compat_stat64 {
	compat_u64 st_dev;
	uint8_t pad0[4];
	uint32_t st_ino32;  /* __st_ino */
	uint32_t st_mode;
	uint32_t st_nlink;
	uint32_t st_uid;
	uint32_t st_gid;
	compat_u64 st_rdev;
	uint8_t pad3[4];
	compat_s64 st_size;
	uint32_t st_blksize;
	compat_u64 st_blocks;
	uint32_t st_atime_;
	uint32_t st_atime_nsec;
	uint32_t st_mtime_;
	uint32_t st_mtime_nsec;
	uint32_t st_ctime_;
	uint32_t st_ctime_nsec;
	compat_u64 st_ino;
};
COMPAT_ASSERT_SIZE(struct compat_stat64, 96);
COMPAT_ASSERT_OFF(struct compat_stat64, st_ino32, 12);
COMPAT_ASSERT_OFF(struct compat_stat64, st_rdev, 32);
COMPAT_ASSERT_OFF(struct compat_stat64, st_size, 44);
COMPAT_ASSERT_OFF(struct compat_stat64, st_blocks, 56);
COMPAT_ASSERT_OFF(struct compat_stat64, st_ino, 88);

/* old_timespec32 / old_timeval32 (i386 time32 calls) */
struct compat_timespec {
	int32_t tv_sec;
	int32_t tv_nsec;
};
COMPAT_ASSERT_SIZE(struct compat_timespec, 8);

struct compat_timeval {
	int32_t tv_sec;
	int32_t tv_usec;
};
COMPAT_ASSERT_SIZE(struct compat_timeval, 8);

/* i386 struct rlimit (getrlimit/ugetrlimit/setrlimit) */
struct compat_rlimit {
	compat_ulong_t rlim_cur;
	compat_ulong_t rlim_max;
};
COMPAT_ASSERT_SIZE(struct compat_rlimit, 8);
#define COMPAT_RLIM_INFINITY 0xffffffffu
#define COMPAT_RLIM_OLD_INFINITY 0x7fffffffu

/* struct iovec of i386 and x32 */
struct compat_iovec {
	compat_uptr_t iov_base;
	uint32_t iov_len;
};
COMPAT_ASSERT_SIZE(struct compat_iovec, 8);

/* rt_sigaction's struct sigaction for i386 and x32 (kernel order) */
struct compat_sigaction {
	compat_uptr_t handler;
	compat_ulong_t flags;
	compat_uptr_t restorer;
	uint32_t mask[2];
};
COMPAT_ASSERT_SIZE(struct compat_sigaction, 20);

/* the same for x86_64 */
struct sc_sigaction64 {
	uint64_t handler;
	uint64_t flags;
	uint64_t restorer;
	uint64_t mask;
};
COMPAT_ASSERT_SIZE(struct sc_sigaction64, 32);

/* stack_t of i386 and x32 */
struct compat_stack {
	compat_uptr_t ss_sp;
	int32_t ss_flags;
	uint32_t ss_size;
};
COMPAT_ASSERT_SIZE(struct compat_stack, 12);

struct sc_stack64 {
	uint64_t ss_sp;
	int32_t ss_flags;
	uint32_t pad;
	uint64_t ss_size;
};
COMPAT_ASSERT_SIZE(struct sc_stack64, 24);

/* i386 old mmap (90): the six arguments in guest memory */
struct compat_mmap_arg {
	uint32_t addr, len, prot, flags, fd, offset;
};
COMPAT_ASSERT_SIZE(struct compat_mmap_arg, 24);

/* i386 struct flock (F_GETLK/F_SETLK/F_SETLKW) and struct flock64
 * (F_GETLK64/..., F_OFD_*) */
struct compat_flock {
	int16_t l_type;
	int16_t l_whence;
	int32_t l_start;
	int32_t l_len;
	int32_t l_pid;
};
COMPAT_ASSERT_SIZE(struct compat_flock, 16);

struct compat_flock64 {
	int16_t l_type;
	int16_t l_whence;
	compat_s64 l_start;
	compat_s64 l_len;
	int32_t l_pid;
};
COMPAT_ASSERT_SIZE(struct compat_flock64, 24);
COMPAT_ASSERT_OFF(struct compat_flock64, l_pid, 20);

/* 16-bit ids of the i386 *16 calls: out-of-range ids read as the
 * overflow id, as the kernel's high2lowuid does. */
#define COMPAT_OVERFLOW_ID 65534u
static inline uint16_t compat_high2low_id(uint32_t id)
{
	return (id & ~0xffffu) ? COMPAT_OVERFLOW_ID : (uint16_t)id;
}

/* 0 or -EOVERFLOW (inode, nlink or size do not fit), as cp_compat_stat. */
int put_compat_stat(struct compat_stat *out, const struct stat *st);
/* Writes every field of struct stat64 the kernel writes (the padding is
 * left as it was, as cp_stat64 leaves it). */
void put_compat_stat64(struct compat_stat64 *out, const struct stat *st);

void get_compat_timespec(struct timespec *ts, const struct compat_timespec *c);
void put_compat_timespec(struct compat_timespec *c, const struct timespec *ts);
void put_compat_timeval(struct compat_timeval *c, const struct timeval *tv);

/* getrlimit (COMPAT_RLIM_INFINITY) and old getrlimit (..._OLD_INFINITY):
 * values above the limit read as that limit. */
void put_compat_rlimit(struct compat_rlimit *c, const struct rlimit *r,
		       uint32_t infinity);
void get_compat_rlimit(struct rlimit *r, const struct compat_rlimit *c);

/* 0 or -EINVAL/-EOVERFLOW as fcntl's compat code answers. */
void get_compat_flock(struct flock *f, const struct compat_flock *c);
int put_compat_flock(struct compat_flock *c, const struct flock *f);
void get_compat_flock64(struct flock *f, const struct compat_flock64 *c);
void put_compat_flock64(struct compat_flock64 *c, const struct flock *f);

/* ==== file system ========================================================= */

/* i386 struct __old_kernel_stat (oldstat family 18, 28, 84) */
struct compat_old_stat {
	uint16_t st_dev;
	uint16_t st_ino;
	uint16_t st_mode;
	uint16_t st_nlink;
	uint16_t st_uid;
	uint16_t st_gid;
	uint16_t st_rdev;
	uint32_t st_size __attribute__((aligned(4)));
	uint32_t st_atime_;
	uint32_t st_mtime_;
	uint32_t st_ctime_;
};
COMPAT_ASSERT_SIZE(struct compat_old_stat, 32);
COMPAT_ASSERT_OFF(struct compat_old_stat, st_size, 16);

/* i386 struct statfs (statfs/fstatfs 99/100) */
struct compat_statfs {
	int32_t f_type;
	int32_t f_bsize;
	int32_t f_blocks;
	int32_t f_bfree;
	int32_t f_bavail;
	int32_t f_files;
	int32_t f_ffree;
	int32_t f_fsid[2];
	int32_t f_namelen;
	int32_t f_frsize;
	int32_t f_flags;
	int32_t f_spare[4];
};
COMPAT_ASSERT_SIZE(struct compat_statfs, 64);
COMPAT_ASSERT_OFF(struct compat_statfs, f_namelen, 36);

/* i386 struct statfs64 (statfs64/fstatfs64 268/269): 64-bit counts
 * aligned to 4, so 84 bytes */
struct compat_statfs64 {
	uint32_t f_type;
	uint32_t f_bsize;
	compat_u64 f_blocks;
	compat_u64 f_bfree;
	compat_u64 f_bavail;
	compat_u64 f_files;
	compat_u64 f_ffree;
	int32_t f_fsid[2];
	uint32_t f_namelen;
	uint32_t f_frsize;
	uint32_t f_flags;
	uint32_t f_spare[4];
};
COMPAT_ASSERT_SIZE(struct compat_statfs64, 84);
COMPAT_ASSERT_OFF(struct compat_statfs64, f_fsid, 48);

/* i386 struct linux_dirent (getdents 141): u32 ino and off; the name is
 * followed by a NUL, padding, and the type in the record's last byte */
struct compat_linux_dirent {
	uint32_t d_ino;
	uint32_t d_off;
	uint16_t d_reclen;
	char d_name[];
};
COMPAT_ASSERT_OFF(struct compat_linux_dirent, d_name, 10);

/* i386 struct old_linux_dirent (readdir 89): one entry per call */
struct compat_old_linux_dirent {
	uint32_t d_ino;
	uint32_t d_offset;
	uint16_t d_namlen;
	char d_name[];
};
COMPAT_ASSERT_OFF(struct compat_old_linux_dirent, d_name, 10);

/* i386 struct utimbuf (utime 30) */
struct compat_utimbuf {
	int32_t actime;
	int32_t modtime;
};
COMPAT_ASSERT_SIZE(struct compat_utimbuf, 8);

/* 0 or -EOVERFLOW (inode or nlink over 16 bits, size over 2^31-1), as
 * cp_old_stat; ids narrowed as high2lowuid, devices as old_encode_dev. */
int put_compat_old_stat(struct compat_old_stat *c, const struct stat *st);

struct statfs;
/* 0 or -EOVERFLOW (a count over 32 bits, as put_compat_statfs). */
int put_compat_statfs(struct compat_statfs *c, const struct statfs *s);
void put_compat_statfs64(struct compat_statfs64 *c, const struct statfs *s);
void get_compat_utimbuf(struct timespec ts[2], const struct compat_utimbuf *c);

/* ==== quotas ============================================================== */

/* i386 struct if_dqblk (Q_GETQUOTA, Q_SETQUOTA): the host's without its
 * trailing padding (u64 aligned to 4), so its first 68 bytes */
#define COMPAT_IF_DQBLK_SIZE 68

/* i386 struct fs_qfilestat and fs_quota_stat (Q_XGETQSTAT): u64 aligned
 * to 4, so the per-type records are 20 bytes, not 24 */
struct compat_fs_qfilestat {
	uint64_t qfs_ino;
	uint64_t qfs_nblks;
	uint32_t qfs_nextents;
} __attribute__((packed, aligned(4)));
COMPAT_ASSERT_SIZE(struct compat_fs_qfilestat, 20);

struct compat_fs_quota_stat {
	int8_t qs_version;
	uint16_t qs_flags;
	int8_t qs_pad;
	struct compat_fs_qfilestat qs_uquota;
	struct compat_fs_qfilestat qs_gquota;
	uint32_t qs_incoredqs;
	int32_t qs_btimelimit;
	int32_t qs_itimelimit;
	int32_t qs_rtbtimelimit;
	uint16_t qs_bwarnlimit;
	uint16_t qs_iwarnlimit;
};
COMPAT_ASSERT_SIZE(struct compat_fs_quota_stat, 68);
COMPAT_ASSERT_OFF(struct compat_fs_quota_stat, qs_uquota, 8);

struct fs_quota_stat;
void put_compat_fs_quota_stat(struct compat_fs_quota_stat *c,
			      const struct fs_quota_stat *h);

/* ==== time ================================================================ */

/* old_itimerspec32 and compat itimerval (i386) */
struct compat_itimerspec {
	struct compat_timespec it_interval;
	struct compat_timespec it_value;
};
COMPAT_ASSERT_SIZE(struct compat_itimerspec, 16);

struct compat_itimerval {
	struct compat_timeval it_interval;
	struct compat_timeval it_value;
};
COMPAT_ASSERT_SIZE(struct compat_itimerval, 16);

void get_compat_timeval(struct timeval *tv, const struct compat_timeval *c);
void get_compat_itimerspec(struct itimerspec *h,
			   const struct compat_itimerspec *c);
void put_compat_itimerspec(struct compat_itimerspec *c,
			   const struct itimerspec *h);
void get_compat_itimerval(struct itimerval *h, const struct compat_itimerval *c);
void put_compat_itimerval(struct compat_itimerval *c, const struct itimerval *h);

/* struct sigevent of i386 and x32: sigev_value is a 4-byte union */
struct compat_sigevent {
	uint32_t sigev_value;
	int32_t sigev_signo;
	int32_t sigev_notify;
	union {
		int32_t pad[13];
		int32_t tid;
		struct {
			compat_uptr_t function;
			compat_uptr_t attribute;
		} thread;
	} un;
};
COMPAT_ASSERT_SIZE(struct compat_sigevent, 64);
COMPAT_ASSERT_OFF(struct compat_sigevent, un, 12);

/* The host's struct sigevent as the kernel reads it (64 bytes). */
struct sc_sigevent64 {
	uint64_t sigev_value;
	int32_t sigev_signo;
	int32_t sigev_notify;
	union {
		int32_t pad[12];
		int32_t tid;
		struct {
			uint64_t function;
			uint64_t attribute;
		} thread;
	} un;
};
COMPAT_ASSERT_SIZE(struct sc_sigevent64, 64);
void get_compat_sigevent(struct sc_sigevent64 *h, const struct compat_sigevent *c);

/* i386 struct mq_attr (compat longs) */
struct compat_mq_attr {
	int32_t mq_flags;
	int32_t mq_maxmsg;
	int32_t mq_msgsize;
	int32_t mq_curmsgs;
	int32_t reserved[4];
};
COMPAT_ASSERT_SIZE(struct compat_mq_attr, 32);
struct sc_mq_attr64 {
	int64_t mq_flags, mq_maxmsg, mq_msgsize, mq_curmsgs, reserved[4];
};
void get_compat_mq_attr(struct sc_mq_attr64 *h, const struct compat_mq_attr *c);
void put_compat_mq_attr(struct compat_mq_attr *c, const struct sc_mq_attr64 *h);

/* ==== select ============================================================== */

/* i386 old select (82): its five arguments in guest memory (the kernel's
 * struct sel_arg_struct) */
struct compat_sel_arg_struct {
	uint32_t n;
	compat_uptr_t inp, outp, exp, tvp;
};
COMPAT_ASSERT_SIZE(struct compat_sel_arg_struct, 20);

/* pselect6's sixth argument (and io_pgetevents'): the signal mask's address
 * and size in kernel longs, i386's compat_sigset_argpack; x86_64 and x32
 * pass sc_sigset_argpack64 (the kernels' local structs: no uapi header) */
struct compat_sigset_argpack {
	compat_uptr_t p;
	compat_ulong_t size;
};
COMPAT_ASSERT_SIZE(struct compat_sigset_argpack, 8);

struct sc_sigset_argpack64 {
	uint64_t p;
	uint64_t size;
};
COMPAT_ASSERT_SIZE(struct sc_sigset_argpack64, 16);

/* ==== resources and system information ==================================== */

/* i386 struct rusage: two timevals and 14 compat longs */
struct compat_rusage {
	struct compat_timeval ru_utime;
	struct compat_timeval ru_stime;
	int32_t ru_long[14]; /* ru_maxrss ... ru_nivcsw */
};
COMPAT_ASSERT_SIZE(struct compat_rusage, 72);

/* i386 struct sysinfo */
struct compat_sysinfo {
	int32_t uptime;
	uint32_t loads[3];
	uint32_t totalram, freeram, sharedram, bufferram, totalswap, freeswap;
	uint16_t procs;
	uint16_t pad;
	uint32_t totalhigh, freehigh;
	uint32_t mem_unit;
	char f[8];
};
COMPAT_ASSERT_SIZE(struct compat_sysinfo, 64);
COMPAT_ASSERT_OFF(struct compat_sysinfo, procs, 40);
COMPAT_ASSERT_OFF(struct compat_sysinfo, mem_unit, 52);

/* i386 struct tms (compat clock_t) */
struct compat_tms {
	int32_t tms_utime, tms_stime, tms_cutime, tms_cstime;
};
COMPAT_ASSERT_SIZE(struct compat_tms, 16);

struct sysinfo;
struct tms;
void put_compat_rusage(struct compat_rusage *c, const struct rusage *r);
/* Scales memory sizes to fit 32 bits (mem_unit grows), as the kernel. */
void put_compat_sysinfo(struct compat_sysinfo *c, const struct sysinfo *s);
void put_compat_tms(struct compat_tms *c, const struct tms *h);

/* ==== sockets ============================================================= */

/* struct msghdr of i386 and x32 */
struct compat_msghdr {
	compat_uptr_t msg_name;
	uint32_t msg_namelen;
	compat_uptr_t msg_iov;
	uint32_t msg_iovlen;
	compat_uptr_t msg_control;
	uint32_t msg_controllen;
	uint32_t msg_flags;
};
COMPAT_ASSERT_SIZE(struct compat_msghdr, 28);
COMPAT_ASSERT_OFF(struct compat_msghdr, msg_control, 16);

struct compat_mmsghdr {
	struct compat_msghdr msg_hdr;
	uint32_t msg_len;
};
COMPAT_ASSERT_SIZE(struct compat_mmsghdr, 32);

/* struct cmsghdr of i386 and x32: 32-bit length, 4-byte alignment */
struct compat_cmsghdr {
	uint32_t cmsg_len;
	int32_t cmsg_level;
	int32_t cmsg_type;
};
COMPAT_ASSERT_SIZE(struct compat_cmsghdr, 12);
#define COMPAT_CMSG_ALIGN(len) (((len) + 3) & ~(size_t)3)
#define HOST_CMSG_ALIGN(len) (((len) + 7) & ~(size_t)7)

/* struct sock_fprog (SO_ATTACH_FILTER) of i386 and x32 */
struct compat_sock_fprog {
	uint16_t len;
	compat_uptr_t filter __attribute__((aligned(4)));
};
COMPAT_ASSERT_SIZE(struct compat_sock_fprog, 8);

/* struct group_req / group_source_req (MCAST_*): sockaddr_storage is
 * 4-byte aligned in i386 and x32, so no padding after the interface */
struct compat_group_req {
	uint32_t gr_interface;
	uint8_t gr_group[128];
} __attribute__((packed, aligned(4)));
COMPAT_ASSERT_SIZE(struct compat_group_req, 132);

struct compat_group_source_req {
	uint32_t gsr_interface;
	uint8_t gsr_group[128];
	uint8_t gsr_source[128];
} __attribute__((packed, aligned(4)));
COMPAT_ASSERT_SIZE(struct compat_group_source_req, 260);

/* SIOCGIFCONF's struct ifconf of i386 and x32, and the size of their
 * struct ifreq: the name and a union whose largest member (struct ifmap)
 * has 32-bit longs, so the first 32 bytes of the host's 40 (name and
 * address at the same offsets). Checked against -m32/-mx32 <net/if.h> by
 * unit.test_syscall_structs. */
struct compat_ifconf {
	int32_t ifc_len;
	compat_uptr_t ifcbuf; /* the kernel's compat name (<net/if.h> has ifc_buf as a macro) */
};
COMPAT_ASSERT_SIZE(struct compat_ifconf, 8);
#define COMPAT_IFREQ_SIZE 32

struct msghdr;
struct cmsghdr;
/* Host control messages from the guest's: 0, -EINVAL (malformed, as the
 * kernel's cmsghdr_from_user_compat_to_kern) or -ENOBUFS (out too small).
 * *outlen: bytes of host control data written. */
long get_compat_cmsgs(void *out, size_t outsize, size_t *outlen,
		      const void *in, size_t inlen, bool time32);
/* Guest control messages from the host's: bytes written to out; the ones
 * that do not fit set *ctrunc, and descriptors they carried are closed
 * (as scm_detach_fds_compat gives no descriptor it could not report). */
size_t put_compat_cmsgs(void *out, size_t outsize, const void *in,
			size_t inlen, bool time32, bool *ctrunc);

/* ==== System V IPC (i386; x32 uses the 64-bit layouts) ==================== */

/* <linux/ipc.h>'s IPC_64 (which cannot be included next to <sys/ipc.h>):
 * the ctl command bit asking for the 64-bit layouts (checked against the
 * header by unit.test_syscall_structs) */
#define COMPAT_IPC_64 0x0100

struct compat_ipc64_perm {
	int32_t key;
	uint32_t uid, gid, cuid, cgid;
	uint16_t mode, pad1;
	uint16_t seq, pad2;
	uint32_t unused1, unused2;
};
COMPAT_ASSERT_SIZE(struct compat_ipc64_perm, 36);

struct compat_semid64_ds {
	struct compat_ipc64_perm sem_perm;
	uint32_t sem_otime, sem_otime_high;
	uint32_t sem_ctime, sem_ctime_high;
	uint32_t sem_nsems;
	uint32_t unused3, unused4;
};
COMPAT_ASSERT_SIZE(struct compat_semid64_ds, 64);
COMPAT_ASSERT_OFF(struct compat_semid64_ds, sem_nsems, 52);

struct compat_shmid64_ds {
	struct compat_ipc64_perm shm_perm;
	uint32_t shm_segsz;
	uint32_t shm_atime, shm_atime_high;
	uint32_t shm_dtime, shm_dtime_high;
	uint32_t shm_ctime, shm_ctime_high;
	int32_t shm_cpid, shm_lpid;
	uint32_t shm_nattch;
	uint32_t unused4, unused5;
};
COMPAT_ASSERT_SIZE(struct compat_shmid64_ds, 84);
COMPAT_ASSERT_OFF(struct compat_shmid64_ds, shm_nattch, 72);

struct compat_msqid64_ds {
	struct compat_ipc64_perm msg_perm;
	uint32_t msg_stime, msg_stime_high;
	uint32_t msg_rtime, msg_rtime_high;
	uint32_t msg_ctime, msg_ctime_high;
	uint32_t msg_cbytes, msg_qnum, msg_qbytes;
	int32_t msg_lspid, msg_lrpid;
	uint32_t unused4, unused5;
};
COMPAT_ASSERT_SIZE(struct compat_msqid64_ds, 88);
COMPAT_ASSERT_OFF(struct compat_msqid64_ds, msg_qbytes, 68);

/* IPC_INFO / SHM_INFO answers for shmctl (seminfo and msginfo are ints) */
struct compat_shminfo64 {
	uint32_t shmmax, shmmin, shmmni, shmseg, shmall;
	uint32_t unused1, unused2, unused3, unused4;
};
COMPAT_ASSERT_SIZE(struct compat_shminfo64, 36);

struct compat_shm_info {
	int32_t used_ids;
	uint32_t shm_tot, shm_rss, shm_swp, swap_attempts, swap_successes;
};
COMPAT_ASSERT_SIZE(struct compat_shm_info, 24);

struct semid_ds;
struct shmid_ds;
struct msqid_ds;
struct shminfo;
struct shm_info;
/* IPC_SET reads only the owner, mode (and msg_qbytes): get_ fills those. */
void get_compat_semid64_ds(struct semid_ds *h, const struct compat_semid64_ds *c);
void put_compat_semid64_ds(struct compat_semid64_ds *c, const struct semid_ds *h);
void get_compat_shmid64_ds(struct shmid_ds *h, const struct compat_shmid64_ds *c);
void put_compat_shmid64_ds(struct compat_shmid64_ds *c, const struct shmid_ds *h);
void get_compat_msqid64_ds(struct msqid_ds *h, const struct compat_msqid64_ds *c);
void put_compat_msqid64_ds(struct compat_msqid64_ds *c, const struct msqid_ds *h);
void put_compat_shminfo64(struct compat_shminfo64 *c, const struct shminfo *h);
void put_compat_shm_info(struct compat_shm_info *c, const struct shm_info *h);

#endif
