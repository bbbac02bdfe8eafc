/* The units pairs.c and triples.c make their forms of: the members'
 * list, their link fields, and the macros that cross them (one header so
 * that the generated forms compile as two translation units, in parallel:
 * docs/cpu.md). Included by those two files only. */
#ifndef SG_CPU_PAIR_UNITS_H
#define SG_CPU_PAIR_UNITS_H
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

/* triples.c: the triple form of triple units a, b, c3 (T_*) with links
 * l1 and l2 (PAIR_LINK_NONE or a field c3, b reads), or NULL. */
insn_exec pairs_triple_form(int a, int b, int c3, int l1, int l2);

#endif
