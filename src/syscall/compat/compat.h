/* Guest structures of the 32-bit ABIs (i386; x32 where it shares them),
 * the x86_64 forms the translation builds for the host kernel, and their
 * converters: get_compat_* reads guest -> host form, put_compat_* fills the
 * guest form from the host one.
 *
 * The structs are generated (src/syscall/compat/layouts.in,
 * tools/layout_gen.sh: the kernel's uapi headers and its own declarations
 * in kernel_structs.h compiled -m32/-mx32/-m64):
 * gen/guest_layout_{i386,x32,x86_64}.h. unit.test_syscall_structs checks
 * kernel_structs.h's socket messages against the C library's headers
 * compiled -m32/-mx32 (docs/syscalls.md, Compat layouts).
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

#include "guest_layout_i386.h"
#include "guest_layout_x32.h"
#include "guest_layout_x86_64.h"

/* the kernel's compat_ulong_t: i386's and x32's long */
typedef uint32_t compat_ulong_t;

#define COMPAT_RLIM_INFINITY 0xffffffffu
#define COMPAT_RLIM_OLD_INFINITY 0x7fffffffu

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

/* 0 or -EOVERFLOW (inode or nlink over 16 bits, size over 2^31-1), as
 * cp_old_stat; ids narrowed as high2lowuid, devices as old_encode_dev. */
int put_compat_old_stat(struct compat_old_stat *c, const struct stat *st);

struct statfs;
/* 0 or -EOVERFLOW (a count over 32 bits, as put_compat_statfs). */
int put_compat_statfs(struct compat_statfs *c, const struct statfs *s);
void put_compat_statfs64(struct compat_statfs64 *c, const struct statfs *s);
void get_compat_utimbuf(struct timespec ts[2], const struct compat_utimbuf *c);

/* ==== quotas ============================================================== */

/* Q_GETQUOTA, Q_SETQUOTA: i386's struct if_dqblk is the host's without
 * its trailing padding (u64 aligned to 4) */
#define COMPAT_IF_DQBLK_SIZE sizeof(struct compat_if_dqblk)

struct fs_quota_stat;
void put_compat_fs_quota_stat(struct compat_fs_quota_stat *c,
			      const struct fs_quota_stat *h);

/* ==== time ================================================================ */

void get_compat_timeval(struct timeval *tv, const struct compat_timeval *c);
void get_compat_itimerspec(struct itimerspec *h,
			   const struct compat_itimerspec *c);
void put_compat_itimerspec(struct compat_itimerspec *c,
			   const struct itimerspec *h);
void get_compat_itimerval(struct itimerval *h, const struct compat_itimerval *c);
void put_compat_itimerval(struct compat_itimerval *c, const struct itimerval *h);

void get_compat_sigevent(struct sc_sigevent64 *h, const struct compat_sigevent *c);

void get_compat_mq_attr(struct sc_mq_attr64 *h, const struct compat_mq_attr *c);
void put_compat_mq_attr(struct compat_mq_attr *c, const struct sc_mq_attr64 *h);

/* ==== resources and system information ==================================== */

struct sysinfo;
struct tms;
void put_compat_rusage(struct compat_rusage *c, const struct rusage *r);
/* Scales memory sizes to fit 32 bits (mem_unit grows), as the kernel. */
void put_compat_sysinfo(struct compat_sysinfo *c, const struct sysinfo *s);
void put_compat_tms(struct compat_tms *c, const struct tms *h);

/* ==== sockets ============================================================= */

/* control messages start at the kernel's CMSG_ALIGN: its long (x86_64),
 * 32 bits for the compat ABIs (CMSG_COMPAT_ALIGN); the headers are the
 * generated struct compat_cmsghdr and the host's struct cmsghdr */
#define COMPAT_CMSG_ALIGN(len) (((len) + 3) & ~(size_t)3)
#define HOST_CMSG_ALIGN(len) (((len) + 7) & ~(size_t)7)

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

/* COMPAT_IPC_64, the ctl command bit asking for the 64-bit layouts, is
 * <linux/ipc.h>'s IPC_64 (generated: that header cannot be included next
 * to <sys/ipc.h>) */

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
