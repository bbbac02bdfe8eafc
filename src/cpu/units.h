/* The bodies of the hot fast forms, each written once: a unit is an
 * always-inline function that does one instruction's work without
 * dispatching. The single forms (alu.c, shift.c, move.c) run one unit and
 * dispatch the next instruction (UNIT_FORM); the pairs (pairs.c) run two
 * and dispatch once. Private to src/cpu.
 *
 * A unit returns true when done. One that cannot finish on the fast path
 * (a store that is not plain: EXEC_STORE_OR_GENERIC's case) has changed
 * nothing; it runs its instruction through exec_generic, puts what that
 * returned in *out and returns false, and its caller returns *out at
 * once (the instruction after it, if any, runs from there). */
#ifndef SG_CPU_UNITS_H
#define SG_CPU_UNITS_H

#include "cpu/cache.h"
#include "cpu/ops.h"

/* A unit names its registers by rm_ and reg_, i->rm and i->reg as its
 * caller read them: a linked pair (pairs.c) passes the value it read for
 * the first member, so the compiler sees one register where the two
 * members name the same. unit_NAME reads them itself. */
#define UNIT_FN(NAME)                                                                       \
	static inline __attribute__((always_inline, unused)) bool unit_##NAME##_at(           \
		struct cpu *c, const struct insn *i, const struct insn **out, uint8_t rm_,    \
		uint8_t reg_);                                                                 \
	static inline __attribute__((always_inline, unused)) bool unit_##NAME(                \
		struct cpu *c, const struct insn *i, const struct insn **out)                 \
	{                                                                                     \
		return unit_##NAME##_at(c, i, out, i->rm, i->reg);                            \
	}                                                                                     \
	static inline __attribute__((always_inline, unused)) bool unit_##NAME##_at(           \
		struct cpu *c, const struct insn *i, const struct insn **out, uint8_t rm_,    \
		uint8_t reg_)

/* The single form of a unit: fast_NAME. */
#define UNIT_FORM(NAME)                                                                    \
	static const struct insn *fast_##NAME(struct cpu *c, const struct insn *i)          \
	{                                                                                  \
		const struct insn *left;                                                   \
		if (__builtin_expect(!unit_##NAME(c, i, &left), 0))                        \
			return left;                                                       \
		return exec_next(c, i);                                                    \
	}

/* The unit and its single form. */
#define UNIT_AND_FORM(NAME, BODY)                                                          \
	UNIT_FN(NAME)                                                                      \
	{                                                                                  \
		(void)out;                                                                 \
		BODY;                                                                      \
		return true;                                                               \
	}                                                                                  \
	UNIT_FORM(NAME)

/* The units' guest loads and stores (insn.h, mem_load and
 * mem_store_nocheck, without their "memory" clobber): *c an input
 * instead, so everything stored to the CPU before the access (cpu.cur,
 * the registers of the members before it) is in memory when it faults,
 * while the decoded instruction's fields and what was read from the CPU
 * stay in host registers across it (guest memory is never the CPU's or
 * the decoded code's: a store into decoded code is no plain store). */
static inline __attribute__((always_inline)) uint64_t unit_read(const struct cpu *c, uint64_t addr, unsigned sz)
{
	const void *p = g2h(addr);
	uint64_t v;

	switch (sz) {
	case 1: __asm__ volatile("movzbl (%1), %k0" : "=r"(v) : "r"(p), "m"(*c)); break;
	case 2: __asm__ volatile("movzwl (%1), %k0" : "=r"(v) : "r"(p), "m"(*c)); break;
	case 4: __asm__ volatile("movl (%1), %k0" : "=r"(v) : "r"(p), "m"(*c)); break;
	default: __asm__ volatile("movq (%1), %0" : "=r"(v) : "r"(p), "m"(*c)); break;
	}
	return v;
}

static inline __attribute__((always_inline)) void unit_write(const struct cpu *c, uint64_t addr, unsigned sz, uint64_t v)
{
	void *p = g2h(addr);

	switch (sz) {
	case 1: __asm__ volatile("movb %b1, (%0)" : : "r"(p), "q"(v), "m"(*c)); break;
	case 2: __asm__ volatile("movw %w1, (%0)" : : "r"(p), "r"(v), "m"(*c)); break;
	case 4: __asm__ volatile("movl %k1, (%0)" : : "r"(p), "r"(v), "m"(*c)); break;
	default: __asm__ volatile("movq %1, (%0)" : : "r"(p), "r"(v), "m"(*c)); break;
	}
}

/* A store about to write sz bytes at addr: one that is not plain runs the
 * instruction through its table handler instead (cache.h,
 * EXEC_STORE_OR_GENERIC). */
#define UNIT_STORE_OR_LEAVE(addr, sz)                                 \
	do {                                                          \
		if (__builtin_expect(!store_plain(addr, sz), 0)) {    \
			*out = exec_generic(c, i);                    \
			return false;                                 \
		}                                                     \
	} while (0)

/* The integer operations of the fast ALU forms: name, lazy-flag kind,
 * result of a (destination) and b (source), whether the result is written
 * (CMP and TEST only set flags). */
#define ALU_FAST_OPS(X)                                                             \
	X(add, FL_ADD, a + b, 1) X(or, FL_LOGIC, a | b, 1) X(and, FL_LOGIC, a & b, 1) \
	X(sub, FL_SUB, a - b, 1) X(xor, FL_LOGIC, a ^ b, 1) X(cmp, FL_SUB, a - b, 0)  \
	X(test, FL_LOGIC, a & b, 0)

/* The register operand forms (ops.h, FORM_*): the destination's insn
 * field and the source. */
#define UNIT_DST_rr rm_
#define UNIT_SRC_rr c->r[reg_]
#define UNIT_DST_gr reg_
#define UNIT_SRC_gr c->r[rm_]
#define UNIT_DST_ri rm_
#define UNIT_SRC_ri insn_imm_v(i)

/* ALU on registers (or an immediate), 16/32/64 bits: with the flags and
 * flag-free (lflive.c's twins: CMP and TEST become no-ops; each leaves
 * FL_DEFER in lf.op, the mark under which a fault in a load or store
 * after it rebuilds its flags from the registers). */
#define UNIT_ALU_REG(NAME, KIND, EXPR, WRITES, FORM, BITS, T, SZ)                                  \
	UNIT_AND_FORM(NAME##_##FORM##BITS, T a = (T)c->r[UNIT_DST_##FORM];                     \
		      T b = (T)(UNIT_SRC_##FORM); T r = (T)(EXPR);                                 \
		      if (WRITES) REG_PUT##BITS(c->r[UNIT_DST_##FORM], r);                      \
		      flags_record(c, KIND, SZ, r, a, b))                                          \
	UNIT_AND_FORM(NAME##_##FORM##BITS##_nf, T a = (T)c->r[UNIT_DST_##FORM];                \
		      T b = (T)(UNIT_SRC_##FORM);                                                  \
		      if (WRITES) REG_PUT##BITS(c->r[UNIT_DST_##FORM], (T)(EXPR));              \
		      c->lf.op = FL_DEFER)

#define UNIT_ALU_REG_SZ(NAME, KIND, EXPR, WRITES, BITS, T, SZ)   \
	UNIT_ALU_REG(NAME, KIND, EXPR, WRITES, rr, BITS, T, SZ) \
	UNIT_ALU_REG(NAME, KIND, EXPR, WRITES, gr, BITS, T, SZ) \
	UNIT_ALU_REG(NAME, KIND, EXPR, WRITES, ri, BITS, T, SZ)

/* reg op= memory, in the address shapes (insn.h, EA_SHAPES), with the
 * flags and flag-free (lflive.c: the load still faults as it would; the
 * twin keeps the value loaded in lf.b and leaves FL_DEFER, from which and
 * the register a fault after it rebuilds its flags). */
#define UNIT_ALU_RM(NAME, KIND, EXPR, WRITES, BITS, T, SZ, SH, EA)                               \
	UNIT_AND_FORM(NAME##_rm##BITS##SH, T a = (T)c->r[reg_];                                \
		      T b = (T)unit_read(c, EA(c, i), SZ); T r = (T)(EXPR);                          \
		      if (WRITES) REG_PUT##BITS(c->r[reg_], r);                                \
		      flags_record(c, KIND, SZ, r, a, b))                                        \
	UNIT_AND_FORM(NAME##_rm##BITS##SH##_nf, T a = (T)c->r[reg_];                           \
		      T b = (T)unit_read(c, EA(c, i), SZ);                                           \
		      if (WRITES) REG_PUT##BITS(c->r[reg_], (T)(EXPR));                        \
		      c->lf.b = b; c->lf.op = FL_DEFER)

/* Flag-free shifts and rotates of a register by an immediate n (decode
 * time: 0 < n < BITS), v the register's value. */
#define SHIFT_NF_OPS(X, BITS, T, ST)                               \
	X(rol, BITS, T, (v << n) | (v >> (BITS - n)))              \
	X(ror, BITS, T, (v >> n) | (v << (BITS - n)))              \
	X(shl, BITS, T, v << n) X(shr, BITS, T, v >> n)            \
	X(sar, BITS, T, (ST)v >> n)
#define UNIT_SHIFT_NF(NAME, BITS, T, EXPR)                                        \
	UNIT_AND_FORM(NAME##BITS##_nf, unsigned n = (unsigned)insn_imm_v(i) & (BITS - 1); \
		      T v = (T)c->r[rm_]; REG_PUT##BITS(c->r[rm_], (T)(EXPR)))

/* MOV r/m, r and NOT of registers, LEA (no memory access), MOV loads and
 * stores of 32/64 bits (a 32-bit write zero-extends: 64-bit mode's rule,
 * harmless in 32-bit mode). */
#define UNIT_MOV_RR(BITS) UNIT_AND_FORM(mov_rr##BITS, REG_PUT##BITS(c->r[rm_], c->r[reg_]))
#define UNIT_NOT(BITS) UNIT_AND_FORM(not##BITS, REG_PUT##BITS(c->r[rm_], ~c->r[rm_]))
/* INC and DEC: CF is kept (in rf, as FL_INC/FL_DEC expect), evaluated
 * from the lazy record first; of a register, and of memory in the
 * address shapes. A record flags_cf_inline does not read runs the
 * instruction through its table handler, nothing changed yet. */
#define INCDEC_RECORD(KIND, SZ, A, R, CF)                                               \
	c->lf.rf = (c->lf.rf & ~FL_CF) | ((CF) ? FL_CF : 0); c->lf.op = KIND;            \
	c->lf.size = SZ; c->lf.res = R; c->lf.a = A; c->lf.b = 1
#define INCDEC_CF_OR_LEAVE(cf)                                   \
	do {                                                     \
		bool slow_ = false;                              \
		cf = flags_cf_inline(c, &slow_);                 \
		if (__builtin_expect(slow_, 0)) {                \
			*out = exec_generic(c, i);               \
			return false;                            \
		}                                                \
	} while (0)
#define UNIT_INCDEC(NAME, KIND, DELTA, BITS, T, SZ)                                      \
	UNIT_FN(NAME##BITS)                                                              \
	{                                                                                \
		bool cf;                                                                 \
		INCDEC_CF_OR_LEAVE(cf);                                                  \
		T a = (T)c->r[rm_], r = (T)(a + (uint64_t)(DELTA));                      \
		c->r[rm_] = r;                                                           \
		INCDEC_RECORD(KIND, SZ, a, r, cf);                                       \
		return true;                                                             \
	}                                                                                \
	UNIT_FORM(NAME##BITS)
#define UNIT_INCDEC_MEM(NAME, KIND, DELTA, BITS, T, SZ, SH, EA)      \
	UNIT_FN(NAME##_m##BITS##SH)                                  \
	{                                                            \
		uint64_t ea = EA(c, i);                              \
		T a = (T)unit_read(c, ea, SZ), r;                        \
		bool cf;                                             \
		UNIT_STORE_OR_LEAVE(ea, SZ);                         \
		INCDEC_CF_OR_LEAVE(cf);                              \
		r = (T)(a + (uint64_t)(DELTA));                      \
		unit_write(c, ea, SZ, r);                        \
		INCDEC_RECORD(KIND, SZ, a, r, cf);                   \
		return true;                                         \
	}                                                            \
	UNIT_FORM(NAME##_m##BITS##SH)

/* INC and DEC without flags (lflive.c's twins of fast_inc/dec), and
 * deferring theirs (FL_INCDEC_DEFER: a load or store after it may fault,
 * and it sees CF from the record before and the rest from the register). */
#define UNIT_INCDEC_NF(NAME, DELTA, BITS) \
	UNIT_AND_FORM(NAME##BITS##_nf, REG_PUT##BITS(c->r[rm_], c->r[rm_] + (uint64_t)(DELTA)))
#define UNIT_INCDEC_DEFER(NAME, DELTA, BITS)                                                   \
	UNIT_AND_FORM(NAME##BITS##_defer, REG_PUT##BITS(c->r[rm_], c->r[rm_] + (uint64_t)(DELTA)); \
		      c->lf.op |= FL_INCDEC_DEFER)
/* (32 bits: truncated, v is exact; 64: the full displacement, as a
 * RIP-relative one resolved may not fit v) */
#define UNIT_LEA(BITS) UNIT_AND_FORM(lea##BITS, REG_PUT##BITS(c->r[reg_], BITS == 32 ? insn_offset_v(c, i) : insn_offset_fast(c, i)))
/* ... of 64 bits without an index (structure fields, 'lea 0x10(%rax),%rdx';
 * a RIP-relative one once resolved): the index's loads and shift skipped */
#define UNIT_LEA64_BD() UNIT_AND_FORM(lea64_bd, c->r[reg_] = (uint64_t)(int64_t)i->v + c->r[i->base])

/* A load of SZ bytes zero-extended into a 32/64-bit register: MOV of 32
 * and 64 bits, MOVZX of 8 and 16 (to a 32-bit register it zero-extends
 * to 64 bits as well). */
#define UNIT_LOAD(NAME, SZ, SH, EA) UNIT_AND_FORM(NAME##SH, c->r[reg_] = unit_read(c, EA(c, i), SZ))
/* MOV of a byte into a byte register (AH..BH through reg_set). */
#define UNIT_LOAD8(SH, EA) UNIT_AND_FORM(mov_load8##SH, reg_set(c, insn_reg8(i), 1, unit_read(c, EA(c, i), 1)))
/* MOVZX of a byte register, MOVSXD of a register (64-bit mode). */
#define UNIT_MOVZX_B_RR() UNIT_AND_FORM(movzx_b_rr, c->r[reg_] = reg_get(c, insn_rm8(i), 1))
#define UNIT_MOVSXD_RR() UNIT_AND_FORM(movsxd_rr, c->r[reg_] = (uint64_t)(int64_t)(int32_t)c->r[rm_])

#define UNIT_STORE(NAME, SZ, SH, EA, VAL)                    \
	UNIT_FN(NAME##SH)                                    \
	{                                                    \
		uint64_t ea = EA(c, i);                      \
		UNIT_STORE_OR_LEAVE(ea, SZ);                 \
		unit_write(c, ea, SZ, VAL);              \
		return true;                                 \
	}                                                    \
	UNIT_FORM(NAME##SH)

#endif
