/* Fuzzing the ELF loader: arbitrary bytes as the program file (through a
 * memfd, named as /proc/self/fd/N as the CLI would be given it), probed
 * and loaded as the CLI does: loader_probe, then loader_load with the
 * address space, stack and CPU state it builds, then torn down. What must
 * hold, whatever the file: no crash, no sanitizer report, and a load that
 * fails returns an sg_err. After a successful load, the entry state is
 * checked (a 16-byte aligned stack inside guest memory, argc 1). */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "core/process.h"
#include "loader/loader.h"
#include "mm/mm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char *const argv[] = { "fuzzed", NULL };
	static char *const envp[] = { "A=1", NULL };
	static int fd = -1;
	char path[64];
	const struct loader_args args = { .no_aslr = true };
	struct loader_out p;
	struct cpu cpu;
	enum sg_abi abi;

	if (fd < 0) {
		fd = memfd_create("fuzz_elf", 0);
		if (fd < 0)
			abort();
	}
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (loader_probe(path, &abi) != SG_OK)
		return 0;
	memset(&p, 0, sizeof(p));
	memset(&cpu, 0, sizeof(cpu));
	if (loader_load(&args, &p, &cpu, path, argv, envp) == SG_OK) {
		uint64_t sp = cpu.r[R_SP];

		if (sp % 16 || !mm_access_ok(p.mm, sp, 8, PROT_READ | PROT_WRITE))
			abort();
		cpu_release(&cpu);
	}
	if (p.mm)
		mm_destroy(p.mm);
	free(p.exe_path);
	return 0;
}
