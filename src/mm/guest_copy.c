/* Checked access to guest memory for the syscall layer: every guest
 * pointer is looked up in the VMA list (binary search) before sysgate
 * touches it, so a bad pointer is -EFAULT, never a host crash. Memory
 * that is not the guest's (sysgate's own, the kernel half, the low4g
 * reservation) is simply absent from the list. */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "mm/mm_internal.h"

static bool vma_allows(const struct vma *v, int prot)
{
	/* x86 pages: writable or executable implies readable; a fetch needs
	 * PROT_EXEC itself (NX) */
	if (prot & PROT_EXEC)
		return v->prot & PROT_EXEC;
	if (prot & PROT_WRITE)
		return v->prot & PROT_WRITE;
	if (prot & (PROT_READ | PROT_EXEC))
		return v->prot & (PROT_READ | PROT_WRITE | PROT_EXEC);
	return true; /* prot 0: mapped at all, PROT_NONE included */
}

bool mm_access_ok_locked(const struct mm *mm, uint64_t addr, uint64_t len,
			 int prot)
{
	uint64_t end = addr + len, cur = addr;
	size_t i;

	if (len == 0)
		return true;
	if (end < addr || end > mm->task_size)
		return false;
	i = vma_lower_bound(mm, addr);
	while (cur < end) {
		const struct vma *v;

		if (i >= mm->nvmas)
			return false;
		v = &mm->vmas[i++];
		if (v->start > cur || !vma_allows(v, prot))
			return false;
		cur = v->end;
	}
	return true;
}

uint64_t mm_access_prefix(const struct mm *mm, uint64_t addr, uint64_t len,
			  int prot)
{
	uint64_t end = addr + len, cur = addr;
	size_t i;

	if (end < addr)
		end = UINT64_MAX;
	if (end > mm->task_size)
		end = mm->task_size;
	mm_rdlock(mm);
	i = vma_lower_bound(mm, addr);
	while (cur < end && i < mm->nvmas) {
		const struct vma *v = &mm->vmas[i++];

		if (v->start > cur || !vma_allows(v, prot))
			break;
		cur = v->end;
	}
	mm_unlock(mm);
	if (cur > end)
		cur = end;
	return cur > addr ? cur - addr : 0;
}

uint64_t mm_next_mapped(const struct mm *mm, uint64_t addr)
{
	uint64_t r = UINT64_MAX;
	size_t i;

	mm_rdlock(mm);
	i = vma_lower_bound(mm, addr);
	if (i < mm->nvmas)
		r = mm->vmas[i].start > addr ? mm->vmas[i].start : addr;
	mm_unlock(mm);
	return r;
}

static void (*write_hook)(uint64_t addr, uint64_t len);

void mm_set_write_hook(void (*hook)(uint64_t addr, uint64_t len))
{
	write_hook = hook;
}

bool mm_access_ok(const struct mm *mm, uint64_t addr, uint64_t len, int prot)
{
	bool ok;

	mm_rdlock(mm);
	ok = mm_access_ok_locked(mm, addr, len, prot);
	mm_unlock(mm);
	if (ok && len && (prot & PROT_WRITE) && write_hook)
		write_hook(addr, len);
	return ok;
}

int copy_from_guest(const struct mm *mm, void *dst, uint64_t src, size_t n)
{
	if (!mm_access_ok(mm, src, n, PROT_READ))
		return -EFAULT;
	if (n)
		memcpy(dst, g2h(src), n);
	return 0;
}

int copy_to_guest(const struct mm *mm, uint64_t dst, const void *src, size_t n)
{
	uint64_t part;

	if (mm_access_ok(mm, dst, n, PROT_WRITE)) {
		if (n)
			memcpy(g2h(dst), src, n);
		return 0;
	}
	/* as the kernel's copy_to_user: the bytes before the fault are
	 * written, then -EFAULT */
	part = mm_access_prefix(mm, dst, n, PROT_WRITE);
	if (part && mm_access_ok(mm, dst, part, PROT_WRITE))
		memcpy(g2h(dst), src, part);
	return -EFAULT;
}

long strncpy_from_guest(const struct mm *mm, char *dst, uint64_t src, size_t max)
{
	uint64_t cur = src;
	size_t copied = 0;
	long r = -ENAMETOOLONG;

	mm_rdlock(mm);
	while (copied < max) {
		const struct vma *v = vma_find(mm, cur);
		size_t chunk;
		const char *nul;

		if (!v || !vma_allows(v, PROT_READ) || cur >= mm->task_size) {
			r = -EFAULT;
			break;
		}
		chunk = v->end - cur;
		if (chunk > max - copied)
			chunk = max - copied;
		nul = memchr(g2h(cur), '\0', chunk);
		if (nul) {
			size_t n = (size_t)(nul - (const char *)g2h(cur));

			memcpy(dst + copied, g2h(cur), n + 1);
			r = (long)(copied + n);
			break;
		}
		memcpy(dst + copied, g2h(cur), chunk);
		copied += chunk;
		cur += chunk;
	}
	mm_unlock(mm);
	return r;
}
