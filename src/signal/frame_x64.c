/* The x86_64 and x32 rt_sigframe (arch/x86/include/asm/sigframe.h):
 *
 *   x86_64: pretcode (8) | struct ucontext (304) | siginfo (128)   = 440
 *   x32:    pretcode (8) | struct ucontext_x32 (288) | compat siginfo = 424
 *
 * Both carry the 64-bit struct sigcontext (256 bytes); x32's ucontext has
 * 32-bit uc_flags/uc_link, a compat stack_t and a pad before it. The FP
 * state (an XSAVE image, fpstate.c) sits above the frame, 64-byte aligned; rsp is
 * 16-byte aligned minus 8, as after a call. Bytes the kernel does not
 * write (sigcontext.reserved1, siginfo without SA_SIGINFO) keep what the
 * stack held. rt_sigreturn (x86_64 15, x32 513) reverses it.
 */
#include <stddef.h>
#include <string.h>

#include "signal/frame.h"
#include "syscall/compat/sigframe_layout.h"
#include "syscall/table.h"

#define USER_CS 0x33
#define USER_DS 0x2b

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
	/* from 32-bit mode (a sigreturn or far transfer to CS 0x23) the
	 * kernel sees ESP: the upper half is not kept */
	sc->rsp = c->mode == CPU_MODE_32 ? (uint32_t)c->r[R_SP] : c->r[R_SP];
	sc->rip = c->rip;
	sc->eflags = cpu_get_rflags(c);
	sc->cs = c->sel[SEG_CS]; /* 0x23 after a far jump or SYSENTER to compat mode */
	sc->gs = 0;
	sc->fs = 0;
	sc->ss = c->sel[SEG_SS];
}

/* What the kernel's force_valid_ss lets stand in 64-bit mode without
 * UC_STRICT_RESTORE_SS: a present DPL-3 writable data segment (the user
 * data selector, a writable TLS entry); anything else becomes 0x2b. */
static uint16_t valid_ss_or_user_ds(const struct cpu *c, uint16_t ss)
{
	unsigned idx = ss >> 3;

	if (idx >= CPU_GDT_TLS_MIN && idx < CPU_GDT_TLS_MIN + CPU_GDT_TLS_COUNT && !(ss & 4)) {
		const struct cpu_tls_desc *d = &c->tls[idx - CPU_GDT_TLS_MIN];

		/* the flags are struct user_desc's, as set_thread_area took them */
		if (d->present && !(d->flags & SC_USER_DESC_READ_EXEC_ONLY) &&
		    LAYOUT_BITS(d->flags, SC_USER_DESC_CONTENTS) <= 1 /* data */)
			return ss;
	}
	return ss == USER_DS ? ss : USER_DS;
}

/* Back to the sigcontext's CS and SS (RPL forced to 3), as the kernel's
 * IRET does: a CS other than the user code segments, or an SS that cannot
 * be loaded, faults in user mode (SIGSEGV), and that signal's frame shows
 * the selectors the IRET was given. Without UC_STRICT_RESTORE_SS a bad SS
 * on the way to 64-bit mode is replaced (DOSEMU's and CRIU's frames). */
static int restore_cs_ss(struct cpu *c, const struct sc64 *sc, uint64_t uc_flags)
{
	uint16_t cs = (uint16_t)(sc->cs | 3), ss = (uint16_t)(sc->ss | 3);

	if (!cpu_far_jump(c, cs, c->rip)) {
		c->sel[SEG_CS] = cs;
		c->sel[SEG_SS] = ss;
		return -1;
	}
	if (!(uc_flags & UC_STRICT_RESTORE_SS) && c->mode == CPU_MODE_64)
		ss = valid_ss_or_user_ds(c, ss);
	if (cpu_load_segment(c, SEG_SS, ss)) {
		c->sel[SEG_SS] = ss;
		return -1;
	}
	return 0;
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
	struct sg_task *t = r->t;
	struct cpu *c = &t->cpu;
	size_t size = x32 ? sizeof(struct rt_frame_x32) : sizeof(struct rt_frame64);
	union {
		struct rt_frame64 f64;
		struct rt_frame_x32 fx32;
	} u;
	struct sc64 *sc;
	uint64_t sp, fpstate, buf_fx, ss_sp, ss_size, uc_flags;
	int32_t ss_flags;
	bool onstack;

	if (!(r->ka->flags & SG_SA_RESTORER))
		return -1; /* x86_64 has no vDSO restorer: the kernel refuses */
	sp = frame_stack(t, r->ka, false, &onstack);
	fpstate = fpstate_alloc(c, sp, false, &buf_fx);
	sp = ((fpstate - size) & ~15ull) - 8;
	if (x32 && sp >> 32)
		return -1;
	if (onstack && !frame_within_altstack(t, sp))
		return -1; /* would overflow the alternate stack */
	if (copy_from_guest(t->group->mm, &u, sp, size))
		return -1;
	if (fpstate_save(t, fpstate, buf_fx, false))
		return -1;
	frame_save_altstack(t, c->r[R_SP], &ss_sp, &ss_flags, &ss_size);
	/* UC_STRICT_RESTORE_SS only for a signal that came from 64-bit mode
	 * (the kernel's user_64bit_mode: CS is the 64-bit user CS) */
	uc_flags = UC_SIGCONTEXT_SS | (c->xcr0 ? UC_FP_XSTATE : 0) |
		   (c->sel[SEG_CS] == USER_CS ? UC_STRICT_RESTORE_SS : 0);
	if (x32) {
		struct rt_frame_x32 *f = &u.fx32;

		f->pretcode = r->ka->restorer;
		f->uc.uc_flags = (uint32_t)uc_flags;
		f->uc.uc_link = 0;
		f->uc.ss_sp = (uint32_t)ss_sp;
		f->uc.ss_flags = ss_flags;
		f->uc.ss_size = (uint32_t)ss_size;
		f->uc.sigmask[0] = (uint32_t)r->old_mask; /* compat_sigset_t */
		f->uc.sigmask[1] = (uint32_t)(r->old_mask >> 32);
		if (r->ka->flags & SG_SA_SIGINFO)
			memcpy(f->info, r->info, 128);
		sc = &f->uc.mc;
	} else {
		struct rt_frame64 *f = &u.f64;

		f->pretcode = r->ka->restorer;
		f->uc.uc_flags = uc_flags;
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
	if (copy_to_guest(t->group->mm, sp, &u, size))
		return -1;

	c->r[R_DI] = (uint64_t)r->sig;
	c->r[R_SI] = sp + (x32 ? offsetof(struct rt_frame_x32, info)
			       : offsetof(struct rt_frame64, info));
	c->r[R_DX] = sp + 8;
	if (!x32)
		c->r[R_AX] = 0; /* no vector registers used by a varargs call */
	c->r[R_SP] = sp;
	/* the kernel's frame setup loads __USER_CS and __USER_DS: the handler
	 * runs in 64-bit mode on the user data SS whatever the signal
	 * interrupted */
	cpu_far_jump(c, USER_CS, r->ka->handler);
	cpu_load_segment(c, SEG_SS, USER_DS);
	return 0;
}

/* rt_sigreturn: the frame sits where the handler's `ret` left rsp, 8 bytes
 * past its start. */
static long rt_sigreturn64(struct sg_task *t, bool x32)
{
	struct cpu *c = &t->cpu;
	uint64_t frame = c->r[R_SP] - 8;
	union {
		struct rt_frame64 f64;
		struct rt_frame_x32 fx32;
	} u;
	const struct sc64 *sc;
	uint64_t mask, ss_sp, ss_size, uc_flags;
	int32_t ss_flags;
	bool bad_return;

	if (copy_from_guest(t->group->mm, &u, frame,
			    x32 ? sizeof(u.fx32) : sizeof(u.f64)))
		goto bad;
	if (x32) {
		sc = &u.fx32.uc.mc;
		uc_flags = u.fx32.uc.uc_flags;
		mask = u.fx32.uc.sigmask[0] | (uint64_t)u.fx32.uc.sigmask[1] << 32;
		ss_sp = u.fx32.uc.ss_sp;
		ss_flags = u.fx32.uc.ss_flags;
		ss_size = u.fx32.uc.ss_size;
	} else {
		sc = &u.f64.uc.mc;
		uc_flags = u.f64.uc.uc_flags;
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
	bad_return = restore_cs_ss(c, sc, uc_flags) != 0;
	t->sig.sigreturned = true;
	if (bad_return)
		sig_force_segv(t); /* the return to user mode faults there */
	return (long)c->r[R_AX];
bad:
	t->sig.sigreturned = true;
	sig_force_segv(t);
	return (long)c->r[R_AX];
}

SG_SYSCALL_DEFINE(sys_rt_sigreturn)
{
	return rt_sigreturn64(sg_task(t), false);
}

SG_SYSCALL_DEFINE(compat_sys_x32_rt_sigreturn)
{
	return rt_sigreturn64(sg_task(t), true);
}
