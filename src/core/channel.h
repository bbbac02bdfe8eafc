/* The channel between an embedder and a guest in a process of its own
 * (docs/api.md, A guest in a process of its own).
 *
 * One SOCK_SEQPACKET socket pair per guest process: each message is one
 * header and at most CHAN_MAX_DATA bytes after it, sent and received
 * whole, and the end of the other process shows as end of file. The
 * embedder asks (CH_REQ_*: registers, memory, the address space, hooks,
 * run); the guest side answers with CH_REPLY. While it runs, the guest
 * side stops a guest thread at a hooked event (CH_EV_*), as seccomp's user
 * notification does, and waits for CH_ANSWER, serving the embedder's
 * requests meanwhile: the user's callback runs on the embedder's thread
 * and its sg_reg_* and sg_mem_* come back as requests.
 */
#ifndef SG_CHANNEL_H
#define SG_CHANNEL_H

#include <stdint.h>
#include <sys/types.h>

#define CHAN_MAX_DATA 65536

enum chan_op {
	/* embedder -> guest side */
	CH_REQ_REG_READ = 1,   /* a[0] reg, a[1] size -> data */
	CH_REQ_REG_WRITE,      /* a[0] reg, data */
	CH_REQ_MEM_READ,       /* a[0] addr, a[1] n -> data */
	CH_REQ_MEM_WRITE,      /* a[0] addr, data */
	CH_REQ_MEM_STRING,     /* a[0] addr, a[1] size -> data */
	CH_REQ_MEM_REGIONS,    /* a[0] first -> a[0] count, data regions */
	CH_REQ_MEM_MAP,        /* a[0] addr, a[1] size, a[2] prot -> a[0] addr */
	CH_REQ_MEM_UNMAP,      /* a[0] addr, a[1] size */
	CH_REQ_MEM_PROTECT,    /* a[0] addr, a[1] size, a[2] prot */
	CH_REQ_HOOKS,          /* data struct chan_hooks (+ ranges); a[0]
				* CHAN_HOOKS_NO_REPLY: to the processes not in
				* the hook, read at their next event */
	CH_REQ_STOP,           /* sg_stop from inside a hook */
	CH_REQ_RUN,            /* a[0] enum chan_run, a[1] until, a[2] budget */
	CH_REQ_GDB_ATTACH,     /* a[0] flags, the connection passed */
	CH_ANSWER,             /* to a CH_EV_*: a[0] action, data as the event's */
	/* guest side -> embedder */
	CH_REPLY,              /* err, a[], data */
	CH_LOADED,             /* err: sg_load's; a[0] abi */
	CH_RUN_DONE,           /* err, a[0] exited, data struct sg_exit */
	CH_HELLO,              /* a new image (a guest execve) asks for the hooks */
	CH_NEW_PROCESS,        /* a guest fork's channel (the fd passed) */
	CH_EV_SYSCALL,         /* data struct chan_syscall */
	CH_EV_EVENT,           /* data struct chan_event */
	CH_EV_SIGNAL,          /* a[0] tid, a[1] signo */
	CH_EV_CODE,            /* a[0] enum chan_code, a[1] pc, a[2] range id */
};

enum chan_run { CHAN_RUN, CHAN_STEP, CHAN_RUN_UNTIL };
#define CHAN_HOOKS_NO_REPLY 1
enum chan_code { CHAN_CODE_INSN, CHAN_CODE_BLOCK, CHAN_CODE_RANGE };

struct chan_msg {
	uint32_t op;
	int32_t err;
	uint64_t a[3];
	uint32_t len;    /* bytes of data */
	uint32_t pad;
	unsigned char data[CHAN_MAX_DATA];
};

/* What the guest side stops for (CH_REQ_HOOKS, the answer to CH_HELLO). */
enum {
	CHAN_HOOK_ENTRY_ALL = 1, CHAN_HOOK_EXIT_ALL = 2, CHAN_HOOK_EVENT = 4,
	CHAN_HOOK_SIGNAL = 8, CHAN_HOOK_INSN = 16, CHAN_HOOK_BLOCK = 32,
};
struct chan_range {
	uint64_t id, begin, end;
};
struct chan_hooks {
	uint32_t flags;
	uint32_t nranges;
	/* per table (sg_abi - 1), SG_HOOK_NR_MAX bits: hooked on entry / exit */
	uint64_t entry[3][16], exit[3][16];
	struct chan_range ranges[];
};
#define CHAN_MAX_RANGES ((CHAN_MAX_DATA - sizeof(struct chan_hooks)) / sizeof(struct chan_range))

struct chan_syscall {
	int32_t abi, tid;
	uint32_t nr, when;
	uint64_t args[6];
	int64_t result;
	char name[32];   /* "" for a number with no table row */
};

struct chan_event {
	int32_t event, tid, value, has_path;
	int64_t id;
	char path[4096];
};

/* The whole message (header and m->len bytes), with fd (-1: none) passed
 * along. 0, or -1 (errno). */
int chan_send(int sock, const struct chan_msg *m, int fd);
/* One message into m; *fd (may be NULL: closed) the descriptor passed, or
 * -1. 1, 0 at end of file (the other side is gone), -1 (errno). */
int chan_recv(int sock, struct chan_msg *m, int *fd);

#endif
