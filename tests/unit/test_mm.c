/* src/mm: the low 4 GiB reservation, guest mmap/munmap/mprotect/mremap/brk
 * with the kernel's results, checked guest access, /proc/self/maps lines.
 * Expected values come from the kernel's documented behaviour and from
 * the host's own /proc/self/maps for the same mappings. */
#define _GNU_SOURCE /* MREMAP_* */
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
#include <unistd.h>
#include <cmocka.h>

#include "mm/mm.h"

#define PAGE 4096ull
#define RW (PROT_READ | PROT_WRITE)
#define ANON (MAP_PRIVATE | MAP_ANONYMOUS)

static int setup_low4g(void **state)
{
	struct mm *mm = mm_create(true);

	if (!mm) {
		fprintf(stderr, "mm_create(low4g): %s\n", strerror(errno));
		return -1;
	}
	*state = mm;
	return 0;
}

static int setup_x64(void **state)
{
	*state = mm_create(false);
	return *state ? 0 : -1;
}

static int teardown(void **state)
{
	mm_destroy(*state);
	return 0;
}

/* Is anything mapped on the host at addr? (MAP_FIXED_NOREPLACE probe) */
static bool host_mapped(uint64_t addr)
{
	void *p = mmap((void *)(uintptr_t)addr, PAGE, PROT_NONE,
		       ANON | MAP_FIXED_NOREPLACE, -1, 0);

	if (p == MAP_FAILED)
		return errno == EEXIST;
	munmap(p, PAGE);
	return false;
}

/* The line of a maps-format text starting at addr, or "" */
static void find_line(const char *text, uint64_t addr, char *out, size_t n)
{
	char key[32];
	const char *p = text;

	snprintf(key, sizeof(key), "%08llx-", (unsigned long long)addr);
	out[0] = '\0';
	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		if (strncmp(p, key, strlen(key)) == 0 && len < n) {
			memcpy(out, p, len);
			out[len] = '\0';
			return;
		}
		p = nl ? nl + 1 : NULL;
	}
}

static void read_fd_all(int fd, char *buf, size_t n)
{
	size_t got = 0;
	ssize_t r;

	lseek(fd, 0, SEEK_SET);
	while (got + 1 < n && (r = read(fd, buf + got, n - got - 1)) > 0)
		got += (size_t)r;
	buf[got] = '\0';
}

static void host_maps(char *buf, size_t n)
{
	int fd = open("/proc/self/maps", O_RDONLY);

	assert_true(fd >= 0);
	read_fd_all(fd, buf, n);
	close(fd);
}

static void guest_maps(struct mm *mm, char *buf, size_t n)
{
	FILE *f = tmpfile();

	assert_non_null(f);
	assert_int_equal(mm_write_maps(mm, fileno(f)), 0);
	read_fd_all(fileno(f), buf, n);
	fclose(f);
}

static void test_reservation(void **state)
{
	struct mm *mm = *state;
	uint64_t top = mm_stack_top(mm);

	assert_true(mm_is_low4g(mm));
	assert_int_equal(mm_task_size(mm), 0xffffe000);
	/* the whole usable range is held on the host */
	assert_true(host_mapped(0x10000000));
	assert_true(host_mapped(top - PAGE));
	/* nothing of it is guest memory yet */
	assert_false(mm_access_ok(mm, 0x10000000, 1, PROT_READ));
	/* a second low4g space cannot be made while this one exists */
	errno = 0;
	assert_null(mm_create(true));
	assert_int_equal(errno, EEXIST);
	/* a host mmap without hint never lands in the low 4 GiB now */
	void *p = mmap(NULL, 1 << 20, RW, ANON, -1, 0);
	assert_true(p != MAP_FAILED);
	assert_true((uintptr_t)p >= MM_LOW4G_END);
	munmap(p, 1 << 20);
}

static void test_low4g_mmap_placement(void **state)
{
	struct mm *mm = *state;
	uint64_t top = mm_stack_top(mm);
	long a = mm_mmap(mm, 0, 3 * PAGE, RW, ANON, -1, 0);
	long b = mm_mmap(mm, 0, 5000, RW, ANON, -1, 0);

	assert_true(a > 0 && b > 0);
	/* top-down under mmap_base = stack top - 128 MiB, like a compat task */
	assert_true((uint64_t)a + 3 * PAGE <= top - (128ull << 20));
	assert_int_equal(b + 2 * PAGE, a);
	assert_true(mm_access_ok(mm, a, 3 * PAGE, PROT_WRITE));
	assert_true(mm_access_ok(mm, b, 2 * PAGE + 3 * PAGE, PROT_READ));
	memset((void *)a, 0x5a, 3 * PAGE);
	/* a free hint is honoured */
	assert_int_equal(mm_mmap(mm, 0x20000000, PAGE, RW, ANON, -1, 0),
			 0x20000000);
	/* a taken hint is not, and not an error */
	long c = mm_mmap(mm, 0x20000000, PAGE, RW, ANON, -1, 0);
	assert_true(c > 0 && c != 0x20000000);
	assert_int_equal(mm_munmap(mm, a, 3 * PAGE), 0);
	assert_int_equal(mm_munmap(mm, b, 2 * PAGE), 0);
	assert_int_equal(mm_munmap(mm, c, PAGE), 0);
	assert_int_equal(mm_munmap(mm, 0x20000000, PAGE), 0);
}

static void test_low4g_mmap_errors(void **state)
{
	struct mm *mm = *state;

	assert_int_equal(mm_mmap(mm, 0, 0, RW, ANON, -1, 0), -EINVAL);
	assert_int_equal(mm_mmap(mm, 0x30000001, PAGE, RW, ANON | MAP_FIXED, -1, 0),
			 -EINVAL);
	assert_int_equal(mm_mmap(mm, 0, PAGE, RW, ANON, -1, 100), -EINVAL);
	/* beyond a compat task's TASK_SIZE */
	assert_int_equal(mm_mmap(mm, 0xffffe000, PAGE, RW, ANON | MAP_FIXED, -1, 0),
			 -ENOMEM);
	assert_int_equal(mm_mmap(mm, 0xfffff000, PAGE, RW, ANON | MAP_FIXED, -1, 0),
			 -ENOMEM);
	assert_int_equal(mm_mmap(mm, 0x100000000ull, PAGE, RW, ANON | MAP_FIXED,
				 -1, 0), -ENOMEM);
	assert_int_equal(mm_mmap(mm, 0, 0x100000000ull, RW, ANON, -1, 0), -ENOMEM);
	/* below mmap_min_addr: the LSM check says EPERM */
	assert_int_equal(mm_mmap(mm, 0, PAGE, RW, ANON | MAP_FIXED, -1, 0), -EPERM);
	/* FIXED_NOREPLACE over a guest mapping */
	assert_int_equal(mm_mmap(mm, 0x30000000, 2 * PAGE, RW, ANON | MAP_FIXED,
				 -1, 0), 0x30000000);
	assert_int_equal(mm_mmap(mm, 0x30001000, PAGE, RW,
				 ANON | MAP_FIXED_NOREPLACE, -1, 0), -EEXIST);
	/* plain MAP_FIXED replaces it */
	*(volatile char *)0x30001000 = 7;
	assert_int_equal(mm_mmap(mm, 0x30001000, PAGE, PROT_READ, ANON | MAP_FIXED,
				 -1, 0), 0x30001000);
	assert_int_equal(*(volatile char *)0x30001000, 0);
	assert_true(mm_access_ok(mm, 0x30000000, PAGE, PROT_WRITE));
	assert_false(mm_access_ok(mm, 0x30000000, 2 * PAGE, PROT_WRITE));
	assert_true(mm_access_ok(mm, 0x30000000, 2 * PAGE, PROT_READ));
	assert_int_equal(mm_munmap(mm, 0x30000000, 2 * PAGE), 0);
}

static void test_low4g_munmap_rereserves(void **state)
{
	struct mm *mm = *state;
	uint64_t a = 0x40000000;

	assert_int_equal(mm_mmap(mm, a, 4 * PAGE, RW, ANON | MAP_FIXED, -1, 0),
			 (long)a);
	/* unmap the middle: the pages go back to the reservation, not the host */
	assert_int_equal(mm_munmap(mm, a + PAGE, 2 * PAGE), 0);
	assert_true(host_mapped(a + PAGE));
	assert_false(mm_access_ok(mm, a + PAGE, 1, PROT_READ));
	assert_true(mm_access_ok(mm, a, PAGE, PROT_WRITE));
	assert_true(mm_access_ok(mm, a + 3 * PAGE, PAGE, PROT_WRITE));
	assert_false(mm_access_ok(mm, a, 4 * PAGE, PROT_READ));
	/* argument checks as the kernel's munmap */
	assert_int_equal(mm_munmap(mm, a + 1, PAGE), -EINVAL);
	assert_int_equal(mm_munmap(mm, a, 0), -EINVAL);
	assert_int_equal(mm_munmap(mm, 0xfffff000, PAGE), -EINVAL);
	/* unmapping nothing is fine */
	assert_int_equal(mm_munmap(mm, 0x50000000, PAGE), 0);
	assert_int_equal(mm_munmap(mm, a, 4 * PAGE), 0);
	assert_false(mm_access_ok(mm, a, 1, PROT_READ));
}

static void test_mprotect(void **state)
{
	struct mm *mm = *state;
	long a = mm_mmap(mm, 0, 3 * PAGE, RW, ANON, -1, 0);

	assert_true(a > 0);
	assert_int_equal(mm_mprotect(mm, a + PAGE, PAGE, PROT_READ), 0);
	assert_true(mm_access_ok(mm, a, PAGE, PROT_WRITE));
	assert_false(mm_access_ok(mm, a + PAGE, 1, PROT_WRITE));
	assert_true(mm_access_ok(mm, a + PAGE, PAGE, PROT_READ));
	assert_true(mm_access_ok(mm, a + 2 * PAGE, PAGE, PROT_WRITE));
	assert_int_equal(mm_mprotect(mm, a, PAGE, PROT_NONE), 0);
	assert_false(mm_access_ok(mm, a, 1, PROT_READ));
	/* back to RW everywhere: the pieces merge again */
	assert_int_equal(mm_mprotect(mm, a, 3 * PAGE, RW), 0);
	assert_true(mm_access_ok(mm, a, 3 * PAGE, PROT_WRITE));
	/* errors */
	assert_int_equal(mm_mprotect(mm, a + 1, PAGE, RW), -EINVAL);
	assert_int_equal(mm_mprotect(mm, a, PAGE, 0x1000), -EINVAL);
	assert_int_equal(mm_mprotect(mm, a, 0, RW), 0);
	/* a range running into unmapped memory */
	assert_int_equal(mm_mprotect(mm, a, 4 * PAGE, PROT_READ), -ENOMEM);
	assert_int_equal(mm_munmap(mm, a, 3 * PAGE), 0);
}

static void test_brk(void **state)
{
	struct mm *mm = *state;
	uint64_t start = 0x08100000;

	assert_int_equal(mm_brk(mm, 0), 0); /* not initialised: nothing */
	mm_brk_init(mm, start);
	assert_int_equal(mm_brk(mm, 0), start);
	assert_int_equal(mm_brk(mm, start + 5000), start + 5000);
	assert_true(mm_access_ok(mm, start, 2 * PAGE, PROT_WRITE));
	assert_false(mm_access_ok(mm, start + 2 * PAGE, 1, PROT_READ));
	memset((void *)(uintptr_t)start, 1, 5000);
	/* below the start: unchanged */
	assert_int_equal(mm_brk(mm, start - 1), start + 5000);
	/* shrink: the second page goes away */
	assert_int_equal(mm_brk(mm, start + 10), start + 10);
	assert_false(mm_access_ok(mm, start + PAGE, 1, PROT_READ));
	/* a mapping in the way: growing to within a page of it fails */
	assert_int_equal(mm_mmap(mm, start + 4 * PAGE, PAGE, RW, ANON | MAP_FIXED,
				 -1, 0), (long)(start + 4 * PAGE));
	assert_int_equal(mm_brk(mm, start + 4 * PAGE), start + 10);
	assert_int_equal(mm_brk(mm, start + 3 * PAGE), start + 3 * PAGE);
	/* grown memory is zeroed */
	assert_int_equal(*(volatile char *)(uintptr_t)(start + PAGE), 0);
	assert_int_equal(mm_brk(mm, start), start);
	assert_int_equal(mm_munmap(mm, start + 4 * PAGE, PAGE), 0);
}

static void test_access_low4g(void **state)
{
	struct mm *mm = *state;
	long a = mm_mmap(mm, 0, 2 * PAGE, RW, ANON, -1, 0);
	char buf[64];
	long big;

	assert_true(a > 0);
	/* kernel half, beyond 4 GiB, overflow, NULL, reservation */
	assert_false(mm_access_ok(mm, 0xffff800000000000ull, 1, PROT_READ));
	assert_false(mm_access_ok(mm, 0x100000000ull, 1, PROT_READ));
	assert_false(mm_access_ok(mm, UINT64_MAX, 2, PROT_READ));
	assert_false(mm_access_ok(mm, 0, 1, PROT_READ));
	assert_true(mm_access_ok(mm, 0, 0, PROT_READ));
	assert_int_equal(copy_from_guest(mm, buf, 0x60000000, 4), -EFAULT);
	assert_int_equal(copy_to_guest(mm, 0xffffe000, buf, 4), -EFAULT);
	/* a copy straddling the end of the mapping */
	assert_int_equal(copy_from_guest(mm, buf, a + 2 * PAGE - 2, 4), -EFAULT);
	assert_int_equal(copy_to_guest(mm, a + 10, "hello", 6), 0);
	assert_int_equal(copy_from_guest(mm, buf, a + 10, 6), 0);
	assert_string_equal(buf, "hello");
	/* strings */
	assert_int_equal(strncpy_from_guest(mm, buf, a + 10, sizeof(buf)), 5);
	assert_string_equal(buf, "hello");
	assert_int_equal(strncpy_from_guest(mm, buf, a + 10, 5), -ENAMETOOLONG);
	memset((void *)(a + 2 * PAGE - 3), 'x', 3); /* runs off the mapping */
	assert_int_equal(strncpy_from_guest(mm, buf, a + 2 * PAGE - 3, sizeof(buf)),
			 -EFAULT);
	assert_int_equal(strncpy_from_guest(mm, buf, 0x60000000, sizeof(buf)),
			 -EFAULT);
	/* a string crossing from one mapping into the next */
	big = mm_mmap(mm, a + 2 * PAGE, PAGE, RW, ANON | MAP_FIXED, -1, 0);
	assert_int_equal(big, a + 2 * PAGE);
	assert_int_equal(strncpy_from_guest(mm, buf, a + 2 * PAGE - 3, sizeof(buf)),
			 3);
	assert_string_equal(buf, "xxx");
	/* PROT_NONE guest memory is not accessible */
	assert_int_equal(mm_mprotect(mm, a, PAGE, PROT_NONE), 0);
	assert_int_equal(copy_from_guest(mm, buf, a + 10, 1), -EFAULT);
	assert_int_equal(mm_munmap(mm, a, 3 * PAGE), 0);
}

static void test_mremap_low4g(void **state)
{
	struct mm *mm = *state;
	uint64_t a = 0x48000000;
	long r;

	assert_int_equal(mm_mmap(mm, a, 2 * PAGE, RW, ANON | MAP_FIXED, -1, 0),
			 (long)a);
	*(volatile int *)(uintptr_t)a = 42;
	/* grow in place into reserved space */
	assert_int_equal(mm_mremap(mm, a, 2 * PAGE, 4 * PAGE, 0, 0), (long)a);
	assert_true(mm_access_ok(mm, a, 4 * PAGE, PROT_WRITE));
	/* shrink */
	assert_int_equal(mm_mremap(mm, a, 4 * PAGE, PAGE, 0, 0), (long)a);
	assert_false(mm_access_ok(mm, a + PAGE, 1, PROT_READ));
	assert_true(host_mapped(a + PAGE));
	/* blocked: cannot grow without MAYMOVE */
	assert_int_equal(mm_mmap(mm, a + PAGE, PAGE, RW, ANON | MAP_FIXED, -1, 0),
			 (long)(a + PAGE));
	assert_int_equal(mm_mprotect(mm, a + PAGE, PAGE, PROT_READ), 0);
	assert_int_equal(mm_mremap(mm, a, PAGE, 2 * PAGE, 0, 0), -ENOMEM);
	/* move: stays below 4 GiB, contents follow, old place re-reserved */
	r = mm_mremap(mm, a, PAGE, 3 * PAGE, MREMAP_MAYMOVE, 0);
	assert_true(r > 0 && (uint64_t)r < 0xffffe000 && (uint64_t)r != a);
	assert_int_equal(*(volatile int *)r, 42);
	assert_false(mm_access_ok(mm, a, 1, PROT_READ));
	assert_true(host_mapped(a));
	assert_true(mm_access_ok(mm, r, 3 * PAGE, PROT_WRITE));
	/* fixed move */
	assert_int_equal(mm_mremap(mm, r, 3 * PAGE, 3 * PAGE,
				   MREMAP_MAYMOVE | MREMAP_FIXED, 0x49000000),
			 0x49000000);
	assert_int_equal(*(volatile int *)0x49000000, 42);
	/* errors */
	assert_int_equal(mm_mremap(mm, 0x4a000000, PAGE, 2 * PAGE, MREMAP_MAYMOVE, 0),
			 -EFAULT);
	assert_int_equal(mm_mremap(mm, 0x49000000, PAGE, PAGE, MREMAP_FIXED, 0),
			 -EINVAL);
	assert_int_equal(mm_munmap(mm, 0x49000000, 3 * PAGE), 0);
	assert_int_equal(mm_munmap(mm, a + PAGE, PAGE), 0);
}

static void test_maps_low4g(void **state)
{
	struct mm *mm = *state;
	static char host[1 << 16], guest[1 << 14];
	char hl[256], gl[256];
	uint64_t a = 0x4c000000;
	int fd = open("/bin/sh", O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(mm_mmap(mm, a, PAGE, RW, ANON | MAP_FIXED, -1, 0), (long)a);
	assert_int_equal(mm_mmap(mm, a + 0x10000, PAGE, PROT_READ,
				 MAP_PRIVATE | MAP_FIXED, fd, PAGE),
			 (long)(a + 0x10000));
	close(fd);
	host_maps(host, sizeof(host));
	guest_maps(mm, guest, sizeof(guest));
	/* the host shows the same mappings as the guest sees them */
	find_line(host, a, hl, sizeof(hl));
	find_line(guest, a, gl, sizeof(gl));
	assert_string_equal(gl, hl);
	find_line(host, a + 0x10000, hl, sizeof(hl));
	find_line(guest, a + 0x10000, gl, sizeof(gl));
	assert_true(strlen(hl) > 73);
	assert_string_equal(gl, hl);
	/* the reservation is not guest memory and does not show */
	assert_null(strstr(guest, "---p"));
	assert_int_equal(mm_munmap(mm, a, 0x11000), 0);
}

/* --- x86_64: the host's address space, shared with sysgate --- */

static char emulator_data[3 * 4096] __attribute__((aligned(4096)));

static void test_x64_mmap(void **state)
{
	struct mm *mm = *state;
	long a = mm_mmap(mm, 0, 2 * PAGE, RW, ANON, -1, 0);
	int local = 0;
	char buf[8];

	assert_false(mm_is_low4g(mm));
	assert_true(a > 0);
	assert_true(mm_access_ok(mm, a, 2 * PAGE, PROT_WRITE));
	/* sysgate's own memory is not the guest's */
	assert_false(mm_access_ok(mm, (uintptr_t)&local, sizeof(local), PROT_READ));
	assert_int_equal(copy_from_guest(mm, buf, (uintptr_t)emulator_data, 1),
			 -EFAULT);
	assert_int_equal(strncpy_from_guest(mm, buf, (uintptr_t)"abc", 8), -EFAULT);
	assert_false(mm_access_ok(mm, 0xffffffffff600000ull, 1, PROT_READ));
	/* MAP_FIXED over it is refused; mprotect sees it as unmapped */
	uint64_t e = (uintptr_t)emulator_data;
	assert_int_equal(mm_mmap(mm, e, PAGE, RW, ANON | MAP_FIXED, -1, 0), -ENOMEM);
	assert_int_equal(mm_mprotect(mm, e, PAGE, PROT_READ), -ENOMEM);
	/* munmap leaves it alone (to the guest it was never mapped) */
	emulator_data[0] = 9;
	assert_int_equal(mm_munmap(mm, e, PAGE), 0);
	assert_int_equal(((volatile char *)emulator_data)[0], 9);
	/* MAP_FIXED over the guest's own memory and over free memory is fine */
	assert_int_equal(mm_mmap(mm, a + PAGE, PAGE, PROT_READ, ANON | MAP_FIXED,
				 -1, 0), a + PAGE);
	assert_false(mm_access_ok(mm, a, 2 * PAGE, PROT_WRITE));
	assert_int_equal(mm_munmap(mm, a, 2 * PAGE), 0);
	assert_false(host_mapped(a));
	assert_int_equal(mm_mmap(mm, a, PAGE, RW, ANON | MAP_FIXED, -1, 0), a);
	/* beyond TASK_SIZE, kernel half */
	assert_int_equal(mm_mmap(mm, 0x7ffffffff000ull, PAGE, RW, ANON | MAP_FIXED,
				 -1, 0), -ENOMEM);
	assert_int_equal(mm_munmap(mm, 0xffff800000000000ull, PAGE), -EINVAL);
	assert_int_equal(mm_munmap(mm, a, PAGE), 0);
}

static void test_x64_brk_mremap(void **state)
{
	struct mm *mm = *state;
	long a = mm_mmap(mm, 0, 8 * PAGE, RW, ANON, -1, 0);
	long r;

	assert_true(a > 0);
	assert_int_equal(mm_munmap(mm, a, 8 * PAGE), 0);
	/* brk into a free range */
	mm_brk_init(mm, a);
	assert_int_equal(mm_brk(mm, a + PAGE), a + PAGE);
	assert_true(mm_access_ok(mm, a, PAGE, PROT_WRITE));
	/* brk never grows over sysgate's memory */
	mm_brk_init(mm, (uintptr_t)emulator_data);
	assert_int_equal(mm_brk(mm, (uintptr_t)emulator_data + PAGE),
			 (uintptr_t)emulator_data);
	mm_brk_init(mm, a);
	mm_brk(mm, a + PAGE);
	/* mremap moves guest memory; an emulator target is refused */
	r = mm_mremap(mm, a, PAGE, 64 * PAGE, MREMAP_MAYMOVE, 0);
	assert_true(r > 0);
	assert_true(mm_access_ok(mm, r, 64 * PAGE, PROT_WRITE));
	assert_int_equal(mm_mremap(mm, r, PAGE, PAGE, MREMAP_MAYMOVE | MREMAP_FIXED,
				   (uintptr_t)emulator_data), -ENOMEM);
	assert_int_equal(mm_munmap(mm, r, 64 * PAGE), 0);
}

static void test_maps_x64(void **state)
{
	struct mm *mm = *state;
	static char host[1 << 16], guest[1 << 14];
	char hl[256], gl[256];
	int fd = open("/bin/sh", O_RDONLY);
	long a, f;

	assert_true(fd >= 0);
	a = mm_mmap(mm, 0, 3 * PAGE, PROT_READ, ANON, -1, 0);
	f = mm_mmap(mm, 0, 2 * PAGE, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, PAGE);
	close(fd);
	assert_true(a > 0 && f > 0);
	assert_int_equal(mm_name_range(mm, a, 3 * PAGE, "[stack]"), 0);
	host_maps(host, sizeof(host));
	guest_maps(mm, guest, sizeof(guest));
	find_line(host, f, hl, sizeof(hl));
	find_line(guest, f, gl, sizeof(gl));
	assert_string_equal(gl, hl);
	find_line(guest, a, gl, sizeof(gl));
	/* the name column is where the kernel puts it */
	assert_int_equal(strlen(gl), 73 + strlen("[stack]"));
	assert_string_equal(gl + 73, "[stack]");
	assert_int_equal(mm_munmap(mm, a, 3 * PAGE), 0);
	assert_int_equal(mm_munmap(mm, f, 2 * PAGE), 0);
}

/* ld.so's RELRO: a private file mapping made writable, then read-only
 * again, keeps the kernel's VM_ACCOUNT and so stays a separate line next
 * to the read-only mapping of the same file; the host's own maps for the
 * same calls is the oracle. */
static void test_maps_relro_x64(void **state)
{
	struct mm *mm = *state;
	static char host[1 << 16], guest[1 << 14];
	char hl[256], gl[256];
	int fd = open("/bin/sh", O_RDONLY);
	long f;

	assert_true(fd >= 0);
	f = mm_mmap(mm, 0, 4 * PAGE, PROT_READ, MAP_PRIVATE, fd, 0);
	assert_true(f > 0);
	assert_int_equal(mm_mmap(mm, f + 2 * PAGE, 2 * PAGE, RW,
				 MAP_PRIVATE | MAP_FIXED, fd, 2 * PAGE), f + 2 * PAGE);
	close(fd);
	assert_int_equal(mm_mprotect(mm, f + 2 * PAGE, PAGE, PROT_READ), 0);
	host_maps(host, sizeof(host));
	guest_maps(mm, guest, sizeof(guest));
	for (int i = 0; i < 4; i++) {
		find_line(host, f + i * PAGE, hl, sizeof(hl));
		find_line(guest, f + i * PAGE, gl, sizeof(gl));
		assert_string_equal(gl, hl);
	}
	/* three lines: r-- (2 pages), r-- (the RELRO page), rw- */
	find_line(guest, f + 2 * PAGE, gl, sizeof(gl));
	assert_true(gl[0] != '\0');
	find_line(guest, f + 3 * PAGE, gl, sizeof(gl));
	assert_true(gl[0] != '\0');
	assert_int_equal(mm_munmap(mm, f, 4 * PAGE), 0);
}

/* The facts exec leaves for /proc/self: kept as given, auxv clamped. */
static void test_exec_info_x64(void **state)
{
	struct mm *mm = *state;
	struct mm_exec_info x = { .arg_start = 1, .arg_end = 2, .env_start = 3,
				  .env_end = 4, .auxv_len = 16 };

	memset(x.auxv, 7, 16);
	mm_set_exec_info(mm, &x);
	assert_int_equal(mm_exec_info(mm)->arg_end, 2);
	assert_int_equal(mm_exec_info(mm)->env_end, 4);
	assert_int_equal(mm_exec_info(mm)->auxv_len, 16);
	assert_int_equal(mm_exec_info(mm)->auxv[15], 7);
	x.auxv_len = MM_AUXV_MAX + 100;
	mm_set_exec_info(mm, &x);
	assert_int_equal(mm_exec_info(mm)->auxv_len, MM_AUXV_MAX);
}

/* Randomisation of a compat layout: the stack top moves down by at most
 * 8 MiB (11 page bits), page aligned; top-down mappings stay below the
 * 128 MiB gap under it. Runs last: it moves the shared mm's stack. */
static void test_randomize_low4g(void **state)
{
	struct mm *mm = *state;
	uint64_t before = mm_stack_top(mm), after;
	long a;

	mm_randomize(mm);
	after = mm_stack_top(mm);
	assert_true(after <= before && before - after < (8ull << 20));
	assert_int_equal(after % PAGE, 0);
	a = mm_mmap(mm, 0, PAGE, RW, ANON, -1, 0);
	assert_true(a > 0 && (uint64_t)a + PAGE <= after - (128ull << 20));
	assert_int_equal(mm_munmap(mm, (uint64_t)a, PAGE), 0);
}

/* The guest page map's MM_PAGE_GUEST bit (docs/isolation.md) for one page:
 * what the CPU's store check reads. */
static bool map_says_guest(uint64_t addr)
{
	const uint8_t *m = mm_page_map[(addr >> 30) & (MM_PAGE_MAP_L1 - 1)];

	return m && (m[(addr >> 12) & (MM_PAGE_MAP_PAGES - 1)] & MM_PAGE_GUEST);
}

/* The flat map's byte for addr (mm.h: what a 64-bit store checks). */
static uint8_t flat_byte(uint64_t addr)
{
	return mm_page_flat.map[(addr >> 12) & mm_page_flat.mask];
}

/* Above 4 GiB a GiB's own table is its slice of the flat map: the same
 * bytes through either. */
static bool flat_is_table(uint64_t addr)
{
	const uint8_t *m = mm_page_map[(addr >> 30) & (MM_PAGE_MAP_L1 - 1)];

	return m && m == &mm_page_flat.map[((addr >> 30) & (MM_PAGE_MAP_L1 - 1)) * MM_PAGE_MAP_PAGES] &&
	       m[(addr >> 12) & (MM_PAGE_MAP_PAGES - 1)] == flat_byte(addr);
}

/* The bit follows the VMA list: set for guest mappings that are not
 * PROT_NONE, cleared by munmap, mprotect(PROT_NONE), a move's old range,
 * brk's shrink, mm_destroy; never set on sysgate's own memory. */
static void test_page_map_x64(void **state)
{
	struct mm *mm = *state;
	long a = mm_mmap(mm, 0, 4 * PAGE, RW, ANON, -1, 0), b;
	int local = 0;

	assert_true(a > 0);
	assert_int_equal(mm_page_flat.mask, (uint64_t)MM_PAGE_MAP_L1 * MM_PAGE_MAP_PAGES - 1);
	for (unsigned k = 0; k < 4; k++)
		assert_true(map_says_guest(a + k * PAGE) && flat_is_table(a + k * PAGE));
	assert_int_equal(flat_byte(a), MM_PAGE_GUEST);
	assert_int_equal(flat_byte((uintptr_t)&local), 0);
	assert_int_equal(flat_byte((uintptr_t)emulator_data), 0);
	assert_false(map_says_guest((uintptr_t)&local));
	assert_false(map_says_guest((uintptr_t)emulator_data));
	assert_int_equal(mm_mprotect(mm, a + PAGE, PAGE, PROT_NONE), 0);
	assert_false(map_says_guest(a + PAGE));
	assert_int_equal(flat_byte(a + PAGE), 0);
	assert_true(map_says_guest(a) && map_says_guest(a + 2 * PAGE));
	assert_int_equal(mm_mprotect(mm, a + PAGE, PAGE, PROT_READ), 0);
	assert_true(map_says_guest(a + PAGE)); /* read-only: the host faults */
	assert_int_equal(mm_munmap(mm, a + 3 * PAGE, PAGE), 0);
	assert_false(map_says_guest(a + 3 * PAGE));
	/* moved: a fixed destination away from it */
	b = mm_mmap(mm, 0, 16 * PAGE, RW, ANON, -1, 0);
	assert_true(b > 0);
	assert_int_equal(mm_munmap(mm, b, 16 * PAGE), 0);
	assert_int_equal(mm_mremap(mm, a + 2 * PAGE, PAGE, 8 * PAGE,
				   MREMAP_MAYMOVE | MREMAP_FIXED, b), b);
	assert_false(map_says_guest(a + 2 * PAGE));
	assert_int_equal(flat_byte(a + 2 * PAGE), 0);
	for (unsigned k = 0; k < 8; k++)
		assert_true(map_says_guest(b + k * PAGE) && flat_is_table(b + k * PAGE));
	assert_int_equal(mm_munmap(mm, b, 8 * PAGE), 0);
	assert_int_equal(mm_munmap(mm, a, 4 * PAGE), 0);
	assert_false(map_says_guest(b) || map_says_guest(a + 2 * PAGE));
	assert_true(flat_byte(a) == 0 && flat_byte(b) == 0 && flat_byte(b + 7 * PAGE) == 0);
}

/* A mapping covering whole GiBs (they share one read-only table): a page
 * unmapped in the middle of one, and a table asked for by the CPU (to mark
 * decoded code), give that GiB its own copy; the rest stays the guest's. */
static void test_page_map_whole_gib(void **state)
{
	struct mm *mm = *state;
	const uint64_t gib = 1ull << 30;
	long a = mm_mmap(mm, 0, 3 * gib, RW, ANON | MAP_NORESERVE, -1, 0);
	uint64_t whole, other;
	uint8_t *own;

	assert_true(a > 0);
	whole = ((uint64_t)a + gib - 1) & ~(gib - 1); /* [whole, whole + 1 GiB) inside */
	other = whole + gib < (uint64_t)a + 3 * gib ? whole + gib : (uint64_t)a;
	assert_true(map_says_guest(whole) && map_says_guest(whole + gib - PAGE));
	assert_true(map_says_guest(a) && map_says_guest(a + 3 * gib - PAGE));
	/* the shared table: the flat map reads "not plain" (the slow path) */
	assert_int_equal(flat_byte(whole), 0);
	assert_int_equal(mm_munmap(mm, whole + 5 * PAGE, PAGE), 0);
	assert_false(map_says_guest(whole + 5 * PAGE));
	assert_true(map_says_guest(whole + 4 * PAGE) && map_says_guest(whole + 6 * PAGE));
	/* its own table now: the slice, filled from the shared one */
	assert_true(flat_is_table(whole) && flat_is_table(whole + 5 * PAGE) &&
		    flat_is_table(whole + gib - PAGE));
	assert_int_equal(flat_byte(whole + 4 * PAGE), MM_PAGE_GUEST);
	assert_int_equal(flat_byte(whole + 5 * PAGE), 0);
	assert_true(map_says_guest(other + 5 * PAGE));
	own = mm_page_map_table(whole + gib - PAGE);
	assert_non_null(own);
	assert_ptr_equal(own, mm_page_map[((whole + gib - PAGE) >> 30) & (MM_PAGE_MAP_L1 - 1)]);
	assert_true(map_says_guest(whole + gib - PAGE));
	assert_int_equal(mm_munmap(mm, a, 3 * gib), 0);
	assert_false(map_says_guest(whole) || map_says_guest(whole + gib - PAGE) ||
		     map_says_guest(other + 5 * PAGE) || map_says_guest(a));
	assert_true(flat_byte(whole) == 0 && flat_byte(whole + gib - PAGE) == 0);
}

/* The low 4 GiB's tables are mm_page_map_low's slices (the flat map the
 * i386 and flat-32 store check reads, mm.h): a small mapping, a table
 * asked for by the CPU (decoded code) and a mapping covering a whole GiB
 * (no shared table there: the flat map would read "not the guest's")
 * read the same byte through the slot and through the flat map. */
static bool flat_agrees(uint64_t addr)
{
	const uint8_t *m = mm_page_map[addr >> 30];

	return m == &mm_page_map_low[(addr >> 30) * MM_PAGE_MAP_PAGES] &&
	       m[(addr >> 12) & (MM_PAGE_MAP_PAGES - 1)] == mm_page_map_low[addr >> 12] &&
	       flat_byte(addr) == mm_page_map_low[addr >> 12] &&
	       mm_page_map_mirror(addr) ==
		       &mm_page_flat.map[(addr >> 30) * MM_PAGE_MAP_PAGES];
}

static void test_page_map_low4g(void **state)
{
	struct mm *mm = *state;
	const uint64_t gib = 1ull << 30;
	long a = mm_mmap(mm, 0, 2 * PAGE, RW, ANON, -1, 0), big;
	uint64_t whole;

	assert_true(a > 0);
	assert_true(map_says_guest(a) && flat_agrees(a) && flat_agrees(a + PAGE));
	assert_ptr_equal(mm_page_map_table(a), mm_page_map[(uint64_t)a >> 30]);
	assert_int_equal(mm_munmap(mm, a + PAGE, PAGE), 0);
	assert_false(mm_page_map_low[(a + PAGE) >> 12] & MM_PAGE_GUEST);
	assert_true(flat_agrees(a + PAGE));
	big = mm_mmap(mm, 0, 2 * gib, RW, ANON | MAP_NORESERVE, -1, 0);
#ifdef SG_ASAN /* mm/mm.h */
	if (big == -ENOMEM) {
		/* ASan's shadow memory starts at 0x7fff8000: no whole GiB
		 * of the low 4 GiB is free for the guest in this build */
		print_message("test_page_map_low4g: the whole-GiB case skipped: "
			      "no 2 GiB free below 4 GiB beside ASan's shadow\n");
		assert_int_equal(mm_munmap(mm, a, PAGE), 0);
		return;
	}
#endif
	assert_true(big > 0);
	whole = ((uint64_t)big + gib - 1) & ~(gib - 1);
	assert_true(whole + gib <= (uint64_t)big + 2 * gib);
	assert_int_equal(mm_page_map_low[whole >> 12], MM_PAGE_GUEST);
	assert_int_equal(mm_page_map_low[(whole + gib - PAGE) >> 12], MM_PAGE_GUEST);
	assert_true(flat_agrees(whole) && flat_agrees(whole + gib - PAGE));
	assert_int_equal(mm_munmap(mm, (uint64_t)big, 2 * gib), 0);
	assert_int_equal(mm_page_map_low[whole >> 12], 0);
	assert_true(flat_agrees(whole) && flat_agrees(whole + gib - PAGE));
	assert_int_equal(mm_munmap(mm, a, PAGE), 0);
	assert_true(flat_agrees(a) && flat_byte(a) == 0);
}

int main(void)
{
	const struct CMUnitTest low4g[] = {
		cmocka_unit_test(test_reservation),
		cmocka_unit_test(test_low4g_mmap_placement),
		cmocka_unit_test(test_low4g_mmap_errors),
		cmocka_unit_test(test_low4g_munmap_rereserves),
		cmocka_unit_test(test_mprotect),
		cmocka_unit_test(test_brk),
		cmocka_unit_test(test_access_low4g),
		cmocka_unit_test(test_mremap_low4g),
		cmocka_unit_test(test_maps_low4g),
		cmocka_unit_test(test_randomize_low4g),
		cmocka_unit_test(test_page_map_low4g),
	};
	const struct CMUnitTest x64[] = {
		cmocka_unit_test(test_x64_mmap),
		cmocka_unit_test(test_x64_brk_mremap),
		cmocka_unit_test(test_maps_x64),
		cmocka_unit_test(test_maps_relro_x64),
		cmocka_unit_test(test_exec_info_x64),
		cmocka_unit_test(test_page_map_x64),
		cmocka_unit_test(test_page_map_whole_gib),
	};
	int fails = cmocka_run_group_tests_name("mm_low4g", low4g, setup_low4g,
						 teardown);

	fails += cmocka_run_group_tests_name("mm_x64", x64, setup_x64, teardown);
	return fails;
}
