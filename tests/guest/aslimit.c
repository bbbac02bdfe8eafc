/* aslimit [over]: the guest's own RLIMIT_AS (`ulimit -v`) as natively:
 * what it sets is what it reads back, and a mapping well below it
 * succeeds though sysgate reserved 32 GiB (and for i386/x32 the low
 * 4 GiB) for itself; with "over" (x86_64: the compat ABIs' mappings lie
 * inside sysgate's reservation, where the host does not count them), a
 * mapping above it fails with ENOMEM. Exit 0. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>

#define MIB (1024ul * 1024)

static void try_map(unsigned long len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		       -1, 0);

	if (p == MAP_FAILED) {
		printf("mmap %lu MiB: %s\n", len / MIB, strerror(errno));
		return;
	}
	printf("mmap %lu MiB: ok\n", len / MIB);
	munmap(p, len);
}

int main(int argc, char **argv)
{
	struct rlimit r;

	if (getrlimit(RLIMIT_AS, &r) != 0 || r.rlim_max < 1024 * MIB) {
		printf("skip: RLIMIT_AS hard limit below 1 GiB\n");
		return 0;
	}
	r.rlim_cur = 1024 * MIB;
	if (setrlimit(RLIMIT_AS, &r) != 0) {
		printf("setrlimit: %s\n", strerror(errno));
		return 1;
	}
	memset(&r, 0, sizeof(r));
	getrlimit(RLIMIT_AS, &r);
	printf("soft %lu MiB, hard %s\n", (unsigned long)(r.rlim_cur / MIB),
	       r.rlim_max == RLIM_INFINITY ? "unlimited" : "limited");
	try_map(256 * MIB);
	if (argc > 1 && strcmp(argv[1], "over") == 0)
		try_map(2048 * MIB);
	/* lowered and read back through prlimit too */
	r.rlim_cur = 768 * MIB;
	if (prlimit(0, RLIMIT_AS, &r, NULL) != 0 || prlimit(0, RLIMIT_AS, NULL, &r) != 0) {
		printf("prlimit: %s\n", strerror(errno));
		return 1;
	}
	printf("soft %lu MiB\n", (unsigned long)(r.rlim_cur / MIB));
	try_map(256 * MIB);
	return 0;
}
