/* sendmsg, recvmsg, sendmmsg, recvmmsg in every ABI form.
 *
 * The guest's struct msghdr is read (compat_msghdr for i386 and x32),
 * every pointer in it checked, and a host msghdr built: the name and the
 * data buffers are the guest's own memory (same addresses); the control
 * data is the guest's for x86_64 and a translated host copy for the
 * 32-bit ABIs (struct cmsghdr differs, compat/compat_net.c). After a
 * receive, msg_namelen, msg_controllen and msg_flags go back to the guest
 * as the kernel writes them.
 */
#define _GNU_SOURCE /* struct mmsghdr */
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include "syscall/compat/compat.h"
#include "syscall/handler.h"

#define SC_SOCKADDR_MAX 128 /* sizeof(struct sockaddr_storage) */
#define SC_MSG_CMSG_COMPAT 0x80000000u
/* The most host control data sysgate converts through for a compat
 * guest: the kernel's own is bounded by net.core.optmem_max (20 KiB to
 * 128 KiB on 6.x) and SCM_MAX_FD descriptors. */
#define SC_CMSG_HOST_MAX (1u << 20)

/* One message being sent or received. */
struct msg_conv {
	struct msghdr h;
	uint64_t guest;      /* the guest's msghdr */
	uint64_t g_ctl;      /* the guest's control buffer */
	uint32_t g_ctllen;
	bool compat;
};

static void msg_free(struct msg_conv *m)
{
	free(m->h.msg_iov);
	if (m->compat)
		free(m->h.msg_control);
	memset(m, 0, sizeof(*m));
}

/* The guest header, widened to the host's field types. */
static long read_msghdr(struct sg_thread *t, uint64_t addr, bool compat,
			uint64_t f[7])
{
	if (compat) {
		struct compat_msghdr c;

		if (copy_from_guest(sc_mm(t), &c, addr, sizeof(c)))
			return -EFAULT;
		f[0] = c.msg_name;
		f[1] = c.msg_namelen;
		f[2] = c.msg_iov;
		f[3] = c.msg_iovlen;
		f[4] = c.msg_control;
		f[5] = c.msg_controllen;
		f[6] = c.msg_flags;
	} else {
		struct msghdr h;

		if (copy_from_guest(sc_mm(t), &h, addr, sizeof(h)))
			return -EFAULT;
		f[0] = h2g(h.msg_name);
		f[1] = h.msg_namelen;
		f[2] = h2g(h.msg_iov);
		f[3] = h.msg_iovlen;
		f[4] = h2g(h.msg_control);
		f[5] = h.msg_controllen;
		f[6] = (uint32_t)h.msg_flags;
	}
	return 0;
}

static long get_msg(struct sg_thread *t, uint64_t addr, bool recv,
		    struct msg_conv *m)
{
	bool compat = sc_compat();
	int data_prot = recv ? PROT_WRITE : PROT_READ;
	uint64_t f[7];
	long err = 0, r;

	memset(m, 0, sizeof(*m));
	m->compat = compat;
	m->guest = addr;
	r = read_msghdr(t, addr, compat, f);
	if (r)
		return r;
	/* name: the kernel refuses more than a sockaddr_storage on send
	 * and a negative length on receive */
	if ((int32_t)f[1] < 0 || (!recv && f[1] > SC_SOCKADDR_MAX))
		return -EINVAL;
	if (f[0] && f[1]) {
		m->h.msg_name = sc_buf(t, f[0], f[1], data_prot, &err);
		if (err)
			return err;
		m->h.msg_namelen = (socklen_t)f[1];
	}
	if (f[3] > SC_UIO_MAXIOV)
		return -EMSGSIZE;
	if (f[3]) {
		m->h.msg_iov = malloc(f[3] * sizeof(struct iovec));
		if (!m->h.msg_iov)
			return -ENOMEM;
		m->h.msg_iovlen = f[3];
		r = sc_get_iovec(t, f[2], f[3], compat, data_prot, m->h.msg_iov);
		if (r)
			return r;
	}
	m->g_ctl = f[4];
	m->g_ctllen = (uint32_t)f[5];
	if (!f[4] || !f[5])
		return 0;
	if (!compat) {
		m->h.msg_control = sc_buf(t, f[4], f[5],
					  recv ? PROT_WRITE : PROT_READ, &err);
		m->h.msg_controllen = f[5];
		return err ? err : recv ? 0 : sc_cmsg_rights_check(&m->h);
	}
	/* host cmsgs are at most twice the size of compat ones, plus one
	 * header's worth of alignment; never more than the kernel itself
	 * takes (the guest's length is a bound, not a size: 4 GiB made
	 * sysgate calloc 8 GiB, found by fuzz_syscall) */
	m->h.msg_controllen = 2 * (size_t)m->g_ctllen + 16;
	if (m->h.msg_controllen > SC_CMSG_HOST_MAX)
		m->h.msg_controllen = SC_CMSG_HOST_MAX;
	m->h.msg_control = calloc(1, m->h.msg_controllen);
	if (!m->h.msg_control)
		return -ENOMEM;
	if (recv)
		return 0;
	{
		void *in = sc_buf(t, f[4], f[5], PROT_READ, &err);
		size_t len = 0;

		if (err)
			return err;
		r = get_compat_cmsgs(m->h.msg_control, m->h.msg_controllen,
				     &len, in, f[5], sc_i386());
		m->h.msg_controllen = len;
		return r ? r : sc_cmsg_rights_check(&m->h);
	}
}

/* After a receive: name length, control data and flags to the guest. */
static long put_msg(struct sg_thread *t, struct msg_conv *m)
{
	uint32_t flags = (uint32_t)m->h.msg_flags & ~SC_MSG_CMSG_COMPAT;

	if (!m->compat) {
		struct msghdr h;

		if (copy_from_guest(sc_mm(t), &h, m->guest, sizeof(h)))
			return -EFAULT;
		h.msg_namelen = m->h.msg_namelen;
		h.msg_controllen = m->h.msg_control ? m->h.msg_controllen : 0;
		h.msg_flags = (int)flags;
		return copy_to_guest(sc_mm(t), m->guest, &h, sizeof(h));
	} else {
		struct compat_msghdr c;
		uint32_t used = 0;

		if (copy_from_guest(sc_mm(t), &c, m->guest, sizeof(c)))
			return -EFAULT;
		if (m->h.msg_control) {
			bool ctrunc = false;
			long err = 0;
			void *out = sc_buf(t, m->g_ctl, m->g_ctllen, PROT_WRITE,
					   &err);

			if (err)
				return err;
			used = (uint32_t)put_compat_cmsgs(
				out, m->g_ctllen, m->h.msg_control,
				m->h.msg_controllen, sc_i386(), &ctrunc);
			if (ctrunc)
				flags |= MSG_CTRUNC;
		}
		c.msg_namelen = m->h.msg_namelen;
		c.msg_controllen = used;
		c.msg_flags = flags;
		return copy_to_guest(sc_mm(t), m->guest, &c, sizeof(c));
	}
}

/* A 64-bit caller may not set MSG_CMSG_COMPAT: the kernel's first check
 * (compat callers have it set for them). */
static long cmsg_compat_flag(uint64_t flags)
{
	return !sc_compat() && ((uint32_t)flags & SC_MSG_CMSG_COMPAT) ? -EINVAL : 0;
}

static long do_sendmsg(struct sg_thread *t, int fd, uint64_t msg, uint64_t flags)
{
	struct msg_conv m;
	long r = cmsg_compat_flag(flags);

	if (!r)
		r = sc_sock_fd(fd);

	if (r)
		return r;
	r = get_msg(t, msg, false, &m);

	if (!r)
		r = sc_sock_interrupted(host_blocking3(t, SYS_sendmsg, fd, &m.h,
						       (uint32_t)flags & ~SC_MSG_CMSG_COMPAT),
					fd, false);
	msg_free(&m);
	return r;
}

static long do_recvmsg(struct sg_thread *t, int fd, uint64_t msg, uint64_t flags)
{
	struct msg_conv m;
	long r = cmsg_compat_flag(flags);

	if (!r)
		r = sc_sock_fd(fd);

	if (r)
		return r;
	r = get_msg(t, msg, true, &m);

	if (!r)
		r = sc_sock_interrupted(host_blocking3(t, SYS_recvmsg, fd, &m.h,
						       (uint32_t)flags & ~SC_MSG_CMSG_COMPAT),
					fd, true);
	if (r >= 0) {
		long p = put_msg(t, &m);

		if (p)
			r = p;
	}
	msg_free(&m);
	return r;
}

SG_SYSCALL_DEFINE3(sys_sendmsg, fd, msg, flags)
{
	return do_sendmsg(t, fd, msg, flags);
}

SG_SYSCALL_DEFINE3(compat_sys_sendmsg, fd, msg, flags)
{
	return do_sendmsg(t, fd, msg, flags);
}

SG_SYSCALL_DEFINE3(sys_recvmsg, fd, msg, flags)
{
	return do_recvmsg(t, fd, msg, flags);
}

SG_SYSCALL_DEFINE3(compat_sys_recvmsg, fd, msg, flags)
{
	return do_recvmsg(t, fd, msg, flags);
}

/* --- vectors of messages --------------------------------------------------- */

enum mmsg_tmo { MMSG_TS, MMSG_TS32 };

/* recv: the timeout (NULL or host form) */
static long do_mmsg(struct sg_thread *t, bool recv, struct timespec *tmo, int fd, uint64_t mmsg,
		    int vlen_arg, uint64_t flags)
{
	size_t entry = sc_compat() ? sizeof(struct compat_mmsghdr)
				   : sizeof(struct mmsghdr);
	uint32_t vlen = (uint32_t)vlen_arg;
	struct mmsghdr *hv;
	struct msg_conv *mv;
	uint32_t n = 0;
	long r = 0;

	r = cmsg_compat_flag(flags);
	if (!r)
		r = sc_sock_fd(fd);
	if (r)
		return r;
	if (vlen > SC_UIO_MAXIOV)
		vlen = SC_UIO_MAXIOV;
	hv = calloc(vlen ? vlen : 1, sizeof(*hv) + sizeof(*mv));
	if (!hv)
		return -ENOMEM;
	mv = (struct msg_conv *)(hv + (vlen ? vlen : 1));
	for (; n < vlen; n++) {
		r = get_msg(t, mmsg + n * entry, recv, &mv[n]);
		if (r) {
			msg_free(&mv[n]);
			break;
		}
		hv[n].msg_hdr = mv[n].h;
	}
	if (n)
		r = sc_sock_interrupted(host_blocking5(t, recv ? SYS_recvmmsg : SYS_sendmmsg, fd,
						       hv, n, (uint32_t)flags & ~SC_MSG_CMSG_COMPAT,
						       recv ? tmo : NULL),
					fd, recv);
	/* the kernel stops at a bad entry after the first: that many sent */
	for (uint32_t i = 0; r > 0 && i < (uint32_t)r; i++) {
		uint32_t len = hv[i].msg_len;
		uint64_t at = mmsg + i * entry +
			      (sc_compat() ? offsetof(struct compat_mmsghdr, msg_len)
					   : offsetof(struct mmsghdr, msg_len));

		mv[i].h = hv[i].msg_hdr;
		if ((recv && put_msg(t, &mv[i])) ||
		    copy_to_guest(sc_mm(t), at, &len, sizeof(len)))
			r = i ? (long)i : -EFAULT;
	}
	for (uint32_t i = 0; i < n; i++)
		msg_free(&mv[i]);
	free(hv);
	return r;
}

SG_SYSCALL_DEFINE4(sys_sendmmsg, fd, mmsg, vlen, flags)
{
	return do_mmsg(t, false, NULL, fd, mmsg, vlen, flags);
}

SG_SYSCALL_DEFINE4(compat_sys_sendmmsg, fd, mmsg, vlen, flags)
{
	return do_mmsg(t, false, NULL, fd, mmsg, vlen, flags);
}

static long recvmmsg_tmo(struct sg_thread *t, enum mmsg_tmo form, int fd, uint64_t mmsg,
			 int vlen, uint64_t flags, uint64_t timeout)
{
	struct timespec ts;
	long r;

	if (cmsg_compat_flag(flags))
		return -EINVAL;
	if (!timeout)
		return do_mmsg(t, true, NULL, fd, mmsg, vlen, flags);
	if (form == MMSG_TS32) {
		struct compat_timespec c;

		if (copy_from_guest(sc_mm(t), &c, timeout, sizeof(c)))
			return -EFAULT;
		get_compat_timespec(&ts, &c);
	} else if (copy_from_guest(sc_mm(t), &ts, timeout, sizeof(ts))) {
		return -EFAULT;
	}
	/* an invalid timeout before the socket, as the kernel */
	if (ts.tv_sec < 0 || ts.tv_nsec < 0 || ts.tv_nsec >= 1000000000L)
		return -EINVAL;
	r = do_mmsg(t, true, &ts, fd, mmsg, vlen, flags);
	/* the remaining time goes back, as the kernel writes it */
	if (r >= 0) {
		if (form == MMSG_TS32) {
			struct compat_timespec c;

			put_compat_timespec(&c, &ts);
			copy_to_guest(sc_mm(t), timeout, &c, sizeof(c));
		} else {
			copy_to_guest(sc_mm(t), timeout, &ts, sizeof(ts));
		}
	}
	return r;
}

SG_SYSCALL_DEFINE5(sys_recvmmsg, fd, mmsg, vlen, flags, timeout)
{
	return recvmmsg_tmo(t, MMSG_TS, fd, mmsg, vlen, flags, timeout);
}

SG_SYSCALL_DEFINE5(compat_sys_recvmmsg_time64, fd, mmsg, vlen, flags, timeout)
{
	return recvmmsg_tmo(t, MMSG_TS, fd, mmsg, vlen, flags, timeout);
}

SG_SYSCALL_DEFINE5(compat_sys_recvmmsg_time32, fd, mmsg, vlen, flags, timeout)
{
	return recvmmsg_tmo(t, MMSG_TS32, fd, mmsg, vlen, flags, timeout);
}
