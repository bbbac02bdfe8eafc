/* The i386 frames (arch/x86/include/asm/sigframe.h, sigframe_i386 and
 * rt_sigframe_i386), as a 64-bit kernel builds them for a 32-bit task:
 *
 *   sigframe     pretcode, sig, sigcontext_32 (88), _fpstate_32 (624,
 *                unused: the FP state lies above), extramask, retcode = 732
 *   rt_sigframe  pretcode, sig, pinfo, puc, compat siginfo (128),
 *                ucontext_i386 (116), retcode                           = 268
 *
 * The return address is sa_restorer with SA_RESTORER, else the vDSO's
 * __kernel_sigreturn/__kernel_rt_sigreturn (retcode is only for debuggers).
 * Arguments go in eax (sig), edx and ecx (pinfo, puc) as well as on the
 * stack; esp + 4 is 16-byte aligned at the handler's entry.
 */
#include <stddef.h>
#include <string.h>

#include "signal/frame.h"
#include "syscall/compat/sigframe_layout.h"
#include "vdso/vdso.h"
#include "syscall/table.h"

#define NR_SIGRETURN 119
#define NR_RT_SIGRETURN 173
#define USER32_CS 0x23
#define USER32_DS 0x2b

static void save_sc(const struct frame_req *r, struct sc32 *sc, uint64_t fpstate)
{
	const struct cpu *c = &r->t->cpu;

	memset(sc, 0, sizeof(*sc));
	sc->gs = c->sel[SEG_GS];
	sc->fs = c->sel[SEG_FS];
	sc->es = c->sel[SEG_ES];
	sc->ds = c->sel[SEG_DS];
	sc->edi = (uint32_t)c->r[R_DI];
	sc->esi = (uint32_t)c->r[R_SI];
	sc->ebp = (uint32_t)c->r[R_BP];
	sc->esp = (uint32_t)c->r[R_SP];
	sc->ebx = (uint32_t)c->r[R_BX];
	sc->edx = (uint32_t)c->r[R_DX];
	sc->ecx = (uint32_t)c->r[R_CX];
	sc->eax = (uint32_t)c->r[R_AX];
	sc->trapno = (uint32_t)r->trapno;
	sc->err = (uint32_t)r->err;
	sc->eip = (uint32_t)c->rip;
	sc->cs = c->sel[SEG_CS];
	sc->eflags = (uint32_t)cpu_get_rflags(c);
	sc->esp_at_signal = (uint32_t)c->r[R_SP];
	sc->ss = c->sel[SEG_SS];
	sc->fpstate = (uint32_t)fpstate;
	sc->oldmask = (uint32_t)r->old_mask;
	sc->cr2 = (uint32_t)r->cr2;
}

/* The kernel's reload_segments: a data segment register the handler's
 * frame changed is loaded (RPL 3); a selector that cannot be loaded
 * leaves it null (loadsegment's fault fix-up), no signal. A null selector
 * reads back 0 after the return to user mode (selftest sigreturn_32 sets
 * DS = ES = 0 and finds 0 natively, not 3). */
static void reload_segment(struct cpu *c, enum cpu_seg seg, uint32_t sel)
{
	uint16_t want = (uint16_t)(sel | 3);

	if (c->sel[seg] == want)
		return;
	if ((want & ~3u) == 0 || cpu_load_segment(c, seg, want))
		cpu_load_segment(c, seg, 0);
}

/* -1: the frame cannot be read back, or the return to user mode faults
 * (a CS other than the user code segments, an SS that cannot be loaded:
 * the kernel's IRET fails in user mode); both are SIGSEGV. */
static int restore_sc(struct sg_task *t, const struct sc32 *sc)
{
	struct cpu *c = &t->cpu;

	reload_segment(c, SEG_GS, sc->gs);
	reload_segment(c, SEG_FS, sc->fs);
	reload_segment(c, SEG_DS, sc->ds);
	reload_segment(c, SEG_ES, sc->es);
	c->r[R_DI] = sc->edi;
	c->r[R_SI] = sc->esi;
	c->r[R_BP] = sc->ebp;
	c->r[R_SP] = sc->esp;
	c->r[R_BX] = sc->ebx;
	c->r[R_DX] = sc->edx;
	c->r[R_CX] = sc->ecx;
	c->r[R_AX] = sc->eax;
	c->rip = sc->eip;
	cpu_set_rflags(c, (cpu_get_rflags(c) & ~FIX_EFLAGS) | (sc->eflags & FIX_EFLAGS));
	if (fpstate_restore(t, sc->fpstate, true))
		return -1;
	/* CS 0x33 is 64-bit mode, for an i386 process too; a failed return's
	 * SIGSEGV frame shows the selectors the IRET was given */
	if (!cpu_far_jump(c, (uint16_t)(sc->cs | 3), c->rip)) {
		c->sel[SEG_CS] = (uint16_t)(sc->cs | 3);
		c->sel[SEG_SS] = (uint16_t)(sc->ss | 3);
		return -1;
	}
	if (cpu_load_segment(c, SEG_SS, (uint16_t)(sc->ss | 3))) {
		c->sel[SEG_SS] = (uint16_t)(sc->ss | 3);
		return -1;
	}
	return 0;
}

/* What the return address is when the handler gave no restorer. */
static uint32_t vdso_restorer(struct sg_task *t, bool rt, uint64_t retcode)
{
	const struct vdso_image *img = vdso_image_for(SG_ABI_I386);
	uint64_t base = t->group->vdso.base;
	uint64_t off = img ? (rt ? img->sym_rt_sigreturn : img->sym_sigreturn) : 0;

	return (uint32_t)(base && off ? base + off : retcode);
}

int frame_setup_i386(const struct frame_req *r)
{
	struct sg_task *t = r->t;
	struct cpu *c = &t->cpu;
	bool rt = r->ka->flags & SG_SA_SIGINFO;
	size_t size = rt ? sizeof(struct rt_frame32) : sizeof(struct sigframe32);
	union {
		struct sigframe32 f;
		struct rt_frame32 rf;
	} u;
	uint64_t sp, fpstate, buf_fx, ss_sp, ss_size;
	uint32_t ret;
	int32_t ss_flags;
	bool onstack;

	sp = frame_stack(t, r->ka, true, &onstack);
	fpstate = fpstate_alloc(c, sp, true, &buf_fx);
	sp = (uint32_t)(((fpstate - size + 4) & ~15ull) - 4);
	if (onstack && !frame_within_altstack(t, sp))
		return -1;
	if (copy_from_guest(t->group->mm, &u, sp, size))
		return -1;
	if (fpstate_save(t, fpstate, buf_fx, true))
		return -1;
	if (rt) {
		static const uint8_t code[8] = { 0xb8, NR_RT_SIGRETURN, 0, 0, 0, 0xcd, 0x80, 0 };
		struct rt_frame32 *f = &u.rf;

		ret = r->ka->flags & SG_SA_RESTORER
			      ? (uint32_t)r->ka->restorer
			      : vdso_restorer(t, true, sp + offsetof(struct rt_frame32, retcode));
		f->pretcode = ret;
		f->sig = r->sig;
		f->pinfo = (uint32_t)sp + offsetof(struct rt_frame32, info);
		f->puc = (uint32_t)sp + offsetof(struct rt_frame32, uc);
		memcpy(f->info, r->info, 128);
		f->uc.uc_flags = c->xcr0 ? UC_FP_XSTATE : 0;
		f->uc.uc_link = 0;
		frame_save_altstack(t, c->r[R_SP], &ss_sp, &ss_flags, &ss_size);
		f->uc.ss_sp = (uint32_t)ss_sp;
		f->uc.ss_flags = ss_flags;
		f->uc.ss_size = (uint32_t)ss_size;
		save_sc(r, &f->uc.mc, fpstate);
		f->uc.sigmask[0] = (uint32_t)r->old_mask;
		f->uc.sigmask[1] = (uint32_t)(r->old_mask >> 32);
		memcpy(f->retcode, code, 8);
	} else {
		static const uint8_t code[8] = { 0x58, 0xb8, NR_SIGRETURN, 0, 0, 0, 0xcd, 0x80 };
		struct sigframe32 *f = &u.f;

		ret = r->ka->flags & SG_SA_RESTORER
			      ? (uint32_t)r->ka->restorer
			      : vdso_restorer(t, false, sp + offsetof(struct sigframe32, retcode));
		f->pretcode = ret;
		f->sig = r->sig;
		save_sc(r, &f->sc, fpstate);
		f->extramask = (uint32_t)(r->old_mask >> 32);
		memcpy(f->retcode, code, 8);
	}
	if (copy_to_guest(t->group->mm, sp, &u, size))
		return -1;

	c->r[R_SP] = sp;
	cpu_far_jump(c, USER32_CS, (uint32_t)r->ka->handler);
	c->r[R_AX] = (uint32_t)r->sig;
	c->r[R_DX] = rt ? (uint32_t)sp + offsetof(struct rt_frame32, info) : 0;
	c->r[R_CX] = rt ? (uint32_t)sp + offsetof(struct rt_frame32, uc) : 0;
	cpu_load_segment(c, SEG_DS, USER32_DS);
	cpu_load_segment(c, SEG_ES, USER32_DS);
	/* and on the user data SS (__USER32_DS), whatever it interrupted */
	cpu_load_segment(c, SEG_SS, USER32_DS);
	return 0;
}

/* sigreturn (119): after the handler's ret and the restorer's popl, esp is
 * 8 bytes into the frame. */
static long sigreturn_i386(struct sg_task *t)
{
	struct sigframe32 f;
	uint64_t frame = (uint32_t)(t->cpu.r[R_SP] - 8);

	t->sig.sigreturned = true;
	if (copy_from_guest(t->group->mm, &f, frame, sizeof(f)))
		goto bad;
	frame_set_mask(t, f.sc.oldmask | (uint64_t)f.extramask << 32);
	if (restore_sc(t, &f.sc))
		goto bad;
	return (uint32_t)t->cpu.r[R_AX];
bad:
	sig_force_segv(t);
	return (uint32_t)t->cpu.r[R_AX];
}

SG_SYSCALL_DEFINE(sys_sigreturn)
{
	return sigreturn_i386(sg_task(t));
}

SG_SYSCALL_DEFINE(compat_sys_sigreturn)
{
	return sigreturn_i386(sg_task(t));
}

/* rt_sigreturn (173): 4 bytes into the frame (only pretcode was popped). */
static long rt_sigreturn_i386(struct sg_task *t)
{
	struct rt_frame32 f;
	uint64_t frame = (uint32_t)(t->cpu.r[R_SP] - 4);

	t->sig.sigreturned = true;
	if (copy_from_guest(t->group->mm, &f, frame, sizeof(f)))
		goto bad;
	frame_set_mask(t, f.uc.sigmask[0] | (uint64_t)f.uc.sigmask[1] << 32);
	if (restore_sc(t, &f.uc.mc))
		goto bad;
	if (frame_restore_altstack(t, f.uc.ss_sp, f.uc.ss_flags, f.uc.ss_size))
		goto bad;
	return (uint32_t)t->cpu.r[R_AX];
bad:
	sig_force_segv(t);
	return (uint32_t)t->cpu.r[R_AX];
}

SG_SYSCALL_DEFINE(compat_sys_rt_sigreturn)
{
	return rt_sigreturn_i386(sg_task(t));
}
