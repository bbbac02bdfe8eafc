/* The guest's VMA list: a sorted array searched by binary search, so the
 * per-pointer checks of the syscall layer cost O(log n). Changes are
 * O(n), which is fine for mmap-rate events. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "mm/mm_internal.h"

/* Index of the first VMA whose end is above addr (nvmas if none). */
size_t vma_lower_bound(const struct mm *mm, uint64_t addr)
{
	size_t lo = 0, hi = mm->nvmas;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (mm->vmas[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct vma *vma_find(const struct mm *mm, uint64_t addr)
{
	size_t i = vma_lower_bound(mm, addr);

	if (i < mm->nvmas && mm->vmas[i].start <= addr)
		return &mm->vmas[i];
	return NULL;
}

bool vma_range_empty(const struct mm *mm, uint64_t start, uint64_t end)
{
	size_t i = vma_lower_bound(mm, start);

	return i >= mm->nvmas || mm->vmas[i].start >= end;
}

bool vma_range_covered(const struct mm *mm, uint64_t start, uint64_t end)
{
	size_t i = vma_lower_bound(mm, start);
	uint64_t cur = start;

	while (cur < end) {
		if (i >= mm->nvmas || mm->vmas[i].start > cur)
			return false;
		cur = mm->vmas[i++].end;
	}
	return true;
}

static bool same_name(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return strcmp(a, b) == 0;
}

/* Would the kernel show a and b (a just below b) as one mapping? */
static bool vma_mergeable(const struct vma *a, const struct vma *b)
{
	if (a->end != b->start || a->prot != b->prot ||
	    a->shared != b->shared || a->file != b->file ||
	    a->account != b->account || !same_name(a->name, b->name))
		return false;
	if (a->file)
		return a->dev == b->dev && a->ino == b->ino &&
		       a->offset + (a->end - a->start) == b->offset;
	return true;
}

static void vma_delete_at(struct mm *mm, size_t i)
{
	free(mm->vmas[i].name);
	memmove(&mm->vmas[i], &mm->vmas[i + 1],
		(mm->nvmas - i - 1) * sizeof(mm->vmas[0]));
	mm->nvmas--;
}

/* Merge vmas[i] with its neighbours where possible. */
static void vma_merge_around(struct mm *mm, size_t i)
{
	if (i + 1 < mm->nvmas && vma_mergeable(&mm->vmas[i], &mm->vmas[i + 1])) {
		mm->vmas[i].end = mm->vmas[i + 1].end;
		vma_delete_at(mm, i + 1);
	}
	if (i > 0 && vma_mergeable(&mm->vmas[i - 1], &mm->vmas[i])) {
		mm->vmas[i - 1].end = mm->vmas[i].end;
		vma_delete_at(mm, i);
	}
}

static int vma_reserve_slot(struct mm *mm)
{
	struct vma *n;
	size_t cap;

	if (mm->nvmas < mm->cap)
		return 0;
	cap = mm->cap ? mm->cap * 2 : 32;
	n = realloc(mm->vmas, cap * sizeof(*n));
	if (!n)
		return -ENOMEM;
	mm->vmas = n;
	mm->cap = cap;
	return 0;
}

int vma_insert(struct mm *mm, const struct vma *v)
{
	size_t i;

	if (vma_reserve_slot(mm) < 0) {
		free(v->name);
		return -ENOMEM;
	}
	i = vma_lower_bound(mm, v->start);
	memmove(&mm->vmas[i + 1], &mm->vmas[i],
		(mm->nvmas - i) * sizeof(mm->vmas[0]));
	mm->vmas[i] = *v;
	mm->nvmas++;
	mm_page_map_mark_vma(v);
	vma_merge_around(mm, i);
	return 0;
}

/* Split vmas[i] at addr (strictly inside it): [start, addr) stays at i. */
static int vma_split(struct mm *mm, size_t i, uint64_t addr)
{
	struct vma hi;

	if (vma_reserve_slot(mm) < 0)
		return -ENOMEM;
	hi = mm->vmas[i];
	if (hi.name) {
		hi.name = strdup(hi.name);
		if (!hi.name)
			return -ENOMEM;
	}
	if (hi.file)
		hi.offset += addr - hi.start;
	hi.start = addr;
	mm->vmas[i].end = addr;
	memmove(&mm->vmas[i + 2], &mm->vmas[i + 1],
		(mm->nvmas - i - 1) * sizeof(mm->vmas[0]));
	mm->vmas[i + 1] = hi;
	mm->nvmas++;
	return 0;
}

/* Make start and end VMA boundaries (when they fall inside a VMA). */
static int vma_split_edges(struct mm *mm, uint64_t start, uint64_t end)
{
	size_t i = vma_lower_bound(mm, start);
	int err;

	if (i < mm->nvmas && mm->vmas[i].start < start) {
		err = vma_split(mm, i, start);
		if (err)
			return err;
	}
	i = vma_lower_bound(mm, end);
	if (i < mm->nvmas && mm->vmas[i].start < end && mm->vmas[i].end > end)
		return vma_split(mm, i, end);
	return 0;
}

int vma_remove_range(struct mm *mm, uint64_t start, uint64_t end)
{
	size_t i;
	int err = vma_split_edges(mm, start, end);

	if (err)
		return err;
	mm_page_map_mark(start, end, false);
	i = vma_lower_bound(mm, start);
	while (i < mm->nvmas && mm->vmas[i].start < end)
		vma_delete_at(mm, i);
	return 0;
}

int vma_set_prot(struct mm *mm, uint64_t start, uint64_t end, int prot)
{
	size_t i, first;
	int err = vma_split_edges(mm, start, end);

	if (err)
		return err;
	first = i = vma_lower_bound(mm, start);
	for (; i < mm->nvmas && mm->vmas[i].start < end; i++) {
		mm->vmas[i].prot = prot;
		if ((prot & PROT_WRITE) && !mm->vmas[i].shared)
			mm->vmas[i].account = true;
		mm_page_map_mark_vma(&mm->vmas[i]);
	}
	/* merge from the top so indices below stay valid */
	while (i-- > first)
		vma_merge_around(mm, i);
	if (first > 0)
		vma_merge_around(mm, first - 1);
	return 0;
}

int vma_set_name(struct mm *mm, uint64_t start, uint64_t end, const char *name)
{
	size_t i, first;
	int err = vma_split_edges(mm, start, end);

	if (err)
		return err;
	first = i = vma_lower_bound(mm, start);
	for (; i < mm->nvmas && mm->vmas[i].start < end; i++) {
		char *copy = name ? strdup(name) : NULL;

		if (name && !copy)
			return -ENOMEM;
		free(mm->vmas[i].name);
		mm->vmas[i].name = copy;
	}
	while (i-- > first)
		vma_merge_around(mm, i);
	return 0;
}

void vma_free_all(struct mm *mm)
{
	for (size_t i = 0; i < mm->nvmas; i++)
		free(mm->vmas[i].name);
	free(mm->vmas);
	mm->vmas = NULL;
	mm->nvmas = mm->cap = 0;
}
