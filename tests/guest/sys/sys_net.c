/* Sockets: unix and loopback UDP/TCP in one process; sendmsg/recvmsg with
 * SCM_RIGHTS and SCM_CREDENTIALS, sendmmsg/recvmmsg, socket options
 * (SO_RCVTIMEO as a timeval of the guest's width); i386 also through
 * socketcall. */
#include "sys.h"

#include <fcntl.h>
#include <netinet/in.h>
#include <stdint.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <linux/net.h>
#include <linux/sockios.h>

static void pass_fd(void)
{
	int sv[2], p[2], got = -1;
	char data = 'D', buf[64];
	union {
		struct cmsghdr h;
		char b[CMSG_SPACE(sizeof(int)) + CMSG_SPACE(sizeof(struct ucred))];
	} ctl;
	struct iovec iov = { &data, 1 };
	struct msghdr m = { 0 };
	struct cmsghdr *c;
	int on = 1;

	CHECK("socketpair", socketpair(AF_UNIX, SOCK_DGRAM, 0, sv));
	CHECK("SO_PASSCRED", setsockopt(sv[1], SOL_SOCKET, SO_PASSCRED, &on, sizeof(on)));
	CHECK("pipe", pipe(p));
	memset(&ctl, 0, sizeof(ctl));
	m.msg_iov = &iov;
	m.msg_iovlen = 1;
	m.msg_control = ctl.b;
	m.msg_controllen = CMSG_SPACE(sizeof(int));
	c = CMSG_FIRSTHDR(&m);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &p[1], sizeof(int));
	CHECK("sendmsg rights", sendmsg(sv[0], &m, 0));
	memset(&ctl, 0, sizeof(ctl));
	m.msg_controllen = sizeof(ctl.b);
	data = 0;
	CHECK("recvmsg", recvmsg(sv[1], &m, 0));
	printf("data %c flags %x\n", data, m.msg_flags);
	for (c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
		if (c->cmsg_type == SCM_RIGHTS) {
			memcpy(&got, CMSG_DATA(c), sizeof(int));
			printf("got rights len %u\n", (unsigned)(c->cmsg_len - CMSG_LEN(0)));
		} else if (c->cmsg_type == SCM_CREDENTIALS) {
			struct ucred cr;

			memcpy(&cr, CMSG_DATA(c), sizeof(cr));
			FACT("credentials are ours", cr.pid == getpid() && cr.uid == getuid());
		}
	}
	/* the received descriptor is the pipe's write end */
	CHECK("write via passed fd", write(got, "via", 3));
	CHECK("read pipe", read(p[0], buf, sizeof(buf)));
	/* too little control space: MSG_CTRUNC */
	m.msg_controllen = CMSG_SPACE(sizeof(int));
	c = CMSG_FIRSTHDR(&m);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &p[1], sizeof(int));
	CHECK("sendmsg again", sendmsg(sv[0], &m, 0));
	m.msg_controllen = 0;
	m.msg_control = NULL;
	CHECK("recvmsg no control", recvmsg(sv[1], &m, 0));
	printf("ctrunc %d\n", !!(m.msg_flags & MSG_CTRUNC));
	close(got);
	close(p[0]);
	close(p[1]);
	close(sv[0]);
	close(sv[1]);
}

static void udp(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	int s = socket(AF_INET, SOCK_DGRAM, 0), r = socket(AF_INET, SOCK_DGRAM, 0);
	char b1[8] = "one", b2[8] = "two", in1[8] = { 0 }, in2[8] = { 0 };
	struct iovec io[2] = { { b1, 4 }, { b2, 4 } }, ii[2] = { { in1, 8 }, { in2, 8 } };
	struct mmsghdr mm[2], mr[2];
	struct timeval tv = { 3, 500000 }, tv2;
	struct timespec tmo = { 1, 0 };
	int type;

	CHECK("bind", bind(r, (struct sockaddr *)&a, sizeof(a)));
	CHECK("getsockname", getsockname(r, (struct sockaddr *)&a, &len));
	FACT("port assigned", a.sin_port != 0 && len == sizeof(a));
	CHECK("connect", connect(s, (struct sockaddr *)&a, sizeof(a)));
	memset(mm, 0, sizeof(mm));
	mm[0].msg_hdr.msg_iov = &io[0];
	mm[0].msg_hdr.msg_iovlen = 1;
	mm[1].msg_hdr.msg_iov = &io[1];
	mm[1].msg_hdr.msg_iovlen = 1;
	CHECK("sendmmsg", sendmmsg(s, mm, 2, 0));
	printf("msg_len %u %u\n", mm[0].msg_len, mm[1].msg_len);
	memset(mr, 0, sizeof(mr));
	mr[0].msg_hdr.msg_iov = &ii[0];
	mr[0].msg_hdr.msg_iovlen = 1;
	mr[1].msg_hdr.msg_iov = &ii[1];
	mr[1].msg_hdr.msg_iovlen = 1;
	CHECK("recvmmsg", recvmmsg(r, mr, 2, 0, &tmo));
	printf("received %s %s len %u\n", in1, in2, mr[1].msg_len);
	CHECK("sendto", sendto(s, "to", 2, 0, NULL, 0));
	len = sizeof(a);
	CHECK("recvfrom", recvfrom(r, in1, sizeof(in1), 0, (struct sockaddr *)&a, &len));
	FACT("from loopback", a.sin_addr.s_addr == htonl(INADDR_LOOPBACK));
	CHECK("SO_RCVTIMEO", setsockopt(r, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)));
	len = sizeof(tv2);
	CHECK("get SO_RCVTIMEO", getsockopt(r, SOL_SOCKET, SO_RCVTIMEO, &tv2, &len));
	printf("rcvtimeo %ld.%06ld len %u\n", (long)tv2.tv_sec, (long)tv2.tv_usec,
	       (unsigned)(len == sizeof(tv2)));
	tv.tv_sec = 0;
	tv.tv_usec = 20000;
	CHECK("short SO_RCVTIMEO", setsockopt(r, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)));
	CHECK("recv times out", recv(r, in1, sizeof(in1), 0));
	CHECK("SO_RCVTIMEO short len", setsockopt(r, SOL_SOCKET, SO_RCVTIMEO, &tv, 4));
	len = sizeof(type);
	CHECK("SO_TYPE", getsockopt(r, SOL_SOCKET, SO_TYPE, &type, &len));
	printf("type %d\n", type);
	CHECK("shutdown", shutdown(s, SHUT_RDWR));
	close(s);
	close(r);
}

static void unix_stream(const char *dir)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int l = socket(AF_UNIX, SOCK_STREAM, 0), c = socket(AF_UNIX, SOCK_STREAM, 0), s;
	socklen_t len = sizeof(a);
	char buf[8] = { 0 };

	snprintf(a.sun_path, sizeof(a.sun_path), "%s/sock", dir);
	CHECK("bind unix", bind(l, (struct sockaddr *)&a, sizeof(a)));
	CHECK("listen", listen(l, 4));
	CHECK("connect unix", connect(c, (struct sockaddr *)&a, sizeof(a)));
	s = accept4(l, (struct sockaddr *)&a, &len, SOCK_CLOEXEC);
	CHECK("accept4", s >= 0 ? 0 : -1);
	CHECK("send", send(c, "hello", 5, 0));
	CHECK("recv", recv(s, buf, sizeof(buf), 0));
	printf("stream %s\n", buf);
	len = sizeof(a);
	CHECK("getpeername", getpeername(c, (struct sockaddr *)&a, &len));
	FACT("peer is the socket file", strstr(a.sun_path, "/sock") != NULL);
	CHECK("set nonblock", fcntl(l, F_SETFL, O_NONBLOCK));
	CHECK("accept empty", accept(l, NULL, NULL));
	close(s);
	close(c);
	close(l);
}

/* One control message header as the guest's ABI lays it, relative to that
 * ABI's header size, so every ABI prints the same line. */
static void print_cmsg(const unsigned char *b, size_t avail)
{
	struct cmsghdr h;
	size_t n;

	if (avail < sizeof(h))
		return;
	memcpy(&h, b, sizeof(h));
	printf("  cmsg len hdr%+ld level %d type %d data", (long)h.cmsg_len - (long)CMSG_LEN(0),
	       h.cmsg_level, h.cmsg_type);
	n = h.cmsg_len > CMSG_LEN(0) ? h.cmsg_len - CMSG_LEN(0) : 0;
	for (size_t i = 0; i < n && i < 4 && CMSG_LEN(0) + i < avail; i++)
		printf(" %02x", b[CMSG_LEN(0) + i]);
	printf("\n");
}

/* IP_TTL and IP_TOS messages received into control buffers around one
 * header's size: the kernel writes what fits, a cut header with its
 * cmsg_len saying so, and sets MSG_CTRUNC (i386/x32: 12-byte headers;
 * lengths below a header once crashed sysgate's translation). */
static void cmsg_truncation(void)
{
	int s = socket(AF_INET, SOCK_DGRAM, 0), r = socket(AF_INET, SOCK_DGRAM, 0);
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t alen = sizeof(a);
	int on = 1, tos = 0x10;
	const long hdr = (long)CMSG_LEN(0), space = (long)CMSG_SPACE(sizeof(int));

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	CHECK("ttl bind", bind(r, (struct sockaddr *)&a, sizeof(a)));
	getsockname(r, (struct sockaddr *)&a, &alen);
	CHECK("IP_RECVTTL", setsockopt(r, IPPROTO_IP, IP_RECVTTL, &on, sizeof(on)));
	CHECK("IP_TOS", setsockopt(s, IPPROTO_IP, IP_TOS, &tos, sizeof(tos)));
	for (int pass = 0; pass < 2; pass++) {
		/* pass 0: one message (TTL) cut; pass 1: TTL whole, TOS cut.
		 * Lengths are base + k, base one header (after one TTL
		 * message in pass 1): the same cases in every ABI. */
		long base = pass ? space + hdr : hdr;

		if (pass)
			CHECK("IP_RECVTOS", setsockopt(r, IPPROTO_IP, IP_RECVTOS, &on, sizeof(on)));
		for (long k = -12; k <= 4; k++) {
			unsigned char ctl[128], byte;
			struct iovec iov = { &byte, 1 };
			struct msghdr m = { 0 };
			long got;

			CHECK("ttl send", sendto(s, "t", 1, 0, (struct sockaddr *)&a, sizeof(a)));
			memset(ctl, 0xee, sizeof(ctl));
			m.msg_iov = &iov;
			m.msg_iovlen = 1;
			m.msg_control = ctl;
			m.msg_controllen = (size_t)(base + k);
			got = recvmsg(r, &m, 0);
			printf("pass %d k %+ld: recvmsg %ld ctrunc %d controllen ", pass, k, got,
			       !!(m.msg_flags & MSG_CTRUNC));
			if (m.msg_controllen == 0 || (pass && (long)m.msg_controllen == space))
				printf("%s\n", m.msg_controllen ? "space" : "0");
			else
				printf("base%+ld\n", (long)m.msg_controllen - base);
			if (m.msg_controllen == 0)
				printf("  untouched %s\n", ctl[0] == 0xee ? "yes" : "no");
			print_cmsg(ctl, m.msg_controllen);
			if (pass && (long)m.msg_controllen > space)
				print_cmsg(ctl + space, m.msg_controllen - space);
		}
	}
	close(s);
	close(r);
}

/* Old-style ioctl numbers (no size bits): SIOCGIFCONF (i386/x32: the
 * compat ifconf and 32-byte entries), SIOCOUTQNSD, and the vsock
 * device's IOCTL_VM_SOCKETS_GET_LOCAL_CID (0x7b9) where it exists. */
static void old_ioctls(void)
{
	int s = socket(AF_INET, SOCK_DGRAM, 0), t = socket(AF_INET, SOCK_STREAM, 0), n = -1;
	struct ifreq reqs[16];
	struct ifconf ifc = { 0 };
	unsigned cid = 0;
	int fd;

	memset(reqs, 0, sizeof(reqs));
	CHECK("SIOCGIFCONF length", ioctl(s, SIOCGIFCONF, &ifc));
	printf("interfaces %d, whole entries %s\n", ifc.ifc_len / (int)sizeof(struct ifreq),
	       ifc.ifc_len % (int)sizeof(struct ifreq) ? "no" : "yes");
	ifc.ifc_len = sizeof(reqs);
	ifc.ifc_req = reqs;
	CHECK("SIOCGIFCONF", ioctl(s, SIOCGIFCONF, &ifc));
	for (int i = 0; i < ifc.ifc_len / (int)sizeof(struct ifreq); i++) {
		struct sockaddr_in *in = (struct sockaddr_in *)&reqs[i].ifr_addr;

		printf("  %s family %d%s\n", reqs[i].ifr_name, in->sin_family,
		       in->sin_addr.s_addr == htonl(INADDR_LOOPBACK) ? " 127.0.0.1" : "");
	}
	ifc.ifc_len = (int)sizeof(struct ifreq) + 3; /* room for one */
	CHECK("SIOCGIFCONF one", ioctl(s, SIOCGIFCONF, &ifc));
	printf("one entry: %s\n", ifc.ifc_len == (int)sizeof(struct ifreq) ? "yes" : "no");
	CHECK("SIOCOUTQNSD", ioctl(t, SIOCOUTQNSD, &n));
	printf("SIOCOUTQNSD value %d\n", n);
	fd = open("/dev/vsock", O_RDONLY);
	if (fd < 0) {
		printf("/dev/vsock: %s\n", err_name(errno));
	} else {
		long r = ioctl(fd, 0x7b9 /* IOCTL_VM_SOCKETS_GET_LOCAL_CID */, &cid);

		printf("vsock local cid: %ld %s %u\n", r, r < 0 ? err_name(errno) : "", cid);
		close(fd);
	}
	CHECK("0x7b9 on a socket", ioctl(s, 0x7b9, &cid));
	close(s);
	close(t);
}

#ifdef __i386__
/* i386 socketcall(2): every sub-call, and its errors for the call as a
 * whole (unknown sub-call, unreadable argument block) */
static long sc(int call, const unsigned long *args)
{
	return syscall(SYS_socketcall, call, args);
}

static void socketcalls(void)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	socklen_t len = sizeof(sun), alen;
	char buf[16] = "", data[] = "dgram";
	struct iovec iov = { buf, sizeof(buf) };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct mmsghdr mm = { .msg_hdr = m };
	int sv[2] = { -1, -1 }, one = 1, got = 0;
	long lfd, cfd, c2fd, afd, a4fd;
	void *unmapped = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	munmap(unmapped, 4096);
	/* an abstract name: nothing left behind */
	snprintf(sun.sun_path + 1, sizeof(sun.sun_path) - 1, "sg-socketcall-%d", (int)getpid());
	lfd = sc(SYS_SOCKET, (unsigned long[]){ AF_UNIX, SOCK_STREAM, 0 });
	FACT("socketcall socket", lfd >= 0);
	CHECK("socketcall bind", sc(SYS_BIND, (unsigned long[]){ lfd, (unsigned long)&sun,
					   sizeof(sun) }));
	CHECK("socketcall listen", sc(SYS_LISTEN, (unsigned long[]){ lfd, 2 }));
	CHECK("socketcall getsockname", sc(SYS_GETSOCKNAME, (unsigned long[]){
		lfd, (unsigned long)&sun, (unsigned long)&len }));
	cfd = sc(SYS_SOCKET, (unsigned long[]){ AF_UNIX, SOCK_STREAM, 0 });
	alen = len;
	CHECK("socketcall connect", sc(SYS_CONNECT, (unsigned long[]){ cfd, (unsigned long)&sun,
					      alen }));
	afd = sc(SYS_ACCEPT, (unsigned long[]){ lfd, 0, 0 });
	FACT("socketcall accept", afd >= 0);
	len = sizeof(sun);
	CHECK("socketcall getpeername", sc(SYS_GETPEERNAME, (unsigned long[]){
		cfd, (unsigned long)&sun, (unsigned long)&len }));
	CHECK("socketcall send", sc(SYS_SEND, (unsigned long[]){ cfd, (unsigned long)"abc", 3, 0 }));
	CHECK("socketcall recv", sc(SYS_RECV, (unsigned long[]){ afd, (unsigned long)buf,
					     sizeof(buf), 0 }));
	/* the fourth word (flags) is read: without it this would block */
	CHECK("socketcall recv MSG_DONTWAIT", sc(SYS_RECV, (unsigned long[]){
		afd, (unsigned long)buf, sizeof(buf), MSG_DONTWAIT }));
	CHECK("socketcall sendto", sc(SYS_SENDTO, (unsigned long[]){ afd, (unsigned long)"de", 2, 0,
					       0, 0 }));
	CHECK("socketcall recvfrom", sc(SYS_RECVFROM, (unsigned long[]){ cfd, (unsigned long)buf,
						 sizeof(buf), 0, 0, 0 }));
	CHECK("socketcall setsockopt", sc(SYS_SETSOCKOPT, (unsigned long[]){
		cfd, SOL_SOCKET, SO_KEEPALIVE, (unsigned long)&one, sizeof(one) }));
	len = sizeof(got);
	CHECK("socketcall getsockopt", sc(SYS_GETSOCKOPT, (unsigned long[]){
		cfd, SOL_SOCKET, SO_KEEPALIVE, (unsigned long)&got, (unsigned long)&len }));
	printf("keepalive %d len %u\n", got, (unsigned)len);
	CHECK("socketcall shutdown", sc(SYS_SHUTDOWN, (unsigned long[]){ cfd, SHUT_WR }));
	CHECK("socketcall recv after shutdown", sc(SYS_RECV, (unsigned long[]){
		afd, (unsigned long)buf, sizeof(buf), 0 }));
	c2fd = sc(SYS_SOCKET, (unsigned long[]){ AF_UNIX, SOCK_STREAM, 0 });
	CHECK("socketcall connect again", sc(SYS_CONNECT, (unsigned long[]){
		c2fd, (unsigned long)&sun, alen }));
	len = sizeof(sun);
	a4fd = sc(SYS_ACCEPT4, (unsigned long[]){ lfd, (unsigned long)&sun, (unsigned long)&len,
						  SOCK_NONBLOCK });
	FACT("socketcall accept4", a4fd >= 0);
	CHECK("socketcall accept4's socket is nonblocking",
	      sc(SYS_RECV, (unsigned long[]){ a4fd, (unsigned long)buf, sizeof(buf), 0 }));
	CHECK("socketcall socketpair", sc(SYS_SOCKETPAIR, (unsigned long[]){
		AF_UNIX, SOCK_DGRAM, 0, (unsigned long)sv }));
	iov.iov_base = data;
	iov.iov_len = sizeof(data);
	CHECK("socketcall sendmsg", sc(SYS_SENDMSG, (unsigned long[]){ sv[0], (unsigned long)&m, 0 }));
	CHECK("socketcall sendmmsg", sc(SYS_SENDMMSG, (unsigned long[]){ sv[0], (unsigned long)&mm,
						 1, 0 }));
	iov.iov_base = buf;
	iov.iov_len = sizeof(buf);
	CHECK("socketcall recvmsg", sc(SYS_RECVMSG, (unsigned long[]){ sv[1], (unsigned long)&m, 0 }));
	mm.msg_hdr = m;
	CHECK("socketcall recvmmsg", sc(SYS_RECVMMSG, (unsigned long[]){
		sv[1], (unsigned long)&mm, 1, MSG_DONTWAIT, 0 }));
	printf("recvmmsg len %u\n", mm.msg_len);
	CHECK("socketcall unmapped block", sc(SYS_SOCKET, unmapped));
	CHECK("socketcall 0", sc(0, (unsigned long[]){ 0 }));
	CHECK("socketcall bad call", sc(99, (unsigned long[]){ 0 }));
	close(sv[0]);
	close(sv[1]);
	close((int)a4fd);
	close((int)c2fd);
	close((int)afd);
	close((int)cfd);
	close((int)lfd);
}
#endif

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	setvbuf(stdout, NULL, _IOLBF, 0);
	pass_fd();
	udp();
	unix_stream(argv[1]);
	cmsg_truncation();
	old_ioctls();
#ifdef __i386__
	if (abi_only_checks())
		socketcalls();
#endif
	return 0;
}
