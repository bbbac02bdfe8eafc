/* A hostile guest: cases an emulator must survive and answer as the
 * kernel does, each in a child of its own (its output, then how it
 * ended): a fault in a SIGSEGV handler, sigreturn of a garbage or zero
 * frame, an alternate stack unmapped or read-only, its own stack and the
 * code it runs unmapped, made PROT_NONE or moved by mremap, exit_group
 * from a thread while another blocks in read, execve from a thread,
 * execve of garbage, a directory, an empty file, bad pointers and too
 * long an argv, brk below its start and into a mapping, clone and clone3
 * with flags and sizes the kernel refuses, a child's tid written into a
 * MADV_DONTFORK page (not in the child). No addresses are printed: the
 * output is the same for every ABI.
 *   hostile            every case
 *   hostile procmem    /proc/self/mem and a child's opened for writing:
 *                      refused under sysgate (docs/syscalls.md), so no
 *                      native oracle */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#define SAY(...) do { printf(__VA_ARGS__); fflush(stdout); } while (0)

static char altstack[65536];
static sigjmp_buf jb;
static volatile int hits;
static int pipefd[2];

static long err(long r) { return r < 0 ? -errno : r; }

/* a store to an address never mapped (below mmap_min_addr) */
static void poke(uintptr_t a)
{
	volatile int *volatile p = (volatile int *)a;

	*p = 1;
}

static void handle(int sig, void (*fn)(int, siginfo_t *, void *), int flags)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = fn;
	sa.sa_flags = SA_SIGINFO | flags;
	sigaction(sig, &sa, 0);
}

static void noop(int s, siginfo_t *i, void *u) { (void)s; (void)i; (void)u; hits++; }

static void report_segv(int s, siginfo_t *i, void *u)
{
	(void)s; (void)u;
	SAY("SIGSEGV code %d\n", i->si_code);
	_exit(3);
}

/* SIGSEGV reported from the alternate stack */
static void segv_reported(void)
{
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack) };

	sigaltstack(&ss, 0);
	handle(SIGSEGV, report_segv, SA_ONSTACK);
}

/* ---- signals ---- */
static void segv_again(int s, siginfo_t *i, void *u)
{
	(void)s; (void)i; (void)u;
	SAY("in handler\n");
	poke(8);
}

static void c_segv_in_handler(void)
{
	handle(SIGSEGV, segv_again, 0);
	poke(16);
}

static long frame[1024];

static void sigreturn_on(void)
{
#if defined(__x86_64__)
	__asm__ volatile("mov %0, %%rsp; mov %1, %%eax; syscall"
			 :: "r"((uint64_t)(uintptr_t)(frame + 512)), "i"(SYS_rt_sigreturn) : "memory");
#else
	__asm__ volatile("mov %0, %%esp; mov %1, %%eax; int $0x80"
			 :: "r"(frame + 512), "i"(SYS_rt_sigreturn) : "memory");
#endif
}

static void c_sigreturn_garbage(void)
{
	memset(frame, 0x41, sizeof(frame));
	sigreturn_on();
}

static void c_sigreturn_zero(void)
{
	sigreturn_on();
}

static void c_altstack_unmapped(void)
{
	char *p = mmap(0, 65536, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	stack_t ss = { .ss_sp = p, .ss_size = 65536 };

	sigaltstack(&ss, 0);
	munmap(p, 65536);
	handle(SIGUSR1, noop, SA_ONSTACK);
	raise(SIGUSR1);
	SAY("survived\n");
}

static void c_altstack_readonly(void)
{
	char *p = mmap(0, 65536, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	stack_t ss = { .ss_sp = p, .ss_size = 65536 };

	sigaltstack(&ss, 0);
	handle(SIGUSR1, noop, SA_ONSTACK);
	raise(SIGUSR1);
	SAY("survived\n");
}

static void jump_out(int s, siginfo_t *i, void *u)
{
	(void)s; (void)i; (void)u;
	hits++;
	siglongjmp(jb, 1);
}

/* handlers that longjmp out of faults, #DE, #UD and a timer */
static void c_longjmp_out(void)
{
	struct itimerval it = { { 0, 1000 }, { 0, 1000 } };

	handle(SIGSEGV, jump_out, 0);
	handle(SIGFPE, jump_out, 0);
	handle(SIGILL, jump_out, 0);
	handle(SIGALRM, jump_out, 0);
	for (volatile int i = 0; i < 400; i++) {
		if (sigsetjmp(jb, 1) == 0) {
			switch (i % 4) {
			case 0: poke((uintptr_t)(i * 64 + 64)); break;
			case 1: { volatile int z = 0; z = 5 / z; } break;
			case 2: __asm__ volatile("ud2"); break;
			case 3: raise(SIGALRM); break;
			}
		}
	}
	SAY("hits %d\n", hits);
	hits = 0;
	if (sigsetjmp(jb, 1) == 0)
		setitimer(ITIMER_REAL, &it, 0);
	while (hits < 100)
		if (sigsetjmp(jb, 1) == 0)
			for (;;)
				;
	memset(&it, 0, sizeof(it));
	setitimer(ITIMER_REAL, &it, 0);
	SAY("timer hits %d\n", hits >= 100);
}

static void *reader(void *arg)
{
	char c;
	long r = err(read(pipefd[0], &c, 1));

	SAY("read %s: %ld\n", (char *)arg, r);
	return 0;
}

/* a signal to a thread blocked in read, without and with SA_RESTART; a
 * timer during nanosleep and pause; a fault while SIGSEGV is blocked */
static void c_signal_in_syscall(void)
{
	struct itimerval it = { { 0, 0 }, { 0, 20000 } };
	struct timespec ts = { 2, 0 }, rem = { 0, 0 };
	pthread_t th;
	sigset_t s;
	long r;

	if (pipe(pipefd))
		return;
	handle(SIGUSR1, noop, 0);
	pthread_create(&th, 0, reader, "interrupted");
	usleep(100000);
	pthread_kill(th, SIGUSR1);
	pthread_join(th, 0);
	handle(SIGUSR1, noop, SA_RESTART);
	pthread_create(&th, 0, reader, "restarted");
	usleep(100000);
	pthread_kill(th, SIGUSR1);
	usleep(50000);
	if (write(pipefd[1], "x", 1) != 1)
		return;
	pthread_join(th, 0);
	handle(SIGALRM, noop, 0);
	setitimer(ITIMER_REAL, &it, 0);
	r = err(nanosleep(&ts, &rem));
	SAY("nanosleep: %ld, time left %d\n", r, rem.tv_sec > 0 || rem.tv_nsec > 0);
	handle(SIGALRM, noop, SA_RESTART);
	setitimer(ITIMER_REAL, &it, 0);
	SAY("pause: %ld\n", err(pause()));
	sigemptyset(&s);
	sigaddset(&s, SIGSEGV);
	sigprocmask(SIG_BLOCK, &s, 0);
	handle(SIGSEGV, noop, 0);
	poke(32);
	SAY("survived\n");
}

/* ---- threads ---- */
static void *exit_grouper(void *a)
{
	(void)a;
	usleep(50000);
	syscall(SYS_exit_group, 7);
	return 0;
}

static void c_exit_group_from_thread(void)
{
	pthread_t t;
	char c;

	if (pipe(pipefd))
		return;
	pthread_create(&t, 0, exit_grouper, 0);
	pthread_create(&t, 0, reader, "other");
	if (read(pipefd[0], &c, 1) >= 0)
		SAY("not reached\n");
}

static volatile int stop_spin;
static void *spinner(void *a)
{
	(void)a;
	while (!stop_spin)
		;
	return 0;
}

static void *execer(void *a)
{
	char *argv[] = { (char *)a, "execed", 0 };

	usleep(20000);
	execv("/proc/self/exe", argv);
	SAY("execv: %d\n", errno);
	return 0;
}

static void c_exec_from_thread(void)
{
	pthread_t t;

	for (int i = 0; i < 8; i++)
		if (pthread_create(&t, 0, spinner, 0) == 0)
			pthread_detach(t);
	pthread_create(&t, 0, execer, "hostile");
	for (;;)
		pause();
}

static void execed(void)
{
	char buf[64];
	int n = 0;
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(buf, sizeof(buf), f))
		if (!strncmp(buf, "Threads:", 8))
			n = atoi(buf + 8);
	SAY("execed: pid is tid %d, threads %d\n", getpid() == gettid(), n);
}

/* ---- memory ---- */
static void c_munmap_stack(void)
{
	int local;
	uintptr_t p = (uintptr_t)&local & ~(uintptr_t)4095;

	segv_reported();
	syscall(SYS_munmap, p - 65536, 65536 + 8192);
	SAY("not reached\n");
}

/* Functions alone on a page that change their own page with a system call
 * of their own (no call out of the page): the next instruction fetched
 * faults, or (mremap) the page is found at its new place. */
#define OWN_PAGE __attribute__((noinline, aligned(4096), section(".text.ownpage")))
#if defined(__x86_64__)
#define SYSCALL3(nr, a, b, c, r) \
	__asm__ volatile("syscall" : "=a"(r) : "0"((long)(nr)), "D"((uint64_t)(a)), \
			 "S"((uint64_t)(b)), "d"((uint64_t)(c)) : "rcx", "r11", "memory")
#else
#define SYSCALL3(nr, a, b, c, r) \
	__asm__ volatile("push %%ebx; mov %2, %%ebx; int $0x80; pop %%ebx" : "=a"(r) \
			 : "0"((long)(nr)), "r"(a), "c"(b), "d"(c) : "memory")
#endif

OWN_PAGE static long unmap_own_page(uintptr_t page)
{
	long r;

	SYSCALL3(SYS_munmap, page, 4096, 0, r);
	return r + 1000;
}

OWN_PAGE static long protect_own_page(uintptr_t page, long prot)
{
	long r;

	SYSCALL3(SYS_mprotect, page, 4096, prot, r);
	return r + 1000;
}

OWN_PAGE static int moved_fn(int x)
{
	return x * 3 + 1;
}

#define PAGE_OF(fn) ((uintptr_t)(fn) & ~(uintptr_t)4095)

static void c_munmap_code(void)
{
	segv_reported();
	SAY("returned %d\n", unmap_own_page(PAGE_OF(unmap_own_page)) > 0);
}

static void c_mprotect_code_none(void)
{
	segv_reported();
	SAY("returned %d\n", protect_own_page(PAGE_OF(protect_own_page), PROT_NONE) > 0);
}

static void c_mprotect_code_read(void)
{
	segv_reported();
	SAY("returned %d\n", protect_own_page(PAGE_OF(protect_own_page), PROT_READ) > 0);
}

static void c_mremap_code(void)
{
	uintptr_t page = PAGE_OF(moved_fn);
	void *to = mmap(0, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int (*moved)(int) = (int (*)(int))((uintptr_t)to + ((uintptr_t)moved_fn - page));

	segv_reported();
	SAY("before %d\n", moved_fn(5));
	SAY("mremap %d\n", mremap((void *)page, 4096, 4096, MREMAP_MAYMOVE | MREMAP_FIXED, to) == to);
	SAY("at the new place %d\n", moved(5));
	SAY("at the old place %d\n", moved_fn(5));
}

static void c_brk(void)
{
	long cur = syscall(SYS_brk, 0);
	void *m;

	SAY("brk below its start: %d\n", syscall(SYS_brk, cur - (64 << 20)) == cur);
	SAY("brk +1 page: %d\n", syscall(SYS_brk, cur + 4096) == cur + 4096);
	((volatile char *)cur)[100] = 1;
	SAY("brk -1: %d\n", syscall(SYS_brk, -1l) == cur + 4096);
	SAY("brk back: %d\n", syscall(SYS_brk, cur) == cur);
	m = mmap((void *)(cur + (1 << 20)), 4096, PROT_READ,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	SAY("mmap above brk: %d\n", m == (void *)(cur + (1 << 20)));
	SAY("brk into the mapping: %d\n", syscall(SYS_brk, cur + (2 << 20)) == cur);
	munmap(m, 4096);
	syscall(SYS_brk, cur + 65536);
	munmap((void *)cur, 65536);
	SAY("brk after its munmap: %d\n", syscall(SYS_brk, cur + 131072) == cur + 131072);
	((volatile char *)cur)[5] = 1;
	SAY("brk shrunk: %d\n", syscall(SYS_brk, cur + 4096) == cur + 4096);
	segv_reported();
	((volatile char *)cur)[8192] = 1;
	SAY("not reached\n");
}

/* ---- exec ---- */
static void try_exec(const char *what, const char *path, char **argv, char **envp)
{
	pid_t p = fork();
	int st;

	if (p == 0) {
		execve(path, argv, envp);
		_exit(100 + errno);
	}
	waitpid(p, &st, 0);
	if (WIFEXITED(st) && WEXITSTATUS(st) >= 100)
		SAY("%s: errno %d\n", what, WEXITSTATUS(st) - 100);
	else
		SAY("%s: status %x\n", what, st);
}

static void write_file(const char *path, const void *bytes, size_t n, int mode)
{
	int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, mode);

	if (n && write(fd, bytes, n) != (ssize_t)n)
		SAY("short write\n");
	close(fd);
}

/* writes DIR/NAME with BYTES and MODE, then execs it (NAME the label too) */
static void exec_file(const char *dir, const char *name, const void *bytes, size_t n, int mode,
		      char **argv, char **envp)
{
	char path[300];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	write_file(path, bytes, n, mode);
	try_exec(name, path, argv, envp);
}

static void c_exec_bad(void)
{
	char *argv[] = { "x", 0 }, *envp[] = { 0 }, *bad1[] = { "x", (char *)8, 0 };
	char dir[] = "/tmp/hostile.XXXXXX", p[300], cmd[320], garbage[1000];
	unsigned char elf[4096];
	size_t n = 300000;
	char **big = calloc(n + 2, sizeof(*big)), *arg = malloc(200);

	if (!mkdtemp(dir) || !big || !arg)
		return;
	memset(garbage, 0xa5, sizeof(garbage));
	exec_file(dir, "garbage", garbage, sizeof(garbage), 0755, argv, envp);
	exec_file(dir, "empty", "", 0, 0755, argv, envp);
	try_exec("directory", dir, argv, envp);
	memset(elf, 0xff, sizeof(elf));
	memcpy(elf, "\177ELF\2\1\1\0", 8);
	exec_file(dir, "elf20", elf, 20, 0755, argv, envp);
	exec_file(dir, "elfff", elf, sizeof(elf), 0755, argv, envp);
	exec_file(dir, "shebang", "#!/nonexistent/interp\n", 22, 0755, argv, envp);
	snprintf(p, sizeof(p), "%s/loop", dir);
	snprintf(cmd, sizeof(cmd), "#!%s\n", p);
	exec_file(dir, "loop", cmd, strlen(cmd), 0755, argv, envp);
	exec_file(dir, "noexec", "", 0, 0644, argv, envp);
	try_exec("argv bad", "/proc/self/exe", (char **)8, envp);
	try_exec("envp bad", "/proc/self/exe", argv, (char **)8);
	try_exec("argv[1] bad", "/proc/self/exe", bad1, envp);
	try_exec("path bad", (char *)8, argv, envp);
	memset(arg, 'a', 199);
	arg[199] = 0;
	big[0] = "hostile";
	for (size_t i = 1; i <= n; i++)
		big[i] = arg;
	try_exec("argv of 60 MB", "/proc/self/exe", big, envp);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		SAY("rm failed\n");
}

/* ---- clone ---- */
static char cstack[16384] __attribute__((aligned(16)));

/* clone as the kernel takes it; a child exits 9 at once */
static long raw_clone(unsigned long flags, void *stack, void *ptid, void *ctid, uint64_t tls)
{
	long r;
#if defined(__x86_64__)
	register uint64_t r10 __asm__("r10") = (uint64_t)(uintptr_t)ctid;
	register uint64_t r8 __asm__("r8") = tls;

	__asm__ volatile("syscall; test %%rax, %%rax; jnz 1f; mov %[ex], %%eax; mov $9, %%edi; syscall; 1:"
			 : "=a"(r)
			 : "0"((long)SYS_clone), "D"((uint64_t)flags), "S"((uint64_t)(uintptr_t)stack),
			   "d"((uint64_t)(uintptr_t)ptid), "r"(r10), "r"(r8), [ex] "i"(SYS_exit)
			 : "rcx", "r11", "memory");
#else
	__asm__ volatile("push %%ebx; mov %2, %%ebx; int $0x80; test %%eax, %%eax; jnz 1f;"
			 "mov $1, %%eax; mov $9, %%ebx; int $0x80; 1: pop %%ebx"
			 : "=a"(r)
			 : "0"((long)SYS_clone), "r"(flags), "c"(stack), "d"(ptid), "S"((unsigned long)tls), "D"(ctid)
			 : "memory");
#endif
	return r;
}

static void report_clone(const char *what, long pid)
{
	int st = 0;

	if (pid <= 0) {
		SAY("%s: %ld\n", what, pid);
		return;
	}
	pid = waitpid((pid_t)pid, &st, __WALL) == pid;
	SAY("%s: child, waited %ld, status %x\n", what, pid, st);
}

static void c_clone(void)
{
	struct clone_args ca;
	static char big[4096 + 64];
	void *dontfork;

	report_clone("THREAD|NEWUSER", raw_clone(CLONE_THREAD | CLONE_SIGHAND | CLONE_VM | CLONE_NEWUSER,
						  cstack + sizeof(cstack), 0, 0, 0));
	report_clone("THREAD|NEWPID", raw_clone(CLONE_THREAD | CLONE_SIGHAND | CLONE_VM | CLONE_NEWPID,
						 cstack + sizeof(cstack), 0, 0, 0));
	report_clone("every flag", raw_clone(~0ul, 0, 0, 0, 0));
	report_clone("NEWNS|FS", raw_clone(CLONE_NEWNS | CLONE_FS | SIGCHLD, 0, 0, 0, 0));
	report_clone("PARENT_SETTID bad", raw_clone(CLONE_PARENT_SETTID | SIGCHLD, 0, (void *)8, 0, 0));
	report_clone("CHILD_SETTID bad", raw_clone(CLONE_CHILD_SETTID | SIGCHLD, 0, 0, (void *)8, 0));
	dontfork = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	madvise(dontfork, 4096, MADV_DONTFORK);
	report_clone("CHILD_SETTID into a MADV_DONTFORK page",
		     raw_clone(CLONE_CHILD_SETTID | SIGCHLD, 0, 0, dontfork, 0));
	report_clone("VM, stack unmapped", raw_clone(CLONE_VM | SIGCHLD, (void *)0x1000, 0, 0, 0));
#if defined(__x86_64__)
	report_clone("SETTLS above user space",
		     raw_clone(CLONE_SETTLS | SIGCHLD, 0, 0, 0, 0xffff800000000000ull));
#else
	SAY("SETTLS above user space: -1\n");
#endif
	memset(&ca, 0, sizeof(ca));
	ca.exit_signal = SIGCHLD;
	SAY("clone3 size 8: %ld\n", err(syscall(SYS_clone3, &ca, 8)));
	SAY("clone3 bad pointer: %ld\n", err(syscall(SYS_clone3, (void *)8, sizeof(ca))));
	SAY("clone3 size 8192: %ld\n", err(syscall(SYS_clone3, &ca, 8192)));
	memcpy(big, &ca, sizeof(ca));
	big[sizeof(ca) + 3] = 1;
	SAY("clone3 nonzero past its struct: %ld\n", err(syscall(SYS_clone3, big, sizeof(ca) + 8)));
	big[sizeof(ca) + 3] = 0;
	big[4000] = 1; /* far past the struct, in a full page of arguments */
	SAY("clone3 nonzero at 4000 of 4096: %ld\n", err(syscall(SYS_clone3, big, 4096)));
	big[4000] = 0;
	ca.exit_signal = 99; /* a zero page-long tail is accepted */
	memcpy(big, &ca, sizeof(ca));
	SAY("clone3 4096 zero-tailed, exit_signal 99: %ld\n", err(syscall(SYS_clone3, big, 4096)));
	ca.exit_signal = 99;
	SAY("clone3 exit_signal 99: %ld\n", err(syscall(SYS_clone3, &ca, sizeof(ca))));
	ca.exit_signal = 0;
	ca.flags = SIGCHLD;
	SAY("clone3 signal in flags: %ld\n", err(syscall(SYS_clone3, &ca, sizeof(ca))));
	ca.flags = 1ull << 40;
	SAY("clone3 unknown flag: %ld\n", err(syscall(SYS_clone3, &ca, sizeof(ca))));
	ca.flags = CLONE_PARENT;
	ca.exit_signal = SIGCHLD;
	SAY("clone3 PARENT with a signal: %ld\n", err(syscall(SYS_clone3, &ca, sizeof(ca))));
}

static void c_procmem(void)
{
	static volatile int target = 1;
	int v = 0, fd = open("/proc/self/mem", O_RDONLY), dfd = open("/proc/self", O_PATH);
	char p[64];
	pid_t child;

	long r = err(pread(fd, &v, sizeof(v), (off_t)(uintptr_t)&target));

	SAY("read-only: %d, read: %ld, value %d\n", fd >= 0, r, v);
	SAY("read-write: %ld\n", err(open("/proc/self/mem", O_RDWR)));
	SAY("write-only: %ld\n", err(open("/proc/self/mem", O_WRONLY)));
	SAY("creat: %ld\n", err(creat("/proc/self/mem", 0600)));
	snprintf(p, sizeof(p), "/proc/self/fd/%d", fd);
	SAY("reopened read-write: %ld\n", err(open(p, O_RDWR)));
	snprintf(p, sizeof(p), "/proc/%d/task/%d/mem", getpid(), gettid());
	SAY("the thread's: %ld\n", err(open(p, O_RDWR)));
	SAY("at a /proc/self fd: %ld\n", err(openat(dfd, "mem", O_RDWR)));
	child = fork();
	if (child == 0) {
		pause();
		_exit(0);
	}
	snprintf(p, sizeof(p), "/proc/%d/mem", child);
	SAY("a child's: %ld\n", err(open(p, O_RDWR)));
	kill(child, SIGKILL);
	waitpid(child, 0, 0);
}

static const struct { const char *name; void (*fn)(void); } cases[] = {
	{ "segv_in_handler", c_segv_in_handler },
	{ "sigreturn_garbage", c_sigreturn_garbage },
	{ "sigreturn_zero", c_sigreturn_zero },
	{ "altstack_unmapped", c_altstack_unmapped },
	{ "altstack_readonly", c_altstack_readonly },
	{ "longjmp_out", c_longjmp_out },
	{ "signal_in_syscall", c_signal_in_syscall },
	{ "exit_group_from_thread", c_exit_group_from_thread },
	{ "exec_from_thread", c_exec_from_thread },
	{ "munmap_stack", c_munmap_stack },
	{ "munmap_code", c_munmap_code },
	{ "mprotect_code_none", c_mprotect_code_none },
	{ "mprotect_code_read", c_mprotect_code_read },
	{ "mremap_code", c_mremap_code },
	{ "brk", c_brk },
	{ "exec_bad", c_exec_bad },
	{ "clone", c_clone },
};

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "execed")) {
		execed();
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "procmem")) {
		c_procmem();
		return 0;
	}
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		pid_t p;
		int st;

		SAY("== %s\n", cases[i].name);
		p = fork();
		if (p == 0) {
			cases[i].fn();
			exit(0);
		}
		waitpid(p, &st, 0);
		if (WIFSIGNALED(st))
			SAY("killed by signal %d\n", WTERMSIG(st));
		else
			SAY("exit %d\n", WEXITSTATUS(st));
	}
	return 0;
}
