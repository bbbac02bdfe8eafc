/* loader_probe and loader_load: follow `#!` scripts, decide the ABI,
 * create the address space, map the program (and its interpreter, looked
 * up under the sysroot first), the vDSO and the stack, and give the CPU
 * the registers a fresh process has. Addresses are the kernel's: fixed
 * with --no-aslr or ADDR_NO_RANDOMIZE, else randomised by the same number
 * of bits (docs/loader.md). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/random.h>
#include <unistd.h>

#include "cpu/cpu.h"
#include "loader/loader.h"
#include "loader/loader_internal.h"
#include "mm/mm.h"
#include "vdso/vdso.h"

/* ELF_ET_DYN_BASE: where an ET_DYN program goes (as a compat task and as
 * a 64-bit task on a 6.x kernel, ASLR off). */
#define ET_DYN_BASE_32 0x56555000ull
#define ET_DYN_BASE_64 0x555555554000ull
#define STACK_SIZE (8ull << 20)
/* Randomisation as the kernel's: mmap_rnd_bits (28) / mmap_rnd_compat_bits
 * (8) pages for an ET_DYN base, a 1 GiB / 32 MiB range for brk. */
#define DYN_RND_BITS_64 28
#define DYN_RND_BITS_32 8
#define BRK_RND_BITS_64 18
#define BRK_RND_BITS_32 13

static uint64_t random_pages(unsigned bits)
{
	uint64_t r = 0;

	if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != sizeof(r))
		r = (uint64_t)random();
	return (r & ((1ull << bits) - 1)) * MM_PAGE_SIZE;
}

/* PF_RANDOMIZE: unless --no-aslr, or sysgate runs with ADDR_NO_RANDOMIZE
 * (setarch -R), which the guest inherits as it would natively. */
static bool want_aslr(const struct loader_args *args)
{
	int pers = personality(0xffffffff);

	return !args->no_aslr && !(pers != -1 && (pers & ADDR_NO_RANDOMIZE));
}

enum sg_err loader_probe(const char *path, enum sg_abi *abi)
{
	struct elf_file f;
	enum sg_err err;

	if (!path || !abi)
		return SG_ERR_INVAL;
	err = elf_open(path, &f);
	if (err)
		return err;
	*abi = f.abi;
	elf_close(&f);
	return SG_OK;
}

/* The interpreter: under the sysroot first, then as named. */
static enum sg_err open_interp(const char *sysroot, const char *name,
			       enum sg_abi abi, struct elf_file *f)
{
	char buf[PATH_MAX];
	const char *path = loader_sysroot_path(sysroot, name, buf, sizeof(buf));

	if (elf_open(path, f) != SG_OK)
		return SG_ERR_INTERP;
	if (f->abi != abi || f->interp) {
		elf_close(f);
		return SG_ERR_INTERP; /* wrong ABI, or itself dynamic */
	}
	return elf_check_segments(f);
}

/* Map the vDSO read+exec; 0 when this ABI has none. */
static uint64_t map_vdso(struct mm *mm, const struct vdso_image *img)
{
	long base;

	if (!img)
		return 0;
	base = mm_mmap(mm, 0, img->size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base < 0)
		return 0;
	memcpy(g2h((uint64_t)base), img->data, img->size);
	if (mm_mprotect(mm, (uint64_t)base, img->size, PROT_READ | PROT_EXEC) < 0)
		return 0;
	mm_name_range(mm, (uint64_t)base, img->size, "[vdso]");
	return (uint64_t)base;
}

/* An 8 MiB stack: below a compat task's TASK_SIZE for low4g guests,
 * wherever the host likes for x86_64. Returns its top, or 0. */
static uint64_t map_stack(struct mm *mm, bool exec)
{
	int prot = PROT_READ | PROT_WRITE | (exec ? PROT_EXEC : 0);
	uint64_t top = mm_stack_top(mm);
	long base;

	if (top)
		base = mm_mmap(mm, top - STACK_SIZE, STACK_SIZE, prot,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
			       -1, 0);
	else
		base = mm_mmap(mm, 0, STACK_SIZE, prot,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base < 0)
		return 0;
	mm_name_range(mm, (uint64_t)base, STACK_SIZE, "[stack]");
	return (uint64_t)base + STACK_SIZE;
}

struct load_state {
	struct elf_file prog, interp;
	struct elf_loaded prog_at, interp_at;
	uint64_t vdso_base, stack_top;
	bool aslr;
};

static enum sg_err map_everything(const struct loader_args *args,
				  struct loader_out *out, struct load_state *s,
				  const char *execfn, char *const argv[],
				  char *const envp[])
{
	const struct vdso_image *img = vdso_image_for(s->prog.abi);
	bool is64 = s->prog.abi == SG_ABI_X64;
	struct stack_info si = { 0 };
	uint32_t cpuid1[4] = { 0 };
	bool exec_stack;
	enum sg_err err;

	uint64_t dyn_base = is64 ? ET_DYN_BASE_64 : ET_DYN_BASE_32;
	uint64_t brk_rnd = 0;

	if (s->aslr) {
		dyn_base += random_pages(is64 ? DYN_RND_BITS_64 : DYN_RND_BITS_32);
		brk_rnd = random_pages(is64 ? BRK_RND_BITS_64 : BRK_RND_BITS_32);
	}
	/* no PT_GNU_STACK: 32-bit programs (i386, x32) get READ_IMPLIES_EXEC,
	 * before their segments are mapped (the kernel's elf_read_implies_exec) */
	mm_set_read_implies_exec(out->mm, !is64 && !s->prog.has_gnu_stack);
	err = elf_map(out->mm, &s->prog, dyn_base, &s->prog_at);
	if (err)
		return err;
	/* One descriptor at a time: the kernel needs none to exec, so a
	 * guest with a single one left below RLIMIT_NOFILE must still be
	 * able to exec a dynamic program (e2e.iso-limits). */
	close(s->prog.fd);
	s->prog.fd = -1;
	if (s->prog.interp) {
		err = open_interp(args->sysroot, s->prog.interp, s->prog.abi, &s->interp);
		if (!err)
			err = elf_map(out->mm, &s->interp, 0, &s->interp_at);
		if (s->interp.fd >= 0)
			close(s->interp.fd);
		s->interp.fd = -1;
		if (err)
			return err;
	}
	s->vdso_base = map_vdso(out->mm, img);
	/* no PT_GNU_STACK: 32-bit programs get READ_IMPLIES_EXEC */
	exec_stack = s->prog.has_gnu_stack ? s->prog.exec_stack : !is64;
	s->stack_top = map_stack(out->mm, exec_stack);
	if (!s->stack_top || (img && !s->vdso_base))
		return SG_ERR_NOMEM;

	cpu_cpuid(1, 0, cpuid1);
	si.abi = s->prog.abi;
	si.argv = argv;
	si.envp = envp;
	si.execfn = execfn;
	si.phdr = s->prog_at.phdr;
	si.phent = s->prog.phentsize;
	si.phnum = s->prog.phnum;
	si.base = s->prog.interp ? s->interp_at.bias : 0;
	si.entry = s->prog_at.entry;
	si.hwcap = cpuid1[3]; /* EDX */
	if (img && s->vdso_base) {
		si.sysinfo_ehdr = s->vdso_base;
		if (img->sym_kernel_vsyscall)
			si.sysinfo = s->vdso_base + img->sym_kernel_vsyscall;
	}
	out->image.stack_pointer = stack_build(out->mm, s->stack_top - STACK_SIZE,
					     s->stack_top, &si);
	if (!out->image.stack_pointer)
		return SG_ERR_NOMEM; /* E2BIG, really: arguments too long */

	out->image.entry = s->prog.interp ? s->interp_at.entry : s->prog_at.entry;
	out->image.load_bias = s->prog_at.bias;
	out->image.phdr = si.phdr;
	out->image.phent = si.phent;
	out->image.phnum = si.phnum;
	out->image.brk_start = MM_PAGE_ALIGN_UP(s->prog_at.end) + brk_rnd;
	out->image.vdso_base = s->vdso_base;
	out->image.sysinfo = si.sysinfo;
	/* the kernel's landing pad is the 32-bit image's offset from the
	 * process's vDSO base, whatever its ABI: SYSENTER from 64-bit code
	 * (Intel) lands there in compatibility mode */
	out->image.sysenter_return =
		s->vdso_base ? s->vdso_base + vdso_image_for(SG_ABI_I386)->sym_sysenter_return : 0;
	out->image.vdso_private_return =
		img && s->vdso_base && img->sym_private_return ?
			s->vdso_base + img->sym_private_return : 0;
	mm_brk_init(out->mm, out->image.brk_start);
	return SG_OK;
}

void loader_init_cpu(struct cpu *cpu, const struct loader_out *p, bool tsc_disabled)
{
	void *owner = cpu->owner;

	cpu_init(cpu, p->abi == SG_ABI_I386 ? CPU_MODE_32 : CPU_MODE_64);
	cpu->owner = owner;
	cpu->tsc_disabled = tsc_disabled; /* survives execve (TIF_NOTSC) */
	cpu->mm = p->mm;
	/* a fresh process: every other GPR zero, as cpu_init left them
	 * (glibc's static start-up takes a non-zero rdx/edx as an atexit
	 * function) */
	cpu_set_start(cpu, p->image.entry, p->image.stack_pointer);
}

/* The program's absolute path (/proc/self/exe): the open file's name, one
 * readlink, rather than realpath's walk (a readlink per component). */
static char *exe_path_of(int fd, const char *file, char real[PATH_MAX])
{
	char link[64];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, real, PATH_MAX - 1);
	if (n > 0 && real[0] == '/') {
		real[n] = '\0';
		return strdup(real);
	}
	return strdup(realpath(file, real) ? real : file);
}

enum sg_err loader_load(const struct loader_args *args, struct loader_out *p,
			struct cpu *cpu, const char *path, char *const argv[],
			char *const envp[])
{
	struct load_state s = { .prog.fd = -1, .interp.fd = -1 };
	struct script_exec script;
	char real[PATH_MAX], rooted[PATH_MAX];
	const char *file;
	char *exe = NULL;
	enum sg_err err;

	if (!args || !p || !cpu || !path || !argv || !envp || p->mm)
		return SG_ERR_INVAL;
	err = script_resolve(args->sysroot, path, argv, &script);
	if (err)
		return err;
	if (script.argv)
		argv = script.argv;
	file = loader_sysroot_path(args->sysroot, script.path, rooted,
				   sizeof(rooted));
	err = elf_open(file, &s.prog);
	if (err) {
		script_free(&script);
		return err;
	}
	err = elf_check_segments(&s.prog);
	if (err)
		goto fail;
	exe = exe_path_of(s.prog.fd, file, real);
	if (!exe) {
		err = SG_ERR_NOMEM;
		goto fail;
	}
	p->mm = mm_create(s.prog.abi != SG_ABI_X64);
	if (!p->mm) {
		err = errno == ENOMEM ? SG_ERR_NOMEM : SG_ERR_RESERVE;
		goto fail;
	}
	s.aslr = want_aslr(args);
	if (s.aslr)
		mm_randomize(p->mm);
	p->abi = s.prog.abi;
	memset(&p->image, 0, sizeof(p->image));
	/* AT_EXECFN is the name execve was given, the script's for a script */
	err = map_everything(args, p, &s, args->exec_name ? args->exec_name : path,
			     argv, envp);
	if (err)
		goto fail;
	p->exe_path = exe;
	loader_init_cpu(cpu, p, args->tsc_disabled);
	elf_close(&s.prog);
	elf_close(&s.interp);
	script_free(&script);
	return SG_OK;
fail:
	if (p->mm)
		mm_destroy(p->mm);
	p->mm = NULL;
	p->abi = SG_ABI_NONE;
	memset(&p->image, 0, sizeof(p->image));
	free(exe);
	elf_close(&s.prog);
	elf_close(&s.interp);
	script_free(&script);
	return err;
}

/* The errno of an ELF header that binfmt_elf (or, for the interpreter,
 * its interpreter check) refuses. */
static int exec_errno(enum sg_err err, bool interp)
{
	switch (err) {
	case SG_OK:
	case SG_ERR_SEGMENTS: /* found after the point of no return */
		return 0;
	case SG_ERR_NOENT:
		return ENOENT;
	case SG_ERR_ACCES:
	case SG_ERR_ISDIR:
		return EACCES;
	case SG_ERR_NOMEM:
		return ENOMEM;
	case SG_ERR_IO:
		return EIO;
	default: /* no magic, another machine, a header binfmt_elf refuses */
		return interp ? ELIBBAD : ENOEXEC;
	}
}

int loader_exec_check(const struct loader_args *args, const char *path,
		      char *const argv[])
{
	struct script_exec script;
	struct elf_file f = { .fd = -1 }, in = { .fd = -1 };
	char rooted[PATH_MAX];
	enum sg_err err;
	int e;

	err = script_resolve(args->sysroot, path, argv, &script);
	if (err)
		return script.too_deep ? ELOOP : err == SG_ERR_NOMEM ? ENOMEM : ENOEXEC;
	err = elf_open(loader_sysroot_path(args->sysroot, script.path, rooted,
					   sizeof(rooted)),
		       &f);
	e = exec_errno(err, false);
	if (!err && f.interp) {
		/* one descriptor at a time, as map_everything opens them */
		close(f.fd);
		f.fd = -1;
		err = elf_open(loader_sysroot_path(args->sysroot, f.interp, rooted,
						   sizeof(rooted)),
			       &in);
		e = exec_errno(err, true);
		if (!err && in.abi != f.abi)
			e = ELIBBAD; /* elf_check_arch of the interpreter */
		/* an interpreter that is itself dynamic, or whose segments
		 * cannot be mapped, fails loader_load: after the point of no
		 * return, as the kernel fails such an interpreter */
	}
	elf_close(&in);
	elf_close(&f);
	script_free(&script);
	return e;
}
