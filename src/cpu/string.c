/* String instructions: MOVS, STOS, LODS, CMPS, SCAS, with REP/REPE/REPNE
 * and DF. Registers advance element by element, so a fault leaves rSI,
 * rDI and rCX at the faulting element as on hardware; REP MOVS and REP
 * STOS move whole runs at once up to the next page boundary. */
#include "cpu/ops.h"

/* Linear address of a string pointer register (rSI with the segment of
 * the instruction, rDI always with ES). */
static inline uint64_t str_addr(const struct cpu *c, const struct insn *i, unsigned r,
				unsigned seg)
{
	uint64_t a = reg_get(c, r, insn_cold(i)->asz) + c->base[seg];

	return c->mode == CPU_MODE_32 ? (uint32_t)a : a;
}

static inline void advance(struct cpu *c, const struct insn *i, unsigned r, int64_t delta)
{
	reg_set(c, r, insn_cold(i)->asz, c->r[r] + (uint64_t)delta);
}

static inline int64_t step(const struct cpu *c, unsigned sz)
{
	return c->lf.rf & FL_DF ? -(int64_t)sz : (int64_t)sz;
}

static inline uint64_t count(const struct cpu *c, const struct insn *i)
{
	return reg_get(c, R_CX, insn_cold(i)->asz);
}

static inline uint64_t to_page_end(uint64_t a)
{
	return 4096 - (a & 4095);
}

static inline bool is_rep(const struct insn *i)
{
	return insn_cold(i)->pfx & (PFX_REP | PFX_REPNE);
}

/* Intel, 64-bit mode with a 32-bit address size: REP writes ECX, and
 * REP MOVS/STOS their pointers, before the first element, so RCX's upper
 * half (and RSI/RDI's) is cleared even when ECX is 0 or the first element
 * faults (measured on a Xeon; LODS/CMPS/SCAS keep their pointers until an
 * element is done). */
static inline void rep_a32_start(struct cpu *c, const struct insn *i, bool si, bool di)
{
	if (c->mode != CPU_MODE_64 || insn_cold(i)->asz != 4)
		return;
	c->r[R_CX] = (uint32_t)c->r[R_CX];
	if (si)
		c->r[R_SI] = (uint32_t)c->r[R_SI];
	if (di)
		c->r[R_DI] = (uint32_t)c->r[R_DI];
}

/* A long REP yields to a stop request (a signal, another thread's exit, a
 * debugger) between elements, as hardware takes interrupts between
 * iterations: rCX, rSI and rDI say how far it got and rip stays at the
 * instruction, which goes on from there when the thread resumes. Tested
 * every REP_YIELD_EVERY elements by the element loops, every page by the
 * run loops. Without it a `repne lodsd` with ECX near 2^32 kept a signal
 * out for 15 s (fuzz_cpu). */
#define REP_YIELD_EVERY 4096

static bool rep_yield(struct cpu *c)
{
	if (__builtin_expect(!c->stop_requested, 1))
		return false;
	c->stop_requested = 0;
	c->stop = CPU_STOP_REQUEST;
	c->rip = c->insn_rip;
	return true;
}

/* The element loops' test: left elements still to go. */
static inline bool rep_yield_every(struct cpu *c, uint64_t left)
{
	return left != 0 && left % REP_YIELD_EVERY == 0 && rep_yield(c);
}

/* Elements of size sz from a and b that stay within their pages. */
static uint64_t run_len(uint64_t a, uint64_t b, unsigned sz, uint64_t n)
{
	uint64_t m = to_page_end(a) < to_page_end(b) ? to_page_end(a) : to_page_end(b);

	m /= sz;
	return m < n ? (m ? m : 1) : n;
}

void op_movs(struct cpu *c, const struct insn *i)
{
	unsigned sz = insn_cold(i)->osz;
	int64_t d = step(c, sz);

	if (!is_rep(i)) {
		mem_write(str_addr(c, i, R_DI, SEG_ES), sz,
			  mem_read(str_addr(c, i, R_SI, insn_seg(i)), sz));
		advance(c, i, R_SI, d);
		advance(c, i, R_DI, d);
		return;
	}
	rep_a32_start(c, i, true, true);
	for (uint64_t n = count(c, i); n;) {
		uint64_t src = str_addr(c, i, R_SI, insn_seg(i)), dst = str_addr(c, i, R_DI, SEG_ES);
		uint64_t k = d > 0 ? run_len(src, dst, sz, n) : 1;

		/* A forward copy onto an overlapping higher destination
		 * replicates the source pattern: memmove would not. */
		if (k > 1 && src >= CODE_NULL_PAGE && dst >= CODE_NULL_PAGE &&
		    (dst <= src || dst >= src + k * sz)) {
			/* the first element alone: a bad page faults at its start */
			mem_write(dst, sz, mem_read(src, sz));
			/* asm, not memmove: a sanitizer must not judge guest
			 * addresses (fuzz: a guest source in ASan's shadow) */
			guest_write(dst + sz, g2h(src + sz), (k - 1) * sz);
		} else {
			k = 1;
			mem_write(dst, sz, mem_read(src, sz));
		}
		advance(c, i, R_SI, d * (int64_t)k);
		advance(c, i, R_DI, d * (int64_t)k);
		n -= k;
		reg_set(c, R_CX, insn_cold(i)->asz, n);
		if (n && rep_yield(c))
			return;
	}
}

void op_stos(struct cpu *c, const struct insn *i)
{
	unsigned sz = insn_cold(i)->osz;
	int64_t d = step(c, sz);
	uint64_t v = reg_get(c, R_AX, sz);

	if (!is_rep(i)) {
		mem_write(str_addr(c, i, R_DI, SEG_ES), sz, v);
		advance(c, i, R_DI, d);
		return;
	}
	rep_a32_start(c, i, false, true);
	for (uint64_t n = count(c, i); n;) {
		uint64_t dst = str_addr(c, i, R_DI, SEG_ES);
		uint64_t k = d > 0 ? run_len(dst, dst, sz, n) : 1;

		if (sz == 1 && dst >= CODE_NULL_PAGE) {
			void *p = g2h(dst);
			uint64_t cnt = k;

			mem_write(dst, 1, v); /* a bad page faults at its start */
			__asm__ volatile("rep stosb" : "+D"(p), "+c"(cnt) : "a"(v) : "memory");
			code_write_check(dst, k);
		} else {
			for (uint64_t e = 0; e < k; e++)
				mem_write(dst + e * sz, sz, v);
		}
		advance(c, i, R_DI, d * (int64_t)k);
		n -= k;
		reg_set(c, R_CX, insn_cold(i)->asz, n);
		if (n && rep_yield(c))
			return;
	}
}

void op_lods(struct cpu *c, const struct insn *i)
{
	unsigned sz = insn_cold(i)->osz;
	int64_t d = step(c, sz);
	uint64_t n = is_rep(i) ? count(c, i) : 1;

	if (is_rep(i))
		rep_a32_start(c, i, false, false);
	for (; n; n--) {
		reg_set(c, R_AX, sz, mem_read(str_addr(c, i, R_SI, insn_seg(i)), sz));
		advance(c, i, R_SI, d);
		if (is_rep(i)) {
			reg_set(c, R_CX, insn_cold(i)->asz, n - 1);
			if (rep_yield_every(c, n - 1))
				return;
		}
	}
}

/* CMPS/SCAS: REPE stops when ZF = 0, REPNE when ZF = 1. */
static bool rep_done(const struct insn *i, uint64_t a, uint64_t b)
{
	return (insn_cold(i)->pfx & PFX_REPNE) ? a == b : a != b;
}

/* A REP CMPS/SCAS that faults part-way has advanced rSI/rDI/rCX but left
 * the flags as they were (host): the flags are recorded once, at the end. */
void op_cmps(struct cpu *c, const struct insn *i)
{
	unsigned sz = insn_cold(i)->osz;
	int64_t d = step(c, sz);
	uint64_t n = is_rep(i) ? count(c, i) : 1, a = 0, b = 0;
	bool any = false;

	if (is_rep(i))
		rep_a32_start(c, i, false, false);
	for (; n; n--) {
		/* Intel reads ES:rDI first (seen when both fault; AMD reads
		 * DS:rSI first: docs/cpu.md, vendor differences) */
		b = mem_read(str_addr(c, i, R_DI, SEG_ES), sz);
		a = mem_read(str_addr(c, i, R_SI, insn_seg(i)), sz);
		any = true;
		advance(c, i, R_SI, d);
		advance(c, i, R_DI, d);
		if (!is_rep(i))
			break;
		reg_set(c, R_CX, insn_cold(i)->asz, n - 1);
		if (rep_done(i, a, b))
			break;
		if (rep_yield_every(c, n - 1))
			break; /* the flags of the last element, as hardware's */
	}
	if (any)
		flags_set(c, FL_SUB, sz, a - b, a, b);
}

void op_scas(struct cpu *c, const struct insn *i)
{
	unsigned sz = insn_cold(i)->osz;
	int64_t d = step(c, sz);
	uint64_t n = is_rep(i) ? count(c, i) : 1, b = 0;
	uint64_t a = reg_get(c, R_AX, sz);
	bool any = false;

	if (is_rep(i))
		rep_a32_start(c, i, false, false);
	for (; n; n--) {
		b = mem_read(str_addr(c, i, R_DI, SEG_ES), sz);
		any = true;
		advance(c, i, R_DI, d);
		if (!is_rep(i))
			break;
		reg_set(c, R_CX, insn_cold(i)->asz, n - 1);
		if (rep_done(i, a, b))
			break;
		if (rep_yield_every(c, n - 1))
			break; /* the flags of the last element, as hardware's */
	}
	if (any)
		flags_set(c, FL_SUB, sz, a - b, a, b);
}
