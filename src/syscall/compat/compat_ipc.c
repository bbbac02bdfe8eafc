/* System V IPC structures of i386 (the IPC_64 forms glibc uses): 32-bit
 * sizes and times, each time with a high word, as the kernel's
 * compat_ipc64_perm / compat_semid64_ds / ... copy-out fills them. */
#define _GNU_SOURCE /* struct shm_info, shminfo */
#include <string.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>

#include "syscall/compat/compat.h"

static void get_perm(struct ipc_perm *h, const struct compat_ipc64_perm *c)
{
	h->uid = c->uid;
	h->gid = c->gid;
	h->mode = c->mode;
}

static void put_perm(struct compat_ipc64_perm *c, const struct ipc_perm *h)
{
	memset(c, 0, sizeof(*c));
	c->key = h->__key;
	c->uid = h->uid;
	c->gid = h->gid;
	c->cuid = h->cuid;
	c->cgid = h->cgid;
	c->mode = (uint16_t)h->mode;
	c->seq = (uint16_t)h->__seq;
}

#define LO(t) ((uint32_t)(t))
#define HI(t) ((uint32_t)((uint64_t)(t) >> 32))

void get_compat_semid64_ds(struct semid_ds *h, const struct compat_semid64_ds *c)
{
	memset(h, 0, sizeof(*h));
	get_perm(&h->sem_perm, &c->sem_perm);
}

void put_compat_semid64_ds(struct compat_semid64_ds *c, const struct semid_ds *h)
{
	memset(c, 0, sizeof(*c));
	put_perm(&c->sem_perm, &h->sem_perm);
	c->sem_otime = LO(h->sem_otime);
	c->sem_otime_high = HI(h->sem_otime);
	c->sem_ctime = LO(h->sem_ctime);
	c->sem_ctime_high = HI(h->sem_ctime);
	c->sem_nsems = (uint32_t)h->sem_nsems;
}

void get_compat_shmid64_ds(struct shmid_ds *h, const struct compat_shmid64_ds *c)
{
	memset(h, 0, sizeof(*h));
	get_perm(&h->shm_perm, &c->shm_perm);
}

void put_compat_shmid64_ds(struct compat_shmid64_ds *c, const struct shmid_ds *h)
{
	memset(c, 0, sizeof(*c));
	put_perm(&c->shm_perm, &h->shm_perm);
	c->shm_segsz = (uint32_t)h->shm_segsz;
	c->shm_atime = LO(h->shm_atime);
	c->shm_atime_high = HI(h->shm_atime);
	c->shm_dtime = LO(h->shm_dtime);
	c->shm_dtime_high = HI(h->shm_dtime);
	c->shm_ctime = LO(h->shm_ctime);
	c->shm_ctime_high = HI(h->shm_ctime);
	c->shm_cpid = h->shm_cpid;
	c->shm_lpid = h->shm_lpid;
	c->shm_nattch = (uint32_t)h->shm_nattch;
}

void get_compat_msqid64_ds(struct msqid_ds *h, const struct compat_msqid64_ds *c)
{
	memset(h, 0, sizeof(*h));
	get_perm(&h->msg_perm, &c->msg_perm);
	h->msg_qbytes = c->msg_qbytes;
}

void put_compat_msqid64_ds(struct compat_msqid64_ds *c, const struct msqid_ds *h)
{
	memset(c, 0, sizeof(*c));
	put_perm(&c->msg_perm, &h->msg_perm);
	c->msg_stime = LO(h->msg_stime);
	c->msg_stime_high = HI(h->msg_stime);
	c->msg_rtime = LO(h->msg_rtime);
	c->msg_rtime_high = HI(h->msg_rtime);
	c->msg_ctime = LO(h->msg_ctime);
	c->msg_ctime_high = HI(h->msg_ctime);
	c->msg_cbytes = (uint32_t)h->__msg_cbytes;
	c->msg_qnum = (uint32_t)h->msg_qnum;
	c->msg_qbytes = (uint32_t)h->msg_qbytes;
	c->msg_lspid = h->msg_lspid;
	c->msg_lrpid = h->msg_lrpid;
}

/* values above 32 bits read as the largest (the kernel's min_t) */
static uint32_t clamp32(unsigned long v)
{
	return v > 0xffffffffu ? 0xffffffffu : (uint32_t)v;
}

void put_compat_shminfo64(struct compat_shminfo64 *c, const struct shminfo *h)
{
	memset(c, 0, sizeof(*c));
	c->shmmax = clamp32(h->shmmax);
	c->shmmin = clamp32(h->shmmin);
	c->shmmni = clamp32(h->shmmni);
	c->shmseg = clamp32(h->shmseg);
	c->shmall = clamp32(h->shmall);
}

void put_compat_shm_info(struct compat_shm_info *c, const struct shm_info *h)
{
	c->used_ids = h->used_ids;
	c->shm_tot = (uint32_t)h->shm_tot;
	c->shm_rss = (uint32_t)h->shm_rss;
	c->shm_swp = (uint32_t)h->shm_swp;
	c->swap_attempts = (uint32_t)h->swap_attempts;
	c->swap_successes = (uint32_t)h->swap_successes;
}
