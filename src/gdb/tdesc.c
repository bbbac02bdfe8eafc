/* Target descriptions (qXfer:features:read:target.xml), one per ABI, with
 * the features gdb's i386 and amd64 code look for by name:
 * org.gnu.gdb.i386.core (general, segment and x87 registers),
 * org.gnu.gdb.i386.sse, org.gnu.gdb.i386.linux (orig_eax/orig_rax) and
 * org.gnu.gdb.i386.segments (fs_base, gs_base) and, while the guest's
 * XCR0 enables AVX, org.gnu.gdb.i386.avx (ymm0h-ymm15h, ymm0h-ymm7h for
 * i386: the upper halves, from which gdb makes its $ymm0 pseudo
 * registers with the xmm ones; gdb takes its XCR0 from the features
 * present, it asks a remote target for nothing else). x32 is the 64-bit
 * set with the architecture i386:x64-32. The order of the registers here
 * is the order of the g packet (registers.c follows the same table). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cpu/cpu.h"
#include "gdb/gdb.h"

struct tdesc_buf {
	char text[16384];
	size_t len;
};

static void put(struct tdesc_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void put(struct tdesc_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(b->text + b->len, sizeof(b->text) - b->len, fmt, ap);
	va_end(ap);
	if (n > 0 && (size_t)n < sizeof(b->text) - b->len)
		b->len += (size_t)n;
}

static void reg(struct tdesc_buf *b, const char *name, int bits, const char *type,
		const char *group)
{
	put(b, "    <reg name=\"%s\" bitsize=\"%d\" type=\"%s\"%s%s%s/>\n", name, bits,
	    type, group ? " group=\"" : "", group ? group : "", group ? "\"" : "");
}

/* EFLAGS and MXCSR bits as gdb names them in its flag types. */
static const struct { const char *name; int bit; } eflags_bits[] = {
	{ "CF", 0 }, { "", 1 }, { "PF", 2 }, { "AF", 4 }, { "ZF", 6 }, { "SF", 7 },
	{ "TF", 8 }, { "IF", 9 }, { "DF", 10 }, { "OF", 11 }, { "NT", 14 },
	{ "RF", 16 }, { "VM", 17 }, { "AC", 18 }, { "VIF", 19 }, { "VIP", 20 },
	{ "ID", 21 },
}, mxcsr_bits[] = {
	{ "IE", 0 }, { "DE", 1 }, { "ZE", 2 }, { "OE", 3 }, { "UE", 4 }, { "PE", 5 },
	{ "DAZ", 6 }, { "IM", 7 }, { "DM", 8 }, { "ZM", 9 }, { "OM", 10 },
	{ "UM", 11 }, { "PM", 12 }, { "FZ", 15 },
};

static void flags(struct tdesc_buf *b, const char *id, const void *bits, size_t n)
{
	const struct { const char *name; int bit; } *f = bits;

	put(b, "    <flags id=\"%s\" size=\"4\">\n", id);
	for (size_t i = 0; i < n; i++)
		put(b, "      <field name=\"%s\" start=\"%d\" end=\"%d\"/>\n", f[i].name,
		    f[i].bit, f[i].bit);
	put(b, "    </flags>\n");
}

/* The general registers in gdb's order (not the encoding order for the
 * 64-bit set). */
static const char *const gpr64[] = {
	"rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "rsp",
	"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
};
static const char *const gpr32[] = {
	"eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi",
};
static const char *const sregs[] = { "cs", "ss", "ds", "es", "fs", "gs" };
static const char *const x87_ctl[] = {
	"fctrl", "fstat", "ftag", "fiseg", "fioff", "foseg", "fooff", "fop",
};

static void build(struct tdesc_buf *b, enum sg_abi abi)
{
	bool wide = abi != SG_ABI_I386;
	int w = wide ? 64 : 32;
	unsigned ngpr = wide ? 16 : 8, nxmm = wide ? 16 : 8;
	char name[16];

	put(b, "<?xml version=\"1.0\"?>\n<!DOCTYPE target SYSTEM \"gdb-target.dtd\">\n"
	       "<target version=\"1.0\">\n");
	put(b, "  <architecture>%s</architecture>\n",
	    abi == SG_ABI_I386 ? "i386" : abi == SG_ABI_X32 ? "i386:x64-32" : "i386:x86-64");
	put(b, "  <osabi>GNU/Linux</osabi>\n");

	put(b, "  <feature name=\"org.gnu.gdb.i386.core\">\n");
	flags(b, "i386_eflags", eflags_bits, sizeof(eflags_bits) / sizeof(eflags_bits[0]));
	for (unsigned i = 0; i < ngpr; i++) {
		const char *n = wide ? gpr64[i] : gpr32[i];
		bool ptr = !strcmp(n + 1, "sp") || !strcmp(n + 1, "bp");

		/* x32: gdb's pointer types are 32 bits there, the
		 * registers 64 */
		reg(b, n, w, ptr && abi != SG_ABI_X32 ? "data_ptr" : wide ? "int64" : "int32",
		    NULL);
	}
	reg(b, wide ? "rip" : "eip", w, abi == SG_ABI_X32 ? "uint64" : "code_ptr", NULL);
	reg(b, "eflags", 32, "i386_eflags", NULL);
	for (unsigned i = 0; i < 6; i++)
		reg(b, sregs[i], 32, "int32", NULL);
	for (unsigned i = 0; i < 8; i++) {
		snprintf(name, sizeof(name), "st%u", i);
		reg(b, name, 80, "i387_ext", NULL);
	}
	for (unsigned i = 0; i < 8; i++)
		reg(b, x87_ctl[i], 32, "int", "float");
	put(b, "  </feature>\n");

	put(b, "  <feature name=\"org.gnu.gdb.i386.sse\">\n"
	       "    <vector id=\"v4f\" type=\"ieee_single\" count=\"4\"/>\n"
	       "    <vector id=\"v2d\" type=\"ieee_double\" count=\"2\"/>\n"
	       "    <vector id=\"v16i8\" type=\"int8\" count=\"16\"/>\n"
	       "    <vector id=\"v8i16\" type=\"int16\" count=\"8\"/>\n"
	       "    <vector id=\"v4i32\" type=\"int32\" count=\"4\"/>\n"
	       "    <vector id=\"v2i64\" type=\"int64\" count=\"2\"/>\n"
	       "    <union id=\"vec128\">\n"
	       "      <field name=\"v4_float\" type=\"v4f\"/>\n"
	       "      <field name=\"v2_double\" type=\"v2d\"/>\n"
	       "      <field name=\"v16_int8\" type=\"v16i8\"/>\n"
	       "      <field name=\"v8_int16\" type=\"v8i16\"/>\n"
	       "      <field name=\"v4_int32\" type=\"v4i32\"/>\n"
	       "      <field name=\"v2_int64\" type=\"v2i64\"/>\n"
	       "      <field name=\"uint128\" type=\"uint128\"/>\n"
	       "    </union>\n");
	flags(b, "i386_mxcsr", mxcsr_bits, sizeof(mxcsr_bits) / sizeof(mxcsr_bits[0]));
	for (unsigned i = 0; i < nxmm; i++) {
		snprintf(name, sizeof(name), "xmm%u", i);
		reg(b, name, 128, "vec128", NULL);
	}
	reg(b, "mxcsr", 32, "i386_mxcsr", "vector");
	put(b, "  </feature>\n");

	put(b, "  <feature name=\"org.gnu.gdb.i386.linux\">\n");
	reg(b, wide ? "orig_rax" : "orig_eax", w, "int", NULL);
	put(b, "  </feature>\n");

	if (wide) {
		/* gdb's i386 GNU/Linux architecture has no fs_base/gs_base
		 * (its register numbers for them lie past orig_eax's) */
		put(b, "  <feature name=\"org.gnu.gdb.i386.segments\">\n");
		reg(b, "fs_base", w, "int", NULL);
		reg(b, "gs_base", w, "int", NULL);
		put(b, "  </feature>\n");
	}

	if (CPU_XCR0 & CPU_XSTATE_AVX) {
		put(b, "  <feature name=\"org.gnu.gdb.i386.avx\">\n");
		for (unsigned i = 0; i < nxmm; i++) {
			snprintf(name, sizeof(name), "ymm%uh", i);
			reg(b, name, 128, "uint128", NULL);
		}
		put(b, "  </feature>\n");
	}
	put(b, "</target>\n");
}

const char *tdesc_xml(enum sg_abi abi)
{
	/* built at the first use per ABI: only the stub's thread asks */
	static struct tdesc_buf bufs[3];
	unsigned k = abi == SG_ABI_I386 ? 0 : abi == SG_ABI_X32 ? 1 : 2;

	if (!bufs[k].len)
		build(&bufs[k], abi);
	return bufs[k].text;
}
