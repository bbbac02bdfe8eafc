/* The opcode tables the decoder reads: static const data that
 * tools/optable_gen.c generates at build time (build/gen/optable_data.c)
 * from the rows of opcodes_*.def and the handler properties of
 * handler_props.def. Nothing is built at run time: the tables are in
 * .rodata, shared between processes and never written; they name handlers
 * and exec forms by index, so only the two small pointer arrays need the
 * static PIE's relocation. */
#ifndef SG_CPU_OPTABLE_H
#define SG_CPU_OPTABLE_H

#include "cpu/insn.h"

/* handler_props.def's columns */
enum { SPEC_NONE, SPEC_ALU, SPEC_MOVE, SPEC_SHIFT, SPEC_COND, SPEC_CONTROL, SPEC_AVX, SPEC_NOP, SPEC_BMI };
enum { FLOW_PLAIN, FLOW_RIP, FLOW_BRANCH, FLOW_END };

struct op_entry {
	uint16_t handler; /* index into op_handler_fn; 0: none (#UD) */
	uint16_t flags;   /* F_* */
	uint8_t group;    /* 0, or 1 + index into op_groups */
	uint8_t spec;     /* SPEC_*: which decode-time specialiser may apply */
	uint8_t flow;     /* FLOW_*: PLAIN runs through exec_plain (exec.c) */
	uint8_t exec;     /* index into op_exec_forms: the handler's own exec form, or 0 */
};

/* A FLOW_PLAIN handler's exec form with the handler inlined, and its
 * register form (ModRM.mod == 3) or NULL. */
struct op_exec_form {
	insn_exec exec, reg;
};

extern const insn_fn op_handler_fn[];
/* Per handler index: HF_* */
extern const uint8_t op_handler_flags[];
#define HF_X87_FAST 0x01 /* X87_FAST row: x87_fast.c's probe tries its encodings */
extern const struct op_exec_form op_exec_forms[];

/* handler_mem.def's columns: the memory a handler accesses */
enum { MO_NONE, MO_R, MO_W, MO_RW };
enum {
	MSZ_0, MSZ_1, MSZ_2, MSZ_4, MSZ_8, MSZ_10, MSZ_16, MSZ_32, MSZ_512,
	MSZ_OSZ, MSZ_OSZ2, MSZ_FAR, MSZ_Y, MSZ_W48, MSZ_DUP, MSZ_CX8,
	MSZ_X87ENV, MSZ_X87STATE, MSZ_XSAVE, MSZ_MOVSXD,
};
#define MSZ_LANES 0x80 /* or'ed: per 128-bit lane (VEX.256: twice) */
#define MSZ_L(n) (MSZ_LANES | MSZ_##n)
enum {
	IM_NONE, IM_PUSH, IM_POP, IM_PUSH2, IM_POP2, IM_IRET, IM_PUSHA, IM_POPA,
	IM_ENTER, IM_LEAVE, IM_MOVS, IM_CMPS, IM_STOS, IM_LODS, IM_SCAS, IM_XLAT,
	IM_MASKMOV,
};
struct op_mem {
	uint8_t access;   /* MO_*: the ModRM or moffs operand */
	uint8_t size;     /* MSZ_*: its bytes (and the slots' or string elements') */
	uint8_t implicit; /* IM_*: the accesses no operand names */
};
/* Per handler index (mem_access.c) */
extern const struct op_mem op_handler_mem[];
/* [map][opcode][mandatory prefix P_NP..P_F2] */
extern const struct op_entry op_maps[MAP_COUNT][256][4];
/* [group - 1][ModRM.reg + (mod == 3 ? 8 : 0)] */
extern const struct op_entry op_groups[][16];
/* x87, handler indices: memory forms [opcode - 0xd8][reg]; register forms
 * [opcode - 0xd8][modrm - 0xc0] */
extern const uint16_t op_x87_mem[8][8];
extern const uint16_t op_x87_reg[8][64];

#endif
