/* threads: two threads, each writing its own line, joined by the main
 * thread; the output order is fixed by joining in turn. Each thread
 * first sleeps 200 ms, so that the main thread is already waiting in
 * pthread_join (its futex wait is in the trace) natively and under
 * sysgate alike: which comes first is timing, not the trace (50 ms was
 * the margin once; the ASan suite on a loaded host starves threads for
 * longer than that). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t turn = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg)
{
	const char *line = arg;
	struct timespec wait = { 0, 200 * 1000 * 1000 };

	nanosleep(&wait, NULL);
	pthread_mutex_lock(&turn);
	write(1, line, strlen(line));
	pthread_mutex_unlock(&turn);
	return NULL;
}

int main(void)
{
	pthread_t t;

	pthread_create(&t, NULL, worker, "thread one\n");
	pthread_join(t, NULL);
	pthread_create(&t, NULL, worker, "thread two\n");
	pthread_join(t, NULL);
	write(1, "main done\n", 10);
	return 0;
}
