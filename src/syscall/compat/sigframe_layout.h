/* The kernel's signal frames (arch/x86/include/asm/sigframe.h) and the
 * compat ucontexts (ucontext_ia32, ucontext_x32), which no uapi header
 * describes, built from the parts that one does: the sigcontexts, the
 * i386 FP state, x86_64's ucontext and the siginfo layouts, generated
 * from the uapi headers per ABI (layouts.in). The signal module writes and
 * reads these frames; the trace finds sigreturn's mask in them. Sizes and
 * offsets asserted from the kernel's definitions, and checked against the
 * uapi headers compiled -m32/-mx32 by unit.test_signal and
 * unit.test_syscall_structs. */
#ifndef SG_SYSCALL_SIGFRAME_LAYOUT_H
#define SG_SYSCALL_SIGFRAME_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "guest_layout_i386.h"
#include "guest_layout_x32.h"
#include "guest_layout_x86_64.h"

/* --- x86_64 and x32 --- */

struct rt_frame64 {
	uint64_t pretcode;
	struct uc64 uc;
	uint8_t info[sizeof(struct sc_siginfo64)];
};
_Static_assert(sizeof(struct rt_frame64) == 440, "rt_sigframe (x86_64)");
_Static_assert(offsetof(struct rt_frame64, info) == 312, "rt_sigframe.info");

/* ucontext_x32: 32-bit longs and pointers, the 64-bit sigcontext at 8-byte
 * alignment, a 64-bit mask */
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
	uint8_t info[sizeof(struct compat_siginfo_x32)];
};
_Static_assert(sizeof(struct rt_frame_x32) == 424, "rt_sigframe_x32");

/* --- i386 --- */

struct sigframe32 {
	uint32_t pretcode;
	int32_t sig;
	struct sc32 sc;
	uint8_t fpstate_unused[sizeof(struct fpstate_i386)];
	uint32_t extramask;
	uint8_t retcode[8];
};
_Static_assert(sizeof(struct sigframe32) == 732, "sigframe_i386");

/* ucontext_ia32: a 64-bit mask (the uapi header's sigset_t is one long) */
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
	uint8_t info[sizeof(struct compat_siginfo)];
	struct uc32 uc;
	uint8_t retcode[8];
};
_Static_assert(sizeof(struct rt_frame32) == 268, "rt_sigframe_i386");
_Static_assert(offsetof(struct rt_frame32, uc) == 144, "rt_sigframe_i386.uc");

#endif
