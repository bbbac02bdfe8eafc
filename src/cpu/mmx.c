/* MMX state and stores that the host-executed rows do not cover: EMMS,
 * MOVQ mm/m64, mm, MOVNTQ, and the byte-masked stores MASKMOVQ and
 * MASKMOVDQU (to DS:rDI, address-size wide). */
#include "cpu/ops.h"
#include "cpu/x87.h"

static bool mmx_start(struct cpu *c)
{
	if (x87_pending(c)) {
		cpu_raise(c, VEC_MF);
		return false;
	}
	return true;
}

void op_emms(struct cpu *c, const struct insn *i)
{
	if (mmx_start(c))
{
		c->x87.top = 0;
		c->x87.ftw_tags = 0xffff;
	}
}

/* 0F 7F: MOVQ mm/m64, mm; 0F E7: MOVNTQ m64, mm (memory only). */
void op_movq_QqPq(struct cpu *c, const struct insn *i)
{
	uint64_t v;

	if (insn_cold(i)->op == 0xe7 && insn_cold(i)->mod == 3) {
		op_ud(c, i);
		return;
	}
	if (!mmx_start(c))
		return;
	v = mmx_get(c, i->reg);
	if (insn_cold(i)->mod == 3)
		mmx_set(c, i->rm, v);
	else
		mem_write(insn_ea(c, i), 8, v);
	mmx_enter(c);
}

/* The hardware accesses the destination in 8-byte chunks, the high one
 * first (MASKMOVDQU), whatever the mask (so a fault names the chunk, or its
 * first byte on an unmapped page), then stores the selected bytes; as
 * measured on this host by the difftest. A chunk's offset from rDI wraps
 * at the address size (67 with DI = 0xfffd: the high chunk at DS:0005,
 * as the Xeon faults there). */
static void masked_store(struct cpu *c, const struct insn *i, const uint8_t *data,
			 const uint8_t *mask, unsigned n)
{
	unsigned asz = insn_cold(i)->asz;
	uint64_t omask = asz == 8 ? ~0ull : asz == 4 ? 0xffffffffull : 0xffffull, probe;

	for (int chunk = (int)n / 8 - 1; chunk >= 0; chunk--) {
		uint64_t base = ((c->r[R_DI] + 8 * (unsigned)chunk) & omask) + c->base[insn_seg(i)];

		if (c->mode == CPU_MODE_32)
			base = (uint32_t)base;
		probe = mem_read(base, 8); /* faults like the hardware's access */
		__asm__ volatile("" : : "r"(probe)); /* and is not optimised away */
		for (unsigned k = 0; k < 8; k++) {
			uint64_t b = c->mode == CPU_MODE_32 ? (uint32_t)(base + k) : base + k;

			if (mask[8 * chunk + k] & 0x80)
				mem_write(b, 1, data[8 * chunk + k]);
		}
	}
}

void op_maskmovq(struct cpu *c, const struct insn *i)
{
	uint64_t d, m;

	if (insn_cold(i)->mod != 3) {
		op_ud(c, i);
		return;
	}
	if (!mmx_start(c))
		return;
	d = mmx_get(c, i->reg);
	m = mmx_get(c, i->rm);
	masked_store(c, i, (const uint8_t *)&d, (const uint8_t *)&m, 8);
	mmx_enter(c);
}

void op_maskmovdqu(struct cpu *c, const struct insn *i)
{
	if (insn_cold(i)->mod != 3) {
		op_ud(c, i);
		return;
	}
	masked_store(c, i, c->xmm[i->reg].b, c->xmm[i->rm].b, 16);
}
