/* The initial process stack, laid out as the kernel's exec does for the
 * guest's ABI (word size 4 for i386 and x32, 8 for x86_64). From the top:
 * a pointer-sized zero, the execfn string, envp strings, argv strings;
 * 16-byte alignment; the platform string; 16 AT_RANDOM bytes; then, at a
 * 16-byte aligned stack pointer, argc, argv[], NULL, envp[], NULL, auxv. */
#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/random.h>
#include <unistd.h>

#include "loader/loader_internal.h"
#include "cpu/cpu.h"
#include "mm/mm.h"

#define MAX_AUXV 32

struct auxv {
	uint64_t v[MAX_AUXV * 2];
	unsigned n; /* words used */
};

static void aux(struct auxv *a, uint64_t type, uint64_t val)
{
	a->v[a->n++] = type;
	a->v[a->n++] = val;
}

static void put_word(uint64_t addr, uint64_t val, unsigned word)
{
	if (word == 8) {
		memcpy(g2h(addr), &val, 8);
	} else {
		uint32_t v32 = (uint32_t)val;

		memcpy(g2h(addr), &v32, 4);
	}
}

/* Place a string below *p; 0 if it would go below limit. */
static uint64_t push_string(uint64_t *p, uint64_t limit, const char *s)
{
	size_t len = strlen(s) + 1;

	if (*p - limit < len)
		return 0;
	*p -= len;
	memcpy(g2h(*p), s, len);
	return *p;
}

static size_t count(char *const *v)
{
	size_t n = 0;

	while (v && v[n])
		n++;
	return n;
}

/* AT_MINSIGSTKSZ: the kernel's max_frame_size (init_sigframe_size, 6.1)
 * for the frames sysgate builds: the largest frame, sigframe_i386 (732,
 * asserted in syscall/compat/sigframe_layout.h), + 15 for alignment, + the FP state
 * (fpu__get_fpstate_size: the XSAVE area of the guest's XCR0 + 4 for
 * FP_XSTATE_MAGIC2, or 512 without XSAVE; + the 112-byte fsave header, also
 * for 64-bit tasks of a kernel with IA32 emulation) + 63 XSAVE alignment,
 * rounded up to 16: 1504 for XCR0 = x87|SSE (576 bytes), 1760 with AVX
 * (832), 1440 without XSAVE. Not the host's value, which counts the host's
 * own XSAVE area: a program sizing its alternate stack between the two
 * expects SIGSEGV where sysgate's frame fits. */
static uint64_t max_sigframe_size(void)
{
	uint64_t fp = CPU_XCR0 ? cpu_xstate_size(CPU_XCR0) + 4 : 512;

	return (732 + 15 + fp + 112 + 63 + 15) & ~15ull;
}

/* The auxiliary vector in the kernel's order (create_elf_tables, with
 * ARCH_DLINFO / ARCH_DLINFO_IA32 / ARCH_DLINFO_X32 first). */
static void fill_auxv(struct auxv *a, const struct stack_info *si,
		      uint64_t random, uint64_t execfn, uint64_t platform)
{
	if (si->abi == SG_ABI_I386 && si->sysinfo)
		aux(a, AT_SYSINFO, si->sysinfo);
	if (si->sysinfo_ehdr)
		aux(a, AT_SYSINFO_EHDR, si->sysinfo_ehdr);
	aux(a, AT_MINSIGSTKSZ, max_sigframe_size());
	aux(a, AT_HWCAP, si->hwcap);
	aux(a, AT_PAGESZ, MM_PAGE_SIZE);
	aux(a, AT_CLKTCK, (uint64_t)sysconf(_SC_CLK_TCK));
	aux(a, AT_PHDR, si->phdr);
	aux(a, AT_PHENT, si->phent);
	aux(a, AT_PHNUM, si->phnum);
	aux(a, AT_BASE, si->base);
	aux(a, AT_FLAGS, 0);
	aux(a, AT_ENTRY, si->entry);
	aux(a, AT_UID, getuid());
	aux(a, AT_EUID, geteuid());
	aux(a, AT_GID, getgid());
	aux(a, AT_EGID, getegid());
	aux(a, AT_SECURE, 0);
	aux(a, AT_RANDOM, random);
	aux(a, AT_HWCAP2, 0);
	aux(a, AT_EXECFN, execfn);
	aux(a, AT_PLATFORM, platform);
	aux(a, AT_NULL, 0);
}

static void fill_random(uint8_t *buf, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = getrandom(buf + got, n - got, 0);

		if (r <= 0)
			break;
		got += (size_t)r;
	}
	for (; got < n; got++) /* no entropy source: still 16 bytes */
		buf[got] = (uint8_t)rand();
}

/* /proc/self/auxv's bytes: the kernel saves the vector in an array of
 * unsigned long and prints it two longs at a time until a zero type. A
 * 64-bit task's pairs are two longs; a compat task's 4-byte pairs are
 * packed one per long, so its file runs on to the next even pair (one or
 * two zero pairs after AT_NULL, checked on native i386 runs). */
static size_t saved_auxv(const struct auxv *a, unsigned word, uint8_t *out,
			 size_t max)
{
	size_t pairs = a->n / 2, len; /* AT_NULL included */

	if (word == 8)
		len = pairs * 16;
	else
		len = 8 * (pairs + 1 + ((pairs - 1) & 1));
	if (len > max)
		return 0;
	memset(out, 0, len);
	for (unsigned i = 0; i < a->n; i++) {
		if (word == 8) {
			memcpy(out + 8 * i, &a->v[i], 8);
		} else {
			uint32_t v32 = (uint32_t)a->v[i];

			memcpy(out + 4 * i, &v32, 4);
		}
	}
	return len;
}

/* Where the strings went, for /proc/self/cmdline and environ. */
static void save_exec_info(struct mm *mm, const struct auxv *a, unsigned word,
			   const uint64_t *argp, size_t argc, size_t envc,
			   uint64_t strings_end)
{
	struct mm_exec_info x = { 0 };

	x.env_end = strings_end;
	x.env_start = envc ? argp[argc] : strings_end;
	x.arg_end = x.env_start;
	x.arg_start = argc ? argp[0] : x.env_start;
	x.auxv_len = saved_auxv(a, word, x.auxv, sizeof(x.auxv));
	mm_set_exec_info(mm, &x);
}

uint64_t stack_build(struct mm *mm, uint64_t limit, uint64_t top,
		     const struct stack_info *si)
{
	unsigned word = si->abi == SG_ABI_X64 ? 8 : 4;
	size_t argc = count(si->argv), envc = count(si->envp);
	uint64_t *argp = calloc(argc + envc + 1, sizeof(*argp));
	uint64_t p = top - 8, execfn, platform, random, sp, items;
	struct auxv a = { .n = 0 };
	uint8_t rnd[16];

	if (!argp)
		return 0;
	sp = 0;
	execfn = push_string(&p, limit, si->execfn);
	for (size_t i = envc; execfn && i-- > 0;)
		if (!(argp[argc + i] = push_string(&p, limit, si->envp[i])))
			goto out;
	for (size_t i = argc; execfn && i-- > 0;)
		if (!(argp[i] = push_string(&p, limit, si->argv[i])))
			goto out;
	if (!execfn)
		goto out;
	p &= ~15ull;
	/* Every ELFCLASS32 program, x32 too, is loaded by the kernel's
	 * compat_binfmt_elf, whose platform string is "i686". */
	platform = push_string(&p, limit, si->abi == SG_ABI_X64 ? "x86_64" : "i686");
	if (!platform || p - limit < sizeof(rnd))
		goto out;
	p -= sizeof(rnd);
	random = p;
	fill_random(rnd, sizeof(rnd));
	memcpy(g2h(random), rnd, sizeof(rnd));

	fill_auxv(&a, si, random, execfn, platform);
	items = (argc + 1) + (envc + 1) + 1;
	if ((p - limit) / word < a.n + items + 4)
		goto out;
	sp = (p - (a.n + items) * word) & ~15ull;

	p = sp;
	put_word(p, argc, word);
	p += word;
	for (size_t i = 0; i < argc; i++, p += word)
		put_word(p, argp[i], word);
	put_word(p, 0, word);
	p += word;
	for (size_t i = 0; i < envc; i++, p += word)
		put_word(p, argp[argc + i], word);
	put_word(p, 0, word);
	p += word;
	for (unsigned i = 0; i < a.n; i++, p += word)
		put_word(p, a.v[i], word);
	save_exec_info(mm, &a, word, argp, argc, envc, execfn);
out:
	free(argp);
	return sp;
}
