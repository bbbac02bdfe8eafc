/* CMP or TEST fused with the Jcc after it (decode time). When a fast Jcc
 * is decoded right after a fast CMP/TEST that falls through to it, the
 * compare's exec becomes one handler for the pair: it records the flags
 * as the compare does (later code may read them), evaluates the
 * condition straight from the operands, and returns the Jcc's target or
 * fall-through, so the pair costs one dispatch and no flag decoding. The
 * Jcc keeps its own form for when it is reached by a jump; single steps
 * use the table's handlers. */
#include "cpu/units.h"

/* Condition cc after a - b (CMP), from the operands; sb: the sign bit (a
 * constant). L and LE are the signed compares themselves (SF != OF is
 * "a < b" signed): the operands shifted to bit 63 (sh is a constant too),
 * one host compare where SF and OF took six instructions. */
static inline __attribute__((always_inline)) bool cc_sub(uint64_t a, uint64_t b, uint64_t r,
							 uint64_t sb, unsigned cc)
{
	bool of = ((a ^ b) & (a ^ r) & sb) != 0, sf = (r & sb) != 0, v;
	unsigned sh = (unsigned)__builtin_clzll(sb);

	switch (cc >> 1) {
	case 0: v = of; break;
	case 1: v = a < b; break;
	case 2: v = a == b; break;
	case 3: v = a <= b; break;
	case 4: v = sf; break;
	case 5: v = !__builtin_parity((unsigned)(r & 0xff)); break;
	case 6: v = (int64_t)(a << sh) < (int64_t)(b << sh); break;
	default: v = (int64_t)(a << sh) <= (int64_t)(b << sh); break;
	}
	return v ^ (cc & 1);
}

/* The Jcc at jcc, taken or not: every fused form's end. */
static inline __attribute__((always_inline)) const struct insn *exec_jcc(struct cpu *c, const struct insn *jcc, bool taken)
{
	return taken ? exec_rel_target(c, jcc) : exec_next(c, jcc);
}

/* Condition cc after a & b (TEST): CF = OF = 0. */
static inline __attribute__((always_inline)) bool cc_logic(uint64_t r, uint64_t sb, unsigned cc)
{
	bool sf = (r & sb) != 0, v;

	switch (cc >> 1) {
	case 0:
	case 1: v = false; break;
	case 2:
	case 3: v = r == 0; break;
	case 4:
	case 6: v = sf; break;
	case 5: v = !__builtin_parity((unsigned)(r & 0xff)); break;
	default: v = r == 0 || sf; break;
	}
	return v ^ (cc & 1);
}

/* Operands by form (FORM_*) and width; the byte forms through reg_get
 * (AH..BH). */
#define REG8(n) reg_get(c, insn_##n##8(i), 1)
/* ... of the register forms from v (insn_set_v) */
#define REG8V(n) reg_get(c, insn_##n##8_v(i), 1)
#define OPND_rr(W) a = W == 8 ? REG8V(rm) : c->r[i->rm], b = W == 8 ? REG8V(reg) : c->r[i->reg]
#define OPND_gr(W) a = W == 8 ? REG8V(reg) : c->r[i->reg], b = W == 8 ? REG8V(rm) : c->r[i->rm]
#define OPND_ri(W) a = W == 8 ? REG8V(rm) : c->r[i->rm], b = insn_imm_v(i)
/* ... memory operands through the address function EA (insn.h,
 * EA_SHAPES) */
#define OPND_EA_rm(W, EA) a = W == 8 ? REG8(reg) : c->r[i->reg], b = mem_read_fast(EA(c, i), W / 8)
#define OPND_EA_mr(W, EA) a = mem_read_fast(EA(c, i), W / 8), b = W == 8 ? REG8(reg) : c->r[i->reg]
#define OPND_EA_mi(W, EA) a = mem_read_fast(EA(c, i), W / 8), b = insn_imm(i)
#define OPND_rm(W) OPND_EA_rm(W, insn_ea_fast)
#define OPND_mr(W) OPND_EA_mr(W, insn_ea_fast)
#define OPND_mi(W) OPND_EA_mi(W, insn_ea_fast)

#define FUSED_CMP_FN(NAME, OPND, W, T, cc)                                                   \
	static const struct insn *NAME(struct cpu *c, const struct insn *i)                  \
	{                                                                                    \
		uint64_t a, b;                                                               \
		T r;                                                                         \
		OPND;                                                                        \
		a = (T)a, b = (T)b, r = (T)(a - b);                                          \
		flags_record(c, FL_SUB, W / 8, r, a, b);                                     \
		return exec_jcc(c, i + 1, cc_sub(a, b, r, (T)1 << (W - 1), cc));             \
	}
#define FUSED_ONE(FORM, W, T, cc)                                                            \
	FUSED_CMP_FN(fused_cmp_##FORM##W##_##cc, OPND_##FORM(W), W, T, cc)                   \
	static const struct insn *fused_test_##FORM##W##_##cc(struct cpu *c, const struct insn *i) \
	{                                                                                    \
		uint64_t a, b;                                                               \
		T r;                                                                         \
		OPND_##FORM(W);                                                              \
		r = (T)(a & b);                                                              \
		flags_record(c, FL_LOGIC, W / 8, r, 0, 0);                                   \
		return exec_jcc(c, i + 1, cc_logic(r, (T)1 << (W - 1), cc));                 \
	}

#define FUSED_CC(FORM, W, T)                                                                  \
	FUSED_ONE(FORM, W, T, 0) FUSED_ONE(FORM, W, T, 1) FUSED_ONE(FORM, W, T, 2)           \
	FUSED_ONE(FORM, W, T, 3) FUSED_ONE(FORM, W, T, 4) FUSED_ONE(FORM, W, T, 5)           \
	FUSED_ONE(FORM, W, T, 6) FUSED_ONE(FORM, W, T, 7) FUSED_ONE(FORM, W, T, 8)           \
	FUSED_ONE(FORM, W, T, 9) FUSED_ONE(FORM, W, T, 10) FUSED_ONE(FORM, W, T, 11)         \
	FUSED_ONE(FORM, W, T, 12) FUSED_ONE(FORM, W, T, 13) FUSED_ONE(FORM, W, T, 14)        \
	FUSED_ONE(FORM, W, T, 15)

#define FUSED_FORMS(W, T)                                                                  \
	FUSED_CC(rr, W, T) FUSED_CC(gr, W, T) FUSED_CC(ri, W, T) FUSED_CC(rm, W, T)        \
	FUSED_CC(mr, W, T) FUSED_CC(mi, W, T)

FUSED_FORMS(8, uint8_t)
FUSED_FORMS(32, uint32_t)
FUSED_FORMS(64, uint64_t)

/* 32-bit CMP of memory in the other address shapes (base + disp, flat:
 * loop bounds and counters in stack slots, gzip's "cmp %r8d,0x1c(%rsp);
 * jae", i386's spills): ~6 host instructions less than the any-address
 * form. */
#define FUSED_CMP_SH(FORM, SH, EA, cc) \
	FUSED_CMP_FN(fused_cmp_##FORM##32##SH##_##cc, OPND_EA_##FORM(32, EA), 32, uint32_t, cc)
#define FUSED_CMP_SH_CC(FORM, SH, EA)                                                          \
	FUSED_CMP_SH(FORM, SH, EA, 0) FUSED_CMP_SH(FORM, SH, EA, 1) FUSED_CMP_SH(FORM, SH, EA, 2) \
	FUSED_CMP_SH(FORM, SH, EA, 3) FUSED_CMP_SH(FORM, SH, EA, 4) FUSED_CMP_SH(FORM, SH, EA, 5) \
	FUSED_CMP_SH(FORM, SH, EA, 6) FUSED_CMP_SH(FORM, SH, EA, 7) FUSED_CMP_SH(FORM, SH, EA, 8) \
	FUSED_CMP_SH(FORM, SH, EA, 9) FUSED_CMP_SH(FORM, SH, EA, 10)                          \
	FUSED_CMP_SH(FORM, SH, EA, 11) FUSED_CMP_SH(FORM, SH, EA, 12)                         \
	FUSED_CMP_SH(FORM, SH, EA, 13) FUSED_CMP_SH(FORM, SH, EA, 14)                         \
	FUSED_CMP_SH(FORM, SH, EA, 15)
#define FUSED_CMP32_SHAPE(SH, EA) \
	FUSED_CMP_SH_CC(rm, SH, EA) FUSED_CMP_SH_CC(mr, SH, EA) FUSED_CMP_SH_CC(mi, SH, EA)
FUSED_CMP32_SHAPE(_bd, insn_ea_bd)
FUSED_CMP32_SHAPE(_f32, insn_ea_flat32)
FUSED_CMP32_SHAPE(_f64, insn_ea_flat64)

/* ... and 64-bit CMP and byte TEST of memory through a flat base + disp
 * (64-bit mode's structure fields and stack slots: CPython's 'cmpq
 * $imm,disp(%reg); jne', Perl's 'testb $imm,disp(%reg); je'). */
#define FUSED_CC16(M, ...)                                                                   \
	M(__VA_ARGS__, 0) M(__VA_ARGS__, 1) M(__VA_ARGS__, 2) M(__VA_ARGS__, 3)              \
	M(__VA_ARGS__, 4) M(__VA_ARGS__, 5) M(__VA_ARGS__, 6) M(__VA_ARGS__, 7)              \
	M(__VA_ARGS__, 8) M(__VA_ARGS__, 9) M(__VA_ARGS__, 10) M(__VA_ARGS__, 11)            \
	M(__VA_ARGS__, 12) M(__VA_ARGS__, 13) M(__VA_ARGS__, 14) M(__VA_ARGS__, 15)
#define FUSED_CMP64_F64(FORM, cc) \
	FUSED_CMP_FN(fused_cmp_##FORM##64_f64_##cc, OPND_EA_##FORM(64, insn_ea_flat64), 64, uint64_t, cc)
#define FUSED_TEST8_MI_F64(_, cc)                                                             \
	static const struct insn *fused_test_mi8_f64_##cc(struct cpu *c, const struct insn *i) \
	{                                                                                     \
		uint64_t a, b;                                                                \
		uint8_t r;                                                                    \
		OPND_EA_mi(8, insn_ea_flat64);                                                \
		r = (uint8_t)(a & b);                                                         \
		flags_record(c, FL_LOGIC, 1, r, 0, 0);                                        \
		return exec_jcc(c, i + 1, cc_logic(r, 0x80, cc));                             \
	}
FUSED_CC16(FUSED_CMP64_F64, rm)
FUSED_CC16(FUSED_CMP64_F64, mr)
FUSED_CC16(FUSED_CMP64_F64, mi)
FUSED_CC16(FUSED_TEST8_MI_F64, )

#define ROW_CC(OP, FORM, W)                                                                   \
	{ fused_##OP##_##FORM##W##_0, fused_##OP##_##FORM##W##_1, fused_##OP##_##FORM##W##_2, \
	  fused_##OP##_##FORM##W##_3, fused_##OP##_##FORM##W##_4, fused_##OP##_##FORM##W##_5, \
	  fused_##OP##_##FORM##W##_6, fused_##OP##_##FORM##W##_7, fused_##OP##_##FORM##W##_8, \
	  fused_##OP##_##FORM##W##_9, fused_##OP##_##FORM##W##_10, fused_##OP##_##FORM##W##_11, \
	  fused_##OP##_##FORM##W##_12, fused_##OP##_##FORM##W##_13,                          \
	  fused_##OP##_##FORM##W##_14, fused_##OP##_##FORM##W##_15 }
#define ROW_FORMS(OP, W)                                                             \
	{ ROW_CC(OP, rr, W), ROW_CC(OP, gr, W), ROW_CC(OP, ri, W), ROW_CC(OP, rm, W), \
	  ROW_CC(OP, mr, W), ROW_CC(OP, mi, W) }

/* The three-way compare: CMP fused with the two SETcc of registers after
 * it that GCC makes of (x > y) - (x < y) for signed x and y (comparison
 * callbacks: "cmp %eax,(%rdi); setg %al; setl %dl"; for unsigned ones it
 * compares twice):
 * the flags are recorded as the compare does, the two conditions come
 * straight from the operands, one dispatch for the three. The SETcc keep
 * their own forms for jumps into them. Memory operands in the address
 * shapes (insn.h, EA_SHAPES). */
#define THREEWAY_CCS(X, ...) X(gl, 15, 12, __VA_ARGS__)

static inline __attribute__((always_inline)) void set_byte(struct cpu *c, unsigned r8, bool v)
{
	if (r8 >= 16) /* AH..BH */
		c->r[r8 - 16] = (c->r[r8 - 16] & ~0xff00ull) | ((uint64_t)v << 8);
	else
		c->r[r8] = (c->r[r8] & ~0xffull) | v;
}

#define OPND_EA_rr(W, EA) OPND_rr(W)
#define OPND_EA_gr(W, EA) OPND_gr(W)
#define OPND_EA_ri(W, EA) OPND_ri(W)

#define FUSED_3WAY(NAME, CC1, CC2, W, T, FORM, SH, EA)                                          \
	static const struct insn *fused_3way_##NAME##_##FORM##W##SH(struct cpu *c,             \
								     const struct insn *i)      \
	{                                                                                      \
		uint64_t a, b;                                                                 \
		T r;                                                                           \
		OPND_EA_##FORM(W, EA);                                                         \
		a = (T)a, b = (T)b, r = (T)(a - b);                                            \
		flags_record(c, FL_SUB, W / 8, r, a, b);                                       \
		set_byte(c, insn_rm8(&i[1]), cc_sub(a, b, r, (T)1 << (W - 1), CC1));                 \
		set_byte(c, insn_rm8(&i[2]), cc_sub(a, b, r, (T)1 << (W - 1), CC2));                 \
		return exec_next(c, i + 2);                                                    \
	}
#define FUSED_3WAY_MEM(NAME, CC1, CC2, W, T, SH, EA)                                      \
	FUSED_3WAY(NAME, CC1, CC2, W, T, rm, SH, EA) FUSED_3WAY(NAME, CC1, CC2, W, T, mr, SH, EA) \
	FUSED_3WAY(NAME, CC1, CC2, W, T, mi, SH, EA)
#define FUSED_3WAY_W(NAME, CC1, CC2, W, T)                                                  \
	FUSED_3WAY(NAME, CC1, CC2, W, T, rr, , _) FUSED_3WAY(NAME, CC1, CC2, W, T, gr, , _) \
	FUSED_3WAY(NAME, CC1, CC2, W, T, ri, , _)                                           \
	EA_SHAPES(FUSED_3WAY_MEM, NAME, CC1, CC2, W, T)
#define FUSED_3WAY_CC(NAME, CC1, CC2, _)                                                     \
	FUSED_3WAY_W(NAME, CC1, CC2, 8, uint8_t) FUSED_3WAY_W(NAME, CC1, CC2, 32, uint32_t) \
	FUSED_3WAY_W(NAME, CC1, CC2, 64, uint64_t)
THREEWAY_CCS(FUSED_3WAY_CC, )

#define ROW_3WAY_REG(NAME, FORM, W)                                                           \
	{ fused_3way_##NAME##_##FORM##W, fused_3way_##NAME##_##FORM##W,                       \
	  fused_3way_##NAME##_##FORM##W, fused_3way_##NAME##_##FORM##W }
#define ROW_3WAY_MEM(NAME, FORM, W)                                                           \
	{ fused_3way_##NAME##_##FORM##W, fused_3way_##NAME##_##FORM##W##_bd,                  \
	  fused_3way_##NAME##_##FORM##W##_f32, fused_3way_##NAME##_##FORM##W##_f64 }
#define ROW_3WAY(NAME, W)                                                                     \
	{ ROW_3WAY_REG(NAME, rr, W), ROW_3WAY_REG(NAME, gr, W), ROW_3WAY_REG(NAME, ri, W),    \
	  ROW_3WAY_MEM(NAME, rm, W), ROW_3WAY_MEM(NAME, mr, W), ROW_3WAY_MEM(NAME, mi, W) }
#define ROW_3WAY_CC(NAME, CC1, CC2, _) { ROW_3WAY(NAME, 8), ROW_3WAY(NAME, 32), ROW_3WAY(NAME, 64) },
enum {
#define THREEWAY_ENUM(NAME, CC1, CC2, _) THREEWAY_##NAME,
	THREEWAY_CCS(THREEWAY_ENUM, ) THREEWAY_COUNT
};
/* [THREEWAY_*][width 8, 32, 64][FORM_*][EA_*] */
static const insn_exec fused_3way[THREEWAY_COUNT][3][FORM_COUNT][EA_SHAPE_COUNT] = {
	THREEWAY_CCS(ROW_3WAY_CC, )
};

/* ... and the rest of the idiom after the two SETcc, zero-extending both
 * bytes and subtracting ("movzbl %dl,%edx; movzbl %al,%eax; sub
 * %edx,%eax": the callback's whole body but its load and RET, GCC's code
 * for the three ABIs): one dispatch for the six (38 host instructions for
 * the first three fused, 31 for the other three as a pair and a SUB).
 * A is the first SETcc's register, B the second's (fuse_3way_tail checks
 * the shape): A ends as the difference, B as the second condition, the
 * flags those of the SUB. 32- and 64-bit compares (int and long). */
#define THREEWAY_SUB_DO(CC1, CC2, W, T, FORM, EA)                                             \
	do {                                                                                   \
		uint64_t a, b;                                                                 \
		uint32_t first, second, diff;                                                  \
		T r;                                                                           \
		OPND_EA_##FORM(W, EA);                                                         \
		a = (T)a, b = (T)b, r = (T)(a - b);                                            \
		first = cc_sub(a, b, r, (T)1 << (W - 1), CC1);                                 \
		second = cc_sub(a, b, r, (T)1 << (W - 1), CC2);                                \
		diff = first - second;                                                         \
		c->r[insn_rm8(&i[2])] = second;                                                       \
		c->r[insn_rm8(&i[1])] = diff;                                                         \
		flags_record(c, FL_SUB, 4, diff, first, second);                               \
	} while (0)
#define FUSED_3WAY_SUB(NAME, CC1, CC2, W, T, FORM, SH, EA)                                      \
	static const struct insn *fused_3way_sub_##NAME##_##FORM##W##SH(struct cpu *c,         \
									 const struct insn *i)  \
	{                                                                                      \
		THREEWAY_SUB_DO(CC1, CC2, W, T, FORM, EA);                                     \
		return exec_next(c, i + 5);                                                    \
	}
#define FUSED_3WAY_SUB_MEM(NAME, CC1, CC2, W, T, SH, EA)                                      \
	FUSED_3WAY_SUB(NAME, CC1, CC2, W, T, rm, SH, EA)                                      \
	FUSED_3WAY_SUB(NAME, CC1, CC2, W, T, mr, SH, EA)                                      \
	FUSED_3WAY_SUB(NAME, CC1, CC2, W, T, mi, SH, EA)
#define FUSED_3WAY_SUB_W(NAME, CC1, CC2, W, T)                                                  \
	FUSED_3WAY_SUB(NAME, CC1, CC2, W, T, rr, , _) FUSED_3WAY_SUB(NAME, CC1, CC2, W, T, gr, , _) \
	FUSED_3WAY_SUB(NAME, CC1, CC2, W, T, ri, , _)                                           \
	EA_SHAPES(FUSED_3WAY_SUB_MEM, NAME, CC1, CC2, W, T)
#define FUSED_3WAY_SUB_CC(NAME, CC1, CC2, _) \
	FUSED_3WAY_SUB_W(NAME, CC1, CC2, 32, uint32_t) FUSED_3WAY_SUB_W(NAME, CC1, CC2, 64, uint64_t)
THREEWAY_CCS(FUSED_3WAY_SUB_CC, )

#define ROW_3WAY_SUB_REG(NAME, FORM, W)                                                       \
	{ fused_3way_sub_##NAME##_##FORM##W, fused_3way_sub_##NAME##_##FORM##W,               \
	  fused_3way_sub_##NAME##_##FORM##W, fused_3way_sub_##NAME##_##FORM##W }
#define ROW_3WAY_SUB_MEM(NAME, FORM, W)                                                       \
	{ fused_3way_sub_##NAME##_##FORM##W, fused_3way_sub_##NAME##_##FORM##W##_bd,          \
	  fused_3way_sub_##NAME##_##FORM##W##_f32, fused_3way_sub_##NAME##_##FORM##W##_f64 }
#define ROW_3WAY_SUB(NAME, W)                                                                 \
	{ ROW_3WAY_SUB_REG(NAME, rr, W), ROW_3WAY_SUB_REG(NAME, gr, W),                       \
	  ROW_3WAY_SUB_REG(NAME, ri, W), ROW_3WAY_SUB_MEM(NAME, rm, W),                       \
	  ROW_3WAY_SUB_MEM(NAME, mr, W), ROW_3WAY_SUB_MEM(NAME, mi, W) }
#define ROW_3WAY_SUB_CC(NAME, CC1, CC2, _) { { { NULL } }, ROW_3WAY_SUB(NAME, 32), ROW_3WAY_SUB(NAME, 64) },
/* [THREEWAY_*][width 8 (none), 32, 64][FORM_*][EA_*] */
static const insn_exec fused_3way_sub[THREEWAY_COUNT][3][FORM_COUNT][EA_SHAPE_COUNT] = {
	THREEWAY_CCS(ROW_3WAY_SUB_CC, )
};

/* ... and with the RET after the SUB (the comparison callback's end:
 * one dispatch less per compare, and the RET's cpu.cur with the rest),
 * optionally with the load before the CMP too ("mov (%rsi),%eax; cmp
 * %eax,(%rdi)": x86_64's and x32's whole callback, i386's after its two
 * argument loads): the CMP of a register with memory (FORM_MR, the
 * callbacks' form), the load into that register, in the CMP's address
 * shape (flat: the callbacks' pointers), of the compare's width. The RET as
 * its fast form (exec_ret_near). Registers and flags as the
 * instructions leave them in order should the RET's read fault. */

/* the CMP's register as the load left it: not read back from cpu.r, whose
 * store the host would have to forward first (the compare feeds the
 * caller's data-dependent branch: its latency is what that branch's
 * mispredictions wait for) */
#define OPND_EA_mr_loaded(W, EA) a = mem_read_fast(EA(c, i), W / 8), b = v
#define FUSED_3WAY_SUB_RET(NAME, CC1, CC2, W, T, SH, EA, RW)                                    \
	static const struct insn *fused_3way_sub_ret##RW##_##NAME##_mr##W##SH(struct cpu *c,   \
									       const struct insn *i) \
	{                                                                                      \
		THREEWAY_SUB_DO(CC1, CC2, W, T, mr, EA);                                       \
		return exec_ret_near(c, i + 6, RW == 64);                                      \
	}                                                                                      \
	static const struct insn *fused_load_3way_sub_ret##RW##_##NAME##_mr##W##SH(            \
		struct cpu *c, const struct insn *load)                                        \
	{                                                                                      \
		const struct insn *i = load + 1;                                               \
		uint64_t v = mem_read_fast(EA(c, load), W / 8);                                \
		c->r[load->reg] = v;                                                           \
		THREEWAY_SUB_DO(CC1, CC2, W, T, mr_loaded, EA);                                \
		return exec_ret_near(c, i + 6, RW == 64);                                      \
	}
/* 64-bit mode: the flat shapes of 64- and 32-bit addresses (x32); 32-bit
 * mode: flat 32-bit addresses */
#define FUSED_3WAY_SUB_RET_W(NAME, CC1, CC2, W, T)                                   \
	FUSED_3WAY_SUB_RET(NAME, CC1, CC2, W, T, _f64, insn_ea_flat64, 64)           \
	FUSED_3WAY_SUB_RET(NAME, CC1, CC2, W, T, _f32, insn_ea_flat32, 64)           \
	FUSED_3WAY_SUB_RET(NAME, CC1, CC2, W, T, _f32, insn_ea_flat32, 32)
#define FUSED_3WAY_SUB_RET_CC(NAME, CC1, CC2, _)      \
	FUSED_3WAY_SUB_RET_W(NAME, CC1, CC2, 32, uint32_t) \
	FUSED_3WAY_SUB_RET_W(NAME, CC1, CC2, 64, uint64_t)
THREEWAY_CCS(FUSED_3WAY_SUB_RET_CC, )

/* [THREEWAY_*][width 32, 64][flat 64 + RET64, flat 32 + RET64, flat 32 + RET32][load first] */
enum { RET_SHAPE_F64_RET64, RET_SHAPE_F32_RET64, RET_SHAPE_F32_RET32, RET_SHAPE_COUNT };
#define ROW_3WAY_SUB_RET(NAME, W, RW, SH)                                    \
	{ fused_3way_sub_ret##RW##_##NAME##_mr##W##SH,                       \
	  fused_load_3way_sub_ret##RW##_##NAME##_mr##W##SH }
#define ROW_3WAY_SUB_RET_W(NAME, W)                                                        \
	{ ROW_3WAY_SUB_RET(NAME, W, 64, _f64), ROW_3WAY_SUB_RET(NAME, W, 64, _f32),        \
	  ROW_3WAY_SUB_RET(NAME, W, 32, _f32) }
#define ROW_3WAY_SUB_RET_CC(NAME, CC1, CC2, _) { ROW_3WAY_SUB_RET_W(NAME, 32), ROW_3WAY_SUB_RET_W(NAME, 64) },
static const insn_exec fused_3way_sub_ret[THREEWAY_COUNT][2][RET_SHAPE_COUNT][2] = {
	THREEWAY_CCS(ROW_3WAY_SUB_RET_CC, )
};

/* The THREEWAY_* of SETcc conditions cc1 then cc2, or -1. */
static int threeway_of(unsigned cc1, unsigned cc2)
{
#define THREEWAY_MATCH(NAME, CC1, CC2, _) \
	if (cc1 == CC1 && cc2 == CC2)      \
		return THREEWAY_##NAME;
	THREEWAY_CCS(THREEWAY_MATCH, )
	return -1;
}

/* INC or DEC of a register (units.h) fused with the Jcc after it (loop
 * counters: "dec %edx; jne"): the unit records the flags, the condition
 * comes from what it recorded; CF is the one it kept. */
#undef UNIT_FORM
#define UNIT_FORM(NAME)
UNIT_INCDEC(inc, FL_INC, 1, 32, uint32_t, 4)
UNIT_INCDEC(inc, FL_INC, 1, 64, uint64_t, 8)
UNIT_INCDEC(dec, FL_DEC, -1, 32, uint32_t, 4)
UNIT_INCDEC(dec, FL_DEC, -1, 64, uint64_t, 8)

static inline __attribute__((always_inline)) bool cc_incdec(struct cpu *c, uint64_t sb, bool inc,
							    unsigned cc)
{
	uint64_t r = c->lf.res, a = c->lf.a;
	/* OF: the sign bit flipped into the result alone (past the largest
	 * or the smallest number) */
	bool of = inc ? r == sb : a == sb, sf = (r & sb) != 0, cf = (c->lf.rf & FL_CF) != 0, v;

	switch (cc >> 1) {
	case 0: v = of; break;
	case 1: v = cf; break;
	case 2: v = r == 0; break;
	case 3: v = cf || r == 0; break;
	case 4: v = sf; break;
	case 5: v = !__builtin_parity((unsigned)(r & 0xff)); break;
	case 6: v = sf != of; break;
	default: v = r == 0 || sf != of; break;
	}
	return v ^ (cc & 1);
}

#define FUSED_INCDEC_ONE(NAME, INC, W, cc)                                                   \
	static const struct insn *fused_##NAME##W##_##cc(struct cpu *c, const struct insn *i) \
	{                                                                                    \
		const struct insn *left;                                                     \
		if (__builtin_expect(!unit_##NAME##W(c, i, &left), 0))                       \
			return left; /* a CF record it does not read: the Jcc runs from there */ \
		return exec_jcc(c, i + 1, cc_incdec(c, 1ull << (W - 1), INC, cc));           \
	}
#define FUSED_INCDEC(NAME, INC, W)                                                                \
	FUSED_INCDEC_ONE(NAME, INC, W, 0) FUSED_INCDEC_ONE(NAME, INC, W, 1)                     \
	FUSED_INCDEC_ONE(NAME, INC, W, 2) FUSED_INCDEC_ONE(NAME, INC, W, 3)                     \
	FUSED_INCDEC_ONE(NAME, INC, W, 4) FUSED_INCDEC_ONE(NAME, INC, W, 5)                     \
	FUSED_INCDEC_ONE(NAME, INC, W, 6) FUSED_INCDEC_ONE(NAME, INC, W, 7)                     \
	FUSED_INCDEC_ONE(NAME, INC, W, 8) FUSED_INCDEC_ONE(NAME, INC, W, 9)                     \
	FUSED_INCDEC_ONE(NAME, INC, W, 10) FUSED_INCDEC_ONE(NAME, INC, W, 11)                   \
	FUSED_INCDEC_ONE(NAME, INC, W, 12) FUSED_INCDEC_ONE(NAME, INC, W, 13)                   \
	FUSED_INCDEC_ONE(NAME, INC, W, 14) FUSED_INCDEC_ONE(NAME, INC, W, 15)
FUSED_INCDEC(inc, true, 32)
FUSED_INCDEC(inc, true, 64)
FUSED_INCDEC(dec, false, 32)
FUSED_INCDEC(dec, false, 64)

/* ... and of a 32-bit memory operand (i386 loop counters on the stack:
 * "decl 0x18(%esp); jne"), the condition read from the Jcc's opcode. */
EA_SHAPES(UNIT_INCDEC_MEM, inc, FL_INC, 1, 32, uint32_t, 4)
EA_SHAPES(UNIT_INCDEC_MEM, dec, FL_DEC, -1, 32, uint32_t, 4)
#define FUSED_INCDEC_MEM(NAME, INC, SH, EA)                                                   \
	static const struct insn *fused_##NAME##_m32##SH(struct cpu *c, const struct insn *i) \
	{                                                                                     \
		const struct insn *left;                                                      \
		if (__builtin_expect(!unit_##NAME##_m32##SH(c, i, &left), 0))                 \
			return left; /* the Jcc runs from there */                            \
		return exec_jcc(c, i + 1, cc_incdec(c, 1ull << 31, INC, insn_cold(&i[1])->op & 15)); \
	}
EA_SHAPES(FUSED_INCDEC_MEM, inc, true)
EA_SHAPES(FUSED_INCDEC_MEM, dec, false)
/* AND of registers or of a register and an immediate fused with the Jcc
 * after it (Perl's flag tests, "and $0x...,%eax; jne": 360 k runs of
 * compute.pl 40000, whose Jcc decoded the flags AND recorded): the unit
 * writes the register and records the flags as AND's fast form does, the
 * condition comes from the result. */
UNIT_ALU_REG(and, FL_LOGIC, a &b, 1, rr, 32, uint32_t, 4)
UNIT_ALU_REG(and, FL_LOGIC, a &b, 1, ri, 32, uint32_t, 4)
UNIT_ALU_REG(and, FL_LOGIC, a &b, 1, rr, 64, uint64_t, 8)
UNIT_ALU_REG(and, FL_LOGIC, a &b, 1, ri, 64, uint64_t, 8)
#define FUSED_AND_ONE(FORM, W, T, cc)                                                        \
	static const struct insn *fused_and_##FORM##W##_##cc(struct cpu *c, const struct insn *i) \
	{                                                                                    \
		const struct insn *left;                                                     \
		(void)unit_and_##FORM##W(c, i, &left); /* registers: always done */          \
		return exec_jcc(c, i + 1, cc_logic((T)c->r[i->rm], (T)1 << (W - 1), cc));    \
	}
#define FUSED_AND(FORM, W, T) FUSED_CC16(FUSED_AND_ONE, FORM, W, T)
FUSED_AND(rr, 32, uint32_t)
FUSED_AND(ri, 32, uint32_t)
FUSED_AND(rr, 64, uint64_t)
FUSED_AND(ri, 64, uint64_t)
/* [64-bit][FORM_RR, FORM_RI][cc] */
static const insn_exec fused_and[2][2][16] = {
	{ ROW_CC(and, rr, 32), ROW_CC(and, ri, 32) },
	{ ROW_CC(and, rr, 64), ROW_CC(and, ri, 64) },
};

/* A MOV load or store of a register fused with a TEST of that register
 * by itself and the Jcc after it (CPython's "mov disp(%reg),%rax; test
 * %rax,%rax; je" and its indexed loads, Perl's run loop "mov
 * %rax,0x8(%rbx); test %rax,%rax; jne"): the MOV as its fast form does
 * it (a store that is not plain runs through its table handler, the
 * TEST from there), the flags recorded as the TEST records them, the
 * condition from the value moved, one dispatch for the three. */
UNIT_LOAD(load64, 8, _f64, insn_ea_flat64)
UNIT_LOAD(load64, 8, _fx64, insn_ea_flat64_ix)
UNIT_STORE(store64, 8, _f64, insn_ea_flat64, c->r[i->reg])
UNIT_LOAD(load32, 4, _f64, insn_ea_flat64)
UNIT_FN(movsx_b64_load_fx64)
{
	(void)out;
	c->r[i->reg] = (uint64_t)(int64_t)(int8_t)mem_read_fast(insn_ea_flat64_ix(c, i), 1);
	return true;
}
#define FUSED_MOVE_TEST_ONE(NAME, W, T, cc)                                                     \
	static const struct insn *fused_##NAME##_test_##cc(struct cpu *c, const struct insn *i) \
	{                                                                                       \
		const struct insn *left;                                                        \
		T r;                                                                            \
		if (__builtin_expect(!unit_##NAME(c, i, &left), 0))                             \
			return left; /* the TEST runs from there */                             \
		r = (T)c->r[i->reg];                                                            \
		flags_record(c, FL_LOGIC, W / 8, r, 0, 0);                                      \
		return exec_jcc(c, i + 2, cc_logic(r, (T)1 << (W - 1), cc));                    \
	}
#define FUSED_MOVE_TEST(NAME, W, T) FUSED_CC16(FUSED_MOVE_TEST_ONE, NAME, W, T)
FUSED_MOVE_TEST(load64_f64, 64, uint64_t)
FUSED_MOVE_TEST(load64_fx64, 64, uint64_t)
FUSED_MOVE_TEST(store64_f64, 64, uint64_t)
FUSED_MOVE_TEST(load32_f64, 32, uint32_t)
FUSED_MOVE_TEST(movsx_b64_load_fx64, 64, uint64_t)
#define ROW_MOVE_TEST(NAME)                                                                         \
	{ fused_##NAME##_test_0, fused_##NAME##_test_1, fused_##NAME##_test_2, fused_##NAME##_test_3,     \
	  fused_##NAME##_test_4, fused_##NAME##_test_5, fused_##NAME##_test_6, fused_##NAME##_test_7,     \
	  fused_##NAME##_test_8, fused_##NAME##_test_9, fused_##NAME##_test_10, fused_##NAME##_test_11,   \
	  fused_##NAME##_test_12, fused_##NAME##_test_13, fused_##NAME##_test_14, fused_##NAME##_test_15 }

/* Perl's run loop: "mov %rbx,%rdi; call *0x10(%rax)" (the MOV and the
 * polymorphic CALL one handler: control.c, mov_call_fuse), and at the
 * CALL's return address "mov %rax,0x8(%rbx); test %rax,%rax; jne" back
 * to the MOV (720 k turns in compute.pl 40000). The fused store, TEST
 * and JNE go on into the MOV's handler by a direct jump: one dispatch
 * a turn instead of two, and no test of the JNE's target, which is on
 * the page and so lives as long as this entry. */
static const struct insn *fused_store64_f64_test_jne_mov_call(struct cpu *c, const struct insn *i)
{
	const struct insn *left;
	uint64_t r;

	if (__builtin_expect(!unit_store64_f64(c, i, &left), 0))
		return left; /* the TEST runs from there */
	r = c->r[i->reg];
	flags_record(c, FL_LOGIC, 8, r, 0, 0);
	if (r)
		return control_mov_call_m64_f64_poly(c, (const struct insn *)insn_link(&i[2]));
	return exec_next(c, i + 2);
}

/* JNE is condition 5; a target on the page is kept untagged. */
void fuse_store_test_loop_call(struct insn *store, const struct insn *mov)
{
	if (store->exec == fused_store64_f64_test_5 && insn_link(&store[2]) == (uintptr_t)mov)
		store->exec = fused_store64_f64_test_jne_mov_call;
}

/* [MOVE_TEST_*][cc], and the TEST's width index (fused_test's) */
static const insn_exec fused_move_test[MOVE_TEST_KINDS][16] = {
	[MOVE_TEST_LOAD64_F64] = ROW_MOVE_TEST(load64_f64),
	[MOVE_TEST_LOAD64_FX64] = ROW_MOVE_TEST(load64_fx64),
	[MOVE_TEST_STORE64_F64] = ROW_MOVE_TEST(store64_f64),
	[MOVE_TEST_LOAD32_F64] = ROW_MOVE_TEST(load32_f64),
	[MOVE_TEST_MOVSX_B64_FX64] = ROW_MOVE_TEST(movsx_b64_load_fx64),
};
static const unsigned char move_test_w[MOVE_TEST_KINDS] = {
	[MOVE_TEST_LOAD64_F64] = 2, [MOVE_TEST_LOAD64_FX64] = 2, [MOVE_TEST_STORE64_F64] = 2,
	[MOVE_TEST_LOAD32_F64] = 1, [MOVE_TEST_MOVSX_B64_FX64] = 2,
};

/* SUB of a 64-bit memory operand from a register, base + disp (the
 * stack protector's "sub %fs:0x28,%rax; jne": 126 k runs in Perl's
 * compute.pl 40000) or flat base + disp, fused with the Jcc after it:
 * the register written and the flags recorded as SUB's fast form does,
 * the condition from the operands. */
#define FUSED_SUB_RM64(SH, EA, cc)                                                            \
	static const struct insn *fused_sub_rm64##SH##_##cc(struct cpu *c, const struct insn *i) \
	{                                                                                     \
		uint64_t a = c->r[i->reg], b = mem_read_fast(EA(c, i), 8), r = a - b;        \
		c->r[i->reg] = r;                                                             \
		flags_record(c, FL_SUB, 8, r, a, b);                                          \
		return exec_jcc(c, i + 1, cc_sub(a, b, r, 1ull << 63, cc));                   \
	}
FUSED_CC16(FUSED_SUB_RM64, _bd, insn_ea_bd)
FUSED_CC16(FUSED_SUB_RM64, _f64, insn_ea_flat64)
/* [EA_BD, EA_FLAT64][cc] */
static const insn_exec fused_sub_rm64[2][16] = { ROW_CC(sub, rm, 64_bd), ROW_CC(sub, rm, 64_f64) };

/* [dec][EA_*] */
static const insn_exec fused_incdec_mem[2][EA_SHAPE_COUNT] = {
	{ fused_inc_m32, fused_inc_m32_bd, fused_inc_m32_f32, fused_inc_m32_f64 },
	{ fused_dec_m32, fused_dec_m32_bd, fused_dec_m32_f32, fused_dec_m32_f64 },
};

#define ROW_INCDEC(NAME, W)                                                                   \
	{ fused_##NAME##W##_0, fused_##NAME##W##_1, fused_##NAME##W##_2, fused_##NAME##W##_3,  \
	  fused_##NAME##W##_4, fused_##NAME##W##_5, fused_##NAME##W##_6, fused_##NAME##W##_7,  \
	  fused_##NAME##W##_8, fused_##NAME##W##_9, fused_##NAME##W##_10, fused_##NAME##W##_11, \
	  fused_##NAME##W##_12, fused_##NAME##W##_13, fused_##NAME##W##_14, fused_##NAME##W##_15 }
/* [dec][64-bit][cc] */
static const insn_exec fused_incdec[2][2][16] = {
	{ ROW_INCDEC(inc, 32), ROW_INCDEC(inc, 64) },
	{ ROW_INCDEC(dec, 32), ROW_INCDEC(dec, 64) },
};

/* [width 8, 32, 64][FORM_*][cc] */
static const insn_exec fused_cmp[3][FORM_COUNT][16] = {
	ROW_FORMS(cmp, 8), ROW_FORMS(cmp, 32), ROW_FORMS(cmp, 64),
};
static const insn_exec fused_test[3][FORM_COUNT][16] = {
	ROW_FORMS(test, 8), ROW_FORMS(test, 32), ROW_FORMS(test, 64),
};
/* [FORM_RM, FORM_MR, FORM_MI][EA_BD, EA_FLAT32, EA_FLAT64][cc] */
#define ROW_CMP32_SHAPES(FORM) \
	{ ROW_CC(cmp, FORM, 32_bd), ROW_CC(cmp, FORM, 32_f32), ROW_CC(cmp, FORM, 32_f64) }
static const insn_exec fused_cmp32_shaped[3][3][16] = {
	ROW_CMP32_SHAPES(rm), ROW_CMP32_SHAPES(mr), ROW_CMP32_SHAPES(mi),
};
/* [FORM_RM, FORM_MR, FORM_MI][cc] */
static const insn_exec fused_cmp64_f64[3][16] = {
	ROW_CC(cmp, rm, 64_f64), ROW_CC(cmp, mr, 64_f64), ROW_CC(cmp, mi, 64_f64),
};
static const insn_exec fused_test8_mi_f64[16] = ROW_CC(test, mi, 8_f64);

/* The compare before a Jcc or SETcc: its width index and form if it has
 * a fast form (no LOCK, fast addressing) and a fused one (sizes 1/4/8:
 * 16-bit compares have only the first), as the fused one assumes, and
 * falls through to what follows it. */
static bool fusable_compare(const struct insn *cmp, unsigned *op, unsigned *form, unsigned *w)
{
	if (!insn_cold(cmp)->seq || cmp->exec == exec_generic || cmp->exec == exec_plain || insn_cold(cmp)->osz == 2 ||
	    !alu_fast_form(cmp, op, form) || (*op != ALU_CMP && *op != ALU_TEST))
		return false;
	*w = insn_cold(cmp)->osz == 1 ? 0 : insn_cold(cmp)->osz == 4 ? 1 : 2;
	return true;
}

static bool is_setcc_reg(const struct insn *i)
{
	return insn_cold(i)->fn == op_setcc_Eb && insn_cold(i)->mod == 3 && i->exec != exec_generic;
}

/* pool[n - 1] a SETcc of a register: with the SETcc and the CMP before it
 * a three-way compare. */
static void fuse_setcc(struct insn *pool, uint32_t n)
{
	struct insn *set2 = &pool[n - 1], *set1 = set2 - 1, *cmp = set1 - 1;
	unsigned op, form, w;
	int kind;

	if (n < 3 || !is_setcc_reg(set1) || !insn_cold(set1)->seq || !fusable_compare(cmp, &op, &form, &w) ||
	    op != ALU_CMP || (kind = threeway_of(insn_cold(set1)->op & 15, insn_cold(set2)->op & 15)) < 0)
		return;
	cmp->exec = fused_3way[kind][w][form][insn_cold(cmp)->mod == 3 ? EA_ANY : ea_shape(cmp)];
	insn_cold(cmp)->lf &= LF_STALE | LF_REBUILD; /* a reader for lflive, as the fused Jcc */
}

/* CPython 3.11's dispatch, 'neg %cx; sbb %sil,%sil' (the eval breaker's
 * mask: SIL = CX != 0 ? 0xff : 0): NEG of a 16-bit register and SBB of
 * a byte register from itself as one form, the borrow NEG leaves (its
 * operand was not 0) taken as it is made instead of from the lazy flags
 * (each ran ~40 host instructions, SBB's fast form most of them in
 * flags_cf). Registers as the two would leave them, in order (NEG's
 * register may hold SBB's byte); the flags recorded as SBB's fast form
 * records them (alu.c, FAST_CARRY). */
#define FUSED_NEG16_SBB8(NAME, LOW)                                                        \
	static const struct insn *NAME(struct cpu *c, const struct insn *i)                \
	{                                                                                  \
		const struct insn *s = i + 1;                                              \
		uint16_t a = (uint16_t)c->r[i->rm];                                        \
		bool cin = a != 0;                                                         \
		uint8_t v;                                                                 \
                                                                                           \
		REG_PUT16(c->r[i->rm], (uint16_t)(0 - a));                                 \
		if (LOW) { /* not AH..BH: no frame for reg_get's and reg_set's paths */    \
			v = (uint8_t)c->r[insn_rm8(s)];                                         \
			c->r[insn_rm8(s)] = (c->r[insn_rm8(s)] & ~0xffull) | (uint8_t)(0 - cin);     \
		} else {                                                                   \
			v = (uint8_t)reg_get(c, insn_rm8(s), 1);                                \
			reg_set(c, insn_rm8(s), 1, (uint8_t)(0 - cin));                         \
		}                                                                          \
		flags_record(c, FL_SBB, 1, (uint8_t)(v - v - cin), v, v);                  \
		c->lf.aux = cin;                                                           \
		return exec_next(c, s);                                                    \
	}
FUSED_NEG16_SBB8(fused_neg16_sbb8, false)
FUSED_NEG16_SBB8(fused_neg16_sbb8_low, true)

/* CPython's Py_DECREF, 'subq $1,disp(%reg); je/jne' (~7,000 sites in
 * python3.11): SUB of an immediate from a 64-bit memory operand through a
 * flat base + disp fused with the JE or JNE after it. The store as the
 * SUB's fast form makes it (one that is not plain runs the SUB through
 * its table handler, the Jcc from there), the flags recorded as it
 * records them, the condition ZF from the result. */
#define FUSED_SUB_MI64_F64(NAME, JNE)                                                \
	static const struct insn *NAME(struct cpu *c, const struct insn *i)          \
	{                                                                            \
		uint64_t ea = insn_ea_flat64(c, i), a = mem_read_fast(ea, 8), b = insn_imm(i), r = a - b; \
		EXEC_STORE_OR_GENERIC(c, i, ea, 8);                                  \
		mem_write_nocheck(ea, 8, r);                                         \
		flags_record(c, FL_SUB, 8, r, a, b);                                 \
		return exec_jcc(c, i + 1, (r == 0) != JNE);                          \
	}
FUSED_SUB_MI64_F64(fused_sub_mi64_f64_je, false)
FUSED_SUB_MI64_F64(fused_sub_mi64_f64_jne, true)

/* pool[n - 1] a JE or JNE after such a SUB (its fast form: no LOCK, no
 * #AC). */
static bool fuse_sub_jz(struct insn *jcc)
{
	struct insn *sub = jcc - 1;
	unsigned op, form, cc = insn_cold(jcc)->op & 15;

	if ((cc != 4 && cc != 5) || !insn_cold(sub)->seq || insn_cold(sub)->osz != 8 || !alu_fast_form(sub, &op, &form) ||
	    op != ALU_SUB || form != FORM_MI || ea_shape(sub) != EA_FLAT64 ||
	    sub->exec != alu_shaped_form(ALU_SUB, FORM_MI, EA_FLAT64, 8))
		return false;
	sub->exec = cc == 4 ? fused_sub_mi64_f64_je : fused_sub_mi64_f64_jne;
	insn_cold(sub)->lf &= LF_STALE | LF_REBUILD; /* a reader for lflive, as the fused compares */
	return true;
}

/* pool[n - 1] a Jcc after an AND of registers (AND r/m, r) or of a
 * register and an immediate, 32 or 64 bits, in its fast form with the
 * flags (a reader follows it: lflive leaves it so). */
static bool fuse_and_jcc(struct insn *jcc)
{
	struct insn *and = jcc - 1;
	struct insn_cold *ic = insn_cold(and);
	unsigned op, form;

	if (!ic->seq || ic->mod != 3 || (ic->osz != 4 && ic->osz != 8) || (ic->pfx & PFX_LOCK) ||
	    and->exec == exec_generic || and->exec == exec_plain || (ic->lf & LF_PAIR_HEAD) ||
	    !alu_fast_form(and, &op, &form) || op != ALU_AND || (form != FORM_RR && form != FORM_RI))
		return false;
	and->exec = fused_and[ic->osz == 8][form == FORM_RI][insn_cold(jcc)->op & 15];
	ic->lf &= LF_STALE; /* a reader for lflive, as the fused compares */
	return true;
}

/* pool[n - 1] a Jcc after a SUB r64, m64 in its fast form with the
 * flags, base + disp or flat base + disp. */
static bool fuse_sub_rm_jcc(struct insn *jcc)
{
	struct insn *sub = jcc - 1;
	struct insn_cold *ic = insn_cold(sub);
	unsigned op, form, shape;

	if (!ic->seq || ic->mod == 3 || ic->osz != 8 || (ic->lf & LF_PAIR_HEAD) || !alu_fast_form(sub, &op, &form) ||
	    op != ALU_SUB || form != FORM_RM || ((shape = ea_shape(sub)) != EA_BD && shape != EA_FLAT64) ||
	    sub->exec != alu_shaped_form(ALU_SUB, FORM_RM, shape, 8))
		return false;
	sub->exec = fused_sub_rm64[shape == EA_FLAT64][insn_cold(jcc)->op & 15];
	ic->lf &= LF_STALE | LF_REBUILD; /* a reader for lflive, as the fused compares; its load's fault rebuilds */
	return true;
}

/* pool[n - 1] the SBB, pool[n - 2] the NEG, both fast forms. The head
 * then runs the next entry too, as a pair's (LF_PAIR_HEAD: the run loop's
 * stale stretch runs through it), and is a flag reader for lflive. */
static bool fuse_neg_sbb(struct insn *pool, uint32_t n)
{
	struct insn *s = &pool[n - 1], *neg = s - 1;
	unsigned op, form;

	if (n < 2 || insn_cold(s)->osz != 1 || insn_cold(s)->mod != 3 || s->exec == exec_generic ||
	    !alu_fast_form(s, &op, &form) || op != ALU_SBB || (form != FORM_RR && form != FORM_GR) ||
	    insn_rm8(s) != insn_reg8(s))
		return false; /* an immediate's reg is 0 or the /3: not a register */
	if (!insn_cold(neg)->seq || insn_cold(neg)->fn != op_neg_Ev || insn_cold(neg)->mod != 3 || insn_cold(neg)->osz != 2 ||
	    neg->exec == exec_generic || (insn_cold(neg)->lf & LF_PAIR_HEAD))
		return false;
	neg->exec = insn_rm8(s) < 16 ? fused_neg16_sbb8_low : fused_neg16_sbb8;
	insn_cold(neg)->lf = (insn_cold(neg)->lf & LF_STALE) | LF_PAIR_HEAD;
	return true;
}

/* MOVZX r32/r64 of the low byte of the same register (not AH..BH). */
static bool is_movzx_self(const struct insn *i, unsigned r)
{
	const struct insn_cold *ic = insn_cold(i);
	return ic->fn == op_movzx_GvEb && ic->mod == 3 && (ic->osz == 4 || ic->osz == 8) &&
	       i->exec != exec_generic && i->reg == r && insn_rm8(i) == r;
}

/* pool[n - 1] a 32-bit SUB of registers: with the two MOVZX before it
 * the rest of a three-way compare fused with its CMP and SETcc
 * (fused_3way_sub). */
static void fuse_3way_tail(struct insn *pool, uint32_t n)
{
	struct insn *sub = &pool[n - 1], *zx2 = sub - 1, *zx1 = sub - 2, *set2 = sub - 3,
		    *set1 = sub - 4, *cmp = sub - 5;
	unsigned op, form, w, sub_op, sub_form, a, b, shape;
	int kind;

	if (n < 6 || insn_cold(sub)->mod != 3 || insn_cold(sub)->osz != 4 || sub->exec == exec_generic ||
	    sub->exec == exec_plain || !alu_fast_form(sub, &sub_op, &sub_form) ||
	    sub_op != ALU_SUB || !insn_cold(zx2)->seq || !insn_cold(zx1)->seq || !insn_cold(set2)->seq || !insn_cold(set1)->seq ||
	    !is_setcc_reg(set1) || !is_setcc_reg(set2) ||
	    (kind = threeway_of(insn_cold(set1)->op & 15, insn_cold(set2)->op & 15)) < 0 ||
	    !fusable_compare(cmp, &op, &form, &w) || op != ALU_CMP || w == 0)
		return;
	shape = insn_cold(cmp)->mod == 3 ? EA_ANY : ea_shape(cmp);
	a = insn_rm8(set1), b = insn_rm8(set2);
	if (cmp->exec != fused_3way[kind][w][form][shape] || a >= 16 || b >= 16 || a == b)
		return; /* not fused (or AH..BH) */
	if (!(is_movzx_self(zx1, a) && is_movzx_self(zx2, b)) &&
	    !(is_movzx_self(zx1, b) && is_movzx_self(zx2, a)))
		return;
	if (sub_form == FORM_RR ? sub->rm != a || sub->reg != b : sub->reg != a || sub->rm != b)
		return; /* A - B into A */
	cmp->exec = fused_3way_sub[kind][w][form][shape];
}

/* pool[n - 1] a RET: after a fused three-way compare with its SUB
 * (fused_3way_sub, FORM_MR in a flat shape), the compare runs the RET too
 * (fused_3way_sub_ret), and a MOV load right before the compare, into
 * the compared register, of its width and shape, all of them. */
static void fuse_3way_ret(struct insn *pool, uint32_t n)
{
	struct insn *ret = &pool[n - 1], *cmp = ret - 6, *load = cmp - 1;
	unsigned shape, kind, w;
	int ret_shape = -1;

	if (n < 7 || !insn_cold(&ret[-1])->seq || ret->exec == exec_generic || ret->exec == exec_plain ||
	    (insn_cold(ret)->osz != 8 && insn_cold(ret)->osz != 4) || insn_cold(cmp)->mod == 3)
		return;
	shape = ea_shape(cmp);
	if (shape == EA_FLAT64 && insn_cold(ret)->osz == 8)
		ret_shape = RET_SHAPE_F64_RET64;
	else if (shape == EA_FLAT32)
		ret_shape = insn_cold(ret)->osz == 8 ? RET_SHAPE_F32_RET64 : RET_SHAPE_F32_RET32;
	if (ret_shape < 0)
		return;
	for (kind = 0; kind < THREEWAY_COUNT; kind++)
		for (w = 1; w < 3; w++) {
			if (cmp->exec != fused_3way_sub[kind][w][FORM_MR][shape])
				continue;
			cmp->exec = fused_3way_sub_ret[kind][w - 1][ret_shape][0];
			if (n >= 8 && insn_cold(load)->seq && insn_cold(load)->fn == op_mov_GvEv && insn_cold(load)->mod != 3 &&
			    insn_cold(load)->osz == insn_cold(cmp)->osz && load->reg == cmp->reg && ea_shape(load) == shape &&
			    load->exec != exec_generic && load->exec != exec_plain &&
			    !(insn_cold(load)->lf & LF_PAIR_HEAD))
				load->exec = fused_3way_sub_ret[kind][w - 1][ret_shape][1];
			return;
		}
}

/* pool[n - 1] an ALU operation of registers or memory: a NEG before an
 * SBB of a byte register by itself, or the SUB ending a three-way compare. */
static void fuse_alu_last(struct insn *pool, uint32_t n)
{
	if (!fuse_neg_sbb(pool, n))
		fuse_3way_tail(pool, n);
}

static void fuse_setcc_last(struct insn *pool, uint32_t n)
{
	if (n >= 2 && is_setcc_reg(&pool[n - 1]))
		fuse_setcc(pool, n);
}

/* test, fused with the Jcc after it as a TEST of registers of width
 * index w: a MOV of the TEST's register right before it runs the three
 * (fused_move_test), unless it heads a pair already. */
static void fuse_move_test(struct insn *test, unsigned w, unsigned cc)
{
	struct insn *mov = test - 1;
	int kind;

	if (!insn_cold(mov)->seq || (insn_cold(mov)->lf & LF_PAIR_HEAD) || test->rm != test->reg ||
	    (kind = move_test_kind(mov)) < 0 || mov->reg != test->reg || move_test_w[kind] != w)
		return;
	mov->exec = fused_move_test[kind][cc];
}

/* ADD r32, imm, flag-free (the TEST overwrites its flags: lflive.c), and
 * the fused TEST of registers and Jcc after it as one handler from the
 * ADD's entry: i386's caller popping a call's stack arguments and testing
 * the result, "add $0x10,%esp; test %eax,%eax; jg" (msort after qsort's
 * callback), a pointer stepped before a loop's test ("add $0x4,%ebx; test
 * %eax,%eax; je", msort's merge). Neither can fault; the TEST's entry
 * keeps its own form for a jump to it. */
#define FUSED_ADD_TEST(_, cc)                                                                       \
	static const struct insn *fused_add_test_rr32_##cc(struct cpu *c, const struct insn *a)    \
	{                                                                                          \
		c->r[a->rm] = (uint32_t)(c->r[a->rm] + insn_imm(a));                                    \
		return fused_test_rr32_##cc(c, a + 1);                                             \
	}
FUSED_CC16(FUSED_ADD_TEST, _)
#define FUSED_ADD_TEST_ROW(_, cc) fused_add_test_rr32_##cc,
static const insn_exec fused_add_test_rr32[16] = { FUSED_CC16(FUSED_ADD_TEST_ROW, _) };

static void fuse_add_test(struct insn *test, unsigned cc)
{
	struct insn *add = test - 1;

	if (insn_cold(add)->seq && !(insn_cold(add)->lf & LF_PAIR_HEAD) && alu_add_ri32_flag_free(add))
		add->exec = fused_add_test_rr32[cc];
}

/* pool[n - 1] a Jcc: the compare, TEST, INC or DEC before it runs both. */
static void fuse_jcc(struct insn *pool, uint32_t n)
{
	struct insn *jcc = &pool[n - 1], *cmp;
	unsigned op, form, w;

	if (n < 2 || jcc->exec == exec_generic)
		return; /* not a fast Jcc (66-prefixed ones stay generic) */
	cmp = jcc - 1;
	if (insn_cold(cmp)->seq && (insn_cold(cmp)->lf & LF_CLASS_MASK) == LF_KEEPCF && cmp->exec != exec_generic &&
	    (insn_cold(cmp)->mod == 3 ? insn_cold(cmp)->osz == 4 || insn_cold(cmp)->osz == 8 : insn_cold(cmp)->osz == 4)) {
		bool dec = insn_cold(cmp)->fn == op_dec_Ev || insn_cold(cmp)->fn == op_dec_r;

		cmp->exec = insn_cold(cmp)->mod == 3 ? fused_incdec[dec][insn_cold(cmp)->osz == 8][insn_cold(jcc)->op & 15]
					  : fused_incdec_mem[dec][ea_shape(cmp)];
		insn_cold(cmp)->lf &= LF_STALE | LF_REBUILD; /* a reader for lflive, as the compares */
		return;
	}
	if (fuse_sub_jz(jcc) || fuse_and_jcc(jcc) || fuse_sub_rm_jcc(jcc) || !fusable_compare(cmp, &op, &form, &w))
		return;
	if (op == ALU_CMP && w == 1 && form >= FORM_RM && ea_shape(cmp) != EA_ANY)
		cmp->exec = fused_cmp32_shaped[form - FORM_RM][ea_shape(cmp) - EA_BD][insn_cold(jcc)->op & 15];
	else if (op == ALU_CMP && w == 2 && form >= FORM_RM && ea_shape(cmp) == EA_FLAT64)
		cmp->exec = fused_cmp64_f64[form - FORM_RM][insn_cold(jcc)->op & 15];
	else if (op == ALU_TEST && w == 0 && form == FORM_MI && ea_shape(cmp) == EA_FLAT64)
		cmp->exec = fused_test8_mi_f64[insn_cold(jcc)->op & 15];
	else if (insn_addr32_in_64(cmp))
		return; /* fused_cmp/fused_test address with insn_ea_fast (insn.h) */
	else {
		cmp->exec = (op == ALU_CMP ? fused_cmp : fused_test)[w][form][insn_cold(jcc)->op & 15];
		if (op == ALU_TEST && form == FORM_RR && n >= 3)
			fuse_move_test(cmp, w, insn_cold(jcc)->op & 15);
		if (op == ALU_TEST && form == FORM_RR && w == 1 && n >= 3)
			fuse_add_test(cmp, insn_cold(jcc)->op & 15);
	}
	/* a reader for lflive; a fault in its load (reg op= memory) still
	 * finds the flags before it rebuilt, as the compare's would (LF_REBUILD) */
	insn_cold(cmp)->lf &= LF_STALE | LF_REBUILD;
}

/* Every fusion by the handler of its last instruction, the only place
 * that says which: fuse_decoded runs the one of pool[n - 1], and the
 * cache calls fuse_decoded for these handlers alone (cache.c,
 * decode_pass_gate: most decodes end no fusion). */
const struct pass_end fusion_ends[] = {
	{ op_jcc_Jb, fuse_jcc },
	{ op_alu_EvGv, fuse_alu_last },
	{ op_alu_GvEv, fuse_alu_last },
	{ op_ret, fuse_3way_ret },
	{ op_setcc_Eb, fuse_setcc_last },
	{ op_call_Ev, control_load_call_decoded },
};
const unsigned fusion_end_count = sizeof(fusion_ends) / sizeof(fusion_ends[0]);

void fuse_decoded(struct insn *pool, uint32_t n)
{
	pass_end_run(fusion_ends, fusion_end_count, pool, n);
}
