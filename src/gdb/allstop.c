/* The run-loop side of the stub: the hooks core calls on guest threads
 * (struct sg_debugger). All-stop: when one thread stops (breakpoint,
 * step, watchpoint, signal) the stub's thread asks every other to stop at
 * its next instruction boundary; a thread inside a system call counts as
 * stopped and parks on its way back. Breakpoints are INT3s (server.c
 * writes them): their trap comes here as a fault. Watchpoints and steps
 * are checked in core's slow loop, which runs only while there are some:
 * without them the interpreter runs at full speed. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gdb/stub.h"
#include "hostfd/hostfd.h"
#include "mm/mm.h"

static struct gdb_stub *stub_of(const struct sg_process *p)
{
	return p->embed->debug_state;
}

static void wake_server(struct gdb_stub *s)
{
	uint64_t one = 1;

	if (write(s->wake, &one, sizeof(one)) < 0) {
		/* the counter is already non-zero: the server wakes anyway */
	}
}

/* A stop that is still true after another thread's was reported: a
 * signal not yet delivered, a watched value changed. A breakpoint not
 * run is hit again if it is still there; a step is gdb's to redo. */
static bool stays_pending(int kind)
{
	return kind == GDB_STOP_SIGNAL || kind == GDB_STOP_WATCH ||
	       kind == GDB_STOP_RWATCH || kind == GDB_STOP_AWATCH ||
	       kind == GDB_STOP_FORK || kind == GDB_STOP_VFORK || kind == GDB_STOP_VFORKDONE ||
	       kind == GDB_STOP_CREATE;
}

void gdb_park(struct gdb_stub *s, struct sg_thread *t, const struct gdb_event *ev)
{
	pthread_mutex_lock(&s->lock);
	while (!s->detached) {
		unsigned long gen = s->resume_gen;
		bool mine = false;
		/* a create stop waits out a resume with a step in it: gdb 13
		 * takes another thread's event during its step-over for the
		 * step's end and fails an assertion (infrun.c
		 * finish_step_over); natively the new thread is held and its
		 * creation reported with the creator's stop. The thread
		 * parks silently until the next resume. */
		bool defer = ev && ev->kind == GDB_STOP_CREATE && s->steps_requested;

		if (ev && !s->have_event && !defer) {
			s->have_event = true;
			s->event = *ev;
			s->event.tid = t->tid;
			mine = true;
		}
		/* only a stop of its own stops the process: a thread
		 * without one parks because the process is stopping or
		 * because gdb's resume left it held (vCont, a step-over:
		 * it came back from a system call meanwhile), which is no
		 * stop for gdb */
		if (mine || (ev && !defer && !s->stopping)) {
			s->stopping = 1;
			wake_server(s);
		}
		t->debug.parked = 1;
		pthread_cond_broadcast(&s->cond);
		/* a thread's exit_group (or a fatal signal) ends every thread,
		 * parked or not: its kick does not reach a condition wait,
		 * hence the timeout */
		while ((s->resume_gen == gen || t->debug.hold) && !s->detached &&
		       !t->proc->exiting) {
			struct timespec until;

			clock_gettime(CLOCK_REALTIME, &until);
			until.tv_nsec += 20 * 1000 * 1000;
			if (until.tv_nsec >= 1000000000) {
				until.tv_sec++;
				until.tv_nsec -= 1000000000;
			}
			pthread_cond_timedwait(&s->cond, &s->lock, &until);
		}
		t->debug.parked = 0;
		if (t->proc->exiting)
			break;
		if (!ev || mine || !stays_pending(ev->kind))
			break;
		/* another thread's stop went out first: report this one now */
	}
	pthread_mutex_unlock(&s->lock);
}

struct sg_thread *gdb_thread(struct gdb_stub *s, int tid)
{
	struct sg_thread *t;

	for (t = s->p->threads; t; t = t->next)
		if (tid <= 0 || t->tid == tid)
			return t;
	return NULL;
}

void gdb_resume_all(struct gdb_stub *s)
{
	bool steps = s->nwp; /* breakpoints are INT3s: no slow loop for them */

	for (struct sg_thread *t = s->p->threads; t; t = t->next)
		steps |= t->debug.step;
	pthread_mutex_lock(&s->lock);
	s->p->embed->debug_steps = steps;
	s->steps_requested = false;
	for (struct sg_thread *t = s->p->threads; t; t = t->next)
		s->steps_requested |= t->debug.step;
	s->have_event = false;
	s->stopping = 0;
	s->resume_gen++;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
}

/* gdb resumed t with a signal it had not stopped for (`signal SIG`):
 * queued as one sent to the thread, delivered at its next instruction
 * boundary without another report. */
static void inject_signal(struct sg_thread *t, int sig)
{
	siginfo_t si;

	if (sig < 1 || sig > SG_NSIG)
		return;
	memset(&si, 0, sizeof(si));
	si.si_signo = sig;
	si.si_code = SI_TKILL;
	si.si_pid = getpid();
	si.si_uid = getuid();
	t->sig.info[sig - 1] = si;
	t->debug.injected_sig = sig;
	__atomic_or_fetch(&t->sig.pending, 1ull << (sig - 1), __ATOMIC_RELEASE);
	cpu_request_stop(&t->cpu);
}

/* With thread create events, a thread that has just created another
 * (its clone call ended the turn) goes on only once the new one has
 * reached its create stop: gdb hears of threads in the order they were
 * created, as natively (the kernel reports a clone to ptrace in the
 * creator), and numbers them in that order. A stop of the process is
 * not held up: t parks then. */
static void await_new_threads(struct gdb_stub *s, struct sg_thread *t)
{
	struct sg_process *p = t->proc;

	for (;;) {
		bool pending = false;

		pthread_mutex_lock(&p->lock);
		for (struct sg_thread *o = p->threads; o && !pending; o = o->next)
			pending = o != p->main_thread && !o->gone &&
				  !__atomic_load_n(&o->debug.announced, __ATOMIC_ACQUIRE);
		pthread_mutex_unlock(&p->lock);
		if (!pending || s->stopping || s->detached || p->exiting)
			return;
		nanosleep(&(struct timespec){ 0, 100 * 1000 }, NULL);
	}
}

/* --- the hooks --------------------------------------------------------- */

static void on_checkpoint(struct sg_thread *t)
{
	struct gdb_stub *s = stub_of(t->proc);

	if (s->detached)
		return;
	if (!__atomic_load_n(&t->debug.announced, __ATOMIC_ACQUIRE)) {
		/* QThreadEvents: a new thread stops before its first
		 * instruction with "create" (gdb: "[New Thread ...]"); it
		 * counts as announced once that stop was taken (its creator
		 * waits for that, await_new_threads) */
		if (s->thread_events && t != t->proc->main_thread)
			t->debug.stop_kind = GDB_STOP_CREATE;
		else
			__atomic_store_n(&t->debug.announced, true, __ATOMIC_RELEASE);
	} else if (s->thread_events && !t->debug.step) {
		await_new_threads(s, t);
	}
	if (t->debug.stop_kind != GDB_STOP_NONE) {
		struct gdb_event ev = { .kind = t->debug.stop_kind, .addr = t->debug.stop_addr,
					.signo = SIGTRAP };

		t->debug.stop_kind = GDB_STOP_NONE;
		gdb_park(s, t, &ev);
		if (ev.kind == GDB_STOP_CREATE)
			__atomic_store_n(&t->debug.announced, true, __ATOMIC_RELEASE);
	} else if (s->stopping || t->debug.hold) {
		gdb_park(s, t, NULL);
	} else {
		return;
	}
	if (t->debug.resume_sig) {
		inject_signal(t, t->debug.resume_sig);
		t->debug.resume_sig = 0;
	}
}

static bool on_before_insn(struct sg_thread *t, uint64_t pc)
{
	struct gdb_stub *s = stub_of(t->proc);

	if (s->detached)
		return false;
	if (s->stopping)
		return true; /* another thread stopped: park at the checkpoint */
	if (s->naccess)
		t->debug.access_kind = gdb_access_hit(s, t, pc, &t->debug.access_addr);
	return false;
}

/* Write watchpoints compare the watched bytes after each instruction
 * (gdb reports a write watchpoint only when the value changed anyway);
 * the bytes are read with the guest's own access check. */
static bool watch_changed(struct gdb_stub *s, struct sg_thread *t)
{
	for (unsigned i = 0; i < s->nwp; i++) {
		struct gdb_watch *w = &s->wps[i];
		uint8_t now[8];

		if (w->kind != GDB_STOP_WATCH)
			continue; /* read and access ones: gdb_access_hit */
		if (copy_from_guest(t->proc->mm, now, w->addr, w->len) != 0)
			continue;
		if (!memcmp(now, w->old, w->len))
			continue;
		memcpy(w->old, now, w->len);
		t->debug.stop_kind = w->kind;
		t->debug.stop_addr = w->addr;
		return true;
	}
	return false;
}

static bool on_after_insn(struct sg_thread *t, uint64_t pc)
{
	struct gdb_stub *s = stub_of(t->proc);

	if (s->detached)
		return false;
	if (t->debug.step) {
		t->debug.step = false;
		t->debug.stop_kind = GDB_STOP_STEP;
	}
	if (s->nwp)
		watch_changed(s, t);
	if (t->debug.access_kind != GDB_STOP_NONE) {
		/* reported after the instruction, as the hardware's data
		 * breakpoints (a write of a new value: a write watch first) */
		if (t->debug.stop_kind != GDB_STOP_WATCH) {
			t->debug.stop_kind = t->debug.access_kind;
			t->debug.stop_addr = t->debug.access_addr;
		}
		t->debug.access_kind = GDB_STOP_NONE;
	}
	return t->debug.stop_kind != GDB_STOP_NONE;
}

/* An INT3 of gdb's at addr: a Z0 breakpoint the stub wrote, or one gdb
 * wrote itself with M/X. */
static bool gdb_int3_at(const struct gdb_stub *s, uint64_t addr)
{
	for (unsigned i = 0; i < s->nbp; i++)
		if (s->bps[i].addr == addr)
			return true;
	for (unsigned i = 0; i < s->nint3; i++)
		if (s->int3s[i] == addr)
			return true;
	return false;
}

static bool on_signal(struct sg_thread *t, const siginfo_t *si, bool fault)
{
	struct gdb_stub *s = stub_of(t->proc);
	int signo = si->si_signo;
	struct gdb_event ev = { .kind = GDB_STOP_SIGNAL, .signo = signo, .si = *si };
	int sig;

	if (s->detached)
		return true;
	if (fault && signo == SIGTRAP) {
		uint64_t at = t->cpu.rip - 1;

		if (t->cpu.mode == CPU_MODE_32)
			at = (uint32_t)at;
		if (gdb_int3_at(s, at)) {
			/* a breakpoint instruction of gdb's: rip back on it,
			 * as gdbserver does, and no signal for the guest */
			t->cpu.rip = at;
			ev.kind = GDB_STOP_BREAK;
			gdb_park(s, t, &ev);
			if (t->debug.resume_sig) /* `signal SIG` at it */
				inject_signal(t, t->debug.resume_sig);
			t->debug.resume_sig = 0;
			return false;
		}
	}
	if (!fault && signo <= 64 && (s->pass_signals >> (signo - 1) & 1))
		return true;
	if (!fault && signo == t->debug.injected_sig) {
		t->debug.injected_sig = 0; /* gdb's own `signal SIG` */
		return true;
	}
	gdb_park(s, t, &ev);
	sig = t->debug.resume_sig;
	t->debug.resume_sig = 0;
	if (sig && sig != signo) {
		/* `signal OTHER` at a signal stop: that one instead */
		inject_signal(t, sig);
		return false;
	}
	return sig != 0;
}

static void on_thread_exit(struct sg_thread *t, bool last)
{
	struct sg_process *p = t->proc;
	struct gdb_stub *s = stub_of(p);
	char reply[32];
	int n;

	/* another thread's end is not reported, even with QThreadEvents:
	 * the stub is all-stop, and gdb (13) takes a "w" stop reply only in
	 * non-stop mode ("Invalid remote reply" otherwise); the thread is
	 * gone from the next thread list */
	if (s->detached || !last || s->exit_sent)
		return;
	s->exit_sent = true;
	n = snprintf(reply, sizeof(reply), "%c%02x", p->exit.signaled ? 'X' : 'W',
		     p->exit.signaled ? gdb_signal_of(p->exit.signal) : p->exit.code & 0xff);
	if (s->multiprocess)
		snprintf(reply + n, sizeof(reply) - n, ";process:%x", (unsigned)getpid());
	gdb_send_str(s, reply);
}

static void on_forked(struct sg_process *p)
{
	struct gdb_stub *s = stub_of(p);

	/* the child is detached (gdb's default follow-fork-mode parent,
	 * detach-on-fork on): it runs free, the connection stays the
	 * parent's */
	p->embed->debugger = NULL;
	p->embed->debug_steps = 0;
	for (struct sg_thread *t = p->threads; t; t = t->next)
		memset(&t->debug, 0, sizeof(t->debug));
	/* its copy of the parent's memory has the breakpoints' INT3s */
	gdb_breakpoints_restore(s);
	hostfd_close(s->fd);
	hostfd_close(s->wake);
	/* the parent's stub thread does not exist here: nothing to join,
	 * and sg_destroy finds no debugger */
}

/* The parent's fork stop, with fork events (gdb's detach-on-fork:
 * "[Detaching after fork from child process N]"). The child has let go of
 * gdb already (on_forked) and runs free: gdb's z0 and D for it are
 * answered without touching it (server.c). A vfork is reported once the
 * parent's wait for the child is over (sysgate's vfork child has memory
 * of its own), followed at once by its vforkdone. */
static void on_fork_parent(struct sg_thread *t, long child, bool vfork)
{
	struct gdb_stub *s = stub_of(t->proc);
	struct gdb_event ev = { .kind = vfork ? GDB_STOP_VFORK : GDB_STOP_FORK,
				.signo = SIGTRAP, .addr = (uint64_t)child };

	if (s->detached || !(vfork ? s->vfork_events : s->fork_events))
		return;
	gdb_park(s, t, &ev);
	if (vfork && !s->detached) {
		ev.kind = GDB_STOP_VFORKDONE;
		gdb_park(s, t, &ev);
	}
	if (t->debug.resume_sig)
		inject_signal(t, t->debug.resume_sig);
	t->debug.resume_sig = 0;
}

static int on_exec_option(struct sg_process *p, char *buf, size_t size)
{
	struct gdb_stub *s = stub_of(p);

	if (s->detached || !s->exec_events)
		return -1;
	snprintf(buf, size, "--gdb-fd=%d%s%s%s%s%s", s->fd, s->no_ack ? ",noack" : "",
		 s->multiprocess ? ",multiprocess" : "", s->fork_events ? ",fork" : "",
		 s->vfork_events ? ",vfork" : "", s->thread_events ? ",threadevents" : "");
	return s->fd;
}

const struct sg_debugger gdb_debugger = {
	.exec_option = on_exec_option,
	.destroy = gdb_stub_destroy,
	.checkpoint = on_checkpoint,
	.before_insn = on_before_insn,
	.after_insn = on_after_insn,
	.signal = on_signal,
	.thread_exit = on_thread_exit,
	.forked = on_forked,
	.fork_parent = on_fork_parent,
};
