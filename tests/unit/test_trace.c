/* strace-format lines. Every expected line below was checked against the
 * real strace on this host (strace -e trace=... on a program making the
 * same calls). Guest memory is a real guest
 * mapping made through src/mm, so strings go through the checked copies.
 */
#define _GNU_SOURCE /* memfd_create */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>
#include <cmocka.h>

#include "mm/mm.h"
#include "trace/trace.h"

struct fixture {
	struct mm *mm;
	struct trace_task task; /* the calling thread, as core fills it */
	uint64_t page; /* one guest page, read/write */
	size_t used;
	int memfd;     /* where the trace writes */
	struct trace *tr;
	char out[4096];
};

static struct fixture fx;

static int setup(void **state)
{
	long addr;

	memset(&fx, 0, sizeof(fx));
	fx.mm = mm_create(false);
	assert_non_null(fx.mm);
	addr = mm_mmap(fx.mm, 0, 4096, PROT_READ | PROT_WRITE,
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
	if (fx.tr)
		trace_destroy(fx.tr);
	close(fx.memfd);
	mm_destroy(fx.mm);
	return 0;
}

static void open_trace(unsigned flags)
{
	if (fx.tr)
		trace_destroy(fx.tr);
	/* the trace owns its fd and closes it */
	fx.tr = trace_create(dup(fx.memfd), flags);
	assert_non_null(fx.tr);
}

/* Copy n bytes into the guest page; their guest address. */
static uint64_t guest_bytes(const void *p, size_t n)
{
	uint64_t a = fx.page + fx.used;

	assert_true(fx.used + n <= 4096);
	memcpy(g2h(a), p, n);
	fx.used += n;
	return a;
}

static uint64_t guest_str(const char *s)
{
	return guest_bytes(s, strlen(s) + 1);
}

/* Everything the trace wrote since the last call. */
static const char *output(void)
{
	off_t end = lseek(fx.memfd, 0, SEEK_CUR);
	ssize_t n;

	assert_true(end >= 0 && end < (off_t)sizeof(fx.out));
	n = pread(fx.memfd, fx.out, sizeof(fx.out) - 1, 0);
	assert_true(n >= 0);
	fx.out[n] = '\0';
	assert_int_equal(ftruncate(fx.memfd, 0), 0);
	assert_int_equal(lseek(fx.memfd, 0, SEEK_SET), 0);
	return fx.out;
}

static struct sg_syscall_call make_call(enum sg_table t, enum cpu_syscall_mech mech,
					unsigned index, long result, uint64_t a0,
					uint64_t a1, uint64_t a2, uint64_t a3)
{
	struct sg_syscall_call c;
	const struct sg_syscall_table *tab = sg_syscall_table(t);

	memset(&c, 0, sizeof(c));
	c.mech = mech;
	c.table = t;
	c.index = index;
	c.nr = t == SG_TABLE_X32 ? index + 0x40000000u : index;
	c.row = index < tab->size && tab->rows[index].name[0] ? &tab->rows[index] : NULL;
	c.args[0] = a0;
	c.args[1] = a1;
	c.args[2] = a2;
	c.args[3] = a3;
	c.result = result;
	return c;
}

static void traced(struct sg_syscall_call *c)
{
	trace_syscall_enter(fx.tr, &fx.task, c);
	trace_syscall_exit(fx.tr, &fx.task, c);
}

/* x86_64 numbers from <asm/unistd_64.h>, i386 from <asm/unistd_32.h> */
enum { X64_READ = 0, X64_WRITE = 1, X64_OPENAT = 257, X64_MMAP = 9,
       X64_BRK = 12, X64_UMASK = 95, X64_LSEEK = 8, X64_EXIT_GROUP = 231,
       I386_READ = 3, I386_WRITE = 4, I386_LSEEK = 19, I386_PREAD64 = 180 };

static void test_write_strings(void **state)
{
	struct sg_syscall_call c;

	open_trace(SG_TRACE_SYSCALLS);
	c = make_call(SG_TABLE_X64, CPU_MECH_SYSCALL, X64_WRITE, 6, 1,
		      guest_bytes("hello\n", 6), 6, 0);
	traced(&c);
	assert_string_equal(output(),
		"write(1, \"hello\\n\", 6)                  = 6\n");

	/* cut at 32 bytes */
	c.args[1] = guest_str("0123456789abcdefghijklmnopqrstuvwxyzABCD\n");
	c.args[2] = c.result = 41;
	traced(&c);
	assert_string_equal(output(),
		"write(1, \"0123456789abcdefghijklmnopqrstuv\"..., 41) = 41\n");

	/* octal escapes, three digits before a digit */
	c.args[1] = guest_bytes("\x01\x7f\xff\t\r\n\"\\a\0b\x1b" "7", 13);
	c.args[2] = c.result = 13;
	traced(&c);
	assert_string_equal(output(),
		"write(1, \"\\1\\177\\377\\t\\r\\n\\\"\\\\a\\0b\\0337\", 13) = 13\n");

	/* NULL and an address that is not guest memory */
	c.args[1] = 0;
	c.args[2] = c.result = 0;
	traced(&c);
	assert_string_equal(output(),
		"write(1, NULL, 0)                       = 0\n");
	c.args[1] = 0x10;
	c.args[2] = c.result = 5;
	traced(&c);
	assert_string_equal(output(),
		"write(1, 0x10, 5)                       = 5\n");
}

static void test_openat_and_errors(void **state)
{
	struct sg_syscall_call c;
	char expect[256];

	open_trace(SG_TRACE_SYSCALLS);
	/* strace: openat(AT_FDCWD, "/nonexistent/file", O_RDONLY) = -1 ENOENT (No such file or directory) */
	c = make_call(SG_TABLE_X64, CPU_MECH_SYSCALL, X64_OPENAT, -2,
		      (uint32_t)-100, guest_str("/nonexistent/file"), 0, 0);
	traced(&c);
	assert_string_equal(output(),
		"openat(AT_FDCWD, \"/nonexistent/file\", O_RDONLY) = -1 ENOENT (No such file or directory)\n");

	/* O_CREAT shows the mode; a path is shown whole (strace: printpath) */
	c = make_call(SG_TABLE_X64, CPU_MECH_SYSCALL, X64_OPENAT, 3, 5,
		      guest_str("/tmp/a/very/long/path/name/that/goes/on"),
		      0x41, 0644);
	traced(&c);
	assert_string_equal(output(),
		"openat(5, \"/tmp/a/very/long/path/name/that/goes/on\", O_WRONLY|O_CREAT, 0644) = 3\n");

	/* read: the buffer on success, its address on error */
	c = make_call(SG_TABLE_X64, CPU_MECH_SYSCALL, X64_READ, 3, 3,
		      guest_bytes("vm\n", 3), 64, 0);
	traced(&c);
	assert_string_equal(output(),
		"read(3, \"vm\\n\", 64)                     = 3\n");
	c.args[0] = 99;
	c.result = -9;
	traced(&c);
	snprintf(expect, sizeof(expect), "read(99, %#llx, 64)",
		 (unsigned long long)c.args[1]);
	assert_true(strlen(expect) < 39);
	snprintf(expect + strlen(expect), sizeof(expect) - strlen(expect),
		 "%*s= -1 EBADF (Bad file descriptor)\n",
		 (int)(40 - strlen(expect)), "");
	assert_string_equal(output(), expect);
}

static void test_results(void **state)
{
	struct sg_syscall_call c;

	open_trace(SG_TRACE_SYSCALLS);
	c = make_call(SG_TABLE_X64, CPU_MECH_SYSCALL, X64_BRK, 0x1990e000, 0, 0, 0, 0);
	traced(&c);
	assert_string_equal(output(),
		"brk(NULL)                               = 0x1990e000\n");

	/* strace: mmap(NULL, 8192, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7fd8911c7000 */
	c = make_call(SG_TABLE_X64, CPU_MECH_SYSCALL, X64_MMAP, 0x7fd8911c7000,
		      0, 8192, 3, 0x22);
	c.args[4] = (uint64_t)-1;
	traced(&c);
	assert_string_equal(output(),
		"mmap(NULL, 8192, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7fd8911c7000\n");

	c = make_call(SG_TABLE_X64, CPU_MECH_SYSCALL, X64_UMASK, 022, 022, 0, 0, 0);
	traced(&c);
	assert_string_equal(output(),
		"umask(022)                              = 022\n");

	/* the guest long's width: strace shows lseek(1, 4294967295, SEEK_SET)
	 * for x86_64 and lseek(1, -1, SEEK_SET) for i386 */
	c = make_call(SG_TABLE_X64, CPU_MECH_SYSCALL, X64_LSEEK, 0, 1,
		      0xffffffffu, 0, 0);
	traced(&c);
	assert_string_equal(output(),
		"lseek(1, 4294967295, SEEK_SET)          = 0\n");
	c = make_call(SG_TABLE_I386, CPU_MECH_INT80, I386_LSEEK, 0, 1,
		      0xffffffffu, 0, 0);
	traced(&c);
	assert_string_equal(output(),
		"lseek(1, -1, SEEK_SET)                  = 0\n");

	/* strace (i386): read(99, 0xffc98b9c, 64) = -1 EBADF */
	c = make_call(SG_TABLE_I386, CPU_MECH_INT80, I386_READ, -9, 99,
		      0xffc98b9c, 64, 0);
	traced(&c);
	assert_string_equal(output(),
		"read(99, 0xffc98b9c, 64)                = -1 EBADF (Bad file descriptor)\n");

	/* i386 64-bit offset in two registers (low, high) */
	c = make_call(SG_TABLE_I386, CPU_MECH_INT80, I386_PREAD64, -9, 7, 0, 10, 2);
	c.args[4] = 1;
	traced(&c);
	assert_string_equal(output(),
		"pread64(7, NULL, 10, 4294967298)        = -1 EBADF (Bad file descriptor)\n");
}

static void test_exit_prints_on_entry(void **state)
{
	struct sg_syscall_call c;

	open_trace(SG_TRACE_SYSCALLS);
	c = make_call(SG_TABLE_X64, CPU_MECH_SYSCALL, X64_EXIT_GROUP, 0, 3, 0, 0, 0);
	trace_syscall_enter(fx.tr, &fx.task, &c);
	assert_string_equal(output(),
		"exit_group(3)                           = ?\n");
	trace_syscall_exit(fx.tr, &fx.task, &c); /* nothing more */
	assert_string_equal(output(), "");
}

static void test_process_exit(void **state)
{
	struct sg_exit e = { .signaled = 0, .code = 3 };

	open_trace(SG_TRACE_SYSCALLS);
	trace_exit(fx.tr, &e);
	assert_string_equal(output(), "+++ exited with 3 +++\n");
	e.signaled = 1;
	e.signal = 11;
	{
		/* "(core dumped)" as the kernel decides it (fs/coredump.c):
		 * no core below a page of RLIMIT_CORE unless core_pattern is
		 * a pipe; a dumping signal with room for a core dumps */
		struct rlimit old, rl;
		char pattern[2] = "";
		FILE *f = fopen("/proc/sys/kernel/core_pattern", "r");

		if (f) {
			if (!fgets(pattern, sizeof(pattern), f))
				pattern[0] = '\0';
			fclose(f);
		}
		assert_int_equal(getrlimit(RLIMIT_CORE, &old), 0);
		rl = old;
		rl.rlim_cur = 0;
		assert_int_equal(setrlimit(RLIMIT_CORE, &rl), 0);
		trace_exit(fx.tr, &e);
		assert_string_equal(output(), pattern[0] == '|'
				    ? "+++ killed by SIGSEGV (core dumped) +++\n"
				    : "+++ killed by SIGSEGV +++\n");
		rl.rlim_cur = old.rlim_max;
		if (rl.rlim_cur >= 4096 && prctl(PR_GET_DUMPABLE) > 0) {
			assert_int_equal(setrlimit(RLIMIT_CORE, &rl), 0);
			trace_exit(fx.tr, &e);
			assert_string_equal(output(), "+++ killed by SIGSEGV (core dumped) +++\n");
			e.signal = 15; /* SIGTERM's default action dumps nothing */
			trace_exit(fx.tr, &e);
			assert_string_equal(output(), "+++ killed by SIGTERM +++\n");
		}
		assert_int_equal(setrlimit(RLIMIT_CORE, &old), 0);
	}
}

static void test_entry_annotation(void **state)
{
	struct sg_syscall_call c;

	/* no handler is linked into this test: every row is "missing" */
	open_trace(SG_TRACE_SYSCALLS | SG_TRACE_ENTRY);
	c = make_call(SG_TABLE_I386, CPU_MECH_INT80, I386_WRITE, -38, 1, 0, 0, 0);
	traced(&c);
	assert_string_equal(output(),
		"write(1, NULL, 0)                       = -1 ENOSYS (Function not implemented)"
		"  [i386   int80      4 sys_write missing]\n");

	c.mech = CPU_MECH_SYSENTER;
	c.vdso = true;
	traced(&c);
	assert_string_equal(output(),
		"write(1, NULL, 0)                       = -1 ENOSYS (Function not implemented)"
		"  [i386   sysenter   4 sys_write missing vdso]\n");

	/* x32: the row number in decimal, as the other tables' (the table
	 * says x32; the guest's rax had 0x40000001) */
	c = make_call(SG_TABLE_X32, CPU_MECH_SYSCALL, 1, -38, 1, 0, 0, 0);
	traced(&c);
	assert_string_equal(output(),
		"write(1, NULL, 0)                       = -1 ENOSYS (Function not implemented)"
		"  [x32    syscall    1 sys_write missing]\n");

	/* i386 open: the compat entry point */
	c = make_call(SG_TABLE_I386, CPU_MECH_INT80, 5, -38, 0, 0, 0, 0);
	traced(&c);
	assert_string_equal(output(),
		"open(NULL, O_RDONLY)                    = -1 ENOSYS (Function not implemented)"
		"  [i386   int80      5 compat_sys_open missing]\n");

	/* a number with no row: strace's syscall_0x... and six hex args */
	c = make_call(SG_TABLE_X64, CPU_MECH_SYSCALL, 999, -38, 1, 0, 0x20, 0);
	traced(&c);
	assert_string_equal(output(),
		"syscall_0x3e7(0x1, 0, 0x20, 0, 0, 0)    = -1 ENOSYS (Function not implemented)"
		"  [x86_64 syscall  999 missing]\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_strings),
		cmocka_unit_test(test_openat_and_errors),
		cmocka_unit_test(test_results),
		cmocka_unit_test(test_exit_prints_on_entry),
		cmocka_unit_test(test_process_exit),
		cmocka_unit_test(test_entry_annotation),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
