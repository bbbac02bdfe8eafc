/* SIMD differential tests: every row of opcodes_sse.def (MMX, SSE..SSE4.2,
 * and the C rows of sse_*.c) is encoded with random registers, random
 * register or memory forms (what the instruction allows), random REX bits
 * and immediates, and run natively and interpreted from the same random
 * XMM/MMX/MXCSR (rounding, FTZ, DAZ)/GPR/flags state; XMM, MXCSR, the x87
 * state (MMX aliasing), GPRs, flags and memory must match. SIMD_SEEDS
 * sets the trials per row in 64-bit mode (default 48; 32-bit mode runs a
 * sixth of them), SIMD_ROW limits them to the rows whose name contains it. */
#include <signal.h>
#include "test_cpu_simd_harness.h"
#include "cpu/insn.h"
#include "cpu/sse_host.h"

struct row {
	uint8_t map, opc, pfx;
	int grp;
	const char *name;
	unsigned flags;
	int src; /* -1: a C row */
	int dst;
	unsigned fl;
};

static const struct row rows[] = {
#define OP(map, opc, pfx, grp, handler, fl) { map, opc, pfx, grp, #handler, fl, -1, -1, 0 },
#define SIMD(map, opc, pfx, name, src, dst, fl, text) \
	{ map, opc, pfx, G_NONE, #name, F_MODRM, src, dst, fl },
#define SIMDI(map, opc, pfx, name, src, dst, fl, mask, text) \
	{ map, opc, pfx, G_NONE, #name, F_MODRM | F_I8, src, dst, fl },
#define SIMDW(map, opc, pfx, name, src, dst, fl, text, textw) \
	{ map, opc, pfx, G_NONE, #name, F_MODRM, src, dst, fl },
#define SIMDWI(map, opc, pfx, name, src, dst, fl, mask, text, textw) \
	{ map, opc, pfx, G_NONE, #name, F_MODRM | F_I8, src, dst, fl },
#define SIMDG(map, opc, pfx, grp, name, src, dst, fl, mask, text) \
	{ map, opc, pfx, grp, #name, F_MODRM | F_I8, src, dst, fl },
#include "cpu/opcodes_sse.def"
#undef OP
#undef SIMD
#undef SIMDI
#undef SIMDW
#undef SIMDWI
#undef SIMDG
};

#define FORM_REG 1
#define FORM_MEM 2

/* Which ModRM forms are valid (the others are #UD, or another instruction,
 * natively). */
static unsigned row_forms(const struct row *r)
{
	static const char *const mem_only[] = {
		"op_movlps_MqVx", "op_movhps_MqVx", "op_fxsave_M", "op_stmxcsr_Md",
	};
	static const char *const reg_only[] = { "op_maskmovq", "op_maskmovdqu" };

	if (r->grp == G_MEM_ANY || (r->grp >= 8 && r->grp < 16))
		return FORM_MEM;
	if (r->grp == G_REG_ANY || (r->grp >= 16 && r->grp < 24))
		return FORM_REG;
	if (r->src == SX || r->src == SMMR)
		return FORM_REG;
	if (r->src == SM128A || r->src == SM128U)
		return FORM_MEM;
	for (size_t k = 0; k < sizeof(mem_only) / sizeof(mem_only[0]); k++)
		if (!strcmp(r->name, mem_only[k]))
			return FORM_MEM;
	for (size_t k = 0; k < sizeof(reg_only) / sizeof(reg_only[0]); k++)
		if (!strcmp(r->name, reg_only[k]))
			return FORM_REG;
	/* non-temporal stores, MOVHPD xmm, MOVNTQ: memory only */
	if (r->map == M0F && (r->opc == 0x2b || r->opc == 0xe7))
		return FORM_MEM;
	if (r->map == M0F && r->opc == 0x16 && r->pfx == P_66)
		return FORM_MEM;
	return FORM_REG | FORM_MEM;
}

/* Rows tested elsewhere: their random memory would fault natively. */
static bool row_skipped(const struct row *r, bool mode32)
{
	if (!strcmp(r->name, "op_ldmxcsr_Md") || !strcmp(r->name, "op_fxrstor_M"))
		return true;
	/* 64-bit-mode FXSAVE natively writes XMM8..15, 32-bit mode does not */
	return mode32 && !strcmp(r->name, "op_fxsave_M");
}

static uint32_t rnd_f32(void)
{
	static const uint32_t edge[] = { 0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000,
					 0xffc00000, 0x7fa00000, 0x00000001, 0x807fffff,
					 0x3f800000, 0x3fc00000, 0x4f000000, 0xcf000000,
					 0x5f000000, 0x3effffff, 0x00800000 };
	uint64_t r = h_rnd();
	float f = (float)((int)(h_rnd() % 2001) - 1000) / 4; /* small, exact */
	uint32_t v;

	memcpy(&v, &f, 4);
	return r % 4 == 0 ? edge[(r >> 8) % 16] : r % 4 == 1 ? v : (uint32_t)h_rnd();
}

static uint64_t rnd_f64(void)
{
	static const uint64_t edge[] = { 0, 1ull << 63, 0x7ff0000000000000ull, 0xfff0000000000000ull,
					 0x7ff8000000000000ull, 0x7ff4000000000000ull, 1,
					 0x800fffffffffffffull, 0x3ff0000000000000ull,
					 0x3ff8000000000000ull, 0x41e0000000000000ull,
					 0xc3e0000000000000ull, 0x43e0000000000000ull,
					 0x3fdfffffffffffffull, 0x0010000000000000ull,
					 0x4330000000000001ull };
	uint64_t r = h_rnd();
	double d = (double)((int)(h_rnd() % 2001) - 1000) / 4;
	uint64_t v;

	memcpy(&v, &d, 8);
	return r % 4 == 0 ? edge[(r >> 8) % 16] : r % 4 == 1 ? v : h_rnd();
}

static void rnd_vec(uint8_t out[16])
{
	uint64_t r = h_rnd();

	for (int k = 0; k < 4; k++) {
		uint32_t v = r % 4 == 0 ? rnd_f32() : r % 4 == 1 ? (uint32_t)(h_rnd() % 40) * 0x01010101u
							: (uint32_t)h_rnd();
		memcpy(out + 4 * k, &v, 4);
	}
	if (r % 4 == 3)
		for (int k = 0; k < 2; k++) {
			uint64_t v = rnd_f64();
			memcpy(out + 8 * k, &v, 8);
		}
	if (r % 8 == 2) /* strings with a terminator for PCMPISTRx */
		out[h_rnd() % 16] = 0;
	if (r % 8 == 6) /* a small alphabet: PCMPxSTRx matches, ranges, word terminators */
		for (int k = 0; k < 16; k++)
			out[k] = (uint8_t)"\0\1\2\x81"[h_rnd() % 4];
}

static void rnd_state(struct fstate *s)
{
	static const int64_t lens[] = { 0, 1, 3, 8, 15, 16, 17, -1, -16, -17, 7, 0x7fffffff };

	memset(s, 0, sizeof(*s));
	for (int r = 0; r < 16; r++)
		s->r[r] = h_rnd() % 3 == 0 ? h_rnd() % 512 : h_rnd();
	if (h_rnd() % 2) {
		s->r[0] = (uint64_t)lens[h_rnd() % 12];
		s->r[2] = (uint64_t)lens[h_rnd() % 12];
	}
	s->r[6] = (uint64_t)(uintptr_t)(h_buf + 512);
	s->r[7] = (uint64_t)(uintptr_t)(h_buf + 1280);
	s->rflags = 0x202 | (h_rnd() & 0x8d5);
	s->fx.fcw = (uint16_t)(0x037f | (h_rnd() & 0xc00));
	s->fx.fsw = (uint16_t)(h_rnd() & 0x7f3f & ~0x80);
	s->fx.ftw = (uint8_t)h_rnd();
	s->fx.mxcsr = (uint32_t)(0x1f80 | (h_rnd() & 0xe07f));
	for (int k = 0; k < 8; k++) {
		uint64_t v = h_rnd();
		memcpy(s->fx.st[k], &v, 8);
		v = h_rnd() & 0xffff;
		memcpy(s->fx.st[k] + 8, &v, 2);
	}
	for (int k = 0; k < 16; k++)
		rnd_vec(s->fx.xmm[k]);
}

static void rnd_mem(void)
{
	for (int k = 0; k < HBUF_SIZE; k += 16)
		rnd_vec(h_buf + k);
}

/* Encodes row r: prefix, REX (64-bit mode), map, opcode, ModRM (+disp8 on
 * (%rsi), 16-byte aligned), imm8. */
static unsigned encode(const struct row *r, bool mode32, uint8_t *b)
{
	static const uint8_t pfx[] = { 0, 0x66, 0xf3, 0xf2 };
	unsigned n = 0, forms = row_forms(r), reg, rm, mod;
	uint8_t rex = 0;

	if (r->pfx != P_NP && r->pfx != P_ANY)
		b[n++] = pfx[r->pfx];
	if (!mode32)
		rex = (uint8_t)(0x40 | (h_rnd() & 0xf));
	reg = (unsigned)(h_rnd() & 7);
	rm = (unsigned)(h_rnd() & 7);
	if (reg == 4) /* as a GPR: the native stack pointer */
		reg = 3;
	if (rm == 4)
		rm = 1;
	mod = forms == FORM_REG ? 3 : forms == FORM_MEM ? 1 : (h_rnd() & 1 ? 3 : 1);
	if (r->grp >= 0 && r->grp < 24)
		reg = (unsigned)r->grp & 7;
	if (mod != 3) {
		rm = 6;
		rex &= ~1; /* base stays %rsi */
		rex &= ~2;
	}
	if (rex != 0x40 && rex)
		b[n++] = rex;
	b[n++] = 0x0f;
	if (r->map == M38)
		b[n++] = 0x38;
	else if (r->map == M3A)
		b[n++] = 0x3a;
	b[n++] = r->opc;
	if (!(r->flags & F_MODRM))
		return n;
	b[n++] = (uint8_t)(mod << 6 | reg << 3 | rm);
	if (mod == 1) {
		bool any_align = r->src >= 0 && r->src != S128A && r->src != SM128A;

		b[n++] = (uint8_t)(any_align && h_rnd() % 2 ? h_rnd() % 256
							  : 16 * (h_rnd() % 16) - 128);
	}
	if ((r->flags & F_IMM_MASK) == F_I8)
		b[n++] = (uint8_t)h_rnd();
	return n;
}

/* The instruction set a row belongs to, for the per-family counts. */
enum { FAM_MMX, FAM_SSE, FAM_SSE2, FAM_SSE3, FAM_SSSE3, FAM_SSE41, FAM_SSE42, FAM_OTHER, FAM_N };
static const char *const fam_names[FAM_N] = {
	"MMX", "SSE", "SSE2", "SSE3", "SSSE3", "SSE4.1", "SSE4.2", "FXSR/fences",
};
static unsigned fam_trials[FAM_N], fam_fails[FAM_N];

static int row_family(const struct row *r)
{
	static const char *const sse3[] = { "movddup", "movsldup", "movshdup", "haddpd", "haddps",
					    "hsubpd", "hsubps", "addsubpd", "addsubps", "lddqu" };
	static const uint8_t f3_sse[] = { 0x10, 0x11, 0x2a, 0x2c, 0x2d, 0x51, 0x52, 0x53, 0x58,
					  0x59, 0x5c, 0x5d, 0x5e, 0x5f, 0xc2 };

	if (r->map == M38 || r->map == M3A) {
		if (r->opc <= 0x0b || (r->opc >= 0x1c && r->opc <= 0x1e) ||
		    (r->map == M3A && r->opc == 0x0f))
			return FAM_SSSE3;
		if (r->opc == 0x37 || (r->opc >= 0x60 && r->opc <= 0x63) || r->opc >= 0xf0)
			return FAM_SSE42;
		return FAM_SSE41;
	}
	for (size_t k = 0; k < sizeof(sse3) / sizeof(sse3[0]); k++)
		if (!strcmp(r->name, sse3[k]))
			return FAM_SSE3;
	if (r->opc == 0xae || r->opc == 0x77)
		return r->opc == 0x77 ? FAM_MMX : FAM_OTHER;
	if ((r->fl & (SF_MMX | SF_MMXR)) && strncmp(r->name, "cvt", 3) &&
	    (r->opc < 0xd6 || r->opc > 0xd6))
		return FAM_MMX;
	if (strstr(r->name, "maskmovq") || strstr(r->name, "QqPq"))
		return FAM_MMX;
	if (r->pfx == P_NP)
		return FAM_SSE;
	if (r->pfx == P_F3)
		for (size_t k = 0; k < sizeof(f3_sse); k++)
			if (f3_sse[k] == r->opc)
				return FAM_SSE;
	return FAM_SSE2;
}

static unsigned run_rows(bool mode32, unsigned seeds, unsigned *trials)
{
	unsigned fails = 0;
	char name[160];

	for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
		const struct row *r = &rows[k];

		int fam = row_family(r);
		/* small families get more trials each (PCMPxSTRx above all) */
		unsigned n = seeds * (fam == FAM_SSE42 ? 8 : fam == FAM_SSE3 ? 4 : 1);

		if (row_skipped(r, mode32) || (getenv("SIMD_ROW") && !strstr(r->name, getenv("SIMD_ROW"))))
			continue;
		for (unsigned s = 0; s < n; s++) {
			struct fstate st;
			uint8_t code[16];
			unsigned len;

			h_rng = (k + 1) * 0x9e3779b97f4a7c15ull + s * 104729 + mode32;
			rnd_state(&st);
			rnd_mem();
			len = encode(r, mode32, code);
			snprintf(name, sizeof(name), "%s%s [%02x %02x %02x %02x %02x %02x %02x %02x]",
				 mode32 ? "32: " : "", r->name, code[0], code[1], code[2], code[3],
				 code[4], code[5], code[6], code[7]);
			if (getenv("SG_TEST_VERBOSE"))
				fprintf(stderr, "%s\n", name);
			{
				int bad = h_run(code, len, &st, mode32,
						CMP_X87 | CMP_SSE | CMP_GPR | CMP_MEM, 0x8d5, name);

				fails += (unsigned)bad;
				fam_fails[fam] += (unsigned)bad;
				fam_trials[fam]++;
			}
			(*trials)++;
		}
	}
	return fails;
}

/* Runs bytes in the interpreter only (what would fault natively). */
static struct cpu *interp_only(const uint8_t *bytes, unsigned len, const struct fstate *st)
{
	struct cpu *cpu = calloc(1, sizeof(*cpu));

	cpu_install_fault_handler();
	memcpy(h_code, bytes, len);
	h_code[len] = 0xcc;
	cpu_invalidate_code((uint64_t)(uintptr_t)h_code, 4096);
	cpu_init(cpu, CPU_MODE_64);
	h_load_cpu(cpu, st);
	cpu->r[4] = (uint64_t)(uintptr_t)(h_stack + 65536 - 64);
	cpu->rip = (uint64_t)(uintptr_t)h_code;
	cpu_run(cpu);
	return cpu;
}

static void done(struct cpu *cpu)
{
	cpu_release(cpu);
	free(cpu);
}

/* Legacy-SSE 16-byte operands must be aligned (#GP), unaligned forms and
 * SSE4.2 string operands need not; an unmasked SIMD FP exception is #XM with
 * the destination unchanged; LDMXCSR with a reserved bit is #GP; MMX with
 * an x87 exception pending is #MF. */
static void test_simd_faults(void **state)
{
	struct fstate st;
	struct cpu *cpu;
	float one = 1.0f;

	h_rng = 42;
	rnd_state(&st);
	st.r[6] = (uint64_t)(uintptr_t)(h_buf + 513);
	cpu = interp_only((const uint8_t *)"\x0f\x28\x06", 3, &st); /* movaps (%rsi),%xmm0 */
	assert_int_equal(cpu->fault.vector, VEC_GP);
	assert_int_equal(cpu->rip, (uintptr_t)h_code);
	done(cpu);
	cpu = interp_only((const uint8_t *)"\x66\x0f\xfe\x06", 4, &st); /* paddd (%rsi),%xmm0 */
	assert_int_equal(cpu->fault.vector, VEC_GP);
	done(cpu);
	cpu = interp_only((const uint8_t *)"\x66\x0f\x3a\x63\x06\x0c", 6, &st); /* pcmpistri */
	assert_int_equal(cpu->fault.vector, VEC_BP);
	done(cpu);

	/* register forms of memory-only instructions: movntps, movntdq, lddqu */
	cpu = interp_only((const uint8_t *)"\x0f\x2b\xc1", 3, &st);
	assert_int_equal(cpu->fault.vector, VEC_UD);
	done(cpu);
	cpu = interp_only((const uint8_t *)"\x66\x0f\xe7\xc1", 4, &st);
	assert_int_equal(cpu->fault.vector, VEC_UD);
	done(cpu);
	cpu = interp_only((const uint8_t *)"\xf2\x0f\xf0\xc1", 4, &st);
	assert_int_equal(cpu->fault.vector, VEC_UD);
	done(cpu);

	/* divps %xmm1,%xmm0 with ZM unmasked: 1/0 */
	st.fx.mxcsr = 0x1f80 & ~0x200;
	for (int k = 0; k < 4; k++) {
		memcpy(st.fx.xmm[0] + 4 * k, &one, 4);
		memset(st.fx.xmm[1] + 4 * k, 0, 4);
	}
	cpu = interp_only((const uint8_t *)"\x0f\x5e\xc1", 3, &st);
	assert_int_equal(cpu->fault.vector, VEC_XM);
	assert_int_equal(cpu->mxcsr & 0x3f, 0x04);
	assert_memory_equal(cpu->xmm[0].b, st.fx.xmm[0], 16);
	done(cpu);

	/* ldmxcsr (%rsi) with bit 16 set */
	st.r[6] = (uint64_t)(uintptr_t)(h_buf + 512);
	memcpy(h_buf + 512, &(uint32_t){ 0x11f80 }, 4);
	cpu = interp_only((const uint8_t *)"\x0f\xae\x16", 3, &st);
	assert_int_equal(cpu->fault.vector, VEC_GP);
	done(cpu);

	/* paddb %mm1,%mm0 with IE unmasked and set */
	st.fx.fcw = 0x37e;
	st.fx.fsw = 0x81;
	cpu = interp_only((const uint8_t *)"\x0f\xfc\xc1", 3, &st);
	assert_int_equal(cpu->fault.vector, VEC_MF);
	done(cpu);
}

/* LDMXCSR with valid random values, FXRSTOR (and FXRSTOR64) of a valid
 * random image, each followed by STMXCSR/FXSAVE so the result lands in
 * memory too. */
static void test_simd_restore(void **state)
{
	static const uint8_t ld[] = { 0x0f, 0xae, 0x16, 0x0f, 0xae, 0x5e, 0x10 };
	static const uint8_t rs[] = { 0x0f, 0xae, 0x0e, 0x0f, 0xae, 0x86, 0x00, 0x02, 0x00, 0x00 };
	static const uint8_t rs64[] = { 0x48, 0x0f, 0xae, 0x0e, 0x48, 0x0f, 0xae, 0x86,
					0x00, 0x02, 0x00, 0x00 };
	unsigned fails = 0, trials = 0;

	for (unsigned s = 0; s < 200; s++) {
		struct fstate st, img;
		uint32_t v;

		h_rng = 0x5eed + s;
		rnd_state(&st);
		rnd_mem();
		st.r[6] = (uint64_t)(uintptr_t)(h_buf);
		v = (uint32_t)(h_rnd() & 0xffff);
		memcpy(h_buf, &v, 4);
		fails += (unsigned)h_run(ld, sizeof(ld), &st, false, CMP_SSE | CMP_MEM, 0x8d5, "ldmxcsr");

		rnd_state(&img);
		img.fx.fcw |= 0x3f;
		img.fx.fsw &= (uint16_t)~0x80;
		img.fx.mxcsr &= 0xffff;
		memcpy(h_buf, &img.fx, 512);
		fails += (unsigned)h_run(s & 1 ? rs64 : rs, s & 1 ? sizeof(rs64) : sizeof(rs), &st,
					 false, CMP_X87 | CMP_SSE | CMP_MEM, 0x8d5, "fxrstor");
		trials += 2;
	}
	fprintf(stderr, "LDMXCSR/FXRSTOR: %u trials, %u mismatches\n", trials, fails);
	assert_int_equal(fails, 0);
}

static sigjmp_buf sig_jmp;

static void on_sig(int sig)
{
	siglongjmp(sig_jmp, sig);
}

/* Runs h_code natively from *st; the signal it raised, or 0. */
static __attribute__((noinline)) int native_signal(struct fstate *st)
{
	static const uint32_t mxcsr = 0x1f80;
	int sig = sigsetjmp(sig_jmp, 1);

	if (sig) {
		__asm__ volatile("fninit; ldmxcsr %0; cld" : : "m"(mxcsr));
		return sig;
	}
	run_native_fx(st, h_code);
	return 0;
}

/* AMD's SSE4A (docs/cpu.md, "Host vendor differences"): on an AMD host
 * MOVNTSS/MOVNTSD (F3/F2 0F 2B), EXTRQ (66 0F 78 /0 ib ib, 66 0F 79) and
 * INSERTQ (F2 0F 78 ib ib, F2 0F 79) run even where CPUID hides the
 * feature (this VM); Intel, and sysgate, raise #UD. */
static bool host_sse4a(unsigned map, unsigned pfx, unsigned opc)
{
	return h_host_amd() && map == M0F &&
	       ((opc == 0x2b && (pfx == P_F3 || pfx == P_F2)) ||
		((opc == 0x78 || opc == 0x79) && (pfx == P_66 || pfx == P_F2)));
}

/* Extensions beyond x86-64-v2 that CPUID does not report (SHA, AES-NI,
 * PCLMULQDQ, GFNI): the host runs them, the interpreter must not. */
static bool beyond_v2(unsigned map, unsigned pfx, unsigned opc)
{
	if (map == M38)
		return (pfx == P_NP && opc >= 0xc8 && opc <= 0xcd) ||
		       (pfx == P_66 && (opc == 0xcf || (opc >= 0xdb && opc <= 0xdf)));
	if (map == M3A)
		return (pfx == P_NP && opc == 0xcc) ||
		       (pfx == P_66 && (opc == 0x44 || opc == 0xce || opc == 0xcf || opc == 0xdf));
	return host_sse4a(map, pfx, opc);
}

/* Every encoding of the SIMD opcode space (0F 10..17, 28..2F, 50..7F,
 * C2..C6, D0..FF, all of 0F 38 and 0F 3A but the GPR rows F0..FF and the
 * privileged 0F 38 80..82) with each mandatory prefix, register and memory
 * form: the interpreter raises #UD exactly when the host raises SIGILL. */
static void test_simd_ud_scan(void **state)
{
	static const uint8_t pfx_byte[4] = { 0, 0x66, 0xf3, 0xf2 };
	struct sigaction sa = { .sa_handler = on_sig, .sa_flags = SA_NODEFER }, old_ill, old_trap;
	unsigned fails = 0, trials = 0;

	sigaction(SIGILL, &sa, &old_ill);
	sigaction(SIGTRAP, &sa, &old_trap);
	for (unsigned map = M0F; map <= M3A; map++) {
		for (unsigned opc = 0; opc < 256; opc++) {
			bool imm = map == M3A || (map == M0F && ((opc >= 0x70 && opc <= 0x73) ||
								opc == 0xc2 || (opc >= 0xc4 && opc <= 0xc6)));

			if (map == M0F && !((opc >= 0x10 && opc <= 0x17) || (opc >= 0x28 && opc <= 0x2f) ||
					    (opc >= 0x50 && opc <= 0x7f && opc != 0x77) ||
					    (opc >= 0xc2 && opc <= 0xc6) || opc >= 0xd0))
				continue;
			if ((map == M38 || map == M3A) && (opc >= 0xf0 || (map == M38 && opc >= 0x80 &&
									  opc <= 0x82)))
				continue;
			for (unsigned p = P_NP; p <= P_F2; p++) {
				for (unsigned mod = 0; mod < 2; mod++) {
					struct fstate st, native;
					struct cpu *cpu;
					uint8_t code[8];
					unsigned n = 0;
					bool ill, ud;

					if (p != P_NP)
						code[n++] = pfx_byte[p];
					code[n++] = 0x0f;
					if (map != M0F)
						code[n++] = map == M38 ? 0x38 : 0x3a;
					code[n++] = (uint8_t)opc;
					code[n++] = mod ? 0xca : 0x16; /* xmm1, xmm2 / (%rsi) */
					if (imm)
						code[n++] = 1;
					if (host_sse4a(map, p, opc) && opc == 0x78) {
						code[n++] = 1; /* EXTRQ/INSERTQ: ib ib */
						code[n++] = 1;
					}
					h_rng = opc * 8 + p * 2 + mod + 1;
					rnd_state(&st);
					st.fx.mxcsr = 0x1f80;
					st.r[6] = (uint64_t)(uintptr_t)(h_buf + 512);
					native = st;
					memcpy(h_code, code, n);
					h_code[n] = 0xc3;
					ill = native_signal(&native) == SIGILL;
					cpu = interp_only(code, n, &st);
					ud = cpu->stop == CPU_STOP_FAULT && cpu->fault.vector == VEC_UD;
					done(cpu);
					trials++;
					if (ill != ud && !(ud && beyond_v2(map, p, opc))) {
						fprintf(stderr, "%02x %02x %02x %s: native %s, interpreter %s\n",
							pfx_byte[p], map == M0F ? 0 : map == M38 ? 0x38 : 0x3a,
							opc, mod ? "reg" : "mem", ill ? "SIGILL" : "runs",
							ud ? "#UD" : "runs");
						fails++;
					}
				}
			}
		}
	}
	sigaction(SIGILL, &old_ill, NULL);
	sigaction(SIGTRAP, &old_trap, NULL);
	fprintf(stderr, "#UD scan: %u encodings, %u mismatches\n", trials, fails);
	assert_int_equal(fails, 0);
}

static unsigned row_seeds(void)
{
	return getenv("SIMD_SEEDS") ? (unsigned)strtoul(getenv("SIMD_SEEDS"), NULL, 0) : 48;
}

static void test_simd_64(void **state)
{
	unsigned trials = 0, fails = run_rows(false, row_seeds(), &trials);

	fprintf(stderr, "SIMD 64-bit: %u rows, %u trials, %u mismatches\n",
		(unsigned)(sizeof(rows) / sizeof(rows[0])), trials, fails);
	assert_int_equal(fails, 0);
}

static void test_simd_32(void **state)
{
	unsigned trials = 0, fails = run_rows(true, row_seeds() / 6, &trials);

	fprintf(stderr, "SIMD 32-bit: %u trials, %u mismatches\n", trials, fails);
	for (int f = 0; f < FAM_N; f++)
		fprintf(stderr, "  %-12s %6u trials, %u mismatches (64- and 32-bit)\n", fam_names[f],
			fam_trials[f], fam_fails[f]);
	assert_int_equal(fails, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_simd_64),
		cmocka_unit_test(test_simd_32),
		cmocka_unit_test(test_simd_faults),
		cmocka_unit_test(test_simd_restore),
		cmocka_unit_test(test_simd_ud_scan),
	};
	return cmocka_run_group_tests(tests, h_setup, h_teardown);
}
