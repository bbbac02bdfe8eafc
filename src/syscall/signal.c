/* Signal actions, masks and the alternate stack (docs/signals.md). The
 * guest's state lives in the process and thread; src/signal makes the host
 * follow it (a queueing handler where the guest handles a signal, the
 * guest's mask in the host thread's) and delivers. Waiting and queueing
 * calls are in sigwait.c. */
#include <signal.h>
#include <string.h>

#include "signal/signal.h"
#include "syscall/compat/compat.h"
#include "syscall/handler.h"

#define UNBLOCKABLE SIG_UNBLOCKABLE
#define SC_SS_ONSTACK 1
#define SC_SS_DISABLE 2
#define SC_SS_AUTODISARM (1u << 31)
#define SC_MINSIGSTKSZ 2048

static long get_sigaction(struct sg_thread *t, uint64_t addr, bool compat,
			  struct sg_sigaction *sa)
{
	if (compat) {
		struct compat_sigaction c;

		if (copy_from_guest(sc_mm(t), &c, addr, sizeof(c)))
			return -EFAULT;
		sa->handler = c.handler;
		sa->flags = c.flags;
		sa->restorer = c.restorer;
		sa->mask = c.mask[0] | (uint64_t)c.mask[1] << 32;
	} else {
		struct sc_sigaction64 h;

		if (copy_from_guest(sc_mm(t), &h, addr, sizeof(h)))
			return -EFAULT;
		sa->handler = h.handler;
		sa->flags = h.flags;
		sa->restorer = h.restorer;
		sa->mask = h.mask;
	}
	return 0;
}

static long put_sigaction(struct sg_thread *t, uint64_t addr, bool compat,
			  const struct sg_sigaction *sa)
{
	if (compat) {
		struct compat_sigaction c = {
			.handler = (uint32_t)sa->handler,
			.flags = (uint32_t)sa->flags,
			.restorer = (uint32_t)sa->restorer,
			.mask = { (uint32_t)sa->mask,
				     (uint32_t)(sa->mask >> 32) },
		};

		return copy_to_guest(sc_mm(t), addr, &c, sizeof(c));
	} else {
		struct sc_sigaction64 h = {
			.handler = sa->handler,
			.flags = sa->flags,
			.restorer = sa->restorer,
			.mask = sa->mask,
		};

		return copy_to_guest(sc_mm(t), addr, &h, sizeof(h));
	}
}

/* rt_sigaction(sig, act, oact, sigsetsize) */
static long do_rt_sigaction(struct sg_thread *t, uint64_t signum, uint64_t act, uint64_t oact,
			    uint64_t sigsetsize, bool compat)
{
	int sig = (int)signum;
	struct sg_sigaction nsa;
	long r;

	struct sg_sigaction old;

	/* the kernel's order: size, the new action read (EFAULT), the
	 * signal (EINVAL), the change, the old action written (EFAULT) */
	if (sigsetsize != sizeof(uint64_t))
		return -EINVAL;
	if (act) {
		r = get_sigaction(t, act, compat, &nsa);
		if (r)
			return r;
		nsa.mask &= ~UNBLOCKABLE;
	}
	if (sig < 1 || sig > SG_NSIG ||
	    (act && (sig == SIGKILL || sig == SIGSTOP)))
		return -EINVAL;
	old = act ? sig_swap_action(sg_task(t), sig, &nsa) : sig_action(sg_task(t), sig);
	if (oact)
		return put_sigaction(t, oact, compat, &old);
	return 0;
}

SG_SYSCALL_DEFINE4(sys_rt_sigaction, signum, act, oact, sigsetsize)
{
	return do_rt_sigaction(t, signum, act, oact, sigsetsize, sc_compat());
}

/* i386 174 and x32 512: 32-bit handler, flags and restorer */
SG_SYSCALL_DEFINE4(compat_sys_rt_sigaction, signum, act, oact, sigsetsize)
{
	return do_rt_sigaction(t, signum, act, oact, sigsetsize, true);
}

/* i386 sigaction (67): struct old_sigaction { handler, mask (32 bits),
 * flags, restorer } (compat_old_sigaction, generated: compat.h). */
SG_SYSCALL_DEFINE3(compat_sys_sigaction, signum, act, oact)
{
	int sig = (int)signum;
	struct compat_old_sigaction o;
	struct sg_sigaction cur;
	struct compat_old_sigaction old;

	/* as rt_sigaction: read, check, change, then write the old one */
	if (act && copy_from_guest(sc_mm(t), &o, act, sizeof(o)))
		return -EFAULT;
	if (sig < 1 || sig > SG_NSIG || (act && (sig == SIGKILL || sig == SIGSTOP)))
		return -EINVAL;
	if (act) {
		struct sg_sigaction sa = {
			.handler = o.handler,
			.flags = o.flags,
			.restorer = o.restorer,
			.mask = o.mask & ~UNBLOCKABLE,
		};

		cur = sig_swap_action(sg_task(t), sig, &sa);
	} else {
		cur = sig_action(sg_task(t), sig);
	}
	old = (struct compat_old_sigaction){
		.handler = (uint32_t)cur.handler,
		.mask = (uint32_t)cur.mask,
		.flags = (uint32_t)cur.flags,
		.restorer = (uint32_t)cur.restorer,
	};
	if (oact && copy_to_guest(sc_mm(t), oact, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

/* i386 signal (48): SA_ONESHOT | SA_NOMASK, the old handler returned. */
SG_SYSCALL_DEFINE2(sys_signal, signum, handler)
{
	int sig = (int)signum;
	struct sg_sigaction sa = {
		.handler = (uint32_t)handler,
		.flags = SG_SA_RESETHAND | SG_SA_NODEFER,
	};

	if (sig < 1 || sig > SG_NSIG || sig == SIGKILL || sig == SIGSTOP)
		return -EINVAL;
	return (long)sig_swap_action(sg_task(t), sig, &sa).handler;
}

static long set_mask(struct sg_thread *t, int how, uint64_t set)
{
	struct sg_sigstate *s = sc_sigstate(t);

	set &= ~UNBLOCKABLE;
	switch (how) {
	case SIG_BLOCK:
		s->mask |= set;
		break;
	case SIG_UNBLOCK:
		s->mask &= ~set;
		break;
	case SIG_SETMASK:
		s->mask = set;
		break;
	default:
		return -EINVAL;
	}
	sig_mask_changed(sg_task(t));
	if (sig_deliverable(sg_task(t)))
		sc_request_stop(t); /* delivered before the next insn */
	return 0;
}

/* i386 sigprocmask (126): 32-bit old_sigset_t; the upper signals stay. */
SG_SYSCALL_DEFINE3(compat_sys_sigprocmask, how, nset, oset)
{
	uint32_t set, old = (uint32_t)sc_sigstate(t)->mask;
	long r;

	if (nset) {
		if (copy_from_guest(sc_mm(t), &set, nset, sizeof(set)))
			return -EFAULT;
		if ((int)how == SIG_SETMASK)
			r = set_mask(t, SIG_SETMASK, (sc_sigstate(t)->mask & ~0xffffffffull) | set);
		else
			r = set_mask(t, (int)how, set);
		if (r)
			return r;
	}
	if (oset && copy_to_guest(sc_mm(t), oset, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

/* rt_sigprocmask(how, set, oset, sigsetsize): a 64-bit set in every ABI
 * (i386's two 32-bit words are the same bytes). */
SG_SYSCALL_DEFINE4(sys_rt_sigprocmask, how, nset, oset, sigsetsize)
{
	uint64_t set, old = sc_sigstate(t)->mask;

	if (sigsetsize != sizeof(uint64_t))
		return -EINVAL;
	if (nset) {
		long r;

		if (copy_from_guest(sc_mm(t), &set, nset, sizeof(set)))
			return -EFAULT;
		if ((int)how < SIG_BLOCK || (int)how > SIG_SETMASK)
			return -EINVAL;
		if (oset && !sc_ok(t, oset, sizeof(old), PROT_WRITE))
			return -EFAULT;
		r = set_mask(t, (int)how, set);
		if (r)
			return r;
	}
	if (oset && copy_to_guest(sc_mm(t), oset, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

SG_SYSCALL_DEFINE(compat_sys_rt_sigprocmask)
{
	return sys_rt_sigprocmask(t, a);
}

/* sigaltstack(ss, oss) */
static long do_sigaltstack(struct sg_thread *t, uint64_t uss, uint64_t uoss, bool compat)
{
	uint64_t sp, size;
	uint32_t flags;
	struct sg_sigstate *s = sc_sigstate(t);
	uint64_t old_sp = s->altstack_sp, old_size = s->altstack_size;
	uint32_t old_flags = s->altstack_flags;

	if (uss) {
		if (frame_ss_flags(sg_task(t), sc_stack_pointer(t)) == SS_ONSTACK)
			return -EPERM; /* not while running on it */
		if (compat) {
			struct compat_stack c;

			if (copy_from_guest(sc_mm(t), &c, uss, sizeof(c)))
				return -EFAULT;
			sp = c.ss_sp;
			flags = (uint32_t)c.ss_flags;
			size = c.ss_size;
		} else {
			struct sc_stack64 h;

			if (copy_from_guest(sc_mm(t), &h, uss, sizeof(h)))
				return -EFAULT;
			sp = h.ss_sp;
			flags = (uint32_t)h.ss_flags;
			size = h.ss_size;
		}
		/* no change asked for: 0 before any check, as the kernel */
		if (sp == old_sp && size == old_size && flags == old_flags)
			goto old_stack;
		switch (flags & ~SC_SS_AUTODISARM) {
		case SC_SS_DISABLE:
			sp = size = 0;
			break;
		case 0:
		case SC_SS_ONSTACK:
			if (size < SC_MINSIGSTKSZ)
				return -ENOMEM;
			break;
		default:
			return -EINVAL;
		}
		s->altstack_sp = sp;
		s->altstack_size = size;
		s->altstack_flags = flags & SC_SS_AUTODISARM;
	}
old_stack:
	if (uoss) {
		int32_t oflags = (int32_t)old_flags |
				 (old_size ? 0 : SC_SS_DISABLE);

		if (old_size && frame_ss_flags(sg_task(t), sc_stack_pointer(t)) == SS_ONSTACK)
			oflags |= SC_SS_ONSTACK;
		long r;

		if (compat) {
			struct compat_stack c = {
				.ss_sp = (uint32_t)old_sp,
				.ss_flags = oflags,
				.ss_size = (uint32_t)old_size,
			};

			r = copy_to_guest(sc_mm(t), uoss, &c, sizeof(c));
		} else {
			struct sc_stack64 h = {
				.ss_sp = old_sp,
				.ss_flags = oflags,
				.ss_size = old_size,
			};

			r = copy_to_guest(sc_mm(t), uoss, &h, sizeof(h));
		}
		if (r)
			return r;
	}
	return 0;
}

SG_SYSCALL_DEFINE2(sys_sigaltstack, uss, uoss)
{
	return do_sigaltstack(t, uss, uoss, sc_compat());
}

SG_SYSCALL_DEFINE2(compat_sys_sigaltstack, uss, uoss)
{
	return do_sigaltstack(t, uss, uoss, true);
}
