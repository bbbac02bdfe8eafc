/* Flag liveness at decode time. Most arithmetic results' flags are never
 * read: the next instruction that touches the flags overwrites them all.
 * When an instruction that writes every arithmetic flag without reading
 * any (LF_WRITES, register operands: it cannot fault) is decoded right
 * after straight-line code, the writers before it whose flags nothing can
 * see in between get their flag-free twin. "In between" may hold only
 * forms that neither read the flags nor fault (LF_NEUTRAL*), so no signal
 * frame, fault or handler observes the skipped flags, and rotates
 * (LF_CFOF), which only add to them.
 *
 * The one observer left is an asynchronous stop (cpu_request_stop) that
 * lands inside such a stretch: the instructions after a flag-free form up
 * to the writer are marked lf_stale, and the run loop runs on to the
 * writer before it stops (exec.c). Single steps use the table's handlers,
 * which always compute the flags. */
#include <pthread.h>
#include <stdint.h>
#include "cpu/ops.h"

/* At most this many instructions are looked at backwards per decode. */
#define LF_WALK_MAX 32
#define LF_SLOTS 512 /* open addressing; ~220 forms are registered */

static struct lf_entry {
	insn_exec full, nf;
	uint8_t cls;
} lf_table[LF_SLOTS];

static unsigned lf_hash(insn_exec f)
{
	return (unsigned)(((uintptr_t)f >> 4) * 0x9e3779b1u) & (LF_SLOTS - 1);
}

static void lf_register(insn_exec full, insn_exec nf, enum lf_class cls)
{
	insn_exec keys[2] = { full, nf };

	/* A flag-free twin is registered too, so a later walk passes it. */
	for (int k = 0; k < 2 && keys[k]; k++) {
		unsigned h = lf_hash(keys[k]);

		while (lf_table[h].full && lf_table[h].full != keys[k])
			h = (h + 1) & (LF_SLOTS - 1);
		lf_table[h] = (struct lf_entry){ keys[k], nf, (uint8_t)cls };
	}
}

static void lf_build(void)
{
	alu_flag_forms(lf_register);
	shift_flag_forms(lf_register);
	move_flag_forms(lf_register);
}

static const struct lf_entry *lf_find(insn_exec f)
{
	unsigned h = lf_hash(f);

	for (; lf_table[h].full; h = (h + 1) & (LF_SLOTS - 1))
		if (lf_table[h].full == f)
			return &lf_table[h];
	return NULL;
}

void lf_decoded(struct insn *pool, uint32_t n)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	struct insn *writer = &pool[n - 1];
	const struct lf_entry *e;

	pthread_once(&once, lf_build);
	e = lf_find(writer->exec);
	if (!e || e->cls != LF_WRITES || writer->mod != 3)
		return;
	for (uint32_t k = n - 1, steps = 0; k > 0 && steps < LF_WALK_MAX; steps++) {
		struct insn *j = &pool[--k];

		if (!j->seq) /* pool[k + 1] is not where j goes next */
			return;
		e = lf_find(j->exec);
		if (!e)
			return;
		if (e->cls == LF_NEUTRAL_NOFAULT || (e->cls == LF_NEUTRAL && j->mod == 3))
			continue;
		if (j->mod != 3 || !e->nf)
			return;
		j->exec = e->nf;
		for (struct insn *s = j + 1; s <= writer; s++)
			s->lf_stale = 1;
		if (e->cls == LF_WRITES)
			return; /* the ones before it were settled when it was decoded */
	}
}
