/* Prototypes of every instruction handler named in the .def tables, so the
 * handler files are checked against the rows. Private to src/cpu. */
#ifndef SG_CPU_OPS_H
#define SG_CPU_OPS_H

#include "cpu/insn.h"

#define OP(map, opcode, prefix, group, handler, flags) \
	void handler(struct cpu *cpu, const struct insn *i);
#define X87M(opcode, reg, handler) void handler(struct cpu *cpu, const struct insn *i);
#define X87R(opcode, modrm, count, handler) void handler(struct cpu *cpu, const struct insn *i);
#include "cpu/opcodes_base.def"
#include "cpu/opcodes_0f.def"
#include "cpu/opcodes_sse.def"
#include "cpu/opcodes_x87.def"
#include "cpu/opcodes_ext.def"
#include "cpu/opcodes_avx.def"
#undef OP
#undef X87M
#undef X87R

void op_nop(struct cpu *cpu, const struct insn *i);
/* ... and its fast form (exec.c; SPEC_NOP: decode.c picks it itself). */
const struct insn *fast_nop(struct cpu *cpu, const struct insn *i);
/* XGETBV (0F 01 D0, reached from op_grp7; xsave.c). */
void op_xgetbv(struct cpu *cpu, const struct insn *i);
/* The OS enabled AVX state (XCR0[2:1] = 11b): AVX forms run, else #UD. */
static inline bool avx_enabled(const struct cpu *c)
{
	return (c->xcr0 & (CPU_XSTATE_SSE | CPU_XSTATE_AVX)) == (CPU_XSTATE_SSE | CPU_XSTATE_AVX);
}
/* 63 is MOVSXD in 64-bit mode and ARPL outside it: one row, two handlers. */
void op_arpl_EwGw(struct cpu *cpu, const struct insn *i);

/* ALU rows (the opcode's bits 5:3, or ModRM.reg of group 1), TEST after
 * them; operand forms of the fast ALU handlers: rr: dst rm, src reg; gr:
 * dst reg, src rm (registers); ri: dst rm, src imm; rm: dst reg, src
 * memory; mr: dst memory, src reg; mi: dst memory, src imm. */
enum { ALU_ADD, ALU_OR, ALU_ADC, ALU_SBB, ALU_AND, ALU_SUB, ALU_XOR, ALU_CMP, ALU_TEST, ALU_ROWS };
enum { FORM_RR, FORM_GR, FORM_RI, FORM_RM, FORM_MR, FORM_MI, FORM_COUNT };
bool alu_fast_form(const struct insn *i, unsigned *op, unsigned *form);
/* The fast form alu_specialise chooses for operation op, operand form
 * FORM_RM..FORM_MI in address shape EA_BD..EA_FLAT64 and size osz 2/4/8
 * (fused.c: is a decoded memory form that one). */
insn_exec alu_shaped_form(unsigned op, unsigned form, unsigned shape, unsigned osz);

/* The fast forms' register write of BITS bits (the hardware's rules): 32
 * zero-extends to 64, 16 keeps bits 16..63; byte registers go through
 * reg_set (AH..BH). */
#define REG_PUT16(dst, v) ((dst) = ((dst) & ~0xffffull) | (uint16_t)(v))
#define REG_PUT32(dst, v) ((dst) = (uint32_t)(v))
#define REG_PUT64(dst, v) ((dst) = (uint64_t)(v))
/* The width index of the fast-form tables of sizes 2/4/8 (alu.c,
 * shift.c): [0] 32, [1] 64, [2] 16 bits. */
enum { FAST_W32, FAST_W64, FAST_W16, FAST_WIDTHS };
static inline unsigned fast_width(unsigned osz)
{
	return osz == 8 ? FAST_W64 : osz == 2 ? FAST_W16 : FAST_W32;
}
/* After pool[n - 1] was decoded: a CMP or TEST right before a Jcc becomes
 * one handler for both (fused.c); fusion_ends names the handlers whose
 * instructions end a fusion, the only ones it need be called for. */
void fuse_decoded(struct insn *pool, uint32_t n);
/* A look-back pass after a decode that only an instruction of this
 * handler may start: cache.c calls the pass's entry for these alone. */
struct pass_end {
	insn_fn handler;
	void (*pass)(struct insn *pool, uint32_t n);
};
/* Runs the pass, among ends, of pool[n - 1]'s handler, if it has one. */
static inline void pass_end_run(const struct pass_end *ends, unsigned count, struct insn *pool,
				uint32_t n)
{
	insn_fn fn = insn_cold(&pool[n - 1])->fn;

	for (unsigned k = 0; k < count; k++)
		if (ends[k].handler == fn) {
			ends[k].pass(pool, n);
			return;
		}
}
extern const struct pass_end fusion_ends[];
extern const unsigned fusion_end_count;
/* After pool[n - 1] was decoded: a run of PUSHes it ends runs from its
 * first in one handler, as does a run of POPs, with the RET after them
 * (move.c); push_run_ends names the handlers that end a run. */
void push_run_decoded(struct insn *pool, uint32_t n);
extern const struct pass_end push_run_ends[];
extern const unsigned push_run_end_count;
/* MOV forms a TEST of their register by itself and the Jcc after it run
 * with (fused.c): move_test_kind (move.c) names i's, or -1. */
enum {
	MOVE_TEST_LOAD64_F64,
	MOVE_TEST_LOAD64_FX64,
	MOVE_TEST_STORE64_F64,
	MOVE_TEST_LOAD32_F64,
	MOVE_TEST_MOVSX_B64_FX64,
	MOVE_TEST_KINDS
};
int move_test_kind(const struct insn *i);
/* Whether i runs MOV r64, r64's single form (move.c): a polymorphic
 * indirect CALL after it takes it in (control.c). */
bool move_is_mov_rr64(const struct insn *i);
/* Whether i runs MOV r32, [ESP + disp]'s single form (move.c): an
 * indirect CALL of that register after it takes it in (control.c). */
bool move_is_load32_sp32(const struct insn *i);
/* After pool[n - 1], an indirect CALL, was decoded: the MOV load of its
 * target right before it runs both (control.c). */
void control_load_call_decoded(struct insn *pool, uint32_t n);
/* MOV r64, r64 and the polymorphic CALL through a flat base + disp after
 * it, run from the MOV's entry m (control.c): Perl's run loop goes on to
 * it straight from the store, TEST and JNE at the CALL's return address
 * (fused.c). */
const struct insn *control_mov_call_m64_f64_poly(struct cpu *c, const struct insn *m);
/* When the MOV at mov took that form: the fused store, TEST and JNE at
 * store (the CALL's return address) that jumps back to mov runs the MOV
 * and the CALL too (fused.c). */
void fuse_store_test_loop_call(struct insn *store, const struct insn *mov);
/* Whether i runs a near RET's fast form of the width (control.c): a POP
 * run ends in it. */
bool control_fast_ret(const struct insn *i, bool m64);

/* Decode time: replace i->fn by a form specialised for the operand kinds
 * (sizes 4/8, register/immediate/memory, condition), when there is one. */
void alu_specialise(struct insn *i);
void move_specialise(struct insn *i, bool m64);
void shift_specialise(struct insn *i);
void cond_specialise(struct insn *i);
void control_specialise(struct insn *i, bool m64);
/* The hot VEX forms (avx_fast.c), for c's XCR0 (fixed after cpu_init),
 * and the legacy SSE forms of the same and of SHA-NI code; the handlers
 * it may replace are SPEC_AVX in handler_props.def. */
void avx_specialise(const struct cpu *c, struct insn *i);
/* The BMI register forms (bmi.c): BZHI. */
void bmi_specialise(struct insn *i);
/* After pool[n - 1] was decoded and the passes above ran: pair the hot
 * register and memory forms before it whose forms are final (pairs.c). */
void pairs_decoded(struct insn *pool, uint32_t n);
/* pool[stub] is a fall-through stub whose target was decoded before, so
 * nothing will be decoded after the instruction before it (its seq stays
 * 0: no look-back reaches past it): pair the units before the stub, which
 * no barrier after them would (a loop's head decoded after its body, as
 * gcc's rotated loops have it). */
void pairs_run_ended(struct insn *pool, uint32_t stub);
/* After pool[n - 1] was decoded: pair it with the VEX form before it
 * (avx_fast.c, the AES-GCM register forms). */
void avx_fuse_decoded(struct insn *pool, uint32_t n);

/* Flag liveness (lflive.c): the flag-free twin of the register form
 * alu_specialise (LF_TWIN_ALU) or shift_specialise (LF_TWIN_SHIFT) chose
 * for i, whose exec is that form or already its twin; NULL if none. */
insn_exec alu_flag_free(const struct insn *i);
/* Whether i runs as SUB r32, imm with its flags (fast_sub_ri32). */
bool alu_sub_ri32_flagged(const struct insn *i);
/* Whether i runs as ADD r32, imm without its flags (fused.c: a TEST and
 * Jcc after it run with it). */
bool alu_add_ri32_flag_free(const struct insn *i);
insn_exec shift_flag_free(const struct insn *i);
/* INC's and DEC's handlers (the r/m and the register encodings). */
static inline bool insn_fn_is_inc(insn_fn fn) { return fn == op_inc_Ev || fn == op_inc_r; }
static inline bool insn_fn_is_dec(insn_fn fn) { return fn == op_dec_Ev || fn == op_dec_r; }
/* The twin of INC/DEC of a register that leaves its flags deferred
 * (FL_INCDEC_DEFER) on the record before it; NULL if none. */
insn_exec alu_incdec_deferred(const struct insn *i);

#endif
