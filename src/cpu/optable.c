/* Builds the opcode tables from the X-macro .def rows, once. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "cpu/ops.h"
#include "cpu/optable.h"

struct op_entry op_maps[MAP_COUNT][256][4];
struct op_entry op_groups[OP_GROUPS_MAX][16];
insn_fn op_x87_mem[8][8];
insn_fn op_x87_reg[8][64];
static unsigned ngroups;

/* The handlers *_specialise may replace (decode.c calls only that one). */
static uint8_t spec_of(insn_fn fn)
{
	if (fn == op_alu_EvGv || fn == op_alu_GvEv || fn == op_alu_rAXIz || fn == op_alu_EvIz ||
	    fn == op_test_EvGv || fn == op_test_EvIz || fn == op_test_rAXIz || fn == op_inc_Ev ||
	    fn == op_dec_Ev || fn == op_inc_r || fn == op_dec_r || fn == op_not_Ev ||
	    fn == op_neg_Ev || fn == op_imul_GvEv || fn == op_imul_GvEvIz || fn == op_div_Ev ||
	    fn == op_idiv_Ev)
		return SPEC_ALU;
	if (fn == op_mov_EvGv || fn == op_mov_GvEv || fn == op_mov_rIv || fn == op_mov_EvIz ||
	    fn == op_movzx_GvEb || fn == op_movzx_GvEw || fn == op_movsx_GvEb ||
	    fn == op_movsx_GvEw || fn == op_movsxd_GvEd || fn == op_lea_GvM ||
	    fn == op_push_r || fn == op_pop_r || fn == op_movbe_GvMv || fn == op_movbe_MvGv)
		return SPEC_MOVE;
	if (fn == op_shift_EvIb || fn == op_shift_EvCL)
		return SPEC_SHIFT;
	if (fn == op_jcc_Jb || fn == op_setcc_Eb || fn == op_cmovcc_GvEv)
		return SPEC_COND;
	if (fn == op_jmp_Jz || fn == op_call_Jz || fn == op_ret || fn == op_jmp_Ev || fn == op_call_Ev)
		return SPEC_CONTROL;
	if (avx_has_fast_form(fn))
		return SPEC_AVX;
	return SPEC_NONE;
}

/* The handlers that read or move rip, or stop the CPU other than by a
 * fault: those of control.c and cond.c (a grep for "c->rip" and "->stop"
 * in src/cpu finds no others). The rest run through exec_plain. */
static bool moves_rip(insn_fn fn)
{
	static const insn_fn list[] = {
		op_jmp_Jz, op_call_Jz, op_jmp_Ev, op_call_Ev, op_ret, op_ret_Iw, op_enter,
		op_leave, op_callf_Ap, op_jmpf_Ap, op_callf_Mp, op_jmpf_Mp, op_retf, op_iret,
		op_syscall, op_sysenter, op_int1, op_bound_GvMa, op_int3, op_int_Ib, op_into,
		op_rdtsc, op_grp7, op_mov_crdr, op_cpuid, op_fence, op_jcc_Jb, op_setcc_Eb,
		op_cmovcc_GvEv, op_loop_Jb, op_jcxz_Jb,
	};

	for (size_t k = 0; k < sizeof(list) / sizeof(list[0]); k++)
		if (list[k] == fn)
			return true;
	return false;
}

static void set_entry(struct op_entry *e, insn_fn fn, unsigned flags, bool specific)
{
	if (e->specific && !specific)
		return; /* a mandatory-prefix row wins over a P_ANY row */
	e->spec = spec_of(fn);
	e->plain = fn && !moves_rip(fn);
	e->exec = NULL;
	e->fn = fn;
	e->flags = (uint16_t)flags;
	e->specific = specific;
}

static void set_group(struct op_entry *e, int group, insn_fn fn, unsigned flags, bool specific)
{
	struct op_entry *g;
	int lo, hi;

	if (!e->group) {
		if (ngroups == OP_GROUPS_MAX) {
			fprintf(stderr, "sysgate: cpu: OP_GROUPS_MAX too small\n");
			abort();
		}
		e->group = (uint8_t)++ngroups;
		e->fn = NULL;
		e->flags = F_MODRM;
	}
	g = op_groups[e->group - 1];
	if (group == G_MEM_ANY) {
		lo = 0, hi = 7;
	} else if (group == G_REG_ANY) {
		lo = 8, hi = 15;
	} else if (group < 8) {
		set_entry(&g[group], fn, flags, specific);
		lo = hi = group + 8;
	} else {
		lo = hi = group - 8; /* G_MEM(n) -> n, G_REG(n) -> 8 + n */
	}
	for (int k = lo; k <= hi; k++)
		set_entry(&g[k], fn, flags, specific);
}

static void add_row(int map, int opcode, int prefix, int group, insn_fn fn, unsigned flags)
{
	int n = flags & F_OPREG ? 8 : 1;

	for (int op = opcode; op < opcode + n; op++) {
		for (int p = 0; p < 4; p++) {
			struct op_entry *e = &op_maps[map][op][p];
			bool specific = prefix != P_ANY;

			if (specific && p != prefix)
				continue;
			if (group == G_NONE)
				set_entry(e, fn, flags, specific);
			else
				set_group(e, group, fn, flags, specific);
		}
	}
}

/* exec form -> its register form (decode.c): a small open-addressed table */
#define REG_FORM_SLOTS 256
static struct { insn_exec exec, reg; } reg_forms[REG_FORM_SLOTS];

static unsigned reg_form_slot(insn_exec exec)
{
	unsigned h = (unsigned)(((uintptr_t)exec >> 4) * 0x9e3779b1u) & (REG_FORM_SLOTS - 1);

	while (reg_forms[h].exec && reg_forms[h].exec != exec)
		h = (h + 1) & (REG_FORM_SLOTS - 1);
	return h;
}

insn_exec optable_reg_form(insn_exec exec)
{
	return reg_forms[reg_form_slot(exec)].reg;
}

/* Install a plain handler's inlined exec form on every row using it, and
 * note its register form. */
static void set_exec(insn_fn fn, insn_exec exec, insn_exec exec_reg)
{
	static unsigned n;
	unsigned h = reg_form_slot(exec);

	if (!reg_forms[h].exec && ++n > REG_FORM_SLOTS / 2) {
		fprintf(stderr, "sysgate: cpu: REG_FORM_SLOTS too small\n");
		abort();
	}
	reg_forms[h].exec = exec;
	reg_forms[h].reg = exec_reg;
	for (int m = 0; m < MAP_COUNT; m++)
		for (int op = 0; op < 256; op++)
			for (int p = 0; p < 4; p++)
				if (op_maps[m][op][p].fn == fn && op_maps[m][op][p].plain)
					op_maps[m][op][p].exec = exec;
	for (unsigned g = 0; g < ngroups; g++)
		for (int k = 0; k < 16; k++)
			if (op_groups[g][k].fn == fn && op_groups[g][k].plain)
				op_groups[g][k].exec = exec;
}

static void build(void)
{
#define OP(map, opcode, prefix, group, handler, flags) \
	add_row(map, opcode, prefix, group, handler, flags);
#define X87M(opcode, reg, handler) op_x87_mem[(opcode) - 0xd8][reg] = handler;
#define X87R(opcode, modrm, count, handler) \
	for (int k = 0; k < (count); k++) \
		op_x87_reg[(opcode) - 0xd8][(modrm) - 0xc0 + k] = handler;
#include "cpu/opcodes_base.def"
#include "cpu/opcodes_0f.def"
#include "cpu/opcodes_sse.def"
#include "cpu/opcodes_x87.def"
#include "cpu/opcodes_ext.def"
#include "cpu/opcodes_avx.def"
#undef OP
#undef X87M
#undef X87R
	sse_int_exec_forms(set_exec);
	sse_move_exec_forms(set_exec);
	avx_exec_forms(set_exec);
}

void optable_init(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, build);
}
