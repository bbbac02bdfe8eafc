/* block_coverage: run a program under sysgate and count what it executed:
 * instructions, basic blocks entered, distinct blocks (its code coverage)
 * and system calls.
 *
 *   usage: block_coverage [-l] PROGRAM [ARG]...
 *          -l: also list the distinct block addresses, one per line
 *
 * Built against the installed library:
 *   cc block_coverage.c $(pkg-config --cflags --libs sysgate) -o block_coverage
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysgate.h>

extern char **environ;

/* Distinct block addresses: an open-addressing hash set that grows. */
struct addr_set {
	uint64_t *slot; /* 0: empty (no block starts at address 0) */
	size_t cap, n;
};

static int set_add(struct addr_set *s, uint64_t a);

static int set_grow(struct addr_set *s)
{
	struct addr_set bigger = { calloc(s->cap ? 2 * s->cap : 4096, sizeof(uint64_t)),
				   s->cap ? 2 * s->cap : 4096, 0 };

	if (!bigger.slot)
		return -1;
	for (size_t i = 0; i < s->cap; i++)
		if (s->slot[i])
			set_add(&bigger, s->slot[i]);
	free(s->slot);
	*s = bigger;
	return 0;
}

static int set_add(struct addr_set *s, uint64_t a)
{
	size_t i;

	if (2 * (s->n + 1) > s->cap && set_grow(s) < 0)
		return -1;
	for (i = (size_t)(a * 0x9e3779b97f4a7c15ull >> 20) & (s->cap - 1); s->slot[i];
	     i = (i + 1) & (s->cap - 1))
		if (s->slot[i] == a)
			return 0;
	s->slot[i] = a;
	s->n++;
	return 1;
}

struct counts {
	uint64_t insns, blocks, syscalls;
	struct addr_set seen;
};

static void on_insn(sg_process *p, uint64_t addr, void *user)
{
	(void)p;
	(void)addr;
	((struct counts *)user)->insns++;
}

static void on_block(sg_process *p, uint64_t addr, void *user)
{
	struct counts *c = user;

	(void)p;
	c->blocks++;
	set_add(&c->seen, addr);
}

static enum sg_hook_action on_syscall(sg_process *p, struct sg_syscall_info *info,
				      void *user)
{
	(void)p;
	(void)info;
	((struct counts *)user)->syscalls++;
	return SG_HOOK_CONTINUE;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	struct counts c;
	struct sg_options opts;
	struct sg_exit status;
	sg_process *p;
	enum sg_err err;
	int list = 0, first = 1;

	if (argc > 1 && !strcmp(argv[1], "-l")) {
		list = 1;
		first = 2;
	}
	if (argc <= first) {
		fprintf(stderr, "usage: coverage [-l] PROGRAM [ARG]...\n");
		return 2;
	}
	memset(&c, 0, sizeof(c));
	sg_options_init(&opts);
	err = sg_create(&opts, &p);
	if (err == SG_OK)
		err = sg_hook_insn(p, on_insn, &c);
	if (err == SG_OK)
		err = sg_hook_block(p, on_block, &c);
	if (err == SG_OK)
		err = sg_hook_syscall_entry(p, on_syscall, &c);
	if (err == SG_OK)
		err = sg_load(p, argv[first], &argv[first], environ);
	if (err == SG_OK)
		err = sg_run(p, &status);
	if (err != SG_OK) {
		fprintf(stderr, "coverage: %s: %s\n", argv[first], sg_strerror(err));
		sg_destroy(p);
		return 127;
	}
	sg_destroy(p);
	fprintf(stderr, "coverage: %llu instructions, %llu blocks entered, "
		"%zu distinct blocks, %llu system calls\n",
		(unsigned long long)c.insns, (unsigned long long)c.blocks,
		c.seen.n, (unsigned long long)c.syscalls);
	if (list) {
		uint64_t *sorted = malloc((c.seen.n + 1) * sizeof(*sorted));
		size_t k = 0;

		for (size_t i = 0; sorted && i < c.seen.cap; i++)
			if (c.seen.slot[i])
				sorted[k++] = c.seen.slot[i];
		if (sorted)
			qsort(sorted, k, sizeof(*sorted), cmp_u64);
		for (size_t i = 0; sorted && i < k; i++)
			printf("%#llx\n", (unsigned long long)sorted[i]);
		free(sorted);
	}
	free(c.seen.slot);
	return status.signaled ? 128 + status.signal : status.code;
}
