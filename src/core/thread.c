/* Guest threads: one host thread each (DESIGN.md, Processes), with its own
 * struct cpu and decoded-code cache. This file runs a thread's loop, starts
 * clone's children, ends threads (clear_child_tid + futex wake) and stops
 * them all at exit_group or a fatal signal. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/embed.h"
#include "core/exec_image.h"
#include "core/fault.h"
#include "core/outproc.h"
#include "core/thread.h"
#include "cpu/syscall_regs.h"
#include "mm/mm.h"
#include "signal/signal.h"
#include "syscall/syscall.h"
#include "trace/trace.h"

#define HOST_STACK_SIZE (1u << 20)

void trace_task_of(struct trace_task *task, const struct sg_thread *t)
{
	const struct sg_process *p = t->proc;

	task->mm = p->mm;
	task->abi = p->abi;
	task->sp = cpu_stack_pointer(&t->cpu);
	task->exit_ends_thread = t != p->main_thread &&
				 __atomic_load_n(&p->nthreads, __ATOMIC_RELAXED) > 1;
}

/* One call with the hooks around it, in the kernel's order: the embedding
 * API's entry hook (which may change the arguments or answer), the trace's
 * entry, the handler, the exit hook (which may change the result), the
 * trace's line. */
static void run_syscall(struct sg_thread *t, struct sg_syscall_call *call)
{
	struct trace *tr = t->proc->trace;
	struct sg_embed *em = t->proc->embed;
	struct trace_task task;
	bool answered = false;

	/* a native strace never sees a vDSO time call: only --trace=entry */
	if (call->vdso_fn && !(t->proc->opts.trace & SG_TRACE_ENTRY))
		tr = NULL;
	if (em && em->syscall_enter && em->syscall_enter(t, call))
		answered = true; /* call->result is the hook's answer */
	if (tr) {
		trace_task_of(&task, t);
		trace_syscall_enter(tr, &task, call);
	}
	if (!answered)
		syscall_handle(t, call);
	if (em && em->syscall_exit)
		em->syscall_exit(t, call);
	if (tr) {
		trace_task_of(&task, t); /* the handler moves rip, signals */
		trace_syscall_exit(tr, &task, call);
	}
}

/* One call from the guest. A result that is a restart code (the handler's
 * answer to a signal, table.h) is left for the signal's delivery, which
 * decides from it alone (signal/deliver.c): here only where the call would
 * be entered again is noted, as the kernel's pt_regs keep orig_ax and ip. */
static void do_syscall(struct sg_thread *t)
{
	struct cpu *c = &t->cpu;
	uint64_t orig_ax = cpu_syscall_orig_ax(c);
	struct cpu_syscall_restart rp = cpu_syscall_restart_point(c);
	struct systab_slot slot;
	long res;

	t->sig.sigreturned = false;
	slot = syscall_entry(t, run_syscall);
	if (t->exec_fresh)
		exec_image_fresh_cpu(t); /* an execve in place: the new image */
	if (t->sig.sigreturned || t->gone)
		return;
	res = cpu_syscall_get_return_value(c);
	if (!sg_restart_code(res))
		return;
	t->sig.restart_code = (int)-res;
	/* ERESTART_RESTARTBLOCK goes on through the ABI's restart_syscall */
	t->sig.restart_nr =
		res == -SG_ERESTART_RESTARTBLOCK ? systab_restart_nr(slot.table) : orig_ax;
	cpu_syscall_restart_returned(c, &rp);
	t->sig.restart_at = rp;
}

/* Every thread of p but self stops at its next instruction boundary, and
 * one in a blocking host call is interrupted (SIG_KICK). */
static void kick_threads(struct sg_process *p, struct sg_thread *self)
{
	pid_t pid = getpid();

	p->exiting = 1;
	pthread_mutex_lock(&p->lock);
	for (struct sg_thread *o = p->threads; o; o = o->next) {
		if (o == self)
			continue;
		cpu_request_stop(&o->cpu);
		if (o->tid > 0)
			syscall(SYS_tgkill, pid, o->tid, SIG_KICK);
	}
	pthread_mutex_unlock(&p->lock);
}

void process_exit(struct sg_thread *t, const struct sg_exit *status)
{
	struct sg_process *p = t->proc;

	pthread_mutex_lock(&p->lock);
	if (!p->exited) {
		p->exited = true;
		p->exit = *status;
	}
	pthread_mutex_unlock(&p->lock);
	kick_threads(p, t);
}

/* The guest dies of a fault nobody handles. */
static void die_of_fault(struct sg_thread *t, const struct cpu_fault *f)
{
	int signo = fault_signal(f);

	if (sig_deliver_fault(&t->task, f, signo))
		return;
	fault_report(f, signo);
	process_exit(t, &(const struct sg_exit){ .signaled = 1, .signal = signo });
}

void thread_loop(struct sg_thread *t)
{
	struct sg_process *p = t->proc;
	struct cpu *c = &t->cpu;

	sig_attach(&t->task);
	while (!p->exiting && !t->gone) {
		const struct sg_debugger *dbg = embed_debugger(p);

		if (dbg)
			dbg->checkpoint(t);
		switch (embed_cpu_run(t)) {
		case CPU_STOP_SYSCALL:
			/* a debugger stopping the process does not wait for a
			 * call that blocks: the thread parks on its way back */
			t->debug.in_syscall = true;
			do_syscall(t);
			t->debug.in_syscall = false;
			break;
		case CPU_STOP_FAULT:
			die_of_fault(t, &c->fault);
			break;
		case CPU_STOP_HALT: {
			/* HLT is privileged: ring 3 gets #GP */
			struct cpu_fault f = { .vector = VEC_GP, .insn_addr = c->rip };

			die_of_fault(t, &f);
			break;
		}
		case CPU_STOP_REQUEST:
		case CPU_STOP_NONE:
			break;
		}
		/* an instruction boundary: a signal from now on keeps the
		 * next host call from starting (sig_host_call); one before
		 * is in pending */
		__atomic_store_n(&t->sig.arrived, 0, __ATOMIC_SEQ_CST);
		if (!p->exiting && !t->gone &&
		    (t->sig.pending || t->sig.has_saved_mask || t->sig.restart_code))
			sig_deliver(&t->task);
		if (t == p->main_thread && embed_stopped(p))
			return; /* sg_stop/sg_step: back to sg_run's caller */
	}
}

/* The end of a guest thread: CLONE_CHILD_CLEARTID (0 and a futex wake),
 * off the list; the last one out decides the process status. */
void thread_finish(struct sg_thread *t)
{
	struct sg_process *p = t->proc;
	bool clone_child = t != p->main_thread;

	if (clone_child) {
		/* a fork now waits for this thread to be on p->dead */
		pthread_mutex_lock(&p->lock);
		p->finishing++;
		pthread_mutex_unlock(&p->lock);
	}
	if (t->clear_child_tid && !p->exiting) {
		uint32_t zero = 0;

		if (copy_to_guest(p->mm, t->clear_child_tid, &zero, sizeof(zero)) == 0)
			syscall(SYS_futex, (uintptr_t)t->clear_child_tid, FUTEX_WAKE, 1,
				NULL, NULL, 0);
	}
	sig_attach(NULL);
	pthread_mutex_lock(&p->lock);
	for (struct sg_thread **l = &p->threads; *l; l = &(*l)->next) {
		if (*l == t) {
			*l = t->next;
			break;
		}
	}
	p->nthreads--;
	if (clone_child) {
		/* freed by the next clone or fork, or sg_destroy: this thread
		 * touches it no more once the lock is released, and the
		 * process may end (LeakSanitizer looking) at any moment after */
		t->next = p->dead;
		p->dead = t;
		p->finishing--;
	}
	if (p->nthreads == 0 && !p->exited) {
		/* the last thread left by exit: the leader's code is the status */
		p->exited = true;
		p->exit.signaled = 0;
		p->exit.code = p->main_thread ? p->main_thread->exit_code & 0xff
					      : t->exit_code & 0xff;
	}
	if (embed_debugger(p))
		embed_debugger(p)->thread_exit(t, p->nthreads == 0);
	pthread_cond_broadcast(&p->threads_done);
	pthread_mutex_unlock(&p->lock);
}

static void exit_as_guest(struct sg_process *p) __attribute__((noreturn));

static void *thread_main(void *arg)
{
	struct sg_thread *t = arg;
	struct sg_process *p = t->proc;

	t->tid = (int)syscall(SYS_gettid);
	if (t->child_tid) {
		uint32_t tid = (uint32_t)t->tid;

		copy_to_guest(p->mm, t->child_tid, &tid, sizeof(tid));
	}
	if (t->parent_tid) {
		uint32_t tid = (uint32_t)t->tid;

		copy_to_guest(p->mm, t->parent_tid, &tid, sizeof(tid));
	}
	{
		int *report = t->spawn_tid;

		t->spawn_tid = NULL;
		__atomic_store_n(report, t->tid, __ATOMIC_RELEASE);
		/* the parent may already be gone from that frame: a wake of
		 * a stale address is harmless */
		syscall(SYS_futex, report, FUTEX_WAKE, 1, NULL, NULL, 0);
	}
	thread_loop(t);
	/* Decided before thread_finish: once this thread is off the list,
	 * sg_run may return and its caller free p at any moment. */
	bool leads_alone = p->no_runner && p->main_thread == t;

	cpu_release(&t->cpu);
	thread_finish(t); /* t and p are not ours any more */
	if (leads_alone)
		exit_as_guest(p);
	return NULL;
}

/* Joined, not detached: a host thread still ending (its exit drains
 * ASan's allocator cache under a lock) while another forks would leave
 * that lock held in the child for ever. */
void thread_free_dead(struct sg_process *p)
{
	struct sg_thread *d = p->dead;

	p->dead = NULL;
	while (d) {
		struct sg_thread *next = d->next;

		pthread_join(d->host, NULL);
		cpu_release(&d->cpu);
		free(d);
		d = next;
	}
}

static long spawn_thread(struct sg_task *parent, const struct sg_task *state)
{
	struct sg_process *p = thread_of_task(parent)->proc;
	struct sg_thread *child = calloc(1, sizeof(*child));
	pthread_attr_t attr;
	int rc, tid = 0;

	if (!child)
		return -ENOMEM;
	child->task = *state;
	child->group = &p->group;
	child->cpu.owner = child;
	child->proc = p;

	pthread_mutex_lock(&p->lock);
	thread_free_dead(p);
	child->next = p->threads;
	p->threads = child;
	p->nthreads++;
	pthread_mutex_unlock(&p->lock);

	child->spawn_tid = &tid;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, HOST_STACK_SIZE);
	/* under the lock: child->host is set before the child can be on
	 * p->dead, where it is joined */
	pthread_mutex_lock(&p->lock);
	rc = pthread_create(&child->host, &attr, thread_main, child);
	if (rc) {
		for (struct sg_thread **l = &p->threads; *l; l = &(*l)->next) {
			if (*l == child) {
				*l = child->next;
				break;
			}
		}
		p->nthreads--;
	}
	pthread_mutex_unlock(&p->lock);
	pthread_attr_destroy(&attr);
	if (rc) {
		free(child);
		return -rc;
	}
	sig_host_thread_created(&p->group);
	while (!__atomic_load_n(&tid, __ATOMIC_ACQUIRE))
		syscall(SYS_futex, &tid, FUTEX_WAIT, 0, NULL, NULL, 0);
	return tid;
}

/* No host thread of an ended guest thread may be on its way out while we
 * fork: its exit drains ASan's allocator cache under a lock, which the
 * child would inherit held. Natively the guest's pthread_join has
 * returned by now, so wait for those threads to be gone. */
static void before_fork(struct sg_task *k)
{
	struct sg_process *p = thread_of_task(k)->proc;

	guestside_before_fork(p); /* the new process's channel to the embedder */
	pthread_mutex_lock(&p->lock);
	while (p->finishing)
		pthread_cond_wait(&p->threads_done, &p->lock);
	thread_free_dead(p);
	pthread_mutex_unlock(&p->lock);
}

/* After fork, in the child: the other threads do not exist here. */
static void forked(struct sg_task *k)
{
	struct sg_thread *t = thread_of_task(k);
	struct sg_process *p = t->proc;

	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->threads_done, NULL);
	/* the parent's ended threads: no host thread to join here */
	p->finishing = 0;
	while (p->dead) {
		struct sg_thread *d = p->dead;

		p->dead = d->next;
		cpu_release(&d->cpu);
		free(d);
	}
	p->threads = t;
	t->next = NULL;
	p->nthreads = 1;
	cpu_stats_reset(); /* the child's own counts, as its own rusage */
	guestside_forked(p);
	if (embed_debugger(p))
		embed_debugger(p)->forked(p); /* the child runs free */
	t->tid = (int)syscall(SYS_gettid);
	if (p->main_thread != t) {
		/* sg_run's host thread is not in this process: this thread
		 * leads, and ends the host process itself (thread_main) */
		p->main_thread = t;
		p->no_runner = true;
	}
}

/* The guest process ended in a fork child without an sg_run to return
 * to: end the host process as the CLI would, with the guest's status. */
static void exit_as_guest(struct sg_process *p)
{
	thread_wait_all(p);
	if (p->opts.stats)
		process_print_run_stats(p, "exit");
	if (p->exit.signaled) {
		sigset_t set;

		signal(p->exit.signal, SIG_DFL);
		sigemptyset(&set);
		sigaddset(&set, p->exit.signal);
		pthread_sigmask(SIG_UNBLOCK, &set, NULL);
		raise(p->exit.signal);
	}
	_exit(p->exit.code);
}

static int debugger_exec_option(struct sg_task *k, char *buf, size_t size)
{
	struct sg_process *p = thread_of_task(k)->proc;
	const struct sg_debugger *dbg = embed_debugger(p);

	return dbg ? dbg->exec_option(p, buf, size) : -1;
}

static int embedder_exec_option(struct sg_task *k, char *buf, size_t size)
{
	return guestside_exec_option(thread_of_task(k)->proc, buf, size);
}

static bool debugger_signal(struct sg_task *k, const siginfo_t *si, bool fault)
{
	struct sg_thread *t = thread_of_task(k);
	const struct sg_debugger *dbg = embed_debugger(t->proc);

	return !dbg || dbg->signal(t, si, fault);
}

static void debugger_fork_parent(struct sg_task *k, long child, bool vfork)
{
	struct sg_thread *t = thread_of_task(k);
	const struct sg_debugger *dbg = embed_debugger(t->proc);

	if (dbg && dbg->fork_parent)
		dbg->fork_parent(t, child, vfork);
}

static bool embed_signal(struct sg_task *k, const siginfo_t *si)
{
	struct sg_thread *t = thread_of_task(k);
	const struct sg_embed *em = t->proc->embed;

	return em && em->signal && em->signal(t, si);
}

static void after_fork(struct sg_task *k, long pid)
{
	guestside_after_fork(thread_of_task(k)->proc, pid);
}

static void exit_group(struct sg_task *k, const struct sg_exit *status)
{
	process_exit(thread_of_task(k), status);
}

static bool robust_list_of(struct sg_task *k, int tid, uint64_t *head)
{
	struct sg_process *p = thread_of_task(k)->proc;
	bool found = false;

	pthread_mutex_lock(&p->lock);
	for (struct sg_thread *o = p->threads; o && !found; o = o->next)
		if (o->tid == tid) {
			found = true;
			*head = o->robust_list;
		}
	pthread_mutex_unlock(&p->lock);
	return found;
}

void thread_hooks_init(struct sg_process *p)
{
	exec_image_hooks_init(p);
	p->hooks.after_fork = after_fork;
	p->hooks.embedder_exec_option = embedder_exec_option;
	p->hooks.spawn_thread = spawn_thread;
	p->hooks.forked = forked;
	p->hooks.before_fork = before_fork;
	p->hooks.debugger_exec_option = debugger_exec_option;
	p->hooks.debugger_signal = debugger_signal;
	p->hooks.debugger_fork_parent = debugger_fork_parent;
	p->hooks.embed_signal = embed_signal;
	p->hooks.exit_group = exit_group;
	p->hooks.robust_list_of = robust_list_of;
}

void process_print_run_stats(struct sg_process *p, const char *event)
{
	struct cpu_stats st;

	cpu_stats_get(&st);
	trace_print_run_stats(p->trace, event, &st);
}

void thread_wait_all(struct sg_process *p)
{
	pthread_mutex_lock(&p->lock);
	while (p->nthreads > 0) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 20 * 1000 * 1000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&p->threads_done, &p->lock, &ts);
		if (p->exiting && p->nthreads > 0) {
			/* a thread may have entered a blocking call after
			 * the first kick: kick again */
			pthread_mutex_unlock(&p->lock);
			kick_threads(p, NULL);
			pthread_mutex_lock(&p->lock);
		}
	}
	pthread_mutex_unlock(&p->lock);
}
