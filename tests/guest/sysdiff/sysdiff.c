/* sysdiff: the guest half of the system call differential tester
 * (docs/testing.md, "System call differential tester").
 *
 *   sysdiff-<abi> MODE ROWS SEED COUNT
 *
 * MODE i386, x32 or x86_64 says which table the calls go to: int $0x80
 * for i386, SYSCALL with the x32 bit for x32, SYSCALL for x86_64. The
 * x86_64 build run with MODE x32 is the x32 program's twin: it makes the
 * same calls (the x32 list has only the rows x32 shares with x86_64, whose
 * numbers are the same) with the same register values, pointers being
 * below 4 GiB and zero-extended as x32 passes them.
 *
 * ROWS is a file of "NR NAME" lines, the table rows to call (the driver
 * writes it). Call k uses row k % nrows, so every row gets its share; its
 * arguments are drawn from hostile classes chosen by the argument kinds
 * of tables/syscall_args.in (the trace's list, one source). A given
 * MODE/ROWS/SEED/COUNT makes the same calls natively and under sysgate.
 *
 * Each call runs in a fresh child (fork) in a fresh directory c<k> with
 * the same descriptors, so no call sees what another did. After the call
 * the child reports, with raw system calls only (the call may have broken
 * its TLS or its signal state), the return value and a hash of the two
 * writable arena pages (the bytes the call wrote). The parent prints one
 * line per call; the driver (tests/e2e/sysdiff/run_sysdiff.sh) compares
 * the native run's lines with sysgate's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef unsigned long long u64;

enum mode { M_I386, M_X32, M_X64 };
static enum mode mode;
static int twin; /* x86_64 build making x32's calls */

/* --- raw calls --------------------------------------------------------- */

#ifdef __i386__
static volatile unsigned long arg6; /* absolute address: no esp-relative operand */
static long raw6(long nr, u64 a, u64 b, u64 c, u64 d, u64 e, u64 f)
{
	long ret;

	arg6 = (unsigned long)f;
	__asm__ volatile("push %%ebp\n\tmov %7, %%ebp\n\tint $0x80\n\tpop %%ebp"
			 : "=a"(ret)
			 : "a"(nr), "b"((long)a), "c"((long)b), "d"((long)c),
			   "S"((long)d), "D"((long)e), "m"(arg6)
			 : "memory");
	return ret;
}
#define RESULT(r) ((long long)(long)(r))
#else
static long long raw6(u64 nr, u64 a, u64 b, u64 c, u64 d, u64 e, u64 f)
{
	register u64 r10 __asm__("r10") = d;
	register u64 r8 __asm__("r8") = e;
	register u64 r9 __asm__("r9") = f;
	long long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8),
			   "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
}
#define RESULT(r) (r)
#endif

/* The harness's own calls after the hostile one, by number of the build's
 * native ABI (x32 builds: with the x32 bit). */
#if defined(__i386__)
#define N_WRITE 4
#define N_READ 3
#define N_EXIT_GROUP 252
#elif defined(__ILP32__)
#define N_WRITE (0x40000000 | 1)
#define N_READ (0x40000000 | 0)
#define N_EXIT_GROUP (0x40000000 | 231)
#else
#define N_WRITE 1
#define N_READ 0
#define N_EXIT_GROUP 231
#endif

/* --- the arena ------------------------------------------------------------
 * At a fixed address below 4 GiB (x32 and its twin pass the same
 * pointers):
 *   P0 zero page (rw)  P1 junk page (rw, 0xa5)  P2 unmapped
 *   P3 strings (read-only)  P4 PROT_NONE */
#define ARENA 0x20000000ull
#define PG 4096ull
#define P(n) (ARENA + (n) * PG)
#define JUNK 0xa5

struct str_at {
	unsigned off;
	const char *s;
};
static const struct str_at strings[] = {
	{ 0, "file" }, { 16, "dir" }, { 32, "link" }, { 48, "nonexistent" },
	{ 64, "" }, { 80, "/nonexistent/x" }, { 2049, "file" },
};
#define LONG_NAME_OFF 128 /* 300 'n': a component longer than NAME_MAX */

static void arena_setup(void)
{
	void *p = mmap((void *)(uintptr_t)ARENA, 5 * PG, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);

	if (p == MAP_FAILED) {
		perror("sysdiff: arena");
		exit(2);
	}
	memset((char *)(uintptr_t)P(1), JUNK, PG);
	for (size_t i = 0; i < sizeof(strings) / sizeof(strings[0]); i++)
		strcpy((char *)(uintptr_t)(P(3) + strings[i].off), strings[i].s);
	memset((char *)(uintptr_t)(P(3) + LONG_NAME_OFF), 'n', 300);
	munmap((void *)(uintptr_t)P(2), PG);
	mprotect((void *)(uintptr_t)P(3), PG, PROT_READ);
	mprotect((void *)(uintptr_t)P(4), PG, PROT_NONE);
}

/* --- argument classes -------------------------------------------------- */

enum cls { C_INT, C_LEN, C_FD, C_PTR, C_PATH, C_PID, C_NCLS };

struct val {
	u64 v;
	const char *label; /* NULL: print the value */
};

static u64 rng_state;
static u64 rnd(void)
{
	/* splitmix64 */
	u64 z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static u64 kernel_addr(void)
{
	/* above a compat task's TASK_SIZE (0xffffe000); for x86_64 the
	 * kernel half */
	return mode == M_X64 ? 0xffffffff81000000ull : 0xfffff000ull;
}

static struct val pick(enum cls c)
{
	struct val r = { 0, NULL };
	u64 k;

	switch (c) {
	case C_INT:
		k = rnd() % 14;
		switch (k) {
		case 0: r.v = 0; break;
		case 1: r.v = 1; break;
		case 2: r.v = 2; break;
		case 3: r.v = 3; break;
		case 4: r.v = ~0ull; break;
		case 5: r.v = 0x7fffffff; break;
		case 6: r.v = 0x80000000; break;
		case 7: r.v = 0xffffffff; break;
		case 8: r.v = rnd() & 0xff; break;
		case 9: r.v = 1ull << (rnd() % 32); break;
		case 10: r.v = rnd() & 0xffffffff; break;
		case 11: r.v = 0xffffffff00000001ull; break;
		case 12: r.v = rnd(); break;
		default: r.v = 4; break;
		}
		break;
	case C_LEN: {
		static const u64 lens[] = { 0, 1, 8, 16, 100, 4096, 8192,
					    65536, 0x7fffffff, 0x80000000,
					    0xffffffff, 0x100000000ull, ~0ull };
		r.v = lens[rnd() % (sizeof(lens) / sizeof(lens[0]))];
		break;
	}
	case C_FD: {
		static const struct val fds[] = {
			{ 0, "fd0" }, { 1, "fd1" }, { 2, "fd2" },
			{ 3, "fd:file" }, { 4, "fd:dir" }, { 5, "fd:pipe_r" },
			{ 6, "fd:pipe_w" }, { 7, "fd:sock" }, { 8, "fd:eventfd" },
			{ ~0ull, "fd-1" }, { (u64)-100, "fd:cwd" },
			{ 40, "fd:closed" }, { 0x7fffffff, "fd:max" },
			{ 0xffffffff80000000ull, "fd:min" },
			{ 0x100000003ull, "fd:3+hi" },
		};
		r = fds[rnd() % (sizeof(fds) / sizeof(fds[0]))];
		break;
	}
	case C_PTR: {
		static const struct val ptrs[] = {
			{ 0, "NULL" }, { P(0), "p:zero" }, { P(1), "p:junk" },
			{ P(0) + 1, "p:odd" }, { P(2) - 8, "p:strad8" },
			{ P(2) - 100, "p:strad100" }, { P(2), "p:unmapped" },
			{ P(3) + 3072, "p:ro" }, { P(4), "p:none" },
			{ 1, "p:kernel" },
		};
		r = ptrs[rnd() % (sizeof(ptrs) / sizeof(ptrs[0]))];
		if (r.v == 1)
			r.v = kernel_addr();
		break;
	}
	case C_PATH: {
		static const struct val paths[] = {
			{ 0, "NULL" }, { P(3), "s:file" }, { P(3) + 16, "s:dir" },
			{ P(3) + 32, "s:link" }, { P(3) + 48, "s:noent" },
			{ P(3) + 64, "s:empty" }, { P(3) + 80, "s:abs-noent" },
			{ P(3) + LONG_NAME_OFF, "s:long" },
			{ P(3) + 2049, "s:odd-file" }, { P(2) - 4, "s:unterminated" },
			{ P(2), "s:unmapped" }, { P(4), "s:none" },
			{ 1, "s:kernel" },
		};
		r = paths[rnd() % (sizeof(paths) / sizeof(paths[0]))];
		if (r.v == 1)
			r.v = kernel_addr();
		break;
	}
	case C_PID: {
		/* never another process: as root a call could act on it */
		static const struct val pids[] = {
			{ 0, "pid0" }, { ~0ull, "pid-1" },
			{ 0x7fffffff, "pid:none" }, { 0x80000000, "pid:min" },
		};
		r = pids[rnd() % (sizeof(pids) / sizeof(pids[0]))];
		break;
	}
	default:
		break;
	}
	if (mode == M_I386)
		r.v &= 0xffffffff;
	return r;
}

/* Which class an argument kind of tables/syscall_args.in draws from. */
static enum cls kind_class(const char *k)
{
	static const char *const ints[] = {
		"int", "long", "ulong", "hex", "oct", "flags", "cmode", "off64",
		"accmodeflags", "openflags", "atflags", "whence", "clockid",
		"prot", "mapflags", "msgflags", "msgflg", "rlimres", "killsig",
		"signo", "sighow", "family", "socktypefl", "sockproto",
		"sollevel", "shuthow", "ipcmode", "ipckey", "semctlcmd",
		"shmctlcmd", "shmatflags", "fcntlcmd", "fadvice", "timerflags",
		"waitflags", "statxflags", "statxmask", "accessmode",
		"sockflags", "pgoff", "skip", "llseekoff", "madvice",
		"mremapflags", "msflags", "futexcmd", "archprctl", "grndflags",
		"cloneflags", "ioctlreq", "epollop", "fcntlarg", "sigreturnmask",
	};
	if (!strcmp(k, "fd") || !strcmp(k, "dirfd"))
		return C_FD;
	if (!strcmp(k, "size"))
		return C_LEN;
	if (!strcmp(k, "str") || !strcmp(k, "cstr"))
		return C_PATH;
	for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++)
		if (!strcmp(k, ints[i]))
			return C_INT;
	return C_PTR; /* ptr, buffers, structs */
}

struct kinds_row {
	const char *name, *abi, *kinds;
};
static const struct kinds_row kinds_table[] = {
#include "sysdiff_kinds.h"
};

/* --- the calls ----------------------------------------------------------- */

/* Rows the tester does not call, and why: each would end or replace the
 * process that reports, act outside the child (other processes, the host
 * system when run natively as root, persistent kernel objects), or block
 * until the harness's timeout. docs/testing.md lists the same groups. */
static const char *const excluded[] = {
	/* end or replace the reporting process */
	"exit", "exit_group", "execve", "execveat", "rt_sigreturn", "sigreturn",
	/* make processes or threads that outlive the report */
	"fork", "vfork", "clone", "clone3",
	/* signal other processes (pid 0/-1 name the harness or everyone) */
	"kill", "tkill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo",
	"pidfd_send_signal",
	/* block until a signal or an unbounded timeout */
	"pause", "sigsuspend", "rt_sigsuspend", "nanosleep", "clock_nanosleep",
	"clock_nanosleep_time64", "select", "_newselect", "pselect6",
	"pselect6_time64", "poll", "ppoll", "ppoll_time64", "epoll_wait",
	"epoll_pwait", "epoll_pwait2", "rt_sigtimedwait",
	"rt_sigtimedwait_time64", "futex_waitv", "futex_wait",
	/* change the host system, or other users' processes, natively as root */
	"reboot", "kexec_load", "kexec_file_load", "init_module",
	"finit_module", "delete_module", "swapon", "swapoff", "settimeofday",
	"stime", "clock_settime", "clock_settime64", "adjtimex",
	"clock_adjtime", "clock_adjtime64", "sethostname", "setdomainname",
	"acct", "syslog", "vhangup", "quotactl", "quotactl_fd", "mount",
	"umount", "umount2", "pivot_root", "move_mount", "fsopen", "fsmount",
	"fsconfig", "fspick", "open_tree", "mount_setattr", "fanotify_mark",
	"ioperm", "iopl", "ptrace", "setpriority", "ioprio_set",
	/* persistent objects that outlive the child: keyrings, SysV IPC,
	 * POSIX message queues (the i386 ipc multiplexer too) */
	"add_key", "request_key", "keyctl", "shmget", "msgget", "semget",
	"ipc", "mq_open", "mq_unlink",
	/* allocates the disk blocks of a length drawn up to 2^64 */
	"fallocate",
	/* the per-user limit of inotify instances (128) is shared with every
	 * process of the user: EMFILE or not depends on what else runs */
	"inotify_init", "inotify_init1",
};

/* Run in new user, mount, UTS and IPC namespaces (SYSDIFF_NS=1, from the
 * driver), these act on namespaces that end with the run or are refused
 * for want of privilege over the host: they are called then. */
static const char *const in_namespace[] = {
	"mount", "umount", "umount2", "pivot_root", "sethostname",
	"setdomainname", "swapon", "swapoff", "acct", "vhangup", "reboot",
	"init_module", "finit_module", "delete_module", "kexec_load",
	"kexec_file_load", "settimeofday", "stime", "clock_settime",
	"clock_settime64", "syslog", "quotactl", "quotactl_fd", "ioperm",
	"iopl", "move_mount", "fsopen", "fsmount", "fsconfig", "fspick",
	"open_tree", "mount_setattr",
};

static int is_excluded(const char *name)
{
	const char *ns = getenv("SYSDIFF_NS");

	if (ns && !strcmp(ns, "1"))
		for (size_t i = 0;
		     i < sizeof(in_namespace) / sizeof(in_namespace[0]); i++)
			if (!strcmp(name, in_namespace[i]))
				return 0;
	for (size_t i = 0; i < sizeof(excluded) / sizeof(excluded[0]); i++)
		if (!strcmp(name, excluded[i]))
			return 1;
	return 0;
}

/* Calls whose results differ between two runs of the same program: ids,
 * clocks, addresses chosen by the kernel, inode numbers and times of the
 * fresh files (which of whose bytes are zero, or equal the fill, differs
 * too). For these the line has the error (or "ok") and, per page,
 * whether the call wrote to it. */
static const char *const volatile_calls[] = {
	"getpid", "getppid", "gettid", "set_tid_address", "setsid", "time",
	"gettimeofday", "clock_gettime", "clock_gettime64", "times",
	"stat", "lstat",
	"fstat", "newfstatat", "stat64", "lstat64", "fstat64", "fstatat64",
	"statx", "oldstat", "oldlstat", "oldfstat", "statfs", "fstatfs",
	"statfs64", "fstatfs64", "getdents", "getdents64", "readdir",
	"get_robust_list", "get_thread_area", "arch_prctl", "mmap", "mmap2",
	"mremap", "brk", "shmat", "timer_gettime", "timer_gettime64",
	"timerfd_gettime", "timerfd_gettime64", "getitimer", "wait4",
	"waitpid", "waitid", "sched_rr_get_interval",
	"sched_rr_get_interval_time64", "prctl",
};

/* Counters (times, usage, uptime): the same as volatile_calls. */
static const char *const counter_calls[] = {
	"sysinfo", "getrusage", "times", "wait4", "waitid",
	"getrandom", /* random bytes can equal the fill */
};

/* Results whose bytes may equal the fill or not from run to run (the CPU
 * number: 0 on one run, 1 on the next): only the result is kept. */
static const char *const result_only_calls[] = {
	"getcpu",
	"mincore", /* page residency: what else ran decides */
};

/* 0 stable, 2 whether written, 3 the result only */
static int volatility(const char *name)
{
	for (size_t i = 0;
	     i < sizeof(result_only_calls) / sizeof(result_only_calls[0]); i++)
		if (!strcmp(name, result_only_calls[i]))
			return 3;
	for (size_t i = 0;
	     i < sizeof(counter_calls) / sizeof(counter_calls[0]); i++)
		if (!strcmp(name, counter_calls[i]))
			return 2;
	for (size_t i = 0;
	     i < sizeof(volatile_calls) / sizeof(volatile_calls[0]); i++)
		if (!strcmp(name, volatile_calls[i]))
			return 2;
	return 0;
}

/* Arguments that name a process: drawn from C_PID so that, natively as
 * root, no call acts on another process (bit i = argument i). */
static unsigned pid_args(const char *name)
{
	static const struct {
		const char *name;
		unsigned mask;
	} t[] = {
		{ "sched_setaffinity", 1 }, { "sched_getaffinity", 1 },
		{ "sched_setscheduler", 1 }, { "sched_setparam", 1 },
		{ "sched_setattr", 1 }, { "sched_getattr", 1 },
		{ "sched_getparam", 1 }, { "sched_getscheduler", 1 },
		{ "sched_rr_get_interval", 1 },
		{ "sched_rr_get_interval_time64", 1 }, { "prlimit64", 1 },
		{ "process_vm_readv", 1 }, { "process_vm_writev", 1 },
		{ "migrate_pages", 1 }, { "move_pages", 1 },
		{ "get_robust_list", 1 }, { "kcmp", 3 }, { "pidfd_open", 1 },
		{ "perf_event_open", 2 }, { "setpgid", 3 }, { "getpgid", 1 },
		{ "getsid", 1 }, { "process_madvise", 0 }, { "waitid", 2 },
		{ "wait4", 1 }, { "waitpid", 1 }, { "ioprio_get", 2 },
		{ "getpriority", 2 }, { "capget", 0 }, { "capset", 0 },
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(name, t[i].name))
			return t[i].mask;
	return 0;
}

struct row {
	unsigned nr;
	char name[40];
	enum cls cls[6];
};

static void row_classes(struct row *r)
{
	const char *kinds = NULL;
	const char *abi = mode == M_I386 ? "i386" : mode == M_X32 ? "x32" : "x64";
	unsigned pids = pid_args(r->name);
	unsigned slot = 0;

	for (size_t i = 0; i < sizeof(kinds_table) / sizeof(kinds_table[0]); i++) {
		if (strcmp(kinds_table[i].name, r->name))
			continue;
		if (!kinds_table[i].abi[0] && !kinds)
			kinds = kinds_table[i].kinds;
		if (!strcmp(kinds_table[i].abi, abi))
			kinds = kinds_table[i].kinds;
	}
	for (int i = 0; i < 6; i++)
		r->cls[i] = C_INT;
	if (kinds) {
		char buf[256], *save = NULL, *k;

		snprintf(buf, sizeof(buf), "%s", kinds);
		for (k = strtok_r(buf, " ", &save); k && slot < 6;
		     k = strtok_r(NULL, " ", &save)) {
			enum cls c = kind_class(k);

			r->cls[slot++] = c;
			if (!strcmp(k, "off64") && mode == M_I386 && slot < 6)
				r->cls[slot++] = C_INT;
		}
	} else {
		/* no kinds known: any class in every slot */
		for (int i = 0; i < 6; i++)
			r->cls[i] = C_NCLS;
	}
	for (int i = 0; i < 6; i++)
		if (pids & (1u << i))
			r->cls[i] = C_PID;
}

static struct row *rows;
static unsigned nrows;

static void read_rows(const char *path)
{
	FILE *f = fopen(path, "r");
	unsigned nr;
	char name[64];

	if (!f) {
		perror(path);
		exit(2);
	}
	while (fscanf(f, "%u %63s", &nr, name) == 2) {
		struct row *r;

		if (is_excluded(name) || strlen(name) >= sizeof(rows->name))
			continue;
		rows = realloc(rows, (nrows + 1) * sizeof(*rows));
		r = &rows[nrows++];
		r->nr = nr;
		strcpy(r->name, name);
		row_classes(r);
	}
	fclose(f);
}

/* --- one call in a child ------------------------------------------------- */

#define RES_FD 50
#define SAFE_R 51
#define SAFE_W 52

struct record {
	long long ret;
	int readable[2];
	u64 value_hash[2], written_hash[2];
};

static char copybuf[PG];

/* Descriptors 0..8 as the FD classes name them, fresh in every child
 * (no file offset shared with another call). */
static int child_fds(void)
{
	int p[2], s[2];
	int want[9];

	want[0] = open("in", O_RDONLY);
	want[1] = open("out", O_WRONLY);
	want[2] = open("out", O_WRONLY);
	want[3] = open("file", O_RDWR);
	want[4] = open("dir", O_RDONLY | O_DIRECTORY);
	if (pipe2(p, O_NONBLOCK) || socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, s))
		return -1;
	want[5] = p[0];
	want[6] = p[1];
	want[7] = s[0];
	want[8] = eventfd(0, EFD_NONBLOCK);
	/* move everything high first, then into place */
	for (int i = 0; i < 9; i++) {
		if (want[i] < 0)
			return -1;
		want[i] = fcntl(want[i], F_DUPFD, 100 + i);
	}
	for (int i = 0; i < 9; i++)
		if (dup2(want[i], i) != i)
			return -1;
	for (int fd = 9; fd < 100 + 9 + 20; fd++)
		if (fd != RES_FD && fd != SAFE_R && fd != SAFE_W)
			close(fd);
	return 0;
}

static u64 fnv(u64 h, u64 x)
{
	for (int i = 0; i < 8; i++) {
		h ^= (x >> (i * 8)) & 0xff;
		h *= 0x100000001b3ull;
	}
	return h;
}

static void __attribute__((noreturn)) child_run(const struct row *r,
						const u64 *a)
{
	struct record rec;
	u64 nr = r->nr;

	if (mode == M_X32 && !twin)
		nr |= 0x40000000;
	rec.ret = RESULT(raw6(nr, a[0], a[1], a[2], a[3], a[4], a[5]));
	/* from here only raw calls: the call may have changed TLS, signal
	 * handlers or masks */
	for (int pg = 0; pg < 2; pg++) {
		u64 vh = 0xcbf29ce484222325ull, wh = vh;
		unsigned char fill = pg ? JUNK : 0;
		long long n = RESULT(raw6(N_WRITE, SAFE_W, P(pg), PG, 0, 0, 0));

		rec.readable[pg] = n == (long long)PG;
		if (rec.readable[pg] &&
		    RESULT(raw6(N_READ, SAFE_R, (uintptr_t)copybuf, PG, 0, 0, 0)) ==
			    (long long)PG) {
			for (unsigned i = 0; i < PG; i++) {
				vh = fnv(vh, ((u64)i << 8) | (unsigned char)copybuf[i]);
				if ((unsigned char)copybuf[i] != fill)
					wh = fnv(wh, i);
			}
		}
		rec.value_hash[pg] = vh;
		rec.written_hash[pg] = wh;
	}
	raw6(N_WRITE, RES_FD, (uintptr_t)&rec, sizeof(rec), 0, 0, 0);
	raw6(N_EXIT_GROUP, 0, 0, 0, 0, 0, 0);
	for (;;)
		;
}

static void write_file(const char *name, const char *text)
{
	int fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
		perror(name);
		exit(2);
	}
	close(fd);
}

/* The call's own directory: file, dir/a, link -> file, in, out. */
static void make_dir(unsigned k, char *dir, size_t len)
{
	char path[64];

	snprintf(dir, len, "c%u", k);
	if (mkdir(dir, 0755) && errno != EEXIST) {
		perror(dir);
		exit(2);
	}
	snprintf(path, sizeof(path), "%s/file", dir);
	write_file(path, "0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopq\n");
	snprintf(path, sizeof(path), "%s/in", dir);
	write_file(path, "input line one\ninput line two\n");
	snprintf(path, sizeof(path), "%s/out", dir);
	write_file(path, "");
	snprintf(path, sizeof(path), "%s/dir", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/dir/a", dir);
	write_file(path, "a\n");
	snprintf(path, sizeof(path), "%s/link", dir);
	symlink("file", path);
}

static void print_val(const struct val *v)
{
	if (v->label)
		printf(" %s", v->label);
	else
		printf(" %#llx", v->v);
}

static void one_call(unsigned k, const struct row *r, int timeout_ms)
{
	struct val v[6];
	u64 a[6];
	char dir[32];
	int res[2], safe[2];
	struct record rec;
	ssize_t got = 0;
	int status = 0, vol = volatility(r->name);
	pid_t pid;
	struct pollfd pfd;

	for (int i = 0; i < 6; i++) {
		enum cls c = r->cls[i];

		/* one argument in seven from any class: kinds are a guide */
		if (c == C_NCLS || (c != C_PID && rnd() % 7 == 0))
			c = (enum cls)(rnd() % C_PID);
		v[i] = pick(c);
		a[i] = v[i].v;
	}
	/* MAP_POPULATE/MAP_LOCKED with a length of gigabytes would fill
	 * memory natively; 0x2000 and 0x8000 are those bits for every ABI */
	if (!strcmp(r->name, "mmap") || !strcmp(r->name, "mmap2")) {
		a[3] &= ~(u64)0xa000;
		v[3].v = a[3];
	}
	/* RLIMIT_CPU (resource 0) with a hard limit of 0 kills the child at
	 * its next scheduler tick, natively too: whether before or after
	 * its report is timing, so the resource is RLIMIT_FSIZE (1) instead
	 * (prlimit64's resource is its second argument) */
	if ((!strcmp(r->name, "setrlimit") && (uint32_t)a[0] == 0) ||
	    (!strcmp(r->name, "prlimit64") && (uint32_t)a[1] == 0)) {
		int i = r->name[0] == 's' ? 0 : 1;

		a[i] = 1;
		v[i].v = a[i];
	}
	make_dir(k, dir, sizeof(dir));
	if (pipe(res) || pipe(safe)) {
		perror("pipe");
		exit(2);
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		exit(2);
	}
	if (pid == 0) {
		if (dup2(res[1], RES_FD) != RES_FD ||
		    dup2(safe[0], SAFE_R) != SAFE_R ||
		    dup2(safe[1], SAFE_W) != SAFE_W || chdir(dir) ||
		    child_fds()) {
			perror("sysdiff: child setup");
			_exit(3);
		}
		child_run(r, a);
	}
	close(res[1]);
	close(safe[0]);
	close(safe[1]);
	pfd.fd = res[0];
	pfd.events = POLLIN;
	memset(&rec, 0, sizeof(rec));
	/* a report, or end of file when the child exits (or the call closed
	 * the pipe); nothing at all within the timeout: it blocks */
	if (poll(&pfd, 1, timeout_ms) == 1) {
		got = read(res[0], &rec, sizeof(rec));
		waitpid(pid, &status, 0);
	} else {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		status = -1;
	}
	close(res[0]);

	printf("%u %s", k, r->name);
	for (int i = 0; i < 6; i++)
		print_val(&v[i]);
	printf(" ->");
	if (status == -1) {
		printf(" timeout\n");
		return;
	}
	if (got == (ssize_t)sizeof(rec)) {
		if (rec.ret < 0 && rec.ret > -4096)
			printf(" %s", strerrorname_np((int)-rec.ret) ?
					   strerrorname_np((int)-rec.ret) : "E?");
		else if (vol)
			printf(" ok");
		else
			printf(" %lld", rec.ret);
		for (int pg = 0; pg < 2; pg++) {
			if (vol == 3)
				continue;
			if (!rec.readable[pg])
				printf(" p%d:gone", pg);
			else if (vol == 2)
				printf(" p%d:%s", pg,
				       rec.written_hash[pg] == 0xcbf29ce484222325ull
					       ? "same" : "written");
			else
				printf(" p%d:%016llx", pg, rec.value_hash[pg]);
		}
	} else {
		printf(" noreport");
	}
	if (WIFSIGNALED(status))
		printf(" sig%d", WTERMSIG(status));
	else if (WEXITSTATUS(status))
		printf(" exit%d", WEXITSTATUS(status));
	printf("\n");
}

int main(int argc, char **argv)
{
	unsigned count;
	int timeout_ms = 1000;

	if (argc < 5) {
		fprintf(stderr, "usage: %s i386|x32|x86_64 ROWS SEED COUNT [TIMEOUT_MS]\n",
			argv[0]);
		return 2;
	}
	if (!strcmp(argv[1], "i386"))
		mode = M_I386;
	else if (!strcmp(argv[1], "x32"))
		mode = M_X32;
	else if (!strcmp(argv[1], "x86_64"))
		mode = M_X64;
	else
		return 2;
#if defined(__i386__)
	if (mode != M_I386)
		return 2;
#elif defined(__ILP32__)
	if (mode != M_X32)
		return 2;
#else
	if (mode == M_I386)
		return 2;
	twin = mode == M_X32;
#endif
	rng_state = strtoull(argv[3], NULL, 0);
	count = (unsigned)strtoul(argv[4], NULL, 0);
	if (argc > 5)
		timeout_ms = atoi(argv[5]);
	read_rows(argv[2]);
	if (!nrows) {
		fprintf(stderr, "sysdiff: no rows in %s\n", argv[2]);
		return 2;
	}
	arena_setup();
	signal(SIGPIPE, SIG_IGN);
	for (unsigned k = 0; k < count; k++)
		one_call(k, &rows[k % nrows], timeout_ms);
	return 0;
}
