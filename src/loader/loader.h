/* ELF loading: validate, decide the ABI, map segments (and PT_INTERP),
 * map the vDSO, build the initial stack and CPU state. */
#ifndef SG_LOADER_H
#define SG_LOADER_H

#include <stdbool.h>
#include <stdint.h>

#include "sysgate.h"

struct cpu;
struct mm;

/* Where the loader put things the syscall layer needs later. */
struct sg_image_info {
	uint64_t entry;          /* initial rip (interpreter's entry if any) */
	uint64_t stack_pointer;  /* initial rsp/esp */
	uint64_t load_bias;
	uint64_t phdr, phent, phnum;
	uint64_t brk_start;
	uint64_t vdso_base;      /* 0 if no vDSO is mapped */
	uint64_t sysenter_return;/* landing pad after SYSENTER: the i386 vDSO's offset from vdso_base */
	uint64_t sysinfo;        /* i386: AT_SYSINFO = __kernel_vsyscall */
	uint64_t vdso_private_return; /* vDSO time functions' private call returns here */
};

/* What loading reads from the process's options (the loader never sees
 * the process: docs/architecture.md, Layers). */
struct loader_args {
	const char *sysroot;     /* NULL: none */
	const char *exec_name;   /* AT_EXECFN; NULL: the path loaded */
	bool no_aslr;            /* --no-aslr */
	bool tsc_disabled;       /* PR_SET_TSC survives execve (TIF_NOTSC) */
};

/* What loading gives the process. */
struct loader_out {
	enum sg_abi abi;
	struct mm *mm;
	struct sg_image_info image;
	char *exe_path;          /* malloc'd */
};

/* Read the ELF headers of path and decide its ABI without mapping anything:
 * the validation the CLI's error messages come from. */
enum sg_err loader_probe(const char *path, enum sg_abi *abi);

/* Load path: sets out->abi, creates out->mm (which must be NULL), fills
 * out->image and out->exe_path, and initialises cpu (mode, rip, rsp and
 * the entry registers a fresh process has). argv/envp are host strings
 * copied onto the guest stack. On failure out is as it was (mm NULL). */
enum sg_err loader_load(const struct loader_args *args, struct loader_out *out,
			struct cpu *cpu, const char *path, char *const argv[],
			char *const envp[]);

/* A guest execve loaded in place (core/exec_image.c): what the kernel's
 * execve finds before its point of no return, as an errno for the old
 * image (0: load it): the #! chain (ENOEXEC, ELOOP past 5 levels), the
 * program's ELF header (ENOENT, EACCES for a directory or a file that may
 * not be executed, ENOEXEC) and its interpreter's (ENOENT, ELIBBAD). The
 * segments are checked by loader_load: the kernel finds those after the
 * point of no return and kills the new image. */
int loader_exec_check(const struct loader_args *args, const char *path,
		      char *const argv[]);

/* The registers a fresh process has (what loader_load gives cpu), again:
 * the new image of an execve in place once the entry code's return path
 * has passed over them. */
void loader_init_cpu(struct cpu *cpu, const struct loader_out *out, bool tsc_disabled);

#endif
