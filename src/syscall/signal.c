/* Signal state calls. Delivery is not emulated yet: the guest's actions,
 * mask and alternate stack are recorded in the process and thread (so
 * glibc's startup, abort and sigaction round trips see what they set),
 * and nothing is installed on the host. */
#include <signal.h>
#include <string.h>

#include "syscall/compat/compat.h"
#include "syscall/internal.h"

#define SIGBIT(n) (1ull << ((n) - 1))
#define UNBLOCKABLE (SIGBIT(SIGKILL) | SIGBIT(SIGSTOP))
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
static long do_rt_sigaction(struct sg_thread *t, const uint64_t *a,
			    bool compat)
{
	int sig = (int)a[0];
	struct sg_sigaction nsa, *cur;
	long r;

	if (a[3] != sizeof(uint64_t))
		return -EINVAL;
	if (sig < 1 || sig > SG_NSIG ||
	    (a[1] && (sig == SIGKILL || sig == SIGSTOP)))
		return -EINVAL;
	if (a[1]) {
		r = get_sigaction(t, a[1], compat, &nsa);
		if (r)
			return r;
		nsa.mask &= ~UNBLOCKABLE;
	}
	cur = &t->proc->sigactions[sig - 1];
	if (a[2]) {
		r = put_sigaction(t, a[2], compat, cur);
		if (r)
			return r;
	}
	if (a[1])
		*cur = nsa;
	return 0;
}

SG_SYSCALL_DEFINE(sys_rt_sigaction)
{
	return do_rt_sigaction(t, a, sc_compat());
}

/* i386 174 and x32 512: 32-bit handler, flags and restorer */
SG_SYSCALL_DEFINE(compat_sys_rt_sigaction)
{
	return do_rt_sigaction(t, a, true);
}

/* rt_sigprocmask(how, set, oset, sigsetsize): a 64-bit set in every ABI
 * (i386's two 32-bit words are the same bytes). */
SG_SYSCALL_DEFINE(sys_rt_sigprocmask)
{
	uint64_t set, old = t->sigmask;

	if (a[3] != sizeof(uint64_t))
		return -EINVAL;
	if (a[1]) {
		if (copy_from_guest(sc_mm(t), &set, a[1], sizeof(set)))
			return -EFAULT;
		set &= ~UNBLOCKABLE;
		switch ((int)a[0]) {
		case SIG_BLOCK:
			t->sigmask = old | set;
			break;
		case SIG_UNBLOCK:
			t->sigmask = old & ~set;
			break;
		case SIG_SETMASK:
			t->sigmask = set;
			break;
		default:
			return -EINVAL;
		}
	}
	if (a[2] && copy_to_guest(sc_mm(t), a[2], &old, sizeof(old))) {
		t->sigmask = old;
		return -EFAULT;
	}
	return 0;
}

SG_SYSCALL_DEFINE(compat_sys_rt_sigprocmask)
{
	return sys_rt_sigprocmask(t, a);
}

/* sigaltstack(ss, oss) */
static long do_sigaltstack(struct sg_thread *t, const uint64_t *a, bool compat)
{
	uint64_t sp, size;
	uint32_t flags;
	uint64_t old_sp = t->altstack_sp, old_size = t->altstack_size;
	uint32_t old_flags = t->altstack_flags;

	if (a[0]) {
		if (compat) {
			struct compat_stack c;

			if (copy_from_guest(sc_mm(t), &c, a[0], sizeof(c)))
				return -EFAULT;
			sp = c.ss_sp;
			flags = (uint32_t)c.ss_flags;
			size = c.ss_size;
		} else {
			struct sc_stack64 h;

			if (copy_from_guest(sc_mm(t), &h, a[0], sizeof(h)))
				return -EFAULT;
			sp = h.ss_sp;
			flags = (uint32_t)h.ss_flags;
			size = h.ss_size;
		}
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
		t->altstack_sp = sp;
		t->altstack_size = size;
		t->altstack_flags = flags & SC_SS_AUTODISARM;
	}
	if (a[1]) {
		int32_t oflags = (int32_t)old_flags |
				 (old_size ? 0 : SC_SS_DISABLE);
		long r;

		if (compat) {
			struct compat_stack c = {
				.ss_sp = (uint32_t)old_sp,
				.ss_flags = oflags,
				.ss_size = (uint32_t)old_size,
			};

			r = copy_to_guest(sc_mm(t), a[1], &c, sizeof(c));
		} else {
			struct sc_stack64 h = {
				.ss_sp = old_sp,
				.ss_flags = oflags,
				.ss_size = old_size,
			};

			r = copy_to_guest(sc_mm(t), a[1], &h, sizeof(h));
		}
		if (r)
			return r;
	}
	return 0;
}

SG_SYSCALL_DEFINE(sys_sigaltstack)
{
	return do_sigaltstack(t, a, sc_compat());
}

SG_SYSCALL_DEFINE(compat_sys_sigaltstack)
{
	return do_sigaltstack(t, a, true);
}
