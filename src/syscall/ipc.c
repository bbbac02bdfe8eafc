/* System V IPC: semaphores, shared memory, message queues, for x86_64 and
 * x32 (the 64-bit layouts) and i386 (the IPC_64 compat layouts, and the
 * `ipc` multiplexer).
 *
 * shmat maps memory, so the guest's address space (src/mm) has to know:
 * the range is first reserved through mm_mmap (which picks the address as
 * for any guest mapping, or checks the guest's), then the segment is
 * attached over it with SHM_REMAP and the protection recorded. shmdt needs
 * the size again: attachments are remembered in a small table.
 */
#define _GNU_SOURCE /* struct shm_info, msginfo, seminfo */
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>

#include "syscall/carried.h"
#include "syscall/compat/compat.h"
#include "syscall/handler.h"

#define SC_SHM_REMAP 040000

/* --- semaphores ------------------------------------------------------------- */

SG_PASSTHROUGH(sys_semget, SYS_semget)
/* interrupted, semop's code is -EINTR itself */
SG_PASSTHROUGH_INTERRUPTED_AS(sys_semop, SYS_semop, -EINTR)
SG_PASSTHROUGH_INTERRUPTED_AS(sys_semtimedop, SYS_semtimedop, -EINTR)
SG_PASSTHROUGH(sys_shmget, SYS_shmget)
SG_PASSTHROUGH(sys_msgget, SYS_msgget)

/* i386 semtimedop with an old_timespec32 (only through `ipc`) */
static long semtimedop32(struct sg_thread *t, uint64_t id, uint64_t sops,
			 uint64_t nsops, uint64_t tmo)
{
	struct compat_timespec c;
	struct timespec ts;
	long err = 0;
	void *s = sc_buf(t, sops, (uint64_t)(uint32_t)nsops * sizeof(struct sembuf),
			 PROT_READ, &err);

	if (err)
		return err;
	if (tmo) {
		if (copy_from_guest(sc_mm(t), &c, tmo, sizeof(c)))
			return -EFAULT;
		get_compat_timespec(&ts, &c);
	}
	return sc_interrupted_as(host_blocking4(t, SYS_semtimedop, id, s, (uint32_t)nsops,
						tmo ? &ts : NULL),
				 -EINTR);
}

/* cmd without IPC_64; compat: the i386 layouts (only the IPC_64 ones
 * glibc uses: the old forms answer -EINVAL) */
static long do_semctl(struct sg_thread *t, uint64_t id, uint64_t num, int cmd,
		      uint64_t arg, bool compat)
{
	struct semid_ds h;
	long err = 0, r;
	void *p;

	if ((int32_t)id < 0)
		return -EINVAL; /* before the argument is read, as the kernel */
	switch (cmd) {
	case IPC_STAT:
	case SEM_STAT:
	case SEM_STAT_ANY:
		r = host_syscall4(SYS_semctl, id, num, cmd, &h);
		if (r < 0)
			return r;
		if (compat) {
			struct compat_semid64_ds c;

			put_compat_semid64_ds(&c, &h);
			return copy_to_guest(sc_mm(t), arg, &c, sizeof(c)) ? -EFAULT : r;
		}
		return copy_to_guest(sc_mm(t), arg, &h, sizeof(h)) ? -EFAULT : r;
	case IPC_SET:
		if (compat) {
			struct compat_semid64_ds c;

			if (copy_from_guest(sc_mm(t), &c, arg, sizeof(c)))
				return -EFAULT;
			get_compat_semid64_ds(&h, &c);
		} else if (copy_from_guest(sc_mm(t), &h, arg, sizeof(h))) {
			return -EFAULT;
		}
		return host_syscall4(SYS_semctl, id, num, cmd, &h);
	case IPC_INFO:
	case SEM_INFO:
		p = sc_buf(t, arg, sizeof(struct seminfo), PROT_WRITE, &err);
		return err ? err : host_syscall4(SYS_semctl, id, num, cmd, p);
	case GETALL:
	case SETALL:
		r = host_syscall4(SYS_semctl, id, 0, IPC_STAT, &h);
		if (r < 0)
			return r;
		p = sc_buf(t, arg, h.sem_nsems * sizeof(unsigned short),
			   cmd == GETALL ? PROT_WRITE : PROT_READ, &err);
		return err ? err : host_syscall4(SYS_semctl, id, num, cmd, p);
	default:
		/* GETVAL, SETVAL, GETPID, GETNCNT, GETZCNT, IPC_RMID: values */
		return host_syscall4(SYS_semctl, id, num, cmd,
				     compat ? (long)(int32_t)arg : (long)arg);
	}
}

SG_SYSCALL_DEFINE4(sys_semctl, semid, semnum, cmd, arg)
{
	return do_semctl(t, semid, semnum, (int)cmd & ~COMPAT_IPC_64, arg, false);
}

static bool compat_version_ok(int cmd)
{
	int c = cmd & ~COMPAT_IPC_64;

	/* the old (non-IPC_64) structures are not translated */
	return (cmd & COMPAT_IPC_64) || (c != IPC_STAT && c != IPC_SET &&
				     c != SEM_STAT && c != SHM_STAT &&
				     c != MSG_STAT && c != IPC_INFO &&
				     c != SHM_INFO && c != SEM_STAT_ANY &&
				     c != SHM_STAT_ANY && c != MSG_STAT_ANY);
}

SG_SYSCALL_DEFINE4(compat_sys_semctl, semid, semnum, cmd, arg)
{
	if (!compat_version_ok((int)cmd))
		return -EINVAL;
	return do_semctl(t, semid, semnum, (int)cmd & ~COMPAT_IPC_64, (uint32_t)arg,
			 true);
}

/* --- message queues ------------------------------------------------------------ */

static long do_msgctl(struct sg_thread *t, uint64_t id, int cmd, uint64_t buf,
		      bool compat)
{
	struct msqid_ds h;
	long err = 0, r;
	void *p;

	switch (cmd) {
	case IPC_STAT:
	case MSG_STAT:
	case MSG_STAT_ANY:
		r = host_syscall3(SYS_msgctl, id, cmd, &h);
		if (r < 0)
			return r;
		if (compat) {
			struct compat_msqid64_ds c;

			put_compat_msqid64_ds(&c, &h);
			return copy_to_guest(sc_mm(t), buf, &c, sizeof(c)) ? -EFAULT : r;
		}
		return copy_to_guest(sc_mm(t), buf, &h, sizeof(h)) ? -EFAULT : r;
	case IPC_SET:
		if (compat) {
			struct compat_msqid64_ds c;

			if (copy_from_guest(sc_mm(t), &c, buf, sizeof(c)))
				return -EFAULT;
			get_compat_msqid64_ds(&h, &c);
		} else if (copy_from_guest(sc_mm(t), &h, buf, sizeof(h))) {
			return -EFAULT;
		}
		return host_syscall3(SYS_msgctl, id, cmd, &h);
	case IPC_INFO:
	case MSG_INFO:
		p = sc_buf(t, buf, sizeof(struct msginfo), PROT_WRITE, &err);
		return err ? err : host_syscall3(SYS_msgctl, id, cmd, p);
	default:
		return host_syscall3(SYS_msgctl, id, cmd, 0);
	}
}

SG_SYSCALL_DEFINE3(sys_msgctl, msqid, cmd, buf)
{
	return do_msgctl(t, msqid, (int)cmd & ~COMPAT_IPC_64, buf, false);
}

SG_SYSCALL_DEFINE3(compat_sys_msgctl, msqid, cmd, buf)
{
	if (!compat_version_ok((int)cmd))
		return -EINVAL;
	return do_msgctl(t, msqid, (int)cmd & ~COMPAT_IPC_64, buf, true);
}

/* x86_64/x32: struct msgbuf starts with an 8-byte mtype */
SG_SYSCALL_DEFINE4(sys_msgsnd, msqid, msgp, msgsz, msgflg)
{
	long err = 0;
	/* the kernel reads mtype first (EFAULT), then checks the size
	 * (EINVAL) before it reads the text: no more than 1 MiB of it is
	 * looked at here (a larger size is above any msgmax the host has) */
	uint64_t n = (int64_t)msgsz < 0 ? 8 : 8 + (msgsz < (1u << 20) ? msgsz : 1u << 20);
	void *p = sc_buf(t, msgp, n, PROT_READ, &err);

	return err ? err
		   : sc_interrupted_as(host_blocking4(t, SYS_msgsnd, msqid, p, msgsz, msgflg),
				       -SG_ERESTARTNOHAND);
}

SG_SYSCALL_DEFINE5(sys_msgrcv, msqid, msgp, msgsz, msgtyp, msgflg)
{
	long err = 0;
	void *p;

	if ((int64_t)msgsz < 0)
		return -EINVAL;
	p = sc_buf(t, msgp, 8 + msgsz, PROT_WRITE, &err);
	return err ? err
		   : sc_interrupted_as(host_blocking5(t, SYS_msgrcv, msqid, p, msgsz, msgtyp,
						      msgflg),
				       -SG_ERESTARTNOHAND);
}

/* The host's kernel.msgmax (the largest message; 8192 unless set):
 * sizes above it are EINVAL before the text is read. */
static int32_t msgmax(void)
{
	static int32_t max;
	char buf[32];

	if (max)
		return max;
	if (host_read_small_file("/proc/sys/kernel/msgmax", buf, sizeof(buf)) > 0)
		max = (int32_t)strtol(buf, NULL, 10);
	if (max <= 0)
		max = INT32_MAX;
	return max;
}

/* i386: struct msgbuf starts with a 4-byte mtype */
static long msgsnd32(struct sg_thread *t, uint64_t id, uint64_t msgp,
		     uint64_t sz, uint64_t flg)
{
	int32_t size = (int32_t)sz, mtype;
	int64_t *buf;
	long r;

	/* the kernel's order: mtype read, size, queue id and mtype, then
	 * the text */
	if (copy_from_guest(sc_mm(t), &mtype, msgp, sizeof(mtype)))
		return -EFAULT;
	if (size < 0 || size > msgmax() || (int32_t)id < 0 || mtype < 1)
		return -EINVAL;
	buf = malloc(8 + (size_t)size);
	if (!buf)
		return -ENOMEM;
	buf[0] = mtype;
	r = copy_from_guest(sc_mm(t), buf + 1, msgp + 4, (size_t)size)
		    ? -EFAULT
		    : sc_interrupted_as(host_blocking4(t, SYS_msgsnd, id, buf, size, (int)flg),
					-SG_ERESTARTNOHAND);
	free(buf);
	return r;
}

static long msgrcv32(struct sg_thread *t, uint64_t id, uint64_t msgp,
		     uint64_t sz, long typ, uint64_t flg)
{
	int32_t size = (int32_t)sz, mtype;
	int64_t *buf;
	long r;

	/* the buffer is written after the message is taken (EFAULT then) */
	if (size < 0)
		return -EINVAL;
	if (size > (1 << 24))
		size = 1 << 24; /* above any msgmax: the kernel copies the message's size */
	buf = malloc(8 + (size_t)size);
	if (!buf)
		return -ENOMEM;
	r = sc_interrupted_as(host_blocking5(t, SYS_msgrcv, id, buf, size, typ, (int)flg),
			      -SG_ERESTARTNOHAND);
	if (r >= 0) {
		mtype = (int32_t)buf[0];
		if (copy_to_guest(sc_mm(t), msgp, &mtype, sizeof(mtype)) ||
		    copy_to_guest(sc_mm(t), msgp + 4, buf + 1, (size_t)r))
			r = -EFAULT;
	}
	free(buf);
	return r;
}

SG_SYSCALL_DEFINE4(compat_sys_msgsnd, msqid, msgp, msgsz, msgflg)
{
	return msgsnd32(t, msqid, msgp, msgsz, msgflg);
}

SG_SYSCALL_DEFINE5(compat_sys_msgrcv, msqid, msgp, msgsz, msgtyp, msgflg)
{
	return msgrcv32(t, msqid, msgp, msgsz, msgtyp, msgflg);
}

/* --- shared memory ---------------------------------------------------------------- */

static long do_shmctl(struct sg_thread *t, uint64_t id, int cmd, uint64_t buf,
		      bool compat)
{
	struct shmid_ds h;
	long err = 0, r;
	void *p;

	/* the kernel's first check, before it reads or writes buf */
	if (cmd < 0 || (int)id < 0)
		return -EINVAL;
	switch (cmd) {
	case IPC_STAT:
	case SHM_STAT:
	case SHM_STAT_ANY:
		r = host_syscall3(SYS_shmctl, id, cmd, &h);
		if (r < 0)
			return r;
		if (compat) {
			struct compat_shmid64_ds c;

			put_compat_shmid64_ds(&c, &h);
			return copy_to_guest(sc_mm(t), buf, &c, sizeof(c)) ? -EFAULT : r;
		}
		return copy_to_guest(sc_mm(t), buf, &h, sizeof(h)) ? -EFAULT : r;
	case IPC_SET:
		if (compat) {
			struct compat_shmid64_ds c;

			if (copy_from_guest(sc_mm(t), &c, buf, sizeof(c)))
				return -EFAULT;
			get_compat_shmid64_ds(&h, &c);
		} else if (copy_from_guest(sc_mm(t), &h, buf, sizeof(h))) {
			return -EFAULT;
		}
		return host_syscall3(SYS_shmctl, id, cmd, &h);
	case IPC_INFO:
		if (compat) {
			struct compat_shminfo64 c;
			struct shminfo hi;

			r = host_syscall3(SYS_shmctl, id, cmd, &hi);
			if (r < 0)
				return r;
			put_compat_shminfo64(&c, &hi);
			return copy_to_guest(sc_mm(t), buf, &c, sizeof(c)) ? -EFAULT : r;
		}
		p = sc_buf(t, buf, sizeof(struct shminfo), PROT_WRITE, &err);
		return err ? err : host_syscall3(SYS_shmctl, id, cmd, p);
	case SHM_INFO:
		if (compat) {
			struct compat_shm_info c;
			struct shm_info hi;

			r = host_syscall3(SYS_shmctl, id, cmd, &hi);
			if (r < 0)
				return r;
			put_compat_shm_info(&c, &hi);
			return copy_to_guest(sc_mm(t), buf, &c, sizeof(c)) ? -EFAULT : r;
		}
		p = sc_buf(t, buf, sizeof(struct shm_info), PROT_WRITE, &err);
		return err ? err : host_syscall3(SYS_shmctl, id, cmd, p);
	default:
		/* IPC_RMID, SHM_LOCK, SHM_UNLOCK */
		return host_syscall3(SYS_shmctl, id, cmd, 0);
	}
}

SG_SYSCALL_DEFINE3(sys_shmctl, shmid, cmd, buf)
{
	return do_shmctl(t, shmid, (int)cmd & ~COMPAT_IPC_64, buf, false);
}

SG_SYSCALL_DEFINE3(compat_sys_shmctl, shmid, cmd, buf)
{
	if (!compat_version_ok((int)cmd))
		return -EINVAL;
	return do_shmctl(t, shmid, (int)cmd & ~COMPAT_IPC_64, buf, true);
}

/* Attached segments: address and size, for shmdt. */
#define SC_MAX_SHM 128
static struct {
	uint64_t addr, size;
} attached[SC_MAX_SHM];
static pthread_mutex_t attached_lock = PTHREAD_MUTEX_INITIALIZER;

static void remember(uint64_t addr, uint64_t size)
{
	pthread_mutex_lock(&attached_lock);
	for (unsigned i = 0; i < SC_MAX_SHM; i++) {
		if (!attached[i].size) {
			attached[i].addr = addr;
			attached[i].size = size;
			break;
		}
	}
	pthread_mutex_unlock(&attached_lock);
}

static uint64_t forget(uint64_t addr)
{
	uint64_t size = 0;

	pthread_mutex_lock(&attached_lock);
	for (unsigned i = 0; i < SC_MAX_SHM && !size; i++) {
		if (attached[i].size && attached[i].addr == addr) {
			size = attached[i].size;
			attached[i].size = 0;
		}
	}
	pthread_mutex_unlock(&attached_lock);
	return size;
}

static long do_shmat(struct sg_thread *t, uint64_t id, uint64_t addr, int flg)
{
	struct shmid_ds ds;
	uint64_t size;
	int prot = PROT_READ | ((flg & SHM_RDONLY) ? 0 : PROT_WRITE) |
		   ((flg & SHM_EXEC) ? PROT_EXEC : 0);
	long r, at;

	r = host_syscall3(SYS_shmctl, id, IPC_STAT, &ds);
	if (r < 0)
		return r == -EACCES ? -EACCES : -EINVAL;
	size = MM_PAGE_ALIGN_UP(ds.shm_segsz);
	if (addr && (flg & SHM_RND))
		addr &= ~(uint64_t)(SHMLBA - 1);
	if (addr & (MM_PAGE_SIZE - 1))
		return -EINVAL;
	if (addr && !(flg & SC_SHM_REMAP) && sc_ok(t, addr, 1, 0))
		return -EINVAL; /* over an existing mapping */
	/* reserve the range in the guest's address space first */
	at = mm_mmap(sc_mm(t), addr, size, PROT_NONE,
		     MAP_PRIVATE | MAP_ANONYMOUS | (addr ? MAP_FIXED : 0), -1, 0);
	if (at < 0 && at >= -4095)
		return at == -ENOMEM ? -ENOMEM : -EINVAL;
	r = host_syscall3(SYS_shmat, id, at, (flg & ~SHM_RND) | SC_SHM_REMAP);
	if (r < 0) {
		mm_munmap(sc_mm(t), (uint64_t)at, size);
		return r;
	}
	mm_mprotect(sc_mm(t), (uint64_t)at, size, prot);
	remember((uint64_t)at, size);
	return at;
}

SG_SYSCALL_DEFINE3(sys_shmat, shmid, shmaddr, shmflg)
{
	return do_shmat(t, shmid, shmaddr, (int)shmflg);
}

SG_SYSCALL_DEFINE3(compat_sys_shmat, shmid, shmaddr, shmflg)
{
	return do_shmat(t, shmid, shmaddr, (int)shmflg);
}

SG_SYSCALL_DEFINE1(sys_shmdt, shmaddr)
{
	uint64_t size;
	long r = host_syscall1(SYS_shmdt, shmaddr);

	if (r)
		return r;
	size = forget(shmaddr);
	if (size) {
		mm_munmap(sc_mm(t), shmaddr, size);
	}
	return 0;
}

/* --- i386 ipc(call, first, second, third, ptr, fifth) ------------------------- */

/* The carried call (syscall/carried.h) with ipc's own rules: the old
 * layouts by the command's IPC_64 bit (the direct i386 calls always use
 * the 64 ones), shmat's address stored at third. */
SG_SYSCALL_DEFINE(compat_sys_ipc)
{
	struct sg_carried c;
	const uint64_t *v = c.args;
	int err = sg_carried_ipc(a, copy_from_guest, sc_mm(t), &c);
	uint32_t u;
	long r;

	if (err)
		return err;
	if (c.early)
		return c.early;
	switch (c.id) {
	case SG_CARRIED_IPC_SEMOP: /* its timeout argument is 0 */
	case SG_CARRIED_IPC_SEMTIMEDOP:
		return semtimedop32(t, v[0], v[1], v[2], v[3]);
	case SG_CARRIED_IPC_SEMGET:
		return host_syscall3(SYS_semget, (int)v[0], (int)v[1], (int)v[2]);
	case SG_CARRIED_IPC_SEMCTL:
		if (!compat_version_ok((int)v[2]))
			return -EINVAL;
		return do_semctl(t, v[0], v[1], (int)v[2] & ~COMPAT_IPC_64, (uint32_t)v[3], true);
	case SG_CARRIED_IPC_MSGSND:
		return msgsnd32(t, v[0], v[1], v[2], v[3]);
	case SG_CARRIED_IPC_MSGRCV:
		return msgrcv32(t, v[0], v[1], v[2], (int32_t)v[3], v[4]);
	case SG_CARRIED_IPC_MSGGET:
		return host_syscall2(SYS_msgget, (int)v[0], (int)v[1]);
	case SG_CARRIED_IPC_MSGCTL:
		if (!compat_version_ok((int)v[1]))
			return -EINVAL;
		return do_msgctl(t, v[0], (int)v[1] & ~COMPAT_IPC_64, v[2], true);
	case SG_CARRIED_IPC_SHMAT:
		r = do_shmat(t, v[0], v[1], (int)v[2]);
		if (r < 0 && r >= -4095)
			return r;
		u = (uint32_t)r;
		return copy_to_guest(sc_mm(t), c.result_at, &u, sizeof(u)) ? -EFAULT : 0;
	case SG_CARRIED_IPC_SHMDT:
		return sys_shmdt(t, v);
	case SG_CARRIED_IPC_SHMGET:
		return host_syscall3(SYS_shmget, (int)v[0], v[1], (int)v[2]);
	case SG_CARRIED_IPC_SHMCTL:
		if (!compat_version_ok((int)v[1]))
			return -EINVAL;
		return do_shmctl(t, v[0], (int)v[1] & ~COMPAT_IPC_64, v[2], true);
	default: /* socketcall's */
		return -ENOSYS;
	}
}
