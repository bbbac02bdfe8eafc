/* AVX/AVX2 rows (src/cpu/opcodes_avx.def) against the host CPU, 64-bit
 * mode: every trial loads a random x87/SSE/AVX state with XRSTOR64 and
 * random GPRs, runs one VEX instruction of a random row with random fields
 * (VEX.L, VEX.W, vvvv, registers, a memory operand at a random offset,
 * imm8), stores the GPRs and RFLAGS, and saves the state with XSAVE64. The
 * same bytes run natively and interpreted with XCR0 = x87|SSE|AVX, each
 * from the same memory and start image; the memory area, the start image
 * (VMASKMOVDQU stores through rDI, which points at it), the GPRs, the
 * arithmetic flags, the final image and the exception (#UD, #GP, #XM)
 * must agree, at the first run (no retries: a retry hid the start image
 * VMASKMOVDQU changed). The one answer of the host known to depend on
 * timing, XSTATE_BV's SSE bit with every XMM register 0 (test_cpu_xsave),
 * does not arise: one instruction writes at most two of the 16 random XMM
 * registers. A second run does the same in
 * 32-bit mode against the same bytes run natively as 64-bit code. Skipped
 * where the host lacks AVX2 or XSAVE. AVX_TRIALS sets the number of trials (default 20,000), AVX_ROW
 * limits them to the rows whose name contains it. */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <cmocka.h>
#include "../host_cpu.h"
#include "cpu/cpu.h"
#include "cpu/insn.h"

#define IMG 1024      /* XSAVE images: 832 bytes used */
#define GPR_OFF 1024  /* in the final buffer: 16 GPRs and RFLAGS */
#define MEM_SIZE 512  /* the memory operand's area, rsi = its start + 128 */

struct row {
	const char *name;
	unsigned map, opcode, prefix;
	int group;
	bool imm8;
};

/* the column constants (AV_*) first, at file scope */
#define OP(map, opc, pfx, grp, handler, flags)
#include "cpu/opcodes_avx.def"
#undef OP

static const struct row rows[] = {
#define OP(map, opc, pfx, grp, handler, flags) \
	{ #handler, map, opc, pfx, grp, ((flags) & F_IMM_MASK) == F_I8 },
#include "cpu/opcodes_avx.def"
#undef OP
};
#define NROWS (sizeof(rows) / sizeof(rows[0]))

static uint8_t *code, *mem, *stack;
static unsigned gather_index; /* the last gather encoding's index register */
/* The 32-bit-mode variant: the interpreter runs the snippet in 32-bit mode,
 * the host the same bytes as 64-bit code (registers 0..7, VEX.R X B
 * clear, no REX, 32-bit addresses below 4 GiB: the same instructions). */
static bool mode32;
static uint64_t rng = 0x2545f4914f6cdd1dull;
static sigjmp_buf native_jb;
static volatile int native_sig;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void fill(uint8_t *p, size_t n)
{
	for (size_t k = 0; k < n; k++)
		p[k] = (uint8_t)rnd();
}

/* rdi = start image, rsi = memory operand base, rbx = final buffer */
void run_native_avx(void *code, void *start, void *mem, void *fin);
__asm__(".text\n"
	".globl run_native_avx\n"
	"run_native_avx:\n"
	"push %rbx; push %rbp; push %r12; push %r13; push %r14; push %r15\n"
	"sub $8,%rsp; stmxcsr (%rsp)\n"
	"mov %rdi,%rax; mov %rsi,%rdi; mov %rdx,%rsi; mov %rcx,%rbx\n"
	"call *%rax\n"
	"fninit; ldmxcsr (%rsp); add $8,%rsp; vzeroupper\n"
	"pop %r15; pop %r14; pop %r13; pop %r12; pop %rbp; pop %rbx\n"
	"ret\n");

static void on_sig(int sig, siginfo_t *si, void *uc)
{
	(void)si, (void)uc;
	native_sig = sig;
	siglongjmp(native_jb, 1);
}

static __attribute__((noinline)) int run_native(uint8_t *start, uint8_t *fin)
{
	static const int sigs[] = { SIGSEGV, SIGILL, SIGFPE, SIGBUS };
	struct sigaction sa = { 0 }, old[4];

	sa.sa_sigaction = on_sig;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	for (int k = 0; k < 4; k++)
		sigaction(sigs[k], &sa, &old[k]);
	native_sig = 0;
	if (sigsetjmp(native_jb, 1) == 0)
		run_native_avx(code, start, mem + 128, fin);
	for (int k = 0; k < 4; k++)
		sigaction(sigs[k], &old[k], NULL);
	return native_sig;
}

static bool host_ok(void)
{
	uint32_t a, b, c, d, lo, hi;

	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(1), "c"(0));
	if (!(c & (1u << 27)) || !(c & (1u << 28)))
		return false;
	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	if ((lo & 6) != 6)
		return false;
	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(7), "c"(0));
	return b & (1u << 5); /* AVX2 */
}

/* AMD runs VPERMQ/VPERMPD with VEX.W0, which Intel and sysgate raise #UD
 * for (docs/cpu.md, "Host vendor and host kernel differences"). */
static bool amd_runs_vperm_w0(const char *row, const uint8_t *insn, int vec_native, int vec_interp)
{
	return vec_native < 0 && vec_interp == VEC_UD && !strcmp(row, "op_v_permq") &&
	       !(insn[2] & 0x80) && host_cpu_is_amd();
}

/* GPRs the trials use as instruction operands: not rsp, rbx (final
 * buffer), rsi (memory base), rdi (start image). */
static const uint8_t regs[] = { 0, 1, 2, 5, 8, 9, 10, 11, 12, 13, 14, 15 };
#define NREGS32 4 /* eax ecx edx ebp */

static unsigned pick_reg(void)
{
	return regs[rnd() % (mode32 ? NREGS32 : sizeof(regs))];
}

/* Rows whose VEX.W widens a GPR operand in 64-bit mode only (W is 0 in
 * the 32-bit variant: its native twin runs in 64-bit mode). */
static bool w_widens_gpr(const char *name)
{
	static const char *const w[] = { "pinsrd", "pextrd", "cvtsi2s", "cvtss2si", "cvtsd2si",
					 "cvttss2si", "cvttsd2si", "movd_", NULL };

	for (int k = 0; w[k]; k++)
		if (strstr(name, w[k]))
			return true;
	return false;
}

/* A random start image (standard format, every component loaded). */
static void random_start(uint8_t *a)
{
	uint32_t mxcsr = (uint32_t)rnd() & 0xffff;
	uint64_t bv = 7;

	fill(a, IMG);
	/* exceptions masked mostly; rounding, DAZ, FTZ random */
	if (rnd() % 8)
		mxcsr |= 0x1f80;
	memcpy(a + 24, &mxcsr, 4);
	a[0] = 0x7f, a[1] = 0x03; /* FCW: x87 exceptions masked */
	memset(a + 512, 0, 64);
	memcpy(a + 512, &bv, 8);
	/* some XMM/YMM elements with simple values: equal, zero, small */
	for (unsigned k = 0; k < 8; k++)
		if (rnd() % 4 == 0) {
			unsigned off = 160 + (unsigned)(rnd() % 256) / 4 * 4;

			memcpy(a + off, "\0\0\x80\x3f", 4); /* 1.0f */
		}
}

/* The snippet: load the state, the GPRs, run the instruction, store the
 * GPRs and RFLAGS, save the state. Returns its length. */
static unsigned emit(uint8_t *p, const uint8_t *insn, unsigned len, const uint64_t *gpr, uint8_t end)
{
	static const uint8_t pro[] = { 0xb8, 7, 0, 0, 0, 0x31, 0xd2, 0x48, 0x0f, 0xae, 0x2f };
	static const uint8_t save[] = { 0xb8, 7, 0, 0, 0, 0x31, 0xd2, 0x48, 0x0f, 0xae, 0x23 };
	unsigned n = 0;

	memcpy(p + n, pro, sizeof(pro)), n += sizeof(pro);
	for (unsigned k = 0; k < sizeof(regs); k++) { /* movabs $v, %reg */
		unsigned r = regs[k];

		p[n++] = (uint8_t)(0x48 | (r >> 3));
		p[n++] = (uint8_t)(0xb8 + (r & 7));
		memcpy(p + n, &gpr[r], 8), n += 8;
	}
	memcpy(p + n, insn, len), n += len;
	p[n++] = 0x9c; /* pushfq */
	for (unsigned r = 0; r < 16; r++) { /* mov %reg, GPR_OFF+8r(%rbx) */
		p[n++] = (uint8_t)(0x48 | (r >> 3) << 2);
		p[n++] = 0x89;
		p[n++] = (uint8_t)(0x83 | (r & 7) << 3);
		uint32_t d = GPR_OFF + 8 * r;
		memcpy(p + n, &d, 4), n += 4;
	}
	/* pop %rax; mov %rax, GPR_OFF+128(%rbx) */
	p[n++] = 0x58;
	p[n++] = 0x48, p[n++] = 0x89, p[n++] = 0x83;
	uint32_t d = GPR_OFF + 128;
	memcpy(p + n, &d, 4), n += 4;
	memcpy(p + n, save, sizeof(save)), n += sizeof(save);
	p[n++] = end;
	return n;
}

/* The same in 32-bit code (also valid 64-bit code: no REX, 32-bit
 * registers; its native twin): xrstor (%edi), mov $imm32 to eax ecx edx
 * ebp, the instruction, pushf, mov %r32 to GPR_OFF + 8r(%ebx), pop %eax,
 * mov %eax to the flags slot, xsave (%ebx). */
static unsigned emit32(uint8_t *p, const uint8_t *insn, unsigned len, const uint64_t *gpr,
		       uint8_t end)
{
	static const uint8_t pro[] = { 0xb8, 7, 0, 0, 0, 0x31, 0xd2, 0x0f, 0xae, 0x2f };
	static const uint8_t save[] = { 0xb8, 7, 0, 0, 0, 0x31, 0xd2, 0x0f, 0xae, 0x23 };
	unsigned n = 0;
	uint32_t d;

	memcpy(p + n, pro, sizeof(pro)), n += sizeof(pro);
	for (unsigned k = 0; k < NREGS32; k++) {
		uint32_t v = (uint32_t)gpr[regs[k]];

		p[n++] = (uint8_t)(0xb8 + regs[k]);
		memcpy(p + n, &v, 4), n += 4;
	}
	memcpy(p + n, insn, len), n += len;
	p[n++] = 0x9c;
	for (unsigned r = 0; r < 8; r++) {
		p[n++] = 0x89;
		p[n++] = (uint8_t)(0x83 | r << 3);
		d = GPR_OFF + 8 * r;
		memcpy(p + n, &d, 4), n += 4;
	}
	p[n++] = 0x58;
	p[n++] = 0x89, p[n++] = 0x83;
	d = GPR_OFF + 128;
	memcpy(p + n, &d, 4), n += 4;
	memcpy(p + n, save, sizeof(save)), n += sizeof(save);
	p[n++] = end;
	return n;
}

/* Bytes of the final image compared: all but the x87 pointers (vendor- and
 * format-defined) and, in the 32-bit variant, XMM8..15 and their upper
 * halves (outside 32-bit mode's registers: natively XSAVE stores them). */
static bool state_byte_compared(unsigned b)
{
	if (b >= 6 && b < 24)
		return false;
	if (mode32 && ((b >= 288 && b < 416) || (b >= 704 && b < 832)))
		return false;
	return true;
}

/* A VEX encoding of row r with random fields: C4 form. */
static unsigned encode(const struct row *r, uint8_t *b, char *desc)
{
	unsigned reg = pick_reg(), rm = pick_reg(), vvvv = rnd() % 2 ? 0 : (unsigned)(rnd() % 16);
	unsigned L = (unsigned)(rnd() % 2), W = (unsigned)(rnd() % 2), mod = rnd() % 2 ? 3 : 1;

	if (mode32) {
		vvvv &= 7;
		if (w_widens_gpr(r->name))
			W = 0;
	}
	unsigned n = 0, mmmmm = r->map == MV0F ? 1 : r->map == MV38 ? 2 : 3;
	int disp = (int)(rnd() % 128);

	if (rnd() % 2)
		disp &= ~31; /* aligned for the forms that want it */

	if (r->group >= 24)
		mod = r->group == 24 ? 1 : 3;
	else if (r->group >= 16)
		mod = 3, reg = (unsigned)r->group - 16;
	else if (r->group >= 8)
		mod = 1, reg = (unsigned)r->group - 8;
	else if (r->group >= 0)
		reg = (unsigned)r->group;
	if (mod != 3)
		rm = 6; /* (%rsi) + disp8 */
	if (strstr(r->name, "gather")) { /* VSIB: SIB index = a vector register */
		gather_index = (unsigned)(rnd() % (mode32 ? 8 : 16));
		b[n++] = 0xc4;
		b[n++] = (uint8_t)((!(reg & 8)) << 7 | (!(gather_index & 8)) << 6 | 1 << 5 | mmmmm);
		b[n++] = (uint8_t)(W << 7 | (~vvvv & 15) << 3 | L << 2 | r->prefix);
		b[n++] = (uint8_t)r->opcode;
		b[n++] = (uint8_t)(1 << 6 | (reg & 7) << 3 | 4);
		b[n++] = (uint8_t)((rnd() % 4) << 6 | (gather_index & 7) << 3 | 6);
		b[n++] = (uint8_t)(disp & ~7);
		sprintf(desc, "L%u W%u vvvv %u reg %u index %u", L, W, vvvv, reg, gather_index);
		return n;
	}
	b[n++] = 0xc4;
	b[n++] = (uint8_t)((!(reg & 8)) << 7 | 1 << 6 | (!(rm & 8) || mod != 3) << 5 | mmmmm);
	b[n++] = (uint8_t)(W << 7 | (~vvvv & 15) << 3 | L << 2 | r->prefix);
	b[n++] = (uint8_t)r->opcode;
	b[n++] = (uint8_t)(mod << 6 | (reg & 7) << 3 | (rm & 7));
	if (mod == 1)
		b[n++] = (uint8_t)disp;
	if (r->imm8)
		b[n++] = (uint8_t)rnd();
	/* the 4-operand blends' register in imm8[7:4]: bit 7 is ignored in
	 * 32-bit mode, not by the 64-bit twin */
	if (r->imm8 && mode32 && strstr(r->name, "blendv"))
		b[n - 1] &= 0x7f;
	sprintf(desc, "L%u W%u vvvv %u reg %u %s%u", L, W, vvvv, reg, mod == 3 ? "rm " : "disp ",
		mod == 3 ? rm : (unsigned)disp);
	return n;
}

static int vector_of_sig(int sig)
{
	return sig == SIGILL ? VEC_UD : sig == SIGSEGV ? VEC_GP : sig == SIGFPE ? VEC_XM : sig ? -2 : -1;
}

static void avx_vs_host(void)
{
	uint8_t *start = mem + MEM_SIZE, *fin = mem + MEM_SIZE + IMG;
	uint8_t mem0[MEM_SIZE], n_mem[MEM_SIZE], n_fin[GPR_OFF + 136], insn[16];
	uint8_t start0[IMG], n_start[IMG];
	uint64_t gpr[16];
	unsigned ntrials = 20000, bad = 0, per_row[NROWS] = { 0 }, ran[NROWS] = { 0 }, faults = 0;
	unsigned amd_vperm_w0 = 0;
	const char *only = getenv("AVX_ROW");
	char desc[96];

	cpu_install_fault_handler(); /* cmocka installs its own per test */
	if (!host_ok()) {
		printf("skipped: the host lacks AVX2 or OS-enabled AVX state\n");
		skip();
	}
	if (getenv("AVX_TRIALS"))
		ntrials = (unsigned)strtoul(getenv("AVX_TRIALS"), NULL, 0);
	for (unsigned t = 0; t < ntrials && bad < 10; t++) {
		unsigned k = (unsigned)(rnd() % NROWS), len;
		const struct row *r = &rows[k];

		if (only && !strstr(r->name, only)) {
			t--;
			continue;
		}
		len = encode(r, insn, desc);
		/* VAES/VPCLMULQDQ (the 256-bit forms) are not reported: #UD
		 * where the host may run them */
		if ((strstr(r->name, "aes") || strstr(r->name, "pclmul")) && (insn[2] & 4)) {
			t--;
			continue;
		}
		random_start(start);
		if (strstr(r->name, "gather")) /* small indices: addresses inside the area */
			for (unsigned e = 0; e < 8; e++) {
				uint32_t ix = (uint32_t)(rnd() % 8);

				memcpy(start + 160 + 16 * gather_index + 4 * (e % 4) + 0, &ix, 4);
				memcpy(start + 576 + 16 * gather_index + 4 * (e % 4), &ix, 4);
				/* qword indices read 0 above (always in the 32-bit
				 * variant: its addresses wrap at 4 GiB, the twin's not) */
				if (mode32 || rnd() % 2) {
					memset(start + 160 + 16 * gather_index + 8 * (e % 2) + 4, 0, 4);
					memset(start + 576 + 16 * gather_index + 8 * (e % 2) + 4, 0, 4);
				}
			}
		fill(mem0, MEM_SIZE);
		for (int g = 0; g < 16; g++)
			gpr[g] = rnd() % 4 ? rnd() : rnd() % 64;

		int nsig, vec_native, vec_interp;
		struct cpu *cpu;
		unsigned diff = 0;

		/* the start image is memory too: VMASKMOVDQU stores
		 * through rDI, which points at it. Each run starts from
		 * the same image, and its bytes are compared after. */
		memcpy(start0, start, IMG);
		memcpy(mem, mem0, MEM_SIZE);
		memset(fin, 0, GPR_OFF + 136);
		if (mode32)
			emit32(code, insn, len, gpr, 0xc3);
		else
			emit(code, insn, len, gpr, 0xc3);
		nsig = run_native(start, fin);
		memcpy(n_mem, mem, MEM_SIZE);
		memcpy(n_start, start, IMG);
		memcpy(n_fin, fin, sizeof(n_fin));

		memcpy(start, start0, IMG);
		memcpy(mem, mem0, MEM_SIZE);
		memset(fin, 0, GPR_OFF + 136);
		if (mode32)
			emit32(code, insn, len, gpr, 0xcc);
		else
			emit(code, insn, len, gpr, 0xcc);
		cpu_invalidate_code((uint64_t)(uintptr_t)code, 4096);
		cpu = calloc(1, sizeof(*cpu));
		cpu_init(cpu, mode32 ? CPU_MODE_32 : CPU_MODE_64);
		cpu->xcr0 = CPU_XSTATE_X87 | CPU_XSTATE_SSE | CPU_XSTATE_AVX;
		cpu->r[R_DI] = (uintptr_t)start;
		cpu->r[R_SI] = (uintptr_t)(mem + 128);
		cpu->r[R_BX] = (uintptr_t)fin;
		cpu->r[R_SP] = (uintptr_t)(stack + 65536 - 64);
		cpu->rip = (uintptr_t)code;
		cpu_run(cpu);
		vec_native = vector_of_sig(nsig);
		vec_interp = cpu->stop == CPU_STOP_FAULT && cpu->fault.vector != VEC_BP
				     ? (cpu->fault.vector == VEC_PF ? VEC_GP : (int)cpu->fault.vector)
				     : -1;
		if (cpu->stop != CPU_STOP_FAULT)
			vec_interp = -3;
		if (amd_runs_vperm_w0(r->name, insn, vec_native, vec_interp)) {
			amd_vperm_w0++;
		} else if (vec_native != vec_interp) {
			fprintf(stderr, "%s trial %u (%s): vector %d, native %d\n", r->name, t,
				desc, vec_interp, vec_native);
			diff++;
		} else if (vec_native < 0) {
			for (unsigned b = 0; b < MEM_SIZE && !diff; b++)
				if (mem[b] != n_mem[b]) {
					fprintf(stderr, "%s trial %u (%s): memory +%u %02x, native %02x\n",
						r->name, t, desc, b, mem[b], n_mem[b]);
					diff++;
				}
			for (unsigned b = 0; b < IMG && !diff; b++)
				if (start[b] != n_start[b]) {
					fprintf(stderr, "%s trial %u (%s): start image +%u %02x, native %02x\n",
						r->name, t, desc, b, start[b], n_start[b]);
					diff++;
				}
			for (unsigned g = 0; g < 16 && !diff; g++) {
				uint64_t a, n;

				memcpy(&a, fin + GPR_OFF + 8 * g, 8);
				memcpy(&n, n_fin + GPR_OFF + 8 * g, 8);
				if (g != 4 && a != n) {
					fprintf(stderr, "%s trial %u (%s): r%u %llx, native %llx\n",
						r->name, t, desc, g, (unsigned long long)a,
						(unsigned long long)n);
					diff++;
				}
			}
			uint64_t fa, fn;
			memcpy(&fa, fin + GPR_OFF + 128, 8);
			memcpy(&fn, n_fin + GPR_OFF + 128, 8);
			if (!diff && (fa & 0x8d5) != (fn & 0x8d5)) {
				fprintf(stderr, "%s trial %u (%s): rflags %llx, native %llx\n", r->name,
					t, desc, (unsigned long long)fa, (unsigned long long)fn);
				diff++;
			}
			for (unsigned b = 0; b < 832 && !diff; b++) {
				if (!state_byte_compared(b) || fin[b] == n_fin[b])
					continue;
				fprintf(stderr, "%s trial %u (%s): state byte %u %02x, native %02x\n",
					r->name, t, desc, b, fin[b], n_fin[b]);
				if (getenv("AVX_DUMP"))
					for (unsigned x = 0; x < 16; x++)
						fprintf(stderr, "  start ymm%u %016llx%016llx %016llx%016llx mxcsr %08x\n", x,
							*(unsigned long long *)(start0 + 584 + 16 * x),
							*(unsigned long long *)(start0 + 576 + 16 * x),
							*(unsigned long long *)(start0 + 168 + 16 * x),
							*(unsigned long long *)(start0 + 160 + 16 * x),
							*(uint32_t *)(start0 + 24));
				diff++;
			}
		}
		cpu_release(cpu);
		free(cpu);
		if (diff)
			bad++;
		else {
			faults += vec_native >= 0;
			ran[k] += vec_native < 0;
		}
		per_row[k]++;
	}
	printf("%u trials (%u faulting on both), %u rows with a difference shown\n", ntrials, faults,
	       bad);
	if (amd_vperm_w0)
		printf("  vendor: %u VPERMQ/VPERMPD VEX.W0 trials the AMD host ran (sysgate: #UD, as Intel)\n",
		       amd_vperm_w0);
	for (unsigned k = 0; k < NROWS; k++)
		if (per_row[k] && !ran[k])
			printf("  %s: %u trials, none ran without a fault\n", rows[k].name, per_row[k]);
	assert_int_equal(bad, 0);
}

/* The whole VEX opcode space (maps 0F, 0F 38, 0F 3A; every pp, L, W;
 * register and memory forms, vvvv 1111b): sysgate raises #UD exactly where
 * the host raises SIGILL, except for the extensions the host has and
 * sysgate does not report (listed with AVX_SCAN=1; on the AMD EPYC host:
 * the AVX-512 opmask instructions in VEX (KANDW..KTEST, KSHIFT), GFNI,
 * the 256-bit VAES and VPCLMULQDQ forms — nothing of AVX, AVX2, FMA or
 * F16C). */
static int run_one_native(const uint8_t *bytes, unsigned len)
{
	uint8_t start_img[IMG] __attribute__((aligned(64)));

	(void)start_img;
	memcpy(code, bytes, len);
	code[len] = 0xc3;
	native_sig = 0;
	{
		static const int sigs[] = { SIGSEGV, SIGILL, SIGFPE, SIGBUS };
		struct sigaction sa = { 0 }, old[4];

		sa.sa_sigaction = on_sig;
		sa.sa_flags = SA_SIGINFO | SA_NODEFER;
		for (int k = 0; k < 4; k++)
			sigaction(sigs[k], &sa, &old[k]);
		if (sigsetjmp(native_jb, 1) == 0)
			run_native_avx(code, mem + MEM_SIZE, mem + 128, mem + MEM_SIZE + IMG);
		for (int k = 0; k < 4; k++)
			sigaction(sigs[k], &old[k], NULL);
	}
	return native_sig;
}

static void test_vex_ud_scan(void **state)
{
	unsigned checked = 0, host_only = 0, bad = 0;

	(void)state;
	cpu_install_fault_handler();
	if (!host_ok())
		skip();
	for (unsigned map = 1; map <= 3; map++)
		for (unsigned op = 0; op < 256; op++)
			for (unsigned f = 0; f < 32; f++) {
				unsigned pp = f & 3, L = f >> 2 & 1, W = f >> 3 & 1, memf = f >> 4 & 1;
				uint8_t b[8] = { 0xc4, (uint8_t)(0xe0 | map),
						 (uint8_t)(W << 7 | 0x78 | L << 2 | pp), (uint8_t)op,
						 (uint8_t)(memf ? 0x0e : 0xca), 0x90, 0x90, 0x90 };
				struct cpu *cpu;
				bool host_ud, interp_ud;

				if (map == 1 && op == 0x77 && memf)
					continue; /* VZEROUPPER/ALL take no ModRM: the byte after is the next instruction */
				memset(mem, 0, MEM_SIZE); /* zero memory: MXCSR 0 is valid */
				host_ud = run_one_native(b, 8) == SIGILL;
				memcpy(code, b, 8);
				code[8] = 0xcc;
				cpu_invalidate_code((uint64_t)(uintptr_t)code, 4096);
				cpu = calloc(1, sizeof(*cpu));
				cpu_init(cpu, CPU_MODE_64);
				cpu->xcr0 = CPU_XSTATE_X87 | CPU_XSTATE_SSE | CPU_XSTATE_AVX;
				cpu->r[R_SI] = (uintptr_t)(mem + 128);
				cpu->r[R_DI] = (uintptr_t)(mem + MEM_SIZE);
				cpu->r[R_BX] = (uintptr_t)(mem + MEM_SIZE + IMG);
				cpu->r[R_SP] = (uintptr_t)(stack + 65536 - 64);
				cpu->rip = (uintptr_t)code;
				cpu_step(cpu);
				interp_ud = cpu->stop == CPU_STOP_FAULT && cpu->fault.vector == VEC_UD;
				cpu_release(cpu);
				free(cpu);
				checked++;
				if (host_ud == interp_ud)
					continue;
				if (interp_ud) {
					host_only++;
					if (getenv("AVX_SCAN"))
						printf("  host runs, sysgate #UD: map %u op %02x pp %u L%u W%u %s\n",
						       map, op, pp, L, W, memf ? "mem" : "reg");
					continue;
				}
				fprintf(stderr, "map %u op %02x pp %u L%u W%u %s: sysgate runs it, host #UD\n",
					map, op, pp, L, W, memf ? "mem" : "reg");
				bad++;
			}
	printf("VEX scan: %u encodings, %u the host runs and sysgate does not report (AVX_SCAN=1 lists them), %u run by sysgate but #UD on the host\n",
	       checked, host_only, bad);
	assert_int_equal(bad, 0);
}

static void test_avx_vs_host(void **state)
{
	(void)state;
	mode32 = false;
	avx_vs_host();
}

static void test_avx_mode32_vs_host(void **state)
{
	(void)state;
	mode32 = true;
	avx_vs_host();
	mode32 = false;
}

static int setup(void **state)
{
	(void)state;
	code = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1,
		   0);
	stack = mmap(NULL, 65536, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT,
		     -1, 0); /* the 32-bit variant's ESP */
	cpu_install_fault_handler();
	return code == MAP_FAILED || mem == MAP_FAILED || stack == MAP_FAILED;
}

static int teardown(void **state)
{
	(void)state;
	munmap(code, 4096);
	munmap(mem, 4096);
	munmap(stack, 65536);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_avx_vs_host),
		cmocka_unit_test(test_avx_mode32_vs_host),
		cmocka_unit_test(test_vex_ud_scan),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
