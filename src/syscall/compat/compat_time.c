/* Time, timer, resource and system-information structures of i386 (and
 * the sigevent of i386 and x32): 32-bit seconds and longs, widened on the
 * way in and truncated on the way out as the kernel's compat code does. */
#include <string.h>
#include <sys/sysinfo.h>
#include <sys/times.h>

#include "syscall/compat/compat.h"

void get_compat_timeval(struct timeval *tv, const struct compat_timeval *c)
{
	tv->tv_sec = c->tv_sec;
	tv->tv_usec = c->tv_usec;
}

void get_compat_itimerspec(struct itimerspec *h,
			   const struct compat_itimerspec *c)
{
	get_compat_timespec(&h->it_interval, &c->it_interval);
	get_compat_timespec(&h->it_value, &c->it_value);
}

void put_compat_itimerspec(struct compat_itimerspec *c,
			   const struct itimerspec *h)
{
	put_compat_timespec(&c->it_interval, &h->it_interval);
	put_compat_timespec(&c->it_value, &h->it_value);
}

void get_compat_itimerval(struct itimerval *h, const struct compat_itimerval *c)
{
	get_compat_timeval(&h->it_interval, &c->it_interval);
	get_compat_timeval(&h->it_value, &c->it_value);
}

void put_compat_itimerval(struct compat_itimerval *c, const struct itimerval *h)
{
	put_compat_timeval(&c->it_interval, &h->it_interval);
	put_compat_timeval(&c->it_value, &h->it_value);
}

void get_compat_sigevent(struct sc_sigevent64 *h, const struct compat_sigevent *c)
{
	memset(h, 0, sizeof(*h));
	h->sigev_value = c->sigev_value;
	h->sigev_signo = c->sigev_signo;
	h->sigev_notify = c->sigev_notify;
	/* SIGEV_THREAD_ID reads the tid; SIGEV_THREAD is a libc matter but
	 * the kernel copies the words anyway */
	h->function = c->function;
	h->attribute = c->attribute;
	if (c->sigev_notify == 4 /* SIGEV_THREAD_ID */) {
		h->function = 0;
		h->attribute = 0;
		h->tid = c->tid;
	}
}

void get_compat_mq_attr(struct sc_mq_attr64 *h, const struct compat_mq_attr *c)
{
	memset(h, 0, sizeof(*h));
	h->mq_flags = c->mq_flags;
	h->mq_maxmsg = c->mq_maxmsg;
	h->mq_msgsize = c->mq_msgsize;
	h->mq_curmsgs = c->mq_curmsgs;
}

void put_compat_mq_attr(struct compat_mq_attr *c, const struct sc_mq_attr64 *h)
{
	memset(c, 0, sizeof(*c));
	c->mq_flags = (int32_t)h->mq_flags;
	c->mq_maxmsg = (int32_t)h->mq_maxmsg;
	c->mq_msgsize = (int32_t)h->mq_msgsize;
	c->mq_curmsgs = (int32_t)h->mq_curmsgs;
}

void put_compat_rusage(struct compat_rusage *c, const struct rusage *r)
{
	memset(c, 0, sizeof(*c));
	put_compat_timeval(&c->ru_utime, &r->ru_utime);
	put_compat_timeval(&c->ru_stime, &r->ru_stime);
#define NARROW(f) c->f = (int32_t)r->f
	NARROW(ru_maxrss);
	NARROW(ru_ixrss);
	NARROW(ru_idrss);
	NARROW(ru_isrss);
	NARROW(ru_minflt);
	NARROW(ru_majflt);
	NARROW(ru_nswap);
	NARROW(ru_inblock);
	NARROW(ru_oublock);
	NARROW(ru_msgsnd);
	NARROW(ru_msgrcv);
	NARROW(ru_nsignals);
	NARROW(ru_nvcsw);
	NARROW(ru_nivcsw);
#undef NARROW
}

void put_compat_sysinfo(struct compat_sysinfo *c, const struct sysinfo *s)
{
	struct sysinfo v = *s;

	/* the kernel grows mem_unit until the sizes fit 32 bits */
	if ((v.totalram >> 32) || (v.totalswap >> 32)) {
		int shift = 0;

		while (v.mem_unit < 4096) {
			v.mem_unit <<= 1;
			shift++;
		}
		v.totalram >>= shift;
		v.freeram >>= shift;
		v.sharedram >>= shift;
		v.bufferram >>= shift;
		v.totalswap >>= shift;
		v.freeswap >>= shift;
		v.totalhigh >>= shift;
		v.freehigh >>= shift;
	}
	memset(c, 0, sizeof(*c));
	c->uptime = (int32_t)v.uptime;
	for (unsigned i = 0; i < 3; i++)
		c->loads[i] = (uint32_t)v.loads[i];
	c->totalram = (uint32_t)v.totalram;
	c->freeram = (uint32_t)v.freeram;
	c->sharedram = (uint32_t)v.sharedram;
	c->bufferram = (uint32_t)v.bufferram;
	c->totalswap = (uint32_t)v.totalswap;
	c->freeswap = (uint32_t)v.freeswap;
	c->procs = v.procs;
	c->totalhigh = (uint32_t)v.totalhigh;
	c->freehigh = (uint32_t)v.freehigh;
	c->mem_unit = v.mem_unit;
}

void put_compat_tms(struct compat_tms *c, const struct tms *h)
{
	c->tms_utime = (int32_t)h->tms_utime;
	c->tms_stime = (int32_t)h->tms_stime;
	c->tms_cutime = (int32_t)h->tms_cutime;
	c->tms_cstime = (int32_t)h->tms_cstime;
}
