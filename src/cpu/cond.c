/* Conditional instructions: Jcc, SETcc, CMOVcc, LOOP/LOOPE/LOOPNE, JrCXZ.
 * The condition is the low nibble of the opcode (70+cc, 0F 80+cc, ...). */
#include "cpu/ops.h"

void op_jcc_Jb(struct cpu *c, const struct insn *i)
{
	if (flags_cond(c, i->op & 15))
		jump_to(c, i, c->rip + i->imm);
}

void op_setcc_Eb(struct cpu *c, const struct insn *i)
{
	rm_write(c, i, 1, flags_cond(c, i->op & 15));
}

/* The source is read (and may fault) whatever the condition; a 32-bit
 * destination is zero-extended even when nothing moves. */
void op_cmovcc_GvEv(struct cpu *c, const struct insn *i)
{
	uint64_t v = rm_read(c, i, i->osz);

	if (!flags_cond(c, i->op & 15))
		v = greg_get(c, i, i->osz);
	greg_set(c, i, i->osz, v);
}

/* E0 LOOPNE, E1 LOOPE, E2 LOOP; the counter width is the address size. */
void op_loop_Jb(struct cpu *c, const struct insn *i)
{
	uint64_t n = reg_get(c, R_CX, i->asz) - 1;
	bool go;

	reg_set(c, R_CX, i->asz, n);
	n &= size_mask(i->asz);
	go = n != 0;
	if (i->op == 0xe0)
		go = go && !(flags_get(c) & FL_ZF);
	else if (i->op == 0xe1)
		go = go && (flags_get(c) & FL_ZF);
	if (go)
		jump_to(c, i, c->rip + i->imm);
}

void op_jcxz_Jb(struct cpu *c, const struct insn *i)
{
	if (reg_get(c, R_CX, i->asz) == 0)
		jump_to(c, i, c->rip + i->imm);
}
