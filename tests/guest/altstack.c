/* A signal frame that does not fit the alternate stack: the kernel gives
 * SIGSEGV instead of writing below it (get_sigframe's overflow check).
 * A child nests SIGUSR1 handlers (SA_ONSTACK|SA_NODEFER) on an alternate
 * stack twice AT_MINSIGSTKSZ (the largest frame: the first fits) until a frame no longer fits; the default SIGSEGV then
 * kills it. The stack lies in a shared mapping above a guard area, so the
 * parent sees whether anything was written below the stack. The frames'
 * sizes differ (the host's XSAVE area), so the depth reached is not
 * printed, only that it is at least 1.
 * Then AT_MINSIGSTKSZ against the frames really built (the kernel's
 * max_frame_size): a SIGUSR1 frame on a 2049-byte alternate stack (the
 * selftest sigaltstack's) must give SIGSEGV where AT_MINSIGSTKSZ is larger,
 * and fit where it is not. Output is the same for every ABI. */
#define _GNU_SOURCE
#include <signal.h>
#include <sys/auxv.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define GUARD 4096
/* bytes just below the stack a handler's own calls may use when its frame
 * fitted with less room than that (the guest's business, not a frame) */
#define SLACK 256

static volatile int *depth;
static pid_t self;

static void on_usr1(int sig)
{
	(*depth)++;
	syscall(SYS_tgkill, self, self, SIGUSR1);
	(void)sig;
}

static void on_segv(int sig)
{
	depth[1] = 2;
	_exit(0);
	(void)sig;
}

static void on_usr1_once(int sig)
{
	depth[1] = 1;
	(void)sig;
}

/* 1: the frame fitted, 2: SIGSEGV instead */
static int one_frame(unsigned char *stack, size_t size)
{
	struct sigaction sa;
	stack_t ss;
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		memset(&ss, 0, sizeof(ss));
		ss.ss_sp = stack;
		ss.ss_size = size;
		if (sigaltstack(&ss, NULL))
			_exit(2);
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_segv;
		sigaction(SIGSEGV, &sa, NULL);
		sa.sa_handler = on_usr1_once;
		sa.sa_flags = SA_ONSTACK;
		sigaction(SIGUSR1, &sa, NULL);
		raise(SIGUSR1);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	return depth[1];
}

int main(void)
{
	unsigned char *map;
	struct sigaction sa;
	stack_t ss;
	int status, intact = 1;
	unsigned long alt = 2 * getauxval(AT_MINSIGSTKSZ);
	pid_t pid;

	if (alt < 2048)
		alt = 2048;

	map = mmap(NULL, GUARD + alt + 4096, PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		return 1;
	memset(map, 0xa5, GUARD);
	depth = (volatile int *)(map + GUARD + alt);
	pid = fork();
	if (pid == 0) {
		self = getpid();
		memset(&ss, 0, sizeof(ss));
		ss.ss_sp = map + GUARD;
		ss.ss_size = alt;
		if (sigaltstack(&ss, NULL))
			_exit(2);
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_usr1;
		sa.sa_flags = SA_ONSTACK | SA_NODEFER;
		sigaction(SIGUSR1, &sa, NULL);
		syscall(SYS_tgkill, self, self, SIGUSR1);
		_exit(3); /* not reached: the overflow kills */
	}
	waitpid(pid, &status, 0);
	for (int i = 0; i < GUARD - SLACK; i++)
		if (map[i] != 0xa5)
			intact = 0;
	printf("child: %s %d\n", WIFSIGNALED(status) ? "killed by signal" : "exited",
	       WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
	printf("handlers entered: %s\n", *depth >= 1 ? "at least one" : "none");
	printf("below the alternate stack: %s\n", intact ? "untouched" : "written");

	depth[1] = 0;
	status = one_frame(map + GUARD, 2049);
	printf("a frame on a 2049-byte stack agrees with AT_MINSIGSTKSZ: %s\n",
	       status == (getauxval(AT_MINSIGSTKSZ) > 2049 ? 2 : 1) ? "yes" : "no");
	return 0;
}
