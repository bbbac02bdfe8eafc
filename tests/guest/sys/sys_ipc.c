/* System V IPC: message queues, semaphores, shared memory through the
 * direct calls of every ABI; i386 also through ipc(2), every sub-call and
 * its early errors (version 0 and 1 forms, NULL and unmapped pointers).
 * Only results that do not depend on the run are printed (no ids). */
#include "sys.h"

#include <stdint.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>

struct msg8 {
	long mtype;
	char mtext[8];
};

/* shmctl(SHM_INFO) and IPC_INFO while a segment of one written page
 * exists: facts that hold whatever else the system has (other programs'
 * segments), and that a field written at the wrong offset breaks (the
 * structs are filled with 0x55 first). */
static void shm_info_facts(int shm)
{
	struct shm_info info;
	struct shminfo lim;
	int r;

	memset(&info, 0x55, sizeof(info));
	r = shmctl(shm, SHM_INFO, (struct shmid_ds *)&info);
	FACT("shmctl SHM_INFO", r >= 0);
	FACT("shm_info used_ids counts ours", info.used_ids >= 1 && info.used_ids <= r + 1);
	FACT("shm_info shm_tot counts our page", info.shm_tot >= 1);
	FACT("shm_info shm_rss, shm_swp within shm_tot",
	     info.shm_rss >= 1 && info.shm_rss <= info.shm_tot && info.shm_swp <= info.shm_tot);
	FACT("shm_info swap counters 0", info.swap_attempts == 0 && info.swap_successes == 0);
	memset(&lim, 0x55, sizeof(lim));
	r = shmctl(shm, IPC_INFO, (struct shmid_ds *)&lim);
	FACT("shmctl IPC_INFO", r >= 0);
	FACT("shminfo shmmin 1, shmseg shmmni", lim.shmmin == 1 && lim.shmseg == lim.shmmni);
	FACT("shminfo shmmax, shmall", lim.shmmax >= 4096 && lim.shmall >= 1);
}

static void direct(void)
{
	struct msg8 m = { 1, "hello" };
	struct msqid_ds q_ds;
	struct shmid_ds shm_ds;
	struct sembuf op = { 1, -2, IPC_NOWAIT };
	int q = msgget(IPC_PRIVATE, 0600), s, shm;
	char *p;

	FACT("msgget", q >= 0);
	CHECK("msgsnd", msgsnd(q, &m, 6, 0));
	memset(&m, 0, sizeof(m));
	CHECK("msgrcv", msgrcv(q, &m, sizeof(m.mtext), 0, IPC_NOWAIT));
	printf("msg %ld %s\n", m.mtype, m.mtext);
	CHECK("msgrcv empty", msgrcv(q, &m, sizeof(m.mtext), 0, IPC_NOWAIT));
	CHECK("msgctl IPC_STAT", msgctl(q, IPC_STAT, &q_ds));
	printf("msg qnum %lu mode %o\n", (unsigned long)q_ds.msg_qnum,
	       (unsigned)q_ds.msg_perm.mode & 0777);
	CHECK("msgctl IPC_RMID", msgctl(q, IPC_RMID, NULL));

	s = semget(IPC_PRIVATE, 2, 0600);
	FACT("semget", s >= 0);
	CHECK("semctl SETVAL", semctl(s, 1, SETVAL, 5));
	CHECK("semop", semop(s, &op, 1));
	CHECK("semctl GETVAL", semctl(s, 1, GETVAL));
	op.sem_op = -4;
	CHECK("semop would block", semop(s, &op, 1));
	CHECK("semctl IPC_RMID", semctl(s, 0, IPC_RMID));

	shm = shmget(IPC_PRIVATE, 4096, 0600);
	FACT("shmget", shm >= 0);
	p = shmat(shm, NULL, 0);
	FACT("shmat", p != (char *)-1);
	if (p != (char *)-1) {
		strcpy(p, "shared");
		CHECK("shmctl IPC_STAT", shmctl(shm, IPC_STAT, &shm_ds));
		printf("shm size %lu nattch %lu\n", (unsigned long)shm_ds.shm_segsz,
		       (unsigned long)shm_ds.shm_nattch);
		shm_info_facts(shm);
		CHECK("shmdt", shmdt(p));
	}
	CHECK("shmctl IPC_RMID", shmctl(shm, IPC_RMID, NULL));
}

#if defined(__i386__) && defined(SYS_ipc)
/* ipc(2)'s sub-calls: <linux/ipc.h>'s values, which cannot be included
 * next to <sys/ipc.h> (both define struct ipc_perm) */
enum {
	SEMOP = 1, SEMGET, SEMCTL, SEMTIMEDOP,
	MSGSND = 11, MSGRCV, MSGGET, MSGCTL,
	SHMAT = 21, SHMDT, SHMGET, SHMCTL,
};
#define IPC_CALL(version, sub) ((version) << 16 | (sub))
#define IPC_64_CMD 0x0100 /* <linux/ipc.h> IPC_64: the layouts glibc uses */

static long ipc(unsigned call, long first, long second, long third, void *ptr, long fifth)
{
	return syscall(SYS_ipc, call, first, second, third, ptr, fifth);
}

static void multiplexed(void)
{
	struct msg8 m = { 2, "world" };
	struct { void *msgp; long msgtyp; } kludge = { &m, 0 };
	struct msqid_ds q_ds;
	struct sembuf op = { 0, -1, IPC_NOWAIT };
	struct { int32_t sec, nsec; } ts32 = { 0, 1000 };
	void *unmapped = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	void *readonly = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int val = 3;
	uint32_t addr = 0;
	long q, s, shm;

	munmap(unmapped, 4096);
	q = ipc(MSGGET, IPC_PRIVATE, 0600, 0, NULL, 0);
	FACT("ipc msgget", q >= 0);
	CHECK("ipc msgsnd", ipc(MSGSND, q, 6, 0, &m, 0));
	CHECK("ipc msgsnd again", ipc(MSGSND, q, 6, 0, &m, 0));
	memset(&m, 0, sizeof(m));
	CHECK("ipc msgrcv v0", ipc(MSGRCV, q, sizeof(m.mtext), IPC_NOWAIT, &kludge, 0));
	printf("msg %ld %s\n", m.mtype, m.mtext);
	memset(&m, 0, sizeof(m));
	CHECK("ipc msgrcv v1", ipc(IPC_CALL(1, MSGRCV), q, sizeof(m.mtext), IPC_NOWAIT, &m, 2));
	printf("msg %ld %s\n", m.mtype, m.mtext);
	CHECK("ipc msgrcv v0 NULL", ipc(MSGRCV, q, 8, IPC_NOWAIT, NULL, 0));
	CHECK("ipc msgrcv v0 unmapped", ipc(MSGRCV, q, 8, IPC_NOWAIT, unmapped, 0));
	CHECK("ipc msgrcv empty", ipc(IPC_CALL(1, MSGRCV), q, 8, IPC_NOWAIT, &m, 0));
	CHECK("ipc msgctl IPC_STAT", ipc(MSGCTL, q, IPC_STAT | IPC_64_CMD, 0, &q_ds, 0));
	printf("msg qnum %lu mode %o\n", (unsigned long)q_ds.msg_qnum,
	       (unsigned)q_ds.msg_perm.mode & 0777);
	CHECK("ipc msgctl IPC_RMID", ipc(MSGCTL, q, IPC_RMID, 0, NULL, 0));

	s = ipc(SEMGET, IPC_PRIVATE, 1, 0600, NULL, 0);
	FACT("ipc semget", s >= 0);
	CHECK("ipc semctl SETVAL", ipc(SEMCTL, s, 0, SETVAL, &val, 0));
	CHECK("ipc semctl NULL", ipc(SEMCTL, s, 0, GETVAL, NULL, 0));
	CHECK("ipc semctl unmapped", ipc(SEMCTL, s, 0, GETVAL, unmapped, 0));
	CHECK("ipc semop", ipc(SEMOP, s, 1, 0, &op, 0));
	CHECK("ipc semtimedop", ipc(SEMTIMEDOP, s, 1, 0, &op, (long)&ts32));
	CHECK("ipc semctl GETVAL", ipc(SEMCTL, s, 0, GETVAL, &val, 0));
	op.sem_op = -5;
	op.sem_flg = 0;
	CHECK("ipc semtimedop times out", ipc(SEMTIMEDOP, s, 1, 0, &op, (long)&ts32));
	CHECK("ipc semctl IPC_RMID", ipc(SEMCTL, s, 0, IPC_RMID, &val, 0));

	shm = ipc(SHMGET, IPC_PRIVATE, 4096, 0600, NULL, 0);
	FACT("ipc shmget", shm >= 0);
	CHECK("ipc shmat v1", ipc(IPC_CALL(1, SHMAT), shm, 0, (long)&addr, NULL, 0));
	CHECK("ipc shmat", ipc(SHMAT, shm, 0, (long)&addr, NULL, 0));
	FACT("ipc shmat stored an address", addr != 0);
	/* the address cannot be stored: attached all the same, -EFAULT */
	CHECK("ipc shmat to read-only", ipc(SHMAT, shm, SHM_RDONLY, (long)readonly, NULL, 0));
	if (addr) {
		strcpy((char *)(uintptr_t)addr, "shared");
		CHECK("ipc shmdt", ipc(SHMDT, 0, 0, 0, (void *)(uintptr_t)addr, 0));
	}
	CHECK("ipc shmctl IPC_RMID", ipc(SHMCTL, shm, IPC_RMID, 0, NULL, 0));
	CHECK("ipc unknown", ipc(99, 0, 0, 0, NULL, 0));
}
#endif

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	direct();
#if defined(__i386__) && defined(SYS_ipc)
	if (abi_only_checks())
		multiplexed();
#endif
	return 0;
}
