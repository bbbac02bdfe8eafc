/* The threaded program of the gdb tests (tests/e2e/gdb): two workers
 * that each stop at a breakpoint in work(), one after the other. */
#include <pthread.h>
#include <stdio.h>

static int results[2];
static pthread_mutex_t turn = PTHREAD_MUTEX_INITIALIZER;

__attribute__((noinline)) static int work(int id)
{
	int v = id * 10 + 7; /* MARK: work */
	return v;
}

static void *worker(void *arg)
{
	int id = (int)(long)arg;

	pthread_mutex_lock(&turn);
	results[id] = work(id);
	pthread_mutex_unlock(&turn);
	return NULL;
}

int main(void)
{
	pthread_t th[2];

	for (long i = 0; i < 2; i++)
		pthread_create(&th[i], NULL, worker, (void *)i);
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	printf("results %d %d\n", results[0], results[1]); /* MARK: joined */
	return 0;
}
