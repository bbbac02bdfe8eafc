/* The syscall module's files that read the guest task (clone, entry,
 * execve, task and the accessors in handler.c): handler.h plus the task
 * and its group (signal/guest_task.h), never core's thread or process. The
 * other handler files include handler.h alone, where the thread is a
 * handle (docs/syscalls.md, Handler context).
 */
#ifndef SG_SYSCALL_INTERNAL_H
#define SG_SYSCALL_INTERNAL_H

#include "signal/guest_task.h"
#include "syscall/handler.h"

/* task.c: set_thread_area(u_info) for t (clone's CLONE_SETTLS gives the
 * new thread's): 0 or -errno. */
long sc_set_thread_area(struct sg_task *t, uint64_t u_info);

/* clone.c: a vfork child's exec releases its parent (the pipe it waits
 * on closed); nothing if this process is no vfork child. */
void sc_vfork_release(void);

#endif
