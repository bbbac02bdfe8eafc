/* brkwrap: brk with requests the kernel refuses — the largest values,
 * whose page rounding wraps to 0, values past the task size, below the
 * start — then a normal grow and shrink. Each result is printed as
 * "moved" (the break is the request) or "kept" (the previous break), and
 * the program's own data must still be there afterwards. The values are
 * 64-bit register values for x86_64 and x32 (the kernel takes x32's brk
 * argument whole), their low halves for i386. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static uint64_t sys_brk(uint64_t to)
{
#ifdef __x86_64__
	uint64_t r;

	__asm__ volatile("syscall"
			 : "=a"(r)
			 : "0"((uint64_t)SYS_brk), "D"(to)
			 : "rcx", "r11", "memory");
	return r;
#else
	return (uint32_t)syscall(SYS_brk, (unsigned long)to);
#endif
}

static uint64_t cur;

static void try_brk(const char *what, uint64_t to)
{
	uint64_t r = sys_brk(to), now = sys_brk(0);

	if (r == now && r == to)
		printf("%s: moved\n", what);
	else if (r == now && r == cur)
		printf("%s: kept\n", what);
	else
		printf("%s: returned initial %+lld, break initial %+lld\n", what,
		       (long long)(r - cur), (long long)(now - cur));
	cur = now;
}

static char data_page[4096] = "data still here";

int main(void)
{
	static const uint64_t refused[] = {
		~0ull, ~0ull - 1, ~0ull - 4095, ~0ull - 4096, ~0ull - 8191,
		1ull << 63, 1ull << 62, 1, 4096,
	};
	uint64_t start = cur = sys_brk(0);

	for (unsigned i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		char what[32];

		snprintf(what, sizeof(what), "refused[%u]", i);
		try_brk(what, refused[i]);
	}
	try_brk("start - 1", start - 1);
	try_brk("start + 10000", start + 10000);
	memset((char *)(uintptr_t)start, 1, 10000); /* the grown break is writable */
	try_brk("start + 1", start + 1);
	try_brk("start", start);
	printf("%s\n", data_page);
	return 0;
}
