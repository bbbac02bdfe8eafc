/* Operand kinds of the host-executed SIMD rows (opcodes_sse.def,
 * sse_host.c). Private to src/cpu. */
#ifndef SG_CPU_SSE_HOST_H
#define SG_CPU_SSE_HOST_H

#include "cpu/cpu.h"

/* Source (the r/m operand): */
enum {
	S128A,  /* xmm/m128, 16-byte aligned (legacy SSE) */
	S128U,  /* xmm/m128, any alignment */
	SM128A, /* m128 only, aligned (MOVNTDQA) */
	SM128U, /* m128 only, any alignment (LDDQU) */
	S64, S32, S16, /* xmm/m64, m32, m16: the low lane */
	SX,     /* xmm register only */
	SMM,    /* mm/m64 */
	SMM32,  /* mm/m32 (PUNPCKLxx) */
	SMMR,   /* mm register only */
	SE,     /* r/m32, r/m64 with REX.W: in eax/rax */
	SE8, SE16, /* r32/m8, r32/m16: in eax */
	SRM,    /* the r/m register is the destination too (group forms) */
	SNONE,
};

/* Destination: */
enum {
	DX,     /* xmm1 -> xmm(reg) */
	DX0,    /* xmm0 -> xmm0 (PCMPxSTRM) */
	DCX,    /* ecx -> ECX (PCMPxSTRI) */
	DMM,    /* mm1 -> mm(reg) */
	DG,     /* eax/rax -> GPR(reg), 32 or 64 bits by REX.W */
	DRM8, DRM16, DRM32, /* eax -> r32/r64 (zero-extended) or m8/m16/m32 */
	DRMW,   /* eax/rax -> r/m32 or r/m64 by REX.W */
	DMMRM,  /* mm1 -> mm(rm) (group forms) */
	DXRM,   /* xmm1 -> xmm(rm) (group forms) */
	DNONE,  /* flags only */
};

/* Row flags: */
/* The operands of a host-executed row (sse_host.c's trampolines use its
 * offsets) and of its portable C twin (sse_fp.c with SG_PORTABLE_FP,
 * sse_int_portable.c with SG_PORTABLE_SIMD):
 * x1 = the destination, x2 = the source, mxcsr the guest's with every
 * exception masked (the C: as the guest masks them) and no flag set, the
 * flags raised ORed in after. */
struct simd_frame {
	cpu_xmm x0, x1, x2;
	uint64_t m1, m2, rax, rcx, rdx, rflags;
	uint32_t mxcsr;
	uint32_t imm; /* the C twin's imm8 (the thunks have it built in) */
};
typedef void simd_c_fn(struct simd_frame *f);

#define SF_FP 1     /* runs under the guest's MXCSR; may raise #XM */
#define SF_MMX 2    /* MMX operands: x87 -> MMX transition */
#define SF_MMXR 4   /* the transition only with a register source (CVTPI2PS/PD) */
#define SF_FLAGS 8  /* writes ZF/PF/CF (and OF/SF/AF) */
#define SF_M32SEL 16 /* INSERTPS: a memory source has no lane select */
#define SF_INT 0

#endif
