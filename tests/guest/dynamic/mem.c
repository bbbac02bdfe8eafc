/* The memory calls a dynamic loader and its libraries make, and the
 * /proc/self/maps lines they leave: file-backed private mappings (also
 * MAP_FIXED into a reserved range, as ld.so maps segments), mprotect,
 * munmap, mremap, madvise. Lines are printed relative to a base, so the
 * native run is an oracle whatever the addresses. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define PG 4096UL

static uintptr_t base;

/* maps lines inside [base, base + len), addresses relative to base */
static void show(const char *what, size_t len)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4096];

	printf("-- %s\n", what);
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long lo, hi, off;
		char perms[8], name[4096] = "";

		if (sscanf(line, "%lx-%lx %7s %lx %*s %*s %4095s", &lo, &hi, perms,
			   &off, name) < 4)
			continue;
		if (hi <= base || lo >= base + len)
			continue;
		/* Clip to the window: a neighbour that happens to be placed
		 * next to it (host placement differs run to run) may merge. */
		if (lo < base) {
			off += base - lo;
			lo = base;
		}
		if (hi > base + len)
			hi = base + len;
		printf("+%lx-+%lx %s %lx %s\n", (unsigned long)(lo - base),
		       (unsigned long)(hi - base), perms, off,
		       strrchr(name, '/') ? strrchr(name, '/') + 1 : name);
	}
	if (f)
		fclose(f);
}

int main(void)
{
	char page[PG];
	int fd = open("mapped.bin", O_RDWR | O_CREAT | O_TRUNC, 0600);
	char *p, *q, *r;

	if (fd < 0)
		return 1;
	for (int i = 0; i < 4; i++) {
		memset(page, 'a' + i, PG);
		if (write(fd, page, PG) != (ssize_t)PG)
			return 1;
	}
	/* reserve 8 pages, then map file pages over it as ld.so does */
	p = mmap(NULL, 8 * PG, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	base = (uintptr_t)p;
	q = mmap(p, 2 * PG, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0);
	printf("fixed at the hint: %d, content %c%c\n", q == p, q[0], q[PG]);
	q = mmap(p + 2 * PG, 2 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED,
		 fd, 2 * PG);
	printf("second segment: %c, writable copy: ", q[0]);
	q[0] = 'X';
	pread(fd, page, 1, 2 * PG);
	printf("%c (file still %c)\n", q[0], page[0]);
	show("two segments in a PROT_NONE reservation", 8 * PG);
	/* RELRO: part of the writable segment back to read-only */
	mprotect(p + 2 * PG, PG, PROT_READ);
	show("mprotect of the first data page", 8 * PG);
	/* give back the rest of the reservation */
	munmap(p + 4 * PG, 4 * PG);
	show("munmap of the tail", 8 * PG);
	/* madvise(DONTNEED): private file pages read the file again */
	madvise(p + 3 * PG, PG, MADV_DONTNEED);
	printf("after DONTNEED: %c, %c\n", p[3 * PG], q[0]);
	/* anonymous memory: grow with mremap, contents kept */
	r = mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	strcpy(r, "kept");
	r = mremap(r, PG, 16 * PG, MREMAP_MAYMOVE);
	printf("mremap: %s, tail zero: %d\n", r == MAP_FAILED ? "failed" : r,
	       r != MAP_FAILED && r[15 * PG] == 0);
	madvise(r, PG, MADV_DONTNEED);
	printf("anonymous after DONTNEED: %d\n", r[0]);
	base = (uintptr_t)r;
	show("mremap'd anonymous block", 16 * PG);
	munmap(r + 4 * PG, 4 * PG);
	mprotect(r, PG, PROT_READ);
	show("hole and read-only head", 16 * PG);
	/* errors as the kernel's */
	printf("munmap unaligned: %d, mprotect bad prot: %d, mremap 0 len: %d\n",
	       munmap(r + 1, PG), mprotect(r, PG, 0x1000), 
	       mremap(r, 0, PG, 0) == MAP_FAILED);
	close(fd);
	unlink("mapped.bin");
	return 0;
}
