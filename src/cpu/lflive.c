/* Flag liveness at decode time. Most arithmetic results' flags are never
 * read: the next instruction that touches the flags overwrites them all.
 * When an instruction that writes every arithmetic flag without reading
 * any (LF_WRITES: register operands, or reg op= memory) is decoded right
 * after straight-line code, the writers before it whose flags nothing can
 * see in between get their flag-free twin. "In between" may hold only
 * forms that do not read the flags (LF_NEUTRAL*), and rotates and shifts
 * by CL (LF_CFOF) and INC/DEC (LF_KEEPCF), which only add to them: their
 * flag-free twins too, the walk going on past them.
 *
 * A load or store in between (LF_NEUTRAL with a memory operand) can
 * fault, and a store can hit decoded code (the run loop stops after it):
 * both show the flags of the last writer before the access. The walk
 * passes one only when that writer is a register ALU operation whose
 * flags are a function of registers no instruction up to the access
 * writes (rebuildable): `xor %eax,%ebx` of %ebx, `add %esi,%ecx` of
 * (%ecx - %esi, %esi). Its flag-free twin then leaves FL_DEFER in lf.op
 * (units.h), and the access is marked LF_REBUILD: a fault there, or a stop
 * after it, finding lf.op FL_DEFER records the writer's flags from the
 * registers (lf_rebuild) before anything reads them. A memory form that
 * writes them all (reg op= memory) is such an access itself, and may be
 * such a writer: its twin keeps the value it loaded in lf.b (`add
 * 0x4c(%esp,%ebp,4),%edx` of %edx and that). INC/DEC before an access
 * gets the twin that leaves the record before it and or's
 * FL_INCDEC_DEFER into lf.op: CF is that record's, the rest is rebuilt
 * from its register (`add %esi,%edx; inc %ebp; mov 4(%esp),%esi`), the walk
 * stopping there. lf.op FL_DEFER (or FL_INCDEC_DEFER) tells that the run
 * came to the access straight from that writer: every flag writer with
 * flags overwrites it, and nothing jumps into a stretch with it set (a
 * branch ends a stretch after its last writer has recorded); a jump into
 * the stretch past the writer finds the flags recorded.
 *
 * The one observer left, an asynchronous stop (cpu_request_stop) that
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

#define REG_BIT(r) (1u << ((r) & 15))

/* The general registers a neutral form (LF_NEUTRAL*) writes, a bit each;
 * all of them for a form not known here. A load's destination is written
 * only once the load has not faulted. */
static uint32_t regs_written(const struct insn *j)
{
	const struct insn_cold *ic = insn_cold(j);
	insn_fn f = ic->fn;

	if (ic->osz == 1) /* AH..BH */
		return ~0u;
	if (f == op_mov_EvGv || f == op_mov_EvIz)
		return ic->mod == 3 ? REG_BIT(j->rm) : 0; /* a store writes none */
	if (f == op_mov_rIv || f == op_not_Ev || f == op_bswap_r)
		return REG_BIT(j->rm);
	if (f == op_cbw) /* CWDE/CDQE */
		return REG_BIT(R_AX);
	if (f == op_cwd) /* CDQ/CQO */
		return REG_BIT(R_DX);
	if (f == op_mov_GvEv || f == op_movzx_GvEb || f == op_movzx_GvEw || f == op_movsx_GvEb ||
	    f == op_movsx_GvEw || f == op_movsxd_GvEd || f == op_lea_GvM)
		return REG_BIT(j->reg);
	return ~0u;
}

/* Whether the flags of p, a register ALU operation, can be recorded from
 * the registers after it (lf_rebuild) when none in `written` changed since:
 * its destination (the result) and, for ADD/SUB/CMP/TEST, its register
 * source; ADD/SUB of a register to itself lost its operand. */
static bool rebuildable(const struct insn *p, uint32_t written)
{
	const struct insn_cold *ic = insn_cold(p);
	unsigned op, form, dst, src;
	uint32_t need;

	if ((ic->lf & LF_CLASS_MASK) != LF_WRITES || !(ic->lf & LF_TWIN_ALU) || ic->osz < 2 ||
	    !alu_fast_form(p, &op, &form) || (form > FORM_RI && form != FORM_RM))
		return false;
	if (form == FORM_RM) /* its twin keeps the value loaded in lf.b */
		return op != ALU_ADC && op != ALU_SBB && !(REG_BIT(p->reg) & written);
	dst = form == FORM_GR ? p->reg : p->rm;
	src = form == FORM_GR ? p->rm : p->reg;
	need = REG_BIT(dst);
	if (op != ALU_AND && op != ALU_OR && op != ALU_XOR && form != FORM_RI) {
		if ((op == ALU_ADD || op == ALU_SUB) && src == dst)
			return false;
		need |= REG_BIT(src);
	}
	return op != ALU_ADC && op != ALU_SBB && !(need & written);
}

/* j gets twin nf: the instructions after it up to the writer are stale,
 * the accesses in between rebuild its flags (marked first: a mark alone
 * changes nothing while lf.op holds a record). */
static void lf_twin(struct insn *j, insn_exec nf, const struct insn *writer, struct insn **accesses,
		    unsigned naccesses)
{
	for (struct insn *s = j + 1; s <= writer; s++)
		insn_cold(s)->lf |= LF_STALE;
	while (naccesses)
		insn_cold(accesses[--naccesses])->lf |= LF_REBUILD;
	j->exec = nf;
}

/* pool[n - 1] writes every flag (lf_decoded's gate). */
void lf_decoded_walk(struct insn *pool, uint32_t n)
{
	struct insn *writer = &pool[n - 1];
	/* the loads and stores passed since the last flag writer passed, and
	 * the registers written before the last of them (after that writer) */
	struct insn *accesses[LF_WALK_MAX + 1];
	unsigned naccesses = 0;
	uint32_t written = 0;

	/* reg op= memory (LF_WRITES with a memory operand: ALU and TEST) is
	 * an access too: a fault in its load shows the flags before it */
	if (insn_cold(writer)->mod != 3)
		accesses[naccesses++] = writer;
	for (uint32_t k = n - 1, steps = 0; k > 0 && steps < LF_WALK_MAX; steps++) {
		struct insn *j = &pool[--k];
		unsigned cls = insn_cold(j)->lf & LF_CLASS_MASK;
		insn_exec nf;

		if (!insn_cold(j)->seq) /* pool[k + 1] is not where j goes next */
			return;
		if (cls == LF_READS)
			return;
		if (cls == LF_NEUTRAL_NOFAULT || cls == LF_NEUTRAL) {
			if (naccesses)
				written |= regs_written(j);
			if (cls == LF_NEUTRAL && insn_cold(j)->mod != 3)
				accesses[naccesses++] = j;
			continue;
		}
		/* j writes flags: the accesses after it see its flags */
		if (naccesses && !rebuildable(j, written)) {
			/* INC/DEC (`add %esi,%edx; inc %ebp; mov 4(%esp),%esi`):
			 * its twin leaves the record before it (CF) and marks it
			 * FL_INCDEC_DEFER; the rest comes from its register */
			if (cls == LF_KEEPCF && insn_cold(j)->mod == 3 && !(REG_BIT(j->rm) & written) &&
			    (nf = alu_incdec_deferred(j)))
				lf_twin(j, nf, writer, accesses, naccesses);
			return;
		}
		/* a memory form that writes them all (reg op= memory) may get
		 * its twin too: should its load fault, nothing changed, and the
		 * flags before it are whole (rebuilt, should they be deferred) */
		nf = insn_cold(j)->mod == 3 || cls == LF_WRITES ? flag_free_twin(j) : NULL;
		if (!nf)
			return;
		lf_twin(j, nf, writer, accesses, naccesses);
		naccesses = 0;
		written = 0;
		if (cls == LF_WRITES)
			return; /* the ones before it were settled when it was decoded */
	}
}

/* INC/DEC p's flags over the record before it: CF from that, the rest
 * from its result in the register. */
static void incdec_rebuild(struct cpu *c, const struct insn *p)
{
	unsigned sz = insn_cold(p)->osz;
	bool inc = insn_fn_is_inc(insn_cold(p)->fn);
	uint64_t r = c->r[p->rm] & size_mask(sz);
	bool cf = flags_cf(c);

	c->lf.rf = (c->lf.rf & ~FL_CF) | (cf ? FL_CF : 0);
	flags_set(c, inc ? FL_INC : FL_DEC, sz, r, inc ? r - 1 : r + 1, 1);
}

void lf_rebuild(struct cpu *c, const struct insn *at)
{
	const struct insn *p = at;
	bool incdec = c->lf.op & FL_INCDEC_DEFER;
	unsigned op, form, dst;
	uint64_t mask, d, s;

	if (incdec) /* the record before it stands, should at be no access marked */
		c->lf.op &= ~FL_INCDEC_DEFER;
	else
		c->lf.op = FL_NONE; /* lf.rf's bits, should at be no access marked */
	if (!at || !(insn_cold(at)->lf & LF_REBUILD))
		return;
	/* the writer: the last flag writer before it, within the walk */
	for (unsigned steps = 0; steps < LF_WALK_MAX; steps++) {
		unsigned cls = insn_cold(--p)->lf & LF_CLASS_MASK;

		if (cls != LF_NEUTRAL && cls != LF_NEUTRAL_NOFAULT)
			break;
	}
	if (incdec) {
		if ((insn_cold(p)->lf & LF_CLASS_MASK) == LF_KEEPCF && alu_incdec_deferred(p))
			incdec_rebuild(c, p);
		return;
	}
	if (!rebuildable(p, 0))
		return;
	alu_fast_form(p, &op, &form);
	mask = size_mask(insn_cold(p)->osz);
	dst = form == FORM_GR || form == FORM_RM ? p->reg : p->rm;
	d = c->r[dst] & mask;
	/* reg op= memory: the twin kept the value it loaded in lf.b */
	s = (form == FORM_RI ? insn_imm(p) : form == FORM_RM ? c->lf.b : c->r[form == FORM_GR ? p->rm : p->reg]) & mask;
	/* as its form with the flags records them (units.h, UNIT_ALU_REG) */
	switch (op) {
	case ALU_ADD:
		flags_record(c, FL_ADD, insn_cold(p)->osz, d, (d - s) & mask, s);
		break;
	case ALU_SUB:
		flags_record(c, FL_SUB, insn_cold(p)->osz, d, (d + s) & mask, s);
		break;
	case ALU_CMP:
		flags_record(c, FL_SUB, insn_cold(p)->osz, (d - s) & mask, d, s);
		break;
	case ALU_TEST:
		flags_record(c, FL_LOGIC, insn_cold(p)->osz, d & s, 0, 0);
		break;
	default: /* AND, OR, XOR: the result */
		flags_record(c, FL_LOGIC, insn_cold(p)->osz, d, 0, 0);
		break;
	}
}
