/* The x86_64 and x32 rt_sigframe (arch/x86/include/asm/sigframe.h):
 *
 *   x86_64: pretcode (8) | struct ucontext (304) | siginfo (128)   = 440
 *   x32:    pretcode (8) | struct ucontext_x32 (288) | compat siginfo = 424
 *
 * Both carry the 64-bit struct sigcontext (256 bytes); x32's ucontext has
 * 32-bit uc_flags/uc_link, a compat stack_t and a pad before it. The FP
 * state (an FXSAVE image) sits above the frame, 64-byte aligned; rsp is
 * 16-byte aligned minus 8, as after a call. Bytes the kernel does not
 * write (sigcontext.reserved1, siginfo without SA_SIGINFO) keep what the
 * stack held. rt_sigreturn (x86_64 15, x32 513) reverses it.
 */
#include <stddef.h>
#include <string.h>

#include "signal/frame.h"
#include "signal/frame_layout.h"
#include "syscall/syscall.h"

static void save_regs(const struct cpu *c, struct sc64 *sc)
{
	sc->r8 = c->r[R_R8];
	sc->r9 = c->r[R_R9];
	sc->r10 = c->r[R_R10];
	sc->r11 = c->r[R_R11];
	sc->r12 = c->r[R_R12];
	sc->r13 = c->r[R_R13];
	sc->r14 = c->r[R_R14];
	sc->r15 = c->r[R_R15];
	sc->rdi = c->r[R_DI];
	sc->rsi = c->r[R_SI];
	sc->rbp = c->r[R_BP];
	sc->rbx = c->r[R_BX];
	sc->rdx = c->r[R_DX];
	sc->rax = c->r[R_AX];
	sc->rcx = c->r[R_CX];
	sc->rsp = c->r[R_SP];
	sc->rip = c->rip;
	sc->eflags = cpu_get_rflags(c);
	sc->cs = c->sel[SEG_CS]; /* 0x23 after a far jump or SYSENTER to compat mode */
	sc->gs = 0;
	sc->fs = 0;
	sc->ss = 0x2b;
}

static void restore_regs(struct cpu *c, const struct sc64 *sc)
{
	c->r[R_R8] = sc->r8;
	c->r[R_R9] = sc->r9;
	c->r[R_R10] = sc->r10;
	c->r[R_R11] = sc->r11;
	c->r[R_R12] = sc->r12;
	c->r[R_R13] = sc->r13;
	c->r[R_R14] = sc->r14;
	c->r[R_R15] = sc->r15;
	c->r[R_DI] = sc->rdi;
	c->r[R_SI] = sc->rsi;
	c->r[R_BP] = sc->rbp;
	c->r[R_BX] = sc->rbx;
	c->r[R_DX] = sc->rdx;
	c->r[R_AX] = sc->rax;
	c->r[R_CX] = sc->rcx;
	c->r[R_SP] = sc->rsp;
	c->rip = sc->rip;
	cpu_set_rflags(c, (cpu_get_rflags(c) & ~FIX_EFLAGS) | (sc->eflags & FIX_EFLAGS));
}

int frame_setup_x64(const struct frame_req *r, bool x32)
{
	struct sg_thread *t = r->t;
	struct cpu *c = &t->cpu;
	size_t size = x32 ? sizeof(struct rt_frame_x32) : sizeof(struct rt_frame64);
	union {
		struct rt_frame64 f64;
		struct rt_frame_x32 fx32;
	} u;
	struct sc64 *sc;
	uint64_t sp, fpstate, buf_fx, ss_sp, ss_size;
	int32_t ss_flags;
	bool onstack;

	if (!(r->ka->flags & SG_SA_RESTORER))
		return -1; /* x86_64 has no vDSO restorer: the kernel refuses */
	sp = frame_stack(t, r->ka, false, &onstack);
	fpstate = fpstate_alloc(sp, false, &buf_fx);
	sp = ((fpstate - size) & ~15ull) - 8;
	if (x32 && sp >> 32)
		return -1;
	if (onstack && !frame_within_altstack(t, sp))
		return -1; /* would overflow the alternate stack */
	if (copy_from_guest(t->proc->mm, &u, sp, size))
		return -1;
	if (fpstate_save(t, fpstate, buf_fx, false))
		return -1;
	frame_save_altstack(t, c->r[R_SP], &ss_sp, &ss_flags, &ss_size);
	if (x32) {
		struct rt_frame_x32 *f = &u.fx32;

		f->pretcode = r->ka->restorer;
		f->uc.uc_flags = UC_SIGCONTEXT_SS | UC_STRICT_RESTORE_SS;
		f->uc.uc_link = 0;
		f->uc.ss_sp = (uint32_t)ss_sp;
		f->uc.ss_flags = ss_flags;
		f->uc.ss_size = (uint32_t)ss_size;
		f->uc.sigmask = r->old_mask;
		if (r->ka->flags & SG_SA_SIGINFO)
			memcpy(f->info, r->info, 128);
		sc = &f->uc.mc;
	} else {
		struct rt_frame64 *f = &u.f64;

		f->pretcode = r->ka->restorer;
		f->uc.uc_flags = UC_SIGCONTEXT_SS | UC_STRICT_RESTORE_SS;
		f->uc.uc_link = 0;
		f->uc.ss_sp = ss_sp;
		f->uc.ss_flags = ss_flags;
		f->uc.ss_size = ss_size;
		f->uc.sigmask = r->old_mask;
		if (r->ka->flags & SG_SA_SIGINFO)
			memcpy(f->info, r->info, 128);
		sc = &f->uc.mc;
	}
	save_regs(c, sc);
	sc->err = r->err;
	sc->trapno = r->trapno;
	sc->oldmask = r->old_mask & 0xffffffffu;
	sc->cr2 = r->cr2;
	sc->fpstate = fpstate;
	if (copy_to_guest(t->proc->mm, sp, &u, size))
		return -1;

	c->r[R_DI] = (uint64_t)r->sig;
	c->r[R_SI] = sp + (x32 ? offsetof(struct rt_frame_x32, info)
			       : offsetof(struct rt_frame64, info));
	c->r[R_DX] = sp + 8;
	if (!x32)
		c->r[R_AX] = 0; /* no vector registers used by a varargs call */
	c->r[R_SP] = sp;
	/* the kernel's frame setup loads __USER_CS: the handler runs in
	 * 64-bit mode whatever mode the interrupted code was in */
	cpu_far_jump(c, 0x33, r->ka->handler);
	return 0;
}

/* rt_sigreturn: the frame sits where the handler's `ret` left rsp, 8 bytes
 * past its start. */
static long rt_sigreturn64(struct sg_thread *t, bool x32)
{
	struct cpu *c = &t->cpu;
	uint64_t frame = c->r[R_SP] - 8;
	union {
		struct rt_frame64 f64;
		struct rt_frame_x32 fx32;
	} u;
	const struct sc64 *sc;
	uint64_t mask, ss_sp, ss_size;
	int32_t ss_flags;

	if (copy_from_guest(t->proc->mm, &u, frame,
			    x32 ? sizeof(u.fx32) : sizeof(u.f64)))
		goto bad;
	if (x32) {
		sc = &u.fx32.uc.mc;
		mask = u.fx32.uc.sigmask;
		ss_sp = u.fx32.uc.ss_sp;
		ss_flags = u.fx32.uc.ss_flags;
		ss_size = u.fx32.uc.ss_size;
	} else {
		sc = &u.f64.uc.mc;
		mask = u.f64.uc.sigmask;
		ss_sp = u.f64.uc.ss_sp;
		ss_flags = u.f64.uc.ss_flags;
		ss_size = u.f64.uc.ss_size;
	}
	frame_set_mask(t, mask);
	restore_regs(c, sc);
	if (fpstate_restore(t, sc->fpstate, false))
		goto bad;
	if (frame_restore_altstack(t, ss_sp, ss_flags, ss_size))
		goto bad;
	t->sig.sigreturned = true;
	return (long)c->r[R_AX];
bad:
	t->sig.sigreturned = true;
	sig_force_segv(t);
	return (long)c->r[R_AX];
}

SG_SYSCALL_DEFINE(sys_rt_sigreturn)
{
	return rt_sigreturn64(t, false);
}

SG_SYSCALL_DEFINE(compat_sys_x32_rt_sigreturn)
{
	return rt_sigreturn64(t, true);
}
