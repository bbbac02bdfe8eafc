/* i386 socketcall(2) and ipc(2) (module systab): each carries one of
 * several calls, chosen by a sub-call number. The lists below are the one
 * place that says which call each sub-call is, which i386 row runs it (or
 * none), and where that call's arguments are; carried.c turns a
 * socketcall or ipc call into the carried call, with its arguments in
 * that call's own order. The dispatch (syscall/net.c, syscall/ipc.c) and
 * the trace (trace/call_view.c, which shows the carried call as strace does)
 * both go through it.
 *
 * The sub-call numbers are the kernel headers' (<linux/net.h> SYS_<SUB>,
 * <linux/ipc.h> <SUB>), the rows' numbers <asm/unistd_32.h>'s __NR_<row>:
 * carried.c pastes the names below onto those prefixes.
 */
#ifndef SG_SYSCALL_CARRIED_H
#define SG_SYSCALL_CARRIED_H

#include <stddef.h>
#include <stdint.h>

struct mm;

/* socketcall(call, unsigned long args[]): the call reads `words` guest
 * words from args (the kernel's nargs[]), in the carried call's order.
 * send, recv and accept have no row of their own in any table: the kernel
 * runs them as sendto, recvfrom and accept4 with the missing arguments
 * zero, and strace shows them under their own name with `words`
 * arguments.
 *    sub-call     shown as     row          words */
#define SG_SOCKETCALL_LIST(X)                        \
	X(SOCKET,      socket,      socket,      3)  \
	X(BIND,        bind,        bind,        3)  \
	X(CONNECT,     connect,     connect,     3)  \
	X(LISTEN,      listen,      listen,      2)  \
	X(ACCEPT,      accept,      accept4,     3)  \
	X(GETSOCKNAME, getsockname, getsockname, 3)  \
	X(GETPEERNAME, getpeername, getpeername, 3)  \
	X(SOCKETPAIR,  socketpair,  socketpair,  4)  \
	X(SEND,        send,        sendto,      4)  \
	X(RECV,        recv,        recvfrom,    4)  \
	X(SENDTO,      sendto,      sendto,      6)  \
	X(RECVFROM,    recvfrom,    recvfrom,    6)  \
	X(SHUTDOWN,    shutdown,    shutdown,    2)  \
	X(SETSOCKOPT,  setsockopt,  setsockopt,  5)  \
	X(GETSOCKOPT,  getsockopt,  getsockopt,  5)  \
	X(SENDMSG,     sendmsg,     sendmsg,     3)  \
	X(RECVMSG,     recvmsg,     recvmsg,     3)  \
	X(ACCEPT4,     accept4,     accept4,     4)  \
	X(RECVMMSG,    recvmmsg,    recvmmsg,    5)  \
	X(SENDMMSG,    sendmmsg,    sendmmsg,    4)

/* ipc(call, first, second, third, ptr, fifth), call = version << 16 | sub:
 * where each argument of the carried call comes from (the kernel's
 * ipc/syscall.c compat_ksys_ipc). AT_PTR: the 32-bit word at ptr (semctl's
 * union semun; ptr NULL: -EINVAL). KLUDGE_MSGP/KLUDGE_MSGTYP: version 0
 * passes struct ipc_kludge { u32 msgp; s32 msgtyp; } at ptr, later
 * versions ptr and fifth. semop and the time32 semtimedop have no i386
 * row (the trace leaves those as ipc(...)).
 *    sub-call    shown as     row            args  argument sources */
#define SG_IPC_LIST(X)                                                            \
	X(SEMOP,      semop,      NO_ROW,         3, FIRST, PTR, SECOND, NONE, NONE) \
	X(SEMGET,     semget,     ROW(semget),    3, FIRST, SECOND, THIRD, NONE, NONE) \
	X(SEMCTL,     semctl,     ROW(semctl),    4, FIRST, SECOND, THIRD, AT_PTR, NONE) \
	X(SEMTIMEDOP, semtimedop, NO_ROW,         4, FIRST, PTR, SECOND, FIFTH, NONE) \
	X(MSGSND,     msgsnd,     ROW(msgsnd),    4, FIRST, PTR, SECOND, THIRD, NONE) \
	X(MSGRCV,     msgrcv,     ROW(msgrcv),    5, FIRST, KLUDGE_MSGP, SECOND,             \
	  KLUDGE_MSGTYP, THIRD)                                                          \
	X(MSGGET,     msgget,     ROW(msgget),    2, FIRST, SECOND, NONE, NONE, NONE) \
	X(MSGCTL,     msgctl,     ROW(msgctl),    3, FIRST, SECOND, PTR, NONE, NONE) \
	X(SHMAT,      shmat,      ROW(shmat),     3, FIRST, PTR, SECOND, NONE, NONE) \
	X(SHMDT,      shmdt,      ROW(shmdt),     1, PTR, NONE, NONE, NONE, NONE) \
	X(SHMGET,     shmget,     ROW(shmget),    3, FIRST, SECOND, THIRD, NONE, NONE) \
	X(SHMCTL,     shmctl,     ROW(shmctl),    3, FIRST, SECOND, PTR, NONE, NONE)

enum sg_carried_id {
#define SG_CARRIED_X(sub, ...) SG_CARRIED_SOCK_##sub,
	SG_SOCKETCALL_LIST(SG_CARRIED_X)
#undef SG_CARRIED_X
#define SG_CARRIED_X(sub, ...) SG_CARRIED_IPC_##sub,
	SG_IPC_LIST(SG_CARRIED_X)
#undef SG_CARRIED_X
	SG_CARRIED__COUNT
};

/* The call a socketcall or ipc carries. */
struct sg_carried {
	enum sg_carried_id id;
	const char *name;  /* as strace shows it: "send", "semctl" */
	int row;           /* the i386 row that runs it ("sendto" for send),
			    * -1 if none */
	unsigned nargs;    /* its arguments (the rest of args are 0) */
	uint64_t args[6];
	long early;        /* the error the kernel answers without making the
			    * call (ipc shmat version 1, semctl with ptr
			    * NULL), else 0; args are still filled */
	uint32_t result_at; /* ipc shmat: the address goes to this guest
			     * word and the call returns 0; else 0 */
};

/* What a carried call is, whatever its arguments. */
struct sg_carried_def {
	const char *name;  /* as strace shows it */
	int row;           /* the i386 row that runs it, -1 if none */
	unsigned nargs;
};
/* NULL for an id out of range */
const struct sg_carried_def *sg_carried_def(enum sg_carried_id id);

/* Reads n bytes of guest memory at src: 0, or nonzero if not readable
 * (copy_from_guest's contract; systab does not link mm). */
typedef int (*sg_carried_read_fn)(const struct mm *mm, void *dst, uint64_t src, size_t n);

/* socketcall's and ipc's arguments a (as the i386 entry read them) -> *out:
 * 0, or the kernel's error for the call as a whole (unknown sub-call:
 * socketcall -EINVAL, ipc -ENOSYS; unreadable argument block: -EFAULT;
 * msgrcv version 0 with ptr NULL: -EINVAL). */
int sg_carried_socketcall(const uint64_t a[6], sg_carried_read_fn read,
			  const struct mm *mm, struct sg_carried *out);
int sg_carried_ipc(const uint64_t a[6], sg_carried_read_fn read,
		   const struct mm *mm, struct sg_carried *out);

#endif
