/* runner (host): run a command K times, each with the given stdin, stdout
 * and stderr files and a time limit, and print one line:
 *
 *	<wall seconds per run> <peak RSS KiB> <ok | exit N | signal N>
 *
 * Wall time is CLOCK_MONOTONIC around fork..wait4; the peak RSS is the
 * largest ru_maxrss wait4 reported (the command's own process). The first
 * run that fails stops the loop and is the status. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void redirect(const char *path, int fd, int flags)
{
	int f;

	if (!path)
		return;
	f = open(path, flags, 0644);
	if (f < 0 || dup2(f, fd) < 0) {
		fprintf(stderr, "runner: %s: %s\n", path, strerror(errno));
		_exit(126);
	}
	close(f);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	const char *in = NULL, *out = NULL, *err = NULL;
	long runs = 1, limit = 0, maxrss = 0, i;
	char status[32] = "ok";
	double start;
	int opt;

	while ((opt = getopt(argc, argv, "+n:t:i:o:e:")) != -1) {
		switch (opt) {
		case 'n': runs = atol(optarg); break;
		case 't': limit = atol(optarg); break;
		case 'i': in = optarg; break;
		case 'o': out = optarg; break;
		case 'e': err = optarg; break;
		default:
			fprintf(stderr, "usage: runner [-n runs] [-t secs] [-i in] [-o out] [-e err] -- cmd...\n");
			return 2;
		}
	}
	if (optind >= argc || runs < 1)
		return 2;
	start = now();
	for (i = 0; i < runs; i++) {
		struct rusage ru;
		int ws;
		pid_t pid = fork();

		if (pid < 0) {
			perror("runner: fork");
			return 1;
		}
		if (pid == 0) {
			redirect(in, 0, O_RDONLY);
			/* Append: the K runs of one measurement share the files. */
			redirect(out, 1, O_WRONLY | O_CREAT | O_APPEND);
			redirect(err, 2, O_WRONLY | O_CREAT | O_APPEND);
			if (limit)
				alarm((unsigned)limit); /* survives exec: SIGALRM ends a hang */
			execvp(argv[optind], argv + optind);
			fprintf(stderr, "runner: %s: %s\n", argv[optind], strerror(errno));
			_exit(127);
		}
		if (wait4(pid, &ws, 0, &ru) < 0) {
			perror("runner: wait4");
			return 1;
		}
		if (ru.ru_maxrss > maxrss)
			maxrss = ru.ru_maxrss;
		if (WIFSIGNALED(ws)) {
			snprintf(status, sizeof(status), "signal %d", WTERMSIG(ws));
			break;
		}
		if (WEXITSTATUS(ws)) {
			snprintf(status, sizeof(status), "exit %d", WEXITSTATUS(ws));
			break;
		}
	}
	printf("%.6f %ld %s\n", (now() - start) / (double)runs, maxrss, status);
	return 0;
}
