/* The trace's decoders with bad arguments: each call below is made with
 * NULL, a small unmapped address, an address past the end of the address
 * space and a huge count, and prints its result; the decoders must show
 * them (as addresses) and never crash. Only calls whose bad arguments
 * make them fail or do nothing (no timer armed, no signal sent). The
 * output is compared with the native run's (run_case.sh --ref).
 * (epoll_wait on a non-epoll fd and SIOCGIFCONF on a non-socket are left
 * out: i386/x32 answer other errors than the kernel there, EINVAL for
 * EFAULT and EFAULT for ENOTTY, a matter of the calls, not the trace.) */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_time
#define SYS_time -1
#endif

static const long bad[] = { 0, 0x10, -4096L, (long)0x7fffffff };

static void try(const char *name, long nr, long a, long b, long c, long d, long e, long f)
{
	long r;

	if (nr < 0)
		return;
	errno = 0;
	r = syscall(nr, a, b, c, d, e, f);
	printf("%s %d %d\n", name, r < 0 ? -1 : 0, r < 0 ? errno : 0);
}

int main(void)
{
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		long p = bad[i];

		try("uname", SYS_uname, p, 0, 0, 0, 0, 0);
		try("statfs", SYS_statfs, p, p, 0, 0, 0, 0);
		try("fstatfs", SYS_fstatfs, 0, p, 0, 0, 0, 0);
		try("pselect6", SYS_pselect6, 1024, p, p, p, 0x10, p); /* never NULL: it would wait */
		try("ppoll", SYS_ppoll, p, 3, 0x10, p, 8, 0);
		try("epoll_ctl", SYS_epoll_ctl, 0, 1, 0, p, 0, 0);
		try("getsockname", SYS_getsockname, 0, p, p, 0, 0, 0);
		try("setsockopt", SYS_setsockopt, 0, 1, 2, p, 4, 0);
		try("getsockopt", SYS_getsockopt, 0, 1, 3, p, p, 0);
		try("getgroups", SYS_getgroups, 65536, p, 0, 0, 0, 0);
		try("setgroups", SYS_setgroups, 3, p, 0, 0, 0, 0);
		try("timerfd_settime", SYS_timerfd_settime, 0, 0, p, p, 0, 0);
		try("timerfd_gettime", SYS_timerfd_gettime, 0, p, 0, 0, 0, 0);
		try("times", SYS_times, p, 0, 0, 0, 0, 0);
		try("getrusage", SYS_getrusage, 0, p, 0, 0, 0, 0);
		try("getitimer", SYS_getitimer, 0, p, 0, 0, 0, 0);
		try("sched_getparam", SYS_sched_getparam, 0, p, 0, 0, 0, 0);
		try("sched_setaffinity", SYS_sched_setaffinity, 0, 128, p, 0, 0, 0);
		try("timer_create", SYS_timer_create, 1, p, p, 0, 0, 0);
		try("rt_sigtimedwait", SYS_rt_sigtimedwait, p, p, p, 8, 0, 0);
		try("utimensat", SYS_utimensat, -100, p, p, 0, 0, 0);
		try("sendfile", SYS_sendfile, -1, -1, p, 4, 0, 0);
		try("splice", SYS_splice, -1, p, -1, p, 4, 0);
		try("prctl", SYS_prctl, 16 /* PR_GET_NAME */, p, 0, 0, 0, 0);
		try("sendmmsg", SYS_sendmmsg, -1, p, 2, 0, 0, 0);
		try("recvmmsg", SYS_recvmmsg, -1, p, 2, 0, p, 0);
		try("fcntl", SYS_fcntl, 0, 5 /* F_GETLK */, p, 0, 0, 0);
		try("get_robust_list", SYS_get_robust_list, 0, p, p, 0, 0, 0);
		try("getresuid", SYS_getresuid, p, p, p, 0, 0, 0);
		try("getcpu", SYS_getcpu, p, p, p, 0, 0, 0);
		try("time", SYS_time, p, 0, 0, 0, 0, 0);
		try("accept4", SYS_accept4, -1, p, p, 0, 0, 0);
		try("getxattr", SYS_getxattr, p, p, p, 16, 0, 0);
		try("mknodat", SYS_mknodat, -100, p, 0020000, 0x103, 0, 0);
	}
	return 0;
}
