/* Opening and validating an ELF file with libelf: the checks behind the
 * CLI's error messages, in the order a reader would ask them (can I open
 * it, is it ELF, is it whole, is it for x86, which ABI). Only headers are
 * read (pread through libelf), never the whole file. */
#include <errno.h>
#include <fcntl.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loader/loader_internal.h"

#define INTERP_MAX 4096

static enum sg_err errno_to_err(int e)
{
	switch (e) {
	case ENOENT:
	case ENOTDIR:
	case ELOOP:
	case ENAMETOOLONG:
		return SG_ERR_NOENT;
	case EACCES:
	case EPERM:
		return SG_ERR_ACCES;
	case EISDIR:
		return SG_ERR_ISDIR;
	case ENOMEM:
		return SG_ERR_NOMEM;
	default:
		return SG_ERR_IO;
	}
}

static enum sg_err decide_abi(const unsigned char *ident, uint16_t machine,
			      enum sg_abi *abi)
{
	bool is64 = ident[EI_CLASS] == ELFCLASS64;

	if (machine == EM_386)
		*abi = is64 ? SG_ABI_NONE : SG_ABI_I386;
	else if (machine == EM_X86_64)
		*abi = is64 ? SG_ABI_X64 : SG_ABI_X32;
	else
		return SG_ERR_MACHINE;
	return *abi == SG_ABI_NONE ? SG_ERR_CLASS : SG_OK;
}

/* Segment sanity the kernel also insists on, plus "is it all there". */
static enum sg_err check_phdrs(struct elf_file *f, uint64_t file_size)
{
	bool any_load = false;

	for (unsigned i = 0; i < f->phnum; i++) {
		const GElf_Phdr *ph = &f->phdrs[i];

		if (ph->p_type == PT_GNU_STACK) {
			f->has_gnu_stack = true;
			f->exec_stack = ph->p_flags & PF_X;
		}
		if (ph->p_type != PT_LOAD && ph->p_type != PT_INTERP)
			continue;
		if (ph->p_offset + ph->p_filesz < ph->p_offset ||
		    ph->p_vaddr + ph->p_memsz < ph->p_vaddr)
			return SG_ERR_BADELF;
		if (ph->p_offset + ph->p_filesz > file_size)
			return SG_ERR_TRUNCATED;
		if (ph->p_type == PT_INTERP)
			continue;
		any_load = true;
		if (ph->p_filesz > ph->p_memsz ||
		    (ph->p_offset - ph->p_vaddr) % 4096 != 0)
			return SG_ERR_BADELF;
		if (f->abi != SG_ABI_X64 &&
		    ph->p_vaddr + ph->p_memsz > 0x100000000ull)
			return SG_ERR_BADELF;
	}
	return any_load ? SG_OK : SG_ERR_BADELF;
}

static enum sg_err read_interp(struct elf_file *f)
{
	for (unsigned i = 0; i < f->phnum; i++) {
		const GElf_Phdr *ph = &f->phdrs[i];

		if (ph->p_type != PT_INTERP)
			continue;
		if (ph->p_filesz < 2 || ph->p_filesz > INTERP_MAX || f->interp)
			return SG_ERR_BADELF;
		f->interp = malloc(ph->p_filesz);
		if (!f->interp)
			return SG_ERR_NOMEM;
		if (pread(f->fd, f->interp, ph->p_filesz, (off_t)ph->p_offset) !=
		    (ssize_t)ph->p_filesz)
			return SG_ERR_TRUNCATED;
		if (f->interp[ph->p_filesz - 1] != '\0')
			return SG_ERR_BADELF;
	}
	return SG_OK;
}

static enum sg_err read_headers(struct elf_file *f, Elf *elf, uint64_t size)
{
	GElf_Ehdr eh;
	size_t n;
	enum sg_err err;

	if (!gelf_getehdr(elf, &eh))
		return SG_ERR_BADELF;
	err = decide_abi(eh.e_ident, eh.e_machine, &f->abi);
	if (err)
		return err;
	if (eh.e_type != ET_EXEC && eh.e_type != ET_DYN)
		return SG_ERR_CLASS;
	if (eh.e_phnum == 0 || eh.e_phnum == PN_XNUM ||
	    eh.e_phentsize != gelf_fsize(elf, ELF_T_PHDR, 1, EV_CURRENT))
		return SG_ERR_BADELF;
	if (eh.e_phoff + (uint64_t)eh.e_phnum * eh.e_phentsize > size)
		return SG_ERR_TRUNCATED;
	f->type = eh.e_type;
	f->entry = eh.e_entry;
	f->phoff = eh.e_phoff;
	f->phentsize = eh.e_phentsize;
	if (elf_getphdrnum(elf, &n) != 0 || n != eh.e_phnum)
		return SG_ERR_BADELF;
	f->phnum = (uint16_t)n;
	f->phdrs = calloc(n, sizeof(*f->phdrs));
	if (!f->phdrs)
		return SG_ERR_NOMEM;
	for (size_t i = 0; i < n; i++)
		if (!gelf_getphdr(elf, (int)i, &f->phdrs[i]))
			return SG_ERR_BADELF;
	err = check_phdrs(f, size);
	return err ? err : read_interp(f);
}

enum sg_err elf_open(const char *path, struct elf_file *f)
{
	unsigned char ident[EI_NIDENT];
	struct stat st;
	enum sg_err err;
	ssize_t got;
	Elf *elf;

	memset(f, 0, sizeof(*f));
	f->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0)
		return errno_to_err(errno); /* (fd -1: elf_close is harmless) */
	if (fstat(f->fd, &st) < 0) {
		err = errno_to_err(errno);
		goto fail;
	}
	err = SG_ERR_ISDIR;
	if (S_ISDIR(st.st_mode))
		goto fail;
	err = SG_ERR_ACCES; /* execve wants a regular file */
	if (!S_ISREG(st.st_mode))
		goto fail;
	got = pread(f->fd, ident, sizeof(ident), 0);
	err = SG_ERR_NOEXEC;
	if (got < SELFMAG || memcmp(ident, ELFMAG, SELFMAG) != 0)
		goto fail;
	err = SG_ERR_CLASS;
	if (ident[EI_CLASS] != ELFCLASS32 && ident[EI_CLASS] != ELFCLASS64)
		goto fail;
	if (ident[EI_DATA] != ELFDATA2LSB || ident[EI_VERSION] != EV_CURRENT)
		goto fail;
	err = SG_ERR_TRUNCATED;
	if ((uint64_t)st.st_size < (ident[EI_CLASS] == ELFCLASS64 ?
				    sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr)))
		goto fail;
	err = SG_ERR_IO;
	if (elf_version(EV_CURRENT) == EV_NONE)
		goto fail;
	elf = elf_begin(f->fd, ELF_C_READ, NULL);
	err = SG_ERR_BADELF;
	if (!elf)
		goto fail;
	err = elf_kind(elf) == ELF_K_ELF ?
		      read_headers(f, elf, (uint64_t)st.st_size) : SG_ERR_BADELF;
	elf_end(elf);
	if (err == SG_OK)
		return SG_OK;
fail:
	elf_close(f);
	return err;
}

void elf_close(struct elf_file *f)
{
	if (f->fd >= 0)
		close(f->fd);
	free(f->phdrs);
	free(f->interp);
	memset(f, 0, sizeof(*f));
	f->fd = -1;
}
