/* set_thread_area on i386: clearing a TLS entry that DS, ES, FS or GS
 * holds leaves that register null (the kernel reloads each register that
 * holds the changed selector, and a reload that faults loads 0); changing
 * the entry keeps the selector. get_thread_area reads an entry back (its
 * base, limit and flags word: the struct user_desc bit-fields as the
 * kernel decodes the descriptor), a cleared one and a bad index. Where the host cannot run i386 programs the
 * reference is the x86_64 build under E2E_REF_TWIN=1, where neither run
 * makes these calls (docs/testing.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __i386__
struct desc {
	unsigned entry_number, base_addr, limit, flags;
};
#define D_SEG_32BIT 0x01u
#define D_READ_EXEC_ONLY 0x08u
#define D_LIMIT_IN_PAGES 0x10u
#define D_SEG_NOT_PRESENT 0x20u
#define D_USEABLE 0x40u

static int set_area(struct desc *d)
{
	int r;

	__asm__ volatile("int $0x80" : "=a"(r) : "0"(243), "b"(d) : "memory");
	return r;
}

static int get_area(struct desc *d)
{
	int r;

	__asm__ volatile("int $0x80" : "=a"(r) : "0"(244), "b"(d) : "memory");
	return r;
}

static void print_area(const char *what, unsigned idx)
{
	struct desc g;
	int r;

	memset(&g, 0x55, sizeof(g));
	g.entry_number = idx;
	r = get_area(&g);
	printf("get_thread_area %s: %d, base %#x limit %#x flags %#x\n", what, r,
	       r ? 0 : g.base_addr, r ? 0 : g.limit, r ? 0 : g.flags);
}

/* Load sel into SEG, call set_thread_area(d) (eax 243, ebx d), read SEG
 * back and put the old value back, all without touching memory through
 * SEG in between. */
#define TRY(SEG)                                                           \
	static unsigned try_##SEG(unsigned sel, struct desc *d, int *r)      \
	{                                                                  \
		unsigned old, after;                                       \
		int res;                                                   \
		__asm__ volatile("mov %%" #SEG ", %[old]\n\t"              \
				 "mov %[sel], %%" #SEG "\n\t"              \
				 "int $0x80\n\t"                           \
				 "mov %%" #SEG ", %[after]\n\t"            \
				 "mov %[old], %%" #SEG                     \
				 : [old] "=&r"(old), [after] "=&r"(after), \
				   "=a"(res)                               \
				 : [sel] "r"(sel), "2"(243), "b"(d)        \
				 : "memory");                              \
		*r = res;                                                  \
		return after;                                              \
	}
TRY(ds)
TRY(es)
TRY(fs)
TRY(gs)

static void fill(struct desc *d, unsigned idx, unsigned base)
{
	d->entry_number = idx;
	d->base_addr = base;
	d->limit = 0xfffff;
	d->flags = D_SEG_32BIT | D_LIMIT_IN_PAGES | D_USEABLE;
}

static void clear(struct desc *d, unsigned idx)
{
	memset(d, 0, sizeof(*d));
	d->entry_number = idx;
	d->flags = D_READ_EXEC_ONLY | D_SEG_NOT_PRESENT;
}

static void run(void)
{
	static const char *const names[] = { "DS", "ES", "FS", "GS" };
	unsigned (*const fns[])(unsigned, struct desc *, int *) = {
		try_ds, try_es, try_fs, try_gs };
	struct desc d;
	unsigned idx, sel, after;
	int r;

	fill(&d, (unsigned)-1, 0);
	r = set_area(&d);
	if (r) {
		printf("set_thread_area: %d\n", r);
		return;
	}
	idx = d.entry_number;
	sel = idx << 3 | 3;
	for (int k = 0; k < 4; k++) {
		fill(&d, idx, 0x1000);
		after = fns[k](sel, &d, &r);
		printf("%s holding the entry, entry changed: %d, %s %s\n", names[k],
		       r, names[k], after == sel ? "kept" : "changed");
		clear(&d, idx);
		after = fns[k](sel, &d, &r);
		printf("%s holding the entry, entry cleared: %d, %s = %#x\n",
		       names[k], r, names[k], after);
		fill(&d, idx, 0);
		set_area(&d);
	}
	fill(&d, idx, 0x12345000);
	d.limit = 0xabcde;
	d.flags = D_SEG_32BIT | D_USEABLE | 0x04 /* contents 2: code */;
	printf("set_thread_area code entry: %d\n", set_area(&d));
	d.flags = D_SEG_32BIT | D_USEABLE | 0x02 /* contents 1: data, expand-down */;
	printf("set_thread_area data entry: %d\n", set_area(&d));
	print_area("data entry", idx);
	clear(&d, idx);
	printf("set_thread_area cleared: %d\n", set_area(&d));
	print_area("cleared entry", idx);
	print_area("index 5", 5);
	fill(&d, idx, 0);
	set_area(&d);
}
#endif

int main(void)
{
#ifdef __i386__
	if (!getenv("E2E_REF_TWIN"))
		run();
#endif
	printf("done\n");
	return 0;
}
