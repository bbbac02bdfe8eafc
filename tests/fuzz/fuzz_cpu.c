/* libFuzzer target: decode and execute arbitrary bytes from an arbitrary
 * CPU state. No crash, hang or sanitizer report is allowed.
 *
 * Input: byte 0 picks the mode (bit 0: 64-bit) and the SSE/x87 seeding;
 * the rest is code, copied into a sandbox page. The GPRs and RFLAGS come
 * from a generator seeded with a hash of the whole input, so short inputs
 * already execute their own bytes (a state-first layout kept libFuzzer's
 * short early inputs from ever reaching the code). The sandbox: the guest can only reach
 * addresses below SANDBOX_LIMIT, which hold nothing but the sandbox pages
 * (reserved PROT_NONE around them; under ASan the low shadow that lives in
 * that range is made read-only). 64-bit mode keeps every GPR and RIP below
 * 4 GiB before each instruction, so base + index * 8 + disp stays below
 * 64 GiB, which is reserved (or ASan's protected shadow gap). */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "cpu/cpu.h"

#define SANDBOX 0x40000000ull       /* code page, then data pages */
#define SANDBOX_SIZE 0x20000ull
#define CODE_MAX 4096
#define STEPS_MAX 4000
#define LIMIT_64 (64ull << 30)

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SG_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define SG_ASAN 1
#endif

static uint8_t *box;

/* Reserve [lo, hi) PROT_NONE where nothing is mapped yet, in chunks so a
 * taken chunk (the program's own low mappings) is simply skipped. */
static void reserve(uint64_t lo, uint64_t hi)
{
	for (uint64_t a = lo; a < hi; a += 1ull << 24) {
		uint64_t n = hi - a < (1ull << 24) ? hi - a : 1ull << 24;

		mmap((void *)(uintptr_t)a, n, PROT_NONE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
	}
}

static void sandbox_init(void)
{
	box = mmap((void *)(uintptr_t)SANDBOX, SANDBOX_SIZE, PROT_READ | PROT_WRITE | PROT_EXEC,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (box != (void *)(uintptr_t)SANDBOX) {
		fprintf(stderr, "fuzz_cpu: cannot map the sandbox\n");
		abort();
	}
#ifdef SG_ASAN
	/* Low shadow [0x7fff8000, 0x8fff7000): only the sanitizer writes it,
	 * and only for low-memory objects, of which there are none. */
	mprotect((void *)0x7fff8000ull, 0x8fff7000ull - 0x7fff8000ull, PROT_READ);
#endif
	reserve(0x10000, LIMIT_64);
	cpu_install_fault_handler();
}

static uint64_t next_rand(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct cpu cpu;
	bool m64;
	unsigned sel;

	if (!box)
		sandbox_init();
	if (size < 1)
		return 0;
	uint64_t h = 1469598103934665603ull;

	for (size_t k = 0; k < size; k++)
		h = (h ^ data[k]) * 1099511628211ull;
	h |= 1;
	sel = data[0];
	data++, size--;
	m64 = sel & 1;
	cpu_release(&cpu);
	cpu_init(&cpu, m64 ? CPU_MODE_64 : CPU_MODE_32);
	for (int r = 0; r < 16; r++) {
		uint64_t v = next_rand(&h);

		/* Many inputs point a register into the sandbox. */
		cpu.r[r] = (v & 0x80000000u) ? SANDBOX + (v & (SANDBOX_SIZE - 1)) : (v & 0xffffffff);
	}
	cpu_set_rflags(&cpu, 0x202 | (next_rand(&h) & 0xcd5));
	for (int x = 0; x < 16; x++)
		for (int q = 0; q < 2; q++)
			cpu.xmm[x].q[q] = next_rand(&h);
	memset(box, 0, SANDBOX_SIZE); /* deterministic data */
	memset(box, 0xcc, CODE_MAX); /* INT3 after the code */
	if (size)
		memcpy(box, data, size < CODE_MAX ? size : CODE_MAX);
	cpu_invalidate_code(SANDBOX, SANDBOX_SIZE);
	cpu.rip = SANDBOX;
	for (int s = 0; s < STEPS_MAX; s++) {
		if (m64) {
			for (int r = 0; r < 16; r++)
				cpu.r[r] = (uint32_t)cpu.r[r];
			cpu.rip = (uint32_t)cpu.rip;
			cpu.base[SEG_FS] = (uint32_t)cpu.base[SEG_FS];
			cpu.base[SEG_GS] = (uint32_t)cpu.base[SEG_GS];
		}
		if (cpu_step(&cpu) != CPU_STOP_NONE) {
			if (cpu.stop != CPU_STOP_SYSCALL)
				break;
			cpu.r[0] = (uint64_t)-38; /* -ENOSYS, and go on */
		}
	}
	return 0;
}
