/* The decoded-instruction format and what instruction handlers use:
 * operand access, lazy flags, faults. Private to src/cpu.
 *
 * The decoder (decode.c) turns bytes into a struct insn once; the code
 * cache (cache.c) keeps it per code page; the run loop (exec.c) calls
 * insn->exec. For a table handler (insn->fn) that is exec_generic, which
 * sets cpu->rip to the address of the next instruction first (relative
 * branches use it), or exec_plain for handlers that neither read nor move
 * rip; cpu->insn_rip is the handler's own address either way.
 *
 * Opcode tables are data: X-macro .def files, one per family, which
 * tools/optable_gen.c folds into static const tables at build time
 * (optable.h; the handlers' own properties: handler_props.def). Rows (all
 * maps but x87):
 *
 *   OP(map, opcode, prefix, group, handler, flags)
 *
 *   map     M1 (one-byte), M0F, M38 (0F 38), M3A (0F 3A); MV0F, MV38, MV3A:
 *           the same maps behind a VEX prefix (C4/C5)
 *   opcode  the opcode byte within the map
 *   prefix  P_ANY (row applies whatever the mandatory prefix), or the
 *           mandatory prefix: P_NP (none), P_66, P_F3, P_F2. A specific row
 *           overrides a P_ANY row of the same opcode.
 *   group   G_NONE, or the ModRM.reg value n of a group member: G(n) for
 *           both ModRM forms, G_MEM(n) only mod != 3, G_REG(n) only mod == 3;
 *           G_MEM_ANY / G_REG_ANY: any reg, only that ModRM form
 *   handler void op_xxx(struct cpu *, const struct insn *)
 *   flags   F_* below, or'ed (0 for none)
 *
 * x87 rows (opcodes_x87.def): X87M(opcode, reg, handler) for the memory
 * form of D8..DF with ModRM.reg == reg; X87R(opcode, modrm, count, handler)
 * for register forms with ModRM byte modrm .. modrm+count-1.
 */
#ifndef SG_CPU_INSN_H
#define SG_CPU_INSN_H

#include <stdint.h>
#include <string.h>
#include "cpu/cpu.h"
#include "mm/mm.h"

struct insn;
typedef void (*insn_fn)(struct cpu *cpu, const struct insn *i);
/* What the run loop calls (threaded dispatch): run the instruction and
 * return the next one to run (NULL: stop or resynchronise, cpu->rip says
 * where). exec.c's exec_generic wraps an insn_fn; the fast forms chosen
 * at decode time (*_specialise) are insn_exec themselves and never write
 * cpu->rip (cache.h: exec_next, exec_at). */
typedef const struct insn *(*insn_exec)(struct cpu *cpu, const struct insn *i);

/* Register codes in insn.base/index beyond the 16 GPRs. */
#define GREG_RIP 16
#define GREG_NONE 17
/* A RIP-relative operand's address, resolved at decode time (decode.c),
 * is the displacement, or where that needs more than 32 bits (the fast
 * forms read 32: insn.v) the displacement from one of these registers,
 * which hold multiples of 4 GiB (a PIE's, a library's region), each set
 * once by the decode that needs it. */
#define GREG_RIP_BASE 18
#define GREG_RIP_BASES 8
_Static_assert(GREG_RIP_BASE + GREG_RIP_BASES == sizeof(((struct cpu *)0)->r) / sizeof(uint64_t),
	       "the RIP-relative bases are the last of cpu.r");
_Static_assert(GREG_RIP_BASE + GREG_RIP_BASES <= 32, "insn.ixs holds a register in 5 bits");

/* insn.pfx bits */
#define PFX_LOCK 0x01
#define PFX_REP 0x02   /* F3 */
#define PFX_REPNE 0x04 /* F2 */
#define PFX_OSZ 0x08   /* 66 */
#define PFX_ASZ 0x10   /* 67 */
#define PFX_SEG 0x20   /* an explicit segment override */

/* A decoded instruction is three records in parallel arrays of a window
 * (cache.c): the hot one, struct insn, 16 bytes, holds what the fast forms
 * read, so a hot loop's decoded code takes a quarter of the L1 it took at
 * 64 bytes (Perl's loop at 32 did not fit: docs/performance.md); struct
 * insn_ext, 16 bytes INSN_EXT_DELTA after it, the full immediate and
 * displacement; struct insn_cold, 32 bytes, what decoding, the table
 * handlers, faults and branch checks read, at twice the hot record's
 * offset in the window's cold array (insn_cold()). So every struct insn
 * lives in a window of the code cache (cache.c) or in a scratch window
 * (insn_scratch: never on the stack), whose hot array starts on an
 * INSN_HOT_SPAN boundary. */
struct insn {
	insn_exec exec;  /* exec_generic, or a fast form (decode time) */
	/* The fast forms' 32-bit operand (insn_set_v): with a memory operand
	 * its displacement (insn_v_disp_ok), else the immediate, a byte
	 * register form's two registers above its imm8; a direct branch's
	 * chained target, RET's and the register indirect branches' kept
	 * target (cache.h, insn_link). Forms that need more read insn_ext. */
	int32_t v;
	uint8_t reg;    /* ModRM.reg | REX.R: GPR or XMM number */
	uint8_t rm;     /* ModRM.rm | REX.B (mod == 3), or the opcode register */
	uint8_t base;   /* memory operand: GPR, GREG_RIP or GREG_NONE */
	uint8_t ixs;    /* index GPR or GREG_NONE (bits 0-4) | scale << 5: insn_index, insn_scale */
};
_Static_assert(sizeof(struct insn) == 16, "four decoded instructions per cache line");

struct insn_ext {
	uint64_t imm;   /* immediate, extended as the form says (F_I*) */
	int64_t disp;   /* displacement, sign-extended; moffs for A0..A3 */
};
_Static_assert(sizeof(struct insn_ext) == 16, "the ext record");

struct insn_cold {
	insn_fn fn;      /* the table's handler: single steps call it */
	uint64_t addr;   /* the instruction's address */
	uint16_t imm2;  /* ENTER's level byte; VEX: vvvv | L << 4 | W << 5 (VEX_V/L/W) */
	uint8_t len;    /* 1..15 */
	uint8_t osz;    /* operand size in bytes: 1, 2, 4, 8 */
	uint8_t asz;    /* address size in bytes: 2, 4, 8 */
	uint8_t pfx;    /* PFX_* */
	uint8_t rex;    /* the REX byte (0x40..0x4f) or 0 */
	uint8_t op;     /* the last opcode byte */
	uint8_t mod;    /* ModRM.mod (3: register operand); 3 for opcode-register forms */
	uint8_t modrm;  /* the raw ModRM byte (x87 register forms) */
	uint8_t lf;     /* lflive: LF_* of its fast form (its specialiser sets it), LF_STALE */
	uint8_t seg;    /* enum cpu_seg of the memory operand */
	uint8_t reg8;   /* reg as a byte register: 0..15, or 16..19 for AH..BH */
	uint8_t rm8;    /* rm as a byte register, same coding */
	uint16_t off : 12;     /* cache: offset in its code page */
	uint16_t ends_run : 1; /* decode: never falls through (JMP, RET...: FLOW_END): no stub after it */
	uint16_t chains : 1;   /* decode: v chains the relative target (cache.h, exec_rel_target) */
	uint16_t seq : 1;      /* cache: the next pool entry is the fall-through instruction */
	uint16_t flat : 1;     /* decode: the memory operand's segment base is 0 (insn_ea_flat*) */
};
_Static_assert(sizeof(struct insn_cold) == 32, "the cold record");

/* Entries per window (cache.c): the slots' 16-bit values reach that far. */
#define INSN_WINDOW_ENTRIES 65535u
/* A window's hot array, and its alignment; the ext array follows it, then
 * the cold one (twice as long). */
#define INSN_HOT_SPAN ((uintptr_t)1 << 20)
_Static_assert(INSN_WINDOW_ENTRIES * sizeof(struct insn) <= INSN_HOT_SPAN, "a window's hot array");
#define INSN_EXT_DELTA INSN_HOT_SPAN
#define INSN_WINDOW_SPAN (4 * INSN_HOT_SPAN)

static inline struct insn_ext *insn_ext(const struct insn *i)
{
	return (struct insn_ext *)((uintptr_t)i + INSN_EXT_DELTA);
}

/* A function reading several cold fields takes the record once
 * (`ic = insn_cold(i)`). */
static inline struct insn_cold *insn_cold(const struct insn *i)
{
	uintptr_t a = (uintptr_t)i;

	return (struct insn_cold *)(a + 2 * INSN_HOT_SPAN + (a & (INSN_HOT_SPAN - 1)));
}

/* The fields of the other records, by the entry (lvalues). */
#define insn_imm(i) (insn_ext(i)->imm)
#define insn_disp(i) (insn_ext(i)->disp)
#define insn_seg(i) (insn_cold(i)->seg)
#define insn_reg8(i) (insn_cold(i)->reg8)
#define insn_rm8(i) (insn_cold(i)->rm8)

static inline unsigned insn_index(const struct insn *i)
{
	return i->ixs & 31u;
}

static inline unsigned insn_scale(const struct insn *i)
{
	return i->ixs >> 5;
}

static inline void insn_set_index(struct insn *i, unsigned index, unsigned scale)
{
	i->ixs = (uint8_t)(index | scale << 5);
}

/* The fast forms' v (insn.v) from the decoded record, before the
 * specialisers (which may change it: a branch's link, cache.h): the
 * displacement with a memory operand, else the immediate, with a byte
 * register form's two registers above its imm8. */
static inline void insn_set_v(struct insn *i)
{
	const struct insn_cold *ic = insn_cold(i);

	if (ic->mod != 3)
		i->v = (int32_t)insn_disp(i);
	else if (ic->osz == 1) /* byte registers: insn_rm8_v, insn_reg8_v */
		i->v = (int32_t)((uint8_t)insn_imm(i) | (uint32_t)ic->rm8 << 8 | (uint32_t)ic->reg8 << 16);
	else
		i->v = (int32_t)insn_imm(i);
}

/* A byte-sized register form's byte registers (and its immediate, the
 * low byte: insn_imm_v truncated), from v (insn_set_v). */
#define insn_rm8_v(i) ((uint8_t)((uint32_t)(i)->v >> 8))
#define insn_reg8_v(i) ((uint8_t)((uint32_t)(i)->v >> 16))

/* The immediate of a form without a memory operand from v: exact when it
 * fits 32 bits sign-extended (all but MOV r64, imm64), and for forms of
 * 32 bits or less, which truncate it, always. */
#define insn_imm_v(i) ((uint64_t)(int64_t)(i)->v)

static inline void insn_copy(struct insn *dst, const struct insn *src)
{
	*dst = *src;
	*insn_ext(dst) = *insn_ext(src);
	*insn_cold(dst) = *insn_cold(src);
}

/* Entries for a decode outside the pools, in a scratch window (cache.c):
 * each CPU's own, one per use that may be under way at once in a thread
 * (a fault path may run inside an AVX handler's lanes, never inside a
 * decode), and for callers without a CPU (the API's decoders, pairs.c's
 * canned forms, tests) one shared entry held under a lock. */
enum { INSN_SCRATCH_DECODE, INSN_SCRATCH_FAULT, INSN_SCRATCH_LANES, INSN_SCRATCH };
struct insn *insn_scratch(struct cpu *c, unsigned use);
struct insn *insn_scratch_shared_take(void);
void insn_scratch_shared_give(void);

/* c's scratch entry for AVX's lanes holding a copy of i, to change
 * before handing it on. */
static inline struct insn *insn_scratch_lanes(struct cpu *c, const struct insn *i)
{
	struct insn *t = insn_scratch(c, INSN_SCRATCH_LANES);

	insn_copy(t, i);
	return t;
}

/* Flag liveness (lflive.c): what a fast form does to the arithmetic flags,
 * insn.lf's low bits, set by the specialiser that chose the form (alu.c,
 * shift.c, move.c: a property of the form, kept with the choice). Every
 * other form, and every generic handler, counts as a reader. */
enum lf_class {
	LF_READS,           /* may read them (0: what decode leaves) */
	LF_NEUTRAL,         /* neither reads nor writes them; faults only with a memory operand */
	LF_NEUTRAL_NOFAULT, /* ... and never faults */
	LF_WRITES,          /* writes all six, reads none, never faults (register forms) */
	LF_CFOF,            /* writes some and keeps the rest, reads none (rotates: CF and OF; shifts by CL: all or, count 0, none) */
	LF_KEEPCF,          /* writes all but CF, which it keeps (INC, DEC: registers) */
};
#define LF_CLASS_MASK 0x07
/* A form with a flag-free twin: whose (alu_flag_free, shift_flag_free). */
#define LF_TWIN_ALU 0x08
#define LF_TWIN_SHIFT 0x10
/* After a flag-free form, up to the writer that made it so: a stop here
 * runs on to the writer first (exec.c). */
#define LF_STALE 0x80
/* A load or store after a flag-free form whose flags it would see: a fault
 * in it, or a stop after it, with lf.op FL_DEFER rebuilds them (lflive.c). */
#define LF_REBUILD 0x40
/* Not flag liveness: pairs.c made this entry run the next one too (its
 * exec a pair form, returning i + 2 when it falls through; a triple runs
 * the next two and returns i + 3); the run loop's stale stretch runs on
 * through it (exec.c). */
#define LF_PAIR_HEAD 0x20
void lf_decoded_walk(struct insn *pool, uint32_t n);
/* After pool[n - 1] was decoded: give the flag-free form to the writers
 * whose flags it overwrites before anything can read them. Only a writer
 * of all the flags starts the walk: the test inline, as most decoded
 * instructions start none (the walk's frame cost ~23 host instructions a
 * decode). */
static inline void lf_decoded(struct insn *pool, uint32_t n)
{
	if ((insn_cold(&pool[n - 1])->lf & LF_CLASS_MASK) == LF_WRITES)
		lf_decoded_walk(pool, n);
}
/* Whether that walk may go on past i (pairs.c: a later pass may still
 * change the forms before i). */
static inline bool lf_walk_passes(const struct insn *i)
{
	unsigned cls = insn_cold(i)->lf & LF_CLASS_MASK;

	return cls == LF_NEUTRAL || cls == LF_NEUTRAL_NOFAULT ||
	       ((cls == LF_CFOF || cls == LF_KEEPCF) && insn_cold(i)->mod == 3);
}
/* A stop at (a fault) or after (a store) at, an access marked LF_REBUILD,
 * with lf.op FL_DEFER: records the flags of the flag-free writer before
 * it from the registers. */
void lf_rebuild(struct cpu *c, const struct insn *at);

/* Row columns (see the top comment). */
enum { M1, M0F, M38, M3A, MV0F, MV38, MV3A, MAP_COUNT };
enum { P_NP, P_66, P_F3, P_F2, P_ANY };
#define G_NONE (-1)
#define G(n) (n)
#define G_MEM(n) (8 + (n))
#define G_REG(n) (16 + (n))
#define G_MEM_ANY 24 /* whatever ModRM.reg, only mod != 3 */
#define G_REG_ANY 25 /* whatever ModRM.reg, only mod == 3 */

/* A VEX instruction's extra register (VEX.vvvv, un-inverted) and VEX.L.
 * Outside 64-bit mode vvvv's top bit is no part of the register number
 * (VEX_V has 3 bits) but is kept apart (VEX_V_TOP): an instruction
 * without a vvvv operand #UDs unless all four bits are 1111b inverted
 * (the Xeon: `c4 c1 b9 5a f0`, VCVTPD2PS in 32-bit mode; VEX_V_SET). */
#define VEX_V(i) ((unsigned)insn_cold((i))->imm2 & 15)
#define VEX_V_TOP 0x40u
#define VEX_V_SET(i) ((insn_cold((i))->imm2 & (15 | VEX_V_TOP)) != 0)
#define VEX_L(i) ((insn_cold((i))->imm2 >> 4) & 1)
/* VEX.W in every mode (REX.W, i->rex & 8, only in 64-bit mode). */
#define VEX_W(i) ((insn_cold((i))->imm2 >> 5) & 1)

/* Row flags */
#define F_MODRM 0x0001  /* a ModRM byte follows */
#define F_BYTE 0x0002   /* operand size 1 */
#define F_D64 0x0004    /* 64-bit mode: operand size 64 unless 66 (push, pop) */
#define F_F64 0x0008    /* 64-bit mode: operand size always 64 (branches) */
#define F_NO64 0x0010   /* #UD in 64-bit mode */
#define F_ONLY64 0x0020 /* #UD outside 64-bit mode */
#define F_OPREG 0x0040  /* register in opcode bits 2:0 (+REX.B); row covers 8 opcodes */
#define F_LOCKOK 0x0080   /* LOCK allowed (with a memory operand) */
#define F_I8 0x0100     /* imm8, zero-extended */
#define F_I8S 0x0200    /* imm8, sign-extended */
#define F_I16 0x0300    /* imm16, zero-extended */
#define F_IZ 0x0400     /* imm16/32 by operand size, sign-extended to 64 */
#define F_IV 0x0500     /* imm16/32/64 by operand size */
#define F_MOFFS 0x0600  /* address-size offset, into disp */
#define F_ENTER 0x0700  /* imm16 then imm8 (imm2) */
#define F_IMM_MASK 0x0700
#define F_REL 0x0800    /* immediate is a branch displacement (sign-extended) */
#define F_MOD3 0x1000   /* ModRM names registers whatever mod says (MOV CR/DR) */
#define F_FARPTR 0x2000 /* after the F_IZ offset, a 16-bit selector into imm2 */

/* Decode at addr; fills *i (an invalid encoding becomes an #UD insn).
 * Reads guest memory: a fault while fetching longjmps like any access.
 * Returns the row's specialiser class (optable.h, SPEC_*; SPEC_NONE for
 * x87 and faulting encodings): the cache's look-back passes that only a
 * class's forms start skip the rest (cache_decode). */
unsigned insn_decode(struct insn *i, struct cpu *cpu, uint64_t addr);
/* Decode bytes[0..n) into *i without running them (mem_access.c): the
 * handler's index (optable.h), 0 for an encoding that faults whatever the
 * state, -1 when the bytes end before the instruction does. */
int insn_decode_bytes(struct insn *i, bool m64, const uint8_t *bytes, size_t n);
/* Decode n bytes (all of one instruction, else false), fast form
 * included, as the CPU c would decode them (its mode, its segment bases):
 * pairs.c names the forms it combines by canned instructions. */
bool insn_decode_canned(struct insn *i, const struct cpu *cpu, const uint8_t *bytes, unsigned n);

/* ---- faults ---- */

/* Stop with a fault at the current instruction (rip = insn_rip). */
void cpu_raise(struct cpu *cpu, enum cpu_vector vec);
/* Stop with #GP/#AC-style memory fault naming the data address. */
void cpu_raise_addr(struct cpu *cpu, enum cpu_vector vec, uint64_t addr);
void op_ud(struct cpu *cpu, const struct insn *i);
void op_gp(struct cpu *cpu, const struct insn *i);

/* ---- registers ---- */

static inline uint64_t size_mask(unsigned sz)
{
	return sz == 8 ? ~0ull : (1ull << (sz * 8)) - 1;
}

static inline uint64_t sign_extend(uint64_t v, unsigned sz)
{
	switch (sz) {
	case 1: return (uint64_t)(int64_t)(int8_t)v;
	case 2: return (uint64_t)(int64_t)(int16_t)v;
	case 4: return (uint64_t)(int64_t)(int32_t)v;
	default: return v;
	}
}

/* Byte registers are coded 0..15, or 16..19 for AH, CH, DH, BH. */
static inline uint64_t reg_get(const struct cpu *c, unsigned r, unsigned sz)
{
	switch (sz) {
	case 1:
		return r >= 16 ? (c->r[r - 16] >> 8) & 0xff : c->r[r] & 0xff;
	case 2: return c->r[r] & 0xffff;
	case 4: return (uint32_t)c->r[r];
	default: return c->r[r];
	}
}

/* 32-bit writes zero the upper half (64-bit mode rule; harmless in 32). */
static inline void reg_set(struct cpu *c, unsigned r, unsigned sz, uint64_t v)
{
	switch (sz) {
	case 1:
		if (r >= 16)
			c->r[r - 16] = (c->r[r - 16] & ~0xff00ull) | ((v & 0xff) << 8);
		else
			c->r[r] = (c->r[r] & ~0xffull) | (v & 0xff);
		break;
	case 2: c->r[r] = (c->r[r] & ~0xffffull) | (v & 0xffff); break;
	case 4: c->r[r] = (uint32_t)v; break;
	default: c->r[r] = v; break;
	}
}

/* ModRM.reg as a GPR of the operand size (byte registers resolved). */
static inline uint64_t greg_get(const struct cpu *c, const struct insn *i, unsigned sz)
{
	return reg_get(c, sz == 1 ? insn_reg8(i) : i->reg, sz);
}

static inline void greg_set(struct cpu *c, const struct insn *i, unsigned sz, uint64_t v)
{
	reg_set(c, sz == 1 ? insn_reg8(i) : i->reg, sz, v);
}

/* ---- memory ---- */

/* Offset (LEA) and linear address of the memory operand: address-size
 * truncation, then the segment base; 32-bit mode wraps at 4 GiB. */
static inline uint64_t insn_offset(const struct cpu *c, const struct insn *i)
{
	uint64_t a = (uint64_t)insn_disp(i);

	if (i->base != GREG_NONE)
		a += i->base == GREG_RIP ? c->rip : c->r[i->base];
	if (insn_index(i) != GREG_NONE)
		a += c->r[insn_index(i)] << insn_scale(i);
	if (insn_cold(i)->asz != 8)
		a = insn_cold(i)->asz == 4 ? (uint32_t)a : (uint16_t)a;
	return a;
}

static inline uint64_t insn_ea(const struct cpu *c, const struct insn *i)
{
	uint64_t a = insn_offset(c, i);

	if (insn_cold(i)->asz != 8) {
		a += c->base[insn_seg(i)];
		if (c->mode == CPU_MODE_32)
			a = (uint32_t)a;
	} else {
		a += c->base[insn_seg(i)];
	}
	return a;
}

/* The same for the fast forms (decode.c chooses them only for 64-bit
 * addresses in 64-bit mode and 32-bit addresses in 32-bit mode, where
 * truncating once at the end is exact; decode.c resolves RIP-relative
 * operands): no branch on absent registers, c->r[GREG_NONE] is 0. */
_Static_assert(GREG_NONE < sizeof(((struct cpu *)0)->r) / sizeof(uint64_t), "GREG_NONE indexes r");

static inline uint64_t insn_offset_fast(const struct cpu *c, const struct insn *i)
{
	return (uint64_t)insn_disp(i) + c->r[i->base] + (c->r[insn_index(i)] << insn_scale(i));
}

/* ... with the displacement from v (insn_v_disp_ok) */
static inline uint64_t insn_offset_v(const struct cpu *c, const struct insn *i)
{
	return (uint64_t)(int64_t)i->v + c->r[i->base] + (c->r[insn_index(i)] << insn_scale(i));
}

/* The displacement is v, sign-extended, as far as the address size
 * tells: a 32-bit address (truncated) always, a 64-bit one (RIP-relative
 * ones as decode.c resolves them, before the specialisers) when it fits.
 * Only then the shapes that read v (insn_ea_bd, insn_ea_flat*) are
 * chosen. */
static inline bool insn_v_disp_ok(const struct insn *i)
{
	int64_t d = insn_disp(i);

	return insn_cold(i)->asz != 8 || d == (int64_t)(int32_t)d;
}

/* The fast forms' address size is the mode's: one mask (cpu.amask). */
static inline uint64_t cpu_mode_amask(enum cpu_mode m)
{
	return m == CPU_MODE_64 ? ~0ull : 0xffffffffull;
}

/* A fast form names itself in cpu.cur before it can fault (exec.c,
 * sync_insn_rip): the dispatch does not store it per instruction, so
 * every fast form that accesses memory does, here for memory operands,
 * by itself for stack accesses (PUSH/POP, CALL/RET). */
static inline uint64_t insn_ea_fast(struct cpu *c, const struct insn *i)
{
	c->cur = i;
	return (insn_offset_fast(c, i) + c->base[insn_seg(i)]) & c->amask;
}

/* A memory operand without an index register (base + disp: stack slots,
 * structure fields, RIP-relative ones once resolved) skips the index's
 * loads and shift: the memory fast forms come in both shapes, defined
 * once by DEF(..., suffix, address function) and chosen by EA_PICK. */
static inline uint64_t insn_ea_bd(struct cpu *c, const struct insn *i)
{
	c->cur = i;
	return ((uint64_t)(int64_t)i->v + c->r[i->base] + c->base[insn_seg(i)]) & c->amask;
}

/* ... and through a segment whose base is 0 (insn.flat: any but FS/GS in
 * 64-bit mode; in 32-bit mode one whose base was 0 at decode time — a
 * base becoming non-zero drops the decoded code, segment.c), per mode. */
static inline uint64_t insn_ea_flat32(struct cpu *c, const struct insn *i)
{
	c->cur = i;
	return (uint32_t)((uint64_t)(int64_t)i->v + c->r[i->base]);
}

/* ... and the flat-32 shape's commonest base, the stack pointer (i386's
 * spill slots): the register at a fixed offset, no base field to load
 * first (the host is load-bound on spill code). Only the forms whose
 * specialiser asks insn_ea_sp32_ok have it (MOV loads and stores). */
static inline uint64_t insn_ea_sp32(struct cpu *c, const struct insn *i)
{
	c->cur = i;
	return (uint32_t)((uint64_t)(int64_t)i->v + c->r[R_SP]);
}

static inline uint64_t insn_ea_flat64(struct cpu *c, const struct insn *i)
{
	c->cur = i;
	return (uint64_t)(int64_t)i->v + c->r[i->base];
}

/* ... and with an index, flat in 64-bit mode with a 64-bit address
 * (CPython's indexed loads, 'mov (%rax,%rdx,8),%rcx'): no segment base,
 * no mask. Not one of EA_SHAPES (a fifth shape would multiply every
 * shaped form): the few forms that have it pick it with EA_PICK_IX. */
static inline uint64_t insn_ea_flat64_ix(struct cpu *c, const struct insn *i)
{
	c->cur = i;
	return insn_offset_v(c, i);
}

/* ... and with an index, flat in 32-bit mode (i386's indexed operands,
 * the SHA-256 round's 'add -0x5b07c(%esi,%ebp,8),%edx'): the sum
 * truncated once, no segment base, no mask. Only reg op= memory of 32
 * bits has it (ADD SUB AND OR XOR: ALU_RM_FX32 in alu.c). */
static inline uint64_t insn_ea_flat32_ix(struct cpu *c, const struct insn *i)
{
	c->cur = i;
	return (uint32_t)insn_offset_v(c, i);
}

/* 67h in 64-bit mode (x32 code's addr32 operands): the offset is
 * computed in 32 bits and zero-extended, then FS/GS's base is added (SDM
 * vol. 1, 3.3.7). Of the shapes only flat 32 computes that (no index, a
 * segment of base 0: (uint32_t)(disp + base)); insn_ea_fast/insn_ea_bd
 * and insn_offset_fast mask with the mode's amask, after the base, so
 * decode.c's specialise lets these operands reach only the specialisers
 * that pick by ea_shape, and those forms built on the any-address
 * helpers refuse them (insn_addr32_in_64). In 32-bit mode 67h makes
 * 16-bit addresses, which no fast form takes. */
static inline bool insn_addr32_in_64(const struct insn *i)
{
	return insn_cold(i)->mod != 3 && insn_cold(i)->asz == 4 && (insn_cold(i)->pfx & PFX_ASZ);
}

#define EA_SHAPES(DEF, ...)                                                               \
	DEF(__VA_ARGS__, , insn_ea_fast) DEF(__VA_ARGS__, _bd, insn_ea_bd)               \
	DEF(__VA_ARGS__, _f32, insn_ea_flat32) DEF(__VA_ARGS__, _f64, insn_ea_flat64)
enum { EA_ANY, EA_BD, EA_FLAT32, EA_FLAT64, EA_SHAPE_COUNT };

static inline unsigned ea_shape(const struct insn *i)
{
	if (insn_index(i) != GREG_NONE || !insn_v_disp_ok(i))
		return EA_ANY;
	if (!insn_cold(i)->flat)
		return EA_BD;
	return insn_cold(i)->asz == 8 ? EA_FLAT64 : EA_FLAT32;
}

#define EA_PICK(i, form) ((const insn_exec[]){ form, form##_bd, form##_f32, form##_f64 }[ea_shape(i)])

/* An indexed operand through a flat segment with a 64-bit address (not
 * 67h: insn_addr32_in_64; in 32-bit mode asz is 4): insn_ea_flat64_ix. */
static inline bool ea_flat64_ix(const struct insn *i)
{
	return insn_index(i) != GREG_NONE && insn_cold(i)->flat && insn_cold(i)->asz == 8 &&
	       insn_v_disp_ok(i);
}

/* An indexed operand through a flat segment with a 32-bit address in
 * 32-bit mode (decode.c gives 67h operands in 64-bit mode no indexed
 * fast form): insn_ea_flat32_ix. */
static inline bool ea_flat32_ix(const struct insn *i)
{
	return insn_index(i) != GREG_NONE && insn_cold(i)->flat && insn_cold(i)->asz == 4;
}

#define EA_PICK_IX(i, form) (ea_flat64_ix(i) ? form##_fx64 : EA_PICK(i, form))
/* ... and the flat-32 indexed one too (i386's arrays) */
#define EA_PICK_IX2(i, form) (ea_flat32_ix(i) ? form##_fx32 : EA_PICK_IX(i, form))

static inline bool insn_ea_sp32_ok(const struct insn *i)
{
	return ea_shape(i) == EA_FLAT32 && i->base == R_SP;
}

/* Self-modifying code (cache.c) and guest memory isolation share the
 * guest page map (mm.h, docs/isolation.md): a byte per 4 KiB page, one
 * table per GiB. The CPU sets MM_PAGE_CODE when an instruction on the
 * page is decoded; stores after which the bit is found drop the decoded
 * page and make the run loop resynchronise before the next instruction. */
void code_written(uint64_t addr);

static inline bool code_map_hit(uint64_t addr)
{
	const uint8_t *m = mm_page_map[(addr >> 30) & (MM_PAGE_MAP_L1 - 1)];

	return __builtin_expect(m != NULL, 1) &&
	       __builtin_expect((m[(addr >> 12) & (MM_PAGE_MAP_PAGES - 1)] & MM_PAGE_CODE) != 0, 0);
}

/* After a store of len bytes at addr (len <= 4 KiB). */
void code_write_slow(uint64_t addr, uint64_t len);

/* The decoded-code check after a store whose destination the isolation
 * check has passed (store_guard): the common store (no decoded code on
 * its page, within one page) makes no call. */
static inline void code_write_check(uint64_t addr, uint64_t len)
{
	if (__builtin_expect(code_map_hit(addr) || (addr & 4095) + len > 4096, 0))
		code_write_slow(addr, len);
}

/* A guest store may go straight to the host as far as its page says: the
 * page is the guest's (not PROT_NONE) and holds no decoded code. One
 * table load and one byte compare: the decoded-code test every store made
 * before, with "not the guest's" folded into the same byte. Alone for
 * the callers that know their stores stay on addr's page (the PUSH runs'
 * page test). */
static inline __attribute__((always_inline)) bool store_page_plain(uint64_t addr)
{
	/* An address the compiler knows to be 32-bit (zero-extended: the
	 * flat-32 shape, insn_ea_flat32) reads the low 4 GiB's flat map, one
	 * load instead of two dependent ones and a NULL test */
	if (__builtin_constant_p(addr >> 32) && (addr >> 32) == 0)
		return __builtin_expect(mm_page_map_low[addr >> 12] == MM_PAGE_GUEST, 1);
	/* any other address reads the flat map: one load that depends on it */
	return __builtin_expect(mm_page_flat.map[(addr >> 12) & mm_page_flat.mask] == MM_PAGE_GUEST, 1);
}

/* A guest store of sz bytes (a power of two up to 16) at addr may go
 * straight to the host: its page is plain and the store stays on it (an
 * aligned one always does). */
static inline bool store_plain(uint64_t addr, unsigned sz)
{
	return store_page_plain(addr) &&
	       __builtin_expect((addr & (sz - 1)) == 0 || (addr & 4095) + sz <= 4096, 1);
}

/* The rest of the isolation check (cache.c), for len bytes (<= 4 KiB)
 * at addr: a page the map does not call the guest's is asked of the VMA
 * list (cpu.mm); memory that is not the guest's at all raises the page
 * fault a store to unmapped memory raises natively (SEGV_MAPERR at the
 * first byte outside), with nothing stored. A guest page that is
 * PROT_NONE or read-only passes: the host's fault on the store itself
 * says SEGV_ACCERR. Without an address space (cpu.mm NULL: unit tests)
 * everything passes. */
void store_guard_slow(uint64_t addr, uint64_t len);

static inline void store_guard(uint64_t addr, uint64_t len)
{
	const uint8_t *m = mm_page_map[(addr >> 30) & (MM_PAGE_MAP_L1 - 1)];

	if (__builtin_expect(m == NULL || (addr & 4095) + len > 4096 ||
				     !(m[(addr >> 12) & (MM_PAGE_MAP_PAGES - 1)] & MM_PAGE_GUEST), 0))
		store_guard_slow(addr, len);
}

/* Bulk copies (memmove/memset fast paths) avoid the null page: C says
 * they never see address 0; the element loop then faults there. */
#define CODE_NULL_PAGE 4096u

/* Alignment check (#AC): cpu_tl_ac is true while this thread interprets
 * a CPU whose EFLAGS.AC is set (run() loads it, POPF/IRET update it, run()
 * clears it on the way out). The address is tested first: an aligned
 * access (nearly all) costs a test and a predicted branch, a byte access
 * nothing; only a misaligned one reads the thread-local flag.
 * cpu_ac_fault stops the run with VEC_AC (exec.c). */
/* initial-exec: the objects are also built -fPIC for libsysgate.so, whose
 * default TLS access is a call (every handler would save registers). */
extern __thread bool cpu_tl_ac __attribute__((tls_model("initial-exec")));
/* True while this thread decodes guest code: a host fault then is an
 * instruction fetch (cpu_fault.fetch). */
extern __thread bool cpu_tl_fetch __attribute__((tls_model("initial-exec")));
__attribute__((noreturn, cold)) void cpu_ac_fault(void);

static inline void ac_check(uint64_t addr, unsigned align)
{
	if (__builtin_expect((addr & (align - 1)) != 0, 0) && __builtin_expect(cpu_tl_ac, 0))
		cpu_ac_fault();
}

/* Guest loads and stores are plain host moves, written in asm: the guest
 * may touch address 0 or anything else, and the fault handler, not the C
 * compiler's (or a sanitizer's) idea of valid pointers, decides. */
static inline uint64_t mem_load(uint64_t addr, unsigned sz)
{
	const void *p = g2h(addr);
	uint64_t v;

	switch (sz) {
	case 1: __asm__ volatile("movzbl (%1), %k0" : "=r"(v) : "r"(p) : "memory"); break;
	case 2: __asm__ volatile("movzwl (%1), %k0" : "=r"(v) : "r"(p) : "memory"); break;
	case 4: __asm__ volatile("movl (%1), %k0" : "=r"(v) : "r"(p) : "memory"); break;
	default: __asm__ volatile("movq (%1), %0" : "=r"(v) : "r"(p) : "memory"); break;
	}
	return v;
}

/* The host store alone: callers have checked (store_plain, store_guard). */
static inline void mem_store_nocheck(uint64_t addr, unsigned sz, uint64_t v)
{
	void *p = g2h(addr);

	switch (sz) {
	case 1: __asm__ volatile("movb %b1, (%0)" : : "r"(p), "q"(v) : "memory"); break;
	case 2: __asm__ volatile("movw %w1, (%0)" : : "r"(p), "r"(v) : "memory"); break;
	case 4: __asm__ volatile("movl %k1, (%0)" : : "r"(p), "r"(v) : "memory"); break;
	default: __asm__ volatile("movq %1, (%0)" : : "r"(p), "r"(v) : "memory"); break;
	}
}

/* A store that is not plain (cache.c): isolation check, store, decoded
 * code; one call with nothing live across it in the caller. */
void mem_store_slow(uint64_t addr, unsigned sz, uint64_t v);

static inline void mem_store(uint64_t addr, unsigned sz, uint64_t v)
{
	if (__builtin_expect(store_plain(addr, sz), 1))
		mem_store_nocheck(addr, sz, v);
	else
		mem_store_slow(addr, sz, v);
}

/* The data accesses of sz 1, 2, 4 or 8 bytes: alignment-checked. */
static inline uint64_t mem_read(uint64_t addr, unsigned sz)
{
	ac_check(addr, sz);
	return mem_load(addr, sz);
}

static inline void mem_write(uint64_t addr, unsigned sz, uint64_t v)
{
	ac_check(addr, sz);
	mem_store(addr, sz, v);
}

/* The fast forms' accesses: no #AC test. They are chosen only while the
 * CPU's EFLAGS.AC is clear (decode.c), and the cache drops all its code
 * when AC changes (cache_sync; POPF and IRET mark the cache dirty), so
 * with AC set every access goes through the table handlers' mem_read and
 * mem_write: a test and a branch less per access on the common path. */
static inline uint64_t mem_read_fast(uint64_t addr, unsigned sz)
{
	return mem_load(addr, sz);
}

/* ... of 4 or 8 bytes whose address the compiler may fold into the host
 * load (a register + a constant: a POP run's words, without an LEA
 * each); the operand a byte array, which no sanitizer checks for
 * alignment. */
static inline uint64_t mem_read_fast_folded(uint64_t addr, unsigned sz)
{
	uint64_t v;

	if (sz == 4)
		__asm__ volatile("movl %1, %k0" : "=r"(v) : "m"(*(const char(*)[4])g2h(addr)) : "memory");
	else
		__asm__ volatile("movq %1, %0" : "=r"(v) : "m"(*(const char(*)[8])g2h(addr)) : "memory");
	return v;
}

/* ... and the store, after store_plain (cache.h, EXEC_STORE_OR_GENERIC). */
static inline void mem_write_nocheck(uint64_t addr, unsigned sz, uint64_t v)
{
	mem_store_nocheck(addr, sz, v);
}

typedef uint8_t guest_bytes16 __attribute__((vector_size(16), aligned(1)));

/* 16 bytes (XMM operands), unaligned: no #AC (docs/cpu.md). One host
 * MOVDQU, as the hardware's load: one across into a page it may not read
 * faults at that page's first byte, as two 8-byte loads did. */
static inline void mem_read16(uint64_t addr, void *out)
{
	guest_bytes16 v;

	__asm__ volatile("movdqu (%1), %0" : "=x"(v) : "r"(g2h(addr)) : "memory");
	memcpy(out, &v, 16);
}

/* One host 16-byte store, as the hardware's: one that crosses into a page
 * it may not write writes nothing and faults at that page's first byte
 * (two 8-byte stores wrote the first half). In asm, like every guest
 * access (address 0 is the guest's to use); the isolation check before,
 * the decoded-code check after, as every guest store. */

static inline void mem_store16_nocheck(uint64_t addr, const void *in) /* after store_plain */
{
	guest_bytes16 v;

	memcpy(&v, in, 16);
	__asm__ volatile("movdqu %1, (%0)" : : "r"(g2h(addr)), "x"(v) : "memory");
}

static inline void mem_write16(uint64_t addr, const void *in)
{
	store_guard(addr, 16);
	mem_store16_nocheck(addr, in);
	code_write_check(addr, 16);
}

/* Fault now if a store to the byte at addr would: a locked OR of 0 is a
 * write access to the host (the same fault, si_addr and error code as the
 * store) that leaves the byte as it is, atomically, whatever other
 * threads store there meanwhile. For stores wider than one host store
 * (32-byte, masked): each page they touch is probed at its first byte
 * they write, in address order, before anything is written, so a fault
 * leaves memory unchanged and names the byte the hardware names. The
 * caller has passed store_guard for the byte. */
static inline void store_probe(uint64_t addr)
{
	__asm__ volatile("lock orb $0, (%0)" : : "r"(g2h(addr)) : "memory");
}

/* Bulk guest copies (x87 environments, FXSAVE images): REP MOVSB in asm,
 * so neither C's rules (address 0) nor a sanitizer's interceptor judge the
 * guest address; a fault is the guest's like any access. Writes (n <= 4
 * KiB) go a page at a time: a page that is not the guest's faults with
 * the part before it written, as the host's REP MOVSB leaves an unmapped
 * one; then the decoded-code check. */
static inline void guest_read(void *dst, uint64_t addr, size_t n)
{
	const void *src = g2h(addr);

	__asm__ volatile("rep movsb" : "+D"(dst), "+S"(src), "+c"(n) : : "memory");
}

static inline void guest_write(uint64_t addr, const void *src, size_t n)
{
	while (n) {
		size_t part = 4096 - (addr & 4095) < n ? 4096 - (addr & 4095) : n, left = part;
		void *dst = g2h(addr);

		store_guard(addr, part);
		__asm__ volatile("rep movsb" : "+D"(dst), "+S"(src), "+c"(left) : : "memory");
		code_write_check(addr, part);
		addr += part;
		n -= part;
	}
}

/* Atomic compare-and-swap of sz bytes at addr (LOCK-prefixed forms; guest
 * threads are host threads). On failure *expected is the current value. */
static inline bool mem_cas(uint64_t addr, unsigned sz, uint64_t *expected, uint64_t desired)
{
	void *p = g2h(addr);
	bool ok;

	ac_check(addr, sz);
	store_guard(addr, sz); /* a failed compare writes too */
	switch (sz) {
	case 1: {
		uint8_t e = (uint8_t)*expected;
		ok = __atomic_compare_exchange_n((uint8_t *)p, &e, (uint8_t)desired, false,
						 __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
		*expected = e;
		break;
	}
	case 2: {
		uint16_t e = (uint16_t)*expected;
		ok = __atomic_compare_exchange_n((uint16_t *)p, &e, (uint16_t)desired, false,
						 __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
		*expected = e;
		break;
	}
	case 4: {
		uint32_t e = (uint32_t)*expected;
		ok = __atomic_compare_exchange_n((uint32_t *)p, &e, (uint32_t)desired, false,
						 __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
		*expected = e;
		break;
	}
	default:
		ok = __atomic_compare_exchange_n((uint64_t *)p, expected, desired, false,
						 __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
		break;
	}
	if (ok)
		code_write_check(addr, sz);
	return ok;
}

/* r/m operand of size sz: register (byte registers resolved) or memory. */
static inline uint64_t rm_read(struct cpu *c, const struct insn *i, unsigned sz)
{
	if (insn_cold(i)->mod == 3)
		return reg_get(c, sz == 1 ? insn_rm8(i) : i->rm, sz);
	return mem_read(insn_ea(c, i), sz);
}

static inline void rm_write(struct cpu *c, const struct insn *i, unsigned sz, uint64_t v)
{
	if (insn_cold(i)->mod == 3)
		reg_set(c, sz == 1 ? insn_rm8(i) : i->rm, sz, v);
	else
		mem_write(insn_ea(c, i), sz, v);
}

/* Read-modify-write without LOCK: the address is computed once. */
static inline uint64_t rmw_load(struct cpu *c, const struct insn *i, unsigned sz, uint64_t *ea)
{
	if (insn_cold(i)->mod == 3)
		return reg_get(c, sz == 1 ? insn_rm8(i) : i->rm, sz);
	*ea = insn_ea(c, i);
	return mem_read(*ea, sz);
}

static inline void rmw_store(struct cpu *c, const struct insn *i, unsigned sz, uint64_t ea, uint64_t v)
{
	if (insn_cold(i)->mod == 3)
		reg_set(c, sz == 1 ? insn_rm8(i) : i->rm, sz, v);
	else
		mem_write(ea, sz, v);
}

/* Stack: 64-bit mode uses RSP, 32-bit mode ESP (flat SS). */
static inline uint64_t stack_addr(const struct cpu *c, uint64_t sp)
{
	return c->mode == CPU_MODE_64 ? sp : (uint32_t)sp;
}

static inline void push(struct cpu *c, unsigned sz, uint64_t v)
{
	uint64_t sp = c->r[R_SP] - sz;

	mem_write(stack_addr(c, sp), sz, v);
	if (c->mode == CPU_MODE_64)
		c->r[R_SP] = sp;
	else
		reg_set(c, R_SP, 4, sp);
}

static inline uint64_t pop(struct cpu *c, unsigned sz)
{
	uint64_t v = mem_read(stack_addr(c, c->r[R_SP]), sz);

	if (c->mode == CPU_MODE_64)
		c->r[R_SP] += sz;
	else
		reg_set(c, R_SP, 4, c->r[R_SP] + sz);
	return v;
}

/* Branch target: 32-bit mode and 16-bit operand size truncate. */
static inline void jump_to(struct cpu *c, const struct insn *i, uint64_t target)
{
	if (insn_cold(i)->osz == 2)
		target &= 0xffff;
	else if (c->mode == CPU_MODE_32)
		target = (uint32_t)target;
	c->rip = target;
}

/* ---- XMM operands ---- */

/* 16-byte loads/stores of the r/m operand; aligned forms raise #GP on a
 * misaligned address as the hardware does. Return false if they faulted. */
static inline bool xmm_rm_load(struct cpu *c, const struct insn *i, cpu_xmm *out, bool aligned)
{
	if (insn_cold(i)->mod == 3) {
		*out = c->xmm[i->rm];
		return true;
	}
	uint64_t a = insn_ea(c, i);
	if (aligned && (a & 15)) {
		cpu_raise_addr(c, VEC_GP, a);
		return false;
	}
	mem_read16(a, out);
	return true;
}

static inline bool xmm_rm_store(struct cpu *c, const struct insn *i, const cpu_xmm *v, bool aligned)
{
	if (insn_cold(i)->mod == 3) {
		c->xmm[i->rm] = *v;
		return true;
	}
	uint64_t a = insn_ea(c, i);
	if (aligned && (a & 15)) {
		cpu_raise_addr(c, VEC_GP, a);
		return false;
	}
	mem_write16(a, v);
	return true;
}

/* Low 64 or 32 bits of the r/m operand (register: the low lane). Not
 * alignment-checked: SSE-heavy loops pay for no test (docs/cpu.md). */
static inline uint64_t xmm_rm_read64(struct cpu *c, const struct insn *i)
{
	return insn_cold(i)->mod == 3 ? c->xmm[i->rm].q[0] : mem_load(insn_ea(c, i), 8);
}

static inline uint32_t xmm_rm_read32(struct cpu *c, const struct insn *i)
{
	return insn_cold(i)->mod == 3 ? c->xmm[i->rm].d[0] : (uint32_t)mem_load(insn_ea(c, i), 4);
}

/* ---- lazy flags (flags.c) ----
 * Arithmetic records its kind, size, operands and result; bits are computed
 * when read. FL_NONE means cpu->lf.rf holds every bit. */
enum lf_op {
	FL_NONE,
	FL_ADD, FL_ADC, FL_SUB, FL_SBB, /* b is the source; aux = carry in */
	FL_LOGIC,                       /* CF = OF = AF = 0 */
	FL_INC, FL_DEC,                 /* CF kept in rf */
	FL_RESCO,                       /* ZF/SF/PF from res; CF/OF in aux; AF 0 */
	/* No record: a flag-free ALU twin ran, and the flags are its own,
	 * computed only should a fault or stop see them (lflive.c,
	 * lf_rebuild). No flag reader ever finds it. */
	FL_DEFER,
};
/* Or'ed into lf.op: CF and OF are lf.cfof, not the record's (rotates
 * change only those two; the record stays lazy). Any new record clears it. */
#define FL_CFOF 0x100u
/* Or'ed into lf.op by INC/DEC's deferring twin (lflive.c): the record (CF)
 * is the writer's before it, the rest INC/DEC's own, recorded from its
 * register only should a fault or stop see them (lf_rebuild). No flag
 * reader ever finds it. */
#define FL_INCDEC_DEFER 0x200u

#define FL_CF 0x0001ull
#define FL_PF 0x0004ull
#define FL_AF 0x0010ull
#define FL_ZF 0x0040ull
#define FL_SF 0x0080ull
#define FL_TF 0x0100ull
#define FL_IF 0x0200ull
#define FL_DF 0x0400ull
#define FL_OF 0x0800ull
#define FL_AC 0x40000ull
#define FL_ARITH (FL_CF | FL_PF | FL_AF | FL_ZF | FL_SF | FL_OF)

static inline void flags_set(struct cpu *c, enum lf_op op, unsigned sz,
			     uint64_t res, uint64_t a, uint64_t b)
{
	c->lf.op = op;
	c->lf.size = sz;
	c->lf.res = res & size_mask(sz);
	c->lf.a = a & size_mask(sz);
	c->lf.b = b & size_mask(sz);
}

/* The fast forms' record: operands already of the size; LOGIC records
 * leave lf.a/lf.b alone (nothing reads them for that kind). */
static inline void flags_record(struct cpu *c, unsigned kind, unsigned sz, uint64_t res,
				uint64_t a, uint64_t b)
{
	c->lf.op = kind;
	c->lf.size = sz;
	c->lf.res = res;
	if (kind != FL_LOGIC) {
		c->lf.a = a;
		c->lf.b = b;
	}
}

/* CF/OF given, the rest from res (shifts, multiplies). */
static inline void flags_set_resco(struct cpu *c, unsigned sz, uint64_t res, bool cf, bool of)
{
	c->lf.op = FL_RESCO;
	c->lf.size = sz;
	c->lf.res = res & size_mask(sz);
	c->lf.aux = (cf ? FL_CF : 0) | (of ? FL_OF : 0);
}

/* All six arithmetic flags given, no record (BMI's: PF and AF 0, which
 * no record kind leaves): what flags_put(c, FL_ARITH, bits) does, inline
 * (the other bits of lf.rf are the current ones whatever the record). */
static inline void flags_put_arith(struct cpu *c, uint64_t bits)
{
	c->lf.rf = (c->lf.rf & ~FL_ARITH) | bits;
	c->lf.op = FL_NONE;
}

/* Set CF and OF only (rotates), keeping the other flags lazy. */
static inline void flags_set_cf_of(struct cpu *c, bool cf, bool of)
{
	uint32_t v = (cf ? (uint32_t)FL_CF : 0) | (of ? (uint32_t)FL_OF : 0);

	if (c->lf.op == FL_NONE) {
		c->lf.rf = (c->lf.rf & ~(FL_CF | FL_OF)) | v;
	} else {
		c->lf.op |= FL_CFOF;
		c->lf.cfof = v;
	}
}

/* Materialise and return the arithmetic bits | the rest of RFLAGS. */
uint64_t flags_get(const struct cpu *c);
/* Replace the arithmetic bits (mask) by value; the lazy state is dropped. */
void flags_put(struct cpu *c, uint64_t mask, uint64_t value);
/* CF of the records flags_cf does not read inline (CF/OF overlay, rest). */
bool flags_cf_slow(struct cpu *c);
/* POPF/IRET: the user-changeable bits of v (osz 2: the low 16 only). */
void flags_load_user(struct cpu *c, uint64_t v, unsigned osz);
/* CF of the common records (INC/DEC keep CF); any other sets *slow
 * (false returned), for the caller to take flags_cf_slow or its table
 * handler out of line (a call in a fast form gives it a frame). */
static inline __attribute__((always_inline)) bool flags_cf_inline(const struct cpu *c, bool *slow)
{
	switch (c->lf.op) {
	case FL_NONE:
	case FL_INC:
	case FL_DEC:
		return c->lf.rf & FL_CF;
	case FL_LOGIC:
		return false;
	case FL_SUB:
		return c->lf.a < c->lf.b;
	case FL_ADD:
		return c->lf.res < c->lf.a;
	default:
		*slow = true;
		return false;
	}
}

/* CF, the common records inline. */
static inline bool flags_cf(struct cpu *c)
{
	bool slow = false, cf = flags_cf_inline(c, &slow);

	return slow ? flags_cf_slow(c) : cf;
}

/* Condition code cc (0..15, as in Jcc/SETcc/CMOVcc). */
bool flags_cond(struct cpu *c, unsigned cc);

/* Condition cc of materialised bits f. */
static inline bool flags_cond_bits(uint64_t f, unsigned cc)
{
	bool r;

	switch (cc >> 1) {
	case 0: r = f & FL_OF; break;
	case 1: r = f & FL_CF; break;
	case 2: r = f & FL_ZF; break;
	case 3: r = f & (FL_CF | FL_ZF); break;
	case 4: r = f & FL_SF; break;
	case 5: r = f & FL_PF; break;
	case 6: r = !(f & FL_SF) != !(f & FL_OF); break;
	default: r = (f & FL_ZF) || (!(f & FL_SF) != !(f & FL_OF)); break;
	}
	return r ^ (cc & 1);
}

/* flags_cond inlined for the common records: CF, ZF, SF and OF straight
 * from the record (with a constant cc only those the condition needs);
 * PF, ADC/SBB and rotate overlays go the long way: *slow set (false
 * returned), for the caller to call flags_cond, a tail call away from
 * its hot path where it would otherwise need a frame (cond.c's Jcc). */
static inline __attribute__((always_inline)) bool flags_test_inline(struct cpu *c, unsigned cc, bool *slow)
{
	uint32_t op = c->lf.op;
	uint64_t res = c->lf.res, a = c->lf.a, b = c->lf.b, sb;
	unsigned sh = 64 - c->lf.size * 8; /* the operands' sign bit to bit 63 */
	bool cf, zf, sf, of, r;

	/* CMP/SUB and TEST/AND...: the compare itself (the record holds the
	 * operands truncated to their size) */
	if (op == FL_SUB) {
		switch (cc >> 1) {
		case 1: return (a < b) ^ (cc & 1);
		case 2: return (a == b) ^ (cc & 1);
		case 3: return (a <= b) ^ (cc & 1);
		case 6: return ((int64_t)(a << sh) < (int64_t)(b << sh)) ^ (cc & 1);
		case 7: return ((int64_t)(a << sh) <= (int64_t)(b << sh)) ^ (cc & 1);
		default: break;
		}
	} else if (op == FL_LOGIC) {
		switch (cc >> 1) {
		case 0:
		case 1: return cc & 1;
		case 2:
		case 3: return (res == 0) ^ (cc & 1);
		case 4:
		case 6: return ((int64_t)(res << sh) < 0) ^ (cc & 1);
		case 7: return ((int64_t)(res << sh) <= 0) ^ (cc & 1);
		default: break;
		}
	}
	if (op == FL_NONE)
		return flags_cond_bits(c->lf.rf, cc);
	if ((cc >> 1) == 5 || op > FL_RESCO || op == FL_ADC || op == FL_SBB) {
		*slow = true;
		return false;
	}
	sb = 1ull << (c->lf.size * 8 - 1);
	zf = res == 0;
	sf = (res & sb) != 0;
	switch (op) {
	case FL_SUB:
		cf = a < b;
		of = ((a ^ b) & (a ^ res) & sb) != 0;
		break;
	case FL_ADD:
		cf = res < a;
		of = ((a ^ res) & (b ^ res) & sb) != 0;
		break;
	case FL_INC:
		cf = c->lf.rf & FL_CF;
		of = ((a ^ res) & (b ^ res) & sb) != 0;
		break;
	case FL_DEC:
		cf = c->lf.rf & FL_CF;
		of = ((a ^ b) & (a ^ res) & sb) != 0;
		break;
	case FL_RESCO:
		cf = c->lf.aux & FL_CF;
		of = c->lf.aux & FL_OF;
		break;
	default: /* FL_LOGIC */
		cf = of = false;
		break;
	}
	switch (cc >> 1) {
	case 0: r = of; break;
	case 1: r = cf; break;
	case 2: r = zf; break;
	case 3: r = cf || zf; break;
	case 4: r = sf; break;
	case 6: r = sf != of; break;
	default: r = zf || sf != of; break;
	}
	return r ^ (cc & 1);
}

static inline __attribute__((always_inline)) bool flags_test(struct cpu *c, unsigned cc)
{
	bool slow = false, r = flags_test_inline(c, cc, &slow);

	return slow ? flags_cond(c, cc) : r;
}

#endif
