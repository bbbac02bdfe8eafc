/* The decoders: flags and enums generated from the headers, structs, the
 * special forms (fcntl, clone, socketcall, futex), -s, -y, -e, -c, -f's
 * unfinished/resumed, signal lines. Every expected line was printed by
 * strace 6.1 on this host, for a native program (-m64 or -m32) making the
 * same call with the same values; the guest memory holds what that
 * program passed. Numbers that strace took from the live run (addresses,
 * pids) are given to the call as the same values.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/sysinfo.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "mm/mm.h"
#include "trace/trace.h"

static struct {
	struct mm *mm;
	struct trace_task task; /* the calling thread, as core fills it */
	uint64_t page;
	size_t used;
	int memfd;
	struct trace *tr;
	char out[16384];
} fx;

static int setup(void **state)
{
	long addr;

	memset(&fx, 0, sizeof(fx));
	fx.mm = mm_create(true); /* low 4 GiB: i386 pointers reach it */
	assert_non_null(fx.mm);
	addr = mm_mmap(fx.mm, 0, 8192, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(addr > 0);
	fx.page = (uint64_t)addr;
	fx.task.mm = fx.mm;
	fx.memfd = memfd_create("trace", 0);
	assert_true(fx.memfd >= 0);
	return 0;
}

static int teardown(void **state)
{
	trace_destroy(fx.tr);
	close(fx.memfd);
	mm_destroy(fx.mm);
	return 0;
}

static void open_trace_opts(unsigned flags, unsigned strlen_, const char *filter)
{
	struct sg_options o;

	memset(&o, 0, sizeof(o));
	o.trace = flags;
	o.trace_strlen = strlen_ ? strlen_ : 32; /* sg_options_init's default */
	o.trace_filter = filter;
	trace_destroy(fx.tr);
	fx.tr = trace_create_opts(dup(fx.memfd), &o);
	assert_non_null(fx.tr);
}

static void open_trace(void)
{
	open_trace_opts(SG_TRACE_SYSCALLS, 0, NULL);
}

/* n bytes into guest memory, 8-byte aligned; their guest address. */
static uint64_t gmem(const void *p, size_t n)
{
	uint64_t a = fx.page + fx.used;

	assert_true(fx.used + n <= 8192);
	memcpy(g2h(a), p, n);
	fx.used += (n + 7) & ~(size_t)7;
	return a;
}

static uint64_t gstr(const char *s)
{
	return gmem(s, strlen(s) + 1);
}

static const char *output(void)
{
	ssize_t n = pread(fx.memfd, fx.out, sizeof(fx.out) - 1, 0);

	assert_true(n >= 0);
	fx.out[n] = '\0';
	assert_int_equal(ftruncate(fx.memfd, 0), 0);
	assert_int_equal(lseek(fx.memfd, 0, SEEK_SET), 0);
	return fx.out;
}

/* The row of name in table t. */
static unsigned nr_of(enum sg_table t, const char *name)
{
	const struct sg_syscall_table *tab = sg_syscall_table(t);

	for (unsigned i = 0; i < tab->size; i++)
		if (!strcmp(tab->rows[i].name, name))
			return i;
	fail_msg("no row %s", name);
	return 0;
}

static struct sg_syscall_call call_of(enum sg_table t, const char *name, long result,
				      uint64_t a0, uint64_t a1, uint64_t a2,
				      uint64_t a3, uint64_t a4, uint64_t a5)
{
	struct sg_syscall_call c;
	const struct sg_syscall_table *tab = sg_syscall_table(t);

	memset(&c, 0, sizeof(c));
	c.mech = t == SG_TABLE_I386 ? CPU_MECH_INT80 : CPU_MECH_SYSCALL;
	c.table = t;
	c.index = nr_of(t, name);
	c.nr = c.index + (t == SG_TABLE_X32 ? 0x40000000u : 0);
	c.row = &tab->rows[c.index];
	c.args[0] = a0;
	c.args[1] = a1;
	c.args[2] = a2;
	c.args[3] = a3;
	c.args[4] = a4;
	c.args[5] = a5;
	c.result = result;
	return c;
}

/* Trace one call (enter and exit) and compare the line. */
#define LINE(t, name, result, a0, a1, a2, a3, a4, a5, expect)                  \
	do {                                                                   \
		struct sg_syscall_call c_ = call_of(t, name, result, a0, a1, a2,   \
						    a3, a4, a5);                   \
		trace_syscall_enter(fx.tr, &fx.task, &c_);                   \
		trace_syscall_exit(fx.tr, &fx.task, &c_);                    \
		assert_string_equal(output(), expect "\n");                    \
	} while (0)

#define X64 SG_TABLE_X64
#define I386 SG_TABLE_I386
#define X32 SG_TABLE_X32

static void test_files(void **state)
{
	/* struct stat of x86_64: st_mode @24, st_size @48 */
	unsigned char st[144] = { 0 };
	uint32_t mode = 0100644;
	uint64_t size = 1221;

	open_trace();
	LINE(X64, "openat", 3, (uint32_t)-100, gstr("/etc/passwd"), 02000000, 0, 0, 0,
	     "openat(AT_FDCWD, \"/etc/passwd\", O_RDONLY|O_CLOEXEC) = 3");
	LINE(X64, "openat", 3, (uint32_t)-100, gstr("/nonexist"), 01101, 0644, 0, 0,
	     "openat(AT_FDCWD, \"/nonexist\", O_WRONLY|O_CREAT|O_TRUNC, 0644) = 3");
	LINE(X64, "openat", 4, (uint32_t)-100, gstr("."), 02204000, 0, 0, 0,
	     "openat(AT_FDCWD, \".\", O_RDONLY|O_NONBLOCK|O_CLOEXEC|O_DIRECTORY) = 4");
	LINE(X64, "lseek", 15, 3, 5, 1, 0, 0, 0,
	     "lseek(3, 5, SEEK_CUR)                   = 15");
	memcpy(st + 24, &mode, 4);
	memcpy(st + 48, &size, 8);
	LINE(X64, "newfstatat", 0, (uint32_t)-100, gstr("/etc/passwd"), gmem(st, sizeof(st)), 0, 0, 0,
	     "newfstatat(AT_FDCWD, \"/etc/passwd\", {st_mode=S_IFREG|0644, st_size=1221, ...}, 0) = 0");
	LINE(X64, "newfstatat", 0, (uint32_t)-100, gstr("/nonexist"), gmem(st, sizeof(st)), 0x100, 0, 0,
	     "newfstatat(AT_FDCWD, \"/nonexist\", {st_mode=S_IFREG|0644, st_size=1221, ...}, AT_SYMLINK_NOFOLLOW) = 0");
	LINE(X64, "access", 0, gstr("/etc"), 6, 0, 0, 0, 0,
	     "access(\"/etc\", R_OK|W_OK)               = 0");
	LINE(X64, "unlinkat", -20, (uint32_t)-100, gstr("/nonexist"), 0x200, 0, 0, 0,
	     "unlinkat(AT_FDCWD, \"/nonexist\", AT_REMOVEDIR) = -1 ENOTDIR (Not a directory)");
	LINE(X64, "fcntl", 0x8001, 1, 3, 0, 0, 0, 0,
	     "fcntl(1, F_GETFL)                       = 0x8001 (flags O_WRONLY|O_LARGEFILE)");
	LINE(X64, "fcntl", 0, 1, 2, 1, 0, 0, 0,
	     "fcntl(1, F_SETFD, FD_CLOEXEC)           = 0");
	LINE(X64, "fcntl", 11, 1, 1030, 10, 0, 0, 0,
	     "fcntl(1, F_DUPFD_CLOEXEC, 10)           = 11");
	LINE(X64, "ioctl", -25, 1, 0x5413, 0x7ffc7cdd1270, 0, 0, 0,
	     "ioctl(1, TIOCGWINSZ, 0x7ffc7cdd1270)    = -1 ENOTTY (Inappropriate ioctl for device)");
	LINE(X64, "ioctl", -25, 1, 0x541b, 0x7ffc7cdd1270, 0, 0, 0,
	     "ioctl(1, FIONREAD, 0x7ffc7cdd1270)      = -1 ENOTTY (Inappropriate ioctl for device)");
	LINE(X64, "dup2", 9, 1, 9, 0, 0, 0, 0,
	     "dup2(1, 9)                              = 9");
	/* strace 6.1 on a pipe and on getcwd (the result counts the NUL) */
	mode = 010600;
	size = 0;
	memcpy(st + 24, &mode, 4);
	memcpy(st + 48, &size, 8);
	LINE(X64, "newfstatat", 0, 3, gstr(""), gmem(st, sizeof(st)), 0x1000, 0, 0,
	     "newfstatat(3, \"\", {st_mode=S_IFIFO|0600, st_size=0, ...}, AT_EMPTY_PATH) = 0");
	LINE(X64, "getcwd", 11, gstr("/work/main"), 256, 0, 0, 0, 0,
	     "getcwd(\"/work/main\", 256)               = 11");
}

static void test_i386_files(void **state)
{
	/* struct statx: stx_mask @0, stx_attributes @8, stx_mode @28, stx_size @40 */
	unsigned char stx[256] = { 0 };
	uint32_t mask = 0x17ff; /* STATX_BASIC_STATS|STATX_MNT_ID */
	uint16_t mode = 0100644;
	uint64_t size = 1221, off = 15;

	open_trace();
	memcpy(stx, &mask, 4);
	memcpy(stx + 28, &mode, 2);
	memcpy(stx + 40, &size, 8);
	LINE(I386, "statx", 0, (uint32_t)-100, gstr("/etc/passwd"), 0x800, 0x7ff, gmem(stx, sizeof(stx)), 0,
	     "statx(AT_FDCWD, \"/etc/passwd\", AT_STATX_SYNC_AS_STAT|AT_NO_AUTOMOUNT, STATX_BASIC_STATS, "
	     "{stx_mask=STATX_BASIC_STATS|STATX_MNT_ID, stx_attributes=0, stx_mode=S_IFREG|0644, stx_size=1221, ...}) = 0");
	LINE(I386, "statx", 0, (uint32_t)-100, gstr("/nonexist"), 0x900, 0x7ff, gmem(stx, sizeof(stx)), 0,
	     "statx(AT_FDCWD, \"/nonexist\", AT_STATX_SYNC_AS_STAT|AT_SYMLINK_NOFOLLOW|AT_NO_AUTOMOUNT, STATX_BASIC_STATS, "
	     "{stx_mask=STATX_BASIC_STATS|STATX_MNT_ID, stx_attributes=0, stx_mode=S_IFREG|0644, stx_size=1221, ...}) = 0");
	/* /tmp of `ls -l /`: sticky bit by name, a mount root's attribute */
	{
		uint16_t tmode = 041777;
		uint64_t attr = 0x2000, tsize = 12288;

		memcpy(stx + 28, &tmode, 2);
		memcpy(stx + 8, &attr, 8);
		memcpy(stx + 40, &tsize, 8);
	}
	LINE(I386, "statx", 0, (uint32_t)-100, gstr("/tmp"), 0x900, 0x25e, gmem(stx, sizeof(stx)), 0,
	     "statx(AT_FDCWD, \"/tmp\", AT_STATX_SYNC_AS_STAT|AT_SYMLINK_NOFOLLOW|AT_NO_AUTOMOUNT, "
	     "STATX_MODE|STATX_NLINK|STATX_UID|STATX_GID|STATX_MTIME|STATX_SIZE, "
	     "{stx_mask=STATX_BASIC_STATS|STATX_MNT_ID, stx_attributes=STATX_ATTR_MOUNT_ROOT, "
	     "stx_mode=S_IFDIR|S_ISVTX|0777, stx_size=12288, ...}) = 0");
	LINE(I386, "_llseek", 0, 3, 0, 5, gmem(&off, 8), 1, 0,
	     "_llseek(3, 5, [15], SEEK_CUR)           = 0");
	LINE(I386, "fcntl64", 0x8001, 1, 3, 0, 0, 0, 0,
	     "fcntl64(1, F_GETFL)                     = 0x8001 (flags O_WRONLY|O_LARGEFILE)");
	LINE(I386, "mmap2", 0xf7f1c000, 0, 8192, 3, 0x22, (uint32_t)-1, 0,
	     "mmap2(NULL, 8192, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0xf7f1c000");
	/* the page offset shown in bytes (ld.so mapping ls, strace -f here) */
	LINE(I386, "mmap2", 0xf7e9e000, 0xf7e9e000, 98304, 5, 0x812, 3, 2,
	     "mmap2(0xf7e9e000, 98304, PROT_READ|PROT_EXEC, MAP_PRIVATE|MAP_FIXED|MAP_DENYWRITE, 3, 0x2000) = 0xf7e9e000");
	LINE(I386, "mprotect", 0, 0xf7f1c000, 4096, 0, 0, 0, 0,
	     "mprotect(0xf7f1c000, 4096, PROT_NONE)   = 0");
}

static void test_memory_and_process(void **state)
{
	uint64_t argv[3], off = 0;
	int32_t wstatus = 0;

	open_trace();
	LINE(X64, "mmap", 0x7f4666bd4000, 0, 8192, 3, 0x22, (uint32_t)-1, 0,
	     "mmap(NULL, 8192, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f4666bd4000");
	LINE(X64, "mprotect", 0, 0x7f4666bd4000, 4096, 0, 0, 0, 0,
	     "mprotect(0x7f4666bd4000, 4096, PROT_NONE) = 0");
	LINE(X64, "clone", 18371, 0x1200011, 0, 0, 0xbff3650, 0, 0,
	     "clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0xbff3650) = 18371");
	LINE(X64, "wait4", 18371, (uint32_t)-1, gmem(&wstatus, 4), 0, 0, 0, 0,
	     "wait4(-1, [{WIFEXITED(s) && WEXITSTATUS(s) == 0}], 0, NULL) = 18371");
	argv[0] = gstr("/bin/true");
	argv[1] = gstr("x");
	argv[2] = 0;
	LINE(X64, "execve", -13, gstr("/nonexist"), gmem(argv, sizeof(argv)), 0, 0, 0, 0,
	     "execve(\"/nonexist\", [\"/bin/true\", \"x\"], NULL) = -1 EACCES (Permission denied)");
	LINE(X64, "kill", 0, 18370, 10, 0, 0, 0, 0,
	     "kill(18370, SIGUSR1)                    = 0");
	LINE(X64, "arch_prctl", 0, 0x1002, 0x3d2ac380, 0, 0, 0, 0,
	     "arch_prctl(ARCH_SET_FS, 0x3d2ac380)     = 0");
	(void)off;
}

static void test_signals_and_time(void **state)
{
	/* x86_64 kernel sigaction: handler, flags, restorer, mask */
	uint64_t sa64[4] = { 0x401615, 0x14000000, 0x408b30, 1u << 11 };
	/* i386 compat sigaction: 32-bit handler, flags, restorer; 64-bit mask */
	uint32_t sa32[5] = { 0x80496d5, 0x10000000, 0, 1u << 11, 0 };
	uint64_t set = 1u << 1;
	int64_t ts64[2] = { 0, 1000 };
	uint64_t rlim[2] = { 8192 * 1024, ~(uint64_t)0 };
	uint32_t rlim32[2] = { 8192 * 1024, 0xffffffffu };

	open_trace();
	LINE(X64, "rt_sigaction", 0, 10, gmem(sa64, sizeof(sa64)), 0, 8, 0, 0,
	     "rt_sigaction(SIGUSR1, {sa_handler=0x401615, sa_mask=[USR2], sa_flags=SA_RESTORER|SA_RESTART, "
	     "sa_restorer=0x408b30}, NULL, 8) = 0");
	LINE(I386, "rt_sigaction", 0, 10, gmem(sa32, sizeof(sa32)), 0, 8, 0, 0,
	     "rt_sigaction(SIGUSR1, {sa_handler=0x80496d5, sa_mask=[USR2], sa_flags=SA_RESTART}, NULL, 8) = 0");
	LINE(X64, "rt_sigprocmask", 0, 0, gmem(&set, 8), 0, 8, 0, 0,
	     "rt_sigprocmask(SIG_BLOCK, [INT], NULL, 8) = 0");
	LINE(X64, "clock_nanosleep", 0, 0, 0, gmem(ts64, sizeof(ts64)), 0, 0, 0,
	     "clock_nanosleep(CLOCK_REALTIME, 0, {tv_sec=0, tv_nsec=1000}, NULL) = 0");
	LINE(X64, "prlimit64", 0, 0, 3, 0, gmem(rlim, sizeof(rlim)), 0, 0,
	     "prlimit64(0, RLIMIT_STACK, NULL, {rlim_cur=8192*1024, rlim_max=RLIM64_INFINITY}) = 0");
	LINE(I386, "ugetrlimit", 0, 3, gmem(rlim32, sizeof(rlim32)), 0, 0, 0, 0,
	     "ugetrlimit(RLIMIT_STACK, {rlim_cur=8192*1024, rlim_max=RLIM_INFINITY}) = 0");
}

/* x32's sysinfo and getrlimit are the x86_64 calls (sys_sysinfo,
 * sys_getrlimit: 64-bit kernel longs): the host's layouts, shown as for
 * x86_64 (the trace read them as 4-byte longs before it took its offsets
 * from the layouts) */
static void test_x32_kernel_longs(void **state)
{
	struct sysinfo si;
	struct rlimit rl = { 8192 * 1024, RLIM_INFINITY };

	memset(&si, 0, sizeof(si));
	si.uptime = 5000000000; /* past 32 bits */
	si.loads[0] = 1, si.loads[1] = 2, si.loads[2] = 3;
	si.totalram = 4, si.freeram = 5, si.sharedram = 6, si.bufferram = 7;
	si.totalswap = 8, si.freeswap = 9, si.procs = 10, si.mem_unit = 1;
	open_trace();
	LINE(X32, "sysinfo", 0, gmem(&si, sizeof(si)), 0, 0, 0, 0, 0,
	     "sysinfo({uptime=5000000000, loads=[1, 2, 3], totalram=4, freeram=5, sharedram=6, "
	     "bufferram=7, totalswap=8, freeswap=9, procs=10, totalhigh=0, freehigh=0, "
	     "mem_unit=1}) = 0");
	LINE(X32, "getrlimit", 0, 3, gmem(&rl, sizeof(rl)), 0, 0, 0, 0,
	     "getrlimit(RLIMIT_STACK, {rlim_cur=8192*1024, rlim_max=RLIM_INFINITY}) = 0");
}

static void test_signal_lines(void **state)
{
	siginfo_t si;

	open_trace();
	memset(&si, 0, sizeof(si));
	si.si_signo = SIGUSR1;
	si.si_code = SI_USER;
	si.si_pid = 18370;
	si.si_uid = 0;
	trace_signal(fx.tr, 0, &si);
	assert_string_equal(output(),
		"--- SIGUSR1 {si_signo=SIGUSR1, si_code=SI_USER, si_pid=18370, si_uid=0} ---\n");
	memset(&si, 0, sizeof(si));
	si.si_signo = SIGCHLD;
	si.si_code = CLD_EXITED;
	si.si_pid = 18371;
	si.si_status = 0;
	trace_signal(fx.tr, 0, &si);
	assert_string_equal(output(),
		"--- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=18371, si_uid=0, "
		"si_status=0, si_utime=0, si_stime=0} ---\n");
	/* a fatal fault at NULL: strace's printaddr */
	memset(&si, 0, sizeof(si));
	si.si_signo = SIGSEGV;
	si.si_code = SEGV_MAPERR;
	trace_signal(fx.tr, 0, &si);
	assert_string_equal(output(),
		"--- SIGSEGV {si_signo=SIGSEGV, si_code=SEGV_MAPERR, si_addr=NULL} ---\n");
}

/* A call a signal interrupted shows its restart code as strace 6.1
 * printed them here for a program whose child exited (SIGCHLD) during
 * read, clock_nanosleep and poll; restart_syscall(2) going on with a
 * restart block names the call it resumes. */
static void test_restart_codes(void **state)
{
	struct sg_syscall_call c;
	uint64_t ts[2] = { 0, 300000000 };

	open_trace();
	LINE(X64, "read", -SG_ERESTARTSYS, 3, 0x7ffc1000, 1, 0, 0, 0,
	     "read(3, 0x7ffc1000, 1)                  = ? ERESTARTSYS (To be restarted if SA_RESTART is set)");
	LINE(X64, "pause", -SG_ERESTARTNOHAND, 0, 0, 0, 0, 0, 0,
	     "pause()                                 = ? ERESTARTNOHAND (To be restarted if no handler)");
	LINE(X64, "poll", -SG_ERESTART_RESTARTBLOCK, 0, 0, 300, 0, 0, 0,
	     "poll(NULL, 0, 300)                      = ? ERESTART_RESTARTBLOCK (Interrupted by signal)");
	c = call_of(X64, "clock_nanosleep", -SG_ERESTART_RESTARTBLOCK, 0, 0,
		    gmem(ts, sizeof(ts)), 0, 0, 0);
	trace_syscall_enter(fx.tr, &fx.task, &c);
	trace_syscall_exit(fx.tr, &fx.task, &c);
	assert_string_equal(output(),
		"clock_nanosleep(CLOCK_REALTIME, 0, {tv_sec=0, tv_nsec=300000000}, NULL) = "
		"? ERESTART_RESTARTBLOCK (Interrupted by signal)\n");
	c = call_of(X64, "restart_syscall", 0, 0, 0, 0, 0, 0, 0);
	trace_syscall_enter(fx.tr, &fx.task, &c);
	trace_syscall_exit(fx.tr, &fx.task, &c);
	assert_string_equal(output(),
		"restart_syscall(<... resuming interrupted clock_nanosleep ...>) = 0\n");
	/* a call whose code is -EINTR itself (epoll_wait, semop) */
	LINE(X64, "read", -EINTR, 3, 0x7ffc1000, 1, 0, 0, 0,
	     "read(3, 0x7ffc1000, 1)                  = -1 EINTR (Interrupted system call)");
}

static void test_sockets(void **state)
{
	/* sockaddr_in 127.0.0.1:1 and sockaddr_un "/tmp/nope" */
	unsigned char sin[16] = { 2, 0, 0, 1, 127, 0, 0, 1 };
	unsigned char sun[110] = { 1, 0 };
	uint32_t words[3] = { 2, 1, 0 };
	uint64_t iov[4];
	unsigned char pfd[8] = { 0, 0, 0, 0, 1, 0, 1, 0 };

	open_trace();
	memcpy(sun + 2, "/tmp/nope", 10);
	LINE(X64, "socket", 5, 2, 0x80001, 0, 0, 0, 0,
	     "socket(AF_INET, SOCK_STREAM|SOCK_CLOEXEC, IPPROTO_IP) = 5");
	LINE(X64, "connect", -111, 5, gmem(sin, sizeof(sin)), 16, 0, 0, 0,
	     "connect(5, {sa_family=AF_INET, sin_port=htons(1), sin_addr=inet_addr(\"127.0.0.1\")}, 16) = "
	     "-1 ECONNREFUSED (Connection refused)");
	LINE(X64, "socket", 6, 1, 2, 0, 0, 0, 0,
	     "socket(AF_UNIX, SOCK_DGRAM, 0)          = 6");
	LINE(X64, "connect", -2, 6, gmem(sun, sizeof(sun)), 110, 0, 0, 0,
	     "connect(6, {sa_family=AF_UNIX, sun_path=\"/tmp/nope\"}, 110) = -1 ENOENT (No such file or directory)");
	iov[0] = gstr("ab");
	iov[1] = 2;
	iov[2] = gstr("cde");
	iov[3] = 3;
	LINE(X64, "writev", 5, 1, gmem(iov, sizeof(iov)), 2, 0, 0, 0,
	     "writev(1, [{iov_base=\"ab\", iov_len=2}, {iov_base=\"cde\", iov_len=3}], 2) = 5");
	LINE(X64, "poll", 1, gmem(pfd, sizeof(pfd)), 1, 0, 0, 0, 0,
	     "poll([{fd=0, events=POLLIN}], 1, 0)     = 1 ([{fd=0, revents=POLLIN}])");
	/* i386 socketcall(SYS_SOCKET, [AF_INET, SOCK_STREAM, 0]) is shown as socket */
	LINE(I386, "socketcall", 3, 1, gmem(words, sizeof(words)), 0, 0, 0, 0,
	     "socket(AF_INET, SOCK_STREAM, IPPROTO_IP) = 3");
}

static void test_futex_and_random(void **state)
{
	unsigned char rnd[4] = { 0x50, 0x92, 0x20, 0xa9 };

	open_trace();
	LINE(X64, "futex", 0, 0x7f0000001000, 0x189, 2, 0, 0, 0xffffffff,
	     "futex(0x7f0000001000, FUTEX_WAIT_BITSET_PRIVATE|FUTEX_CLOCK_REALTIME, 2, NULL, "
	     "FUTEX_BITSET_MATCH_ANY) = 0");
	LINE(X64, "futex", 1, 0x7f0000001000, 0x81, 1, 0, 0, 0,
	     "futex(0x7f0000001000, FUTEX_WAKE_PRIVATE, 1) = 1");
	LINE(I386, "getrandom", 4, gmem(rnd, 4), 4, 1, 0, 0, 0,
	     "getrandom(\"\\x50\\x92\\x20\\xa9\", 4, GRND_NONBLOCK) = 4");
}

static void test_options(void **state)
{
	char link[64], path[256];
	ssize_t n;

	/* -s 5 */
	open_trace_opts(SG_TRACE_SYSCALLS, 5, NULL);
	LINE(X64, "write", 6, 1, gstr("hello\n"), 6, 0, 0, 0,
	     "write(1, \"hello\"..., 6)                 = 6");
	/* -y: the fd's path as /proc/self/fd names it */
	open_trace_opts(SG_TRACE_SYSCALLS | SG_TRACE_FDPATHS, 0, NULL);
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fx.memfd);
	n = readlink(link, path, sizeof(path) - 1);
	assert_true(n > 0);
	path[n] = '\0';
	{
		struct sg_syscall_call c = call_of(X64, "close", 0, (uint64_t)fx.memfd, 0, 0, 0, 0, 0);
		char expect[512];

		trace_syscall_enter(fx.tr, &fx.task, &c);
		trace_syscall_exit(fx.tr, &fx.task, &c);
		snprintf(expect, sizeof(expect), "close(%d<%s>)", fx.memfd, path);
		assert_true(!strncmp(output(), expect, strlen(expect)));
	}
	/* -e trace=%memory: brk shown, write not */
	open_trace_opts(SG_TRACE_SYSCALLS, 0, "trace=%memory");
	LINE(X64, "brk", 0x1000000, 0, 0, 0, 0, 0, 0,
	     "brk(NULL)                               = 0x1000000");
	{
		struct sg_syscall_call c = call_of(X64, "write", 1, 1, gstr("x"), 1, 0, 0, 0);

		trace_syscall_enter(fx.tr, &fx.task, &c);
		trace_syscall_exit(fx.tr, &fx.task, &c);
		assert_string_equal(output(), "");
	}
	/* an unknown name is refused */
	{
		struct sg_options o;

		memset(&o, 0, sizeof(o));
		o.trace = SG_TRACE_SYSCALLS;
		o.trace_filter = "trace=nosuchcall";
		assert_null(trace_create_opts(dup(fx.memfd), &o));
	}
}

/* ioctl's terminal requests, as strace 6.1 printed them here for a
 * program on a pty (TCGETS, FIONREAD) and on /dev/null (TCSETS with all
 * flags, failing: input is shown anyway; TIOCGPGRP failing: the address). */
static void test_ioctl_termios(void **state)
{
	/* c_iflag, c_oflag, c_cflag, c_lflag, c_line, c_cc[19] */
	uint32_t tty[9] = { 02400, 05, 0277, 0105073, 0, 0, 0, 0, 0 };
	uint32_t all[9] = { 0xffff, 0176777, 030000017741, 0x1ffff, 0, 0, 0, 0, 0 };
	int32_t zero = 0;
	uint64_t t_addr, a_addr, z_addr;

	open_trace();
	t_addr = gmem(tty, sizeof(tty));
	a_addr = gmem(all, sizeof(all));
	z_addr = gmem(&zero, sizeof(zero));
	LINE(X64, "ioctl", 0, 0, 0x5401, t_addr, 0, 0, 0,
	     "ioctl(0, TCGETS, {c_iflag=ICRNL|IXON, c_oflag=NL0|CR0|TAB0|BS0|VT0|FF0|OPOST|ONLCR, "
	     "c_cflag=B38400|CS8|CREAD, c_lflag=ISIG|ICANON|ECHO|ECHOE|ECHOK|IEXTEN|ECHOCTL|ECHOKE, "
	     "...}) = 0");
	LINE(I386, "ioctl", -25, 0, 0x5402, a_addr, 0, 0, 0,
	     "ioctl(0, SNDCTL_TMR_START or TCSETS, {c_iflag=IGNBRK|BRKINT|IGNPAR|PARMRK|INPCK|ISTRIP|"
	     "INLCR|IGNCR|ICRNL|IUCLC|IXON|IXANY|IXOFF|IMAXBEL|IUTF8|0x8000, c_oflag=NL1|CR2|XTABS|BS1|"
	     "VT1|FF1|OPOST|OLCUC|ONLCR|OCRNL|ONOCR|ONLRET|OFILL|OFDEL, c_cflag=B57600|CS7|CSTOPB|CREAD|"
	     "PARENB|PARODD|HUPCL|CLOCAL|CMSPAR|CRTSCTS, c_lflag=ISIG|ICANON|XCASE|ECHO|ECHOE|ECHOK|"
	     "ECHONL|NOFLSH|IEXTEN|ECHOCTL|ECHOPRT|ECHOKE|FLUSHO|PENDIN|TOSTOP|EXTPROC|0x2000, ...}) = "
	     "-1 ENOTTY (Inappropriate ioctl for device)");
	LINE(X64, "ioctl", 0, 0, 0x541b, z_addr, 0, 0, 0,
	     "ioctl(0, FIONREAD, [0])                 = 0");
	LINE(X64, "ioctl", -25, 0, 0x540f, 0x7fffa7f609fc, 0, 0, 0,
	     "ioctl(0, TIOCGPGRP, 0x7fffa7f609fc)     = -1 ENOTTY (Inappropriate ioctl for device)");
	LINE(X64, "ioctl", -25, 0, 0x540b, 0, 0, 0, 0,
	     "ioctl(0, TCFLSH, TCIFLUSH)              = -1 ENOTTY (Inappropriate ioctl for device)");
}

/* sendmsg with SCM_RIGHTS: strace 6.1's line for the same message from a
 * -m64 program here; the i386 one in the compat layout (12-byte cmsghdr,
 * 4-byte alignment) and the -m32 program's values. */
static void test_cmsg(void **state)
{
	uint64_t base, iov[2], msg[7], ctl[3];
	uint32_t base32, iov32[2], msg32[7], ctl32[5];
	int32_t fds[2] = { 0, 1 };

	open_trace();
	base = gmem("abc", 4);
	iov[0] = base;
	iov[1] = 3;
	ctl[0] = 24;
	ctl[1] = 1 | (1ull << 32); /* SOL_SOCKET, SCM_RIGHTS */
	memcpy(&ctl[2], fds, sizeof(fds));
	msg[0] = 0;
	msg[1] = 0;
	msg[2] = gmem(iov, sizeof(iov));
	msg[3] = 1;
	msg[4] = gmem(ctl, sizeof(ctl));
	msg[5] = 24;
	msg[6] = 0;
	LINE(X64, "sendmsg", 3, 3, gmem(msg, sizeof(msg)), 0, 0, 0, 0,
	     "sendmsg(3, {msg_name=NULL, msg_namelen=0, msg_iov=[{iov_base=\"abc\", iov_len=3}], "
	     "msg_iovlen=1, msg_control=[{cmsg_len=24, cmsg_level=SOL_SOCKET, cmsg_type=SCM_RIGHTS, "
	     "cmsg_data=[0, 1]}], msg_controllen=24, msg_flags=0}, 0) = 3");
	base32 = (uint32_t)base;
	iov32[0] = base32;
	iov32[1] = 3;
	ctl32[0] = 20;
	ctl32[1] = 1;
	ctl32[2] = 1;
	ctl32[3] = 0;
	ctl32[4] = 1;
	memset(msg32, 0, sizeof(msg32));
	msg32[2] = (uint32_t)gmem(iov32, sizeof(iov32));
	msg32[3] = 1;
	msg32[4] = (uint32_t)gmem(ctl32, sizeof(ctl32));
	msg32[5] = 20;
	LINE(I386, "sendmsg", 3, 3, gmem(msg32, sizeof(msg32)), 0, 0, 0, 0,
	     "sendmsg(3, {msg_name=NULL, msg_namelen=0, msg_iov=[{iov_base=\"abc\", iov_len=3}], "
	     "msg_iovlen=1, msg_control=[{cmsg_len=20, cmsg_level=SOL_SOCKET, cmsg_type=SCM_RIGHTS, "
	     "cmsg_data=[0, 1]}], msg_controllen=20, msg_flags=0}, 0) = 3");
}

/* System V IPC: strace 6.1's lines for a -m64 program here making the
 * same calls (ids and the key from that run). */
static void test_ipc(void **state)
{
	uint16_t sops[6] = { 0, 1, 0, 1, 1, 0x1800 };
	unsigned char msg[16] = { 1, 0, 0, 0, 0, 0, 0, 0, 'h', 'e', 'l', 'l', 'o', 0, 0, 0 };
	uint64_t m;

	open_trace();
	LINE(X64, "shmget", 2, 0, 4096, 01600, 0, 0, 0,
	     "shmget(IPC_PRIVATE, 4096, IPC_CREAT|0600) = 2");
	LINE(X64, "shmctl", 0, 2, 0, 0, 0, 0, 0,
	     "shmctl(2, IPC_RMID, NULL)               = 0");
	LINE(X64, "semget", 2, 0, 2, 03644, 0, 0, 0,
	     "semget(IPC_PRIVATE, 2, IPC_CREAT|IPC_EXCL|0644) = 2");
	LINE(X64, "semtimedop", 0, 2, gmem(sops, sizeof(sops)), 2, 0, 0, 0,
	     "semtimedop(2, [{sem_num=0, sem_op=1, sem_flg=0}, {sem_num=1, sem_op=1, "
	     "sem_flg=SEM_UNDO|IPC_NOWAIT}], 2, NULL) = 0");
	LINE(X64, "semctl", 0, 2, 0, 16, 5, 0, 0,
	     "semctl(2, 0, SETVAL, 0x5)               = 0");
	LINE(X64, "msgget", 3, 0x4d2, 01600, 0, 0, 0, 0,
	     "msgget(0x4d2, IPC_CREAT|0600)           = 3");
	LINE(X64, "msgget", 5, 0, 0, 0, 0, 0, 0,
	     "msgget(IPC_PRIVATE, 000)                = 5");
	m = gmem(msg, sizeof(msg));
	LINE(X64, "msgsnd", 0, 3, m, 5, 0, 0, 0,
	     "msgsnd(3, {mtype=1, mtext=\"hello\"}, 5, 0) = 0");
	LINE(X64, "msgrcv", 5, 3, m, 8, 0, 04000, 0,
	     "msgrcv(3, {mtype=1, mtext=\"hello\\0\\0\\0\"}, 8, 0, IPC_NOWAIT) = 5");
	LINE(X64, "msgrcv", -EINVAL, 3, 0, 8, 0, 034000, 0,
	     "msgrcv(3, NULL, 8, 0, MSG_NOERROR|MSG_EXCEPT|IPC_NOWAIT) = -1 EINVAL (Invalid argument)");
	/* i386 glibc's ipc(2): shown as the call it carries (strace's
	 * decode_ipc_subcall); msgrcv's version 0 passes {msgp, msgtyp} */
	LINE(I386, "ipc", 2, 23, 0, 4096, 01600, 0, 0,
	     "shmget(IPC_PRIVATE, 4096, IPC_CREAT|0600) = 2");
	{
		uint32_t kludge[2] = { (uint32_t)m, 0 };
		uint32_t msg32[4] = { 1, 0x6c6c6568, 0x6f, 0 };

		kludge[0] = (uint32_t)gmem(msg32, sizeof(msg32));
		LINE(I386, "ipc", 5, 12, 3, 8, 04000, gmem(kludge, sizeof(kludge)), 0,
		     "msgrcv(3, {mtype=1, mtext=\"hello\\0\\0\\0\"}, 8, 0, IPC_NOWAIT) = 5");
	}
}

static void test_summary(void **state)
{
	struct sg_exit st = { 0, 0, 0 };
	const char *out;

	open_trace_opts(SG_TRACE_SYSCALLS | SG_TRACE_SUMMARY | SG_TRACE_FOLLOW, 0, NULL);
	for (int i = 0; i < 3; i++) {
		struct sg_syscall_call c = call_of(X64, "brk", 0x1000, 0, 0, 0, 0, 0, 0);

		trace_syscall_enter(fx.tr, &fx.task, &c);
		trace_syscall_exit(fx.tr, &fx.task, &c);
	}
	{
		struct sg_syscall_call c = call_of(X64, "ioctl", -25, 1, 0x5401, 0, 0, 0, 0);

		trace_syscall_enter(fx.tr, &fx.task, &c);
		trace_syscall_exit(fx.tr, &fx.task, &c);
	}
	{
		/* int $0x80 from the same program: the 32-bit table */
		struct sg_syscall_call c = call_of(I386, "getpid", 7, 0, 0, 0, 0, 0, 0);

		trace_syscall_enter(fx.tr, &fx.task, &c);
		trace_syscall_exit(fx.tr, &fx.task, &c);
	}
	{
		/* -f: a forked child's calls go into the same table; only
		 * the first process prints it (strace -f -c: one table) */
		pid_t child = fork();

		assert_true(child >= 0);
		if (child == 0) {
			struct sg_syscall_call c = call_of(X64, "getppid", 1, 0, 0, 0, 0, 0, 0);

			trace_syscall_enter(fx.tr, &fx.task, &c);
			trace_syscall_exit(fx.tr, &fx.task, &c);
			trace_exit(fx.tr, &st); /* not the first process: no table */
			_exit(0);
		}
		assert_int_equal(waitpid(child, NULL, 0), child);
	}
	assert_string_equal(output(), ""); /* no lines with -c */
	trace_exit(fx.tr, &st);
	out = output();
	assert_non_null(strstr(out, "         1           getppid\n"));
	/* strace -c's header, rule, rows and total */
	assert_true(!strncmp(out, "% time     seconds  usecs/call     calls    errors syscall\n"
				  "------ ----------- ----------- --------- --------- ----------------\n",
			     118));
	assert_non_null(strstr(out, "         3           brk\n"));
	assert_non_null(strstr(out, "         1         1 ioctl\n"));
	/* one table per personality, each with its own total (strace's
	 * call_summary: 64 bit first, the others under a heading) */
	{
		const char *pers32 = strstr(out, "         5         1 total\n"
						 "System call usage summary for 32 bit mode:\n"
						 "% time     seconds  usecs/call     calls    errors syscall\n");

		assert_non_null(pers32);
		assert_non_null(strstr(pers32, "         1           getpid\n"));
		assert_non_null(strstr(pers32, "         1           total\n"));
		assert_null(strstr(pers32, "brk"));
	}
}

/* -f with two threads: a call left open by one thread when the other
 * prints is "<unfinished ...>", then "<... read resumed>" (strace's form). */
static struct sg_syscall_call other_call;
static int other_tid;

static void *other_thread(void *arg)
{
	(void)arg;
	other_tid = (int)syscall(SYS_gettid);
	other_call = call_of(X64, "getpid", 1234, 0, 0, 0, 0, 0, 0);
	trace_syscall_enter(fx.tr, &fx.task, &other_call);
	trace_syscall_exit(fx.tr, &fx.task, &other_call);
	return NULL;
}

/* "PID   text" then spaces to column 40 (at least one), then result. */
static void append_result_line(char *buf, size_t size, int pid, const char *text,
			       const char *result)
{
	size_t len = strlen(buf), start = len;

	len += (size_t)snprintf(buf + len, size - len, "%-5d %s ", pid, text);
	while (len - start < 40 && len + 1 < size)
		buf[len++] = ' ';
	snprintf(buf + len, size - len, "%s\n", result);
}

static void test_unfinished(void **state)
{
	struct sg_syscall_call clone_c, read_c;
	char expect[512];
	pthread_t th;
	int me = (int)syscall(SYS_gettid);

	open_trace_opts(SG_TRACE_SYSCALLS | SG_TRACE_FOLLOW, 0, NULL);
	/* a new thread was made: from now on [pid N] prefixes */
	clone_c = call_of(X64, "clone", 99999, 0x3d0f00, 0, 0, 0, 0, 0);
	trace_syscall_enter(fx.tr, &fx.task, &clone_c);
	trace_syscall_exit(fx.tr, &fx.task, &clone_c);
	output();
	read_c = call_of(X64, "read", 3, 0, gmem("abc", 3), 10, 0, 0, 0);
	trace_syscall_enter(fx.tr, &fx.task, &read_c);
	assert_int_equal(pthread_create(&th, NULL, other_thread, NULL), 0);
	pthread_join(th, NULL);
	trace_syscall_exit(fx.tr, &fx.task, &read_c);
	/* to a file (strace -f -o): every line starts with "%-5d " and the
	 * result is at column 40 counting it (strace 6.1 -f -o here) */
	snprintf(expect, sizeof(expect), "%-5d read(0,  <unfinished ...>\n", me);
	append_result_line(expect, sizeof(expect), other_tid, "getpid()", "= 1234");
	append_result_line(expect, sizeof(expect), me, "<... read resumed>\"abc\", 10)", "= 3");
	assert_string_equal(output(), expect);
}

/* clone3 left open while another task prints: strace's two parts,
 * "clone3({...} <unfinished ...>" and "<... clone3 resumed> => {parent_tid=
 * [N]}, 88) = N" (strace 6.1 -f on a two-thread program here). */
static void test_clone3_unfinished(void **state)
{
	/* flags, pidfd, child_tid, parent_tid, exit_signal, stack, size, tls */
	uint64_t args[11] = { 0x3d0f00, 0, 0x7fdb231fd990, 0x7fdb231fd990, 0,
			      0x7fdb229fd000, 0x800300, 0x7fdb231fd6c0, 0, 0, 0 };
	struct sg_syscall_call c;
	char expect[1024];
	pthread_t th;
	int me = (int)syscall(SYS_gettid);

	int32_t tid_word = 23857; /* what the kernel stored there */
	uint64_t tid_addr = gmem(&tid_word, sizeof(tid_word));

	args[2] = args[3] = tid_addr;
	open_trace_opts(SG_TRACE_SYSCALLS | SG_TRACE_FOLLOW, 0, NULL);
	c = call_of(X64, "clone3", 23857, gmem(args, sizeof(args)), 88, 0, 0, 0, 0);
	trace_syscall_enter(fx.tr, &fx.task, &c);
	assert_int_equal(pthread_create(&th, NULL, other_thread, NULL), 0);
	pthread_join(th, NULL);
	trace_syscall_exit(fx.tr, &fx.task, &c);
	snprintf(expect, sizeof(expect),
		 "%-5d clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|"
		 "CLONE_SYSVSEM|CLONE_SETTLS|CLONE_PARENT_SETTID|CLONE_CHILD_CLEARTID, "
		 "child_tid=%#llx, parent_tid=%#llx, exit_signal=0, "
		 "stack=0x7fdb229fd000, stack_size=0x800300, tls=0x7fdb231fd6c0} <unfinished ...>\n",
		 me, (unsigned long long)tid_addr, (unsigned long long)tid_addr);
	append_result_line(expect, sizeof(expect), other_tid, "getpid()", "= 1234");
	append_result_line(expect, sizeof(expect), me,
			   "<... clone3 resumed> => {parent_tid=[23857]}, 88)", "= 23857");
	assert_string_equal(output(), expect);
}

/* clone(CLONE_PARENT_SETTID): what the kernel stored, on return; with -f
 * the line's start has the prefixes of before the call (strace 6.1 on a
 * raw clone(2) here: "clone(child_stack=NULL, ..." without [pid N]). */
static void test_clone_parent_tid(void **state)
{
	int32_t ptid = 0;
	struct sg_syscall_call c;
	char expect[256];

	/* as to a terminal (no trace fd of its own): "[pid N] " prefixes */
	{
		struct sg_options o;

		memset(&o, 0, sizeof(o));
		o.trace = SG_TRACE_SYSCALLS | SG_TRACE_FOLLOW;
		o.trace_fd = -1;
		o.trace_strlen = 32;
		trace_destroy(fx.tr);
		fx.tr = trace_create_opts(dup(fx.memfd), &o);
		assert_non_null(fx.tr);
	}
	c = call_of(X64, "clone", 5588, 0x100000 | SIGCHLD, 0, gmem(&ptid, sizeof(ptid)), 0, 0, 0);
	trace_syscall_enter(fx.tr, &fx.task, &c);
	trace_syscall_exit(fx.tr, &fx.task, &c);
	snprintf(expect, sizeof(expect), "%s",
		 "clone(child_stack=NULL, flags=CLONE_PARENT_SETTID|SIGCHLD, parent_tid=[5588]) = 5588\n");
	assert_string_equal(output(), expect);
}

/* A thread that is not the last one ends with its own "+++" line, as
 * strace -f -o shows it (strace 6.1, a two-thread program here). */
static void test_thread_exit(void **state)
{
	struct sg_syscall_call c = call_of(X64, "exit", 0, 0, 0, 0, 0, 0, 0);
	char expect[256];
	int me = (int)syscall(SYS_gettid);

	open_trace_opts(SG_TRACE_SYSCALLS | SG_TRACE_FOLLOW, 0, NULL);
	fx.task.exit_ends_thread = true; /* not the leader, not the last */
	trace_syscall_enter(fx.tr, &fx.task, &c);
	expect[0] = '\0';
	append_result_line(expect, sizeof(expect), me, "exit(0)", "= ?");
	snprintf(expect + strlen(expect), sizeof(expect) - strlen(expect),
		 "%-5d +++ exited with 0 +++\n", me);
	assert_string_equal(output(), expect);
	/* the last thread: the process's end prints it */
	fx.task.exit_ends_thread = false;
	trace_syscall_enter(fx.tr, &fx.task, &c);
	expect[0] = '\0';
	append_result_line(expect, sizeof(expect), me, "exit(0)", "= ?");
	assert_string_equal(output(), expect);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_files, setup, teardown),
		cmocka_unit_test_setup_teardown(test_x32_kernel_longs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_i386_files, setup, teardown),
		cmocka_unit_test_setup_teardown(test_memory_and_process, setup, teardown),
		cmocka_unit_test_setup_teardown(test_signals_and_time, setup, teardown),
		cmocka_unit_test_setup_teardown(test_signal_lines, setup, teardown),
		cmocka_unit_test_setup_teardown(test_restart_codes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sockets, setup, teardown),
		cmocka_unit_test_setup_teardown(test_futex_and_random, setup, teardown),
		cmocka_unit_test_setup_teardown(test_options, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ioctl_termios, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cmsg, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ipc, setup, teardown),
		cmocka_unit_test_setup_teardown(test_summary, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unfinished, setup, teardown),
		cmocka_unit_test_setup_teardown(test_thread_exit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_clone_parent_tid, setup, teardown),
		cmocka_unit_test_setup_teardown(test_clone3_unfinished, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
