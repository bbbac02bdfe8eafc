/* The process and thread objects that tie the layers together. */
#ifndef SG_PROCESS_H
#define SG_PROCESS_H

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "sysgate.h"
#include "cpu/cpu.h"
#include "loader/loader.h"
#include "signal/guest_task.h"

struct sg_thread;

struct sg_process {
	/* What the syscall and signal modules see of the process: its
	 * task group (signal/guest_task.h), core's own fields as well. */
	union {
		struct sg_task_group group;
		struct {
			SG_TASK_GROUP_MEMBERS
		};
	};
	struct sg_embed *embed;   /* embedding API hooks (core/embed.c); NULL: none */
	struct sg_image_info image; /* as loaded (the vDSO's place: group.vdso) */
	bool loaded;
	bool start_traced;        /* the initial execve line is out (sg_run) */
	bool exited;
	struct sg_exit exit;
	struct sg_thread *main_thread;

	/* Threads (src/core/thread.c): all under lock. */
	pthread_cond_t threads_done;
	struct sg_thread *threads;   /* list through sg_thread.next */
	unsigned nthreads;           /* guest threads alive */
	struct sg_thread *dead;      /* ended clone children, freed later (thread.c) */
	unsigned finishing;          /* clone children in thread_finish, not yet dead */
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
	/* What the syscall and signal modules see of the thread: its task
	 * (signal/guest_task.h; the CPU, tid, signal state, ...), core's own
	 * fields as well. First: the handle those modules get is the task
	 * (sg_task(), signal.h). */
	union {
		struct sg_task task;
		struct {
			SG_TASK_MEMBERS
		};
	};
	struct sg_process *proc;
	struct sg_thread *next;   /* proc->threads */
	pthread_t host;
	bool exec_fresh;          /* an execve in place loaded a new image: its
				     registers once the call's return path is
				     done (core/exec_image.c) */
	int *spawn_tid;           /* clone: where the child reports its tid (on
				     the parent's stack; the child may be gone
				     by the time the parent reads it) */
	struct sg_debug_thread debug;
};

_Static_assert(offsetof(struct sg_thread, task) == 0,
	       "sg_task(): a thread handle points at its task");

static inline struct sg_thread *thread_of_cpu(struct cpu *cpu)
{
	return (struct sg_thread *)cpu->owner;
}

/* The thread whose task the syscall and signal modules hand back (their
 * hooks: struct sg_core_hooks). */
static inline struct sg_thread *thread_of_task(struct sg_task *k)
{
	return (struct sg_thread *)(void *)((char *)k - offsetof(struct sg_thread, task));
}

struct loader_out;
/* p takes a loaded image: a start, or an execve in place (process.c). */
void process_take_image(struct sg_process *p, const struct loader_out *out);

#endif
