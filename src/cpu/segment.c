/* Segment registers in a flat user address space: MOV Sreg, PUSH/POP
 * Sreg, and selector loading. The GDT a 64-bit kernel gives user mode has
 * user32 CS 0x23, user DS 0x2b, user64 CS 0x33, and the three TLS entries
 * 12..14 that set_thread_area fills (cpu->tls). */
#define _GNU_SOURCE /* sched_getcpu */
#include <sched.h>
#include <string.h>
#include "cpu/cache.h"
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
	if (c->mode != CPU_MODE_64 || seg == SEG_FS || seg == SEG_GS) {
		if (seg != SEG_FS && seg != SEG_GS && base != 0 && c->base[seg] == 0)
			cpu_drop_flat_code(c); /* decoded as flat (insn.flat) */
		c->base[seg] = base;
	}
	return 0;
}

void cpu_set_seg_base(struct cpu *c, enum cpu_seg seg, uint64_t base)
{
	if (seg != SEG_FS && seg != SEG_GS)
		return; /* in 64-bit mode only FS and GS have bases */
	c->sel[seg] = 0;
	c->base[seg] = base;
}

void cpu_set_tls_entry(struct cpu *c, unsigned n, const struct cpu_tls_desc *d)
{
	static const enum cpu_seg data_segs[] = { SEG_DS, SEG_ES, SEG_FS, SEG_GS };
	uint16_t sel = (uint16_t)((CPU_GDT_TLS_MIN + n) << 3 | 3);

	if (n >= CPU_GDT_TLS_COUNT)
		return;
	if (d->present)
		c->tls[n] = *d;
	else
		memset(&c->tls[n], 0, sizeof(c->tls[n]));
	for (unsigned i = 0; i < sizeof(data_segs) / sizeof(data_segs[0]); i++)
		if (c->sel[data_segs[i]] == sel && cpu_load_segment(c, data_segs[i], sel))
			cpu_load_segment(c, data_segs[i], 0);
}

/* 06/0E/16/1E push ES/CS/SS/DS; 0F A0/A8 push FS/GS (and the pops). */
static unsigned opcode_seg(const struct insn *i)
{
	return insn_cold(i)->op < 0x20 ? (unsigned)(insn_cold(i)->op >> 3) : (unsigned)(SEG_FS + ((insn_cold(i)->op >> 3) & 1));
}

/* PUSH Sreg: the SDM allows a 16-bit write for 32-bit pushes. sysgate
 * does what Intel does (its CPUID's vendor): 16 bits in 32-bit mode (AMD
 * zero-extends: docs/cpu.md, vendor differences), the whole zero-extended
 * slot in 64-bit mode. */
void op_push_sreg(struct cpu *c, const struct insn *i)
{
	uint64_t sp = c->r[R_SP] - insn_cold(i)->osz;

	if (c->mode == CPU_MODE_64) {
		push(c, insn_cold(i)->osz, c->sel[opcode_seg(i)]);
		return;
	}
	mem_write(stack_addr(c, sp), 2, c->sel[opcode_seg(i)]);
	reg_set(c, R_SP, 4, sp);
}

void op_pop_sreg(struct cpu *c, const struct insn *i)
{
	uint64_t sp = c->r[R_SP];
	uint16_t sel = (uint16_t)pop(c, insn_cold(i)->osz);

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
	if (insn_cold(i)->mod == 3)
		reg_set(c, i->rm, insn_cold(i)->osz == 2 ? 2 : insn_cold(i)->osz, c->sel[s]);
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
	const struct insn_cold *ic = insn_cold(i);
	unsigned seg = ic->op == 0xc4 ? SEG_ES : ic->op == 0xc5 ? SEG_DS :
		       ic->op == 0xb2 ? SEG_SS : ic->op == 0xb4 ? SEG_FS : SEG_GS;
	uint64_t ea = insn_ea(c, i);
	uint64_t off = mem_read(ea, ic->osz);
	uint16_t sel = (uint16_t)mem_read(ea + ic->osz, 2);

	if (cpu_load_segment(c, seg, sel) < 0) {
		cpu_raise(c, VEC_GP);
		return;
	}
	greg_set(c, i, ic->osz, off);
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

/* The access-rights dword (LAR: bits 8..23 of the descriptor's high half)
 * and byte limit of the descriptors ring 3 can see in Linux's GDT (values
 * as LAR/LSL read them on this host); false for anything else (ZF = 0). */
static bool descriptor(const struct cpu *c, uint16_t sel, uint32_t *ar, uint32_t *limit)
{
	unsigned idx = sel >> 3;

	if (sel & 4)
		return false; /* no LDT */
	*limit = 0xffffffffu;
	switch (idx) {
	case GDT_USER32_CS: *ar = 0x00cffb00; return true;
	case GDT_USER_DS: *ar = 0x00cff300; return true;
	case GDT_USER_CS: *ar = 0x00affb00; return true;
	case GDT_CPUNODE: {
		int cpu = sched_getcpu();

		*ar = 0x0040f500;
		*limit = cpu < 0 ? 0 : (uint32_t)cpu; /* node 0 << 12 | cpu */
		return true;
	}
	}
	if (idx >= CPU_GDT_TLS_MIN && idx < CPU_GDT_TLS_MIN + CPU_GDT_TLS_COUNT) {
		const struct cpu_tls_desc *d = &c->tls[idx - CPU_GDT_TLS_MIN];
		/* struct user_desc: seg_32bit, contents:2, read_exec_only,
		 * limit_in_pages, seg_not_present, useable, lm */
		unsigned f = d->flags, type = ((f >> 1 & 3) << 2) | ((~f >> 3 & 1) << 1) | 1;
		unsigned flags4 = (f >> 4 & 1) << 3 | (f & 1) << 2 | (f >> 7 & 1) << 1 | (f >> 6 & 1);

		if (!d->present)
			return false;
		unsigned access = (f >> 5 & 1 ? 0u : 0x80u) | 0x70u | type; /* P DPL3 S type */

		*ar = flags4 << 20 | (d->limit >> 16 & 0xf) << 16 | access << 8;
		*limit = f >> 4 & 1 ? (d->limit & 0xfffff) << 12 | 0xfff : d->limit & 0xfffff;
		return true;
	}
	return false;
}

/* LAR/LSL Gv, Ew (0F 02/03): ZF and, when valid, the destination. */
static void lar_lsl(struct cpu *c, const struct insn *i, bool lsl)
{
	uint32_t ar, limit;
	bool ok = descriptor(c, (uint16_t)rm_read(c, i, 2), &ar, &limit);

	if (ok)
		greg_set(c, i, insn_cold(i)->osz == 2 ? 2 : 4, lsl ? limit : ar);
	flags_put(c, FL_ZF, ok ? FL_ZF : 0);
}

void op_lar_GvEw(struct cpu *c, const struct insn *i) { lar_lsl(c, i, false); }
void op_lsl_GvEw(struct cpu *c, const struct insn *i) { lar_lsl(c, i, true); }

/* 0F 00: VERR/VERW (/4, /5) run in ring 3: ZF = 1 when the selector names
 * a descriptor ring 3 may read (data, or readable code) / write (writable
 * data); every one Linux gives ring 3 has DPL 3, so RPL never fails the
 * test. SLDT/STR (UMIP) and LLDT/LTR (privileged): #GP. */
void op_grp6_Ew(struct cpu *c, const struct insn *i)
{
	unsigned sub = (insn_cold(i)->modrm >> 3) & 7;
	uint32_t ar, limit;
	bool ok;

	if (sub != 4 && sub != 5) {
		op_gp(c, i);
		return;
	}
	ok = descriptor(c, (uint16_t)rm_read(c, i, 2), &ar, &limit);
	if (ok) {
		bool code = ar & 0x800, rw = ar & 0x200;

		ok = sub == 4 ? (!code || rw) : (!code && rw);
	}
	flags_put(c, FL_ZF, ok ? FL_ZF : 0);
}
