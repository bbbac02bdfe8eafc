/* Guest mmap, munmap, mprotect and mremap with the kernel's argument
 * checks and results. low4g guests allocate inside the reservation
 * (top-down below mmap_base, like a compat task's legacy layout) and give
 * memory back to it on unmap; x86_64 guests use the host's placement, and
 * memory that is not the guest's looks unmapped to them (docs/loader.md). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mm/mm_internal.h"

#define PROT_KNOWN (PROT_READ | PROT_WRITE | PROT_EXEC | 0x8 /* PROT_SEM */ | \
		    PROT_GROWSDOWN | PROT_GROWSUP)
#define PROT_RWX (PROT_READ | PROT_WRITE | PROT_EXEC)

/* The name describe_mapping found last (one for all mms and threads). */
static struct {
	pthread_mutex_t lock;
	char *name;
	int fd;
	dev_t dev;
	ino_t ino;
	struct timespec ctime;
} last_name = { .lock = PTHREAD_MUTEX_INITIALIZER };

static bool same_file(const struct stat *st, int fd)
{
	return last_name.name && last_name.fd == fd && last_name.dev == st->st_dev &&
	       last_name.ino == st->st_ino &&
	       last_name.ctime.tv_sec == st->st_ctim.tv_sec &&
	       last_name.ctime.tv_nsec == st->st_ctim.tv_nsec;
}

/* The path of fd as /proc/self/maps shows it, malloc'd, or NULL. A loader
 * maps several segments of one file in a row: the same open file (a
 * rename or a new link changes its ctime) keeps its name, without a
 * readlink each time. */
static char *file_name(int fd, const struct stat *st)
{
	char link[64], path[4096];
	char *name = NULL;
	ssize_t n;

	pthread_mutex_lock(&last_name.lock);
	if (st && same_file(st, fd)) {
		name = strdup(last_name.name);
		pthread_mutex_unlock(&last_name.lock);
		return name;
	}
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n > 0) {
		path[n] = '\0';
		name = strdup(path);
		if (name && st) {
			free(last_name.name);
			last_name.name = strdup(path);
			last_name.fd = fd;
			last_name.dev = st->st_dev;
			last_name.ino = st->st_ino;
			last_name.ctime = st->st_ctim;
		}
	}
	pthread_mutex_unlock(&last_name.lock);
	return name;
}

/* Fill the /proc/self/maps fields of a new VMA from the mmap arguments. */
static void describe_mapping(struct vma *v, int prot, int flags, int fd,
			     off_t off)
{
	struct stat st;
	bool have_st;

	v->prot = prot & PROT_RWX;
	v->shared = (flags & MAP_TYPE) != MAP_PRIVATE;
	v->account = !v->shared && (prot & PROT_WRITE) &&
		     !(flags & MAP_NORESERVE);
	if (flags & MAP_ANONYMOUS) {
		/* shared anonymous memory is a shmem file the kernel names so */
		if (v->shared)
			v->name = strdup("/dev/zero (deleted)");
		return;
	}
	v->file = true;
	v->offset = (uint64_t)off;
	have_st = fstat(fd, &st) == 0;
	if (have_st) {
		v->dev = st.st_dev;
		v->ino = st.st_ino;
		v->mtime_ns = (uint64_t)st.st_mtim.tv_sec * 1000000000u +
			      (uint64_t)st.st_mtim.tv_nsec;
		v->ctime_ns = (uint64_t)st.st_ctim.tv_sec * 1000000000u +
			      (uint64_t)st.st_ctim.tv_nsec;
	}
	v->name = file_name(fd, have_st ? &st : NULL);
}

/* Where a non-fixed low4g mapping goes: the hint if it fits, else top-down
 * below mmap_base, else anywhere (the kernel's fallback). */
static uint64_t choose_low4g(const struct mm *mm, uint64_t hint, uint64_t len)
{
	uint64_t a;

	hint = MM_PAGE_ALIGN_DOWN(hint);
	if (hint) {
		if (hint < mm->min_addr)
			hint = mm->min_addr;
		if (hint <= mm->task_size - len &&
		    vma_range_empty(mm, hint, hint + len) &&
		    !mm_overlaps_foreign(mm, hint, hint + len))
			return hint;
	}
	a = mm_find_gap(mm, mm->min_addr, mm->mmap_base, len);
	if (!a)
		a = mm_find_gap(mm, mm->min_addr, mm->task_size, len);
	return a;
}

static long mmap_low4g(struct mm *mm, uint64_t addr, uint64_t len, int prot,
		       int flags, int fd, off_t off)
{
	bool fixed = flags & (MAP_FIXED | MAP_FIXED_NOREPLACE);
	void *p;

	if (fixed) {
		if (addr > mm->task_size - len)
			return -ENOMEM;
		if (addr < mm->min_addr)
			return -EPERM; /* security_mmap_addr */
		if (mm_overlaps_foreign(mm, addr, addr + len))
			return -ENOMEM;
		if ((flags & MAP_FIXED_NOREPLACE) && !(flags & MAP_FIXED) &&
		    !vma_range_empty(mm, addr, addr + len))
			return -EEXIST;
	} else {
		addr = choose_low4g(mm, addr, len);
		if (!addr)
			return -ENOMEM;
	}
	flags &= ~(MAP_FIXED_NOREPLACE | MAP_32BIT | MAP_GROWSDOWN);
	p = mmap(g2h(addr), len, prot, flags | MAP_FIXED, fd, off);
	if (p == MAP_FAILED)
		return -errno;
	return (long)addr;
}

static long mmap_x64(struct mm *mm, uint64_t addr, uint64_t len, int prot,
		     int flags, int fd, off_t off)
{
	void *p;

	if (flags & (MAP_FIXED | MAP_FIXED_NOREPLACE)) {
		if (addr > mm->task_size - len)
			return -ENOMEM;
		if (addr < mm->min_addr)
			return -EPERM;
		if ((flags & MAP_FIXED_NOREPLACE) && !(flags & MAP_FIXED) &&
		    !vma_range_empty(mm, addr, addr + len))
			return -EEXIST;
		if (!vma_range_covered(mm, addr, addr + len)) {
			/* Most fixed mappings (every segment a loader maps)
			 * land where nothing is mapped: MAP_FIXED_NOREPLACE
			 * proves that in the call itself, without reading
			 * /proc/self/maps (mm_host_foreign) each time. */
			int nr = (flags & ~(MAP_FIXED | MAP_GROWSDOWN)) |
				 MAP_FIXED_NOREPLACE;

			p = mmap(g2h(addr), len, prot, nr, fd, off);
			if (p == g2h(addr))
				return (long)addr;
			if (p != MAP_FAILED)
				munmap(p, len); /* a kernel without NOREPLACE */
			else if (errno != EEXIST)
				return -errno;
		}
		if (mm_host_foreign(mm, addr, addr + len))
			return -ENOMEM; /* sysgate's own memory */
		flags = (flags & ~MAP_FIXED_NOREPLACE) | MAP_FIXED;
	}
	p = mmap(g2h(addr), len, prot, flags & ~MAP_GROWSDOWN, fd, off);
	if (p == MAP_FAILED)
		return -errno;
	if (h2g(p) > mm->task_size - len) { /* above the guest's TASK_SIZE */
		munmap(p, len);
		return -ENOMEM;
	}
	return (long)h2g(p);
}

static void (*map_hook)(uint64_t addr, uint64_t len);

void mm_set_map_hook(void (*hook)(uint64_t addr, uint64_t len))
{
	map_hook = hook;
}

void mm_mapping_changed(uint64_t addr, uint64_t len)
{
	if (map_hook && len)
		map_hook(addr, len);
}

long mm_mmap(struct mm *mm, uint64_t addr, uint64_t len, int prot, int flags,
	     int fd, off_t off)
{
	struct vma v = { 0 };
	long r;

	if (len == 0 || (off & (off_t)(MM_PAGE_SIZE - 1)))
		return -EINVAL;
	if ((flags & (MAP_FIXED | MAP_FIXED_NOREPLACE)) &&
	    (addr & (MM_PAGE_SIZE - 1)))
		return -EINVAL;
	/* unknown prot bits: mmap ignores them (only mprotect checks) */
	if (mm->read_implies_exec && (prot & PROT_READ))
		prot |= PROT_EXEC;
	len = MM_PAGE_ALIGN_UP(len);
	if (len == 0 || len > mm->task_size)
		return -ENOMEM;
	prot &= ~(PROT_GROWSDOWN | PROT_GROWSUP);

	mm_wrlock(mm);
	r = mm->low4g ? mmap_low4g(mm, addr, len, prot, flags, fd, off)
		      : mmap_x64(mm, addr, len, prot, flags, fd, off);
	if (r >= 0) {
		v.start = (uint64_t)r;
		v.end = v.start + len;
		describe_mapping(&v, prot, flags, fd, off);
		if (vma_remove_range(mm, v.start, v.end) < 0 ||
		    vma_insert(mm, &v) < 0)
			r = -ENOMEM; /* the list is now wrong; nothing better to do */
	}
	mm_unlock(mm);
	if (r >= 0 && (flags & MAP_FIXED))
		mm_mapping_changed((uint64_t)r, len); /* over what was there */
	return r;
}

void mm_unmap_locked(struct mm *mm, uint64_t start, uint64_t end)
{
	/* before the host memory goes: sysgate may map its own there next */
	mm_page_map_mark(start, end, false);
	if (mm->low4g) {
		mm_rereserve(mm, start, end);
	} else {
		size_t i = vma_lower_bound(mm, start);

		for (; i < mm->nvmas && mm->vmas[i].start < end; i++) {
			uint64_t s = mm->vmas[i].start, e = mm->vmas[i].end;

			munmap(g2h(s < start ? start : s),
			       (e > end ? end : e) - (s < start ? start : s));
		}
	}
	vma_remove_range(mm, start, end);
}

long mm_munmap(struct mm *mm, uint64_t addr, uint64_t len)
{
	uint64_t end;

	if ((addr & (MM_PAGE_SIZE - 1)) || len == 0)
		return -EINVAL;
	len = MM_PAGE_ALIGN_UP(len);
	if (len == 0 || addr > mm->task_size || len > mm->task_size - addr)
		return -EINVAL;
	end = addr + len;
	mm_wrlock(mm);
	mm_unmap_locked(mm, addr, end);
	mm_unlock(mm);
	mm_mapping_changed(addr, len);
	return 0;
}

/* The kernel's order: both GROWS bits, alignment, length, end, unknown
 * bits; then the range, changed up to its first hole (a hole, or memory
 * that is not the guest's), which gives -ENOMEM. PROT_GROWSDOWN extends
 * the range down to the start of its mapping, which must grow down: only
 * the main stack ("[stack]") does here, as sysgate makes no MAP_GROWSDOWN
 * mappings. */
long mm_mprotect(struct mm *mm, uint64_t addr, uint64_t len, int prot)
{
	uint64_t end, covered = 0;
	long r = 0;

	if ((prot & (PROT_GROWSDOWN | PROT_GROWSUP)) ==
	    (PROT_GROWSDOWN | PROT_GROWSUP))
		return -EINVAL;
	if (addr & (MM_PAGE_SIZE - 1))
		return -EINVAL;
	if (len == 0)
		return 0;
	end = addr + MM_PAGE_ALIGN_UP(len);
	if (end <= addr)
		return -ENOMEM;
	if (prot & ~PROT_KNOWN)
		return -EINVAL;
	mm_wrlock(mm);
	if (prot & (PROT_GROWSDOWN | PROT_GROWSUP)) {
		size_t i = vma_lower_bound(mm, addr);
		const struct vma *v = i < mm->nvmas ? &mm->vmas[i] : NULL;

		if (!v || v->start >= end) {
			r = -ENOMEM;
		} else if ((prot & PROT_GROWSUP) || !v->name ||
			   strcmp(v->name, "[stack]") != 0) {
			r = -EINVAL;
		} else {
			addr = v->start;
		}
	}
	prot &= PROT_RWX;
	if (mm->read_implies_exec && (prot & PROT_READ))
		prot |= PROT_EXEC;
	if (!r) {
		size_t i = vma_lower_bound(mm, addr);
		uint64_t cur = addr;

		while (cur < end && i < mm->nvmas && mm->vmas[i].start <= cur)
			cur = mm->vmas[i++].end;
		covered = (cur > end ? end : cur) - addr;
		if (covered < end - addr)
			r = -ENOMEM;
		if (covered && mprotect(g2h(addr), covered, prot) < 0) {
			r = -errno;
			covered = 0;
		} else if (covered && vma_set_prot(mm, addr, addr + covered, prot) < 0) {
			r = -ENOMEM;
		}
	}
	mm_unlock(mm);
	mm_mapping_changed(addr, covered);
	return r;
}

int mm_name_range(struct mm *mm, uint64_t addr, uint64_t len, const char *name)
{
	int r;

	mm_wrlock(mm);
	r = vma_set_name(mm, addr, addr + MM_PAGE_ALIGN_UP(len), name);
	mm_unlock(mm);
	return r;
}
