/* Guest signals (docs/signals.md).
 *
 * A host handler is installed for every signal the guest handles; it only
 * queues the signal in the receiving thread's sg_sigstate (async-signal
 * safe), keeps it blocked on the host until delivered, and asks the CPU to
 * stop. The run loop then calls sig_deliver() at an instruction boundary,
 * which builds the kernel's frame for the ABI and points the CPU at the
 * handler. The guest's mask is mirrored into the host thread's mask, so
 * signals the guest blocks stay pending in the host kernel, where
 * sigpending, sigtimedwait and signalfd find them.
 */
#ifndef SG_SIGNAL_H
#define SG_SIGNAL_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include "signal/sigstate.h"
#include "sysgate.h" /* enum sg_abi */

struct cpu_fault;
struct sg_task;       /* signal/guest_task.h */
struct sg_task_group;
struct sg_thread;     /* core's: a handle, never read */

/* The task of the thread a handle names: core's struct sg_thread begins
 * with it (core/process.h asserts it; signal/guest_task.h). A file that
 * does not include guest_task.h can pass it on but not look inside. */
static inline struct sg_task *sg_task(struct sg_thread *t)
{
	return (struct sg_task *)(void *)t;
}

#define SIGBIT(n) (1ull << ((n) - 1))
#define SIG_UNBLOCKABLE (SIGBIT(SIGKILL) | SIGBIT(SIGSTOP))

/* The signal that stops every thread at exit_group; never blocked on the
 * host (its guest blocking is emulated). */
#define SIG_KICK 64

/* Kernel sa_flags bits (same in every ABI). */
#define SG_SA_RESTORER 0x04000000u
#define SG_SA_ONSTACK 0x08000000u
#define SG_SA_RESTART 0x10000000u
#define SG_SA_NODEFER 0x40000000u
#define SG_SA_RESETHAND 0x80000000u
#define SG_SA_SIGINFO 0x4u

#define SG_SIG_DFL 0
#define SG_SIG_IGN 1

/* The calling host thread runs guest thread t (NULL: none). */
void sig_attach(struct sg_task *t);

/* Start-up of a process: signals the host gives us ignored (nohup, an exec
 * from an ignoring parent) are ignored for the guest too. */
void sig_process_init(struct sg_task_group *g);

/* A guest execve in place (its point of no return passed): handled
 * signals go back to the default, ignored ones stay ignored, every
 * action's flags and mask are cleared, the alternate stack is disabled;
 * the mask and the queued signals stay (the kernel's exec). */
void sig_exec_reset(struct sg_task *t);

/* A process's first thread: the guest mask starts as the host's. */
void sig_thread_init(struct sg_task *t);

/* After g->sigactions[sig-1] changed: the host disposition follows. */
void sig_action_changed(struct sg_task_group *g, int sig);
/* The process's action for sig (1..SG_NSIG), as it is now. */
struct sg_sigaction sig_action(struct sg_task *t, int sig);
/* Set the action for sig under the process's lock, the host disposition
 * following; the action it had before. */
struct sg_sigaction sig_swap_action(struct sg_task *t, int sig,
				    const struct sg_sigaction *sa);

/* After t->sig.mask changed: the host thread mask follows. */
void sig_mask_changed(struct sg_task *t);
/* The host mask that mirrors guest mask. */
void sig_host_mask(const struct sg_task *t, uint64_t guest_mask, sigset_t *out);

/* sas_ss_flags(sp): SS_DISABLE, SS_ONSTACK (sp on t's alternate stack) or 0. */
int frame_ss_flags(const struct sg_task *t, uint64_t sp);

/* Signals queued in t (delivered to the host handler, not yet to the guest). */
uint64_t sig_queued(const struct sg_task *t);
/* Take a queued signal in set out of t's queue: its number, or 0. */
int sig_dequeue(struct sg_task *t, uint64_t set, siginfo_t *info);

/* Something in t's queue could be delivered now. */
bool sig_deliverable(const struct sg_task *t);

/* After a host pthread_create by the current thread: the host C library
 * may have taken signals 32 and 33 (its own) and unblocked them; give the
 * guest's actions and mask back. */
void sig_host_thread_created(struct sg_task_group *g);

/* Deliver queued signals to t (run loop, instruction boundary): frames for
 * handlers, default actions, syscall restart. Returns false if the guest
 * dies (of a signal whose default kills: the group's exit_group hook). */
bool sig_deliver(struct sg_task *t);

/* A CPU fault: deliver the kernel's signal for it to the guest's handler.
 * false: nobody handles it (the caller kills the guest). */
bool sig_deliver_fault(struct sg_task *t, const struct cpu_fault *f, int signo);

/* A fault of a thread a guest tracer traces (t->sig.ptraced) that no
 * host signal brought (the interpreter found it): the host stops for the
 * tracer as for a real one. true: the tracer let it through, deliver it;
 * false: suppressed or replaced (the replacement comes as a host signal).
 * fatal (the guest dies of it): let through, the process dies there;
 * seen: its stop was a host signal's, the tracer saw it (fatal only). */
bool sig_ptrace_stop(struct sg_task *t, const siginfo_t *si, bool fatal, bool seen);
/* si_value of a signal sig_ptrace_stop sends for a stop the tracer has
 * seen already (SI_QUEUE from the tracee itself): not reported again */
#define SIG_PTRACE_SEEN 0x53475053

/* A bad sigreturn frame or an unwritable frame: SIGSEGV (SI_KERNEL) is
 * forced, unblocked and with the default action if it was ignored. */
void sig_force_segv(struct sg_task *t);

/* The guest's siginfo in the kernel layout of abi (siginfo.c): i386's
 * and x32's are the compat one (x32 with 64-bit clock fields), any other
 * is the host's. size: 128 in all ABIs. */
void siginfo_to_guest(const siginfo_t *host, enum sg_abi abi, uint8_t out[128]);
void siginfo_from_guest(const uint8_t in[128], enum sg_abi abi, siginfo_t *host);

#endif
