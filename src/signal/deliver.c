/* Delivery at an instruction boundary: pick a queued signal, apply its
 * action (handler frame, ignore, or the default: terminate, stop), restart
 * or fail an interrupted system call as the kernel would, and turn CPU
 * faults into the kernel's signals with their siginfo. */
#define _GNU_SOURCE /* TRAP_TRACE */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "cpu/syscall_regs.h"
#include "signal/frame.h"
#include "trace/trace.h"

#define SS_AUTODISARM_BIT (1u << 31)

/* --- alternate stack ---------------------------------------------------- */

static bool on_altstack(const struct sg_task *t, uint64_t sp)
{
	if (t->sig.altstack_flags & SS_AUTODISARM_BIT)
		return false;
	return sp > t->sig.altstack_sp && sp - t->sig.altstack_sp <= t->sig.altstack_size;
}

/* __on_sig_stack: whatever SS_AUTODISARM says (the overflow check). */
bool frame_within_altstack(const struct sg_task *t, uint64_t sp)
{
	return sp > t->sig.altstack_sp && sp - t->sig.altstack_sp <= t->sig.altstack_size;
}

int frame_ss_flags(const struct sg_task *t, uint64_t sp)
{
	if (!t->sig.altstack_size)
		return SS_DISABLE;
	return on_altstack(t, sp) ? SS_ONSTACK : 0;
}

uint64_t frame_stack(struct sg_task *t, const struct sg_sigaction *ka, bool is_i386,
		     bool *onstack_after)
{
	uint64_t sp = cpu_stack_pointer(&t->cpu);
	bool nested = t->sig.altstack_size && on_altstack(t, sp);

	if (t->group->abi == SG_ABI_I386 || t->cpu.mode == CPU_MODE_32)
		sp = (uint32_t)sp;
	if (!is_i386)
		sp -= 128; /* the red zone */
	*onstack_after = nested;
	if ((ka->flags & SG_SA_ONSTACK) && frame_ss_flags(t, sp) == 0) {
		sp = t->sig.altstack_sp + t->sig.altstack_size;
		*onstack_after = true;
	}
	return sp;
}

void frame_save_altstack(struct sg_task *t, uint64_t sp, uint64_t *ss_sp,
			 int32_t *ss_flags, uint64_t *ss_size)
{
	*ss_sp = t->sig.altstack_sp;
	*ss_size = t->sig.altstack_size;
	*ss_flags = (int32_t)(t->sig.altstack_flags | (uint32_t)frame_ss_flags(t, sp));
}

/* As sigaltstack(&uc_stack, NULL) from the frame: changing it while on it
 * is refused (-EPERM makes a bad frame). */
int frame_restore_altstack(struct sg_task *t, uint64_t ss_sp, int32_t flags,
			   uint64_t size)
{
	uint32_t mode = (uint32_t)flags & ~SS_AUTODISARM_BIT;

	if (on_altstack(t, cpu_stack_pointer(&t->cpu)))
		return 0; /* -EPERM unless unchanged: the kernel lets it pass */
	if (mode == SS_DISABLE) {
		t->sig.altstack_sp = t->sig.altstack_size = 0;
		t->sig.altstack_flags = 0;
		return 0;
	}
	if (mode != 0 && mode != SS_ONSTACK)
		return -1;
	if (size < 2048)
		return -1;
	t->sig.altstack_sp = ss_sp;
	t->sig.altstack_size = size;
	t->sig.altstack_flags = (uint32_t)flags & SS_AUTODISARM_BIT;
	return 0;
}

/* --- masks and forced signals ------------------------------------------- */

void frame_set_mask(struct sg_task *t, uint64_t mask)
{
	t->sig.mask = mask & ~SIG_UNBLOCKABLE;
	sig_mask_changed(t);
}

static void queue_info(struct sg_task *t, const siginfo_t *si)
{
	int sig = si->si_signo;

	t->sig.info[sig - 1] = *si;
	__atomic_or_fetch(&t->sig.pending, SIGBIT(sig), __ATOMIC_RELEASE);
}

/* force_sig: a blocked or ignored signal is unblocked and reset first. */
static void force_info(struct sg_task *t, const siginfo_t *si)
{
	int sig = si->si_signo;
	struct sg_sigaction *ka = &t->group->sigactions[sig - 1];

	if ((t->sig.mask & SIGBIT(sig)) || ka->handler == SG_SIG_IGN) {
		t->sig.mask &= ~SIGBIT(sig);
		if (ka->handler == SG_SIG_IGN)
			ka->handler = SG_SIG_DFL;
	}
	queue_info(t, si);
}

void sig_force_segv(struct sg_task *t)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	si.si_signo = SIGSEGV;
	si.si_code = SI_KERNEL;
	force_info(t, &si);
}

/* --- default actions ---------------------------------------------------- */

static bool default_ignores(int sig)
{
	return sig == SIGCHLD || sig == SIGURG || sig == SIGWINCH || sig == SIGCONT;
}

static bool default_stops(int sig)
{
	return sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU;
}

/* The guest dies of sig: every thread stops, sg_run reports it (core,
 * through the group's hook). */
static void die_of(struct sg_task *t, int sig)
{
	struct sg_exit status = { .signaled = 1, .signal = sig };

	if (t->group->hooks.exit_group)
		t->group->hooks.exit_group(t, &status);
}

/* --- syscall restart ---------------------------------------------------- */

/* The call the last syscall instruction made is entered again: rip back
 * on the instruction, the number (or restart_syscall's) in eax/rax. */
static void restart_syscall(struct sg_task *t)
{
	cpu_syscall_rewind(&t->cpu, &t->sig.restart_at, t->sig.restart_nr);
	t->sig.restart_code = 0;
}

/* The kernel's choice when a handler is about to run (handle_signal),
 * from the interrupted call's code alone: ERESTARTNOINTR always restarts,
 * ERESTARTSYS with SA_RESTART, the others (ERESTARTNOHAND,
 * ERESTART_RESTARTBLOCK) never; the guest gets EINTR instead. With no
 * handler every code restarts (sig_deliver). */
static void restart_or_eintr(struct sg_task *t, uint64_t sa_flags)
{
	int code = t->sig.restart_code;

	if (!code)
		return;
	if (code == SG_ERESTARTNOINTR || (code == SG_ERESTARTSYS && (sa_flags & SG_SA_RESTART))) {
		restart_syscall(t);
		return;
	}
	cpu_syscall_set_return_value(&t->cpu, -EINTR);
	t->sig.restart_code = 0;
	t->sig.restart_fn = SG_RESTART_NONE; /* restart_syscall now gives EINTR */
}

/* --- delivery ------------------------------------------------------------- */

/* The action as one whole, read under the lock sigaction writes it with:
 * the kernel reads it once per delivery under its siglock, and a handler
 * another thread sets meanwhile takes effect for the next signal. Read
 * twice, a switch in between (SIG_IGN then a handler, or back) built a
 * frame for SIG_IGN's value, 1 (CPython's
 * test_stress_modifying_handlers; e2e.proc-actionrace). */
static struct sg_sigaction action_now(struct sg_task_group *g, int sig)
{
	struct sg_sigaction ka;

	pthread_mutex_lock(&g->lock);
	ka = g->sigactions[sig - 1];
	pthread_mutex_unlock(&g->lock);
	return ka;
}

/* A frame for the handler of ka, the action read once for this delivery. */
static int setup_frame(struct sg_task *t, int sig, const siginfo_t *si,
		       const struct cpu_fault *f, const struct sg_sigaction *action)
{
	struct sg_task_group *g = t->group;
	struct sg_sigaction ka = *action;
	struct frame_req r;
	uint64_t newmask;
	int rc;

	memset(&r, 0, sizeof(r));
	r.t = t;
	r.sig = sig;
	r.ka = &ka;
	siginfo_to_guest(si, t->group->abi, r.info);
	r.old_mask = t->sig.has_saved_mask ? t->sig.saved_mask : t->sig.mask;
	if (f) {
		r.trapno = f->vector;
		if (f->vector == VEC_PF) {
			r.err = 4u | (f->write ? 2u : 0) | (f->present ? 1u : 0) |
				(f->fetch ? 0x10u : 0);
			r.cr2 = f->data_addr;
		}
	}
	restart_or_eintr(t, ka.flags);
	if (g->abi == SG_ABI_I386)
		rc = frame_setup_i386(&r);
	else
		rc = frame_setup_x64(&r, g->abi == SG_ABI_X32);
	if (rc)
		return rc;
	/* what the kernel's handle_signal and signal_delivered do after the
	 * frame (any frame: the i386 sigframe keeps no stack_t, yet disarms) */
	if (t->sig.altstack_flags & SS_AUTODISARM_BIT) {
		t->sig.altstack_sp = t->sig.altstack_size = 0;
		t->sig.altstack_flags = 0;
	}
	cpu_set_rflags(&t->cpu, cpu_get_rflags(&t->cpu) & ~0x10500ull); /* DF RF TF */
	fpstate_reset(&t->cpu);
	newmask = t->sig.mask | ka.mask;
	if (!(ka.flags & SG_SA_NODEFER))
		newmask |= SIGBIT(sig);
	t->sig.has_saved_mask = false;
	if (ka.flags & SG_SA_RESETHAND) {
		pthread_mutex_lock(&g->lock);
		g->sigactions[sig - 1].handler = SG_SIG_DFL;
		sig_action_changed(g, sig);
		pthread_mutex_unlock(&g->lock);
	}
	frame_set_mask(t, newmask);
	return 0;
}

/* A debugger (unless it saw the fault already) and the embedding API's
 * signal hook may swallow it; the trace shows it. */
static bool announce(struct sg_task *t, const siginfo_t *si, bool debugger_saw)
{
	struct sg_task_group *g = t->group;

	if (!debugger_saw && g->hooks.debugger_signal &&
	    !g->hooks.debugger_signal(t, si, false))
		return false;
	if (g->hooks.embed_signal && g->hooks.embed_signal(t, si))
		return false;
	if (g->trace)
		trace_signal(g->trace, t->tid, si);
	return true;
}

/* One signal taken from the queue: its action. false: the guest died. */
static bool act(struct sg_task *t, int sig, const siginfo_t *si)
{
	struct sg_sigaction ka = action_now(t->group, sig);

	if (ka.handler == SG_SIG_IGN || !announce(t, si, false))
		return true;
	/* as the kernel's get_signal: the action after a tracer's stop */
	ka = action_now(t->group, sig);
	if (ka.handler == SG_SIG_IGN)
		return true;
	if (ka.handler == SG_SIG_DFL) {
		if (default_ignores(sig))
			return true;
		if (default_stops(sig)) {
			kill(getpid(), sig);
			return true;
		}
		die_of(t, sig);
		return false;
	}
	if (setup_frame(t, sig, si, NULL, &ka)) {
		sig_force_segv(t);
		return true;
	}
	return true;
}

bool sig_deliver(struct sg_task *t)
{
	siginfo_t si;
	int sig;
	bool alive = true;

	while (alive && !t->group->exiting && (sig = sig_dequeue(t, ~t->sig.mask, &si)))
		alive = act(t, sig, &si);
	if (t->sig.restart_code)
		restart_syscall(t); /* no handler ran: every code restarts */
	if (t->sig.has_saved_mask) {
		t->sig.has_saved_mask = false;
		frame_set_mask(t, t->sig.saved_mask);
	} else {
		sig_mask_changed(t); /* delivered signals leave the host mask */
	}
	return alive;
}

/* The kernel's si_code for an x87/SSE exception (fpu__exception_code). */
static int fpe_code(unsigned err)
{
	if (err & 0x001)
		return FPE_FLTINV;
	if (err & 0x004)
		return FPE_FLTDIV;
	if (err & 0x008)
		return FPE_FLTOVF;
	if (err & 0x012)
		return FPE_FLTUND;
	if (err & 0x020)
		return FPE_FLTRES;
	return 0;
}

static void fault_info(const struct sg_task *t, const struct cpu_fault *f, int signo,
		       siginfo_t *si)
{
	const struct cpu *c = &t->cpu;

	memset(si, 0, sizeof(*si));
	si->si_signo = signo;
	switch (f->vector) {
	case VEC_PF:
		if (f->bus_code) { /* the kernel's: the page exists, its file does not */
			si->si_code = f->bus_code;
			si->si_addr = (void *)(uintptr_t)f->data_addr;
			break;
		}
		/* the low 4 GiB reservation answers ACCERR for what is not
		 * guest memory at all: the guest's VMAs decide */
		si->si_code = f->prot && mm_access_ok(t->group->mm, f->data_addr, 1, 0)
				      ? SEGV_ACCERR : SEGV_MAPERR;
		si->si_addr = (void *)(uintptr_t)f->data_addr;
		break;
	case VEC_UD:
		si->si_code = ILL_ILLOPN;
		si->si_addr = (void *)(uintptr_t)f->insn_addr;
		break;
	case VEC_DE:
		si->si_code = FPE_INTDIV;
		si->si_addr = (void *)(uintptr_t)f->insn_addr;
		break;
	case VEC_MF:
		si->si_code = fpe_code(c->x87.fsw & ~c->x87.fcw & 0x3f);
		si->si_addr = (void *)(uintptr_t)f->insn_addr;
		break;
	case VEC_XM:
		si->si_code = fpe_code(~(c->mxcsr >> 7) & c->mxcsr & 0x3f);
		si->si_addr = (void *)(uintptr_t)f->insn_addr;
		break;
	case VEC_AC:
		si->si_code = BUS_ADRALN;
		si->si_addr = (void *)(uintptr_t)f->data_addr;
		break;
	case VEC_DB: /* the kernel's send_sigtrap: the address after the trap */
		si->si_code = f->single_step ? TRAP_TRACE : TRAP_BRKPT;
		si->si_addr = (void *)(uintptr_t)c->rip;
		break;
	default: /* #GP, #BP, #OF, #BR: the kernel's force_sig */
		si->si_code = SI_KERNEL;
		break;
	}
}

bool sig_deliver_fault(struct sg_task *t, const struct cpu_fault *f, int signo)
{
	struct sg_sigaction ka;
	siginfo_t si;

	fault_info(t, f, signo, &si);
	/* a debugger sees the fault first (ptrace's signal-delivery stop);
	 * not delivered, the faulting instruction runs again */
	if (t->group->hooks.debugger_signal &&
	    !t->group->hooks.debugger_signal(t, &si, true))
		return true;
	ka = action_now(t->group, signo);
	if (ka.handler == SG_SIG_DFL || ka.handler == SG_SIG_IGN ||
	    (t->sig.mask & SIGBIT(signo))) {
		/* force_sig: blocked or ignored means death; a tracer still
		 * sees the signal (strace's "--- SIGSEGV {...} ---"; a guest
		 * tracer stops first, once: not let through, the instruction
		 * runs again) */
		if (t->group->trace)
			trace_signal(t->group->trace, t->tid, &si);
		if (t->sig.ptraced && !sig_ptrace_stop(t, &si, true, f->host_signal))
			return true;
		return false;
	}
	/* a guest tracer's signal-delivery stop, where no host signal made
	 * one (ptrace.c); not let through, the instruction runs again */
	if (t->sig.ptraced && !f->host_signal && !sig_ptrace_stop(t, &si, false, false))
		return true;
	if (!announce(t, &si, true))
		return true;
	if (setup_frame(t, signo, &si, f, &ka))
		return false;
	return true;
}
