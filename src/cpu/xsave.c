/* The XSAVE feature set: XGETBV, XSAVE, XSAVEOPT, XSAVEC, XRSTOR (and their
 * 64-bit forms with REX.W), VZEROUPPER/VZEROALL, for the components of
 * cpu->xcr0 (x87, SSE, AVX). SDM Vol. 1 ch. 13.
 *
 * Area: the legacy region (bytes 0..511: the FXSAVE image, x87 in
 * 0..23/32..159, MXCSR and MXCSR_MASK in 24..31, XMM in 160..415; 464..511
 * never written), the header (512..575: XSTATE_BV, XCOMP_BV, 48 reserved
 * bytes), then AVX state (YMM_Hi128 of YMM0..15) at 576 in both formats
 * (compacted: the first component after the header). The legacy bytes are
 * what the host's own FXSAVE stores for the guest's state (fxsave.c).
 *
 * XINUSE (which components are not in their initial configuration) is
 * taken from the values, as the AMD EPYC host of these notes does (probed
 * after XRSTOR, PXOR, LDMXCSR, FLD/FSTP, VZEROUPPER, VZEROALL, FNINIT):
 * x87 in use unless FCW = 37Fh, FSW = 0, every tag empty, the pointers
 * and registers 0; SSE unless every XMM register of the mode is 0 and
 * MXCSR is 1F80h; AVX unless every YMM_Hi128 of the mode is 0. XGETBV 1
 * answers it and XSAVEC saves exactly those components (MXCSR with SSE);
 * XSAVE's XSTATE_BV and XSAVEOPT's init optimisation count SSE by the XMM
 * registers alone (XSAVEOPT writes MXCSR always), as that host does.
 * Intel CPUs also count a component in use once XRSTOR loaded it from
 * memory, whatever the values; the SDM allows both (a component in its
 * initial configuration may be reported in use, never the reverse). */
#include "cpu/ops.h"
#include "cpu/x87.h"

#define XS_LEGACY 512
#define XS_HDR 512
#define XS_HDR_LEN 64
#define XS_AVX 576 /* CPUID 0xD.2 EBX; compacted: first after the header */
#define XS_AVX_LEN 256
#define XS_COMPACT (1ull << 63)
#define X87_INIT_FCW 0x37f
#define MXCSR_INIT 0x1f80

/* Legacy-region byte ranges per component. */
#define LG_X87_A 0
#define LG_X87_A_LEN 24
#define LG_MXCSR 24
#define LG_MXCSR_LEN 8
#define LG_X87_B 32
#define LG_X87_B_LEN 128
#define LG_XMM 160

uint32_t cpu_xstate_size(uint64_t xcr0)
{
	return XS_HDR + XS_HDR_LEN + (xcr0 & CPU_XSTATE_AVX ? XS_AVX_LEN : 0);
}

static unsigned vec_regs(const struct cpu *c)
{
	return c->mode == CPU_MODE_64 ? 16 : 8;
}

static bool zero_bytes(const void *p, size_t n)
{
	const uint8_t *b = p;

	for (size_t k = 0; k < n; k++)
		if (b[k])
			return false;
	return true;
}

/* with_mxcsr: an MXCSR other than 1F80h puts SSE in use */
static uint64_t xinuse(const struct cpu *c, bool with_mxcsr)
{
	const struct cpu_x87 *x = &c->x87;
	uint64_t in = 0;

	if (x->fcw != X87_INIT_FCW || x->fsw || x->top || x->ftw_tags != 0xffff || x->fop ||
	    x->fip || x->fdp || x->fcs || x->fds)
		in |= CPU_XSTATE_X87;
	for (int k = 0; k < 8 && !(in & CPU_XSTATE_X87); k++)
		if (!zero_bytes(&x->st[k], 10))
			in |= CPU_XSTATE_X87;
	if ((with_mxcsr && c->mxcsr != MXCSR_INIT) ||
	    !zero_bytes(c->xmm, vec_regs(c) * sizeof(cpu_xmm)))
		in |= CPU_XSTATE_SSE;
	if (!zero_bytes(c->ymm_hi, vec_regs(c) * sizeof(cpu_xmm)))
		in |= CPU_XSTATE_AVX;
	return in & c->xcr0;
}

/* The components an XSAVE-family instruction writes, into area (a copy of
 * the guest's bytes [0, XS_AVX + XS_AVX_LEN)): the legacy parts of
 * `legacy` (components 0/1), MXCSR when mxcsr, the AVX state at XS_AVX
 * when avx. */
static void save_parts(const struct cpu *c, uint8_t *area, uint64_t legacy, bool mxcsr, bool avx,
		       bool w)
{
	uint8_t fx[512] __attribute__((aligned(16)));

	if (legacy || mxcsr) {
		memcpy(fx, area, sizeof(fx));
		fx_host_save(c, fx, w);
		if (legacy & CPU_XSTATE_X87) {
			memcpy(area + LG_X87_A, fx + LG_X87_A, LG_X87_A_LEN);
			memcpy(area + LG_X87_B, fx + LG_X87_B, LG_X87_B_LEN);
		}
		if (mxcsr)
			memcpy(area + LG_MXCSR, fx + LG_MXCSR, LG_MXCSR_LEN);
		if (legacy & CPU_XSTATE_SSE)
			memcpy(area + LG_XMM, fx + LG_XMM, vec_regs(c) * 16);
	}
	if (avx)
		memcpy(area + XS_AVX, c->ymm_hi, vec_regs(c) * 16);
}

static bool osxsave_checks(struct cpu *c, const struct insn *i, uint64_t *ea)
{
	if (!c->xcr0) { /* CR4.OSXSAVE = 0 */
		op_ud(c, i);
		return false;
	}
	*ea = insn_ea(c, i);
	if (*ea & 63) {
		cpu_raise_addr(c, VEC_GP, *ea);
		return false;
	}
	return true;
}

static uint64_t rfbm_of(const struct cpu *c)
{
	return ((c->r[R_DX] & 0xffffffffu) << 32 | (c->r[R_AX] & 0xffffffffu)) & c->xcr0;
}

static bool wide(const struct cpu *c, const struct insn *i)
{
	return c->mode == CPU_MODE_64 && (insn_cold(i)->rex & 8);
}

enum xsave_kind { XSAVE_STD, XSAVE_OPT, XSAVE_CMP };

static void xsave_run(struct cpu *c, const struct insn *i, enum xsave_kind kind)
{
	uint8_t area[XS_AVX + XS_AVX_LEN];
	uint64_t ea, rfbm, in, hdr[2];
	size_t len;

	if (!osxsave_checks(c, i, &ea))
		return;
	rfbm = rfbm_of(c);
	in = xinuse(c, kind == XSAVE_CMP);
	len = rfbm & CPU_XSTATE_AVX ? sizeof(area) : XS_HDR + XS_HDR_LEN;
	guest_read(area, ea, len);
	if (kind == XSAVE_CMP) {
		/* only the components in use, MXCSR with SSE */
		save_parts(c, area, rfbm & in & (CPU_XSTATE_X87 | CPU_XSTATE_SSE),
			   rfbm & in & CPU_XSTATE_SSE, rfbm & in & CPU_XSTATE_AVX, wide(c, i));
		hdr[0] = rfbm & in;
		hdr[1] = XS_COMPACT | rfbm; /* the rest of the header is not written */
	} else {
		/* XSAVEOPT: the init optimisation (components not in use are
		 * not written), as the hardware; the modified optimisation
		 * (components unchanged since an XRSTOR from the same area)
		 * is allowed, not required: not used */
		uint64_t parts = kind == XSAVE_OPT ? rfbm & in : rfbm;

		save_parts(c, area, parts & (CPU_XSTATE_X87 | CPU_XSTATE_SSE),
			   rfbm & (CPU_XSTATE_SSE | CPU_XSTATE_AVX), parts & CPU_XSTATE_AVX,
			   wide(c, i));
		memcpy(hdr, area + XS_HDR, 16);
		hdr[0] = (hdr[0] & ~rfbm) | (in & rfbm);
	}
	memcpy(area + XS_HDR, hdr, 16);
	guest_write(ea, area, len);
}

void op_xsave_M(struct cpu *c, const struct insn *i)
{
	xsave_run(c, i, XSAVE_STD);
}

void op_xsaveopt_M(struct cpu *c, const struct insn *i)
{
	xsave_run(c, i, XSAVE_OPT);
}

void op_xsavec_M(struct cpu *c, const struct insn *i)
{
	xsave_run(c, i, XSAVE_CMP);
}

/* XRSTOR from area (bytes [0, XS_HDR + XS_HDR_LEN) and, when the AVX part
 * is to be loaded, up to XS_AVX + XS_AVX_LEN): false on #GP, nothing
 * changed then. get fetches more of the area on demand (guest memory). */
static bool xrstor_area(struct cpu *c, uint8_t *area, uint64_t rfbm, bool w,
			void (*get)(uint8_t *area, uint64_t src, size_t off, size_t n), uint64_t src)
{
	uint64_t bv, comp, ld;
	uint8_t fx[512] __attribute__((aligned(16)));
	uint32_t mxcsr = 0;
	bool compact, load_mxcsr, init_mxcsr = false;

	memcpy(&bv, area + XS_HDR, 8);
	memcpy(&comp, area + XS_HDR + 8, 8);
	compact = comp & XS_COMPACT;
	if (compact) {
		if ((comp & ~XS_COMPACT & ~c->xcr0) || (bv & ~(comp & ~XS_COMPACT)) ||
		    !zero_bytes(area + XS_HDR + 16, XS_HDR_LEN - 16))
			return false;
	} else if ((bv & ~c->xcr0) || !zero_bytes(area + XS_HDR + 8, 16)) {
		return false;
	}
	ld = rfbm & bv; /* loaded from the area; rfbm & ~bv: initialised */
	/* MXCSR: the standard form loads it with SSE or AVX requested; the
	 * compacted one with SSE loaded, and initialises it with SSE
	 * initialised */
	load_mxcsr = compact ? (ld & CPU_XSTATE_SSE) != 0
			     : (rfbm & (CPU_XSTATE_SSE | CPU_XSTATE_AVX)) != 0;
	if (compact && (rfbm & ~bv & CPU_XSTATE_SSE))
		init_mxcsr = true;
	if (load_mxcsr) {
		memcpy(&mxcsr, area + LG_MXCSR, 4);
		if (mxcsr & ~MXCSR_MASK)
			return false;
	}
	if (ld & CPU_XSTATE_AVX)
		get(area, src, XS_AVX, XS_AVX_LEN);

	if (rfbm & (CPU_XSTATE_X87 | CPU_XSTATE_SSE) || load_mxcsr || init_mxcsr) {
		/* the 32-bit legacy format holds FIP/FDP as 32 bits and a
		 * selector: an x87 state not requested is kept whole (its
		 * 64-bit pointers too), as the hardware keeps it */
		struct cpu_x87 keep = c->x87;

		memset(fx, 0, sizeof(fx));
		fx_host_save(c, fx, w);
		if (rfbm & CPU_XSTATE_X87) {
			if (ld & CPU_XSTATE_X87) {
				memcpy(fx + LG_X87_A, area + LG_X87_A, LG_X87_A_LEN);
				memcpy(fx + LG_X87_B, area + LG_X87_B, LG_X87_B_LEN);
			} else {
				uint16_t fcw = X87_INIT_FCW;

				memset(fx + LG_X87_A, 0, LG_X87_A_LEN);
				memset(fx + LG_X87_B, 0, LG_X87_B_LEN);
				memcpy(fx, &fcw, 2);
			}
		}
		if (load_mxcsr)
			memcpy(fx + LG_MXCSR, &mxcsr, 4);
		else if (init_mxcsr)
			memcpy(fx + LG_MXCSR, &(uint32_t){ MXCSR_INIT }, 4);
		if (rfbm & CPU_XSTATE_SSE) {
			if (ld & CPU_XSTATE_SSE)
				memcpy(fx + LG_XMM, area + LG_XMM, vec_regs(c) * 16);
			else
				memset(fx + LG_XMM, 0, vec_regs(c) * 16);
		}
		fx_host_load(c, fx, w);
		if (!(rfbm & CPU_XSTATE_X87))
			c->x87 = keep;
	}
	if (rfbm & CPU_XSTATE_AVX) {
		if (ld & CPU_XSTATE_AVX)
			memcpy(c->ymm_hi, area + XS_AVX, vec_regs(c) * 16);
		else
			memset(c->ymm_hi, 0, vec_regs(c) * 16);
	}
	return true;
}

static void get_guest(uint8_t *area, uint64_t src, size_t off, size_t n)
{
	guest_read(area + off, src + off, n);
}

static void get_host(uint8_t *area, uint64_t src, size_t off, size_t n)
{
	memcpy(area + off, (const uint8_t *)(uintptr_t)src + off, n);
}

void op_xrstor_M(struct cpu *c, const struct insn *i)
{
	uint8_t area[XS_AVX + XS_AVX_LEN];
	uint64_t ea;

	if (!osxsave_checks(c, i, &ea))
		return;
	guest_read(area, ea, XS_HDR + XS_HDR_LEN);
	if (!xrstor_area(c, area, rfbm_of(c), wide(c, i), get_guest, ea))
		cpu_raise(c, VEC_GP);
}

void cpu_xsave_host(struct cpu *c, void *img, uint64_t rfbm)
{
	uint8_t *area = img;
	uint64_t in = xinuse(c, false), bv;

	rfbm &= c->xcr0;
	save_parts(c, area, rfbm & (CPU_XSTATE_X87 | CPU_XSTATE_SSE),
		   rfbm & (CPU_XSTATE_SSE | CPU_XSTATE_AVX), rfbm & CPU_XSTATE_AVX, true);
	memcpy(&bv, area + XS_HDR, 8);
	bv = (bv & ~rfbm) | (in & rfbm);
	memcpy(area + XS_HDR, &bv, 8);
}

int cpu_xrstor_host(struct cpu *c, const void *img, uint64_t rfbm)
{
	uint8_t area[XS_AVX + XS_AVX_LEN];

	memcpy(area, img, XS_HDR + XS_HDR_LEN);
	return xrstor_area(c, area, rfbm & c->xcr0, true, get_host, (uintptr_t)img) ? 0 : -1;
}

/* XGETBV (0F 01 D0): ECX 0 is XCR0, 1 the components in use (CPUID 0xD.1
 * EAX bit 2); any other #GP; 66/F2/F3 #UD. */
void op_xgetbv(struct cpu *c, const struct insn *i)
{
	uint64_t v;

	if (!c->xcr0 || (insn_cold(i)->pfx & (PFX_OSZ | PFX_REP | PFX_REPNE))) {
		op_ud(c, i);
		return;
	}
	switch ((uint32_t)c->r[R_CX]) {
	case 0:
		v = c->xcr0;
		break;
	case 1:
		v = xinuse(c, true);
		break;
	default:
		cpu_raise(c, VEC_GP);
		return;
	}
	reg_set(c, R_AX, 4, (uint32_t)v);
	reg_set(c, R_DX, 4, v >> 32);
}

/* VZEROUPPER (VEX.128 0F 77), VZEROALL (VEX.256): YMM0..15 (0..7 outside
 * 64-bit mode) lose bits 255:128, or everything. VEX.vvvv must be 1111b. */
void op_vzero(struct cpu *c, const struct insn *i)
{
	unsigned n = vec_regs(c);

	if (!avx_enabled(c) || VEX_V_SET(i)) {
		op_ud(c, i);
		return;
	}
	memset(c->ymm_hi, 0, n * sizeof(cpu_xmm));
	if (VEX_L(i))
		memset(c->xmm, 0, n * sizeof(cpu_xmm));
}
