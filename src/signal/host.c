/* Host side of guest signals: the queueing handler, host dispositions that
 * follow the guest's, and the host thread mask that mirrors the guest's. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include "signal/guest_task.h"

static __thread struct sg_task *tl_thread;

/* Traced at start by a guest tracer (an exec of a traced guest): the
 * first thread attached, the guest's, is the traced one. */
static bool traced_at_start;


/* Never blocked on the host: the CPU's fault signals and SIG_KICK. */
#define HOST_NEVER_BLOCK (SIGBIT(SIGSEGV) | SIGBIT(SIGBUS) | SIGBIT(SIG_KICK) | \
			  SIG_UNBLOCKABLE)

void sig_attach(struct sg_task *t)
{
	tl_thread = t;
	if (traced_at_start) {
		t->sig.ptraced = true;
		traced_at_start = false;
	}
}

/* sig_host_call: a host system call that a signal which arrived since the
 * thread's last instruction boundary keeps from starting. The handler
 * moves a thread caught between the check and the syscall instruction to
 * the "not started" answer; one that is in the call gets -EINTR from the
 * host kernel (no SA_RESTART) and is past the instruction. */
#define STR_(x) #x
#define STR(x) STR_(x)
extern const char sig_host_call_check[], sig_host_call_insn[], sig_host_call_abort[];
__asm__(".text\n"
	".globl sig_host_call\n"
	".hidden sig_host_call\n"
	".type sig_host_call, @function\n"
	"sig_host_call:\n" /* arrived, nr, a1..a4 in registers, a5 a6 on the stack */
	"\tmov %rdi, %r11\n"
	"\tmov %rsi, %rax\n"
	"\tmov %rdx, %rdi\n"
	"\tmov %rcx, %rsi\n"
	"\tmov %r8, %rdx\n"
	"\tmov %r9, %r10\n"
	"\tmov 8(%rsp), %r8\n"
	"\tmov 16(%rsp), %r9\n"
	"sig_host_call_check:\n"
	"\tcmpl $0, (%r11)\n"
	"\tjne sig_host_call_abort\n"
	"sig_host_call_insn:\n"
	"\tsyscall\n"
	"\tret\n"
	"sig_host_call_abort:\n"
	"\tmov $-" STR(SG_ERESTARTNOINTR) ", %rax\n"
	"\tret\n"
	".size sig_host_call, .-sig_host_call\n");

static void note_arrival(struct sg_task *t, ucontext_t *uc)
{
	greg_t *rip = &uc->uc_mcontext.gregs[REG_RIP];

	t->sig.arrived = 1;
	if ((uintptr_t)*rip >= (uintptr_t)sig_host_call_check &&
	    (uintptr_t)*rip <= (uintptr_t)sig_host_call_insn)
		*rip = (greg_t)(uintptr_t)sig_host_call_abort;
}

static void on_host_signal(int sig, siginfo_t *si, void *uctx)
{
	struct sg_task *t = tl_thread;
	ucontext_t *uc = uctx;

	if (!t || sig < 1 || sig > SG_NSIG)
		return;
	note_arrival(t, uc);
	if (t->group->exiting) {
		cpu_request_stop(&t->cpu);
		return;
	}
	if (!(t->sig.pending & SIGBIT(sig))) {
		t->sig.info[sig - 1] = *si;
		__atomic_or_fetch(&t->sig.pending, SIGBIT(sig), __ATOMIC_RELEASE);
	}
	/* Further instances wait in the host kernel until this one is
	 * delivered (real-time signals keep their queue there). */
	if (!(SIGBIT(sig) & HOST_NEVER_BLOCK))
		sigaddset(&uc->uc_sigmask, sig);
	cpu_request_stop(&t->cpu);
}

/* SIGSEGV/SIGBUS sent with kill/tgkill/sigqueue reach the CPU's fault
 * handler, which passes them here: queued as any other signal. */
static void on_sent_fault_signal(int sig, void *si, void *uctx)
{
	on_host_signal(sig, si, uctx);
}

/* A signal whose default action is to ignore it is still delivered to a
 * traced process (the kernel keeps it for the tracer: strace shows
 * "--- SIGCHLD ... ---"); with the trace on, such signals are queued
 * like handled ones, and the delivery shows them and ignores them. So
 * are the standard signals whose default kills (SIGTERM, abort's
 * SIGABRT): the delivery shows "--- SIGTERM {...} ---" and the guest dies
 * of it as it would ("+++ killed by SIGTERM +++"), where the host's
 * default would have ended sysgate before the trace saw anything. Stop
 * signals, SIGCONT and the real-time ones (glibc's own 32 and 33 among
 * them) keep the host's default. */
static bool trace_sees(const struct sg_task_group *g, int sig, uint64_t handler)
{
	if (!g->trace || handler != SG_SIG_DFL || sig >= 32)
		return false;
	return sig != SIGCONT && sig != SIGSTOP && sig != SIGTSTP && sig != SIGTTIN &&
	       sig != SIGTTOU && sig != SIGKILL;
}

/* The x86_64 kernel's struct sigaction, for rt_sigaction made directly:
 * glibc's sigaction refuses its own SIGCANCEL (32) and SIGSETXID (33),
 * which a guest's C library uses as its own (pthread_cancel, setuid in a
 * threaded process) and must get as any other signal. */
struct host_ksigaction {
	void *handler;
	unsigned long flags;
	void (*restorer)(void);
	uint64_t mask;
};

#define HOST_SA_RESTORER 0x04000000

/* The return from a host handler installed without glibc: rt_sigreturn,
 * as the kernel expects at the address SA_RESTORER names. */
void sg_host_sigreturn(void) __attribute__((visibility("hidden")));
__asm__(".text\n"
	".globl sg_host_sigreturn\n"
	".hidden sg_host_sigreturn\n"
	".type sg_host_sigreturn, @function\n"
	"sg_host_sigreturn:\n"
	"\tmov $15, %eax\n" /* __NR_rt_sigreturn */
	"\tsyscall\n"
	"\thlt\n"
	".size sg_host_sigreturn, .-sg_host_sigreturn\n");

static void set_host_action(const struct sg_task_group *g, int sig, uint64_t handler)
{
	struct host_ksigaction sa;

	memset(&sa, 0, sizeof(sa));
	if (sig == SIGSEGV || sig == SIGBUS || sig == SIGKILL || sig == SIGSTOP)
		return; /* faults come through the CPU; the others cannot */
	if (handler == SG_SIG_IGN && sig != SIG_KICK) {
		sa.handler = (void *)SIG_IGN;
	} else if (handler == SG_SIG_DFL && sig != SIG_KICK && !trace_sees(g, sig, handler)) {
		sa.handler = (void *)SIG_DFL;
	} else {
		/* no SA_RESTART: a blocking host call returns -EINTR and the
		 * run loop decides as the kernel would */
		sa.handler = (void *)on_host_signal;
		sa.flags = SA_SIGINFO | SA_ONSTACK | HOST_SA_RESTORER;
		sa.restorer = sg_host_sigreturn;
		sa.mask = ~0ull;
	}
	syscall(SYS_rt_sigaction, sig, &sa, NULL, sizeof(sa.mask));
}

/* A hex mask or a decimal number after key in /proc/self/status. */
static bool status_field(const char *buf, const char *key, int base, uint64_t *out)
{
	const char *line = strstr(buf, key);
	uint64_t v = 0;
	int digits = 0;

	if (!line)
		return false;
	line += strlen(key);
	while (*line == ' ' || *line == '\t')
		line++;
	for (;; line++, digits++) {
		unsigned d;

		if (*line >= '0' && *line <= '9')
			d = (unsigned)(*line - '0');
		else if (base == 16 && *line >= 'a' && *line <= 'f')
			d = (unsigned)(*line - 'a' + 10);
		else
			break;
		v = v * (unsigned)base + d;
	}
	if (!digits)
		return false;
	*out = v;
	return true;
}

/* Whether the host process pid runs the same binary as this one: a
 * tracer that is a sysgate is a guest tracer (ptrace.c); a host debugger
 * of sysgate itself (strace, gdb) is not. */
static bool runs_this_binary(uint64_t pid)
{
	char path[64];
	struct stat other, self;

	snprintf(path, sizeof(path), "/proc/%llu/exe", (unsigned long long)pid);
	return stat(path, &other) == 0 && stat("/proc/self/exe", &self) == 0 &&
	       other.st_dev == self.st_dev && other.st_ino == self.st_ino;
}

/* The host's ignored signals as a mask (SIGBIT) and the tracer, from the
 * SigIgn and TracerPid lines of /proc/self/status: one read instead of a
 * sigaction call per signal, at every start (every guest execve). false
 * if unreadable. */
static bool read_status(uint64_t *ignored, uint64_t *tracer)
{
	char buf[4096];
	size_t n = 0;
	int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	while (n < sizeof(buf) - 1) {
		ssize_t r = read(fd, buf + n, sizeof(buf) - 1 - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	buf[n] = '\0';
	if (!status_field(buf, "\nTracerPid:", 10, tracer))
		*tracer = 0;
	return status_field(buf, "\nSigIgn:", 16, ignored);
}

void sig_process_init(struct sg_task_group *g)
{
	uint64_t ignored, tracer = 0;

	if (read_status(&ignored, &tracer)) {
		for (int sig = 1; sig <= SG_NSIG; sig++)
			if (ignored & SIGBIT(sig))
				g->sigactions[sig - 1].handler = SG_SIG_IGN;
	} else {
		for (int sig = 1; sig <= SG_NSIG; sig++) {
			struct host_ksigaction cur;

			if (sig == SIGKILL || sig == SIGSTOP)
				continue;
			if (syscall(SYS_rt_sigaction, sig, NULL, &cur, 8) == 0 &&
			    cur.handler == (void *)SIG_IGN)
				g->sigactions[sig - 1].handler = SG_SIG_IGN;
		}
	}
	set_host_action(g, SIG_KICK, g->sigactions[SIG_KICK - 1].handler);
	for (int sig = 1; sig <= SG_NSIG; sig++)
		if (trace_sees(g, sig, g->sigactions[sig - 1].handler))
			set_host_action(g, sig, SG_SIG_DFL);
	cpu_set_user_signal_handler(on_sent_fault_signal);
	traced_at_start = tracer && runs_this_binary(tracer);
}

/* sig_ptrace_stop: the probe signal came back from the tracer */
static __thread volatile int tl_probe_back;

static void on_probe_signal(int sig, siginfo_t *si, void *uctx)
{
	(void)si;
	(void)uctx;
	tl_probe_back = sig;
}

bool sig_ptrace_stop(struct sg_task *t, const siginfo_t *si, bool fatal, bool seen)
{
	int sig = si->si_signo;
	uint64_t only = SIGBIT(sig), saved;
	struct host_ksigaction probe, old;
	struct rlimit no_core = { 0, 0 }, core;
	siginfo_t info = *si;

	if (seen) {
		/* the tracer stopped at it already: its sysgate resumes this
		 * stop unseen (ptrace.c, ptrace_hidden_stop) */
		memset(&info, 0, sizeof(info));
		info.si_signo = sig;
		info.si_code = SI_QUEUE;
		info.si_pid = getpid();
		info.si_uid = getuid();
		info.si_value.sival_int = SIG_PTRACE_SEEN;
	}

	/* The signal goes to this thread from itself with the fault's own
	 * siginfo (allowed to oneself: a tracer's GETSIGINFO reads the
	 * fault's), unblocked. Delivered on the way out of the call: the host
	 * stops there for the tracer, which lets it through, suppresses it
	 * (the instruction runs again, as natively) or sends another signal
	 * instead, which arrives through the host like any other (the mask
	 * is the guest's: one it blocks waits, as natively). Let through, a
	 * handler notes that it came back, or, for a fault the guest dies of,
	 * the host's default action ends the process there with the guest's
	 * wait status (without sysgate's core: cli's die_by_signal), so the
	 * death makes no second stop. seen (a host signal brought the fault,
	 * the tracer saw its stop): sent as SIG_PTRACE_SEEN, which the
	 * tracer's sysgate lets through unseen. */
	memset(&probe, 0, sizeof(probe));
	if (fatal) {
		probe.handler = (void *)SIG_DFL;
		syscall(SYS_prlimit64, 0, RLIMIT_CORE, &no_core, &core);
	} else {
		probe.handler = (void *)on_probe_signal;
		probe.flags = SA_SIGINFO | HOST_SA_RESTORER;
		probe.restorer = sg_host_sigreturn;
		probe.mask = ~0ull;
	}
	syscall(SYS_rt_sigprocmask, SIG_UNBLOCK, &only, &saved, sizeof(only));
	syscall(SYS_rt_sigaction, sig, &probe, &old, sizeof(probe.mask));
	tl_probe_back = 0;
	syscall(SYS_rt_tgsigqueueinfo, getpid(), t->tid, sig, &info);
	syscall(SYS_rt_sigaction, sig, &old, NULL, sizeof(old.mask));
	syscall(SYS_rt_sigprocmask, SIG_SETMASK, &saved, NULL, sizeof(saved));
	if (fatal)
		syscall(SYS_prlimit64, 0, RLIMIT_CORE, &core, NULL);
	return tl_probe_back == sig;
}

void sig_action_changed(struct sg_task_group *g, int sig)
{
	set_host_action(g, sig, g->sigactions[sig - 1].handler);
}

struct sg_sigaction sig_action(struct sg_task *t, int sig)
{
	return t->group->sigactions[sig - 1];
}

struct sg_sigaction sig_swap_action(struct sg_task *t, int sig,
				    const struct sg_sigaction *sa)
{
	struct sg_task_group *g = t->group;
	struct sg_sigaction old;

	pthread_mutex_lock(&g->lock);
	old = g->sigactions[sig - 1];
	g->sigactions[sig - 1] = *sa;
	sig_action_changed(g, sig);
	pthread_mutex_unlock(&g->lock);
	return old;
}

/* glibc's signals, which a guest's C library uses as its own */
#define LIBC_SIGCANCEL 32
#define LIBC_SIGSETXID 33

void sig_host_thread_created(struct sg_task_group *g)
{
	/* glibc's first pthread_create (late_init) installs its own
	 * SIGSETXID handler over the guest's and unblocks SIGCANCEL and
	 * SIGSETXID in the calling thread: both go back to the guest's. */
	sig_action_changed(g, LIBC_SIGCANCEL);
	sig_action_changed(g, LIBC_SIGSETXID);
	if (tl_thread)
		sig_mask_changed(tl_thread);
}

void sig_host_mask(const struct sg_task *t, uint64_t guest_mask, sigset_t *out)
{
	/* queued signals stay blocked until the guest has them */
	uint64_t m = (guest_mask | t->sig.pending) & ~HOST_NEVER_BLOCK;

	sigemptyset(out);
	for (int sig = 1; sig <= SG_NSIG; sig++)
		if (m & SIGBIT(sig))
			sigaddset(out, sig);
}

void sig_mask_changed(struct sg_task *t)
{
	sigset_t set;

	sig_host_mask(t, t->sig.mask, &set);
	/* raw: glibc's wrapper refuses its own SIGCANCEL/SIGSETXID */
	syscall(SYS_rt_sigprocmask, SIG_SETMASK, &set, NULL, 8);
}

uint64_t sig_queued(const struct sg_task *t)
{
	return t->sig.pending;
}

int sig_dequeue(struct sg_task *t, uint64_t set, siginfo_t *info)
{
	uint64_t ready = t->sig.pending & set;
	int sig;

	if (!ready)
		return 0;
	sig = __builtin_ctzll(ready) + 1;
	if (info)
		*info = t->sig.info[sig - 1];
	__atomic_and_fetch(&t->sig.pending, ~SIGBIT(sig), __ATOMIC_RELEASE);
	return sig;
}

void sig_exec_reset(struct sg_task *t)
{
	struct sg_task_group *g = t->group;

	pthread_mutex_lock(&g->lock);
	for (int sig = 1; sig <= SG_NSIG; sig++) {
		struct sg_sigaction *a = &g->sigactions[sig - 1];
		bool caught = a->handler != SG_SIG_DFL && a->handler != SG_SIG_IGN;

		*a = (struct sg_sigaction){ .handler = a->handler == SG_SIG_IGN ? SG_SIG_IGN
										   : SG_SIG_DFL };
		if (caught)
			sig_action_changed(g, sig);
	}
	pthread_mutex_unlock(&g->lock);
	t->sig.altstack_sp = 0;
	t->sig.altstack_size = 0;
	t->sig.altstack_flags = 0;
}

void sig_thread_init(struct sg_task *t)
{
	uint64_t host = 0;

	syscall(SYS_rt_sigprocmask, SIG_BLOCK, NULL, &host, 8);
	t->sig.mask = host & ~SIG_UNBLOCKABLE;
}

bool sig_deliverable(const struct sg_task *t)
{
	return (t->sig.pending & ~t->sig.mask) != 0;
}
