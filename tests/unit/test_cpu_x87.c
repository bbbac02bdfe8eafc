/* x87 differential tests: every documented x87 encoding (register forms,
 * and memory forms on (%rsi)) runs natively and interpreted from the same
 * random x87 state (values chosen to hit zeros, infinities, NaNs, denormals,
 * unsupported encodings, huge and tiny exponents, every precision and
 * rounding control, empty and full registers); the whole x87 state, GPRs,
 * RFLAGS and memory must match. */
#include <signal.h>
#include "test_cpu_simd_harness.h"

/* The register forms the hardware executes (documented, and the aliases
 * FSTP1 FCOM2 FCOMP3 FXCH4 FCOMP5 FFREEP FXCH7 FSTP8 FSTP9): ModRM - 0xc0. */
static bool reg_form_valid(unsigned op, unsigned m)
{
	switch (op) {
	case 0xd8: return true;
	case 0xd9: return m <= 0x10 || (m >= 0x18 && m < 0x20) || m == 0x20 || m == 0x21 ||
			  m == 0x24 || m == 0x25 || (m >= 0x28 && m <= 0x2e) || m >= 0x30;
	case 0xda: return m < 0x20 || m == 0x29;
	case 0xdb: return m < 0x25 || (m >= 0x28 && m < 0x38);
	case 0xdc: return true;
	case 0xdd: return m < 0x30;
	case 0xde: return m < 0x18 || m == 0x19 || m >= 0x20;
	case 0xdf: return m <= 0x20 || (m >= 0x28 && m < 0x38);
	}
	return false;
}

/* Memory forms: bitmap of valid ModRM.reg per opcode. */
static const uint8_t mem_valid[8] = { 0xff, 0xfd, 0xff, 0xaf, 0xff, 0xdf, 0xff, 0xff };

/* An interesting 80-bit value. */
static void rnd_ext(uint8_t out[10])
{
	uint64_t r = h_rnd(), mant = h_rnd();
	uint16_t se;
	long double v;

	switch (r % 12) {
	case 0: mant = 0; se = 0; break;                               /* zero */
	case 1: mant = 1ull << 63; se = 0x7fff; break;                 /* inf */
	case 2: mant |= 1ull << 63; se = 0x7fff; break;                /* NaN */
	case 3: mant &= ~(1ull << 63); se = 0; break;                  /* denormal */
	case 4: se = (uint16_t)(h_rnd() & 0x7fff); mant &= ~(1ull << 63); break; /* unnormal */
	case 5: se = (uint16_t)(0x3fff + (int)(h_rnd() % 200) - 100); mant |= 1ull << 63; break;
	case 6: v = (long double)(int64_t)(h_rnd() % 2000 - 1000) / 8; memcpy(out, &v, 10); return;
	case 7: v = (long double)(int32_t)h_rnd(); memcpy(out, &v, 10); return;
	case 8: se = (uint16_t)(0x3fff + 64 + h_rnd() % 8); mant |= 1ull << 63; break;
	case 9: v = 3.14159265358979323846L * (long double)(int)(h_rnd() % 9 - 4);
		memcpy(out, &v, 10); return;
	default: se = (uint16_t)(h_rnd() & 0x7fff); mant |= 1ull << 63; break;
	}
	if (r & 0x1000)
		se |= 0x8000;
	memcpy(out, &mant, 8);
	memcpy(out + 8, &se, 2);
}

/* Random x87 state; exceptions masked unless unmask (then flags clear, so
 * nothing is pending before the instruction). */
static void rnd_state(struct fstate *s, bool unmask)
{
	memset(s, 0, sizeof(*s));
	for (int r = 0; r < 16; r++)
		s->r[r] = h_rnd();
	s->r[6] = (uint64_t)(uintptr_t)(h_buf + 128);
	s->r[7] = (uint64_t)(uintptr_t)(h_buf + 1024);
	s->rflags = 0x202 | (h_rnd() & 0x8d5);
	s->fx.fcw = (uint16_t)(0x1040 | (h_rnd() & 0xf00) | 0x3f);
	if (unmask)
		s->fx.fcw &= (uint16_t)~(h_rnd() & 0x3f);
	s->fx.fsw = (uint16_t)(h_rnd() & 0x7f00);
	if (!unmask)
		s->fx.fsw |= (uint16_t)(h_rnd() & 0x7f & ~0x80);
	s->fx.ftw = (uint8_t)(h_rnd() % 4 == 0 ? 0xff : h_rnd() % 4 == 0 ? 0 : h_rnd());
	if (h_rnd() % 2) { /* a plain stack: ST0..ST(n-1) in use, the rest empty */
		unsigned n = (unsigned)(h_rnd() % 9), top = (s->fx.fsw >> 11) & 7;

		s->fx.ftw = 0;
		for (unsigned k = 0; k < n; k++)
			s->fx.ftw |= (uint8_t)(1u << ((top + k) & 7));
	}
	s->fx.fip = h_rnd() & 0xffffffffffull;
	s->fx.fdp = h_rnd() & 0xffffffffffull;
	s->fx.mxcsr = 0x1f80;
	for (int k = 0; k < 8; k++)
		rnd_ext(s->fx.st[k]);
}

static void rnd_mem(void)
{
	for (int k = 0; k < HBUF_SIZE; k += 16) {
		uint64_t r = h_rnd();
		if (r % 4 == 0) {
			rnd_ext(h_buf + k);
			continue;
		}
		for (int j = 0; j < 16; j += 8) {
			uint64_t v = h_rnd();
			if (r % 4 == 1) {
				double d = (double)(int64_t)(v % 100000) / 16;
				memcpy(&v, &d, 8);
			} else if (r % 4 == 2) {
				float f[2] = { (float)(int32_t)(v % 1000) / 4, (float)(v >> 40) };
				memcpy(&v, f, 8);
			}
			memcpy(h_buf + k + j, &v, 8);
		}
	}
}

/* Which part of the x87 an encoding belongs to, for the per-family counts. */
enum { XF_LDST, XF_ARITH, XF_CMP, XF_TRANS, XF_STACK, XF_FCMOV, XF_CTRL, XF_N };
static const char *const xf_names[XF_N] = {
	"load/store", "arithmetic", "compare/classify", "transcend./misc", "stack/consts",
	"FCMOVcc", "control/env",
};
static unsigned xf_trials[XF_N], xf_fails[XF_N];

static int x87_family(unsigned op, unsigned f)
{
	unsigned m = f - 8;

	if (f < 8) {
		if (op == 0xd8 || op == 0xda || op == 0xdc || op == 0xde)
			return f == 2 || f == 3 ? XF_CMP : XF_ARITH;
		if ((op == 0xd9 && f >= 4) || (op == 0xdd && f >= 4))
			return XF_CTRL;
		return XF_LDST;
	}
	if (op == 0xd8)
		return m >= 0x10 && m < 0x20 ? XF_CMP : XF_ARITH;
	if (op == 0xdc || (op == 0xde && m != 0x19))
		return XF_ARITH;
	if ((op == 0xda || op == 0xdb) && m < 0x20)
		return XF_FCMOV;
	if (op == 0xd9)
		return m < 0x20 || m == 0x36 || m == 0x37 || (m >= 0x28 && m < 0x30) ||
		       m == 0x20 || m == 0x21 ? XF_STACK
		       : m == 0x24 || m == 0x25 ? XF_CMP : XF_TRANS;
	if (op == 0xdd)
		return m < 0x20 ? XF_STACK : XF_CMP;
	if ((op == 0xdb && m < 0x28) || (op == 0xdf && m == 0x20))
		return XF_CTRL;
	return XF_CMP;
}

/* FNSTENV (D9 /6) and FNSAVE (DD /6) at h_buf offset `at`: on an AMD host
 * the instruction pointer, opcode and data pointer fields they store are
 * not compared (h_host_amd): bytes 6..13 of the 16-bit format, 12..27 of
 * the 32-bit one. */
static void ignore_env_pointers(unsigned op, unsigned f, unsigned at, bool o16)
{
	if (!h_host_amd() || f != 6 || (op != 0xd9 && op != 0xdd))
		return;
	for (unsigned k = o16 ? 6 : 12; k < (o16 ? 14u : 28u); k++)
		h_ignore[at + k] = true;
}

static unsigned run_family(bool mode32, unsigned seeds, unsigned *trials)
{
	unsigned fails = 0;
	uint8_t code[4];
	char name[64];

	for (unsigned op = 0xd8; op <= 0xdf; op++) {
		for (unsigned f = 0; f < 72; f++) {
			unsigned len;

			if (f < 8) {
				if (!(mem_valid[op - 0xd8] >> f & 1))
					continue;
				code[0] = (uint8_t)op;
				code[1] = (uint8_t)(0x46 | f << 3); /* disp8(%rsi) */
				code[2] = 0x10;
				len = 3;
			} else {
				if (!reg_form_valid(op, f - 8))
					continue;
				code[0] = (uint8_t)op;
				code[1] = (uint8_t)(0xc0 + f - 8);
				len = 2;
			}
			int fam = x87_family(op, f);
			/* few encodings, many cases each: more trials */
			unsigned n = seeds * (fam == XF_TRANS ? 8 : fam == XF_LDST || fam == XF_CTRL ? 4 : 1);

			for (unsigned s = 0; s < n; s++) {
				struct fstate st;
				/* 16-bit environment formats: 66 FLDENV/FNSTENV/FRSTOR/FNSAVE */
				bool o16 = f < 8 && (op == 0xd9 || op == 0xdd) && (f == 4 || f == 6) &&
					   (s & 1);
				uint8_t code16[5] = { 0x66, code[0], code[1], code[2] };

				/* and 66 REX.W: REX.W wins, the 32-bit format */
				if (o16 && !mode32 && (s & 2)) {
					memmove(code16 + 2, code16 + 1, 3);
					code16[1] = 0x48;
				}

				h_rng = (op * 72 + f) * 0x9e3779b97f4a7c15ull + s * 7919 + mode32;
				rnd_state(&st, s % 4 == 3);
				rnd_mem();
				if (f < 8)
					ignore_env_pointers(op, f, 128 + 0x10,
							    o16 && !(!mode32 && (s & 2)));
				snprintf(name, sizeof(name), "%s %02x %02x seed %u",
					 mode32 ? "x87/32" : "x87", code[0], code[1], s);
				int bad = h_run(o16 ? code16 : code,
						len + o16 + (o16 && !mode32 && (s & 2)), &st, mode32,
						CMP_X87 | CMP_GPR | CMP_MEM, 0x8d5, name);

				fails += (unsigned)bad;
				xf_fails[fam] += (unsigned)bad;
				xf_trials[fam]++;
				(*trials)++;
			}
		}
	}
	return fails;
}

/* A waiting instruction with an unmasked exception pending raises #MF
 * (natively: SIGFPE, so only the interpreter runs); FNSTSW does not wait.
 * A faulting memory operand leaves the state as it was. */
static void test_x87_pending_and_faults(void **state)
{
	static const uint8_t fadd[] = { 0xd8, 0xc1, 0xcc }, fnstsw[] = { 0xdf, 0xe0, 0xcc };
	static const uint8_t fld_bad[] = { 0xdd, 0x06, 0xcc }; /* fldl (%rsi) */
	struct cpu *cpu = calloc(1, sizeof(*cpu));

	cpu_install_fault_handler(); /* cmocka installs its own per test */
	cpu_init(cpu, CPU_MODE_64);
	cpu->x87.fcw = 0x37e; /* IM unmasked */
	cpu->x87.fsw = 0x0081; /* IE, ES */
	memcpy(h_code, fadd, sizeof(fadd));
	cpu_invalidate_code((uint64_t)(uintptr_t)h_code, 4096);
	cpu->rip = (uint64_t)(uintptr_t)h_code;
	cpu_run(cpu);
	assert_int_equal(cpu->fault.vector, VEC_MF);
	assert_int_equal(cpu->rip, (uintptr_t)h_code);
	memcpy(h_code, fnstsw, sizeof(fnstsw));
	cpu_invalidate_code((uint64_t)(uintptr_t)h_code, 4096);
	cpu_run(cpu);
	assert_int_equal(cpu->fault.vector, VEC_BP);
	assert_int_equal(cpu->r[0] & 0xffff, 0x0081);

	cpu_init(cpu, CPU_MODE_64);
	memcpy(h_code, fld_bad, sizeof(fld_bad));
	cpu_invalidate_code((uint64_t)(uintptr_t)h_code, 4096);
	cpu->r[6] = 8; /* unmapped */
	cpu->rip = (uint64_t)(uintptr_t)h_code;
	cpu_run(cpu);
	assert_int_equal(cpu->fault.vector, VEC_PF);
	assert_int_equal(cpu->x87.top, 0);
	assert_int_equal(cpu->x87.ftw_tags, 0xffff);
	{
		uint16_t fcw;
		__asm__ volatile("fnstcw %0" : "=m"(fcw));
		assert_int_equal(fcw, 0x37f); /* the host FPU is untouched */
	}
	cpu_release(cpu);
	free(cpu);
}

/* Random sequences of four x87 instructions (masked exceptions; no FLDCW,
 * FLDENV, FRSTOR, which could unmask one natively): state
 * flows from one to the next, FIP/FDP/FOP follow the last one; REX.W
 * prefixes (no meaning for x87) in 64-bit mode. */
static unsigned run_sequences(bool mode32, unsigned count, unsigned *trials)
{
	unsigned fails = 0;
	char name[128];

	for (unsigned s = 0; s < count; s++) {
		uint8_t code[32];
		unsigned len = 0;
		struct fstate st;
		bool env_at[8] = { false }; /* FNSTENV/FNSAVE at 128 + 16 * k */

		h_rng = 0xabcdef + s * 31 + mode32;
		for (int k = 0; k < 4; k++) {
			unsigned op, f;

			do {
				op = 0xd8 + (unsigned)(h_rnd() % 8);
				f = (unsigned)(h_rnd() % 72);
			} while (f < 8 ? !(mem_valid[op - 0xd8] >> f & 1) || (op == 0xd9 && (f == 4 || f == 5)) ||
						 (op == 0xdd && f == 4)
				       : !reg_form_valid(op, f - 8));
			if (!mode32 && h_rnd() % 4 == 0)
				code[len++] = 0x48;
			code[len++] = (uint8_t)op;
			if (f < 8) {
				unsigned slot = (unsigned)(h_rnd() % 8);

				code[len++] = (uint8_t)(0x46 | f << 3);
				code[len++] = (uint8_t)(16 * slot);
				if (f == 6 && (op == 0xd9 || op == 0xdd))
					env_at[slot] = true;
			} else {
				code[len++] = (uint8_t)(0xc0 + f - 8);
			}
		}
		rnd_state(&st, false);
		rnd_mem();
		for (unsigned k = 0; k < 8; k++)
			if (env_at[k])
				ignore_env_pointers(0xd9, 6, 128 + 16 * k, false);
		{
			int o = snprintf(name, sizeof(name), "%s sequence %u:", mode32 ? "x87/32" : "x87",
					 s);
			for (unsigned k = 0; k < len && o < (int)sizeof(name) - 4; k++)
				o += snprintf(name + o, sizeof(name) - (size_t)o, " %02x", code[k]);
		}
		fails += (unsigned)h_run(code, len, &st, mode32, CMP_X87 | CMP_GPR | CMP_MEM, 0x8d5,
					 name);
		(*trials)++;
	}
	return fails;
}

static void test_x87_sequences(void **state)
{
	unsigned trials = 0, fails = run_sequences(false, 3000, &trials);

	fails += run_sequences(true, 1000, &trials);
	fprintf(stderr, "x87 sequences: %u trials, %u mismatches\n", trials, fails);
	assert_int_equal(fails, 0);
}

static sigjmp_buf fpe_jmp;

static void on_fpe(int sig)
{
	siglongjmp(fpe_jmp, sig);
}

/* Runs h_code natively from *st; the signal it raised (SIGFPE, SIGILL),
 * or 0. */
static __attribute__((noinline)) int native_signal(struct fstate *st)
{
	static const uint32_t mxcsr = 0x1f80;
	int sig = sigsetjmp(fpe_jmp, 1);

	if (sig) {
		__asm__ volatile("fninit; ldmxcsr %0; cld" : : "m"(mxcsr));
		return sig;
	}
	run_native_fx(st, h_code);
	return 0;
}

/* Every D8..DF encoding (64 register forms, 8 memory forms on (%rsi)): the
 * interpreter raises #UD exactly when the host raises SIGILL. */
static void test_x87_ud_scan(void **state)
{
	struct sigaction sa = { .sa_handler = on_fpe, .sa_flags = SA_NODEFER }, old;
	unsigned fails = 0;

	sigaction(SIGILL, &sa, &old);
	for (unsigned op = 0xd8; op <= 0xdf; op++) {
		for (unsigned f = 0; f < 72; f++) {
			uint8_t code[3] = { (uint8_t)op, (uint8_t)(f < 64 ? 0xc0 + f : 0x06 | (f - 64) << 3) };
			struct fstate st, native;
			struct cpu *cpu = calloc(1, sizeof(*cpu));
			bool ill, ud;

			h_rng = op * 72 + f + 1;
			rnd_state(&st, false);
			native = st;
			memcpy(h_code, code, 2);
			h_code[2] = 0xc3;
			ill = native_signal(&native) == SIGILL;
			h_code[2] = 0xcc;
			cpu_invalidate_code((uint64_t)(uintptr_t)h_code, 4096);
			cpu_init(cpu, CPU_MODE_64);
			h_load_cpu(cpu, &st);
			cpu->r[4] = (uint64_t)(uintptr_t)(h_stack + 65536 - 64);
			cpu->rip = (uint64_t)(uintptr_t)h_code;
			cpu_run(cpu);
			ud = cpu->stop == CPU_STOP_FAULT && cpu->fault.vector == VEC_UD;
			if (ill != ud) {
				fprintf(stderr, "%02x %02x: native %s, interpreter %s\n", code[0], code[1],
					ill ? "SIGILL" : "runs", ud ? "#UD" : "runs");
				fails++;
			}
			cpu_release(cpu);
			free(cpu);
		}
	}
	sigaction(SIGILL, &old, NULL);
	fprintf(stderr, "x87 #UD scan: 576 encodings, %u mismatches\n", fails);
	assert_int_equal(fails, 0);
}

/* Which instructions wait for a pending unmasked exception (#MF) and which
 * do not, natively (SIGFPE caught) and interpreted. */
static void test_x87_pending_native(void **state)
{
	static const struct { const char *name; uint8_t bytes[4]; unsigned len; } cases[] = {
		{ "fadd", { 0xd8, 0xc1 }, 2 },        { "fld1", { 0xd9, 0xe8 }, 2 },
		{ "fxch", { 0xd9, 0xc9 }, 2 },        { "ffree", { 0xdd, 0xc0 }, 2 },
		{ "fldcw", { 0xd9, 0x2e }, 2 },       { "fldenv", { 0xd9, 0x26 }, 2 },
		{ "frstor", { 0xdd, 0x26 }, 2 },      { "fnstenv", { 0xd9, 0x36 }, 2 },
		{ "fnsave", { 0xdd, 0x36 }, 2 },      { "fnstsw ax", { 0xdf, 0xe0 }, 2 },
		{ "fnstcw", { 0xd9, 0x3e }, 2 },      { "fnclex", { 0xdb, 0xe2 }, 2 },
		{ "fninit", { 0xdb, 0xe3 }, 2 },      { "fwait", { 0x9b }, 1 },
		{ "fxsave", { 0x0f, 0xae, 0x06 }, 3 }, { "movq mm", { 0x0f, 0x6f, 0xc8 }, 3 },
		{ "emms", { 0x0f, 0x77 }, 2 },        { "paddb mm", { 0x0f, 0xfc, 0xc1 }, 3 },
		{ "cvtpi2ps", { 0x0f, 0x2a, 0xc1 }, 3 },
	};
	struct sigaction sa = { .sa_handler = on_fpe }, old;

	sigaction(SIGFPE, &sa, &old);
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct fstate st, native;
		struct cpu *cpu = calloc(1, sizeof(*cpu));
		bool trapped;

		h_rng = 77 + k;
		rnd_state(&st, false);
		rnd_mem();
		st.fx.fcw = 0x37e;   /* IM unmasked */
		st.fx.fsw = (uint16_t)((st.fx.fsw & 0x3800) | 0x81); /* IE pending */
		native = st;
		memcpy(h_code, cases[k].bytes, cases[k].len);
		h_code[cases[k].len] = 0xc3;
		trapped = native_signal(&native) == SIGFPE;

		h_code[cases[k].len] = 0xcc;
		cpu_invalidate_code((uint64_t)(uintptr_t)h_code, 4096);
		cpu_init(cpu, CPU_MODE_64);
		h_load_cpu(cpu, &st);
		cpu->r[4] = (uint64_t)(uintptr_t)(h_stack + 65536 - 64);
		cpu->rip = (uint64_t)(uintptr_t)h_code;
		cpu_run(cpu);
		if ((cpu->fault.vector == VEC_MF) != trapped)
			fail_msg("%s: interpreter vector %d, native %s", cases[k].name,
				 cpu->fault.vector, trapped ? "SIGFPE" : "no trap");
		cpu_release(cpu);
		free(cpu);
	}
	sigaction(SIGFPE, &old, NULL);
}

static void test_x87_64(void **state)
{
	unsigned trials = 0, fails = run_family(false, 32, &trials);

	fprintf(stderr, "x87 64-bit: %u trials, %u mismatches\n", trials, fails);
	assert_int_equal(fails, 0);
}

static void test_x87_32(void **state)
{
	unsigned trials = 0, fails = run_family(true, 8, &trials);

	fprintf(stderr, "x87 32-bit: %u trials, %u mismatches\n", trials, fails);
	for (int f = 0; f < XF_N; f++)
		fprintf(stderr, "  %-16s %6u trials, %u mismatches (64- and 32-bit)\n", xf_names[f],
			xf_trials[f], xf_fails[f]);
	assert_int_equal(fails, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_x87_64),
		cmocka_unit_test(test_x87_32),
		cmocka_unit_test(test_x87_pending_and_faults),
		cmocka_unit_test(test_x87_pending_native),
		cmocka_unit_test(test_x87_ud_scan),
		cmocka_unit_test(test_x87_sequences),
	};
	return cmocka_run_group_tests(tests, h_setup, h_teardown);
}
