/* The threaded program of the gdb tests (tests/e2e/gdb): a brief thread
 * that starts and ends between two of gdb's stops (gdb hears of it only
 * from a thread create event: "[New Thread ...]", and it takes a thread
 * number), then two workers, both created before either works, that
 * each stop at a breakpoint in work(), in a fixed order (worker 1 waits
 * for worker 0's turn to end), so that gdb natively and gdb under sysgate
 * see the same sequence. */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>

static int results[2];
static volatile int turn = -1;

__attribute__((noinline)) static int work(int id)
{
	int v = id * 10 + 7; /* MARK: work */
	return v;
}

static void *worker(void *arg)
{
	int id = (int)(long)arg;

	while (__atomic_load_n(&turn, __ATOMIC_ACQUIRE) != id)
		sched_yield();
	results[id] = work(id);
	__atomic_store_n(&turn, id + 1, __ATOMIC_RELEASE);
	return NULL;
}

static void *brief(void *arg)
{
	return arg;
}

int main(void)
{
	pthread_t th[2];

	pthread_create(&th[0], NULL, brief, NULL);
	pthread_join(th[0], NULL);
	for (long i = 0; i < 2; i++)
		pthread_create(&th[i], NULL, worker, (void *)i);
	__atomic_store_n(&turn, 0, __ATOMIC_RELEASE);
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	printf("results %d %d\n", results[0], results[1]);
	return 0; /* MARK: joined */
}
