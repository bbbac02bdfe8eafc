/* Integer arithmetic and logic: ADD..CMP, TEST, NOT, NEG, INC, DEC, the
 * multiplies and divides, CMPXCHG/XADD, and the flag instructions.
 * Read-modify-write forms with LOCK run as a host compare-and-swap loop. */
#include "cpu/units.h"


static uint64_t alu_calc(unsigned op, uint64_t a, uint64_t b, bool cin)
{
	switch (op) {
	case ALU_ADD: return a + b;
	case ALU_OR: return a | b;
	case ALU_ADC: return a + b + cin;
	case ALU_SBB: return a - b - cin;
	case ALU_AND: return a & b;
	case ALU_XOR: return a ^ b;
	default: return a - b; /* SUB, CMP */
	}
}

static void alu_flags(struct cpu *c, unsigned op, unsigned sz, uint64_t a, uint64_t b,
		      uint64_t res, bool cin)
{
	static const uint8_t kind[8] = { FL_ADD, FL_LOGIC, FL_ADC, FL_SBB,
					 FL_LOGIC, FL_SUB, FL_LOGIC, FL_SUB };

	flags_set(c, kind[op], sz, res, a, b);
	c->lf.aux = cin;
}

/* dst op= src on the r/m operand (or just flags for CMP). */
static void alu_rm(struct cpu *c, const struct insn *i, unsigned op, uint64_t b)
{
	const struct insn_cold *ic = insn_cold(i);
	unsigned sz = ic->osz;
	bool cin = (op == ALU_ADC || op == ALU_SBB) && flags_cf(c);
	uint64_t a, res;

	b &= size_mask(sz);
	if (op == ALU_CMP && (ic->pfx & PFX_LOCK)) {
		op_ud(c, i);
		return;
	}
	if (ic->mod == 3 || op == ALU_CMP) {
		a = rm_read(c, i, sz);
		res = alu_calc(op, a, b, cin);
		if (op != ALU_CMP)
			rm_write(c, i, sz, res);
	} else {
		uint64_t ea = insn_ea(c, i);

		a = mem_read(ea, sz);
		if (ic->pfx & PFX_LOCK) {
			do
				res = alu_calc(op, a, b, cin);
			while (!mem_cas(ea, sz, &a, res & size_mask(sz)));
		} else {
			res = alu_calc(op, a, b, cin);
			mem_write(ea, sz, res);
		}
	}
	alu_flags(c, op, sz, a, b, res, cin);
}

void op_alu_EvGv(struct cpu *c, const struct insn *i)
{
	alu_rm(c, i, (insn_cold(i)->op >> 3) & 7, greg_get(c, i, insn_cold(i)->osz));
}

void op_alu_GvEv(struct cpu *c, const struct insn *i)
{
	unsigned op = (insn_cold(i)->op >> 3) & 7, sz = insn_cold(i)->osz;
	bool cin = (op == ALU_ADC || op == ALU_SBB) && flags_cf(c);
	uint64_t a = greg_get(c, i, sz), b = rm_read(c, i, sz);
	uint64_t res = alu_calc(op, a, b, cin);

	if (op != ALU_CMP)
		greg_set(c, i, sz, res);
	alu_flags(c, op, sz, a, b, res, cin);
}

void op_alu_rAXIz(struct cpu *c, const struct insn *i)
{
	unsigned op = (insn_cold(i)->op >> 3) & 7, sz = insn_cold(i)->osz;
	bool cin = (op == ALU_ADC || op == ALU_SBB) && flags_cf(c);
	uint64_t a = reg_get(c, R_AX, sz), b = insn_imm(i) & size_mask(sz);
	uint64_t res = alu_calc(op, a, b, cin);

	if (op != ALU_CMP)
		reg_set(c, R_AX, sz, res);
	alu_flags(c, op, sz, a, b, res, cin);
}

void op_alu_EvIz(struct cpu *c, const struct insn *i)
{
	alu_rm(c, i, i->reg & 7, insn_imm(i));
}

void op_test_EvGv(struct cpu *c, const struct insn *i)
{
	uint64_t r = rm_read(c, i, insn_cold(i)->osz) & greg_get(c, i, insn_cold(i)->osz);

	flags_set(c, FL_LOGIC, insn_cold(i)->osz, r, 0, 0);
}

void op_test_rAXIz(struct cpu *c, const struct insn *i)
{
	flags_set(c, FL_LOGIC, insn_cold(i)->osz, reg_get(c, R_AX, insn_cold(i)->osz) & insn_imm(i), 0, 0);
}

void op_test_EvIz(struct cpu *c, const struct insn *i)
{
	flags_set(c, FL_LOGIC, insn_cold(i)->osz, rm_read(c, i, insn_cold(i)->osz) & insn_imm(i), 0, 0);
}

/* Unary read-modify-write: NOT, NEG, INC, DEC. */
enum { UN_NOT, UN_NEG, UN_INC, UN_DEC };

static uint64_t unary_calc(unsigned op, uint64_t a)
{
	switch (op) {
	case UN_NOT: return ~a;
	case UN_NEG: return -a;
	case UN_INC: return a + 1;
	default: return a - 1;
	}
}

static void unary_flags(struct cpu *c, unsigned op, unsigned sz, uint64_t a, uint64_t res)
{
	switch (op) {
	case UN_NOT:
		break; /* NOT changes no flags */
	case UN_NEG:
		flags_set(c, FL_SUB, sz, res, 0, a);
		break;
	default: {
		bool cf = flags_cf(c);

		flags_set(c, op == UN_INC ? FL_INC : FL_DEC, sz, res, a, 1);
		c->lf.rf = (c->lf.rf & ~FL_CF) | (cf ? FL_CF : 0);
		break;
	}
	}
}

static void unary_rm(struct cpu *c, const struct insn *i, unsigned op)
{
	unsigned sz = insn_cold(i)->osz;
	uint64_t a, res;

	if (insn_cold(i)->mod == 3) {
		a = rm_read(c, i, sz);
		res = unary_calc(op, a);
		rm_write(c, i, sz, res);
	} else {
		uint64_t ea = insn_ea(c, i);

		a = mem_read(ea, sz);
		if (insn_cold(i)->pfx & PFX_LOCK) {
			do
				res = unary_calc(op, a);
			while (!mem_cas(ea, sz, &a, res & size_mask(sz)));
		} else {
			res = unary_calc(op, a);
			mem_write(ea, sz, res);
		}
	}
	unary_flags(c, op, sz, a, res);
}

void op_not_Ev(struct cpu *c, const struct insn *i) { unary_rm(c, i, UN_NOT); }
void op_neg_Ev(struct cpu *c, const struct insn *i) { unary_rm(c, i, UN_NEG); }
void op_inc_Ev(struct cpu *c, const struct insn *i) { unary_rm(c, i, UN_INC); }
void op_dec_Ev(struct cpu *c, const struct insn *i) { unary_rm(c, i, UN_DEC); }

static void unary_r(struct cpu *c, const struct insn *i, unsigned op)
{
	uint64_t a = reg_get(c, i->rm, insn_cold(i)->osz), res = unary_calc(op, a);

	reg_set(c, i->rm, insn_cold(i)->osz, res);
	unary_flags(c, op, insn_cold(i)->osz, a, res);
}

void op_inc_r(struct cpu *c, const struct insn *i) { unary_r(c, i, UN_INC); }
void op_dec_r(struct cpu *c, const struct insn *i) { unary_r(c, i, UN_DEC); }

/* ---- multiply and divide ---- */

/* Write the double-width result of a one-operand MUL/IMUL/DIV/IDIV:
 * AL/AH (byte: lo to AL, hi to AH), else rAX and rDX. */
static void put_pair(struct cpu *c, unsigned sz, uint64_t lo, uint64_t hi)
{
	if (sz == 1) {
		reg_set(c, R_AX, 2, (lo & 0xff) | (hi & 0xff) << 8);
	} else {
		reg_set(c, R_AX, sz, lo);
		reg_set(c, R_DX, sz, hi);
	}
}

void op_mul_Ev(struct cpu *c, const struct insn *i)
{
	unsigned sz = insn_cold(i)->osz, bits = sz * 8;
	unsigned __int128 p = (unsigned __int128)reg_get(c, R_AX, sz) * rm_read(c, i, sz);
	uint64_t lo = (uint64_t)p & size_mask(sz);
	uint64_t hi = (uint64_t)(p >> bits) & size_mask(sz);

	put_pair(c, sz, lo, hi);
	flags_set_resco(c, sz, lo, hi != 0, hi != 0);
}

void op_imul_Ev(struct cpu *c, const struct insn *i)
{
	unsigned sz = insn_cold(i)->osz, bits = sz * 8;
	__int128 p = (__int128)(int64_t)sign_extend(reg_get(c, R_AX, sz), sz) *
		     (int64_t)sign_extend(rm_read(c, i, sz), sz);
	uint64_t lo = (uint64_t)p & size_mask(sz);
	uint64_t hi = (uint64_t)(p >> bits) & size_mask(sz);
	bool ovf = p != (__int128)(int64_t)sign_extend(lo, sz);

	put_pair(c, sz, lo, hi);
	flags_set_resco(c, sz, lo, ovf, ovf);
}

static void imul_to_reg(struct cpu *c, const struct insn *i, uint64_t a, uint64_t b)
{
	unsigned sz = insn_cold(i)->osz;
	__int128 p = (__int128)(int64_t)sign_extend(a, sz) * (int64_t)sign_extend(b, sz);
	uint64_t lo = (uint64_t)p & size_mask(sz);
	bool ovf = p != (__int128)(int64_t)sign_extend(lo, sz);

	greg_set(c, i, sz, lo);
	flags_set_resco(c, sz, lo, ovf, ovf);
}

void op_imul_GvEvIz(struct cpu *c, const struct insn *i)
{
	imul_to_reg(c, i, rm_read(c, i, insn_cold(i)->osz), insn_imm(i));
}

void op_imul_GvEv(struct cpu *c, const struct insn *i)
{
	imul_to_reg(c, i, greg_get(c, i, insn_cold(i)->osz), rm_read(c, i, insn_cold(i)->osz));
}

/* The double-width dividend: AX for bytes, else rDX:rAX. */
static unsigned __int128 dividend(struct cpu *c, unsigned sz)
{
	if (sz == 1)
		return reg_get(c, R_AX, 2);
	return (unsigned __int128)reg_get(c, R_DX, sz) << (sz * 8) | reg_get(c, R_AX, sz);
}

void op_div_Ev(struct cpu *c, const struct insn *i)
{
	unsigned sz = insn_cold(i)->osz;
	uint64_t d = rm_read(c, i, sz);
	unsigned __int128 n = dividend(c, sz), q;

	if (d == 0 || (q = n / d) > size_mask(sz)) {
		cpu_raise(c, VEC_DE);
		return;
	}
	put_pair(c, sz, (uint64_t)q, (uint64_t)(n % d));
}

void op_idiv_Ev(struct cpu *c, const struct insn *i)
{
	unsigned sz = insn_cold(i)->osz, bits = sz * 8;
	int64_t d = (int64_t)sign_extend(rm_read(c, i, sz), sz);
	unsigned __int128 u = dividend(c, sz);
	__int128 n, q;
	int64_t qmin = sz == 8 ? INT64_MIN : -(int64_t)(1ull << (bits - 1));
	int64_t qmax = sz == 8 ? INT64_MAX : (int64_t)(1ull << (bits - 1)) - 1;

	/* sign-extend the 2*bits dividend */
	n = (__int128)(u << (128 - 2 * bits)) >> (128 - 2 * bits);
	if (d == 0 || (d == -1 && n == (__int128)((unsigned __int128)1 << 127))) {
		cpu_raise(c, VEC_DE);
		return;
	}
	q = n / d;
	if (q < qmin || q > qmax) {
		cpu_raise(c, VEC_DE);
		return;
	}
	put_pair(c, sz, (uint64_t)q, (uint64_t)(n % d));
}

/* ---- compare-exchange, exchange-add ---- */

void op_cmpxchg_EvGv(struct cpu *c, const struct insn *i)
{
	unsigned sz = insn_cold(i)->osz;
	uint64_t acc = reg_get(c, R_AX, sz), src = greg_get(c, i, sz), cur;

	if (insn_cold(i)->mod == 3) {
		cur = rm_read(c, i, sz);
		if (cur == acc)
			rm_write(c, i, sz, src);
		else
			reg_set(c, R_AX, sz, cur);
	} else {
		uint64_t ea = insn_ea(c, i);

		cur = acc;
		if (!mem_cas(ea, sz, &cur, src)) {
			reg_set(c, R_AX, sz, cur);
		}
	}
	flags_set(c, FL_SUB, sz, acc - cur, acc, cur);
}

void op_xadd_EvGv(struct cpu *c, const struct insn *i)
{
	unsigned sz = insn_cold(i)->osz;
	uint64_t b = greg_get(c, i, sz), a, res;

	if (insn_cold(i)->mod == 3) {
		a = rm_read(c, i, sz);
		res = a + b;
		greg_set(c, i, sz, a);
		rm_write(c, i, sz, res);
	} else {
		uint64_t ea = insn_ea(c, i);

		a = mem_read(ea, sz);
		if (insn_cold(i)->pfx & PFX_LOCK) {
			while (!mem_cas(ea, sz, &a, (a + b) & size_mask(sz)))
				;
		} else {
			mem_write(ea, sz, a + b);
		}
		res = a + b;
		greg_set(c, i, sz, a);
	}
	flags_set(c, FL_ADD, sz, res, a, b);
}

/* The host's own CMPXCHG16B: the compiler's 16-byte atomics would need
 * libatomic. */
static bool cas16(unsigned __int128 *p, unsigned __int128 *expected, unsigned __int128 desired)
{
	uint64_t lo = (uint64_t)*expected, hi = (uint64_t)(*expected >> 64);
	bool ok;

	__asm__ volatile("lock cmpxchg16b %1"
			 : "=@ccz"(ok), "+m"(*p), "+a"(lo), "+d"(hi)
			 : "b"((uint64_t)desired), "c"((uint64_t)(desired >> 64))
			 : "memory");
	*expected = (unsigned __int128)hi << 64 | lo;
	return ok;
}

/* CMPXCHG8B m64 / CMPXCHG16B m128 (REX.W): compare rDX:rAX, store rCX:rBX. */
void op_cmpxchg8b_Mq(struct cpu *c, const struct insn *i)
{
	uint64_t ea = insn_ea(c, i);
	bool eq;

	if (insn_cold(i)->rex & 8) {
		unsigned __int128 want = (unsigned __int128)c->r[R_DX] << 64 | c->r[R_AX];
		unsigned __int128 put = (unsigned __int128)c->r[R_CX] << 64 | c->r[R_BX];
		unsigned __int128 *p = g2h(ea);

		if (ea & 15) {
			cpu_raise_addr(c, VEC_GP, ea);
			return;
		}
		store_guard(ea, 16);
		eq = cas16(p, &want, put);
		if (eq)
			code_write_check(ea, 16);
		if (!eq) {
			c->r[R_AX] = (uint64_t)want;
			c->r[R_DX] = (uint64_t)(want >> 64);
		}
	} else {
		uint64_t want = (uint64_t)(uint32_t)c->r[R_DX] << 32 | (uint32_t)c->r[R_AX];
		uint64_t put = (uint64_t)(uint32_t)c->r[R_CX] << 32 | (uint32_t)c->r[R_BX];

		eq = mem_cas(ea, 8, &want, put);
		if (!eq) {
			reg_set(c, R_AX, 4, want);
			reg_set(c, R_DX, 4, want >> 32);
		}
	}
	flags_put(c, FL_ZF, eq ? FL_ZF : 0);
}

/* ---- flag instructions ---- */

void op_clc(struct cpu *c, const struct insn *i) { flags_put(c, FL_CF, 0); }
void op_stc(struct cpu *c, const struct insn *i) { flags_put(c, FL_CF, FL_CF); }
void op_cmc(struct cpu *c, const struct insn *i) { flags_put(c, FL_CF, flags_cf(c) ? 0 : FL_CF); }
void op_cld(struct cpu *c, const struct insn *i) { c->lf.rf &= ~FL_DF; }
void op_std(struct cpu *c, const struct insn *i) { c->lf.rf |= FL_DF; }

/* ---- fast forms, chosen at decode time (alu_specialise) ----
 * 8-, 16-, 32- and 64-bit operands without LOCK: no switch on size or
 * operation, no masks; operand forms FORM_* (ops.h). */

/* Memory operands, in both address shapes (insn.h, EA_SHAPES). */
#define FAST_ALU_MEM_SZ(NAME, KIND, EXPR, WRITES, BITS, T, SZ, SH, EA)                \
	UNIT_ALU_RM(NAME, KIND, EXPR, WRITES, BITS, T, SZ, SH, EA)                         \
	static const struct insn *fast_##NAME##_mr##BITS##SH(struct cpu *c, const struct insn *i)        \
	{                                                                              \
		uint64_t ea = EA(c, i);                                           \
		T a = (T)mem_read_fast(ea, SZ), b = (T)c->r[i->reg], r = (T)(EXPR);          \
		if (WRITES) {                                                          \
			EXEC_STORE_OR_GENERIC(c, i, ea, SZ);                                   \
			mem_write_nocheck(ea, SZ, r);                                          \
		}                                                                      \
		flags_record(c, KIND, SZ, r, a, b);                                          \
		return exec_next(c, i); \
	}                                                                              \
	static const struct insn *fast_##NAME##_mi##BITS##SH(struct cpu *c, const struct insn *i)        \
	{                                                                              \
		uint64_t ea = EA(c, i);                                           \
		T a = (T)mem_read_fast(ea, SZ), b = (T)insn_imm(i), r = (T)(EXPR);                \
		if (WRITES) {                                                          \
			EXEC_STORE_OR_GENERIC(c, i, ea, SZ);                                   \
			mem_write_nocheck(ea, SZ, r);                                          \
		}                                                                      \
		flags_record(c, KIND, SZ, r, a, b);                                          \
		return exec_next(c, i); \
	}

/* The register forms with their flag-free twins (units.h), the memory
 * forms in every address shape. */
#define FAST_ALU(NAME, KIND, EXPR, WRITES)                                                \
	UNIT_ALU_REG_SZ(NAME, KIND, EXPR, WRITES, 16, uint16_t, 2)                       \
	UNIT_ALU_REG_SZ(NAME, KIND, EXPR, WRITES, 32, uint32_t, 4)                       \
	UNIT_ALU_REG_SZ(NAME, KIND, EXPR, WRITES, 64, uint64_t, 8)                       \
	EA_SHAPES(FAST_ALU_MEM_SZ, NAME, KIND, EXPR, WRITES, 16, uint16_t, 2)            \
	EA_SHAPES(FAST_ALU_MEM_SZ, NAME, KIND, EXPR, WRITES, 32, uint32_t, 4)            \
	EA_SHAPES(FAST_ALU_MEM_SZ, NAME, KIND, EXPR, WRITES, 64, uint64_t, 8)

ALU_FAST_OPS(FAST_ALU)
/* reg op= memory of 32 bits through an indexed flat operand, with the
 * flags and flag-free: a 64-bit address (insn_ea_flat64_ix: busybox's
 * SHA-256 round, `add 0x4(%r14,%r10,8),%edx`; Perl's hash, XOR of a
 * table's word) and i386's 32-bit one (insn_ea_flat32_ix); no segment
 * base, no mask. CMP and TEST keep the any-address forms fused.c knows. */
#define ALU_RM_INDEXED_IF1(NAME, KIND, EXPR, SH, EA) \
	UNIT_ALU_RM(NAME, KIND, EXPR, 1, 32, uint32_t, 4, SH, EA)
#define ALU_RM_INDEXED_IF0(NAME, KIND, EXPR, SH, EA)
#define ALU_RM_FX64(NAME, KIND, EXPR, WRITES) \
	ALU_RM_INDEXED_IF##WRITES(NAME, KIND, EXPR, _fx64, insn_ea_flat64_ix)
#define ALU_RM_FX32(NAME, KIND, EXPR, WRITES) \
	ALU_RM_INDEXED_IF##WRITES(NAME, KIND, EXPR, _fx32, insn_ea_flat32_ix)
ALU_FAST_OPS(ALU_RM_FX64)
ALU_FAST_OPS(ALU_RM_FX32)

/* Byte operands: registers through reg_get/reg_set (AH..BH). */
#define FAST_ALU8(NAME, KIND, EXPR, WRITES)                                              \
	static const struct insn *fast_##NAME##_rr8(struct cpu *c, const struct insn *i)               \
	{                                                                                \
		uint8_t a = (uint8_t)reg_get(c, insn_rm8_v(i), 1), b = (uint8_t)reg_get(c, insn_reg8_v(i), 1); \
		uint8_t r = (uint8_t)(EXPR);                                             \
		if (WRITES)                                                              \
			reg_set(c, insn_rm8_v(i), 1, r);                                        \
		flags_record(c, KIND, 1, r, a, b);                                             \
		return exec_next(c, i); \
	}                                                                                \
	static const struct insn *fast_##NAME##_gr8(struct cpu *c, const struct insn *i)               \
	{                                                                                \
		uint8_t a = (uint8_t)reg_get(c, insn_reg8_v(i), 1), b = (uint8_t)reg_get(c, insn_rm8_v(i), 1); \
		uint8_t r = (uint8_t)(EXPR);                                             \
		if (WRITES)                                                              \
			reg_set(c, insn_reg8_v(i), 1, r);                                       \
		flags_record(c, KIND, 1, r, a, b);                                             \
		return exec_next(c, i); \
	}                                                                                \
	static const struct insn *fast_##NAME##_ri8(struct cpu *c, const struct insn *i)               \
	{                                                                                \
		uint8_t a = (uint8_t)reg_get(c, insn_rm8_v(i), 1), b = (uint8_t)insn_imm_v(i);          \
		uint8_t r = (uint8_t)(EXPR);                                             \
		if (WRITES)                                                              \
			reg_set(c, insn_rm8_v(i), 1, r);                                        \
		flags_record(c, KIND, 1, r, a, b);                                             \
		return exec_next(c, i); \
	}

#define FAST_ALU8_MEM(NAME, KIND, EXPR, WRITES, SH, EA)                                   \
	static const struct insn *fast_##NAME##_rm8##SH(struct cpu *c, const struct insn *i)               \
	{                                                                                \
		uint8_t a = (uint8_t)reg_get(c, insn_reg8(i), 1);                              \
		uint8_t b = (uint8_t)mem_read_fast(EA(c, i), 1), r = (uint8_t)(EXPR);     \
		if (WRITES)                                                              \
			reg_set(c, insn_reg8(i), 1, r);                                       \
		flags_record(c, KIND, 1, r, a, b);                                             \
		return exec_next(c, i); \
	}                                                                                \
	static const struct insn *fast_##NAME##_mr8##SH(struct cpu *c, const struct insn *i)               \
	{                                                                                \
		uint64_t ea = EA(c, i);                                             \
		uint8_t a = (uint8_t)mem_read_fast(ea, 1), b = (uint8_t)reg_get(c, insn_reg8(i), 1); \
		uint8_t r = (uint8_t)(EXPR);                                             \
		if (WRITES) {                                                            \
			EXEC_STORE_OR_GENERIC(c, i, ea, 1);                                      \
			mem_write_nocheck(ea, 1, r);                                             \
		}                                                                        \
		flags_record(c, KIND, 1, r, a, b);                                             \
		return exec_next(c, i); \
	}                                                                                \
	static const struct insn *fast_##NAME##_mi8##SH(struct cpu *c, const struct insn *i)               \
	{                                                                                \
		uint64_t ea = EA(c, i);                                             \
		uint8_t a = (uint8_t)mem_read_fast(ea, 1), b = (uint8_t)insn_imm(i), r = (uint8_t)(EXPR); \
		if (WRITES) {                                                            \
			EXEC_STORE_OR_GENERIC(c, i, ea, 1);                                      \
			mem_write_nocheck(ea, 1, r);                                             \
		}                                                                        \
		flags_record(c, KIND, 1, r, a, b);                                             \
		return exec_next(c, i); \
	}

#define FAST_ALU8_NF(NAME, EXPR, WRITES)                                                 \
	static const struct insn *fast_##NAME##_rr8_nf(struct cpu *c, const struct insn *i) \
	{                                                                                \
		uint8_t a = (uint8_t)reg_get(c, insn_rm8_v(i), 1), b = (uint8_t)reg_get(c, insn_reg8_v(i), 1); \
		if (WRITES)                                                              \
			reg_set(c, insn_rm8_v(i), 1, (uint8_t)(EXPR));                          \
		return exec_next(c, i);                                                  \
	}                                                                                \
	static const struct insn *fast_##NAME##_gr8_nf(struct cpu *c, const struct insn *i) \
	{                                                                                \
		uint8_t a = (uint8_t)reg_get(c, insn_reg8_v(i), 1), b = (uint8_t)reg_get(c, insn_rm8_v(i), 1); \
		if (WRITES)                                                              \
			reg_set(c, insn_reg8_v(i), 1, (uint8_t)(EXPR));                         \
		return exec_next(c, i);                                                  \
	}                                                                                \
	static const struct insn *fast_##NAME##_ri8_nf(struct cpu *c, const struct insn *i) \
	{                                                                                \
		uint8_t a = (uint8_t)reg_get(c, insn_rm8_v(i), 1), b = (uint8_t)insn_imm_v(i);          \
		if (WRITES)                                                              \
			reg_set(c, insn_rm8_v(i), 1, (uint8_t)(EXPR));                          \
		return exec_next(c, i);                                                  \
	}

#define FAST_ALU8_BOTH(NAME, KIND, EXPR, WRITES)               \
	FAST_ALU8(NAME, KIND, EXPR, WRITES)                     \
	EA_SHAPES(FAST_ALU8_MEM, NAME, KIND, EXPR, WRITES)      \
	FAST_ALU8_NF(NAME, EXPR, WRITES)

ALU_FAST_OPS(FAST_ALU8_BOTH)


/* ADC and SBB in register and immediate forms: CF read first, kept in
 * lf.aux as alu_flags keeps it (memory forms stay generic). Byte
 * registers through reg_get/reg_set (AH..BH). */
#define FAST_CARRY_FORM(NAME, KIND, EXPR, FORM, BITS, T, SZ, GET_A, GET_B, PUT)        \
	static const struct insn *fast_##NAME##_##FORM##BITS(struct cpu *c, const struct insn *i) \
	{                                                                              \
		bool cin = flags_cf(c);                                                \
		T a = (T)(GET_A), b = (T)(GET_B), r = (T)(EXPR);                       \
		PUT;                                                                   \
		flags_record(c, KIND, SZ, r, a, b);                                    \
		c->lf.aux = cin;                                                       \
		return exec_next(c, i);                                                \
	}
#define FAST_CARRY_SZ(NAME, KIND, EXPR, BITS, T, SZ)                                             \
	FAST_CARRY_FORM(NAME, KIND, EXPR, rr, BITS, T, SZ, c->r[i->rm], c->r[i->reg],            \
			REG_PUT##BITS(c->r[i->rm], r))                                           \
	FAST_CARRY_FORM(NAME, KIND, EXPR, gr, BITS, T, SZ, c->r[i->reg], c->r[i->rm],            \
			REG_PUT##BITS(c->r[i->reg], r))                                          \
	FAST_CARRY_FORM(NAME, KIND, EXPR, ri, BITS, T, SZ, c->r[i->rm], insn_imm_v(i),                  \
			REG_PUT##BITS(c->r[i->rm], r))
#define FAST_CARRY(NAME, KIND, EXPR)                                                             \
	FAST_CARRY_FORM(NAME, KIND, EXPR, rr, 8, uint8_t, 1, reg_get(c, insn_rm8_v(i), 1),              \
			reg_get(c, insn_reg8_v(i), 1), reg_set(c, insn_rm8_v(i), 1, r))                        \
	FAST_CARRY_FORM(NAME, KIND, EXPR, gr, 8, uint8_t, 1, reg_get(c, insn_reg8_v(i), 1),             \
			reg_get(c, insn_rm8_v(i), 1), reg_set(c, insn_reg8_v(i), 1, r))                        \
	FAST_CARRY_FORM(NAME, KIND, EXPR, ri, 8, uint8_t, 1, reg_get(c, insn_rm8_v(i), 1), insn_imm_v(i),    \
			reg_set(c, insn_rm8_v(i), 1, r))                                                \
	FAST_CARRY_SZ(NAME, KIND, EXPR, 16, uint16_t, 2)                                         \
	FAST_CARRY_SZ(NAME, KIND, EXPR, 32, uint32_t, 4)                                         \
	FAST_CARRY_SZ(NAME, KIND, EXPR, 64, uint64_t, 8)

FAST_CARRY(adc, FL_ADC, a + b + cin)
FAST_CARRY(sbb, FL_SBB, a - b - cin)


#define FAST_ROW8(NAME)                                                                   \
	{ fast_##NAME##_rr8, fast_##NAME##_gr8, fast_##NAME##_ri8, fast_##NAME##_rm8,      \
	  fast_##NAME##_mr8, fast_##NAME##_mi8 }

/* ADC/SBB: register and immediate forms only. */
#define CARRY_ROW8(NAME) { fast_##NAME##_rr8, fast_##NAME##_gr8, fast_##NAME##_ri8 }

static const insn_exec fast_alu8[ALU_ROWS][FORM_COUNT] = {
	[ALU_ADD] = FAST_ROW8(add), [ALU_OR] = FAST_ROW8(or),   [ALU_AND] = FAST_ROW8(and),
	[ALU_SUB] = FAST_ROW8(sub), [ALU_XOR] = FAST_ROW8(xor), [ALU_CMP] = FAST_ROW8(cmp),
	[ALU_TEST] = FAST_ROW8(test), [ALU_ADC] = CARRY_ROW8(adc), [ALU_SBB] = CARRY_ROW8(sbb),
};

#define FAST_ROW(NAME)                                                                     \
	{ { fast_##NAME##_rr32, fast_##NAME##_rr64, fast_##NAME##_rr16 },                  \
	  { fast_##NAME##_gr32, fast_##NAME##_gr64, fast_##NAME##_gr16 },                  \
	  { fast_##NAME##_ri32, fast_##NAME##_ri64, fast_##NAME##_ri16 },                  \
	  { fast_##NAME##_rm32, fast_##NAME##_rm64, fast_##NAME##_rm16 },                  \
	  { fast_##NAME##_mr32, fast_##NAME##_mr64, fast_##NAME##_mr16 },                  \
	  { fast_##NAME##_mi32, fast_##NAME##_mi64, fast_##NAME##_mi16 } }

#define CARRY_ROW(NAME)                                                                    \
	{ { fast_##NAME##_rr32, fast_##NAME##_rr64, fast_##NAME##_rr16 },                  \
	  { fast_##NAME##_gr32, fast_##NAME##_gr64, fast_##NAME##_gr16 },                  \
	  { fast_##NAME##_ri32, fast_##NAME##_ri64, fast_##NAME##_ri16 } }

/* Indexed by ALU_* (ADC and SBB: register and immediate forms only). */
static const insn_exec fast_alu[ALU_ROWS][FORM_COUNT][FAST_WIDTHS] = {
	[ALU_ADD] = FAST_ROW(add), [ALU_OR] = FAST_ROW(or),   [ALU_AND] = FAST_ROW(and),
	[ALU_SUB] = FAST_ROW(sub), [ALU_XOR] = FAST_ROW(xor), [ALU_CMP] = FAST_ROW(cmp),
	[ALU_TEST] = FAST_ROW(test), [ALU_ADC] = CARRY_ROW(adc), [ALU_SBB] = CARRY_ROW(sbb),
};

/* The memory forms (FORM_RM, FORM_MR, FORM_MI) in the other address
 * shapes (insn.h, EA_SHAPES), [shape - EA_BD]. */
#define SH_ROW8(NAME, SH) { fast_##NAME##_rm8##SH, fast_##NAME##_mr8##SH, fast_##NAME##_mi8##SH }
#define SH_ROW(NAME, SH)                                                                  \
	{ { fast_##NAME##_rm32##SH, fast_##NAME##_rm64##SH, fast_##NAME##_rm16##SH },     \
	  { fast_##NAME##_mr32##SH, fast_##NAME##_mr64##SH, fast_##NAME##_mr16##SH },     \
	  { fast_##NAME##_mi32##SH, fast_##NAME##_mi64##SH, fast_##NAME##_mi16##SH } }
#define SH_TABLE(ROW, SH)                                                                 \
	{ [ALU_ADD] = ROW(add, SH), [ALU_OR] = ROW(or, SH),   [ALU_AND] = ROW(and, SH),   \
	  [ALU_SUB] = ROW(sub, SH), [ALU_XOR] = ROW(xor, SH), [ALU_CMP] = ROW(cmp, SH),   \
	  [ALU_TEST] = ROW(test, SH) }

static const insn_exec fast_alu8_shaped[EA_SHAPE_COUNT - EA_BD][ALU_ROWS][3] = {
	SH_TABLE(SH_ROW8, _bd), SH_TABLE(SH_ROW8, _f32), SH_TABLE(SH_ROW8, _f64),
};

static const insn_exec fast_alu_shaped[EA_SHAPE_COUNT - EA_BD][ALU_ROWS][3][FAST_WIDTHS] = {
	SH_TABLE(SH_ROW, _bd), SH_TABLE(SH_ROW, _f32), SH_TABLE(SH_ROW, _f64),
};

/* The flag-free twins of the register forms (FORM_RR, FORM_GR, FORM_RI). */
#define NF_ROW8(NAME) { fast_##NAME##_rr8_nf, fast_##NAME##_gr8_nf, fast_##NAME##_ri8_nf }
#define NF_ROW(NAME)                                                                      \
	{ { fast_##NAME##_rr32_nf, fast_##NAME##_rr64_nf, fast_##NAME##_rr16_nf },        \
	  { fast_##NAME##_gr32_nf, fast_##NAME##_gr64_nf, fast_##NAME##_gr16_nf },        \
	  { fast_##NAME##_ri32_nf, fast_##NAME##_ri64_nf, fast_##NAME##_ri16_nf } }

static const insn_exec fast_alu8_nf[ALU_ROWS][3] = {
	[ALU_ADD] = NF_ROW8(add), [ALU_OR] = NF_ROW8(or),   [ALU_AND] = NF_ROW8(and),
	[ALU_SUB] = NF_ROW8(sub), [ALU_XOR] = NF_ROW8(xor), [ALU_CMP] = NF_ROW8(cmp),
	[ALU_TEST] = NF_ROW8(test),
};

static const insn_exec fast_alu_nf[ALU_ROWS][3][FAST_WIDTHS] = {
	[ALU_ADD] = NF_ROW(add), [ALU_OR] = NF_ROW(or),   [ALU_AND] = NF_ROW(and),
	[ALU_SUB] = NF_ROW(sub), [ALU_XOR] = NF_ROW(xor), [ALU_CMP] = NF_ROW(cmp),
	[ALU_TEST] = NF_ROW(test),
};

/* NOT of a 32/64-bit register: no flags, no fault (lflive: neutral). */
UNIT_NOT(32)
UNIT_NOT(64)

/* NEG of a register: flags as SUB 0 - a (unary_flags). */
#define FAST_NEG(BITS, T, SZ)                                                        \
	static const struct insn *fast_neg##BITS(struct cpu *c, const struct insn *i) \
	{                                                                            \
		T a = (T)c->r[i->rm], r = (T)(0 - a);                                \
		REG_PUT##BITS(c->r[i->rm], r);                                       \
		flags_record(c, FL_SUB, SZ, r, 0, a);                                \
		return exec_next(c, i);                                              \
	}
FAST_NEG(16, uint16_t, 2)
FAST_NEG(32, uint32_t, 4)
FAST_NEG(64, uint64_t, 8)

static const insn_exec fast_neg[FAST_WIDTHS] = {
	[FAST_W32] = fast_neg32, [FAST_W64] = fast_neg64, [FAST_W16] = fast_neg16,
};

/* IMUL r, r/m and IMUL r, r/m, imm with a register source: the product
 * in the next wider type (64 bits: the builtin, which wraps as the
 * hardware does); CF = OF = the product does not fit. */
#define FAST_IMUL(BITS, T, ST, WT, SZ)                                                     \
	static bool imul_fits##BITS(ST a, ST b, T *lo)                                      \
	{                                                                                   \
		WT p;                                                                       \
		bool ovf = __builtin_mul_overflow((WT)a, (WT)b, &p);                        \
		*lo = (T)p;                                                                 \
		return !ovf && p == (WT)(ST)*lo;                                            \
	}                                                                                   \
	static const struct insn *fast_imul_gr##BITS(struct cpu *c, const struct insn *i)  \
	{                                                                                   \
		T lo;                                                                       \
		bool ovf = !imul_fits##BITS((ST)c->r[i->reg], (ST)c->r[i->rm], &lo);        \
		REG_PUT##BITS(c->r[i->reg], lo);                                            \
		flags_set_resco(c, SZ, lo, ovf, ovf);                                       \
		return exec_next(c, i);                                                     \
	}                                                                                   \
	static const struct insn *fast_imul_gri##BITS(struct cpu *c, const struct insn *i) \
	{                                                                                   \
		T lo;                                                                       \
		bool ovf = !imul_fits##BITS((ST)c->r[i->rm], (ST)insn_imm_v(i), &lo);              \
		REG_PUT##BITS(c->r[i->reg], lo);                                            \
		flags_set_resco(c, SZ, lo, ovf, ovf);                                       \
		return exec_next(c, i);                                                     \
	}
FAST_IMUL(16, uint16_t, int16_t, int32_t, 2)
FAST_IMUL(32, uint32_t, int32_t, int64_t, 4)
FAST_IMUL(64, uint64_t, int64_t, int64_t, 8)

static const insn_exec fast_imul[2][FAST_WIDTHS] = {
	{ fast_imul_gr32, fast_imul_gr64, fast_imul_gr16 },
	{ fast_imul_gri32, fast_imul_gri64, fast_imul_gri16 },
};

/* MUL of rAX by a 16/32/64-bit register (F7 /4): the host's widening
 * multiply in the next wider type (64 bits: unsigned __int128, one MUL);
 * the low half to rAX, the high half to rDX, CF = OF = the high half is
 * not 0 and the rest from the low half, as op_mul_Ev records them. */
#define FAST_MUL(BITS, T, WT, SZ)                                                        \
	static const struct insn *fast_mul##BITS(struct cpu *c, const struct insn *i) \
	{                                                                             \
		WT p = (WT)(T)c->r[R_AX] * (WT)(T)c->r[i->rm];                        \
		T lo = (T)p, hi = (T)(p >> BITS);                                     \
		REG_PUT##BITS(c->r[R_AX], lo);                                        \
		REG_PUT##BITS(c->r[R_DX], hi);                                        \
		flags_set_resco(c, SZ, lo, hi != 0, hi != 0);                         \
		return exec_next(c, i);                                               \
	}
FAST_MUL(16, uint16_t, uint32_t, 2)
FAST_MUL(32, uint32_t, uint64_t, 4)
FAST_MUL(64, uint64_t, unsigned __int128, 8)

static const insn_exec fast_mul[FAST_WIDTHS] = {
	[FAST_W32] = fast_mul32, [FAST_W64] = fast_mul64, [FAST_W16] = fast_mul16,
};

/* DIV and IDIV of rDX:rAX by a 32/64-bit register when the quotient fits
 * the common way (64-bit IDIV: rDX the sign of rAX); everything else,
 * #DE included, through the table handler before anything changed. */
static const struct insn *fast_div32(struct cpu *c, const struct insn *i)
{
	uint32_t d = (uint32_t)c->r[i->rm];
	uint64_t n = (uint64_t)(uint32_t)c->r[R_DX] << 32 | (uint32_t)c->r[R_AX];

	if (d == 0 || (n >> 32) >= d)
		return exec_generic(c, i);
	c->r[R_AX] = (uint32_t)(n / d);
	c->r[R_DX] = (uint32_t)(n % d);
	return exec_next(c, i);
}

static const struct insn *fast_div64(struct cpu *c, const struct insn *i)
{
	uint64_t d = c->r[i->rm], hi = c->r[R_DX], lo = c->r[R_AX];

	if (d == 0 || hi >= d)
		return exec_generic(c, i);
	/* the host's DIV: with hi < d the quotient fits (no #DE); C's
	 * 128-bit division was a call into libgcc, and its frame cost the
	 * hi == 0 path too */
	__asm__("divq %4" : "=a"(lo), "=d"(hi) : "0"(lo), "1"(hi), "rm"(d));
	c->r[R_AX] = lo;
	c->r[R_DX] = hi;
	return exec_next(c, i);
}

static const struct insn *fast_idiv32(struct cpu *c, const struct insn *i)
{
	int32_t d = (int32_t)c->r[i->rm];
	int64_t n = (int64_t)((uint64_t)(uint32_t)c->r[R_DX] << 32 | (uint32_t)c->r[R_AX]), q;

	if (d == 0 || d == -1)
		return exec_generic(c, i);
	q = n / d;
	if (q != (int32_t)q)
		return exec_generic(c, i);
	c->r[R_AX] = (uint32_t)q;
	c->r[R_DX] = (uint32_t)(n % d);
	return exec_next(c, i);
}

static const struct insn *fast_idiv64(struct cpu *c, const struct insn *i)
{
	int64_t d = (int64_t)c->r[i->rm], n = (int64_t)c->r[R_AX];

	if (d == 0 || d == -1 || c->r[R_DX] != (uint64_t)(n >> 63))
		return exec_generic(c, i);
	c->r[R_AX] = (uint64_t)(n / d);
	c->r[R_DX] = (uint64_t)(n % d);
	return exec_next(c, i);
}

static insn_exec incdec_flag_free(const struct insn *i);

/* The flag-free twins of reg op= memory (FORM_RM), [EA_*][ALU_*][FAST_W*]:
 * lflive.c may give one to a writer whose flags the next writer overwrites
 * (a fault in the load changes nothing; one after it rebuilds the flags
 * from the register and the value loaded, kept in lf.b); CMP and TEST keep
 * the load, for its fault. */
#define RM_NF_W(NAME, SH) { fast_##NAME##_rm32##SH##_nf, fast_##NAME##_rm64##SH##_nf, fast_##NAME##_rm16##SH##_nf }
#define RM_NF_SHAPE(SH)                                                                    \
	{ [ALU_ADD] = RM_NF_W(add, SH), [ALU_OR] = RM_NF_W(or, SH), [ALU_AND] = RM_NF_W(and, SH), \
	  [ALU_SUB] = RM_NF_W(sub, SH), [ALU_XOR] = RM_NF_W(xor, SH), [ALU_CMP] = RM_NF_W(cmp, SH), \
	  [ALU_TEST] = RM_NF_W(test, SH) }
static const insn_exec fast_alu_rm_nf[EA_SHAPE_COUNT][ALU_ROWS][FAST_WIDTHS] = {
	RM_NF_SHAPE(), RM_NF_SHAPE(_bd), RM_NF_SHAPE(_f32), RM_NF_SHAPE(_f64),
};

#define RM_FX_ROWS(SH)                                                                          \
	{ [ALU_ADD] = { fast_add_rm32##SH, fast_add_rm32##SH##_nf },                            \
	  [ALU_OR] = { fast_or_rm32##SH, fast_or_rm32##SH##_nf },                               \
	  [ALU_AND] = { fast_and_rm32##SH, fast_and_rm32##SH##_nf },                            \
	  [ALU_SUB] = { fast_sub_rm32##SH, fast_sub_rm32##SH##_nf },                            \
	  [ALU_XOR] = { fast_xor_rm32##SH, fast_xor_rm32##SH##_nf } }
/* the indexed forms above, [flat 64][op][nf] */
static const insn_exec fast_alu_rm_fx[2][ALU_ROWS][2] = { RM_FX_ROWS(_fx32), RM_FX_ROWS(_fx64) };

/* i's fast form of reg op= memory of 32 bits in an indexed flat shape
 * (nf: its flag-free twin), or NULL: flat-32 in 32-bit mode, flat-64 in
 * 64-bit mode; ADD OR AND SUB XOR (a NULL row: CMP and TEST). */
static insn_exec alu_rm_indexed(const struct insn *i, unsigned op, unsigned form, bool nf)
{
	if (form != FORM_RM || insn_cold(i)->osz != 4)
		return NULL;
	if (ea_flat32_ix(i))
		return fast_alu_rm_fx[0][op][nf];
	if (ea_flat64_ix(i))
		return fast_alu_rm_fx[1][op][nf];
	return NULL;
}

/* Whether i runs as SUB r32, imm with its flags (move.c: a SUB of ESP
 * before a push run joins it). */
bool alu_sub_ri32_flagged(const struct insn *i)
{
	return i->exec == fast_sub_ri32;
}

bool alu_add_ri32_flag_free(const struct insn *i)
{
	return i->exec == fast_add_ri32_nf;
}

/* lflive.c: the flag-free twin of a register ALU/TEST form that has one
 * (alu_specialise marked it LF_WRITES | LF_TWIN_ALU), or of INC/DEC. */
insn_exec alu_flag_free(const struct insn *i)
{
	const struct insn_cold *ic = insn_cold(i);
	unsigned op, form;
	insn_exec indexed;

	if (insn_fn_is_inc(ic->fn) || insn_fn_is_dec(ic->fn))
		return incdec_flag_free(i);
	if (!alu_fast_form(i, &op, &form))
		return NULL;
	if ((indexed = alu_rm_indexed(i, op, form, true)))
		return indexed;
	if (form == FORM_RM)
		return ic->osz == 1 ? NULL : fast_alu_rm_nf[ea_shape(i)][op][fast_width(ic->osz)];
	if (form > FORM_RI)
		return NULL;
	return ic->osz == 1 ? fast_alu8_nf[op][form] : fast_alu_nf[op][form][fast_width(ic->osz)];
}

/* INC/DEC of a 32/64-bit register (units.h). */
UNIT_INCDEC(inc, FL_INC, 1, 32, uint32_t, 4)
UNIT_INCDEC(inc, FL_INC, 1, 64, uint64_t, 8)
UNIT_INCDEC(dec, FL_DEC, -1, 32, uint32_t, 4)
UNIT_INCDEC(dec, FL_DEC, -1, 64, uint64_t, 8)
#define FAST_INCDEC_MEM(_, SH, EA)                                  \
	UNIT_INCDEC_MEM(inc, FL_INC, 1, 32, uint32_t, 4, SH, EA)    \
	UNIT_INCDEC_MEM(inc, FL_INC, 1, 64, uint64_t, 8, SH, EA)    \
	UNIT_INCDEC_MEM(dec, FL_DEC, -1, 32, uint32_t, 4, SH, EA)   \
	UNIT_INCDEC_MEM(dec, FL_DEC, -1, 64, uint64_t, 8, SH, EA)
EA_SHAPES(FAST_INCDEC_MEM, incdec)
UNIT_INCDEC_NF(inc, 1, 32)
UNIT_INCDEC_NF(inc, 1, 64)
UNIT_INCDEC_NF(dec, -1, 32)
UNIT_INCDEC_NF(dec, -1, 64)
UNIT_INCDEC_DEFER(inc, 1, 32)
UNIT_INCDEC_DEFER(inc, 1, 64)
UNIT_INCDEC_DEFER(dec, -1, 32)
UNIT_INCDEC_DEFER(dec, -1, 64)

/* lflive.c: the flag-free twin of INC/DEC of a register (alu_specialise
 * marked it LF_KEEPCF | LF_TWIN_ALU), or NULL. */
static insn_exec incdec_flag_free(const struct insn *i)
{
	const struct insn_cold *ic = insn_cold(i);
	bool w = ic->osz == 8;

	if (ic->mod != 3 || ic->osz < 4)
		return NULL;
	if (insn_fn_is_inc(ic->fn))
		return w ? fast_inc64_nf : fast_inc32_nf;
	if (insn_fn_is_dec(ic->fn))
		return w ? fast_dec64_nf : fast_dec32_nf;
	return NULL;
}

/* lflive.c: INC/DEC of a register leaving its flags deferred, or NULL. */
insn_exec alu_incdec_deferred(const struct insn *i)
{
	const struct insn_cold *ic = insn_cold(i);
	bool w = ic->osz == 8;

	if (!incdec_flag_free(i))
		return NULL;
	if (insn_fn_is_inc(ic->fn))
		return w ? fast_inc64_defer : fast_inc32_defer;
	return w ? fast_dec64_defer : fast_dec32_defer;
}

/* The fast-form row (ALU_*, or ALU_TEST) and operand form of an ALU or
 * TEST instruction (decode time; fused.c asks too). */
bool alu_fast_form(const struct insn *i, unsigned *op, unsigned *form)
{
	const struct insn_cold *ic = insn_cold(i);
	if (ic->fn == op_alu_EvGv) {
		*op = (ic->op >> 3) & 7;
		*form = ic->mod == 3 ? FORM_RR : FORM_MR;
	} else if (ic->fn == op_alu_GvEv) {
		*op = (ic->op >> 3) & 7;
		*form = ic->mod == 3 ? FORM_GR : FORM_RM;
	} else if (ic->fn == op_alu_rAXIz) {
		*op = (ic->op >> 3) & 7;
		*form = FORM_RI;
	} else if (ic->fn == op_alu_EvIz) {
		*op = i->reg & 7;
		*form = ic->mod == 3 ? FORM_RI : FORM_MI;
	} else if (ic->fn == op_test_EvGv) {
		*op = ALU_TEST;
		*form = ic->mod == 3 ? FORM_RR : FORM_MR;
	} else if (ic->fn == op_test_EvIz) {
		*op = ALU_TEST;
		*form = ic->mod == 3 ? FORM_RI : FORM_MI;
	} else if (ic->fn == op_test_rAXIz) {
		*op = ALU_TEST;
		*form = FORM_RI;
	} else {
		return false;
	}
	return true;
}

insn_exec alu_shaped_form(unsigned op, unsigned form, unsigned shape, unsigned osz)
{
	return fast_alu_shaped[shape - EA_BD][op][form - FORM_RM][fast_width(osz)];
}

/* Replace i->fn by a fast form when the instruction has one (decode time). */
void alu_specialise(struct insn *i)
{
	struct insn_cold *ic = insn_cold(i);
	unsigned op, form, w;
	insn_exec indexed;

	if ((ic->osz != 1 && ic->osz != 2 && ic->osz != 4 && ic->osz != 8) || (ic->pfx & PFX_LOCK))
		return;
	w = ic->osz == 8;
	if (ic->fn == op_not_Ev) {
		if (ic->mod == 3 && ic->osz >= 4) {
			i->exec = w ? fast_not64 : fast_not32;
			ic->lf = LF_NEUTRAL_NOFAULT;
		}
		return;
	}
	if (ic->fn == op_imul_GvEv || ic->fn == op_imul_GvEvIz) {
		if (ic->mod == 3 && ic->osz >= 2)
			i->exec = fast_imul[ic->fn == op_imul_GvEvIz][fast_width(ic->osz)];
		return;
	}
	if (ic->fn == op_mul_Ev) { /* bytes (F6 /4) write AX: generic */
		if (ic->mod == 3 && ic->osz >= 2)
			i->exec = fast_mul[fast_width(ic->osz)];
		return;
	}
	if (ic->fn == op_div_Ev || ic->fn == op_idiv_Ev) {
		if (ic->mod == 3 && ic->osz >= 4)
			i->exec = ic->fn == op_div_Ev ? (w ? fast_div64 : fast_div32)
						     : (w ? fast_idiv64 : fast_idiv32);
		return;
	}
	if (ic->fn == op_neg_Ev) {
		if (ic->mod == 3 && ic->osz >= 2) {
			i->exec = fast_neg[fast_width(ic->osz)];
			ic->lf = LF_WRITES; /* no flag-free twin */
		}
		return;
	}
	if (insn_fn_is_inc(ic->fn) || insn_fn_is_dec(ic->fn)) {
		bool inc = insn_fn_is_inc(ic->fn);

		if (ic->osz < 4)
			return;
		if (ic->mod != 3) { /* no twin: lflive's walk stops at memory */
			i->exec = inc ? (w ? EA_PICK(i, fast_inc_m64) : EA_PICK(i, fast_inc_m32))
				      : (w ? EA_PICK(i, fast_dec_m64) : EA_PICK(i, fast_dec_m32));
			ic->lf = LF_KEEPCF;
			return;
		}
		i->exec = inc ? (w ? fast_inc64 : fast_inc32) : (w ? fast_dec64 : fast_dec32);
		ic->lf = LF_KEEPCF | LF_TWIN_ALU;
		return;
	}
	if (!alu_fast_form(i, &op, &form))
		return;
	if (ic->osz == 1) {
		if (!fast_alu8[op][form])
			return;
		if (ic->fn == op_alu_rAXIz || ic->fn == op_test_rAXIz) {
			insn_rm8(i) = R_AX; /* AL */
			insn_set_v(i);
		}
		i->exec = form >= FORM_RM && ea_shape(i) != EA_ANY
				  ? fast_alu8_shaped[ea_shape(i) - EA_BD][op][form - FORM_RM]
				  : fast_alu8[op][form];
		if (form <= FORM_RI && fast_alu8_nf[op][form])
			ic->lf = LF_WRITES | LF_TWIN_ALU;
		return;
	}
	w = fast_width(ic->osz);
	if (!fast_alu[op][form][w])
		return;
	if (ic->fn == op_alu_rAXIz || ic->fn == op_test_rAXIz)
		i->rm = R_AX; /* no ModRM: the fast form's destination */
	i->exec = form >= FORM_RM && ea_shape(i) != EA_ANY
			  ? fast_alu_shaped[ea_shape(i) - EA_BD][op][form - FORM_RM][w]
			  : fast_alu[op][form][w];
	if ((indexed = alu_rm_indexed(i, op, form, false)))
		i->exec = indexed;
	if ((form <= FORM_RI && fast_alu_nf[op][form][w]) ||
	    (form == FORM_RM && fast_alu_rm_nf[ea_shape(i)][op][w]))
		ic->lf = LF_WRITES | LF_TWIN_ALU;
}
