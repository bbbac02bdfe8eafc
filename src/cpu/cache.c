/* The decoded-instruction cache (DESIGN.md, Performance). Each CPU owns
 * its cache (a guest thread is a host thread), so lookups take no lock.
 * cpu_invalidate_code() has no CPU argument: it records the range in a
 * small global log with an epoch; each CPU applies the ranges it has not
 * seen when cpu_run starts (after the syscall that changed the mapping),
 * or drops everything if it fell too far behind. Stores into decoded code
 * are caught by the code map (insn.h, code_written). */
/* the page table's own memory (uthash) runs out as decoded code does */
#define uthash_fatal(msg) out_of_code_memory()
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include "cpu/cache.h"
#include "cpu/ops.h"
#include "cpu/optable.h"
#include "mm/mm.h"
#ifdef SG_ASAN
#include <sanitizer/lsan_interface.h>
#endif

#define INVAL_LOG 64
#define KEPT_QUIET_AFTER_FORK 65536u /* cache.h, cpu_kept_quiet */


static pthread_mutex_t inval_lock = PTHREAD_MUTEX_INITIALIZER;
static struct { uint64_t lo, hi; } inval_log[INVAL_LOG];
static uint64_t inval_epoch; /* written under inval_lock, read atomically */

/* No memory left for decoded code (RLIMIT_AS, or the host's): the guest
 * cannot go on. The kernel's answer to a task it cannot give memory is
 * SIGKILL (the OOM killer), not the SIGABRT of a bug. */
static void out_of_code_memory(void)
{
	static const char msg[] = "sysgate: out of memory for decoded code\n";

	if (write(2, msg, sizeof(msg) - 1) < 0) {
		/* nothing more to say */
	}
	kill(getpid(), SIGKILL);
	_exit(137);
}

static void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n, sz);

	if (!p)
		out_of_code_memory();
	return p;
}

/* Code pages, their slot blocks and their pools come from mmap'd chunks,
 * not calloc: they start as the kernel's zero pages, so only the host
 * pages decoding reaches are made present (a start-up decodes ~50 code
 * pages, most touched at a few places), a little ahead of use
 * (host_populate). A dropped page goes to its
 * cache's free list (the global one when the cache is freed), segments
 * and slot blocks kept, with only its used slots cleared and its entries
 * dead.
 *
 * Pools (cache.h): a window of WINDOW_ENTRIES entries is shared by at
 * most WINDOW_PAGES code pages, which take segments at its end in turn
 * (used: atomic, as after cache_free another thread's cache may own a
 * page of it); a segment grows in place while its page was the last to
 * take one, so a page decoded in one go is one run; segments and growth
 * come SEG_STEP entries (1 KiB) at a time. Over all its lives a page
 * holds at most PAGE_ENTRIES_MAX entries: a life uses at most
 * POOL_ENTRIES places (an instruction and a stub per offset) plus the
 * last two of each segment it leaves, it takes new segments only when
 * its old ones are full, and its POOL_SEGS-th segment takes all it may
 * still have. So a window holding WINDOW_PAGES pages never overflows.
 * Packed, a static start's pools take ~25% fewer host pages than with a
 * 512 KiB reservation per page, each page starting a host page of its
 * own. */
#define PAGE_CHUNK (2u << 20)
#define SLOT_BLOCK_BYTES (SLOT_BLOCK * sizeof(uint16_t))
#define POOL_CHUNK (64u << 20)
#define WINDOW_ENTRIES INSN_WINDOW_ENTRIES /* slot values: pool index + 1, 16 bits */
/* A window's hot records, ext records and cold records (insn.h), its hot
 * array aligned to INSN_HOT_SPAN: */
#define WINDOW_SPAN INSN_WINDOW_SPAN
_Static_assert(POOL_CHUNK % WINDOW_SPAN == 0, "a chunk's windows stay aligned");
#define SEG_STEP 16u
#define PAGE_ENTRIES_MAX (POOL_ENTRIES + 2 * POOL_SEGS + SEG_STEP)
#define WINDOW_PAGES (WINDOW_ENTRIES / PAGE_ENTRIES_MAX)
/* ... after its entry 0, which is dead (window_dead_entry) */
_Static_assert(1 + WINDOW_PAGES * PAGE_ENTRIES_MAX <= WINDOW_ENTRIES, "a window's pages fit");

struct pool_window {
	struct insn *base;
	uint32_t used;  /* entries given (atomic) */
	uint32_t pages; /* pages given a first segment here (under page_lock) */
	uint32_t populated; /* entries made present (atomic): window_populate */
};

const uint16_t code_slots_none[SLOT_BLOCK] = { 0 };

bool cpu_stats_on;
struct cpu_stats cpu_stats_counts;

void cpu_stats_enable(void)
{
	cpu_stats_on = true;
}

void cpu_stats_get(struct cpu_stats *out)
{
	out->executed = __atomic_load_n(&cpu_stats_counts.executed, __ATOMIC_RELAXED);
	out->decoded = __atomic_load_n(&cpu_stats_counts.decoded, __ATOMIC_RELAXED);
	out->pool_bytes = __atomic_load_n(&cpu_stats_counts.pool_bytes, __ATOMIC_RELAXED);
	out->slot_bytes = __atomic_load_n(&cpu_stats_counts.slot_bytes, __ATOMIC_RELAXED);
}

void cpu_stats_reset(void)
{
	memset(&cpu_stats_counts, 0, sizeof(cpu_stats_counts));
}

static void stats_add(uint64_t *counter, uint64_t n)
{
	__atomic_fetch_add(counter, n, __ATOMIC_RELAXED);
}

static pthread_mutex_t page_lock = PTHREAD_MUTEX_INITIALIZER;
static struct code_page *page_free_list;
static char *chunk_next, *chunk_end, *chunk_populated, *pool_next, *pool_end;
static struct pool_window *window_now; /* taking new pages (under page_lock) */

/* *len bytes, or less down to min where the address space is short
 * (RLIMIT_AS: every reserved byte counts); *len says how much. */
static void *chunk_map_upto(size_t *len, size_t min)
{
	for (;;) {
		void *m = mmap(NULL, *len, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

		if (m != MAP_FAILED)
			return m;
		if (*len / 2 < min)
			out_of_code_memory();
		*len /= 2;
	}
}

/* Windows: *len bytes (as chunk_map_upto) starting on an INSN_HOT_SPAN
 * boundary (insn_cold's mapping). */
static char *window_map_upto(size_t *len, size_t min)
{
	size_t want = *len + INSN_HOT_SPAN;
	char *m = chunk_map_upto(&want, min + INSN_HOT_SPAN);
	char *at = (char *)(((uintptr_t)m + INSN_HOT_SPAN - 1) & ~(INSN_HOT_SPAN - 1));

	*len = (want - (size_t)(at - m)) / WINDOW_SPAN * WINDOW_SPAN;
	return at;
}

/* The chunk of page structures and slot blocks, made present 32 KiB
 * ahead of use (chunk_populate). Not a transparent huge page: a start-up writes ~20 host pages
 * of it (~50 page structures, ~500 slot blocks of 128 bytes), and the
 * kernel zeroing 2 MiB at the first write cost more than those ~20 faults
 * (docs/performance.md, start-up). */
static void *page_chunk_map(size_t *len, size_t min)
{
	*len = PAGE_CHUNK;
	return chunk_map_upto(len, min);
}

/* Make [from, to) present at once, in whole host pages: the pools and the
 * page chunk are written in order as decoding goes on, and on the VMs
 * measured a write fault on a fresh page cost about twice what
 * MADV_POPULATE_WRITE of a few pages costs a page (docs/history.md,
 * "Cheaper decoding"). Failure (a kernel before 5.14) leaves the
 * faults. */
static void host_populate(const void *from, const void *to)
{
	static bool unsupported; /* EINVAL once: not asked again */
	uintptr_t lo = (uintptr_t)from & ~(uintptr_t)4095, hi = ((uintptr_t)to + 4095) & ~(uintptr_t)4095;

	if (__atomic_load_n(&unsupported, __ATOMIC_RELAXED))
		return;
	if (madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE) != 0 && errno == EINVAL)
		__atomic_store_n(&unsupported, true, __ATOMIC_RELAXED);
}

/* The page chunk is populated this far ahead of chunk_next (under
 * page_lock): a start-up's ~20 pages of it in a few calls. */
#define CHUNK_POPULATE_BYTES (32u << 10)

static void chunk_populate(void)
{
	char *to;

	if (chunk_next <= chunk_populated)
		return;
	to = chunk_next + CHUNK_POPULATE_BYTES;
	if (to > chunk_end)
		to = chunk_end;
	host_populate(chunk_populated, to);
	chunk_populated = to;
}

/* A fresh chunk for page structures and slot blocks (under page_lock),
 * with room for at least min bytes. */
static void chunk_refill(size_t min)
{
	size_t len;

	chunk_next = page_chunk_map(&len, min);
	chunk_end = chunk_next + len;
	chunk_populated = chunk_next;
#ifdef SG_ASAN
	/* The pages and blocks are reachable only from here (clang's builds
	 * too: without it every libFuzzer job ended in a leak report, the
	 * hash table of the pages held only by pages in this chunk). */
	__lsan_register_root_region(chunk_next, len);
#endif
}

/* Set the slot of page offset off, giving its range a block first if it
 * has none. */
static void slot_set(struct code_page *pg, unsigned off, uint16_t v)
{
	const uint16_t **block = &pg->slots[off / SLOT_BLOCK];

	if (*block == code_slots_none) {
		pthread_mutex_lock(&page_lock);
		if ((size_t)(chunk_end - chunk_next) < SLOT_BLOCK_BYTES)
			chunk_refill(SLOT_BLOCK_BYTES);
		*block = (const uint16_t *)chunk_next;
		chunk_next += SLOT_BLOCK_BYTES;
		chunk_populate();
		pthread_mutex_unlock(&page_lock);
		if (cpu_stats_on)
			stats_add(&cpu_stats_counts.slot_bytes, SLOT_BLOCK_BYTES);
	}
	((uint16_t *)*block)[off % SLOT_BLOCK] = v; /* a block of ours, not code_slots_none */
}

/* A chunk's bytes for a page structure or a window's record (under
 * page_lock). */
static void *chunk_take(size_t len)
{
	void *p;

	if ((size_t)(chunk_end - chunk_next) < len)
		chunk_refill(len);
	p = chunk_next;
	chunk_next += (len + 63) & ~(size_t)63;
	chunk_populate();
	return p;
}

static const struct insn *exec_dead(struct cpu *c, const struct insn *i);

/* A window's entry 0 (insn_window_dead): what a chained target not yet
 * linked keeps (cache.h, insn_unlink), never given out. */
static void window_dead_entry(struct insn *base)
{
	base->exec = exec_dead;
	insn_unlink(base);
	insn_cold(base)->addr = INSN_ADDR_DEAD;
}

static void window_populate(struct pool_window *w, uint32_t end);

/* The window a new page takes its segments from (under page_lock). */
static struct pool_window *window_for_new_page(void)
{
	struct pool_window *w = window_now;

	if (w && w->pages < WINDOW_PAGES) {
		w->pages++;
		return w;
	}
	if ((size_t)(pool_end - pool_next) < WINDOW_SPAN) {
		size_t len = POOL_CHUNK;

		pool_next = window_map_upto(&len, WINDOW_SPAN);
		pool_end = pool_next + len;
	}
	w = chunk_take(sizeof(*w));
	w->base = (struct insn *)pool_next;
	w->used = 1;
	w->pages = 1;
	w->populated = 0;
	window_populate(w, 1);
	window_dead_entry(w->base);
	pool_next += WINDOW_SPAN;
	window_now = w;
	return w;
}

/* A window's entries are given in order, and decoding writes each one at
 * once: its host pages are made present POPULATE_ENTRIES ahead of the
 * entries given, all three records (host_populate). What is populated
 * past a window's last use is memory for nothing: with python3's ~70
 * windows, 32 KiB steps cost 2 MB of RSS, 16 KiB 1 MB, at the same
 * speed. */
#define POPULATE_ENTRIES 512u /* 8 KiB of hot and ext records, 16 of cold */

static void window_populate(struct pool_window *w, uint32_t end)
{
	uint32_t done = __atomic_load_n(&w->populated, __ATOMIC_RELAXED), to;

	if (end <= done)
		return;
	to = (end + POPULATE_ENTRIES - 1) / POPULATE_ENTRIES * POPULATE_ENTRIES;
	if (to > WINDOW_ENTRIES)
		to = WINDOW_ENTRIES;
	/* another thread moving it populates that stretch itself */
	if (!__atomic_compare_exchange_n(&w->populated, &done, to, false, __ATOMIC_RELAXED,
					 __ATOMIC_RELAXED))
		return;
	host_populate(w->base + done, w->base + to);
	host_populate(insn_ext(w->base + done), insn_ext(w->base + to));
	host_populate(insn_cold(w->base + done), insn_cold(w->base + to));
}

/* Entries a segment takes or grows by: SEG_STEP, but a page's last
 * possible segment takes what is left of its PAGE_ENTRIES_MAX, which
 * holds the rest of any life. */
static uint32_t seg_want(const struct code_page *pg, bool grow)
{
	uint32_t left = PAGE_ENTRIES_MAX - pg->given;

	if (!grow && pg->nsegs == POOL_SEGS - 1)
		return left;
	return left < SEG_STEP ? left : SEG_STEP;
}

/* A new segment for pg at its window's end; its start (a pool index). */
static uint32_t seg_new(struct code_page *pg)
{
	struct pool_window *w = pg->win;
	uint32_t len = seg_want(pg, false), at, start;

	/* neither can happen (PAGE_ENTRIES_MAX, WINDOW_PAGES): a bug */
	if (pg->nsegs == POOL_SEGS || len < 2)
		out_of_code_memory();
	at = __atomic_fetch_add(&w->used, len, __ATOMIC_RELAXED);
	if (at + len > WINDOW_ENTRIES)
		out_of_code_memory();
	window_populate(w, at + len);
	if (pg->nsegs == 0)
		pg->pool = w->base + at;
	start = (uint32_t)(w->base + at - pg->pool);
	pg->segs[pg->nsegs].start = (uint16_t)start;
	pg->segs[pg->nsegs].end = (uint16_t)(start + len);
	pg->nsegs++;
	pg->given += len;
	return start;
}

/* The segment in use grows in place if it is its window's last. */
static bool seg_extend(struct code_page *pg)
{
	struct pool_window *w = pg->win;
	uint32_t len = seg_want(pg, true);
	uint32_t end = (uint32_t)(pg->pool - w->base) + pg->seg_end;

	if (pg->cur + 1 != pg->nsegs || len < 2 ||
	    !__atomic_compare_exchange_n(&w->used, &end, end + len, false, __ATOMIC_RELAXED,
					 __ATOMIC_RELAXED))
		return false;
	pg->segs[pg->cur].end = (uint16_t)(pg->segs[pg->cur].end + len);
	pg->seg_end += len;
	pg->given += len;
	window_populate(w, end + len);
	return true;
}

/* Where an instruction wanted at pool[p] goes: there if it and its stub
 * fit the segment in use, else at the start of the next one (an old one
 * of the page's, or a new one). */
static uint32_t pool_place(struct code_page *pg, uint32_t p)
{
	if (p + 1 < pg->seg_end || (seg_extend(pg) && p + 1 < pg->seg_end))
		return p;
	if (pg->cur + 1 < pg->nsegs) {
		pg->cur++;
	} else {
		seg_new(pg);
		pg->cur = (uint8_t)(pg->nsegs - 1);
	}
	pg->seg_end = pg->segs[pg->cur].end;
	return pg->segs[pg->cur].start;
}

static struct code_page *page_alloc(struct cpu_code_cache *cc)
{
	struct code_page *pg = cc->free_pages;

	if (pg) {
		cc->free_pages = pg->next;
		return pg;
	}
	pthread_mutex_lock(&page_lock);
	pg = page_free_list;
	if (pg) {
		page_free_list = pg->next;
	} else {
		pg = chunk_take(sizeof(*pg));
		pg->win = window_for_new_page();
		for (unsigned k = 0; k < SLOT_BLOCKS; k++)
			pg->slots[k] = code_slots_none;
	}
	pthread_mutex_unlock(&page_lock);
	if (!pg->nsegs) {
		seg_new(pg);
		pg->cur = 0;
		pg->seg_end = pg->segs[0].end;
	}
	return pg;
}

/* A dead entry (or insn_no_target) runs only when a kept pointer's check
 * matched it, that is for a branch to INSN_ADDR_DEAD itself (a 64-bit
 * guest may jump there): the lookup faults as the fetch does natively. */
static const struct insn *exec_dead(struct cpu *c, const struct insn *i)
{
	(void)i;
	return exec_at(c, INSN_ADDR_DEAD);
}

/* Scratch entries (insn.h): each cache's own INSN_SCRATCH entries, and
 * one shared entry behind a lock, in scratch windows laid out as pool
 * windows (hot, ext and cold records; entry 0 dead). The first window's
 * entry 0 is insn_no_target, entry 1 the shared one. Blocks of freed
 * caches are reused (linked through their first entry's imm). */
static struct insn *scratch_next, *scratch_end, *scratch_free;
static pthread_mutex_t scratch_shared_lock = PTHREAD_MUTEX_INITIALIZER;
static struct insn *scratch_shared;
const struct insn *insn_no_target;

static inline struct cpu_code_cache *cache_get(struct cpu *c);

static void scratch_window(void)
{
	size_t len = WINDOW_SPAN;

	scratch_next = (struct insn *)window_map_upto(&len, WINDOW_SPAN);
	scratch_end = scratch_next + WINDOW_ENTRIES;
	window_dead_entry(scratch_next++);
}

static void scratch_make(void)
{
	scratch_window();
	insn_no_target = scratch_next - 1; /* its dead entry */
	scratch_shared = scratch_next++;
}

static void scratch_ready(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, scratch_make);
}

/* A cache's block (under page_lock). */
static struct insn *scratch_take(void)
{
	struct insn *b = scratch_free;

	if (b) {
		scratch_free = (struct insn *)(uintptr_t)insn_imm(b);
		return b;
	}
	if (scratch_end - scratch_next < INSN_SCRATCH)
		scratch_window();
	b = scratch_next;
	scratch_next += INSN_SCRATCH;
	return b;
}

struct insn *insn_scratch(struct cpu *c, unsigned k)
{
	return &cache_get(c)->scratch[k];
}

struct insn *insn_scratch_shared_take(void)
{
	scratch_ready();
	pthread_mutex_lock(&scratch_shared_lock);
	return scratch_shared;
}

void insn_scratch_shared_give(void)
{
	pthread_mutex_unlock(&scratch_shared_lock);
}

static void mark_dead(struct insn *e)
{
	insn_cold(e)->addr = INSN_ADDR_DEAD;
	e->exec = exec_dead;
}

/* Each pool index k of pg's life: its segments in order, the one in use
 * up to n (stubs included; not the trailing stub after n - 1). */
#define FOR_EACH_LIFE_ENTRY(pg, k)                                                  \
	for (unsigned seg_ = 0; (pg)->n && seg_ <= (pg)->cur; seg_++)               \
		for (uint32_t k = (pg)->segs[seg_].start,                           \
			      end_ = seg_ < (pg)->cur ? (pg)->segs[seg_].end : (pg)->n; \
		     k < end_; k++)

/* Back to the cache's free list, as page_alloc hands out: slots zero,
 * entries (stubs too) dead for pointers kept elsewhere. The segments left
 * behind were full to their last two places (pool_place); the one in
 * use, to n and its stub. */
static void page_release(struct cpu_code_cache *cc, struct code_page *pg)
{
	FOR_EACH_LIFE_ENTRY(pg, k) {
		if (code_slot(pg, insn_cold(&pg->pool[k])->off))
			slot_set(pg, insn_cold(&pg->pool[k])->off, 0);
		mark_dead(&pg->pool[k]);
	}
	if (pg->n && !insn_cold(&pg->pool[pg->n - 1])->ends_run)
		mark_dead(&pg->pool[pg->n]); /* the trailing stub */
	pg->addr = 0;
	pg->n = 0;
	pg->cur = 0;
	pg->seg_end = pg->segs[0].end;
	pg->next = cc->free_pages;
	cc->free_pages = pg;
}

/* The look-back passes after a decode that start at the instructions of
 * a few handlers only (fusions: fused.c's fusion_ends; push and pop runs:
 * move.c's push_run_ends): per pass, a bit per hash of
 * those handlers, set once; most decodes find theirs clear and skip the
 * call (the pass itself tests the handler exactly, so a collision costs
 * only that call). */
static uint64_t fuse_gate, push_run_gate;
static pthread_once_t pass_gates_once = PTHREAD_ONCE_INIT;

static inline unsigned pass_gate_bit(insn_fn fn)
{
	uintptr_t a = (uintptr_t)fn;

	return (unsigned)((a >> 4) ^ (a >> 10)) & 63;
}

static void pass_gates_fill(void)
{
	for (unsigned k = 0; k < fusion_end_count; k++)
		fuse_gate |= 1ull << pass_gate_bit(fusion_ends[k].handler);
	for (unsigned k = 0; k < push_run_end_count; k++)
		push_run_gate |= 1ull << pass_gate_bit(push_run_ends[k].handler);
}

/* A CPU's first use of its cache: out of line, cache_get stays a test. */
static __attribute__((noinline, cold)) void cache_create(struct cpu *c)
{
	pthread_once(&pass_gates_once, pass_gates_fill);
	scratch_ready();
	c->cache = xcalloc(1, sizeof(*c->cache));
	pthread_mutex_lock(&page_lock);
	c->cache->scratch = scratch_take();
	pthread_mutex_unlock(&page_lock);
	for (unsigned k = 0; k < TARGET_CACHE; k++)
		c->cache->targets[k] = insn_no_target;
	c->cache->decoded_ac = (c->lf.rf & FL_AC) != 0;
	c->cache_epoch = __atomic_load_n(&inval_epoch, __ATOMIC_ACQUIRE);
}

static inline struct cpu_code_cache *cache_get(struct cpu *c)
{
	if (__builtin_expect(!c->cache, 0))
		cache_create(c);
	return c->cache;
}

struct code_page *cache_page(struct cpu *c, uint64_t page)
{
	struct cpu_code_cache *cc = cache_get(c);
	struct code_page **recent = &cc->recent[(page >> 12) & (RECENT_PAGES - 1)];
	struct code_page *pg;

	if (*recent && (*recent)->addr == page)
		return *recent;
	HASH_FIND(hh, cc->pages, &page, sizeof(page), pg);
	if (pg)
		return *recent = pg;
	pg = page_alloc(cc);
	pg->addr = page;
	HASH_ADD(hh, cc->pages, addr, sizeof(pg->addr), pg);
	return *recent = pg;
}

const struct insn *cache_find(struct cpu *c, uint64_t addr)
{
	uint64_t page = addr & ~(uint64_t)(CODE_PAGE_SIZE - 1);
	struct code_page *pg;
	unsigned s;

	HASH_FIND(hh, cache_get(c)->pages, &page, sizeof(page), pg);
	if (!pg)
		return NULL;
	s = code_slot(pg, addr & (CODE_PAGE_SIZE - 1));
	return s ? &pg->pool[s - 1] : NULL;
}

/* code_map_mark's first decode on the page. */
static __attribute__((noinline)) void code_map_mark_page(uint64_t addr)
{
	uint8_t *m = mm_page_map_table(addr), *mirror;

	if (!m)
		out_of_code_memory();
	mirror = mm_page_map_mirror(addr);
	/* the mirror first: another thread that finds the bit in the table
	 * (the test above) decodes at once */
	if (mirror)
		__atomic_fetch_or(&mirror[(addr >> 12) & (MM_PAGE_MAP_PAGES - 1)], MM_PAGE_CODE,
				  __ATOMIC_RELAXED);
	if (!(m[(addr >> 12) & (MM_PAGE_MAP_PAGES - 1)] & MM_PAGE_CODE))
		__atomic_fetch_or(&m[(addr >> 12) & (MM_PAGE_MAP_PAGES - 1)], MM_PAGE_CODE,
				  __ATOMIC_RELAXED);
}

/* Mark the page of addr as holding decoded code. */
static inline void code_map_mark(uint64_t addr)
{
	const uint8_t *m = mm_page_map[(addr >> 30) & (MM_PAGE_MAP_L1 - 1)];

	/* marked already (every decode but a page's first): no call; a
	 * table with the bit is no shared one (mm_page_map_table's copy) */
	if (__builtin_expect(m == NULL || !(m[(addr >> 12) & (MM_PAGE_MAP_PAGES - 1)] & MM_PAGE_CODE), 0))
		code_map_mark_page(addr);
}

static void code_map_clear(uint8_t *m, uint64_t addr)
{
	uint8_t *mirror = mm_page_map_mirror(addr);

	__atomic_fetch_and(&m[(addr >> 12) & (MM_PAGE_MAP_PAGES - 1)], (uint8_t)~MM_PAGE_CODE,
			   __ATOMIC_RELAXED);
	if (mirror)
		__atomic_fetch_and(&mirror[(addr >> 12) & (MM_PAGE_MAP_PAGES - 1)],
				   (uint8_t)~MM_PAGE_CODE, __ATOMIC_RELAXED);
}

/* A guest store hit a page with decoded code: forget the page (every
 * CPU's copy, through the invalidation log) and make this thread's run
 * loop resynchronise before its next instruction. Other threads see the
 * change when they next enter cpu_run (cross-modifying code needs a
 * serialising event on hardware too). */
void code_written(uint64_t addr)
{
	uint8_t *m = mm_page_map[(addr >> 30) & (MM_PAGE_MAP_L1 - 1)];
	struct cpu *c = cpu_tl_current;

	code_map_clear(m, addr);
	cpu_invalidate_code(addr & ~(uint64_t)(CODE_PAGE_SIZE - 1), CODE_PAGE_SIZE);
	if (c) {
		c->code_dirty = 1;
	}
}

/* code_write_check's rare case (insn.h): a hit, or a store across pages. */
__attribute__((noinline, cold)) void code_write_slow(uint64_t addr, uint64_t len)
{
	if (code_map_hit(addr))
		code_written(addr);
	if (((addr & 4095) + len > 4096) && code_map_hit(addr + len - 1))
		code_written(addr + len - 1);
}

/* Is the page of addr the guest's? The map's bit, else the VMA list (the
 * map may lag behind it: a table it could not allocate, a range an mmap
 * is replacing under the mm lock, which mm_access_ok waits for). */
static bool page_is_guest(const struct mm *mm, uint64_t addr)
{
	const uint8_t *m = mm_page_map[(addr >> 30) & (MM_PAGE_MAP_L1 - 1)];

	if (m && (m[(addr >> 12) & (MM_PAGE_MAP_PAGES - 1)] & MM_PAGE_GUEST))
		return true;
	return mm_access_ok(mm, addr & ~(uint64_t)4095, 1, 0);
}

__attribute__((noinline)) void store_guard_slow(uint64_t addr, uint64_t len)
{
	const struct cpu *c = cpu_tl_current;
	uint64_t last = addr + len - 1;

	if (!c || !c->mm || len == 0)
		return;
	if (c->mode == CPU_MODE_32)
		last = (uint32_t)last; /* a 32-bit store wraps at 4 GiB */
	if (!page_is_guest(c->mm, addr))
		cpu_store_fault(addr);
	if (((addr ^ last) >> 12) != 0 && !page_is_guest(c->mm, last))
		cpu_store_fault(last & ~(uint64_t)4095);
}

__attribute__((noinline)) void mem_store_slow(uint64_t addr, unsigned sz, uint64_t v)
{
	store_guard_slow(addr, sz);
	mem_store_nocheck(addr, sz, v);
	code_write_slow(addr, sz);
}

/* The host kernel or sysgate is about to write [addr, addr+len) for the
 * guest (mm_access_ok with PROT_WRITE: read(2) into a buffer...): drop the
 * pages with decoded code there, as a guest store would. Runs outside
 * cpu_run; the calling thread resynchronises when it enters it again. */
static void code_range_written(uint64_t addr, uint64_t len)
{
	uint64_t page = addr & ~(uint64_t)(CODE_PAGE_SIZE - 1), end = addr + len;

	if (end < addr)
		end = ~0ull;
	while (page < end) {
		uint8_t *m = mm_page_map[(page >> 30) & (MM_PAGE_MAP_L1 - 1)];

		if (!m) { /* no code in this GiB */
			uint64_t next = (page | ((1ull << 30) - 1)) + 1;

			if (next <= page)
				break;
			page = next;
			continue;
		}
		if (m[(page >> 12) & (MM_PAGE_MAP_PAGES - 1)] & MM_PAGE_CODE) {
			code_map_clear(m, page);
			cpu_invalidate_code(page, CODE_PAGE_SIZE);
		}
		if (page + CODE_PAGE_SIZE < page)
			break;
		page += CODE_PAGE_SIZE;
	}
}

void cache_install_write_hook(void)
{
	mm_set_write_hook(code_range_written);
	/* munmap, mprotect, MAP_FIXED mmap, mremap, brk: mm announces them */
	mm_set_map_hook(cpu_invalidate_code);
}

/* The stub after the last decoded instruction (cache.h): its fall-through,
 * until that is decoded there. */
static void write_fallthrough_stub(struct cpu *c, struct insn *stub, const struct insn *i)
{
	memset(stub, 0, sizeof(*stub));
	memset(insn_cold(stub), 0, sizeof(struct insn_cold));
	stub->exec = exec_fallthrough;
	insn_unlink(stub); /* nothing kept yet */
	insn_cold(stub)->addr = insn_cold(i)->addr + insn_cold(i)->len;
	if (c->mode == CPU_MODE_32)
		insn_cold(stub)->addr = (uint32_t)insn_cold(stub)->addr;
	insn_cold(stub)->off = insn_cold(i)->off;
}

/* NX: the page of addr must be executable in the guest's VMAs (c->mm).
 * Asked once per code page when its first instruction is decoded, and
 * for the second page of an instruction that crosses into it; mprotect,
 * munmap and mmap over code drop the page, so the next decode asks
 * again. */
static void fetch_check(const struct cpu *c, uint64_t addr)
{
	/* P: a readable page is one sysgate has mapped in (its bytes are
	 * read right here); PROT_NONE and unmapped ones are not present */
	if (c->mm && !mm_access_ok(c->mm, addr, 1, PROT_EXEC))
		cpu_fetch_fault(addr, mm_access_ok(c->mm, addr, 1, 0),
				mm_access_ok(c->mm, addr, 1, PROT_READ));
}

void cache_run_ended(struct cpu *c, const struct insn *stub)
{
	struct code_page *pg = cache_page(c, insn_cold(&stub[-1])->addr & ~(uint64_t)(CODE_PAGE_SIZE - 1));
	uintptr_t at = (uintptr_t)stub, first = (uintptr_t)pg->pool;

	/* within the page's pool: the stub after an instruction there */
	if (at <= first || at > first + (uintptr_t)pg->n * sizeof(struct insn))
		return;
	pairs_run_ended(pg->pool, (uint32_t)((at - first) / sizeof(struct insn)));
}

const struct insn *cache_decode(struct cpu *c, struct code_page *pg, uint64_t addr)
{
	uint16_t off = (uint16_t)(addr & (CODE_PAGE_SIZE - 1));
	/* pool[n] is the stub of pool[n - 1]: the fall-through replaces it,
	 * anything else goes after it (decoded aside first: a fetch fault
	 * must leave the stub whole), or both to another segment */
	uint32_t n = pg->n, p, used;
	bool follows = n && insn_cold(&pg->pool[n - 1])->off + insn_cold(&pg->pool[n - 1])->len == off;
	bool stub_there = n && !insn_cold(&pg->pool[n - 1])->ends_run;
	struct insn *decoded = insn_scratch(c, INSN_SCRATCH_DECODE), *i, *pool;
	unsigned spec, gate_bit;

	if (n == 0)
		fetch_check(c, addr);
	code_map_mark(addr);
	cpu_tl_fetch = true;
	spec = insn_decode(decoded, c, addr);
	cpu_tl_fetch = false;
	if (off + insn_cold(decoded)->len > CODE_PAGE_SIZE)
		fetch_check(c, (addr | (CODE_PAGE_SIZE - 1)) + 1);
	p = pool_place(pg, stub_there && !follows ? n + 1 : n);
	i = &pg->pool[p];
	insn_copy(i, decoded);
	if ((off + insn_cold(i)->len) > CODE_PAGE_SIZE)
		code_map_mark(addr + insn_cold(i)->len - 1);
	insn_cold(i)->off = off;
	insn_cold(i)->seq = 0;
	/* Decoded right after the instruction that falls through to it, in
	 * the next place: the run loop can step to it without a lookup. */
	if (follows && p == n)
		insn_cold(&pg->pool[n - 1])->seq = 1;
	pg->n = p + 1;
	slot_set(pg, insn_cold(i)->off, (uint16_t)pg->n);
	/* Instructions that never fall through (insn.ends_run, FLOW_END in
	 * handler_props.def) get no stub (denser pools, fewer pages touched);
	 * exec_generic looks their fall-through up should a handler of one
	 * leave rip there. */
	if (!insn_cold(i)->ends_run)
		write_fallthrough_stub(c, &pg->pool[p + 1], i);
	/* the passes change forms, never the pool or its length: both
	 * loaded once, not after each call */
	pool = pg->pool;
	used = pg->n;
	gate_bit = pass_gate_bit(insn_cold(i)->fn);
	lf_decoded(pool, used);
	if (fuse_gate >> gate_bit & 1)
		fuse_decoded(pool, used);
	if (push_run_gate >> gate_bit & 1)
		push_run_decoded(pool, used);
	if (spec == SPEC_AVX) /* its pairs' second members are VEX forms */
		avx_fuse_decoded(pool, used);
	pairs_decoded(pool, used);
	if (__builtin_expect(fork_teach_parent != NULL, 0))
		fork_teach_record(c, addr);
	if (cpu_stats_on) {
		/* pool entries newly in use, stubs included: the stub at n
		 * was counted when it was written */
		unsigned added = 1u + !insn_cold(i)->ends_run - (p == n && stub_there);

		stats_add(&cpu_stats_counts.decoded, 1);
		stats_add(&cpu_stats_counts.pool_bytes,
			  (uint64_t)added * (sizeof(struct insn) + sizeof(struct insn_ext) + sizeof(struct insn_cold)));
	}
	return i;
}

static void drop_page(struct cpu_code_cache *cc, struct code_page *pg)
{
	HASH_DEL(cc->pages, pg);
	if (cc->recent[(pg->addr >> 12) & (RECENT_PAGES - 1)] == pg)
		cc->recent[(pg->addr >> 12) & (RECENT_PAGES - 1)] = NULL;
	page_release(cc, pg);
}

/* Drop pages overlapping [lo, hi); an instruction may start up to 14 bytes
 * before the range and still cover it, hence the margin. */
static void drop_range(struct cpu_code_cache *cc, uint64_t lo, uint64_t hi)
{
	struct code_page *pg, *tmp;

	lo = lo > 15 ? lo - 15 : 0;
	HASH_ITER(hh, cc->pages, pg, tmp)
		if (pg->addr < hi && pg->addr + CODE_PAGE_SIZE > lo)
			drop_page(cc, pg);
}

void cache_sync(struct cpu *c)
{
	struct cpu_code_cache *cc = cache_get(c);
	uint64_t now = __atomic_load_n(&inval_epoch, __ATOMIC_ACQUIRE);
	bool ac = (c->lf.rf & FL_AC) != 0;

	if (cc->decoded_ac != ac) {
		drop_range(cc, 0, ~0ull); /* fast forms (AC clear) or none (set) */
		cc->decoded_ac = ac;
	}
	if (now == c->cache_epoch)
		return;
	pthread_mutex_lock(&inval_lock);
	now = inval_epoch;
	if (now - c->cache_epoch > INVAL_LOG) {
		drop_range(cc, 0, ~0ull);
	} else {
		for (uint64_t e = c->cache_epoch; e < now; e++)
			drop_range(cc, inval_log[e % INVAL_LOG].lo, inval_log[e % INVAL_LOG].hi);
	}
	pthread_mutex_unlock(&inval_lock);
	c->cache_epoch = now;
}

void cpu_invalidate_code(uint64_t addr, uint64_t len)
{
	pthread_mutex_lock(&inval_lock);
	inval_log[inval_epoch % INVAL_LOG].lo = addr;
	inval_log[inval_epoch % INVAL_LOG].hi = addr + len < addr ? ~0ull : addr + len;
	__atomic_store_n(&inval_epoch, inval_epoch + 1, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&inval_lock);
}

void cpu_drop_flat_code(struct cpu *c)
{
	/* through the log, not now: the calling handler's exec_plain still
	 * reads its insn; every thread's flat forms go (a thread's segments
	 * are its own, but the drop is rare) */
	cpu_invalidate_code(0, ~0ull);
	c->code_dirty = 1;
}

uint64_t cpu_code_epoch(struct cpu *c)
{
	if (c->cache)
		cache_sync(c);
	return c->cache_epoch;
}

/* An instruction decoded in pg runs on into the next page. */
static bool page_runs_on(const struct code_page *pg)
{
	FOR_EACH_LIFE_ENTRY(pg, k)
		if ((unsigned)insn_cold(&pg->pool[k])->off + insn_cold(&pg->pool[k])->len > CODE_PAGE_SIZE)
			return true;
	return false;
}

void cpu_keep_code(struct cpu *c, uint64_t keep_epoch, const struct cpu_code_range *keep,
		   size_t n)
{
	struct cpu_code_cache *cc = c->cache;
	struct code_page *pg, *tmp;

	if (!cc)
		return;
	if (c->cache_epoch != keep_epoch) {
		/* a mapping change before the exec not taken yet */
		drop_range(cc, 0, ~0ull);
		n = 0;
	}
	HASH_ITER(hh, cc->pages, pg, tmp) {
		bool kept = false;

		/* the page and the 15 bytes after it (an instruction may
		 * run on into the next page), or the page alone where
		 * nothing decoded in it runs on (a range's last page) */
		for (size_t i = 0; i < n && !kept; i++)
			kept = pg->addr >= keep[i].start &&
			       (pg->addr + CODE_PAGE_SIZE + 15 <= keep[i].end ||
				(pg->addr + CODE_PAGE_SIZE <= keep[i].end && !page_runs_on(pg)));
		if (!kept)
			drop_page(cc, pg);
	}
	fork_teach_exec(keep, n);
	/* the mapping changes logged since are those this decision covers */
	pthread_mutex_lock(&inval_lock);
	c->cache_epoch = inval_epoch;
	pthread_mutex_unlock(&inval_lock);
}

void cache_free(struct cpu *c)
{
	struct cpu_code_cache *cc = c->cache;

	if (!cc)
		return;
	drop_range(cc, 0, ~0ull);
	/* no pointer into these pages is left: any thread may reuse them */
	pthread_mutex_lock(&page_lock);
	while (cc->free_pages) {
		struct code_page *pg = cc->free_pages;

		cc->free_pages = pg->next;
		pg->next = page_free_list;
		page_free_list = pg;
	}
	insn_imm(cc->scratch) = (uint64_t)(uintptr_t)scratch_free;
	scratch_free = cc->scratch;
	pthread_mutex_unlock(&page_lock);
	free(cc);
	c->cache = NULL;
}

/* An indirect branch whose kept target (insn.imm) and the cache's table
 * both missed (cache.h, exec_indirect): the target, decoded if need be,
 * goes into the table and becomes the site's kept target. */
const struct insn *exec_indirect_lookup(struct cpu *c, const struct insn *i, uint64_t target)
{
	const struct insn *t = exec_at(c, target);

	c->cache->targets[target_slot(target)] = t;
	exec_keep_target(i, t, insn_cold(i)->mod == 3);
	return exec_branch(c, t);
}

uint32_t cpu_kept_quiet;

void cpu_code_forked(bool child)
{
	__atomic_store_n(&cpu_kept_quiet, KEPT_QUIET_AFTER_FORK, __ATOMIC_RELAXED);
	if (child)
		fork_teach_forked_child();
}

__attribute__((noinline)) const struct insn *exec_rel_target_far(struct cpu *c, const struct insn *i)
{
	return exec_rel_kept(c, i, false, 0, 0);
}

/* exec_branch's target when something is pending: the run loop takes it */
__attribute__((noinline)) const struct insn *exec_branch_pending(struct cpu *c, const struct insn *t)
{
	(void)c;
	return t;
}

__attribute__((noinline)) const struct insn *exec_chain_branch(struct cpu *c, const struct insn *i)
{
	return exec_branch(c, exec_chain(c, i));
}
