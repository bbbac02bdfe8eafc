/* Segment registers in a flat user address space: MOV Sreg, PUSH/POP
 * Sreg, and selector loading. The GDT a 64-bit kernel gives user mode has
 * user32 CS 0x23, user DS 0x2b, user64 CS 0x33, and the three TLS entries
 * 12..14 that set_thread_area fills (cpu->tls). */
#include "cpu/ops.h"

#define GDT_USER32_CS 4
#define GDT_USER_DS 5
#define GDT_USER_CS 6
#define GDT_CPUNODE 15 /* DPL 3 read-only data; its limit encodes the CPU */

int cpu_load_segment(struct cpu *c, enum cpu_seg seg, uint16_t sel)
{
	unsigned idx = sel >> 3;
	uint64_t base = 0;

	if (seg == SEG_CS)
		return -1; /* only far transfers load CS */
	if (idx == 0 && !(sel & 4)) {
		/* null selector: fine except for SS (at CPL 3, in every mode) */
		if (seg == SEG_SS)
			return -1;
	} else if (sel & 4) {
		return -1; /* no LDT */
	} else if (seg == SEG_SS && (sel & 3) != 3) {
		return -1; /* SS: RPL must be the CPL; data loads take any RPL <= DPL 3 */
	} else if (idx >= CPU_GDT_TLS_MIN && idx < CPU_GDT_TLS_MIN + CPU_GDT_TLS_COUNT) {
		const struct cpu_tls_desc *d = &c->tls[idx - CPU_GDT_TLS_MIN];

		if (!d->present)
			return -1;
		base = d->base;
	} else if (idx == GDT_USER_DS || (idx == GDT_CPUNODE && seg != SEG_SS)) {
		base = 0;
	} else if (idx == GDT_USER32_CS || idx == GDT_USER_CS) {
		if (seg == SEG_SS)
			return -1; /* code segments are not writable */
	} else {
		return -1;
	}
	c->sel[seg] = sel;
	/* In 64-bit mode only FS and GS have bases. */
	if (c->mode != CPU_MODE_64 || seg == SEG_FS || seg == SEG_GS)
		c->base[seg] = base;
	return 0;
}

/* 06/0E/16/1E push ES/CS/SS/DS; 0F A0/A8 push FS/GS (and the pops). */
static unsigned opcode_seg(const struct insn *i)
{
	return i->op < 0x20 ? (unsigned)(i->op >> 3) : (unsigned)(SEG_FS + ((i->op >> 3) & 1));
}

/* PUSH Sreg: the SDM allows a 16-bit write for 32-bit pushes. The
 * difftest host writes 16 bits in 32-bit mode and the whole zero-extended
 * slot in 64-bit mode. */
void op_push_sreg(struct cpu *c, const struct insn *i)
{
	uint64_t sp = c->r[R_SP] - i->osz;

	if (c->mode == CPU_MODE_64) {
		push(c, i->osz, c->sel[opcode_seg(i)]);
		return;
	}
	mem_write(stack_addr(c, sp), 2, c->sel[opcode_seg(i)]);
	reg_set(c, R_SP, 4, sp);
}

void op_pop_sreg(struct cpu *c, const struct insn *i)
{
	uint64_t sp = c->r[R_SP];
	uint16_t sel = (uint16_t)pop(c, i->osz);

	if (cpu_load_segment(c, opcode_seg(i), sel) < 0) {
		c->r[R_SP] = sp;
		cpu_raise(c, VEC_GP);
	}
}

/* 8C: a register destination gets the zero-extended selector; memory 16 bits. */
void op_mov_EvSw(struct cpu *c, const struct insn *i)
{
	unsigned s = i->reg & 7;

	if (s >= SEG_COUNT) {
		op_ud(c, i);
		return;
	}
	if (i->mod == 3)
		reg_set(c, i->rm, i->osz == 2 ? 2 : i->osz, c->sel[s]);
	else
		mem_write(insn_ea(c, i), 2, c->sel[s]);
}

void op_mov_SwEw(struct cpu *c, const struct insn *i)
{
	unsigned s = i->reg & 7;

	if (s >= SEG_COUNT || s == SEG_CS) {
		op_ud(c, i);
		return;
	}
	if (cpu_load_segment(c, s, (uint16_t)rm_read(c, i, 2)) < 0)
		cpu_raise(c, VEC_GP);
}

/* LES LDS (C4/C5 outside 64-bit mode), LSS LFS LGS (0F B2/B4/B5): offset
 * then selector from memory (m16:16/32/64). */
void op_lxs_GvMp(struct cpu *c, const struct insn *i)
{
	unsigned seg = i->op == 0xc4 ? SEG_ES : i->op == 0xc5 ? SEG_DS :
		       i->op == 0xb2 ? SEG_SS : i->op == 0xb4 ? SEG_FS : SEG_GS;
	uint64_t ea = insn_ea(c, i);
	uint64_t off = mem_read(ea, i->osz);
	uint16_t sel = (uint16_t)mem_read(ea + i->osz, 2);

	if (cpu_load_segment(c, seg, sel) < 0) {
		cpu_raise(c, VEC_GP);
		return;
	}
	greg_set(c, i, i->osz, off);
}

/* ARPL Ew, Gw: raise the destination selector's RPL to the source's. */
void op_arpl_EwGw(struct cpu *c, const struct insn *i)
{
	uint64_t ea = 0;
	uint16_t d = (uint16_t)rmw_load(c, i, 2, &ea), s = (uint16_t)greg_get(c, i, 2);

	if ((d & 3) < (s & 3)) {
		rmw_store(c, i, 2, ea, (d & ~3u) | (s & 3u));
		flags_put(c, FL_ZF, FL_ZF);
	} else {
		flags_put(c, FL_ZF, 0);
	}
}
