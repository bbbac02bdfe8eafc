/* i386 time32 calls (struct old_timespec32 / old_timeval32 / old_time32_t
 * translated to the host's 64-bit forms) and futex, whose timeout is a
 * timespec only for some operations. The 64-bit-time calls of all ABIs are
 * pass-throughs (passthrough.c). */
#include <linux/futex.h>
#include <sys/time.h>
#include <time.h>

#include "syscall/compat/compat.h"
#include "syscall/internal.h"

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

SG_SYSCALL_DEFINE(sys_time32)
{
	long now = host_syscall1(SYS_time, 0);
	int32_t now32 = (int32_t)now;

	if (a[0] && copy_to_guest(sc_mm(t), a[0], &now32, sizeof(now32)))
		return -EFAULT;
	return now32;
}

SG_SYSCALL_DEFINE(compat_sys_gettimeofday)
{
	struct timeval tv;
	struct timezone tz;
	long r = host_syscall2(SYS_gettimeofday, &tv, &tz);

	if (r)
		return r;
	if (a[0]) {
		struct compat_timeval c;

		put_compat_timeval(&c, &tv);
		if (copy_to_guest(sc_mm(t), a[0], &c, sizeof(c)))
			return -EFAULT;
	}
	if (a[1] && copy_to_guest(sc_mm(t), a[1], &tz, sizeof(tz)))
		return -EFAULT;
	return 0;
}

SG_SYSCALL_DEFINE(sys_clock_gettime32)
{
	struct timespec ts;
	long r = host_syscall2(SYS_clock_gettime, a[0], &ts);

	return r ? r : put_ts32(t, a[1], &ts);
}

SG_SYSCALL_DEFINE(sys_clock_getres_time32)
{
	struct timespec ts;
	long r = host_syscall2(SYS_clock_getres, a[0], &ts);

	if (r || !a[1])
		return r;
	return put_ts32(t, a[1], &ts);
}

static long sleep32(struct sg_thread *t, int clk, int flags, uint64_t req,
		    uint64_t rem, bool clock)
{
	struct timespec rq, rm;
	long r = get_ts32(t, req, &rq);

	if (r)
		return r;
	if (clock)
		r = host_syscall4(SYS_clock_nanosleep, clk, flags, &rq, &rm);
	else
		r = host_syscall2(SYS_nanosleep, &rq, &rm);
	if (r == -EINTR && rem && !(flags & TIMER_ABSTIME) &&
	    put_ts32(t, rem, &rm))
		return -EFAULT;
	return r;
}

SG_SYSCALL_DEFINE(sys_nanosleep_time32)
{
	return sleep32(t, 0, 0, a[0], a[1], false);
}

SG_SYSCALL_DEFINE(sys_clock_nanosleep_time32)
{
	return sleep32(t, (int)a[0], (int)a[1], a[2], a[3], true);
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
static long do_futex(struct sg_thread *t, const uint64_t *a, bool time32)
{
	int cmd = (int)a[1] & FUTEX_CMD_MASK;
	long arg4 = (long)a[3];
	struct timespec ts;

	if (!sc_ok(t, a[0], 4, PROT_READ))
		return -EFAULT;
	if (futex_has_uaddr2(cmd) && !sc_ok(t, a[4], 4, PROT_READ))
		return -EFAULT;
	if (futex_has_timeout(cmd) && a[3]) {
		if (time32) {
			long r = get_ts32(t, a[3], &ts);

			if (r)
				return r;
			arg4 = (long)&ts;
		} else if (!sc_ok(t, a[3], sizeof(ts), PROT_READ)) {
			return -EFAULT;
		}
	}
	return host_syscall6(SYS_futex, (long)a[0], (long)a[1], (long)a[2],
			     arg4, (long)a[4], (long)a[5]);
}

SG_SYSCALL_DEFINE(sys_futex)
{
	return do_futex(t, a, false);
}

SG_SYSCALL_DEFINE(sys_futex_time32)
{
	return do_futex(t, a, true);
}

/* futex_waitv(waiters, nr, flags, timeout, clockid): struct futex_waitv
 * is { u64 val; u64 uaddr; u32 flags; u32 reserved } in every ABI; each
 * futex address is checked before the host waits on it */
SG_SYSCALL_DEFINE(sys_futex_waitv)
{
	struct {
		uint64_t val, uaddr;
		uint32_t flags, reserved;
	} w[128];
	uint32_t nr = (uint32_t)a[1];
	long err = 0;
	void *tmo;

	if (nr == 0 || nr > ARRAY_SIZE(w))
		return -EINVAL;
	if (copy_from_guest(sc_mm(t), w, a[0], nr * sizeof(w[0])))
		return -EFAULT;
	for (uint32_t i = 0; i < nr; i++)
		if (!sc_ok(t, w[i].uaddr, 4, PROT_READ))
			return -EFAULT;
	tmo = sc_buf(t, a[3], 16, PROT_READ, &err);
	if (err)
		return err;
	return host_syscall5(SYS_futex_waitv, w, nr, a[2], tmo, a[4]);
}
