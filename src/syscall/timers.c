/* Interval timers, POSIX timers, timerfd and message queues where the
 * guest's structures are not the host's: i386 time32 itimerval and
 * itimerspec, the 4-byte sigev_value of i386 and x32, the i386 mq_attr.
 * The 64-bit forms are pass-throughs (passthrough.c). */
#include <sys/time.h>
#include <time.h>

#include "syscall/compat/compat.h"
#include "syscall/handler.h"

/* --- setitimer / getitimer with struct compat_itimerval ----------------- */

SG_SYSCALL_DEFINE2(compat_sys_getitimer, which, it)
{
	struct compat_itimerval c;
	struct itimerval h;
	long r = host_syscall2(SYS_getitimer, which, &h);

	if (r)
		return r;
	put_compat_itimerval(&c, &h);
	return copy_to_guest(sc_mm(t), it, &c, sizeof(c));
}

SG_SYSCALL_DEFINE3(compat_sys_setitimer, which, value, ovalue)
{
	struct compat_itimerval c;
	struct itimerval in, out;
	long r;

	if (value) {
		if (copy_from_guest(sc_mm(t), &c, value, sizeof(c)))
			return -EFAULT;
		get_compat_itimerval(&in, &c);
	}
	r = host_syscall3(SYS_setitimer, which, value ? &in : NULL, &out);
	if (r || !ovalue)
		return r;
	put_compat_itimerval(&c, &out);
	return copy_to_guest(sc_mm(t), ovalue, &c, sizeof(c));
}

/* --- timer_settime / timerfd_settime with old_itimerspec32 --------------- */

/* host call nr on timer (or timerfd) id */
static long settime32(struct sg_thread *t, long nr, int id, uint64_t flags, uint64_t new_value,
		      uint64_t old_value)
{
	struct compat_itimerspec c;
	struct itimerspec in, out;
	long r;

	/* timer_settime: no new value is EINVAL before any read */
	if (nr == SYS_timer_settime && !new_value)
		return -EINVAL;
	if (copy_from_guest(sc_mm(t), &c, new_value, sizeof(c)))
		return -EFAULT;
	get_compat_itimerspec(&in, &c);
	r = host_syscall4(nr, id, flags, &in, old_value ? &out : NULL);
	if (r || !old_value)
		return r;
	put_compat_itimerspec(&c, &out);
	return copy_to_guest(sc_mm(t), old_value, &c, sizeof(c));
}

static long gettime32(struct sg_thread *t, long nr, int id, uint64_t value)
{
	struct compat_itimerspec c;
	struct itimerspec h;
	long r = host_syscall2(nr, id, &h);

	if (r)
		return r;
	put_compat_itimerspec(&c, &h);
	return copy_to_guest(sc_mm(t), value, &c, sizeof(c));
}

SG_SYSCALL_DEFINE4(sys_timer_settime32, timer_id, flags, new_setting, old_setting)
{
	return settime32(t, SYS_timer_settime, timer_id, flags, new_setting, old_setting);
}

SG_SYSCALL_DEFINE4(sys_timerfd_settime32, ufd, flags, utmr, otmr)
{
	return settime32(t, SYS_timerfd_settime, ufd, flags, utmr, otmr);
}

SG_SYSCALL_DEFINE2(sys_timer_gettime32, timer_id, setting)
{
	return gettime32(t, SYS_timer_gettime, timer_id, setting);
}

SG_SYSCALL_DEFINE2(sys_timerfd_gettime32, ufd, otmr)
{
	return gettime32(t, SYS_timerfd_gettime, ufd, otmr);
}

/* --- timer_create: the timers an execve in place deletes ------------------- */

/* This process made a POSIX timer (host timers: the host's own exec
 * deletes them, an execve in place must, syscall/execve.c). */
static bool timers_made;

bool sc_timers_made(void)
{
	return timers_made;
}

SG_SYSCALL_DEFINE3(sys_timer_create, which_clock, timer_event_spec, created_timer_id)
{
	long r;

	(void)which_clock;
	(void)timer_event_spec;
	(void)created_timer_id;
	timers_made = true; /* before: a timer made by a call that faults late */
	r = SC_PASSTHROUGH(t, sys_timer_create, SYS_timer_create);
	return r;
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

SG_SYSCALL_DEFINE3(compat_sys_timer_create, which_clock, timer_event_spec, created_timer_id)
{
	struct sc_sigevent64 ev;
	int32_t id;
	long r = timer_event_spec ? get_sigevent(t, timer_event_spec, &ev) : 0;

	if (r)
		return r;
	/* the id is written after the clock is checked and the timer made;
	 * the kernel drops the timer when that write faults */
	timers_made = true;
	r = host_syscall3(SYS_timer_create, which_clock, timer_event_spec ? &ev : NULL, &id);
	if (r)
		return r;
	if (copy_to_guest(sc_mm(t), created_timer_id, &id, sizeof(id))) {
		host_syscall1(SYS_timer_delete, id);
		return -EFAULT;
	}
	return 0;
}

SG_SYSCALL_DEFINE2(compat_sys_mq_notify, mqdes, u_notification)
{
	struct sc_sigevent64 ev;
	long r = u_notification ? get_sigevent(t, u_notification, &ev) : 0;

	return r ? r : host_syscall2(SYS_mq_notify, mqdes, u_notification ? &ev : NULL);
}

/* --- i386 message queues: compat mq_attr, time32 timeouts -------------------- */

SG_SYSCALL_DEFINE4(compat_sys_mq_open, u_name, oflag, mode, u_attr)
{
	struct compat_mq_attr c;
	struct sc_mq_attr64 h;
	char name[PATH_MAX];
	long r = strncpy_from_guest(sc_mm(t), name, u_name, sizeof(name));

	if (r < 0)
		return r;
	if (u_attr) {
		if (copy_from_guest(sc_mm(t), &c, u_attr, sizeof(c)))
			return -EFAULT;
		get_compat_mq_attr(&h, &c);
	}
	return host_syscall4(SYS_mq_open, name, oflag, mode, u_attr ? &h : NULL);
}

SG_SYSCALL_DEFINE3(compat_sys_mq_getsetattr, mqdes, u_mqstat, u_omqstat)
{
	struct compat_mq_attr c;
	struct sc_mq_attr64 in, out;
	long r;

	if (u_mqstat) {
		if (copy_from_guest(sc_mm(t), &c, u_mqstat, sizeof(c)))
			return -EFAULT;
		get_compat_mq_attr(&in, &c);
	}
	r = host_syscall3(SYS_mq_getsetattr, mqdes, u_mqstat ? &in : NULL, &out);
	if (r || !u_omqstat)
		return r;
	put_compat_mq_attr(&c, &out);
	return copy_to_guest(sc_mm(t), u_omqstat, &c, sizeof(c));
}

/* prio: send, the priority; receive, where it goes */
static long mq_timed32(struct sg_thread *t, bool send, int mqdes, uint64_t msg_ptr,
		       uint64_t msg_len, uint64_t prio, uint64_t abs_timeout)
{
	struct compat_timespec c;
	struct timespec ts;
	long err = 0;
	void *buf = sc_buf(t, msg_ptr, (uint32_t)msg_len,
			   send ? PROT_READ : PROT_WRITE, &err);
	void *prio_p = send ? NULL : sc_buf(t, prio, 4, PROT_WRITE, &err);

	if (err)
		return err;
	if (abs_timeout) {
		if (copy_from_guest(sc_mm(t), &c, abs_timeout, sizeof(c)))
			return -EFAULT;
		get_compat_timespec(&ts, &c);
	}
	if (send)
		return host_blocking6(t, SYS_mq_timedsend, mqdes, (long)buf,
				     (long)(uint32_t)msg_len, (long)(uint32_t)prio,
				     abs_timeout ? (long)&ts : 0, 0);
	return host_blocking6(t, SYS_mq_timedreceive, mqdes, (long)buf,
			     (long)(uint32_t)msg_len, (long)prio_p,
			     abs_timeout ? (long)&ts : 0, 0);
}

SG_SYSCALL_DEFINE5(sys_mq_timedsend_time32, mqdes, msg_ptr, msg_len, msg_prio, abs_timeout)
{
	return mq_timed32(t, true, mqdes, msg_ptr, msg_len, (uint32_t)msg_prio, abs_timeout);
}

SG_SYSCALL_DEFINE5(sys_mq_timedreceive_time32, mqdes, msg_ptr, msg_len, msg_prio,
		   abs_timeout)
{
	return mq_timed32(t, false, mqdes, msg_ptr, msg_len, msg_prio, abs_timeout);
}
