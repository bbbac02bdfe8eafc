/* System V IPC calls as strace 6.1 shows them: keys (IPC_PRIVATE or hex),
 * the get calls' flags with the permission bits ("IPC_CREAT|0600"), the
 * ctl commands (IPC_64| when the program asks for the 64-bit layout),
 * semop's sembuf array, msgsnd/msgrcv's message, shmctl's shmid_ds. The
 * flag and command names come from generated sets (kinds.in). */
#include <string.h>
#include <sys/sem.h>
#include <sys/shm.h>

#include "syscall/compat/compat.h"
#include "trace/trace_internal.h"


bool tk_ipckey(const struct targ *a, uint64_t v)
{
	int32_t key = (int32_t)(uint32_t)v;

	if (key == 0) /* IPC_PRIVATE */
		tl_puts(a->l, "IPC_PRIVATE");
	else
		tl_printf(a->l, "%#x", (uint32_t)key);
	return true;
}

/* "IPC_CREAT|IPC_EXCL|0600"; no flags: the mode alone ("000"). */
bool tk_ipcmode(const struct targ *a, uint64_t v)
{
	uint32_t f = (uint32_t)v;

	if (f & ~0777u) {
		tprint_flags(a->l, &xlat_ipcgetfl, f & ~0777u);
		tl_putc(a->l, '|');
	}
	tl_printf(a->l, "%#03o", f & 0777u);
	return true;
}

static void print_ctl_cmd(const struct targ *a, const struct xlat *x, uint64_t v)
{
	uint32_t cmd = (uint32_t)v;

	if (cmd & COMPAT_IPC_64)
		tl_puts(a->l, "IPC_64|");
	tprint_enum(a->l, x, (int32_t)(cmd & ~(uint32_t)COMPAT_IPC_64));
}

bool tk_shmctlcmd(const struct targ *a, uint64_t v)
{
	print_ctl_cmd(a, &xlat_shmcmd, v);
	return true;
}

bool tk_semctlcmd(const struct targ *a, uint64_t v)
{
	print_ctl_cmd(a, &xlat_semcmd, v);
	return true;
}

bool tk_msgctlcmd(const struct targ *a, uint64_t v)
{
	print_ctl_cmd(a, &xlat_msgcmd, v);
	return true;
}

/* [{sem_num=0, sem_op=1, sem_flg=SEM_UNDO|IPC_NOWAIT}, ...]: u16, s16,
 * s16 on every ABI; the count is the next argument. */
bool tk_sembuf(const struct targ *a, uint64_t v)
{
	uint64_t addr = targ_ulong(a, v);
	uint64_t n = targ_ulong(a, a->call->args[a->i + 1]);

	unsigned char b[sizeof(struct sembuf)];

	if (!n || !tread(a, b, addr, sizeof(b))) {
		tprint_ptr(a->l, addr);
		return true;
	}
	tl_putc(a->l, '[');
	for (uint64_t i = 0; i < n; i++) {
		if (i == TRACE_MAX_ELEMS) {
			tl_puts(a->l, ", ...");
			break;
		}
		if (!tread(a, b, addr + sizeof(b) * i, sizeof(b)))
			break;
		tl_printf(a->l, "%s{sem_num=%u, sem_op=%d, sem_flg=", i ? ", " : "",
			  (unsigned)GUEST_FIELD(b, struct sembuf, sem_num),
			  (int16_t)GUEST_FIELD(b, struct sembuf, sem_op));
		tprint_flags(a->l, &xlat_semflg, (uint16_t)GUEST_FIELD(b, struct sembuf, sem_flg));
		tl_putc(a->l, '}');
	}
	tl_putc(a->l, ']');
	return true;
}

/* {mtype=1, mtext="hello"}: a guest long, then len bytes of text. */
static void print_msgbuf(const struct targ *a, uint64_t addr, uint64_t len)
{
	unsigned w = guest_long_bytes(targ_table(a));
	int64_t type = 0;

	if (!tread(a, &type, addr, w)) {
		tprint_ptr(a->l, addr);
		return;
	}
	if (w == 4)
		type = (int32_t)type;
	tl_printf(a->l, "{mtype=%lld, mtext=", (long long)type);
	tprint_buf(a, addr + w, len, false);
	tl_putc(a->l, '}');
}

bool tk_msgbuf(const struct targ *a, uint64_t v)
{
	print_msgbuf(a, targ_ulong(a, v), targ_ulong(a, a->call->args[a->i + 1]));
	return true;
}

/* msgrcv: what it received, shown with the size asked for (strace does) */
bool tk_omsgbuf(const struct targ *a, uint64_t v)
{
	print_msgbuf(a, targ_ulong(a, v), targ_ulong(a, a->call->args[a->i + 1]));
	return true;
}

/* shmctl's buffer: IPC_STAT's shmid_ds in the 64-bit layout (x86_64 and
 * x32, the host's struct shmid_ds); the address otherwise. */
bool tk_oshmidds(const struct targ *a, uint64_t v)
{
	uint64_t addr = targ_ulong(a, v);
	uint32_t cmd = (uint32_t)a->call->args[1] & ~(uint32_t)COMPAT_IPC_64;
	struct shmid_ds ds;

	if (!addr || targ_table(a) == SG_TABLE_I386 ||
	    (cmd != IPC_STAT && cmd != SHM_STAT && cmd != SHM_STAT_ANY) ||
	    !tread(a, &ds, addr, sizeof(ds))) {
		tprint_ptr(a->l, addr);
		return true;
	}
	tl_printf(a->l, "{shm_perm={uid=%u, gid=%u, mode=%#03o, key=%d, cuid=%u, cgid=%u}, "
		  "shm_segsz=%llu, shm_cpid=%d, shm_lpid=%d, shm_nattch=%llu, "
		  "shm_atime=%lld, shm_dtime=%lld, shm_ctime=%lld}",
		  ds.shm_perm.uid, ds.shm_perm.gid, (unsigned)ds.shm_perm.mode,
		  (int)ds.shm_perm.__key, ds.shm_perm.cuid, ds.shm_perm.cgid,
		  (unsigned long long)ds.shm_segsz, ds.shm_cpid, ds.shm_lpid,
		  (unsigned long long)ds.shm_nattch, (long long)ds.shm_atime,
		  (long long)ds.shm_dtime, (long long)ds.shm_ctime);
	return true;
}
