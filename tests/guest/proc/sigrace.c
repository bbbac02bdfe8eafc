/* A signal sent as a thread enters a blocking read: natively its handler
 * runs either before the call or by interrupting it. Here the handler
 * writes the byte the read waits for, so the read always ends; a signal
 * that is held back until the call returns never lets it end. The reader
 * spins a random while between its "ready" and the read, so that the
 * signal lands anywhere on the way in, also between the guest's syscall
 * instruction and the host's call (sig_host_call, docs/signals.md).
 * Usage: sigrace [ITERATIONS [SPINS]] */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

static int ready[2], wake[2], done[2];
static volatile pid_t tid;
static unsigned spins = 3000;

static void on_usr1(int s)
{
	(void)s;
	if (write(wake[1], "h", 1) != 1)
		_exit(3);
}

static void *reader(void *arg)
{
	char c;
	unsigned seed = 1;

	(void)arg;
	tid = syscall(SYS_gettid);
	for (;;) {
		if (write(ready[1], "r", 1) != 1)
			exit(3);
		/* so that the signal comes anywhere on the way into read */
		for (volatile unsigned spin = rand_r(&seed) % spins; spin; spin--)
			;
		while (read(wake[0], &c, 1) != 1)
			if (errno != EINTR)
				exit(4);
		if (write(done[1], "d", 1) != 1)
			exit(3);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2000;
	struct sigaction sa = { .sa_handler = on_usr1 };
	pthread_t th;
	char c;

	if (argc > 2)
		spins = (unsigned)atoi(argv[2]);
	sigaction(SIGUSR1, &sa, NULL);
	if (pipe(ready) || pipe(wake) || pipe(done))
		return 1;
	pthread_create(&th, NULL, reader, NULL);
	for (int i = 0; i < n; i++) {
		struct pollfd p = { done[0], POLLIN, 0 };

		if (read(ready[0], &c, 1) != 1)
			return 2;
		syscall(SYS_tgkill, getpid(), tid, SIGUSR1);
		if (poll(&p, 1, 10000) != 1 || read(done[0], &c, 1) != 1) {
			printf("iteration %d: the read never ended\n", i);
			return 1;
		}
	}
	printf("%d reads ended\n", n);
	return 0;
}
