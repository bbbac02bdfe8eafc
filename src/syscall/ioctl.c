/* ioctl: an allow-list of the commands terminals, descriptors, files and
 * sockets use, with the size and direction of what the argument points
 * to, so every guest buffer is checked before the host sees it.
 *
 * Commands not in the list:
 *  - encoded with _IOC direction and size: the guest buffer is checked for
 *    that size and direction and the call passed through. A structure
 *    whose size differs between the ABIs encodes a different number in
 *    i386/x32 than the host driver knows, so the host answers -ENOTTY,
 *    as a 64-bit kernel does for a command without a compat handler.
 *  - old-style numbers without an encoding (0x54xx, 0x89xx, 0x7b9, ...):
 *    the argument is a value or points to something of a size only the
 *    driver knows. x86_64 passes them through, the argument as it is
 *    unless it points into sysgate's own memory (old_style_arg); i386 and
 *    x32 answer -ENOTTY, as a 64-bit kernel does for a driver without a
 *    compat handler: the layout behind the pointer may be the ABI's own
 *    (docs/syscalls.md). SIOCGIFCONF is translated for them.
 * i386/x32 numbers whose encoded size is a long or size_t are mapped to
 * the host's (FS_IOC32_GETFLAGS, BLKGETSIZE64, ...), as compat_ioctl does;
 * SIOCGSTAMP with a 32-bit timeval is widened for i386.
 */
#include <asm/ioctls.h>
#include <linux/fs.h>
#include <linux/sockios.h>
#include <linux/vm_sockets.h>
#include <stdlib.h>
#include <net/if.h>
#include <string.h>
#include <sys/time.h>

#include "syscall/compat/compat.h"
#include <fcntl.h>

#include "syscall/handler.h"

/* termios2 (44 bytes) commands, numerically: <asm/ioctls.h> spells them
 * with sizeof(struct termios2), which only <asm/termbits.h> defines */
#define SC_TCGETS2 0x802c542au
#define SC_TCSETS2 0x402c542bu
#define SC_TCSETSW2 0x402c542cu
#define SC_TCSETSF2 0x402c542du

enum io_kind { IO_VAL, IO_NONE, IO_IN, IO_OUT, IO_INOUT };

struct io_cmd {
	uint32_t cmd;
	uint16_t size;
	uint8_t kind;
};

/* Kernel struct termios (36 bytes) and termios2 (44), struct winsize (8),
 * struct termio (18): the same in all three ABIs. */
static const struct io_cmd known[] = {
	{ TCGETS, 36, IO_OUT },	       { TCSETS, 36, IO_IN },
	{ TCSETSW, 36, IO_IN },	       { TCSETSF, 36, IO_IN },
	{ TCGETA, 18, IO_OUT },	       { TCSETA, 18, IO_IN },
	{ TCSETAW, 18, IO_IN },	       { TCSETAF, 18, IO_IN },
	{ SC_TCGETS2, 44, IO_OUT },    { SC_TCSETS2, 44, IO_IN },
	{ SC_TCSETSW2, 44, IO_IN },    { SC_TCSETSF2, 44, IO_IN },
	{ TCSBRK, 0, IO_VAL },	       { TCSBRKP, 0, IO_VAL },
	{ TCXONC, 0, IO_VAL },	       { TCFLSH, 0, IO_VAL },
	{ TIOCEXCL, 0, IO_NONE },      { TIOCNXCL, 0, IO_NONE },
	{ TIOCSCTTY, 0, IO_VAL },      { TIOCNOTTY, 0, IO_NONE },
	{ TIOCCONS, 0, IO_NONE },      { TIOCSBRK, 0, IO_NONE },
	{ TIOCCBRK, 0, IO_NONE },      { TIOCGPGRP, 4, IO_OUT },
	{ TIOCSPGRP, 4, IO_IN },       { TIOCGSID, 4, IO_OUT },
	{ TIOCOUTQ, 4, IO_OUT },       { TIOCSTI, 1, IO_IN },
	{ TIOCGWINSZ, 8, IO_OUT },     { TIOCSWINSZ, 8, IO_IN },
	{ TIOCMGET, 4, IO_OUT },       { TIOCMBIS, 4, IO_IN },
	{ TIOCMBIC, 4, IO_IN },	       { TIOCMSET, 4, IO_IN },
	{ TIOCGSOFTCAR, 4, IO_OUT },   { TIOCSSOFTCAR, 4, IO_IN },
	{ TIOCPKT, 4, IO_IN },	       { TIOCSETD, 4, IO_IN },
	{ TIOCGETD, 4, IO_OUT },       { TIOCGPTN, 4, IO_OUT },
	{ TIOCSPTLCK, 4, IO_IN },      { TIOCGPTLCK, 4, IO_OUT },
	{ TIOCGPKT, 4, IO_OUT },       { TIOCGDEV, 4, IO_OUT },
	{ TIOCGPTPEER, 0, IO_VAL },    { TIOCSERGETLSR, 4, IO_OUT },
	{ FIONREAD, 4, IO_OUT },       { FIONBIO, 4, IO_IN },
	{ FIOASYNC, 4, IO_IN },	       { FIOCLEX, 0, IO_NONE },
	{ FIONCLEX, 0, IO_NONE },      { FIOQSIZE, 8, IO_OUT },
	{ FIGETBSZ, 4, IO_OUT },       { FIBMAP, 4, IO_INOUT },
	{ FICLONE, 0, IO_VAL },	       { BLKSSZGET, 4, IO_OUT },
	{ BLKROGET, 4, IO_OUT },       { SIOCATMARK, 4, IO_OUT },
	{ SIOCGPGRP, 4, IO_OUT },      { SIOCSPGRP, 4, IO_IN },
	{ SIOCOUTQNSD, 4, IO_OUT },
	{ IOCTL_VM_SOCKETS_GET_LOCAL_CID, 4, IO_OUT },
};

/* struct ifreq requests whose union member is a sockaddr, an int or a
 * name: the same bytes in the 32-byte compat ifreq and the host's 40. */
static const uint32_t ifreq_cmds[] = {
	SIOCGIFNAME,	SIOCGIFFLAGS,	SIOCSIFFLAGS,	SIOCGIFADDR,
	SIOCSIFADDR,	SIOCGIFDSTADDR, SIOCSIFDSTADDR, SIOCGIFBRDADDR,
	SIOCSIFBRDADDR, SIOCGIFNETMASK, SIOCSIFNETMASK, SIOCGIFMETRIC,
	SIOCSIFMETRIC,	SIOCGIFMTU,	SIOCSIFMTU,	SIOCSIFNAME,
	SIOCSIFHWADDR,	SIOCGIFHWADDR,	SIOCGIFINDEX,	SIOCGIFTXQLEN,
	SIOCSIFTXQLEN,
};

/* i386/x32 numbers that encode a 4-byte long or size_t */
static const struct {
	uint32_t compat, host;
} compat_alias[] = {
	{ 0x80046601, FS_IOC_GETFLAGS },   { 0x40046602, FS_IOC_SETFLAGS },
	{ 0x80047601, FS_IOC_GETVERSION }, { 0x40047602, FS_IOC_SETVERSION },
	{ 0x80041272, BLKGETSIZE64 },
};

#define SC_SIOCGSTAMP_OLD 0x8906
#define SC_SIOCGSTAMPNS_OLD 0x8907
#define SC_IOC_SIZE(c) (((c) >> 16) & 0x3fff)
#define SC_IOC_DIR(c) ((c) >> 30) /* 1 write (in), 2 read (out) */

static long with_buffer(struct sg_thread *t, uint64_t fd, uint32_t cmd,
			uint64_t arg, uint64_t size, int prot)
{
	long err = 0;
	void *p = sc_buf(t, arg, size, prot, &err);

	/* A bad buffer is the driver's to judge: it may fail first for
	 * another reason (ENOTTY for a terminal call on a file), so the host
	 * gets NULL or an address in its kernel half, which faults when used,
	 * as the guest's would. */
	if (err || (!p && size))
		p = arg ? (void *)-4096L : NULL;
	/* a driver's wait (tcdrain's TCSBRK, TIOCMIWAIT) interrupted: its
	 * code is -ERESTARTSYS */
	return sc_interruptible(host_syscall3(SYS_ioctl, fd, cmd, p));
}

static long ifreq_compat(struct sg_thread *t, uint64_t fd, uint32_t cmd,
			 uint64_t arg)
{
	struct ifreq h;
	long r;

	memset(&h, 0, sizeof(h));
	if (copy_from_guest(sc_mm(t), &h, arg, sizeof(struct compat_ifreq)))
		return -EFAULT;
	r = host_syscall3(SYS_ioctl, fd, cmd, &h);
	if (r < 0)
		return r;
	return copy_to_guest(sc_mm(t), arg, &h, sizeof(struct compat_ifreq)) ? -EFAULT : r;
}

static long stamp_i386(struct sg_thread *t, uint64_t fd, uint32_t cmd,
		       uint64_t arg)
{
	struct timespec ts;
	int32_t out[2];
	long r = host_syscall3(SYS_ioctl, fd, cmd, &ts);

	if (r < 0)
		return r;
	/* SIOCGSTAMP fills a timeval: the same two longs as a timespec */
	out[0] = (int32_t)ts.tv_sec;
	out[1] = (int32_t)ts.tv_nsec;
	return copy_to_guest(sc_mm(t), arg, out, sizeof(out)) ? -EFAULT : r;
}

/* SIOCGIFCONF of i386/x32: struct compat_ifconf and struct compat_ifreq
 * entries (32 bytes: struct ifmap's longs are 32-bit), each the first 32
 * bytes of the host's 40 (name and address at the same offsets), as the
 * kernel's dev_ifconf writes for a compat caller; a NULL buffer asks for
 * the length all entries need. */

_Static_assert(offsetof(struct compat_ifreq, ifru) == offsetof(struct ifreq, ifr_ifru),
	       "struct ifreq: the compat union where the host's is");

static long ifconf_compat(struct sg_thread *t, uint64_t fd, uint64_t arg)
{
	struct compat_ifconf c;
	struct ifconf h;
	size_t n;
	long r;

	if (copy_from_guest(sc_mm(t), &c, arg, sizeof(c)))
		return -EFAULT;
	n = c.ifcbuf && c.ifc_len > 0 ? (size_t)c.ifc_len / sizeof(struct compat_ifreq) : 0;
	h.ifc_len = (int)(n * sizeof(struct ifreq));
	h.ifc_buf = c.ifcbuf ? calloc(n ? n : 1, sizeof(struct ifreq)) : NULL;
	if (c.ifcbuf && !h.ifc_buf)
		return -ENOMEM;
	r = host_syscall3(SYS_ioctl, fd, SIOCGIFCONF, &h);
	if (r >= 0) {
		size_t got = (size_t)h.ifc_len / sizeof(struct ifreq);

		for (size_t i = 0; c.ifcbuf && i < got && !r; i++)
			if (copy_to_guest(sc_mm(t), c.ifcbuf + i * sizeof(struct compat_ifreq),
					  h.ifc_buf + i * sizeof(struct ifreq),
					  sizeof(struct compat_ifreq)))
				r = -EFAULT;
		c.ifc_len = (int32_t)(got * sizeof(struct compat_ifreq));
		if (!r && copy_to_guest(sc_mm(t), arg, &c.ifc_len, sizeof(c.ifc_len)))
			r = -EFAULT;
	}
	free(h.ifc_buf);
	return r;
}

/* An old-style command's argument, passed as it is: a value, or guest
 * memory, or an address mapped nowhere (the driver answers as natively).
 * Only an address in memory the host has mapped and the guest has not
 * (sysgate's own) becomes one in the kernel half: a driver that uses it
 * gets EFAULT, as for an unmapped address. A value that happens to be
 * such an address is changed; small values (below mmap_min_addr's usual
 * 64 KiB) never are. */
static uint64_t old_style_arg(struct sg_thread *t, uint64_t arg)
{
	unsigned char vec;

	if (arg < 0x10000 || mm_access_ok(sc_mm(t), arg, 1, 0))
		return arg;
	if (host_syscall3(SYS_mincore, arg & ~0xfffull, 1, &vec) == -ENOMEM)
		return arg;
	return (uint64_t)-4096;
}

static long do_ioctl(struct sg_thread *t, uint64_t fd, uint32_t cmd,
		     uint64_t arg)
{
	static const int prot[] = { [IO_IN] = PROT_READ, [IO_OUT] = PROT_WRITE,
				    [IO_INOUT] = PROT_READ | PROT_WRITE };
	uint32_t dir, size;

	if (sc_compat()) {
		for (unsigned i = 0; i < ARRAY_SIZE(compat_alias); i++)
			if (cmd == compat_alias[i].compat)
				cmd = compat_alias[i].host;
		for (unsigned i = 0; i < ARRAY_SIZE(ifreq_cmds); i++)
			if (cmd == ifreq_cmds[i])
				return ifreq_compat(t, fd, cmd, arg);
		if (cmd == SIOCGIFCONF)
			return ifconf_compat(t, fd, arg);
		if (sc_i386() && (cmd == SC_SIOCGSTAMP_OLD ||
				  cmd == SC_SIOCGSTAMPNS_OLD))
			return stamp_i386(t, fd, cmd, arg);
	} else {
		for (unsigned i = 0; i < ARRAY_SIZE(ifreq_cmds); i++)
			if (cmd == ifreq_cmds[i])
				return with_buffer(t, fd, cmd, arg,
						   sizeof(struct ifreq),
						   PROT_READ | PROT_WRITE);
		if (cmd == SC_SIOCGSTAMP_OLD || cmd == SC_SIOCGSTAMPNS_OLD)
			return with_buffer(t, fd, cmd, arg, 16, PROT_WRITE);
	}
	for (unsigned i = 0; i < ARRAY_SIZE(known); i++) {
		const struct io_cmd *k = &known[i];

		if (k->cmd != cmd)
			continue;
		if (k->kind == IO_VAL)
			return host_syscall3(SYS_ioctl, fd, cmd,
					     sc_compat() ? (long)(uint32_t)arg
							 : (long)arg);
		if (k->kind == IO_NONE)
			return host_syscall3(SYS_ioctl, fd, cmd, 0);
		return with_buffer(t, fd, cmd, arg, k->size, prot[k->kind]);
	}
	/* FS_IOC_GETFLAGS and friends answer an int whatever they encode */
	if (cmd == FS_IOC_GETFLAGS || cmd == FS_IOC_GETVERSION)
		return with_buffer(t, fd, cmd, arg, 4, PROT_WRITE);
	if (cmd == FS_IOC_SETFLAGS || cmd == FS_IOC_SETVERSION)
		return with_buffer(t, fd, cmd, arg, 4, PROT_READ);
	dir = SC_IOC_DIR(cmd);
	size = SC_IOC_SIZE(cmd);
	if (dir && size)
		return with_buffer(t, fd, cmd, arg, size,
				   ((dir & 1) ? PROT_READ : 0) |
					   ((dir & 2) ? PROT_WRITE : 0));
	/* old-style: the argument's size (and for i386/x32 its layout) is
	 * not known; the kernel looks up the descriptor first (EBADF) */
	if (sc_compat()) {
		if (host_syscall2(SYS_fcntl, (long)(int)fd, F_GETFD) < 0)
			return -EBADF;
		return -ENOTTY;
	}
	return sc_interruptible(host_syscall3(SYS_ioctl, fd, cmd, old_style_arg(t, arg)));
}

SG_SYSCALL_DEFINE3(sys_ioctl, fd, cmd, arg)
{
	return do_ioctl(t, fd, (uint32_t)cmd, arg);
}

SG_SYSCALL_DEFINE3(compat_sys_ioctl, fd, cmd, arg)
{
	return do_ioctl(t, fd, (uint32_t)cmd, arg);
}
