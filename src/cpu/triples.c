/* The triple forms (pair_units.h): three units of straight code, one
 * dispatch, with their links; a translation unit of their own, beside
 * pairs.c's, so that the two compile at once (the triples are half of the
 * generated forms). pairs.c chooses them (pairs_triple_form). */
#include "cpu/pair_units.h"

#define TRIPLE_FNS(a, b, c3) TRIPLE_LINKS(TRIPLE_FN, a, b, c3)
TRIPLE_CROSS(TRIPLE_FNS)

/* A switch over one key, not a table: gcc makes it one jump table of
 * relative offsets in .rodata, so a start reads only the pages of the
 * forms it chooses and writes none (a table of the 3,249 pointers,
 * filled at the first pairing, was 52 KiB of .bss touched at every
 * start: docs/history.md). */
insn_exec pairs_triple_form(int a, int b, int c3, int l1, int l2)
{
#define TRIPLE_KEY(a, b, c3, l1, l2) \
	((((a) * TRIPLE_UNIT_COUNT + (b)) * TRIPLE_UNIT_COUNT + (c3)) * 9 + (l1) * 3 + (l2))
#define TRIPLE_CASE(a, b, c3, L1, L2)                                               \
	case TRIPLE_KEY(T_##a, T_##b, T_##c3, PAIR_LINK_##L1, PAIR_LINK_##L2): \
		return triple_##L1##_##L2##_##a##_##b##_##c3;
#define TRIPLE_CASES(a, b, c3) TRIPLE_LINKS(TRIPLE_CASE, a, b, c3)
	switch (TRIPLE_KEY(a, b, c3, l1, l2)) {
	TRIPLE_CROSS(TRIPLE_CASES)
	}
	return NULL;
}
