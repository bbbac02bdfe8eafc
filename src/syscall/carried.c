/* i386 socketcall(2) and ipc(2) turned into the call they carry (see
 * carried.h): the lists there expanded with the kernel headers' numbers.
 */
#include <errno.h>
#include <string.h>
#include <asm/unistd_32.h> /* the i386 rows, whatever the host's ABI */
#include <linux/ipc.h>     /* SEMOP ... SHMCTL */
#include <linux/net.h>     /* SYS_SOCKET ... SYS_SENDMMSG */

#include "syscall/carried.h"

#define ARRAY_SIZE(x) (sizeof(x) / sizeof((x)[0]))

/* name, row and argument count per carried call */
#define ROW(name) __NR_##name
#define NO_ROW (-1)
static const struct sg_carried_def defs[SG_CARRIED__COUNT] = {
#define SOCK_X(sub, name, row, words) [SG_CARRIED_SOCK_##sub] = { #name, __NR_##row, words },
	SG_SOCKETCALL_LIST(SOCK_X)
#undef SOCK_X
#define IPC_X(sub, name, row, nargs, ...) [SG_CARRIED_IPC_##sub] = { #name, row, nargs },
	SG_IPC_LIST(IPC_X)
#undef IPC_X
};
#undef ROW
#undef NO_ROW

/* sub-call number -> carried call + 1 (0: no such sub-call) */
static const unsigned char socketcall_ids[] = {
#define SOCK_X(sub, ...) [SYS_##sub] = SG_CARRIED_SOCK_##sub + 1,
	SG_SOCKETCALL_LIST(SOCK_X)
#undef SOCK_X
};
static const unsigned char ipc_ids[] = {
#define IPC_X(sub, ...) [sub] = SG_CARRIED_IPC_##sub + 1,
	SG_IPC_LIST(IPC_X)
#undef IPC_X
};

/* Where an ipc argument comes from (carried.h, SG_IPC_LIST). */
enum ipc_source {
	SRC_NONE,
	SRC_FIRST,
	SRC_SECOND,
	SRC_THIRD,
	SRC_PTR,
	SRC_FIFTH,
	SRC_AT_PTR,
	SRC_KLUDGE_MSGP,
	SRC_KLUDGE_MSGTYP,
};

static const unsigned char ipc_sources[SG_CARRIED__COUNT][5] = {
#define IPC_X(sub, name, row, nargs, s0, s1, s2, s3, s4) \
	[SG_CARRIED_IPC_##sub] = { SRC_##s0, SRC_##s1, SRC_##s2, SRC_##s3, SRC_##s4 },
	SG_IPC_LIST(IPC_X)
#undef IPC_X
};

const struct sg_carried_def *sg_carried_def(enum sg_carried_id id)
{
	return (unsigned)id < SG_CARRIED__COUNT ? &defs[id] : NULL;
}

/* out filled with id's name, row and count, arguments 0 */
static void start(struct sg_carried *out, enum sg_carried_id id)
{
	memset(out, 0, sizeof(*out));
	out->id = id;
	out->name = defs[id].name;
	out->row = defs[id].row;
	out->nargs = defs[id].nargs;
}

int sg_carried_socketcall(const uint64_t a[6], sg_carried_read_fn read,
			  const struct mm *mm, struct sg_carried *out)
{
	uint32_t call = (uint32_t)a[0], words[6] = { 0 };
	enum sg_carried_id id;

	if (call >= ARRAY_SIZE(socketcall_ids) || !socketcall_ids[call])
		return -EINVAL;
	id = (enum sg_carried_id)(socketcall_ids[call] - 1);
	if (read(mm, words, (uint32_t)a[1], 4u * defs[id].nargs))
		return -EFAULT;
	start(out, id);
	for (unsigned i = 0; i < out->nargs; i++)
		out->args[i] = words[i];
	return 0;
}

int sg_carried_ipc(const uint64_t a[6], sg_carried_read_fn read,
		   const struct mm *mm, struct sg_carried *out)
{
	uint32_t sub = (uint32_t)a[0] & 0xffff, version = (uint32_t)a[0] >> 16;
	uint32_t ptr = (uint32_t)a[4], word = 0, kludge[2] = { 0, 0 };
	const unsigned char *src;

	if (sub >= ARRAY_SIZE(ipc_ids) || !ipc_ids[sub])
		return -ENOSYS;
	start(out, (enum sg_carried_id)(ipc_ids[sub] - 1));
	src = ipc_sources[out->id];
	for (unsigned i = 0; i < out->nargs; i++) {
		uint32_t v = 0;

		switch (src[i]) {
		case SRC_FIRST: v = (uint32_t)a[1]; break;
		case SRC_SECOND: v = (uint32_t)a[2]; break;
		case SRC_THIRD: v = (uint32_t)a[3]; break;
		case SRC_PTR: v = ptr; break;
		case SRC_FIFTH: v = (uint32_t)a[5]; break;
		case SRC_AT_PTR:
			if (!ptr)
				out->early = -EINVAL;
			else if (read(mm, &word, ptr, sizeof(word)))
				return -EFAULT;
			v = word;
			break;
		case SRC_KLUDGE_MSGP:
		case SRC_KLUDGE_MSGTYP:
			if (version != 0) {
				v = src[i] == SRC_KLUDGE_MSGP ? ptr : (uint32_t)a[5];
				break;
			}
			if (!ptr)
				return -EINVAL;
			if (read(mm, kludge, ptr, sizeof(kludge)))
				return -EFAULT;
			v = kludge[src[i] == SRC_KLUDGE_MSGP ? 0 : 1];
			break;
		default:
			break;
		}
		out->args[i] = v;
	}
	if (out->id == SG_CARRIED_IPC_SHMAT) {
		out->result_at = (uint32_t)a[3]; /* third */
		if (version == 1) /* iBCS2's shmat: not on x86 */
			out->early = -EINVAL;
	}
	return 0;
}
