/* Creating a guest address space: the PROT_NONE reservation of the low
 * 4 GiB for i386/x32 guests, the limits the kernel would apply to that
 * task (TASK_SIZE, mmap_base), and the free-area search. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <unistd.h>

#include "mm/mm_internal.h"

/* A compat (i386 or x32) task on a 64-bit kernel: TASK_SIZE is
 * IA32_PAGE_OFFSET, the last two pages below 4 GiB are not user memory. */
#define MM_COMPAT_TASK_SIZE 0xffffe000ull

static const int reserve_flags =
	MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;

/* The whole of a /proc file into a malloc'd, NUL-terminated buffer with
 * plain read(2) (no stdio: this runs at every start, every guest execve).
 * NULL on failure, errno set. */
char *mm_read_proc_file(const char *path, size_t *len)
{
	size_t cap = 8192, n = 0;
	char *buf = malloc(cap);
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (!buf || fd < 0)
		goto fail;
	for (;;) {
		ssize_t r;

		if (cap - n < 4096 + 1) {
			char *b = realloc(buf, cap * 2);

			if (!b)
				goto fail;
			buf = b;
			cap *= 2;
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			goto fail;
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
fail:
	if (fd >= 0) {
		int e = errno;

		close(fd);
		errno = e;
	}
	free(buf);
	return NULL;
}

/* Hex digits at *p, advancing p past them; -1 if there are none. */
static int parse_hex(const char **p, unsigned long long *v)
{
	const char *s = *p;
	unsigned long long x = 0;

	for (;; s++) {
		unsigned d;

		if (*s >= '0' && *s <= '9')
			d = (unsigned)(*s - '0');
		else if (*s >= 'a' && *s <= 'f')
			d = (unsigned)(*s - 'a' + 10);
		else
			break;
		x = x << 4 | d;
	}
	if (s == *p)
		return -1;
	*p = s;
	*v = x;
	return 0;
}

static uint64_t read_mmap_min_addr(void)
{
	unsigned long long v = 65536;
	char *buf = mm_read_proc_file("/proc/sys/vm/mmap_min_addr", NULL);

	if (buf) {
		char *end;
		unsigned long long x = strtoull(buf, &end, 10);

		if (end != buf)
			v = x;
		free(buf);
	}
	if (v < MM_PAGE_SIZE)
		v = MM_PAGE_SIZE;
	return MM_PAGE_ALIGN_UP(v);
}

/* Call fn(start, end, arg) for each host mapping, in address order. */
static int for_each_host_mapping(void (*fn)(uint64_t, uint64_t, void *),
				 void *arg)
{
	char *buf = mm_read_proc_file("/proc/self/maps", NULL);

	if (!buf)
		return -errno;
	/* each line: "start-end perms offset dev inode [name]\n" */
	for (const char *p = buf; *p;) {
		unsigned long long s, e;
		const char *nl;

		if (!parse_hex(&p, &s) && *p == '-' && (p++, !parse_hex(&p, &e)))
			fn(s, e, arg);
		nl = strchr(p, '\n');
		if (!nl)
			break;
		p = nl + 1;
	}
	free(buf);
	return 0;
}

#ifdef SG_ASAN
struct collect {
	struct mm *mm;
	int err;
};

static void collect_foreign(uint64_t s, uint64_t e, void *arg)
{
	struct collect *c = arg;
	struct mm *mm = c->mm;
	struct mm_range *n;

	if (e <= mm->min_addr || s >= MM_LOW4G_END || c->err)
		return;
	n = realloc(mm->foreign, (mm->nforeign + 1) * sizeof(*n));
	if (!n) {
		c->err = -ENOMEM;
		return;
	}
	mm->foreign = n;
	n[mm->nforeign].start = s < mm->min_addr ? mm->min_addr : s;
	n[mm->nforeign].end = e > MM_LOW4G_END ? MM_LOW4G_END : e;
	mm->nforeign++;
}
#endif

bool mm_overlaps_foreign(const struct mm *mm, uint64_t start, uint64_t end)
{
	for (size_t i = 0; i < mm->nforeign; i++)
		if (mm->foreign[i].start < end && start < mm->foreign[i].end)
			return true;
	return false;
}

static int reserve_piece(uint64_t s, uint64_t e, int extra)
{
	void *p;

	if (s >= e)
		return 0;
	p = mmap(g2h(s), e - s, PROT_NONE, reserve_flags | extra, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	if (p != g2h(s)) { /* a kernel without MAP_FIXED_NOREPLACE */
		munmap(p, e - s);
		return -EEXIST;
	}
	return 0;
}

/* Reserve [start, end) except the foreign ranges. */
static int reserve_around_foreign(struct mm *mm, uint64_t start, uint64_t end,
				  int extra)
{
	uint64_t cur = start;
	int err;

	for (size_t i = 0; i < mm->nforeign && cur < end; i++) {
		const struct mm_range *r = &mm->foreign[i];

		if (r->end <= cur)
			continue;
		if (r->start >= end)
			break;
		err = reserve_piece(cur, r->start < end ? r->start : end, extra);
		if (err)
			return err;
		cur = r->end;
	}
	return cur < end ? reserve_piece(cur, end, extra) : 0;
}

int mm_rereserve(struct mm *mm, uint64_t start, uint64_t end)
{
	if (start < mm->min_addr)
		start = mm->min_addr;
	return reserve_around_foreign(mm, start, end, MAP_FIXED);
}

/* The top of the highest free stretch below TASK_SIZE: 0xffffe000 unless a
 * sanitizer runtime already sits there. */
static uint64_t highest_free_top(const struct mm *mm)
{
	uint64_t top = mm->task_size;

	for (size_t i = mm->nforeign; i-- > 0;) {
		const struct mm_range *r = &mm->foreign[i];

		if (r->start < top && r->end >= top)
			top = r->start;
	}
	return top;
}

static int create_low4g(struct mm *mm)
{
	int err = reserve_piece(mm->min_addr, MM_LOW4G_END,
				MAP_FIXED_NOREPLACE);

#ifdef SG_ASAN
	/* ASan's shadow lives at 0x7fff8000: reserve around it and shrink
	 * the guest's space below it (docs/loader.md). Refuse when what is
	 * left is too small to be a sanitizer's doing (another mm exists). */
	if (err == -EEXIST) {
		struct collect c = { mm, 0 };

		err = for_each_host_mapping(collect_foreign, &c);
		if (!err)
			err = c.err;
		mm->task_size = MM_COMPAT_TASK_SIZE;
		if (!err && highest_free_top(mm) - mm->min_addr < (1ull << 30))
			err = -EEXIST;
		if (!err)
			err = reserve_around_foreign(mm, mm->min_addr,
						     MM_LOW4G_END,
						     MAP_FIXED_NOREPLACE);
	}
#endif
	if (err)
		return err;
	mm->task_size = MM_COMPAT_TASK_SIZE;
	mm->stack_top = highest_free_top(mm);
	mm->mmap_base = mm->stack_top - MM_STACK_GAP;
	return 0;
}

struct mm *mm_create(bool low4g)
{
	struct mm *mm = calloc(1, sizeof(*mm));
	int err;

	if (!mm)
		return NULL;
	pthread_rwlock_init(&mm->lock, NULL);
	mm->low4g = low4g;
	mm->min_addr = read_mmap_min_addr();
	if (low4g) {
		err = create_low4g(mm);
		if (err) {
			free(mm->foreign);
			pthread_rwlock_destroy(&mm->lock);
			free(mm);
			errno = -err;
			return NULL;
		}
	} else {
		mm->task_size = MM_X64_TASK_SIZE;
		mm->stack_top = 0; /* the host chooses (loader) */
		mm->mmap_base = MM_X64_TASK_SIZE;
	}
	return mm;
}

void mm_destroy(struct mm *mm)
{
	if (!mm)
		return;
	for (size_t i = 0; i < mm->nvmas; i++) /* before the host munmaps */
		mm_page_map_mark(mm->vmas[i].start, mm->vmas[i].end, false);
	if (mm->low4g) {
		uint64_t cur = mm->min_addr;

		for (size_t i = 0; i < mm->nforeign; i++) {
			if (mm->foreign[i].start > cur)
				munmap(g2h(cur), mm->foreign[i].start - cur);
			cur = mm->foreign[i].end;
		}
		if (cur < MM_LOW4G_END)
			munmap(g2h(cur), MM_LOW4G_END - cur);
	} else {
		for (size_t i = 0; i < mm->nvmas; i++)
			munmap(g2h(mm->vmas[i].start),
			       mm->vmas[i].end - mm->vmas[i].start);
	}
	vma_free_all(mm);
	free(mm->foreign);
	pthread_rwlock_destroy(&mm->lock);
	free(mm);
}

/* Random whole pages in [0, 2^bits). */
static uint64_t random_pages(unsigned bits)
{
	uint64_t r = 0;

	if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != sizeof(r))
		r = (uint64_t)random();
	return (r & ((1ull << bits) - 1)) * MM_PAGE_SIZE;
}

void mm_randomize(struct mm *mm)
{
	if (!mm->low4g)
		return;
	mm_wrlock(mm);
	/* STACK_RND_MASK for compat tasks: 0x7ff pages; then mmap_base
	 * below the gap with mmap_rnd_compat_bits (8) more pages */
	mm->stack_top -= random_pages(11);
	mm->mmap_base = mm->stack_top - MM_STACK_GAP - random_pages(8);
	mm_unlock(mm);
}

bool mm_is_low4g(const struct mm *mm)
{
	return mm->low4g;
}

uint64_t mm_own_reserved(const struct mm *mm)
{
	uint64_t flat = mm_page_flat.mask ? mm_page_flat.mask + 1 : 0;

	return flat + (mm && mm->low4g ? MM_LOW4G_END : 0);
}

uint64_t mm_task_size(const struct mm *mm)
{
	return mm->task_size;
}

uint64_t mm_stack_top(const struct mm *mm)
{
	return mm->stack_top;
}

struct host_check {
	const struct mm *mm;
	uint64_t start, end;
	bool foreign;
};

static void check_host(uint64_t s, uint64_t e, void *arg)
{
	struct host_check *c = arg;

	if (s < c->start)
		s = c->start;
	if (e > c->end)
		e = c->end;
	if (s < e && !vma_range_covered(c->mm, s, e))
		c->foreign = true;
}

bool mm_host_foreign(const struct mm *mm, uint64_t start, uint64_t end)
{
	struct host_check c = { mm, start, end, false };

	if (vma_range_covered(mm, start, end))
		return false; /* all ours: no need to read /proc/self/maps */
	if (for_each_host_mapping(check_host, &c) < 0)
		return true; /* cannot tell: refuse */
	return c.foreign;
}

/* Occupied ranges are the guest VMAs and the foreign ranges; they never
 * overlap, so walk both downwards by start address. */
uint64_t mm_find_gap(const struct mm *mm, uint64_t lo, uint64_t hi,
		     uint64_t len)
{
	size_t i = mm->nvmas, j = mm->nforeign;
	uint64_t end = hi;

	if (hi <= lo || hi - lo < len)
		return 0;
	while (i > 0 || j > 0) {
		uint64_t rs, re;

		if (j == 0 || (i > 0 && mm->vmas[i - 1].start > mm->foreign[j - 1].start)) {
			rs = mm->vmas[i - 1].start;
			re = mm->vmas[--i].end;
		} else {
			rs = mm->foreign[j - 1].start;
			re = mm->foreign[--j].end;
		}
		if (rs >= end)
			continue;
		if (re < end) {
			uint64_t gap_lo = re > lo ? re : lo;

			if (end > gap_lo && end - gap_lo >= len)
				return end - len;
		}
		end = rs;
		if (end <= lo)
			return 0;
	}
	return end - lo >= len ? end - len : 0;
}
