/* The calls whose arguments strace decodes as structs, flags and named
 * constants (issue 18): uname, statfs/fstatfs, pselect6, ppoll, epoll,
 * sockets' names and options, getgroups, timerfd, eventfd, close_range,
 * ioctl requests, faccessat2. Compared with strace of the native run
 * (x32: of the -m64 twin) by compare_strace.sh. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/utsname.h>
#include <unistd.h>

int main(void)
{
	struct utsname u;
	struct statfs sf;
	struct stat st;
	int p[2], ep, efd, tfd, srv, cli, one = 1, n;
	gid_t groups[64];
	struct epoll_event ev = { .events = EPOLLIN | EPOLLOUT, .data.u64 = 7 }, out[4];
	struct pollfd pf[2];
	struct timespec ts = { 0, 1000 };
	struct itimerspec its = { { 0, 0 }, { 0, 5000000 } }, old;
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t len = sizeof(sa);
	fd_set rd, wr;
	sigset_t mask;
	char cwd[256];

	uname(&u);
	statfs("/", &sf);
	if (pipe(p) != 0)
		return 1;
	fstatfs(p[0], &sf);
	fstat(p[0], &st);
	if (!getcwd(cwd, sizeof(cwd)))
		return 1;
	n = getgroups(0, NULL);
	getgroups(n < 64 ? n : 64, groups);
	if (write(p[1], "x", 1) != 1)
		return 1;
	FD_ZERO(&rd);
	FD_ZERO(&wr);
	FD_SET(p[0], &rd);
	FD_SET(p[1], &wr);
	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	pselect(p[1] + 1, &rd, &wr, NULL, &ts, &mask);
	pf[0] = (struct pollfd){ .fd = p[0], .events = POLLIN };
	pf[1] = (struct pollfd){ .fd = p[1], .events = POLLOUT };
	ppoll(pf, 2, &ts, &mask);
	ep = epoll_create1(EPOLL_CLOEXEC);
	ev.data.fd = p[0];
	epoll_ctl(ep, EPOLL_CTL_ADD, p[0], &ev);
	epoll_wait(ep, out, 4, 10);
	efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	timerfd_settime(tfd, 0, &its, &old);
	timerfd_gettime(tfd, &its);
	ioctl(p[0], FIONBIO, &one);
	ioctl(p[0], FIONREAD, &n);
	srv = socket(AF_INET, SOCK_STREAM, 0);
	setsockopt(srv, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	bind(srv, (struct sockaddr *)&sa, sizeof(sa));
	getsockname(srv, (struct sockaddr *)&sa, &len);
	listen(srv, 1);
	cli = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	setsockopt(cli, IPPROTO_TCP, 1 /* TCP_NODELAY */, &one, sizeof(one));
	connect(cli, (struct sockaddr *)&sa, sizeof(sa));
	len = sizeof(sa);
	getpeername(cli, (struct sockaddr *)&sa, &len);
	len = sizeof(one);
	getsockopt(cli, SOL_SOCKET, SO_TYPE, &one, &len);
	faccessat(AT_FDCWD, ".", R_OK, AT_EACCESS);
	syscall(SYS_close_range, 3, ~0U, 0);
	printf("%s %d\n", u.sysname, efd + tfd > 0);
	return 0;
}
