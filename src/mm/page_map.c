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
#include <sched.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "mm/mm_internal.h"

#ifndef SG_PAGE_MAP_LOW_MAPPED
uint8_t *mm_page_map[MM_PAGE_MAP_L1];
uint8_t mm_page_map_low[MM_PAGE_MAP_LOW_GIBS * MM_PAGE_MAP_PAGES];
#else
uint8_t **mm_page_map;
uint8_t *mm_page_map_low;
#endif

/* The flat map (mm.h): until it is reserved, one "not the guest's" byte
 * that every address reads (mask 0), so every 64-bit store takes the
 * slow path. */
static const uint8_t never_plain;
struct mm_page_flat mm_page_flat = { &never_plain, 0 };
static uint8_t *flat; /* the same, writable; NULL without one */

#define FLAT_BYTES ((uint64_t)MM_PAGE_MAP_L1 * MM_PAGE_MAP_PAGES)
#define LOW_BYTES ((size_t)MM_PAGE_MAP_LOW_GIBS * MM_PAGE_MAP_PAGES)

/* Before main: the CPU's store checks read both maps without a NULL test
 * (the CPU unit tests' too). The flat map is read-only zero pages (no
 * commit charge) until a GiB's slice becomes that GiB's table; its low
 * 4 GiB, the mirror of mm_page_map_low, are writable from the start. */
__attribute__((constructor)) static void page_map_init(void)
{
	void *f;

#ifdef SG_PAGE_MAP_LOW_MAPPED
	void *low = mmap(NULL, LOW_BYTES, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	void *tables = mmap(NULL, MM_PAGE_MAP_L1 * sizeof(*mm_page_map), PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	static const char msg[] = "sysgate: no memory for the guest page map\n";

	if (low == MAP_FAILED || tables == MAP_FAILED) {
		(void)!write(2, msg, sizeof(msg) - 1);
		_exit(127);
	}
	mm_page_map_low = low;
	mm_page_map = tables;
#endif
	f = mmap(NULL, FLAT_BYTES, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (f == MAP_FAILED)
		return; /* RLIMIT_AS (ulimit -v): the slow path for 64-bit stores */
	if (mprotect(f, LOW_BYTES, PROT_READ | PROT_WRITE) != 0) {
		munmap(f, FLAT_BYTES);
		return;
	}
	flat = f;
	mm_page_flat.map = f;
	mm_page_flat.mask = FLAT_BYTES - 1;
}

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

/* The low 4 GiB's bytes are written twice, to mm_page_map_low and to the
 * flat map's first slices, each with the same atomic operation: each copy
 * on its own never says "plain" for a page that is not, at any point a
 * reader could act on (a range loses MM_PAGE_GUEST in both before its
 * memory goes; a page gains MM_PAGE_CODE in the mirror, then in the table,
 * before its code is decoded: cache.c, code_map_mark). */
uint8_t *mm_page_map_mirror(uint64_t addr)
{
	return flat && low_table(addr) ? &flat[gib_of(addr) * MM_PAGE_MAP_PAGES] : NULL;
}

/* Above 4 GiB a GiB's table is its slice of the flat map, so the flat map
 * and the slots read the same bytes. A GiB that still has the shared
 * table reads zeros in the flat map ("not plain": the slow path, which
 * asks the slot) until it gets its own: the slice, filled from the
 * shared table. One installer at a time (a second copying the shared
 * table into a slice already installed would undo the first's changes). */
static uint8_t *flat_table(uint64_t addr)
{
	static bool installing;
	uint8_t **slot = slot_of(addr), *slice = &flat[gib_of(addr) * MM_PAGE_MAP_PAGES];
	uint8_t *m = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
	bool filled = false;

	if (m == slice)
		return slice;
	while (__atomic_test_and_set(&installing, __ATOMIC_ACQUIRE))
		sched_yield();
	if (mprotect(slice, MM_PAGE_MAP_PAGES, PROT_READ | PROT_WRITE) != 0) {
		slice = NULL; /* no commit left: an allocated table instead */
		goto out;
	}
	for (;;) {
		m = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
		if (m == slice || (m && !is_shared(m)))
			break; /* installed meanwhile (before the lock) */
		if (m) {
			memcpy(slice, m, MM_PAGE_MAP_PAGES);
			filled = true;
		} else if (filled) {
			memset(slice, 0, MM_PAGE_MAP_PAGES);
			filled = false;
		}
		if (__atomic_compare_exchange_n(slot, &m, slice, false, __ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE))
			break;
	}
	slice = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
out:
	__atomic_clear(&installing, __ATOMIC_RELEASE);
	return slice;
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
	if (flat) {
		uint8_t *m = flat_table(addr);

		if (m)
			return m;
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
		if (m) {
			uint8_t *mirror = mm_page_map_mirror(start);

			mark_in_table(m, start, stop, MM_PAGE_GUEST, guest);
			if (mirror)
				mark_in_table(mirror, start, stop, MM_PAGE_GUEST, guest);
		}
		start = stop;
	}
}

void mm_page_map_mark_vma(const struct vma *v)
{
	mm_page_map_mark(v->start, v->end, v->prot != PROT_NONE);
}
