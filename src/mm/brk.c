/* Emulated brk. The host's brk belongs to sysgate's malloc; the guest gets
 * its own break, backed by anonymous fixed mappings. As the kernel does,
 * brk returns the new break on success and the unchanged one on failure,
 * and refuses to grow to within a page of the next mapping. */
#include <errno.h>
#include <sys/mman.h>

#include "mm/mm_internal.h"

void mm_brk_init(struct mm *mm, uint64_t start)
{
	mm_wrlock(mm);
	mm->brk_start = mm->brk_cur = start;
	mm_unlock(mm);
}

void mm_set_read_implies_exec(struct mm *mm, bool on)
{
	mm_wrlock(mm);
	mm->read_implies_exec = on;
	mm_unlock(mm);
}

uint64_t mm_brk_start(const struct mm *mm)
{
	return mm->brk_start;
}

static bool brk_grow(struct mm *mm, uint64_t old_top, uint64_t new_top)
{
	int hflags = MAP_PRIVATE | MAP_ANONYMOUS;
	struct vma v = { 0 };
	void *p;

	if (new_top > mm->task_size - MM_PAGE_SIZE || new_top < old_top)
		return false;
	if (!vma_range_empty(mm, old_top, new_top + MM_PAGE_SIZE))
		return false;
	if (mm->low4g) {
		if (mm_overlaps_foreign(mm, old_top, new_top))
			return false;
		hflags |= MAP_FIXED; /* over our own reservation */
	} else {
		hflags |= MAP_FIXED_NOREPLACE; /* never over sysgate's memory */
	}
	p = mmap(g2h(old_top), new_top - old_top,
		 PROT_READ | PROT_WRITE | (mm->read_implies_exec ? PROT_EXEC : 0),
		 hflags, -1, 0);
	if (p == MAP_FAILED)
		return false;
	if (p != g2h(old_top)) {
		munmap(p, new_top - old_top);
		return false;
	}
	v.start = old_top;
	v.end = new_top;
	v.prot = PROT_READ | PROT_WRITE | (mm->read_implies_exec ? PROT_EXEC : 0);
	v.account = true;
	v.name = NULL;
	return vma_insert(mm, &v) == 0;
}

uint64_t mm_brk(struct mm *mm, uint64_t new_brk)
{
	uint64_t old_top, new_top, r, unmapped = 0, unmapped_len = 0;

	mm_wrlock(mm);
	/* past the task size nothing can be mapped; it also keeps the page
	 * rounding below from wrapping to 0 (brk(-1) unmapped the program) */
	if (new_brk < mm->brk_start || mm->brk_start == 0 ||
	    new_brk > mm->task_size)
		goto out;
	old_top = MM_PAGE_ALIGN_UP(mm->brk_cur);
	new_top = MM_PAGE_ALIGN_UP(new_brk);
	if (new_top < old_top) {
		mm_unmap_locked(mm, new_top, old_top);
		unmapped = new_top;
		unmapped_len = old_top - new_top;
	}
	else if (new_top > old_top && !brk_grow(mm, old_top, new_top))
		goto out;
	mm->brk_cur = new_brk;
out:
	r = mm->brk_cur;
	mm_unlock(mm);
	mm_mapping_changed(unmapped, unmapped_len);
	return r;
}
