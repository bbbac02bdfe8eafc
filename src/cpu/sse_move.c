/* SSE/SSE2 data movement: MOVAPS/MOVUPS/MOVDQA/MOVDQU and kin, MOVSS/MOVSD,
 * MOVLPS/MOVHPS/MOVLPD/MOVHPD/MOVHLPS/MOVLHPS, MOVD/MOVQ, the move-mask
 * instructions, LDMXCSR/STMXCSR. */
#include "cpu/cache.h"
#include "cpu/ops.h"
#include "cpu/x87.h"
#include "optable_exec.h"

void op_mova_VxWx(struct cpu *c, const struct insn *i)
{
	cpu_xmm v;

	if (xmm_rm_load(c, i, &v, true))
		c->xmm[i->reg] = v;
}

void op_mova_WxVx(struct cpu *c, const struct insn *i)
{
	xmm_rm_store(c, i, &c->xmm[i->reg], true);
}

void op_movu_VxWx(struct cpu *c, const struct insn *i)
{
	cpu_xmm v;

	if (xmm_rm_load(c, i, &v, false))
		c->xmm[i->reg] = v;
}

/* One 16-byte store (mem_write16: a store crossing into an unmapped page
 * writes nothing). */
void op_movu_WxVx(struct cpu *c, const struct insn *i)
{
	if (insn_cold(i)->mod == 3) {
		c->xmm[i->rm] = c->xmm[i->reg];
		return;
	}
	mem_write16(insn_ea(c, i), &c->xmm[i->reg]);
}

/* Register forms merge into the low lane; loads from memory zero the rest. */
void op_movss_VxWx(struct cpu *c, const struct insn *i)
{
	cpu_xmm *d = &c->xmm[i->reg];

	if (insn_cold(i)->mod == 3) {
		d->d[0] = c->xmm[i->rm].d[0];
	} else {
		uint32_t v = (uint32_t)mem_read(insn_ea(c, i), 4);

		memset(d, 0, sizeof(*d));
		d->d[0] = v;
	}
}

void op_movss_WxVx(struct cpu *c, const struct insn *i)
{
	if (insn_cold(i)->mod == 3)
		c->xmm[i->rm].d[0] = c->xmm[i->reg].d[0];
	else
		mem_write(insn_ea(c, i), 4, c->xmm[i->reg].d[0]);
}

void op_movsd_VxWx(struct cpu *c, const struct insn *i)
{
	cpu_xmm *d = &c->xmm[i->reg];

	if (insn_cold(i)->mod == 3) {
		d->q[0] = c->xmm[i->rm].q[0];
	} else {
		d->q[0] = mem_read(insn_ea(c, i), 8);
		d->q[1] = 0;
	}
}

void op_movsd_WxVx(struct cpu *c, const struct insn *i)
{
	if (insn_cold(i)->mod == 3)
		c->xmm[i->rm].q[0] = c->xmm[i->reg].q[0];
	else
		mem_write(insn_ea(c, i), 8, c->xmm[i->reg].q[0]);
}

/* 0F 12: MOVLPS/MOVLPD xmm, m64; register form MOVHLPS. */
void op_movlps_VxMq(struct cpu *c, const struct insn *i)
{
	if (insn_cold(i)->mod == 3)
		c->xmm[i->reg].q[0] = c->xmm[i->rm].q[1];
	else
		c->xmm[i->reg].q[0] = mem_read(insn_ea(c, i), 8);
}

void op_movlps_MqVx(struct cpu *c, const struct insn *i)
{
	if (insn_cold(i)->mod == 3)
		op_ud(c, i);
	else
		mem_write(insn_ea(c, i), 8, c->xmm[i->reg].q[0]);
}

/* 0F 16: MOVHPS/MOVHPD xmm, m64; register form MOVLHPS (no 66 form). */
void op_movhps_VxMq(struct cpu *c, const struct insn *i)
{
	if (insn_cold(i)->mod != 3)
		c->xmm[i->reg].q[1] = mem_read(insn_ea(c, i), 8);
	else if (insn_cold(i)->pfx & PFX_OSZ)
		op_ud(c, i);
	else
		c->xmm[i->reg].q[1] = c->xmm[i->rm].q[0];
}

void op_movhps_MqVx(struct cpu *c, const struct insn *i)
{
	if (insn_cold(i)->mod == 3)
		op_ud(c, i);
	else
		mem_write(insn_ea(c, i), 8, c->xmm[i->reg].q[1]);
}

/* 66 0F 6E / 7E: MOVD (MOVQ with REX.W) between XMM and r/m. */
void op_movd_VxEy(struct cpu *c, const struct insn *i)
{
	unsigned sz = insn_cold(i)->rex & 8 ? 8 : 4;
	uint64_t v = rm_read(c, i, sz);

	memset(&c->xmm[i->reg], 0, sizeof(cpu_xmm));
	c->xmm[i->reg].q[0] = v;
}

void op_movd_EyVx(struct cpu *c, const struct insn *i)
{
	unsigned sz = insn_cold(i)->rex & 8 ? 8 : 4;

	rm_write(c, i, sz, c->xmm[i->reg].q[0] & size_mask(sz));
}

/* F3 0F 7E: MOVQ xmm, xmm/m64 (zeroes the high lane). */
void op_movq_VxWq(struct cpu *c, const struct insn *i)
{
	uint64_t v = xmm_rm_read64(c, i);

	c->xmm[i->reg].q[0] = v;
	c->xmm[i->reg].q[1] = 0;
}

/* 66 0F D6: MOVQ xmm/m64, xmm. */
void op_movq_WqVx(struct cpu *c, const struct insn *i)
{
	if (insn_cold(i)->mod == 3) {
		c->xmm[i->rm].q[0] = c->xmm[i->reg].q[0];
		c->xmm[i->rm].q[1] = 0;
	} else {
		mem_write(insn_ea(c, i), 8, c->xmm[i->reg].q[0]);
	}
}

void op_movmskps_GdUx(struct cpu *c, const struct insn *i)
{
	const cpu_xmm *s = &c->xmm[i->rm];
	uint64_t m = 0;

	for (int k = 0; k < 4; k++)
		m |= (uint64_t)(s->d[k] >> 31) << k;
	reg_set(c, i->reg, 8, m);
}

void op_movmskpd_GdUx(struct cpu *c, const struct insn *i)
{
	const cpu_xmm *s = &c->xmm[i->rm];

	reg_set(c, i->reg, 8, (s->q[0] >> 63) | (s->q[1] >> 63) << 1);
}

void op_pmovmskb_GdUx(struct cpu *c, const struct insn *i)
{
	const cpu_xmm *s = &c->xmm[i->rm];
	uint64_t m = 0;

	for (int k = 0; k < 16; k++)
		m |= (uint64_t)(s->b[k] >> 7) << k;
	reg_set(c, i->reg, 8, m);
}

/* MXCSR bits 16..31 are reserved: setting one is #GP (MXCSR_MASK). */

void op_ldmxcsr_Md(struct cpu *c, const struct insn *i)
{
	uint32_t v = (uint32_t)mem_read(insn_ea(c, i), 4);

	if (v & ~MXCSR_MASK) {
		cpu_raise(c, VEC_GP);
		return;
	}
	c->mxcsr = v;
}

void op_stmxcsr_Md(struct cpu *c, const struct insn *i)
{
	mem_write(insn_ea(c, i), 4, c->mxcsr);
}

/* CLFLUSH (and 66 CLFLUSH, which CPUs without CLFLUSHOPT run as CLFLUSH):
 * nothing to flush here, but the address is checked as by a load. */
void op_clflush_M(struct cpu *c, const struct insn *i)
{
	(void)mem_read(insn_ea(c, i), 1);
}

/* The exec forms with the handlers inlined (EXEC rows of handler_props.def). */
SG_EXEC_FORMS_sse_move
