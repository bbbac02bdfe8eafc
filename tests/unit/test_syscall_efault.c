/* Errors, not crashes: the syscall families called through syscall_entry
 * for each ABI with a bad guest pointer in one argument answer -EFAULT, as
 * the host kernel answers a native program (every case below gives EFAULT
 * natively for an unmapped or kernel-half address). Bad addresses: an
 * unmapped page, the kernel half of the ABI's address space, and, for
 * x86_64, memory of sysgate itself (mapped on the host, not the guest's).
 * A few calls are also run with good arguments and compared with the host.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <linux/net.h>
#include <cmocka.h>

#include "signal/guest_task.h"
#include "mm/mm.h"
#include "syscall/syscall.h"

#define X32_BIT 0x40000000u
#define GUEST_LEN 0x10000u
#define LOW_HINT 0x30000000u

/* argument markers, replaced per call */
#define M_BAD 0xb0b0000000000001ull  /* the bad pointer under test */
#define M_PATH 0xb0b0000000000002ull /* guest string "/" */
#define M_FILE 0xb0b0000000000003ull /* a regular file, read/write */
#define M_DIR 0xb0b0000000000004ull  /* "/" opened as a directory */
#define M_SOCK 0xb0b0000000000005ull /* one end of a unix socket pair */
#define M_BUF 0xb0b0000000000006ull  /* 4 KiB of writable guest memory */

enum abi { I386, X32, X64 };

struct fx {
	struct sg_task_group proc;
	struct sg_task t;
	uint64_t guest;
	enum abi abi;
	int file, dir, sock[2];
};

/* The handle the syscall module gets for the fixture's thread: core's
 * thread begins with its task (signal.h, sg_task). */
static struct sg_thread *handle(struct fx *f)
{
	return (struct sg_thread *)(void *)&f->t;
}

static char sysgate_own[64]; /* host memory that is not the guest's */

static int setup(void **state, enum abi abi)
{
	struct fx *f = calloc(1, sizeof(*f));
	char tmpl[] = "/tmp/sg-efault.XXXXXX";
	long r;

	f->abi = abi;
	f->proc.mm = mm_create(abi != X64);
	assert_non_null(f->proc.mm);
	r = mm_mmap(f->proc.mm, LOW_HINT, GUEST_LEN, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(r > 0);
	f->guest = (uint64_t)r;
	strcpy(g2h(f->guest), "/");
	f->t.group = &f->proc;
	f->t.tid = (int)getpid();
	cpu_init(&f->t.cpu, abi == I386 ? CPU_MODE_32 : CPU_MODE_64);
	f->file = mkstemp(tmpl);
	assert_true(f->file >= 0);
	unlink(tmpl);
	assert_int_equal(write(f->file, "0123456789abcdef", 16), 16);
	/* at the start: a read really copies (at EOF it would not touch the
	 * buffer natively, while sysgate checks the whole buffer first) */
	assert_int_equal(lseek(f->file, 0, SEEK_SET), 0);
	f->dir = open("/", O_RDONLY | O_DIRECTORY);
	assert_int_equal(socketpair(AF_UNIX, SOCK_DGRAM, 0, f->sock), 0);
	*state = f;
	return 0;
}

static int setup_i386(void **state)
{
	return setup(state, I386);
}

static int setup_x32(void **state)
{
	return setup(state, X32);
}

static int setup_x64(void **state)
{
	return setup(state, X64);
}

static int teardown(void **state)
{
	struct fx *f = *state;

	close(f->file);
	close(f->dir);
	close(f->sock[0]);
	close(f->sock[1]);
	mm_destroy(f->proc.mm);
	free(f);
	return 0;
}

static const enum sg_table tables[] = { SG_TABLE_I386, SG_TABLE_X32,
					SG_TABLE_X64 };

/* The number of name in this ABI's table, or -1. */
static long nr_of(enum abi abi, const char *name)
{
	const struct sg_syscall_table *tab = sg_syscall_table(tables[abi]);

	for (unsigned i = 0; i < tab->size; i++)
		if (strcmp(tab->rows[i].name, name) == 0)
			return i;
	return -1;
}

static uint64_t subst(struct fx *f, uint64_t v, uint64_t bad)
{
	switch (v) {
	case M_BAD:
		return bad;
	case M_PATH:
		return f->guest;
	case M_FILE:
		return (uint64_t)f->file;
	case M_DIR:
		return (uint64_t)f->dir;
	case M_SOCK:
		return (uint64_t)f->sock[0];
	case M_BUF:
		return f->guest + 0x1000;
	default:
		return v;
	}
}

/* Run name with args through the ABI's own entry; the result as a long. */
static long call(struct fx *f, const char *name, const uint64_t *args,
		 uint64_t bad)
{
	struct cpu *cpu = &f->t.cpu;
	long nr = nr_of(f->abi, name);
	uint64_t a[6];

	assert_true(nr >= 0);
	for (int i = 0; i < 6; i++)
		a[i] = subst(f, args[i], bad);
	cpu->stop = CPU_STOP_SYSCALL;
	if (f->abi == I386) {
		cpu->mode = CPU_MODE_32;
		cpu->mech = CPU_MECH_INT80;
		cpu->r[R_AX] = (uint64_t)nr;
		cpu->r[R_BX] = a[0];
		cpu->r[R_CX] = a[1];
		cpu->r[R_DX] = a[2];
		cpu->r[R_SI] = a[3];
		cpu->r[R_DI] = a[4];
		cpu->r[R_BP] = a[5];
		syscall_entry(handle(f), NULL);
		return (int32_t)cpu->r[R_AX];
	}
	cpu->mode = CPU_MODE_64;
	cpu->mech = CPU_MECH_SYSCALL;
	cpu->r[R_AX] = (uint64_t)nr | (f->abi == X32 ? X32_BIT : 0);
	cpu->r[R_DI] = a[0];
	cpu->r[R_SI] = a[1];
	cpu->r[R_DX] = a[2];
	cpu->r[R_R10] = a[3];
	cpu->r[R_R8] = a[4];
	cpu->r[R_R9] = a[5];
	syscall_entry(handle(f), NULL);
	return (long)cpu->r[R_AX];
}

struct efault_case {
	const char *name;
	unsigned abis; /* bit per enum abi */
	uint64_t args[6];
};

#define ALL 7u
#define ONLY(x) (1u << (x))
#define NOT(x) (ALL & ~(1u << (x)))

static const struct efault_case cases[] = {
	/* files */
	{ "read", ALL, { M_FILE, M_BAD, 16 } },
	{ "pread64", ALL, { M_FILE, M_BAD, 16, 0, 0 } },
	{ "open", ALL, { M_BAD, O_RDONLY } },
	{ "openat", ALL, { (uint64_t)AT_FDCWD, M_BAD, O_RDONLY } },
	{ "stat", ALL, { M_PATH, M_BAD } },
	{ "lstat", ALL, { M_BAD, M_BUF } },
	{ "fstat", ALL, { M_FILE, M_BAD } },
	{ "stat64", ONLY(I386), { M_PATH, M_BAD } },
	{ "fstat64", ONLY(I386), { M_FILE, M_BAD } },
	{ "fstatat64", ONLY(I386), { (uint64_t)AT_FDCWD, M_PATH, M_BAD, 0 } },
	{ "oldstat", ONLY(I386), { M_PATH, M_BAD } },
	{ "newfstatat", NOT(I386), { (uint64_t)AT_FDCWD, M_PATH, M_BAD, 0 } },
	{ "statx", ALL, { (uint64_t)AT_FDCWD, M_PATH, 0, 0x7ff, M_BAD } },
	{ "statfs", ALL, { M_PATH, M_BAD } },
	{ "fstatfs", ALL, { M_FILE, M_BAD } },
	{ "statfs64", ONLY(I386), { M_PATH, 84, M_BAD } },
	{ "fstatfs64", ONLY(I386), { M_FILE, 84, M_BAD } },
	{ "getdents", ALL, { M_DIR, M_BAD, 4096 } },
	{ "getdents64", ALL, { M_DIR, M_BAD, 4096 } },
	{ "getcwd", ALL, { M_BAD, 256 } },
	{ "readlink", ALL, { M_BAD, M_BUF, 64 } },
	{ "truncate", ALL, { M_BAD, 0 } },
	{ "truncate64", ONLY(I386), { M_BAD, 0, 0 } },
	{ "access", ALL, { M_BAD, 0 } },
	{ "mkdir", ALL, { M_BAD, 0700 } },
	{ "chown", ALL, { M_BAD, 0, 0 } },
	{ "utimensat", ALL, { (uint64_t)AT_FDCWD, M_PATH, M_BAD, 0 } },
	{ "utimes", ALL, { M_PATH, M_BAD } },
	{ "readv", ALL, { M_FILE, M_BAD, 1 } },
	{ "pipe", ALL, { M_BAD } },
	{ "pipe2", ALL, { M_BAD, 0 } },
	{ "getxattr", ALL, { M_PATH, M_BAD, M_BUF, 16 } },
	/* identity, limits, time */
	{ "uname", ALL, { M_BAD } },
	{ "sysinfo", ALL, { M_BAD } },
	{ "times", ALL, { M_BAD } },
	{ "getrusage", ALL, { 0, M_BAD } },
	{ "getresuid", ALL, { M_BAD, M_BUF, M_BUF } },
	{ "getresuid32", ONLY(I386), { M_BAD, M_BUF, M_BUF } },
	{ "getrlimit", ALL, { 0, M_BAD } },
	{ "ugetrlimit", ONLY(I386), { 0, M_BAD } },
	{ "prlimit64", ALL, { 0, 0, 0, M_BAD } },
	{ "sched_getaffinity", ALL, { 0, 128, M_BAD } },
	{ "sched_getparam", ALL, { 0, M_BAD } },
	{ "gettimeofday", ALL, { M_BAD, 0 } },
	{ "clock_gettime", ALL, { 0, M_BAD } },
	{ "clock_gettime64", ONLY(I386), { 0, M_BAD } },
	{ "clock_getres", ALL, { 0, M_BAD } },
	{ "nanosleep", ALL, { M_BAD, 0 } },
	{ "getitimer", ALL, { 0, M_BAD } },
	{ "timer_create", ALL, { 0, 0, M_BAD } },
	/* waiting */
	{ "poll", ALL, { M_BAD, 1, 0 } },
	{ "select", NOT(I386), { 1, M_BAD, 0, 0, 0 } },
	{ "_newselect", ONLY(I386), { 1, M_BAD, 0, 0, 0 } },
	{ "pselect6", ALL, { 1, M_BAD, 0, 0, 0, 0 } },
	{ "ppoll", ALL, { M_BAD, 1, 0, 0, 8 } },
	{ "epoll_ctl", ALL, { M_FILE, 1 /* ADD */, M_SOCK, M_BAD } },
	/* sockets */
	{ "socketpair", ALL, { AF_UNIX, SOCK_STREAM, 0, M_BAD } },
	{ "sendmsg", ALL, { M_SOCK, M_BAD, 0 } },
	{ "recvmsg", ALL, { M_SOCK, M_BAD, MSG_DONTWAIT } },
	{ "sendto", ALL, { M_SOCK, M_BAD, 4, 0, 0, 0 } },
	{ "getsockopt", ALL, { M_SOCK, SOL_SOCKET, SO_TYPE, M_BUF, M_BAD } },
	{ "getsockname", ALL, { M_SOCK, M_BUF, M_BAD } },
	{ "sendmmsg", ALL, { M_SOCK, M_BAD, 1, 0 } },
	{ "socketcall", ONLY(I386), { SYS_SOCKETPAIR, M_BAD } },
	/* System V IPC */
	{ "semop", NOT(I386), { 0, M_BAD, 1 } },
	{ "shmctl", NOT(I386), { 0, 3 /* IPC_INFO */, M_BAD } },
	{ "msgctl", NOT(I386), { 0, 3 /* IPC_INFO */, M_BAD } },
	/* futex */
	{ "futex", ALL, { M_BAD, 1 /* WAKE */, 1, 0, 0, 0 } },
	{ "getrandom", ALL, { M_BAD, 16, 0 } },
};

static void run_cases(struct fx *f, uint64_t bad, const char *what)
{
	unsigned n = 0;

	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct efault_case *c = &cases[i];
		long r;

		if (!(c->abis & (1u << f->abi)))
			continue;
		r = call(f, c->name, c->args, bad);
		if (r != -EFAULT) {
			print_error("%s (%s pointer 0x%llx): %ld, want -EFAULT\n",
				    c->name, what, (unsigned long long)bad, r);
			fail();
		}
		n++;
	}
	assert_true(n > 50);
}

static void unmapped(void **state)
{
	struct fx *f = *state;

	/* below the guest's mapping, nothing there */
	run_cases(f, 0x1000, "unmapped");
	run_cases(f, f->guest + GUEST_LEN + 0x100000, "unmapped");
}

static void kernel_half(void **state)
{
	struct fx *f = *state;

	run_cases(f, f->abi == X64 ? 0xffff800000001000ull : 0xfffff000ull,
		  "kernel-half");
}

/* sysgate's own memory is mapped on the host but is not the guest's */
static void sysgate_memory(void **state)
{
	struct fx *f = *state;

	run_cases(f, (uint64_t)(uintptr_t)sysgate_own, "sysgate");
}

/* The same calls with good arguments give what the host gives. */
static void good_arguments(void **state)
{
	struct fx *f = *state;
	const uint64_t ustat[6] = { M_PATH, M_BUF };
	struct statfs hs;
	struct utsname u;
	uint8_t *buf = g2h(f->guest + 0x1000);

	assert_int_equal(call(f, "statfs", ustat, 0), 0);
	assert_int_equal(statfs("/", &hs), 0);
	if (f->abi == I386) /* f_type then f_bsize, 32-bit words */
		assert_int_equal(*(uint32_t *)(buf + 4), (uint32_t)hs.f_bsize);
	else
		assert_int_equal(*(uint64_t *)(buf + 8), (uint64_t)hs.f_bsize);
	assert_int_equal(call(f, "uname", (const uint64_t[6]){ M_BUF }, 0), 0);
	assert_int_equal(uname(&u), 0);
	assert_string_equal((char *)buf, u.sysname);
	assert_string_equal((char *)buf + 65 * 4, u.machine);
}

#define T(fn, s) cmocka_unit_test_setup_teardown(fn, s, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(unmapped, setup_i386),      T(kernel_half, setup_i386),
		T(good_arguments, setup_i386), T(unmapped, setup_x32),
		T(kernel_half, setup_x32),    T(good_arguments, setup_x32),
		T(unmapped, setup_x64),	      T(kernel_half, setup_x64),
		T(sysgate_memory, setup_x64), T(good_arguments, setup_x64),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
