/* Waiting for and queueing signals: sigpending, sigsuspend, sigtimedwait,
 * sigqueueinfo. Signals the guest blocks stay pending in the host kernel
 * (the host mask mirrors the guest's); those the host handler already took
 * wait in the thread's queue: both are looked at. Host sigsets are the
 * kernel's 64-bit words, the same bytes as every guest ABI's. */
#include <signal.h>
#include <string.h>
#include <time.h>

#include "signal/signal.h"
#include "syscall/compat/compat.h"
#include "syscall/handler.h"

/* The siginfo layout is the call's (an x86_64 program's INT 0x80 gets
 * i386's), not the program's. */
static enum sg_abi guest_layout(void)
{
	return systab_abi(sc_table());
}

/* --- sigpending ------------------------------------------------------------ */

static uint64_t pending_now(struct sg_thread *t)
{
	uint64_t host = 0;

	host_syscall2(SYS_rt_sigpending, &host, sizeof(host));
	return (host | sig_queued(sg_task(t))) & sc_sigstate(t)->mask;
}

static long rt_sigpending(struct sg_thread *t, const uint64_t *a)
{
	uint64_t set;

	if (a[1] > sizeof(set))
		return -EINVAL;
	set = pending_now(t);
	return copy_to_guest(sc_mm(t), a[0], &set, (size_t)a[1]);
}

SG_SYSCALL_DEFINE(sys_rt_sigpending)
{
	return rt_sigpending(t, a);
}

SG_SYSCALL_DEFINE(compat_sys_rt_sigpending)
{
	return rt_sigpending(t, a);
}

/* i386 sigpending (73): old_sigset_t, the first 32 signals */
SG_SYSCALL_DEFINE(compat_sys_sigpending)
{
	uint32_t set = (uint32_t)pending_now(t);

	return copy_to_guest(sc_mm(t), a[0], &set, sizeof(set));
}

/* --- sigsuspend --------------------------------------------------------------- */

/* Wait with mask until a signal is to be delivered; the run loop delivers
 * it and puts the old mask back (in the frame, or at once). */
static long suspend(struct sg_thread *t, uint64_t mask)
{
	struct sg_sigstate *s = sc_sigstate(t);
	uint64_t old = s->mask;

	s->mask = mask & ~SIG_UNBLOCKABLE;
	if (!sig_deliverable(sg_task(t))) {
		sigset_t host;

		sig_host_mask(sg_task(t), s->mask, &host);
		if (host_blocking2(t, SYS_rt_sigsuspend, &host, sizeof(uint64_t)) ==
		    -SG_ERESTARTNOINTR) {
			/* the signal came before the call: natively the guest
			 * would have had it under its old mask */
			s->mask = old;
			return -SG_ERESTARTNOINTR;
		}
	}
	s->saved_mask = old;
	s->has_saved_mask = true;
	return -EINTR;
}

SG_SYSCALL_DEFINE(sys_rt_sigsuspend)
{
	uint64_t mask;

	if (a[1] != sizeof(mask))
		return -EINVAL;
	if (copy_from_guest(sc_mm(t), &mask, a[0], sizeof(mask)))
		return -EFAULT;
	return suspend(t, mask);
}

SG_SYSCALL_DEFINE(compat_sys_rt_sigsuspend)
{
	return sys_rt_sigsuspend(t, a);
}

/* i386 sigsuspend (72): (unused, unused, old_sigset_t mask) */
SG_SYSCALL_DEFINE(sys_sigsuspend)
{
	return suspend(t, (sc_sigstate(t)->mask & ~0xffffffffull) | (uint32_t)a[2]);
}

/* --- sigtimedwait ------------------------------------------------------------- */

static long timedwait(struct sg_thread *t, const uint64_t *a, const struct timespec *ts)
{
	uint64_t set;
	siginfo_t si;
	uint8_t out[128];
	long sig;

	if (a[3] != sizeof(set))
		return -EINVAL;
	if (copy_from_guest(sc_mm(t), &set, a[0], sizeof(set)))
		return -EFAULT;
	set &= ~SIG_UNBLOCKABLE;
	memset(&si, 0, sizeof(si));
	sig = sig_dequeue(sg_task(t), set, &si);
	if (!sig) {
		sig = host_blocking4(t, SYS_rt_sigtimedwait, &set, &si, ts, sizeof(set));
		if (sig < 0)
			return sig;
	}
	if (a[1]) {
		siginfo_to_guest(&si, guest_layout(), out);
		if (copy_to_guest(sc_mm(t), a[1], out, sizeof(out)))
			return -EFAULT;
	}
	return sig;
}

/* x86_64 (128); i386 time64 (421) and x32 (523): struct __kernel_timespec */
static long timedwait64(struct sg_thread *t, const uint64_t *a)
{
	struct timespec ts;

	if (a[2] && copy_from_guest(sc_mm(t), &ts, a[2], sizeof(ts)))
		return -EFAULT;
	return timedwait(t, a, a[2] ? &ts : NULL);
}

SG_SYSCALL_DEFINE(sys_rt_sigtimedwait)
{
	return timedwait64(t, a);
}

SG_SYSCALL_DEFINE(compat_sys_rt_sigtimedwait_time64)
{
	return timedwait64(t, a);
}

/* i386 (177): old_timespec32 */
SG_SYSCALL_DEFINE(compat_sys_rt_sigtimedwait_time32)
{
	struct compat_timespec c;
	struct timespec ts;

	if (a[2]) {
		if (copy_from_guest(sc_mm(t), &c, a[2], sizeof(c)))
			return -EFAULT;
		get_compat_timespec(&ts, &c);
	}
	return timedwait(t, a, a[2] ? &ts : NULL);
}

/* --- sigqueueinfo ------------------------------------------------------------- */

static long get_info(struct sg_thread *t, uint64_t addr, siginfo_t *si)
{
	uint8_t in[128];

	if (copy_from_guest(sc_mm(t), in, addr, sizeof(in)))
		return -EFAULT;
	siginfo_from_guest(in, guest_layout(), si);
	return 0;
}

/* rt_sigqueueinfo(pid, sig, info) */
SG_SYSCALL_DEFINE(sys_rt_sigqueueinfo)
{
	siginfo_t si;
	long r = get_info(t, a[2], &si);

	if (r)
		return r;
	return host_syscall3(SYS_rt_sigqueueinfo, (int)a[0], (int)a[1], &si);
}

SG_SYSCALL_DEFINE(compat_sys_rt_sigqueueinfo)
{
	return sys_rt_sigqueueinfo(t, a);
}

/* rt_tgsigqueueinfo(tgid, tid, sig, info) */
SG_SYSCALL_DEFINE(sys_rt_tgsigqueueinfo)
{
	siginfo_t si;
	long r = get_info(t, a[3], &si);

	if (r)
		return r;
	return host_syscall4(SYS_rt_tgsigqueueinfo, (int)a[0], (int)a[1], (int)a[2], &si);
}

SG_SYSCALL_DEFINE(compat_sys_rt_tgsigqueueinfo)
{
	return sys_rt_tgsigqueueinfo(t, a);
}

/* pidfd_send_signal(pidfd, sig, info, flags): info in the guest's layout,
 * widened as for rt_sigqueueinfo; NULL is the kernel's SI_USER from us. */
SG_SYSCALL_DEFINE(sys_pidfd_send_signal)
{
	siginfo_t si;

	if (a[2]) {
		long r = get_info(t, a[2], &si);

		if (r)
			return r;
	}
	return host_syscall4(SYS_pidfd_send_signal, (int)a[0], (int)a[1],
			     a[2] ? &si : NULL, (unsigned)a[3]);
}
