/* Shared by the frame builders (private to src/signal). */
#ifndef SG_SIGNAL_FRAME_H
#define SG_SIGNAL_FRAME_H

#include "signal/guest_task.h"
#include "mm/mm.h"

struct frame_req {
	struct sg_task *t;
	int sig;
	const struct sg_sigaction *ka;
	uint8_t info[128];           /* already in the guest's layout */
	uint64_t old_mask;           /* the mask sigreturn puts back */
	uint64_t trapno, err, cr2;   /* sigcontext fault fields */
};

/* The kernel's uc_flags bits. */
#define UC_FP_XSTATE 0x1
#define UC_SIGCONTEXT_SS 0x2
#define UC_STRICT_RESTORE_SS 0x4

/* Build the frame and point the CPU at the handler: 0, or -1 when the
 * frame cannot be written (the caller forces SIGSEGV, as the kernel). */
int frame_setup_i386(const struct frame_req *r);
int frame_setup_x64(const struct frame_req *r, bool x32);

/* Where the frame goes: the red zone skipped (64-bit), the alternate
 * stack when SA_ONSTACK asks and we are not on it. */
uint64_t frame_stack(struct sg_task *t, const struct sg_sigaction *ka, bool is_i386,
		     bool *onstack_after);
/* sp is on the alternate stack, SS_AUTODISARM or not (overflow check). */
bool frame_within_altstack(const struct sg_task *t, uint64_t sp);
/* sas_ss_flags(sp): SS_DISABLE, SS_ONSTACK or 0. */
int frame_ss_flags(const struct sg_task *t, uint64_t sp);
/* The uc_stack the frame keeps (SS_AUTODISARM then disarms). */
void frame_save_altstack(struct sg_task *t, uint64_t sp, uint64_t *ss_sp,
			 int32_t *ss_flags, uint64_t *ss_size);
/* rt_sigreturn: sigaltstack from the frame's uc_stack; 0 or -1. */
int frame_restore_altstack(struct sg_task *t, uint64_t ss_sp, int32_t flags,
			   uint64_t size);

/* FP state: room below sp (64-byte aligned XSAVE image and magic, or
 * FXSAVE image without XSAVE; for i386 the 112-byte fsave header before
 * it); returns the new sp = fpstate pointer. */
uint64_t fpstate_alloc(const struct cpu *c, uint64_t sp, bool is_i386, uint64_t *buf_fx);
/* Bytes of that image: the XSAVE area + FP_XSTATE_MAGIC2, or 512. */
uint32_t fpstate_size(const struct cpu *c);
int fpstate_save(struct sg_task *t, uint64_t fpstate, uint64_t buf_fx, bool is_i386);
/* From a sigcontext's fpstate pointer (0: reset). 0 or -1. */
int fpstate_restore(struct sg_task *t, uint64_t fpstate, bool is_i386);
/* The FPU a handler starts with (the kernel's init state). */
void fpstate_reset(struct cpu *c);

/* The mask after sigreturn; SIGKILL/SIGSTOP never. */
void frame_set_mask(struct sg_task *t, uint64_t mask);

/* RFLAGS bits sigreturn takes from the frame (FIX_EFLAGS). */
#define FIX_EFLAGS 0x50dd5ull /* AC OF DF TF SF ZF AF PF CF RF */

#endif
