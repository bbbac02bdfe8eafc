/* The signal state a process and each of its threads carry (struct
 * sg_process, struct sg_thread: core/process.h embeds them); the signal
 * module's own, declared here so that core includes it and not the other
 * way round (docs/architecture.md, Layers). */
#ifndef SG_SIGSTATE_H
#define SG_SIGSTATE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "cpu/syscall_regs.h" /* struct cpu_syscall_restart */
#include "syscall/table.h" /* SG_ERESTART* */

/* A guest signal action as rt_sigaction gave it (recorded by src/syscall;
 * mask bit n-1 = signal n). */
struct sg_sigaction {
	uint64_t handler, flags, restorer, mask;
};

#define SG_NSIG 64

/* A host system call (raw: the result or -errno) that a guest signal
 * keeps from starting when it reached this thread after its last
 * instruction boundary (thread_loop clears *arrived there): natively that
 * signal would have come before the guest's syscall instruction. The
 * answer is then -SG_ERESTARTNOINTR, on which the run loop delivers the
 * signal and executes the instruction again. Without this, a signal
 * arriving between the guest's instruction and the host's entry would
 * wait until a blocking call (read, futex) returns: for ever. For calls
 * that may block, where nothing done before them would be done twice. */
long sig_host_call(volatile int *arrived, long nr, long a1, long a2, long a3, long a4,
		   long a5, long a6);

/* Per-thread signal state. The host handler writes info[] and sets the
 * pending bit; the run loop delivers at an instruction boundary. */
struct sg_sigstate {
	volatile uint64_t pending;   /* bit n-1: info[n-1] is queued */
	uint64_t mask;               /* the guest's (rt_sigprocmask): bit n-1
				      * = signal n blocked */
	volatile int arrived;        /* a host signal since the last instruction
				      * boundary (sig_host_call) */
	siginfo_t info[SG_NSIG];
	uint64_t altstack_sp, altstack_size; /* sigaltstack; size 0: disabled */
	uint32_t altstack_flags;     /* SS_AUTODISARM as given */
	uint64_t saved_mask;         /* sigsuspend/pselect: mask to put back */
	bool has_saved_mask;
	bool sigreturned;            /* the last syscall was a sigreturn */
	bool ptraced;                /* the host traces this thread for a guest
				      * tracer (PTRACE_TRACEME, or traced at
				      * start by a sysgate): its faults and
				      * calls are reported (src/syscall/ptrace.c) */
	/* the last call's restart code (SG_ERESTART*, positive; 0: none),
	 * what the next delivery decides from (signal/deliver.c), and how to
	 * enter it again: the number (restart_syscall's for
	 * ERESTART_RESTARTBLOCK), the syscall instruction, rcx */
	int restart_code;
	uint64_t restart_nr;
	struct cpu_syscall_restart restart_at; /* where, and RCX (cpu/syscall_regs.h) */
	/* the kernel's restart block (ERESTART_RESTARTBLOCK): a timed wait
	 * interrupted by a signal keeps its absolute deadline, and when no
	 * handler runs the guest resumes through restart_syscall, which waits
	 * out only the rest (src/syscall/time.c) */
	int restart_fn;              /* SG_RESTART_*: what restart_syscall redoes */
	int restart_clock;
	int64_t restart_deadline;    /* ns on restart_clock */
	uint64_t restart_args[4];    /* sleep: rmtp, time32; poll: fds, nfds,
				      * has a timeout; futex: uaddr, op, val,
				      * bitset */
};

enum { SG_RESTART_NONE, SG_RESTART_SLEEP, SG_RESTART_POLL, SG_RESTART_FUTEX };

#endif
