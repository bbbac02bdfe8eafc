/* A read or write of a file mapping's page past the end of the file:
 * SIGBUS with BUS_ADRERR and the address (a handled one, then one that
 * kills a child, and a call into such a page); the partial page before it
 * reads as zeros; system calls given a buffer there answer EFAULT (the
 * kernel's copy fails; sysgate's own copy must not kill it). Usage:
 * sys_sigbus DIR. */
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include "sys.h"

static sigjmp_buf back;
static volatile int got_sig, got_code;
static volatile uintptr_t got_addr;

static void on_bus(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	got_sig = sig;
	got_code = si->si_code;
	got_addr = (uintptr_t)si->si_addr;
	siglongjmp(back, 1);
}

static const char *code_name(int sig, int code)
{
	if (sig == SIGBUS && code == BUS_ADRERR)
		return "BUS_ADRERR";
	if (sig == SIGSEGV && code == SEGV_MAPERR)
		return "SEGV_MAPERR";
	if (sig == SIGSEGV && code == SEGV_ACCERR)
		return "SEGV_ACCERR";
	return "other";
}

/* Touch p (read or write) under the handler; print what arrived. */
static void touch(const char *label, volatile char *base, size_t off, int write)
{
	got_sig = 0;
	if (sigsetjmp(back, 1) == 0) {
		if (write)
			base[off] = 1;
		else
			(void)base[off];
	}
	printf("%s: signal %d %s, at base+%ld\n", label, got_sig,
	       got_sig ? code_name(got_sig, got_code) : "-",
	       got_sig ? (long)(got_addr - (uintptr_t)base) : 0L);
}

int main(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE);
	struct sigaction sa;
	char path[4096];
	volatile char *m;
	int fd, status;
	pid_t pid;

	if (argc < 2)
		return 2;
	snprintf(path, sizeof(path), "%s/short", argv[1]);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, "0123456789", 10) != 10)
		return 3;
	m = mmap(NULL, (size_t)page * 3, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED)
		return 4;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_bus;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGSEGV, &sa, NULL);

	printf("in file: %c, after its end in the page: %d\n", m[5], m[100]);
	touch("read past EOF", m, (size_t)page + 8, 0);
	touch("write past EOF", m, (size_t)page * 2 + 16, 1);
	/* a private mapping too */
	volatile char *pm = mmap(NULL, (size_t)page * 2, PROT_READ, MAP_PRIVATE, fd, 0);
	touch("private read past EOF", pm, (size_t)page + 1, 0);
	/* buffers past the end of the file */
	CHECK("rt_sigaction from there", syscall(SYS_rt_sigaction, SIGUSR1, m + page + 64,
						 NULL, 8));
	/* (not clock_gettime: natively the vDSO's own store raises SIGBUS,
	 * sysgate's vDSO functions answer EFAULT for a bad buffer) */
	CHECK("uname into there", syscall(SYS_uname, m + page));
	CHECK("write from there", write(1, (const char *)m + page, 8));
	/* code there */
	pid = fork();
	if (pid == 0) {
		signal(SIGBUS, SIG_DFL);
		signal(SIGSEGV, SIG_DFL);
		((void (*)(void))(m + page * 2))();
		_exit(0);
	}
	waitpid(pid, &status, 0);
	printf("call there: %s %d\n", WIFSIGNALED(status) ? "killed by" : "exit",
	       WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
	/* the file grows: the page is there now */
	CHECK("ftruncate", ftruncate(fd, page * 2));
	touch("read after growing", m, (size_t)page + 8, 0);

	/* unhandled: the child dies of SIGBUS */
	pid = fork();
	if (pid == 0) {
		signal(SIGBUS, SIG_DFL);
		signal(SIGSEGV, SIG_DFL);
		(void)m[page * 2 + 1];
		_exit(0);
	}
	waitpid(pid, &status, 0);
	printf("child: %s %d\n", WIFSIGNALED(status) ? "killed by" : "exit",
	       WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
	return 0;
}
