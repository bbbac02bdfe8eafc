/* Time and timers: clocks, sleeps, interval timers, POSIX timers,
 * timerfd, and for i386 the time32 calls through syscall(). Only facts
 * that do not depend on when or where the program runs are printed. */
#include "sys.h"

#include <signal.h>
#include <stdint.h>
#include <sys/time.h>
#include <sys/timerfd.h>
#include <sys/times.h>
#include <time.h>

static long long ns(const struct timespec *t)
{
	return (long long)t->tv_sec * 1000000000ll + t->tv_nsec;
}

int main(void)
{
	struct timespec a, b, res, req = { 0, 2000000 }, rem;
	struct timeval tv;
	struct itimerval it = { { 0, 0 }, { 100, 0 } }, old;
	struct itimerspec its = { { 0, 0 }, { 50, 0 } }, cur;
	struct sigevent ev = { 0 };
	struct tms tm;
	timer_t timer;
	uint64_t ticks;
	int tfd;

	setvbuf(stdout, NULL, _IOLBF, 0);
	CHECK("clock_gettime mono", clock_gettime(CLOCK_MONOTONIC, &a));
	CHECK("nanosleep", nanosleep(&req, &rem));
	CHECK("clock_gettime mono 2", clock_gettime(CLOCK_MONOTONIC, &b));
	FACT("slept at least 2ms", ns(&b) - ns(&a) >= 2000000);
	CHECK("clock_nanosleep", clock_nanosleep(CLOCK_MONOTONIC, 0, &req, NULL));
	CHECK("clock_getres", clock_getres(CLOCK_MONOTONIC, &res));
	FACT("resolution <= 1ms", res.tv_sec == 0 && res.tv_nsec <= 1000000);
	CHECK("clock_gettime bad clock", clock_gettime(12345, &a));
	CHECK("gettimeofday", gettimeofday(&tv, NULL));
	FACT("gettimeofday after 2020", tv.tv_sec > 1577836800);
	FACT("time after 2020", time(NULL) > 1577836800);
	FACT("times ok", times(&tm) != (clock_t)-1);
	req.tv_nsec = 2000000000;
	CHECK("nanosleep bad nsec", nanosleep(&req, NULL));

	/* clock_settime with times and clocks the kernel refuses before it
	 * sets anything (the tests run natively as root): CPython's
	 * test_monotonic_settime wants EINVAL for CLOCK_MONOTONIC */
	CHECK("clock_gettime mono 3", clock_gettime(CLOCK_MONOTONIC, &a));
	CHECK("clock_settime mono", clock_settime(CLOCK_MONOTONIC, &a));
	CHECK("clock_settime boottime", clock_settime(CLOCK_BOOTTIME, &a));
	CHECK("clock_settime tai", clock_settime(CLOCK_TAI, &a));
	CHECK("clock_settime bad clock", clock_settime(12345, &a));
	CHECK("clock_settime process cpu", clock_settime(CLOCK_PROCESS_CPUTIME_ID, &a));
	CHECK("clock_settime thread cpu", clock_settime(CLOCK_THREAD_CPUTIME_ID, &a));
	{
		clockid_t cpu;

		CHECK("clock_getcpuclockid", clock_getcpuclockid(0, &cpu));
		CHECK("clock_settime own cpu clock", clock_settime(cpu, &a));
	}
	CHECK("clock_settime cpu clock of pid 0x3fffffff",
	      clock_settime((clockid_t)(~0x3fffffffu << 3 | 2), &a));
	CHECK("clock_settime fd clock of stdin", clock_settime((clockid_t)(~0u << 3 | 3), &a));
	CHECK("clock_settime fd clock of fd 999", clock_settime((clockid_t)(~999u << 3 | 3), &a));
	CHECK("clock_settime realtime NULL", syscall(SYS_clock_settime, CLOCK_REALTIME, NULL));
	CHECK("clock_settime mono NULL", syscall(SYS_clock_settime, CLOCK_MONOTONIC, NULL));
	b.tv_sec = 1;
	b.tv_nsec = 1000000000;
	CHECK("clock_settime realtime nsec 1e9", clock_settime(CLOCK_REALTIME, &b));
	b.tv_sec = -1;
	b.tv_nsec = 0;
	CHECK("clock_settime realtime sec -1", clock_settime(CLOCK_REALTIME, &b));

	CHECK("setitimer", setitimer(ITIMER_REAL, &it, &old));
	FACT("old timer was off", old.it_value.tv_sec == 0 && old.it_value.tv_usec == 0);
	CHECK("getitimer", getitimer(ITIMER_REAL, &old));
	FACT("timer near 100s", old.it_value.tv_sec >= 98 && old.it_value.tv_sec <= 100);
	it.it_value.tv_sec = 0;
	CHECK("setitimer off", setitimer(ITIMER_REAL, &it, NULL));
	CHECK("alarm", alarm(30));
	CHECK("alarm again", alarm(0) > 0);
	CHECK("getitimer bad", getitimer(99, &old));

	ev.sigev_notify = SIGEV_NONE;
	CHECK("timer_create", timer_create(CLOCK_MONOTONIC, &ev, &timer));
	CHECK("timer_settime", timer_settime(timer, 0, &its, NULL));
	CHECK("timer_gettime", timer_gettime(timer, &cur));
	FACT("timer near 50s", cur.it_value.tv_sec >= 48 && cur.it_value.tv_sec <= 50);
	CHECK("timer_getoverrun", timer_getoverrun(timer));
	CHECK("timer_delete", timer_delete(timer));

	tfd = timerfd_create(CLOCK_MONOTONIC, 0);
	CHECK("timerfd_create", tfd >= 0 ? 0 : -1);
	its.it_value.tv_sec = 0;
	its.it_value.tv_nsec = 1000000;
	CHECK("timerfd_settime", timerfd_settime(tfd, 0, &its, NULL));
	CHECK("timerfd read", read(tfd, &ticks, sizeof(ticks)));
	FACT("one expiry", ticks == 1);
	its.it_value.tv_sec = 40;
	CHECK("timerfd_settime 40s", timerfd_settime(tfd, 0, &its, NULL));
	CHECK("timerfd_gettime", timerfd_gettime(tfd, &cur));
	FACT("timerfd near 40s", cur.it_value.tv_sec >= 38 && cur.it_value.tv_sec <= 40);
	close(tfd);

#ifdef __i386__
	if (abi_only_checks()) {
		/* the time32 calls: 32-bit seconds */
		int32_t t32[4] = { 0 }, itv[4] = { 0, 0, 7, 0 };

		FACT("i386 time", syscall(SYS_time, t32) > 1577836800 && t32[0] > 1577836800);
		CHECK("i386 gettimeofday", syscall(SYS_gettimeofday, t32, NULL));
		FACT("i386 tv_usec < 1e6", t32[1] >= 0 && t32[1] < 1000000);
		CHECK("i386 clock_gettime", syscall(SYS_clock_gettime, CLOCK_REALTIME, t32));
		FACT("i386 tv_nsec < 1e9", t32[1] >= 0 && t32[1] < 1000000000);
		CHECK("i386 setitimer", syscall(SYS_setitimer, ITIMER_REAL, itv, NULL));
		CHECK("i386 getitimer", syscall(SYS_getitimer, ITIMER_REAL, itv));
		FACT("i386 itimer near 7s", itv[2] >= 5 && itv[2] <= 7);
		itv[2] = 0;
		CHECK("i386 setitimer off", syscall(SYS_setitimer, ITIMER_REAL, itv, NULL));
		t32[0] = 0;
		t32[1] = 1000000;
		CHECK("i386 nanosleep", syscall(SYS_nanosleep, t32, NULL));
		t32[0] = 1;
		t32[1] = 1000000000;
		CHECK("i386 clock_settime realtime nsec 1e9", syscall(SYS_clock_settime, CLOCK_REALTIME, t32));
		t32[0] = -1;
		t32[1] = 0;
		CHECK("i386 clock_settime realtime sec -1", syscall(SYS_clock_settime, CLOCK_REALTIME, t32));
		CHECK("i386 clock_settime mono", syscall(SYS_clock_settime, CLOCK_MONOTONIC, t32));
		CHECK("i386 clock_settime process cpu", syscall(SYS_clock_settime, CLOCK_PROCESS_CPUTIME_ID, t32));
		CHECK("i386 clock_settime realtime NULL", syscall(SYS_clock_settime, CLOCK_REALTIME, NULL));
	}
#endif
	return 0;
}
