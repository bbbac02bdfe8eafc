/* Reads and writes that need argument work: vectors (the i386 and x32
 * struct iovec has 32-bit fields), i386 64-bit offsets split in halves. */
#include <sys/uio.h>

#include "syscall/compat/compat.h"
#include "syscall/handler.h"

/* Build a host iovec array from the guest's, checking every buffer. */
long sc_get_iovec(struct sg_thread *t, uint64_t uvec, uint64_t cnt,
		  bool compat, int prot, struct iovec *iov)
{
	long err = 0;

	for (uint64_t i = 0; i < cnt; i++) {
		uint64_t base, len;

		if (compat) {
			struct compat_iovec c;

			if (copy_from_guest(sc_mm(t), &c, uvec + i * sizeof(c),
					    sizeof(c)))
				return -EFAULT;
			if ((int32_t)c.iov_len < 0)
				return -EINVAL;
			base = c.iov_base;
			len = c.iov_len;
		} else {
			struct iovec h;

			if (copy_from_guest(sc_mm(t), &h, uvec + i * sizeof(h),
					    sizeof(h)))
				return -EFAULT;
			if ((int64_t)(uintptr_t)h.iov_len < 0)
				return -EINVAL;
			base = h2g(h.iov_base);
			len = h.iov_len;
		}
		iov[i].iov_len = len;
		iov[i].iov_base = len ? sc_buf(t, base, len, prot, &err) : NULL;
		if (err)
			return err;
		if (len && !iov[i].iov_base)
			return -EFAULT;
	}
	return 0;
}

/* The vector to hand the host for a call it checks in its own order
 * (descriptor, mode, then the vector: EBADF before EINVAL before EFAULT):
 * iov filled from the guest's, or a pointer the host faults on when the
 * guest's array is not readable. More than SC_UIO_MAXIOV entries or a
 * negative length are left for the host to refuse (EINVAL); buffers are
 * fault-shaped (sc_buf). NULL with *err only when that cannot be done. */
const struct iovec *sc_iovec_for_host(struct sg_thread *t, uint64_t uvec,
				      uint64_t cnt, bool compat, int prot,
				      struct iovec *iov, long *err)
{
	if (cnt > SC_UIO_MAXIOV)
		return sc_fault_ptr(t, uvec);
	for (uint64_t i = 0; i < cnt; i++) {
		uint64_t base;
		int64_t len;

		if (compat) {
			struct compat_iovec c;

			if (copy_from_guest(sc_mm(t), &c, uvec + i * sizeof(c),
					    sizeof(c)))
				return sc_fault_ptr(t, uvec);
			base = c.iov_base;
			len = (int32_t)c.iov_len;
			if (len < 0) {
				/* the kernel reads compat entries one by one:
				 * this one is its EINVAL, whatever follows.
				 * The host sees a vector ending here. */
				iov[i].iov_len = (size_t)len;
				iov[i].iov_base = NULL;
				for (uint64_t j = i + 1; j < cnt; j++) {
					iov[j].iov_len = (size_t)-1;
					iov[j].iov_base = NULL;
				}
				return iov;
			}
		} else {
			struct iovec h;

			if (copy_from_guest(sc_mm(t), &h, uvec + i * sizeof(h),
					    sizeof(h)))
				return sc_fault_ptr(t, uvec);
			base = h2g(h.iov_base);
			len = (int64_t)h.iov_len;
		}
		iov[i].iov_len = (size_t)len;
		iov[i].iov_base = len > 0 ? sc_buf(t, base, (uint64_t)len, prot, err)
					  : NULL;
		if (*err)
			return NULL;
	}
	return iov;
}

static long do_rw_vec(struct sg_thread *t, const uint64_t *a, bool compat,
		      long host_nr, int prot)
{
	struct iovec iov[SC_UIO_MAXIOV];
	uint64_t cnt = (uint32_t)a[2];
	long err = 0;
	const struct iovec *v = sc_iovec_for_host(t, a[1], cnt, compat, prot,
						  iov, &err);

	if (!v)
		return err;
	return host_blocking3(t, host_nr, a[0], v, cnt);
}

/* sys_readv/sys_writev serve x86_64, x32 (515/516) and i386: the guest's
 * iovec layout is that of the ABI of the call, as in_compat_syscall(). */
SG_SYSCALL_DEFINE(sys_readv)
{
	return do_rw_vec(t, a, sc_compat(), SYS_readv, PROT_WRITE);
}

SG_SYSCALL_DEFINE(sys_writev)
{
	return do_rw_vec(t, a, sc_compat(), SYS_writev, PROT_READ);
}

/* i386 pread64/pwrite64(fd, buf, count, pos_lo, pos_hi) */
static long i386_prw(struct sg_thread *t, const uint64_t *a, long nr, int prot)
{
	uint64_t pos = (uint32_t)a[3] | (a[4] << 32);
	long err = 0;
	void *buf = sc_buf(t, a[1], (uint32_t)a[2], prot, &err);

	if (err)
		return err;
	return host_blocking4(t, nr, a[0], buf, (uint32_t)a[2], pos);
}

SG_SYSCALL_DEFINE(sys_ia32_pread64)
{
	return i386_prw(t, a, SYS_pread64, PROT_WRITE);
}

SG_SYSCALL_DEFINE(sys_ia32_pwrite64)
{
	return i386_prw(t, a, SYS_pwrite64, PROT_READ);
}

/* poll: select.c (restart block) */

/* --- positioned vectors: preadv/pwritev(2) in each ABI's argument form ---- */

/* pos < 0 with v2 means "the current position", as the host reads it. */
static long do_prw_vec(struct sg_thread *t, const uint64_t *a, int64_t pos,
		       long flags, bool v2, bool write)
{
	struct iovec iov[SC_UIO_MAXIOV];
	uint64_t cnt = (uint32_t)a[2];
	long err = 0;
	const struct iovec *v;

	if (!v2 && pos < 0)
		return -EINVAL;
	v = sc_iovec_for_host(t, a[1], cnt, sc_compat(),
			      write ? PROT_READ : PROT_WRITE, iov, &err);
	if (!v)
		return err;
	if (v2)
		return host_blocking6(t, write ? SYS_pwritev2 : SYS_preadv2,
				     (long)a[0], (long)v, (long)cnt, pos, 0,
				     flags);
	return host_blocking6(t, write ? SYS_pwritev : SYS_preadv, (long)a[0],
			     (long)v, (long)cnt, pos, 0, 0);
}

/* x86_64: (fd, vec, vlen, pos_l, pos_h[, flags]); pos_h is ignored by a
 * 64-bit kernel (the halves are combined in 64 bits) */
SG_SYSCALL_DEFINE(sys_preadv)
{
	return do_prw_vec(t, a, (int64_t)a[3], 0, false, false);
}

SG_SYSCALL_DEFINE(sys_pwritev)
{
	return do_prw_vec(t, a, (int64_t)a[3], 0, false, true);
}

SG_SYSCALL_DEFINE(sys_preadv2)
{
	return do_prw_vec(t, a, (int64_t)a[3], (long)a[5], true, false);
}

SG_SYSCALL_DEFINE(sys_pwritev2)
{
	return do_prw_vec(t, a, (int64_t)a[3], (long)a[5], true, true);
}

/* i386: the position in two 32-bit halves */
#define I386_POS(a) ((int64_t)((uint32_t)(a)[3] | ((a)[4] << 32)))

SG_SYSCALL_DEFINE(compat_sys_preadv)
{
	return do_prw_vec(t, a, I386_POS(a), 0, false, false);
}

SG_SYSCALL_DEFINE(compat_sys_pwritev)
{
	return do_prw_vec(t, a, I386_POS(a), 0, false, true);
}

SG_SYSCALL_DEFINE(compat_sys_preadv2)
{
	return do_prw_vec(t, a, I386_POS(a), (long)(uint32_t)a[5], true, false);
}

SG_SYSCALL_DEFINE(compat_sys_pwritev2)
{
	return do_prw_vec(t, a, I386_POS(a), (long)(uint32_t)a[5], true, true);
}

/* x32: the position in one 64-bit register, compat iovecs */
SG_SYSCALL_DEFINE(compat_sys_preadv64)
{
	return do_prw_vec(t, a, (int64_t)a[3], 0, false, false);
}

SG_SYSCALL_DEFINE(compat_sys_pwritev64)
{
	return do_prw_vec(t, a, (int64_t)a[3], 0, false, true);
}

SG_SYSCALL_DEFINE(compat_sys_preadv64v2)
{
	return do_prw_vec(t, a, (int64_t)a[3], (long)(uint32_t)a[4], true, false);
}

SG_SYSCALL_DEFINE(compat_sys_pwritev64v2)
{
	return do_prw_vec(t, a, (int64_t)a[3], (long)(uint32_t)a[4], true, true);
}

/* vmsplice(fd, iov, nr_segs, flags): guest pages into a pipe (or out) */
SG_SYSCALL_DEFINE(sys_vmsplice)
{
	struct iovec iov[SC_UIO_MAXIOV];
	uint64_t cnt = (uint32_t)a[2];
	long err = 0;
	const struct iovec *v = sc_iovec_for_host(t, a[1], cnt, sc_compat(),
						  PROT_READ, iov, &err);

	return v ? host_blocking4(t, SYS_vmsplice, a[0], v, cnt, a[3]) : err;
}

/* process_vm_readv/writev(pid, local iov, n, remote iov, n, flags): the
 * local buffers are the guest's (checked); the remote ones are addresses
 * in the other process, widened from the guest's iovec form only. */
static long process_vm(struct sg_thread *t, const uint64_t *a, long nr,
		       int local_prot)
{
	struct iovec local[SC_UIO_MAXIOV], remote[SC_UIO_MAXIOV]; /* 32 KiB of stack */
	uint64_t nl = (uint32_t)a[2], nrem = (uint32_t)a[4], total = 0;
	const struct iovec *lv, *rv = remote;
	/* the other process is sysgate itself: its addresses are guest
	 * addresses, and only the guest's memory may be read or written */
	bool self = (pid_t)a[0] == (pid_t)host_syscall0(SYS_getpid);
	long err = 0;

	/* the kernel's order: flags, the local vector (an empty one ends
	 * the call), the remote one, then the process */
	if (a[5])
		return -EINVAL;
	lv = sc_iovec_for_host(t, a[1], nl, sc_compat(), local_prot, local, &err);
	if (!lv)
		return err;
	if (lv == local) {
		for (uint64_t i = 0; i < nl; i++)
			total += local[i].iov_len;
		if (total == 0)
			return 0;
	}
	if (nrem > SC_UIO_MAXIOV)
		rv = sc_fault_ptr(t, a[3]);
	for (uint64_t i = 0; rv == remote && i < nrem; i++) {
		if (sc_compat()) {
			struct compat_iovec c;

			if (copy_from_guest(sc_mm(t), &c, a[3] + i * sizeof(c),
					    sizeof(c))) {
				rv = sc_fault_ptr(t, a[3]);
				break;
			}
			remote[i].iov_base = (void *)(uintptr_t)c.iov_base;
			remote[i].iov_len = (size_t)(int32_t)c.iov_len;
		} else if (copy_from_guest(sc_mm(t), &remote[i],
					   a[3] + i * sizeof(remote[i]),
					   sizeof(remote[i]))) {
			rv = sc_fault_ptr(t, a[3]);
			break;
		}
		if (self && (ssize_t)remote[i].iov_len > 0) {
			remote[i].iov_base = sc_buf(t, h2g(remote[i].iov_base),
						    remote[i].iov_len,
						    local_prot == PROT_READ ? PROT_WRITE
									    : PROT_READ,
						    &err);
			if (err)
				return err;
		}
	}
	return host_syscall6(nr, (long)a[0], (long)lv, (long)nl, (long)rv,
			     (long)nrem, (long)a[5]);
}

SG_SYSCALL_DEFINE(sys_process_vm_readv)
{
	return process_vm(t, a, SYS_process_vm_readv, PROT_WRITE);
}

SG_SYSCALL_DEFINE(sys_process_vm_writev)
{
	return process_vm(t, a, SYS_process_vm_writev, PROT_READ);
}
