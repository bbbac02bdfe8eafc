/* Fork children teach their parent what they decoded (docs/performance.md,
 * "Fork children teach their parent").
 *
 * A host fork child inherits its parent's decoded code copy-on-write, and
 * whatever it decodes itself is lost when it ends: a shell's every child
 * decodes the same path from fork to exec, and after an exec that keeps
 * the same file's code (busybox sh running busybox true) the same
 * program start, writing into the parent's pool and slot pages as it
 * goes (a copy of each on write: ~110 of the ~205 page faults of each
 * child of a busybox i386 shell loop). Here a child records the address
 * of each instruction it decodes in a log its parent shares (a
 * MAP_SHARED page run mapped before the fork); at its next fork the
 * parent decodes the same addresses in its own memory, in the same
 * order, so that later children find them decoded.
 *
 * A recorded address is only a hint: the parent decodes its own bytes
 * there, which is a correct decode of its memory whatever the child ran
 * (after an exec to another program, at worst a decode nothing runs:
 * a page holds at most an instruction per offset, so that is bounded).
 * After its exec the child records only in the ranges kept from before
 * (the same file at the same place as the parent's); the parent decodes
 * only where both the address and 14 bytes on are executable in its
 * mappings, so that the decode neither faults nor reads what is not
 * there; a file shrunk under a mapping (SIGBUS on the read) ends the
 * replay. */
#include <setjmp.h>
#include <signal.h>
#include <pthread.h>
#include <sys/mman.h>
#include "cpu/cache.h"
#include "cpu/cpu.h"
#include "mm/mm.h"

/* Entries: the guest address, the CPU mode in the top byte (0: not
 * written yet). A child records at most this many. */
#define TEACH_ENTRIES 4096u
#define TEACH_MODE_SHIFT 56

struct teach_log {
	uint32_t n; /* entries claimed (atomic: children in other processes) */
	uint32_t pad;
	uint64_t at[TEACH_ENTRIES];
};

/* The log this process's children write (mapped before its first fork),
 * and how far this process has replayed it. */
static struct teach_log *teach_mine;
static uint32_t teach_replayed;
static pthread_mutex_t teach_lock = PTHREAD_MUTEX_INITIALIZER;

/* In a fork child: the log of the parent, NULL when not teaching. */
struct teach_log *fork_teach_parent;

/* After an exec in place, the child records only in what it kept: the
 * parent maps the same there. */
#define TEACH_RANGES 8
static struct cpu_code_range teach_ranges[TEACH_RANGES];
static size_t teach_nranges;
static bool teach_ranged;

void fork_teach_record(const struct cpu *c, uint64_t addr)
{
	struct teach_log *log = fork_teach_parent;
	uint32_t k;

	if (teach_ranged) {
		bool in = false;

		for (size_t r = 0; r < teach_nranges && !in; r++)
			in = addr >= teach_ranges[r].start && addr < teach_ranges[r].end;
		if (!in)
			return;
	}
	k = __atomic_fetch_add(&log->n, 1, __ATOMIC_RELAXED);
	if (k >= TEACH_ENTRIES) {
		fork_teach_parent = NULL; /* full: it has taught enough */
		return;
	}
	__atomic_store_n(&log->at[k], addr | (uint64_t)c->mode << TEACH_MODE_SHIFT,
			 __ATOMIC_RELAXED);
}

/* The parent can decode at addr without a fault: addr and the 14 bytes
 * after it (the longest instruction) are executable, in one address
 * space (no wrap). */
static bool replay_fetchable(const struct cpu *c, uint64_t addr)
{
	uint64_t last = addr + 14;

	if (last < addr || (c->mode == CPU_MODE_32 && last > 0xffffffffull))
		return false;
	return mm_access_ok(c->mm, addr, 15, PROT_EXEC);
}

/* Entry k of the log: written, and of c's mode; its address in *addr. */
static bool log_entry(const struct cpu *c, uint32_t k, uint64_t *addr)
{
	uint64_t v = __atomic_load_n(&teach_mine->at[k], __ATOMIC_RELAXED);

	*addr = v & ((1ull << TEACH_MODE_SHIFT) - 1);
	return v && (v >> TEACH_MODE_SHIFT) == (uint64_t)c->mode;
}

/* Decode the entries [from, n) of the log in c's cache. */
static void replay_entries(struct cpu *c, uint32_t from, uint32_t n)
{
	uint64_t addr;

	for (uint32_t k = from; k < n; k++) {
		struct code_page *pg;

		if (!log_entry(c, k, &addr) || !replay_fetchable(c, addr))
			continue;
		pg = cache_page(c, addr & ~(uint64_t)(CODE_PAGE_SIZE - 1));
		if (!code_slot(pg, addr & (CODE_PAGE_SIZE - 1)))
			cache_decode(c, pg, addr);
	}
	/* then linked as their first run would link them (a write into
	 * the pools each child would otherwise copy a page for) */
	for (uint32_t k = from; k < n; k++) {
		const struct insn *i;

		if (log_entry(c, k, &addr) && (i = cache_find(c, addr)) != NULL)
			exec_prelink(c, i);
	}
}

/* Decode what the children recorded since the last replay (under
 * teach_lock). */
static void replay(struct cpu *c)
{
	uint32_t n = __atomic_load_n(&teach_mine->n, __ATOMIC_RELAXED);
	sigjmp_buf jb;
	void *outer;

	if (n > TEACH_ENTRIES)
		n = TEACH_ENTRIES;
	if (teach_replayed >= n || !c->mm)
		return;
	cpu_code_epoch(c); /* drops what mapping changes took away first */
	outer = cpu_set_host_bus_recovery(&jb);
	if (!sigsetjmp(jb, 0))
		replay_entries(c, teach_replayed, n);
	else
		cpu_tl_fetch = false; /* a read past the end of a shrunk file */
	cpu_set_host_bus_recovery(outer);
	teach_replayed = n;
}

void cpu_code_before_fork(struct cpu *c)
{
	pthread_mutex_lock(&teach_lock);
	if (teach_mine) {
		replay(c);
	} else {
		void *m = mmap(NULL, sizeof(*teach_mine), PROT_READ | PROT_WRITE,
			       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

		if (m != MAP_FAILED) {
			teach_mine = m;
			teach_replayed = 0;
		}
	}
	pthread_mutex_unlock(&teach_lock);
}

void fork_teach_forked_child(void)
{
	/* the parent's log; this process's children get a log of their own */
	fork_teach_parent = teach_mine;
	teach_ranged = false;
	teach_mine = NULL;
	teach_replayed = 0;
	pthread_mutex_init(&teach_lock, NULL);
}

void fork_teach_exec(const struct cpu_code_range *keep, size_t n)
{
	/* what its children taught is of the old program */
	if (teach_mine) {
		munmap(teach_mine, sizeof(*teach_mine));
		teach_mine = NULL;
	}
	if (fork_teach_parent) {
		teach_ranged = true;
		teach_nranges = n < TEACH_RANGES ? n : TEACH_RANGES;
		for (size_t r = 0; r < teach_nranges; r++)
			teach_ranges[r] = keep[r];
		if (!teach_nranges)
			fork_teach_parent = NULL;
	}
}
