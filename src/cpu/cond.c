/* Conditional instructions: Jcc, SETcc, CMOVcc, LOOP/LOOPE/LOOPNE, JrCXZ.
 * The condition is the low nibble of the opcode (70+cc, 0F 80+cc, ...). */
#include "cpu/cache.h"
#include "cpu/ops.h"

void op_jcc_Jb(struct cpu *c, const struct insn *i)
{
	if (flags_test(c, insn_cold(i)->op & 15))
		jump_to(c, i, c->rip + insn_imm(i));
}

void op_setcc_Eb(struct cpu *c, const struct insn *i)
{
	rm_write(c, i, 1, flags_test(c, insn_cold(i)->op & 15));
}

/* The source is read (and may fault) whatever the condition; a 32-bit
 * destination is zero-extended even when nothing moves. */
void op_cmovcc_GvEv(struct cpu *c, const struct insn *i)
{
	const struct insn_cold *ic = insn_cold(i);
	uint64_t v = rm_read(c, i, ic->osz);

	if (!flags_test(c, ic->op & 15))
		v = greg_get(c, i, ic->osz);
	greg_set(c, i, ic->osz, v);
}

/* E0 LOOPNE, E1 LOOPE, E2 LOOP; the counter width is the address size. */
void op_loop_Jb(struct cpu *c, const struct insn *i)
{
	const struct insn_cold *ic = insn_cold(i);
	uint64_t n = reg_get(c, R_CX, ic->asz) - 1;
	bool go;

	reg_set(c, R_CX, ic->asz, n);
	n &= size_mask(ic->asz);
	go = n != 0;
	if (ic->op == 0xe0)
		go = go && !(flags_get(c) & FL_ZF);
	else if (ic->op == 0xe1)
		go = go && (flags_get(c) & FL_ZF);
	if (go)
		jump_to(c, i, c->rip + insn_imm(i));
}

void op_jcxz_Jb(struct cpu *c, const struct insn *i)
{
	if (reg_get(c, R_CX, insn_cold(i)->asz) == 0)
		jump_to(c, i, c->rip + insn_imm(i));
}

/* Jcc with the condition fixed at decode time (cond_specialise); a
 * record flags_test does not read inline goes out of line, so the forms
 * need no frame (with flags_cond's call in them they pushed and popped
 * one on every run). */
static __attribute__((noinline)) const struct insn *jcc_slow(struct cpu *c, const struct insn *i, unsigned cc)
{
	if (flags_cond(c, cc))
		return exec_rel_target(c, i);
	return exec_next(c, i);
}

#define FAST_JCC(cc)                                                                 \
	static const struct insn *fast_jcc_##cc(struct cpu *c, const struct insn *i) \
	{                                                                            \
		bool slow = false, taken = flags_test_inline(c, cc, &slow);          \
		if (__builtin_expect(slow, 0))                                       \
			return jcc_slow(c, i, cc);                                   \
		if (taken)                                                           \
			return exec_rel_target(c, i);                                \
		return exec_next(c, i);                                              \
	}
FAST_JCC(0) FAST_JCC(1) FAST_JCC(2) FAST_JCC(3) FAST_JCC(4) FAST_JCC(5) FAST_JCC(6) FAST_JCC(7)
FAST_JCC(8) FAST_JCC(9) FAST_JCC(10) FAST_JCC(11) FAST_JCC(12) FAST_JCC(13) FAST_JCC(14) FAST_JCC(15)

static const insn_exec fast_jcc[16] = {
	fast_jcc_0, fast_jcc_1, fast_jcc_2,  fast_jcc_3,  fast_jcc_4,  fast_jcc_5,  fast_jcc_6,  fast_jcc_7,
	fast_jcc_8, fast_jcc_9, fast_jcc_10, fast_jcc_11, fast_jcc_12, fast_jcc_13, fast_jcc_14, fast_jcc_15,
};

/* SETcc of memory in the address shapes (insn.h, EA_SHAPES; Perl's
 * `setne 0x5e(%rsp)`): the address names the instruction in cpu.cur
 * before the store can fault, and a store that is not plain goes to the
 * table handler (EXEC_STORE_OR_GENERIC), nothing changed. A record
 * flags_test_inline does not read goes out of line, as for Jcc (with
 * flags_cond's call in them the forms had a frame). */
static __attribute__((noinline)) const struct insn *setcc_m_slow(struct cpu *c, const struct insn *i,
								 uint64_t ea, unsigned cc)
{
	mem_write_nocheck(ea, 1, flags_cond(c, cc));
	return exec_next(c, i);
}

#define FAST_SETCC_M(cc, SH, EA)                                                          \
	static const struct insn *fast_setcc_m##SH##_##cc(struct cpu *c, const struct insn *i) \
	{                                                                                 \
		uint64_t ea = EA(c, i);                                                   \
		bool slow = false, set;                                                   \
		EXEC_STORE_OR_GENERIC(c, i, ea, 1);                                       \
		set = flags_test_inline(c, cc, &slow);                                    \
		if (__builtin_expect(slow, 0))                                            \
			return setcc_m_slow(c, i, ea, cc);                                \
		mem_write_nocheck(ea, 1, set);                                            \
		return exec_next(c, i);                                                   \
	}

/* The condition cc into a new bool VAR from a record flags_test_inline
 * reads; any other record runs the instruction through its table
 * handler, nothing changed yet (flags_cond's call in a form gave it a
 * frame). */
#define COND_OR_GENERIC(VAR, cc)                                               \
	bool slow_ = false, VAR = flags_test_inline(c, cc, &slow_);            \
	if (__builtin_expect(slow_, 0))                                        \
		return exec_generic(c, i)

/* CMOVcc of BITS from a register or (M _m) memory, SRC: the source read
 * whatever the condition; a 32-bit destination is written, so
 * zero-extended, either way. */
#define FAST_CMOV(cc, BITS, T, M, SRC)                                                        \
	static const struct insn *fast_cmov##BITS##M##_##cc(struct cpu *c, const struct insn *i) \
	{                                                                                     \
		COND_OR_GENERIC(move, cc);                                                    \
		T v = (T)(SRC);                                                               \
		if (BITS == 32 || move)                                                       \
			c->r[i->reg] = move ? v : (T)c->r[i->reg];                            \
		return exec_next(c, i);                                                       \
	}

/* SETcc of a byte register or of memory, CMOVcc of 32/64-bit registers
 * or a memory source, each form for one of the two (no read of ModRM.mod
 * from the cold record). */
#define FAST_CC(cc)                                                                  \
	static const struct insn *fast_setcc_r_##cc(struct cpu *c, const struct insn *i)           \
	{                                                                            \
		COND_OR_GENERIC(set, cc);                                            \
		reg_set(c, insn_rm8(i), 1, set);                                          \
		return exec_next(c, i); \
	}                                                                            \
	EA_SHAPES(FAST_SETCC_M, cc)                                                  \
	FAST_CMOV(cc, 32, uint32_t, , c->r[i->rm])                                   \
	FAST_CMOV(cc, 32, uint32_t, _m, mem_read_fast(insn_ea_fast(c, i), 4))        \
	FAST_CMOV(cc, 64, uint64_t, , c->r[i->rm])                                   \
	FAST_CMOV(cc, 64, uint64_t, _m, mem_read_fast(insn_ea_fast(c, i), 8))
FAST_CC(0) FAST_CC(1) FAST_CC(2) FAST_CC(3) FAST_CC(4) FAST_CC(5) FAST_CC(6) FAST_CC(7)
FAST_CC(8) FAST_CC(9) FAST_CC(10) FAST_CC(11) FAST_CC(12) FAST_CC(13) FAST_CC(14) FAST_CC(15)

#define CC_ROW(p) p##0, p##1, p##2, p##3, p##4, p##5, p##6, p##7, \
		  p##8, p##9, p##10, p##11, p##12, p##13, p##14, p##15
static const insn_exec fast_setcc_r[16] = { CC_ROW(fast_setcc_r_) };
static const insn_exec fast_setcc_m[EA_SHAPE_COUNT][16] = {
	[EA_ANY] = { CC_ROW(fast_setcc_m_) },       [EA_BD] = { CC_ROW(fast_setcc_m_bd_) },
	[EA_FLAT32] = { CC_ROW(fast_setcc_m_f32_) }, [EA_FLAT64] = { CC_ROW(fast_setcc_m_f64_) },
};
/* [memory source][cc] */
static const insn_exec fast_cmov32[2][16] = { { CC_ROW(fast_cmov32_) }, { CC_ROW(fast_cmov32_m_) } };
static const insn_exec fast_cmov64[2][16] = { { CC_ROW(fast_cmov64_) }, { CC_ROW(fast_cmov64_m_) } };

void cond_specialise(struct insn *i)
{
	const struct insn_cold *ic = insn_cold(i);
	if (ic->fn == op_jcc_Jb && !(ic->pfx & PFX_OSZ)) { /* 66: the generic form */
		i->exec = fast_jcc[ic->op & 15];
		insn_cold(i)->chains = 1;
		i->v = INSN_LINK_SELF_TAGGED;
	}
	else if (ic->fn == op_setcc_Eb)
		i->exec = ic->mod == 3 ? fast_setcc_r[ic->op & 15] : fast_setcc_m[ea_shape(i)][ic->op & 15];
	else if (ic->fn == op_cmovcc_GvEv && ic->osz == 4)
		i->exec = fast_cmov32[ic->mod != 3][ic->op & 15];
	else if (ic->fn == op_cmovcc_GvEv && ic->osz == 8)
		i->exec = fast_cmov64[ic->mod != 3][ic->op & 15];
}
