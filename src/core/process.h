/* The process and thread objects that tie the layers together. */
#ifndef SG_PROCESS_H
#define SG_PROCESS_H

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include "sysgate.h"
#include "cpu/cpu.h"
#include "loader/loader.h"
#include "signal/sigstate.h"

struct mm;
struct trace;
struct sg_thread;

/* What core lends the syscall and signal layers (which cannot call core:
 * dependencies point one way). */
struct sg_core_hooks {
	/* Start a host thread running child (a guest thread of clone): its
	 * host tid, or -errno. child may be freed (the thread ended) when
	 * this returns. */
	long (*spawn_thread)(struct sg_thread *child);
	/* A fork child: only the calling thread goes on. */
	void (*forked)(struct sg_thread *t);
	/* Before a fork: wait for the host threads of ended guest threads. */
	void (*before_fork)(struct sg_process *p);
	/* Before the host execve that re-enters sysgate: the option that
	 * hands an attached debugger on to the new image (into buf) and the
	 * descriptor to leave open for it; -1: no debugger, or none
	 * (struct sg_debugger's exec_option, core/embed.h). */
	int (*debugger_exec_option)(struct sg_process *p, char *buf, size_t size);
	/* A signal for t, before the guest sees it (a fault's too): an
	 * attached debugger reports it; false: not delivered. */
	bool (*debugger_signal)(struct sg_thread *t, const siginfo_t *si, bool fault);
	/* In the parent after a fork (a vfork: after the child's exec or
	 * exit), child its pid: an attached debugger reports it. */
	void (*debugger_fork_parent)(struct sg_thread *t, long child, bool vfork);
	/* The embedding API's signal hook (sg_hook_signal): true discards. */
	bool (*embed_signal)(struct sg_thread *t, const siginfo_t *si);
	/* After a fork, in the parent (pid: the child, or -errno). */
	void (*after_fork)(struct sg_process *p, long pid);
	/* Before the host execve that re-enters sysgate: the option that
	 * hands the channel to the embedder on to the new image (into buf)
	 * and its descriptor; -1: no embedder (core/guestside.c). */
	int (*embedder_exec_option)(struct sg_process *p, char *buf, size_t size);
};

struct sg_process {
	struct sg_options opts;
	char *sysroot;           /* owned copy of opts.sysroot */
	enum sg_abi abi;
	struct mm *mm;
	struct trace *trace;
	struct sg_embed *embed;   /* embedding API hooks (core/embed.c); NULL: none */
	struct sg_image_info image;
	char *exe_path;          /* absolute host path of the guest program (/proc/self/exe) */
	bool loaded;
	bool start_traced;        /* the initial execve line is out (sg_run) */
	bool host_shows_guest;   /* /proc/PID/cmdline, environ are the guest's (identity.c) */
	bool exited;
	struct sg_exit exit;
	struct sg_thread *main_thread;
	struct sg_sigaction sigactions[SG_NSIG]; /* [signo - 1] */

	/* Threads (src/core/thread.c): all under lock. */
	pthread_mutex_t lock;
	pthread_cond_t threads_done;
	struct sg_thread *threads;   /* list through sg_thread.next */
	unsigned nthreads;           /* guest threads alive */
	struct sg_thread *dead;      /* ended clone children, freed later (thread.c) */
	unsigned finishing;          /* clone children in thread_finish, not yet dead */
	volatile int exiting;        /* exit_group or a fatal signal: all threads stop */
	struct sg_core_hooks hooks;
	char *host_exe;              /* sysgate's own binary, for execve */
	bool no_runner;              /* a fork child of a thread that is not sg_run's:
					nobody returns from sg_run here */
	/* SG_MODE_OWN_PROCESS: the embedder's side of the guest's process
	 * (core/outproc.c), NULL in the guest's; the guest's side of the
	 * channel (core/guestside.c), NULL in the embedder's */
	struct sg_client *client;
	struct sg_guestside *guest;
	/* SG_MODE_OWN_PROCESS with a trace: its descriptor until the
	 * guest's process makes the trace, its own (outproc.c); -1: none */
	int pending_trace_fd;
};


/* What a debugger (src/gdb) keeps per thread: only it reads or writes
 * this, under its own lock or on the thread itself. */
struct sg_debug_thread {
	volatile int parked;      /* waiting in the debugger's checkpoint */
	volatile bool in_syscall; /* inside a system call (may block) */
	bool step;                /* resumed for one instruction */
	bool hold;                /* left stopped by the last resume (vCont) */
	int stop_kind;            /* a stop of its own to report (src/gdb) */
	uint64_t stop_addr;       /* watchpoint address */
	int access_kind;          /* the running instruction touches a read or
				     access watchpoint (reported after it) */
	uint64_t access_addr;
	int resume_sig;           /* signal gdb gave with the resume */
	int injected_sig;         /* queued for gdb's resume: not reported */
	bool announced;           /* its creation was reported (or it needs none) */
};

struct sg_thread {
	struct cpu cpu;          /* first: a struct cpu * is a struct sg_thread * */
	struct sg_process *proc;
	int tid;
	uint64_t clear_child_tid; /* set_tid_address */
	uint64_t robust_list, robust_list_len;
	struct sg_sigstate sig;
	struct sg_thread *next;   /* proc->threads */
	pthread_t host;
	uint64_t child_tid;       /* CLONE_CHILD_SETTID: written by the child */
	uint64_t parent_tid;      /* CLONE_PARENT_SETTID: written before it runs */
	int *spawn_tid;           /* clone: where the child reports its tid (on
				     the parent's stack; the child may be gone
				     by the time the parent reads it) */
	bool gone;                /* exit of this thread: its run loop ends */
	struct sg_debug_thread debug;
	int exit_code;
};

static inline struct sg_thread *thread_of_cpu(struct cpu *cpu)
{
	return (struct sg_thread *)cpu->owner;
}

#endif
