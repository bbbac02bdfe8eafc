/* AVX and AVX2 (rows: opcodes_avx.def). The VEX forms of the SSE
 * instructions run the legacy instruction's own handler (sse_int.c,
 * sse_move.c, sse_host.c, crypto.c) once per 128-bit lane: avx_lanes puts
 * the lane's operands into the destination register and a second register
 * (memory operands are read first, whole, without the legacy alignment
 * check), runs the handler on that register form, collects the result and
 * puts both registers back; only when every lane succeeded is the
 * destination written, its upper half cleared by a VEX.128 form. So one
 * fact — what ADDPS or PSHUFB does to 128 bits — is written once, and a
 * fault or #XM in the second lane leaves the destination alone. The
 * instructions that are no lane of a legacy one (stores, broadcasts,
 * permutes, masks, PTEST, the 32 compare predicates...) are portable C
 * below. Every AVX form is #UD unless XCR0[2:1] = 11b. */
#include <math.h>
#include "cpu/cache.h"
#include "cpu/ops.h"
#include "cpu/x87.h"
#include "cpu/crypto.h"
#include "cpu/sse_lanes.h"
#include "optable_exec.h"

/* The 256-bit value of YMM r. */
static inline void ymm_get(const struct cpu *c, unsigned r, cpu_xmm v[2])
{
	v[0] = c->xmm[r];
	v[1] = c->ymm_hi[r];
}

/* Write YMM r: a VEX.128 result (l256 false) clears the upper half. */
static inline void ymm_set(struct cpu *c, unsigned r, const cpu_xmm v[2], bool l256)
{
	c->xmm[r] = v[0];
	if (l256)
		c->ymm_hi[r] = v[1];
	else
		memset(&c->ymm_hi[r], 0, sizeof(cpu_xmm));
}

/* The checks every AVX form makes: AVX enabled, VEX.L allowed, VEX.vvvv
 * 1111b where the form has no such operand. false: #UD raised. */
static bool avx_ok(struct cpu *c, const struct insn *i, bool l256_ok, bool no_vvvv)
{
	if (!avx_enabled(c) || (VEX_L(i) && !l256_ok) || (no_vvvv && VEX_V_SET(i))) {
		op_ud(c, i);
		return false;
	}
	return true;
}

/* VEX.W0 (w 0) or VEX.W1 (w 1) forms: the other W is #UD. */
static bool w_is(struct cpu *c, const struct insn *i, unsigned w)
{
	if (VEX_W(i) != w) {
		op_ud(c, i);
		return false;
	}
	return true;
}

/* A memory operand of n bytes (16 or 32 aligned to n when align). */
static bool vmem_read(struct cpu *c, const struct insn *i, void *buf, unsigned n, bool align)
{
	uint64_t a = insn_ea(c, i);

	if (align && (a & (n - 1))) {
		cpu_raise_addr(c, VEC_GP, a);
		return false;
	}
	if (n >= 16) {
		for (unsigned k = 0; k < n; k += 16)
			mem_read16(a + k, (uint8_t *)buf + k);
	} else {
		uint64_t v = mem_read(a, n);

		memcpy(buf, &v, n);
	}
	return true;
}

static void vmem_write(struct cpu *c, uint64_t a, const void *buf, unsigned n)
{
	/* memory that is not the guest's (unmapped, or sysgate's) faults at
	 * its first byte before anything is written (store_guard); a 16-byte
	 * store is one host store (mem_write16); a 32-byte one across pages
	 * probes both pages first (store_probe): a page it may not write
	 * faults at the first byte there, nothing written, as natively */
	store_guard(a, n);
	if (n > 16 && (a & 4095) + n > 4096) {
		store_probe(a);
		store_probe((a | 4095) + 1);
	}
	for (unsigned k = 0; k < n; k += 16)
		mem_write16(a + k, (const uint8_t *)buf + k);
}

static void avx_lanes(struct cpu *c, const struct insn *i, insn_fn legacy, unsigned form,
		      unsigned memsz, unsigned fl)
{
	const struct insn_cold *ic = insn_cold(i);
	struct insn *li = insn_scratch_lanes(c, i);
	bool l256 = VEX_L(i) && !(fl & AV_LIG);
	unsigned v = VEX_V(i), lanes = l256 && form != V_SCAL ? 2 : 1;
	unsigned dst, scratch;
	cpu_xmm src1[2], src2[4], res[2], save_dst, save_scratch;
	bool no_vvvv = form == V_UN || form == V_WIDEN || form == V_NARROW || form == V_ASIS;

	if (!avx_ok(c, i, (fl & (AV_L256 | AV_LIG)) != 0, no_vvvv))
		return;
	if (form == V_ASIS) {
		legacy(c, i);
		if (c->stop == CPU_STOP_NONE && (fl & AV_ZUP))
			memset(&c->ymm_hi[i->reg], 0, sizeof(cpu_xmm));
		if (c->stop == CPU_STOP_NONE && (fl & AV_ZUP0))
			memset(&c->ymm_hi[0], 0, sizeof(cpu_xmm));
		return;
	}
	memset(src2, 0, sizeof(src2));
	if (form == V_GPR && ic->mod != 3) {
		/* the legacy handler reads it: fault, if at all, before any
		 * register holds a lane */
		(void)mem_read(insn_ea(c, i), memsz == 4 && (ic->rex & 8) ? 8 : memsz);
	} else if (form == V_GPR) {
		/* no XMM source */
	} else if (ic->mod != 3) {
		unsigned n = memsz;

		if (form == V_WIDEN || (form != V_CNT && form != V_SCAL && memsz == 16) ||
		    (fl & AV_DUP))
			n = l256 ? ((fl & AV_DUP) ? 32 : 2 * memsz) : memsz;
		if (!vmem_read(c, i, src2, n, fl & AV_ALIGN))
			return;
		if (form == V_WIDEN && l256) { /* lane 1's input at the bottom of its slot */
			memmove(&src2[1], (uint8_t *)src2 + memsz, memsz);
			memset((uint8_t *)&src2[1] + memsz, 0, 16 - memsz);
		}
	} else if (form == V_WIDEN) {
		src2[0] = c->xmm[i->rm];
		memcpy(&src2[1], (uint8_t *)&c->xmm[i->rm] + memsz, memsz);
	} else {
		ymm_get(c, i->rm, src2);
	}
	ymm_get(c, v, src1);

	/* the lane runs on the destination register and a scratch one */
	dst = form == V_SHI ? i->rm : i->reg;
	scratch = form == V_SHI || form == V_GPR ? dst : (ic->mod == 3 && i->rm != i->reg ? i->rm : i->reg ^ 1);
	save_dst = c->xmm[dst];
	save_scratch = c->xmm[scratch];
	if (form != V_SHI && form != V_GPR) {
		insn_cold(li)->mod = 3;
		li->rm = (uint8_t)scratch;
	}
	for (unsigned k = 0; k < lanes; k++) {
		const cpu_xmm *s2 = form == V_CNT || form == V_SCAL ? &src2[0] : &src2[k];

		if (form == V_SHI) {
			c->xmm[dst] = src2[k];
		} else {
			c->xmm[dst] = src1[k];
			if (form != V_GPR)
				c->xmm[scratch] = *s2;
		}
		if (fl & AV_IMM2)
			insn_imm(li) = k ? insn_imm(i) >> 2 : insn_imm(i);
		else if (fl & AV_IMM3)
			insn_imm(li) = k ? insn_imm(i) >> 3 : insn_imm(i);
		else if (fl & AV_IMM4)
			insn_imm(li) = k ? insn_imm(i) >> 4 : insn_imm(i);
		legacy(c, li);
		res[k] = c->xmm[dst];
		c->xmm[scratch] = save_scratch;
		c->xmm[dst] = save_dst;
		if (c->stop != CPU_STOP_NONE)
			return; /* #GP, #XM: nothing written */
	}
	if (form == V_NARROW && lanes == 2)
		res[0].q[1] = res[1].q[0];
	ymm_set(c, form == V_SHI ? v : i->reg, res, lanes == 2 && form != V_NARROW);
}

/* One handler per table row. */
#define AVX(map, opc, pfx, grp, name, legacy, form, memsz, fl) \
	void op_v_##name(struct cpu *c, const struct insn *i) \
	{ \
		avx_lanes(c, i, legacy, form, memsz, fl); \
	}
#define OP(map, opc, pfx, grp, handler, flags)
#include "cpu/opcodes_avx.def"
#undef OP

/* ---- moves ---- */

/* VMOVUPS/UPD/DQU and VMOVAPS/APD/DQA/NTxx stores: r/m = reg. */
static void store_ymm(struct cpu *c, const struct insn *i, bool align)
{
	bool l256 = VEX_L(i);
	cpu_xmm v[2];

	if (!avx_ok(c, i, true, true))
		return;
	ymm_get(c, i->reg, v);
	if (insn_cold(i)->mod == 3) {
		ymm_set(c, i->rm, v, l256);
		return;
	}
	uint64_t a = insn_ea(c, i);
	unsigned n = l256 ? 32 : 16;

	if (align && (a & (n - 1))) {
		cpu_raise_addr(c, VEC_GP, a);
		return;
	}
	vmem_write(c, a, v, n);
}

void op_v_movu_store(struct cpu *c, const struct insn *i)
{
	store_ymm(c, i, false);
}

void op_v_mova_store(struct cpu *c, const struct insn *i)
{
	store_ymm(c, i, true);
}

/* VMOVSS/VMOVSD (F3/F2 0F 10): memory: the element, the rest 0 (vvvv
 * 1111b); registers: element of r/m, bits 127:size of vvvv. */
static void movs_load(struct cpu *c, const struct insn *i, unsigned sz)
{
	cpu_xmm r[2] = { { { 0 } }, { { 0 } } };

	if (!avx_ok(c, i, true, insn_cold(i)->mod != 3))
		return;
	if (insn_cold(i)->mod != 3) {
		uint64_t v = mem_read(insn_ea(c, i), sz);

		memcpy(&r[0], &v, sz);
	} else {
		r[0] = c->xmm[VEX_V(i)];
		memcpy(&r[0], &c->xmm[i->rm], sz);
	}
	ymm_set(c, i->reg, r, false);
}

/* F3/F2 0F 11: memory: store the element (vvvv 1111b); registers: r/m =
 * element of reg, bits 127:size of vvvv. */
static void movs_store(struct cpu *c, const struct insn *i, unsigned sz)
{
	if (!avx_ok(c, i, true, insn_cold(i)->mod != 3))
		return;
	if (insn_cold(i)->mod != 3) {
		mem_write(insn_ea(c, i), sz, sz == 8 ? c->xmm[i->reg].q[0] : c->xmm[i->reg].d[0]);
	} else {
		cpu_xmm r[2] = { c->xmm[VEX_V(i)], { { 0 } } };

		memcpy(&r[0], &c->xmm[i->reg], sz);
		ymm_set(c, i->rm, r, false);
	}
}

void op_v_movss_load(struct cpu *c, const struct insn *i)
{
	movs_load(c, i, 4);
}

void op_v_movsd_load(struct cpu *c, const struct insn *i)
{
	movs_load(c, i, 8);
}

void op_v_movss_store(struct cpu *c, const struct insn *i)
{
	movs_store(c, i, 4);
}

void op_v_movsd_store(struct cpu *c, const struct insn *i)
{
	movs_store(c, i, 8);
}

/* VMOVLPS/VMOVLPD xmm, vvvv, m64 (low half from memory, high from vvvv);
 * register form (NP): VMOVHLPS (low = r/m's high half). VEX.128 only. */
void op_v_movlps_load(struct cpu *c, const struct insn *i)
{
	cpu_xmm r[2] = { c->xmm[VEX_V(i)], { { 0 } } };

	if (!avx_ok(c, i, false, false))
		return;
	r[0].q[0] = insn_cold(i)->mod == 3 ? c->xmm[i->rm].q[1] : mem_read(insn_ea(c, i), 8);
	ymm_set(c, i->reg, r, false);
}

/* VMOVHPS/VMOVHPD xmm, vvvv, m64 (high half from memory, low from vvvv);
 * register form (NP): VMOVLHPS (high = r/m's low half). */
void op_v_movhps_load(struct cpu *c, const struct insn *i)
{
	cpu_xmm r[2] = { c->xmm[VEX_V(i)], { { 0 } } };

	if (!avx_ok(c, i, false, false))
		return;
	r[0].q[1] = insn_cold(i)->mod == 3 ? c->xmm[i->rm].q[0] : mem_read(insn_ea(c, i), 8);
	ymm_set(c, i->reg, r, false);
}

void op_v_movlps_store(struct cpu *c, const struct insn *i)
{
	if (avx_ok(c, i, false, true))
		mem_write(insn_ea(c, i), 8, c->xmm[i->reg].q[0]);
}

void op_v_movhps_store(struct cpu *c, const struct insn *i)
{
	if (avx_ok(c, i, false, true))
		mem_write(insn_ea(c, i), 8, c->xmm[i->reg].q[1]);
}

/* VMOVQ xmm/m64, xmm (66 0F D6): a register destination gets the low
 * quadword and 0 above. */
void op_v_movq_store(struct cpu *c, const struct insn *i)
{
	if (!avx_ok(c, i, false, true))
		return;
	if (insn_cold(i)->mod == 3) {
		cpu_xmm r[2] = { { { 0 } }, { { 0 } } };

		r[0].q[0] = c->xmm[i->reg].q[0];
		ymm_set(c, i->rm, r, false);
	} else {
		mem_write(insn_ea(c, i), 8, c->xmm[i->reg].q[0]);
	}
}

/* ---- masks and tests ---- */

static void put_mask(struct cpu *c, const struct insn *i, uint32_t m)
{
	reg_set(c, i->reg, c->mode == CPU_MODE_64 ? 8 : 4, m);
}

void op_v_movmskps(struct cpu *c, const struct insn *i)
{
	cpu_xmm v[2];
	uint32_t m = 0;

	if (!avx_ok(c, i, true, true))
		return;
	ymm_get(c, i->rm, v);
	for (unsigned k = 0; k < (VEX_L(i) ? 8u : 4u); k++)
		m |= (v[k / 4].d[k % 4] >> 31) << k;
	put_mask(c, i, m);
}

void op_v_movmskpd(struct cpu *c, const struct insn *i)
{
	cpu_xmm v[2];
	uint32_t m = 0;

	if (!avx_ok(c, i, true, true))
		return;
	ymm_get(c, i->rm, v);
	for (unsigned k = 0; k < (VEX_L(i) ? 4u : 2u); k++)
		m |= (uint32_t)(v[k / 2].q[k % 2] >> 63) << k;
	put_mask(c, i, m);
}

void op_v_pmovmskb(struct cpu *c, const struct insn *i)
{
	cpu_xmm v[2];
	uint32_t m = 0;

	if (!avx_ok(c, i, true, true))
		return;
	ymm_get(c, i->rm, v);
	for (unsigned k = 0; k < (VEX_L(i) ? 32u : 16u); k++)
		m |= (uint32_t)(v[k / 16].b[k % 16] >> 7) << k;
	put_mask(c, i, m);
}

/* The 256- or 128-bit r/m operand (unaligned): false on a fault raised. */
static bool rm_ymm(struct cpu *c, const struct insn *i, cpu_xmm v[2])
{
	memset(v, 0, 2 * sizeof(cpu_xmm));
	if (insn_cold(i)->mod == 3) {
		ymm_get(c, i->rm, v);
		return true;
	}
	return vmem_read(c, i, v, VEX_L(i) ? 32 : 16, false);
}

/* ZF = (a & b) == 0, CF = (~a & b) == 0 over the bits of mask; the other
 * arithmetic flags 0. */
static void test_flags(struct cpu *c, const cpu_xmm a[2], const cpu_xmm b[2], unsigned n,
		       uint64_t mask)
{
	uint64_t and = 0, andn = 0;

	for (unsigned k = 0; k < n; k++) {
		and |= a[k / 2].q[k % 2] & b[k / 2].q[k % 2] & mask;
		andn |= ~a[k / 2].q[k % 2] & b[k / 2].q[k % 2] & mask;
	}
	cpu_set_rflags(c, (cpu_get_rflags(c) & ~0x8d5ull) | (and ? 0 : 0x40) | (andn ? 0 : 1));
}

static void vtest(struct cpu *c, const struct insn *i, uint64_t mask)
{
	cpu_xmm a[2], b[2];

	if (!avx_ok(c, i, true, true) || !rm_ymm(c, i, b))
		return;
	ymm_get(c, i->reg, a);
	test_flags(c, a, b, VEX_L(i) ? 4 : 2, mask);
}

void op_v_ptest(struct cpu *c, const struct insn *i)
{
	vtest(c, i, ~0ull);
}

void op_v_testps(struct cpu *c, const struct insn *i)
{
	if (avx_enabled(c) && !w_is(c, i, 0))
		return;
	vtest(c, i, 0x8000000080000000ull);
}

void op_v_testpd(struct cpu *c, const struct insn *i)
{
	if (avx_enabled(c) && !w_is(c, i, 0))
		return;
	vtest(c, i, 0x8000000000000000ull);
}

/* VBLENDVPS/PD, VPBLENDVB: element of r/m where the mask register's
 * (imm8[7:4]) element has its top bit set, else of vvvv. */
static void blendv(struct cpu *c, const struct insn *i, unsigned esz)
{
	cpu_xmm a[2], b[2], m[2], r[2];
	unsigned mr = (unsigned)(insn_imm(i) >> 4) & (c->mode == CPU_MODE_64 ? 15 : 7);

	if (avx_enabled(c) && !w_is(c, i, 0))
		return;
	if (!avx_ok(c, i, true, false) || !rm_ymm(c, i, b))
		return;
	ymm_get(c, VEX_V(i), a);
	ymm_get(c, mr, m);
	for (unsigned k = 0; k < 32; k += esz) {
		bool sel = m[k / 16].b[k % 16 + esz - 1] & 0x80;

		memcpy(&r[k / 16].b[k % 16], sel ? &b[k / 16].b[k % 16] : &a[k / 16].b[k % 16], esz);
	}
	ymm_set(c, i->reg, r, VEX_L(i));
}

void op_v_blendvps(struct cpu *c, const struct insn *i)
{
	blendv(c, i, 4);
}

void op_v_blendvpd(struct cpu *c, const struct insn *i)
{
	blendv(c, i, 8);
}

void op_v_pblendvb(struct cpu *c, const struct insn *i)
{
	blendv(c, i, 1);
}

/* VINSERTPS xmm, vvvv, xmm/m32, imm8: as INSERTPS on vvvv (count_s from
 * imm8[7:6] for a register source, the m32 itself otherwise). */
void op_v_insertps(struct cpu *c, const struct insn *i)
{
	cpu_xmm r[2] = { c->xmm[VEX_V(i)], { { 0 } } };
	uint32_t e;

	if (!avx_ok(c, i, false, false))
		return;
	e = insn_cold(i)->mod == 3 ? c->xmm[i->rm].d[(insn_imm(i) >> 6) & 3] : (uint32_t)mem_read(insn_ea(c, i), 4);
	r[0].d[(insn_imm(i) >> 4) & 3] = e;
	for (unsigned k = 0; k < 4; k++)
		if (insn_imm(i) & (1u << k))
			r[0].d[k] = 0;
	ymm_set(c, i->reg, r, false);
}

/* VLDMXCSR/VSTMXCSR (VEX.128, vvvv 1111b). */
void op_v_ldmxcsr(struct cpu *c, const struct insn *i)
{
	if (avx_ok(c, i, false, true))
		op_ldmxcsr_Md(c, i);
}

void op_v_stmxcsr(struct cpu *c, const struct insn *i)
{
	if (avx_ok(c, i, false, true))
		op_stmxcsr_Md(c, i);
}

/* ---- VCMPPS/PD/SS/SD: the 32 predicates, portable C ----
 * Outcome bits 1 LT, 2 EQ, 4 GT, 8 unordered; a predicate (imm8 & 31) is
 * the set of outcomes it is true for (the low 4 bits; 16..31 are 0..15
 * with the other signalling) and whether a QNaN operand signals invalid.
 * Compared as integers (sign and magnitude), never with host FP compares,
 * whose flags would land in the host MXCSR the SSE fast path shares with
 * the guest (sse_host.c). Per element: #I for an SNaN (or any NaN with a
 * signalling predicate), else #D for a denormal operand (none with DAZ,
 * which compares it as 0). */
#define MXCSR_IE 0x01
#define MXCSR_DE 0x02
#define MXCSR_DAZ 0x40
static const uint8_t cmp_true[16] = { 0x2, 0x1, 0x3, 0x8, 0xd, 0xe, 0xc, 0x7,
				      0xa, 0x9, 0xb, 0x0, 0x5, 0x6, 0x4, 0xf };
#define CMP_SIGNALS 0x6666u /* predicates 1 2 5 6 9 10 13 14 signal on QNaN */

/* One element of esz (4 or 8) bytes: all ones or 0; *flags gets #I/#D. */
static uint64_t cmp_elem(uint64_t a, uint64_t b, unsigned esz, unsigned pred, uint32_t mxcsr,
			 uint32_t *flags)
{
	unsigned mbits = esz == 4 ? 23 : 52;
	uint64_t sign = 1ull << (esz * 8 - 1), expm = (esz == 4 ? 0xffull : 0x7ffull) << mbits,
		 manm = (1ull << mbits) - 1, quiet = 1ull << (mbits - 1);
	bool sig = ((CMP_SIGNALS >> (pred & 15)) & 1) ^ (pred >> 4 & 1);
	uint64_t x[2] = { a, b };
	bool nan = false, snan = false, den = false;
	int64_t v[2];
	unsigned outcome;

	for (int k = 0; k < 2; k++) {
		bool e_max = (x[k] & expm) == expm, e_zero = !(x[k] & expm);

		if (e_max && (x[k] & manm)) {
			nan = true;
			snan |= !(x[k] & quiet);
		}
		if (e_zero && (x[k] & manm)) {
			if (mxcsr & MXCSR_DAZ)
				x[k] &= sign;
			else
				den = true;
		}
		v[k] = (int64_t)(x[k] & ~sign);
		if (x[k] & sign)
			v[k] = -v[k];
	}
	if (snan || (nan && sig))
		*flags |= MXCSR_IE;
	else if (den && !nan) /* a QNaN operand takes precedence over #D (SDM) */
		*flags |= MXCSR_DE;
	outcome = nan ? 8 : v[0] < v[1] ? 1 : v[0] == v[1] ? 2 : 4;
	return cmp_true[pred & 15] & outcome ? ~0ull : 0;
}

static void vcmp(struct cpu *c, const struct insn *i, unsigned esz, bool scalar)
{
	bool l256 = VEX_L(i) && !scalar;
	unsigned n = scalar ? 1 : (l256 ? 32 : 16) / esz;
	cpu_xmm a[2], b[2], r[2];
	uint32_t flags = 0;

	if (!avx_ok(c, i, true, false))
		return;
	memset(b, 0, sizeof(b));
	if (scalar && insn_cold(i)->mod != 3) {
		uint64_t v = mem_read(insn_ea(c, i), esz);

		memcpy(&b[0], &v, esz);
	} else if (scalar) {
		b[0] = c->xmm[i->rm];
	} else if (insn_cold(i)->mod != 3) {
		if (!vmem_read(c, i, b, l256 ? 32 : 16, false))
			return;
	} else {
		ymm_get(c, i->rm, b);
	}
	ymm_get(c, VEX_V(i), a);
	memcpy(r, a, sizeof(r));
	for (unsigned k = 0; k < n; k++) {
		uint64_t x = 0, y = 0, z;

		memcpy(&x, (uint8_t *)a + k * esz, esz);
		memcpy(&y, (uint8_t *)b + k * esz, esz);
		z = cmp_elem(x, y, esz, (unsigned)insn_imm(i) & 31, c->mxcsr, &flags);
		memcpy((uint8_t *)r + k * esz, &z, esz);
	}
	c->mxcsr |= flags;
	if (flags & ~(c->mxcsr >> 7) & 0x3f) {
		cpu_raise(c, VEC_XM);
		return;
	}
	ymm_set(c, i->reg, r, l256);
}

void op_v_cmpps(struct cpu *c, const struct insn *i)
{
	vcmp(c, i, 4, false);
}

void op_v_cmppd(struct cpu *c, const struct insn *i)
{
	vcmp(c, i, 8, false);
}

void op_v_cmpss(struct cpu *c, const struct insn *i)
{
	vcmp(c, i, 4, true);
}

void op_v_cmpsd(struct cpu *c, const struct insn *i)
{
	vcmp(c, i, 8, true);
}

/* ---- broadcasts, 128-bit lanes, permutes ---- */

/* dst = esz bytes of src repeated (VEX.128: 16 bytes, VEX.256: 32). */
static void broadcast(struct cpu *c, const struct insn *i, unsigned esz, bool reg_ok,
		      bool l256_only)
{
	cpu_xmm r[2];
	uint8_t e[16];

	if (avx_enabled(c) && !w_is(c, i, 0))
		return;
	if (!avx_ok(c, i, true, true) || (l256_only && !VEX_L(i)) || (!reg_ok && insn_cold(i)->mod == 3)) {
		if (c->stop == CPU_STOP_NONE)
			op_ud(c, i);
		return;
	}
	if (insn_cold(i)->mod == 3) {
		memcpy(e, &c->xmm[i->rm], esz);
	} else if (esz == 16) {
		mem_read16(insn_ea(c, i), e);
	} else {
		uint64_t v = mem_read(insn_ea(c, i), esz);

		memcpy(e, &v, esz);
	}
	for (unsigned k = 0; k < 32; k += esz)
		memcpy((uint8_t *)r + k, e, esz);
	ymm_set(c, i->reg, r, VEX_L(i));
}

/* VBROADCASTSS (register source: AVX2), VBROADCASTSD (VEX.256 only). */
void op_v_broadcastss(struct cpu *c, const struct insn *i)
{
	broadcast(c, i, 4, true, false);
}

void op_v_broadcastsd(struct cpu *c, const struct insn *i)
{
	broadcast(c, i, 8, true, true);
}

void op_v_broadcastf128(struct cpu *c, const struct insn *i)
{
	broadcast(c, i, 16, false, true);
}

void op_v_pbroadcastb(struct cpu *c, const struct insn *i)
{
	broadcast(c, i, 1, true, false);
}

void op_v_pbroadcastw(struct cpu *c, const struct insn *i)
{
	broadcast(c, i, 2, true, false);
}

void op_v_pbroadcastd(struct cpu *c, const struct insn *i)
{
	broadcast(c, i, 4, true, false);
}

void op_v_pbroadcastq(struct cpu *c, const struct insn *i)
{
	broadcast(c, i, 8, true, false);
}

/* VINSERTF128/I128 ymm, vvvv, xmm/m128, imm8 (VEX.256 only). */
void op_v_insertf128(struct cpu *c, const struct insn *i)
{
	cpu_xmm r[2], s;

	if (avx_enabled(c) && !w_is(c, i, 0))
		return;
	if (!avx_ok(c, i, true, false))
		return;
	if (!VEX_L(i)) {
		op_ud(c, i);
		return;
	}
	if (insn_cold(i)->mod == 3)
		s = c->xmm[i->rm];
	else
		mem_read16(insn_ea(c, i), &s);
	ymm_get(c, VEX_V(i), r);
	r[insn_imm(i) & 1] = s;
	ymm_set(c, i->reg, r, true);
}

/* VEXTRACTF128/I128 xmm/m128, ymm, imm8 (VEX.256 only). */
void op_v_extractf128(struct cpu *c, const struct insn *i)
{
	cpu_xmm v[2], r[2] = { { { 0 } }, { { 0 } } };

	if (avx_enabled(c) && !w_is(c, i, 0))
		return;
	if (!avx_ok(c, i, true, true))
		return;
	if (!VEX_L(i)) {
		op_ud(c, i);
		return;
	}
	ymm_get(c, i->reg, v);
	if (insn_cold(i)->mod == 3) {
		r[0] = v[insn_imm(i) & 1];
		ymm_set(c, i->rm, r, false);
	} else {
		mem_write16(insn_ea(c, i), &v[insn_imm(i) & 1]);
	}
}

/* VPERM2F128/I128 ymm, vvvv, ymm/m256, imm8: each half picks one of four
 * halves (imm8 bits 1:0 / 5:4) or 0 (bit 3 / 7). VEX.256 only. */
void op_v_perm2f128(struct cpu *c, const struct insn *i)
{
	cpu_xmm a[2], b[2], src[4], r[2];

	if (avx_enabled(c) && !w_is(c, i, 0))
		return;
	if (!avx_ok(c, i, true, false))
		return;
	if (!VEX_L(i)) {
		op_ud(c, i);
		return;
	}
	if (!rm_ymm(c, i, b))
		return;
	ymm_get(c, VEX_V(i), a);
	src[0] = a[0], src[1] = a[1], src[2] = b[0], src[3] = b[1];
	for (int h = 0; h < 2; h++) {
		unsigned sel = (unsigned)(insn_imm(i) >> (4 * h));

		if (sel & 8)
			memset(&r[h], 0, sizeof(r[h]));
		else
			r[h] = src[sel & 3];
	}
	ymm_set(c, i->reg, r, true);
}

/* VPERMQ/VPERMPD ymm, ymm/m256, imm8 (VEX.256.W1, vvvv 1111b): W0 is #UD
 * on Intel (AMD runs W0 as W1, docs/cpu.md). */
void op_v_permq(struct cpu *c, const struct insn *i)
{
	cpu_xmm s[2], r[2];

	if (avx_enabled(c) && !w_is(c, i, 1))
		return;
	if (!avx_ok(c, i, true, true))
		return;
	if (!VEX_L(i)) {
		op_ud(c, i);
		return;
	}
	if (!rm_ymm(c, i, s))
		return;
	for (unsigned k = 0; k < 4; k++) {
		unsigned j = (unsigned)(insn_imm(i) >> (2 * k)) & 3;

		r[k / 2].q[k % 2] = s[j / 2].q[j % 2];
	}
	ymm_set(c, i->reg, r, true);
}

/* VPERMD/VPERMPS ymm, vvvv (indices), ymm/m256 (VEX.256 only). */
void op_v_permd(struct cpu *c, const struct insn *i)
{
	cpu_xmm idx[2], s[2], r[2];

	if (avx_enabled(c) && !w_is(c, i, 0))
		return;
	if (!avx_ok(c, i, true, false))
		return;
	if (!VEX_L(i)) {
		op_ud(c, i);
		return;
	}
	if (!rm_ymm(c, i, s))
		return;
	ymm_get(c, VEX_V(i), idx);
	for (unsigned k = 0; k < 8; k++) {
		unsigned j = idx[k / 4].d[k % 4] & 7;

		r[k / 4].d[k % 4] = s[j / 4].d[j % 4];
	}
	ymm_set(c, i->reg, r, true);
}

/* VPERMILPS/PD: within each 128-bit lane, by imm8 (r/m source, vvvv
 * 1111b) or by the control vector in r/m (source vvvv). */
static void permil(struct cpu *c, const struct insn *i, unsigned esz, bool imm)
{
	cpu_xmm s[2], ctl[2], r[2];
	unsigned per = 16 / esz, n = (VEX_L(i) ? 32 : 16) / esz;

	if (avx_enabled(c) && !w_is(c, i, 0))
		return;
	if (!avx_ok(c, i, true, imm))
		return;
	if (imm) {
		if (!rm_ymm(c, i, s))
			return;
	} else {
		if (!rm_ymm(c, i, ctl))
			return;
		ymm_get(c, VEX_V(i), s);
	}
	for (unsigned k = 0; k < n; k++) {
		unsigned lane = k / per, sel;

		if (esz == 4)
			sel = imm ? (unsigned)(insn_imm(i) >> (2 * (k % 4))) & 3 : ctl[lane].d[k % 4] & 3;
		else
			sel = imm ? (unsigned)(insn_imm(i) >> k) & 1 : (unsigned)(ctl[lane].q[k % 2] >> 1) & 1;
		if (esz == 4)
			r[lane].d[k % 4] = s[lane].d[sel];
		else
			r[lane].q[k % 2] = s[lane].q[sel];
	}
	ymm_set(c, i->reg, r, VEX_L(i));
}

void op_v_permilps_imm(struct cpu *c, const struct insn *i)
{
	permil(c, i, 4, true);
}

void op_v_permilpd_imm(struct cpu *c, const struct insn *i)
{
	permil(c, i, 8, true);
}

void op_v_permilps(struct cpu *c, const struct insn *i)
{
	permil(c, i, 4, false);
}

void op_v_permilpd(struct cpu *c, const struct insn *i)
{
	permil(c, i, 8, false);
}

/* VPBLENDD: dword k from r/m where imm8 bit k is set, else from vvvv. */
void op_v_pblendd(struct cpu *c, const struct insn *i)
{
	cpu_xmm a[2], b[2], r[2];

	if (avx_enabled(c) && !w_is(c, i, 0))
		return;
	if (!avx_ok(c, i, true, false) || !rm_ymm(c, i, b))
		return;
	ymm_get(c, VEX_V(i), a);
	for (unsigned k = 0; k < 8; k++)
		r[k / 4].d[k % 4] = (insn_imm(i) >> k) & 1 ? b[k / 4].d[k % 4] : a[k / 4].d[k % 4];
	ymm_set(c, i->reg, r, VEX_L(i));
}

/* VPSLLVD/Q, VPSRLVD/Q, VPSRAVD: each element of vvvv shifted by the
 * matching element of r/m (VEX.W: quadwords; VPSRAV has no W1 form:
 * #UD... counts past the width give 0, or the sign for VPSRAVD). */
enum { SH_LEFT, SH_RIGHT, SH_ARITH };

static void shiftv(struct cpu *c, const struct insn *i, int kind)
{
	bool q = VEX_W(i);
	cpu_xmm a[2], cnt[2], r[2];
	unsigned n = (VEX_L(i) ? 32 : 16) / (q ? 8 : 4);

	if (!avx_ok(c, i, true, false))
		return;
	if (kind == SH_ARITH && q) {
		op_ud(c, i); /* VPSRAVQ is AVX-512 */
		return;
	}
	if (!rm_ymm(c, i, cnt))
		return;
	ymm_get(c, VEX_V(i), a);
	for (unsigned k = 0; k < n; k++) {
		if (q) {
			uint64_t x = a[k / 2].q[k % 2], s = cnt[k / 2].q[k % 2];

			r[k / 2].q[k % 2] = s > 63 ? 0 : kind == SH_LEFT ? x << s : x >> s;
		} else {
			uint32_t x = a[k / 4].d[k % 4], s = cnt[k / 4].d[k % 4];

			if (kind == SH_ARITH)
				r[k / 4].d[k % 4] = (uint32_t)((int32_t)x >> (s > 31 ? 31 : s));
			else
				r[k / 4].d[k % 4] = s > 31 ? 0 : kind == SH_LEFT ? x << s : x >> s;
		}
	}
	ymm_set(c, i->reg, r, VEX_L(i));
}

void op_v_psllv(struct cpu *c, const struct insn *i)
{
	shiftv(c, i, SH_LEFT);
}

void op_v_psrlv(struct cpu *c, const struct insn *i)
{
	shiftv(c, i, SH_RIGHT);
}

void op_v_psrav(struct cpu *c, const struct insn *i)
{
	shiftv(c, i, SH_ARITH);
}

/* ---- masked loads and stores ----
 * VMASKMOVPS/PD, VPMASKMOVD/Q: the elements whose mask (vvvv) element has
 * its top bit set are loaded (the rest 0) or stored; masked-out elements
 * never fault. */
/* A masked store faults, with nothing written, when a masked-in element
 * touches a page it may not write. Intel (measured on a Xeon) checks the
 * first byte of the lowest masked-in element, then the last byte of the
 * highest: the fault names the first of those that fails (AMD: the first
 * byte a masked-in element writes on the failing page, docs/cpu.md).
 * Within one page the in-order element stores fault at the first. */
static void maskmov_probe(uint64_t a, const uint8_t *mask, unsigned n, unsigned esz)
{
	unsigned lo = n, hi = 0;

	for (unsigned k = 0; k < n; k++)
		if (mask[k * esz + esz - 1] & 0x80) {
			lo = lo < k ? lo : k;
			hi = k;
		}
	if (lo == n)
		return;
	store_guard(a + lo * esz, 1);
	store_probe(a + lo * esz);
	store_guard(a + hi * esz + esz - 1, 1);
	store_probe(a + hi * esz + esz - 1);
}

static void maskmov(struct cpu *c, const struct insn *i, unsigned esz, bool store)
{
	cpu_xmm m[2], v[2];
	uint64_t a = insn_ea(c, i);
	unsigned n = (VEX_L(i) ? 32 : 16) / esz;

	if (!avx_ok(c, i, true, false))
		return;
	ymm_get(c, VEX_V(i), m);
	if (store) {
		ymm_get(c, i->reg, v);
		if ((a & 4095) + n * esz > 4096)
			maskmov_probe(a, (const uint8_t *)m, n, esz);
		for (unsigned k = 0; k < n; k++) {
			uint64_t e = 0;

			if (!(((uint8_t *)m)[k * esz + esz - 1] & 0x80))
				continue;
			memcpy(&e, (uint8_t *)v + k * esz, esz);
			mem_write(a + k * esz, esz, e);
		}
		return;
	}
	memset(v, 0, sizeof(v));
	for (unsigned k = 0; k < n; k++) {
		uint64_t e;

		if (!(((uint8_t *)m)[k * esz + esz - 1] & 0x80))
			continue;
		e = mem_read(a + k * esz, esz);
		memcpy((uint8_t *)v + k * esz, &e, esz);
	}
	ymm_set(c, i->reg, v, VEX_L(i));
}

void op_v_maskmovps_load(struct cpu *c, const struct insn *i)
{
	if (avx_enabled(c) && !w_is(c, i, 0))
		return;
	maskmov(c, i, 4, false);
}

void op_v_maskmovpd_load(struct cpu *c, const struct insn *i)
{
	if (avx_enabled(c) && !w_is(c, i, 0))
		return;
	maskmov(c, i, 8, false);
}

void op_v_maskmovps_store(struct cpu *c, const struct insn *i)
{
	if (avx_enabled(c) && !w_is(c, i, 0))
		return;
	maskmov(c, i, 4, true);
}

void op_v_maskmovpd_store(struct cpu *c, const struct insn *i)
{
	if (avx_enabled(c) && !w_is(c, i, 0))
		return;
	maskmov(c, i, 8, true);
}

void op_v_pmaskmov_load(struct cpu *c, const struct insn *i)
{
	maskmov(c, i, VEX_W(i) ? 8 : 4, false);
}

void op_v_pmaskmov_store(struct cpu *c, const struct insn *i)
{
	maskmov(c, i, VEX_W(i) ? 8 : 4, true);
}

/* ---- gathers (AVX2): VPGATHERDD/DQ/QD/QQ, VGATHERDPS/DPD/QPS/QPD ----
 * VSIB: ModRM.rm = 100b and a SIB whose index names a vector register
 * (the decoder's GREG_NONE is index 4: xmm4). Element j, where the mask
 * (vvvv) element's top bit is set, is loaded from base + sext(index j) <<
 * scale + disp and its mask element cleared, in order, in place: a fault
 * leaves the elements before it done (the instruction restarts from the
 * rest), as the hardware. Then the whole mask register is 0; VEX.128
 * forms (and the 128-bit results of the QD/QPS forms) clear what lies
 * above. #UD without SIB or when destination, index and mask are not
 * three different registers. */
static void gather(struct cpu *c, const struct insn *i, bool qidx)
{
	const struct insn_cold *ic = insn_cold(i);
	bool l256 = VEX_L(i), qelem = VEX_W(i);
	unsigned esz = qelem ? 8 : 4, isz = qidx ? 8 : 4;
	unsigned n = (l256 ? 32 : 16) / (qidx || qelem ? 8 : 4);
	unsigned dst = i->reg, mask = VEX_V(i), vidx;
	bool wide_dst = l256 && !(qidx && !qelem); /* QD/QPS: 128-bit result */
	struct insn *li = insn_scratch_lanes(c, i);
	uint64_t base;
	cpu_xmm idx[2];

	if (!avx_enabled(c) || ic->mod == 3 || (ic->modrm & 7) != 4 || ic->asz == 2) {
		op_ud(c, i);
		return;
	}
	vidx = insn_index(i) == GREG_NONE ? 4 : insn_index(i);
	if (dst == vidx || dst == mask || vidx == mask) {
		op_ud(c, i);
		return;
	}
	insn_set_index(li, GREG_NONE, insn_scale(i));
	base = insn_ea(c, li);
	ymm_get(c, vidx, idx);
	for (unsigned j = 0; j < n; j++) {
		uint8_t *m = (uint8_t *)(j * esz < 16 ? &c->xmm[mask] : &c->ymm_hi[mask]) + (j * esz) % 16;
		uint8_t *d = (uint8_t *)(j * esz < 16 ? &c->xmm[dst] : &c->ymm_hi[dst]) + (j * esz) % 16;
		int64_t ix;
		uint64_t a, v;

		if (!(m[esz - 1] & 0x80))
			continue;
		if (isz == 8) {
			ix = (int64_t)idx[j / 2].q[j % 2];
		} else {
			ix = (int32_t)idx[j / 4].d[j % 4];
		}
		a = (base + ((uint64_t)ix << insn_scale(i))) & (c->mode == CPU_MODE_64 && ic->asz == 8
								    ? ~0ull : 0xffffffffull);
		v = mem_read(a, esz);
		memcpy(d, &v, esz);
		memset(m, 0, esz);
	}
	memset(&c->xmm[mask], 0, sizeof(cpu_xmm));
	memset(&c->ymm_hi[mask], 0, sizeof(cpu_xmm));
	if (!wide_dst)
		memset(&c->ymm_hi[dst], 0, sizeof(cpu_xmm));
	if (n * esz < 16) /* QD/QPS VEX.128: two dwords */
		memset((uint8_t *)&c->xmm[dst] + n * esz, 0, 16 - n * esz);
}

void op_v_gather_d(struct cpu *c, const struct insn *i)
{
	gather(c, i, false);
}

void op_v_gather_q(struct cpu *c, const struct insn *i)
{
	gather(c, i, true);
}

/* ---- direct forms ----
 * The lane adapter's register shuffle costs more than these operations,
 * which OpenSSL's AES-GCM and glibc's string functions are mostly made of. */

/* VMOVUPS/UPD/DQU, VLDDQU (memory only), VMOVAPS/APD/DQA, VMOVNTDQA
 * (memory only; aligned to 16 or 32): dst = r/m, vvvv 1111b. */
static void vload(struct cpu *c, const struct insn *i, bool align)
{
	cpu_xmm v[2];

	if (!avx_ok(c, i, true, true))
		return;
	if (insn_cold(i)->mod == 3)
		ymm_get(c, i->rm, v);
	else if (!vmem_read(c, i, v, VEX_L(i) ? 32 : 16, align))
		return;
	ymm_set(c, i->reg, v, VEX_L(i));
}

#define VLOAD(name, align) \
	void op_v_##name(struct cpu *c, const struct insn *i) \
	{ \
		vload(c, i, align); \
	}
VLOAD(movups, false) VLOAD(movupd, false) VLOAD(movdqu, false) VLOAD(lddqu, false)
VLOAD(movaps, true) VLOAD(movapd, true) VLOAD(movdqa, true) VLOAD(movntdqa, true)
#undef VLOAD

/* Bitwise logic of vvvv and r/m, 256 or 128 bits. */
#define VLOGIC(name, EXPR) \
	void op_v_##name(struct cpu *c, const struct insn *i) \
	{ \
		cpu_xmm a[2], b[2], r[2]; \
		if (!avx_ok(c, i, true, false) || !rm_ymm(c, i, b)) \
			return; \
		ymm_get(c, VEX_V(i), a); \
		for (int k = 0; k < 4; k++) { \
			uint64_t x = a[k / 2].q[k % 2], y = b[k / 2].q[k % 2]; \
			r[k / 2].q[k % 2] = (EXPR); \
		} \
		ymm_set(c, i->reg, r, VEX_L(i)); \
	}
VLOGIC(andps, x & y) VLOGIC(andpd, x & y) VLOGIC(pand, x & y)
VLOGIC(andnps, ~x & y) VLOGIC(andnpd, ~x & y) VLOGIC(pandn, ~x & y)
VLOGIC(orps, x | y) VLOGIC(orpd, x | y) VLOGIC(por, x | y)
VLOGIC(xorps, x ^ y) VLOGIC(xorpd, x ^ y) VLOGIC(pxor, x ^ y)
#undef VLOGIC

/* The other SSE2 integer operations of sse_lanes.h: dst = lane(vvvv, r/m)
 * on each 128-bit lane. */
#define VLANE(name, ...) \
	void op_v_##name(struct cpu *c, const struct insn *i) \
	{ \
		cpu_xmm a[2], b[2]; \
		if (!avx_ok(c, i, true, false) || !rm_ymm(c, i, b)) \
			return; \
		ymm_get(c, VEX_V(i), a); \
		lane_##name(&a[0], &b[0]); \
		if (VEX_L(i)) \
			lane_##name(&a[1], &b[1]); \
		ymm_set(c, i->reg, a, VEX_L(i)); \
	}
VLANE(pcmpeqb) VLANE(pcmpeqw) VLANE(pcmpeqd) VLANE(pcmpgtb) VLANE(pcmpgtw) VLANE(pcmpgtd)
VLANE(paddb) VLANE(paddw) VLANE(paddd) VLANE(paddq) VLANE(psubb) VLANE(psubw) VLANE(psubd)
VLANE(psubq) VLANE(paddusb) VLANE(paddusw) VLANE(psubusb) VLANE(psubusw) VLANE(pminub)
VLANE(pmaxub) VLANE(pminsw) VLANE(pmaxsw)
#undef VLANE

/* AES-NI and PCLMULQDQ, VEX.128: dst = op(vvvv, r/m) (AESIMC and
 * AESKEYGENASSIST: op(r/m), vvvv 1111b); the host's instruction where it
 * has it, else the portable C (crypto.c). */
static void vcrypto(struct cpu *c, const struct insn *i, enum crypto_op op, bool nds)
{
	cpu_xmm d, s, r[2];

	if (!avx_ok(c, i, false, !nds))
		return;
	if (insn_cold(i)->mod == 3)
		s = c->xmm[i->rm];
	else
		mem_read16(insn_ea(c, i), &s);
	d = nds ? c->xmm[VEX_V(i)] : s;
	if (!crypto_host(op, &d, &s, (unsigned)insn_imm(i) & 0xff, &c->xmm[0]))
		crypto_portable(op, &d, &s, (unsigned)insn_imm(i) & 0xff, &c->xmm[0]);
	r[0] = d;
	ymm_set(c, i->reg, r, false);
}

#define VCRYPTO(name, op, nds) \
	void op_v_##name(struct cpu *c, const struct insn *i) \
	{ \
		vcrypto(c, i, op, nds); \
	}
VCRYPTO(aesenc, CR_AESENC, true) VCRYPTO(aesenclast, CR_AESENCLAST, true)
VCRYPTO(aesdec, CR_AESDEC, true) VCRYPTO(aesdeclast, CR_AESDECLAST, true)
VCRYPTO(aesimc, CR_AESIMC, false) VCRYPTO(aeskeygenassist, CR_AESKEYGENASSIST, false)
VCRYPTO(pclmulqdq, CR_PCLMULQDQ, true)
#undef VCRYPTO

/* The direct forms' exec forms with the handler inlined (EXEC rows of
 * handler_props.def). */
SG_EXEC_FORMS_avx
