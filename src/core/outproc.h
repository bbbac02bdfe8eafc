/* A guest in a process of its own (SG_MODE_OWN_PROCESS; docs/api.md).
 *
 * The embedder's side (outproc.c): sg_load forks a process for the guest
 * and every later call on the sg_process goes over the channel
 * (channel.h) to it; sg_run serves the hooked events there by running the
 * user's hooks here. The guest's side (guestside.c): the forked process,
 * or a sysgate an execve of the guest started (--embed-fd), runs the
 * guest in-process with stand-in hooks that hand each event over, and
 * serves the embedder's requests.
 */
#ifndef SG_OUTPROC_H
#define SG_OUTPROC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "sysgate.h"

struct sg_process;
struct chan_hooks;
struct chan_msg;

/* What sg_load and sg_load_memory load (process.c does it in-process). */
struct load_args {
	const char *path;
	char *const *argv, *const *envp;
};
enum sg_err process_load_here(struct sg_process *p, const struct load_args *a);
/* sg_run's in-process body (process.c). */
enum sg_err process_run_here(struct sg_process *p, struct sg_exit *status);

/* --- the embedder's side (outproc.c) --------------------------------- */

/* sg_load for SG_MODE_OWN_PROCESS: the guest's process started and the
 * program loaded there. */
enum sg_err client_load(struct sg_process *p, const struct load_args *a);
/* sg_run, sg_step, sg_run_until (kind: enum chan_run). */
enum sg_err client_run(struct sg_process *p, int kind, uint64_t until,
		       uint64_t budget, struct sg_exit *status);
void client_stop(struct sg_process *p);
enum sg_err client_reg_read(struct sg_process *p, enum sg_reg reg, void *buf, size_t size);
enum sg_err client_reg_write(struct sg_process *p, enum sg_reg reg, const void *buf,
			     size_t size);
enum sg_err client_mem_read(struct sg_process *p, uint64_t addr, void *buf, size_t n);
enum sg_err client_mem_write(struct sg_process *p, uint64_t addr, const void *buf,
			     size_t n);
enum sg_err client_mem_string(struct sg_process *p, uint64_t addr, char *buf, size_t size);
enum sg_err client_mem_regions(struct sg_process *p, struct sg_region *out, size_t max,
			       size_t *count);
enum sg_err client_mem_map(struct sg_process *p, uint64_t *addr, uint64_t size, int prot);
enum sg_err client_mem_unmap(struct sg_process *p, uint64_t addr, uint64_t size);
enum sg_err client_mem_protect(struct sg_process *p, uint64_t addr, uint64_t size,
			       int prot);
/* sg_gdb_attach: the stub serves fd (a copy passed) in the guest's process. */
enum sg_err client_gdb_attach(struct sg_process *p, int fd, unsigned flags);
/* A hook was added or removed: the guest's side stops for the new set. */
void client_hooks_changed(struct sg_process *p);
/* sg_destroy: the guest's process killed if it still runs, reaped. */
void client_destroy(struct sg_process *p);

/* What the guest side must stop for, from p's hooks (embed.c's lists):
 * its size in bytes (the ranges after it), written to out (*out
 * CHAN_MAX_DATA bytes). */
size_t embed_hooks_describe(const struct sg_process *p, struct chan_hooks *out);

/* --- the guest's side (guestside.c) ---------------------------------- */

/* p talks to its embedder over sock (and takes sysgate's own copy of it;
 * stop_fd: the sg_stop pipe, -1: none). false: no memory or descriptor. */
bool guestside_attach(struct sg_process *p, int sock, int stop_fd);
/* An image a guest's execve started (sg_create with embed_fd): attached,
 * the hooks asked for and set. */
bool guestside_hello(struct sg_process *p, int sock);
/* Stand-ins for the hooks described (CH_REQ_HOOKS). */
void guestside_apply_hooks(struct sg_process *p, const struct chan_hooks *h);
/* Serve the embedder's requests (and run when asked) until the guest has
 * exited or the embedder is gone; run_first: run at once (a new image
 * goes on running). The status of the run that ended it. */
enum sg_err guestside_serve(struct sg_process *p, bool run_first, struct sg_exit *status);
bool guestside_serving(const struct sg_process *p);
/* The process sg_load started, or an image its execve started: the
 * embedder has its status from sg_run already. false: a process the guest
 * forked, whose status is its own exit's. */
bool guestside_first(const struct sg_process *p);
void guestside_before_fork(struct sg_process *p);
void guestside_after_fork(struct sg_process *p, long pid);
void guestside_forked(struct sg_process *p);
int guestside_exec_option(struct sg_process *p, char *buf, size_t size);
void guestside_destroy(struct sg_process *p);
/* A message to the embedder (under the channel's lock). */
void guestside_send(struct sg_process *p, const struct chan_msg *m, int fd);

#endif
