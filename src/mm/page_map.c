/* The guest page map (mm.h, docs/isolation.md): a byte per 4 KiB page,
 * MM_PAGE_GUEST kept here in step with the VMA list, MM_PAGE_CODE kept by
 * the CPU's decoded-code cache. Readers (every guest store) take no lock:
 * tables are installed once with a compare-and-swap and never freed, and
 * both writers change their own bit with atomic read-modify-writes, so
 * neither loses the other's. The map may say "not guest" for guest memory
 * (a table that could not be allocated, an mmap replacing a range between
 * its removal and insertion): the CPU then asks the VMA list. It must
 * never say "guest" for memory that is not: a range loses the bit before
 * its host memory is given back (mm_unmap_locked). */
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "mm/mm_internal.h"

uint8_t *mm_page_map[MM_PAGE_MAP_L1];
#ifndef SG_PAGE_MAP_LOW_MAPPED
uint8_t mm_page_map_low[MM_PAGE_MAP_LOW_GIBS * MM_PAGE_MAP_PAGES];
#else
uint8_t *mm_page_map_low;

/* Mapped before main: the CPU's store check reads it without a NULL
 * test (the CPU unit tests' too). */
__attribute__((constructor)) static void page_map_low_init(void)
{
	void *low = mmap(NULL, MM_PAGE_MAP_LOW_GIBS * MM_PAGE_MAP_PAGES, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	static const char msg[] = "sysgate: no memory for the guest page map\n";

	if (low == MAP_FAILED) {
		(void)!write(2, msg, sizeof(msg) - 1);
		_exit(127);
	}
	mm_page_map_low = low;
}
#endif

#define GIB_SHIFT 30
#define PAGE_SHIFT 12

static size_t gib_of(uint64_t addr)
{
	return (addr >> GIB_SHIFT) & (MM_PAGE_MAP_L1 - 1);
}

static uint8_t **slot_of(uint64_t addr)
{
	return &mm_page_map[gib_of(addr)];
}

/* The low 4 GiB's tables are slices of mm_page_map_low (mm.h), installed
 * the first time they are needed and never replaced: no shared table
 * there, so the flat array and the slots always read the same bytes (a
 * slot still NULL reads as the array's zeros: "not the guest's", the
 * slow path). */
static uint8_t *low_table(uint64_t addr)
{
	return gib_of(addr) < MM_PAGE_MAP_LOW_GIBS
		       ? &mm_page_map_low[gib_of(addr) * MM_PAGE_MAP_PAGES]
		       : NULL;
}

/* Whole GiBs of guest memory (a large mapping: an ASan shadow is 16 TiB)
 * share one read-only table of MM_PAGE_GUEST bytes instead of 256 KiB
 * each; a slot gets a table of its own (a copy) the first time anything
 * in it changes. Read-only, so a write through a stale pointer faults in
 * sysgate instead of marking every shared GiB at once. */
static uint8_t *all_guest;

static uint8_t *all_guest_table(void)
{
	uint8_t *t = __atomic_load_n(&all_guest, __ATOMIC_ACQUIRE), *none = NULL;
	void *fresh;

	if (t)
		return t;
	fresh = mmap(NULL, MM_PAGE_MAP_PAGES, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (fresh == MAP_FAILED)
		return NULL;
	memset(fresh, MM_PAGE_GUEST, MM_PAGE_MAP_PAGES);
	mprotect(fresh, MM_PAGE_MAP_PAGES, PROT_READ);
	if (__atomic_compare_exchange_n(&all_guest, &none, fresh, false, __ATOMIC_ACQ_REL,
					__ATOMIC_ACQUIRE))
		return fresh;
	munmap(fresh, MM_PAGE_MAP_PAGES);
	return none;
}

/* Is m the shared table? (It is set before any slot points to it.) */
static bool is_shared(const uint8_t *m)
{
	return m && m == __atomic_load_n(&all_guest, __ATOMIC_ACQUIRE);
}

uint8_t *mm_page_map_table(uint64_t addr)
{
	uint8_t **slot = slot_of(addr), *low = low_table(addr), *none = NULL;

	if (low) {
		/* NULL or low already: either way it is low now */
		__atomic_compare_exchange_n(slot, &none, low, false, __ATOMIC_ACQ_REL,
					    __ATOMIC_ACQUIRE);
		return low;
	}
	for (;;) {
		uint8_t *m = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
		void *fresh;

		if (m && !is_shared(m))
			return m;
		/* the kernel's zero pages until a bit is set: a GiB with a
		 * few guest pages costs a few host pages */
		fresh = mmap(NULL, MM_PAGE_MAP_PAGES, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (fresh == MAP_FAILED)
			return NULL;
		if (m)
			memcpy(fresh, m, MM_PAGE_MAP_PAGES);
		if (__atomic_compare_exchange_n(slot, &m, fresh, false, __ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE))
			return fresh;
		munmap(fresh, MM_PAGE_MAP_PAGES); /* another thread's won: again */
	}
}

/* Set or clear bit on every page of [start, end) (page aligned) within
 * one GiB's table m: a byte at a time at the edges, eight in between. */
static void mark_in_table(uint8_t *m, uint64_t start, uint64_t end, uint8_t bit, bool set)
{
	size_t p = (start >> PAGE_SHIFT) & (MM_PAGE_MAP_PAGES - 1);
	size_t n = (end - start) >> PAGE_SHIFT;
	uint64_t wide = 0x0101010101010101ull * bit;

	for (; n && (p & 7); p++, n--)
		set ? __atomic_fetch_or(&m[p], bit, __ATOMIC_RELAXED)
		    : __atomic_fetch_and(&m[p], (uint8_t)~bit, __ATOMIC_RELAXED);
	for (; n >= 8; p += 8, n -= 8) {
		uint64_t *w = (uint64_t *)(void *)&m[p];

		set ? __atomic_fetch_or(w, wide, __ATOMIC_RELAXED)
		    : __atomic_fetch_and(w, ~wide, __ATOMIC_RELAXED);
	}
	for (; n; p++, n--)
		set ? __atomic_fetch_or(&m[p], bit, __ATOMIC_RELAXED)
		    : __atomic_fetch_and(&m[p], (uint8_t)~bit, __ATOMIC_RELAXED);
}

void mm_page_map_mark(uint64_t start, uint64_t end, bool guest)
{
	start = MM_PAGE_ALIGN_DOWN(start);
	end = MM_PAGE_ALIGN_UP(end);
	if (end > MM_X64_TASK_SIZE + MM_PAGE_SIZE)
		end = MM_X64_TASK_SIZE + MM_PAGE_SIZE; /* the map's reach */
	while (start < end) {
		uint64_t gib_end = (start | ((1ull << GIB_SHIFT) - 1)) + 1;
		uint64_t stop = gib_end < end ? gib_end : end;
		bool whole = (start & ((1ull << GIB_SHIFT) - 1)) == 0 && stop == gib_end &&
			     !low_table(start);
		uint8_t **slot = slot_of(start);
		uint8_t *cur = __atomic_load_n(slot, __ATOMIC_ACQUIRE), *m;

		if (guest && is_shared(cur)) {
			start = stop; /* already all the guest's */
			continue;
		}
		if (whole && ((guest && !cur) || (!guest && is_shared(cur)))) {
			uint8_t *want = guest ? all_guest_table() : NULL;

			if (guest && !want)
				goto per_page;
			if (!__atomic_compare_exchange_n(slot, &cur, want, false,
							 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
				continue; /* the CPU gave it a table meanwhile: again */
			start = stop;
			continue;
		}
per_page:
		m = guest || is_shared(cur) ? mm_page_map_table(start) : cur;
		/* no table: nothing to clear, or no memory to say "guest"
		 * (stores there ask the VMA list) */
		if (m)
			mark_in_table(m, start, stop, MM_PAGE_GUEST, guest);
		start = stop;
	}
}

void mm_page_map_mark_vma(const struct vma *v)
{
	mm_page_map_mark(v->start, v->end, v->prot != PROT_NONE);
}
