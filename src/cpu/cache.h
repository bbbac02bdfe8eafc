/* Decoded-instruction cache: per code page, an index from page offset to a
 * decoded struct insn. Lookup by page happens only when execution moves to
 * another page; within a page it is two loads (code_slot). */
#ifndef SG_CPU_CACHE_H
#define SG_CPU_CACHE_H

#include <uthash.h>
#include "cpu/insn.h"

#define CODE_PAGE_SIZE 4096u

/* A page's pool always has room for an instruction at every offset (in
 * segments, below) and its entries never move while the page lives (the
 * segments are kept with the page on the free list): handlers may hold
 * pointers into it across decodes (exec_next's i + 1, the run loop's
 * next instruction).
 *
 * pool[k + 1] is always something to run after pool[k] if pool[k] can
 * fall through: its fall-through when that was decoded next (insn.seq),
 * else a stub (exec_fallthrough) that looks it up. A stub is written
 * after each newly decoded instruction but those that never fall through
 * (insn.ends_run); decoding the fall-through overwrites it, decoding
 * anything else leaves it and goes after it. So exec_next never tests
 * anything.
 *
 * A pointer into another page's pool (cross-page chains, indirect branch
 * targets) is checked before use: a dropped page's entries get an
 * address no instruction has (INSN_ADDR_DEAD), so the entry is what was
 * cached if its addr is still the target — a decode of the bytes there
 * now, or a stub that looks them up. Dropped pages are reused only by
 * the same cache (free_pages), so such a pointer never leads into
 * another thread's decodes. */
#define INSN_ADDR_DEAD (~0ull)
/* the places a page's life can use: an instruction and a stub per
 * offset, and the stub after the last */
#define POOL_ENTRIES (2 * CODE_PAGE_SIZE + 2)
/* The slots (page offset -> pool index + 1, 0: not decoded, never a stub)
 * in blocks of SLOT_BLOCK offsets, each allocated when the first
 * instruction in its range is decoded: a start-up touches ~50 code pages
 * at a few places each, and 8 KiB of slots per page would cost a page
 * fault per 4 KiB touched (or a 2 MiB huge page to zero for all). A range
 * with nothing decoded shares code_slots_none (all zero, never written),
 * so a lookup is two loads and no test. */
#define SLOT_BLOCK 64u
#define SLOT_BLOCKS (CODE_PAGE_SIZE / SLOT_BLOCK)
extern const uint16_t code_slots_none[SLOT_BLOCK];
/* Pools are packed: a page's entries lie in segments of a window shared
 * with a few other pages (cache.c), each segment a run of entries, so a
 * page with a few instructions does not take a host page of its own. The
 * slots index from the page's first segment (pool), 16 bits: a window
 * holds at most 65535 entries. pool[k + 1] is within k's segment for
 * every instruction k (its stub's place), so seq runs and stubs never
 * leave a segment. */
#define POOL_SEGS 48
struct pool_window;
struct code_page {
	uint64_t addr;
	struct code_page *next;          /* the free lists */
	UT_hash_handle hh;               /* the cache's pages, by addr */
	struct insn *pool;               /* its first segment: slots index from here */
	uint32_t n;                      /* pool[n - 1]: the last one decoded */
	uint32_t seg_end;                /* the segment in use ends before pool[seg_end] */
	struct pool_window *win;
	uint32_t given;                  /* entries in its segments */
	uint8_t nsegs, cur;              /* segments given; the one in use */
	struct { uint16_t start, end; } segs[POOL_SEGS]; /* pool indices, in window order */
	const uint16_t *slots[SLOT_BLOCKS]; /* a block, or code_slots_none */
};

/* The slot of page offset off (0: not decoded; else pool index + 1). */
static inline unsigned code_slot(const struct code_page *pg, unsigned off)
{
	return pg->slots[off / SLOT_BLOCK][off % SLOT_BLOCK];
}

#define RECENT_PAGES 256 /* direct-mapped: calls and returns between pages */
#define TARGET_CACHE 1024 /* direct-mapped indirect branch targets (a power of two) */

struct cpu_code_cache {
	struct code_page *pages; /* uthash, by addr; recent[] in front */
	struct code_page *recent[RECENT_PAGES];
	/* Pages this cache dropped, for its own reuse only (cache.c): a
	 * pointer kept across pages (exec_chain, indirect branches) may
	 * point into one, and must find its own thread's decodes there. */
	struct code_page *free_pages;
	/* Indirect branch targets by address (exec_indirect): where a
	 * site's kept target misses (a shared RET, Perl's op dispatch
	 * `call *op_ppaddr`, CPython's computed gotos), a target seen
	 * before is found here, checked as a kept target is (its entry's
	 * address), instead of through the page and slot lookup. Entries
	 * of this cache's pools only, insn_no_target when empty. */
	const struct insn *targets[TARGET_CACHE];
	/* Its scratch entries (insn.h, insn_scratch). */
	struct insn *scratch;
	/* EFLAGS.AC when this code was decoded: with AC set there are no fast
	 * forms (insn.h, mem_read_fast); cache_sync drops all on a change. */
	bool decoded_ac;
};

/* The CPU the calling thread is interpreting (set by cpu_run). */
extern __thread struct cpu *cpu_tl_current;

/* The page holding addr (page aligned), created if needed. */
/* --stats (cpu.h, struct cpu_stats): on, and the counts (added to with
 * relaxed atomics: threads decode and run at once). */
extern bool cpu_stats_on;
extern struct cpu_stats cpu_stats_counts;

struct code_page *cache_page(struct cpu *c, uint64_t page);
/* The fall-through of stub (a pool entry of c's cache) was found decoded
 * elsewhere: the run before it is final (pairs_run_ended). */
void cache_run_ended(struct cpu *c, const struct insn *stub);
/* A fetch from a page the guest may not execute: leaves cpu_run with a
 * VEC_PF at addr (exec.c); mapped: SEGV_ACCERR, present: the error
 * code's P bit. */
__attribute__((noreturn)) void cpu_fetch_fault(uint64_t addr, bool mapped, bool present);
/* A store to addr, memory that is not the guest's (store_guard_slow):
 * leave like a host fault on a store to unmapped memory does. */
__attribute__((noreturn)) void cpu_store_fault(uint64_t addr);
/* The instruction decoded at addr, or NULL: nothing is decoded. */
const struct insn *cache_find(struct cpu *c, uint64_t addr);
/* Link i as its first run would where that needs no decode (fork_teach.c:
 * code decoded but never run): a relative branch to its target, the stub
 * after it to its fall-through. */
void exec_prelink(struct cpu *c, const struct insn *i);
/* Decode the instruction at addr into pg. */
const struct insn *cache_decode(struct cpu *c, struct code_page *pg, uint64_t addr);

/* Fork children teaching their parent (fork_teach.c): in a child, the
 * parent's log (NULL: not teaching), where cache_decode records. */
struct teach_log;
extern struct teach_log *fork_teach_parent;
void fork_teach_record(const struct cpu *c, uint64_t addr);
void fork_teach_forked_child(void);
/* An exec in place kept the decoded code of these ranges. */
void fork_teach_exec(const struct cpu_code_range *keep, size_t n);
/* Apply invalidations other threads or syscalls recorded since last time. */
void cache_sync(struct cpu *c);
void cache_free(struct cpu *c);
/* A segment base other than FS/GS became non-zero: drop the code decoded
 * with flat addresses (insn.flat); the run loop resynchronises. */
void cpu_drop_flat_code(struct cpu *c);
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

/* ---- threaded dispatch (insn_exec) ---- */

/* The instruction at addr, decoded if needed (exec.c). On a decode it
 * sets cpu->insn_rip and cpu->rip to addr (and cpu->cur to NULL) first: a
 * fetch fault names the fetched instruction. */
const struct insn *exec_lookup(struct cpu *c, uint64_t addr);
/* The run loop's default insn_exec: sets cpu->rip to the fall-through,
 * calls insn->fn, follows where it left rip. */
const struct insn *exec_generic(struct cpu *c, const struct insn *i);
/* A fall-through stub's exec: the instruction at its addr. */
const struct insn *exec_fallthrough(struct cpu *c, const struct insn *stub);
/* For handlers that neither read nor move rip (FLOW_PLAIN, handler_props.def):
 * rip is written only if they leave something pending. */
const struct insn *exec_plain(struct cpu *c, const struct insn *i);

/* After a table handler left something pending: rip at the fall-through
 * unless it stopped (a fault set rip); NULL for the run loop. */
const struct insn *exec_pending(struct cpu *c, const struct insn *i);

/* exec_plain with the handler inlined, defined in the handler's file for
 * the hot ones: EXEC rows of handler_props.def, which the generated
 * tables name (op_exec_forms) and SG_EXEC_FORMS_<file> of the generated
 * optable_exec.h defines with these two macros. */
#define EXEC_PLAIN_FORM(fn)                                                      \
	const struct insn *exec_##fn(struct cpu *c, const struct insn *i)        \
	{                                                                        \
		c->insn_rip = insn_cold(i)->addr;                                           \
		c->cur = i;                                                      \
		fn(c, i);                                                        \
		if (__builtin_expect(c->pending != 0, 0))                        \
			return exec_pending(c, i);                               \
		return exec_next(c, i);                                          \
	}

/* ... and its register form (ModRM.mod == 3, decode.c) for a handler that
 * can neither fault nor raise anything there (SSE integer operations and
 * moves): no insn_rip or cur, no pending test. */
#define EXEC_REG_FORM(fn)                                                          \
	const struct insn *exec_reg_##fn(struct cpu *c, const struct insn *i)        \
	{                                                                          \
		fn(c, i);                                                          \
		return exec_next(c, i);                                            \
	}

/* exec_lookup with the common case inline: a recent page, decoded slot. */
static inline const struct insn *exec_at(struct cpu *c, uint64_t addr)
{
	uint64_t page = addr & ~(uint64_t)(CODE_PAGE_SIZE - 1);
	const struct code_page *pg = c->cache->recent[(page >> 12) & (RECENT_PAGES - 1)];

	if (__builtin_expect(pg != NULL && pg->addr == page, 1)) {
		unsigned s = code_slot(pg, addr & (CODE_PAGE_SIZE - 1));

		if (__builtin_expect(s != 0, 1))
			return &pg->pool[s - 1];
	}
	return exec_lookup(c, addr);
}

/* Straight-line code dispatches from handler to handler: exec_next calls
 * the next pool entry's exec itself (a tail call the optimiser turns into
 * an indirect jump per handler, each predicted on its own) instead of
 * returning it to the run loop; the fast branch forms do the same when
 * nothing is pending (exec_branch). The module is built with
 * -foptimize-sibling-calls, so these are jumps at -O1 too; -O0 and gcc's
 * sanitizer builds return to the loop every time, and so do clang's (the
 * fuzzer's): ASan's stack redzones and its memcpy calls keep clang from
 * turning the AVX and memcpy-using forms' dispatch into jumps, so a guest
 * loop of VPXOR nested a host frame per instruction until the stack
 * overflowed (SG_ASAN: mm/mm.h). */
#if defined(__OPTIMIZE__) && !defined(SG_ASAN)
#define EXEC_TAIL_DISPATCH 1
#else
#define EXEC_TAIL_DISPATCH 0
#endif

/* The fall-through of i: the next pool entry, the instruction itself
 * when it was decoded right after i (insn.seq), else its stub.
 *
 * No pending test here: a fast form sets nothing pending itself (faults
 * leave by longjmp; a store into decoded code goes through
 * EXEC_STORE_OR_GENERIC to exec_generic, which returns to the loop), the
 * table handlers' exec_plain/exec_generic test it before coming here, and
 * an async stop request waits at most for the end of the straight run: a
 * run of seq entries climbs the pool, so it ends within a page, at the
 * first branch or lookup, where the run loop tests pending. */
static inline const struct insn *exec_next(struct cpu *c, const struct insn *i)
{
	if (EXEC_TAIL_DISPATCH) {
		const struct insn *next = i + 1;

		/* next in a register the compiler cannot see through: it then
		 * advances the argument register and jumps through its first
		 * field (add, jmp *(reg): 2 host instructions), instead of
		 * loading i[1].exec and computing i + 1 apart (lea, mov, mov,
		 * jmp: 4) */
		__asm__("" : "+r"(next));
		return next->exec(c, next); /* no cpu.cur: insn_ea_fast */
	}
	(void)c;
	return i + 1;
}

/* A fast form about to store sz bytes at addr: a store that is not plain
 * (insn.h, store_plain: decoded code there, not the guest's page, across
 * pages) instead runs the instruction through its table handler, whose
 * checked store faults, or stores and drops the decoded code (the run
 * loop resynchronises). The fast form must not have changed anything yet:
 * this is a tail call with nothing live. */
#define EXEC_STORE_OR_GENERIC(c, i, addr, sz)                    \
	do {                                                     \
		if (__builtin_expect(!store_plain(addr, sz), 0)) \
			return exec_generic(c, i);               \
	} while (0)

/* A branch's next instruction t: straight on to it (a jump through its
 * exec, as exec_next does) unless something is pending, when the run loop
 * takes t. Each branch form then has its own host indirect jump, predicted
 * on its own, instead of all of them returning to the one call in the run
 * loop; the pending test is the loop's, so a guest loop still stops at its
 * next branch. Unbounded without sibling calls (a guest loop would nest
 * frames): only where EXEC_TAIL_DISPATCH holds, whose builds turn these
 * calls into jumps (unit.cpu_tail_dispatch checks). */
const struct insn *exec_branch_pending(struct cpu *c, const struct insn *t);

static inline const struct insn *exec_branch(struct cpu *c, const struct insn *t)
{
	if (EXEC_TAIL_DISPATCH) {
		/* the pending case a tail call too: t stays in the argument
		 * register either way (returning it inline cost every taken
		 * branch a move into the return register) */
		if (__builtin_expect(c->pending != 0, 0))
			return exec_branch_pending(c, t);
		__asm__("" : "+r"(t)); /* jmp *(reg), as exec_next */
		return t->exec(c, t);
	}
	return t;
}

/* A direct branch's (or a stub's) chained target is kept in v, as its
 * offset from the entry, tagged with bit 0 where checked at each use
 * (another page; entries are 16-byte aligned): insn_link, the tagged
 * pointer. Every window's entry 0 is dead (its address INSN_ADDR_DEAD,
 * cache.c), what an entry not yet linked keeps, tagged: its check fails,
 * so the target within the page needs no NULL test. A target further
 * than v reaches (windows more than 2 GiB apart) is not kept: the branch
 * looks it up at each run. */
static inline uintptr_t insn_link(const struct insn *i)
{
	return (uintptr_t)i + (uintptr_t)(intptr_t)i->v;
}

static inline const struct insn *insn_window_dead(const struct insn *i)
{
	return (const struct insn *)((uintptr_t)i & ~(INSN_HOT_SPAN - 1));
}

/* A CALL's return address: its fall-through's, the next entry (cache.h:
 * the instruction decoded after it, or its stub), whose cold record a
 * RET to it reads anyway. */
static inline uint64_t insn_return_addr(const struct insn *i)
{
	return insn_cold(i + 1)->addr;
}

/* What a new stub keeps (exec_fallthrough), and a link v does not reach. */
static inline void insn_unlink(struct insn *i)
{
	i->v = (int32_t)(((uintptr_t)insn_window_dead(i) - (uintptr_t)i) | 1);
}

/* What a direct branch that chains (insn_cold.chains) keeps before its
 * first run (its specialiser sets it, on the scratch entry it decodes
 * into: so not an offset to anything else; exec_rel_target): itself,
 * tagged, whose check holds only for a branch to itself, which is
 * right to take. An indirect branch keeping its target in v (RET and the
 * register forms: exec_indirect's in_v) starts with itself, untagged,
 * as right for a return to itself. */
#define INSN_LINK_SELF_TAGGED 1
#define INSN_LINK_SELF 0

static inline bool insn_unlinked(const struct insn *i)
{
	return i->v == INSN_LINK_SELF_TAGGED || insn_link(i) == ((uintptr_t)insn_window_dead(i) | 1);
}

/* Keep t (a pointer, tagged or not) in i, if v reaches it. */
static inline void insn_set_link(const struct insn *i, uintptr_t t)
{
	intptr_t d = (intptr_t)(t - (uintptr_t)i);

	if (d == (int32_t)d)
		((struct insn *)i)->v = (int32_t)d;
	else
		insn_unlink((struct insn *)i);
}

/* The target of a relative branch, once found: a direct branch within
 * its page keeps its target's decoded instruction in v (insn_link),
 * valid as long as the page: pages are dropped whole and pools never
 * move. One on another page is tagged with bit 0 and checked here (its
 * entry still has the target's address: not dropped); the fast forms
 * have the mode's operand size, so the target wraps as the mode's
 * addresses do (amask). Before its first run a branch keeps itself,
 * tagged (INSN_LINK_SELF_TAGGED): its check fails but for a branch to
 * itself, so the target within the page needs no NULL test. */
const struct insn *exec_chain(struct cpu *c, const struct insn *i);
/* exec_branch(exec_chain(...)) out of line (cache.c): the slow paths are
 * tail calls, so the forms need no frame. */
const struct insn *exec_chain_branch(struct cpu *c, const struct insn *i);

/* The kept target of i on another page (v tagged), checked. with_next:
 * the caller has the branch's fall-through address at hand (next: a
 * CALL's return address; else it is read here), and amask is the form's
 * mode's (a constant for the forms of one mode; 0: the CPU's, read here
 * too, not hoisted above the caller's test to cost the target on the
 * page a load) */
static inline __attribute__((always_inline)) const struct insn *
exec_rel_kept(struct cpu *c, const struct insn *i, bool with_next, uint64_t next, uint64_t amask)
{
	const struct insn *kept = (const struct insn *)(insn_link(i) - 1);

	if (!with_next)
		next = insn_cold(i)->addr + insn_cold(i)->len;
	if (!amask) {
		__asm__ volatile("" ::: "memory");
		amask = c->amask;
	}
	if (__builtin_expect(insn_cold(kept)->addr == ((next + insn_imm(i)) & amask), 1))
		return exec_branch(c, kept);
	return exec_chain_branch(c, i);
}

/* ... and the target within the page before it (JMP, CALL) */
static inline __attribute__((always_inline)) const struct insn *
exec_rel_target_from(struct cpu *c, const struct insn *i, bool with_next, uint64_t next, uint64_t amask)
{
	uintptr_t t = insn_link(i);

	if (__builtin_expect(!(t & 1), 1))
		return exec_branch(c, (const struct insn *)t);
	return exec_rel_kept(c, i, with_next, next, amask);
}

/* ... for the Jcc forms and the fused compares' Jcc: the target on the
 * page inline, one on another page out of line (cache.c). Whole, gcc
 * split the taken path off ~500 of these forms into one shared part (a
 * jump more, and one host indirect jump for all their targets) */
const struct insn *exec_rel_target_far(struct cpu *c, const struct insn *i);

static inline __attribute__((always_inline)) const struct insn *
exec_rel_target(struct cpu *c, const struct insn *i)
{
	uintptr_t t = insn_link(i);

	if (__builtin_expect(!(t & 1), 1))
		return exec_branch(c, (const struct insn *)t);
	return exec_rel_target_far(c, i);
}

/* An indirect branch's target, kept in v or imm (insn_kept) and
 * checked; else the cache's table of targets by address (cpu_code_cache,
 * targets), checked alike, whose hit becomes the kept target; else a
 * lookup (out of line, its exec_branch too). The hits are inline, so
 * they need no frame and jump on from the site's own handler. Every
 * table hit replaces the kept target (a store): replacing only at every
 * 16th miss, as before, kept the common target of a shared RET no better
 * (CPython's RETs missed 33% either way) and cost a counter's load, add,
 * store and test on every miss (python3 -0.3%, perl -0.25% host
 * instructions without it; history.md, calls2). After a fork such a
 * store into a pool page would copy the page: cpu_kept_quiet. */
const struct insn *exec_indirect_lookup(struct cpu *c, const struct insn *i, uint64_t target);
/* After a fork (cpu_code_forked), in parent and child: the next this many
 * table hits and lookups leave the site's kept target as it is. The pool
 * pages are shared copy-on-write then, and a shell's RETs store into ~20
 * of them each iteration (then 12 more, and 11 lookups, in its child):
 * a fault and a page copy each, ~17 us on a PVM host, where a table hit
 * costs ~13 host instructions. A count, not a state: a parent cannot
 * tell when its child is gone. */
extern uint32_t cpu_kept_quiet;

/* What an indirect branch keeps in imm before its first run
 * (control_specialise): an entry no target matches, so the hit test
 * needs no NULL test. */
extern const struct insn *insn_no_target;

/* t becomes i's kept target, unless a fork's quiet count is running
 * (then it counts down instead). */
static inline void exec_keep_target(const struct insn *i, const struct insn *t, bool in_v)
{
	uint32_t quiet = __atomic_load_n(&cpu_kept_quiet, __ATOMIC_RELAXED);

	if (__builtin_expect(quiet == 0, 1)) {
		if (in_v)
			insn_set_link(i, (uintptr_t)t);
		else
			insn_imm(i) = (uint64_t)(uintptr_t)t;
	} else { /* threads may race here: a miscount is harmless */
		__atomic_store_n(&cpu_kept_quiet, quiet - 1, __ATOMIC_RELAXED);
	}
}

/* An indirect branch's kept target: in v (in_v: RET and the register
 * forms, whose v is free), else in imm (the memory forms: v is their
 * displacement). */
static inline const struct insn *insn_kept(const struct insn *i, bool in_v)
{
	return in_v ? (const struct insn *)insn_link(i) : (const struct insn *)(uintptr_t)insn_imm(i);
}

/* ... none yet */
static inline bool insn_kept_none(const struct insn *i, bool in_v)
{
	return in_v ? i->v == INSN_LINK_SELF : insn_kept(i, false) == insn_no_target;
}

static inline unsigned target_slot(uint64_t target)
{
	return (unsigned)(target ^ (target >> 10)) & (TARGET_CACHE - 1);
}

static inline __attribute__((always_inline)) const struct insn *
exec_indirect(struct cpu *c, const struct insn *i, uint64_t target, bool in_v)
{
	const struct insn *kept = insn_kept(i, in_v);

	if (__builtin_expect(insn_cold(kept)->addr == target, 1))
		return exec_branch(c, kept);
	kept = c->cache->targets[target_slot(target)];
	if (__builtin_expect(insn_cold(kept)->addr == target, 1)) {
		exec_keep_target(i, kept, in_v);
		return exec_branch(c, kept);
	}
	return exec_indirect_lookup(c, i, target);
}

/* A near RET's fast form (control.c, and the fused compares' tails in
 * fused.c): the return address read in the RET's name, then the kept
 * target. */
static inline __attribute__((always_inline)) const struct insn *
exec_ret_near(struct cpu *c, const struct insn *ret, bool ret64)
{
	uint64_t target;

	c->cur = ret; /* before it can fault (insn_ea_fast) */
	if (ret64) {
		target = mem_read_fast(c->r[R_SP], 8);
		c->r[R_SP] += 8;
	} else {
		target = (uint32_t)mem_read_fast((uint32_t)c->r[R_SP], 4);
		c->r[R_SP] = (uint32_t)(c->r[R_SP] + 4);
	}
	return exec_indirect(c, ret, target, true);
}

#endif
