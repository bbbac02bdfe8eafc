/* FP state in signal frames. The kernel writes an XSAVE image (64-bit
 * format even for i386 tasks on a 64-bit kernel), 64-byte aligned; an
 * i386 frame also gets the legacy 112-byte fsave header in front of it,
 * and sigcontext.fpstate points at that header. With XSAVE enabled
 * (cpu.xcr0, CPUID OSXSAVE) the image is the kernel's xstate frame
 * (arch/x86/kernel/fpu/signal.c): the header cleared, XSAVE64 of every
 * enabled component, XSTATE_BV with x87 and SSE always set, the software
 * bytes (struct _fpx_sw_bytes) in the legacy region's bytes 464..511 —
 * FP_XSTATE_MAGIC1, extended_size (the image + 4, + the fsave header for
 * i386), xfeatures (XCR0), xstate_size — and FP_XSTATE_MAGIC2 right after
 * the image. Without XSAVE it is what a kernel on an FXSR-only CPU gives: a
 * 512-byte FXSAVE image, sw_reserved without the magic. */
#include <string.h>

#include "cpu/x87.h"
#include "signal/frame.h"
#include "syscall/compat/sigframe_layout.h"

/* i386's struct _fpstate_32 up to its FXSR part: the legacy FSAVE header
 * (generated: fpstate_i386), written and read alone */
#define FSAVE_HDR offsetof(struct fpstate_i386, fxsr_env)
#define FXSR_MAGIC 0x0000 /* _fpstate_32.magic: FXSR data follows */
#define FX_SW_BYTES 464 /* struct _fpx_sw_bytes in the legacy region */
#define XSAVE_HDR 512
#define XSAVE_HDR_LEN 64
#define XSTATE_MAX 1024 /* >= cpu_xstate_size(CPU_XSTATE_X87|SSE|AVX) + the magic */

/* FP_XSTATE_MAGIC1/2 and struct _fpx_sw_bytes (its xfeatures is glibc's
 * xstate_bv): the C library's <bits/sigcontext.h>, through signal.h */
_Static_assert(sizeof(struct _fpx_sw_bytes) == 48, "struct _fpx_sw_bytes");


uint32_t fpstate_size(const struct cpu *c)
{
	return c->xcr0 ? cpu_xstate_size(c->xcr0) + FP_XSTATE_MAGIC2_SIZE
		       : (uint32_t)sizeof(struct fx_area);
}

uint64_t fpstate_alloc(const struct cpu *c, uint64_t sp, bool is_i386, uint64_t *buf_fx)
{
	sp = (sp - fpstate_size(c)) & ~63ull;
	*buf_fx = sp;
	if (is_i386)
		sp -= FSAVE_HDR;
	return sp;
}

/* Full tag of a register in use (as FSTENV): valid, zero or special. */
static unsigned tag_of(const uint8_t r[10])
{
	uint16_t exp = (uint16_t)((r[9] & 0x7f) << 8 | r[8]);
	uint64_t man;

	memcpy(&man, r, 8);
	if (exp == 0x7fff)
		return 2;
	if (exp == 0)
		return man ? 2 : 1;
	return (man >> 63) ? 0 : 2;
}

static uint32_t full_tags(const struct fx_area *fx)
{
	unsigned top = (fx->fsw & FSW_TOP) >> 11;
	uint32_t tags = 0;

	for (unsigned phys = 0; phys < 8; phys++) {
		unsigned st = (phys - top) & 7, tag = 3;

		if (fx->ftw & (1u << phys))
			tag = tag_of(fx->st[st]);
		tags |= tag << (2 * phys);
	}
	return tags;
}

/* The xstate image at buf_fx: bytes the kernel does not write (the
 * legacy region's reserved ones XSAVE leaves) keep what the stack held. */
static int xstate_save(struct sg_task *t, uint64_t buf_fx, bool is_i386)
{
	struct cpu *c = &t->cpu;
	uint32_t size = cpu_xstate_size(c->xcr0), magic2 = FP_XSTATE_MAGIC2;
	uint8_t img[XSTATE_MAX] __attribute__((aligned(64)));
	struct _fpx_sw_bytes sw;
	uint64_t bv;

	if (copy_from_guest(t->group->mm, img, buf_fx, size))
		return -1;
	memset(img + XSAVE_HDR, 0, XSAVE_HDR_LEN);
	cpu_xsave_host(c, img, c->xcr0);
	memcpy(&bv, img + XSAVE_HDR, 8);
	bv |= CPU_XSTATE_X87 | CPU_XSTATE_SSE; /* "legacy compatible": always */
	memcpy(img + XSAVE_HDR, &bv, 8);
	memset(&sw, 0, sizeof(sw));
	sw.magic1 = FP_XSTATE_MAGIC1;
	sw.extended_size = fpstate_size(c) + (is_i386 ? FSAVE_HDR : 0);
	sw.xstate_bv = c->xcr0;
	sw.xstate_size = size;
	memcpy(img + FX_SW_BYTES, &sw, sizeof(sw));
	memcpy(img + size, &magic2, FP_XSTATE_MAGIC2_SIZE);
	return copy_to_guest(t->group->mm, buf_fx, img, size + FP_XSTATE_MAGIC2_SIZE) ? -1 : 0;
}

int fpstate_save(struct sg_task *t, uint64_t fpstate, uint64_t buf_fx, bool is_i386)
{
	struct fx_area fx;

	memset(&fx, 0, sizeof(fx));
	x87_to_fx(&t->cpu, &fx, true);
	memset(fx.rsvd, 0, sizeof(fx.rsvd));
	if (is_i386) {
		struct fpstate_i386 h;

		memset(&h, 0, FSAVE_HDR);
		h.cw = fx.fcw | 0xffff0000u;
		h.sw = fx.fsw | 0xffff0000u;
		h.tag = full_tags(&fx) | 0xffff0000u;
		h.ipoff = (uint32_t)fx.fip;
		h.cssel = 0x23;
		h.dataoff = (uint32_t)fx.fdp;
		h.datasel = 0xffff002b;
		for (int i = 0; i < 8; i++)
			memcpy(h.st + 10 * i, fx.st[i], 10);
		h.status = fx.fsw;
		h.magic = FXSR_MAGIC;
		if (copy_to_guest(t->group->mm, fpstate, &h, FSAVE_HDR))
			return -1;
	}
	if (t->cpu.xcr0)
		return xstate_save(t, buf_fx, is_i386);
	return copy_to_guest(t->group->mm, buf_fx, &fx, sizeof(fx)) ? -1 : 0;
}

/* The legacy header wins over the FXSAVE copy, as the kernel's
 * convert_to_fxsr: 0 or -1 (fault). */
static int fold_fsave_hdr(struct sg_task *t, uint64_t fpstate, struct fx_area *fx)
{
	struct fpstate_i386 h;

	if (copy_from_guest(t->group->mm, &h, fpstate, FSAVE_HDR))
		return -1;
	fx->fcw = (uint16_t)h.cw;
	fx->fsw = (uint16_t)h.sw;
	fx->ftw = 0;
	for (unsigned phys = 0; phys < 8; phys++)
		if (((h.tag >> (2 * phys)) & 3) != 3)
			fx->ftw |= (uint8_t)(1u << phys);
	fx->fip = h.ipoff;
	fx->fdp = h.dataoff;
	for (int i = 0; i < 8; i++)
		memcpy(fx->st[i], h.st + 10 * i, 10);
	return 0;
}

/* The kernel's check_xstate_in_sigframe: the frame carries xstate when
 * magic1, a plausible xstate_size and magic2 after it say so; then *xfeatures
 * is what it names. 1 (xstate), 0 (FXSAVE image only), -1 (fault). */
static int xstate_in_frame(struct sg_task *t, uint64_t buf_fx, uint64_t *xfeatures)
{
	struct _fpx_sw_bytes sw;
	uint32_t magic2;

	if (copy_from_guest(t->group->mm, &sw, buf_fx + FX_SW_BYTES, sizeof(sw)))
		return -1;
	if (sw.magic1 != FP_XSTATE_MAGIC1 || sw.xstate_size < XSAVE_HDR + XSAVE_HDR_LEN ||
	    sw.xstate_size > cpu_xstate_size(t->cpu.xcr0) || sw.xstate_size > sw.extended_size)
		return 0;
	if (copy_from_guest(t->group->mm, &magic2, buf_fx + sw.xstate_size, 4))
		return -1;
	*xfeatures = sw.xstate_bv;
	return magic2 == FP_XSTATE_MAGIC2;
}

/* Components of XCR0 the frame does not restore start afresh, as the
 * kernel's XRSTORS of its init_fpstate (compacted form: MXCSR becomes
 * 1F80h only with SSE among them; natively, a frame without MAGIC2 keeps
 * the MXCSR of its legacy region while AVX starts afresh). */
static void init_components(struct cpu *c, uint64_t mask)
{
	uint8_t img[XSTATE_MAX] __attribute__((aligned(64)));
	uint64_t comp = 1ull << 63 | (mask & c->xcr0);

	if (!(mask & c->xcr0))
		return;
	memset(img, 0, sizeof(img));
	memcpy(img + XSAVE_HDR + 8, &comp, 8);
	cpu_xrstor_host(c, img, mask);
}

/* An xstate frame: the 64-bit path is the hardware's XRSTOR from the frame
 * (a header or MXCSR it rejects fails the sigreturn); i386 frames go
 * through the kernel's copy, which wants the standard format and zero
 * reserved header bytes, and the fsave header folded in. */
static int xstate_restore(struct sg_task *t, uint64_t fpstate, uint64_t buf_fx, bool is_i386,
			  uint64_t xfeatures)
{
	struct cpu *c = &t->cpu;
	uint8_t img[XSTATE_MAX] __attribute__((aligned(64)));
	uint64_t rfbm = xfeatures & c->xcr0, bv, comp;

	if (copy_from_guest(t->group->mm, img, buf_fx, cpu_xstate_size(c->xcr0)))
		return -1;
	if (is_i386) {
		struct fx_area fx;

		memcpy(&bv, img + XSAVE_HDR, 8);
		memcpy(&comp, img + XSAVE_HDR + 8, 8);
		for (int k = 16; k < XSAVE_HDR_LEN; k++)
			if (img[XSAVE_HDR + k])
				return -1;
		if ((bv & ~c->xcr0) || comp)
			return -1;
		memcpy(&fx, img, sizeof(fx));
		if (fold_fsave_hdr(t, fpstate, &fx))
			return -1;
		memcpy(img, &fx, sizeof(fx));
	} else if (buf_fx & 63) {
		return -1; /* XRSTOR's #GP */
	}
	if (cpu_xrstor_host(c, img, rfbm))
		return -1;
	init_components(c, c->xcr0 & ~rfbm);
	return 0;
}

int fpstate_restore(struct sg_task *t, uint64_t fpstate, bool is_i386)
{
	struct fx_area fx;
	uint64_t buf_fx = fpstate + (is_i386 ? FSAVE_HDR : 0), xfeatures = 0;

	if (!fpstate) {
		fpstate_reset(&t->cpu);
		return 0;
	}
	if (t->cpu.xcr0) {
		int x = xstate_in_frame(t, buf_fx, &xfeatures);

		if (x < 0)
			return -1;
		if (x)
			return xstate_restore(t, fpstate, buf_fx, is_i386, xfeatures);
	}
	if (copy_from_guest(t->group->mm, &fx, buf_fx, sizeof(fx)))
		return -1;
	if (is_i386 && fold_fsave_hdr(t, fpstate, &fx))
		return -1;
	if (fx.mxcsr & ~MXCSR_MASK)
		return -1; /* FXRSTOR's #GP; the i386 copy rejects it as well */
	x87_from_fx(&t->cpu, &fx, true);
	/* an FXSAVE-only frame: the rest starts afresh */
	init_components(&t->cpu, t->cpu.xcr0 & ~(CPU_XSTATE_X87 | CPU_XSTATE_SSE));
	return 0;
}

void fpstate_reset(struct cpu *c)
{
	struct fx_area fx;

	memset(&fx, 0, sizeof(fx));
	fx.fcw = 0x37f;
	fx.mxcsr = 0x1f80;
	x87_from_fx(c, &fx, true);
	memset(c->ymm_hi, 0, sizeof(c->ymm_hi));
}
