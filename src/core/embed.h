/* The embedding API's hooks (src/core/embed.c; include/sysgate.h).
 *
 * The syscall and signal layers cannot call core (dependencies point one
 * way), so they reach the hooks through the function pointers here, set
 * when a hook is registered: they stay NULL, and cost one test per call,
 * for a program that registers none. sg_create allocates p->embed (so
 * that sg_stop, safe in a signal handler, never has to).
 */
#ifndef SG_EMBED_H
#define SG_EMBED_H

#include <signal.h>
#include <stdbool.h>
#include "sysgate.h"
#include "core/process.h"

struct sg_syscall_call;

/* A debugger attached to the process (src/gdb, sg_gdb_attach): the run
 * loop's hooks. sg_embed.debugger stays NULL without one, one test per
 * run-loop turn; the slow loop runs only while debug_steps is set
 * (watchpoints or a single step pending; breakpoints are INT3s). */
struct sg_debugger {
	/* Top of each run-loop turn of t: parks t while the debugger holds
	 * the process stopped, reports t's own stop (step done, breakpoint). */
	void (*checkpoint)(struct sg_thread *t);
	/* Slow loop, before the instruction at pc: true stops t there
	 * (another thread's stop). */
	bool (*before_insn)(struct sg_thread *t, uint64_t pc);
	/* After it (whatever it stopped for): true stops t. */
	bool (*after_insn)(struct sg_thread *t, uint64_t pc);
	/* A signal for t, before the guest sees it (a fault's too): the
	 * debugger reports it and answers whether it is delivered. */
	bool (*signal)(struct sg_thread *t, const siginfo_t *si, bool fault);
	/* t has left the thread list (under p->lock); last: the process
	 * status is final (p->exit). */
	void (*thread_exit)(struct sg_thread *t, bool last);
	/* In a fork child: the debugger lets go of it. */
	void (*forked)(struct sg_process *p);
	/* In the parent, after a fork (a vfork: once the child has exec'd
	 * or exited): the debugger reports it (fork events). */
	void (*fork_parent)(struct sg_thread *t, long child, bool vfork);
	/* Before the host execve that re-enters sysgate: the option that
	 * hands the debugger on to the new image (into buf), and the
	 * descriptor to leave open for it; -1: none (gdb then loses the
	 * process). */
	int (*exec_option)(struct sg_process *p, char *buf, size_t size);
	/* sg_destroy: the debugger stops using p (its thread ends). */
	void (*destroy)(struct sg_process *p);
};

/* A hook for some syscall numbers of one table (sg_hook_syscall_nrs). */
struct sg_nr_hook {
	struct sg_nr_hook *next;  /* in registration order */
	unsigned id;
	enum sg_abi abi;
	unsigned when;            /* SG_HOOK_ON_ENTRY | SG_HOOK_ON_EXIT */
	uint64_t nrs[SG_HOOK_NR_MAX / 64]; /* bit nr set: hooked */
	sg_syscall_hook fn;
	void *user;
};

/* An instruction hook for an address range (sg_hook_code_range). */
struct sg_range_hook {
	struct sg_range_hook *next; /* in registration order */
	unsigned id;                /* shared with sg_nr_hook's */
	uint64_t begin, end;
	sg_code_hook fn;
	void *user;
};

struct sg_embed {
	/* Called by the run loop (core/thread.c, run_syscall) before the
	 * trace and the handler: true means skip the handler, call->result
	 * is the answer. The hook may have changed call->args. */
	bool (*syscall_enter)(struct sg_thread *t, struct sg_syscall_call *call);
	/* After the handler, before the trace's exit line: may change
	 * call->result. */
	void (*syscall_exit)(struct sg_thread *t, struct sg_syscall_call *call);
	/* Called by signal delivery before the guest sees si: true means
	 * discard the signal. */
	bool (*signal)(struct sg_thread *t, const siginfo_t *si);

	/* The user's hooks (sg_hook_*). */
	sg_syscall_hook entry_fn, exit_fn;
	void *entry_user, *exit_user;
	sg_code_hook insn_fn, block_fn;
	void *insn_user, *block_user;
	sg_signal_hook signal_fn;
	void *signal_user;
	sg_event_hook event_fn;
	void *event_user;
	struct sg_nr_hook *nr_hooks;
	struct sg_range_hook *range_hooks;
	/* embed_clear_hooks's: kept until sg_destroy, as guest threads
	 * running on may still walk them */
	struct sg_nr_hook *retired_nr_hooks;
	struct sg_range_hook *retired_range_hooks;
	unsigned last_hook_id;

	/* The debugger's hooks; NULL: none. */
	const struct sg_debugger *debugger;
	void *debug_state;
	volatile int debug_steps;

	/* sg_stop / sg_step: the run loop returns to sg_run's caller. */
	volatile int stop_requested;
	bool stopped;
	bool stepping;
	/* sg_run_until: the main thread stops before until (unless it is
	 * where this run started: until_armed false until the first step)
	 * or once budget instructions ran; why says which ended the run. */
	bool until_on, until_armed, budget_on;
	uint64_t until, budget, executed;
	enum sg_err why;
};

/* The run loop's cpu_run: cpu_run itself unless instruction hooks or the
 * instruction trace are on; then one instruction at a time, with them. */
enum cpu_stop_reason embed_cpu_run(struct sg_thread *t);

/* A hook of the embedding API, a debugger or a step/until run is on:
 * a guest execve is then a host execve (core/exec_image.c). */
bool embed_hooked(const struct sg_process *p);

/* sg_destroy: the hooks and p->embed freed. */
void embed_destroy(struct sg_process *p);
/* Every hook removed (the guest's side of a process of its own sets new
 * stand-ins, core/guestside.c, maybe while other guest threads run: the
 * old lists stay readable until sg_destroy). */
void embed_clear_hooks(struct sg_process *p);

/* The user's hooks for one event, as the run loop calls them in-process
 * and the embedder's side of a guest in a process of its own calls them
 * for the event the guest's side handed over (core/outproc.c).
 * Syscalls (when: SG_HOOK_ON_ENTRY or _EXIT): the per-number hooks, then
 * the all-calls one; on entry the first SKIP or KILL ends the round. */
enum sg_hook_action embed_syscall_hooks(struct sg_process *p, unsigned when,
					struct sg_syscall_info *info);
void embed_event_hook(struct sg_process *p, const struct sg_event_info *ev);
enum sg_hook_action embed_signal_hook(struct sg_process *p, int tid, int signo);
/* kind: enum chan_code; id: the range hook's (CHAN_CODE_RANGE). */
void embed_code_hook(struct sg_process *p, int kind, uint64_t pc, unsigned id);

/* sg_stop or sg_step ended the run: the loop must return to sg_run, which
 * returns SG_ERR_STOPPED (the thread stays as it is, to be run again). */
static inline bool embed_stopped(const struct sg_process *p)
{
	return p->embed && p->embed->stopped;
}

/* The debugger attached to p, or NULL. */
static inline const struct sg_debugger *embed_debugger(const struct sg_process *p)
{
	return p->embed ? p->embed->debugger : NULL;
}

#endif
