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

/* Zero [from, end of its page) inside an already mapped file page of a
 * writable segment. The kernel (6.x elf_load) tries it for every segment
 * and ignores the failure on a read-only one: there the file's bytes
 * stay. */
static void zero_page_tail(uint64_t from, int prot)
{
	uint64_t len = MM_PAGE_ALIGN_UP(from) - from;

	if (len && (prot & PROT_WRITE))
		memset(g2h(from), 0, len);
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
		/* a page wholly past the end of the file is SIGBUS to touch:
		 * the kernel's padzero fails there, fatal for a writable
		 * segment (found by fuzz_elf) */
		if (ph->p_memsz > ph->p_filesz && (prot & PROT_WRITE) &&
		    (file_end & (PAGE - 1)) &&
		    MM_PAGE_ALIGN_DOWN(ph->p_offset + ph->p_filesz) >= MM_PAGE_ALIGN_UP(f->size))
			return SG_ERR_SEGMENTS;
		if (ph->p_memsz > ph->p_filesz)
			zero_page_tail(file_end, prot);
	} else {
		anon_start = start;
	}
	if (mem_end > anon_start) {
		/* vm_brk_flags: read-write whatever the segment says (exec
		 * kept) */
		r = mm_mmap(mm, anon_start, mem_end - anon_start,
			    PROT_READ | PROT_WRITE | (prot & PROT_EXEC),
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
		if (r < 0)
			return SG_ERR_NOMEM;
	}
	return SG_OK;
}

/* Give back the PROT_NONE reservation of an ET_DYN between its
 * segments: every page of [from, end of the span) no PT_LOAD covers. The
 * segments may come in any order (binfmt_elf maps them as listed). */
static void release_holes(struct mm *mm, const struct elf_file *f,
			  uint64_t bias, uint64_t from)
{
	for (;;) {
		uint64_t covered_to = from, next = UINT64_MAX;
		bool grew = true;

		/* extend from over the segments that touch it */
		while (grew) {
			grew = false;
			for (unsigned i = 0; i < f->phnum; i++) {
				const GElf_Phdr *ph = &f->phdrs[i];
				uint64_t s = MM_PAGE_ALIGN_DOWN(bias + ph->p_vaddr);
				uint64_t e = MM_PAGE_ALIGN_UP(bias + ph->p_vaddr + ph->p_memsz);

				if (ph->p_type == PT_LOAD && s <= covered_to && e > covered_to) {
					covered_to = e;
					grew = true;
				}
			}
		}
		/* the next segment above: the hole ends there */
		for (unsigned i = 0; i < f->phnum; i++) {
			const GElf_Phdr *ph = &f->phdrs[i];
			uint64_t s = MM_PAGE_ALIGN_DOWN(bias + ph->p_vaddr);

			if (ph->p_type == PT_LOAD && s > covered_to && s < next)
				next = s;
		}
		if (next == UINT64_MAX)
			return;
		mm_munmap(mm, covered_to, next - covered_to);
		from = next;
	}
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
	uint64_t lo = UINT64_MAX, hi = 0, bias = 0;
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

		if (ph->p_type != PT_LOAD)
			continue;
		err = map_segment(mm, f, ph, bias);
		if (err)
			return err;
	}
	if (f->type == ET_DYN)
		release_holes(mm, f, bias, lo + bias);
	out->bias = bias;
	out->entry = bias + f->entry;
	out->phdr = find_phdr(f, bias);
	out->end = bias + hi;
	return SG_OK;
}
