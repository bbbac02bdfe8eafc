/* PR_SET_TSC/PR_GET_TSC, kept by the kernel per thread (TIF_NOTSC): with
 * PR_TSC_SIGSEGV the thread's RDTSC and RDTSCP raise SIGSEGV (SI_KERNEL,
 * si_addr 0); the mode is inherited by threads and fork children and kept
 * across execve. Under sysgate the mode is the guest's own state: the
 * raw clock_gettime and nanosleep after it must still work (handed to the
 * host, sysgate crashed on its own next TSC read). Output is the same for
 * every ABI. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static sigjmp_buf jump;
static volatile int got_code;
static volatile long got_addr;

static void on_segv(int sig, siginfo_t *info, void *uc)
{
	(void)sig; (void)uc;
	got_code = info->si_code;
	got_addr = (long)info->si_addr;
	siglongjmp(jump, 1);
}

static void try_tsc(const char *who, int rdtscp)
{
	unsigned lo = 0, hi = 0, aux = 0;

	if (!sigsetjmp(jump, 1)) {
		if (rdtscp)
			__asm__ volatile("rdtscp" : "=a"(lo), "=d"(hi), "=c"(aux));
		else
			__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
		printf("%s: %s runs\n", who, rdtscp ? "rdtscp" : "rdtsc");
	} else {
		printf("%s: %s: SIGSEGV si_code %d si_addr %ld\n", who,
		       rdtscp ? "rdtscp" : "rdtsc", got_code, got_addr);
	}
	fflush(stdout);
}

static void print_mode(const char *who)
{
	int mode = -1;
	long r = prctl(PR_GET_TSC, &mode, 0, 0, 0);

	printf("%s: PR_GET_TSC = %ld, mode %d\n", who, r, mode);
	fflush(stdout);
}

static void *thread_main(void *arg)
{
	print_mode("thread");
	try_tsc("thread", 0);
	return arg;
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	struct timespec ts, nap = { 0, 1000 };
	pthread_t th;
	int status;
	long r;
	pid_t pid;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSEGV, &sa, NULL);

	if (argc > 1 && !strcmp(argv[1], "after-exec")) {
		print_mode("after exec");
		try_tsc("after exec", 0);
		return 0;
	}
	print_mode("start");
	try_tsc("start", 0);
	try_tsc("start", 1);
	errno = 0;
	r = prctl(PR_SET_TSC, 0, 0, 0, 0);
	printf("PR_SET_TSC 0 = %ld errno %d\n", r, errno);
	errno = 0;
	r = prctl(PR_SET_TSC, 3, 0, 0, 0);
	printf("PR_SET_TSC 3 = %ld errno %d\n", r, errno);
	errno = 0;
	r = prctl(PR_GET_TSC, (int *)8, 0, 0, 0);
	printf("PR_GET_TSC at 8 = %ld errno %d\n", r, errno);

	r = prctl(PR_SET_TSC, PR_TSC_SIGSEGV, 0, 0, 0);
	printf("PR_SET_TSC PR_TSC_SIGSEGV = %ld\n", r);
	print_mode("disabled");
	try_tsc("disabled", 0);
	try_tsc("disabled", 1);
	/* raw calls: not the vDSO, whose clock reads may use RDTSC natively */
	r = syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts);
	printf("clock_gettime = %ld\n", r);
	r = syscall(SYS_nanosleep, &nap, NULL);
	printf("nanosleep = %ld\n", r);
	fflush(stdout);

	pthread_create(&th, NULL, thread_main, NULL);
	pthread_join(th, NULL);
	pid = fork();
	if (pid == 0) {
		print_mode("fork child");
		try_tsc("fork child", 0);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	pid = fork();
	if (pid == 0) {
		execl("/proc/self/exe", argv[0], "after-exec", (char *)NULL);
		_exit(127);
	}
	waitpid(pid, &status, 0);
	printf("exec child status %d\n", status);

	r = prctl(PR_SET_TSC, PR_TSC_ENABLE, 0, 0, 0);
	printf("PR_SET_TSC PR_TSC_ENABLE = %ld\n", r);
	print_mode("enabled");
	try_tsc("enabled", 0);
	try_tsc("enabled", 1);
	return 0;
}
