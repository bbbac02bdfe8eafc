/* Where (rt_)sigreturn finds the mask it restores, in bytes from the stack
 * pointer at the call (structs_task.c, tk_sigreturnmask, says how each is
 * made up), from the frames the signal module builds
 * (syscall/compat/sigframe_layout.h). unit.test_syscall_structs checks
 * them against the uapi <asm/sigcontext.h> and <asm/ucontext.h> compiled
 * for -m32 and -mx32 (src/syscall/compat/layout_ref_uapi.c). */
#ifndef SG_TRACE_SIGFRAME_H
#define SG_TRACE_SIGFRAME_H

#include <stddef.h>

#include "syscall/compat/sigframe_layout.h"

/* i386 sigreturn: the sigcontext at sp (pretcode and sig popped), its
 * oldmask; the extramask word after the unused FP state */
#define TRACE_SIGRETURN_I386_OLDMASK offsetof(struct sc32, oldmask)
#define TRACE_SIGRETURN_I386_EXTRAMASK \
	(offsetof(struct sigframe32, extramask) - offsetof(struct sigframe32, sc))
/* i386 rt_sigreturn: sp = frame + 4 (pretcode popped); the ucontext's mask */
#define TRACE_RT_SIGRETURN_I386_MASK \
	(offsetof(struct rt_frame32, uc) - 4 + offsetof(struct uc32, sigmask))
/* x32 rt_sigreturn: the ucontext at sp */
#define TRACE_RT_SIGRETURN_X32_MASK offsetof(struct ucx32, sigmask)
/* x86_64 rt_sigreturn: the same */
#define TRACE_RT_SIGRETURN_X86_64_MASK offsetof(struct uc64, sigmask)

#endif
