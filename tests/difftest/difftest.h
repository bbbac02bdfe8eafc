/* The differential tester's shared layout: fixed addresses both the native
 * runner (a -m64 or -m32 child process) and the interpreter side use, and
 * the request/response block that lives in a shared memfd.
 *
 *   CODE   the snippet, then a JMP rel32 to EXIT, CMC, a JMP rel32 to EXIT
 *          (gen_tail: relative branches jump over the first JMP)
 *          (memfd page 0, r-x)
 *   EXIT   the child's jump to its exit stub; INT3s in the tester, where
 *          the interpreter's runs stop
 *   DATA   the scratch memory the snippet may touch, guard pages around
 *   IO     struct dt_io (memfd, shared); with AVX also the YMM upper
 *          halves in and out
 * Everything sits below 2 GiB so 32-bit children and absolute disp32
 * addressing in the 64-bit stub reach it. */
#ifndef SG_DIFFTEST_H
#define SG_DIFFTEST_H

#include <stdint.h>

#define DT_CODE 0x30000000
#define DT_EXIT 0x30001000
#define DT_GUARD_LO 0x30010000
#define DT_DATA 0x30100000
#define DT_DATA_SIZE 0x2000
#define DT_GUARD_HI (DT_DATA + DT_DATA_SIZE)
#define DT_GUARD_END 0x30200000
#define DT_IO 0x30400000
#define DT_PAGE 4096u
#define DT_CODE_MAX 256u
/* 64-bit children: GS base, so GS-prefixed operands are tested too. */
#define DT_GS_BASE 0x10000000

/* Memfd layout: the code page, then the io block. */
#define DT_MEMFD_CODE 0
#define DT_MEMFD_IO DT_PAGE

struct dt_io {
	uint8_t in_fx[512];          /* FXSAVE image loaded before the snippet */
	uint8_t out_fx[512];         /* ... and saved after it (or at the fault) */
	uint64_t in_r[16];           /* rax rcx rdx rbx rsp rbp rsi rdi r8..r15 */
	uint64_t in_flags;
	uint64_t out_r[16];
	uint64_t out_flags;
	uint64_t out_rip;            /* at a fault: the faulting rip */
	uint64_t sig;                /* 0, or the signal the snippet raised */
	uint64_t fault_addr, fault_code;
	uint64_t gs_base;            /* 32-bit child: its GS base (glibc TLS) */
	uint64_t ready;
	uint8_t in_data[DT_DATA_SIZE];
	uint8_t out_data[DT_DATA_SIZE];
	/* The runner's private save slots (absolute addresses in its asm). */
	uint64_t host_sp, scratch[8];
	/* 1: the host has AVX state enabled (CPUID OSXSAVE+AVX, XCR0 bits 1
	 * and 2): the runner loads the YMM upper halves (bits 255:128) from
	 * in_ymmh after FXRSTOR and saves them into out_ymmh with the rest. */
	uint64_t avx;
	uint8_t in_ymmh[16][16];
	uint8_t out_ymmh[16][16];
};

#define DT_OFF_IN_R 1024
#define DT_OFF_IN_FLAGS (DT_OFF_IN_R + 128)
#define DT_OFF_OUT_R (DT_OFF_IN_FLAGS + 8)
#define DT_OFF_OUT_FLAGS (DT_OFF_OUT_R + 128)
#define DT_OFF_HOST_SP (DT_OFF_OUT_FLAGS + 8 * 7 + 2 * DT_DATA_SIZE)
#define DT_OFF_AVX (DT_OFF_HOST_SP + 8 * 9)
#define DT_OFF_IN_YMMH (DT_OFF_AVX + 8)
#define DT_OFF_OUT_YMMH (DT_OFF_IN_YMMH + 256)

_Static_assert(__builtin_offsetof(struct dt_io, in_r) == DT_OFF_IN_R, "layout");
_Static_assert(__builtin_offsetof(struct dt_io, in_flags) == DT_OFF_IN_FLAGS, "layout");
_Static_assert(__builtin_offsetof(struct dt_io, out_r) == DT_OFF_OUT_R, "layout");
_Static_assert(__builtin_offsetof(struct dt_io, out_flags) == DT_OFF_OUT_FLAGS, "layout");
_Static_assert(__builtin_offsetof(struct dt_io, host_sp) == DT_OFF_HOST_SP, "layout");
_Static_assert(__builtin_offsetof(struct dt_io, avx) == DT_OFF_AVX, "layout");
_Static_assert(__builtin_offsetof(struct dt_io, in_ymmh) == DT_OFF_IN_YMMH, "layout");
_Static_assert(__builtin_offsetof(struct dt_io, out_ymmh) == DT_OFF_OUT_YMMH, "layout");

#endif
