/* strace-format syscall trace, signal lines and the instruction trace
 * (DESIGN.md, Trace; docs/trace-format.md). */
#ifndef SG_TRACE_H
#define SG_TRACE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "sysgate.h"
#include "syscall/table.h"

struct cpu;
struct mm;
struct trace;

/* What the trace reads of the calling guest thread, filled by core around
 * each call (core/thread.c, trace_task_of): the trace never sees core's
 * thread or process. */
struct trace_task {
	const struct mm *mm; /* the guest's memory, for the arguments */
	enum sg_abi abi;     /* the program's (the call's table may differ) */
	uint64_t sp;         /* the stack pointer, for clone's stack note */
	/* exit(2) ends a thread, not the program: neither the leader nor
	 * the last thread */
	bool exit_ends_thread;
};

/* fd < 0: stderr. flags: enum sg_trace_flags; strace's defaults for the
 * rest (-s 32, every call). */
struct trace *trace_create(int fd, unsigned flags);
/* The same with every trace option of opts (trace, trace_strlen,
 * trace_filter, trace_start, trace_count). NULL with errno EINVAL when
 * the filter names an unknown call or class, ENOMEM otherwise. */
struct trace *trace_create_opts(int fd, const struct sg_options *opts);
void trace_destroy(struct trace *tr);

/* Called by the run loop (core/thread.c, run_syscall) before and after
 * the handler runs. The line is printed on exit (enter only remembers what
 * the exit line needs, e.g. calls that never return such as exit_group
 * print at enter). With -f and
 * more than one thread, enter writes the start of the line at once and a
 * line of another thread in between leaves it "<unfinished ...>", closed
 * later by "<... name resumed>", as strace does. */
void trace_syscall_enter(struct trace *tr, const struct trace_task *task,
			 const struct sg_syscall_call *call);
void trace_syscall_exit(struct trace *tr, const struct trace_task *task,
			const struct sg_syscall_call *call);

/* Whether spec is a trace filter trace_create_opts would take (sg_create
 * checks it even when nothing is traced). False with errno EINVAL or
 * ENOMEM. */
bool trace_filter_valid(const char *spec);

/* The execve that started the program, as strace's first line shows it:
 * its path (AT_EXECFN), argv and envp as they are on the new process's
 * stack at sp, "= 0". */
void trace_initial_execve(struct trace *tr, const struct trace_task *task,
			  uint64_t sp);

/* An execve that is about to replace the process image: print its line
 * with "= 0" now (nothing of this process returns to print it; an execve
 * in place returns into the new image, and that return prints nothing:
 * trace_syscall_exit of the same call with result 0). Call it after every
 * check, right before the host execve or the point of no return; the
 * thread is the one its trace_syscall_enter saw. */
void trace_syscall_exec(struct trace *tr, const struct sg_syscall_call *call);

/* The sysgate options that recreate this trace in the image a guest
 * execve starts (execve re-enters sysgate): "--trace=...", "-f", "-s64",
 * "-etrace=...", "--trace-shared=FD" (the -f state: one open line and one
 * task count across the exec; the fd is left open for the exec). out[]
 * gets up to max-1 malloc'd strings and a NULL; returns their number, or
 * -1 (ENOMEM, or max too small). Call it right before the host execve. */
int trace_exec_options(struct trace *tr, char **out, int max);

/* The descriptor trace lines go to (sysgate's own, hostfd.h). */
int trace_output_fd(const struct trace *tr);

/* A signal is delivered to thread tid (0: not known) of the guest (called
 * by the signal delivery code before the handler frame is built or the
 * default action taken):
 * "--- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED, ...} ---". */
void trace_signal(struct trace *tr, int tid, const siginfo_t *si);

/* "+++ exited with N +++" / "+++ killed by SIGX +++"; with -c the summary
 * table instead. */
void trace_exit(struct trace *tr, const struct sg_exit *status);

/* --stats (run_stats.c): one line of this host process's guest
 * instructions and decoding (cpu: cpu_stats_get's), page faults and CPU
 * time, to the trace's output (tr: NULL, stderr); event says why now
 * ("exit", "execve"). */
struct cpu_stats;
void trace_print_run_stats(const struct trace *tr, const char *event,
			   const struct cpu_stats *cpu);

/* --- instruction trace (--trace=insn / --trace=blocks, insn.c) ---------- */

/* The trace wants to see instructions (and is not past --trace-count). */
bool trace_wants_insns(const struct trace *tr);
/* After one instruction of cpu ran: pc is where it was; before and
 * before_flags the registers and RFLAGS as they were, after_flags RFLAGS
 * now (the trace does not call the CPU). Prints it (or its block), with
 * the registers it changed. */
void trace_insn(struct trace *tr, const struct cpu *cpu, uint64_t pc,
		const uint64_t before[16], uint64_t before_flags,
		uint64_t after_flags);

#endif
