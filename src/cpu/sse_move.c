/* SSE/SSE2 data movement: MOVAPS/MOVUPS/MOVDQA/MOVDQU and kin, MOVSS/MOVSD,
 * MOVLPS/MOVHPS/MOVLPD/MOVHPD/MOVHLPS/MOVLHPS, MOVD/MOVQ, the move-mask
 * instructions, LDMXCSR/STMXCSR, FXSAVE/FXRSTOR. */
#include "cpu/ops.h"

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

void op_movu_WxVx(struct cpu *c, const struct insn *i)
{
	xmm_rm_store(c, i, &c->xmm[i->reg], false);
}

/* Register forms merge into the low lane; loads from memory zero the rest. */
void op_movss_VxWx(struct cpu *c, const struct insn *i)
{
	cpu_xmm *d = &c->xmm[i->reg];

	if (i->mod == 3) {
		d->d[0] = c->xmm[i->rm].d[0];
	} else {
		uint32_t v = (uint32_t)mem_read(insn_ea(c, i), 4);

		memset(d, 0, sizeof(*d));
		d->d[0] = v;
	}
}

void op_movss_WxVx(struct cpu *c, const struct insn *i)
{
	if (i->mod == 3)
		c->xmm[i->rm].d[0] = c->xmm[i->reg].d[0];
	else
		mem_write(insn_ea(c, i), 4, c->xmm[i->reg].d[0]);
}

void op_movsd_VxWx(struct cpu *c, const struct insn *i)
{
	cpu_xmm *d = &c->xmm[i->reg];

	if (i->mod == 3) {
		d->q[0] = c->xmm[i->rm].q[0];
	} else {
		d->q[0] = mem_read(insn_ea(c, i), 8);
		d->q[1] = 0;
	}
}

void op_movsd_WxVx(struct cpu *c, const struct insn *i)
{
	if (i->mod == 3)
		c->xmm[i->rm].q[0] = c->xmm[i->reg].q[0];
	else
		mem_write(insn_ea(c, i), 8, c->xmm[i->reg].q[0]);
}

/* 0F 12: MOVLPS/MOVLPD xmm, m64; register form MOVHLPS. */
void op_movlps_VxMq(struct cpu *c, const struct insn *i)
{
	if (i->mod == 3)
		c->xmm[i->reg].q[0] = c->xmm[i->rm].q[1];
	else
		c->xmm[i->reg].q[0] = mem_read(insn_ea(c, i), 8);
}

void op_movlps_MqVx(struct cpu *c, const struct insn *i)
{
	if (i->mod == 3)
		op_ud(c, i);
	else
		mem_write(insn_ea(c, i), 8, c->xmm[i->reg].q[0]);
}

/* 0F 16: MOVHPS/MOVHPD xmm, m64; register form MOVLHPS (no 66 form). */
void op_movhps_VxMq(struct cpu *c, const struct insn *i)
{
	if (i->mod != 3)
		c->xmm[i->reg].q[1] = mem_read(insn_ea(c, i), 8);
	else if (i->pfx & PFX_OSZ)
		op_ud(c, i);
	else
		c->xmm[i->reg].q[1] = c->xmm[i->rm].q[0];
}

void op_movhps_MqVx(struct cpu *c, const struct insn *i)
{
	if (i->mod == 3)
		op_ud(c, i);
	else
		mem_write(insn_ea(c, i), 8, c->xmm[i->reg].q[1]);
}

/* 66 0F 6E / 7E: MOVD (MOVQ with REX.W) between XMM and r/m. */
void op_movd_VxEy(struct cpu *c, const struct insn *i)
{
	unsigned sz = i->rex & 8 ? 8 : 4;
	uint64_t v = rm_read(c, i, sz);

	memset(&c->xmm[i->reg], 0, sizeof(cpu_xmm));
	c->xmm[i->reg].q[0] = v;
}

void op_movd_EyVx(struct cpu *c, const struct insn *i)
{
	unsigned sz = i->rex & 8 ? 8 : 4;

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
	if (i->mod == 3) {
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

/* MXCSR bits 16..31 are reserved: setting one is #GP. */
#define MXCSR_MASK 0xffffu

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

/* FXSAVE area (SDM Vol. 1, 10.5.1): FCW 0, FSW 2, abridged FTW 4, FOP 6,
 * FIP 8, FDP 16, MXCSR 24, MXCSR_MASK 28, ST0..7 at 32 (16 bytes each,
 * in stack order), XMM0..15 at 160 (XMM8..15 only in 64-bit mode). */
static uint16_t x87_fsw(const struct cpu *c)
{
	return (uint16_t)((c->x87.fsw & ~0x3800) | (c->x87.top & 7) << 11);
}

void op_fxsave_M(struct cpu *c, const struct insn *i)
{
	uint64_t ea = insn_ea(c, i);
	uint8_t area[512] = { 0 };
	uint8_t ftw = 0;
	unsigned nxmm = c->mode == CPU_MODE_64 ? 16 : 8;

	if (ea & 15) {
		cpu_raise_addr(c, VEC_GP, ea);
		return;
	}
	for (int r = 0; r < 8; r++)
		if (((c->x87.ftw_tags >> (2 * r)) & 3) != 3)
			ftw |= (uint8_t)(1u << r);
	memcpy(area + 0, &c->x87.fcw, 2);
	{
		uint16_t fsw = x87_fsw(c);
		memcpy(area + 2, &fsw, 2);
	}
	area[4] = ftw;
	memcpy(area + 6, &c->x87.fop, 2);
	memcpy(area + 8, &c->x87.fip, 8);
	memcpy(area + 16, &c->x87.fdp, 8);
	memcpy(area + 24, &c->mxcsr, 4);
	{
		uint32_t mask = MXCSR_MASK;
		memcpy(area + 28, &mask, 4);
	}
	for (int k = 0; k < 8; k++)
		memcpy(area + 32 + 16 * k, &c->x87.st[(c->x87.top + k) & 7], 10);
	memcpy(area + 160, c->xmm, 16 * nxmm);
	memcpy(g2h(ea), area, 512);
}

void op_fxrstor_M(struct cpu *c, const struct insn *i)
{
	uint64_t ea = insn_ea(c, i);
	uint8_t area[512];
	uint16_t fsw, tags = 0;
	uint32_t mxcsr;
	unsigned nxmm = c->mode == CPU_MODE_64 ? 16 : 8;

	if (ea & 15) {
		cpu_raise_addr(c, VEC_GP, ea);
		return;
	}
	memcpy(area, g2h(ea), 512);
	memcpy(&mxcsr, area + 24, 4);
	if (mxcsr & ~MXCSR_MASK) {
		cpu_raise(c, VEC_GP);
		return;
	}
	c->mxcsr = mxcsr;
	memcpy(&c->x87.fcw, area, 2);
	memcpy(&fsw, area + 2, 2);
	c->x87.top = (fsw >> 11) & 7;
	c->x87.fsw = fsw & ~0x3800;
	for (int r = 0; r < 8; r++)
		tags |= (uint16_t)((area[4] >> r & 1 ? 0 : 3) << (2 * r)); /* valid or empty */
	c->x87.ftw_tags = tags;
	memcpy(&c->x87.fop, area + 6, 2);
	memcpy(&c->x87.fip, area + 8, 8);
	memcpy(&c->x87.fdp, area + 16, 8);
	for (int k = 0; k < 8; k++) {
		long double *st = &c->x87.st[(c->x87.top + k) & 7];

		memset(st, 0, sizeof(*st));
		memcpy(st, area + 32 + 16 * k, 10);
	}
	memcpy(c->xmm, area + 160, 16 * nxmm);
}
