/* A guest execve done in place (src/core/exec_image.c). */
#ifndef SG_EXEC_IMAGE_H
#define SG_EXEC_IMAGE_H

struct sg_process;
struct sg_thread;

/* The group's exec_check and exec_replace hooks (signal/guest_task.h). */
void exec_image_hooks_init(struct sg_process *p);

/* After the execve's return path (thread.c, do_syscall): the registers of
 * the new image, which the entry code wrote over (t->exec_fresh). */
void exec_image_fresh_cpu(struct sg_thread *t);

#endif
