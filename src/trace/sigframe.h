/* Where (rt_)sigreturn finds the mask it restores, in bytes from the stack
 * pointer at the call (structs_task.c, tk_sigreturnmask, says how each is
 * made up). Only defines, no includes: unit.test_syscall_structs checks
 * them against the uapi <asm/sigcontext.h> and <asm/ucontext.h> compiled
 * for -m32 and -mx32 (src/syscall/compat/layout_ref.c); x86_64's comes
 * from the host's ucontext_t. */
#ifndef SG_TRACE_SIGFRAME_H
#define SG_TRACE_SIGFRAME_H

/* i386 sigreturn: struct sigcontext_32 at sp, its oldmask; the extramask
 * word after it and the 624-byte struct _fpstate_32 */
#define TRACE_SIGRETURN_I386_OLDMASK 80
#define TRACE_SIGRETURN_I386_EXTRAMASK (88 + 624)
/* i386 rt_sigreturn: sp = frame + 4 (pretcode popped); the frame's
 * pretcode, sig, pinfo, puc and 128-byte siginfo, then the ucontext, whose
 * uc_sigmask is at 108 */
#define TRACE_RT_SIGRETURN_I386_MASK (4 * 4 + 128 - 4 + 108)
/* x32 rt_sigreturn: the ucontext at sp, uc_sigmask after 4+4+12+4 bytes and
 * the 256-byte 64-bit sigcontext */
#define TRACE_RT_SIGRETURN_X32_MASK 280

#endif
