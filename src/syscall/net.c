/* Sockets: the direct calls of every ABI, socket options whose values
 * differ between the ABIs, and the i386 socketcall multiplexer. Socket
 * addresses are the same bytes in all ABIs, so they are only checked;
 * messages (msghdr, cmsg) are msg.c.
 */
#include <linux/filter.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>

#include "syscall/carried.h"
#include "syscall/compat/compat.h"
#include "syscall/handler.h"

#define SC_SOCKADDR_MAX 128

long sc_sock_fd(uint64_t fd)
{
	struct stat st;
	long r = host_syscall2(SYS_fstat, (long)(int)fd, &st);

	if (r)
		return r;
	return S_ISSOCK(st.st_mode) ? 0 : -ENOTSOCK;
}

/* A guest (addr, int *len) result pair for the host, which checks them
 * in its own order (descriptor first; the length is read when it is
 * needed): both fault-shaped (sc_buf), the address for at most the
 * guest's length and never more than a sockaddr_storage, the most the
 * kernel writes. An unreadable or negative length leaves the address a
 * pointer the host faults on: it fails on the length first. */
static long addr_out(struct sg_thread *t, uint64_t addr, uint64_t lenp,
		     void **h_addr, void **h_len)
{
	int32_t len = -1;
	long err = 0;

	*h_addr = *h_len = NULL;
	if (lenp)
		*h_len = sc_buf(t, lenp, sizeof(len), PROT_WRITE, &err);
	if (!addr || err)
		return err;
	if (copy_from_guest(sc_mm(t), &len, lenp, sizeof(len)) || len < 0)
		*h_addr = sc_fault_ptr(t, addr);
	else
		*h_addr = sc_buf(t, addr,
				 len > SC_SOCKADDR_MAX ? SC_SOCKADDR_MAX : len,
				 PROT_WRITE, &err);
	return err;
}

SG_PASSTHROUGH(sys_socket, SYS_socket)
SG_PASSTHROUGH(sys_socketpair, SYS_socketpair)
SG_PASSTHROUGH(sys_listen, SYS_listen)
SG_PASSTHROUGH(sys_shutdown, SYS_shutdown)

#define SC_SO_RCVTIMEO_OLD 20
#define SC_SO_SNDTIMEO_OLD 21

long sc_sock_interrupted_slow(long r, uint64_t fd, bool receiving)
{
	struct timeval tv = { 0, 0 };
	uint32_t len = sizeof(tv);

	if (host_syscall5(SYS_getsockopt, (long)(int)fd, SOL_SOCKET,
			  receiving ? SC_SO_RCVTIMEO_OLD : SC_SO_SNDTIMEO_OLD, &tv, &len) == 0 &&
	    (tv.tv_sec || tv.tv_usec))
		return -EINTR;
	return r;
}

/* bind/connect: a sockaddr of at most sockaddr_storage (else -EINVAL) */
static long addr_in_call(struct sg_thread *t, long nr, int fd, uint64_t uaddr, int addrlen)
{
	uint32_t len = (uint32_t)addrlen;
	long err = 0;
	void *addr = NULL;

	/* a bad length is the host's EINVAL, after its descriptor checks */
	if (uaddr && ((int32_t)len < 0 || len > SC_SOCKADDR_MAX))
		addr = sc_fault_ptr(t, uaddr);
	else if (uaddr)
		addr = sc_buf(t, uaddr, len, PROT_READ, &err);
	return err ? err : sc_sock_interrupted(host_blocking3(t, nr, fd, addr, len), fd, false);
}

SG_SYSCALL_DEFINE3(sys_bind, fd, umyaddr, addrlen)
{
	return addr_in_call(t, SYS_bind, fd, umyaddr, addrlen);
}

SG_SYSCALL_DEFINE3(sys_connect, fd, uservaddr, addrlen)
{
	return addr_in_call(t, SYS_connect, fd, uservaddr, addrlen);
}

static long addr_out_call(struct sg_thread *t, long nr, int fd, uint64_t upeer,
			  uint64_t upeer_len, long flags)
{
	void *addr, *len;
	long r = addr_out(t, upeer, upeer_len, &addr, &len);

	if (r)
		return r;
	if (nr == SYS_accept4)
		r = host_blocking4(t, nr, fd, addr, len, flags);
	else
		r = host_blocking3(t, nr, fd, addr, len);
	return sc_sock_interrupted(r, fd, true);
}

SG_SYSCALL_DEFINE3(sys_accept, fd, upeer_sockaddr, upeer_addrlen)
{
	return addr_out_call(t, SYS_accept, fd, upeer_sockaddr, upeer_addrlen, 0);
}

SG_SYSCALL_DEFINE4(sys_accept4, fd, upeer_sockaddr, upeer_addrlen, flags)
{
	return addr_out_call(t, SYS_accept4, fd, upeer_sockaddr, upeer_addrlen,
			     (long)(int)flags);
}

SG_SYSCALL_DEFINE3(sys_getsockname, fd, usockaddr, usockaddr_len)
{
	return addr_out_call(t, SYS_getsockname, fd, usockaddr, usockaddr_len, 0);
}

SG_SYSCALL_DEFINE3(sys_getpeername, fd, usockaddr, usockaddr_len)
{
	return addr_out_call(t, SYS_getpeername, fd, usockaddr, usockaddr_len, 0);
}

SG_SYSCALL_DEFINE6(sys_sendto, fd, buff, len, flags, uaddr, addr_len)
{
	uint32_t alen = (uint32_t)addr_len;
	long err = 0;
	void *buf = sc_buf(t, buff, sc_compat() ? (uint32_t)len : len,
			   PROT_READ, &err);
	void *addr = NULL;

	if (uaddr && ((int32_t)alen < 0 || alen > SC_SOCKADDR_MAX))
		addr = sc_fault_ptr(t, uaddr); /* the host's EINVAL, in order */
	else if (uaddr)
		addr = sc_buf(t, uaddr, alen, PROT_READ, &err);
	if (err)
		return err;
	return sc_sock_interrupted(host_blocking6(t, SYS_sendto, fd, (long)buf,
						  sc_compat() ? (long)(uint32_t)len : (long)len,
						  (long)(uint32_t)flags, (long)addr, (long)alen),
				   fd, false);
}

SG_SYSCALL_DEFINE6(sys_recvfrom, fd, ubuf, size, flags, uaddr, addr_len)
{
	uint64_t len = sc_compat() ? (uint32_t)size : size;
	void *addr, *alen, *buf;
	long err = 0;

	buf = sc_buf(t, ubuf, len, PROT_WRITE, &err);
	if (err)
		return err;
	err = addr_out(t, uaddr, addr_len, &addr, &alen);
	if (err)
		return err;
	return sc_sock_interrupted(host_blocking6(t, SYS_recvfrom, fd, (long)buf, (long)len,
						  (long)(uint32_t)flags, (long)addr, (long)alen),
				   fd, true);
}

SG_SYSCALL_DEFINE(compat_sys_recvfrom)
{
	return sys_recvfrom(t, a);
}

/* --- socket options ----------------------------------------------------------- */

static bool is_old_timeo(int level, int name)
{
	return level == SOL_SOCKET &&
	       (name == SC_SO_RCVTIMEO_OLD || name == SC_SO_SNDTIMEO_OLD);
}

static bool is_fprog(int level, int name)
{
	return level == SOL_SOCKET &&
	       (name == SO_ATTACH_FILTER || name == SO_ATTACH_REUSEPORT_CBPF);
}

static bool is_group_req(int level, int name)
{
	return (level == IPPROTO_IP || level == IPPROTO_IPV6) &&
	       (name == MCAST_JOIN_GROUP || name == MCAST_LEAVE_GROUP);
}

static bool is_group_source_req(int level, int name)
{
	return (level == IPPROTO_IP || level == IPPROTO_IPV6) &&
	       (name == MCAST_BLOCK_SOURCE || name == MCAST_UNBLOCK_SOURCE ||
		name == MCAST_JOIN_SOURCE_GROUP ||
		name == MCAST_LEAVE_SOURCE_GROUP);
}

/* setsockopt(fd, level, name, val, len): i386 gives a 32-bit timeval for
 * the old timeouts; i386 and x32 give compat sock_fprog and group_req. */
SG_SYSCALL_DEFINE5(sys_setsockopt, fd, optlevel, optname, optval, optlen)
{
	int level = (int)optlevel, name = (int)optname;
	uint32_t len = (uint32_t)optlen;
	long err = sc_sock_fd(fd); /* the kernel looks at the socket first */
	void *val;

	if (err)
		return err;
	if ((int32_t)len < 0)
		return -EINVAL;
	if (sc_i386() && is_old_timeo(level, name)) {
		struct compat_timeval c;
		struct timeval tv;

		if (len < sizeof(c))
			return -EINVAL;
		if (copy_from_guest(sc_mm(t), &c, optval, sizeof(c)))
			return -EFAULT;
		get_compat_timeval(&tv, &c);
		return host_syscall5(SYS_setsockopt, fd, level, name, &tv,
				     sizeof(tv));
	}
	if (sc_compat() && is_fprog(level, name)) {
		struct compat_sock_fprog c;
		struct sock_fprog h;

		if (len < sizeof(c))
			return -EINVAL;
		if (copy_from_guest(sc_mm(t), &c, optval, sizeof(c)))
			return -EFAULT;
		h.len = c.len;
		h.filter = sc_buf(t, c.filter,
				  (uint64_t)c.len * sizeof(struct sock_filter),
				  PROT_READ, &err);
		if (err)
			return err;
		return host_syscall5(SYS_setsockopt, fd, level, name, &h,
				     sizeof(h));
	}
	if (sc_compat() && is_group_req(level, name)) {
		struct compat_group_req c;
		struct group_req h;

		if (len < sizeof(c))
			return -EINVAL;
		if (copy_from_guest(sc_mm(t), &c, optval, sizeof(c)))
			return -EFAULT;
		memset(&h, 0, sizeof(h));
		h.gr_interface = c.gr_interface;
		memcpy(&h.gr_group, c.gr_group, sizeof(c.gr_group));
		return host_syscall5(SYS_setsockopt, fd, level, name, &h,
				     sizeof(h));
	}
	if (sc_compat() && is_group_source_req(level, name)) {
		struct compat_group_source_req c;
		struct group_source_req h;

		if (len < sizeof(c))
			return -EINVAL;
		if (copy_from_guest(sc_mm(t), &c, optval, sizeof(c)))
			return -EFAULT;
		memset(&h, 0, sizeof(h));
		h.gsr_interface = c.gsr_interface;
		memcpy(&h.gsr_group, c.gsr_group, sizeof(c.gsr_group));
		memcpy(&h.gsr_source, c.gsr_source, sizeof(c.gsr_source));
		return host_syscall5(SYS_setsockopt, fd, level, name, &h,
				     sizeof(h));
	}
	val = sc_buf(t, optval, len, PROT_READ, &err);
	return err ? err : host_syscall5(SYS_setsockopt, fd, level, name, val,
					 len);
}

/* getsockopt(fd, level, name, val, int *len) */
SG_SYSCALL_DEFINE5(sys_getsockopt, fd, optlevel, optname, optval, optlen)
{
	int level = (int)optlevel, name = (int)optname;
	int32_t len = -1;
	long err = 0, r;
	void *val, *lenp;

	if (sc_i386() && is_old_timeo(level, name)) {
		struct compat_timeval c;
		struct timeval tv;
		socklen_t hl = sizeof(tv);

		/* the socket first, then the length, as the kernel */
		r = host_syscall5(SYS_getsockopt, fd, level, name, &tv, &hl);
		if (r)
			return r;
		if (copy_from_guest(sc_mm(t), &len, optlen, sizeof(len)))
			return -EFAULT;
		if (len < 0 || (size_t)len < sizeof(c))
			return -EINVAL;
		put_compat_timeval(&c, &tv);
		len = sizeof(c);
		if (copy_to_guest(sc_mm(t), optval, &c, sizeof(c)) ||
		    copy_to_guest(sc_mm(t), optlen, &len, sizeof(len)))
			return -EFAULT;
		return 0;
	}
	/* the host reads the length after its socket checks: an unreadable
	 * or negative one leaves the value a pointer it faults on */
	lenp = sc_buf(t, optlen, sizeof(len), PROT_WRITE, &err);
	if (copy_from_guest(sc_mm(t), &len, optlen, sizeof(len)) || len < 0)
		val = optval ? sc_fault_ptr(t, optval) : NULL;
	else
		val = sc_buf(t, optval, (uint32_t)len, PROT_WRITE, &err);
	if (err)
		return err;
	return host_syscall5(SYS_getsockopt, fd, level, name, val, lenp);
}

/* --- i386 socketcall(call, unsigned long args[]) -------------------------------- */

/* The carried call runs as its i386 row (syscall/carried.h: send, recv and
 * accept as sendto, recvfrom and accept4 with the missing arguments 0, as
 * the kernel runs them). */
SG_SYSCALL_DEFINE(compat_sys_socketcall)
{
	const struct sg_syscall_table *tab = sg_syscall_table(SG_TABLE_I386);
	const struct sg_syscall_row *row;
	struct sg_carried c;
	int err = sg_carried_socketcall(a, copy_from_guest, sc_mm(t), &c);

	if (err)
		return err;
	if (c.row < 0 || (unsigned)c.row >= tab->size || !systab_row_fn(&tab->rows[c.row]))
		return -ENOSYS;
	row = &tab->rows[c.row];
	/* the entry's descriptor check cannot see into the block */
	if (row->fd_args && sc_names_private_fd(row->fd_args, c.args))
		return -EBADF;
	return systab_row_fn(row)(t, c.args);
}
