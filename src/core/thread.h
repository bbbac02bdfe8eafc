/* Guest threads as host threads (src/core/thread.c). */
#ifndef SG_THREAD_H
#define SG_THREAD_H

#include "core/process.h"

struct trace_task;

/* Run t until it exits, the process exits, or it dies. */
void thread_loop(struct sg_thread *t);
/* t has left its loop: clear_child_tid, thread list, process status. */
void thread_finish(struct sg_thread *t);
/* Free the clone children that have ended (p->dead). Under p->lock, or
 * when no thread runs any more. */
void thread_free_dead(struct sg_process *p);
/* Fill p->hooks (clone's thread start, fork's child fix-up). */
void thread_hooks_init(struct sg_process *p);
/* What the trace reads of t, as it is now (trace/trace.h). */
void trace_task_of(struct trace_task *task, const struct sg_thread *t);
/* The process of t ends with status (exit_group, a signal or fault that
 * kills, the embedding API's SG_HOOK_KILL): the first status given stays;
 * every other thread is stopped. */
void process_exit(struct sg_thread *t, const struct sg_exit *status);
/* Until every thread of p has finished (kicking them while p exits). */
void thread_wait_all(struct sg_process *p);
/* --stats: the line of this host process's counts (trace_print_run_stats). */
void process_print_run_stats(struct sg_process *p, const char *event);

#endif
