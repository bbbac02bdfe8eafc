/* highptr: system calls given a pointer at or above 4 GiB whose low 32 bits
 * name a valid buffer. The kernel takes a 64-bit system call's pointer
 * argument whole (x32's common rows too): the memory there is unmapped,
 * so the result is EFAULT; it must never be written at the low 32 bits. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static char buf[8192] __attribute__((aligned(4096)));

static long raw6(long nr, uint64_t a, uint64_t b, uint64_t c)
{
	long long r;
	register uint64_t r10 __asm__("r10") = 0;

	__asm__ volatile("syscall"
			 : "=a"(r)
			 : "0"((long long)nr), "D"(a), "S"(b), "d"(c), "r"(r10)
			 : "rcx", "r11", "memory");
	return (long)r;
}

int main(void)
{
	uint64_t high = (uint64_t)(uintptr_t)buf + (1ull << 32);
	int dir = open(".", O_RDONLY | O_DIRECTORY);
	int fd = open("/proc/self/exe", O_RDONLY);
	int bad = 0;
	struct { const char *name; long nr; uint64_t a, b, c; } calls[] = {
		{ "getdents64", SYS_getdents64, (uint64_t)dir, high, sizeof(buf) },
		{ "read", SYS_read, (uint64_t)fd, high, 64 },
		{ "pread64", SYS_pread64, (uint64_t)fd, high, 64 },
		{ "write", SYS_write, 1, high, 1 },
		{ "fstat", SYS_fstat, (uint64_t)fd, high, 0 },
		{ "clock_gettime", SYS_clock_gettime, CLOCK_REALTIME, high, 0 },
		{ "uname", SYS_uname, high, 0, 0 },
		{ "pipe", SYS_pipe, high, 0, 0 },
		{ "getcwd", SYS_getcwd, high, 4096, 0 },
		{ "getrandom", SYS_getrandom, high, 16, 0 },
		{ "open", SYS_open, high, O_RDONLY, 0 },
		{ "access", SYS_access, high, F_OK, 0 },
		{ "readlink", SYS_readlink, (uint64_t)(uintptr_t)"/proc/self/exe", high, 64 },
		{ "sysinfo", SYS_sysinfo, high, 0, 0 },
		{ "getrusage", SYS_getrusage, 0, high, 0 },
		{ "times", SYS_times, high, 0, 0 },
		{ "time", SYS_time, high, 0, 0 },
		{ "gettimeofday", SYS_gettimeofday, high, 0, 0 },
		{ "sched_getaffinity", SYS_sched_getaffinity, 0, 128, high },
		{ "getresuid", SYS_getresuid, high, high, high },
	};

	for (unsigned i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		long r;

		memset(buf, 0x5a, sizeof(buf));
		r = raw6(calls[i].nr, calls[i].a, calls[i].b, calls[i].c);
		for (unsigned k = 0; k < sizeof(buf); k++)
			if (buf[k] != 0x5a) {
				bad++;
				printf("%s: wrote at the low 32 bits\n", calls[i].name);
				break;
			}
		printf("%s = %ld\n", calls[i].name, r < 0 && r > -4096 ? r : (r ? 1L : 0L));
	}
	return bad;
}
