/* Mapping an ELF file's PT_LOAD segments into the guest, as the kernel's
 * load_elf_binary() does: file-backed private mappings for the file part,
 * the tail of the last file page zeroed, anonymous memory for the rest of
 * the bss; protections from p_flags. An ET_DYN file first gets one
 * PROT_NONE mapping of its whole span so its segments keep their relative
 * distances; the holes between segments are given back afterwards. */
#include <string.h>
#include <sys/mman.h>

#include "loader/loader_internal.h"
#include "mm/mm.h"

#define PAGE MM_PAGE_SIZE

static int segment_prot(const GElf_Phdr *ph)
{
	return (ph->p_flags & PF_R ? PROT_READ : 0) |
	       (ph->p_flags & PF_W ? PROT_WRITE : 0) |
	       (ph->p_flags & PF_X ? PROT_EXEC : 0);
}

/* Zero [from, end of its page) inside an already mapped file page. */
static enum sg_err zero_page_tail(struct mm *mm, uint64_t from, int prot)
{
	uint64_t page = MM_PAGE_ALIGN_DOWN(from);
	uint64_t len = MM_PAGE_ALIGN_UP(from) - from;

	if (!len)
		return SG_OK;
	if (!(prot & PROT_WRITE) &&
	    mm_mprotect(mm, page, PAGE, prot | PROT_WRITE) < 0)
		return SG_ERR_NOMEM;
	memset(g2h(from), 0, len);
	if (!(prot & PROT_WRITE) && mm_mprotect(mm, page, PAGE, prot) < 0)
		return SG_ERR_NOMEM;
	return SG_OK;
}

static enum sg_err map_segment(struct mm *mm, const struct elf_file *f,
			       const GElf_Phdr *ph, uint64_t bias)
{
	int prot = segment_prot(ph);
	uint64_t start = MM_PAGE_ALIGN_DOWN(bias + ph->p_vaddr);
	uint64_t file_end = bias + ph->p_vaddr + ph->p_filesz;
	uint64_t mem_end = MM_PAGE_ALIGN_UP(bias + ph->p_vaddr + ph->p_memsz);
	uint64_t anon_start = MM_PAGE_ALIGN_UP(file_end);
	off_t off = (off_t)(ph->p_offset - (ph->p_vaddr - MM_PAGE_ALIGN_DOWN(ph->p_vaddr)));
	long r;

	if (ph->p_filesz) {
		r = mm_mmap(mm, start, anon_start - start, prot,
			    MAP_PRIVATE | MAP_FIXED, f->fd, off);
		if (r < 0)
			return SG_ERR_NOMEM;
		if (ph->p_memsz > ph->p_filesz) {
			enum sg_err err = zero_page_tail(mm, file_end, prot);

			if (err)
				return err;
		}
	} else {
		anon_start = start;
	}
	if (mem_end > anon_start) {
		r = mm_mmap(mm, anon_start, mem_end - anon_start, prot,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
		if (r < 0)
			return SG_ERR_NOMEM;
	}
	return SG_OK;
}

/* Guest address of the program headers: inside the PT_LOAD whose file
 * range holds e_phoff (PT_PHDR says the same when present). */
static uint64_t find_phdr(const struct elf_file *f, uint64_t bias)
{
	uint64_t size = (uint64_t)f->phnum * f->phentsize;

	for (unsigned i = 0; i < f->phnum; i++) {
		const GElf_Phdr *ph = &f->phdrs[i];

		if (ph->p_type == PT_LOAD && f->phoff >= ph->p_offset &&
		    f->phoff + size <= ph->p_offset + ph->p_filesz)
			return bias + ph->p_vaddr + (f->phoff - ph->p_offset);
	}
	return 0;
}

enum sg_err elf_map(struct mm *mm, const struct elf_file *f, uint64_t hint,
		    struct elf_loaded *out)
{
	uint64_t lo = UINT64_MAX, hi = 0, bias = 0, prev_end = 0;
	enum sg_err err;

	for (unsigned i = 0; i < f->phnum; i++) {
		const GElf_Phdr *ph = &f->phdrs[i];

		if (ph->p_type != PT_LOAD)
			continue;
		if (MM_PAGE_ALIGN_DOWN(ph->p_vaddr) < lo)
			lo = MM_PAGE_ALIGN_DOWN(ph->p_vaddr);
		if (ph->p_vaddr + ph->p_memsz > hi)
			hi = ph->p_vaddr + ph->p_memsz;
	}
	if (f->type == ET_DYN) {
		long base = mm_mmap(mm, hint, MM_PAGE_ALIGN_UP(hi) - lo, PROT_NONE,
				    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (base < 0)
			return SG_ERR_NOMEM;
		bias = (uint64_t)base - lo;
	} else if (lo < mm_task_size(mm) && MM_PAGE_ALIGN_UP(hi) > mm_task_size(mm)) {
		return SG_ERR_NOMEM;
	}
	for (unsigned i = 0; i < f->phnum; i++) {
		const GElf_Phdr *ph = &f->phdrs[i];
		uint64_t start = MM_PAGE_ALIGN_DOWN(bias + ph->p_vaddr);

		if (ph->p_type != PT_LOAD)
			continue;
		/* give back the reservation between two segments */
		if (f->type == ET_DYN && prev_end && start > prev_end)
			mm_munmap(mm, prev_end, start - prev_end);
		err = map_segment(mm, f, ph, bias);
		if (err)
			return err;
		prev_end = MM_PAGE_ALIGN_UP(bias + ph->p_vaddr + ph->p_memsz);
	}
	out->bias = bias;
	out->entry = bias + f->entry;
	out->phdr = find_phdr(f, bias);
	out->end = bias + hi;
	return SG_OK;
}
