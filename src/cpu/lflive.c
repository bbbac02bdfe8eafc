/* Flag liveness at decode time. Most arithmetic results' flags are never
 * read: the next instruction that touches the flags overwrites them all.
 * When an instruction that writes every arithmetic flag without reading
 * any (LF_WRITES, register operands: it cannot fault) is decoded right
 * after straight-line code, the writers before it whose flags nothing can
 * see in between get their flag-free twin. "In between" may hold only
 * forms that neither read the flags nor fault (LF_NEUTRAL*), so no signal
 * frame, fault or handler observes the skipped flags, and rotates and
 * shifts by CL (LF_CFOF) and INC/DEC (LF_KEEPCF), which only add to them:
 * their flag-free twins too, the walk going on past them.
 *
 * The one observer left is an asynchronous stop (cpu_request_stop) that
 * lands inside such a stretch: the instructions after a flag-free form up
 * to the writer are marked LF_STALE, and the run loop runs on to the
 * writer before it stops (exec.c). Single steps use the table's handlers,
 * which always compute the flags.
 *
 * What a form does to the flags is a property of the form, recorded with
 * the choice: the specialiser that picks it sets insn.lf (alu.c, shift.c,
 * move.c), and its twin comes from the same module's tables. Nothing is
 * looked up by exec pointer. */
#include <stdint.h>
#include "cpu/ops.h"

/* At most this many instructions are looked at backwards per decode. */
#define LF_WALK_MAX 32

/* The flag-free twin of j's fast form, or NULL: the specialiser that chose
 * the form said whose twin it has (insn.lf). */
static insn_exec flag_free_twin(const struct insn *j)
{
	if (insn_cold(j)->lf & LF_TWIN_ALU)
		return alu_flag_free(j);
	if (insn_cold(j)->lf & LF_TWIN_SHIFT)
		return shift_flag_free(j);
	return NULL;
}

void lf_decoded(struct insn *pool, uint32_t n)
{
	struct insn *writer = &pool[n - 1];

	if ((insn_cold(writer)->lf & LF_CLASS_MASK) != LF_WRITES || insn_cold(writer)->mod != 3)
		return;
	for (uint32_t k = n - 1, steps = 0; k > 0 && steps < LF_WALK_MAX; steps++) {
		struct insn *j = &pool[--k];
		unsigned cls = insn_cold(j)->lf & LF_CLASS_MASK;
		insn_exec nf;

		if (!insn_cold(j)->seq) /* pool[k + 1] is not where j goes next */
			return;
		if (cls == LF_READS)
			return;
		if (cls == LF_NEUTRAL_NOFAULT || (cls == LF_NEUTRAL && insn_cold(j)->mod == 3))
			continue;
		/* a memory form that writes them all (reg op= memory) may get
		 * its twin too, as the last: should its load fault, nothing
		 * changed, and the flags before it are whole */
		nf = insn_cold(j)->mod == 3 || cls == LF_WRITES ? flag_free_twin(j) : NULL;
		if (!nf)
			return;
		j->exec = nf;
		for (struct insn *s = j + 1; s <= writer; s++)
			insn_cold(s)->lf |= LF_STALE;
		if (cls == LF_WRITES)
			return; /* the ones before it were settled when it was decoded */
	}
}
