/* Data movement: MOV forms, MOVZX/MOVSX/MOVSXD, LEA, XCHG, PUSH/POP of
 * GPRs and immediates, PUSHA/POPA, PUSHF/POPF, LAHF/SAHF, XLAT, CBW/CWD
 * families. */
#include "cpu/units.h"

void op_mov_EvGv(struct cpu *c, const struct insn *i)
{
	rm_write(c, i, insn_cold(i)->osz, greg_get(c, i, insn_cold(i)->osz));
}

void op_mov_GvEv(struct cpu *c, const struct insn *i)
{
	greg_set(c, i, insn_cold(i)->osz, rm_read(c, i, insn_cold(i)->osz));
}

void op_mov_EvIz(struct cpu *c, const struct insn *i)
{
	rm_write(c, i, insn_cold(i)->osz, insn_imm(i));
}

void op_mov_rIv(struct cpu *c, const struct insn *i)
{
	reg_set(c, insn_cold(i)->osz == 1 ? insn_rm8(i) : i->rm, insn_cold(i)->osz, insn_imm(i));
}

void op_mov_rAXOv(struct cpu *c, const struct insn *i)
{
	reg_set(c, R_AX, insn_cold(i)->osz, mem_read(insn_ea(c, i), insn_cold(i)->osz));
}

void op_mov_OvrAX(struct cpu *c, const struct insn *i)
{
	mem_write(insn_ea(c, i), insn_cold(i)->osz, reg_get(c, R_AX, insn_cold(i)->osz));
}

void op_movzx_GvEb(struct cpu *c, const struct insn *i)
{
	greg_set(c, i, insn_cold(i)->osz, rm_read(c, i, 1));
}

void op_movzx_GvEw(struct cpu *c, const struct insn *i)
{
	greg_set(c, i, insn_cold(i)->osz, rm_read(c, i, 2));
}

void op_movsx_GvEb(struct cpu *c, const struct insn *i)
{
	greg_set(c, i, insn_cold(i)->osz, sign_extend(rm_read(c, i, 1), 1));
}

void op_movsx_GvEw(struct cpu *c, const struct insn *i)
{
	greg_set(c, i, insn_cold(i)->osz, sign_extend(rm_read(c, i, 2), 2));
}

void op_movsxd_GvEd(struct cpu *c, const struct insn *i)
{
	if (c->mode != CPU_MODE_64) {
		op_arpl_EwGw(c, i);
		return;
	}
	unsigned sz = insn_cold(i)->osz == 8 ? 4 : insn_cold(i)->osz;

	greg_set(c, i, insn_cold(i)->osz, sign_extend(rm_read(c, i, sz), sz));
}

void op_lea_GvM(struct cpu *c, const struct insn *i)
{
	greg_set(c, i, insn_cold(i)->osz, insn_offset(c, i));
}

static uint64_t mem_xchg(uint64_t addr, unsigned sz, uint64_t v)
{
	void *p = g2h(addr);
	uint64_t old;

	ac_check(addr, sz);
	store_guard(addr, sz);
	switch (sz) {
	case 1: old = __atomic_exchange_n((uint8_t *)p, (uint8_t)v, __ATOMIC_SEQ_CST); break;
	case 2: old = __atomic_exchange_n((uint16_t *)p, (uint16_t)v, __ATOMIC_SEQ_CST); break;
	case 4: old = __atomic_exchange_n((uint32_t *)p, (uint32_t)v, __ATOMIC_SEQ_CST); break;
	default: old = __atomic_exchange_n((uint64_t *)p, v, __ATOMIC_SEQ_CST); break;
	}
	code_write_check(addr, sz);
	return old;
}

/* XCHG with memory is locked whether or not LOCK is given. */
void op_xchg_EvGv(struct cpu *c, const struct insn *i)
{
	unsigned sz = insn_cold(i)->osz;
	uint64_t g = greg_get(c, i, sz), old;

	if (insn_cold(i)->mod == 3) {
		old = rm_read(c, i, sz);
		rm_write(c, i, sz, g);
	} else {
		old = mem_xchg(insn_ea(c, i), sz, g);
	}
	greg_set(c, i, sz, old);
}

/* 90+r; plain 90 (no REX.B) is NOP, also in 64-bit mode. */
void op_xchg_rAXr(struct cpu *c, const struct insn *i)
{
	const struct insn_cold *ic = insn_cold(i);
	uint64_t a, b;

	/* 90 is NOP; F3 90 is PAUSE even with REX.B (the host ignores it) */
	if (i->rm == R_AX || (ic->op == 0x90 && (ic->pfx & PFX_REP)))
		return;
	a = reg_get(c, R_AX, ic->osz);
	b = reg_get(c, i->rm, ic->osz);
	reg_set(c, R_AX, ic->osz, b);
	reg_set(c, i->rm, ic->osz, a);
}

void op_push_r(struct cpu *c, const struct insn *i)
{
	push(c, insn_cold(i)->osz, reg_get(c, i->rm, insn_cold(i)->osz));
}

void op_pop_r(struct cpu *c, const struct insn *i)
{
	uint64_t v = pop(c, insn_cold(i)->osz);

	reg_set(c, i->rm, insn_cold(i)->osz, v);
}

void op_push_Iz(struct cpu *c, const struct insn *i)
{
	push(c, insn_cold(i)->osz, insn_imm(i));
}

void op_push_Ev(struct cpu *c, const struct insn *i)
{
	push(c, insn_cold(i)->osz, rm_read(c, i, insn_cold(i)->osz));
}

/* The destination address is computed with the incremented stack pointer. */
void op_pop_Ev(struct cpu *c, const struct insn *i)
{
	const struct insn_cold *ic = insn_cold(i);
	uint64_t sp = c->r[R_SP], v = pop(c, ic->osz);

	if (ic->mod != 3) {
		uint64_t ea = insn_ea(c, i);
		uint64_t new_sp = c->r[R_SP];

		c->r[R_SP] = sp; /* a fault leaves the stack as it was */
		mem_write(ea, ic->osz, v);
		c->r[R_SP] = new_sp;
	} else {
		rm_write(c, i, ic->osz, v);
	}
}

void op_pusha(struct cpu *c, const struct insn *i)
{
	uint64_t sp = c->r[R_SP];

	for (unsigned r = R_AX; r <= R_DI; r++)
		push(c, insn_cold(i)->osz, r == R_SP ? sp : c->r[r]);
}

void op_popa(struct cpu *c, const struct insn *i)
{
	for (int r = R_DI; r >= R_AX; r--) {
		uint64_t v = pop(c, insn_cold(i)->osz);

		if (r != R_SP)
			reg_set(c, (unsigned)r, insn_cold(i)->osz, v);
	}
}

/* Flags a ring-3 POPF may change: CF PF AF ZF SF TF DF OF NT AC ID (not IF,
 * IOPL, VM, RF). */
#define POPF_MASK 0x254dd5ull

void op_pushf(struct cpu *c, const struct insn *i)
{
	push(c, insn_cold(i)->osz, (flags_get(c) | 2) & ~0x30000ull); /* image has RF, VM clear */
}

/* The RFLAGS bits POPF and IRET may change at CPL 3 (not IF, IOPL, VM). */
void flags_load_user(struct cpu *c, uint64_t v, unsigned osz)
{
	uint64_t mask = osz == 2 ? POPF_MASK & 0xffff : POPF_MASK;
	uint64_t rf = flags_get(c);

	c->lf.rf = (rf & ~mask) | (v & mask) | 2;
	c->lf.op = FL_NONE;
	cpu_tl_ac = (c->lf.rf & FL_AC) != 0; /* checked from the next access */
	/* the decoded code has fast forms only while AC is clear: the run
	 * loop drops it before the next instruction (cache_sync) */
	if ((c->lf.rf ^ rf) & FL_AC)
		c->code_dirty = 1;
	/* TF set: the run ends here, so the next instruction is stepped
	 * (run_loop) and traps after it */
	if (c->lf.rf & ~rf & FL_TF)
		c->stop_requested = 1;
}

void op_popf(struct cpu *c, const struct insn *i)
{
	flags_load_user(c, pop(c, insn_cold(i)->osz), insn_cold(i)->osz);
}

#define LAHF_MASK (FL_SF | FL_ZF | FL_AF | FL_PF | FL_CF)

void op_lahf(struct cpu *c, const struct insn *i)
{
	reg_set(c, 16 + 0, 1, (flags_get(c) & LAHF_MASK) | 2); /* AH */
}

void op_sahf(struct cpu *c, const struct insn *i)
{
	flags_put(c, LAHF_MASK, (c->r[R_AX] >> 8) & LAHF_MASK);
}

void op_xlat(struct cpu *c, const struct insn *i)
{
	uint64_t a = c->r[R_BX] + (c->r[R_AX] & 0xff);

	if (insn_cold(i)->asz != 8)
		a = insn_cold(i)->asz == 4 ? (uint32_t)a : (uint16_t)a;
	a += c->base[insn_seg(i)];
	if (c->mode == CPU_MODE_32)
		a = (uint32_t)a;
	reg_set(c, R_AX, 1, mem_read(a, 1));
}

/* CBW / CWDE / CDQE */
void op_cbw(struct cpu *c, const struct insn *i)
{
	unsigned half = insn_cold(i)->osz / 2;

	reg_set(c, R_AX, insn_cold(i)->osz, sign_extend(reg_get(c, R_AX, half), half));
}

/* CWD / CDQ / CQO */
void op_cwd(struct cpu *c, const struct insn *i)
{
	bool neg = (reg_get(c, R_AX, insn_cold(i)->osz) >> (insn_cold(i)->osz * 8 - 1)) & 1;

	reg_set(c, R_DX, insn_cold(i)->osz, neg ? ~0ull : 0);
}

/* MOVBE: a load or store with the bytes reversed (16/32/64 bits; the
 * fast forms (move_specialise) 32/64). */
static inline uint64_t byte_swap(uint64_t v, unsigned sz)
{
	switch (sz) {
	case 2: return __builtin_bswap16((uint16_t)v);
	case 4: return __builtin_bswap32((uint32_t)v);
	default: return __builtin_bswap64(v);
	}
}

void op_movbe_GvMv(struct cpu *c, const struct insn *i)
{
	greg_set(c, i, insn_cold(i)->osz, byte_swap(mem_read(insn_ea(c, i), insn_cold(i)->osz), insn_cold(i)->osz));
}

void op_movbe_MvGv(struct cpu *c, const struct insn *i)
{
	mem_write(insn_ea(c, i), insn_cold(i)->osz, byte_swap(greg_get(c, i, insn_cold(i)->osz), insn_cold(i)->osz));
}

/* SALC (D6, outside 64-bit mode): AL = CF ? FF : 00, flags kept. */
void op_salc(struct cpu *c, const struct insn *i)
{
	reg_set(c, R_AX, 1, flags_cf(c) ? 0xff : 0);
}

/* ---- fast forms, chosen at decode time (move_specialise) ----
 * 32- and 64-bit operands: a 32-bit write zero-extends (64-bit mode rule,
 * harmless in 32-bit mode), so both are one store to c->r. */
UNIT_MOV_RR(32)
UNIT_MOV_RR(64)
static const struct insn *fast_mov_gr32(struct cpu *c, const struct insn *i) { c->r[i->reg] = (uint32_t)c->r[i->rm]; return exec_next(c, i); }
static const struct insn *fast_mov_gr64(struct cpu *c, const struct insn *i) { c->r[i->reg] = c->r[i->rm]; return exec_next(c, i); }
static const struct insn *fast_mov_ri32(struct cpu *c, const struct insn *i) { c->r[i->rm] = (uint32_t)insn_imm_v(i); return exec_next(c, i); }
static const struct insn *fast_mov_ri64(struct cpu *c, const struct insn *i) { c->r[i->rm] = insn_imm(i); return exec_next(c, i); }

/* Loads and stores, in both address shapes (insn.h, EA_SHAPES). MOVZX
 * to a 32/64-bit register zero-extends to 64 bits either way; a 16-bit
 * load (66) keeps the register's upper bits; byte registers through
 * reg_get/reg_set (AH..BH). */
#define MEM_LOAD(NAME, SH, EA, SET)                                                 \
	static const struct insn *fast_##NAME##SH(struct cpu *c, const struct insn *i) \
	{                                                                           \
		SET;                                                                \
		return exec_next(c, i);                                             \
	}
#define MEM_STORE(NAME, SH, EA, SZ, VAL)                                            \
	static const struct insn *fast_##NAME##SH(struct cpu *c, const struct insn *i) \
	{                                                                           \
		uint64_t ea = EA(c, i);                                             \
		EXEC_STORE_OR_GENERIC(c, i, ea, SZ);                                \
		mem_write_nocheck(ea, SZ, VAL);                                     \
		return exec_next(c, i);                                             \
	}
#define MOVE_MEM_FORMS(_, SH, EA)                                                                 \
	UNIT_LOAD(load32, 4, SH, EA)                                                             \
	UNIT_LOAD(load64, 8, SH, EA)                                                             \
	UNIT_LOAD(movzx_b_load, 1, SH, EA)                                                       \
	UNIT_LOAD(movzx_w_load, 2, SH, EA)                                                       \
	MEM_LOAD(load16, SH, EA,                                                                 \
		 c->r[i->reg] = (c->r[i->reg] & ~0xffffull) | mem_read_fast(EA(c, i), 2))             \
	UNIT_LOAD8(SH, EA)                                                                       \
	MEM_LOAD(movsxd_load, SH, EA, c->r[i->reg] = (uint64_t)(int64_t)(int32_t)mem_read_fast(EA(c, i), 4)) \
	MEM_LOAD(movsx_b32_load, SH, EA, c->r[i->reg] = (uint32_t)(int32_t)(int8_t)mem_read_fast(EA(c, i), 1)) \
	MEM_LOAD(movsx_b64_load, SH, EA, c->r[i->reg] = (uint64_t)(int64_t)(int8_t)mem_read_fast(EA(c, i), 1)) \
	MEM_LOAD(movsx_w32_load, SH, EA, c->r[i->reg] = (uint32_t)(int32_t)(int16_t)mem_read_fast(EA(c, i), 2)) \
	MEM_LOAD(movsx_w64_load, SH, EA, c->r[i->reg] = (uint64_t)(int64_t)(int16_t)mem_read_fast(EA(c, i), 2)) \
	UNIT_STORE(store32, 4, SH, EA, (uint32_t)c->r[i->reg])                                   \
	UNIT_STORE(store64, 8, SH, EA, c->r[i->reg])                                             \
	MEM_STORE(storei32, SH, EA, 4, (uint32_t)insn_imm(i))                                         \
	MEM_STORE(storei64, SH, EA, 8, insn_imm(i))                                                   \
	MEM_STORE(store16, SH, EA, 2, (uint16_t)c->r[i->reg])                                    \
	MEM_STORE(storei16, SH, EA, 2, (uint16_t)insn_imm(i))                                         \
	MEM_STORE(storei8, SH, EA, 1, (uint8_t)insn_imm(i))                                           \
	MEM_STORE(mov_store8, SH, EA, 1, reg_get(c, insn_reg8(i), 1))                                 \
	MEM_LOAD(movbe_load32, SH, EA, c->r[i->reg] = byte_swap(mem_read_fast(EA(c, i), 4), 4))       \
	MEM_LOAD(movbe_load64, SH, EA, c->r[i->reg] = byte_swap(mem_read_fast(EA(c, i), 8), 8))       \
	MEM_STORE(movbe_store32, SH, EA, 4, byte_swap(c->r[i->reg], 4))                          \
	MEM_STORE(movbe_store64, SH, EA, 8, byte_swap(c->r[i->reg], 8))

EA_SHAPES(MOVE_MEM_FORMS, moves)
/* CPython's indexed loads (insn.h, insn_ea_flat64_ix), and the 32-bit
 * loads and stores of arrays (busybox sha256sum's message words, `mov
 * %eax,(%rsp,%rdx,4)`, one per 4 bytes hashed) in both flat shapes */
UNIT_LOAD(load64, 8, _fx64, insn_ea_flat64_ix)
UNIT_LOAD(load32, 4, _fx64, insn_ea_flat64_ix)
UNIT_LOAD(load32, 4, _fx32, insn_ea_flat32_ix)
UNIT_STORE(store32, 4, _fx64, insn_ea_flat64_ix, (uint32_t)c->r[i->reg])
UNIT_STORE(store32, 4, _fx32, insn_ea_flat32_ix, (uint32_t)c->r[i->reg])
UNIT_STORE(store64, 8, _fx64, insn_ea_flat64_ix, c->r[i->reg])
MEM_LOAD(movsxd_load, _fx64, insn_ea_flat64_ix,
	 c->r[i->reg] = (uint64_t)(int64_t)(int32_t)mem_read_fast(insn_ea_flat64_ix(c, i), 4))
MEM_LOAD(movsx_b64_load, _fx64, insn_ea_flat64_ix,
	 c->r[i->reg] = (uint64_t)(int64_t)(int8_t)mem_read_fast(insn_ea_flat64_ix(c, i), 1))
UNIT_LOAD(load32, 4, _sp32, insn_ea_sp32)
UNIT_STORE(store32, 4, _sp32, insn_ea_sp32, (uint32_t)c->r[i->reg])


/* The MOV form of i as fused.c's MOVE_TEST_* (a MOV a TEST of its
 * register and a Jcc may run with), or -1. */
int move_test_kind(const struct insn *i)
{
	static const insn_exec forms[MOVE_TEST_KINDS] = {
		[MOVE_TEST_LOAD64_F64] = fast_load64_f64,
		[MOVE_TEST_LOAD64_FX64] = fast_load64_fx64,
		[MOVE_TEST_STORE64_F64] = fast_store64_f64,
		[MOVE_TEST_LOAD32_F64] = fast_load32_f64,
		[MOVE_TEST_MOVSX_B64_FX64] = fast_movsx_b64_load_fx64,
	};

	for (int k = 0; k < MOVE_TEST_KINDS; k++)
		if (i->exec == forms[k])
			return k;
	return -1;
}

bool move_is_mov_rr64(const struct insn *i)
{
	return i->exec == fast_mov_rr64;
}

bool move_is_load32_sp32(const struct insn *i)
{
	return i->exec == fast_load32_sp32;
}

UNIT_MOVZX_B_RR()

static const struct insn *fast_movzx_w_rr(struct cpu *c, const struct insn *i)
{
	c->r[i->reg] = (uint16_t)c->r[i->rm];
	return exec_next(c, i);
}

UNIT_LEA(32)
UNIT_LEA(64)
UNIT_LEA64_BD()

/* PUSH/POP of a 64-bit register in 64-bit mode. */
static const struct insn *fast_push64(struct cpu *c, const struct insn *i)
{
	c->cur = i; /* before it can fault (insn_ea_fast) */
	uint64_t sp = c->r[R_SP] - 8;

	EXEC_STORE_OR_GENERIC(c, i, sp, 8);
	mem_write_nocheck(sp, 8, c->r[i->rm]);
	c->r[R_SP] = sp;
	return exec_next(c, i);
}

static const struct insn *fast_pop64(struct cpu *c, const struct insn *i)
{
	c->cur = i; /* before it can fault (insn_ea_fast) */
	uint64_t v = mem_read_fast(c->r[R_SP], 8);

	c->r[R_SP] += 8;
	c->r[i->rm] = v;
	return exec_next(c, i);
}

/* POP of a 32-bit register in 32-bit mode: ESP wraps at 4 GiB. */
static const struct insn *fast_pop32(struct cpu *c, const struct insn *i)
{
	c->cur = i; /* before it can fault (insn_ea_fast) */
	uint32_t v = (uint32_t)mem_read_fast((uint32_t)c->r[R_SP], 4);

	c->r[R_SP] = (uint32_t)(c->r[R_SP] + 4);
	c->r[i->rm] = v;
	return exec_next(c, i);
}

/* PUSH of a 32-bit register in 32-bit mode: ESP wraps at 4 GiB. */
static const struct insn *fast_push32(struct cpu *c, const struct insn *i)
{
	c->cur = i; /* before it can fault (insn_ea_fast) */
	uint32_t sp = (uint32_t)c->r[R_SP] - 4;

	EXEC_STORE_OR_GENERIC(c, i, sp, 4);
	mem_write_nocheck(sp, 4, (uint32_t)c->r[i->rm]);
	c->r[R_SP] = sp;
	return exec_next(c, i);
}

/* PUSH imm8/imm32 (sign-extended at decode) of the mode's width: i386
 * passes constant arguments so, a lazy PLT entry pushes its index. */
static const struct insn *fast_push_imm64(struct cpu *c, const struct insn *i)
{
	c->cur = i; /* before it can fault (insn_ea_fast) */
	uint64_t sp = c->r[R_SP] - 8;

	EXEC_STORE_OR_GENERIC(c, i, sp, 8);
	mem_write_nocheck(sp, 8, insn_imm_v(i));
	c->r[R_SP] = sp;
	return exec_next(c, i);
}

static const struct insn *fast_push_imm32(struct cpu *c, const struct insn *i)
{
	c->cur = i; /* before it can fault (insn_ea_fast) */
	uint32_t sp = (uint32_t)c->r[R_SP] - 4;

	EXEC_STORE_OR_GENERIC(c, i, sp, 4);
	mem_write_nocheck(sp, 4, (uint32_t)insn_imm_v(i));
	c->r[R_SP] = sp;
	return exec_next(c, i);
}

/* PUSH of memory (FF /6) of the mode's width, in the address shapes:
 * i386 code passes stack arguments so (msort's "push 0x14(%esp)" before
 * every call of qsort's comparison callback ran the table handler). The
 * address uses the stack pointer before the push (SDM, PUSH), the value
 * is read before the store check, nothing changes before the store. */
#define PUSH_MEM_FORMS(_, SH, EA)                                                       \
	static const struct insn *fast_push_m64##SH(struct cpu *c, const struct insn *i) \
	{                                                                                \
		uint64_t v = mem_read_fast(EA(c, i), 8), sp = c->r[R_SP] - 8;           \
		EXEC_STORE_OR_GENERIC(c, i, sp, 8);                                      \
		mem_write_nocheck(sp, 8, v);                                             \
		c->r[R_SP] = sp;                                                         \
		return exec_next(c, i);                                                  \
	}                                                                                \
	PUSH_M32_FORM(SH, EA)
#define PUSH_M32_FORM(SH, EA)                                                            \
	static const struct insn *fast_push_m32##SH(struct cpu *c, const struct insn *i) \
	{                                                                                \
		uint32_t v = (uint32_t)mem_read_fast(EA(c, i), 4);                       \
		uint32_t sp = (uint32_t)c->r[R_SP] - 4;                                  \
		EXEC_STORE_OR_GENERIC(c, i, sp, 4);                                      \
		mem_write_nocheck(sp, 4, v);                                             \
		c->r[R_SP] = sp;                                                         \
		return exec_next(c, i);                                                  \
	}
EA_SHAPES(PUSH_MEM_FORMS, push)
/* ... and through ESP + disp (insn_ea_sp32), msort's own */
PUSH_M32_FORM(_sp32, insn_ea_sp32)

/* A run of N pushes decoded one after another, from its first
 * (push_run_decoded): PUSH r64 in 64-bit mode (a prologue saving the
 * callee-saved registers); in 32-bit mode PUSH r32, PUSH imm and PUSH of
 * ESP + disp mixed (i386's prologues and stack arguments: msort's
 * "push 0x14(%esp); push %edi; push %ebp"). One store check for all when
 * they stay on one page, one dispatch, N fixed per form so the stores
 * unroll. The stores are the pushes' own, in order; one page, so a
 * store's fault (a read-only page passes store_plain) comes at the first,
 * with cur naming it and nothing changed; a PUSH of memory whose read
 * faults has the pushes before it done, the stack pointer where they
 * left it and cur naming it. Else the first push alone, and the rest one
 * by one (each is still a single push). A jump into the run lands on a
 * plain member. A member's value: memory at disp + the stack pointer
 * before its push when its base is ESP (the only memory form a run
 * takes), else r[rm] + imm (a register push has no immediate, an
 * immediate push has rm GREG_NONE: move_specialise). 32-bit stack
 * pointers wrap at 4 GiB (a run across the wrap takes the single push,
 * its page test sees it). */
static inline __attribute__((always_inline)) const struct insn *
push_run(struct cpu *c, const struct insn *i, unsigned n, unsigned sz)
{
	uint64_t mask = sz == 8 ? ~0ull : 0xffffffffull;
	uint64_t sp = c->r[R_SP] & mask, low = (sp - sz * n) & mask;

	c->cur = i;
	/* all N stores on low's page: its byte alone checks them */
	if (__builtin_expect((((sp - 1) ^ low) >> 12) != 0 || !store_page_plain(low), 0))
		return sz == 8 ? fast_push64(c, i) : i->base == R_SP ? fast_push_m32_sp32(c, i) :
				 i->rm == GREG_NONE ? fast_push_imm32(c, i) : fast_push32(c, i);
	for (unsigned k = 0; k < n; k++) {
		const struct insn *e = &i[k];
		uint64_t v;

		if (sz == 4 && e->base == R_SP) {
			c->cur = e;
			c->r[R_SP] = sp - 4 * k;
			v = mem_read_fast((uint32_t)((uint64_t)(int64_t)e->v + sp - 4 * k), 4);
		} else {
			v = c->r[e->rm] + (sz == 4 ? insn_imm(e) : 0); /* 64-bit runs: registers only */
		}
		mem_store_nocheck(sp - sz * (k + 1), sz, v);
	}
	c->r[R_SP] = low;
	return exec_next(c, i + n - 1);
}

#define PUSH_RUN(N)                                                                      \
	static const struct insn *fast_push64_run##N(struct cpu *c, const struct insn *i) \
	{                                                                                \
		return push_run(c, i, N, 8);                                             \
	}                                                                                \
	static const struct insn *fast_push32_run##N(struct cpu *c, const struct insn *i) \
	{                                                                                \
		return push_run(c, i, N, 4);                                             \
	}
PUSH_RUN(2) PUSH_RUN(3) PUSH_RUN(4) PUSH_RUN(5) PUSH_RUN(6) PUSH_RUN(7) PUSH_RUN(8)
#undef PUSH_RUN
static const insn_exec push64_runs[] = {
	NULL, NULL, fast_push64_run2, fast_push64_run3, fast_push64_run4,
	fast_push64_run5, fast_push64_run6, fast_push64_run7, fast_push64_run8,
};
static const insn_exec push32_runs[] = {
	NULL, NULL, fast_push32_run2, fast_push32_run3, fast_push32_run4,
	fast_push32_run5, fast_push32_run6, fast_push32_run7, fast_push32_run8,
};
#define PUSH_RUN_MAX (sizeof(push64_runs) / sizeof(push64_runs[0]) - 1)

/* SUB ESP, imm32 (its flags recorded) and the N pushes right after it
 * (32-bit mode, push_run_scan): gcc -m32 keeps the stack 16-byte aligned
 * at calls, so a call with stack arguments starts "sub $N,%esp" and
 * pushes them (msort's "sub $0x4,%esp; push 0x14(%esp); push %edi; push
 * %ebp"). The SUB done, the pushes are the run from i + 1 (which has its
 * own form for a jump to it), with its page test and fallback: one
 * dispatch for all, the stack pointer kept in a host register. N from 1:
 * a single push goes through push_run too. */
static inline __attribute__((always_inline)) const struct insn *
sub_push_run(struct cpu *c, const struct insn *i, unsigned n)
{
	uint32_t a = (uint32_t)c->r[R_SP], b = (uint32_t)insn_imm_v(i), r = a - b;

	c->r[R_SP] = r;
	flags_record(c, FL_SUB, 4, r, a, b);
	return push_run(c, i + 1, n, 4);
}

#define SUB_PUSH_RUN(N)                                                                    \
	static const struct insn *fast_sub_push32_run##N(struct cpu *c, const struct insn *i) \
	{                                                                                  \
		return sub_push_run(c, i, N);                                              \
	}
SUB_PUSH_RUN(1) SUB_PUSH_RUN(2) SUB_PUSH_RUN(3) SUB_PUSH_RUN(4) SUB_PUSH_RUN(5)
SUB_PUSH_RUN(6) SUB_PUSH_RUN(7) SUB_PUSH_RUN(8)
#undef SUB_PUSH_RUN
static const insn_exec sub_push32_runs[] = {
	NULL, fast_sub_push32_run1, fast_sub_push32_run2, fast_sub_push32_run3, fast_sub_push32_run4,
	fast_sub_push32_run5, fast_sub_push32_run6, fast_sub_push32_run7, fast_sub_push32_run8,
};
_Static_assert(sizeof(sub_push32_runs) == sizeof(push32_runs), "one length for runs with and without the SUB");

/* A run of N PUSH r64 with MOV r64, r64 between them (64-bit mode: gcc
 * interleaves a prologue's pushes with the moves of its arguments into
 * the registers just saved, "push %r15; mov %rdi,%r15; push %r14"): as
 * push_run, one page test and one dispatch for all, the members in
 * order. The head and the last member are pushes, and each MOV has a
 * push on either side (push_mix_scan), so no pass pairs or fuses it
 * later: its form stays fast_mov_rr64, which tells it from the pushes
 * here. A MOV does not write RSP; one that reads it sees the pushes
 * before it (the stack pointer is written before each MOV). The first
 * store comes before any MOV: a fault there (a read-only page) has
 * changed nothing, cur naming the head. Pure push runs keep their own
 * forms (no test per member). */
static inline __attribute__((always_inline)) const struct insn *
push_mix(struct cpu *c, const struct insn *i, unsigned n)
{
	uint64_t sp = c->r[R_SP], low = sp - 8 * n; /* n >= the pushes */

	c->cur = i;
	if (__builtin_expect((((sp - 1) ^ low) >> 12) != 0 || !store_page_plain(low), 0))
		return fast_push64(c, i);
	for (unsigned k = 0; k < n; k++) {
		const struct insn *e = &i[k];

		if (k > 0 && e->exec == fast_mov_rr64) {
			c->r[R_SP] = sp;
			c->r[e->rm] = c->r[e->reg];
			continue;
		}
		sp -= 8;
		mem_store_nocheck(sp, 8, c->r[e->rm]);
	}
	c->r[R_SP] = sp;
	return exec_next(c, i + n - 1);
}

#define PUSH_MIX(N)                                                                      \
	static const struct insn *fast_push64_mix##N(struct cpu *c, const struct insn *i) \
	{                                                                                \
		return push_mix(c, i, N);                                                \
	}
PUSH_MIX(3) PUSH_MIX(4) PUSH_MIX(5) PUSH_MIX(6) PUSH_MIX(7) PUSH_MIX(8)
#undef PUSH_MIX
static const insn_exec push64_mixes[] = {
	NULL, NULL, NULL, fast_push64_mix3, fast_push64_mix4,
	fast_push64_mix5, fast_push64_mix6, fast_push64_mix7, fast_push64_mix8,
};
_Static_assert(sizeof(push64_mixes) == sizeof(push64_runs), "one length for pure and mixed runs");

/* Whether e can be in a run of width w: a single push of its kinds (not
 * of the stack pointer, whose value the run's order would change) or a
 * run's head. */
static bool push_run_member(const struct insn *e, bool w)
{
	const insn_exec *runs = w ? push64_runs : push32_runs;

	if (w ? e->exec == fast_push64 && e->rm != R_SP
	      : (e->exec == fast_push32 && e->rm != R_SP) || e->exec == fast_push_imm32 ||
			e->exec == fast_push_m32_sp32)
		return true;
	for (unsigned k = 2; k <= PUSH_RUN_MAX; k++)
		if (e->exec == runs[k] || (w && e->exec == push64_mixes[k]))
			return true;
	return false;
}

/* Whether e heads a mixed run (a longer run taking it in is mixed too). */
static bool push_mix_head(const struct insn *e)
{
	for (unsigned k = 3; k <= PUSH_RUN_MAX; k++)
		if (e->exec == push64_mixes[k])
			return true;
	return false;
}

/* Whether e heads a run of a SUB and pushes (sub_push_run). */
static bool sub_push_head(const struct insn *e)
{
	for (unsigned k = 1; k <= PUSH_RUN_MAX; k++)
		if (e->exec == sub_push32_runs[k])
			return true;
	return false;
}

/* Whether e can be a MOV member of a mixed run (push_mix). */
static bool push_mix_mov(const struct insn *e)
{
	return e->exec == fast_mov_rr64 && e->rm != R_SP;
}

/* A run of N POPs decoded one after another, from its first: POP r64 in
 * 64-bit mode, POP r32 in 32-bit mode (an epilogue restoring the
 * callee-saved registers: Perl's pp functions run 3.6 a return), and the
 * RET after them when there is one (ret: i + N is a RET of the mode's
 * width, control_fast_ret; its target as exec_ret_near's). One dispatch
 * for all instead of one each. The loads are all from one page (else
 * the first pop alone, and the rest one by one): a fault comes at the
 * first, with cur naming it and nothing changed (only another thread's
 * munmap between two loads could fault a later one, as it could a push
 * run's store). A jump into the run lands on a plain member. */
static inline __attribute__((always_inline)) const struct insn *
pop_run(struct cpu *c, const struct insn *i, unsigned n, unsigned sz, bool ret)
{
	uint64_t sp = sz == 8 ? c->r[R_SP] : (uint32_t)c->r[R_SP], target = 0;
	unsigned m = n + ret; /* the words read: the RET's return address too */

	c->cur = i;
	/* the last byte read on sp's page (a 32-bit sp + 4m past 4 GiB is not) */
	if (__builtin_expect(((sp ^ (sp + sz * m - 1)) >> 12) != 0, 0))
		return sz == 8 ? fast_pop64(c, i) : fast_pop32(c, i);
	for (unsigned k = 0; k < n; k++)
		c->r[i[k].rm] = mem_read_fast_folded(sp + sz * k, sz);
	if (ret)
		target = mem_read_fast_folded(sp + sz * n, sz);
	c->r[R_SP] = sp + sz * m;
	if (ret)
		return exec_indirect(c, i + n, target, true);
	return exec_next(c, i + n - 1);
}

/* KIND run: N pops; KIND ret: N pops and the RET after them */
#define POP_FORMS(KIND, N, RET)                                                             \
	static const struct insn *fast_pop64_##KIND##N(struct cpu *c, const struct insn *i)  \
	{                                                                                   \
		return pop_run(c, i, N, 8, RET);                                            \
	}                                                                                   \
	static const struct insn *fast_pop32_##KIND##N(struct cpu *c, const struct insn *i)  \
	{                                                                                   \
		return pop_run(c, i, N, 4, RET);                                            \
	}
POP_FORMS(run, 2, false) POP_FORMS(run, 3, false) POP_FORMS(run, 4, false)
POP_FORMS(run, 5, false) POP_FORMS(run, 6, false)
POP_FORMS(ret, 1, true) POP_FORMS(ret, 2, true) POP_FORMS(ret, 3, true)
POP_FORMS(ret, 4, true) POP_FORMS(ret, 5, true) POP_FORMS(ret, 6, true)
#undef POP_FORMS
/* [N]: the runs of N pops, without and with the RET after them; [1] of
 * the first two is no run (a single pop is its own form). Up to 6: the
 * callee-saved registers (x86_64 has six, i386 four); a longer run is
 * two (space: docs/performance.md, the profiling build's image) */
static const insn_exec pop64_runs[] = {
	NULL, NULL, fast_pop64_run2, fast_pop64_run3, fast_pop64_run4, fast_pop64_run5, fast_pop64_run6,
};
static const insn_exec pop32_runs[] = {
	NULL, NULL, fast_pop32_run2, fast_pop32_run3, fast_pop32_run4, fast_pop32_run5, fast_pop32_run6,
};
static const insn_exec pop64_rets[] = {
	NULL, fast_pop64_ret1, fast_pop64_ret2, fast_pop64_ret3, fast_pop64_ret4, fast_pop64_ret5, fast_pop64_ret6,
};
static const insn_exec pop32_rets[] = {
	NULL, fast_pop32_ret1, fast_pop32_ret2, fast_pop32_ret3, fast_pop32_ret4, fast_pop32_ret5, fast_pop32_ret6,
};
#define POP_RUN_MAX (sizeof(pop64_runs) / sizeof(pop64_runs[0]) - 1)
_Static_assert(sizeof(pop64_runs) == sizeof(pop64_rets) && sizeof(pop32_runs) == sizeof(pop64_runs) &&
	       sizeof(pop32_rets) == sizeof(pop64_runs), "one length for every kind of POP run");

/* Whether e can be in a POP run of width w: a single pop (not of the
 * stack pointer: move_specialise) or the head of a run without a RET. */
static bool pop_run_member(const struct insn *e, bool w)
{
	const insn_exec *runs = w ? pop64_runs : pop32_runs;

	if (e->exec == (w ? fast_pop64 : fast_pop32))
		return true;
	if (insn_cold(e)->fn != op_pop_r) /* where most scans stop */
		return false;
	for (unsigned k = 2; k <= POP_RUN_MAX; k++)
		if (e->exec == runs[k])
			return true;
	return false;
}

/* After pool[n - 1], a POP or a RET, was decoded: the run of pops it
 * ends (with it, a RET) runs from its first. */
static void pop_run_decoded(struct insn *pool, uint32_t n)
{
	const struct insn *last = &pool[n - 1];
	bool ret = insn_cold(last)->fn == op_ret;
	bool w = ret ? control_fast_ret(last, true) : last->exec == fast_pop64;
	uint32_t end = ret ? n - 1 : n, head; /* the pops: pool[head..end) */

	if ((ret && !w && !control_fast_ret(last, false)) || end == 0 || !pop_run_member(&pool[end - 1], w) || (ret && !insn_cold(&pool[end - 1])->seq))
		return;
	head = end - 1;
	while (head > 0 && insn_cold(&pool[head - 1])->seq && pop_run_member(&pool[head - 1], w) &&
	       end - head < POP_RUN_MAX)
		head--;
	if (ret)
		pool[head].exec = (w ? pop64_rets : pop32_rets)[end - head];
	else if (head < end - 1)
		pool[head].exec = (w ? pop64_runs : pop32_runs)[end - head];
}

/* After pool[n - 1], a PUSH, was decoded: the run of pushes it ends runs
 * from its first. */
static void push_run_scan(struct insn *pool, uint32_t n)
{
	uint32_t head = n - 1;
	bool w, mixed = false;

	w = pool[n - 1].exec == fast_push64;
	if (n < 2 || !push_run_member(&pool[n - 1], w))
		return;
	/* 64-bit: a MOV between two members joins the run (push_mix) */
	while (head > 0 && insn_cold(&pool[head - 1])->seq && n - head < PUSH_RUN_MAX) {
		if (push_run_member(&pool[head - 1], w)) {
			head--;
			mixed |= w && push_mix_head(&pool[head]);
		} else if (w && head >= 2 && n - head + 2 <= PUSH_RUN_MAX && push_mix_mov(&pool[head - 1]) &&
			   insn_cold(&pool[head - 2])->seq && push_run_member(&pool[head - 2], w)) {
			head -= 2;
			mixed = true;
		} else {
			break;
		}
	}
	if (head < n - 1)
		pool[head].exec = (mixed ? push64_mixes : w ? push64_runs : push32_runs)[n - head];
	if (!w && head > 0 && insn_cold(&pool[head - 1])->seq && pool[head - 1].rm == R_SP &&
	    (alu_sub_ri32_flagged(&pool[head - 1]) || sub_push_head(&pool[head - 1])))
		pool[head - 1].exec = sub_push32_runs[n - head];
}

/* The handlers that end a run (cache.c calls push_run_decoded for these
 * alone), each with its pass. */
const struct pass_end push_run_ends[] = {
	{ op_pop_r, pop_run_decoded }, { op_ret, pop_run_decoded },
	{ op_push_r, push_run_scan }, { op_push_Iz, push_run_scan }, { op_push_Ev, push_run_scan },
};
const unsigned push_run_end_count = sizeof(push_run_ends) / sizeof(push_run_ends[0]);

void push_run_decoded(struct insn *pool, uint32_t n)
{
	pass_end_run(push_run_ends, push_run_end_count, pool, n);
}

/* MOVSXD r64, r/m32 (64-bit mode); MOVSX r32/r64, r/m8 / r/m16. */
UNIT_MOVSXD_RR()
static const struct insn *fast_movsx_b32(struct cpu *c, const struct insn *i)
{
	c->cur = i; /* before it can fault (insn_ea_fast) */
	c->r[i->reg] = (uint32_t)(int32_t)(int8_t)rm_read(c, i, 1);
	return exec_next(c, i);
}

static const struct insn *fast_movsx_b64(struct cpu *c, const struct insn *i)
{
	c->cur = i; /* before it can fault (insn_ea_fast) */
	c->r[i->reg] = (uint64_t)(int64_t)(int8_t)rm_read(c, i, 1);
	return exec_next(c, i);
}

static const struct insn *fast_movsx_w32(struct cpu *c, const struct insn *i)
{
	c->cur = i; /* before it can fault (insn_ea_fast) */
	c->r[i->reg] = (uint32_t)(int32_t)(int16_t)rm_read(c, i, 2);
	return exec_next(c, i);
}

static const struct insn *fast_movsx_w64(struct cpu *c, const struct insn *i)
{
	c->cur = i; /* before it can fault (insn_ea_fast) */
	c->r[i->reg] = (uint64_t)(int64_t)(int16_t)rm_read(c, i, 2);
	return exec_next(c, i);
}


/* CWDE/CDQE and CDQ/CQO (compilers' sign extension before IDIV and of an
 * int index: CPython's loop runs 7 an iteration): a 32-bit result
 * zero-extends, as every 32-bit write. */
static const struct insn *fast_cwde(struct cpu *c, const struct insn *i)
{
	c->r[R_AX] = (uint32_t)(int32_t)(int16_t)c->r[R_AX];
	return exec_next(c, i);
}

static const struct insn *fast_cdqe(struct cpu *c, const struct insn *i)
{
	c->r[R_AX] = (uint64_t)(int64_t)(int32_t)c->r[R_AX];
	return exec_next(c, i);
}

static const struct insn *fast_cdq(struct cpu *c, const struct insn *i)
{
	c->r[R_DX] = (uint32_t)((int32_t)c->r[R_AX] >> 31);
	return exec_next(c, i);
}

static const struct insn *fast_cqo(struct cpu *c, const struct insn *i)
{
	c->r[R_DX] = (uint64_t)((int64_t)c->r[R_AX] >> 63);
	return exec_next(c, i);
}

/* BSWAP r32/r64 (SHA-256's message words: busybox sha256sum runs one per
 * 4 bytes hashed); the 16-bit form, undefined, stays with the table. */
static const struct insn *fast_bswap32(struct cpu *c, const struct insn *i)
{
	c->r[i->rm] = __builtin_bswap32((uint32_t)c->r[i->rm]);
	return exec_next(c, i);
}

static const struct insn *fast_bswap64(struct cpu *c, const struct insn *i)
{
	c->r[i->rm] = __builtin_bswap64(c->r[i->rm]);
	return exec_next(c, i);
}

/* Replace i->fn by a fast form when the instruction has one (decode time).
 * lflive.c (insn.lf): moves leave the flags alone; those with a register
 * source cannot fault (LEA never accesses memory). MOVSX, MOVSXD and the
 * 32/64-bit MOV loads and stores may fault through memory: LF_NEUTRAL
 * (lflive checks mod, and the registers each writes). */
void move_specialise(struct insn *i, bool m64)
{
	struct insn_cold *ic = insn_cold(i);
	/* built on insn_ea_fast/insn_offset_fast: not for addr32 operands
	 * in 64-bit mode (insn.h, insn_addr32_in_64), but for LEA of a
	 * 32-bit register, whose result is truncated to 32 bits anyway */
	if (insn_addr32_in_64(i) && (ic->fn == op_movsxd_GvEd || ic->fn == op_movsx_GvEb ||
				     ic->fn == op_movsx_GvEw || (ic->fn == op_lea_GvM && ic->osz != 4)))
		return;
	if (ic->fn == op_bswap_r && ic->osz >= 4) {
		i->exec = ic->osz == 8 ? fast_bswap64 : fast_bswap32;
		ic->lf = LF_NEUTRAL_NOFAULT;
		return;
	}
	if ((ic->fn == op_cbw || ic->fn == op_cwd) && ic->osz >= 4) {
		i->exec = ic->fn == op_cbw ? (ic->osz == 8 ? fast_cdqe : fast_cwde)
					   : (ic->osz == 8 ? fast_cqo : fast_cdq);
		ic->lf = LF_NEUTRAL_NOFAULT;
		return;
	}
	if (ic->fn == op_movsxd_GvEd && m64 && ic->osz == 8) {
		i->exec = ic->mod == 3 ? fast_movsxd_rr : EA_PICK_IX(i, fast_movsxd_load);
		ic->lf = LF_NEUTRAL;
		return;
	}
	if ((ic->fn == op_movsx_GvEb || ic->fn == op_movsx_GvEw) && (ic->osz == 4 || ic->osz == 8)) {
		bool w = ic->osz == 8;

		if (ic->fn == op_movsx_GvEb && ic->mod == 3)
			i->exec = w ? fast_movsx_b64 : fast_movsx_b32;
		else if (ic->fn == op_movsx_GvEb)
			i->exec = w ? EA_PICK_IX(i, fast_movsx_b64_load) : EA_PICK(i, fast_movsx_b32_load);
		else if (ic->mod == 3)
			i->exec = w ? fast_movsx_w64 : fast_movsx_w32;
		else
			i->exec = w ? EA_PICK(i, fast_movsx_w64_load) : EA_PICK(i, fast_movsx_w32_load);
		ic->lf = LF_NEUTRAL;
		return;
	}
	if (ic->osz == 1 && ic->mod != 3 && ic->fn == op_mov_GvEv) {
		i->exec = EA_PICK(i, fast_mov_load8);
		return;
	}
	if (ic->osz == 2 && ic->mod != 3 && ic->fn == op_mov_GvEv && ic->op == 0x8b) {
		i->exec = EA_PICK(i, fast_load16);
		return;
	}
	if (ic->osz == 2 && ic->mod != 3 && ic->fn == op_mov_EvGv && ic->op == 0x89) {
		i->exec = EA_PICK(i, fast_store16);
		return;
	}
	if (ic->osz == 1 && ic->mod != 3 && ic->fn == op_mov_EvGv && ic->op == 0x88) {
		i->exec = EA_PICK(i, fast_mov_store8);
		return;
	}
	if (ic->osz <= 2 && ic->mod != 3 && ic->fn == op_mov_EvIz) { /* C6 /0 ib, 66 C7 /0 iw */
		i->exec = ic->osz == 1 ? EA_PICK(i, fast_storei8) : EA_PICK(i, fast_storei16);
		return;
	}
	bool w = ic->osz == 8;

	if (ic->fn == op_push_r && m64 && w) {
		i->exec = fast_push64;
		return;
	}
	if (ic->fn == op_pop_r && m64 && w && i->rm != R_SP) {
		i->exec = fast_pop64;
		return;
	}
	if (ic->fn == op_push_Iz && ic->osz == (m64 ? 8 : 4)) {
		i->exec = m64 ? fast_push_imm64 : fast_push_imm32;
		if (!m64)
			i->rm = GREG_NONE; /* a push run's member: r[rm] + imm (push_run) */
		return;
	}
	if (ic->fn == op_push_r && !m64 && ic->osz == 4) {
		i->exec = fast_push32;
		return;
	}
	if (ic->fn == op_push_Ev && ic->mod != 3 && ic->osz == (m64 ? 8 : 4)) {
		i->exec = m64 ? EA_PICK(i, fast_push_m64) : EA_PICK(i, fast_push_m32);
		if (!m64 && insn_ea_sp32_ok(i))
			i->exec = fast_push_m32_sp32;
		return;
	}
	if (ic->fn == op_pop_r && !m64 && ic->osz == 4 && i->rm != R_SP) {
		i->exec = fast_pop32;
		return;
	}
	if (ic->osz != 4 && ic->osz != 8)
		return;
	if (ic->fn == op_mov_EvGv && ic->op == 0x89) {
		i->exec = ic->mod == 3 ? (w ? fast_mov_rr64 : fast_mov_rr32)
				       : (w ? EA_PICK_IX(i, fast_store64) : EA_PICK_IX2(i, fast_store32));
		if (!w && ic->mod != 3 && insn_ea_sp32_ok(i))
			i->exec = fast_store32_sp32;
		ic->lf = ic->mod == 3 ? LF_NEUTRAL_NOFAULT : LF_NEUTRAL;
	} else if (ic->fn == op_mov_GvEv) {
		if (ic->mod == 3) {
			i->exec = w ? fast_mov_gr64 : fast_mov_gr32;
			ic->lf = LF_NEUTRAL_NOFAULT;
		} else {
			i->exec = w ? EA_PICK_IX(i, fast_load64) : EA_PICK_IX2(i, fast_load32);
			if (!w && insn_ea_sp32_ok(i))
				i->exec = fast_load32_sp32;
			ic->lf = LF_NEUTRAL;
		}
	} else if (ic->fn == op_mov_rIv || (ic->fn == op_mov_EvIz && ic->mod == 3)) {
		i->exec = w ? fast_mov_ri64 : fast_mov_ri32;
		ic->lf = LF_NEUTRAL_NOFAULT;
	} else if (ic->fn == op_mov_EvIz) {
		i->exec = w ? EA_PICK(i, fast_storei64) : EA_PICK(i, fast_storei32);
		ic->lf = LF_NEUTRAL;
	} else if (ic->fn == op_movzx_GvEb) {
		i->exec = ic->mod == 3 ? fast_movzx_b_rr : EA_PICK(i, fast_movzx_b_load);
		if (ic->mod == 3)
			ic->lf = LF_NEUTRAL_NOFAULT;
	} else if (ic->fn == op_movzx_GvEw) {
		i->exec = ic->mod == 3 ? fast_movzx_w_rr : EA_PICK(i, fast_movzx_w_load);
		if (ic->mod == 3)
			ic->lf = LF_NEUTRAL_NOFAULT;
	} else if (ic->fn == op_lea_GvM) {
		i->exec = !w ? fast_lea32 : insn_index(i) == GREG_NONE && insn_v_disp_ok(i) ? fast_lea64_bd : fast_lea64;
		ic->lf = LF_NEUTRAL_NOFAULT;
	} else if (ic->fn == op_movbe_GvMv) { /* memory only (G_MEM_ANY) */
		i->exec = w ? EA_PICK(i, fast_movbe_load64) : EA_PICK(i, fast_movbe_load32);
	} else if (ic->fn == op_movbe_MvGv) {
		i->exec = w ? EA_PICK(i, fast_movbe_store64) : EA_PICK(i, fast_movbe_store32);
	}
}
