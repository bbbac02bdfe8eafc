/* FP state in signal frames. The kernel writes an FXSAVE image (64-bit
 * format even for ia32 tasks on a 64-bit kernel), 64-byte aligned; an
 * ia32 frame also gets the legacy 112-byte fsave header in front of it,
 * and sigcontext.fpstate points at that header. sysgate's CPUID reports
 * no XSAVE, so the frame is what a kernel on an FXSR-only CPU gives
 * (sw_reserved carries no XSTATE magic). */
#include <string.h>

#include "cpu/x87.h"
#include "signal/frame.h"

#define FSAVE_HDR 112
#define FXSR_MAGIC 0x0000 /* _fpstate_32.magic: FXSR data follows */

struct fsave_hdr {
	uint32_t cw, sw, tag, ipoff, cssel, dataoff, datasel;
	uint8_t st[8][10];
	uint16_t status, magic;
};
_Static_assert(sizeof(struct fsave_hdr) == FSAVE_HDR, "struct _fpstate_32 header");

uint64_t fpstate_alloc(uint64_t sp, bool ia32, uint64_t *buf_fx)
{
	sp = (sp - sizeof(struct fx_area)) & ~63ull;
	*buf_fx = sp;
	if (ia32)
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

int fpstate_save(struct sg_thread *t, uint64_t fpstate, uint64_t buf_fx, bool ia32)
{
	struct fx_area fx;

	memset(&fx, 0, sizeof(fx));
	x87_to_fx(&t->cpu, &fx, true);
	memset(fx.rsvd, 0, sizeof(fx.rsvd));
	if (ia32) {
		struct fsave_hdr h;

		memset(&h, 0, sizeof(h));
		h.cw = fx.fcw | 0xffff0000u;
		h.sw = fx.fsw | 0xffff0000u;
		h.tag = full_tags(&fx) | 0xffff0000u;
		h.ipoff = (uint32_t)fx.fip;
		h.cssel = 0x23;
		h.dataoff = (uint32_t)fx.fdp;
		h.datasel = 0xffff002b;
		for (int i = 0; i < 8; i++)
			memcpy(h.st[i], fx.st[i], 10);
		h.status = fx.fsw;
		h.magic = FXSR_MAGIC;
		if (copy_to_guest(t->proc->mm, fpstate, &h, sizeof(h)))
			return -1;
	}
	return copy_to_guest(t->proc->mm, buf_fx, &fx, sizeof(fx)) ? -1 : 0;
}

int fpstate_restore(struct sg_thread *t, uint64_t fpstate, bool ia32)
{
	struct fx_area fx;

	if (!fpstate) {
		fpstate_reset(&t->cpu);
		return 0;
	}
	if (copy_from_guest(t->proc->mm, &fx, fpstate + (ia32 ? FSAVE_HDR : 0),
			    sizeof(fx)))
		return -1;
	if (ia32) {
		/* the legacy header wins over the FXSAVE copy, as the kernel's
		 * convert_to_fxsr */
		struct fsave_hdr h;

		if (copy_from_guest(t->proc->mm, &h, fpstate, sizeof(h)))
			return -1;
		fx.fcw = (uint16_t)h.cw;
		fx.fsw = (uint16_t)h.sw;
		fx.ftw = 0;
		for (unsigned phys = 0; phys < 8; phys++)
			if (((h.tag >> (2 * phys)) & 3) != 3)
				fx.ftw |= (uint8_t)(1u << phys);
		fx.fip = h.ipoff;
		fx.fdp = h.dataoff;
		for (int i = 0; i < 8; i++)
			memcpy(fx.st[i], h.st[i], 10);
	}
	fx.mxcsr &= MXCSR_MASK;
	x87_from_fx(&t->cpu, &fx, true);
	return 0;
}

void fpstate_reset(struct cpu *c)
{
	struct fx_area fx;

	memset(&fx, 0, sizeof(fx));
	fx.fcw = 0x37f;
	fx.mxcsr = 0x1f80;
	x87_from_fx(c, &fx, true);
}
