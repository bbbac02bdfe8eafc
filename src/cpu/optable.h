/* Opcode tables built from the .def rows; read by the decoder. */
#ifndef SG_CPU_OPTABLE_H
#define SG_CPU_OPTABLE_H

#include "cpu/insn.h"

struct op_entry {
	insn_fn fn;
	uint16_t flags;
	uint8_t group;    /* 0, or 1 + index into op_groups */
	uint8_t specific; /* set by a row with a mandatory prefix */
	uint8_t spec;     /* SPEC_*: which decode-time specialiser may apply */
	uint8_t plain;    /* neither reads nor moves rip: exec_plain (exec.c) */
	insn_exec exec;   /* a plain handler's own exec form, or NULL */
};

enum { SPEC_NONE, SPEC_ALU, SPEC_MOVE, SPEC_SHIFT, SPEC_COND, SPEC_CONTROL, SPEC_AVX };

#define OP_GROUPS_MAX 128

/* [map][opcode][mandatory prefix P_NP..P_F2] */
extern struct op_entry op_maps[MAP_COUNT][256][4];
/* [group][ModRM.reg + (mod == 3 ? 8 : 0)] */
extern struct op_entry op_groups[OP_GROUPS_MAX][16];
/* x87: memory forms [opcode - 0xd8][reg]; register forms [opcode - 0xd8][modrm - 0xc0] */
extern insn_fn op_x87_mem[8][8];
extern insn_fn op_x87_reg[8][64];

#endif
