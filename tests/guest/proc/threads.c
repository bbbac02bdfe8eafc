/* Threads: 8 threads on LOCK-prefixed atomics, a mutex/condvar ping-pong,
 * create/join churn, thread-local storage, signals sent to one thread,
 * a thread's exit beside a running main, and exit_group from a thread
 * while others block. Output is compared with a native run. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <sched.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define NTHREADS 8
#define ITERS 20000

static long counter;
static long xadd_total;
static __thread int tls_value;

static void *atomics(void *arg)
{
	long id = (long)arg;

	tls_value = (int)id;
	for (int i = 0; i < ITERS; i++) {
		__atomic_fetch_add(&counter, 1, __ATOMIC_SEQ_CST);
		__sync_fetch_and_add(&xadd_total, id);
		long old = __atomic_load_n(&counter, __ATOMIC_RELAXED);

		/* CMPXCHG loop */
		while (!__atomic_compare_exchange_n(&counter, &old, old + 1, 0,
						    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
			;
		__atomic_fetch_sub(&counter, 1, __ATOMIC_SEQ_CST);
	}
	return (void *)(long)(tls_value == (int)id);
}

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int turn, rounds;

static void *pong(void *arg)
{
	int me = (int)(long)arg;

	for (;;) {
		pthread_mutex_lock(&mu);
		while (turn != me && rounds < 2000)
			pthread_cond_wait(&cv, &mu);
		if (rounds >= 2000) {
			pthread_mutex_unlock(&mu);
			return NULL;
		}
		rounds++;
		turn = !me;
		pthread_cond_broadcast(&cv);
		pthread_mutex_unlock(&mu);
	}
}

static void *nothing(void *arg)
{
	return arg;
}

static volatile int usr1_tid_ok, usr1_hits;
static pthread_t target;

static void on_usr1(int sig)
{
	(void)sig;
	usr1_tid_ok = pthread_equal(pthread_self(), target);
	usr1_hits++;
}

static void *waiter(void *arg)
{
	(void)arg;
	while (!usr1_hits)
		usleep(1000);
	return NULL;
}

static void *spinner(void *arg)
{
	(void)arg;
	while (!usr1_hits)
		;
	return NULL;
}

static void *early_exit(void *arg)
{
	(void)arg;
	pthread_exit((void *)7);
}

static void *block_forever(void *arg)
{
	(void)arg;
	while (arg == NULL)
		pause();
	return NULL;
}

static void *exit_group_from_thread(void *arg)
{
	(void)arg;
	usleep(10000);
	printf("exit from a thread\n");
	exit(5);
}

/* clone(CLONE_PARENT_SETTID): the kernel writes the tid before clone
 * returns in the parent and before the child runs (CLONE_CHILD_SETTID: in
 * the child's memory before it runs). A new process gets it in the
 * parent's memory only: the child's copy was taken before. */
static volatile pid_t ptid_slot, ctid_slot;
static volatile int child_ran, child_saw_ptid, child_saw_ctid;

static int settid_child(void *arg)
{
	pid_t me = (pid_t)syscall(SYS_gettid);

	(void)arg;
	child_saw_ptid = ptid_slot == me;
	child_saw_ctid = ctid_slot == me;
	__atomic_store_n(&child_ran, 1, __ATOMIC_RELEASE);
	syscall(SYS_exit, 0); /* this thread only */
	return 0;
}

static int settid_process(void *arg)
{
	(void)arg;
	_exit(ptid_slot == 0 ? 0 : 1);
}

static void test_settid(void)
{
	static char stack[65536] __attribute__((aligned(16)));
	int flags = CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD |
		    CLONE_SYSVSEM | CLONE_PARENT_SETTID | CLONE_CHILD_SETTID |
		    CLONE_CHILD_CLEARTID;
	int ok = 0, st;
	pid_t tid;

	for (int i = 0; i < 50; i++) {
		ptid_slot = ctid_slot = 0;
		child_ran = 0;
		tid = clone(settid_child, stack + sizeof(stack), flags, NULL, &ptid_slot, NULL,
			    &ctid_slot);
		int parent_saw = tid > 0 && ptid_slot == tid;

		while (!__atomic_load_n(&child_ran, __ATOMIC_ACQUIRE))
			;
		for (pid_t v; (v = ctid_slot) != 0;)
			syscall(SYS_futex, &ctid_slot, FUTEX_WAIT, v, NULL, NULL, 0);
		ok += parent_saw && child_saw_ptid && child_saw_ctid;
	}
	printf("CLONE_PARENT_SETTID thread: %d of 50 (parent at return, child at start)\n", ok);
	ptid_slot = 0;
	tid = clone(settid_process, stack + sizeof(stack), SIGCHLD | CLONE_PARENT_SETTID, NULL,
		    &ptid_slot);
	printf("CLONE_PARENT_SETTID process: parent has it=%d", tid > 0 && ptid_slot == tid);
	waitpid(tid, &st, 0);
	printf(" child's copy untouched=%d\n", WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

int main(void)
{
	pthread_t th[NTHREADS];
	void *ret;
	int ok = 0;
	struct sigaction sa;

	setvbuf(stdout, NULL, _IONBF, 0);
	for (long i = 0; i < NTHREADS; i++)
		pthread_create(&th[i], NULL, atomics, (void *)i);
	for (int i = 0; i < NTHREADS; i++) {
		pthread_join(th[i], &ret);
		ok += (int)(long)ret;
	}
	printf("atomics: counter=%ld xadd=%ld tls ok=%d\n", counter, xadd_total, ok);

	pthread_create(&th[0], NULL, pong, (void *)0);
	pthread_create(&th[1], NULL, pong, (void *)1);
	pthread_join(th[0], NULL);
	pthread_join(th[1], NULL);
	printf("ping-pong: rounds=%d\n", rounds);

	ok = 0;
	for (long i = 0; i < 200; i++) {
		pthread_t t;

		if (pthread_create(&t, NULL, nothing, (void *)i) == 0 &&
		    pthread_join(t, &ret) == 0 && ret == (void *)i)
			ok++;
	}
	printf("churn: %d of 200\n", ok);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	pthread_create(&target, NULL, waiter, NULL);
	usleep(5000);
	pthread_kill(target, SIGUSR1);
	pthread_join(target, NULL);
	printf("pthread_kill to a sleeper: hits=%d right thread=%d\n", usr1_hits, usr1_tid_ok);
	usr1_hits = 0;
	pthread_create(&target, NULL, spinner, NULL);
	usleep(5000);
	pthread_kill(target, SIGUSR1);
	pthread_join(target, NULL);
	printf("pthread_kill to a spinner: hits=%d right thread=%d\n", usr1_hits, usr1_tid_ok);

	test_settid();

	pthread_create(&th[0], NULL, early_exit, NULL);
	pthread_join(th[0], &ret);
	printf("pthread_exit: %ld\n", (long)ret);

	pthread_create(&th[0], NULL, block_forever, NULL);
	pthread_create(&th[1], NULL, exit_group_from_thread, NULL);
	for (;;)
		pause();
}
