/* Trial generation: templates (opcode lists per map, random ModRM/SIB/
 * displacement/immediate tail) and random byte strings, decoded by
 * Capstone, filtered to user-mode instructions whose result is defined and
 * deterministic, with operands fixed up to stay in the scratch region. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "difftest.h"
#include "gen.h"
#include "../host_cpu.h"
#include "cpu/cpu.h"

uint64_t gen_rnd(struct gen *g)
{
	g->rng ^= g->rng << 13;
	g->rng ^= g->rng >> 7;
	g->rng ^= g->rng << 17;
	return g->rng;
}

static unsigned below(struct gen *g, unsigned n)
{
	return (unsigned)(gen_rnd(g) % n);
}

static bool chance(struct gen *g, unsigned percent)
{
	return below(g, 100) < percent;
}

/* ---- templates: opcode lists per map ---- */

struct opc {
	uint8_t map;  /* 0: one-byte, 1: 0F, 2: 0F 38, 3: 0F 3A */
	uint8_t lo, hi;
	uint8_t pfx;  /* mandatory prefix byte or 0 (random 66/F2/F3 for SIMD maps) */
};

/* Integer, control and system opcodes (prefix bytes and escapes left out). */
static const struct opc int_ops[] = {
	{ 0, 0x00, 0x25, 0 }, { 0, 0x27, 0x2d, 0 }, { 0, 0x2f, 0x35, 0 }, { 0, 0x37, 0x3d, 0 },
	{ 0, 0x3f, 0x3f, 0 }, { 0, 0x40, 0x63, 0 }, { 0, 0x68, 0x8f, 0 }, { 0, 0x90, 0xc3, 0 },
	{ 0, 0xc4, 0xd7, 0 }, { 0, 0xe0, 0xef, 0 }, { 0, 0xf4, 0xff, 0 },
	{ 0, 0xf6, 0xf7, 0 }, { 0, 0x80, 0x83, 0 }, { 0, 0xc0, 0xc1, 0 }, { 0, 0xd0, 0xd3, 0 },
	{ 1, 0x00, 0x01, 0 }, { 1, 0x0b, 0x0b, 0 }, { 1, 0x0d, 0x0d, 0 }, { 1, 0x18, 0x1f, 0 },
	{ 1, 0x40, 0x4f, 0 }, { 1, 0x80, 0x8f, 0 }, { 1, 0x90, 0x9f, 0 }, { 1, 0xa0, 0xa5, 0 },
	{ 1, 0xa8, 0xaf, 0 }, { 1, 0xb0, 0xbf, 0 }, { 1, 0xc0, 0xc1, 0 }, { 1, 0xc3, 0xc3, 0 },
	{ 1, 0xc7, 0xcf, 0 }, { 1, 0xb8, 0xb8, 0xf3 }, { 1, 0xbc, 0xbd, 0xf3 },
	{ 2, 0xf0, 0xf1, 0 }, { 2, 0xf0, 0xf1, 0xf2 }, { 2, 0xf0, 0xf1, 0x66 },
	{ 2, 0xf6, 0xf6, 0x66 }, { 2, 0xf6, 0xf6, 0xf3 }, /* ADCX, ADOX */
};

/* SSE/MMX (0F, 0F 38, 0F 3A) and x87 (D8..DF). */
static const struct opc simd_ops[] = {
	{ 1, 0x10, 0x17, 1 }, { 1, 0x28, 0x2f, 1 }, { 1, 0x50, 0x7f, 1 }, { 1, 0xae, 0xae, 1 },
	{ 1, 0xc2, 0xc2, 1 }, { 1, 0xc4, 0xc6, 1 }, { 1, 0xd0, 0xff, 1 },
	{ 2, 0x00, 0x0b, 1 }, { 2, 0x10, 0x17, 1 }, { 2, 0x1c, 0x1e, 1 }, { 2, 0x20, 0x25, 1 },
	{ 2, 0x28, 0x2b, 1 }, { 2, 0x30, 0x35, 1 }, { 2, 0x37, 0x41, 1 },
	{ 3, 0x08, 0x0f, 1 }, { 3, 0x14, 0x17, 1 }, { 3, 0x20, 0x22, 1 }, { 3, 0x40, 0x42, 1 },
	{ 3, 0x60, 0x63, 1 },
	{ 0, 0xd8, 0xdf, 0 }, { 0, 0xd8, 0xdf, 0 }, { 0, 0xd8, 0xdf, 0 },
	/* SHA, AES-NI, PCLMULQDQ */
	{ 2, 0xc8, 0xcd, 0 }, { 2, 0xdb, 0xdf, 0x66 }, { 3, 0xcc, 0xcc, 0 },
	{ 3, 0xdf, 0xdf, 0x66 }, { 3, 0x44, 0x44, 0x66 },
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static unsigned put_prefixes(struct gen *g, uint8_t *p, bool integer)
{
	static const uint8_t segs32[] = { 0x26, 0x36, 0x3e };
	static const uint8_t segs64[] = { 0x26, 0x2e, 0x36, 0x3e, 0x65 };
	unsigned n = 0;

	if (chance(g, integer ? 25 : 10))
		p[n++] = 0x66;
	if (chance(g, 5))
		p[n++] = 0x67;
	if (chance(g, 6))
		p[n++] = 0xf0;
	if (integer && chance(g, 6))
		p[n++] = chance(g, 50) ? 0xf3 : 0xf2;
	if (chance(g, 6))
		p[n++] = g->m64 ? segs64[below(g, NELEM(segs64))] : segs32[below(g, NELEM(segs32))];
	return n;
}

static unsigned put_opcode(uint8_t *p, unsigned map, uint8_t op)
{
	unsigned n = 0;

	if (map >= 1)
		p[n++] = 0x0f;
	if (map == 2)
		p[n++] = 0x38;
	if (map == 3)
		p[n++] = 0x3a;
	p[n++] = op;
	return n;
}

/* A VEX (C4) prefix and opcode of the general-purpose-register
 * instructions (BMI1/BMI2: 0F38 F2..F7, 0F3A F0), fields random: R X B W,
 * vvvv, pp, sometimes L = 1 (#UD). In 32-bit mode R and X are 1 (else the
 * bytes are LES) and vvvv < 8. */
static unsigned put_vex_gpr(struct gen *g, uint8_t *p)
{
	static const uint8_t ops38[] = { 0xf2, 0xf3, 0xf5, 0xf6, 0xf7 };
	bool map3 = chance(g, 15);
	unsigned n = 0;
	uint8_t b1 = (uint8_t)(gen_rnd(g) & 0xe0), b2 = (uint8_t)gen_rnd(g);

	if (chance(g, 5))
		p[n++] = 0x67;
	if (!g->m64)
		b1 |= 0xc0;
	b1 |= map3 ? 3 : 2;
	if (!g->m64)
		b2 |= 0x40; /* vvvv (inverted) bit 3 */
	b2 &= (uint8_t)~4; /* L = 0 ... */
	if (chance(g, 3))
		b2 |= 4; /* ... mostly */
	p[n++] = 0xc4;
	p[n++] = b1;
	p[n++] = b2;
	p[n++] = map3 ? 0xf0 : ops38[below(g, NELEM(ops38))];
	return n;
}

/* VEX SIMD opcodes (AVX, AVX2, FMA3, F16C) by map, pp random. Gathers
 * (0F38 90..93) are left out: their vector index cannot be fixed up to
 * stay in the scratch region. */
static const struct opc vex_ops[] = {
	{ 1, 0x10, 0x17, 0 }, { 1, 0x28, 0x2f, 0 }, { 1, 0x50, 0x7f, 0 }, { 1, 0xae, 0xae, 0 },
	{ 1, 0xc2, 0xc2, 0 }, { 1, 0xc4, 0xc6, 0 }, { 1, 0xd0, 0xff, 0 },
	{ 2, 0x00, 0x1e, 0 }, { 2, 0x20, 0x25, 0 }, { 2, 0x28, 0x47, 0 }, { 2, 0x58, 0x5a, 0 },
	{ 2, 0x78, 0x79, 0 }, { 2, 0x8c, 0x8c, 0 }, { 2, 0x8e, 0x8e, 0 },
	{ 3, 0x00, 0x06, 0 }, { 3, 0x08, 0x0f, 0 }, { 3, 0x14, 0x19, 0 }, { 3, 0x20, 0x22, 0 },
	{ 3, 0x38, 0x39, 0 }, { 3, 0x40, 0x42, 0 }, { 3, 0x46, 0x46, 0 }, { 3, 0x4a, 0x4c, 0 },
	/* FMA3 (the whole 96..BF range: also weights FMA), F16C */
	{ 2, 0x96, 0xbf, 0 }, { 2, 0x96, 0xbf, 0 }, { 2, 0x96, 0xbf, 0 },
	{ 2, 0x13, 0x13, 0 }, { 3, 0x1d, 0x1d, 0 }, { 2, 0x13, 0x13, 0 }, { 3, 0x1d, 0x1d, 0 },
	/* the 16/32-byte stores (VMOVUPS/UPD/SS/SD, VMOVDQU/DQA) weighted up:
	 * data_ptr has them cross either end of the region */
	{ 1, 0x11, 0x11, 0 }, { 1, 0x7f, 0x7f, 0 },
};

/* A VEX (C4 or C5) SIMD prefix and opcode from vex_ops, fields random:
 * R X B W, vvvv, L, pp. In 32-bit mode R and X (C5: R and vvvv bit 3)
 * are 1, else the bytes are LES/LDS; C4's vvvv bit 3 is mostly 1 there
 * too, 0 in one of eight on an Intel host (no register bit, but #UD where
 * vvvv must be 1111b). */
static unsigned put_vex_simd(struct gen *g, uint8_t *p)
{
	const struct opc *o = &vex_ops[below(g, NELEM(vex_ops))];
	uint8_t op = (uint8_t)(o->lo + below(g, o->hi - o->lo + 1u));
	uint8_t pp = (uint8_t)below(g, 4), l = chance(g, 50) ? 4 : 0;
	unsigned n = 0;

	if (chance(g, 5))
		p[n++] = 0x67;
	if (g->m64 && chance(g, 5))
		p[n++] = 0x65; /* GS: its base is the same on both sides */
	if (o->map == 1 && chance(g, 50)) { /* the two-byte form */
		uint8_t b1 = (uint8_t)((gen_rnd(g) & 0xf8) | l | pp);

		if (!g->m64)
			b1 |= 0xc0;
		p[n++] = 0xc5;
		p[n++] = b1;
	} else {
		uint8_t b1 = (uint8_t)((gen_rnd(g) & 0xe0) | o->map);
		uint8_t b2 = (uint8_t)((gen_rnd(g) & 0xf8) | l | pp);

		if (!g->m64) {
			b1 |= 0xc0;
			/* bit 3 = 0 measured on the Xeon only (#UD where vvvv
			 * must be 1111b): AMD's answer is not known */
			if (!chance(g, 12) || g->host_amd)
				b2 |= 0x40; /* vvvv (inverted) bit 3 */
		}
		p[n++] = 0xc4;
		p[n++] = b1;
		p[n++] = b2;
	}
	p[n++] = op;
	return n;
}

/* VZEROUPPER, or VZEROALL (VEX.L 1), in the two-byte VEX form (C5,
 * R 1): glibc's AVX2 string functions end with VZEROUPPER, which random
 * VEX fields hardly ever make (vvvv must be 1111b, L 0), and only --vex
 * makes VEX SIMD forms at all. One in eight has another vvvv (#UD); bit 6
 * stays 1, so that 32-bit mode reads VEX, not LDS. */
static unsigned put_vzero(struct gen *g, uint8_t *p)
{
	uint8_t b1 = (uint8_t)(0xf8 | (chance(g, 25) ? 4 : 0));

	if (chance(g, 12))
		b1 ^= (uint8_t)((1 + below(g, 7)) << 3);
	p[0] = 0xc5;
	p[1] = b1;
	p[2] = 0x77;
	return 3;
}

/* Bytes of one instruction candidate into p (at least 15 + tail). */
static unsigned candidate(struct gen *g, uint8_t *p, int kind)
{
	unsigned n = 0;

	if (kind == 0 && chance(g, 6)) {
		n = put_vex_gpr(g, p);
	} else if (kind == 1 && chance(g, 2)) {
		n = put_vzero(g, p);
	} else if (kind == 3) {
		n = put_vex_simd(g, p);
	} else if (kind == 2) { /* random bytes, random map */
		n = put_prefixes(g, p, true);
		if (g->m64 && chance(g, 40))
			p[n++] = (uint8_t)(0x40 | below(g, 16));
		unsigned r = below(g, 10);
		n += put_opcode(p + n, r < 6 ? 0 : r < 9 ? 1 : 2 + below(g, 2), (uint8_t)gen_rnd(g));
	} else {
		const struct opc *o = kind == 0 ? &int_ops[below(g, NELEM(int_ops))]
						: &simd_ops[below(g, NELEM(simd_ops))];
		uint8_t op = (uint8_t)(o->lo + below(g, o->hi - o->lo + 1u));

		n = put_prefixes(g, p, kind == 0);
		if (o->pfx == 1) {
			static const uint8_t mand[] = { 0, 0x66, 0xf3, 0xf2 };
			uint8_t m = mand[below(g, 4)];

			if (m)
				p[n++] = m;
		} else if (o->pfx) {
			p[n++] = o->pfx;
		}
		if (g->m64 && chance(g, 50))
			p[n++] = (uint8_t)(0x40 | below(g, 16));
		n += put_opcode(p + n, o->map, op);
	}
	for (unsigned k = 0; k < 14; k++)
		p[n + k] = (uint8_t)gen_rnd(g);
	/* Bias ModRM towards registers and simple memory forms. */
	if (chance(g, 40))
		p[n] |= 0xc0;
	return n + 14;
}

/* ---- filters ---- */

static const char *const rejected[] = {
	/* would enter the host kernel or leave the snippet */
	"syscall", "sysenter", "sysexit", "sysret", "ljmp", "lcall", "retf", "retfq", "lret",
	"iret", "iretd", "iretq",
	/* results the host decides: time, randomness, CPU identity, descriptor
	 * tables the kernel emulates (UMIP), features CPUID does not report */
	"cpuid", "rdtsc", "rdtscp", "rdpid", "rdrand", "rdseed", "rdpmc", "xgetbv", "rdpkru",
	"wrpkru", "sgdt", "sidt", "sldt", "str", "smsw", "lsl", "verr", "verw",
	"xbegin", "xend", "xabort", "xtest", "enclu", "encls", "serialize", "umonitor",
	"umwait", "tpause", "ptwrite", "rdfsbase", "rdgsbase", "wrfsbase", "wrgsbase",
	"movdir64b", "movdiri", "enqcmd", "enqcmds", "xsave", "xsave64", "xsaveopt",
	"xsaveopt64", "xsavec", "xsavec64", "xsaves", "xsaves64", "xrstor", "xrstor64",
	"xrstors", "xrstors64", "getsec", "rsm", "clwb", "clflushopt", "incsspd", "incsspq",
	"rdsspd", "rdsspq", "saveprevssp", "rstorssp", "wrssd", "wrssq", "wrussd", "wrussq",
	"setssbsy", "clrssbsy", "monitorx", "mwaitx", "clzero", "rdpru", "invlpgb", "tlbsync",
	"vmcall", "vmmcall", "vmfunc", "uiret", "testui", "clui", "stui", "senduipi",
	"hreset", "pconfig", "wbnoinvd", "cldemote", "invpcid", "fxsave", "fxsave64", "fxrstor",
	"fxrstor64",
	NULL,
};

static bool in_list(const char *const *l, const char *s)
{
	for (; *l; l++)
		if (!strcmp(*l, s))
			return true;
	return false;
}

/* The mnemonic without "lock"/"rep"/... prefixes. */
static const char *base_mnemonic(const char *m)
{
	const char *sp = strrchr(m, ' ');

	return sp ? sp + 1 : m;
}

static bool has_group(const cs_insn *in, unsigned grp)
{
	for (unsigned k = 0; k < in->detail->groups_count; k++)
		if (in->detail->groups[k] == grp)
			return true;
	return false;
}

/* Capstone groups of features CPUID must report before we compare them. */
static bool advertised(struct gen *g, const cs_insn *in)
{
	static const struct { uint16_t grp; uint8_t reg; uint8_t bit; } need[] = {
		/* reg: 0 leaf1 ecx, 1 leaf1 edx, 2 leaf7 ebx, 3 0x80000001 ecx, 4 never */
		{ X86_GRP_SSE1, 1, 25 }, { X86_GRP_SSE2, 1, 26 }, { X86_GRP_SSE3, 0, 0 },
		{ X86_GRP_SSSE3, 0, 9 }, { X86_GRP_SSE41, 0, 19 }, { X86_GRP_SSE42, 0, 20 },
		{ X86_GRP_PCLMUL, 0, 1 }, { X86_GRP_AES, 0, 25 }, { X86_GRP_AVX, 0, 28 },
		{ X86_GRP_F16C, 0, 29 }, { X86_GRP_FMA, 0, 12 }, { X86_GRP_MMX, 1, 23 },
		{ X86_GRP_BMI, 2, 3 }, { X86_GRP_AVX2, 2, 5 }, { X86_GRP_BMI2, 2, 8 },
		{ X86_GRP_ADX, 2, 19 }, { X86_GRP_SHA, 2, 29 }, { X86_GRP_AVX512, 2, 16 },
		{ X86_GRP_SSE4A, 3, 6 }, { X86_GRP_XOP, 3, 11 }, { X86_GRP_FMA4, 3, 16 },
		{ X86_GRP_TBM, 3, 21 }, { X86_GRP_3DNOW, 4, 0 }, { X86_GRP_VM, 4, 0 },
		{ X86_GRP_SGX, 4, 0 }, { X86_GRP_FSGSBASE, 4, 0 }, { X86_GRP_RTM, 4, 0 },
		{ X86_GRP_CDI, 4, 0 }, { X86_GRP_ERI, 4, 0 }, { X86_GRP_DQI, 4, 0 },
		{ X86_GRP_BWI, 4, 0 }, { X86_GRP_PFI, 4, 0 }, { X86_GRP_VLX, 4, 0 },
	};
	uint32_t regs[4] = { g->cpuid1_ecx, g->cpuid1_edx, g->cpuid7_ebx, g->cpuidx_ecx };

	for (size_t k = 0; k < NELEM(need); k++) {
		if (!has_group(in, need[k].grp))
			continue;
		if (need[k].reg == 4 || !(regs[need[k].reg] >> need[k].bit & 1))
			return false;
	}
	return true;
}

/* ---- families and undefined flags ---- */

struct family {
	const char *name;
	bool strict;
	const char *mnemonics; /* space separated; "*" prefix match with a trailing '*' */
};

static const struct family families[] = {
	{ "alu", true, "add adc sub sbb and or xor cmp test inc dec neg not" },
	{ "mul", true, "mul imul" },
	{ "div", true, "div idiv" },
	{ "shift", true, "shl sal shr sar rol ror rcl rcr shld shrd" },
	{ "bit", true, "bt bts btr btc bsf bsr lzcnt tzcnt popcnt bswap" },
	{ "move", true, "mov movabs movzx movsx movsxd lea xchg cmpxchg xadd cmpxchg8b "
			"cmpxchg16b cbw cwde cdqe cwd cdq cqo lahf sahf movbe xlatb nop movnti "
			"lds les lss lfs lgs" },
	{ "stack", true, "push pop pushal popal pushaw popaw pusha popa pushf pushfd pushfq "
			 "popf popfd popfq enter leave" },
	{ "branch", true, "jmp call ret loop loope loopne jcxz jecxz jrcxz jo jno jb jae je "
			  "jne jbe ja js jns jp jnp jl jge jle jg" },
	{ "cond", true, "seto setno setb setae sete setne setbe seta sets setns setp setnp "
			"setl setge setle setg cmovo cmovno cmovb cmovae cmove cmovne cmovbe "
			"cmova cmovs cmovns cmovp cmovnp cmovl cmovge cmovle cmovg salc" },
	{ "string", true, "movsb movsw movsd movsq cmpsb cmpsw cmpsd cmpsq scasb scasw scasd "
			  "scasq lodsb lodsw lodsd lodsq stosb stosw stosd stosq" },
	{ "bcd", true, "daa das aaa aas aam aad" },
	{ "flagop", true, "clc stc cmc cld std" },
	{ "crc32", true, "crc32" },
	{ "bmi", true, "andn bextr blsi blsmsk blsr bzhi mulx pdep pext rorx sarx shlx shrx "
		       "adcx adox" },
};

static const char *classify(const cs_insn *in, bool *strict)
{
	const char *m = base_mnemonic(in->mnemonic);
	size_t ml = strlen(m);

	if (has_group(in, X86_GRP_FPU) || m[0] == 'f') {
		*strict = false;
		return "x87";
	}
	if (has_group(in, X86_GRP_MMX)) {
		*strict = false;
		return "mmx";
	}
	/* VEX SIMD forms (their mnemonics start with v; VERR/VERW do not
	 * have the groups); the BMI forms are not SIMD and go by name below */
	if (m[0] == 'v') {
		static const struct { unsigned grp; const char *name; } vex_fams[] = {
			{ X86_GRP_FMA, "fma" }, { X86_GRP_F16C, "f16c" },
			{ X86_GRP_AVX2, "avx2" }, { X86_GRP_AVX, "avx" },
		};

		for (size_t k = 0; k < NELEM(vex_fams); k++)
			if (has_group(in, vex_fams[k].grp)) {
				*strict = true; /* exact results, host-checked (docs/cpu.md) */
				return vex_fams[k].name;
			}
	}
	for (size_t k = 0; k < NELEM(families); k++) {
		const char *s = families[k].mnemonics;

		while (*s) {
			const char *e = strchr(s, ' ');
			size_t l = e ? (size_t)(e - s) : strlen(s);

			/* cmpsd/movsd with operands are SSE2, not strings */
			if (l == ml && !memcmp(s, m, l) &&
			    !(in->detail->x86.op_count && !strcmp(families[k].name, "string") &&
			      in->detail->x86.operands[0].type == X86_OP_REG &&
			      in->detail->x86.operands[0].reg >= X86_REG_XMM0 &&
			      in->detail->x86.operands[0].reg <= X86_REG_XMM31)) {
				*strict = families[k].strict;
				return families[k].name;
			}
			s += l;
			while (*s == ' ')
				s++;
		}
	}
	for (unsigned k = 0; k < in->detail->groups_count; k++) {
		unsigned gr = in->detail->groups[k];

		if (gr == X86_GRP_AES || gr == X86_GRP_PCLMUL || gr == X86_GRP_SHA) {
			*strict = true; /* exact results, nothing left to the vendor */
			return "crypto";
		}
	}
	for (unsigned k = 0; k < in->detail->groups_count; k++) {
		unsigned gr = in->detail->groups[k];

		if (gr >= X86_GRP_SSE1 && gr <= X86_GRP_SSSE3) {
			*strict = false;
			return "sse";
		}
	}
	*strict = true;
	return "system";
}

#define U_CF 0x001
#define U_PF 0x004
#define U_AF 0x010
#define U_ZF 0x040
#define U_SF 0x080
#define U_OF 0x800

/* ---- registers ---- */

/* GPR number (0..15) of a Capstone register, its size, or -1. */
static int gpr_of(csh cs, unsigned reg, unsigned *size)
{
	static const char *const n64[16] = { "rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi",
					     "rdi", "r8", "r9", "r10", "r11", "r12", "r13",
					     "r14", "r15" };
	static const char *const n32[8] = { "eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi" };
	static const char *const n16[8] = { "ax", "cx", "dx", "bx", "sp", "bp", "si", "di" };
	const char *name = cs_reg_name(cs, reg);

	if (!name)
		return -1;
	for (int k = 0; k < 16; k++) {
		if (!strcmp(name, n64[k])) {
			*size = 8;
			return k;
		}
		if (k < 8 && !strcmp(name, n32[k])) {
			*size = 4;
			return k;
		}
		if (k < 8 && !strcmp(name, n16[k])) {
			*size = 2;
			return k;
		}
		if (k >= 8) {
			char b[8];

			snprintf(b, sizeof(b), "r%dd", k);
			if (!strcmp(name, b)) {
				*size = 4;
				return k;
			}
			snprintf(b, sizeof(b), "r%dw", k);
			if (!strcmp(name, b)) {
				*size = 2;
				return k;
			}
		}
	}
	return -1;
}

/* --vex: an operand of up to 32 bytes across either end of the region,
 * the page boundary anywhere inside it (the interpreter's 32-byte and
 * masked stores are several host stores: docs/cpu.md, AVX stores). */
static uint64_t straddle_ptr(struct gen *g)
{
	return chance(g, 50) ? DT_DATA + DT_DATA_SIZE - 1 - below(g, 31)
			      : DT_DATA - 1 - below(g, 31);
}

static uint64_t data_ptr(struct gen *g)
{
	unsigned off = below(g, DT_DATA_SIZE - 64) + 32;

	if (chance(g, 70))
		off &= ~7u;
	if (chance(g, 3)) /* straddle the end of the region */
		off = DT_DATA_SIZE - 1 - below(g, 8);
	if (g->vex_only && chance(g, 6))
		return straddle_ptr(g);
	return DT_DATA + off;
}

static uint64_t rnd_value(struct gen *g)
{
	static const uint64_t edge[] = { 0, 1, 2, ~0ull, 0x80000000ull, 0x7fffffffull,
					 0x8000000000000000ull, 0x7fffffffffffffffull,
					 0xffffffffull, 0x80, 0x7f, 0xff, 0x100, 0x8000, 0xffff,
					 63, 64, 31, 32, 9, 16, 17, 8 };
	switch (below(g, 6)) {
	case 0:
	case 1: return edge[below(g, NELEM(edge))];
	case 2: return gen_rnd(g) & 0xff;
	case 3: return gen_rnd(g) & 0xffff;
	default: return gen_rnd(g);
	}
}

static bool is_maskmov(const char *m)
{
	return !strcmp(m, "maskmovq") || !strcmp(m, "maskmovdqu") || !strcmp(m, "vmaskmovdqu");
}

static bool is_string(const char *m)
{
	static const char *const p[] = { "movs", "cmps", "scas", "lods", "stos", "ins", "outs" };

	for (size_t k = 0; k < NELEM(p); k++)
		if (!strncmp(m, p[k], strlen(p[k])) && strlen(m) == strlen(p[k]) + 1)
			return true;
	return false;
}

static uint64_t reg_val(const struct trial *t, int r, unsigned size)
{
	uint64_t v = t->r[r];

	return size == 8 ? v : size == 4 ? (uint32_t)v : (uint16_t)v;
}

/* Effective address of a memory operand (segment base included). */
static uint64_t mem_ea(struct gen *g, const struct trial *t, const cs_insn *in,
		       const x86_op_mem *m, uint64_t end)
{
	uint64_t a = (uint64_t)m->disp;
	unsigned sz, asz = in->detail->x86.addr_size;
	int r;

	if (m->base == X86_REG_RIP || m->base == X86_REG_EIP)
		a += end;
	else if (m->base != X86_REG_INVALID && (r = gpr_of(g->cs, m->base, &sz)) >= 0)
		a += reg_val(t, r, sz);
	if (m->index != X86_REG_INVALID && (r = gpr_of(g->cs, m->index, &sz)) >= 0)
		a += reg_val(t, r, sz) * (uint64_t)m->scale;
	a = asz == 8 ? a : asz == 4 ? (uint32_t)a : (uint16_t)a;
	if (m->segment == X86_REG_GS && g->m64)
		a += DT_GS_BASE;
	return g->m64 ? a : (uint32_t)a;
}

static bool is_sreg(x86_reg r)
{
	return r == X86_REG_ES || r == X86_REG_CS || r == X86_REG_SS || r == X86_REG_DS ||
	       r == X86_REG_FS || r == X86_REG_GS;
}

/* An address both sides fault on the same way, or the scratch region. */
static bool safe_addr(struct gen *g, uint64_t a, uint64_t span)
{
	if (a >= DT_GUARD_LO && a + span <= DT_GUARD_END)
		return true;
	if (a + span < 0x10000)
		return true;
	if (g->m64 && a >= 0x800000000000ull && a < 0xffff800000000000ull)
		return true; /* non-canonical: #GP */
	return false;
}

/* Point a memory operand into the scratch region. */
static void fix_mem(struct gen *g, struct trial *t, const cs_insn *in, const x86_op_mem *m,
		    unsigned at, uint64_t end)
{
	const cs_x86 *x = &in->detail->x86;
	uint64_t target = data_ptr(g), segbase = (m->segment == X86_REG_GS && g->m64) ? DT_GS_BASE : 0;
	unsigned sz, isz = 0;
	int b = -1, ix = -1;

	/* a VEX memory operand 0 is a store: one in five across an end */
	if (g->vex_only && m == &x->operands[0].mem && chance(g, 20))
		target = straddle_ptr(g);
	if (m->base != X86_REG_INVALID && m->base != X86_REG_RIP && m->base != X86_REG_EIP)
		b = gpr_of(g->cs, m->base, &sz);
	if (m->index != X86_REG_INVALID)
		ix = gpr_of(g->cs, m->index, &isz);
	if (x->addr_size == 2)
		return; /* 16-bit addresses are below 64 KiB: both fault */
	if (m->base == X86_REG_RIP || m->base == X86_REG_EIP || (b < 0 && ix < 0)) {
		int64_t d = (int64_t)(target - segbase) - (int64_t)((b < 0 && ix < 0 && m->base == X86_REG_INVALID) ? 0 : end);

		if (x->encoding.disp_size == 4 || x->encoding.disp_size == 8) {
			memcpy(t->code + at + x->encoding.disp_offset, &d, x->encoding.disp_size);
		} else if (x->encoding.disp_size == 0 && x->encoding.imm_size >= 4) {
			memcpy(t->code + at + x->encoding.imm_offset, &d, x->encoding.imm_size);
		}
		return;
	}
	if (b >= 0 && b == ix) {
		t->r[b] = (target - segbase - (uint64_t)m->disp) / (1u + (unsigned)m->scale);
	} else if (b >= 0) {
		uint64_t idx = ix >= 0 ? reg_val(t, ix, isz) * (uint64_t)m->scale : 0;

		if (ix >= 0 && chance(g, 50)) {
			t->r[ix] = below(g, 64);
			idx = t->r[ix] * (uint64_t)m->scale;
		}
		t->r[b] = target - segbase - (uint64_t)m->disp - idx;
	} else {
		t->r[ix] = (target - segbase - (uint64_t)m->disp) / (uint64_t)m->scale;
	}
	if (!g->m64) {
		if (b >= 0)
			t->r[b] = (uint32_t)t->r[b];
		if (ix >= 0)
			t->r[ix] = (uint32_t)t->r[ix];
	}
}

/* Undefined RFLAGS bits of the instruction, from the SDM; -1: the result
 * itself is undefined (skip the trial). */
static int64_t undefined_flags(struct gen *g, const struct trial *t, const cs_insn *in)
{
	const char *m = base_mnemonic(in->mnemonic);
	const cs_x86 *x = &in->detail->x86;
	static const struct { const char *m; uint64_t u; } fixed[] = {
		{ "mul", U_SF | U_ZF | U_AF | U_PF }, { "imul", U_SF | U_ZF | U_AF | U_PF },
		{ "div", 0x8d5 }, { "idiv", 0x8d5 },
		{ "and", U_AF }, { "or", U_AF }, { "xor", U_AF }, { "test", U_AF },
		{ "bt", U_OF | U_SF | U_AF | U_PF }, { "bts", U_OF | U_SF | U_AF | U_PF },
		{ "btr", U_OF | U_SF | U_AF | U_PF }, { "btc", U_OF | U_SF | U_AF | U_PF },
		{ "bsf", U_CF | U_OF | U_SF | U_AF | U_PF }, { "bsr", U_CF | U_OF | U_SF | U_AF | U_PF },
		{ "lzcnt", U_OF | U_SF | U_AF | U_PF }, { "tzcnt", U_OF | U_SF | U_AF | U_PF },
		{ "andn", U_AF | U_PF }, { "bextr", U_AF | U_SF | U_PF }, { "blsi", U_AF | U_PF },
		{ "blsmsk", U_AF | U_PF }, { "blsr", U_AF | U_PF }, { "bzhi", U_AF | U_PF },
		{ "aaa", U_OF | U_SF | U_ZF | U_PF }, { "aas", U_OF | U_SF | U_ZF | U_PF },
		{ "daa", U_OF }, { "das", U_OF }, { "aam", U_OF | U_AF | U_CF },
		{ "aad", U_OF | U_AF | U_CF },
	};
	static const char *const shifts[] = { "shl", "sal", "shr", "sar", "rol", "ror", "rcl",
					      "rcr", "shld", "shrd", NULL };
	unsigned width, count, masked;
	bool dbl;

	for (size_t k = 0; k < NELEM(fixed); k++)
		if (!strcmp(m, fixed[k].m))
			return (int64_t)fixed[k].u;
	if (!in_list(shifts, m))
		return 0;
	dbl = m[3] == 'd';
	/* Capstone may size a SHLD/SHRD memory operand wrongly: use the register */
	width = (dbl && x->op_count >= 2 ? x->operands[1].size : x->operands[0].size) * 8u;
	count = 1;
	if (x->op_count >= 2) {
		const cs_x86_op *c = &x->operands[x->op_count - 1];

		if (c->type == X86_OP_IMM)
			count = (unsigned)c->imm;
		else if (c->type == X86_OP_REG && c->reg == X86_REG_CL)
			count = (uint8_t)t->r[1];
	}
	masked = count & (width == 64 ? 63 : 31);
	if (masked == 0)
		return 0;
	if (dbl && masked > width)
		return -1;
	if (m[1] == 'c') /* rcl, rcr */
		return masked == 1 ? 0 : U_OF;
	if (m[1] == 'o') /* rol, ror */
		return masked == 1 ? 0 : U_OF;
	return U_AF | (masked == 1 ? 0 : U_OF) |
	       ((!strcmp(m, "shl") || !strcmp(m, "shr") || !strcmp(m, "sal")) && masked >= width ? U_CF : 0);
}

/* ---- input state ---- */

static void fill_state(struct gen *g, struct trial *t)
{
	for (int r = 0; r < 16; r++)
		t->r[r] = chance(g, 15) ? data_ptr(g) : rnd_value(g);
	t->r[4] = DT_DATA + 0x1000 + (below(g, 0x800) & ~7u);
	for (int r = 3; r <= 7; r++)
		if (r != 4 && chance(g, 50))
			t->r[r] = data_ptr(g);
	if (!g->m64)
		for (int r = 0; r < 16; r++)
			t->r[r] = r < 8 ? (uint32_t)t->r[r] : 0;
	t->rflags = 0x202 | (gen_rnd(g) & 0x8d5) | (chance(g, 10) ? 0x400 : 0);
	for (unsigned k = 0; k < DT_DATA_SIZE; k += 8) {
		uint64_t v = chance(g, 20) ? rnd_value(g) : gen_rnd(g);

		memcpy(t->data + k, &v, 8);
	}
	/* FXSAVE image: FCW, MXCSR, random XMM, an x87 stack of 0..8 values. */
	memset(t->fx, 0, sizeof(t->fx));
	uint16_t fcw = 0x37f, fsw;
	uint32_t mxcsr = 0x1f80 | (chance(g, 20) ? (below(g, 4) << 13) : 0), mxmask = 0xffff;
	unsigned depth = below(g, 9), top = (8 - depth) & 7;
	uint8_t tags = 0;

	if (chance(g, 20))
		fcw = (uint16_t)(0x37f & ~0x300) | (uint16_t)(below(g, 4) << 8) | (uint16_t)(below(g, 4) << 10);
	fsw = (uint16_t)(top << 11);
	memcpy(t->fx + 0, &fcw, 2);
	memcpy(t->fx + 2, &fsw, 2);
	memcpy(t->fx + 24, &mxcsr, 4);
	memcpy(t->fx + 28, &mxmask, 4);
	for (unsigned k = 0; k < depth; k++) {
		static const double edge[] = { 0.0, -0.0, 1.0, -1.5, 1e300, 3.0e-310, 0.5, 2.0 };
		long double v = chance(g, 30) ? (long double)edge[below(g, NELEM(edge))]
					      : (long double)(int64_t)gen_rnd(g) / (long double)(1 + below(g, 1000));
		memcpy(t->fx + 32 + 16 * k, &v, 10);
		tags |= (uint8_t)(1u << ((top + k) & 7));
	}
	t->fx[4] = tags;
	memset(t->ymmh, 0, sizeof(t->ymmh));
	for (unsigned k = 0; g->host_avx && k < (g->m64 ? 16u : 8u); k++)
		for (unsigned q = 0; q < 2; q++) {
			uint64_t v = chance(g, 10) ? 0 : rnd_value(g);

			memcpy(t->ymmh[k] + 8 * q, &v, 8);
		}
	for (unsigned k = 0; k < 16; k++)
		for (unsigned q = 0; q < 2; q++) {
			uint64_t v = rnd_value(g);

			if (chance(g, 30)) {
				double d = (double)(int64_t)gen_rnd(g) / 1024.0;
				memcpy(&v, &d, 8);
			}
			memcpy(t->fx + 160 + 16 * k + 8 * q, &v, 8);
		}
}

/* A register-only instruction before the tested one, so the flags it
 * reads come from a lazily recorded operation of each kind (ADD/ADC/SUB/
 * SBB, logic, INC/DEC, NEG, rotates, CMP/TEST). Only instructions that
 * define every flag they write (no shifts: AF; no IMUL). Its destination
 * is chosen after the tested instruction is decoded (prefix_patch), among
 * registers that instruction does not use for addresses or counts. */
struct prefix {
	unsigned len, modrm_at, rex_at; /* rex_at: 0 = none, else offset + 1 */
	bool writes;
};

static unsigned flag_setter(struct gen *g, uint8_t *p, struct prefix *pf)
{
	static const struct { uint8_t op; int8_t digit; bool writes; } ops[] = {
		{ 0x01, -1, true }, { 0x11, -1, true }, { 0x19, -1, true }, { 0x29, -1, true },
		{ 0x21, -1, true }, { 0x09, -1, true }, { 0x31, -1, true }, { 0x39, -1, false },
		{ 0x85, -1, false }, { 0x38, -1, false }, { 0x84, -1, false },
		{ 0xff, 0, true }, { 0xff, 1, true }, { 0xf7, 3, true },
		{ 0xd1, 0, true }, { 0xd1, 1, true }, { 0xd1, 2, true }, { 0xd1, 3, true },
	};
	unsigned k = below(g, NELEM(ops)), n = 0;
	unsigned reg = ops[k].digit >= 0 ? (unsigned)ops[k].digit : below(g, 8);

	memset(pf, 0, sizeof(*pf));
	if (g->m64 && chance(g, 60)) {
		pf->rex_at = n + 1;
		p[n++] = (uint8_t)(0x40 | (chance(g, 60) ? 8 : 0) |
				   (ops[k].digit < 0 && chance(g, 50) ? 4 : 0));
	} else if (ops[k].op != 0x38 && ops[k].op != 0x84 && chance(g, 20)) {
		p[n++] = 0x66;
	}
	p[n++] = ops[k].op;
	pf->modrm_at = n;
	p[n++] = (uint8_t)(0xc0 | reg << 3 | below(g, 8));
	pf->len = n;
	pf->writes = ops[k].writes;
	return n;
}

/* Give the flag setter a destination the tested instruction leaves alone. */
static void prefix_patch(struct gen *g, struct trial *t, const cs_insn *in, const struct prefix *pf)
{
	const cs_x86 *x = &in->detail->x86;
	uint32_t busy = 1u << 4 | 1u << 1; /* RSP; RCX (counts, the CL masks) */
	unsigned sz, cand[16], n = 0;
	int r;

	if (!pf->writes)
		return;
	for (unsigned k = 0; k < x->op_count; k++) {
		if (x->operands[k].type == X86_OP_MEM) {
			if ((r = gpr_of(g->cs, x->operands[k].mem.base, &sz)) >= 0)
				busy |= 1u << r;
			if ((r = gpr_of(g->cs, x->operands[k].mem.index, &sz)) >= 0)
				busy |= 1u << r;
		} else if (x->operands[k].type == X86_OP_REG &&
			   (has_group(in, X86_GRP_JUMP) || has_group(in, X86_GRP_CALL)) &&
			   (r = gpr_of(g->cs, x->operands[k].reg, &sz)) >= 0) {
			busy |= 1u << r;
		}
	}
	busy |= 1u << 3 | 1u << 5 | 1u << 6 | 1u << 7; /* strings, XLAT, ENTER/LEAVE */
	for (unsigned k = 0; k < (pf->rex_at ? 16u : 8u); k++)
		if (!(busy >> k & 1))
			cand[n++] = k;
	if (!n) { /* nothing free: TEST instead (flags only) */
		t->code[pf->modrm_at - 1] = 0x85;
		return;
	}
	r = (int)cand[below(g, n)];
	t->code[pf->modrm_at] = (uint8_t)((t->code[pf->modrm_at] & ~7u) | (r & 7));
	if (pf->rex_at)
		t->code[pf->rex_at - 1] = (uint8_t)((t->code[pf->rex_at - 1] & ~1u) | (r >> 3));
}

bool host_has_avx_state(void)
{
	uint32_t a, b, c, d, xcr0_lo, xcr0_hi;

	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(1), "c"(0));
	if ((c & (1u << 27 | 1u << 28)) != (1u << 27 | 1u << 28)) /* OSXSAVE, AVX */
		return false;
	__asm__ volatile("xgetbv" : "=a"(xcr0_lo), "=d"(xcr0_hi) : "c"(0));
	(void)xcr0_hi;
	return (xcr0_lo & 6) == 6;
}

/* LAR of the 32-bit user code selector: ZF = 1 when the descriptor is
 * present (a kernel without IA32 emulation clears it). Never faults. */
static bool host_has_compat_cs(void)
{
	uint32_t ar = 0;
	uint8_t zf;

	__asm__ volatile("lar %2, %0; setz %1" : "+r"(ar), "=q"(zf) : "r"(0x23u) : "cc");
	return zf;
}

/* The selector a segment load, LAR or LSL reads, if it is one of the
 * 32-bit code segment's 0x20..0x23: on a host without that segment the
 * native side faults (or LAR fails) where sysgate, which models a kernel
 * with IA32 emulation, loads it. */
static bool reads_compat_selector(struct gen *g, const struct trial *t, const cs_insn *in,
				  uint64_t end, bool prefixed)
{
	const cs_x86 *x = &in->detail->x86;
	const char *m = base_mnemonic(in->mnemonic);
	const cs_x86_op *src = NULL;
	uint64_t a;
	uint16_t v;
	unsigned sz;
	int r;

	if ((!strcmp(m, "mov") && x->op_count == 2 && x->operands[0].type == X86_OP_REG &&
	     (x->operands[0].reg == X86_REG_ES || x->operands[0].reg == X86_REG_SS ||
	      x->operands[0].reg == X86_REG_DS || x->operands[0].reg == X86_REG_FS ||
	      x->operands[0].reg == X86_REG_GS)) ||
	    ((!strcmp(m, "lar") || !strcmp(m, "lsl")) && x->op_count == 2))
		src = &x->operands[1];
	else if ((!strcmp(m, "verr") || !strcmp(m, "verw")) && x->op_count == 1)
		src = &x->operands[0];
	if (src && src->type == X86_OP_REG) {
		/* the flag setter before it may change the register: left out */
		r = gpr_of(g->cs, src->reg, &sz);
		return r >= 0 && (prefixed || (t->r[r] & 0xfffc) == 0x20);
	}
	if (src && src->type == X86_OP_MEM) {
		a = mem_ea(g, t, in, &src->mem, end);
	} else if (!strcmp(m, "pop") && x->op_count == 1 && x->operands[0].type == X86_OP_REG &&
		   x->operands[0].reg >= X86_REG_CS && x->operands[0].reg <= X86_REG_SS) {
		a = g->m64 ? t->r[4] : (uint32_t)t->r[4];
	} else if ((!strcmp(m, "lds") || !strcmp(m, "les") || !strcmp(m, "lss") ||
		    !strcmp(m, "lfs") || !strcmp(m, "lgs")) && x->op_count == 2 &&
		   x->operands[1].type == X86_OP_MEM) {
		a = mem_ea(g, t, in, &x->operands[1].mem, end) + x->operands[0].size;
	} else {
		return false;
	}
	if (a < DT_DATA || a + 2 > DT_DATA + DT_DATA_SIZE)
		return false;
	memcpy(&v, t->data + (a - DT_DATA), 2);
	return (v & 0xfffc) == 0x20;
}

/* A mode-32 load of SS with a TLS selector (GDT entries 12..14, glibc's
 * GS is 0x63): a valid stack segment whose base is the TLS block, so the
 * -m32 runner's exit stub, which addresses through SS, writes the results
 * to the wrong place and faults. Left out as unsafe; a selector another
 * instruction of the snippet may change is left out too. */
static bool loads_tls_ss(struct gen *g, const struct trial *t, const cs_insn *in, uint64_t end,
			 bool prefixed)
{
	const cs_x86 *x = &in->detail->x86;
	const char *m = base_mnemonic(in->mnemonic);
	uint64_t a;
	uint16_t v;
	unsigned sz;
	int r;

	if (g->m64)
		return false;
	if (!strcmp(m, "mov") && x->op_count == 2 && x->operands[0].type == X86_OP_REG &&
	    x->operands[0].reg == X86_REG_SS) {
		if (x->operands[1].type == X86_OP_REG) {
			r = gpr_of(g->cs, x->operands[1].reg, &sz);
			return r < 0 || prefixed || (t->r[r] & 0xfff8) == 0x60 ||
			       (t->r[r] & 0xfff8) == 0x68 || (t->r[r] & 0xfff8) == 0x70;
		}
		a = mem_ea(g, t, in, &x->operands[1].mem, end);
	} else if (!strcmp(m, "pop") && x->op_count == 1 && x->operands[0].type == X86_OP_REG &&
		   x->operands[0].reg == X86_REG_SS) {
		a = (uint32_t)t->r[4];
	} else if (!strcmp(m, "lss") && x->op_count == 2 && x->operands[1].type == X86_OP_MEM) {
		a = mem_ea(g, t, in, &x->operands[1].mem, end) + x->operands[0].size;
	} else {
		return false;
	}
	if (prefixed)
		return true;
	if (a < DT_DATA || a + 2 > DT_DATA + DT_DATA_SIZE)
		return false;
	memcpy(&v, t->data + (a - DT_DATA), 2);
	v &= 0xfff8;
	return v == 0x60 || v == 0x68 || v == 0x70;
}

/* Encodings AMD defines differently from Intel (whom sysgate follows), by
 * their bytes (Capstone drops some prefixes from its detail):
 * F3 REX.B 90 is XCHG r8, rAX on AMD (Intel: PAUSE); LSS/LFS/LGS ignore
 * REX.W (Intel: m16:64); LOCK MOV CR0 is MOV CR8 (Intel: #UD; in ring 3
 * AMD raises #GP); 16-bit MOVSXD (66 63, no REX.W) reads 32 bits of
 * memory (Intel: 16); SSE4A (F2/F3 0F 2B, 66/F2 0F 78/79) runs, even
 * where CPUID hides it (Intel, and sysgate: #UD or another meaning). */
static bool has_mem_operand(const cs_insn *in)
{
	for (unsigned k = 0; k < in->detail->x86.op_count; k++)
		if (in->detail->x86.operands[k].type == X86_OP_MEM)
			return true;
	return false;
}

/* The VEX and SHA differences (docs/cpu.md): outside 64-bit mode AMD
 * raises #UD for VEX.W1 VPINSRQ/VPEXTRQ (Intel runs VPINSRD/VPEXTRD); AMD
 * runs VPERMQ/VPERMPD with VEX.W0 (Intel #UD) and SHA on an unaligned
 * m128 (Intel #GP). op: the opcode's first byte. */
static bool vex_differs(const struct gen *g, const cs_insn *in, const uint8_t *op)
{
	const char *m = in->mnemonic;

	if (!g->m64 && (!strcmp(m, "vpinsrq") || !strcmp(m, "vpextrq")))
		return true;
	if ((!strcmp(m, "vpermq") || !strcmp(m, "vpermpd")) && op[0] == 0xc4 && !(op[2] & 0x80))
		return true;
	return !strncmp(m, "sha", 3) && has_mem_operand(in);
}

static bool amd_differs(const struct gen *g, const cs_insn *in, const uint8_t *b)
{
	bool f0 = false, f2 = false, f3 = false, o16 = false;
	unsigned rex = 0, k = 0;

	for (; k < in->size; k++) {
		if (b[k] == 0xf0)
			f0 = true;
		else if (b[k] == 0xf3)
			f3 = true;
		else if (b[k] == 0x66)
			o16 = true;
		else if (b[k] == 0xf2)
			f2 = true;
		else if (g->m64 && (b[k] & 0xf0) == 0x40)
			rex = b[k];
		else if (!(b[k] == 0xf2 || b[k] == 0x66 || b[k] == 0x67 || b[k] == 0x26 ||
			   b[k] == 0x2e || b[k] == 0x36 || b[k] == 0x3e || b[k] == 0x64 ||
			   b[k] == 0x65))
			break;
		if ((b[k] & 0xf0) != 0x40)
			rex = 0; /* a REX counts only right before the opcode */
	}
	if (k >= in->size)
		return false;
	if (b[k] == 0x90 && f3 && (rex & 1))
		return true;
	if (g->m64 && b[k] == 0x63 && o16 && !(rex & 8))
		return true;
	if (b[k] == 0x0f && k + 1 < in->size) {
		uint8_t op = b[k + 1];

		if ((op == 0xb2 || op == 0xb4 || op == 0xb5) && (rex & 8))
			return true;
		if ((op == 0x20 || op == 0x22) && f0)
			return true;
		if (op == 0x2b && (f2 || f3))
			return true; /* SSE4A MOVNTSD/MOVNTSS */
		if ((op == 0x78 || op == 0x79) && (f2 || o16))
			return true; /* SSE4A INSERTQ/EXTRQ */
	}
	/* LOOPNE/LOOPE (E0/E1) with F3 test ZF as LOOPE, with F2 as LOOPNE
	 * (measured on an EPYC: the REP prefix's condition wins); sysgate
	 * ignores both, as for any non-string instruction. Seen only since
	 * conditional branches have a displacement (gen_tail). */
	if ((b[k] == 0xe0 || b[k] == 0xe1) && (f2 || f3))
		return true;
	return vex_differs(g, in, b + k);
}

/* ---- long-mode twins of mode-32 trials ---- */

/* One-byte opcodes whose 32-bit meaning is not the 64-bit one: invalid in
 * 64-bit mode (PUSH/POP seg, BCD, PUSHA/POPA, BOUND, ARPL, far CALL/JMP,
 * LES/LDS (VEX there), INTO, AAM/AAD, SALC), or of another size there (the stack: PUSH/POP, PUSHF/POPF,
 * CALL, RET, ENTER/LEAVE; indirect branches: a 64-bit target). MOV r/m,
 * Sreg reads a selector the two processes do not share. Relative Jcc/JMP/
 * LOOP/JECXZ stay: the generator gives them displacement 5 (over the
 * tail's first JMP, gen_tail: the twin gets the same tail), and 66 (IP truncated to 16 bits in 32-bit
 * mode) is refused by the caller. With 66 the stack operations are 16-bit
 * in both modes (PUSH/POP r16, imm, m16, PUSHF/POPF, ENTER/LEAVE): the
 * twin's 64-bit RSP/RBP have zero upper halves, so they do the same. */
static bool op1_differs(uint8_t op, uint8_t modrm, bool p66)
{
	static const uint8_t list[] = { 0x06, 0x07, 0x0e, 0x16, 0x17, 0x1e, 0x1f, 0x27, 0x2f,
					0x37, 0x3f, 0x68, 0x6a, 0x82, 0x8c, 0x8e, 0x8f, 0x9a,
					0x9c, 0x9d, 0xc2, 0xc3, 0xc4, 0xc5, 0xc8, 0xc9, 0xca,
					0xcb, 0xce, 0xcf, 0xd4, 0xd5, 0xd6, 0xea };
	unsigned reg = modrm >> 3 & 7;

	if (p66 && ((op >= 0x50 && op <= 0x5f) || op == 0x68 || op == 0x6a || op == 0x8f ||
		    op == 0x9c || op == 0x9d || op == 0xc8 || op == 0xc9 || (op == 0xff && reg == 6)))
		return false;
	if ((op >= 0x40 && op <= 0x63) || op == 0xe8)
		return true;
	if (op == 0xff && reg >= 2 && reg <= 6)
		return true; /* indirect CALL/JMP (near: 64-bit), far, PUSH */
	/* FNSTENV/FNSAVE store FCS (0x23 or 0x33) and the FIP of the copy */
	if ((op == 0xd9 || op == 0xdd) && reg == 6 && modrm < 0xc0)
		return true;
	return memchr(list, op, sizeof(list)) != NULL;
}

/* 0F opcodes: descriptor tables and selectors (0F 00..03), SYSCALL/
 * SYSRET/SYSENTER/SYSEXIT, PUSH/POP FS/GS, LSS/LFS/LGS. */
static bool op2_differs(uint8_t op)
{
	return op <= 0x03 || op == 0x05 || op == 0x07 || op == 0x34 || op == 0x35 ||
	       op == 0xa0 || op == 0xa1 || op == 0xa8 || op == 0xa9 || op == 0xb2 ||
	       op == 0xb4 || op == 0xb5;
}

/* An access from the top page of the 4 GiB may run past it: a 32-bit
 * process wraps to address 0, 64-bit code with 32-bit addresses goes on
 * to 0x100000000 (the fault addresses differ). */
static bool near_4g(uint64_t a)
{
	return (uint32_t)a >= 0xfffff000u;
}

bool gen_long_twin(struct gen *g, const struct trial *t, struct long_twin *w)
{
	cs_insn *all = NULL;
	size_t cnt = cs_disasm(g->cs, t->code, t->len, DT_CODE, 0, &all);
	unsigned from = 0;
	bool ok = cnt >= 1 && cnt <= 2;

	memset(w, 0, sizeof(*w));
	for (size_t n = 0; ok && n < cnt; n++) {
		const cs_insn *in = &all[n];
		const cs_x86 *x = &in->detail->x86;
		const uint8_t *b = t->code + from;
		unsigned k = 0, modrm_at = 0, to = w->len;
		bool mem = false, p66 = false;

		w->at[n] = from;
		w->twin_at[n] = to;
		/* legacy prefixes: 67 would ask for 16-bit addresses (none in
		 * 64-bit mode); 64/65/2E are not generated in mode 32 */
		while (k < in->size && (b[k] == 0x66 || b[k] == 0xf0 || b[k] == 0xf2 || b[k] == 0xf3 ||
					b[k] == 0x26 || b[k] == 0x36 || b[k] == 0x3e)) {
			p66 |= b[k] == 0x66;
			k++;
		}
		if (k >= in->size || b[k] == 0x67 || b[k] == 0x64 || b[k] == 0x65 || b[k] == 0x2e) {
			ok = false;
			break;
		}
		if (b[k] == 0x0f) {
			if (k + 1 >= in->size || op2_differs(b[k + 1]))
				ok = false;
		} else if (!(b[k] >= 0x40 && b[k] <= 0x4f) && b[k] != 0x82 &&
			   op1_differs(b[k], k + 1 < in->size ? b[k + 1] : 0, p66)) {
			ok = false;
		}
		/* the same instruction in its 64-bit encoding: INC/DEC r (40..4F,
		 * REX there) as FF /0 and FF /1, 82 (invalid there) as 80 */
		uint8_t ib[16];
		unsigned isz = in->size;

		memcpy(ib, b, isz);
		if (b[k] >= 0x40 && b[k] <= 0x4f && k + 1 == isz) {
			ib[k] = 0xff;
			ib[k + 1] = (uint8_t)(0xc0 | (b[k] & 0x0f));
			isz++;
		} else if (b[k] == 0x82) {
			ib[k] = 0x80;
		}
		if (p66 && has_group(in, X86_GRP_BRANCH_RELATIVE))
			ok = false;
		for (unsigned o = 0; o < x->op_count; o++) {
			if (x->operands[o].type != X86_OP_MEM)
				continue;
			mem = true;
			if (near_4g(mem_ea(g, t, in, &x->operands[o].mem, DT_CODE + from + in->size)))
				ok = false;
		}
		/* implicit memory: strings, INS/OUTS, XLAT, MOV moffs, MASKMOV;
		 * LOOP/JECXZ: 67 makes them count with ECX in 64-bit mode */
		if ((b[k] >= 0xa0 && b[k] <= 0xa7) || (b[k] >= 0xaa && b[k] <= 0xaf) ||
		    (b[k] >= 0x6c && b[k] <= 0x6f) || b[k] == 0xd7 ||
		    (b[k] == 0x0f && k + 1 < in->size && b[k + 1] == 0xf7)) {
			mem = true;
			if (near_4g(t->r[3]) || near_4g(t->r[6]) || near_4g(t->r[7]))
				ok = false;
		}
		mem |= b[k] >= 0xe0 && b[k] <= 0xe3;
		/* the ModRM byte right after the opcode, if Capstone saw one there */
		modrm_at = b[k] != 0x0f ? k + 1 : b[k + 1] == 0x38 || b[k + 1] == 0x3a ? k + 3 : k + 2;
		if (x->encoding.modrm_offset != modrm_at || modrm_at >= in->size ||
		    b[modrm_at] != x->modrm || x->modrm >= 0xc0)
			modrm_at = 0;
		if (!ok || isz > 15 || to + isz + 2 > DT_CODE_MAX - 8) {
			ok = false;
			break;
		}
		/* 67: 32-bit addresses in 64-bit mode, wrapped as in 32-bit mode */
		if (mem)
			w->code[to++] = 0x67;
		if (modrm_at && (x->modrm & 0xc7) == 0x05) {
			/* disp32 alone is RIP-relative in 64-bit mode: the same
			 * absolute address through a SIB with neither base nor index */
			memcpy(w->code + to, ib, modrm_at);
			to += modrm_at;
			w->code[to++] = (uint8_t)((x->modrm & ~7u) | 4);
			w->code[to++] = 0x25;
			memcpy(w->code + to, ib + modrm_at + 1, isz - modrm_at - 1);
			to += isz - modrm_at - 1;
		} else {
			memcpy(w->code + to, ib, isz);
			to += isz;
		}
		if (to - w->twin_at[n] > 15) {
			ok = false;
			break;
		}
		w->len = to;
		from += in->size;
		w->ninsn = (unsigned)n + 1;
	}
	ok = ok && from == t->len;
	w->at[w->ninsn] = from;
	w->twin_at[w->ninsn] = w->len;
	if (cnt)
		cs_free(all, cnt);
	if (!ok)
		g->no_twin++;
	return ok;
}

int gen_init(struct gen *g, bool m64, uint64_t seed)
{
	uint32_t out[4];

	memset(g, 0, sizeof(*g));
	g->m64 = m64;
	g->rng = seed * 0x9e3779b97f4a7c15ull + (m64 ? 64 : 32);
	if (!g->rng)
		g->rng = 1;
	if (cs_open(CS_ARCH_X86, m64 ? CS_MODE_64 : CS_MODE_32, &g->cs) != CS_ERR_OK)
		return -1;
	cs_option(g->cs, CS_OPT_DETAIL, CS_OPT_ON);
	cpu_cpuid(1, 0, out);
	g->cpuid1_ecx = out[2];
	g->cpuid1_edx = out[3];
	cpu_cpuid(7, 0, out);
	g->cpuid7_ebx = out[1];
	cpu_cpuid(0x80000001u, 0, out);
	g->cpuidx_ecx = out[2];
	g->host_amd = host_cpu_is_amd();
	g->host_compat_cs = host_has_compat_cs();
	g->host_avx = host_has_avx_state();
	/* what sysgate reports, less what the host cannot run: the host is
	 * the oracle (AVX, FMA, F16C, AVX2 also need its XCR0) */
	__asm__ volatile("cpuid" : "=a"(out[0]), "=b"(out[1]), "=c"(out[2]), "=d"(out[3])
			 : "a"(1), "c"(0));
	g->cpuid1_ecx &= out[2];
	g->cpuid1_edx &= out[3];
	__asm__ volatile("cpuid" : "=a"(out[0]), "=b"(out[1]), "=c"(out[2]), "=d"(out[3])
			 : "a"(7), "c"(0));
	g->cpuid7_ebx &= out[1];
	if (!g->host_avx) {
		g->cpuid1_ecx &= ~(1u << 28 | 1u << 29 | 1u << 12);
		g->cpuid7_ebx &= ~(1u << 5);
	}
	return 0;
}

void gen_fini(struct gen *g)
{
	cs_close(&g->cs);
}

void gen_tail(uint8_t *code, unsigned len)
{
	int32_t rel = (int32_t)(DT_EXIT - (DT_CODE + len + 5));

	code[len] = 0xe9;
	memcpy(code + len + 1, &rel, 4);
	code[len + 5] = 0xf5; /* CMC: a taken conditional branch */
	rel = (int32_t)(DT_EXIT - (DT_CODE + len + DT_TAIL_LEN));
	code[len + 6] = 0xe9;
	memcpy(code + len + 7, &rel, 4);
}

bool gen_trial(struct gen *g, struct trial *t)
{
	uint8_t cand[64];
	cs_insn *in = NULL;
	unsigned at, n, kind = below(g, 10);
	const char *m;
	uint64_t end;
	int64_t undef;
	bool ok = false;

	memset(t, 0, offsetof(struct trial, r));
	t->m64 = g->m64;
	fill_state(g, t);
	/* 55% integer templates, 20% SIMD/x87 templates, 25% random bytes */
	n = candidate(g, cand, g->vex_only ? 3 : kind < 5 ? 0 : kind < 7 ? 1 : 2);
	struct prefix pf = { 0 };

	at = chance(g, 30) ? flag_setter(g, t->code, &pf) : 0;
	if (cs_disasm(g->cs, cand, n, DT_CODE + at, 1, &in) != 1) {
		g->invalid++;
		return false;
	}
	m = base_mnemonic(in->mnemonic);
	if (in_list(rejected, m) || !advertised(g, in))
		goto out;
	if (!strcmp(m, "int") && in->detail->x86.operands[0].imm == 0x80)
		goto out;
	/* INT n with a vector the SDM reserves (0x15..0x1f; AMD uses some,
	 * hypervisors others): what the host's IDT has there varies (one VM
	 * returns from INT 0x1a, faults after INT 0x17); sysgate models a
	 * Linux IDT: #GP. */
	if (!strcmp(m, "int") && in->detail->x86.operands[0].imm >= 0x15 &&
	    in->detail->x86.operands[0].imm <= 0x1f)
		goto out_vendor;
	if (g->m64 && has_group(in, X86_GRP_BRANCH_RELATIVE) && in->detail->x86.prefix[2])
		goto out; /* Capstone takes 66 as rel16; Intel ignores it in 64-bit mode */
	/* AMD honours 66 on near JMP/CALL/RET in 64-bit mode (16-bit IP and
	 * stack slot); Intel, and sysgate, ignore it. */
	if (g->m64 && g->host_amd && in->detail->x86.prefix[2] == 0x66 &&
	    (has_group(in, X86_GRP_JUMP) || has_group(in, X86_GRP_CALL) || has_group(in, X86_GRP_RET)))
		goto out_vendor;
	if (g->host_amd && amd_differs(g, in, cand))
		goto out_vendor;
	if (!(g->cpuid1_ecx >> 20 & 1)) {
		/* F2 0F 38 F0/F1 is CRC32 (SSE4.2, not reported); Capstone may
		 * call it MOVBE when 66 is there too */
		bool f2 = false;

		for (unsigned k = 0; k + 3 < in->size; k++) {
			if (cand[k] == 0xf2)
				f2 = true;
			if (cand[k] == 0x0f && cand[k + 1] == 0x38 && (cand[k + 2] & 0xfe) == 0xf0 && f2)
				goto out;
			if (cand[k] == 0x0f)
				break;
		}
	}
	bool p66 = false, prep = false;

	for (unsigned k = 0; k < in->size; k++) {
		uint8_t b = cand[k];

		if (b == 0x66)
			p66 = true;
		if (b == 0xf2 || b == 0xf3)
			prep = true;
		if (!(b == 0xf0 || b == 0xf2 || b == 0xf3 || b == 0x66 || b == 0x67 || b == 0x26 ||
		      b == 0x2e || b == 0x36 || b == 0x3e || b == 0x64 || b == 0x65 ||
		      (g->m64 && (b & 0xf0) == 0x40))) {
			/* Capstone drops 66 when F2/F3 is there too (the host does
			 * not, outside the SIMD maps); and it may miss F3 0F BC
			 * (TZCNT, BMI1, not reported) behind other prefixes */
			if (p66 && prep && b != 0x0f)
				goto out;
			if (prep && b == 0x0f && cand[k + 1] == 0xbc)
				goto out;
			break;
		}
	}
	for (unsigned k = 0; k < in->size; k++) {
		uint8_t b = cand[k];

		/* bases the two processes cannot share (any FS prefix; in 32-bit
		 * mode GS and CS too: Capstone reports only the last one) */
		if (b == 0x64 || (!g->m64 && (b == 0x65 || b == 0x2e)))
			goto out;
		if (!(b == 0xf0 || b == 0xf2 || b == 0xf3 || b == 0x66 || b == 0x67 || b == 0x26 ||
		      b == 0x2e || b == 0x36 || b == 0x3e || b == 0x65 || (g->m64 && (b & 0xf0) == 0x40)))
			break;
	}
	/* VEX/EVEX SIMD only where the host runs AVX (advertised() has the
	 * features); gathers' vector index cannot be kept in the scratch region */
	if (m[0] == 'v' && strcmp(m, "verr") && strcmp(m, "verw") &&
	    (!g->host_avx || strstr(m, "gather")))
		goto out;
	if (g->m64 && (!strcmp(m, "lfs") || !strcmp(m, "lgs") ||
		       ((!strcmp(m, "mov") || !strcmp(m, "pop")) &&
			in->detail->x86.operands[0].type == X86_OP_REG &&
			(in->detail->x86.operands[0].reg == X86_REG_FS ||
			 in->detail->x86.operands[0].reg == X86_REG_GS))))
		goto out; /* would replace the host's TLS base */
	memcpy(t->code + at, cand, in->size);
	t->len = at + in->size;
	t->ninsn = at ? 2 : 1;
	end = DT_CODE + t->len;
	t->family = classify(in, &t->strict);
	t->x87 = !strcmp(t->family, "x87");

	/* Operands: memory into the scratch region, branches to the next
	 * instruction. */
	const cs_x86 *x = &in->detail->x86;
	for (unsigned k = 0; k < x->op_count; k++)
		if (x->operands[k].type == X86_OP_MEM)
			fix_mem(g, t, in, &x->operands[k].mem, at, end);
	if (has_group(in, X86_GRP_BRANCH_RELATIVE) && x->encoding.imm_size) {
		/* over the first JMP of the tail (gen_tail): a taken branch
		 * flips CF */
		memset(t->code + at + x->encoding.imm_offset, 0, x->encoding.imm_size);
		t->code[at + x->encoding.imm_offset] = 5;
	}
	if (is_string(m) || !strcmp(m, "xlatb") || !strcmp(m, "enter") || !strcmp(m, "leave")) {
		t->r[6] = data_ptr(g);
		t->r[7] = data_ptr(g);
		t->r[3] = data_ptr(g) - below(g, 256);
		t->r[5] = data_ptr(g);
		if (chance(g, 50))
			t->r[1] = below(g, 40);
	}
	/* MASKMOVQ/MASKMOVDQU store through rDI: into the scratch data, or
	 * (one in ten) just below 4 GiB, where a mode-32 store wraps to 0
	 * (unmapped on both sides); never a random address, which a 32-bit
	 * runner's randomised stack may hold natively (seen: vmaskmovdqu at
	 * EDI = 0xff922bac ran natively, faulted interpreted) */
	if (is_maskmov(m))
		t->r[7] = chance(g, 10) ? 0xffffffffull - below(g, 16) : data_ptr(g);
	if (!strcmp(m, "popf") || !strcmp(m, "popfd") || !strcmp(m, "popfq")) {
		t->data[t->r[4] - DT_DATA + 1] &= (uint8_t)~1; /* no TF: single-step trap */
	}
	if (has_group(in, X86_GRP_JUMP) || has_group(in, X86_GRP_CALL) || has_group(in, X86_GRP_RET)) {
		const cs_x86_op *o = &x->operands[0];
		unsigned sz;
		int r;

		if (has_group(in, X86_GRP_RET)) {
			memcpy(t->data + (t->r[4] - DT_DATA), &end, g->m64 ? 8 : 4);
		} else if (!has_group(in, X86_GRP_BRANCH_RELATIVE) && x->op_count) {
			if (o->type == X86_OP_REG && (r = gpr_of(g->cs, o->reg, &sz)) >= 0) {
				t->r[r] = end;
			} else if (o->type == X86_OP_MEM) {
				uint64_t a = mem_ea(g, t, in, &o->mem, end);

				if (a >= DT_DATA && a + 8 <= DT_DATA + DT_DATA_SIZE)
					memcpy(t->data + (a - DT_DATA), &end, o->size < 8 ? o->size : 8);
			}
		}
	}
	/* Every access must land where both sides behave alike. */
	for (unsigned k = 0; k < x->op_count; k++) {
		const x86_op_mem *mm = &x->operands[k].mem;
		uint64_t a;

		if (x->operands[k].type != X86_OP_MEM)
			continue;
		a = mem_ea(g, t, in, mm, end);
		if (!safe_addr(g, a, 512))
			goto out_skip;
		(void)mm;
	}
	if (!safe_addr(g, g->m64 ? t->r[4] - 256 : (uint32_t)(t->r[4] - 256), 512))
		goto out_skip;
	if (!strncmp(m, "bt", 2) && x->op_count == 2 && x->operands[0].type == X86_OP_MEM &&
	    x->operands[1].type == X86_OP_REG) {
		/* a register bit offset reaches ±2^31 (or 2^63) bits from the operand */
		unsigned sz;
		int r = gpr_of(g->cs, x->operands[1].reg, &sz);
		int64_t off = r < 0 ? 0 : sz == 2 ? (int16_t)t->r[r] : sz == 4 ? (int32_t)t->r[r] : (int64_t)t->r[r];
		uint64_t a = mem_ea(g, t, in, &x->operands[0].mem, end) + (uint64_t)((off >> 3) & ~(int64_t)(sz - 1));

		if (!safe_addr(g, g->m64 ? a : (uint32_t)a, 8))
			goto out_skip;
	}
	if (is_string(m) || !strcmp(m, "xlatb") || !strcmp(m, "enter") || !strcmp(m, "leave")) {
		for (int r = 3; r <= 7; r++) {
			uint64_t v = g->m64 && x->addr_size == 8 ? t->r[r] : (uint32_t)t->r[r];

			if (x->addr_size == 2)
				v &= 0xffff;
			if (!safe_addr(g, v - 256, 512) && !safe_addr(g, v, 1))
				goto out_skip;
		}
	}
	if (!g->host_compat_cs && reads_compat_selector(g, t, in, end, at != 0))
		goto out_vendor;
	if (loads_tls_ss(g, t, in, end, at != 0))
		goto out_skip;
	if (is_string(m) && (!strncmp(m, "cmps", 4) || !strncmp(m, "scas", 4)) &&
	    (x->prefix[0] == X86_PREFIX_REP || x->prefix[0] == X86_PREFIX_REPNE))
		t->rep_cmp = true;
	if (is_string(m) && g->m64 && x->addr_size == 4 &&
	    (x->prefix[0] == X86_PREFIX_REP || x->prefix[0] == X86_PREFIX_REPNE))
		t->rep_a32 = true;
	/* VMASKMOVPS/PD, VPMASKMOVD/Q stores */
	if ((!strcmp(m, "vmaskmovps") || !strcmp(m, "vmaskmovpd") || !strcmp(m, "vpmaskmovd") ||
	     !strcmp(m, "vpmaskmovq")) &&
	    x->op_count == 3 && x->operands[0].type == X86_OP_MEM) {
		t->maskmov_ea = mem_ea(g, t, in, &x->operands[0].mem, end);
		t->maskmov_len = x->operands[0].size;
	}
	if (!strcmp(m, "vcvtps2ph") && x->operands[0].type == X86_OP_MEM)
		t->f16c_store = true;
	if (is_maskmov(m)) {
		uint64_t a = t->r[7];

		t->maskmov_amask = x->addr_size == 8 ? ~0ull : x->addr_size == 4 ? 0xffffffffull : 0xffff;
		a &= t->maskmov_amask;
		if (g->m64 && x->prefix[1] == X86_PREFIX_GS)
			a += DT_GS_BASE;
		t->maskmov_ea = g->m64 ? a : (uint32_t)a;
		/* 66 makes it MASKMOVDQU even where Capstone says MASKMOVQ
		 * (66 67 0F F7) */
		t->maskmov_len = m[7] == 'q' && x->prefix[2] != 0x66 ? 8 : 16;
	}
	if (is_string(m) && !strncmp(m, "cmps", 4))
		t->cmps_di_mask = x->addr_size == 2 ? 0xffff : x->addr_size == 4 ? 0xffffffffull : ~0ull;
	if (!g->m64 && !strcmp(m, "push") && x->op_count == 1 && x->operands[0].type == X86_OP_REG &&
	    x->prefix[2] != 0x66 && is_sreg(x->operands[0].reg))
		t->push_sreg32 = true;
	if (!strcmp(m, "bound") && x->op_count == 2 && x->operands[1].type == X86_OP_MEM) {
		t->bound_ea = (uint32_t)mem_ea(g, t, in, &x->operands[1].mem, end);
		t->bound_sz = x->operands[0].size;
	}
	if ((!strcmp(m, "fstp") || !strcmp(m, "fbstp")) && x->op_count == 1 &&
	    x->operands[0].type == X86_OP_MEM && x->operands[0].size == 10)
		t->split_store = true;
	if (at)
		prefix_patch(g, t, in, &pf);
	undef = undefined_flags(g, t, in);
	if (undef < 0)
		goto out_skip;
	t->flags_undef = (uint64_t)undef;
	gen_tail(t->code, t->len);
	{
		cs_insn *all = NULL;
		size_t cnt = cs_disasm(g->cs, t->code, t->len, DT_CODE, 0, &all);
		size_t used = 0;

		t->text[0] = 0;
		for (size_t k = 0; k < cnt; k++)
			used += (size_t)snprintf(t->text + used, used < sizeof(t->text) ? sizeof(t->text) - used : 0,
						 "%s%s %s", k ? "; " : "", all[k].mnemonic, all[k].op_str);
		if (cnt)
			cs_free(all, cnt);
	}
	ok = true;
	goto out;
out_vendor:
	g->vendor_skipped++;
	goto out;
out_skip:
	g->skipped++;
out:
	cs_free(in, 1);
	return ok;
}
