/* Guest buffers as the handlers hand them to the host, and the generic
 * pass-through engine behind SG_PASSTHROUGH (internal.h). Paths: path.c. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "syscall/handler.h"

/* --- buffers that fault where the guest's would ----------------------------
 *
 * The kernel checks a call's arguments in its own order and copies a
 * buffer as far as it can: write(/dev/null, bad, 16) is 16, a read into a
 * buffer that runs into an unmapped page returns what fitted, getsockopt
 * on a file is ENOTSOCK whatever the pointers. So a guest buffer that is
 * not (all) the guest's is not refused up front: the host kernel gets a
 * pointer that faults at the same byte, and decides.
 *   - nothing of it is the guest's: a pointer into a PROT_NONE area of
 *     sysgate's (same page offset), or, for an x86_64 address above the
 *     user range, the address itself (the host refuses it as natively);
 *   - a first part is the guest's: a copy of that part (whole pages: the
 *     guest's part always ends at a page boundary) followed by a PROT_NONE
 *     guard, copied back after the call when the kernel may have written
 *     it (sc_buf_release, from the dispatcher).
 * Sysgate's own memory behind a guest address is never handed over. */
#define SC_FAULT_AREA (1ul << 20)  /* PROT_NONE: the kernel faults in it */
#define SC_BOUNCE_MAX 8            /* partial buffers per call */
#define SC_BOUNCE_LIMIT (64ul << 20) /* larger partial copies: -EFAULT */

/* Where the host pointers go: low enough that pointer + length stays in
 * the user range wherever the guest's did (the kernel refuses a range
 * that ends above it before anything else: access_ok). A hint only: the
 * middle of the user range for i386/x32 (their address + length is below
 * 8 GiB; lower down a sanitizer's shadow may sit), near the bottom for
 * x86_64 (its guest's own pointers can be anywhere). */
#define SC_BOUNCE_HINT_LOW4G 0x400000000000ul
#define SC_BOUNCE_HINT_X64 0x10000ul

static void *bounce_map(bool low4g, size_t len)
{
	return mmap((void *)(low4g ? SC_BOUNCE_HINT_LOW4G : SC_BOUNCE_HINT_X64),
		    len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		    -1, 0);
}

static uintptr_t fault_area;
static bool fault_low4g;
static pthread_once_t fault_once = PTHREAD_ONCE_INIT;

static void fault_area_init(void)
{
	void *p = bounce_map(fault_low4g, SC_FAULT_AREA);

	fault_area = p == MAP_FAILED ? 0 : (uintptr_t)p;
}

struct sc_bounce {
	uint64_t guest, len;
	void *map;
	size_t map_len;
	size_t head;
	int prot;
};
static __thread struct sc_bounce bounces[SC_BOUNCE_MAX];
static __thread unsigned nbounces;

/* The end of the host's user address space (4-level paging): an address
 * at or above it is refused by the host as by the kernel for the guest
 * (access_ok), and is no memory of sysgate's; x32 passes full registers. */
#define SC_HOST_USER_END MM_X64_TASK_SIZE

void *sc_fault_ptr(struct sg_thread *t, uint64_t addr)
{
	struct mm *mm = sc_mm(t);

	if (addr >= SC_HOST_USER_END)
		return g2h(addr);
	fault_low4g = mm_is_low4g(mm); /* one ABI per process */
	pthread_once(&fault_once, fault_area_init);
	if (!fault_area)
		return g2h(mm_task_size(mm) + (addr & (MM_PAGE_SIZE - 1)));
	return (void *)(fault_area + (addr & (MM_PAGE_SIZE - 1)));
}

static void *fault_shaped(struct sg_thread *t, uint64_t addr, uint64_t len,
			  int prot, long *err)
{
	struct mm *mm = sc_mm(t);
	uint64_t part, rpart;
	struct sc_bounce *b;
	size_t data, wdata;
	void *map;

	if (addr >= SC_HOST_USER_END)
		return g2h(addr);
	part = mm_access_prefix(mm, addr, len, prot);
	/* an output the guest can read further than write (a read-only
	 * page): the kernel may read it (in/out arguments) and faults when
	 * it writes there, so that part is copied read-only */
	rpart = (prot & PROT_WRITE) ? mm_access_prefix(mm, addr, len, PROT_READ)
				    : part;
	if (rpart < part)
		rpart = part;
	if (rpart == 0)
		return sc_fault_ptr(t, addr);
	if (nbounces == SC_BOUNCE_MAX || rpart > SC_BOUNCE_LIMIT) {
		*err = -EFAULT;
		return NULL;
	}
	b = &bounces[nbounces];
	b->head = addr & (MM_PAGE_SIZE - 1);
	data = MM_PAGE_ALIGN_UP(b->head + rpart);
	wdata = part ? MM_PAGE_ALIGN_UP(b->head + part) : 0;
	b->map_len = data + SC_FAULT_AREA;
	map = bounce_map(mm_is_low4g(mm), b->map_len);
	if (map == MAP_FAILED ||
	    mprotect(map, data, PROT_READ | PROT_WRITE)) {
		if (map != MAP_FAILED)
			munmap(map, b->map_len);
		*err = -ENOMEM;
		return NULL;
	}
	/* the guest's part of the buffer stays where it is until release:
	 * its bytes go in now (an in/out buffer keeps what the kernel does
	 * not write) */
	if (copy_from_guest(mm, (char *)map + b->head, addr, rpart) ||
	    (data > wdata &&
	     mprotect((char *)map + wdata, data - wdata, PROT_READ))) {
		munmap(map, b->map_len);
		return sc_fault_ptr(t, addr);
	}
	b->guest = addr;
	b->len = part;
	b->map = map;
	b->prot = prot;
	nbounces++;
	return (char *)map + b->head;
}

unsigned sc_buf_mark(void)
{
	return nbounces;
}

void sc_buf_release(struct sg_thread *t, unsigned mark)
{
	while (nbounces > mark) {
		struct sc_bounce *b = &bounces[--nbounces];

		if (b->prot & PROT_WRITE)
			copy_to_guest(sc_mm(t), b->guest, (char *)b->map + b->head,
				      b->len);
		munmap(b->map, b->map_len);
	}
}

void *sc_buf(struct sg_thread *t, uint64_t addr, uint64_t len, int prot,
	     long *err)
{
	if (addr == 0)
		return NULL;
	if (sc_ok(t, addr, len, prot))
		return g2h(addr);
	return fault_shaped(t, addr, len, prot, err);
}

/* PATH_MAX bytes without a NUL: the host answers ENAMETOOLONG for it. */
static char long_path[PATH_MAX];
static pthread_once_t long_once = PTHREAD_ONCE_INIT;

static void long_path_init(void)
{
	memset(long_path, 'x', sizeof(long_path));
}

const char *sc_path_fault(struct sg_thread *t, uint64_t addr, long err)
{
	if (addr == 0)
		return NULL;
	if (err == -ENAMETOOLONG) {
		pthread_once(&long_once, long_path_init);
		return long_path;
	}
	return sc_fault_ptr(t, addr);
}

/* sc_path and sc_is_proc_exe: path.c */

long sc_passthrough(struct sg_thread *t, const uint64_t *a, long nr,
		    const uint32_t *spec, unsigned nargs)
{
	char paths[3][PATH_MAX]; /* mount: source, target, type */
	unsigned npaths = 0;
	long host[6] = { 0 };
	long err = 0;

	for (unsigned i = 0; i < nargs && i < 6; i++) {
		unsigned p = PA_PARAM(spec[i]);

		switch (PA_KIND(spec[i])) {
		case PA_VAL:
			host[i] = (long)a[i];
			break;
		case PA_S32:
			host[i] = sc_compat() ? sc_s32(a[i]) : (long)a[i];
			break;
		case PA_PATH:
			if (a[i] == 0 || npaths == ARRAY_SIZE(paths)) {
				host[i] = 0;
				break;
			}
			err = sc_path(t, a[i], paths[npaths], true);
			if (err == -EFAULT || err == -ENAMETOOLONG) {
				/* the host decides in its own order */
				host[i] = (long)sc_path_fault(t, a[i], err);
				err = 0;
				break;
			}
			if (err)
				return err;
			host[i] = (long)paths[npaths++];
			break;
		case PA_IN:
			host[i] = (long)sc_buf(t, a[i], a[p], PROT_READ, &err);
			break;
		case PA_OUT:
			host[i] = (long)sc_buf(t, a[i], a[p], PROT_WRITE, &err);
			break;
		case PA_INN:
			host[i] = (long)sc_buf(t, a[i], p, PROT_READ, &err);
			break;
		case PA_OUTN:
			host[i] = (long)sc_buf(t, a[i], p, PROT_WRITE, &err);
			break;
		case PA_STR:
			if (a[i] == 0 || npaths == ARRAY_SIZE(paths)) {
				host[i] = 0;
				break;
			}
			err = strncpy_from_guest(sc_mm(t), paths[npaths], a[i],
						 PATH_MAX);
			if (err == -EFAULT || err == -ENAMETOOLONG) {
				host[i] = (long)sc_path_fault(t, a[i], err);
				err = 0;
				break;
			}
			if (err > 0)
				err = 0;
			host[i] = (long)paths[npaths++];
			break;
		case PA_ID16:
			host[i] = (uint16_t)a[i] == 0xffff ? -1
							    : (long)(uint16_t)a[i];
			break;
		case PA_INE:
		case PA_OUTE:
			/* count * size cannot wrap: both are below 2^32 */
			host[i] = (long)sc_buf(t, a[i],
					       (uint64_t)(uint32_t)a[p & 7] * (p >> 3),
					       PA_KIND(spec[i]) == PA_INE ? PROT_READ
									  : PROT_WRITE,
					       &err);
			break;
		}
		if (err)
			return err;
	}
	/* read, write, flock, accept, ...: any of them may block */
	return host_blocking6(t, nr, host[0], host[1], host[2], host[3], host[4], host[5]);
}

long sc_path_host(struct sg_thread *t, uint64_t addr, char *buf,
		  bool exe_alias, const char **host)
{
	long r = sc_path(t, addr, buf, exe_alias);

	*host = buf;
	if (r == -EFAULT || r == -ENAMETOOLONG) {
		*host = sc_path_fault(t, addr, r);
		r = 0;
	}
	return r;
}
