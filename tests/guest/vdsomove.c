/* The i386 vDSO moved by mremap (as the selftest test_mremap_vdso does):
 * the kernel returns from a SYSENTER to the moved landing pad (the mremap
 * itself is made through the old __kernel_vsyscall), later SYSENTERs
 * through the moved __kernel_vsyscall come back, and a handler without
 * SA_RESTORER returns through the moved vDSO's restorer. A partial move is
 * EINVAL (the vDSO is not split). The child uses raw int $0x80 after the
 * move (glibc keeps the old __kernel_vsyscall) and reports in its exit
 * status. Where the host cannot run i386 programs the reference is the
 * x86_64 build under E2E_REF_TWIN=1, where neither run does this. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __i386__
#include <signal.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile int handled;

static void on_usr1(int sig)
{
	handled = sig;
}

static long via(unsigned long fn, long nr, long b, long c, long d, long s, long di)
{
	long r;

	__asm__ volatile("call *%[fn]"
			 : "=a"(r)
			 : [fn] "m"(fn), "0"(nr), "b"(b), "c"(c), "d"(d), "S"(s), "D"(di)
			 : "memory");
	return r;
}

static long int80(long nr, long b, long c, long d)
{
	long r;

	__asm__ volatile("int $0x80" : "=a"(r) : "0"(nr), "b"(b), "c"(c), "d"(d) : "memory");
	return r;
}

static int child(void)
{
	unsigned long base = getauxval(AT_SYSINFO_EHDR), entry = getauxval(AT_SYSINFO);
	unsigned long size = 0, lo, hi, dest;
	struct sigaction sa;
	char line[256];
	int status = 0, pid = getpid();
	long r;
	FILE *maps = fopen("/proc/self/maps", "r");

	while (maps && fgets(line, sizeof(line), maps))
		if (strstr(line, "[vdso]") && sscanf(line, "%lx-%lx", &lo, &hi) == 2)
			size = hi - lo;
	if (maps)
		fclose(maps);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL); /* no SA_RESTORER: the vDSO's */
	dest = (unsigned long)mmap(NULL, size + 4096, PROT_NONE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (size > 4096 && mremap((void *)base, 4096, 4096, MREMAP_MAYMOVE | MREMAP_FIXED,
				  (void *)dest) != MAP_FAILED)
		status |= 1; /* a part moved */
	/* mremap(base, size, size, MAYMOVE|FIXED, dest) through the old vDSO */
	r = via(entry, 163, (long)base, (long)size, (long)size, 3, (long)dest);
	if (r != (long)dest)
		int80(1, 100, 0, 0);
	if (via(entry - base + dest, 20, 0, 0, 0, 0, 0) != pid) /* getpid */
		status |= 2;
	int80(270, pid, pid, SIGUSR1); /* tgkill */
	if (handled != SIGUSR1)
		status |= 4;
	int80(1, status, 0, 0); /* exit */
	return 99;
}

static void run(void)
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(child());
	waitpid(pid, &status, 0);
	if (WIFSIGNALED(status)) {
		printf("child killed by signal %d\n", WTERMSIG(status));
		return;
	}
	status = WEXITSTATUS(status);
	if (status == 100) {
		printf("mremap of the vDSO failed\n");
		return;
	}
	printf("part of the vDSO moved: %s\n", status & 1 ? "yes" : "no (EINVAL)");
	printf("SYSENTER through the moved vDSO: %s\n", status & 2 ? "wrong" : "returned");
	printf("handler returned through the moved restorer: %s\n",
	       status & 4 ? "no" : "yes");
}
#endif

int main(void)
{
#ifdef __i386__
	if (!getenv("E2E_REF_TWIN"))
		run();
#endif
	printf("done\n");
	return 0;
}
