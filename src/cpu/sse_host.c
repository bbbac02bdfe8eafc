/* The SIMD instructions that run on the host: every SIMD(), SIMDI(),
 * SIMDW() and SIMDG() row of opcodes_sse.def becomes a thunk (the row's own
 * instruction on fixed registers, then RET; 256/128/.. copies for an
 * immediate, one per value, 8 bytes apart) and a handler that moves the
 * guest's operands into a frame, runs the thunk through a trampoline and
 * writes the results back. FP rows run under the guest's MXCSR (all
 * exceptions masked; an unmasked one that occurred becomes #XM with the
 * destination left alone; mxcsr_fast is the common case); MMX rows see the
 * guest's MMX registers and make the x87 -> MMX transition. Register roles in the thunks:
 *   xmm1/mm1 the destination (ModRM.reg), xmm2/mm2 the source (r/m),
 *   xmm0 implicit (BLENDV mask, PCMPxSTRM result), eax/rax a GPR operand,
 *   eax/edx/ecx PCMPESTRx lengths and PCMPxSTRI's index. */
#if __has_include(<sys/platform/x86.h>)
#include <sys/platform/x86.h>
#else
#include <cpuid.h>
#endif
#include <stdio.h>
#include "cpu/ops.h"
#include "cpu/x87.h"
#include "cpu/sse_host.h"

/* The thunks need the host to have what CPUID tells the guest: x86-64-v2.
 * Say so once at start-up rather than die of SIGILL later. */
__attribute__((constructor)) static void simd_check_host(void)
{
#if __has_include(<sys/platform/x86.h>)
	/* glibc's own CPUID results, read at its start-up: no CPUID here,
	 * which a virtual machine traps (~5-9 us each, at every start) */
	bool v2 = CPU_FEATURE_PRESENT(SSE3) && CPU_FEATURE_PRESENT(SSSE3) &&
		  CPU_FEATURE_PRESENT(SSE4_1) && CPU_FEATURE_PRESENT(SSE4_2) &&
		  CPU_FEATURE_PRESENT(POPCNT);
#else
	unsigned a, b, c, d;
	const unsigned need = 1u << 0 | 1u << 9 | 1u << 19 | 1u << 20 | 1u << 23;
	bool v2 = !__get_cpuid(1, &a, &b, &c, &d) || (c & need) == need;
#endif

	if (!v2)
		fprintf(stderr, "sysgate: this CPU lacks SSE3/SSSE3/SSE4.1/SSE4.2/POPCNT "
				"(x86-64-v2): guest SIMD code may stop sysgate with SIGILL\n");
}

_Static_assert(offsetof(struct simd_frame, m1) == 48 && offsetof(struct simd_frame, mxcsr) == 96,
	       "the trampolines use these offsets");

void simd_call_int(struct simd_frame *f, const void *thunk);
void simd_call_fp(struct simd_frame *f, const void *thunk);
void simd_call_mmx(struct simd_frame *f, const void *thunk);
void simd_call_mmx_fp(struct simd_frame *f, const void *thunk);

/* Trampolines: the integer one loads and stores xmm0..2, rax, rcx, rdx
 * and captures RFLAGS; the FP ones run under the frame's MXCSR and put the
 * host's back; the MMX ones also carry mm1/mm2 and end with EMMS. No input
 * flags: no SIMD instruction reads them. */
#define TRAMPOLINE(name, pre, post) \
	".globl " name "\n.type " name ", @function\n" name ":\n" \
	"  sub $24, %rsp\n" pre \
	"  movdqa 0(%rdi), %xmm0\n  movdqa 16(%rdi), %xmm1\n  movdqa 32(%rdi), %xmm2\n" \
	"  mov 64(%rdi), %rax\n  mov 72(%rdi), %rcx\n  mov 80(%rdi), %rdx\n" \
	"  mov %rdi, (%rsp)\n  call *%rsi\n  pushfq\n  pop %r8\n  mov (%rsp), %rdi\n" \
	"  mov %r8, 88(%rdi)\n" \
	"  movdqa %xmm0, 0(%rdi)\n  movdqa %xmm1, 16(%rdi)\n  movdqa %xmm2, 32(%rdi)\n" \
	"  mov %rax, 64(%rdi)\n  mov %rcx, 72(%rdi)\n  mov %rdx, 80(%rdi)\n" post \
	"  add $24, %rsp\n  ret\n.size " name ", . - " name "\n"
#define MXCSR_IN "  stmxcsr 8(%rsp)\n  ldmxcsr 96(%rdi)\n"
#define MXCSR_OUT "  stmxcsr 96(%rdi)\n  ldmxcsr 8(%rsp)\n"
#define MMX_IN "  movq 48(%rdi), %mm1\n  movq 56(%rdi), %mm2\n"
#define MMX_OUT "  movq %mm1, 48(%rdi)\n  movq %mm2, 56(%rdi)\n  emms\n"
__asm__(".text\n"
	TRAMPOLINE("simd_call_int", "", "")
	TRAMPOLINE("simd_call_fp", MXCSR_IN, MXCSR_OUT)
	TRAMPOLINE("simd_call_mmx", MMX_IN, MMX_OUT)
	TRAMPOLINE("simd_call_mmx_fp", MXCSR_IN MMX_IN, MMX_OUT MXCSR_OUT));
#undef MXCSR_IN
#undef MXCSR_OUT
#undef MMX_IN
#undef MMX_OUT

/* The thunks. */
#define OP(map, opcode, prefix, group, handler, flags)
#define THUNK_I(label, mask, text) \
	".balign 8\n" label ":\n.set i, 0\n.rept (" #mask ") + 1\n" text "\nret\n" \
	".balign 8, 0xcc\n.set i, i + 1\n.endr\n" \
	".org " label " + ((" #mask ") + 1) * 8, 0xcc\n" /* fails if a thunk is over 8 bytes */
#define SIMD(map, opc, pfx, name, src, dst, fl, text) \
	".balign 8\nsimd_t_" #name ":\n" text "\nret\n"
#define SIMDI(map, opc, pfx, name, src, dst, fl, mask, text) THUNK_I("simd_t_" #name, mask, text)
#define SIMDW(map, opc, pfx, name, src, dst, fl, text, textw) \
	".balign 8\nsimd_t_" #name ":\n" text "\nret\n" \
	".balign 8\nsimd_t_" #name "_w:\n" textw "\nret\n"
#define SIMDWI(map, opc, pfx, name, src, dst, fl, mask, text, textw) \
	THUNK_I("simd_t_" #name, mask, text) THUNK_I("simd_t_" #name "_w", mask, textw)
#define SIMDG(map, opc, pfx, grp, name, src, dst, fl, mask, text) \
	THUNK_I("simd_t_" #name, mask, text)
__asm__(".text\n"
#include "cpu/opcodes_sse.def"
	);
#undef SIMD
#undef SIMDI
#undef SIMDW
#undef SIMDWI
#undef SIMDG

static inline uint32_t mxcsr_read(void)
{
	uint32_t v;

	__asm__ volatile("stmxcsr %0" : "=m"(v) : : "memory");
	return v;
}

/* The fast path of FP rows: when the guest's MXCSR masks every exception
 * and has the host's rounding control, the host MXCSR simply becomes the
 * guest's and stays so: sticky flags, FTZ and DAZ (-ffast-math) are
 * nothing host code depends on (it does no denormal arithmetic). Then the
 * instruction runs without LDMXCSR, which costs more than most
 * instructions. */
#define MXCSR_GUEST_BITS 0x807fu /* flags, DAZ, FTZ */

static inline bool mxcsr_fast(uint32_t guest)
{
	uint32_t host = mxcsr_read();

	if ((host & ~MXCSR_GUEST_BITS) != (guest & ~MXCSR_GUEST_BITS) || (guest & 0x1f80) != 0x1f80)
		return false;
	if (host != guest)
		__asm__ volatile("ldmxcsr %0" : : "m"(guest) : "memory");
	return true;
}

/* Everything a row's handler does, specialised by its constant arguments. */
static inline __attribute__((always_inline)) void
simd_exec(struct cpu *c, const struct insn *i, const uint8_t *thunk, unsigned src, unsigned dst,
	  unsigned fl, simd_c_fn *portable)
{
	const struct insn_cold *ic = insn_cold(i);
	struct simd_frame f;
	bool w = ic->rex & 8;
	bool mmx = (fl & SF_MMX) || ((fl & SF_MMXR) && ic->mod == 3);
	uint32_t guest_mxcsr = c->mxcsr;

	if (mmx && x87_pending(c)) {
		cpu_raise(c, VEC_MF);
		return;
	}
	f.x0 = c->xmm[0];
	f.x1 = c->xmm[i->reg];
	f.rax = c->r[R_AX];
	f.rcx = c->r[R_CX];
	f.rdx = c->r[R_DX];
	f.rflags = 2;
	/* every exception masked, the sticky flags clear: the flags after it
	 * are what this instruction raised (a flag already set for an
	 * unmasked exception is no #XM: SSE has nothing pending) */
	f.mxcsr = (guest_mxcsr | 0x1f80) & ~0x3fu;
	f.m1 = mmx_get(c, i->reg);
	switch (src) {
	case S128A:
	case S128U:
		if (!xmm_rm_load(c, i, &f.x2, src == S128A))
			return;
		break;
	case SM128A:
	case SM128U:
		if (ic->mod == 3) {
			op_ud(c, i);
			return;
		}
		if (!xmm_rm_load(c, i, &f.x2, src == SM128A))
			return;
		break;
	case S64:
	case S32:
	case S16:
		if (ic->mod == 3) {
			f.x2 = c->xmm[i->rm];
		} else {
			memset(&f.x2, 0, sizeof(f.x2));
			f.x2.q[0] = mem_read(insn_ea(c, i), src == S64 ? 8 : src == S32 ? 4 : 2);
		}
		break;
	case SX:
		if (ic->mod != 3) {
			op_ud(c, i);
			return;
		}
		f.x2 = c->xmm[i->rm];
		break;
	case SMM:
	case SMM32:
		f.m2 = ic->mod == 3 ? mmx_get(c, i->rm) : mem_read(insn_ea(c, i), src == SMM ? 8 : 4);
		break;
	case SMMR:
		if (ic->mod != 3) {
			op_ud(c, i);
			return;
		}
		f.m2 = mmx_get(c, i->rm);
		break;
	case SE:
		f.rax = rm_read(c, i, w ? 8 : 4);
		break;
	case SE8:
	case SE16:
		f.rax = ic->mod == 3 ? c->r[i->rm] : mem_read(insn_ea(c, i), src == SE8 ? 1 : 2);
		break;
	case SRM:
		f.m1 = mmx_get(c, i->rm);
		f.x1 = c->xmm[i->rm];
		break;
	}

	if (portable) { /* the row in C (sse_fp.c, sse_int_portable.c), flags as below */
		uint32_t raised;

		f.mxcsr = guest_mxcsr & ~0x3fu; /* its masks: UE depends on UM */
		f.imm = (uint32_t)insn_imm(i) & 0xff;
		if ((fl & SF_M32SEL) && ic->mod != 3)
			f.imm &= 0x3f; /* INSERTPS m32: no source lane */
		portable(&f);
		raised = f.mxcsr & 0x3f;
		c->mxcsr = guest_mxcsr | raised;
		if (raised & ~(guest_mxcsr >> 7)) {
			cpu_raise(c, VEC_XM);
			return;
		}
	} else if ((fl & SF_FP) && !(fl & (SF_MMX | SF_MMXR)) && mxcsr_fast(guest_mxcsr)) {
		simd_call_int(&f, thunk);
		c->mxcsr = mxcsr_read();
	} else if (fl & SF_FP) {
		uint32_t raised;

		if (fl & (SF_MMX | SF_MMXR))
			simd_call_mmx_fp(&f, thunk);
		else
			simd_call_fp(&f, thunk);
		raised = f.mxcsr & 0x3f;
		c->mxcsr = guest_mxcsr | raised;
		if (raised & ~(guest_mxcsr >> 7)) {
			cpu_raise(c, VEC_XM);
			return;
		}
	} else if (fl & (SF_MMX | SF_MMXR)) {
		simd_call_mmx(&f, thunk);
	} else {
		simd_call_int(&f, thunk);
	}

	switch (dst) {
	case DX: c->xmm[i->reg] = f.x1; break;
	case DX0: c->xmm[0] = f.x0; break;
	case DCX: reg_set(c, R_CX, 4, f.rcx); break;
	case DMM: mmx_set(c, i->reg, f.m1); break;
	case DG: reg_set(c, i->reg, w ? 8 : 4, f.rax); break;
	case DRM8:
	case DRM16:
	case DRM32:
		if (ic->mod == 3)
			reg_set(c, i->rm, w ? 8 : 4, f.rax);
		else
			mem_write(insn_ea(c, i), dst == DRM8 ? 1 : dst == DRM16 ? 2 : 4, f.rax);
		break;
	case DRMW: rm_write(c, i, w ? 8 : 4, f.rax); break;
	case DMMRM: mmx_set(c, i->rm, f.m1); break;
	case DXRM: c->xmm[i->rm] = f.x1; break;
	case DNONE: break;
	}
	if (fl & SF_FLAGS)
		flags_put(c, FL_ARITH, f.rflags & FL_ARITH);
	if (mmx)
		mmx_enter(c);
}

/* SG_PORTABLE_FP, SG_PORTABLE_SIMD: a row with a C version (sse_fp.c,
 * sse_int_portable.c define simd_c_<name>) runs it; the weak reference is
 * NULL for the others (and for the rows of the option not built). */
#if defined(SG_PORTABLE_FP) || defined(SG_PORTABLE_SIMD)
#define SIMD_PORTABLE(name) simd_c_##name
#define SIMD_PORTABLE_DECL(name) extern simd_c_fn simd_c_##name __attribute__((weak));
#else
#define SIMD_PORTABLE(name) NULL
#define SIMD_PORTABLE_DECL(name)
#endif
#define SIMD(map, opc, pfx, name, src, dst, fl, text) \
	extern const uint8_t simd_t_##name[]; \
	SIMD_PORTABLE_DECL(name) \
	void op_simd_##name(struct cpu *c, const struct insn *i) \
	{ \
		simd_exec(c, i, simd_t_##name, src, dst, fl, SIMD_PORTABLE(name)); \
	}
#define SIMDI(map, opc, pfx, name, src, dst, fl, mask, text) \
	extern const uint8_t simd_t_##name[]; \
	SIMD_PORTABLE_DECL(name) \
	void op_simd_##name(struct cpu *c, const struct insn *i) \
	{ \
		unsigned imm = (unsigned)insn_imm(i) & (mask); \
		if (((fl) & SF_M32SEL) && insn_cold(i)->mod != 3) \
			imm &= 0x3f; /* INSERTPS m32: no source lane */ \
		simd_exec(c, i, simd_t_##name + imm * 8, src, dst, fl, SIMD_PORTABLE(name)); \
	}
#define SIMDW(map, opc, pfx, name, src, dst, fl, text, textw) \
	extern const uint8_t simd_t_##name[], simd_t_##name##_w[]; \
	SIMD_PORTABLE_DECL(name) SIMD_PORTABLE_DECL(name##_w) \
	void op_simd_##name(struct cpu *c, const struct insn *i) \
	{ \
		bool w = insn_cold(i)->rex & 8; \
		simd_exec(c, i, w ? simd_t_##name##_w : simd_t_##name, src, dst, fl, \
			  w ? SIMD_PORTABLE(name##_w) : SIMD_PORTABLE(name)); \
	}
#define SIMDWI(map, opc, pfx, name, src, dst, fl, mask, text, textw) \
	extern const uint8_t simd_t_##name[], simd_t_##name##_w[]; \
	SIMD_PORTABLE_DECL(name) SIMD_PORTABLE_DECL(name##_w) \
	void op_simd_##name(struct cpu *c, const struct insn *i) \
	{ \
		bool w = insn_cold(i)->rex & 8; \
		simd_exec(c, i, (w ? simd_t_##name##_w : simd_t_##name) + (insn_imm(i) & (mask)) * 8, \
			  src, dst, fl, w ? SIMD_PORTABLE(name##_w) : SIMD_PORTABLE(name)); \
	}
#define SIMDG(map, opc, pfx, grp, name, src, dst, fl, mask, text) \
	SIMDI(map, opc, pfx, name, src, dst, fl, mask, text)
#include "cpu/opcodes_sse.def"
