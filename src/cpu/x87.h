/* x87/SSE state as the host hardware sees it. Private to src/cpu.
 *
 * The guest's 80-bit registers are host long doubles (the x87 extended
 * format on x86-64); this header is the one place that choice shows. x87
 * instructions run on the host FPU: the guest's x87 (and, when asked, SSE)
 * state goes into an FXSAVE image, FXRSTOR64 loads it, the very instruction
 * executes from a thunk, FXSAVE64 captures the result, FNINIT and the host
 * MXCSR put the host back. Exact by construction: precision and rounding
 * control, condition codes, tags, stack faults and masked responses are the
 * hardware's own. */
#ifndef SG_CPU_X87_H
#define SG_CPU_X87_H

#include "cpu/insn.h"

_Static_assert(sizeof(long double) == 16 && __LDBL_MANT_DIG__ == 64,
	       "guest x87 registers need the host's 80-bit long double");

/* FXSAVE64 image (SDM Vol. 1, 10.5.1, 64-bit format). */
struct fx_area {
	uint16_t fcw, fsw;
	uint8_t ftw, rsvd0;
	uint16_t fop;
	uint64_t fip, fdp;
	uint32_t mxcsr, mxcsr_mask;
	uint8_t st[8][16];  /* stack order: ST0 first */
	uint8_t xmm[16][16];
	uint8_t rsvd[96];
} __attribute__((aligned(16)));
_Static_assert(sizeof(struct fx_area) == 512, "FXSAVE area is 512 bytes");

#define FSW_TOP 0x3800
#define FSW_ES 0x0080
#define MXCSR_MASK 0xffffu /* DAZ supported; bits 16..31 reserved */

/* Guest state <-> FXSAVE image; with_sse adds MXCSR and the XMM registers. */
void x87_to_fx(const struct cpu *c, struct fx_area *fx, bool with_sse);
void x87_from_fx(struct cpu *c, const struct fx_area *fx, bool with_sse);

/* FXRSTOR64 fx; call thunk with rdi = mem; FXSAVE64 fx; FNINIT. With
 * rflags, RFLAGS is *rflags around the thunk and *rflags RFLAGS after. The
 * MXCSR is fx's afterwards: x87_to_fx without SSE puts the host's there. */
void x87_host_call(struct fx_area *fx, const void *thunk, void *mem, uint64_t *rflags);

/* The legacy (FXSAVE) image of c's x87/SSE state as the host's FXSAVE
 * (w: FXSAVE64) stores it into img (bytes it does not write keep img's;
 * XMM8..15 are c's in every mode), and c's state from img as FXRSTOR(64)
 * loads it (XMM8..15 kept outside 64-bit mode). fxsave.c. */
void fx_host_save(const struct cpu *c, void *img, bool w);
void fx_host_load(struct cpu *c, const void *img, bool w);

/* The thunk of an x87 encoding: opcode - 0xd8, and slot ModRM.reg (memory
 * forms, operand at (%rdi)) or 8 + ModRM - 0xc0 (register forms). */
const uint8_t *x87_thunk(unsigned op, unsigned slot);

/* The fast path (x87_fast.c): runs i's thunk on just the guest's stack when
 * that is exact; false if the slow path must run. */
bool x87_fast_run(struct cpu *c, const struct insn *i, unsigned slot, const uint8_t *thunk,
		  void *buf, uint64_t *rflags, bool flags_in);

/* An unmasked x87 exception is pending (a waiting instruction raises #MF). */
static inline bool x87_pending(const struct cpu *c)
{
	return (c->x87.fsw & FSW_ES) || (c->x87.fsw & ~c->x87.fcw & 0x3f);
}

/* MMX register k is physical x87 register k's significand. */
static inline uint64_t mmx_get(const struct cpu *c, unsigned k)
{
	uint64_t v;

	memcpy(&v, &c->x87.st[k & 7], 8);
	return v;
}

/* An MMX write: the exponent field becomes all ones; every MMX instruction
 * but EMMS also sets TOP = 0 and tags every register valid (mmx_enter). */
static inline void mmx_set(struct cpu *c, unsigned k, uint64_t v)
{
	uint8_t *p = (uint8_t *)&c->x87.st[k & 7];

	memcpy(p, &v, 8);
	p[8] = p[9] = 0xff;
}

static inline void mmx_enter(struct cpu *c)
{
	c->x87.top = 0;
	c->x87.ftw_tags = 0;
}

#endif
