/* The guest task: what the signal and syscall modules keep and read of a
 * guest thread (struct sg_task) and of its process (struct sg_task_group),
 * where the kernel's signal and system call code has its task_struct and
 * signal_struct. Core's struct sg_thread and struct sg_process
 * (core/process.h) carry one each and fill what only core knows (the
 * options, paths and mm of a process, its hooks); the two modules never
 * see core's structs (docs/architecture.md, Layers).
 *
 * The handle the modules are given for a thread is core's struct sg_thread
 * pointer, opaque to them: it points at the thread's task (sg_task() in
 * signal.h; core asserts that the task comes first). What a module needs done at the
 * process level (a new thread, fork's before and after, the exit of the
 * whole process) core lends it through the group's struct sg_core_hooks.
 */
#ifndef SG_GUEST_TASK_H
#define SG_GUEST_TASK_H

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpu/cpu.h"
#include "signal/signal.h"
#include "signal/sigstate.h"
#include "sysgate.h"

struct mm;
struct trace;
struct sg_thread;
struct sg_task;

/* A guest execve that core may load in place (syscall/execve.c): the
 * program as the loader opens it, the guest's argv and envp (host copies),
 * the name AT_EXECFN and comm take when not path (NULL: path). */
struct sg_exec_req {
	const char *path;
	char *const *argv;
	char *const *envp;
	const char *exec_name;
};

/* exec_check's answer when the exec cannot be done in place: the host
 * execve of sysgate's binary does it. */
#define SG_EXEC_ON_HOST 1

/* What core lends the syscall and signal modules, which cannot call core
 * (dependencies point one way): set by core/thread.c. */
struct sg_core_hooks {
	/* A new guest thread of parent's process with child's state (clone:
	 * its CPU, mask, tid addresses): core makes it and starts its host
	 * thread. Its host tid, or -errno. */
	long (*spawn_thread)(struct sg_task *parent, const struct sg_task *child);
	/* A fork child: only the calling thread goes on. */
	void (*forked)(struct sg_task *t);
	/* Before a fork: wait for the host threads of ended guest threads. */
	void (*before_fork)(struct sg_task *t);
	/* After a fork, in the parent (pid: the child, or -errno). */
	void (*after_fork)(struct sg_task *t, long pid);
	/* Before the host execve that re-enters sysgate: the option that
	 * hands an attached debugger on to the new image (into buf) and the
	 * descriptor to leave open for it; -1: no debugger, or none
	 * (struct sg_debugger's exec_option, core/embed.h). */
	int (*debugger_exec_option)(struct sg_task *t, char *buf, size_t size);
	/* The same for the channel to an embedder (a guest in a process of
	 * its own: core/guestside.c); -1: no embedder. */
	int (*embedder_exec_option)(struct sg_task *t, char *buf, size_t size);
	/* A signal for t, before the guest sees it (a fault's too): an
	 * attached debugger reports it; false: not delivered. */
	bool (*debugger_signal)(struct sg_task *t, const siginfo_t *si, bool fault);
	/* In the parent after a fork (a vfork: after the child's exec or
	 * exit), child its pid: an attached debugger reports it. */
	void (*debugger_fork_parent)(struct sg_task *t, long child, bool vfork);
	/* The embedding API's signal hook (sg_hook_signal): true discards. */
	bool (*embed_signal)(struct sg_task *t, const siginfo_t *si);
	/* The whole process ends with status (exit_group, a signal whose
	 * default kills): the first status given stays; every other thread
	 * is stopped (kicked out of a blocking call). */
	void (*exit_group)(struct sg_task *t, const struct sg_exit *status);
	/* A guest execve (docs/syscalls.md, execve), before its point of no
	 * return: -errno for the old image (the checks of the files that
	 * precede the kernel's point of no return, whichever way it is
	 * done), 0 when core can load req in this process (exec_replace),
	 * or SG_EXEC_ON_HOST (other threads, a debugger, an embedder,
	 * --exec=host). */
	int (*exec_check)(struct sg_task *t, const struct sg_exec_req *req);
	/* Past the point of no return: the old image's mappings and decoded
	 * code dropped, req loaded, the new registers set once the call
	 * returns. false: it could not be loaded, the process dies of
	 * SIGSEGV as the kernel kills it. */
	bool (*exec_replace)(struct sg_task *t, const struct sg_exec_req *req);
	/* The robust list head thread tid of t's process registered
	 * (get_robust_list); false: no such thread in the process. */
	bool (*robust_list_of)(struct sg_task *t, int tid, uint64_t *head);
};

/* Where the process's vDSO is: the syscall module moves these on an
 * mremap of it (sc_vdso_moved), as the kernel's vdso_mremap. */
struct sg_vdso_place {
	uint64_t base;            /* 0: no vDSO */
	uint64_t sysenter_return; /* the i386 landing pad after SYSENTER */
	uint64_t private_return;  /* the vDSO time functions' private call returns here */
};

/* The members of struct sg_task_group; core's struct sg_process has the
 * same as its own (core/process.h: one union, so core reads p->mm). */
#define SG_TASK_GROUP_MEMBERS                                                    \
	struct sg_options opts;                                                   \
	char *sysroot;            /* owned copy of opts.sysroot */                \
	enum sg_abi abi;                                                          \
	struct mm *mm;                                                            \
	struct trace *trace;                                                      \
	char *exe_path;           /* absolute host path of the guest program */   \
	char *host_exe;           /* sysgate's own binary, for execve */          \
	bool host_shows_guest;    /* /proc/PID/cmdline, environ are the guest's */ \
	volatile int exiting;     /* exit_group or a fatal signal: all threads stop */ \
	struct sg_vdso_place vdso;                                                \
	struct sg_sigaction sigactions[SG_NSIG]; /* [signo - 1] */                 \
	pthread_mutex_t lock;     /* the process's: actions, threads, status */   \
	struct sg_core_hooks hooks;

struct sg_task_group {
	SG_TASK_GROUP_MEMBERS
};

/* The members of struct sg_task (core's struct sg_thread begins with the
 * same, core/process.h). */
#define SG_TASK_MEMBERS                                                          \
	struct cpu cpu;                                                           \
	struct sg_task_group *group; /* the thread's process */                   \
	int tid;                                                                  \
	struct sg_sigstate sig;                                                   \
	uint64_t clear_child_tid; /* set_tid_address */                           \
	uint64_t robust_list, robust_list_len;                                    \
	uint64_t child_tid;       /* CLONE_CHILD_SETTID: written by the child */  \
	uint64_t parent_tid;      /* CLONE_PARENT_SETTID: written before it runs */ \
	bool gone;                /* exit of this thread: its run loop ends */    \
	int exit_code;

struct sg_task {
	SG_TASK_MEMBERS
};

#endif
