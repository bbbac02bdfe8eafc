/* The kernel's signal frames (arch/x86/include/asm/sigframe.h: struct
 * rt_frame64, rt_frame_x32, sigframe32, rt_frame32) and the compat
 * ucontexts (ucontext_ia32: uc32, ucontext_x32: ucx32), which no uapi
 * header describes: generated per ABI from the kernel's declarations in
 * kernel_structs.h around the uapi sigcontexts, FP state, ucontext and
 * siginfo (layouts.in; docs/syscalls.md, Compat layouts). The signal
 * module writes and reads these frames; the trace finds sigreturn's mask
 * in them; unit.test_signal checks their parts against the uapi headers
 * compiled -m32/-mx32. */
#ifndef SG_SYSCALL_SIGFRAME_LAYOUT_H
#define SG_SYSCALL_SIGFRAME_LAYOUT_H

#include "guest_layout_i386.h"
#include "guest_layout_x32.h"
#include "guest_layout_x86_64.h"

#endif
