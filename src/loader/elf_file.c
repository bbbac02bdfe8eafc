/* Opening and validating an ELF file with libelf: the checks behind the
 * CLI's error messages, in the order a reader would ask them (can I open
 * it, is it ELF, is it whole, is it for x86, which ABI). Only headers are
 * read (pread through libelf), never the whole file. */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stddef.h>
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

	if (machine == EM_386 || machine == 6 /* EM_486: the kernel's
						  * elf_check_arch_ia32 takes it */)
		*abi = is64 ? SG_ABI_NONE : SG_ABI_I386;
	else if (machine == EM_X86_64)
		*abi = is64 ? SG_ABI_X64 : SG_ABI_X32;
	else
		return SG_ERR_MACHINE;
	return *abi == SG_ABI_NONE ? SG_ERR_CLASS : SG_OK;
}

/* What binfmt_elf looks at before the point of no return: PT_GNU_STACK,
 * and a PT_INTERP it can read (past the end of the file: -EIO there). A
 * PT_LOAD is only mapped later; mmap takes a file range past EOF (a page
 * there is SIGBUS only when touched), so that is no error. */
static enum sg_err check_phdrs(struct elf_file *f, uint64_t file_size)
{
	for (unsigned i = 0; i < f->phnum; i++) {
		const GElf_Phdr *ph = &f->phdrs[i];

		if (ph->p_type == PT_GNU_STACK) {
			f->has_gnu_stack = true;
			f->exec_stack = ph->p_flags & PF_X;
		}
		if (ph->p_type != PT_INTERP)
			continue;
		if (ph->p_offset + ph->p_filesz < ph->p_offset)
			return SG_ERR_BADELF;
		if (ph->p_offset + ph->p_filesz > file_size)
			return SG_ERR_TRUNCATED;
	}
	return SG_OK;
}

enum sg_err elf_check_segments(const struct elf_file *f)
{
	bool any_load = false;

	for (unsigned i = 0; i < f->phnum; i++) {
		const GElf_Phdr *ph = &f->phdrs[i];

		if (ph->p_type != PT_LOAD)
			continue;
		any_load = true;
		/* load_elf_binary's own test, then what mmap refuses */
		if (ph->p_offset + ph->p_filesz < ph->p_offset ||
		    ph->p_vaddr + ph->p_memsz < ph->p_vaddr ||
		    ph->p_filesz > ph->p_memsz ||
		    (ph->p_offset - ph->p_vaddr) % 4096 != 0)
			return SG_ERR_SEGMENTS;
		if (f->abi != SG_ABI_X64 &&
		    ph->p_vaddr + ph->p_memsz > 0x100000000ull)
			return SG_ERR_SEGMENTS;
	}
	/* nothing mapped: natively the first instruction faults */
	return any_load ? SG_OK : SG_ERR_SEGMENTS;
}

static enum sg_err read_interp(struct elf_file *f)
{
	for (unsigned i = 0; i < f->phnum; i++) {
		const GElf_Phdr *ph = &f->phdrs[i];

		if (ph->p_type != PT_INTERP)
			continue;
		if (f->interp)
			continue; /* the kernel takes the first */
		if (ph->p_filesz < 2 || ph->p_filesz > INTERP_MAX)
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

static uint16_t le16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

/* The layout binfmt_elf reads the file with. It looks at neither
 * EI_CLASS nor EI_DATA nor EI_VERSION (a program with any of them changed
 * runs natively): the 64-bit handler takes e_machine EM_X86_64 with
 * 56-byte program headers, then the compat one EM_386, EM_486 or
 * EM_X86_64 (x32) with 32-byte ones; a header neither takes is ENOEXEC.
 * ELFCLASSNONE: neither. */
static int kernel_class(const unsigned char *h, size_t n)
{
	uint16_t machine = le16(h + 18);

	if (n >= sizeof(Elf64_Ehdr) && machine == EM_X86_64 &&
	    le16(h + offsetof(Elf64_Ehdr, e_phentsize)) == sizeof(Elf64_Phdr))
		return ELFCLASS64;
	if (n >= sizeof(Elf32_Ehdr) &&
	    (machine == EM_386 || machine == 6 /* EM_486 */ || machine == EM_X86_64) &&
	    le16(h + offsetof(Elf32_Ehdr, e_phentsize)) == sizeof(Elf32_Phdr))
		return ELFCLASS32;
	return ELFCLASSNONE;
}

/* The ELF header and the program headers, as libelf should read them:
 * the header's identification as the kernel's layout says, the program
 * headers right after it, no sections (sysgate reads none). *phoff: the
 * file's e_phoff. NULL with *err set. */
static unsigned char *header_image(int fd, const unsigned char *h, int cls,
				   uint64_t file_size, size_t *len,
				   uint64_t *phoff, enum sg_err *err)
{
	bool is64 = cls == ELFCLASS64;
	size_t ehsize = is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
	size_t phentsize = is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);
	uint16_t phnum = le16(h + (is64 ? offsetof(Elf64_Ehdr, e_phnum)
					: offsetof(Elf32_Ehdr, e_phnum)));
	size_t phsize = (size_t)phnum * phentsize;
	unsigned char *img;

	if (is64) {
		Elf64_Ehdr eh;

		memcpy(&eh, h, sizeof(eh));
		*phoff = eh.e_phoff;
	} else {
		Elf32_Ehdr eh;

		memcpy(&eh, h, sizeof(eh));
		*phoff = eh.e_phoff;
	}
	/* load_elf_phdrs: at least one, at most a page of them */
	*err = SG_ERR_BADELF;
	if (phsize == 0 || phsize > 4096)
		return NULL;
	*err = SG_ERR_TRUNCATED;
	if (*phoff + phsize < *phoff || *phoff + phsize > file_size)
		return NULL;
	*err = SG_ERR_NOMEM;
	img = malloc(ehsize + phsize);
	if (!img)
		return NULL;
	memcpy(img, h, ehsize);
	*err = SG_ERR_IO;
	if (pread(fd, img + ehsize, phsize, (off_t)*phoff) != (ssize_t)phsize) {
		free(img);
		return NULL;
	}
	img[EI_CLASS] = (unsigned char)cls;
	img[EI_DATA] = ELFDATA2LSB;
	img[EI_VERSION] = EV_CURRENT;
	if (is64) {
		Elf64_Ehdr *eh = (Elf64_Ehdr *)img;

		eh->e_phoff = ehsize;
		eh->e_shoff = 0;
		eh->e_shnum = eh->e_shstrndx = 0;
	} else {
		Elf32_Ehdr *eh = (Elf32_Ehdr *)img;

		eh->e_phoff = (Elf32_Off)ehsize;
		eh->e_shoff = 0;
		eh->e_shnum = eh->e_shstrndx = 0;
	}
	*len = ehsize + phsize;
	return img;
}

enum sg_err elf_open(const char *path, struct elf_file *f)
{
	unsigned char ident[sizeof(Elf64_Ehdr)] = { 0 };
	unsigned char *img = NULL;
	struct stat st;
	enum sg_err err;
	uint64_t phoff = 0;
	size_t len = 0;
	ssize_t got;
	Elf *elf;
	int cls;

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
	err = SG_ERR_ACCES; /* execve wants a regular file it may execute */
	if (!S_ISREG(st.st_mode) || faccessat(AT_FDCWD, path, X_OK, AT_EACCESS))
		goto fail;
	got = pread(f->fd, ident, sizeof(ident), 0);
	err = SG_ERR_NOEXEC;
	if (got < SELFMAG || memcmp(ident, ELFMAG, SELFMAG) != 0)
		goto fail;
	err = SG_ERR_IO;
	if (elf_version(EV_CURRENT) == EV_NONE)
		goto fail;
	cls = kernel_class(ident, (size_t)got);
	if (cls != ELFCLASSNONE) {
		img = header_image(f->fd, ident, cls, (uint64_t)st.st_size, &len,
				   &phoff, &err);
		if (!img)
			goto fail;
		elf = elf_memory((char *)img, len);
	} else {
		/* no layout the kernel takes: say why, in the reader's order */
		err = SG_ERR_CLASS;
		if (ident[EI_CLASS] != ELFCLASS32 && ident[EI_CLASS] != ELFCLASS64)
			goto fail;
		if (ident[EI_DATA] != ELFDATA2LSB || ident[EI_VERSION] != EV_CURRENT)
			goto fail;
		err = SG_ERR_TRUNCATED;
		if ((uint64_t)st.st_size < (ident[EI_CLASS] == ELFCLASS64 ?
					    sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr)))
			goto fail;
		elf = elf_begin(f->fd, ELF_C_READ, NULL);
	}
	err = SG_ERR_BADELF;
	if (!elf)
		goto fail;
	err = elf_kind(elf) == ELF_K_ELF ?
		      read_headers(f, elf, (uint64_t)st.st_size) : SG_ERR_BADELF;
	elf_end(elf);
	if (img && err == SG_OK)
		f->phoff = phoff; /* the file's, for AT_PHDR */
	f->size = (uint64_t)st.st_size;
	free(img);
	img = NULL;
	if (err == SG_OK)
		return SG_OK;
fail:
	free(img);
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
