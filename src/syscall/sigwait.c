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

static long rt_sigpending(struct sg_thread *t, uint64_t uset, uint64_t sigsetsize)
{
	uint64_t set;

	if (sigsetsize > sizeof(set))
		return -EINVAL;
	set = pending_now(t);
	return copy_to_guest(sc_mm(t), uset, &set, (size_t)sigsetsize);
}

SG_SYSCALL_DEFINE2(sys_rt_sigpending, uset, sigsetsize)
{
	return rt_sigpending(t, uset, sigsetsize);
}

SG_SYSCALL_DEFINE2(compat_sys_rt_sigpending, uset, sigsetsize)
{
	return rt_sigpending(t, uset, sigsetsize);
}

/* i386 sigpending (73): old_sigset_t, the first 32 signals */
SG_SYSCALL_DEFINE1(compat_sys_sigpending, uset)
{
	uint32_t set = (uint32_t)pending_now(t);

	return copy_to_guest(sc_mm(t), uset, &set, sizeof(set));
}

/* --- sigsuspend --------------------------------------------------------------- */

/* Wait with mask until a signal is to be delivered; the run loop delivers
 * it and puts the old mask back (in the frame, or at once). The kernel's
 * code is -ERESTARTNOHAND: a signal that runs no handler (ignored, a
 * stop) sends the guest back into the wait. */
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
	return -SG_ERESTARTNOHAND;
}

/* A call that waits with a mask of its own (pselect6, ppoll, epoll_pwait,
 * io_pgetevents): the guest's mask is that one while it waits and, when a
 * signal interrupted it, until that signal's delivery, which puts the old
 * one back (in the frame, or at once): a signal only the call's mask
 * unblocks runs its handler, as the kernel's set_user_sigmask and
 * restore_saved_sigmask_unless do. */
bool sc_wait_mask_begin(struct sg_thread *t, uint64_t umask, uint64_t size,
			struct sc_wait_mask *w)
{
	struct sg_sigstate *s = sc_sigstate(t);
	uint64_t mask;

	w->set = false;
	if (!umask || size != sizeof(mask) || copy_from_guest(sc_mm(t), &mask, umask, sizeof(mask)))
		return false; /* the host's answer (EINVAL, EFAULT), or none */
	w->set = true;
	w->old = s->mask;
	s->mask = mask & ~SIG_UNBLOCKABLE;
	return sig_deliverable(sg_task(t));
}

long sc_wait_mask_end(struct sg_thread *t, const struct sc_wait_mask *w, long r)
{
	struct sg_sigstate *s = sc_sigstate(t);

	if (!w->set)
		return r;
	if (r != -SG_ERESTARTNOINTR && (sg_restart_code(r) || r == -EINTR)) {
		s->saved_mask = w->old;
		s->has_saved_mask = true;
	} else {
		/* done, or not started: the guest's mask as before the call
		 * (a restart sets the call's again) */
		s->mask = w->old;
	}
	return r;
}

SG_SYSCALL_DEFINE2(sys_rt_sigsuspend, unewset, sigsetsize)
{
	uint64_t mask;

	if (sigsetsize != sizeof(mask))
		return -EINVAL;
	if (copy_from_guest(sc_mm(t), &mask, unewset, sizeof(mask)))
		return -EFAULT;
	return suspend(t, mask);
}

SG_SYSCALL_DEFINE(compat_sys_rt_sigsuspend)
{
	return sys_rt_sigsuspend(t, a);
}

/* i386 sigsuspend (72): old_sigset_t, the first 32 signals */
SG_SYSCALL_DEFINE3(sys_sigsuspend, unused1, unused2, mask)
{
	return suspend(t, (sc_sigstate(t)->mask & ~0xffffffffull) | (uint32_t)mask);
}

/* --- sigtimedwait ------------------------------------------------------------- */

static long timedwait(struct sg_thread *t, uint64_t uthese, uint64_t uinfo,
		      const struct timespec *ts, uint64_t sigsetsize)
{
	uint64_t set;
	siginfo_t si;
	uint8_t out[128];
	long sig;

	if (sigsetsize != sizeof(set))
		return -EINVAL;
	if (copy_from_guest(sc_mm(t), &set, uthese, sizeof(set)))
		return -EFAULT;
	set &= ~SIG_UNBLOCKABLE;
	memset(&si, 0, sizeof(si));
	sig = sig_dequeue(sg_task(t), set, &si);
	if (!sig) {
		sig = host_blocking4(t, SYS_rt_sigtimedwait, &set, &si, ts, sizeof(set));
		if (sig < 0) /* interrupted: the kernel's code is -EINTR itself */
			return sc_interrupted_as(sig, -EINTR);
	}
	if (uinfo) {
		siginfo_to_guest(&si, guest_layout(), out);
		if (copy_to_guest(sc_mm(t), uinfo, out, sizeof(out)))
			return -EFAULT;
	}
	return sig;
}

/* x86_64 (128); i386 time64 (421) and x32 (523): struct __kernel_timespec */
static long timedwait64(struct sg_thread *t, uint64_t uthese, uint64_t uinfo, uint64_t uts,
			uint64_t sigsetsize)
{
	struct timespec ts;

	if (uts && copy_from_guest(sc_mm(t), &ts, uts, sizeof(ts)))
		return -EFAULT;
	return timedwait(t, uthese, uinfo, uts ? &ts : NULL, sigsetsize);
}

SG_SYSCALL_DEFINE4(sys_rt_sigtimedwait, uthese, uinfo, uts, sigsetsize)
{
	return timedwait64(t, uthese, uinfo, uts, sigsetsize);
}

SG_SYSCALL_DEFINE4(compat_sys_rt_sigtimedwait_time64, uthese, uinfo, uts, sigsetsize)
{
	return timedwait64(t, uthese, uinfo, uts, sigsetsize);
}

/* i386 (177): old_timespec32 */
SG_SYSCALL_DEFINE4(compat_sys_rt_sigtimedwait_time32, uthese, uinfo, uts, sigsetsize)
{
	struct compat_timespec c;
	struct timespec ts;

	if (uts) {
		if (copy_from_guest(sc_mm(t), &c, uts, sizeof(c)))
			return -EFAULT;
		get_compat_timespec(&ts, &c);
	}
	return timedwait(t, uthese, uinfo, uts ? &ts : NULL, sigsetsize);
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

SG_SYSCALL_DEFINE3(sys_rt_sigqueueinfo, pid, sig, uinfo)
{
	siginfo_t si;
	long r = get_info(t, uinfo, &si);

	if (r)
		return r;
	return host_syscall3(SYS_rt_sigqueueinfo, pid, (int)sig, &si);
}

SG_SYSCALL_DEFINE(compat_sys_rt_sigqueueinfo)
{
	return sys_rt_sigqueueinfo(t, a);
}

SG_SYSCALL_DEFINE4(sys_rt_tgsigqueueinfo, tgid, pid, sig, uinfo)
{
	siginfo_t si;
	long r = get_info(t, uinfo, &si);

	if (r)
		return r;
	return host_syscall4(SYS_rt_tgsigqueueinfo, tgid, pid, (int)sig, &si);
}

SG_SYSCALL_DEFINE(compat_sys_rt_tgsigqueueinfo)
{
	return sys_rt_tgsigqueueinfo(t, a);
}

/* info in the guest's layout, widened as for rt_sigqueueinfo; NULL is
 * the kernel's SI_USER from us. */
SG_SYSCALL_DEFINE4(sys_pidfd_send_signal, pidfd, sig, uinfo, flags)
{
	siginfo_t si;

	if (uinfo) {
		long r = get_info(t, uinfo, &si);

		if (r)
			return r;
	}
	return host_syscall4(SYS_pidfd_send_signal, pidfd, (int)sig, uinfo ? &si : NULL,
			     (unsigned)flags);
}
