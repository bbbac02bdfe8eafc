/* Self-modifying and generated code, the same bytes in every ABI (they
 * decode alike in 32- and 64-bit mode): a JIT that writes a function,
 * calls it, rewrites it and calls it again; code that patches its own
 * next instruction; code written by the kernel (read(2), pread(2)) over
 * code already run; a mapping replaced under code already run; and
 * mprotect cycles. Each line shows what the code returned: natively the
 * CPU always runs the current bytes, so must sysgate. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

typedef int (*fn_t)(void);

/* mov eax, v; ret */
static void put_ret(unsigned char *p, int v)
{
	p[0] = 0xb8;
	memcpy(p + 1, &v, 4);
	p[5] = 0xc3;
}

/* mov eax, v; eight nops; ret: ten instructions in 14 bytes */
static void put_nops_ret(unsigned char *p, int v)
{
	p[0] = 0xb8;
	memcpy(p + 1, &v, 4);
	memset(p + 5, 0x90, 8);
	p[13] = 0xc3;
}

static unsigned char *map_code(void)
{
	void *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE | PROT_EXEC,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("mmap");
		_exit(1);
	}
	return p;
}

/* Stores into code just run, through the stack pointer pointed at its
 * page (i386: the flat-32 address shape's MOV store, its pair with the
 * MOV after it, and its ALU read-modify-write, whose store check reads
 * the low 4 GiB's flat page map), then through EBP/RBP: code + 1 is
 * mov's immediate. */
static void store_via_sp(unsigned char *code, int v)
{
#ifdef __i386__
	__asm__ volatile("mov %%esp, %%ecx\n\t"
			 "mov %0, %%esp\n\t"
			 "movl %1, 1(%%esp)\n\t"
			 "mov %%ecx, %%esp"
			 : : "r"(code), "r"(v) : "ecx", "memory");
#else
	__asm__ volatile("mov %%rsp, %%rcx\n\t"
			 "mov %0, %%rsp\n\t"
			 "movl %1, 1(%%rsp)\n\t"
			 "mov %%rcx, %%rsp"
			 : : "r"((unsigned long long)(unsigned long)code), "r"(v) : "rcx", "memory");
#endif
}

static void xor_via_sp(unsigned char *code, int v)
{
#ifdef __i386__
	__asm__ volatile("mov %%esp, %%ecx\n\t"
			 "mov %0, %%esp\n\t"
			 "xorl %1, 1(%%esp)\n\t"
			 "mov %%ecx, %%esp"
			 : : "r"(code), "r"(v) : "ecx", "memory", "cc");
#else
	__asm__ volatile("mov %%rsp, %%rcx\n\t"
			 "mov %0, %%rsp\n\t"
			 "xorl %1, 1(%%rsp)\n\t"
			 "mov %%rcx, %%rsp"
			 : : "r"((unsigned long long)(unsigned long)code), "r"(v) : "rcx", "memory", "cc");
#endif
}

static void store_via_bp(unsigned char *code, int v)
{
#ifdef __i386__
	__asm__ volatile("push %%ebp\n\t"
			 "mov %0, %%ebp\n\t"
			 "movl %1, 1(%%ebp)\n\t"
			 "pop %%ebp"
			 : : "a"(code), "d"(v) : "memory");
#else
	__asm__ volatile("push %%rbp\n\t"
			 "mov %0, %%rbp\n\t"
			 "movl %1, 1(%%rbp)\n\t"
			 "pop %%rbp"
			 : : "a"((unsigned long long)(unsigned long)code), "d"(v) : "memory");
#endif
}

int main(void)
{
	unsigned char *buf = map_code();
	volatile fn_t f = (fn_t)buf;
	char path[] = "/tmp/sg-smc-XXXXXX";
	unsigned char code[6];
	int fd, pfd[2], a, b;

	/* JIT: write, call, rewrite, call (stores by the guest itself) */
	put_ret(buf, 7);
	a = f();
	put_ret(buf, 9);
	b = f();
	printf("jit rewrite: %d %d\n", a, b);

	/* many functions on one page, each rewritten after running */
	a = 0;
	for (int k = 0; k < 64; k++) {
		put_ret(buf + 64 * k, k);
		a += ((fn_t)(buf + 64 * k))();
		put_ret(buf + 64 * k, 2 * k);
		a += ((fn_t)(buf + 64 * k))();
	}
	printf("jit page: %d\n", a);

	/* code patching the instruction right after itself:
	 *   call $+5; pop eax/rax; mov byte [eax/rax+6], 42; mov eax, 1; ret */
	static const unsigned char self[] = { 0xe8, 0, 0, 0, 0, 0x58, 0xc6, 0x40, 0x06, 0x2a,
					      0xb8, 1, 0, 0, 0, 0xc3 };
	memcpy(buf + 4096, self, sizeof(self));
	f = (fn_t)(buf + 4096);
	a = f();
	memcpy(buf + 4096, self, sizeof(self)); /* back to 1, run again */
	b = f();
	printf("self patch: %d %d\n", a, b);

	/* the kernel writes the code: read(2) from a pipe, pread(2) from a file */
	f = (fn_t)buf;
	put_ret(buf, 3);
	a = f();
	put_ret(code, 4);
	if (pipe(pfd) || write(pfd[1], code, 6) != 6 || read(pfd[0], buf, 6) != 6)
		return 1;
	b = f();
	printf("read over code: %d %d\n", a, b);
	fd = mkstemp(path);
	if (fd < 0)
		return 1;
	unlink(path);
	put_ret(code, 5);
	if (write(fd, code, 6) != 6 || pread(fd, buf, 6, 0) != 6)
		return 1;
	printf("pread over code: %d\n", f());

	/* a new mapping at the same address (MAP_FIXED), filled by the kernel */
	put_ret(code, 6);
	if (pwrite(fd, code, 6, 0) != 6)
		return 1;
	if (mmap(buf, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_FIXED, fd, 0) != buf)
		return 1;
	printf("file mapped over code: %d\n", f());

	/* W^X cycles: RW to write, RX to run */
	if (mmap(buf, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED | MAP_ANONYMOUS, -1,
		 0) != buf)
		return 1;
	put_ret(buf, 10);
	mprotect(buf, 4096, PROT_READ | PROT_EXEC);
	a = f();
	mprotect(buf, 4096, PROT_READ | PROT_WRITE);
	put_ret(buf, 11);
	mprotect(buf, 4096, PROT_READ | PROT_EXEC);
	b = f();
	printf("mprotect cycle: %d %d\n", a, b);

	/* many pages decoded in turn, one function of ten instructions of
	 * each at a time (the decoder's pools share windows: each page's
	 * entries go to a new segment at nearly every turn, far more turns
	 * than a page may have segments),
	 * then every page rewritten and run again: the pages are dropped and
	 * their pools used again */
	enum { PAGES = 12, FUNCS = 250 };
	unsigned char *many = mmap(NULL, PAGES * 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	long sum = 0;

	if (many == MAP_FAILED)
		return 1;
	for (int round = 0; round < 3; round++) {
		for (int pg = 0; pg < PAGES; pg++)
			for (int k = 0; k < FUNCS; k++)
				put_nops_ret(many + pg * 4096 + 16 * k, round * 100000 + pg * 1000 + k);
		for (int k = 0; k < FUNCS; k++)
			for (int pg = 0; pg < PAGES; pg++)
				sum += ((fn_t)(many + pg * 4096 + 16 * k))();
	}
	printf("pages in turn: %ld\n", sum);
	munmap(many, PAGES * 4096);

	/* stores into code just run through the stack and frame pointers */
	f = (fn_t)(buf + 4096 + 64);
	put_ret(buf + 4096 + 64, 20);
	a = f();
	store_via_sp(buf + 4096 + 64, 21);
	b = f();
	xor_via_sp(buf + 4096 + 64, 21 ^ 22);
	int x = f();
	store_via_bp(buf + 4096 + 64, 23);
	printf("stores through sp/bp into code: %d %d %d %d\n", a, b, x, f());

	/* a loop across a page end: its body ends at the first page's end
	 * and falls into a JMP on the second page back to its condition on
	 * the first (sysgate's stub there goes to the JMP's target itself);
	 * then the second page rewritten: an ADD before the JMP, a JMP to
	 * the RET instead, the first JMP again.
	 * f: xor %eax,%eax; mov $10,%ecx; COND: test %ecx,%ecx; jnz BODY;
	 * ret; BODY: add $3,%eax; sub $1,%ecx | page end | jmp COND */
	static const unsigned char loop[18] = { 0x31, 0xc0, 0xb9, 10, 0, 0, 0, 0x85, 0xc9, 0x75,
						 0x01, 0xc3, 0x83, 0xc0, 0x03, 0x83, 0xe9, 0x01 };
	unsigned char *two = map_code(), *page_end = two + 4096;
	int across[6];

	f = (fn_t)(page_end - sizeof(loop));
	memcpy(page_end - sizeof(loop), loop, sizeof(loop));
	memcpy(page_end, "\xeb\xf3", 2); /* jmp COND */
	across[0] = f();
	across[1] = f();
	memcpy(page_end, "\x83\xc0\x64\xeb\xf0", 5); /* add $100,%eax; jmp COND */
	across[2] = f();
	memcpy(page_end, "\xeb\xf7", 2); /* jmp to the RET */
	across[3] = f();
	memcpy(page_end, "\xeb\xf3", 2); /* jmp COND */
	across[4] = f();
	/* the second page replaced by a new mapping (no store: the page
	 * dropped by the mmap) holding the JMP to the RET */
	if (mmap(page_end, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != page_end)
		return 1;
	memcpy(page_end, "\xeb\xf7", 2);
	across[5] = f();
	printf("loop across a page end: %d %d %d %d %d %d\n", across[0], across[1], across[2],
	       across[3], across[4], across[5]);
	munmap(two, 8192);

	/* unmapped, mapped again anonymous, rewritten */
	munmap(buf, 8192);
	buf = map_code();
	put_ret(buf, 12);
	printf("after munmap: %d\n", ((fn_t)buf)());
	close(fd);
	return 0;
}
