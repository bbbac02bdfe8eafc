/* ptrace between guests (docs/syscalls.md, "ptrace between guests").
 *
 * A guest's PTRACE_TRACEME is the host's: its parent, a sysgate process
 * too (every child of a sysgate process runs sysgate), becomes its host
 * tracer, and the host kernel does the stopping and the reporting — the
 * parent's wait sees the child's signal-delivery stops, its exec's
 * SIGTRAP, its exit. The guest tracer's requests all go through this
 * file, and only those that start, stop, end or describe a stop are
 * passed on (CONT, SYSCALL, DETACH, KILL, SETOPTIONS of a harmless set,
 * GETEVENTMSG, GETSIGINFO). Whatever reads or writes registers or memory
 * is refused with the kernel's answer to a request it does not know
 * (EIO): on the host they would be sysgate's registers and memory, not
 * the guest's. PTRACE_ATTACH and PTRACE_SEIZE stay refused (EPERM).
 *
 * PTRACE_SYSCALL: the host's syscall stops are sysgate's own calls, not
 * the guest's. A traced guest thread brackets every guest call with two
 * host calls no kernel has (SG_PTRACE_MARK_ENTER/EXIT: -ENOSYS at once);
 * the tracer's wait reports the entry stop of the first and the exit
 * stop of the second as the guest call's entry and exit stops, and
 * resumes every other syscall stop itself, unseen (ptrace_hidden_stop). */
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>

#include "signal/signal.h"
#include "syscall/handler.h"

/* The options a guest tracer may set: none of them makes the host stop
 * the tracee where the guest would not stop natively. TRACEFORK, CLONE
 * and VFORK would follow sysgate's own clones (host threads, its probes)
 * and report a guest vfork as a fork; SECCOMP stops have no guest
 * meaning: EINVAL, as for an option the kernel does not know. */
#define GUEST_OPTIONS (PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACEEXEC | \
		       PTRACE_O_TRACEEXIT | PTRACE_O_EXITKILL)
/* every option a kernel knows (PTRACE_O_MASK) */
#define KNOWN_OPTIONS 0x003000ffu

/* What the tracer keeps per tracee: the guest's options, for the status
 * a syscall stop reports (SIGTRAP, or SIGTRAP|0x80 with TRACESYSGOOD),
 * and whether a call's entry stop was reported and its exit stop not yet:
 * only then is there an exit stop to report. (A signal the call raises
 * itself, kill(getpid(), SIGSTOP), stops the host inside the guest call,
 * before its exit marker; natively the stop comes after the call's exit
 * work, so a tracer that switches to PTRACE_SYSCALL there sees no exit
 * stop of it.) A host process is one guest process, so this table is the
 * tracer's; a tracee not in it has no options and no call open. */
#define MAX_TRACEES 64
struct tracee {
	int pid;
	unsigned options;
	bool in_call;
};
static struct tracee tracees[MAX_TRACEES];
static pthread_mutex_t tracees_lock = PTHREAD_MUTEX_INITIALIZER;

/* pid's entry, under tracees_lock; with add, made if missing (in a free
 * slot or one whose process is gone). NULL: none (or the table is full). */
static struct tracee *tracee_of(int pid, bool add)
{
	struct tracee *free_slot = NULL;

	for (unsigned i = 0; i < MAX_TRACEES; i++) {
		if (tracees[i].pid == pid)
			return &tracees[i];
		if (add && !free_slot &&
		    (!tracees[i].pid || host_syscall2(SYS_kill, tracees[i].pid, 0) == -ESRCH))
			free_slot = &tracees[i];
	}
	if (free_slot) {
		free_slot->pid = pid;
		free_slot->options = 0;
		free_slot->in_call = false;
	}
	return free_slot;
}

static unsigned guest_options(int pid)
{
	struct tracee *e;
	unsigned o;

	pthread_mutex_lock(&tracees_lock);
	e = tracee_of(pid, false);
	o = e ? e->options : 0;
	pthread_mutex_unlock(&tracees_lock);
	return o;
}

static void set_guest_options(int pid, unsigned options)
{
	struct tracee *e;

	pthread_mutex_lock(&tracees_lock);
	e = tracee_of(pid, true);
	if (e)
		e->options = options;
	pthread_mutex_unlock(&tracees_lock);
}

/* A syscall stop of a guest call: entry, or exit (true: report it) */
static bool note_call_stop(int pid, bool entry)
{
	struct tracee *e;
	bool report = entry;

	pthread_mutex_lock(&tracees_lock);
	e = tracee_of(pid, entry);
	if (e) {
		report = entry || e->in_call;
		e->in_call = entry;
	}
	pthread_mutex_unlock(&tracees_lock);
	return report;
}

/* resumed without syscall stops: no exit stop comes for an open call */
static void close_call(int pid)
{
	struct tracee *e;

	pthread_mutex_lock(&tracees_lock);
	e = tracee_of(pid, false);
	if (e)
		e->in_call = false;
	pthread_mutex_unlock(&tracees_lock);
}

static long host_ptrace(long request, long pid, long addr, long data)
{
	return host_syscall4(SYS_ptrace, request, pid, addr, data);
}

bool ptrace_hidden_stop(long pid, int *status)
{
	struct __ptrace_syscall_info info;
	long nr;

	if (!WIFSTOPPED(*status))
		return false;
	if (WSTOPSIG(*status) == SIGSEGV || WSTOPSIG(*status) == SIGBUS) {
		/* the death of a fault the tracer stopped at already (sent by
		 * the tracee to itself; its thread, pid, may not lead it: no
		 * sender check. A guest's sigqueue with this value would only
		 * have the stop of a signal it sent itself skipped.) */
		siginfo_t si;

		if (host_ptrace(PTRACE_GETSIGINFO, pid, 0, (long)&si) == 0 &&
		    si.si_code == SI_QUEUE && si.si_value.sival_int == SIG_PTRACE_SEEN) {
			host_ptrace(PTRACE_CONT, pid, 0, WSTOPSIG(*status));
			return true;
		}
		return false;
	}
	if (WSTOPSIG(*status) != (SIGTRAP | 0x80))
		return false;
	memset(&info, 0, sizeof(info));
	if (host_ptrace(PTRACE_GET_SYSCALL_INFO, pid, sizeof(info), (long)&info) <= 0)
		return false;
	if (info.op == PTRACE_SYSCALL_INFO_ENTRY) {
		nr = (long)info.entry.nr;
		if (nr == SG_PTRACE_MARK_ENTER && note_call_stop((int)pid, true))
			goto report;
	} else if (info.op == PTRACE_SYSCALL_INFO_EXIT) {
		/* the exit stop has no number: orig_rax has it (the raw
		 * PEEKUSER writes the word through its data pointer) */
		if (host_ptrace(PTRACE_PEEKUSER, pid, offsetof(struct user_regs_struct, orig_rax),
				(long)&nr) == 0 &&
		    nr == SG_PTRACE_MARK_EXIT && note_call_stop((int)pid, false))
			goto report;
	}
	/* one of sysgate's own calls: on to the next syscall stop */
	host_ptrace(PTRACE_SYSCALL, pid, 0, 0);
	return true;
report:
	if (!(guest_options((int)pid) & PTRACE_O_TRACESYSGOOD))
		*status = (*status & ~0xff00) | (SIGTRAP << 8);
	return false;
}

/* A request the guest may not make: the kernel checks the tracee first
 * (not ours, or not stopped: ESRCH), then refuses what it does not know
 * with EIO. GETEVENTMSG makes the same check and reads nothing of it. */
static long refused(long pid)
{
	unsigned long msg;
	long r = host_ptrace(PTRACE_GETEVENTMSG, pid, 0, (long)&msg);

	return r < 0 ? r : -EIO;
}

static long do_ptrace(struct sg_thread *t, long request, long pid, uint64_t addr,
		      uint64_t data, bool compat)
{
	long r;

	switch (request) {
	case PTRACE_TRACEME:
		r = host_ptrace(PTRACE_TRACEME, 0, 0, 0);
		if (r == 0)
			sc_sigstate(t)->ptraced = true;
		return r;
	case PTRACE_ATTACH:
	case PTRACE_SEIZE:
		/* another process's host ptrace would reach its sysgate;
		 * a pid that does not exist is ESRCH as natively */
		r = host_syscall2(SYS_kill, pid, 0);
		return r == -ESRCH ? r : -EPERM;
	case PTRACE_CONT:
	case PTRACE_DETACH:
	case PTRACE_KILL:
		r = host_ptrace(request, pid, 0, (long)data);
		if (r == 0)
			close_call((int)pid);
		return r;
	case PTRACE_SYSCALL:
		/* the host reports syscall stops as SIGTRAP|0x80, which is how
		 * ptrace_hidden_stop tells them from a SIGTRAP */
		r = host_ptrace(PTRACE_SETOPTIONS, pid, 0,
				guest_options((int)pid) | PTRACE_O_TRACESYSGOOD);
		if (r < 0)
			return r;
		return host_ptrace(PTRACE_SYSCALL, pid, 0, (long)data);
	case PTRACE_SETOPTIONS: {
		unsigned o = (unsigned)data;

		if ((data >> 32) || (o & ~KNOWN_OPTIONS))
			return -EINVAL;
		r = refused(pid); /* the tracee's check first */
		if (r != -EIO)
			return r;
		if (o & ~GUEST_OPTIONS)
			return -EINVAL;
		r = host_ptrace(PTRACE_SETOPTIONS, pid, 0, o | PTRACE_O_TRACESYSGOOD);
		if (r == 0)
			set_guest_options((int)pid, o);
		return r;
	}
	case PTRACE_GETEVENTMSG: {
		unsigned long msg = 0;

		r = host_ptrace(PTRACE_GETEVENTMSG, pid, 0, (long)&msg);
		if (r < 0)
			return r;
		if (compat) {
			uint32_t m = (uint32_t)msg;

			return copy_to_guest(sc_mm(t), data, &m, sizeof(m)) ? -EFAULT : 0;
		}
		return copy_to_guest(sc_mm(t), data, &msg, sizeof(msg)) ? -EFAULT : 0;
	}
	case PTRACE_GETSIGINFO: {
		siginfo_t si;
		uint8_t out[128];

		r = host_ptrace(PTRACE_GETSIGINFO, pid, 0, (long)&si);
		if (r < 0)
			return r;
		siginfo_to_guest(&si, sc_i386() ? SG_ABI_I386 : compat ? SG_ABI_X32 : SG_ABI_X64,
				 out);
		return copy_to_guest(sc_mm(t), data, out, sizeof(out)) ? -EFAULT : 0;
	}
	default:
		(void)addr;
		return refused(pid);
	}
}

/* x86_64 */
SG_SYSCALL_DEFINE4(sys_ptrace, request, pid, addr, data)
{
	return do_ptrace(t, request, pid, addr, data, false);
}

/* i386 and x32: compat_long_t request and pid, compat_ulong_t addr, data */
SG_SYSCALL_DEFINE4(compat_sys_ptrace, request, pid, addr, data)
{
	return do_ptrace(t, request, pid, (uint32_t)addr, (uint32_t)data, true);
}
