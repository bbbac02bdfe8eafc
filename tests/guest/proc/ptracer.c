/* ptrace between guests: a parent traces its forked child the way
 * stress-ng 0.15's vm-segv does (PTRACE_TRACEME, SIGSTOP, the parent
 * resumes it with PTRACE_SYSCALL until a SIGSEGV stop) and a few more:
 * PTRACE_CONT with and without the stop's signal, a fault's stop with its
 * siginfo, syscall stops with and without PTRACE_O_TRACESYSGOOD, the
 * exec's SIGTRAP, PTRACE_DETACH, PTRACE_KILL, and requests the kernel
 * refuses (ESRCH, EINVAL). Prints one line per event; the native run is
 * the reference (docs/syscalls.md, ptrace between guests). */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static sigjmp_buf back;
/* page 0, which no process maps (mmap_min_addr): read through volatile
 * pointers so the compiler keeps the faulting accesses */
static volatile int *volatile at_0x10 = (volatile int *)0x10;
static volatile int *volatile at_0x20 = (volatile int *)0x20;

static void on_fault(int sig)
{
	(void)sig;
	siglongjmp(back, 1); /* no mask saved: no system call */
}

/* SA_NODEFER: the handler leaves by siglongjmp without a system call and
 * SIGSEGV stays unblocked for the next fault */
static void catch_faults(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_fault;
	sa.sa_flags = SA_NODEFER;
	sigaction(SIGSEGV, &sa, NULL);
}

static void describe(const char *what, int st)
{
	if (WIFSTOPPED(st))
		printf("%s: stopped %#x\n", what, st >> 8);
	else if (WIFEXITED(st))
		printf("%s: exited %d\n", what, WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		printf("%s: killed by %d\n", what, WTERMSIG(st));
	else
		printf("%s: status %#x\n", what, st);
	fflush(stdout);
}

static int wait_for(pid_t pid, const char *what)
{
	int st = 0;

	if (waitpid(pid, &st, 0) != pid)
		printf("%s: waitpid: %s\n", what, strerror(errno));
	else
		describe(what, st);
	return st;
}

static void req(const char *what, long r)
{
	printf("%s: %s\n", what, r < 0 ? strerror(errno) : "ok");
	fflush(stdout);
}

/* the child's start: traced, stopped until its parent says go on */
static void traced_start(void)
{
	ptrace(PTRACE_TRACEME, 0, NULL, NULL);
	kill(getpid(), SIGSTOP);
}

/* vm-segv: the child blocks SIGSEGV and unmaps its address space; the
 * parent steps it with PTRACE_SYSCALL until it stops with SIGSEGV. */
static void vm_segv(void)
{
	pid_t pid = fork();
	int st, stops = 0;

	if (pid == 0) {
		sigset_t set;

		traced_start();
		sigemptyset(&set);
		sigaddset(&set, SIGSEGV);
		sigprocmask(SIG_BLOCK, &set, NULL);
		for (unsigned long len = 1ul << (sizeof(long) * 8 - 2); len > 4096; len >>= 1)
			munmap(NULL, len);
		_exit(1);
	}
	st = wait_for(pid, "vm-segv start");
	req("vm-segv setoptions", ptrace(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACESYSGOOD));
	for (;;) {
		if (ptrace(PTRACE_SYSCALL, pid, 0, 0) < 0) {
			printf("vm-segv: PTRACE_SYSCALL: %s\n", strerror(errno));
			break;
		}
		if (waitpid(pid, &st, 0) != pid)
			break;
		if (WIFSTOPPED(st) && WSTOPSIG(st) == (SIGTRAP | 0x80)) {
			stops++;
			continue;
		}
		describe("vm-segv end", st);
		break;
	}
	/* how many depends on the word size: entry and exit in pairs */
	printf("vm-segv: syscall stops in pairs: %d\n", stops >= 2 && stops % 2 == 0);
	kill(pid, SIGTERM);
	kill(pid, SIGKILL);
	wait_for(pid, "vm-segv reaped");
}

/* A fault the interpreter finds (a store to page 0) and one the host
 * raises (a load from it): each stops with its siginfo; let through, the
 * handler runs; suppressed, the instruction faults again. */
static void fault_stops(void)
{
	pid_t pid = fork();
	siginfo_t si;

	if (pid == 0) {
		traced_start();
		catch_faults();
		if (!sigsetjmp(back, 0))
			*at_0x10 = 1;
		if (!sigsetjmp(back, 0))
			(void)*at_0x20;
		if (!sigsetjmp(back, 0))
			__asm__ volatile("ud2");
		_exit(6);
	}
	wait_for(pid, "fault start");
	memset(&si, 0, sizeof(si));
	req("getsiginfo sigstop", ptrace(PTRACE_GETSIGINFO, pid, 0, &si));
	printf("  signo %d code %d from itself %d\n", si.si_signo, si.si_code,
	       si.si_pid == pid);
	req("cont", ptrace(PTRACE_CONT, pid, 0, 0));
	wait_for(pid, "store");
	memset(&si, 0, sizeof(si));
	req("getsiginfo store", ptrace(PTRACE_GETSIGINFO, pid, 0, &si));
	printf("  signo %d code %d addr %p\n", si.si_signo, si.si_code, si.si_addr);
	req("cont without it", ptrace(PTRACE_CONT, pid, 0, 0));
	wait_for(pid, "store again");
	req("cont with it", ptrace(PTRACE_CONT, pid, 0, SIGSEGV));
	wait_for(pid, "load");
	memset(&si, 0, sizeof(si));
	req("getsiginfo load", ptrace(PTRACE_GETSIGINFO, pid, 0, &si));
	printf("  signo %d code %d addr %p\n", si.si_signo, si.si_code, si.si_addr);
	req("cont with it", ptrace(PTRACE_CONT, pid, 0, SIGSEGV));
	wait_for(pid, "ud2");
	/* another signal instead: SIGSEGV's handler takes it past ud2 */
	req("cont with SIGSEGV instead", ptrace(PTRACE_CONT, pid, 0, SIGSEGV));
	wait_for(pid, "fault end");
}

/* Syscall stops between a fault's stop and the exit: getppid's entry and
 * exit, exit_group's entry; SIGTRAP|0x80 with TRACESYSGOOD, else SIGTRAP. */
static void syscall_stops(int options)
{
	pid_t pid = fork();
	int st;
	char what[64];

	if (pid == 0) {
		traced_start();
		catch_faults();
		if (!sigsetjmp(back, 0))
			*at_0x10 = 1;
		syscall(SYS_getppid);
		syscall(SYS_exit_group, 5);
	}
	snprintf(what, sizeof(what), "syscalls %#x start", options);
	wait_for(pid, what);
	req("setoptions", ptrace(PTRACE_SETOPTIONS, pid, 0, options));
	req("cont", ptrace(PTRACE_CONT, pid, 0, 0));
	wait_for(pid, "fault");
	req("syscall with the fault's signal", ptrace(PTRACE_SYSCALL, pid, 0, SIGSEGV));
	for (int n = 0; n < 8; n++) {
		if (waitpid(pid, &st, 0) != pid)
			break;
		describe("  stop", st);
		if (!WIFSTOPPED(st))
			break;
		ptrace(PTRACE_SYSCALL, pid, 0, 0);
	}
}

/* The traced child execs itself: SIGTRAP after the exec, and the new
 * image is still traced (its fault stops). */
static void exec_stop(const char *self)
{
	pid_t pid = fork();

	if (pid == 0) {
		traced_start();
		execl(self, self, "exec-child", (char *)NULL);
		_exit(127);
	}
	wait_for(pid, "exec start");
	req("cont", ptrace(PTRACE_CONT, pid, 0, 0));
	wait_for(pid, "exec");
	req("cont", ptrace(PTRACE_CONT, pid, 0, 0));
	wait_for(pid, "exec'd fault");
	req("cont with it", ptrace(PTRACE_CONT, pid, 0, SIGSEGV));
	wait_for(pid, "exec end");
}

static void exec_child(void)
{
	catch_faults();
	if (!sigsetjmp(back, 0))
		*at_0x10 = 1;
	_exit(4);
}

/* A fault the guest dies of, a store and a load: one stop, then the
 * death by its signal */
static void fatal_stop(bool load)
{
	pid_t pid = fork();

	if (pid == 0) {
		traced_start();
		if (load)
			(void)*at_0x20;
		else
			*at_0x10 = 1;
		_exit(8);
	}
	wait_for(pid, load ? "fatal load start" : "fatal store start");
	req("cont", ptrace(PTRACE_CONT, pid, 0, 0));
	wait_for(pid, "fatal fault");
	req("cont with it", ptrace(PTRACE_CONT, pid, 0, SIGSEGV));
	wait_for(pid, "fatal end");
}

static void detach_and_kill(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		traced_start();
		*at_0x10 = 1; /* not traced now: dies of it */
		_exit(9);
	}
	wait_for(pid, "detach start");
	req("detach", ptrace(PTRACE_DETACH, pid, 0, 0));
	wait_for(pid, "detached");

	pid = fork();
	if (pid == 0) {
		traced_start();
		_exit(9);
	}
	wait_for(pid, "detach with a signal start");
	req("detach with SIGTERM", ptrace(PTRACE_DETACH, pid, 0, SIGTERM));
	wait_for(pid, "detached with SIGTERM");

	pid = fork();
	if (pid == 0) {
		traced_start();
		_exit(9);
	}
	wait_for(pid, "kill start");
	req("kill", ptrace(PTRACE_KILL, pid, 0, 0));
	wait_for(pid, "killed");
}

/* What the kernel refuses whoever asks: requests for a process that is
 * not our stopped tracee, unknown options, attaching to nobody. */
static void refused(void)
{
	pid_t pid = fork();
	long word;

	if (pid == 0) {
		traced_start();
		alarm(60); /* gone even if its parent dies before killing it */
		pause();
		_exit(0);
	}
	wait_for(pid, "refused start");
	errno = 0;
	word = ptrace(PTRACE_PEEKDATA, getppid(), &word, NULL);
	req("peekdata of our parent", errno ? -1 : 0);
	req("peekuser of our parent", ptrace(PTRACE_PEEKUSER, getppid(), 0, NULL) == -1 && errno ? -1 : 0);
	req("cont of our parent", ptrace(PTRACE_CONT, getppid(), 0, 0));
	req("getregs of our parent", ptrace(PTRACE_GETREGS, getppid(), 0, &word));
	req("setoptions unknown bit", ptrace(PTRACE_SETOPTIONS, pid, 0, 0x80000000));
	req("attach to nobody", ptrace(PTRACE_ATTACH, 999999999, 0, 0));
	req("cont", ptrace(PTRACE_CONT, pid, 0, 0));
	usleep(100000); /* in pause(), running: not stopped for us */
	req("getsiginfo of a running tracee", ptrace(PTRACE_GETSIGINFO, pid, 0, &word));
	kill(pid, SIGKILL);
	wait_for(pid, "refused end");
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "exec-child"))
		exec_child();
	setvbuf(stdout, NULL, _IOLBF, 0);
	vm_segv();
	fault_stops();
	syscall_stops(PTRACE_O_TRACESYSGOOD);
	syscall_stops(0);
	exec_stop("/proc/self/exe");
	fatal_stop(false);
	fatal_stop(true);
	detach_and_kill();
	refused();
	return 0;
}
