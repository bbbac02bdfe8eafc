/* Interval timers, POSIX timers, timerfd and message queues where the
 * guest's structures are not the host's: i386 time32 itimerval and
 * itimerspec, the 4-byte sigev_value of i386 and x32, the i386 mq_attr.
 * The 64-bit forms are pass-throughs (passthrough.c). */
#include <sys/time.h>
#include <time.h>

#include "syscall/compat/compat.h"
#include "syscall/handler.h"

/* --- setitimer / getitimer with struct compat_itimerval ----------------- */

SG_SYSCALL_DEFINE(compat_sys_getitimer)
{
	struct compat_itimerval c;
	struct itimerval h;
	long r = host_syscall2(SYS_getitimer, a[0], &h);

	if (r)
		return r;
	put_compat_itimerval(&c, &h);
	return copy_to_guest(sc_mm(t), a[1], &c, sizeof(c));
}

SG_SYSCALL_DEFINE(compat_sys_setitimer)
{
	struct compat_itimerval c;
	struct itimerval in, out;
	long r;

	if (a[1]) {
		if (copy_from_guest(sc_mm(t), &c, a[1], sizeof(c)))
			return -EFAULT;
		get_compat_itimerval(&in, &c);
	}
	r = host_syscall3(SYS_setitimer, a[0], a[1] ? &in : NULL, &out);
	if (r || !a[2])
		return r;
	put_compat_itimerval(&c, &out);
	return copy_to_guest(sc_mm(t), a[2], &c, sizeof(c));
}

/* --- timer_settime / timerfd_settime with old_itimerspec32 --------------- */

static long settime32(struct sg_thread *t, long nr, const uint64_t *a)
{
	struct compat_itimerspec c;
	struct itimerspec in, out;
	long r;

	/* timer_settime: no new value is EINVAL before any read */
	if (nr == SYS_timer_settime && !a[2])
		return -EINVAL;
	if (copy_from_guest(sc_mm(t), &c, a[2], sizeof(c)))
		return -EFAULT;
	get_compat_itimerspec(&in, &c);
	r = host_syscall4(nr, a[0], a[1], &in, a[3] ? &out : NULL);
	if (r || !a[3])
		return r;
	put_compat_itimerspec(&c, &out);
	return copy_to_guest(sc_mm(t), a[3], &c, sizeof(c));
}

static long gettime32(struct sg_thread *t, long nr, const uint64_t *a)
{
	struct compat_itimerspec c;
	struct itimerspec h;
	long r = host_syscall2(nr, a[0], &h);

	if (r)
		return r;
	put_compat_itimerspec(&c, &h);
	return copy_to_guest(sc_mm(t), a[1], &c, sizeof(c));
}

SG_SYSCALL_DEFINE(sys_timer_settime32)
{
	return settime32(t, SYS_timer_settime, a);
}

SG_SYSCALL_DEFINE(sys_timerfd_settime32)
{
	return settime32(t, SYS_timerfd_settime, a);
}

SG_SYSCALL_DEFINE(sys_timer_gettime32)
{
	return gettime32(t, SYS_timer_gettime, a);
}

SG_SYSCALL_DEFINE(sys_timerfd_gettime32)
{
	return gettime32(t, SYS_timerfd_gettime, a);
}

/* --- compat sigevent: timer_create and mq_notify (i386 and x32) ---------- */

static long get_sigevent(struct sg_thread *t, uint64_t addr,
			 struct sc_sigevent64 *h)
{
	struct compat_sigevent c;

	if (copy_from_guest(sc_mm(t), &c, addr, sizeof(c)))
		return -EFAULT;
	get_compat_sigevent(h, &c);
	return 0;
}

SG_SYSCALL_DEFINE(compat_sys_timer_create)
{
	struct sc_sigevent64 ev;
	int32_t id;
	long r = a[1] ? get_sigevent(t, a[1], &ev) : 0;

	if (r)
		return r;
	/* the id is written after the clock is checked and the timer made;
	 * the kernel drops the timer when that write faults */
	r = host_syscall3(SYS_timer_create, a[0], a[1] ? &ev : NULL, &id);
	if (r)
		return r;
	if (copy_to_guest(sc_mm(t), a[2], &id, sizeof(id))) {
		host_syscall1(SYS_timer_delete, id);
		return -EFAULT;
	}
	return 0;
}

SG_SYSCALL_DEFINE(compat_sys_mq_notify)
{
	struct sc_sigevent64 ev;
	long r = a[1] ? get_sigevent(t, a[1], &ev) : 0;

	return r ? r : host_syscall2(SYS_mq_notify, a[0], a[1] ? &ev : NULL);
}

/* --- i386 message queues: compat mq_attr, time32 timeouts -------------------- */

SG_SYSCALL_DEFINE(compat_sys_mq_open)
{
	struct compat_mq_attr c;
	struct sc_mq_attr64 h;
	char name[PATH_MAX];
	long r = strncpy_from_guest(sc_mm(t), name, a[0], sizeof(name));

	if (r < 0)
		return r;
	if (a[3]) {
		if (copy_from_guest(sc_mm(t), &c, a[3], sizeof(c)))
			return -EFAULT;
		get_compat_mq_attr(&h, &c);
	}
	return host_syscall4(SYS_mq_open, name, a[1], a[2], a[3] ? &h : NULL);
}

SG_SYSCALL_DEFINE(compat_sys_mq_getsetattr)
{
	struct compat_mq_attr c;
	struct sc_mq_attr64 in, out;
	long r;

	if (a[1]) {
		if (copy_from_guest(sc_mm(t), &c, a[1], sizeof(c)))
			return -EFAULT;
		get_compat_mq_attr(&in, &c);
	}
	r = host_syscall3(SYS_mq_getsetattr, a[0], a[1] ? &in : NULL, &out);
	if (r || !a[2])
		return r;
	put_compat_mq_attr(&c, &out);
	return copy_to_guest(sc_mm(t), a[2], &c, sizeof(c));
}

static long mq_timed32(struct sg_thread *t, const uint64_t *a, bool send)
{
	struct compat_timespec c;
	struct timespec ts;
	long err = 0;
	void *buf = sc_buf(t, a[1], (uint32_t)a[2],
			   send ? PROT_READ : PROT_WRITE, &err);
	void *prio = send ? NULL : sc_buf(t, a[3], 4, PROT_WRITE, &err);

	if (err)
		return err;
	if (a[4]) {
		if (copy_from_guest(sc_mm(t), &c, a[4], sizeof(c)))
			return -EFAULT;
		get_compat_timespec(&ts, &c);
	}
	if (send)
		return host_blocking6(t, SYS_mq_timedsend, (long)a[0], (long)buf,
				     (long)(uint32_t)a[2], (long)(uint32_t)a[3],
				     a[4] ? (long)&ts : 0, 0);
	return host_blocking6(t, SYS_mq_timedreceive, (long)a[0], (long)buf,
			     (long)(uint32_t)a[2], (long)prio,
			     a[4] ? (long)&ts : 0, 0);
}

SG_SYSCALL_DEFINE(sys_mq_timedsend_time32)
{
	return mq_timed32(t, a, true);
}

SG_SYSCALL_DEFINE(sys_mq_timedreceive_time32)
{
	return mq_timed32(t, a, false);
}
