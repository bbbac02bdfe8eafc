/* syscall_entry: which table and handler each mechanism reaches, how the
 * arguments are read and the result written, and a few handlers end to
 * end. Expected values come from the host (getpid(), fstat(), ...) and
 * from native runs on the host kernel (e.g. rax upper bits are ignored by
 * SYSCALL, INT 0x80 from 64-bit code answers -ENOSYS sign-extended). */
#include <errno.h>
#include <fcntl.h>
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
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <asm/prctl.h>
#include <cmocka.h>

#include "mm/mm.h"
#include "signal/guest_task.h"
#include "syscall/compat/compat.h"
#include "syscall/syscall.h"

#define X32 0x40000000u
#define GUEST_LEN 0x10000u
#define LOW_HINT 0x30000000u

/* i386 numbers (syscall_32.tbl) */
enum { I_WRITE = 4, I_GETPID = 20, I_MMAP2 = 192, I_UGETRLIMIT = 191,
       I_WRITEV = 146, I_FSTAT64 = 197, I_SET_THREAD_AREA = 243,
       I_GET_THREAD_AREA = 244, I_CLOCK_GETTIME = 265, I_READLINK = 85,
       I_RT_SIGACTION = 174 };
/* x86_64 numbers (syscall_64.tbl); x32 rows 512+ */
enum { X_WRITE = 1, X_RT_SIGACTION = 13, X_GETPID = 39, X_UNAME = 63,
       X_ARCH_PRCTL = 158, X_OPENAT = 257, X_EXIT_GROUP = 231, X32_RT_SIGACTION = 512 };

struct fx {
	struct sg_task_group proc;
	struct sg_task t;
	uint64_t guest;  /* GUEST_LEN bytes of read/write guest memory */
	bool low;        /* guest is below 4 GiB (usable by 32-bit code) */
};

/* What the exit_group hook was given (core's part: the process's status). */
static struct sg_exit exit_seen;
static int exits_seen;

static void record_exit(struct sg_task *t, const struct sg_exit *status)
{
	exit_seen = *status;
	exits_seen++;
}

/* The handle the syscall module gets for the fixture's thread: core's
 * thread begins with its task (signal.h, sg_task). */
static struct sg_thread *handle(struct fx *f)
{
	return (struct sg_thread *)(void *)&f->t;
}

static int setup(void **state, bool low4g)
{
	struct fx *f = calloc(1, sizeof(*f));
	long r;

	f->proc.mm = low4g ? mm_create(true) : NULL;
	if (!f->proc.mm)
		f->proc.mm = mm_create(false);
	assert_non_null(f->proc.mm);
	r = mm_mmap(f->proc.mm, LOW_HINT, GUEST_LEN, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(r > 0);
	f->guest = (uint64_t)r;
	f->low = f->guest + GUEST_LEN <= MM_LOW4G_END;
	f->proc.exe_path = "/opt/guest/prog";
	f->proc.hooks.exit_group = record_exit;
	f->t.group = &f->proc;
	f->t.tid = (int)getpid();
	cpu_init(&f->t.cpu, low4g ? CPU_MODE_32 : CPU_MODE_64);
	*state = f;
	return 0;
}

static int setup32(void **state)
{
	return setup(state, true);
}

static int setup64(void **state)
{
	return setup(state, false);
}

static int teardown(void **state)
{
	struct fx *f = *state;

	mm_destroy(f->proc.mm);
	free(f);
	return 0;
}

static void *gp(struct fx *f, uint64_t off)
{
	return g2h(f->guest + off);
}

/* Run one call as the mechanism leaves the registers (64-bit SYSCALL:
 * RCX = the next rip, R11 = RFLAGS, as test_cpu_fault checks the CPU's
 * instruction leaves them). */
static void enter(struct fx *f, enum cpu_mode mode, enum cpu_syscall_mech mech)
{
	if (mode == CPU_MODE_64 && mech == CPU_MECH_SYSCALL) {
		f->t.cpu.r[R_CX] = f->t.cpu.rip;
		f->t.cpu.r[R_R11] = cpu_get_rflags(&f->t.cpu);
	}
	f->t.cpu.mode = mode;
	f->t.cpu.mech = mech;
	f->t.cpu.stop = CPU_STOP_SYSCALL;
	syscall_entry(handle(f), NULL);
}

static uint64_t int80(struct fx *f, enum cpu_mode mode, uint64_t nr,
		      uint64_t b, uint64_t c, uint64_t d)
{
	struct cpu *cpu = &f->t.cpu;

	cpu->r[R_AX] = nr;
	cpu->r[R_BX] = b;
	cpu->r[R_CX] = c;
	cpu->r[R_DX] = d;
	enter(f, mode, CPU_MECH_INT80);
	return cpu->r[R_AX];
}

static uint64_t syscall64(struct fx *f, uint64_t nr, uint64_t di, uint64_t si,
			  uint64_t dx, uint64_t r10)
{
	struct cpu *cpu = &f->t.cpu;

	cpu->r[R_AX] = nr;
	cpu->r[R_DI] = di;
	cpu->r[R_SI] = si;
	cpu->r[R_DX] = dx;
	cpu->r[R_R10] = r10;
	enter(f, CPU_MODE_64, CPU_MECH_SYSCALL);
	return cpu->r[R_AX];
}

#define NEED_LOW(f)                  \
	do {                         \
		if (!(f)->low) {     \
			skip();      \
			return;      \
		}                    \
	} while (0)

/* --- table selection ------------------------------------------------------ */

static void int80_from_32bit(void **state)
{
	struct fx *f = *state;

	assert_int_equal(int80(f, CPU_MODE_32, I_GETPID, 0, 0, 0), getpid());
	assert_int_equal(int80(f, CPU_MODE_32, 5000, 0, 0, 0),
			 (uint32_t)-ENOSYS);
	assert_int_equal(int80(f, CPU_MODE_32, 0xffffffffu, 0, 0, 0),
			 (uint32_t)-ENOSYS);
	/* 32-bit mode: the result is eax only */
	assert_int_equal(f->t.cpu.r[R_AX] >> 32, 0);
}

static void int80_from_64bit(void **state)
{
	struct fx *f = *state;
	int fds[2];
	char buf[8];

	NEED_LOW(f);
	/* the i386 table and only eax, even with upper bits set */
	assert_int_equal(int80(f, CPU_MODE_64, 0xdead00000000ull | I_GETPID,
			       0, 0, 0), getpid());
	/* -ENOSYS is a long in rax */
	assert_true(int80(f, CPU_MODE_64, 5000, 0, 0, 0) ==
		    (uint64_t)(int64_t)-ENOSYS);
	/* arguments are the low 32 bits of rbx, rcx, rdx */
	assert_int_equal(pipe(fds), 0);
	memcpy(gp(f, 0), "int80!", 6);
	assert_int_equal(int80(f, CPU_MODE_64, I_WRITE,
			       0xffffffff00000000ull | (unsigned)fds[1],
			       0x1234567800000000ull | f->guest,
			       0xabcdef0000000000ull | 6), 6);
	assert_int_equal(read(fds[0], buf, sizeof(buf)), 6);
	assert_memory_equal(buf, "int80!", 6);
	close(fds[0]);
	close(fds[1]);
}

static void syscall_x64(void **state)
{
	struct fx *f = *state;

	assert_int_equal(syscall64(f, X_GETPID, 0, 0, 0, 0), getpid());
	/* SYSCALL looks at eax only (native: getpid) */
	assert_int_equal(syscall64(f, 0xffffffff00000000ull | X_GETPID, 0, 0,
				   0, 0), getpid());
	/* rcx/r11 as the instruction left them: the kernel's SYSRET returns them */
	assert_true(f->t.cpu.r[R_CX] == f->t.cpu.rip);
	assert_true(f->t.cpu.r[R_R11] == cpu_get_rflags(&f->t.cpu));
	/* x32-only rows without the bit, unknown and negative numbers */
	assert_true(syscall64(f, X32_RT_SIGACTION, 0, 0, 0, 0) ==
		    (uint64_t)(int64_t)-ENOSYS);
	assert_true(syscall64(f, 100000, 0, 0, 0, 0) ==
		    (uint64_t)(int64_t)-ENOSYS);
	assert_true(syscall64(f, (uint64_t)-1, 0, 0, 0, 0) ==
		    (uint64_t)(int64_t)-ENOSYS);
}

static void syscall_x32(void **state)
{
	struct fx *f = *state;
	struct compat_sigaction *act = gp(f, 0);
	struct compat_sigaction *old = gp(f, 64);

	assert_int_equal(syscall64(f, X32 | X_GETPID, 0, 0, 0, 0), getpid());
	/* a 64-only row through the x32 bit */
	assert_true(syscall64(f, X32 | X_RT_SIGACTION, 0, 0, 0, 0) ==
		    (uint64_t)(int64_t)-ENOSYS);
	/* past the end of the x32 table */
	assert_true(syscall64(f, X32 | 0x3fffffffu, 0, 0, 0, 0) ==
		    (uint64_t)(int64_t)-ENOSYS);
	/* x32 rt_sigaction (512): the 32-bit struct sigaction */
	memset(act, 0, sizeof(*act));
	act->handler = 0x8048123;
	act->flags = 0x04000000; /* SA_RESTORER */
	act->restorer = 0x8048456;
	act->mask[0] = 1u << (SIGUSR2 - 1);
	act->mask[1] = 1u;
	assert_int_equal(syscall64(f, X32 | X32_RT_SIGACTION, SIGUSR1,
				   f->guest, 0, 8), 0);
	assert_true(f->proc.sigactions[SIGUSR1 - 1].handler == 0x8048123);
	assert_true(f->proc.sigactions[SIGUSR1 - 1].restorer == 0x8048456);
	assert_true(f->proc.sigactions[SIGUSR1 - 1].mask ==
		    ((1ull << 32) | (1u << (SIGUSR2 - 1))));
	memset(old, 0xff, sizeof(*old));
	assert_int_equal(syscall64(f, X32 | X32_RT_SIGACTION, SIGUSR1, 0,
				   f->guest + 64, 8), 0);
	assert_memory_equal(old, act, sizeof(*act));
}

static void rt_sigaction_x64(void **state)
{
	struct fx *f = *state;
	uint64_t *act = gp(f, 0);

	act[0] = 0x401000;          /* handler */
	act[1] = 0x04000000;        /* SA_RESTORER */
	act[2] = 0x401100;          /* restorer */
	act[3] = ~0ull;             /* mask: SIGKILL/SIGSTOP are dropped */
	assert_int_equal(syscall64(f, X_RT_SIGACTION, SIGINT, f->guest, 0, 8),
			 0);
	assert_true(f->proc.sigactions[SIGINT - 1].handler == 0x401000);
	assert_true(f->proc.sigactions[SIGINT - 1].mask ==
		    ~((1ull << (SIGKILL - 1)) | (1ull << (SIGSTOP - 1))));
	assert_true(syscall64(f, X_RT_SIGACTION, SIGKILL, f->guest, 0, 8) ==
		    (uint64_t)(int64_t)-EINVAL);
	assert_true(syscall64(f, X_RT_SIGACTION, SIGINT, f->guest, 0, 4) ==
		    (uint64_t)(int64_t)-EINVAL);
}

/* --- SYSENTER --------------------------------------------------------------- */

static void sysenter_arg6_and_landing(void **state)
{
	struct fx *f = *state;
	struct cpu *cpu = &f->t.cpu;
	char path[] = "/tmp/sg-sysenter-XXXXXX";
	char page[4096];
	int fd = mkstemp(path);
	uint64_t stack = f->guest + 0x1000;

	NEED_LOW(f);
	assert_true(fd >= 0);
	unlink(path);
	memset(page, 'A', sizeof(page));
	assert_int_equal(write(fd, page, sizeof(page)), sizeof(page));
	memset(page, 'B', sizeof(page));
	assert_int_equal(write(fd, page, sizeof(page)), sizeof(page));

	/* __kernel_vsyscall: push ecx; push edx; push ebp; mov esp, ebp */
	*(uint32_t *)g2h(stack) = 1;        /* the saved ebp = arg 6 */
	f->proc.vdso.sysenter_return = 0xffffe414;
	cpu->rip = 0xffffe412;
	cpu->r[R_AX] = I_MMAP2;
	cpu->r[R_BX] = f->guest + 0x8000;
	cpu->r[R_CX] = 4096;
	cpu->r[R_DX] = PROT_READ;
	cpu->r[R_SI] = MAP_PRIVATE | MAP_FIXED;
	cpu->r[R_DI] = (uint32_t)fd;
	cpu->r[R_BP] = stack;
	cpu->r[R_SP] = 0x0bad0bad;
	enter(f, CPU_MODE_32, CPU_MECH_SYSENTER);
	assert_int_equal(cpu->r[R_AX], f->guest + 0x8000);
	/* page 1 of the file: arg 6 came from [ebp] */
	assert_int_equal(*(char *)gp(f, 0x8000), 'B');
	assert_int_equal(cpu->rip, 0xffffe414);
	assert_int_equal(cpu->r[R_SP], stack);
	assert_int_equal(cpu->r[R_BP], 1);
	close(fd);
}

static void sysenter_without_vdso(void **state)
{
	struct fx *f = *state;
	struct cpu *cpu = &f->t.cpu;

	f->proc.vdso.sysenter_return = 0;
	cpu->rip = 0x8049000;
	cpu->r[R_AX] = I_GETPID;
	cpu->r[R_BP] = f->guest;
	cpu->r[R_SP] = 0xbfff0000;
	enter(f, CPU_MODE_32, CPU_MECH_SYSENTER);
	assert_int_equal(cpu->r[R_AX], (uint32_t)-ENOSYS);
	assert_int_equal(cpu->rip, 0x8049000);
	assert_int_equal(cpu->r[R_SP], 0xbfff0000);
}

static void sysenter_bad_stack(void **state)
{
	struct fx *f = *state;
	struct cpu *cpu = &f->t.cpu;

	NEED_LOW(f);
	f->proc.vdso.sysenter_return = 0xffffe414;
	cpu->r[R_AX] = I_GETPID;
	cpu->r[R_BP] = f->guest + GUEST_LEN; /* just past the mapping */
	enter(f, CPU_MODE_32, CPU_MECH_SYSENTER);
	assert_int_equal(cpu->r[R_AX], (uint32_t)-EFAULT);
	assert_int_equal(cpu->rip, 0xffffe414);
}

/* --- handlers ---------------------------------------------------------------- */

static void exit_group_records(void **state)
{
	struct fx *f = *state;

	exits_seen = 0;
	syscall64(f, X_EXIT_GROUP, 0x1234, 0, 0, 0);
	assert_int_equal(exits_seen, 1);
	assert_int_equal(exit_seen.code, 0x34);
	assert_int_equal(exit_seen.signaled, 0);
}

static void arch_prctl_fs(void **state)
{
	struct fx *f = *state;

	assert_int_equal(syscall64(f, X_ARCH_PRCTL, ARCH_SET_FS, 0x7f0012345000,
				   0, 0), 0);
	assert_true(f->t.cpu.base[SEG_FS] == 0x7f0012345000);
	assert_int_equal(syscall64(f, X_ARCH_PRCTL, ARCH_GET_FS, f->guest, 0,
				   0), 0);
	assert_true(*(uint64_t *)gp(f, 0) == 0x7f0012345000);
	assert_true(syscall64(f, X_ARCH_PRCTL, 0x9999, 0, 0, 0) ==
		    (uint64_t)(int64_t)-EINVAL);
}

static void set_thread_area_i386(void **state)
{
	struct fx *f = *state;
	struct user_desc_words { uint32_t entry, base, limit, flags; } *u =
		gp(f, 0x100);
	/* seg_32bit, limit_in_pages, useable: what glibc passes */
	const uint32_t flags = 0x01 | 0x10 | 0x40;

	NEED_LOW(f);
	u->entry = UINT32_MAX;
	u->base = 0x0804c380;
	u->limit = 0xfffff;
	u->flags = flags;
	assert_int_equal(int80(f, CPU_MODE_32, I_SET_THREAD_AREA,
			       f->guest + 0x100, 0, 0), 0);
	assert_int_equal(u->entry, 12);
	assert_true(f->t.cpu.tls[0].present);
	assert_int_equal(f->t.cpu.tls[0].base, 0x0804c380);

	/* a second free slot; then reading the first back */
	u->entry = UINT32_MAX;
	assert_int_equal(int80(f, CPU_MODE_32, I_SET_THREAD_AREA,
			       f->guest + 0x100, 0, 0), 0);
	assert_int_equal(u->entry, 13);
	memset(u, 0, sizeof(*u));
	u->entry = 12;
	assert_int_equal(int80(f, CPU_MODE_32, I_GET_THREAD_AREA,
			       f->guest + 0x100, 0, 0), 0);
	assert_int_equal(u->base, 0x0804c380);
	assert_int_equal(u->limit, 0xfffff);
	assert_int_equal(u->flags & 0x7f, flags);
	/* changing the entry GS holds reloads GS (selector 13 << 3 | 3) */
	f->t.cpu.sel[SEG_GS] = 13 << 3 | 3;
	f->t.cpu.base[SEG_GS] = 0x0804c380;
	u->entry = 13;
	u->base = 0x0805d000;
	u->limit = 0xfffff;
	u->flags = flags;
	assert_int_equal(int80(f, CPU_MODE_32, I_SET_THREAD_AREA,
			       f->guest + 0x100, 0, 0), 0);
	assert_int_equal(f->t.cpu.base[SEG_GS], 0x0805d000);
	/* out of the TLS range, and a 16-bit segment */
	u->entry = 11;
	assert_int_equal(int80(f, CPU_MODE_32, I_SET_THREAD_AREA,
			       f->guest + 0x100, 0, 0), (uint32_t)-EINVAL);
	u->entry = 12;
	u->flags = 0x10;
	assert_int_equal(int80(f, CPU_MODE_32, I_SET_THREAD_AREA,
			       f->guest + 0x100, 0, 0), (uint32_t)-EINVAL);
}

static void readlink_proc_self_exe(void **state)
{
	struct fx *f = *state;
	char *path = gp(f, 0);
	char *buf = gp(f, 0x100);

	NEED_LOW(f);
	strcpy(path, "/proc/self/exe");
	f->t.cpu.r[R_DX] = 64;
	assert_int_equal(int80(f, CPU_MODE_32, I_READLINK, f->guest,
			       f->guest + 0x100, 64), strlen("/opt/guest/prog"));
	assert_memory_equal(buf, "/opt/guest/prog", strlen("/opt/guest/prog"));
	/* truncated to the buffer, no NUL, as readlink does */
	memset(buf, 'x', 8);
	assert_int_equal(int80(f, CPU_MODE_32, I_READLINK, f->guest,
			       f->guest + 0x100, 4), 4);
	assert_memory_equal(buf, "/optxxxx", 8);
}

static void fstat64_i386(void **state)
{
	struct fx *f = *state;
	struct compat_stat64 *st = gp(f, 0x200);
	struct stat host;
	char path[] = "/tmp/sg-stat64-XXXXXX";
	int fd = mkstemp(path);

	NEED_LOW(f);
	assert_true(fd >= 0);
	unlink(path);
	assert_int_equal(write(fd, "0123456789", 10), 10);
	assert_int_equal(fstat(fd, &host), 0);
	memset(st, 0xaa, sizeof(*st));
	assert_int_equal(int80(f, CPU_MODE_32, I_FSTAT64, (unsigned)fd,
			       f->guest + 0x200, 0), 0);
	assert_int_equal(st->st_size, 10);
	assert_true(st->st_ino == host.st_ino);
	assert_int_equal(st->st_mode, host.st_mode);
	assert_int_equal(st->st_uid, host.st_uid);
	assert_int_equal(st->st_dev, host.st_dev);
	assert_int_equal(st->st_mtime_, host.st_mtim.tv_sec);
	/* native i386 run: fstat64 leaves the padding as it was */
	assert_int_equal(st->pad0[0], 0xaa);
	/* a buffer outside guest memory */
	assert_int_equal(int80(f, CPU_MODE_32, I_FSTAT64, (unsigned)fd,
			       f->guest + GUEST_LEN - 8, 0),
			 (uint32_t)-EFAULT);
	close(fd);
}

static void writev_compat_iovec(void **state)
{
	struct fx *f = *state;
	struct compat_iovec *iov = gp(f, 0);
	int fds[2];
	char buf[16];

	NEED_LOW(f);
	assert_int_equal(pipe(fds), 0);
	memcpy(gp(f, 0x100), "abc", 3);
	memcpy(gp(f, 0x200), "defg", 4);
	iov[0].iov_base = (uint32_t)(f->guest + 0x100);
	iov[0].iov_len = 3;
	iov[1].iov_base = (uint32_t)(f->guest + 0x200);
	iov[1].iov_len = 4;
	assert_int_equal(int80(f, CPU_MODE_32, I_WRITEV, (unsigned)fds[1],
			       f->guest, 2), 7);
	assert_int_equal(read(fds[0], buf, sizeof(buf)), 7);
	assert_memory_equal(buf, "abcdefg", 7);
	/* a vector entry pointing outside guest memory */
	iov[1].iov_base = 0x1000;
	assert_int_equal(int80(f, CPU_MODE_32, I_WRITEV, (unsigned)fds[1],
			       f->guest, 2), (uint32_t)-EFAULT);
	close(fds[0]);
	close(fds[1]);
}

static void ugetrlimit_i386(void **state)
{
	struct fx *f = *state;
	struct compat_rlimit *r = gp(f, 0);
	struct rlimit host;

	NEED_LOW(f);
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &host), 0);
	assert_int_equal(int80(f, CPU_MODE_32, I_UGETRLIMIT, RLIMIT_NOFILE,
			       f->guest, 0), 0);
	assert_int_equal(r->rlim_cur, host.rlim_cur > 0xffffffffu
						? 0xffffffffu : host.rlim_cur);
	assert_int_equal(r->rlim_max, host.rlim_max > 0xffffffffu
						? 0xffffffffu : host.rlim_max);
}

static void clock_gettime_time32(void **state)
{
	struct fx *f = *state;
	struct compat_timespec *ts = gp(f, 0);
	struct timespec before, after;

	NEED_LOW(f);
	clock_gettime(CLOCK_REALTIME, &before);
	assert_int_equal(int80(f, CPU_MODE_32, I_CLOCK_GETTIME, CLOCK_REALTIME,
			       f->guest, 0), 0);
	clock_gettime(CLOCK_REALTIME, &after);
	assert_true(ts->tv_sec >= (int32_t)before.tv_sec);
	assert_true(ts->tv_sec <= (int32_t)after.tv_sec);
	assert_true(ts->tv_nsec >= 0 && ts->tv_nsec < 1000000000);
}

static void bad_pointers_fault(void **state)
{
	struct fx *f = *state;
	char emulator_memory[16] = "not guest memory";
	int fds[2];

	assert_int_equal(pipe(fds), 0);
	/* sysgate's own memory is not the guest's: -EFAULT, nothing written */
	assert_true(syscall64(f, X_WRITE, (unsigned)fds[1],
			      (uint64_t)(uintptr_t)emulator_memory, 16, 0) ==
		    (uint64_t)(int64_t)-EFAULT);
	assert_true(syscall64(f, X_UNAME, (uint64_t)(uintptr_t)emulator_memory,
			      0, 0, 0) == (uint64_t)(int64_t)-EFAULT);
	close(fds[0]);
	close(fds[1]);
}

static void proc_self_maps_is_the_guests(void **state)
{
	struct fx *f = *state;
	char want[32], buf[4096];
	long fd, n;

	strcpy(gp(f, 0), "/proc/self/maps");
	fd = (long)syscall64(f, X_OPENAT, (uint64_t)(int64_t)AT_FDCWD,
			     f->guest, O_RDONLY, 0);
	assert_true(fd >= 0);
	n = read((int)fd, buf, sizeof(buf) - 1);
	assert_true(n > 0);
	buf[n] = 0;
	/* the guest's mapping is listed, sysgate's own image is not */
	snprintf(want, sizeof(want), "%08llx-", (unsigned long long)f->guest);
	assert_non_null(strstr(buf, want));
	assert_null(strstr(buf, "test_syscall_entry"));
	close((int)fd);
}

static void uname_passthrough(void **state)
{
	struct fx *f = *state;
	struct utsname host;

	assert_int_equal(uname(&host), 0);
	assert_int_equal(syscall64(f, X_UNAME, f->guest, 0, 0, 0), 0);
	assert_memory_equal(gp(f, 0), &host, sizeof(host));
}

#define T32(fn) cmocka_unit_test_setup_teardown(fn, setup32, teardown)
#define T64(fn) cmocka_unit_test_setup_teardown(fn, setup64, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T32(int80_from_32bit),
		T32(int80_from_64bit),
		T64(syscall_x64),
		T64(syscall_x32),
		T64(rt_sigaction_x64),
		T32(sysenter_arg6_and_landing),
		T32(sysenter_without_vdso),
		T32(sysenter_bad_stack),
		T64(exit_group_records),
		T64(arch_prctl_fs),
		T32(set_thread_area_i386),
		T32(readlink_proc_self_exe),
		T32(fstat64_i386),
		T32(writev_compat_iovec),
		T32(ugetrlimit_i386),
		T32(clock_gettime_time32),
		T64(bad_pointers_fault),
		T64(uname_passthrough),
		T64(proc_self_maps_is_the_guests),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
