/* glibc's own signals in a threaded guest: SIGSETXID (33), which
 * setuid/setgid/setgroups broadcast to every thread so all of them change
 * their credentials (the kernel's are per thread), and SIGCANCEL (32),
 * which pthread_cancel sends. Each thread reads its own credentials with a
 * raw system call; cancelled threads run their cleanup handlers and join
 * as PTHREAD_CANCELED. As root the ids really change; otherwise the calls
 * set the ids a process already has (still broadcast). */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define NTHREADS 3

static pthread_barrier_t ready, changed, checked;
static gid_t want_gid;
static uid_t want_uid;
static gid_t want_group;

/* Each worker reports its own thread's credentials after every change. */
static void *worker(void *arg)
{
	int id = (int)(long)arg;

	pthread_barrier_wait(&ready);
	pthread_barrier_wait(&changed);
	{
		gid_t groups[8];
		long n = syscall(SYS_getgroups, 8, groups);
		long egid = syscall(SYS_getegid);
		long euid = syscall(SYS_geteuid);

		/* print in thread order through the barrier sequence */
		for (int turn = 0; turn < NTHREADS; turn++) {
			if (turn == id)
				printf("thread %d: egid %s, euid %s, groups %s\n", id,
				       (gid_t)egid == want_gid ? "changed" : "OLD",
				       (uid_t)euid == want_uid ? "changed" : "OLD",
				       n == 1 && groups[0] == want_group ? "changed" : "OLD");
			fflush(stdout);
			pthread_barrier_wait(&checked);
		}
	}
	return NULL;
}

static void setxid_broadcast(void)
{
	pthread_t th[NTHREADS];
	int root = geteuid() == 0;

	want_gid = root ? 4321 : getegid();
	want_uid = root ? 4322 : geteuid();
	want_group = root ? 4323 : getegid();
	pthread_barrier_init(&ready, NULL, NTHREADS + 1);
	pthread_barrier_init(&changed, NULL, NTHREADS + 1);
	pthread_barrier_init(&checked, NULL, NTHREADS + 1);
	for (long i = 0; i < NTHREADS; i++)
		pthread_create(&th[i], NULL, worker, (void *)i);
	pthread_barrier_wait(&ready);
	/* every call below is broadcast with SIGSETXID */
	printf("setgroups: %d\n", setgroups(1, &want_group));
	printf("setresgid: %d\n", setresgid(-1, want_gid, -1));
	printf("setresuid: %d\n", setresuid(-1, want_uid, -1));
	fflush(stdout);
	pthread_barrier_wait(&changed);
	for (int turn = 0; turn < NTHREADS; turn++)
		pthread_barrier_wait(&checked);
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(th[i], NULL);
	/* back again (the saved ids allow it), broadcast once more */
	printf("restore uid: %d\n", setresuid(-1, getuid(), -1));
	printf("restore gid: %d\n", setresgid(-1, getgid(), -1));
}

static int pipefd[2];
static volatile int cleanups;

static void cleanup(void *what)
{
	printf("cleanup: %s\n", (const char *)what);
	fflush(stdout);
	cleanups++;
}

/* deferred cancellation: blocked in read(), a cancellation point */
static void *blocked_reader(void *arg)
{
	char c;

	(void)arg;
	pthread_cleanup_push(cleanup, "reader");
	pthread_barrier_wait(&ready);
	read(pipefd[0], &c, 1);
	pthread_cleanup_pop(0);
	return (void *)1;
}

/* asynchronous cancellation while spinning */
static void *spinner(void *arg)
{
	volatile unsigned long n = 0;

	(void)arg;
	pthread_cleanup_push(cleanup, "spinner");
	pthread_setcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, NULL);
	pthread_barrier_wait(&ready);
	for (;;)
		n++;
	pthread_cleanup_pop(0);
	return NULL;
}

/* deferred, in a sleep (nanosleep is a cancellation point) */
static void *sleeper(void *arg)
{
	(void)arg;
	pthread_cleanup_push(cleanup, "sleeper");
	pthread_barrier_wait(&ready);
	sleep(100);
	pthread_cleanup_pop(0);
	return (void *)1;
}

static void cancel_one(const char *name, void *(*fn)(void *))
{
	pthread_t th;
	void *ret = NULL;

	pthread_barrier_init(&ready, NULL, 2);
	pthread_create(&th, NULL, fn, NULL);
	pthread_barrier_wait(&ready);
	usleep(20000); /* let it block or spin */
	int cancelled = pthread_cancel(th);
	int joined = pthread_join(th, &ret);

	/* after the join: the cleanup handler's line comes first */
	printf("%s: cancel %d, join %d, %s\n", name, cancelled, joined,
	       ret == PTHREAD_CANCELED ? "canceled" : "returned");
	fflush(stdout);
	pthread_barrier_destroy(&ready);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	setxid_broadcast();
	if (pipe(pipefd))
		return 1;
	cancel_one("reader", blocked_reader);
	cancel_one("spinner", spinner);
	cancel_one("sleeper", sleeper);
	printf("cleanups: %d\n", cleanups);
	return 0;
}
