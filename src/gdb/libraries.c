/* qXfer:libraries-svr4:read: the guest's shared libraries as the dynamic
 * loader lists them (its r_debug and link_map chain), in the XML gdb's
 * solib-svr4 reads (gdb's library-list-svr4.dtd). The chain is found as
 * a debugger finds it: the program headers from the auxv (AT_PHDR,
 * AT_PHNUM), the load displacement from PT_PHDR, the dynamic section
 * (PT_DYNAMIC) and its DT_DEBUG entry, which the loader sets to its
 * r_debug. i386 and x32 are ELFCLASS32 with 4-byte pointers, x86_64 has
 * 8-byte ones; the layouts are the ELF ABI's and <link.h>'s:
 *
 *   struct r_debug { int r_version; [pad to a pointer] struct link_map *r_map; ... };
 *   struct link_map { ElfW(Addr) l_addr; char *l_name; ElfW(Dyn) *l_ld;
 *                     struct link_map *l_next, *l_prev; ... };
 */
#define _GNU_SOURCE
#include <elf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gdb/stub.h"
#include "mm/mm.h"

#define MAX_PHDRS 256
#define MAX_DYN 4096     /* dynamic entries walked before giving up */
#define MAX_LIBS 4096    /* link_map entries: a cycle ends there */
#define MAX_NAME 4096

struct layout {
	unsigned ptr;        /* pointer size: 4 or 8 */
	unsigned phdr_size;  /* sizeof(ElfN_Phdr) */
	unsigned dyn_size;   /* sizeof(ElfN_Dyn) */
};

static const struct layout *layout_of(enum sg_abi abi)
{
	static const struct layout l32 = { 4, sizeof(Elf32_Phdr), sizeof(Elf32_Dyn) };
	static const struct layout l64 = { 8, sizeof(Elf64_Phdr), sizeof(Elf64_Dyn) };

	return abi == SG_ABI_X64 ? &l64 : &l32;
}

/* A little-endian word of n (4 or 8) bytes at p. */
static uint64_t word(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	memcpy(&v, p, n);
	return v;
}

static bool read_ptr(const struct gdb_stub *s, const struct layout *l, uint64_t addr,
		     uint64_t *out)
{
	uint8_t b[8];

	if (copy_from_guest(s->p->mm, b, addr, l->ptr) != 0)
		return false;
	*out = word(b, l->ptr);
	return true;
}

/* The auxv entry of type (0: none). */
static uint64_t auxv_get(const struct gdb_stub *s, const struct layout *l, uint64_t type)
{
	const struct mm_exec_info *ex = mm_exec_info(s->p->mm);

	for (size_t off = 0; off + 2 * l->ptr <= ex->auxv_len; off += 2 * l->ptr) {
		uint64_t t = word(ex->auxv + off, l->ptr);

		if (t == AT_NULL)
			break;
		if (t == type)
			return word(ex->auxv + off + l->ptr, l->ptr);
	}
	return 0;
}

/* The address of the loader's r_debug: the value of DT_DEBUG in the
 * program's dynamic section (0 while the loader has not set it); false
 * when there is no such entry (a static program, or the loader run as
 * the program), where gdb must find r_debug its own way. */
static bool find_r_debug(const struct gdb_stub *s, const struct layout *l, uint64_t *r_debug)
{
	uint64_t phdr = auxv_get(s, l, AT_PHDR), phnum = auxv_get(s, l, AT_PHNUM);
	uint64_t dynamic = 0, bias = 0;
	bool have_dynamic = false;

	if (!phdr || phnum > MAX_PHDRS)
		return false;
	for (uint64_t i = 0; i < phnum; i++) {
		uint8_t ph[sizeof(Elf64_Phdr)];
		uint32_t type;
		uint64_t vaddr;

		if (copy_from_guest(s->p->mm, ph, phdr + i * l->phdr_size, l->phdr_size) != 0)
			return false;
		/* p_type first in both; p_vaddr at 8 (Elf32) or 16 (Elf64) */
		type = (uint32_t)word(ph, 4);
		vaddr = l->ptr == 8 ? word(ph + offsetof(Elf64_Phdr, p_vaddr), 8)
				    : word(ph + offsetof(Elf32_Phdr, p_vaddr), 4);
		if (type == PT_PHDR) {
			bias = phdr - vaddr;
		} else if (type == PT_DYNAMIC) {
			dynamic = vaddr;
			have_dynamic = true;
		}
	}
	if (!have_dynamic)
		return false;
	dynamic += bias;
	if (l->ptr == 4)
		dynamic = (uint32_t)dynamic;
	for (unsigned i = 0; i < MAX_DYN; i++) {
		uint8_t d[sizeof(Elf64_Dyn)];
		uint64_t tag;

		if (copy_from_guest(s->p->mm, d, dynamic + i * l->dyn_size, l->dyn_size) != 0)
			return false;
		tag = word(d, l->ptr);
		if (tag == DT_NULL)
			return false;
		if (tag == DT_DEBUG) {
			*r_debug = word(d + l->ptr, l->ptr);
			return true;
		}
	}
	return false;
}

/* The name as an XML attribute value. */
static void put_escaped(FILE *f, const char *name)
{
	for (const char *c = name; *c; c++) {
		switch (*c) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default: fputc(*c, f);
		}
	}
}

/* The guest string at addr (at most MAX_NAME - 1 bytes, as much as is
 * readable), read a page's part at a time. */
static void read_name(const struct gdb_stub *s, uint64_t addr, char *name)
{
	size_t n = 0;

	name[0] = 0;
	while (addr && n < MAX_NAME - 1) {
		size_t chunk = 4096 - ((addr + n) & 4095);
		char *nul;

		if (chunk > MAX_NAME - 1 - n)
			chunk = MAX_NAME - 1 - n;
		if (copy_from_guest(s->p->mm, name + n, addr + n, chunk) != 0)
			break;
		nul = memchr(name + n, 0, chunk);
		if (nul)
			return;
		n += chunk;
	}
	name[n] = 0;
}

char *gdb_libraries_svr4(const struct gdb_stub *s, size_t *len, bool *found)
{
	const struct layout *l = layout_of(s->abi);
	uint64_t r_debug = 0, lm = 0, prev = 0;
	char *xml = NULL, *name;
	FILE *f;

	*found = find_r_debug(s, l, &r_debug);
	if (!*found)
		return NULL;
	name = malloc(MAX_NAME);
	f = open_memstream(&xml, len);
	if (!f || !name) {
		if (f)
			fclose(f);
		free(xml);
		free(name);
		return NULL;
	}
	fputs("<library-list-svr4 version=\"1.0\"", f);
	/* r_map follows r_version, an int padded to a pointer's alignment */
	if (r_debug && !read_ptr(s, l, r_debug + l->ptr, &lm))
		lm = 0;
	for (unsigned i = 0; lm && i < MAX_LIBS; i++) {
		uint64_t f_addr, f_name, f_ld, f_next, f_prev;

		if (!read_ptr(s, l, lm, &f_addr) || !read_ptr(s, l, lm + l->ptr, &f_name) ||
		    !read_ptr(s, l, lm + 2 * l->ptr, &f_ld) ||
		    !read_ptr(s, l, lm + 3 * l->ptr, &f_next) ||
		    !read_ptr(s, l, lm + 4 * l->ptr, &f_prev) || f_prev != prev)
			break; /* not a consistent chain (yet): what we have */
		if (i == 0) {
			/* the first entry is the program itself: gdb knows it */
			fprintf(f, " main-lm=\"0x%" PRIx64 "\">", lm);
		} else {
			read_name(s, f_name, name);
			if (name[0]) {
				fputs("<library name=\"", f);
				put_escaped(f, name);
				/* lmid: the namespace, named by its r_debug
				 * (gdb 13's parser requires it) */
				fprintf(f,
					"\" lm=\"0x%" PRIx64 "\" l_addr=\"0x%" PRIx64
					"\" l_ld=\"0x%" PRIx64 "\" lmid=\"0x%" PRIx64 "\"/>",
					lm, f_addr, f_ld, r_debug);
			}
		}
		prev = lm;
		lm = f_next;
	}
	if (!prev)
		fputs(">", f);
	fputs("</library-list-svr4>", f);
	free(name);
	if (fclose(f) != 0) {
		free(xml);
		return NULL;
	}
	return xml;
}
