/* sysgate's own descriptors out of the guest's reach (hostfd.h; the
 * decision and its limits: docs/syscalls.md, Descriptors). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#include "hostfd/hostfd.h"

struct private_fd {
	int fd;
	int *holder; /* the owner's copy of the number, or NULL */
};

static struct {
	pthread_mutex_t lock;
	bool ready;
	uint64_t guest_soft;  /* RLIMIT_NOFILE's soft limit as the guest set it */
	uint64_t hard;        /* the host's (and the guest's) hard limit */
	uint64_t floor;       /* the block starts here; it only moves up */
	int n;
	struct private_fd fds[HOSTFD_MAX];
	volatile int lowest;  /* the smallest private number, INT_MAX: none */
} st = { .lock = PTHREAD_MUTEX_INITIALIZER, .lowest = INT_MAX };

/* The block right above the guest's range, or the top of the hard limit
 * when the guest's soft limit leaves no room below it. */
static uint64_t pick_floor(uint64_t soft, uint64_t hard)
{
	if (soft <= hard && hard - soft >= HOSTFD_MAX)
		return soft;
	return hard > HOSTFD_MAX + 3 ? hard - HOSTFD_MAX : 3;
}

static uint64_t min64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static int set_host_soft(uint64_t soft)
{
	struct rlimit r = { .rlim_cur = soft, .rlim_max = st.hard };

	return setrlimit(RLIMIT_NOFILE, &r);
}

static void atfork_lock(void)
{
	pthread_mutex_lock(&st.lock);
}

static void atfork_unlock(void)
{
	pthread_mutex_unlock(&st.lock);
}

/* Called with the lock held. */
static void ensure_ready(void)
{
	struct rlimit r;

	if (st.ready)
		return;
	st.ready = true;
	pthread_atfork(atfork_lock, atfork_unlock, atfork_unlock);
	if (getrlimit(RLIMIT_NOFILE, &r))
		r.rlim_cur = r.rlim_max = 1024;
	st.guest_soft = r.rlim_cur;
	st.hard = r.rlim_max;
	st.floor = pick_floor(st.guest_soft, st.hard);
	if (st.floor < st.guest_soft)
		set_host_soft(st.floor);
}

static void update_lowest(void)
{
	int low = INT_MAX;

	for (int i = 0; i < st.n; i++)
		if (st.fds[i].fd < low)
			low = st.fds[i].fd;
	st.lowest = low;
}

/* A copy of fd at or above from; with the lock held. The kernel allocates
 * below the soft limit only: raised to the hard limit for the call. */
static int dup_above(int fd, uint64_t from)
{
	int nfd, err;

	if (from >= st.hard || from > INT_MAX) {
		errno = EMFILE;
		return -1;
	}
	set_host_soft(st.hard);
	nfd = fcntl(fd, F_DUPFD_CLOEXEC, (int)from);
	err = errno;
	set_host_soft(min64(st.guest_soft, st.floor));
	errno = err;
	return nfd;
}

static void add(int fd, int *holder)
{
	if (st.n < HOSTFD_MAX) {
		st.fds[st.n].fd = fd;
		st.fds[st.n].holder = holder;
		st.n++;
	}
	update_lowest();
}

int hostfd_dup(int fd, int *holder)
{
	int nfd;

	pthread_mutex_lock(&st.lock);
	ensure_ready();
	if (st.n >= HOSTFD_MAX) {
		errno = EMFILE;
		nfd = -1;
	} else {
		nfd = dup_above(fd, st.floor);
	}
	if (nfd >= 0) {
		add(nfd, holder);
		if (holder)
			*holder = nfd;
	}
	pthread_mutex_unlock(&st.lock);
	return nfd;
}

void hostfd_adopt(int fd, int *holder)
{
	if (fd < 0)
		return;
	pthread_mutex_lock(&st.lock);
	ensure_ready();
	add(fd, holder);
	if (holder)
		*holder = fd;
	pthread_mutex_unlock(&st.lock);
}

void hostfd_hold(int fd, int *holder)
{
	pthread_mutex_lock(&st.lock);
	for (int i = 0; i < st.n; i++)
		if (st.fds[i].fd == fd)
			st.fds[i].holder = holder;
	pthread_mutex_unlock(&st.lock);
}

static bool remove_fd(int fd)
{
	bool found = false;

	pthread_mutex_lock(&st.lock);
	for (int i = 0; i < st.n; i++) {
		if (st.fds[i].fd == fd) {
			st.fds[i] = st.fds[--st.n];
			found = true;
			break;
		}
	}
	update_lowest();
	pthread_mutex_unlock(&st.lock);
	return found;
}

void hostfd_forget(int fd)
{
	remove_fd(fd);
}

void hostfd_close(int fd)
{
	if (fd >= 0 && remove_fd(fd))
		close(fd);
}

bool hostfd_is_private(long fd)
{
	if (fd < st.lowest)
		return false;
	pthread_mutex_lock(&st.lock);
	bool found = false;

	for (int i = 0; i < st.n && !found; i++)
		found = st.fds[i].fd == fd;
	pthread_mutex_unlock(&st.lock);
	return found;
}

int hostfd_list(int *out, int max)
{
	int n = 0;

	pthread_mutex_lock(&st.lock);
	for (int i = 0; i < st.n && n < max; i++) {
		int fd = st.fds[i].fd, j = n++;

		while (j > 0 && out[j - 1] > fd) { /* insertion: a handful */
			out[j] = out[j - 1];
			j--;
		}
		out[j] = fd;
	}
	pthread_mutex_unlock(&st.lock);
	return n;
}

void hostfd_nofile_get(uint64_t *soft, uint64_t *hard)
{
	pthread_mutex_lock(&st.lock);
	ensure_ready();
	*soft = st.guest_soft;
	*hard = st.hard;
	pthread_mutex_unlock(&st.lock);
}

/* The guest's range now reaches up to want: every private descriptor
 * below it moves to want and above (lock held). */
static void move_block(uint64_t want)
{
	set_host_soft(st.hard);
	for (int i = 0; i < st.n; i++) {
		struct private_fd *p = &st.fds[i];
		int nfd;

		if ((uint64_t)p->fd >= want)
			continue;
		nfd = fcntl(p->fd, F_DUPFD_CLOEXEC, (int)want);
		if (nfd < 0)
			continue; /* stays where it is, visible; see the docs */
		if (p->holder)
			__atomic_store_n(p->holder, nfd, __ATOMIC_RELEASE);
		close(p->fd);
		p->fd = nfd;
	}
	st.floor = want;
	update_lowest();
}

long hostfd_nofile_set(uint64_t soft, uint64_t hard)
{
	struct rlimit r = { .rlim_cur = 0, .rlim_max = hard };
	uint64_t want;
	long ret = 0;

	if (soft > hard)
		return -EINVAL;
	pthread_mutex_lock(&st.lock);
	ensure_ready();
	r.rlim_cur = min64(soft, st.floor);
	if (r.rlim_cur > hard)
		r.rlim_cur = hard;
	if (setrlimit(RLIMIT_NOFILE, &r)) {
		ret = -errno;
		goto out;
	}
	st.guest_soft = soft;
	st.hard = hard;
	want = pick_floor(soft, hard);
	if (want > st.floor)
		move_block(want);
	set_host_soft(min64(st.guest_soft, st.floor));
out:
	pthread_mutex_unlock(&st.lock);
	return ret;
}

void hostfd_exec_begin(void)
{
	pthread_mutex_lock(&st.lock);
	if (st.ready)
		set_host_soft(st.guest_soft);
	pthread_mutex_unlock(&st.lock);
}

void hostfd_exec_failed(void)
{
	pthread_mutex_lock(&st.lock);
	if (st.ready)
		set_host_soft(min64(st.guest_soft, st.floor));
	pthread_mutex_unlock(&st.lock);
}
