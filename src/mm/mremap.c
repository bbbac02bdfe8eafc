/* Guest mremap: shrink, grow in place, or move, keeping the VMA list and
 * (low4g) the reservation right. As in the kernel, the old range must lie
 * in one mapping. Growing a low4g mapping in place first gives the host
 * the reserved pages after it back, then asks the host to grow into them. */
#define _GNU_SOURCE /* mremap */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "mm/mm_internal.h"

/* Is [start, end) free for the guest to grow or move into? */
static bool range_free(const struct mm *mm, uint64_t start, uint64_t end)
{
	if (end > mm->task_size || end < start || start < mm->min_addr)
		return false;
	if (!vma_range_empty(mm, start, end))
		return false;
	if (mm->low4g)
		return !mm_overlaps_foreign(mm, start, end);
	return !mm_host_foreign(mm, start, end);
}

static long grow_in_place(struct mm *mm, struct vma *v, uint64_t old,
			  uint64_t old_len, uint64_t new_len)
{
	uint64_t tail = old + old_len, end = old + new_len;
	void *p;

	if (mm->low4g && munmap(g2h(tail), end - tail) < 0)
		return -errno;
	p = mremap(g2h(old), old_len, new_len, 0);
	if (p == MAP_FAILED) {
		long err = -errno;

		if (mm->low4g)
			mm_rereserve(mm, tail, end);
		return err;
	}
	if (v->end == tail) {
		/* the VMA ends here: extend it (then merge) */
		struct vma ext = *v;

		ext.name = v->name ? strdup(v->name) : NULL;
		if (ext.file)
			ext.offset += tail - v->start;
		ext.start = tail;
		ext.end = end;
		if (vma_insert(mm, &ext) < 0)
			return -ENOMEM;
	}
	return (long)old;
}

/* Move [old, old+old_len) of v to dst with the new length. */
static long move_mapping(struct mm *mm, const struct vma *v, uint64_t old,
			 uint64_t old_len, uint64_t new_len, uint64_t dst,
			 int flags)
{
	struct vma moved = *v;
	int hflags = MREMAP_MAYMOVE | (flags & MREMAP_DONTUNMAP);
	void *p;

	if (dst)
		hflags |= MREMAP_FIXED;
	/* the old pages stop being the guest's before the host lets them go */
	if (!(flags & MREMAP_DONTUNMAP))
		mm_page_map_mark(old, old + old_len, false);
	p = mremap(g2h(old), old_len, new_len, hflags, g2h(dst));
	if (p == MAP_FAILED) {
		long err = -errno;

		mm_page_map_mark(old, old + old_len, v->prot != PROT_NONE);
		return err;
	}
	if (!mm->low4g && h2g(p) > mm->task_size - new_len) {
		/* the host put it out of the guest's reach: undo */
		mremap(p, new_len, old_len, MREMAP_MAYMOVE | MREMAP_FIXED,
		       g2h(old));
		mm_page_map_mark(old, old + old_len, v->prot != PROT_NONE);
		return -ENOMEM;
	}
	moved.name = v->name ? strdup(v->name) : NULL;
	if (moved.file)
		moved.offset += old - v->start;
	moved.start = h2g(p);
	moved.end = moved.start + new_len;
	if (!(flags & MREMAP_DONTUNMAP)) {
		if (mm->low4g)
			mm_rereserve(mm, old, old + old_len);
		vma_remove_range(mm, old, old + old_len);
	}
	vma_remove_range(mm, moved.start, moved.end);
	if (vma_insert(mm, &moved) < 0)
		return -ENOMEM;
	return (long)moved.start;
}

static long do_mremap(struct mm *mm, uint64_t old, uint64_t old_len,
		      uint64_t new_len, int flags, uint64_t new_addr)
{
	struct vma *v = vma_find(mm, old);
	uint64_t dst = 0;

	/* there must be a mapping at old (EFAULT); a shrink is then
	 * allowed whatever follows it (the tail is unmapped, mapped or
	 * not), as the kernel (6.18, checked with sysdiff) */
	if (!v)
		return -EFAULT;
	if (!(flags & (MREMAP_FIXED | MREMAP_DONTUNMAP)) && new_len <= old_len) {
		if (new_len < old_len)
			mm_unmap_locked(mm, old + new_len, old + old_len);
		return (long)old;
	}
	if (old_len > v->end - old)
		return -EFAULT;
	if (flags & MREMAP_FIXED) {
		if (new_addr < old + old_len && old < new_addr + new_len)
			return -EINVAL; /* overlapping */
		if (new_addr > mm->task_size - new_len)
			return -ENOMEM;
		if (!mm->low4g && mm_host_foreign(mm, new_addr, new_addr + new_len))
			return -ENOMEM;
		if (mm->low4g && mm_overlaps_foreign(mm, new_addr, new_addr + new_len))
			return -ENOMEM;
		return move_mapping(mm, v, old, old_len, new_len, new_addr, flags);
	}
	if (new_len <= old_len && !(flags & MREMAP_DONTUNMAP)) {
		if (new_len < old_len)
			mm_unmap_locked(mm, old + new_len, old + old_len);
		return (long)old;
	}
	if (!(flags & MREMAP_DONTUNMAP) &&
	    range_free(mm, old + old_len, old + new_len))
		return grow_in_place(mm, v, old, old_len, new_len);
	if (!(flags & MREMAP_MAYMOVE))
		return -ENOMEM;
	if (mm->low4g) {
		dst = mm_find_gap(mm, mm->min_addr, mm->mmap_base, new_len);
		if (!dst)
			dst = mm_find_gap(mm, mm->min_addr, mm->task_size, new_len);
		if (!dst)
			return -ENOMEM;
	}
	return move_mapping(mm, v, old, old_len, new_len, dst, flags);
}

long mm_mremap(struct mm *mm, uint64_t old, uint64_t old_len, uint64_t new_len,
	       int flags, uint64_t new_addr)
{
	long r;

	if ((old & (MM_PAGE_SIZE - 1)) ||
	    (flags & ~(MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP)))
		return -EINVAL;
	if ((flags & (MREMAP_FIXED | MREMAP_DONTUNMAP)) &&
	    !(flags & MREMAP_MAYMOVE))
		return -EINVAL;
	if ((flags & MREMAP_FIXED) && (new_addr & (MM_PAGE_SIZE - 1)))
		return -EINVAL;
	old_len = MM_PAGE_ALIGN_UP(old_len);
	new_len = MM_PAGE_ALIGN_UP(new_len);
	if (new_len == 0 || new_len > mm->task_size)
		return -EINVAL;
	/* old_len 0 duplicates a shared mapping: not supported (yet) */
	if (old_len == 0)
		return -EINVAL;
	if ((flags & MREMAP_DONTUNMAP) && old_len != new_len)
		return -EINVAL;
	mm_wrlock(mm);
	r = do_mremap(mm, old, old_len, new_len, flags, new_addr);
	mm_unlock(mm);
	if (r >= 0) {
		mm_mapping_changed(old, old_len);
		mm_mapping_changed((uint64_t)r, new_len);
	}
	return r;
}
