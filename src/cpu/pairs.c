/* Superinstructions: two hot fast forms back to back run as one handler
 * (decode time). Straight-line integer code (hashing, compression, the
 * i386 spill loads and stores) is mostly register moves, ALU operations,
 * rotates and flat loads and stores of 7-10 host instructions each, of
 * which the dispatch (advance, jump through the next entry) is two and an
 * indirect branch: a pair runs the first member's unit and the second's
 * (units.h, the same bodies as their single forms) and dispatches once,
 * to the instruction after the second.
 *
 * The members are named by their single forms' exec: the forms the
 * decoder chooses for canned instructions (pair_units, at first use), so
 * a unit is what the specialisers and lflive.c's twins really pick. The
 * second member keeps its own form for when it is reached by a jump;
 * single steps use the table's handlers.
 *
 * When: a form may still change after it is decoded (lflive.c gives a
 * flag writer its flag-free twin when a later writer is decoded; fused.c
 * fuses a compare with the Jcc after it). No later pass reaches back past
 * an instruction that reads the flags, writes them all, or touches memory
 * without being twinned or a MOV load or store (lflive's walk stops there,
 * lf_walk_passes; fusion looks one
 * back), so once such a barrier is decoded everything before it is
 * final: the run of single units that ends before it is paired, greedily
 * from its start. A barrier's own pairing waits for the next barrier. */
#include <pthread.h>
#include <string.h>
#include "cpu/pair_units.h"

PAIR_CROSS(PAIR_FN)
PAIR_CROSS(PAIR_LINKED_FNS)

/* The single forms the pairs are made of, filled at the first pairing
 * (no table of pointers to relocate at every start: docs/performance.md). */
static insn_exec unit_exec[PAIR_UNIT_COUNT];
/* Each unit's link field, which fields it reads (bit PAIR_FIELD_*: those
 * links have forms), and its place in TRIPLE_UNITS plus one (0: none). */
#define PAIR_READS_BIT(name, F) | 1u << PAIR_FIELD_##F
#define PAIR_LINK_FIELD_OF(name, ...) [U_##name] = PAIR_LINK_FIELD(name),
#define PAIR_LINK_READS_OF(name, ...) [U_##name] = 0 PAIR_LINK_READS(name, PAIR_READS_BIT, name),
#define TRIPLE_PLACE_OF(name, ...) [U_##name] = T_##name + 1,
static const uint8_t pair_link_field[PAIR_UNIT_COUNT] = { PAIR_UNITS(PAIR_LINK_FIELD_OF, ) };
static const uint8_t pair_link_reads[PAIR_UNIT_COUNT] = { PAIR_UNITS(PAIR_LINK_READS_OF, ) };
static const uint8_t triple_place[PAIR_UNIT_COUNT] = { TRIPLE_UNITS(TRIPLE_PLACE_OF, ) };

/* Unit u's place in TRIPLE_UNITS, or -1. */
static inline int triple_of_unit(int u)
{
	return (int)triple_place[u] - 1;
}
static pthread_once_t pairs_once = PTHREAD_ONCE_INIT;
static bool pairs_ready; /* pairs_init has run: no call to pthread_once per barrier */
/* unit_exec by exec pointer (open addressing; the walk asks every entry
 * before a barrier: a scan of the units cost more than the pairs saved
 * on short runs) */
#define UNIT_HASH_SIZE 128
_Static_assert(UNIT_HASH_SIZE >= 2 * PAIR_UNIT_COUNT, "the unit hash stays sparse");
static struct {
	insn_exec exec;
	int unit;
} unit_hash[UNIT_HASH_SIZE];

static unsigned unit_hash_slot(insn_exec e)
{
	return (unsigned)((((uintptr_t)e >> 4) * 0x9e3779b97f4a7c15ull) >> 57) & (UNIT_HASH_SIZE - 1);
}

/* The form the decoder picks for the canned instruction (its flag-free
 * twin if nf), as a CPU of that mode with flat segments would. */
static insn_exec canned_form_in(struct insn *i, unsigned bits, const char *bytes, unsigned n, bool nf)
{
	static struct cpu cpu32, cpu64;
	struct cpu *c = bits == 64 ? &cpu64 : &cpu32;

	c->mode = bits == 64 ? CPU_MODE_64 : CPU_MODE_32;
	if (!insn_decode_canned(i, c, (const uint8_t *)bytes, n))
		return NULL;
	if (!nf)
		return i->exec;
	return insn_cold(i)->lf & LF_TWIN_ALU ? alu_flag_free(i) : insn_cold(i)->lf & LF_TWIN_SHIFT ? shift_flag_free(i) : NULL;
}

static insn_exec canned_form(unsigned bits, const char *bytes, unsigned n, bool nf)
{
	insn_exec e = canned_form_in(insn_scratch_shared_take(), bits, bytes, n, nf);

	insn_scratch_shared_give();
	return e;
}

static void pairs_init(void)
{
#define UNIT_EXEC(name, mode, bytes, nf, ...) \
	unit_exec[U_##name] = canned_form(mode, bytes, sizeof(bytes) - 1, nf);
	PAIR_UNITS(UNIT_EXEC, )
	for (int u = 0; u < PAIR_UNIT_COUNT; u++) {
		unsigned h = unit_hash_slot(unit_exec[u]);

		if (!unit_exec[u])
			continue;
		while (unit_hash[h].exec && unit_hash[h].exec != unit_exec[u])
			h = (h + 1) & (UNIT_HASH_SIZE - 1);
		if (!unit_hash[h].exec) /* the first of two units with one form */
			unit_hash[h].exec = unit_exec[u], unit_hash[h].unit = u;
	}
	__atomic_store_n(&pairs_ready, true, __ATOMIC_RELEASE);
}

/* The pair form of units a and b, linked in the second's field link (a
 * PAIR_FIELD_* b reads) or not (PAIR_LINK_NONE). A switch over one key,
 * not a table: gcc makes it a jump table of relative offsets in .rodata,
 * so a start reads only the pages of the forms it chooses and writes none
 * (tables of pointers filled at the first pairing were 40 KiB of .bss
 * touched at every start, and filling them per first unit still touched
 * most of their pages: docs/history.md). */
static insn_exec pair_form(int a, int b, int link)
{
#define PAIR_KEY(a, b, link) (((a) * PAIR_UNIT_COUNT + (b)) * 3 + (link))
#define PAIR_LINKED_CASE(a, b, F) \
	case PAIR_KEY(U_##a, U_##b, PAIR_FIELD_##F): return pair_##F##_##a##_##b;
#define PAIR_CASES(a, b)                                                       \
	case PAIR_KEY(U_##a, U_##b, PAIR_LINK_NONE): return pair_##a##_##b; \
	PAIR_LINK_READS(b, PAIR_LINKED_CASE, a, b)
	switch (PAIR_KEY(a, b, link)) {
	PAIR_CROSS(PAIR_CASES)
	}
	return NULL;
}

/* The unit whose single form i runs, or -1. */
static int unit_of(const struct insn *i)
{
	unsigned h;

	if ((insn_cold(i)->lf & LF_PAIR_HEAD) || !i->exec)
		return -1;
	for (h = unit_hash_slot(i->exec); unit_hash[h].exec; h = (h + 1) & (UNIT_HASH_SIZE - 1))
		if (unit_hash[h].exec == i->exec)
			return unit_hash[h].unit;
	return -1;
}

/* How i + 1 names the register of i's link field: PAIR_FIELD_rm or
 * PAIR_FIELD_reg where unit b reads that field, else PAIR_LINK_NONE. */
static int pair_link(const struct insn *i, int a, int b)
{
	uint8_t r = pair_link_field[a] == PAIR_FIELD_reg ? i->reg : i->rm;

	if (i[1].rm == r && (pair_link_reads[b] & 1u << PAIR_FIELD_rm))
		return PAIR_FIELD_rm;
	if (i[1].reg == r && (pair_link_reads[b] & 1u << PAIR_FIELD_reg))
		return PAIR_FIELD_reg;
	return PAIR_LINK_NONE;
}

/* At most this many entries are looked at backwards per barrier. */
#define PAIR_WALK_MAX 32

/* Pairs the run of single units that ends before pool[end], all of whose
 * forms are final; returns where it starts. */
static uint32_t pair_one_run(struct insn *pool, uint32_t end, uint32_t *walk)
{
	uint32_t start = end, k;

	/* the run of single units before it (up to a pair head: the head's
	 * second is single still and may head a pair of its own) */
	while (start > 0 && *walk < PAIR_WALK_MAX) {
		const struct insn *j = &pool[start - 1];

		if (unit_of(j) < 0)
			break;
		start--;
		++*walk;
	}
	/* every unit heads a pair with the one after it (pool[k + 1] is
	 * still single when pool[k] is paired): entered at its start, the
	 * run dispatches once per two, as greedy pairs would, and entered in
	 * its middle (a jump to a loop's head) as well */
	for (k = start; k + 1 < end; k++) {
		int a = unit_of(&pool[k]), b, c, l1;

		if (a < 0 || !insn_cold(&pool[k])->seq || (b = unit_of(&pool[k + 1])) < 0)
			continue;
		l1 = pair_link(&pool[k], a, b);
		pool[k].exec = pair_form(a, b, l1);
		/* three when the third is a triple unit too (pool[k + 2] is
		 * before the barrier, so final) */
		if (k + 2 < end && insn_cold(&pool[k + 1])->seq && triple_of_unit(a) >= 0 &&
		    triple_of_unit(b) >= 0 && (c = unit_of(&pool[k + 2])) >= 0 && triple_of_unit(c) >= 0)
			pool[k].exec = pairs_triple_form(triple_of_unit(a), triple_of_unit(b), triple_of_unit(c), l1,
							 pair_link(&pool[k + 1], b, c));
		insn_cold(&pool[k])->lf |= LF_PAIR_HEAD;
	}
	return start;
}

/* Pairs the runs of single units before pool[n - 1] (a barrier, or the
 * stub ending a run): the one right before it, and the ones before
 * entries that are no unit and no barrier either (shifts by CL), which
 * no barrier came right after (everything before a barrier is final). */
static void pair_run(struct insn *pool, uint32_t n)
{
	uint32_t end = n - 1, walk = 0, start;

	if (n < 3)
		return;
	if (!__atomic_load_n(&pairs_ready, __ATOMIC_ACQUIRE))
		pthread_once(&pairs_once, pairs_init);
	for (;;) {
		start = pair_one_run(pool, end, &walk);
		if (start < 3 || walk >= PAIR_WALK_MAX || !lf_walk_passes(&pool[start - 1]))
			return;
		end = start - 1;
		walk++;
	}
}

void pairs_decoded(struct insn *pool, uint32_t n)
{
	/* lflive's walk stops at the barrier: it reads the flags, writes
	 * them all, or touches memory other than a MOV load or store
	 * (insn.h, lf_walk_passes) */
	if (lf_walk_passes(&pool[n - 1]))
		return;
	pair_run(pool, n);
}

void pairs_run_ended(struct insn *pool, uint32_t stub)
{
	pair_run(pool, stub + 1);
}
