/* Register marshalling for g/G/p/P, in the order of tdesc.c's target
 * descriptions: general registers, rip, eflags, cs ss ds es fs gs, st0-7
 * (the x87 stack in logical order: st(i) is physical register top+i),
 * fctrl fstat ftag fiseg fioff foseg fooff fop, xmm0-15 (0-7 for i386),
 * mxcsr, orig_rax, fs_base, gs_base (not for i386), then with AVX in
 * XCR0 ymm0h-15h (0-7 for i386: bits 255:128 of the YMM registers).
 * Little-endian, as on the target. */
#include <string.h>

#include "core/process.h"
#include "gdb/gdb.h"

enum reg_class { RC_GPR, RC_RIP, RC_FLAGS, RC_SEG, RC_ST, RC_X87CTL, RC_XMM,
		 RC_MXCSR, RC_ORIG, RC_FSBASE, RC_GSBASE, RC_YMMH };

struct reg_slot {
	enum reg_class cls;
	unsigned idx;
	unsigned size;
};

/* gdb's 64-bit order of the general registers, as encoding numbers. */
static const unsigned gpr64_order[16] = {
	R_AX, R_BX, R_CX, R_DX, R_SI, R_DI, R_BP, R_SP,
	R_R8, R_R9, R_R10, R_R11, R_R12, R_R13, R_R14, R_R15,
};
static const enum cpu_seg seg_order[6] = { SEG_CS, SEG_SS, SEG_DS, SEG_ES, SEG_FS, SEG_GS };

static bool wide(enum sg_abi abi)
{
	return abi != SG_ABI_I386;
}

static bool avx(void)
{
	return (CPU_XCR0 & CPU_XSTATE_AVX) != 0;
}

unsigned regs_count(enum sg_abi abi)
{
	/* i386: no fs_base/gs_base (tdesc.c), 8 YMM registers */
	unsigned base = wide(abi) ? 60 : 42;

	return avx() ? base + (wide(abi) ? 16 : 8) : base;
}

static bool slot_of(enum sg_abi abi, unsigned n, struct reg_slot *s)
{
	unsigned ngpr = wide(abi) ? 16 : 8, w = wide(abi) ? 8 : 4;

	if (n < ngpr) {
		*s = (struct reg_slot){ RC_GPR, wide(abi) ? gpr64_order[n] : n, w };
		return true;
	}
	n -= ngpr;
	if (n == 0) {
		*s = (struct reg_slot){ RC_RIP, 0, w };
		return true;
	}
	if (n == 1) {
		*s = (struct reg_slot){ RC_FLAGS, 0, 4 };
		return true;
	}
	n -= 2;
	if (n < 6) {
		*s = (struct reg_slot){ RC_SEG, seg_order[n], 4 };
		return true;
	}
	n -= 6;
	if (n < 8) {
		*s = (struct reg_slot){ RC_ST, n, 10 };
		return true;
	}
	n -= 8;
	if (n < 8) {
		*s = (struct reg_slot){ RC_X87CTL, n, 4 };
		return true;
	}
	n -= 8;
	if (n < ngpr) { /* as many XMM registers as general ones */
		*s = (struct reg_slot){ RC_XMM, n, 16 };
		return true;
	}
	n -= ngpr;
	switch (n) {
	case 0: *s = (struct reg_slot){ RC_MXCSR, 0, 4 }; return true;
	case 1: *s = (struct reg_slot){ RC_ORIG, 0, w }; return true;
	}
	n -= 2;
	if (wide(abi)) {
		switch (n) {
		case 0: *s = (struct reg_slot){ RC_FSBASE, 0, w }; return true;
		case 1: *s = (struct reg_slot){ RC_GSBASE, 0, w }; return true;
		}
		n -= 2;
	}
	if (avx() && n < ngpr) {
		*s = (struct reg_slot){ RC_YMMH, n, 16 };
		return true;
	}
	return false;
}

size_t regs_size(enum sg_abi abi)
{
	size_t total = 0;
	struct reg_slot s;

	for (unsigned n = 0; slot_of(abi, n, &s); n++)
		total += s.size;
	return total;
}

static uint32_t x87_ctl_read(const struct cpu_x87 *x, unsigned i)
{
	switch (i) {
	case 0: return x->fcw;
	case 1: return (uint32_t)((x->fsw & ~0x3800) | (x->top & 7) << 11);
	case 2: return x->ftw_tags;
	case 3: return x->fcs;
	case 4: return (uint32_t)x->fip;
	case 5: return x->fds;
	case 6: return (uint32_t)x->fdp;
	default: return x->fop;
	}
}

static void x87_ctl_write(struct cpu_x87 *x, unsigned i, uint32_t v)
{
	switch (i) {
	case 0: x->fcw = (uint16_t)v; break;
	case 1: x->fsw = (uint16_t)(v & ~0x3800); x->top = (v >> 11) & 7; break;
	case 2: x->ftw_tags = (uint16_t)v; break;
	case 3: x->fcs = (uint16_t)v; break;
	case 4: x->fip = v; break;
	case 5: x->fds = (uint16_t)v; break;
	case 6: x->fdp = v; break;
	default: x->fop = (uint16_t)v; break;
	}
}

size_t regs_read(const struct sg_thread *t, enum sg_abi abi, unsigned n, uint8_t *out)
{
	const struct cpu *c = &t->cpu;
	struct reg_slot s;
	uint64_t v = 0;

	if (!slot_of(abi, n, &s))
		return 0;
	switch (s.cls) {
	case RC_GPR: v = c->r[s.idx]; break;
	case RC_RIP: v = c->rip; break;
	case RC_FLAGS: v = cpu_get_rflags(c); break;
	case RC_SEG: v = c->sel[s.idx]; break;
	case RC_ST:
		memcpy(out, &c->x87.st[(c->x87.top + s.idx) & 7], 10);
		return 10;
	case RC_X87CTL: v = x87_ctl_read(&c->x87, s.idx); break;
	case RC_XMM:
		memcpy(out, &c->xmm[s.idx], 16);
		return 16;
	case RC_YMMH:
		memcpy(out, &c->ymm_hi[s.idx], 16);
		return 16;
	case RC_MXCSR: v = c->mxcsr; break;
	case RC_ORIG: v = (uint64_t)-1; break; /* not in a system call */
	case RC_FSBASE: v = c->base[SEG_FS]; break;
	case RC_GSBASE: v = c->base[SEG_GS]; break;
	}
	memcpy(out, &v, s.size);
	return s.size;
}

bool regs_write(struct sg_thread *t, enum sg_abi abi, unsigned n, const uint8_t *in)
{
	struct cpu *c = &t->cpu;
	struct reg_slot s;
	uint64_t v = 0;

	if (!slot_of(abi, n, &s))
		return false;
	if (s.size <= 8)
		memcpy(&v, in, s.size);
	switch (s.cls) {
	case RC_GPR: c->r[s.idx] = v; break;
	case RC_RIP: c->rip = v; break;
	case RC_FLAGS: cpu_set_rflags(c, (cpu_get_rflags(c) & ~0xffffffffull) | v); break;
	case RC_SEG:
		/* as a debugger's write through ptrace: only a selector the
		 * CPU accepts (the user ones, TLS entries, null) */
		if (s.idx == SEG_CS) {
			if ((uint16_t)v != c->sel[SEG_CS] && !cpu_far_jump(c, (uint16_t)v, c->rip))
				return false;
		} else if ((uint16_t)v != c->sel[s.idx] &&
			   cpu_load_segment(c, (enum cpu_seg)s.idx, (uint16_t)v) != 0) {
			return false;
		}
		break;
	case RC_ST:
		memcpy(&c->x87.st[(c->x87.top + s.idx) & 7], in, 10);
		break;
	case RC_X87CTL: x87_ctl_write(&c->x87, s.idx, (uint32_t)v); break;
	case RC_XMM: memcpy(&c->xmm[s.idx], in, 16); break;
	case RC_YMMH: memcpy(&c->ymm_hi[s.idx], in, 16); break;
	case RC_MXCSR: c->mxcsr = (uint32_t)v & 0xffff; break;
	case RC_ORIG: break; /* nothing to restart */
	case RC_FSBASE: c->base[SEG_FS] = v; break;
	case RC_GSBASE: c->base[SEG_GS] = v; break;
	}
	if (c->mode == CPU_MODE_32 && s.cls == RC_GPR)
		c->r[s.idx] = (uint32_t)c->r[s.idx];
	return true;
}
