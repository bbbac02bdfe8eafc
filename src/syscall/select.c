/* Waiting on descriptors: select, pselect6 and ppoll in every ABI form.
 *
 * fd_set bitmaps are little-endian arrays of guest longs, so the bits are
 * the same bytes in all three ABIs; only how many bytes the kernel touches
 * differs ((n + 31) / 32 * 4 for i386, (n + 63) / 64 * 8 otherwise). The
 * guest's sets are copied into host bitmaps and back, timeouts converted
 * (i386 time32), and the remaining time written back as Linux does. The
 * sigmask argument pack of pselect6 is { sigset pointer, size } of guest
 * longs.
 */
#include <poll.h>
#include <string.h>
#include <sys/select.h>

#include "syscall/compat/compat.h"
#include "syscall/handler.h"

/* sysgate's descriptors stay below the guest's (DESIGN.md): a larger n
 * than this only names descriptors nobody has. */
#define SC_MAX_FDS 65536
#define SC_SET_WORDS (SC_MAX_FDS / 64)

enum tmo_form { TMO_NONE, TMO_TIMEVAL, TMO_TIMEVAL32, TMO_TS, TMO_TS32 };

struct fdsets {
	uint64_t bits[3][SC_SET_WORDS];
	uint64_t guest[3];
	size_t bytes; /* what the guest's kernel would copy per set */
};

static long get_sets(struct sg_thread *t, struct fdsets *s, const uint64_t *a,
		     int n)
{
	size_t host = (size_t)(n + 63) / 64 * 8;

	s->bytes = sc_i386() ? (size_t)(n + 31) / 32 * 4 : host;
	for (int i = 0; i < 3; i++) {
		s->guest[i] = a[i];
		if (!a[i])
			continue;
		memset(s->bits[i], 0, host);
		if (copy_from_guest(sc_mm(t), s->bits[i], a[i], s->bytes))
			return -EFAULT;
	}
	return 0;
}

static long put_sets(struct sg_thread *t, const struct fdsets *s)
{
	for (int i = 0; i < 3; i++)
		if (s->guest[i] &&
		    copy_to_guest(sc_mm(t), s->guest[i], s->bits[i], s->bytes))
			return -EFAULT;
	return 0;
}

/* Read the guest timeout into *ts; 0, -EFAULT or -EINVAL. */
static long get_tmo(struct sg_thread *t, uint64_t addr, enum tmo_form f,
		    struct timespec *ts)
{
	union {
		struct compat_timeval tv32;
		struct compat_timespec ts32;
		struct timeval tv;
		struct timespec ts;
	} u;
	size_t size = f == TMO_TIMEVAL32 || f == TMO_TS32 ? 8 : 16;

	if (copy_from_guest(sc_mm(t), &u, addr, size))
		return -EFAULT;
	switch (f) {
	case TMO_TIMEVAL32:
		ts->tv_sec = u.tv32.tv_sec;
		ts->tv_nsec = (long)u.tv32.tv_usec * 1000;
		break;
	case TMO_TIMEVAL:
		ts->tv_sec = u.tv.tv_sec;
		ts->tv_nsec = u.tv.tv_usec * 1000;
		break;
	case TMO_TS32:
		get_compat_timespec(ts, &u.ts32);
		break;
	default:
		*ts = u.ts;
		break;
	}
	return 0;
}

static long put_tmo(struct sg_thread *t, uint64_t addr, enum tmo_form f,
		    const struct timespec *ts)
{
	union {
		struct compat_timeval tv32;
		struct compat_timespec ts32;
		struct timeval tv;
		struct timespec ts;
	} u;
	size_t size = f == TMO_TIMEVAL32 || f == TMO_TS32 ? 8 : 16;

	switch (f) {
	case TMO_TIMEVAL32:
		u.tv32.tv_sec = (int32_t)ts->tv_sec;
		u.tv32.tv_usec = (int32_t)(ts->tv_nsec / 1000);
		break;
	case TMO_TIMEVAL:
		u.tv.tv_sec = ts->tv_sec;
		u.tv.tv_usec = ts->tv_nsec / 1000;
		break;
	case TMO_TS32:
		put_compat_timespec(&u.ts32, ts);
		break;
	default:
		u.ts = *ts;
		break;
	}
	return copy_to_guest(sc_mm(t), addr, &u, size);
}

/* select, pselect6 and ppoll write the time left back whatever the result
 * (their code when interrupted, -ERESTARTNOHAND, restarts them with it);
 * when that cannot be written the call cannot be restarted and gives EINTR
 * (the kernel's poll_select_finish). */
static long put_time_left(struct sg_thread *t, uint64_t addr, enum tmo_form f,
			  const struct timespec *ts, long r)
{
	if (addr && (r >= 0 || r == -SG_ERESTARTNOHAND) && put_tmo(t, addr, f, ts) &&
	    r == -SG_ERESTARTNOHAND)
		return -EINTR;
	return r;
}

/* A native kernel takes only the numbers below its descriptor table's
 * size from the sets (core_sys_select: n clamped to max_fds, and only
 * that many bytes written back); sysgate's table is larger, so a number
 * past the guest's, never open, is EBADF on the host. When the guest's
 * table is smaller than n: n clamped to it, the bits past it dropped (the
 * caller tries again). */
static bool clamp_to_guest_table(struct fdsets *s, int *n)
{
	int size = sc_guest_fd_table_size();

	if (size >= *n)
		return false;
	*n = size; /* a multiple of 64: whole words */
	for (int i = 0; i < 3; i++)
		if (s->guest[i])
			memset(&s->bits[i][size / 64], 0, (SC_SET_WORDS - (size_t)size / 64) * 8);
	s->bytes = (size_t)size / 8;
	return true;
}

/* The host's pselect6 does all forms: select's timeval becomes a timespec
 * (microseconds over 999999 are -EINVAL, as the kernel's poll_select_set_timeout). */
static long do_select(struct sg_thread *t, int n, const uint64_t *sets,
		      uint64_t tmo, enum tmo_form f, const void *sigpack)
{
	struct fdsets s; /* 24 KiB of stack, no allocation */
	struct timespec ts;
	long r;

	if (n < 0)
		return -EINVAL;
	if (n > SC_MAX_FDS)
		n = SC_MAX_FDS;
	r = get_sets(t, &s, sets, n);
	if (r)
		return r;
	for (int i = 0; i < 3; i++) /* sysgate's own: past the guest's table */
		if (s.guest[i])
			sc_fdset_drop_private(s.bits[i], n);
	if (tmo) {
		r = get_tmo(t, tmo, f, &ts);
		if (r)
			return r;
		if (ts.tv_sec < 0 || ts.tv_nsec < 0 || ts.tv_nsec >= 1000000000)
			return -EINVAL;
	}
	r = host_blocking6(t, SYS_pselect6, n, sets[0] ? (long)s.bits[0] : 0,
			  sets[1] ? (long)s.bits[1] : 0,
			  sets[2] ? (long)s.bits[2] : 0, tmo ? (long)&ts : 0,
			  (long)sigpack);
	if (r == -EBADF && clamp_to_guest_table(&s, &n))
		r = host_blocking6(t, SYS_pselect6, n, sets[0] ? (long)s.bits[0] : 0,
				  sets[1] ? (long)s.bits[1] : 0,
				  sets[2] ? (long)s.bits[2] : 0, tmo ? (long)&ts : 0,
				  (long)sigpack);
	if (r >= 0 && put_sets(t, &s))
		return -EFAULT;
	return put_time_left(t, tmo, f, &ts, sc_interrupted_as(r, -SG_ERESTARTNOHAND));
}

SG_SYSCALL_DEFINE5(sys_select, n, inp, outp, exp, tvp)
{
	return do_select(t, n, (const uint64_t[3]){ inp, outp, exp }, tvp, TMO_TIMEVAL, NULL);
}

SG_SYSCALL_DEFINE5(compat_sys_select, n, inp, outp, exp, tvp)
{
	return do_select(t, n, (const uint64_t[3]){ inp, outp, exp }, tvp, TMO_TIMEVAL32, NULL);
}

/* i386 old select (82): the five arguments in a struct in guest memory */
SG_SYSCALL_DEFINE1(compat_sys_old_select, arg)
{
	struct compat_sel_arg_struct s;
	uint64_t sets[3];

	if (copy_from_guest(sc_mm(t), &s, arg, sizeof(s)))
		return -EFAULT;
	sets[0] = s.inp;
	sets[1] = s.outp;
	sets[2] = s.exp;
	return do_select(t, (int)s.n, sets, s.tvp, TMO_TIMEVAL32, NULL);
}

/* pselect6's sixth argument: { const sigset_t *ss; size_t ss_len } with
 * guest-width members; the host gets its own 64-bit pack. */
struct sigpack {
	uint64_t ss;
	uint64_t len;
};

static long get_sigpack(struct sg_thread *t, uint64_t addr, struct sigpack *p)
{
	if (sc_i386()) {
		struct compat_sigset_argpack c;

		if (copy_from_guest(sc_mm(t), &c, addr, sizeof(c)))
			return -EFAULT;
		p->ss = c.p;
		p->len = c.size;
	} else {
		struct sc_sigset_argpack64 h;

		if (copy_from_guest(sc_mm(t), &h, addr, sizeof(h)))
			return -EFAULT;
		p->ss = h.p;
		p->len = h.size;
	}
	if (p->ss && !sc_ok(t, p->ss, 8, PROT_READ))
		return -EFAULT;
	return 0;
}

static long do_pselect(struct sg_thread *t, enum tmo_form f, int n, uint64_t inp, uint64_t outp,
		       uint64_t exp, uint64_t tsp, uint64_t sig)
{
	struct sigpack pack = { 0, 0 };
	struct sc_wait_mask w;
	long r = sig ? get_sigpack(t, sig, &pack) : 0;

	if (r)
		return r;
	if (sc_wait_mask_begin(t, pack.ss, pack.len, &w))
		return sc_wait_mask_end(t, &w, -SG_ERESTARTNOHAND);
	r = do_select(t, n, (const uint64_t[3]){ inp, outp, exp }, tsp, f, sig ? &pack : NULL);
	return sc_wait_mask_end(t, &w, r);
}

SG_SYSCALL_DEFINE6(sys_pselect6, n, inp, outp, exp, tsp, sig)
{
	/* x32 reaches this too: its pack has 64-bit members (glibc passes
	 * __syscall_ulong_t), so only i386 uses the compat pack */
	return do_pselect(t, TMO_TS, n, inp, outp, exp, tsp, sig);
}

SG_SYSCALL_DEFINE6(compat_sys_pselect6_time32, n, inp, outp, exp, tsp, sig)
{
	return do_pselect(t, TMO_TS32, n, inp, outp, exp, tsp, sig);
}

SG_SYSCALL_DEFINE6(compat_sys_pselect6_time64, n, inp, outp, exp, tsp, sig)
{
	return do_pselect(t, TMO_TS, n, inp, outp, exp, tsp, sig);
}

/* --- poll ----------------------------------------------------------------- */

/* poll(fds, nfds, timeout): struct pollfd is the same in every ABI.
 * Interrupted by a signal, it keeps its deadline (if it has a timeout) in
 * the restart block: the kernel's code is -ERESTART_RESTARTBLOCK, with
 * or without a timeout. */
SG_SYSCALL_DEFINE3(sys_poll, ufds, nfds_arg, timeout_msecs)
{
	uint64_t nfds = (uint32_t)nfds_arg;
	int tmo = timeout_msecs;
	struct sc_poll_saved saved;
	int64_t start;
	long err = 0, r;
	void *fds;

	if (nfds > (1u << 20))
		return -EINVAL;
	fds = sc_buf(t, ufds, nfds * 8, PROT_READ | PROT_WRITE, &err);
	if (err)
		return err;
	start = tmo >= 0 ? sc_clock_ns(CLOCK_MONOTONIC) : 0;
	sc_poll_hide(fds, nfds, &saved);
	r = host_blocking3(t, SYS_poll, fds, nfds, tmo);
	sc_poll_unhide(fds, &saved);
	if (r == -SG_ERESTARTSYS)
		return sc_restart_block(t, SG_RESTART_POLL, CLOCK_MONOTONIC,
					start + tmo * 1000000ll, ufds, nfds, tmo >= 0);
	return r;
}

long sc_poll_restart(struct sg_thread *t)
{
	struct sg_sigstate *s = sc_sigstate(t);
	int64_t left = s->restart_deadline - sc_clock_ns(CLOCK_MONOTONIC);
	bool timed = s->restart_args[2];
	struct timespec ts = { 0, 0 };
	struct sc_poll_saved saved;
	long err = 0, r;
	void *fds;

	fds = sc_buf(t, s->restart_args[0], s->restart_args[1] * 8,
		     PROT_READ | PROT_WRITE, &err);
	if (err)
		return err;
	if (left > 0)
		ts = (struct timespec){ left / 1000000000, left % 1000000000 };
	sc_poll_hide(fds, s->restart_args[1], &saved);
	r = host_blocking5(t, SYS_ppoll, fds, s->restart_args[1], timed ? &ts : NULL, NULL, 8);
	sc_poll_unhide(fds, &saved);
	if (r == -SG_ERESTARTSYS)
		return sc_restart_block(t, SG_RESTART_POLL, CLOCK_MONOTONIC, s->restart_deadline,
					s->restart_args[0], s->restart_args[1], timed);
	return r;
}

/* --- ppoll ---------------------------------------------------------------- */

static long do_ppoll(struct sg_thread *t, enum tmo_form f, uint64_t ufds, int nfds_arg,
		     uint64_t tsp, uint64_t sigmask, uint64_t sigsetsize)
{
	uint64_t nfds = (uint32_t)nfds_arg;
	struct sc_poll_saved saved;
	struct sc_wait_mask w;
	struct timespec ts;
	long err = 0, r;
	void *fds, *mask;

	if (nfds > (1u << 20))
		return -EINVAL;
	fds = sc_buf(t, ufds, nfds * sizeof(struct pollfd),
		     PROT_READ | PROT_WRITE, &err);
	mask = sc_buf(t, sigmask, 8, PROT_READ, &err);
	if (err)
		return err;
	if (tsp) {
		r = get_tmo(t, tsp, f, &ts);
		if (r)
			return r;
	}
	if (sc_wait_mask_begin(t, sigmask, sigsetsize, &w))
		return sc_wait_mask_end(t, &w, -SG_ERESTARTNOHAND);
	sc_poll_hide(fds, nfds, &saved);
	r = host_blocking5(t, SYS_ppoll, fds, nfds, tsp ? &ts : NULL, mask, sigsetsize);
	sc_poll_unhide(fds, &saved);
	r = put_time_left(t, tsp, f, &ts, sc_interrupted_as(r, -SG_ERESTARTNOHAND));
	return sc_wait_mask_end(t, &w, r);
}

SG_SYSCALL_DEFINE5(sys_ppoll, ufds, nfds, tsp, sigmask, sigsetsize)
{
	return do_ppoll(t, TMO_TS, ufds, nfds, tsp, sigmask, sigsetsize);
}

SG_SYSCALL_DEFINE5(compat_sys_ppoll_time32, ufds, nfds, tsp, sigmask, sigsetsize)
{
	return do_ppoll(t, TMO_TS32, ufds, nfds, tsp, sigmask, sigsetsize);
}

SG_SYSCALL_DEFINE5(compat_sys_ppoll_time64, ufds, nfds, tsp, sigmask, sigsetsize)
{
	return do_ppoll(t, TMO_TS, ufds, nfds, tsp, sigmask, sigsetsize);
}
