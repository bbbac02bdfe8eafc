/* Build-time generator of the CPU's opcode tables (src/cpu/optable.h):
 * includes the rows of src/cpu/opcodes_*.def and the handler properties of
 * src/cpu/handler_props.def with its own OP/X87M/X87R/HANDLER/EXEC macros,
 * folds them into the tables the decoder reads and prints them as static
 * const C:
 *
 *   optable_gen OUT_DIR  ->  OUT_DIR/optable_data.c  the tables
 *                            OUT_DIR/optable_exec.h  the exec forms'
 *                            prototypes and SG_EXEC_FORMS_<file>, which
 *                            each handler file expands to define its own
 *
 * The folding rules: a row with a mandatory prefix (P_NP..P_F2) wins over
 * a P_ANY row of the same opcode whatever their order, otherwise the later
 * row wins; an F_OPREG row covers 8 opcodes; a group row (G_*) turns its
 * opcode into a group entry (ModRM.reg, mod) the first time. Handlers and
 * exec forms are named by index (the tables hold no pointers: .rodata, no
 * relocations). A HANDLER or EXEC row naming a handler no opcode row uses,
 * a handler with two property rows, or an exec form of a handler that is
 * not FLOW_PLAIN stops the build. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cpu/insn.h"
#include "cpu/optable.h"
#include "cpu/sse_host.h"  /* the SIMD rows' operand kinds */
#include "cpu/sse_lanes.h" /* handler_props.def's row lists */

/* opcodes_avx.def's column constants, which it defines at its first
 * inclusion (not inside an initializer) */
#define OP(map, opcode, prefix, group, handler, flags)
#include "cpu/opcodes_avx.def"
#undef OP

struct op_row {
	int map, opcode, prefix, group;
	const char *handler;
	unsigned flags;
};

static const struct op_row op_rows[] = {
#define OP(map, opcode, prefix, group, handler, flags) \
	{ map, opcode, prefix, group, #handler, flags },
#define X87M(opcode, reg, handler)
#define X87R(opcode, modrm, count, handler)
#include "cpu/opcodes_base.def"
#include "cpu/opcodes_0f.def"
#include "cpu/opcodes_sse.def"
#include "cpu/opcodes_x87.def"
#include "cpu/opcodes_ext.def"
#include "cpu/opcodes_avx.def"
#undef OP
#undef X87M
#undef X87R
};

struct x87_row {
	int opcode, first, count; /* memory forms: first = ModRM.reg, count 0 */
	const char *handler;
};

static const struct x87_row x87_rows[] = {
#define OP(map, opcode, prefix, group, handler, flags)
#define X87M(opcode, reg, handler) { opcode, reg, 0, #handler },
#define X87R(opcode, modrm, count, handler) { opcode, modrm, count, #handler },
#include "cpu/opcodes_x87.def"
#undef OP
#undef X87M
#undef X87R
};

struct handler_row {
	const char *handler;
	int spec, flow;
};

static const struct handler_row handler_rows[] = {
#define HANDLER(handler, spec, flow) { #handler, spec, flow },
#define EXEC(handler, kind, file)
#define X87_FAST(handler)
#include "cpu/handler_props.def"
#undef HANDLER
#undef EXEC
#undef X87_FAST
};

struct exec_row {
	const char *handler, *kind, *file;
};

static const struct exec_row exec_rows[] = {
#define HANDLER(handler, spec, flow)
#define EXEC(handler, kind, file) { #handler, #kind, #file },
#define X87_FAST(handler)
#include "cpu/handler_props.def"
#undef HANDLER
#undef EXEC
#undef X87_FAST
};

static const char *const x87_fast_rows[] = {
#define HANDLER(handler, spec, flow)
#define EXEC(handler, kind, file)
#define X87_FAST(handler) #handler,
#include "cpu/handler_props.def"
#undef HANDLER
#undef EXEC
#undef X87_FAST
};

/* The memory each handler accesses: handler_mem.def's rows, and the
 * host-executed SIMD rows' operand kinds and the AVX rows' memsz and form,
 * from which fold_memory derives the rest. */
struct mem_row {
	const char *handler;
	int access, size, implicit;
};

static const struct mem_row mem_rows[] = {
#define MEM(handler, access, size, implicit) { #handler, access, size, implicit },
#include "cpu/handler_mem.def"
#undef MEM
};

struct simd_row {
	const char *handler;
	int src, dst;
};

static const struct simd_row simd_rows[] = {
#define OP(map, opcode, prefix, group, handler, flags)
#define SIMD(map, opc, pfx, name, src, dst, fl, text) { "op_simd_" #name, src, dst },
#define SIMDI(map, opc, pfx, name, src, dst, fl, mask, text) { "op_simd_" #name, src, dst },
#define SIMDW(map, opc, pfx, name, src, dst, fl, text, textw) { "op_simd_" #name, src, dst },
#define SIMDWI(map, opc, pfx, name, src, dst, fl, mask, text, textw) \
	{ "op_simd_" #name, src, dst },
#define SIMDG(map, opc, pfx, grp, name, src, dst, fl, mask, text) { "op_simd_" #name, src, dst },
#include "cpu/opcodes_sse.def"
#undef OP
#undef SIMD
#undef SIMDI
#undef SIMDW
#undef SIMDWI
#undef SIMDG
};

struct avx_row {
	const char *handler, *legacy;
	int form, memsz, flags;
};

static const struct avx_row avx_rows[] = {
#define OP(map, opcode, prefix, group, handler, flags)
#define AVX(map, opc, pfx, grp, name, legacy, form, memsz, fl) \
	{ "op_v_" #name, #legacy, form, memsz, fl },
#include "cpu/opcodes_avx.def"
#undef OP
#undef AVX
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define GROUPS_MAX 255   /* op_entry.group: a byte, 0 = none */
#define HANDLERS_MAX 4096

struct cell {
	int handler; /* index into names; 0: none */
	unsigned flags;
	int group;   /* 0, or 1 + index into groups */
	bool specific;
};

static struct cell maps[MAP_COUNT][256][4];
static struct cell groups[GROUPS_MAX][16];
static int ngroups;
static uint16_t x87_mem[8][8], x87_reg[8][64];
static const char *names[HANDLERS_MAX] = { "NULL" };
static int nnames = 1;

static void fail(const char *what, const char *name)
{
	fprintf(stderr, "optable_gen: %s: %s\n", what, name);
	exit(1);
}

static int handler_index(const char *name)
{
	for (int k = 1; k < nnames; k++)
		if (!strcmp(names[k], name))
			return k;
	if (nnames == HANDLERS_MAX)
		fail("too many handlers", name);
	names[nnames] = name;
	return nnames++;
}

static int find_handler(const char *name)
{
	for (int k = 1; k < nnames; k++)
		if (!strcmp(names[k], name))
			return k;
	return 0;
}

static void set_entry(struct cell *e, int handler, unsigned flags, bool specific)
{
	if (e->specific && !specific)
		return; /* a mandatory-prefix row wins over a P_ANY row */
	e->handler = handler;
	e->flags = flags;
	e->specific = specific;
}

static void set_group(struct cell *e, int group, int handler, unsigned flags, bool specific)
{
	struct cell *g;
	int lo, hi;

	if (!e->group) {
		if (ngroups == GROUPS_MAX)
			fail("too many groups", names[handler]);
		e->group = ++ngroups;
		e->handler = 0;
		e->flags = F_MODRM;
	}
	g = groups[e->group - 1];
	if (group == G_MEM_ANY) {
		lo = 0, hi = 7;
	} else if (group == G_REG_ANY) {
		lo = 8, hi = 15;
	} else if (group < 8) {
		set_entry(&g[group], handler, flags, specific);
		lo = hi = group + 8;
	} else {
		lo = hi = group - 8; /* G_MEM(n) -> n, G_REG(n) -> 8 + n */
	}
	for (int k = lo; k <= hi; k++)
		set_entry(&g[k], handler, flags, specific);
}

static void add_row(const struct op_row *r)
{
	int n = r->flags & F_OPREG ? 8 : 1, handler = handler_index(r->handler);
	bool specific = r->prefix != P_ANY;

	for (int op = r->opcode; op < r->opcode + n; op++) {
		for (int p = 0; p < 4; p++) {
			struct cell *e = &maps[r->map][op][p];

			if (specific && p != r->prefix)
				continue;
			if (r->group == G_NONE)
				set_entry(e, handler, r->flags, specific);
			else
				set_group(e, r->group, handler, r->flags, specific);
		}
	}
}

/* Per handler index: its properties, its exec form's index, HF_* and
 * whether an x87 row names it. */
static int spec_of[HANDLERS_MAX], flow_of[HANDLERS_MAX], exec_of[HANDLERS_MAX];
static unsigned hflags_of[HANDLERS_MAX];
static bool x87_named[HANDLERS_MAX];

static void fold_properties(void)
{
	static bool named[HANDLERS_MAX];

	for (size_t k = 0; k < COUNT(handler_rows); k++) {
		int h = find_handler(handler_rows[k].handler);

		if (!h)
			fail("HANDLER row for a handler no opcode row names", handler_rows[k].handler);
		if (named[h])
			fail("two HANDLER rows", handler_rows[k].handler);
		named[h] = true;
		spec_of[h] = handler_rows[k].spec;
		flow_of[h] = handler_rows[k].flow;
	}
	if (COUNT(exec_rows) > 255)
		fail("too many exec forms for op_entry.exec", "");
	for (size_t k = 0; k < COUNT(exec_rows); k++) {
		int h = find_handler(exec_rows[k].handler);

		if (!h)
			fail("EXEC row for a handler no opcode row names", exec_rows[k].handler);
		if (exec_of[h])
			fail("two EXEC rows", exec_rows[k].handler);
		if (flow_of[h] != FLOW_PLAIN)
			fail("EXEC row for a handler that is not FLOW_PLAIN", exec_rows[k].handler);
		if (strcmp(exec_rows[k].kind, "PLAIN") && strcmp(exec_rows[k].kind, "REG"))
			fail("EXEC kind is neither PLAIN nor REG", exec_rows[k].handler);
		exec_of[h] = (int)k + 1;
	}
	for (size_t k = 0; k < COUNT(x87_fast_rows); k++) {
		int h = find_handler(x87_fast_rows[k]);

		if (!h || !x87_named[h])
			fail("X87_FAST row for a handler no x87 row names", x87_fast_rows[k]);
		if (hflags_of[h] & HF_X87_FAST)
			fail("two X87_FAST rows", x87_fast_rows[k]);
		hflags_of[h] |= HF_X87_FAST;
	}
}

/* Per handler index: its memory, whether it has a memory form, and
 * whether a row gave its memory. */
static struct op_mem mem_of[HANDLERS_MAX];
static bool has_mem_form[HANDLERS_MAX], mem_named[HANDLERS_MAX];

static int size_code(int bytes, const char *name)
{
	switch (bytes) {
	case 1: return MSZ_1;
	case 2: return MSZ_2;
	case 4: return MSZ_4;
	case 8: return MSZ_8;
	case 16: return MSZ_16;
	case 32: return MSZ_32;
	}
	fail("memory operand of no size code", name);
	return 0;
}

static void set_mem(const char *name, int access, int size, int implicit, bool derived)
{
	int h = find_handler(name);
	struct op_mem m = { (uint8_t)access, (uint8_t)size, (uint8_t)implicit };

	if (!h)
		fail("MEM row for a handler no opcode row names", name);
	if (mem_named[h]) {
		/* one handler behind several SIMD or AVX rows: the same operand */
		if (!derived || memcmp(&mem_of[h], &m, sizeof(m)))
			fail("two MEM rows", name);
		return;
	}
	mem_named[h] = true;
	mem_of[h] = m;
}

static void fold_memory(void)
{
	for (size_t k = 0; k < COUNT(op_rows); k++) {
		const struct op_row *r = &op_rows[k];
		bool reg_only = r->group == G_REG_ANY ||
				(r->group >= G_REG(0) && r->group < G_MEM_ANY);

		if (((r->flags & F_MODRM) && !(r->flags & F_MOD3) && !reg_only) ||
		    (r->flags & F_IMM_MASK) == F_MOFFS)
			has_mem_form[find_handler(r->handler)] = true;
	}
	for (size_t k = 0; k < COUNT(x87_rows); k++)
		if (!x87_rows[k].count)
			has_mem_form[find_handler(x87_rows[k].handler)] = true;

	for (size_t k = 0; k < COUNT(mem_rows); k++)
		set_mem(mem_rows[k].handler, mem_rows[k].access, mem_rows[k].size,
			mem_rows[k].implicit, false);
	for (size_t k = 0; k < COUNT(simd_rows); k++) {
		const struct simd_row *r = &simd_rows[k];
		int access = MO_R, size;

		switch (r->src) {
		case S128A: case S128U: case SM128A: case SM128U: size = MSZ_16; break;
		case S64: case SMM: size = MSZ_8; break;
		case S32: case SMM32: size = MSZ_4; break;
		case S16: case SE16: size = MSZ_2; break;
		case SE8: size = MSZ_1; break;
		case SE: size = MSZ_Y; break;
		default: access = MO_NONE, size = MSZ_0; break;
		}
		if (access == MO_NONE) {
			access = MO_W;
			switch (r->dst) {
			case DRM8: size = MSZ_1; break;
			case DRM16: size = MSZ_2; break;
			case DRM32: size = MSZ_4; break;
			case DRMW: size = MSZ_Y; break;
			default: access = MO_NONE; break;
			}
		}
		set_mem(r->handler, access, size, IM_NONE, true);
	}
	for (int pass = 0; pass < 2; pass++) /* V_ASIS rows copy their legacy handler's */
		for (size_t k = 0; k < COUNT(avx_rows); k++) {
			const struct avx_row *r = &avx_rows[k];
			int size;

			if ((r->form == V_ASIS) != (pass == 1))
				continue;
			if (r->form == V_ASIS) {
				int legacy = find_handler(r->legacy);

				if (!legacy || !mem_named[legacy])
					fail("V_ASIS row whose legacy handler has no MEM row",
					     r->handler);
				set_mem(r->handler, mem_of[legacy].access, mem_of[legacy].size,
					mem_of[legacy].implicit, true);
				continue;
			}
			if (r->form == V_SHI)
				set_mem(r->handler, MO_NONE, MSZ_0, IM_NONE, true);
			else if (r->form == V_GPR)
				set_mem(r->handler, MO_R,
					r->memsz == 4 ? MSZ_Y : size_code(r->memsz, r->handler),
					IM_NONE, true);
			else if (r->form == V_CNT)
				set_mem(r->handler, MO_R, MSZ_16, IM_NONE, true);
			else if (r->flags & AV_DUP)
				set_mem(r->handler, MO_R, MSZ_DUP, IM_NONE, true);
			else {
				size = size_code(r->memsz, r->handler);
				if (r->form != V_SCAL && (r->flags & AV_L256))
					size |= MSZ_LANES;
				set_mem(r->handler, MO_R, size, IM_NONE, true);
			}
		}
	for (int h = 1; h < nnames; h++)
		if (has_mem_form[h] && !mem_named[h])
			fail("a handler with a memory form has no MEM row (handler_mem.def)",
			     names[h]);
}

static void print_entry(FILE *f, const char *index, const struct cell *e)
{
	int h = e->handler;

	fprintf(f, "\t%s = { %d, 0x%04x, %d, %d, %d, %d }, /* %s */\n", index, h, e->flags,
		e->group, spec_of[h], flow_of[h], exec_of[h], names[h]);
}

/* Each output is written to NAME.tmp and renamed into place only when
 * whole: a failed run leaves no partial table behind for the next build
 * to take as up to date. */
static char out_dir[4000];

static FILE *open_out(const char *name)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.tmp", out_dir, name);
	f = fopen(path, "w");
	if (!f)
		fail("cannot write", path);
	return f;
}

static void close_out(FILE *f, const char *name)
{
	char tmp[4096], path[4096];

	snprintf(tmp, sizeof(tmp), "%s/%s.tmp", out_dir, name);
	snprintf(path, sizeof(path), "%s/%s", out_dir, name);
	if (ferror(f) | fclose(f)) {
		remove(tmp);
		fail("write error", path);
	}
	if (rename(tmp, path)) {
		remove(tmp);
		fail("cannot rename into place", path);
	}
}

static void print_data(void)
{
	FILE *f = open_out("optable_data.c");
	char index[64];

	fputs("/* Generated by tools/optable_gen.c from src/cpu/opcodes_*.def and\n"
	      " * src/cpu/handler_props.def: do not edit. See src/cpu/optable.h. */\n"
	      "#include \"cpu/ops.h\"\n#include \"cpu/optable.h\"\n#include \"optable_exec.h\"\n\n",
	      f);
	fprintf(f, "const insn_fn op_handler_fn[%d] = {\n\tNULL,\n", nnames);
	for (int k = 1; k < nnames; k++)
		fprintf(f, "\t%s,\n", names[k]);
	fprintf(f, "};\n\n/* HF_* */\nconst uint8_t op_handler_flags[%d] = {", nnames);
	for (int k = 0; k < nnames; k++)
		fprintf(f, "%s%u,", k % 16 ? " " : "\n\t", hflags_of[k]);
	fprintf(f, "\n};\n\n/* { access, size, implicit } */\n"
		"const struct op_mem op_handler_mem[%d] = {", nnames);
	for (int k = 0; k < nnames; k++)
		fprintf(f, "%s{ %u, %u, %u },", k % 8 ? " " : "\n\t", mem_of[k].access,
			mem_of[k].size, mem_of[k].implicit);
	fprintf(f, "\n};\n\nconst struct op_exec_form op_exec_forms[%zu] = {\n\t{ NULL, NULL },\n",
		COUNT(exec_rows) + 1);
	for (size_t k = 0; k < COUNT(exec_rows); k++) {
		bool reg = !strcmp(exec_rows[k].kind, "REG");

		fprintf(f, "\t{ exec_%s, %s%s },\n", exec_rows[k].handler, reg ? "exec_reg_" : "NULL",
			reg ? exec_rows[k].handler : "");
	}
	fputs("};\n\n/* { handler, flags, group, spec, flow, exec } */\n"
	      "const struct op_entry op_maps[MAP_COUNT][256][4] = {\n", f);
	for (int m = 0; m < MAP_COUNT; m++)
		for (int op = 0; op < 256; op++)
			for (int p = 0; p < 4; p++) {
				const struct cell *e = &maps[m][op][p];

				if (!e->handler && !e->group)
					continue;
				snprintf(index, sizeof(index), "[%d][0x%02x][%d]", m, op, p);
				print_entry(f, index, e);
			}
	fprintf(f, "};\n\nconst struct op_entry op_groups[%d][16] = {\n", ngroups ? ngroups : 1);
	for (int g = 0; g < ngroups; g++)
		for (int k = 0; k < 16; k++) {
			if (!groups[g][k].handler)
				continue;
			snprintf(index, sizeof(index), "[%d][%d]", g, k);
			print_entry(f, index, &groups[g][k]);
		}
	fputs("};\n\nconst uint16_t op_x87_mem[8][8] = {\n", f);
	for (int op = 0; op < 8; op++) {
		fputs("\t{", f);
		for (int k = 0; k < 8; k++)
			fprintf(f, " %d,", x87_mem[op][k]);
		fputs(" },\n", f);
	}
	fputs("};\n\nconst uint16_t op_x87_reg[8][64] = {\n", f);
	for (int op = 0; op < 8; op++) {
		fputs("\t{", f);
		for (int k = 0; k < 64; k++)
			fprintf(f, "%s%d,", k % 16 ? " " : "\n\t\t", x87_reg[op][k]);
		fputs("\n\t},\n", f);
	}
	fputs("};\n", f);
	close_out(f, "optable_data.c");
}

static void print_exec_header(void)
{
	FILE *f = open_out("optable_exec.h");
	const char *files[COUNT(exec_rows) + 1];
	size_t nfiles = 0;

	fputs("/* Generated by tools/optable_gen.c from src/cpu/handler_props.def: do\n"
	      " * not edit. The exec forms with their handler inlined (cache.h), which\n"
	      " * op_exec_forms names; each handler file expands its SG_EXEC_FORMS_<file>. */\n"
	      "#ifndef SG_GEN_OPTABLE_EXEC_H\n#define SG_GEN_OPTABLE_EXEC_H\n\n"
	      "#include \"cpu/cache.h\"\n\n",
	      f);
	for (size_t k = 0; k < COUNT(exec_rows); k++) {
		const char *h = exec_rows[k].handler;
		size_t n;

		fprintf(f, "const struct insn *exec_%s(struct cpu *c, const struct insn *i);\n", h);
		if (!strcmp(exec_rows[k].kind, "REG"))
			fprintf(f, "const struct insn *exec_reg_%s(struct cpu *c, const struct insn *i);\n", h);
		for (n = 0; n < nfiles && strcmp(files[n], exec_rows[k].file); n++)
			;
		if (n == nfiles)
			files[nfiles++] = exec_rows[k].file;
	}
	for (size_t n = 0; n < nfiles; n++) {
		fprintf(f, "\n#define SG_EXEC_FORMS_%s", files[n]);
		for (size_t k = 0; k < COUNT(exec_rows); k++) {
			if (strcmp(exec_rows[k].file, files[n]))
				continue;
			fprintf(f, " \\\n\tEXEC_PLAIN_FORM(%s)", exec_rows[k].handler);
			if (!strcmp(exec_rows[k].kind, "REG"))
				fprintf(f, " EXEC_REG_FORM(%s)", exec_rows[k].handler);
		}
		fputc('\n', f);
	}
	fputs("\n#endif\n", f);
	close_out(f, "optable_exec.h");
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: optable_gen OUT_DIR\n");
		return 2;
	}
	for (size_t k = 0; k < COUNT(op_rows); k++)
		add_row(&op_rows[k]);
	for (size_t k = 0; k < COUNT(x87_rows); k++) {
		const struct x87_row *r = &x87_rows[k];
		uint16_t h = (uint16_t)handler_index(r->handler);

		x87_named[h] = true;
		if (!r->count)
			x87_mem[r->opcode - 0xd8][r->first] = h;
		for (int n = 0; n < r->count; n++)
			x87_reg[r->opcode - 0xd8][r->first - 0xc0 + n] = h;
	}
	fold_properties();
	fold_memory();
	if (strlen(argv[1]) >= sizeof(out_dir))
		fail("output directory name too long", argv[1]);
	strcpy(out_dir, argv[1]);
	print_data();
	print_exec_header();
	return 0;
}
