/* The embedding API (include/sysgate.h, docs/api.md): stop and step,
 * registers and guest memory, and the hooks on system calls, instructions,
 * basic blocks and signals.
 *
 * Costs when unused: p->embed->syscall_enter etc. stay NULL (one test per
 * call), and the run loop calls cpu_run itself unless an instruction hook,
 * a block hook, the instruction trace or a stop/step is pending; only then
 * does it step one instruction at a time here (the "slow loop").
 */
#define _GNU_SOURCE /* memfd_create */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/channel.h"
#include "core/embed.h"
#include "core/outproc.h"
#include "core/thread.h"
#include "cpu/cpu.h"
#include "mm/mm.h"
#include "signal/signal.h"
#include "syscall/syscall.h"
#include "trace/trace.h"

/* The guest thread whose hook is running on this host thread: sg_reg_* and
 * sg_mem_* inside a hook act on it. */
static __thread struct sg_thread *hook_thread;

/* The call this host thread is in was answered by an entry hook (SKIP):
 * its exit makes no event (a fork a hook answered made no process). */
static __thread bool call_skipped;

static struct sg_embed *embed_of(sg_process *p)
{
	if (!p->embed)
		p->embed = calloc(1, sizeof(*p->embed));
	return p->embed;
}

static struct sg_thread *thread_for(sg_process *p)
{
	if (hook_thread && hook_thread->proc == p)
		return hook_thread;
	return p->main_thread;
}

static enum sg_abi abi_of_table(enum sg_table t)
{
	switch (t) {
	case SG_TABLE_I386: return SG_ABI_I386;
	case SG_TABLE_X32: return SG_ABI_X32;
	default: return SG_ABI_X64;
	}
}

static void fill_info(struct sg_syscall_info *info, const struct sg_thread *t,
		      const struct sg_syscall_call *call)
{
	info->abi = abi_of_table(call->table);
	info->name = call->row ? call->row->name : NULL;
	info->nr = call->index;
	info->tid = t->tid;
	memcpy(info->args, call->args, sizeof(info->args));
	info->result = call->result;
}

/* --- hooks called by the other layers (through struct sg_embed) --------- */

/* SG_HOOK_KILL: the guest process dies of SIGSYS, as seccomp's
 * SECCOMP_RET_KILL_PROCESS: every thread stops, sg_run reports it. */
static void kill_guest(struct sg_thread *t)
{
	process_exit(t, &(const struct sg_exit){ .signaled = 1, .signal = SIGSYS });
}

static bool nr_hook_wants(const struct sg_nr_hook *h, unsigned when,
			  const struct sg_syscall_info *info)
{
	return (h->when & when) && h->abi == info->abi &&
	       info->nr < SG_HOOK_NR_MAX &&
	       (h->nrs[info->nr / 64] >> (info->nr % 64) & 1);
}

static bool ends_round(enum sg_hook_action act)
{
	return act == SG_HOOK_SKIP || act == SG_HOOK_KILL;
}

static bool round_over(unsigned when, enum sg_hook_action act)
{
	return when == SG_HOOK_ON_ENTRY ? ends_round(act) : act == SG_HOOK_KILL;
}

/* --- events (sg_hook_event): read off the calls that cause them ---------- */

#ifndef CLONE_THREAD
#define CLONE_THREAD 0x00010000 /* <linux/sched.h> */
#endif

static bool named(const struct sg_syscall_info *info, const char *name)
{
	return info->name && !strcmp(info->name, name);
}

static void call_event(struct sg_thread *t, struct sg_event_info *ev)
{
	struct sg_embed *em = t->proc->embed;

	ev->tid = t->tid;
	em->event_fn(t->proc, ev, em->event_user);
}

/* On entry: exec, exit, exit_group (they do not come back). */
static void entry_event(struct sg_thread *t, const struct sg_syscall_info *info)
{
	struct sg_event_info ev = { 0 };
	char path[4096];

	if (named(info, "execve") || named(info, "execveat")) {
		uint64_t name = named(info, "execve") ? info->args[0] : info->args[1];

		ev.event = SG_EVENT_EXEC;
		if (sg_mem_read_string(t->proc, name, path, sizeof(path)) == SG_OK && path[0])
			ev.path = path;
	} else if (named(info, "exit")) {
		ev.event = SG_EVENT_EXIT;
		ev.value = (int)(info->args[0] & 0xff);
	} else if (named(info, "exit_group")) {
		ev.event = SG_EVENT_EXIT_GROUP;
		ev.value = (int)(info->args[0] & 0xff);
	} else {
		return;
	}
	call_event(t, &ev);
}

/* On exit, in the parent: a new thread or process. */
static void exit_event(struct sg_thread *t, const struct sg_syscall_info *info)
{
	struct sg_event_info ev = { .event = SG_EVENT_FORK, .id = info->result };
	uint64_t flags = 0;

	if (info->result <= 0)
		return;
	if (named(info, "clone"))
		flags = info->args[0];
	else if (named(info, "clone3")) {
		/* struct clone_args starts with the flags */
		if (sg_mem_read(t->proc, info->args[0], &flags, sizeof(flags)) != SG_OK)
			return;
	} else if (!named(info, "fork") && !named(info, "vfork")) {
		return;
	}
	if (flags & CLONE_THREAD)
		ev.event = SG_EVENT_CLONE;
	call_event(t, &ev);
}

enum sg_hook_action embed_syscall_hooks(struct sg_process *p, unsigned when,
					struct sg_syscall_info *info)
{
	struct sg_embed *em = p->embed;
	enum sg_hook_action act = SG_HOOK_CONTINUE;
	sg_syscall_hook all = when == SG_HOOK_ON_ENTRY ? em->entry_fn : em->exit_fn;
	void *all_user = when == SG_HOOK_ON_ENTRY ? em->entry_user : em->exit_user;

	/* on entry the first SKIP or KILL ends the round, on exit KILL */
	for (struct sg_nr_hook *h = em->nr_hooks; h && !round_over(when, act); h = h->next)
		if (nr_hook_wants(h, when, info))
			act = h->fn(p, info, h->user);
	if (!round_over(when, act) && all)
		act = all(p, info, all_user);
	return act;
}

void embed_event_hook(struct sg_process *p, const struct sg_event_info *ev)
{
	struct sg_embed *em = p->embed;

	if (em->event_fn)
		em->event_fn(p, ev, em->event_user);
}

enum sg_hook_action embed_signal_hook(struct sg_process *p, int tid, int signo)
{
	struct sg_embed *em = p->embed;

	return em->signal_fn ? em->signal_fn(p, tid, signo, em->signal_user)
			     : SG_HOOK_CONTINUE;
}

void embed_code_hook(struct sg_process *p, int kind, uint64_t pc, unsigned id)
{
	struct sg_embed *em = p->embed;

	if (kind == CHAN_CODE_BLOCK && em->block_fn)
		em->block_fn(p, pc, em->block_user);
	else if (kind == CHAN_CODE_INSN && em->insn_fn)
		em->insn_fn(p, pc, em->insn_user);
	else if (kind == CHAN_CODE_RANGE)
		for (const struct sg_range_hook *h = em->range_hooks; h; h = h->next)
			if (h->id == id && pc >= h->begin && pc < h->end)
				h->fn(p, pc, h->user);
}

static bool on_syscall_enter(struct sg_thread *t, struct sg_syscall_call *call)
{
	struct sg_embed *em = t->proc->embed;
	struct sg_thread *outer = hook_thread;
	struct sg_syscall_info info;
	enum sg_hook_action act;

	call->result = -ENOSYS;
	fill_info(&info, t, call);
	hook_thread = t;
	act = embed_syscall_hooks(t->proc, SG_HOOK_ON_ENTRY, &info);
	if (!ends_round(act) && em->event_fn)
		entry_event(t, &info);
	hook_thread = outer;
	memcpy(call->args, info.args, sizeof(call->args));
	call_skipped = ends_round(act);
	if (act == SG_HOOK_KILL) {
		kill_guest(t);
		return true; /* the call is not made */
	}
	if (act != SG_HOOK_SKIP)
		return false;
	call->result = info.result;
	return true;
}

static void on_syscall_exit(struct sg_thread *t, struct sg_syscall_call *call)
{
	struct sg_embed *em = t->proc->embed;
	struct sg_thread *outer = hook_thread;
	struct sg_syscall_info info;
	enum sg_hook_action act = SG_HOOK_CONTINUE;

	fill_info(&info, t, call);
	hook_thread = t;
	act = embed_syscall_hooks(t->proc, SG_HOOK_ON_EXIT, &info);
	if (act != SG_HOOK_KILL && em->event_fn && !call_skipped)
		exit_event(t, &info);
	call_skipped = false;
	hook_thread = outer;
	call->result = info.result;
	if (act == SG_HOOK_KILL)
		kill_guest(t);
}

static bool on_signal(struct sg_thread *t, const siginfo_t *si)
{
	struct sg_embed *em = t->proc->embed;
	struct sg_thread *outer = hook_thread;
	enum sg_hook_action act;

	hook_thread = t;
	act = em->signal_fn(t->proc, t->tid, si->si_signo, em->signal_user);
	hook_thread = outer;
	return act == SG_HOOK_SKIP;
}

/* The syscall layer calls in only when some hook wants the call's side. */
static void update_syscall_dispatch(struct sg_embed *em)
{
	unsigned when = 0;

	for (const struct sg_nr_hook *h = em->nr_hooks; h; h = h->next)
		when |= h->when;
	if (em->event_fn)
		when |= SG_HOOK_ON_ENTRY | SG_HOOK_ON_EXIT;
	em->syscall_enter = em->entry_fn || (when & SG_HOOK_ON_ENTRY) ? on_syscall_enter : NULL;
	em->syscall_exit = em->exit_fn || (when & SG_HOOK_ON_EXIT) ? on_syscall_exit : NULL;
}

void embed_clear_hooks(struct sg_process *p)
{
	struct sg_embed *em = p->embed;

	if (!em)
		return;
	while (em->nr_hooks) {
		struct sg_nr_hook *h = em->nr_hooks;

		em->nr_hooks = h->next;
		/* a thread still at h (this one, whose hook set the new
		 * hooks, or another) walks on through retired hooks that
		 * match no call any more */
		__atomic_store_n(&h->when, 0u, __ATOMIC_RELAXED);
		h->next = em->retired_nr_hooks;
		em->retired_nr_hooks = h;
	}
	while (em->range_hooks) {
		struct sg_range_hook *h = em->range_hooks;

		em->range_hooks = h->next;
		__atomic_store_n(&h->end, 0ull, __ATOMIC_RELAXED); /* an empty range */
		h->next = em->retired_range_hooks;
		em->retired_range_hooks = h;
	}
	em->entry_fn = em->exit_fn = NULL;
	em->insn_fn = em->block_fn = NULL;
	em->signal_fn = NULL;
	em->signal = NULL;
	em->event_fn = NULL;
	update_syscall_dispatch(em);
}

size_t embed_hooks_describe(const struct sg_process *p, struct chan_hooks *out)
{
	const struct sg_embed *em = p->embed;

	memset(out, 0, sizeof(*out));
	if (!em)
		return sizeof(*out);
	out->flags = (em->entry_fn ? CHAN_HOOK_ENTRY_ALL : 0) |
		     (em->exit_fn ? CHAN_HOOK_EXIT_ALL : 0) |
		     (em->event_fn ? CHAN_HOOK_EVENT : 0) |
		     (em->signal_fn ? CHAN_HOOK_SIGNAL : 0) |
		     (em->insn_fn ? CHAN_HOOK_INSN : 0) | (em->block_fn ? CHAN_HOOK_BLOCK : 0);
	for (const struct sg_nr_hook *h = em->nr_hooks; h; h = h->next)
		for (unsigned w = 0; w < SG_HOOK_NR_MAX / 64; w++) {
			if (h->when & SG_HOOK_ON_ENTRY)
				out->entry[h->abi - 1][w] |= h->nrs[w];
			if (h->when & SG_HOOK_ON_EXIT)
				out->exit[h->abi - 1][w] |= h->nrs[w];
		}
	for (const struct sg_range_hook *h = em->range_hooks;
	     h && out->nranges < CHAN_MAX_RANGES; h = h->next)
		out->ranges[out->nranges++] =
			(struct chan_range){ .id = h->id, .begin = h->begin, .end = h->end };
	return sizeof(*out) + out->nranges * sizeof(out->ranges[0]);
}

/* The hooks' set changed: a guest in a process of its own stops for the
 * new one. */
static enum sg_err hooks_changed(sg_process *p)
{
	if (p->client)
		client_hooks_changed(p);
	return SG_OK;
}

bool embed_hooked(const struct sg_process *p)
{
	const struct sg_embed *em = p->embed;

	return em && (em->syscall_enter || em->syscall_exit || em->signal || em->entry_fn ||
		      em->exit_fn || em->insn_fn || em->block_fn || em->signal_fn ||
		      em->event_fn || em->nr_hooks || em->range_hooks || em->debugger ||
		      em->stepping || em->until_on || em->budget_on);
}

void embed_destroy(struct sg_process *p)
{
	struct sg_embed *em = p->embed;

	if (!em)
		return;
	embed_clear_hooks(p);
	em->nr_hooks = em->retired_nr_hooks;
	em->range_hooks = em->retired_range_hooks;
	while (em->nr_hooks) {
		struct sg_nr_hook *h = em->nr_hooks;

		em->nr_hooks = h->next;
		free(h);
	}
	while (em->range_hooks) {
		struct sg_range_hook *h = em->range_hooks;

		em->range_hooks = h->next;
		free(h);
	}
	free(em);
	p->embed = NULL;
}

/* --- registering ----------------------------------------------------------- */

SG_API enum sg_err sg_hook_syscall_entry(sg_process *p, sg_syscall_hook fn, void *user)
{
	struct sg_embed *em = p ? embed_of(p) : NULL;

	if (!p)
		return SG_ERR_INVAL;
	if (!em)
		return SG_ERR_NOMEM;
	em->entry_fn = fn;
	em->entry_user = user;
	update_syscall_dispatch(em);
	return hooks_changed(p);
}

SG_API enum sg_err sg_hook_syscall_exit(sg_process *p, sg_syscall_hook fn, void *user)
{
	struct sg_embed *em = p ? embed_of(p) : NULL;

	if (!p)
		return SG_ERR_INVAL;
	if (!em)
		return SG_ERR_NOMEM;
	em->exit_fn = fn;
	em->exit_user = user;
	update_syscall_dispatch(em);
	return hooks_changed(p);
}

SG_API enum sg_err sg_hook_insn(sg_process *p, sg_code_hook fn, void *user)
{
	struct sg_embed *em = p ? embed_of(p) : NULL;

	if (!p)
		return SG_ERR_INVAL;
	if (!em)
		return SG_ERR_NOMEM;
	em->insn_fn = fn;
	em->insn_user = user;
	return hooks_changed(p);
}

SG_API enum sg_err sg_hook_block(sg_process *p, sg_code_hook fn, void *user)
{
	struct sg_embed *em = p ? embed_of(p) : NULL;

	if (!p)
		return SG_ERR_INVAL;
	if (!em)
		return SG_ERR_NOMEM;
	em->block_fn = fn;
	em->block_user = user;
	return hooks_changed(p);
}

SG_API enum sg_err sg_hook_signal(sg_process *p, sg_signal_hook fn, void *user)
{
	struct sg_embed *em = p ? embed_of(p) : NULL;

	if (!p)
		return SG_ERR_INVAL;
	if (!em)
		return SG_ERR_NOMEM;
	em->signal_fn = fn;
	em->signal_user = user;
	em->signal = fn ? on_signal : NULL;
	return hooks_changed(p);
}

SG_API enum sg_err sg_hook_event(sg_process *p, sg_event_hook fn, void *user)
{
	struct sg_embed *em = p ? embed_of(p) : NULL;

	if (!p)
		return SG_ERR_INVAL;
	if (!em)
		return SG_ERR_NOMEM;
	em->event_fn = fn;
	em->event_user = user;
	update_syscall_dispatch(em);
	return hooks_changed(p);
}

SG_API enum sg_err sg_hook_syscall_nrs(sg_process *p, enum sg_abi abi,
				       const unsigned *nrs, size_t count,
				       unsigned when, sg_syscall_hook fn,
				       void *user, unsigned *id)
{
	struct sg_embed *em = p ? embed_of(p) : NULL;
	struct sg_nr_hook *h, **tail;

	if (!p || !fn || (!nrs && count) ||
	    (abi != SG_ABI_I386 && abi != SG_ABI_X32 && abi != SG_ABI_X64) ||
	    !when || (when & ~(unsigned)(SG_HOOK_ON_ENTRY | SG_HOOK_ON_EXIT)))
		return SG_ERR_INVAL;
	if (!em)
		return SG_ERR_NOMEM;
	for (size_t i = 0; i < count; i++)
		if (nrs[i] >= SG_HOOK_NR_MAX)
			return SG_ERR_INVAL;
	h = calloc(1, sizeof(*h));
	if (!h)
		return SG_ERR_NOMEM;
	h->id = ++em->last_hook_id;
	h->abi = abi;
	h->when = when;
	h->fn = fn;
	h->user = user;
	for (size_t i = 0; i < count; i++)
		h->nrs[nrs[i] / 64] |= 1ull << (nrs[i] % 64);
	for (tail = &em->nr_hooks; *tail; tail = &(*tail)->next)
		;
	*tail = h;
	update_syscall_dispatch(em);
	if (id)
		*id = h->id;
	return hooks_changed(p);
}

SG_API enum sg_err sg_hook_code_range(sg_process *p, uint64_t begin, uint64_t end,
				      sg_code_hook fn, void *user, unsigned *id)
{
	struct sg_embed *em = p ? embed_of(p) : NULL;
	struct sg_range_hook *h, **tail;

	if (!p || !fn || begin >= end)
		return SG_ERR_INVAL;
	if (!em)
		return SG_ERR_NOMEM;
	h = calloc(1, sizeof(*h));
	if (!h)
		return SG_ERR_NOMEM;
	h->id = ++em->last_hook_id;
	h->begin = begin;
	h->end = end;
	h->fn = fn;
	h->user = user;
	for (tail = &em->range_hooks; *tail; tail = &(*tail)->next)
		;
	*tail = h;
	if (id)
		*id = h->id;
	return hooks_changed(p);
}

SG_API enum sg_err sg_hook_remove(sg_process *p, unsigned id)
{
	struct sg_embed *em = p ? p->embed : NULL;

	if (!em)
		return SG_ERR_INVAL;
	for (struct sg_range_hook **l = &em->range_hooks; *l; l = &(*l)->next) {
		struct sg_range_hook *h = *l;

		if (h->id == id) {
			*l = h->next;
			free(h);
			return hooks_changed(p);
		}
	}
	for (struct sg_nr_hook **l = &em->nr_hooks; *l; l = &(*l)->next) {
		struct sg_nr_hook *h = *l;

		if (h->id == id) {
			*l = h->next;
			free(h);
			update_syscall_dispatch(em);
			return hooks_changed(p);
		}
	}
	return SG_ERR_INVAL;
}

/* --- the slow loop ----------------------------------------------------------- */

/* Basic blocks for the block hook: an instruction starts one when it is
 * the first, a branch target, or follows a control transfer. Lengths and
 * flows come from the CPU's own decoder (cpu_decode_one), cached per
 * address (direct-mapped). */
#define BLOCK_CACHE 1024
static __thread struct {
	uint64_t pc[BLOCK_CACHE];
	uint8_t len[BLOCK_CACHE];
	bool ends[BLOCK_CACHE];
	enum cpu_mode mode[BLOCK_CACHE];
	uint64_t next;      /* where the current block continues; 0: none */
} blk;

static bool decode_for_block(struct sg_thread *t, uint64_t pc, unsigned *len,
			     bool *ends)
{
	unsigned slot = (unsigned)(pc ^ (pc >> 10)) % BLOCK_CACHE;
	enum cpu_mode mode = t->cpu.mode;
	uint8_t bytes[15];
	size_t n = sizeof(bytes);
	enum cpu_insn_flow flow;

	if (blk.pc[slot] == pc && blk.len[slot] && blk.mode[slot] == mode) {
		*len = blk.len[slot];
		*ends = blk.ends[slot];
		return true;
	}
	while (n && copy_from_guest(t->proc->mm, bytes, pc, n) != 0)
		n--;
	if (!n || !cpu_decode_one(mode, bytes, n, len, &flow))
		return false;
	*ends = flow != CPU_INSN_FALLS_THROUGH;
	blk.pc[slot] = pc;
	blk.len[slot] = (uint8_t)*len;
	blk.ends[slot] = *ends;
	blk.mode[slot] = mode;
	return true;
}

static void call_code_hooks(struct sg_thread *t, struct sg_embed *em, uint64_t pc)
{
	struct sg_thread *outer = hook_thread;

	hook_thread = t;
	if (em->block_fn) {
		unsigned len = 0;
		bool ends = true;
		bool starts = pc != blk.next;

		if (!decode_for_block(t, pc, &len, &ends))
			len = 0;
		blk.next = ends || !len ? 0 : pc + len;
		if (starts)
			em->block_fn(t->proc, pc, em->block_user);
	}
	if (em->insn_fn)
		em->insn_fn(t->proc, pc, em->insn_user);
	for (const struct sg_range_hook *h = em->range_hooks; h; h = h->next)
		if (pc >= h->begin && pc < h->end)
			h->fn(t->proc, pc, h->user);
	hook_thread = outer;
}

static bool wants_steps(const struct sg_process *p)
{
	const struct sg_embed *em = p->embed;

	return trace_wants_insns(p->trace) ||
	       (em && (em->insn_fn || em->block_fn || em->range_hooks || em->stepping ||
		       em->stop_requested || em->debug_steps ||
		       em->until_on || em->budget_on));
}

enum cpu_stop_reason embed_cpu_run(struct sg_thread *t)
{
	struct sg_process *p = t->proc;
	struct sg_embed *em = p->embed;
	struct cpu *c = &t->cpu;

	if (!wants_steps(p))
		return cpu_run(c);
	for (;;) {
		uint64_t before[16], before_flags, pc;
		enum cpu_stop_reason r;

		if (em && em->stop_requested && t == p->main_thread) {
			em->stop_requested = 0;
			em->stopped = true;
			return CPU_STOP_REQUEST;
		}
		if (c->stop_requested)
			return cpu_run(c); /* answers the request at once */
		pc = c->mode == CPU_MODE_32 ? (uint32_t)c->rip : c->rip;
		if (em && em->debugger && em->debug_steps &&
		    em->debugger->before_insn(t, pc))
			return CPU_STOP_REQUEST; /* the debugger stops it here */
		if (em && em->until_on && em->until_armed && pc == em->until &&
		    t == p->main_thread) {
			em->stopped = true;
			em->why = SG_ERR_REACHED;
			return CPU_STOP_REQUEST;
		}
		if (em && (em->insn_fn || em->block_fn || em->range_hooks))
			call_code_hooks(t, em, pc);
		memcpy(before, c->r, sizeof(before));
		before_flags = cpu_get_rflags(c);
		r = cpu_step(c);
		if (r != CPU_STOP_FAULT && trace_wants_insns(p->trace))
			trace_insn(p->trace, c, pc, before, before_flags,
				   cpu_get_rflags(c));
		if (em && em->debugger && em->debug_steps &&
		    em->debugger->after_insn(t, pc))
			return r == CPU_STOP_NONE ? CPU_STOP_REQUEST : r;
		if (em && (em->until_on || em->budget_on) && t == p->main_thread) {
			em->until_armed = true;
			/* a faulting instruction did not run: not counted */
			if (em->budget_on && r != CPU_STOP_FAULT &&
			    ++em->executed >= em->budget) {
				em->stopped = true;
				em->why = SG_ERR_BUDGET;
				return r == CPU_STOP_NONE ? CPU_STOP_REQUEST : r;
			}
		}
		if (em && em->stepping && t == p->main_thread) {
			em->stepping = false;
			em->stopped = true;
			return r == CPU_STOP_NONE ? CPU_STOP_REQUEST : r;
		}
		if (r != CPU_STOP_NONE)
			return r;
		if (!wants_steps(p))
			return cpu_run(c); /* --trace-count reached: full speed */
	}
}

/* --- control ----------------------------------------------------------------- */

SG_API void sg_stop(sg_process *p)
{
	if (p && p->client) {
		client_stop(p);
		return;
	}
	if (!p || !p->embed || !p->main_thread)
		return;
	p->embed->stop_requested = 1;
	cpu_request_stop(&p->main_thread->cpu);
}

SG_API enum sg_err sg_step(sg_process *p, struct sg_exit *status)
{
	struct sg_embed *em;
	enum sg_err err;

	if (!p || !p->loaded)
		return SG_ERR_STATE;
	if (p->client)
		return client_run(p, CHAN_STEP, 0, 0, status);
	if (p->exited) {
		if (status)
			*status = p->exit;
		return SG_ERR_STATE;
	}
	em = embed_of(p);
	if (!em)
		return SG_ERR_NOMEM;
	em->stepping = true;
	err = sg_run(p, status);
	em->stepping = false;
	if (err == SG_ERR_STOPPED)
		err = SG_OK;
	return err;
}

SG_API enum sg_err sg_run_until(sg_process *p, uint64_t until, uint64_t budget,
				struct sg_exit *status)
{
	struct sg_embed *em;
	enum sg_err err;
	uint64_t rip;

	if (!p || !p->loaded)
		return SG_ERR_STATE;
	if (p->client)
		return client_run(p, CHAN_RUN_UNTIL, until, budget, status);
	em = embed_of(p);
	if (!em)
		return SG_ERR_NOMEM;
	rip = p->main_thread->cpu.rip;
	if (p->main_thread->cpu.mode == CPU_MODE_32)
		rip = (uint32_t)rip;
	em->until = until;
	em->until_on = until != 0;
	em->until_armed = rip != until; /* started there: run it first */
	em->budget = budget;
	em->budget_on = budget != 0;
	em->executed = 0;
	em->why = SG_ERR_STOPPED;
	err = sg_run(p, status);
	if (err == SG_ERR_STOPPED)
		err = em->why;
	em->until_on = em->budget_on = false;
	return err;
}

/* --- registers and memory ---------------------------------------------------- */

SG_API size_t sg_reg_size(enum sg_reg reg)
{
	if ((unsigned)reg >= SG_REG__COUNT)
		return 0;
	if (reg >= SG_REG_YMM0)
		return 32;
	if (reg >= SG_REG_XMM0)
		return 16;
	if (reg >= SG_REG_ST0)
		return 10;
	return 8;
}

/* reg of t into out (sg_reg_size(reg) bytes), or false: no such register
 * for this guest (XMM8..15, YMM8..15 of an i386 one). */
static bool reg_get(const struct sg_thread *t, enum sg_reg reg, uint8_t *out)
{
	const struct cpu *c = &t->cpu;
	uint64_t v;

	if (reg >= SG_REG_YMM0) {
		unsigned n = reg - SG_REG_YMM0;

		if (n >= 8 && t->proc->abi == SG_ABI_I386)
			return false;
		memcpy(out, &c->xmm[n], 16);
		memcpy(out + 16, &c->ymm_hi[n], 16);
		return true;
	}
	if (reg >= SG_REG_XMM0) {
		if (reg >= SG_REG_XMM8 && t->proc->abi == SG_ABI_I386)
			return false;
		memcpy(out, &c->xmm[reg - SG_REG_XMM0], 16);
		return true;
	}
	if (reg >= SG_REG_ST0) {
		/* ST(i) is physical register TOP+i */
		memcpy(out, &c->x87.st[(c->x87.top + (reg - SG_REG_ST0)) & 7], 10);
		return true;
	}
	if (reg <= SG_REG_R15)
		v = c->r[reg];
	else if (reg == SG_REG_RIP)
		v = c->rip;
	else if (reg == SG_REG_RFLAGS)
		v = cpu_get_rflags(c);
	else if (reg == SG_REG_FS_BASE)
		v = c->base[SEG_FS];
	else if (reg == SG_REG_GS_BASE)
		v = c->base[SEG_GS];
	else if (reg <= SG_REG_GS) {
		static const enum cpu_seg seg[] = {
			[SG_REG_ES - SG_REG_ES] = SEG_ES, [SG_REG_CS - SG_REG_ES] = SEG_CS,
			[SG_REG_SS - SG_REG_ES] = SEG_SS, [SG_REG_DS - SG_REG_ES] = SEG_DS,
			[SG_REG_FS - SG_REG_ES] = SEG_FS, [SG_REG_GS - SG_REG_ES] = SEG_GS,
		};
		v = c->sel[seg[reg - SG_REG_ES]];
	} else if (reg == SG_REG_MXCSR)
		v = c->mxcsr;
	else if (reg == SG_REG_FCW)
		v = c->x87.fcw;
	else if (reg == SG_REG_FSW)
		v = (c->x87.fsw & ~0x3800u) | (uint64_t)(c->x87.top & 7) << 11;
	else
		v = c->x87.ftw_tags;
	if (c->mode == CPU_MODE_32)
		v = (uint32_t)v;
	memcpy(out, &v, 8);
	return true;
}

static bool reg_set(struct sg_thread *t, enum sg_reg reg, const uint8_t *in)
{
	struct cpu *c = &t->cpu;
	uint64_t v;

	if (reg >= SG_REG_YMM0) {
		unsigned n = reg - SG_REG_YMM0;

		if (n >= 8 && t->proc->abi == SG_ABI_I386)
			return false;
		memcpy(&c->xmm[n], in, 16);
		memcpy(&c->ymm_hi[n], in + 16, 16);
		return true;
	}
	if (reg >= SG_REG_XMM0) {
		if (reg >= SG_REG_XMM8 && t->proc->abi == SG_ABI_I386)
			return false;
		memcpy(&c->xmm[reg - SG_REG_XMM0], in, 16);
		return true;
	}
	if (reg >= SG_REG_ST0) {
		memcpy(&c->x87.st[(c->x87.top + (reg - SG_REG_ST0)) & 7], in, 10);
		return true;
	}
	if (reg >= SG_REG_ES && reg <= SG_REG_GS)
		return false; /* selectors: read only (sysgate.h) */
	memcpy(&v, in, 8);
	if (c->mode == CPU_MODE_32)
		v = (uint32_t)v;
	if (reg <= SG_REG_R15)
		c->r[reg] = v;
	else if (reg == SG_REG_RIP)
		c->rip = v;
	else if (reg == SG_REG_RFLAGS)
		cpu_set_rflags(c, v);
	else if (reg == SG_REG_FS_BASE)
		c->base[SEG_FS] = v;
	else if (reg == SG_REG_GS_BASE)
		c->base[SEG_GS] = v;
	else if (reg == SG_REG_MXCSR)
		c->mxcsr = (uint32_t)v & 0xffff; /* the bits MXCSR has */
	else if (reg == SG_REG_FCW)
		c->x87.fcw = (uint16_t)v;
	else if (reg == SG_REG_FSW) {
		c->x87.fsw = (uint16_t)(v & ~0x3800u);
		c->x87.top = (v >> 11) & 7;
	} else
		c->x87.ftw_tags = (uint16_t)v;
	return true;
}

SG_API enum sg_err sg_reg_read_bytes(sg_process *p, enum sg_reg reg, void *buf,
				     size_t size)
{
	struct sg_thread *t;
	uint8_t tmp[32];

	if (!p || !buf || !size || size != sg_reg_size(reg))
		return SG_ERR_INVAL;
	if (p->client)
		return client_reg_read(p, reg, buf, size);
	t = thread_for(p);
	if (!t)
		return SG_ERR_STATE;
	if (!reg_get(t, reg, tmp))
		return SG_ERR_INVAL;
	memcpy(buf, tmp, size);
	return SG_OK;
}

SG_API enum sg_err sg_reg_write_bytes(sg_process *p, enum sg_reg reg,
				      const void *buf, size_t size)
{
	struct sg_thread *t;
	uint8_t tmp[32] = { 0 };

	if (!p || !buf || !size || size != sg_reg_size(reg))
		return SG_ERR_INVAL;
	if (p->client)
		return client_reg_write(p, reg, buf, size);
	t = thread_for(p);
	if (!t)
		return SG_ERR_STATE;
	memcpy(tmp, buf, size);
	return reg_set(t, reg, tmp) ? SG_OK : SG_ERR_INVAL;
}

SG_API enum sg_err sg_reg_read(sg_process *p, enum sg_reg reg, uint64_t *value)
{
	if (!value || sg_reg_size(reg) != 8)
		return SG_ERR_INVAL;
	return sg_reg_read_bytes(p, reg, value, 8);
}

SG_API enum sg_err sg_reg_write(sg_process *p, enum sg_reg reg, uint64_t value)
{
	if (sg_reg_size(reg) != 8)
		return SG_ERR_INVAL;
	return sg_reg_write_bytes(p, reg, &value, 8);
}

SG_API enum sg_err sg_mem_read(sg_process *p, uint64_t addr, void *buf, size_t n)
{
	if (!p || (!buf && n))
		return SG_ERR_INVAL;
	if (p->client)
		return client_mem_read(p, addr, buf, n);
	if (!p->mm)
		return SG_ERR_STATE;
	return copy_from_guest(p->mm, buf, addr, n) == 0 ? SG_OK : SG_ERR_FAULT;
}

SG_API enum sg_err sg_mem_write(sg_process *p, uint64_t addr, const void *buf,
				size_t n)
{
	if (!p || (!buf && n))
		return SG_ERR_INVAL;
	if (p->client)
		return client_mem_write(p, addr, buf, n);
	if (!p->mm)
		return SG_ERR_STATE;
	if (copy_to_guest(p->mm, addr, buf, n) != 0) {
		/* read-only (code) pages: written through, as ptrace's
		 * POKETEXT does, then given their protection back */
		uint64_t lo = addr & ~(uint64_t)4095;
		uint64_t hi = (addr + n + 4095) & ~(uint64_t)4095;
		int prot = PROT_READ;

		if (!mm_access_ok(p->mm, addr, n, PROT_READ))
			return SG_ERR_FAULT;
		if (mm_access_ok(p->mm, addr, n, PROT_EXEC))
			prot |= PROT_EXEC;
		if (mprotect(g2h(lo), hi - lo, prot | PROT_WRITE) != 0)
			return SG_ERR_FAULT;
		memcpy(g2h(addr), buf, n);
		mprotect(g2h(lo), hi - lo, prot);
	}
	cpu_invalidate_code(addr, n); /* it may be code already decoded */
	return SG_OK;
}

SG_API enum sg_err sg_mem_read_string(sg_process *p, uint64_t addr, char *buf,
				      size_t size)
{
	long n;

	if (!p || !buf || !size)
		return SG_ERR_INVAL;
	if (p->client)
		return client_mem_string(p, addr, buf, size);
	if (!p->mm)
		return SG_ERR_STATE;
	n = strncpy_from_guest(p->mm, buf, addr, size);
	if (n == -ENAMETOOLONG)
		return SG_ERR_INVAL;
	return n < 0 ? SG_ERR_FAULT : SG_OK;
}

/* --- the address space --------------------------------------------------- */

/* One line of the guest's maps ("start-end perms offset dev inode  name")
 * into r; false if it is not one. */
static bool parse_maps_line(const char *line, const char *end, struct sg_region *r)
{
	char *q;
	const char *name;
	size_t n;

	r->start = strtoull(line, &q, 16);
	if (*q != '-')
		return false;
	r->end = strtoull(q + 1, &q, 16);
	if (*q != ' ' || end - q < 5)
		return false;
	r->prot = (q[1] == 'r' ? PROT_READ : 0) | (q[2] == 'w' ? PROT_WRITE : 0) |
		  (q[3] == 'x' ? PROT_EXEC : 0);
	r->shared = q[4] == 's';
	name = q + 5;
	for (int field = 0; field < 3 && name < end; field++) { /* offset dev inode */
		while (name < end && *name == ' ')
			name++;
		while (name < end && *name != ' ')
			name++;
	}
	while (name < end && *name == ' ')
		name++;
	n = (size_t)(end - name);
	if (n >= sizeof(r->name))
		n = sizeof(r->name) - 1;
	memcpy(r->name, name, n);
	r->name[n] = 0;
	return true;
}

SG_API enum sg_err sg_mem_regions(sg_process *p, struct sg_region *out,
				  size_t max, size_t *count)
{
	enum sg_err err = SG_ERR_NOMEM;
	char *text = NULL;
	size_t found = 0;
	off_t size;
	int fd;

	if (!p || !count || (!out && max))
		return SG_ERR_INVAL;
	if (p->client)
		return client_mem_regions(p, out, max, count);
	if (!p->mm)
		return SG_ERR_STATE;
	/* the maps text is the one account of the VMAs mm gives out */
	fd = memfd_create("sysgate-regions", MFD_CLOEXEC);
	if (fd < 0)
		return SG_ERR_NOMEM;
	if (mm_write_maps(p->mm, fd) != 0)
		goto out;
	size = lseek(fd, 0, SEEK_END);
	text = size >= 0 ? malloc((size_t)size + 1) : NULL;
	if (!text)
		goto out;
	if (pread(fd, text, (size_t)size, 0) != size) {
		err = SG_ERR_IO;
		goto out;
	}
	text[size] = 0;
	for (char *line = text; *line;) {
		char *nl = strchr(line, '\n');
		char *end = nl ? nl : line + strlen(line);
		struct sg_region r;

		if (parse_maps_line(line, end, &r)) {
			if (found < max)
				out[found] = r;
			found++;
		}
		line = nl ? nl + 1 : end;
	}
	*count = found;
	err = SG_OK;
out:
	free(text);
	close(fd);
	return err;
}

static enum sg_err err_of_mm(long r)
{
	switch (r) {
	case -EEXIST: return SG_ERR_EXIST;
	case -ENOMEM: case -EPERM: return SG_ERR_NOMEM;
	case -EACCES: return SG_ERR_ACCES;
	default: return SG_ERR_INVAL;
	}
}

static bool mem_args_ok(const sg_process *p, uint64_t addr, uint64_t size, int prot)
{
	return p && size && !(addr & (MM_PAGE_SIZE - 1)) &&
	       size <= UINT64_MAX - MM_PAGE_SIZE &&
	       !(prot & ~(PROT_READ | PROT_WRITE | PROT_EXEC));
}

SG_API enum sg_err sg_mem_map(sg_process *p, uint64_t *addr, uint64_t size, int prot)
{
	int flags = MAP_PRIVATE | MAP_ANONYMOUS;
	long r;

	if (!addr || !mem_args_ok(p, *addr, size, prot))
		return SG_ERR_INVAL;
	if (p->client)
		return client_mem_map(p, addr, size, prot);
	if (!p->mm)
		return SG_ERR_STATE;
	if (*addr)
		flags |= MAP_FIXED_NOREPLACE;
	size = MM_PAGE_ALIGN_UP(size);
	r = mm_mmap(p->mm, *addr, size, prot, flags, -1, 0);
	if (r < 0 && r > -4096)
		return err_of_mm(r);
	if (*addr && (uint64_t)r != *addr) {
		/* an old kernel's hint, not a fixed place: not what was asked */
		mm_munmap(p->mm, (uint64_t)r, size);
		return SG_ERR_EXIST;
	}
	*addr = (uint64_t)r;
	return SG_OK;
}

SG_API enum sg_err sg_mem_unmap(sg_process *p, uint64_t addr, uint64_t size)
{
	long r;

	if (!mem_args_ok(p, addr, size, 0))
		return SG_ERR_INVAL;
	if (p->client)
		return client_mem_unmap(p, addr, size);
	if (!p->mm)
		return SG_ERR_STATE;
	r = mm_munmap(p->mm, addr, MM_PAGE_ALIGN_UP(size));
	if (r < 0)
		return err_of_mm(r);
	return SG_OK; /* decoded code there goes: mm tells the CPU */
}

SG_API enum sg_err sg_mem_protect(sg_process *p, uint64_t addr, uint64_t size,
				  int prot)
{
	long r;

	if (!mem_args_ok(p, addr, size, prot))
		return SG_ERR_INVAL;
	if (p->client)
		return client_mem_protect(p, addr, size, prot);
	if (!p->mm)
		return SG_ERR_STATE;
	r = mm_mprotect(p->mm, addr, MM_PAGE_ALIGN_UP(size), prot);
	if (r < 0)
		return err_of_mm(r);
	return SG_OK;
}
