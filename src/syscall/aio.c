/* Linux native AIO: io_setup, io_submit, io_getevents, io_pgetevents,
 * io_cancel, io_destroy, in every ABI, run by the host kernel.
 *
 * The control blocks (struct iocb) and completion events (struct io_event)
 * have one layout in every ABI; what differs is io_setup's context word
 * and io_submit's array of iocb pointers (32 bits for i386 and x32, which
 * have compat entries for these two), the timeouts (i386 time32), the
 * io_pgetevents signal argument (two u32 for i386) and the iovec arrays of
 * IOCB_CMD_PREADV/PWRITEV (compat iovecs for i386 and x32). x32 shares the
 * other calls' 64-bit entries: whole registers.
 *
 * - The ring. io_setup has the host map the completion ring wherever it
 *   likes; it is then moved (mremap, which the kernel follows: the
 *   context id is the ring's address) onto a guest mapping made for it,
 *   so that the id fits a compat aio_context_t and the guest may read the
 *   ring as natively (libaio checks its magic). io_destroy has the host
 *   unmap it, then the guest mapping is dropped.
 * - The control blocks. io_submit never hands the host a guest iocb: each
 *   is copied into sysgate's memory and its buffers checked there (a
 *   guest thread rewriting its iocb meanwhile cannot point the kernel
 *   elsewhere): a buffer that is not wholly the guest's with the needed
 *   access is replaced by a pointer the host faults on (the request then
 *   completes with -EFAULT). Buffers are used while io_submit runs, or
 *   pinned then (O_DIRECT), so checking them at submission is enough.
 * - The kernel reports a completion by the iocb's address (io_event.obj)
 *   and cancels by it: the copy's address, which io_getevents and
 *   io_cancel translate back and forth. The copy lives until its event is
 *   read through io_getevents or its context is destroyed (a guest reading
 *   events from the ring itself sees the copy's address in obj).
 */
#define _GNU_SOURCE /* MREMAP_FIXED */
#include <linux/aio_abi.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
/* the table's own allocation failing fails the io_submit (EAGAIN, as the
 * kernel's own allocation failure), it does not end sysgate */
#define HASH_NONFATAL_OOM 1
#include <uthash.h>

#include "hostfd/hostfd.h"
#include "syscall/compat/compat.h"
#include "syscall/handler.h"

#define AIO_RING_HEADER 32 /* struct aio_ring before its events */
#define AIO_EVENTS_MAX 65536 /* events read per io_getevents at most */

/* one submitted request: its host copy, whose address the kernel knows
 * (io_event.obj): the key of the requests' table (uthash) */
struct aio_req {
	struct iocb cb;
	uint64_t host_iocb; /* h2g(&cb) */
	uint64_t ctx;
	uint64_t guest_iocb;
	UT_hash_handle hh;
};

/* one context: its ring's guest mapping */
struct aio_ctx {
	uint64_t id;
	uint64_t ring_len;
	struct aio_ctx *next;
};

static pthread_mutex_t aio_lock = PTHREAD_MUTEX_INITIALIZER;
static struct aio_req *reqs; /* by host_iocb */
static struct aio_ctx *ctxs;

bool sc_aio_contexts(void)
{
	return __atomic_load_n(&ctxs, __ATOMIC_RELAXED) != NULL;
}

/* --- io_setup, io_destroy --------------------------------------------------- */

static long aio_setup(struct sg_thread *t, uint64_t nr, uint64_t ctxp)
{
	unsigned size = sc_compat() ? 4 : 8;
	unsigned long host_ctx = 0;
	struct aio_ctx *c;
	uint64_t len;
	long guest, r;

	if (copy_from_guest(sc_mm(t), &host_ctx, ctxp, size))
		return -EFAULT;
	r = host_syscall2(SYS_io_setup, (unsigned)nr, &host_ctx);
	if (r)
		return r; /* EINVAL for a ctx not 0 or nr 0, EAGAIN, ENOMEM */
	/* the ring's length: the kernel fills whole pages with events and
	 * says how many in the ring's header (nr, after id) */
	len = MM_PAGE_ALIGN_UP(AIO_RING_HEADER +
			       (uint64_t)((const uint32_t *)host_ctx)[1] *
				       sizeof(struct io_event));
	c = malloc(sizeof(*c));
	guest = c ? mm_mmap(sc_mm(t), 0, len, PROT_READ | PROT_WRITE,
			    MAP_SHARED | MAP_ANONYMOUS, -1, 0)
		  : -ENOMEM;
	if (guest < 0 || host_syscall5(SYS_mremap, host_ctx, len, len,
				       MREMAP_MAYMOVE | MREMAP_FIXED,
				       guest) != guest) {
		if (guest >= 0)
			mm_munmap(sc_mm(t), (uint64_t)guest, len);
		host_syscall1(SYS_io_destroy, host_ctx);
		free(c);
		return guest < 0 ? guest : -ENOMEM;
	}
	mm_name_range(sc_mm(t), (uint64_t)guest, len, "/[aio] (deleted)");
	if (copy_to_guest(sc_mm(t), ctxp, &guest, size)) {
		host_syscall1(SYS_io_destroy, guest);
		mm_munmap(sc_mm(t), (uint64_t)guest, len);
		free(c);
		return -EFAULT;
	}
	c->id = (uint64_t)guest;
	c->ring_len = len;
	pthread_mutex_lock(&aio_lock);
	c->next = ctxs;
	ctxs = c;
	pthread_mutex_unlock(&aio_lock);
	return 0;
}

SG_SYSCALL_DEFINE2(sys_io_setup, nr_events, ctxp)
{
	return aio_setup(t, nr_events, ctxp);
}

SG_SYSCALL_DEFINE2(compat_sys_io_setup, nr_events, ctxp)
{
	return aio_setup(t, nr_events, ctxp);
}

/* The length of the ring at id (its header's event count), from guest
 * memory: 0 when unreadable */
static uint64_t ring_len_at(struct sg_thread *t, uint64_t id)
{
	uint32_t head[2];

	if (copy_from_guest(sc_mm(t), head, id, sizeof(head)) ||
	    head[1] > (1u << 24))
		return 0;
	return MM_PAGE_ALIGN_UP(AIO_RING_HEADER +
				(uint64_t)head[1] * sizeof(struct io_event));
}

/* The kernel finds a context by the ring's header at its id (in user
 * memory) and unmaps [id, id + ring length) at io_destroy, whatever is
 * mapped there by then: it is asked only while that range is the guest's.
 * Otherwise the answer is the kernel's for a ring that is not there
 * (EINVAL; the context lives on, as natively). A ring the guest moved
 * (mremap) is measured by its header. */
SG_SYSCALL_DEFINE1(sys_io_destroy, ctx)
{
	uint64_t id = sc_i386() ? (uint32_t)ctx : ctx;
	struct aio_ctx **pc, *c = NULL;
	uint64_t len;
	long r = 0;

	pthread_mutex_lock(&aio_lock);
	for (pc = &ctxs; *pc; pc = &(*pc)->next)
		if ((*pc)->id == id) {
			c = *pc;
			*pc = c->next;
			break;
		}
	pthread_mutex_unlock(&aio_lock);
	len = c ? c->ring_len : ring_len_at(t, id);
	if (len && mm_access_ok(sc_mm(t), id, len, 0))
		r = host_syscall1(SYS_io_destroy, id);
	else
		r = -EINVAL;
	if (r) {
		if (c) {
			pthread_mutex_lock(&aio_lock);
			c->next = ctxs;
			ctxs = c;
			pthread_mutex_unlock(&aio_lock);
		}
		return r;
	}
	pthread_mutex_lock(&aio_lock);
	struct aio_req *q, *tmp;

	HASH_ITER(hh, reqs, q, tmp)
		if (q->ctx == id) {
			HASH_DEL(reqs, q);
			free(q);
		}
	pthread_mutex_unlock(&aio_lock);
	mm_munmap(sc_mm(t), id, len); /* the host unmapped the ring */
	free(c);
	return 0;
}

/* --- io_submit ---------------------------------------------------------------- */

/* A guest buffer for the host: itself when it is wholly the guest's with
 * prot, else a pointer the host faults on. */
static uint64_t aio_buf(struct sg_thread *t, uint64_t addr, uint64_t len,
			int prot)
{
	if (mm_access_ok(sc_mm(t), addr, len, prot))
		return addr;
	return h2g(sc_fault_ptr(t, addr));
}

/* The iovec array of PREADV/PWRITEV as host iovecs (*vec, freed by the
 * caller after the submission: the kernel reads it there), each buffer
 * checked. 0, or -errno for this request. */
static long aio_iovecs(struct sg_thread *t, struct iocb *cb, int prot,
		       struct iovec **vec)
{
	uint64_t n = cb->aio_nbytes;
	size_t esize = sc_compat() ? sizeof(struct compat_iovec)
				   : sizeof(struct iovec);
	uint8_t *raw;

	if (n == 0 || n > SC_UIO_MAXIOV)
		return 0; /* the host's answer (EINVAL, or nothing to do) */
	raw = malloc(n * esize);
	*vec = malloc(n * sizeof(struct iovec));
	if (!raw || !*vec) {
		free(raw);
		return -ENOMEM;
	}
	if (copy_from_guest(sc_mm(t), raw, cb->aio_buf, n * esize)) {
		free(raw);
		cb->aio_buf = h2g(sc_fault_ptr(t, cb->aio_buf));
		return 0; /* the host's EFAULT */
	}
	for (uint64_t i = 0; i < n; i++) {
		uint64_t base, len;

		if (sc_compat()) {
			const struct compat_iovec *c =
				(const struct compat_iovec *)raw + i;

			base = c->iov_base;
			len = c->iov_len;
		} else {
			const struct iovec *v = (const struct iovec *)raw + i;

			base = h2g(v->iov_base);
			len = v->iov_len;
		}
		(*vec)[i].iov_base = g2h(aio_buf(t, base, len, prot));
		(*vec)[i].iov_len = len;
	}
	free(raw);
	cb->aio_buf = h2g(*vec);
	return 0;
}

/* One control block at guest address g: its checked copy submitted. 0, or
 * -errno as the kernel's io_submit_one gives it. */
static long aio_submit_one(struct sg_thread *t, uint64_t ctx, uint64_t g)
{
	struct aio_req *q = malloc(sizeof(*q));
	struct iovec *vec = NULL;
	struct iocb *host = &q->cb;
	uint32_t key = 0; /* KIOCB_KEY, written back as the kernel does */
	uint64_t one;
	unsigned listed;
	long r = 0;

	if (!q)
		return -EAGAIN;
	if (copy_from_guest(sc_mm(t), host, g, sizeof(*host))) {
		free(q);
		return -EFAULT;
	}
	switch (host->aio_lio_opcode) {
	case IOCB_CMD_PREAD:
		host->aio_buf = aio_buf(t, host->aio_buf, host->aio_nbytes,
					PROT_WRITE);
		break;
	case IOCB_CMD_PWRITE:
		host->aio_buf = aio_buf(t, host->aio_buf, host->aio_nbytes,
					PROT_READ);
		break;
	case IOCB_CMD_PREADV:
		r = aio_iovecs(t, host, PROT_WRITE, &vec);
		break;
	case IOCB_CMD_PWRITEV:
		r = aio_iovecs(t, host, PROT_READ, &vec);
		break;
	case IOCB_CMD_FSYNC:
	case IOCB_CMD_FDSYNC:
	case IOCB_CMD_POLL: /* aio_buf holds the poll events */
	case IOCB_CMD_NOOP:
		break;
	default: /* the kernel's answer for an opcode it does not know */
		r = -EINVAL;
		break;
	}
	if (!r && hostfd_is_private((int)host->aio_fildes))
		r = -EBADF;
	if (!r && (host->aio_flags & IOCB_FLAG_RESFD) &&
	    hostfd_is_private((int)host->aio_resfd))
		r = -EBADF;
	if (!r && copy_to_guest(sc_mm(t), g + offsetof(struct iocb, aio_key),
				&key, sizeof(key)))
		r = -EFAULT;
	if (r) {
		free(vec);
		free(q);
		return r;
	}
	q->ctx = ctx;
	q->guest_iocb = g;
	q->host_iocb = one = h2g(host);
	/* listed before the host may complete it (another thread may then
	 * read its event and free it) */
	pthread_mutex_lock(&aio_lock);
	listed = HASH_COUNT(reqs);
	HASH_ADD(hh, reqs, host_iocb, sizeof(q->host_iocb), q);
	listed = HASH_COUNT(reqs) != listed;
	pthread_mutex_unlock(&aio_lock);
	if (!listed) {
		free(vec);
		free(q);
		return -EAGAIN;
	}
	r = host_syscall3(SYS_io_submit, ctx, 1, &one);
	free(vec); /* the kernel copied the iovecs */
	if (r == 1)
		return 0;
	pthread_mutex_lock(&aio_lock);
	HASH_DEL(reqs, q);
	pthread_mutex_unlock(&aio_lock);
	free(q);
	return r ? r : -EAGAIN;
}

static long aio_submit(struct sg_thread *t, uint64_t ctx_id, long nr_arg, uint64_t iocbpp)
{
	uint64_t ctx = sc_compat() ? (uint32_t)ctx_id : ctx_id;
	long nr = sc_compat() ? sc_s32((uint64_t)nr_arg) : nr_arg;
	unsigned psize = sc_compat() ? 4 : 8;
	long i, r = 0;

	if (nr < 0)
		return -EINVAL;
	/* an unknown context (the kernel's EINVAL) before any pointer */
	r = host_syscall3(SYS_io_submit, ctx, 0, NULL);
	if (r)
		return r;
	for (i = 0; i < nr; i++) {
		uint64_t g = 0;

		if (copy_from_guest(sc_mm(t), &g, iocbpp + (uint64_t)i * psize,
				    psize)) {
			r = -EFAULT;
			break;
		}
		r = aio_submit_one(t, ctx, g);
		if (r)
			break;
	}
	return i ? i : r;
}

SG_SYSCALL_DEFINE3(sys_io_submit, ctx_id, nr, iocbpp)
{
	return aio_submit(t, ctx_id, nr, iocbpp);
}

SG_SYSCALL_DEFINE3(compat_sys_io_submit, ctx_id, nr, iocbpp)
{
	return aio_submit(t, ctx_id, nr, iocbpp);
}

/* --- io_cancel ---------------------------------------------------------------- */

SG_SYSCALL_DEFINE3(sys_io_cancel, ctx_id, iocb, result)
{
	uint64_t ctx = sc_i386() ? (uint32_t)ctx_id : ctx_id;
	uint64_t g = sc_i386() ? (uint32_t)iocb : iocb;
	struct iocb probe = { 0 };
	struct iocb *host = &probe;
	uint32_t key;

	if (copy_from_guest(sc_mm(t), &key, g + offsetof(struct iocb, aio_key),
			    sizeof(key)))
		return -EFAULT;
	pthread_mutex_lock(&aio_lock);
	for (struct aio_req *q = reqs; q; q = q->hh.next)
		if (q->ctx == ctx && q->guest_iocb == g) {
			host = &q->cb;
			break;
		}
	/* the kernel reads the key from the iocb it is named by; a copy
	 * unknown here names no request of this context (EINVAL) */
	host->aio_key = key;
	pthread_mutex_unlock(&aio_lock);
	return host_syscall3(SYS_io_cancel, ctx, host, NULL);
}

/* --- io_getevents, io_pgetevents ----------------------------------------------- */

enum aio_tmo { AIO_TS, AIO_TS32 };

/* usig: NULL, or the host's struct __aio_sigset already checked. i386's
 * counts are 32-bit signed whichever entry point (io_getevents_time32 and
 * io_pgetevents_time64 are sys_ ones). */
static long aio_getevents(struct sg_thread *t, enum aio_tmo form, const void *usig,
			  uint64_t ctx_id, long min_nr_arg, long nr_arg, uint64_t events,
			  uint64_t timeout)
{
	uint64_t ctx = sc_i386() ? (uint32_t)ctx_id : ctx_id;
	long min_nr = sc_i386() ? sc_s32((uint64_t)min_nr_arg) : min_nr_arg;
	long nr = sc_i386() ? sc_s32((uint64_t)nr_arg) : nr_arg;
	struct timespec ts;
	struct io_event *ev;
	long r;

	if (timeout) {
		if (form == AIO_TS32) {
			struct compat_timespec c;

			if (copy_from_guest(sc_mm(t), &c, timeout, sizeof(c)))
				return -EFAULT;
			get_compat_timespec(&ts, &c);
		} else {
			if (copy_from_guest(sc_mm(t), &ts, timeout, sizeof(ts)))
				return -EFAULT;
			if (sc_compat())
				ts.tv_nsec = (long)(uint32_t)ts.tv_nsec;
		}
	}
	if (nr > AIO_EVENTS_MAX) {
		nr = AIO_EVENTS_MAX;
		if (min_nr > nr)
			min_nr = nr;
	}
	ev = malloc((nr > 0 ? (size_t)nr : 1) * sizeof(*ev));
	if (!ev)
		return -ENOMEM;
	if (usig)
		r = host_blocking6(t, SYS_io_pgetevents, (long)ctx, min_nr, nr,
				  (long)ev, (long)(timeout ? &ts : NULL),
				  (long)usig);
	else
		r = host_blocking5(t, SYS_io_getevents, ctx, min_nr, nr, ev,
				  timeout ? &ts : NULL);
	if (r > 0) {
		pthread_mutex_lock(&aio_lock);
		for (long i = 0; i < r; i++) {
			struct aio_req *q;

			HASH_FIND(hh, reqs, &ev[i].obj, sizeof(ev[i].obj), q);
			if (q) {
				ev[i].obj = q->guest_iocb;
				HASH_DEL(reqs, q);
				free(q);
			}
		}
		pthread_mutex_unlock(&aio_lock);
		if (copy_to_guest(sc_mm(t), events, ev, (size_t)r * sizeof(*ev)))
			r = -EFAULT;
	}
	free(ev);
	return r;
}

/* Interrupted with no event yet, io_getevents' code is -EINTR itself and
 * io_pgetevents' -ERESTARTNOHAND (aio_pgetevents). */
SG_SYSCALL_DEFINE5(sys_io_getevents, ctx_id, min_nr, nr, events, timeout)
{
	return sc_interrupted_as(aio_getevents(t, AIO_TS, NULL, ctx_id, min_nr, nr, events,
					       timeout),
				 -EINTR);
}

SG_SYSCALL_DEFINE5(sys_io_getevents_time32, ctx_id, min_nr, nr, events, timeout)
{
	return sc_interrupted_as(aio_getevents(t, AIO_TS32, NULL, ctx_id, min_nr, nr, events,
					       timeout),
				 -EINTR);
}

/* io_pgetevents' sixth argument: { const sigset_t *sigmask; size_t
 * sigsetsize }, two u32 for i386 and two u64 for x32, which shares
 * x86_64's entry; the mask itself goes to the host as ppoll's does. */
static long aio_pgetevents_masked(struct sg_thread *t, enum aio_tmo form, uint64_t ctx_id,
				  long min_nr, long nr, uint64_t events, uint64_t timeout,
				  uint64_t usig)
{
	struct {
		const void *sigmask;
		size_t sigsetsize;
	} host_sig = { NULL, 0 };
	uint64_t mask = 0, size = 0;
	struct sc_wait_mask wm;
	long err = 0;

	if (!usig)
		return aio_getevents(t, form, NULL, ctx_id, min_nr, nr, events, timeout);
	if (sc_i386()) {
		uint32_t w[2];

		if (copy_from_guest(sc_mm(t), w, usig, sizeof(w)))
			return -EFAULT;
		mask = w[0];
		size = w[1];
	} else {
		uint64_t w[2];

		if (copy_from_guest(sc_mm(t), w, usig, sizeof(w)))
			return -EFAULT;
		mask = w[0];
		size = w[1];
	}
	if (mask) {
		host_sig.sigmask = sc_buf(t, mask, 8, PROT_READ, &err);
		if (err)
			return err;
	}
	host_sig.sigsetsize = size;
	if (sc_wait_mask_begin(t, mask, size, &wm))
		return sc_wait_mask_end(t, &wm, -SG_ERESTARTNOHAND);
	return sc_wait_mask_end(t, &wm,
				aio_getevents(t, form, &host_sig, ctx_id, min_nr, nr, events,
					      timeout));
}

static long aio_pgetevents(struct sg_thread *t, enum aio_tmo form, uint64_t ctx_id,
			   long min_nr, long nr, uint64_t events, uint64_t timeout,
			   uint64_t usig)
{
	return sc_interrupted_as(aio_pgetevents_masked(t, form, ctx_id, min_nr, nr, events,
						       timeout, usig),
				 -SG_ERESTARTNOHAND);
}

SG_SYSCALL_DEFINE6(sys_io_pgetevents, ctx_id, min_nr, nr, events, timeout, usig)
{
	return aio_pgetevents(t, AIO_TS, ctx_id, min_nr, nr, events, timeout, usig);
}

SG_SYSCALL_DEFINE6(compat_sys_io_pgetevents, ctx_id, min_nr, nr, events, timeout, usig)
{
	return aio_pgetevents(t, AIO_TS32, ctx_id, min_nr, nr, events, timeout, usig);
}

SG_SYSCALL_DEFINE6(compat_sys_io_pgetevents_time64, ctx_id, min_nr, nr, events, timeout,
		   usig)
{
	return aio_pgetevents(t, AIO_TS, ctx_id, min_nr, nr, events, timeout, usig);
}
