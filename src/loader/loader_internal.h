/* Private to src/loader: one opened and validated ELF file (the program or
 * its interpreter) and where it ended up in guest memory. */
#ifndef SG_LOADER_INTERNAL_H
#define SG_LOADER_INTERNAL_H

#include <gelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sysgate.h"

struct mm;

struct elf_file {
	int fd;
	enum sg_abi abi;
	uint16_t type;          /* ET_EXEC or ET_DYN */
	uint64_t entry;         /* e_entry, unbiased */
	uint64_t phoff;
	uint16_t phentsize, phnum;
	GElf_Phdr *phdrs;       /* phnum entries, widened to 64-bit */
	char *interp;           /* PT_INTERP path, or NULL */
	uint64_t size;          /* of the file, at open */
	bool has_gnu_stack;
	bool exec_stack;        /* PT_GNU_STACK has PF_X */
};

/* Where elf_map put a file. */
struct elf_loaded {
	uint64_t bias;          /* added to every p_vaddr (0 for ET_EXEC) */
	uint64_t entry;         /* biased e_entry */
	uint64_t phdr;          /* guest address of the program headers, or 0 */
	uint64_t end;           /* highest p_vaddr + p_memsz, biased */
};

/* elf_file.c: open and validate; SG_OK or the error class. On success
 * the caller owns f and must elf_close() it. */
enum sg_err elf_open(const char *path, struct elf_file *f);
void elf_close(struct elf_file *f);
/* The PT_LOAD sanity the kernel meets only while mapping, after the
 * point of no return (filesz > memsz, offset and address out of step,
 * past the task size, none at all): SG_OK or SG_ERR_SEGMENTS. */
enum sg_err elf_check_segments(const struct elf_file *f);

/* elf_map.c: map the PT_LOAD segments. hint: preferred base for ET_DYN
 * (0: top-down / host choice); ET_EXEC goes where it says. */
enum sg_err elf_map(struct mm *mm, const struct elf_file *f, uint64_t hint,
		    struct elf_loaded *out);

/* script.c: follow `#!` lines from path. out->path is the program to
 * load (path itself when it is not a script), out->argv its argv (NULL:
 * the caller's argv unchanged); script_free releases them. SG_OK, or
 * SG_ERR_NOEXEC (bad `#!` line, too deep), SG_ERR_NOMEM. Files that cannot
 * be read are left to elf_open to report. */
struct script_exec {
	const char *path;
	char **argv;
	bool too_deep; /* SG_ERR_NOEXEC: more than 5 levels (the kernel's ELOOP) */
};
enum sg_err script_resolve(const char *sysroot, const char *path,
			   char *const argv[], struct script_exec *out);
void script_free(struct script_exec *s);

/* <sysroot><name> in buf if name is absolute and exists there, else name. */
const char *loader_sysroot_path(const char *sysroot, const char *name,
				char *buf, size_t size);

/* stack.c: what goes on the initial stack. */
struct stack_info {
	enum sg_abi abi;
	char *const *argv;
	char *const *envp;
	const char *execfn;
	uint64_t phdr, phent, phnum, base, entry;
	uint64_t sysinfo, sysinfo_ehdr; /* 0 when there is no vDSO */
	uint64_t hwcap;
};

/* Write argc/argv/envp/auxv and the strings below top; returns the
 * initial stack pointer, or 0 if it does not fit in [limit, top). */
uint64_t stack_build(struct mm *mm, uint64_t limit, uint64_t top,
		     const struct stack_info *si);

#endif
