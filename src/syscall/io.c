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

static long do_rw_vec(struct sg_thread *t, long host_nr, int prot, int fd, uint64_t vec,
		      int vlen)
{
	struct iovec iov[SC_UIO_MAXIOV];
	uint64_t cnt = (uint32_t)vlen;
	long err = 0;
	const struct iovec *v = sc_iovec_for_host(t, vec, cnt, sc_compat(), prot, iov, &err);

	if (!v)
		return err;
	/* a socket's timeout makes an interrupted call's code -EINTR */
	return sc_sock_interrupted(host_blocking3(t, host_nr, fd, v, cnt), (uint32_t)fd,
				   prot == PROT_WRITE);
}

/* sys_readv/sys_writev serve x86_64, x32 (515/516) and i386: the guest's
 * iovec layout is that of the ABI of the call, as in_compat_syscall(). */
SG_SYSCALL_DEFINE3(sys_readv, fd, vec, vlen)
{
	return do_rw_vec(t, SYS_readv, PROT_WRITE, fd, vec, vlen);
}

SG_SYSCALL_DEFINE3(sys_writev, fd, vec, vlen)
{
	return do_rw_vec(t, SYS_writev, PROT_READ, fd, vec, vlen);
}

/* i386 pread64/pwrite64: the position in two registers (SG_ARGV) */
static long i386_prw(struct sg_thread *t, long nr, int prot, int fd, uint64_t ubuf,
		     uint64_t count, int64_t pos)
{
	long err = 0;
	void *buf = sc_buf(t, ubuf, (uint32_t)count, prot, &err);

	if (err)
		return err;
	return host_blocking4(t, nr, fd, buf, (uint32_t)count, pos);
}

SG_SYSCALL_DEFINE4(sys_ia32_pread64, fd, ubuf, count, pos)
{
	return i386_prw(t, SYS_pread64, PROT_WRITE, fd, ubuf, count, pos);
}

SG_SYSCALL_DEFINE4(sys_ia32_pwrite64, fd, ubuf, count, pos)
{
	return i386_prw(t, SYS_pwrite64, PROT_READ, fd, ubuf, count, pos);
}

/* poll: select.c (restart block) */

/* --- positioned vectors: preadv/pwritev(2) in each ABI's argument form ----
 * x86_64: (fd, vec, vlen, pos_l, pos_h[, flags]), pos_h ignored by a
 * 64-bit kernel; i386: the position in two 32-bit halves; x32: in one
 * 64-bit register, compat iovecs. SG_ARGV gives each its 64-bit pos. */

/* pos < 0 with v2 means "the current position", as the host reads it. */
static long do_prw_vec(struct sg_thread *t, bool v2, bool write, int fd, uint64_t vec,
		       int vlen, int64_t pos, long flags)
{
	struct iovec iov[SC_UIO_MAXIOV];
	uint64_t cnt = (uint32_t)vlen;
	long err = 0;
	const struct iovec *v;

	if (!v2 && pos < 0)
		return -EINVAL;
	v = sc_iovec_for_host(t, vec, cnt, sc_compat(),
			      write ? PROT_READ : PROT_WRITE, iov, &err);
	if (!v)
		return err;
	if (v2)
		return host_blocking6(t, write ? SYS_pwritev2 : SYS_preadv2,
				     fd, (long)v, (long)cnt, pos, 0, flags);
	return host_blocking6(t, write ? SYS_pwritev : SYS_preadv, fd,
			     (long)v, (long)cnt, pos, 0, 0);
}

SG_SYSCALL_DEFINE4(sys_preadv, fd, vec, vlen, pos)
{
	return do_prw_vec(t, false, false, fd, vec, vlen, pos, 0);
}

SG_SYSCALL_DEFINE4(sys_pwritev, fd, vec, vlen, pos)
{
	return do_prw_vec(t, false, true, fd, vec, vlen, pos, 0);
}

SG_SYSCALL_DEFINE6(sys_preadv2, fd, vec, vlen, pos, pos_h, flags)
{
	return do_prw_vec(t, true, false, fd, vec, vlen, pos, (long)flags);
}

SG_SYSCALL_DEFINE6(sys_pwritev2, fd, vec, vlen, pos, pos_h, flags)
{
	return do_prw_vec(t, true, true, fd, vec, vlen, pos, (long)flags);
}

SG_SYSCALL_DEFINE4(compat_sys_preadv, fd, vec, vlen, pos)
{
	return do_prw_vec(t, false, false, fd, vec, vlen, pos, 0);
}

SG_SYSCALL_DEFINE4(compat_sys_pwritev, fd, vec, vlen, pos)
{
	return do_prw_vec(t, false, true, fd, vec, vlen, pos, 0);
}

SG_SYSCALL_DEFINE5(compat_sys_preadv2, fd, vec, vlen, pos, flags)
{
	return do_prw_vec(t, true, false, fd, vec, vlen, pos, (long)(uint32_t)flags);
}

SG_SYSCALL_DEFINE5(compat_sys_pwritev2, fd, vec, vlen, pos, flags)
{
	return do_prw_vec(t, true, true, fd, vec, vlen, pos, (long)(uint32_t)flags);
}

SG_SYSCALL_DEFINE4(compat_sys_preadv64, fd, vec, vlen, pos)
{
	return do_prw_vec(t, false, false, fd, vec, vlen, pos, 0);
}

SG_SYSCALL_DEFINE4(compat_sys_pwritev64, fd, vec, vlen, pos)
{
	return do_prw_vec(t, false, true, fd, vec, vlen, pos, 0);
}

SG_SYSCALL_DEFINE5(compat_sys_preadv64v2, fd, vec, vlen, pos, flags)
{
	return do_prw_vec(t, true, false, fd, vec, vlen, pos, (long)(uint32_t)flags);
}

SG_SYSCALL_DEFINE5(compat_sys_pwritev64v2, fd, vec, vlen, pos, flags)
{
	return do_prw_vec(t, true, true, fd, vec, vlen, pos, (long)(uint32_t)flags);
}

/* guest pages into a pipe (or out) */
SG_SYSCALL_DEFINE4(sys_vmsplice, fd, uiov, nr_segs, flags)
{
	struct iovec iov[SC_UIO_MAXIOV];
	uint64_t cnt = (uint32_t)nr_segs;
	long err = 0;
	const struct iovec *v = sc_iovec_for_host(t, uiov, cnt, sc_compat(),
						  PROT_READ, iov, &err);

	return v ? host_blocking4(t, SYS_vmsplice, fd, v, cnt, flags) : err;
}

/* process_vm_readv/writev: the local buffers are the guest's (checked);
 * the remote ones are addresses in the other process, widened from the
 * guest's iovec form only. */
static long process_vm(struct sg_thread *t, long nr, int local_prot, int pid, uint64_t lvec,
		       uint64_t liovcnt, uint64_t rvec, uint64_t riovcnt, uint64_t flags)
{
	struct iovec local[SC_UIO_MAXIOV], remote[SC_UIO_MAXIOV]; /* 32 KiB of stack */
	uint64_t nl = (uint32_t)liovcnt, nrem = (uint32_t)riovcnt, total = 0;
	const struct iovec *lv, *rv = remote;
	/* the other process is sysgate itself: its addresses are guest
	 * addresses, and only the guest's memory may be read or written */
	bool self = (pid_t)pid == (pid_t)host_syscall0(SYS_getpid);
	long err = 0;

	/* the kernel's order: flags, the local vector (an empty one ends
	 * the call), the remote one, then the process */
	if (flags)
		return -EINVAL;
	lv = sc_iovec_for_host(t, lvec, nl, sc_compat(), local_prot, local, &err);
	if (!lv)
		return err;
	if (lv == local) {
		for (uint64_t i = 0; i < nl; i++)
			total += local[i].iov_len;
		if (total == 0)
			return 0;
	}
	if (nrem > SC_UIO_MAXIOV)
		rv = sc_fault_ptr(t, rvec);
	for (uint64_t i = 0; rv == remote && i < nrem; i++) {
		if (sc_compat()) {
			struct compat_iovec c;

			if (copy_from_guest(sc_mm(t), &c, rvec + i * sizeof(c),
					    sizeof(c))) {
				rv = sc_fault_ptr(t, rvec);
				break;
			}
			remote[i].iov_base = (void *)(uintptr_t)c.iov_base;
			remote[i].iov_len = (size_t)(int32_t)c.iov_len;
		} else if (copy_from_guest(sc_mm(t), &remote[i],
					   rvec + i * sizeof(remote[i]),
					   sizeof(remote[i]))) {
			rv = sc_fault_ptr(t, rvec);
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
	return host_syscall6(nr, pid, (long)lv, (long)nl, (long)rv, (long)nrem, (long)flags);
}

SG_SYSCALL_DEFINE6(sys_process_vm_readv, pid, lvec, liovcnt, rvec, riovcnt, flags)
{
	return process_vm(t, SYS_process_vm_readv, PROT_WRITE, pid, lvec, liovcnt, rvec,
			  riovcnt, flags);
}

SG_SYSCALL_DEFINE6(sys_process_vm_writev, pid, lvec, liovcnt, rvec, riovcnt, flags)
{
	return process_vm(t, SYS_process_vm_writev, PROT_READ, pid, lvec, liovcnt, rvec,
			  riovcnt, flags);
}
