/* The triple forms (pair_units.h): three units of straight code, one
 * dispatch, with their links; a translation unit of their own, beside
 * pairs.c's, so that the two compile at once (the triples are half of the
 * generated forms). pairs.c chooses them. */
#include "cpu/pair_units.h"

#define TRIPLE_FNS(a, b, c3) TRIPLE_LINKS(TRIPLE_FN, a, b, c3)
TRIPLE_CROSS(TRIPLE_FNS)

void pairs_fill_triples(insn_exec forms[3][3][TRIPLE_UNIT_COUNT][TRIPLE_UNIT_COUNT][TRIPLE_UNIT_COUNT])
{
#define TRIPLE_SET1(a, b, c3, L1, L2) \
	forms[PAIR_LINK_##L1][PAIR_LINK_##L2][T_##a][T_##b][T_##c3] = triple_##L1##_##L2##_##a##_##b##_##c3;
#define TRIPLE_SET(a, b, c3) TRIPLE_LINKS(TRIPLE_SET1, a, b, c3)
	TRIPLE_CROSS(TRIPLE_SET)
}
