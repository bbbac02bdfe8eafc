/* x87 control instructions simple enough to do in C: FNINIT, FNCLEX,
 * FNSTCW, FNSTSW, FWAIT. Everything else runs on the host FPU
 * (x87_host.c). */
#include "cpu/ops.h"
#include "cpu/x87.h"

static uint16_t fsw_with_top(const struct cpu *c)
{
	return (uint16_t)((c->x87.fsw & ~0x3800) | (c->x87.top & 7) << 11);
}

void op_fninit(struct cpu *c, const struct insn *i)
{
	c->x87.fcw = 0x37f;
	c->x87.fsw = 0;
	c->x87.top = 0;
	c->x87.ftw_tags = 0xffff;
	c->x87.fop = 0;
	c->x87.fip = c->x87.fdp = 0;
	c->x87.fcs = c->x87.fds = 0;
}

void op_fnclex(struct cpu *c, const struct insn *i)
{
	c->x87.fsw &= 0x7f00; /* exception flags, ES, B cleared */
}

void op_fnstcw_Mw(struct cpu *c, const struct insn *i)
{
	mem_write(insn_ea(c, i), 2, c->x87.fcw);
}

void op_fnstsw_Mw(struct cpu *c, const struct insn *i)
{
	mem_write(insn_ea(c, i), 2, fsw_with_top(c));
}

void op_fnstsw_AX(struct cpu *c, const struct insn *i)
{
	reg_set(c, R_AX, 2, fsw_with_top(c));
}

/* Pending unmasked x87 exceptions would be reported here (#MF). */
void op_fwait(struct cpu *c, const struct insn *i)
{
	if (x87_pending(c))
		cpu_raise(c, VEC_MF);
}
