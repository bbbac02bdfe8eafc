/* Superinstructions: two hot fast forms back to back run as one handler
 * (decode time). Straight-line integer code (hashing, compression, the
 * i386 spill loads and stores) is mostly register moves, ALU operations,
 * rotates and flat loads and stores of 7-10 host instructions each, of
 * which the dispatch (advance, jump through the next entry) is two and an
 * indirect branch: a pair runs the first member's unit and the second's
 * (units.h, the same bodies as their single forms) and dispatches once,
 * to the instruction after the second.
 *
 * The members are named by their single forms' exec: the forms the
 * decoder chooses for canned instructions (pair_units, at first use), so
 * a unit is what the specialisers and lflive.c's twins really pick. The
 * second member keeps its own form for when it is reached by a jump;
 * single steps use the table's handlers.
 *
 * When: a form may still change after it is decoded (lflive.c gives a
 * flag writer its flag-free twin when a later writer is decoded; fused.c
 * fuses a compare with the Jcc after it). No later pass reaches back past
 * an instruction that reads the flags, writes them all, or touches memory
 * without being twinned or a MOV load or store (lflive's walk stops there,
 * lf_walk_passes; fusion looks one
 * back), so once such a barrier is decoded everything before it is
 * final: the run of single units that ends before it is paired, greedily
 * from its start. A barrier's own pairing waits for the next barrier. */
#include <pthread.h>
#include <string.h>
#include "cpu/units.h"

/* The members: name, the mode and bytes of an instruction whose fast form
 * is the unit's single form, whether it is that form's flag-free twin.
 * By measured weight (busybox sha256sum i386/x86_64, own sha256, qsort,
 * busybox gzip). */
#define PAIR_UNITS(X, ...)                                                               \
	X(mov_rr32, 64, "\x89\xc8", 0, __VA_ARGS__)          /* mov %ecx,%eax */                 \
	X(mov_rr64, 64, "\x48\x89\xc8", 0, __VA_ARGS__)      /* mov %rcx,%rax */                 \
	X(xor_rr32, 64, "\x31\xc8", 0, __VA_ARGS__)          /* xor %ecx,%eax */                 \
	X(xor_rr32_nf, 64, "\x31\xc8", 1, __VA_ARGS__)                                           \
	X(add_rr32, 64, "\x01\xc8", 0, __VA_ARGS__)          /* add %ecx,%eax */                 \
	X(add_rr32_nf, 64, "\x01\xc8", 1, __VA_ARGS__)                                           \
	X(and_rr32, 64, "\x21\xc8", 0, __VA_ARGS__)          /* and %ecx,%eax */                 \
	X(and_rr32_nf, 64, "\x21\xc8", 1, __VA_ARGS__)                                           \
	X(ror32_nf, 64, "\xc1\xc8\x06", 1, __VA_ARGS__)      /* ror $6,%eax */                   \
	X(rol32_nf, 64, "\xc1\xc0\x07", 1, __VA_ARGS__)      /* rol $7,%eax */                   \
	X(shr32_nf, 64, "\xc1\xe8\x03", 1, __VA_ARGS__)      /* shr $3,%eax */                   \
	X(not32, 64, "\xf7\xd0", 0, __VA_ARGS__)             /* not %eax */                      \
	X(lea32, 64, "\x8d\x04\x08", 0, __VA_ARGS__)         /* lea (%rax,%rcx),%eax */          \
	X(add_ri64_nf, 64, "\x48\x83\xc0\x08", 1, __VA_ARGS__) /* add $8,%rax */                 \
	X(add_rm32_fx64, 64, "\x03\x04\x88", 0, __VA_ARGS__) /* add (%rax,%rcx,4),%eax */      \
	X(add_rm32_f64, 64, "\x03\x40\x04", 0, __VA_ARGS__)  /* add 4(%rax),%eax */              \
	X(load32_f64, 64, "\x8b\x40\x04", 0, __VA_ARGS__)    /* mov 4(%rax),%eax */              \
	X(store32_f64, 64, "\x89\x40\x04", 0, __VA_ARGS__)   /* mov %eax,4(%rax) */              \
	X(load64_f64, 64, "\x48\x8b\x40\x08", 0, __VA_ARGS__) /* mov 8(%rax),%rax */             \
	X(load32_f32, 32, "\x8b\x40\x04", 0, __VA_ARGS__)    /* mov 4(%eax),%eax */              \
	X(store32_f32, 32, "\x89\x40\x04", 0, __VA_ARGS__)   /* mov %eax,4(%eax) */              \
	X(movzx_b_rr, 64, "\x0f\xb6\xc1", 0, __VA_ARGS__)    /* movzbl %cl,%eax */               \
	X(movsxd_rr, 64, "\x48\x63\xc1", 0, __VA_ARGS__)     /* movslq %ecx,%rax */              \
	X(mov_load8_f64, 64, "\x8a\x40\x04", 0, __VA_ARGS__) /* mov 4(%rax),%al */               \
	X(movzx_w_load, 64, "\x0f\xb7\x04\x48", 0, __VA_ARGS__) /* movzwl (%rax,%rcx,2),%eax */ \
	X(add_rr64, 64, "\x48\x01\xc8", 0, __VA_ARGS__)      /* add %rcx,%rax */                 \
	X(and_ri32, 64, "\x83\xe0\x0f", 0, __VA_ARGS__)      /* and $0xf,%eax */               \
	X(add_ri64, 64, "\x48\x83\xc0\x08", 0, __VA_ARGS__)  /* add $8,%rax */                  \
	X(sub_ri64_nf, 64, "\x48\x83\xe8\x01", 1, __VA_ARGS__) /* sub $1,%rax */              \
	X(add_rm32_fx64_nf, 64, "\x03\x04\x88", 1, __VA_ARGS__) /* add (%rax,%rcx,4),%eax */   \
	X(add_rm32_f64_nf, 64, "\x03\x40\x04", 1, __VA_ARGS__) /* add 4(%rax),%eax */ \
	X(inc64_nf, 64, "\x48\xff\xc0", 1, __VA_ARGS__)     /* inc %rax */                      \
	X(load32_sp32, 32, "\x8b\x44\x24\x04", 0, __VA_ARGS__) /* mov 4(%esp),%eax */       \
	X(store32_sp32, 32, "\x89\x44\x24\x04", 0, __VA_ARGS__) /* mov %eax,4(%esp) */ \
	X(add_rm32_fx32_nf, 32, "\x03\x04\x88", 1, __VA_ARGS__) /* add (%eax,%ecx,4),%eax */ \
	X(add_rm32_f32_nf, 32, "\x03\x40\x04", 1, __VA_ARGS__) /* add 4(%eax),%eax */    \
	X(add_ri32, 64, "\x83\xc0\x08", 0, __VA_ARGS__)    /* add $8,%eax */                   \
	X(add_ri32_nf, 64, "\x83\xc0\x08", 1, __VA_ARGS__)                                      \
	X(sub_ri32_nf, 64, "\x83\xe8\x01", 1, __VA_ARGS__) /* sub $1,%eax */                   \
	X(lea64, 64, "\x48\x8d\x04\x08", 0, __VA_ARGS__)   /* lea (%rax,%rcx),%rax */          \
	X(lea64_bd, 64, "\x48\x8d\x50\x10", 0, __VA_ARGS__) /* lea 0x10(%rax),%rdx */

/* The units' bodies, from the same macros as their single forms (which
 * live in their own files). */
#undef UNIT_FORM
#define UNIT_FORM(NAME)
#define UNIT_ALU_32(NAME, KIND, EXPR, WRITES) UNIT_ALU_REG_SZ(NAME, KIND, EXPR, WRITES, 32, uint32_t, 4)
ALU_FAST_OPS(UNIT_ALU_32)
UNIT_ALU_REG(add, FL_ADD, a + b, 1, ri, 64, uint64_t, 8)
UNIT_ALU_REG(add, FL_ADD, a + b, 1, rr, 64, uint64_t, 8)
UNIT_ALU_REG(sub, FL_SUB, a - b, 1, ri, 64, uint64_t, 8)
#define UNIT_ALU_RM32(NAME, KIND, EXPR, WRITES) \
	EA_SHAPES(UNIT_ALU_RM, NAME, KIND, EXPR, WRITES, 32, uint32_t, 4)
UNIT_ALU_RM32(add, FL_ADD, a + b, 1)
UNIT_ALU_RM(add, FL_ADD, a + b, 1, 32, uint32_t, 4, _fx64, insn_ea_flat64_ix)
UNIT_ALU_RM(add, FL_ADD, a + b, 1, 32, uint32_t, 4, _fx32, insn_ea_flat32_ix)
SHIFT_NF_OPS(UNIT_SHIFT_NF, 32, uint32_t, int32_t)
UNIT_MOV_RR(32)
UNIT_MOV_RR(64)
UNIT_NOT(32)
UNIT_LEA(32)
UNIT_LEA(64)
UNIT_LEA64_BD()
UNIT_MOVZX_B_RR()
UNIT_MOVSXD_RR()
UNIT_INCDEC_NF(inc, 1, 64)
#define PAIR_MOVES(_, SH, EA)                                    \
	UNIT_LOAD(load32, 4, SH, EA) UNIT_LOAD(load64, 8, SH, EA) \
	UNIT_STORE(store32, 4, SH, EA, (uint32_t)c->r[reg_])      \
	UNIT_STORE(store64, 8, SH, EA, c->r[reg_])                     \
	UNIT_LOAD8(SH, EA) UNIT_LOAD(movzx_w_load, 2, SH, EA)
EA_SHAPES(PAIR_MOVES, moves)
UNIT_LOAD(load32, 4, _sp32, insn_ea_sp32)
UNIT_STORE(store32, 4, _sp32, insn_ea_sp32, (uint32_t)c->r[reg_])

enum {
#define UNIT_ENUM(name, mode, bytes, nf, ...) U_##name,
	PAIR_UNITS(UNIT_ENUM, )
	PAIR_UNIT_COUNT
};

/* Every (a, b) of PAIR_UNITS: the list expanded once per first member,
 * by a second expansion deferred past the first (the preprocessor does
 * not expand a macro inside its own expansion). */
#define PAIR_EMPTY()
#define PAIR_DEFER(m) m PAIR_EMPTY()
#define PAIR_EXPAND(...) __VA_ARGS__
#define PAIR_UNITS_AGAIN() PAIR_UNITS
#define PAIR_CROSS(EACH) PAIR_EXPAND(PAIR_UNITS(PAIR_CROSS_ROW, EACH))
#define PAIR_CROSS_ROW(a, ma, ba, nfa, EACH) PAIR_DEFER(PAIR_UNITS_AGAIN)()(PAIR_CROSS_ONE, EACH, a)
#define PAIR_CROSS_ONE(b, mb, bb, nfb, EACH, a) EACH(a, b)

/* Runs i and i + 1 (which i falls through to) and dispatches once. */
#define PAIR_FN(a, b)                                                                     \
	static const struct insn *pair_##a##_##b(struct cpu *c, const struct insn *i)     \
	{                                                                                 \
		const struct insn *left;                                                  \
		if (__builtin_expect(!unit_##a(c, i, &left), 0))                          \
			return left;                                                      \
		if (__builtin_expect(!unit_##b(c, i + 1, &left), 0))                      \
			return left;                                                      \
		return exec_next(c, i + 1);                                               \
	}
PAIR_CROSS(PAIR_FN)

/* Linked pairs: the second member names, in its field rm or reg, the
 * register the first wrote (or stored): `mov %ecx,%esi; ror $6,%esi`,
 * `rol $7,%esi; xor %esi,%edx`, `mov 0xc(%esp),%edi; and %edi,%esi`, what
 * compilers emit for any chain of two-operand operations. Given the first
 * member's register number for it, the compiler keeps the value in a host
 * register from one member to the next instead of loading the field and
 * the guest register again. Each unit: its link field, naming the register
 * it writes (a store: the one it stores), and which of rm and reg it reads
 * (rm, reg, both or none: only those links have linked pairs). */
#define PAIR_LINK_mov_rr32 rm, reg
#define PAIR_LINK_mov_rr64 rm, reg
#define PAIR_LINK_xor_rr32 rm, both
#define PAIR_LINK_xor_rr32_nf rm, both
#define PAIR_LINK_add_rr32 rm, both
#define PAIR_LINK_add_rr32_nf rm, both
#define PAIR_LINK_and_rr32 rm, both
#define PAIR_LINK_and_rr32_nf rm, both
#define PAIR_LINK_ror32_nf rm, rm
#define PAIR_LINK_rol32_nf rm, rm
#define PAIR_LINK_shr32_nf rm, rm
#define PAIR_LINK_not32 rm, rm
#define PAIR_LINK_lea32 reg, none
#define PAIR_LINK_add_ri64_nf rm, rm
#define PAIR_LINK_add_rm32_fx64 reg, reg
#define PAIR_LINK_add_rm32_f64 reg, reg
#define PAIR_LINK_load32_f64 reg, none
#define PAIR_LINK_store32_f64 reg, reg
#define PAIR_LINK_load64_f64 reg, none
#define PAIR_LINK_load32_f32 reg, none
#define PAIR_LINK_store32_f32 reg, reg
#define PAIR_LINK_movzx_b_rr reg, none
#define PAIR_LINK_movsxd_rr reg, rm
#define PAIR_LINK_mov_load8_f64 reg, none
#define PAIR_LINK_movzx_w_load reg, none
#define PAIR_LINK_add_rr64 rm, both
#define PAIR_LINK_and_ri32 rm, rm
#define PAIR_LINK_add_ri64 rm, rm
#define PAIR_LINK_sub_ri64_nf rm, rm
#define PAIR_LINK_add_rm32_fx64_nf reg, reg
#define PAIR_LINK_add_rm32_f64_nf reg, reg
#define PAIR_LINK_inc64_nf rm, rm
#define PAIR_LINK_load32_sp32 reg, none
#define PAIR_LINK_store32_sp32 reg, reg
#define PAIR_LINK_add_rm32_fx32_nf reg, reg
#define PAIR_LINK_add_rm32_f32_nf reg, reg
#define PAIR_LINK_add_ri32 rm, rm
#define PAIR_LINK_add_ri32_nf rm, rm
#define PAIR_LINK_sub_ri32_nf rm, rm
#define PAIR_LINK_lea64 reg, none
#define PAIR_LINK_lea64_bd reg, none
#define PAIR_LINK_FIELD(a) PAIR_LINK_FIELD_(PAIR_LINK_##a)
#define PAIR_LINK_FIELD_(...) PAIR_LINK_FIELD__(__VA_ARGS__)
#define PAIR_LINK_FIELD__(f, reads) PAIR_FIELD_##f
#define PAIR_LINK_READS(b, WHAT, ...) PAIR_LINK_READS_(PAIR_LINK_##b, WHAT, __VA_ARGS__)
#define PAIR_LINK_READS_(...) PAIR_LINK_READS__(__VA_ARGS__)
#define PAIR_LINK_READS__(f, reads, WHAT, ...) PAIR_READS_##reads(WHAT, __VA_ARGS__)
#define PAIR_READS_none(WHAT, ...)
#define PAIR_READS_rm(WHAT, ...) WHAT(__VA_ARGS__, rm)
#define PAIR_READS_reg(WHAT, ...) WHAT(__VA_ARGS__, reg)
#define PAIR_READS_both(WHAT, ...) WHAT(__VA_ARGS__, rm) WHAT(__VA_ARGS__, reg)
enum { PAIR_FIELD_rm, PAIR_FIELD_reg, PAIR_LINK_NONE };
#define PAIR_LINK_rm PAIR_FIELD_rm
#define PAIR_LINK_reg PAIR_FIELD_reg
#define PAIR_LINK_n PAIR_LINK_NONE
/* The second member's rm and reg, x in field F. */
#define PAIR_LINKED_ARGS_rm(x, j) x, (j)->reg
#define PAIR_LINKED_ARGS_reg(x, j) (j)->rm, x

#define PAIR_LINKED_FN(a, b, F)                                                           \
	static const struct insn *pair_##F##_##a##_##b(struct cpu *c, const struct insn *i) \
	{                                                                                 \
		const struct insn *left;                                                  \
		uint8_t x = i->PAIR_LINK_FIELD_NAME(a);                                   \
		if (__builtin_expect(!unit_##a##_at(c, i, &left, i->rm, i->reg), 0))      \
			return left;                                                      \
		if (__builtin_expect(!unit_##b##_at(c, i + 1, &left, PAIR_LINKED_ARGS_##F(x, i + 1)), 0)) \
			return left;                                                      \
		return exec_next(c, i + 1);                                               \
	}
#define PAIR_LINK_FIELD_NAME(a) PAIR_LINK_FIELD_NAME_(PAIR_LINK_##a)
#define PAIR_LINK_FIELD_NAME_(...) PAIR_LINK_FIELD_NAME__(__VA_ARGS__)
#define PAIR_LINK_FIELD_NAME__(f, reads) f
#define PAIR_LINKED_FNS(a, b) PAIR_LINK_READS(b, PAIR_LINKED_FN, a, b)
PAIR_CROSS(PAIR_LINKED_FNS)

/* Triples: three units of straight code, one dispatch (SHA-256 rounds:
 * 39 of the 52 instructions of busybox's x86_64 round are register
 * units; i386's round is spill loads and stores between them), by
 * measured weight; a full cross product like the pairs', N^3 functions
 * of ~110 bytes (docs/performance.md, the profiling build's size). A
 * member that leaves early (a store that is not plain) ends the triple
 * as in a pair. */
#define TRIPLE_UNITS(X, ...)                                                                \
	X(mov_rr32, __VA_ARGS__) X(xor_rr32_nf, __VA_ARGS__) X(add_rr32_nf, __VA_ARGS__)    \
	X(and_rr32_nf, __VA_ARGS__) X(ror32_nf, __VA_ARGS__) X(rol32_nf, __VA_ARGS__)       \
	X(lea32, __VA_ARGS__)                                                               \
	X(load32_sp32, __VA_ARGS__) X(store32_sp32, __VA_ARGS__)

enum {
#define TRIPLE_ENUM(name, ...) T_##name,
	TRIPLE_UNITS(TRIPLE_ENUM, )
	TRIPLE_UNIT_COUNT
};

#define TRIPLE_UNITS_AGAIN() TRIPLE_UNITS
#define TRIPLE_CROSS(EACH) PAIR_EXPAND(PAIR_EXPAND(TRIPLE_UNITS(TRIPLE_CROSS_A, EACH)))
#define TRIPLE_CROSS_A(a, EACH) PAIR_DEFER(TRIPLE_UNITS_AGAIN)()(TRIPLE_CROSS_B, EACH, a)
#define TRIPLE_CROSS_B(b, EACH, a) PAIR_DEFER(PAIR_DEFER(TRIPLE_UNITS_AGAIN))()(TRIPLE_CROSS_C, EACH, a, b)
#define TRIPLE_CROSS_C(c, EACH, a, b) EACH(a, b, c)

/* Runs i, i + 1 and i + 2 (each falling through to the next) and
 * dispatches once; linked as pairs are (L1 between the first and the
 * second, L2 between the second and the third: rm, reg or n for none). */
#define TRIPLE_FN(a, b, c3, L1, L2)                                                       \
	static const struct insn *triple_##L1##_##L2##_##a##_##b##_##c3(struct cpu *c,    \
									const struct insn *i) \
	{                                                                                 \
		const struct insn *left;                                                  \
		uint8_t rm0 = i->rm, reg0 = i->reg, rm1, reg1, x;                         \
		if (__builtin_expect(!unit_##a##_at(c, i, &left, rm0, reg0), 0))          \
			return left;                                                      \
		x = TRIPLE_LINK_VALUE(a, rm0, reg0);                                      \
		rm1 = TRIPLE_PICK_##L1##_rm(x, i[1].rm);                                  \
		reg1 = TRIPLE_PICK_##L1##_reg(x, i[1].reg);                               \
		if (__builtin_expect(!unit_##b##_at(c, i + 1, &left, rm1, reg1), 0))      \
			return left;                                                      \
		x = TRIPLE_LINK_VALUE(b, rm1, reg1);                                      \
		if (__builtin_expect(!unit_##c3##_at(c, i + 2, &left,                     \
						     TRIPLE_PICK_##L2##_rm(x, i[2].rm),   \
						     TRIPLE_PICK_##L2##_reg(x, i[2].reg)), 0)) \
			return left;                                                      \
		(void)x; /* unused when L2 is n */                                        \
		return exec_next(c, i + 2);                                               \
	}
/* A member's rm or reg: x when linked in that field, else its own y. */
#define TRIPLE_PICK_n_rm(x, y) y
#define TRIPLE_PICK_n_reg(x, y) y
#define TRIPLE_PICK_rm_rm(x, y) x
#define TRIPLE_PICK_rm_reg(x, y) y
#define TRIPLE_PICK_reg_rm(x, y) y
#define TRIPLE_PICK_reg_reg(x, y) x
/* The register number in unit a's link field, of its rm and reg. */
#define TRIPLE_LINK_VALUE(a, rm, reg) TRIPLE_LINK_VALUE_(PAIR_LINK_##a, rm, reg)
#define TRIPLE_LINK_VALUE_(...) TRIPLE_LINK_VALUE__(__VA_ARGS__)
#define TRIPLE_LINK_VALUE__(f, reads, rm, reg) TRIPLE_VALUE_##f(rm, reg)
#define TRIPLE_VALUE_rm(rm, reg) rm
#define TRIPLE_VALUE_reg(rm, reg) reg
/* Every link of a triple: EACH(a, b, c3, L1, L2) for L1 among none and
 * what b reads, L2 among none and what c3 reads. */
#define TRIPLE_LINKS(EACH, a, b, c3) TRIPLE_LINKS_B(PAIR_LINK_##b, EACH, a, b, c3)
#define TRIPLE_LINKS_B(...) TRIPLE_LINKS_B_(__VA_ARGS__)
#define TRIPLE_LINKS_B_(f, reads, ...) TRIPLE_B_##reads(__VA_ARGS__)
#define TRIPLE_B_none(EACH, a, b, c3) TRIPLE_LINKS_C(PAIR_LINK_##c3, EACH, a, b, c3, n)
#define TRIPLE_B_rm(EACH, a, b, c3) TRIPLE_B_none(EACH, a, b, c3) TRIPLE_LINKS_C(PAIR_LINK_##c3, EACH, a, b, c3, rm)
#define TRIPLE_B_reg(EACH, a, b, c3) TRIPLE_B_none(EACH, a, b, c3) TRIPLE_LINKS_C(PAIR_LINK_##c3, EACH, a, b, c3, reg)
#define TRIPLE_B_both(EACH, a, b, c3) TRIPLE_B_rm(EACH, a, b, c3) TRIPLE_LINKS_C(PAIR_LINK_##c3, EACH, a, b, c3, reg)
#define TRIPLE_LINKS_C(...) TRIPLE_LINKS_C_(__VA_ARGS__)
#define TRIPLE_LINKS_C_(f, reads, ...) TRIPLE_C_##reads(__VA_ARGS__)
#define TRIPLE_C_none(EACH, a, b, c3, L1) EACH(a, b, c3, L1, n)
#define TRIPLE_C_rm(EACH, a, b, c3, L1) EACH(a, b, c3, L1, n) EACH(a, b, c3, L1, rm)
#define TRIPLE_C_reg(EACH, a, b, c3, L1) EACH(a, b, c3, L1, n) EACH(a, b, c3, L1, reg)
#define TRIPLE_C_both(EACH, a, b, c3, L1) EACH(a, b, c3, L1, n) EACH(a, b, c3, L1, rm) EACH(a, b, c3, L1, reg)
#define TRIPLE_FNS(a, b, c3) TRIPLE_LINKS(TRIPLE_FN, a, b, c3)
TRIPLE_CROSS(TRIPLE_FNS)

/* The single forms the pairs are made of, and the pairs, [first][second];
 * filled at first use (no table of pointers to relocate at every start:
 * docs/performance.md). */
static insn_exec unit_exec[PAIR_UNIT_COUNT];
static insn_exec pair_forms[PAIR_UNIT_COUNT][PAIR_UNIT_COUNT];
/* The linked pairs, [the second's field][first][second], and each unit's
 * link field. */
static insn_exec pair_linked_forms[2][PAIR_UNIT_COUNT][PAIR_UNIT_COUNT];
static uint8_t pair_link_field[PAIR_UNIT_COUNT];
/* The triples, [L1][L2][first][second][third] by TRIPLE_UNITS' order
 * (links: PAIR_LINK_NONE or a PAIR_FIELD_*), and each pair unit's place
 * there (-1: none). */
static insn_exec triple_forms[3][3][TRIPLE_UNIT_COUNT][TRIPLE_UNIT_COUNT][TRIPLE_UNIT_COUNT];
static int8_t triple_of_unit[PAIR_UNIT_COUNT];
static pthread_once_t pairs_once = PTHREAD_ONCE_INIT;
static bool pairs_ready; /* pairs_init has run: no call to pthread_once per barrier */
/* unit_exec by exec pointer (open addressing; the walk asks every entry
 * before a barrier: a scan of the units cost more than the pairs saved
 * on short runs) */
#define UNIT_HASH_SIZE 128
_Static_assert(UNIT_HASH_SIZE >= 2 * PAIR_UNIT_COUNT, "the unit hash stays sparse");
static struct {
	insn_exec exec;
	int unit;
} unit_hash[UNIT_HASH_SIZE];

static unsigned unit_hash_slot(insn_exec e)
{
	return (unsigned)((((uintptr_t)e >> 4) * 0x9e3779b97f4a7c15ull) >> 57) & (UNIT_HASH_SIZE - 1);
}

/* The form the decoder picks for the canned instruction (its flag-free
 * twin if nf), as a CPU of that mode with flat segments would. */
static insn_exec canned_form_in(struct insn *i, unsigned bits, const char *bytes, unsigned n, bool nf)
{
	static struct cpu cpu32, cpu64;
	struct cpu *c = bits == 64 ? &cpu64 : &cpu32;

	c->mode = bits == 64 ? CPU_MODE_64 : CPU_MODE_32;
	if (!insn_decode_canned(i, c, (const uint8_t *)bytes, n))
		return NULL;
	if (!nf)
		return i->exec;
	return insn_cold(i)->lf & LF_TWIN_ALU ? alu_flag_free(i) : insn_cold(i)->lf & LF_TWIN_SHIFT ? shift_flag_free(i) : NULL;
}

static insn_exec canned_form(unsigned bits, const char *bytes, unsigned n, bool nf)
{
	insn_exec e = canned_form_in(insn_scratch_shared_take(), bits, bytes, n, nf);

	insn_scratch_shared_give();
	return e;
}

static void pairs_init(void)
{
#define UNIT_EXEC(name, mode, bytes, nf, ...) \
	unit_exec[U_##name] = canned_form(mode, bytes, sizeof(bytes) - 1, nf);
	PAIR_UNITS(UNIT_EXEC, )
#define PAIR_SET(a, b) pair_forms[U_##a][U_##b] = pair_##a##_##b;
	PAIR_CROSS(PAIR_SET)
#define PAIR_LINKED_SET1(a, b, F) pair_linked_forms[PAIR_FIELD_##F][U_##a][U_##b] = pair_##F##_##a##_##b;
#define PAIR_LINKED_SET(a, b) PAIR_LINK_READS(b, PAIR_LINKED_SET1, a, b)
	PAIR_CROSS(PAIR_LINKED_SET)
#define PAIR_LINK_SET(name, ...) pair_link_field[U_##name] = PAIR_LINK_FIELD(name);
	PAIR_UNITS(PAIR_LINK_SET, )
#define TRIPLE_SET1(a, b, c3, L1, L2) \
	triple_forms[PAIR_LINK_##L1][PAIR_LINK_##L2][T_##a][T_##b][T_##c3] = triple_##L1##_##L2##_##a##_##b##_##c3;
#define TRIPLE_SET(a, b, c3) TRIPLE_LINKS(TRIPLE_SET1, a, b, c3)
	TRIPLE_CROSS(TRIPLE_SET)
	memset(triple_of_unit, -1, sizeof(triple_of_unit));
#define TRIPLE_PLACE(name, ...) triple_of_unit[U_##name] = T_##name;
	TRIPLE_UNITS(TRIPLE_PLACE, )
	for (int u = 0; u < PAIR_UNIT_COUNT; u++) {
		unsigned h = unit_hash_slot(unit_exec[u]);

		if (!unit_exec[u])
			continue;
		while (unit_hash[h].exec && unit_hash[h].exec != unit_exec[u])
			h = (h + 1) & (UNIT_HASH_SIZE - 1);
		if (!unit_hash[h].exec) /* the first of two units with one form */
			unit_hash[h].exec = unit_exec[u], unit_hash[h].unit = u;
	}
	__atomic_store_n(&pairs_ready, true, __ATOMIC_RELEASE);
}

/* The unit whose single form i runs, or -1. */
static int unit_of(const struct insn *i)
{
	unsigned h;

	if ((insn_cold(i)->lf & LF_PAIR_HEAD) || !i->exec)
		return -1;
	for (h = unit_hash_slot(i->exec); unit_hash[h].exec; h = (h + 1) & (UNIT_HASH_SIZE - 1))
		if (unit_hash[h].exec == i->exec)
			return unit_hash[h].unit;
	return -1;
}

/* How i + 1 names the register of i's link field: PAIR_FIELD_rm or
 * PAIR_FIELD_reg where unit b reads that field, else PAIR_LINK_NONE. */
static int pair_link(const struct insn *i, int a, int b)
{
	uint8_t r = pair_link_field[a] == PAIR_FIELD_reg ? i->reg : i->rm;

	if (i[1].rm == r && pair_linked_forms[PAIR_FIELD_rm][a][b])
		return PAIR_FIELD_rm;
	if (i[1].reg == r && pair_linked_forms[PAIR_FIELD_reg][a][b])
		return PAIR_FIELD_reg;
	return PAIR_LINK_NONE;
}

/* At most this many entries are looked at backwards per barrier. */
#define PAIR_WALK_MAX 32

/* Pairs the run of single units that ends before pool[end], all of whose
 * forms are final; returns where it starts. */
static uint32_t pair_one_run(struct insn *pool, uint32_t end, uint32_t *walk)
{
	uint32_t start = end, k;

	/* the run of single units before it (up to a pair head: the head's
	 * second is single still and may head a pair of its own) */
	while (start > 0 && *walk < PAIR_WALK_MAX) {
		const struct insn *j = &pool[start - 1];

		if (unit_of(j) < 0)
			break;
		start--;
		++*walk;
	}
	/* every unit heads a pair with the one after it (pool[k + 1] is
	 * still single when pool[k] is paired): entered at its start, the
	 * run dispatches once per two, as greedy pairs would, and entered in
	 * its middle (a jump to a loop's head) as well */
	for (k = start; k + 1 < end; k++) {
		int a = unit_of(&pool[k]), b, c, l1;

		if (a < 0 || !insn_cold(&pool[k])->seq || (b = unit_of(&pool[k + 1])) < 0)
			continue;
		l1 = pair_link(&pool[k], a, b);
		pool[k].exec = l1 == PAIR_LINK_NONE ? pair_forms[a][b] : pair_linked_forms[l1][a][b];
		/* three when the third is a triple unit too (pool[k + 2] is
		 * before the barrier, so final) */
		if (k + 2 < end && insn_cold(&pool[k + 1])->seq && triple_of_unit[a] >= 0 &&
		    triple_of_unit[b] >= 0 && (c = unit_of(&pool[k + 2])) >= 0 && triple_of_unit[c] >= 0)
			pool[k].exec = triple_forms[l1][pair_link(&pool[k + 1], b, c)][triple_of_unit[a]]
						  [triple_of_unit[b]][triple_of_unit[c]];
		insn_cold(&pool[k])->lf |= LF_PAIR_HEAD;
	}
	return start;
}

/* Pairs the runs of single units before pool[n - 1] (a barrier, or the
 * stub ending a run): the one right before it, and the ones before
 * entries that are no unit and no barrier either (shifts by CL), which
 * no barrier came right after (everything before a barrier is final). */
static void pair_run(struct insn *pool, uint32_t n)
{
	uint32_t end = n - 1, walk = 0, start;

	if (n < 3)
		return;
	if (!__atomic_load_n(&pairs_ready, __ATOMIC_ACQUIRE))
		pthread_once(&pairs_once, pairs_init);
	for (;;) {
		start = pair_one_run(pool, end, &walk);
		if (start < 3 || walk >= PAIR_WALK_MAX || !lf_walk_passes(&pool[start - 1]))
			return;
		end = start - 1;
		walk++;
	}
}

void pairs_decoded(struct insn *pool, uint32_t n)
{
	/* lflive's walk stops at the barrier: it reads the flags, writes
	 * them all, or touches memory other than a MOV load or store
	 * (insn.h, lf_walk_passes) */
	if (lf_walk_passes(&pool[n - 1]))
		return;
	pair_run(pool, n);
}

void pairs_run_ended(struct insn *pool, uint32_t stub)
{
	pair_run(pool, stub + 1);
}
