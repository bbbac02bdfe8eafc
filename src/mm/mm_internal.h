/* Private state of src/mm: the VMA list and the helpers the mm files share.
 * Every function here expects mm->lock to be held by the caller (write
 * lock for anything that changes the list). */
#ifndef SG_MM_INTERNAL_H
#define SG_MM_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mm/mm.h"

/* One guest mapping, page aligned, [start, end). */
struct vma {
	uint64_t start, end;
	int prot;       /* PROT_READ | PROT_WRITE | PROT_EXEC */
	bool shared;    /* MAP_SHARED (shown as 's' in maps) */
	bool file;      /* file backed: offset/dev/ino are meaningful */
	bool account;   /* the kernel's VM_ACCOUNT: private and writable at some
			 * point (never cleared by mprotect); merges only
			 * with its like, so a RELRO page stays apart */
	uint64_t offset;/* file offset of start */
	uint64_t dev, ino;
	uint64_t mtime_ns, ctime_ns; /* the file's at the mmap: its version */
	char *name;     /* owned; NULL for plain anonymous memory */
};

/* Host memory inside the low 4 GiB that mm_create could not reserve
 * (sanitizer runtimes put their shadow there): never guest memory. */
struct mm_range {
	uint64_t start, end;
};

struct mm {
	bool low4g;
	uint64_t min_addr;   /* mmap_min_addr, page aligned */
	uint64_t task_size;  /* highest guest address + 1 (kernel TASK_SIZE) */
	uint64_t stack_top;  /* where the loader puts the main stack */
	uint64_t mmap_base;  /* top-down allocation starts below this */
	struct mm_range *foreign;
	size_t nforeign;
	struct vma *vmas;    /* sorted by start, never overlapping */
	size_t nvmas, cap;
	uint64_t brk_start, brk_cur;
	bool read_implies_exec; /* the personality's READ_IMPLIES_EXEC */
	struct mm_exec_info exec;
	pthread_rwlock_t lock;
};

/* The gap the kernel leaves between the stack top and mmap_base when the
 * stack rlimit is small (mmap_base(): at least 128 MiB). */
#define MM_STACK_GAP (128ull << 20)

/* vma.c */
size_t vma_lower_bound(const struct mm *mm, uint64_t addr);
struct vma *vma_find(const struct mm *mm, uint64_t addr);
bool vma_range_empty(const struct mm *mm, uint64_t start, uint64_t end);
bool vma_range_covered(const struct mm *mm, uint64_t start, uint64_t end);
/* Insert v (its name is taken over) into a hole; merges neighbours. */
int vma_insert(struct mm *mm, const struct vma *v);
/* Forget [start, end), splitting VMAs at the edges. */
int vma_remove_range(struct mm *mm, uint64_t start, uint64_t end);
int vma_set_prot(struct mm *mm, uint64_t start, uint64_t end, int prot);
int vma_set_name(struct mm *mm, uint64_t start, uint64_t end, const char *name);
void vma_free_all(struct mm *mm);

/* page_map.c: [start, end) is guest memory (MM_PAGE_GUEST set) or no
 * longer is; v's pages by its protection (PROT_NONE: not, as stores there
 * fault anyway and a reservation of many GiB would cost tables). */
void mm_page_map_mark(uint64_t start, uint64_t end, bool guest);
void mm_page_map_mark_vma(const struct vma *v);

/* reserve.c */
/* The whole of a /proc file, malloc'd and NUL-terminated (plain read(2));
 * NULL with errno set. */
char *mm_read_proc_file(const char *path, size_t *len);
bool mm_overlaps_foreign(const struct mm *mm, uint64_t start, uint64_t end);
/* Give [start, end) back to the PROT_NONE reservation (low4g). */
int mm_rereserve(struct mm *mm, uint64_t start, uint64_t end);
/* x86_64: is any byte of [start, end) mapped on the host but not guest? */
bool mm_host_foreign(const struct mm *mm, uint64_t start, uint64_t end);
/* Top-down search for len free bytes in [lo, hi): address or 0. */
uint64_t mm_find_gap(const struct mm *mm, uint64_t lo, uint64_t hi,
		     uint64_t len);

/* maps.c: the guest's maps line of v into buf (NUL-terminated); its length */
int mm_format_vma(const struct mm *mm, const struct vma *v, char *buf,
		  size_t size);
int mm_write_all(int fd, const char *buf, size_t len);

/* guest_copy.c */
bool mm_access_ok_locked(const struct mm *mm, uint64_t addr, uint64_t len,
			 int prot);

/* mmap.c: munmap with the lock held (brk shrinks through it). */
void mm_unmap_locked(struct mm *mm, uint64_t start, uint64_t end);
/* Tell the map hook's subscriber (mm_set_map_hook) that [addr, addr+len)
 * changed; after the change, outside the lock. */
void mm_mapping_changed(uint64_t addr, uint64_t len);

static inline void mm_rdlock(const struct mm *mm)
{
	pthread_rwlock_rdlock((pthread_rwlock_t *)&mm->lock);
}

static inline void mm_wrlock(struct mm *mm)
{
	pthread_rwlock_wrlock(&mm->lock);
}

static inline void mm_unlock(const struct mm *mm)
{
	pthread_rwlock_unlock((pthread_rwlock_t *)&mm->lock);
}

#endif
