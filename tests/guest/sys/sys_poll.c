/* Waiting on descriptors and the descriptor kinds: poll, ppoll, select,
 * pselect, epoll (x86_64's packed epoll_event), eventfd, signalfd,
 * inotify, memfd; i386 also _newselect and the old select. Run in an
 * empty directory (argv[1]). */
#include "sys.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/signalfd.h>

int main(int argc, char **argv)
{
	int p[2], ep, efd, ifd, mfd;
	struct pollfd pf[2];
	struct timeval tv;
	struct timespec ts = { 0, 1000000 };
	struct epoll_event ev, out[4];
	fd_set rd;
	uint64_t v;
	char buf[256];

	if (argc < 2 || chdir(argv[1]) != 0)
		return 2;
	setvbuf(stdout, NULL, _IOLBF, 0);
	CHECK("pipe", pipe(p));
	pf[0].fd = p[0];
	pf[0].events = POLLIN;
	pf[1].fd = p[1];
	pf[1].events = POLLOUT;
	CHECK("poll", poll(pf, 2, 0));
	printf("revents %x %x\n", pf[0].revents, pf[1].revents);
	CHECK("write", write(p[1], "x", 1));
	CHECK("poll readable", poll(pf, 1, 100));
	printf("revents %x\n", pf[0].revents);
	CHECK("ppoll", ppoll(pf, 1, &ts, NULL));
	FD_ZERO(&rd);
	FD_SET(p[0], &rd);
	tv.tv_sec = 0;
	tv.tv_usec = 1000;
	CHECK("select", select(p[0] + 1, &rd, NULL, NULL, &tv));
	FACT("select set", FD_ISSET(p[0], &rd));
	CHECK("read", read(p[0], buf, 1));
	FD_ZERO(&rd);
	FD_SET(p[0], &rd);
	tv.tv_usec = 2000;
	CHECK("select timeout", select(p[0] + 1, &rd, NULL, NULL, &tv));
	FACT("timeout used up", tv.tv_sec == 0 && tv.tv_usec == 0);
	FD_SET(p[0], &rd);
	tv.tv_usec = 1000000;
	CHECK("select bad usec", select(p[0] + 1, &rd, NULL, NULL, &tv));
	{
		sigset_t mask;

		sigemptyset(&mask);
		FD_SET(p[0], &rd);
		CHECK("pselect", pselect(p[0] + 1, &rd, NULL, NULL, &ts, &mask));
	}
	CHECK("select fd 1000 not open", ({
		      fd_set big;
		      FD_ZERO(&big);
		      FD_SET(1000, &big);
		      tv.tv_sec = 0;
		      tv.tv_usec = 0;
		      select(1001, &big, NULL, NULL, &tv);
	      }));
	/* with descriptor 100 open the table has at least 128 entries: 120
	 * is in it (not open: EBADF). (Whether 200 is depends on the table
	 * the process inherited: 256 under bash, which keeps descriptor 255.) */
	CHECK("dup2 to 100", dup2(p[0], 100) == 100 ? 0 : -1);
	CHECK("select fd 120 not open", ({
		      fd_set big;
		      FD_ZERO(&big);
		      FD_SET(120, &big);
		      tv.tv_sec = 0;
		      tv.tv_usec = 0;
		      select(121, &big, NULL, NULL, &tv);
	      }));
	close(100);

	ep = epoll_create1(EPOLL_CLOEXEC);
	CHECK("epoll_create1", ep >= 0 ? 0 : -1);
	ev.events = EPOLLIN;
	ev.data.u64 = 0x1122334455667788ull;
	CHECK("epoll_ctl add", epoll_ctl(ep, EPOLL_CTL_ADD, p[0], &ev));
	CHECK("epoll_ctl add again", epoll_ctl(ep, EPOLL_CTL_ADD, p[0], &ev));
	CHECK("epoll_wait empty", epoll_wait(ep, out, 4, 0));
	CHECK("write", write(p[1], "y", 1));
	CHECK("epoll_wait", epoll_wait(ep, out, 4, 100));
	printf("event %x data %llx\n", out[0].events,
	       (unsigned long long)out[0].data.u64);
	CHECK("epoll_pwait", epoll_pwait(ep, out, 4, 0, NULL));
	CHECK("epoll_ctl del", epoll_ctl(ep, EPOLL_CTL_DEL, p[0], NULL));
	close(ep);

	efd = eventfd(5, EFD_NONBLOCK);
	CHECK("eventfd", efd >= 0 ? 0 : -1);
	v = 3;
	CHECK("eventfd write", write(efd, &v, sizeof(v)));
	CHECK("eventfd read", read(efd, &v, sizeof(v)));
	printf("eventfd value %llu\n", (unsigned long long)v);
	CHECK("eventfd read empty", read(efd, &v, sizeof(v)));
	close(efd);

	{
		sigset_t mask;
		int sfd;

		sigemptyset(&mask);
		sigaddset(&mask, SIGUSR1);
		sfd = signalfd(-1, &mask, SFD_NONBLOCK);
		CHECK("signalfd", sfd >= 0 ? 0 : -1);
		CHECK("signalfd read none", read(sfd, buf, 128));
		CHECK("signalfd bad size", signalfd(-1, &mask, 4));
		close(sfd);
	}

	ifd = inotify_init1(IN_NONBLOCK);
	CHECK("inotify_init1", ifd >= 0 ? 0 : -1);
	CHECK("inotify_add_watch", inotify_add_watch(ifd, ".", IN_CREATE) > 0);
	close(open("newfile", O_CREAT | O_WRONLY, 0600));
	{
		long n = read(ifd, buf, sizeof(buf));
		struct inotify_event *e = (struct inotify_event *)buf;

		FACT("inotify event", n > 0 && (e->mask & IN_CREATE));
		printf("inotify name %s\n", n > 0 ? e->name : "-");
	}
	CHECK("inotify_rm_watch bad", inotify_rm_watch(ifd, 999));
	close(ifd);

	mfd = memfd_create("sg", MFD_CLOEXEC);
	CHECK("memfd_create", mfd >= 0 ? 0 : -1);
	CHECK("memfd write", write(mfd, "memfd!", 6));
	CHECK("memfd pread", pread(mfd, buf, 6, 0));
	printf("memfd %.6s\n", buf);
	close(mfd);

#ifdef __i386__
	if (abi_only_checks()) {
		uint32_t args[5];
		int32_t tv32[2] = { 0, 1000 };
		uint32_t set32 = 1u << p[0];

		CHECK("write", write(p[1], "z", 1));
		CHECK("i386 _newselect", syscall(SYS__newselect, p[0] + 1, &set32, NULL, NULL, tv32));
		args[0] = p[0] + 1;
		args[1] = (uint32_t)(uintptr_t)&set32;
		args[2] = args[3] = 0;
		args[4] = (uint32_t)(uintptr_t)tv32;
		CHECK("i386 old select", syscall(SYS_select, args));
	}
#endif
	return 0;
}
