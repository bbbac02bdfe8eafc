/* A signal's action changed by another thread while the signal is being
 * delivered (CPython's test_signal.test_stress_modifying_handlers): one
 * thread sends itself SIGUSR1 over and over, the main thread switches
 * SIGUSR1 between a handler and SIG_IGN as fast as it can. Natively the
 * kernel reads the action once, under its lock, for each delivery: the
 * signal runs the handler or is dropped, never anything else. sysgate
 * once read the handler twice (to decide, then to build the frame), so a
 * change in between ran SIG_IGN's value, 1, as the handler: SIGSEGV at
 * address 1. Prints what it did, the same natively in every run. */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

enum { SENDS = 300000 };

static volatile int done;
static volatile unsigned long handled;

static void on_usr1(int sig)
{
	(void)sig;
	handled++;
}

static void *sender(void *arg)
{
	pid_t pid = getpid(), tid = (pid_t)syscall(SYS_gettid);

	(void)arg;
	for (int k = 0; k < SENDS; k++)
		syscall(SYS_tgkill, pid, tid, SIGUSR1);
	done = 1;
	return NULL;
}

int main(void)
{
	struct sigaction catch_it, ignore_it;
	pthread_t th;

	memset(&catch_it, 0, sizeof(catch_it));
	catch_it.sa_handler = on_usr1;
	memset(&ignore_it, 0, sizeof(ignore_it));
	ignore_it.sa_handler = SIG_IGN;
	sigaction(SIGUSR1, &catch_it, NULL);
	if (pthread_create(&th, NULL, sender, NULL)) {
		printf("pthread_create failed\n");
		return 1;
	}
	do {
		sigaction(SIGUSR1, &ignore_it, NULL);
		sigaction(SIGUSR1, &catch_it, NULL);
	} while (!done);
	pthread_join(th, NULL);
	printf("%d signals sent while the action switched\n", SENDS);
	return 0;
}
