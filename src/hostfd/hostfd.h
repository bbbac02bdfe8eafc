/* sysgate's own host descriptors: the trace file, the trace's shared
 * memfd, vfork pipes, the program a guest fexecve hands to the next image.
 *
 * The guest must never see, use, close or collide with them, and they must
 * survive whatever the guest closes. They live in a block of numbers at or
 * above the guest's RLIMIT_NOFILE soft limit (the "floor"; when the soft
 * limit leaves no room below the hard one, the block is the top of the hard
 * limit), and the host's soft limit is kept at min(guest soft limit, floor).
 * So the kernel itself stops every guest allocation, dup2, dup3 and F_DUPFD
 * short of them, and the syscall layer answers -EBADF where a call names
 * one (hostfd_is_private). docs/syscalls.md, Descriptors.
 *
 * Process-wide state (descriptors are the process's): a fork inherits it,
 * an exec starts again from the guest's limit (hostfd_exec_begin/_failed).
 */
#ifndef SG_HOSTFD_H
#define SG_HOSTFD_H

#include <stdbool.h>
#include <stdint.h>

#define HOSTFD_MAX 16 /* sysgate's descriptors at one time, and the block's size */

/* A close-on-exec copy of fd in the private block, registered; fd itself
 * stays open (the caller closes it). holder, if not NULL, is where the
 * owner keeps the number: it is updated when the block moves (a guest
 * raising its soft limit). -1 with errno when no private number is free. */
int hostfd_dup(int fd, int *holder);

/* The owner of registered fd keeps its number in *holder (see hostfd_dup). */
void hostfd_hold(int fd, int *holder);

/* Register a private descriptor inherited from the image before an exec. */
void hostfd_adopt(int fd, int *holder);

/* Close a registered descriptor / forget one (closed by other means). */
void hostfd_close(int fd);
void hostfd_forget(int fd);

/* Is fd one of sysgate's own? Cheap for the guest's usual small numbers. */
bool hostfd_is_private(long fd);

/* Sorted copy of the private descriptors; returns how many. */
int hostfd_list(int *out, int max);

/* RLIMIT_NOFILE as the guest sees it (its soft limit, the host's hard). */
void hostfd_nofile_get(uint64_t *soft, uint64_t *hard);
/* The guest sets RLIMIT_NOFILE: the host gets min(soft, floor) and hard,
 * the block moves up when the guest's range would reach it. 0 or -errno. */
long hostfd_nofile_set(uint64_t soft, uint64_t hard);

/* Around the host execve that re-enters sysgate: the new image must read
 * the guest's own soft limit; when the exec fails the floor comes back. */
void hostfd_exec_begin(void);
void hostfd_exec_failed(void);

#endif
