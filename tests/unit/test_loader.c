/* src/loader: validation of each error class, ABI detection, and loading
 * freshly compiled static programs of the three ABIs. Expected values come
 * from the ELF files themselves (read here with <elf.h>, not libelf), the
 * real ABI headers and the host (uid, page size). */
#define _GNU_SOURCE /* memmem */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "cpu/cpu.h"
#include "loader/loader.h"
#include "mm/mm.h"
#include "vdso/vdso.h"

static char dir[64];

static const char *tmp_path(const char *name)
{
	static char buf[8][256];
	static int i;
	char *p = buf[i++ % 8];

	snprintf(p, 256, "%s/%s", dir, name);
	return p;
}

static void write_file(const char *path, const void *data, size_t n, int mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, n), (ssize_t)n);
	close(fd);
}

static size_t read_file(const char *path, void *buf, size_t max)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	assert_true(fd >= 0);
	n = read(fd, buf, max);
	close(fd);
	assert_true(n >= 0);
	return (size_t)n;
}

static const char hello_c[] =
	"#include <stdio.h>\n"
	"int counter; char big[100000];\n"
	"int main(int c, char **v) { printf(\"hi %d\\n\", c + counter + big[5]); return 0; }\n";

/* Build a test program; false if this toolchain cannot (no x32 libc...). */
static bool build(const char *flags, const char *out)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "cc %s -o %s %s 2>/dev/null", flags,
		 tmp_path(out), tmp_path("hello.c"));
	return system(cmd) == 0;
}

static int setup(void **state)
{
	strcpy(dir, "/tmp/sg_loader_XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	write_file(tmp_path("hello.c"), hello_c, strlen(hello_c), 0644);
	build("-m64 -static", "h64");
	build("-m32 -static", "h32");
	build("-mx32 -static", "hx32");
	build("-m32 -static-pie -fpie", "h32pie");
	build("-m64 -static-pie -fpie", "h64pie");
	build("-m32", "h32dyn");
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void skip_unless_exists(const char *path)
{
	if (access(path, R_OK) != 0)
		skip();
}

/* --- validation --- */

static void test_errors_files(void **state)
{
	enum sg_abi abi;
	uint8_t buf[256];

	assert_int_equal(loader_probe(tmp_path("missing"), &abi), SG_ERR_NOENT);
	assert_int_equal(loader_probe("/nonexistent/dir/x", &abi), SG_ERR_NOENT);
	assert_int_equal(loader_probe(dir, &abi), SG_ERR_ISDIR);
	write_file(tmp_path("text"), "#!not an elf\n", 13, 0755);
	assert_int_equal(loader_probe(tmp_path("text"), &abi), SG_ERR_NOEXEC);
	write_file(tmp_path("empty"), "", 0, 0755);
	assert_int_equal(loader_probe(tmp_path("empty"), &abi), SG_ERR_NOEXEC);
	/* the first 40 bytes of /bin/true: ELF, but not even the header */
	assert_true(read_file("/bin/true", buf, 40) == 40);
	write_file(tmp_path("trunc40"), buf, 40, 0755);
	assert_int_equal(loader_probe(tmp_path("trunc40"), &abi), SG_ERR_TRUNCATED);
	/* the whole ELF header but only part of the program headers */
	assert_true(read_file("/bin/true", buf, 100) == 100);
	write_file(tmp_path("trunc100"), buf, 100, 0755);
	assert_int_equal(loader_probe(tmp_path("trunc100"), &abi), SG_ERR_TRUNCATED);
	if (geteuid() != 0) {
		write_file(tmp_path("noperm"), "x", 1, 0);
		assert_int_equal(loader_probe(tmp_path("noperm"), &abi), SG_ERR_ACCES);
	}
}

/* A minimal ELF header of the given class/machine/type with no segments. */
static void craft(const char *name, int cls, int machine, int type, int phnum)
{
	uint8_t buf[512] = { 0 };

	memcpy(buf, ELFMAG, SELFMAG);
	buf[EI_CLASS] = (uint8_t)cls;
	buf[EI_DATA] = ELFDATA2LSB;
	buf[EI_VERSION] = EV_CURRENT;
	if (cls == ELFCLASS32) {
		Elf32_Ehdr *eh = (Elf32_Ehdr *)buf;
		Elf32_Phdr *ph = (Elf32_Phdr *)(buf + sizeof(*eh));

		eh->e_type = (uint16_t)type;
		eh->e_machine = (uint16_t)machine;
		eh->e_version = EV_CURRENT;
		eh->e_ehsize = sizeof(*eh);
		eh->e_phoff = sizeof(*eh);
		eh->e_phentsize = sizeof(*ph);
		eh->e_phnum = (uint16_t)phnum;
		ph->p_type = PT_LOAD;
		ph->p_vaddr = 0x08048000;
		ph->p_filesz = ph->p_memsz = 0x100;
		ph->p_flags = PF_R | PF_X;
	} else {
		Elf64_Ehdr *eh = (Elf64_Ehdr *)buf;
		Elf64_Phdr *ph = (Elf64_Phdr *)(buf + sizeof(*eh));

		eh->e_type = (uint16_t)type;
		eh->e_machine = (uint16_t)machine;
		eh->e_version = EV_CURRENT;
		eh->e_ehsize = sizeof(*eh);
		eh->e_phoff = sizeof(*eh);
		eh->e_phentsize = sizeof(*ph);
		eh->e_phnum = (uint16_t)phnum;
		ph->p_type = PT_LOAD;
		ph->p_vaddr = 0x400000;
		ph->p_filesz = ph->p_memsz = 0x100;
		ph->p_flags = PF_R | PF_X;
	}
	write_file(tmp_path(name), buf, sizeof(buf), 0755);
}

static void test_errors_headers(void **state)
{
	enum sg_abi abi = SG_ABI_NONE;

	craft("arm", ELFCLASS32, EM_ARM, ET_EXEC, 1);
	assert_int_equal(loader_probe(tmp_path("arm"), &abi), SG_ERR_MACHINE);
	craft("aarch64", ELFCLASS64, EM_AARCH64, ET_EXEC, 1);
	assert_int_equal(loader_probe(tmp_path("aarch64"), &abi), SG_ERR_MACHINE);
	craft("i386_64", ELFCLASS64, EM_386, ET_EXEC, 1);
	assert_int_equal(loader_probe(tmp_path("i386_64"), &abi), SG_ERR_CLASS);
	/* craft() lays class 7 out as ELFCLASS64: with EM_386 no handler of
	 * the kernel takes that layout (binfmt_elf never looks at EI_CLASS
	 * itself: e2e.elf-ei-class) */
	craft("badclass", 7, EM_386, ET_EXEC, 1);
	assert_int_equal(loader_probe(tmp_path("badclass"), &abi), SG_ERR_CLASS);
	craft("rel", ELFCLASS64, EM_X86_64, ET_REL, 1);
	assert_int_equal(loader_probe(tmp_path("rel"), &abi), SG_ERR_CLASS);
	craft("nophdr", ELFCLASS32, EM_386, ET_EXEC, 0);
	assert_int_equal(loader_probe(tmp_path("nophdr"), &abi), SG_ERR_BADELF);
	/* the crafted good ones decide the ABI */
	craft("ok32", ELFCLASS32, EM_386, ET_EXEC, 1);
	assert_int_equal(loader_probe(tmp_path("ok32"), &abi), SG_OK);
	assert_int_equal(abi, SG_ABI_I386);
	craft("okx32", ELFCLASS32, EM_X86_64, ET_EXEC, 1);
	assert_int_equal(loader_probe(tmp_path("okx32"), &abi), SG_OK);
	assert_int_equal(abi, SG_ABI_X32);
	/* a segment beyond the end of the file: mapped natively (a page
	 * there is SIGBUS only when touched), so it is no error */
	craft("seg", ELFCLASS64, EM_X86_64, ET_EXEC, 1);
	{
		uint8_t buf[512];
		Elf64_Phdr *ph = (Elf64_Phdr *)(buf + sizeof(Elf64_Ehdr));

		read_file(tmp_path("seg"), buf, sizeof(buf));
		ph->p_filesz = ph->p_memsz = 0x10000;
		write_file(tmp_path("seg"), buf, sizeof(buf), 0755);
	}
	assert_int_equal(loader_probe(tmp_path("seg"), &abi), SG_OK);
}

static void test_probe_programs(void **state)
{
	enum sg_abi abi = SG_ABI_NONE;

	assert_int_equal(loader_probe("/bin/true", &abi), SG_OK);
	assert_int_equal(abi, SG_ABI_X64);
	skip_unless_exists(tmp_path("h32"));
	assert_int_equal(loader_probe(tmp_path("h32"), &abi), SG_OK);
	assert_int_equal(abi, SG_ABI_I386);
	skip_unless_exists(tmp_path("hx32"));
	assert_int_equal(loader_probe(tmp_path("hx32"), &abi), SG_OK);
	assert_int_equal(abi, SG_ABI_X32);
}

/* --- loading --- */

struct file_hdr { /* the program's header facts, read with <elf.h> */
	bool is64;
	uint64_t entry, phoff, phentsize, phnum, type;
	uint64_t end;           /* highest p_vaddr + p_memsz */
	uint64_t min_vaddr;
	uint8_t phdrs[4096];
	struct { uint64_t vaddr, filesz, memsz, offset; int flags; } load[16];
	int nload;
	char interp[256];
};

static void read_hdr(const char *path, struct file_hdr *h)
{
	static uint8_t buf[1 << 16];
	size_t n = read_file(path, buf, sizeof(buf));

	memset(h, 0, sizeof(*h));
	h->min_vaddr = UINT64_MAX;
	assert_true(n > sizeof(Elf64_Ehdr));
	h->is64 = buf[EI_CLASS] == ELFCLASS64;
#define READ_HDR(E, P)                                                        \
	do {                                                                   \
		E *eh = (E *)buf;                                              \
		h->entry = eh->e_entry;                                        \
		h->phoff = eh->e_phoff;                                        \
		h->phentsize = eh->e_phentsize;                                \
		h->phnum = eh->e_phnum;                                        \
		h->type = eh->e_type;                                          \
		for (unsigned i = 0; i < eh->e_phnum; i++) {                   \
			P *ph = (P *)(buf + eh->e_phoff + i * eh->e_phentsize); \
			if (ph->p_type == PT_INTERP)                            \
				memcpy(h->interp, buf + ph->p_offset,           \
				       ph->p_filesz);                           \
			if (ph->p_type != PT_LOAD)                              \
				continue;                                       \
			h->load[h->nload].vaddr = ph->p_vaddr;                  \
			h->load[h->nload].filesz = ph->p_filesz;                \
			h->load[h->nload].memsz = ph->p_memsz;                  \
			h->load[h->nload].offset = ph->p_offset;                \
			h->load[h->nload++].flags = (int)ph->p_flags;           \
			if (ph->p_vaddr + ph->p_memsz > h->end)                 \
				h->end = ph->p_vaddr + ph->p_memsz;             \
			if (ph->p_vaddr < h->min_vaddr)                         \
				h->min_vaddr = ph->p_vaddr;                     \
		}                                                              \
	} while (0)
	if (h->is64)
		READ_HDR(Elf64_Ehdr, Elf64_Phdr);
	else
		READ_HDR(Elf32_Ehdr, Elf32_Phdr);
#undef READ_HDR
	memcpy(h->phdrs, buf + h->phoff, h->phnum * h->phentsize);
}

struct loaded {
	struct loader_out p;
	struct cpu cpu;
	unsigned word;
	uint64_t argc, argv, envp, auxv;
};

static uint64_t word_at(const struct loaded *l, uint64_t addr)
{
	uint64_t v = 0;

	assert_true(mm_access_ok(l->p.mm, addr, l->word, PROT_READ));
	memcpy(&v, g2h(addr), l->word);
	return v;
}

static uint64_t auxv_get(const struct loaded *l, uint64_t type, bool *found)
{
	for (uint64_t a = l->auxv;; a += 2 * l->word) {
		uint64_t t = word_at(l, a);

		if (t == type) {
			if (found)
				*found = true;
			return word_at(l, a + l->word);
		}
		if (t == AT_NULL)
			break;
	}
	if (found)
		*found = false;
	return 0;
}

static const char *guest_str(const struct loaded *l, uint64_t addr)
{
	static char buf[4][512];
	static int i;
	char *b = buf[i++ % 4];

	assert_true(strncpy_from_guest(l->p.mm, b, addr, 512) >= 0);
	return b;
}

static struct loaded *current; /* unloaded by unload_current on failure */

static struct loaded *load(const char *path, char *const argv[],
			   char *const envp[])
{
	struct loaded *l = calloc(1, sizeof(*l));
	enum sg_err err;

	assert_non_null(l);
	/* no_aslr: the kernel's fixed layout */
	err = loader_load(&(const struct loader_args){ .no_aslr = true }, &l->p,
			  &l->cpu, path, argv, envp);
	if (err == SG_OK)
		current = l;
	else
		free(l);
	assert_int_equal(err, SG_OK);
	l->word = l->p.abi == SG_ABI_X64 ? 8 : 4;
	l->argc = l->p.image.stack_pointer;
	l->argv = l->argc + l->word;
	l->envp = l->argv + (word_at(l, l->argc) + 1) * l->word;
	l->auxv = l->envp;
	while (word_at(l, l->auxv))
		l->auxv += l->word;
	l->auxv += l->word;
	return l;
}

static void unload(struct loaded *l)
{
	current = NULL;
	cpu_release(&l->cpu);
	mm_destroy(l->p.mm);
	free(l->p.exe_path);
	free(l);
}

static int unload_current(void **state)
{
	if (current)
		unload(current);
	return 0;
}

static char *const test_argv[] = { "hello", "one", "two words", NULL };
static char *const test_envp[] = { "A=1", "PATH=/usr/bin:/bin", NULL };

/* The checks every loaded program must pass. */
static void check_common(struct loaded *l, const char *path,
			 const struct file_hdr *h, enum sg_abi abi, uint64_t bias)
{
	uint64_t sp = l->cpu.r[R_SP], phdr, rnd;
	char real[4096];
	bool found;

	assert_int_equal(l->p.abi, abi);
	assert_non_null(l->p.mm);
	assert_int_equal(mm_is_low4g(l->p.mm), abi != SG_ABI_X64);
	assert_int_equal(l->cpu.mode, abi == SG_ABI_I386 ? CPU_MODE_32 : CPU_MODE_64);
	/* registers of a fresh process */
	assert_int_equal(sp, l->p.image.stack_pointer);
	assert_int_equal(sp % 16, 0);
	assert_int_equal(l->cpu.r[R_DX], 0);
	assert_int_equal(l->cpu.r[R_AX] | l->cpu.r[R_BX] | l->cpu.r[R_CX] |
			 l->cpu.r[R_SI] | l->cpu.r[R_DI] | l->cpu.r[R_BP], 0);
	assert_int_equal(l->cpu.rip, l->p.image.entry);
	/* argc, argv, envp */
	assert_int_equal(word_at(l, sp), 3);
	for (int i = 0; i < 3; i++)
		assert_string_equal(guest_str(l, word_at(l, l->argv + i * l->word)),
				    test_argv[i]);
	assert_int_equal(word_at(l, l->argv + 3 * l->word), 0);
	assert_string_equal(guest_str(l, word_at(l, l->envp)), "A=1");
	assert_string_equal(guest_str(l, word_at(l, l->envp + l->word)),
			    "PATH=/usr/bin:/bin");
	assert_int_equal(word_at(l, l->envp + 2 * l->word), 0);
	/* auxv against the file and the host */
	assert_int_equal(auxv_get(l, AT_ENTRY, NULL), bias + h->entry);
	assert_int_equal(auxv_get(l, AT_PHNUM, NULL), h->phnum);
	assert_int_equal(auxv_get(l, AT_PHENT, NULL), h->phentsize);
	phdr = auxv_get(l, AT_PHDR, &found);
	assert_true(found);
	assert_true(mm_access_ok(l->p.mm, phdr, h->phnum * h->phentsize, PROT_READ));
	assert_memory_equal(g2h(phdr), h->phdrs, h->phnum * h->phentsize);
	assert_int_equal(auxv_get(l, AT_PAGESZ, NULL), (uint64_t)getpagesize());
	assert_int_equal(auxv_get(l, AT_CLKTCK, NULL), (uint64_t)sysconf(_SC_CLK_TCK));
	assert_int_equal(auxv_get(l, AT_UID, NULL), getuid());
	assert_int_equal(auxv_get(l, AT_EUID, NULL), geteuid());
	assert_int_equal(auxv_get(l, AT_GID, NULL), getgid());
	assert_int_equal(auxv_get(l, AT_EGID, NULL), getegid());
	assert_int_equal(auxv_get(l, AT_SECURE, &found), 0);
	assert_true(found);
	auxv_get(l, AT_FLAGS, &found);
	assert_true(found);
	auxv_get(l, AT_HWCAP, &found);
	assert_true(found);
	auxv_get(l, AT_MINSIGSTKSZ, &found);
	assert_true(found);
	rnd = auxv_get(l, AT_RANDOM, NULL);
	assert_true(mm_access_ok(l->p.mm, rnd, 16, PROT_READ));
	assert_string_equal(guest_str(l, auxv_get(l, AT_EXECFN, NULL)), path);
	assert_string_equal(guest_str(l, auxv_get(l, AT_PLATFORM, NULL)),
			    abi == SG_ABI_X64 ? "x86_64" : "i686");
	/* strings and random bytes live above the vectors, inside the stack */
	assert_true(rnd > sp && auxv_get(l, AT_EXECFN, NULL) > rnd);
	/* vDSO: every ABI; AT_SYSINFO (__kernel_vsyscall) only for i386 */
	auxv_get(l, AT_SYSINFO, &found);
	assert_int_equal(found, abi == SG_ABI_I386);
	assert_int_equal(auxv_get(l, AT_SYSINFO_EHDR, &found), l->p.image.vdso_base);
	assert_true(found && l->p.image.vdso_base);
	assert_true(l->p.image.vdso_private_return > l->p.image.vdso_base);
	/* brk: the page after the highest segment */
	assert_int_equal(l->p.image.brk_start, MM_PAGE_ALIGN_UP(bias + h->end));
	assert_int_equal(mm_brk(l->p.mm, 0), l->p.image.brk_start);
	assert_non_null(realpath(path, real));
	assert_string_equal(l->p.exe_path, real);
	/* segments: file bytes where p_vaddr says, bss zero, protections */
	for (int i = 0; i < h->nload; i++) {
		uint64_t va = bias + h->load[i].vaddr;
		uint8_t *file = malloc(h->load[i].filesz + 1);
		int fd = open(path, O_RDONLY);
		int need = h->load[i].flags & PF_W ? PROT_WRITE : PROT_READ;

		assert_true(pread(fd, file, h->load[i].filesz,
				  (off_t)h->load[i].offset) ==
			    (ssize_t)h->load[i].filesz);
		close(fd);
		assert_true(mm_access_ok(l->p.mm, va, h->load[i].memsz, need));
		assert_memory_equal(g2h(va), file, h->load[i].filesz);
		for (uint64_t b = h->load[i].filesz; b < h->load[i].memsz; b++)
			if (((uint8_t *)g2h(va))[b])
				fail_msg("bss byte %#llx not zero",
					 (unsigned long long)(va + b));
		/* with a bss, up to the end of its page too */
		for (uint64_t a = va + h->load[i].memsz;
		     h->load[i].memsz > h->load[i].filesz && a % 4096; a++)
			assert_int_equal(*(uint8_t *)g2h(a), 0);
		if (!(h->load[i].flags & PF_W))
			assert_false(mm_access_ok(l->p.mm, va, 1, PROT_WRITE));
		free(file);
	}
}

static void test_load_x64_static(void **state)
{
	const char *path = tmp_path("h64");
	struct file_hdr h;
	struct loaded *l;

	skip_unless_exists(path);
	read_hdr(path, &h);
	assert_int_equal(h.type, ET_EXEC);
	l = load(path, test_argv, test_envp);
	check_common(l, path, &h, SG_ABI_X64, 0);
	assert_int_equal(l->cpu.rip, h.entry);
	assert_int_not_equal(l->p.image.vdso_base, 0);
	/* the kernel's SYSENTER landing: the 32-bit image's offset, any ABI */
	assert_int_equal(l->p.image.sysenter_return,
			 l->p.image.vdso_base + vdso_image_for(SG_ABI_I386)->sym_sysenter_return);
	/* the stack is guest memory, 8 MiB, the strings at its very top */
	assert_true(mm_access_ok(l->p.mm, l->cpu.r[R_SP] - 4096, 4096 + 64, PROT_WRITE));
	unload(l);
}

static void test_load_i386_static(void **state)
{
	const char *path = tmp_path("h32");
	const struct vdso_image *img = vdso_image_for(SG_ABI_I386);
	uint64_t sysinfo, ehdr;
	struct file_hdr h;
	struct loaded *l;

	skip_unless_exists(path);
	read_hdr(path, &h);
	l = load(path, test_argv, test_envp);
	check_common(l, path, &h, SG_ABI_I386, 0);
	assert_int_equal(l->cpu.rip, h.entry);
	/* below a compat task's TASK_SIZE, within the 8 MiB stack */
	assert_true(l->cpu.r[R_SP] < mm_stack_top(l->p.mm));
	assert_true(l->cpu.r[R_SP] > mm_stack_top(l->p.mm) - (8 << 20));
	assert_true(mm_stack_top(l->p.mm) <= 0xffffe000);
	/* the vDSO: an ELF image; AT_SYSINFO is its __kernel_vsyscall */
	ehdr = auxv_get(l, AT_SYSINFO_EHDR, NULL);
	sysinfo = auxv_get(l, AT_SYSINFO, NULL);
	assert_int_equal(ehdr, l->p.image.vdso_base);
	assert_int_equal(ehdr % 4096, 0);
	assert_memory_equal(g2h(ehdr), ELFMAG, SELFMAG);
	assert_int_equal(sysinfo, l->p.image.sysinfo);
	assert_int_equal(sysinfo, ehdr + img->sym_kernel_vsyscall);
	assert_memory_equal(g2h(sysinfo), "\x51\x52\x55\x89\xe5\x0f\x34", 7);
	assert_int_equal(l->p.image.sysenter_return, ehdr + img->sym_sysenter_return);
	assert_true(mm_access_ok(l->p.mm, ehdr, img->size, PROT_EXEC));
	assert_false(mm_access_ok(l->p.mm, ehdr, 1, PROT_WRITE));
	unload(l);
}

static void test_load_x32_static(void **state)
{
	const char *path = tmp_path("hx32");
	struct file_hdr h;
	struct loaded *l;

	skip_unless_exists(path);
	read_hdr(path, &h);
	l = load(path, test_argv, test_envp);
	check_common(l, path, &h, SG_ABI_X32, 0);
	assert_true(l->cpu.r[R_SP] < 0xffffe000);
	unload(l);
}

static void test_load_static_pie(void **state)
{
	const char *names[] = { "h32pie", "h64pie" };

	for (int i = 0; i < 2; i++) {
		const char *path = tmp_path(names[i]);
		struct file_hdr h;
		struct loaded *l;
		uint64_t bias;

		if (access(path, R_OK) != 0)
			continue;
		read_hdr(path, &h);
		assert_int_equal(h.type, ET_DYN);
		l = load(path, test_argv, test_envp);
		/* the bias follows from where the headers landed */
		bias = auxv_get(l, AT_PHDR, NULL) - h.phoff;
		assert_int_equal(bias % 4096, 0);
		assert_true(bias != 0);
		check_common(l, path, &h, i ? SG_ABI_X64 : SG_ABI_I386, bias);
		assert_int_equal(l->cpu.rip, bias + h.entry);
		assert_int_equal(auxv_get(l, AT_BASE, NULL), 0);
		unload(l);
	}
}

static void test_load_dynamic(void **state)
{
	const char *path = tmp_path("h32dyn");
	struct file_hdr h, ih;
	struct loaded *l;
	uint64_t base, bias;

	skip_unless_exists(path);
	read_hdr(path, &h);
	assert_true(h.interp[0]);
	skip_unless_exists(h.interp);
	read_hdr(h.interp, &ih);
	l = load(path, test_argv, test_envp);
	bias = auxv_get(l, AT_PHDR, NULL) - h.phoff;
	check_common(l, path, &h, SG_ABI_I386, bias);
	/* the interpreter runs first; AT_BASE is where it is */
	base = auxv_get(l, AT_BASE, NULL);
	assert_true(base != 0 && base % 4096 == 0);
	assert_int_equal(l->cpu.rip, base + ih.entry);
	assert_memory_equal(g2h(base), ELFMAG, SELFMAG);
	unload(l);
}

static void test_missing_interp(void **state)
{
	static uint8_t buf[1 << 20];
	const char *path = tmp_path("h32dyn");
	const struct loader_args args = { 0 };
	struct loader_out p = { 0 };
	struct cpu cpu;
	struct file_hdr h;
	size_t n;
	uint8_t *s;

	skip_unless_exists(path);
	read_hdr(path, &h);
	n = read_file(path, buf, sizeof(buf));
	s = memmem(buf, n, h.interp, strlen(h.interp));
	assert_non_null(s);
	s[1] = 'X'; /* "/Xib/ld-linux.so.2" */
	write_file(tmp_path("badinterp"), buf, n, 0755);
	memset(&cpu, 0, sizeof(cpu));
	assert_int_equal(loader_load(&args, &p, &cpu, tmp_path("badinterp"), test_argv,
				     test_envp), SG_ERR_INTERP);
	assert_null(p.mm);
	assert_null(p.exe_path);
	/* load errors leave nothing behind: a low4g space can be made again */
	assert_int_equal(loader_load(&args, &p, &cpu, tmp_path("trunc40"), test_argv,
				     test_envp), SG_ERR_TRUNCATED);
	struct mm *mm = mm_create(true);
	assert_non_null(mm);
	mm_destroy(mm);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_errors_files),
		cmocka_unit_test(test_errors_headers),
		cmocka_unit_test(test_probe_programs),
		cmocka_unit_test_teardown(test_load_x64_static, unload_current),
		cmocka_unit_test_teardown(test_load_i386_static, unload_current),
		cmocka_unit_test_teardown(test_load_x32_static, unload_current),
		cmocka_unit_test_teardown(test_load_static_pie, unload_current),
		cmocka_unit_test_teardown(test_load_dynamic, unload_current),
		cmocka_unit_test(test_missing_interp),
	};

	return cmocka_run_group_tests_name("loader", tests, setup, teardown);
}
