/* Decoded-instruction cache: per code page, an index from page offset to a
 * decoded struct insn. Lookup by page happens only when execution moves to
 * another page; within a page it is one array load. */
#ifndef SG_CPU_CACHE_H
#define SG_CPU_CACHE_H

#include "cpu/insn.h"

#define CODE_PAGE_SIZE 4096u

struct code_page {
	uint64_t addr;
	struct code_page *next;          /* hash chain */
	struct insn *pool;               /* decoded instructions of this page */
	uint32_t n, cap;
	uint16_t slot[CODE_PAGE_SIZE];   /* 0: not decoded; else pool index + 1 */
};

#define RECENT_PAGES 16 /* direct-mapped: calls and returns between pages */

struct cpu_code_cache {
	struct code_page **buckets;
	uint32_t nbuckets, count;
	struct code_page *recent[RECENT_PAGES];
};

/* The CPU the calling thread is interpreting (set by cpu_run). */
extern __thread struct cpu *cpu_tl_current;

/* The page holding addr (page aligned), created if needed. */
struct code_page *cache_page(struct cpu *c, uint64_t page);
/* Decode the instruction at addr into pg. */
const struct insn *cache_decode(struct cpu *c, struct code_page *pg, uint64_t addr);
/* Apply invalidations other threads or syscalls recorded since last time. */
void cache_sync(struct cpu *c);
void cache_free(struct cpu *c);
/* Have mm_access_ok(PROT_WRITE) ranges drop decoded code (cpu_init). */
void cache_install_write_hook(void);

/* cache_page with the recent-page hit inline (the run loop). */
static inline struct code_page *cache_page_recent(struct cpu *c, uint64_t page)
{
	struct code_page *pg;

	if (__builtin_expect(c->cache != NULL, 1)) {
		pg = c->cache->recent[(page >> 12) & (RECENT_PAGES - 1)];
		if (pg && pg->addr == page)
			return pg;
	}
	return cache_page(c, page);
}

static inline const struct insn *cache_insn(struct cpu *c, struct code_page *pg, uint64_t addr)
{
	unsigned s = pg->slot[addr & (CODE_PAGE_SIZE - 1)];

	return s ? &pg->pool[s - 1] : cache_decode(c, pg, addr);
}

#endif
