/* i386 time32 calls (struct old_timespec32 / old_timeval32 / old_time32_t
 * translated to the host's 64-bit forms) and futex, whose timeout is a
 * timespec only for some operations. The 64-bit-time calls of all ABIs are
 * pass-throughs (passthrough.c). */
#include <linux/futex.h>
#include <sys/time.h>
#include <time.h>

#include "hostfd/hostfd.h"
#include "syscall/compat/compat.h"
#include "syscall/handler.h"

static long get_ts32(struct sg_thread *t, uint64_t addr, struct timespec *ts)
{
	struct compat_timespec c;

	if (copy_from_guest(sc_mm(t), &c, addr, sizeof(c)))
		return -EFAULT;
	get_compat_timespec(ts, &c);
	return 0;
}

static long put_ts32(struct sg_thread *t, uint64_t addr,
		     const struct timespec *ts)
{
	struct compat_timespec c;

	put_compat_timespec(&c, ts);
	return copy_to_guest(sc_mm(t), addr, &c, sizeof(c));
}

SG_SYSCALL_DEFINE1(sys_time32, tloc)
{
	long now = host_syscall1(SYS_time, 0);
	int32_t now32 = (int32_t)now;

	if (tloc && copy_to_guest(sc_mm(t), tloc, &now32, sizeof(now32)))
		return -EFAULT;
	return now32;
}

SG_SYSCALL_DEFINE2(compat_sys_gettimeofday, utv, utz)
{
	struct timeval tv;
	struct timezone tz;
	long r = host_syscall2(SYS_gettimeofday, &tv, &tz);

	if (r)
		return r;
	if (utv) {
		struct compat_timeval c;

		put_compat_timeval(&c, &tv);
		if (copy_to_guest(sc_mm(t), utv, &c, sizeof(c)))
			return -EFAULT;
	}
	if (utz && copy_to_guest(sc_mm(t), utz, &tz, sizeof(tz)))
		return -EFAULT;
	return 0;
}

SG_SYSCALL_DEFINE2(sys_clock_gettime32, which_clock, tp)
{
	struct timespec ts;
	long r = host_syscall2(SYS_clock_gettime, which_clock, &ts);

	return r ? r : put_ts32(t, tp, &ts);
}

SG_SYSCALL_DEFINE2(sys_clock_getres_time32, which_clock, tp)
{
	struct timespec ts;
	long r = host_syscall2(SYS_clock_getres, which_clock, &ts);

	if (r || !tp)
		return r;
	return put_ts32(t, tp, &ts);
}

/* --- the restart block ---------------------------------------------------- */

#define NSEC 1000000000ll

int64_t sc_clock_ns(int clock)
{
	struct timespec now;

	if (host_syscall2(SYS_clock_gettime, clock, &now))
		return 0;
	return now.tv_sec * NSEC + now.tv_nsec;
}

/* start + ts, saturating (a sleep of centuries has no real deadline) */
static int64_t deadline_of(int64_t start, const struct timespec *ts)
{
	if (ts->tv_sec < 0 || ts->tv_sec >= INT64_MAX / NSEC - start / NSEC - 2)
		return INT64_MAX;
	return start + ts->tv_sec * NSEC + ts->tv_nsec;
}

static struct timespec ts_of(int64_t ns)
{
	if (ns < 0)
		ns = 0;
	return (struct timespec){ .tv_sec = ns / NSEC, .tv_nsec = ns % NSEC };
}

long sc_restart_block(struct sg_thread *t, int fn, int clock, int64_t deadline,
		      uint64_t a0, uint64_t a1, uint64_t a2)
{
	struct sg_sigstate *s = sc_sigstate(t);

	s->restart_fn = fn;
	s->restart_clock = clock;
	s->restart_deadline = deadline;
	s->restart_args[0] = a0;
	s->restart_args[1] = a1;
	s->restart_args[2] = a2;
	return -SG_ERESTART_RESTARTBLOCK;
}

/* --- clock_settime -------------------------------------------------------- */

#define CLOCKFD 3 /* a dynamic clock's id: ~fd << 3 | CLOCKFD */
#define CLOCKFD_MASK 7

/* The host decides, by the caller's privileges, as for the native program
 * (like sethostname): root sets the clock, others get EPERM; a clock that
 * cannot be set is EINVAL. The host is first asked with no time at all:
 * EFAULT means the clock has a setter and the guest's time is read next, as
 * the kernel orders its checks. */
static long clock_settime_host(struct sg_thread *t, int clk, uint64_t addr,
			       long (*read_ts)(struct sg_thread *, uint64_t,
					       struct timespec *))
{
	struct timespec ts;
	long r = host_syscall2(SYS_clock_settime, clk, NULL);

	if (r != -EFAULT)
		return r;
	if (read_ts(t, addr, &ts))
		return -EFAULT;
	if (clk < 0 && (clk & CLOCKFD_MASK) == CLOCKFD &&
	    hostfd_is_private((int)((unsigned)~clk >> 3)))
		return -EINVAL; /* the kernel's answer for a descriptor that is no clock */
	return host_syscall2(SYS_clock_settime, clk, &ts);
}

/* __kernel_timespec; a compat caller's tv_nsec is its low 32 bits */
static long get_ts64(struct sg_thread *t, uint64_t addr, struct timespec *ts)
{
	if (copy_from_guest(sc_mm(t), ts, addr, sizeof(*ts)))
		return -EFAULT;
	if (sc_compat())
		ts->tv_nsec = (long)(uint32_t)ts->tv_nsec;
	return 0;
}

SG_SYSCALL_DEFINE2(sys_clock_settime, which_clock, tp)
{
	return clock_settime_host(t, (int)which_clock, tp, get_ts64);
}

SG_SYSCALL_DEFINE2(sys_clock_settime32, which_clock, tp)
{
	return clock_settime_host(t, (int)which_clock, tp, get_ts32);
}

/* --- nanosleep, clock_nanosleep ------------------------------------------ */

static long get_ts(struct sg_thread *t, uint64_t addr, struct timespec *ts, bool time32)
{
	if (time32)
		return get_ts32(t, addr, ts);
	return copy_from_guest(sc_mm(t), ts, addr, sizeof(*ts)) ? -EFAULT : 0;
}

static long put_ts(struct sg_thread *t, uint64_t addr, const struct timespec *ts,
		   bool time32)
{
	if (time32)
		return put_ts32(t, addr, ts) ? -EFAULT : 0;
	return copy_to_guest(sc_mm(t), addr, ts, sizeof(*ts)) ? -EFAULT : 0;
}

/* A relative sleep interrupted by a signal writes the remaining time and
 * keeps its deadline in the restart block (the kernel's code,
 * -ERESTART_RESTARTBLOCK); an absolute one is entered again as it is
 * (-ERESTARTNOHAND). */
static long do_sleep(struct sg_thread *t, int clk, int flags, uint64_t req,
		     uint64_t rem, bool clock, bool time32)
{
	struct timespec rq, rm;
	int64_t start;
	long r = get_ts(t, req, &rq, time32);

	if (r)
		return r;
	if (!clock)
		clk = CLOCK_MONOTONIC;
	start = sc_clock_ns(clk);
	if (clock)
		r = host_blocking4(t, SYS_clock_nanosleep, clk, flags, &rq, &rm);
	else
		r = host_blocking2(t, SYS_nanosleep, &rq, &rm);
	if (r != -SG_ERESTARTSYS)
		return r;
	if (flags & TIMER_ABSTIME)
		return -SG_ERESTARTNOHAND;
	if (rem && put_ts(t, rem, &rm, time32))
		return -EFAULT;
	return sc_restart_block(t, SG_RESTART_SLEEP, clk, deadline_of(start, &rq), rem, time32,
				0);
}

static long sleep_restart(struct sg_thread *t)
{
	struct sg_sigstate *s = sc_sigstate(t);
	int clk = s->restart_clock;
	int64_t deadline = s->restart_deadline;
	struct timespec until = ts_of(deadline), rm;
	long r = host_blocking4(t, SYS_clock_nanosleep, clk, TIMER_ABSTIME, &until, NULL);

	if (r != -SG_ERESTARTSYS)
		return r;
	rm = ts_of(deadline - sc_clock_ns(clk));
	if (s->restart_args[0] && put_ts(t, s->restart_args[0], &rm, s->restart_args[1]))
		return -EFAULT;
	return sc_restart_block(t, SG_RESTART_SLEEP, clk, deadline, s->restart_args[0],
				s->restart_args[1], 0);
}

SG_SYSCALL_DEFINE2(sys_nanosleep, rqtp, rmtp)
{
	return do_sleep(t, 0, 0, rqtp, rmtp, false, false);
}

SG_SYSCALL_DEFINE4(sys_clock_nanosleep, which_clock, flags, rqtp, rmtp)
{
	return do_sleep(t, (int)which_clock, (int)flags, rqtp, rmtp, true, false);
}

SG_SYSCALL_DEFINE2(sys_nanosleep_time32, rqtp, rmtp)
{
	return do_sleep(t, 0, 0, rqtp, rmtp, false, true);
}

SG_SYSCALL_DEFINE4(sys_clock_nanosleep_time32, which_clock, flags, rqtp, rmtp)
{
	return do_sleep(t, (int)which_clock, (int)flags, rqtp, rmtp, true, true);
}

static long futex_restart(struct sg_thread *t);

/* restart_syscall(2): finishes the wait the restart block describes; with
 * no block (called directly, or a handler ran) -EINTR, as the kernel's
 * do_no_restart_syscall */
SG_SYSCALL_DEFINE(sys_restart_syscall)
{
	int fn = sc_sigstate(t)->restart_fn;

	(void)a;
	sc_sigstate(t)->restart_fn = SG_RESTART_NONE;
	switch (fn) {
	case SG_RESTART_SLEEP:
		return sleep_restart(t);
	case SG_RESTART_POLL:
		return sc_poll_restart(t);
	case SG_RESTART_FUTEX:
		return futex_restart(t);
	default:
		return -EINTR;
	}
}

/* --- futex ------------------------------------------------------------- */

/* Operations whose fourth argument is a timeout pointer (else a value). */
static bool futex_has_timeout(int cmd)
{
	switch (cmd) {
	case FUTEX_WAIT:
	case FUTEX_LOCK_PI:
	case FUTEX_WAIT_BITSET:
	case FUTEX_WAIT_REQUEUE_PI:
	case 13: /* FUTEX_LOCK_PI2 */
		return true;
	default:
		return false;
	}
}

static bool futex_has_uaddr2(int cmd)
{
	switch (cmd) {
	case FUTEX_REQUEUE:
	case FUTEX_CMP_REQUEUE:
	case FUTEX_WAKE_OP:
	case FUTEX_WAIT_REQUEUE_PI:
	case FUTEX_CMP_REQUEUE_PI:
		return true;
	default:
		return false;
	}
}

/* Guest threads are host threads and guest addresses host addresses, so
 * the host futex is the guest's; only the pointers are checked (and the
 * i386 time32 timeout widened). */
static long do_futex(struct sg_thread *t, bool time32, uint64_t uaddr_arg, uint64_t op,
		     uint64_t val, uint64_t utime, uint64_t uaddr2_arg, uint64_t val3)
{
	int cmd = (int)op & FUTEX_CMD_MASK;
	long arg4 = (long)utime;
	struct timespec ts;
	int clk = (int)op & FUTEX_CLOCK_REALTIME ? CLOCK_REALTIME : CLOCK_MONOTONIC;
	int64_t start = 0;
	long r;

	/* addresses that are not the guest's fault on the host, which
	 * checks the operation, alignment and timeout in its own order */
	void *uaddr = sc_ok(t, uaddr_arg, 4, PROT_READ) ? g2h(uaddr_arg)
						    : sc_fault_ptr(t, uaddr_arg);
	void *uaddr2 = (void *)(uintptr_t)uaddr2_arg;

	if (futex_has_uaddr2(cmd) && !sc_ok(t, uaddr2_arg, 4, PROT_READ))
		uaddr2 = sc_fault_ptr(t, uaddr2_arg);
	if (futex_has_timeout(cmd) && utime) {
		if (time32) {
			if (get_ts32(t, utime, &ts))
				arg4 = (long)sc_fault_ptr(t, utime);
			else
				arg4 = (long)&ts;
		} else if (copy_from_guest(sc_mm(t), &ts, utime, sizeof(ts))) {
			arg4 = (long)sc_fault_ptr(t, utime);
		} else {
			arg4 = (long)&ts;
		}
	}
	if (cmd == FUTEX_WAIT && utime)
		start = sc_clock_ns(clk);
	r = host_blocking6(t, SYS_futex, (long)uaddr, (long)op, (long)val,
			  arg4, (long)uaddr2, (long)val3);
	if (r != -SG_ERESTARTSYS)
		return r;
	switch (cmd) {
	case FUTEX_WAIT:
	case FUTEX_WAIT_BITSET:
		/* a wait with a timeout goes on to its deadline through the
		 * restart block (FUTEX_WAIT's is relative, WAIT_BITSET's
		 * absolute on clk); without one it is entered again */
		if (!utime || arg4 != (long)&ts)
			return r;
		r = sc_restart_block(t, SG_RESTART_FUTEX, clk,
				     deadline_of(cmd == FUTEX_WAIT ? start : 0, &ts), uaddr_arg,
				     op, val);
		sc_sigstate(t)->restart_args[3] =
			cmd == FUTEX_WAIT ? FUTEX_BITSET_MATCH_ANY : (uint32_t)val3;
		return r;
	case FUTEX_LOCK_PI:
	case 13: /* FUTEX_LOCK_PI2 */
		return -SG_ERESTARTNOINTR; /* a lock is always taken again */
	default:
		return r;
	}
}

static long futex_restart(struct sg_thread *t)
{
	struct sg_sigstate *s = sc_sigstate(t);
	struct timespec until = ts_of(s->restart_deadline);
	int op = FUTEX_WAIT_BITSET | ((int)s->restart_args[1] &
				      (FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME));
	long r;

	if (!sc_ok(t, s->restart_args[0], 4, PROT_READ))
		return -EFAULT;
	r = host_blocking6(t, SYS_futex, (long)s->restart_args[0], op,
			  (long)(uint32_t)s->restart_args[2], (long)&until, 0,
			  (long)(uint32_t)s->restart_args[3]);
	/* interrupted again: the block as it is (restart_args[3], the
	 * bitset, stays) */
	if (r == -SG_ERESTARTSYS)
		return sc_restart_block(t, SG_RESTART_FUTEX, s->restart_clock,
					s->restart_deadline, s->restart_args[0],
					s->restart_args[1], s->restart_args[2]);
	return r;
}

SG_SYSCALL_DEFINE6(sys_futex, uaddr, op, val, utime, uaddr2, val3)
{
	return do_futex(t, false, uaddr, op, val, utime, uaddr2, val3);
}

SG_SYSCALL_DEFINE6(sys_futex_time32, uaddr, op, val, utime, uaddr2, val3)
{
	return do_futex(t, true, uaddr, op, val, utime, uaddr2, val3);
}

/* struct futex_waitv is { u64 val; u64 uaddr; u32 flags; u32 reserved }
 * in every ABI; each futex address is checked before the host waits on
 * it */
SG_SYSCALL_DEFINE5(sys_futex_waitv, waiters, nr_futexes, waitv_flags, timeout, clockid)
{
	struct {
		uint64_t val, uaddr;
		uint32_t flags, reserved;
	} w[128];
	uint32_t nr = (uint32_t)nr_futexes;
	long err = 0;
	void *tmo;

	if (nr == 0 || nr > ARRAY_SIZE(w))
		return -EINVAL;
	if (copy_from_guest(sc_mm(t), w, waiters, nr * sizeof(w[0])))
		return -EFAULT;
	for (uint32_t i = 0; i < nr; i++)
		if (!sc_ok(t, w[i].uaddr, 4, PROT_READ))
			return -EFAULT;
	tmo = sc_buf(t, timeout, 16, PROT_READ, &err);
	if (err)
		return err;
	return host_syscall5(SYS_futex_waitv, w, nr, waitv_flags, tmo, clockid);
}
