/* The kernel's signal-frame layouts (arch/x86/include/asm/sigframe.h,
 * uapi asm/sigcontext.h and asm/ucontext.h) as sysgate writes them; private
 * to src/signal and its unit test, which checks them against the uapi
 * headers compiled for each ABI. */
#ifndef SG_SIGNAL_FRAME_LAYOUT_H
#define SG_SIGNAL_FRAME_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

/* --- x86_64 and x32 --- */

struct sc64 {
	uint64_t r8, r9, r10, r11, r12, r13, r14, r15;
	uint64_t rdi, rsi, rbp, rbx, rdx, rax, rcx, rsp, rip, eflags;
	uint16_t cs, gs, fs, ss;
	uint64_t err, trapno, oldmask, cr2, fpstate;
	uint64_t reserved1[8];
};
_Static_assert(sizeof(struct sc64) == 256, "struct sigcontext (64-bit)");
_Static_assert(offsetof(struct sc64, cs) == 144, "sigcontext.cs");
_Static_assert(offsetof(struct sc64, fpstate) == 184, "sigcontext.fpstate");

struct uc64 {
	uint64_t uc_flags, uc_link;
	uint64_t ss_sp;
	int32_t ss_flags, ss_pad;
	uint64_t ss_size;
	struct sc64 mc;
	uint64_t sigmask;
};
_Static_assert(sizeof(struct uc64) == 304, "struct ucontext (x86_64)");

struct rt_frame64 {
	uint64_t pretcode;
	struct uc64 uc;
	uint8_t info[128];
};
_Static_assert(sizeof(struct rt_frame64) == 440, "rt_sigframe (x86_64)");
_Static_assert(offsetof(struct rt_frame64, info) == 312, "rt_sigframe.info");

struct ucx32 {
	uint32_t uc_flags, uc_link;
	uint32_t ss_sp;
	int32_t ss_flags;
	uint32_t ss_size;
	uint32_t pad0;
	struct sc64 mc;
	uint64_t sigmask;
} __attribute__((packed, aligned(8)));
_Static_assert(sizeof(struct ucx32) == 288, "struct ucontext_x32");
_Static_assert(offsetof(struct ucx32, mc) == 24, "ucontext_x32.uc_mcontext");

struct rt_frame_x32 {
	uint64_t pretcode;
	struct ucx32 uc;
	uint8_t info[128];
};
_Static_assert(sizeof(struct rt_frame_x32) == 424, "rt_sigframe_x32");

/* --- i386 --- */

struct sc32 {
	uint16_t gs, gsh, fs, fsh, es, esh, ds, dsh;
	uint32_t edi, esi, ebp, esp, ebx, edx, ecx, eax;
	uint32_t trapno, err, eip;
	uint16_t cs, csh;
	uint32_t eflags, esp_at_signal;
	uint16_t ss, ssh;
	uint32_t fpstate, oldmask, cr2;
};
_Static_assert(sizeof(struct sc32) == 88, "struct sigcontext_32");
_Static_assert(offsetof(struct sc32, eip) == 56, "sigcontext_32.ip");

struct sigframe32 {
	uint32_t pretcode;
	int32_t sig;
	struct sc32 sc;
	uint8_t fpstate_unused[624];
	uint32_t extramask;
	uint8_t retcode[8];
};
_Static_assert(sizeof(struct sigframe32) == 732, "sigframe_i386");

struct uc32 {
	uint32_t uc_flags, uc_link;
	uint32_t ss_sp;
	int32_t ss_flags;
	uint32_t ss_size;
	struct sc32 mc;
	uint32_t sigmask[2];
};
_Static_assert(sizeof(struct uc32) == 116, "struct ucontext_i386");

struct rt_frame32 {
	uint32_t pretcode;
	int32_t sig;
	uint32_t pinfo, puc;
	uint8_t info[128];
	struct uc32 uc;
	uint8_t retcode[8];
};
_Static_assert(sizeof(struct rt_frame32) == 268, "rt_sigframe_i386");
_Static_assert(offsetof(struct rt_frame32, uc) == 144, "rt_sigframe_i386.uc");

#endif
