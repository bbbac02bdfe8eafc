/* elf_mutate KIND INPUT OUTPUT: a copy of the ELF program INPUT changed
 * in one way the kernel's binfmt_elf has an answer for (make_bad.sh's
 * kinds that need the program headers). Host tool, both ELF classes.
 *
 *   no-gnu-stack   PT_GNU_STACK becomes PT_NULL (32-bit programs then get
 *                  READ_IMPLIES_EXEC)
 *   ei-version     e_ident[EI_VERSION] = 0 (binfmt_elf does not look)
 *   ei-class       e_ident[EI_CLASS] = 3 (nor at this: the layout decides)
 *   ei-data        e_ident[EI_DATA] = ELFDATA2MSB (nor at this)
 *   load-order     the first two PT_LOADs swap places in the table
 *   dup-interp     a PT_NOTE becomes a second PT_INTERP naming
 *                  /nonexistent (the kernel uses the first)
 *   eof-segment    a PT_NOTE becomes a read-only PT_LOAD whose file
 *                  range lies past the end of the file (mapped, never
 *                  touched)
 *   text-filesz    the executable PT_LOAD's p_filesz shrinks by 32 (memsz
 *                  stays): the kernel leaves the file's bytes in the
 *                  segment's last page, as it cannot zero a read-only one
 *   phdr-outside   a PT_NOTE becomes a PT_PHDR outside every PT_LOAD (the
 *                  kernel takes AT_PHDR from the PT_LOAD holding e_phoff)
 *   phentsize      e_phentsize wrong (the kernel: ENOEXEC)
 *   filesz-memsz   a PT_LOAD with p_filesz > p_memsz (the kernel: EINVAL)
 *
 * Exit 0, or 1 with a message when INPUT has no place for the change. */
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char *img;
static long img_size;
static int is64;

static uint32_t rd32(long off)
{
	uint32_t v;

	memcpy(&v, img + off, 4);
	return v;
}

static uint64_t rd64(long off)
{
	uint64_t v;

	memcpy(&v, img + off, 8);
	return v;
}

static void wr32(long off, uint32_t v)
{
	memcpy(img + off, &v, 4);
}

static void wr64(long off, uint64_t v)
{
	memcpy(img + off, &v, 8);
}

/* One program header, class-independent. */
struct phdr {
	uint32_t type, flags;
	uint64_t offset, vaddr, filesz, memsz, align;
};

static long phoff(void)
{
	return is64 ? (long)rd64(32) : (long)rd32(28);
}

static unsigned phnum(void)
{
	uint16_t v;

	memcpy(&v, img + (is64 ? 56 : 44), 2);
	return v;
}

static unsigned phentsize(void)
{
	uint16_t v;

	memcpy(&v, img + (is64 ? 54 : 42), 2);
	return v;
}

static long ph_at(unsigned i)
{
	return phoff() + (long)i * phentsize();
}

static struct phdr get_ph(unsigned i)
{
	long o = ph_at(i);
	struct phdr p;

	p.type = rd32(o);
	if (is64) {
		p.flags = rd32(o + 4);
		p.offset = rd64(o + 8);
		p.vaddr = rd64(o + 16);
		p.filesz = rd64(o + 32);
		p.memsz = rd64(o + 40);
		p.align = rd64(o + 48);
	} else {
		p.offset = rd32(o + 4);
		p.vaddr = rd32(o + 8);
		p.filesz = rd32(o + 16);
		p.memsz = rd32(o + 20);
		p.flags = rd32(o + 24);
		p.align = rd32(o + 28);
	}
	return p;
}

static void put_ph(unsigned i, const struct phdr *p)
{
	long o = ph_at(i);

	wr32(o, p->type);
	if (is64) {
		wr32(o + 4, p->flags);
		wr64(o + 8, p->offset);
		wr64(o + 16, p->vaddr);
		wr64(o + 24, p->vaddr); /* p_paddr */
		wr64(o + 32, p->filesz);
		wr64(o + 40, p->memsz);
		wr64(o + 48, p->align);
	} else {
		wr32(o + 4, (uint32_t)p->offset);
		wr32(o + 8, (uint32_t)p->vaddr);
		wr32(o + 12, (uint32_t)p->vaddr);
		wr32(o + 16, (uint32_t)p->filesz);
		wr32(o + 20, (uint32_t)p->memsz);
		wr32(o + 24, p->flags);
		wr32(o + 28, (uint32_t)p->align);
	}
}

/* Index of the n-th (0-based) header of type, or -1. */
static int find(uint32_t type, int n)
{
	for (unsigned i = 0; i < phnum(); i++)
		if (get_ph(i).type == type && n-- == 0)
			return (int)i;
	return -1;
}

static int fail(const char *what)
{
	fprintf(stderr, "elf_mutate: %s\n", what);
	return 1;
}

static int mutate(const char *kind)
{
	struct phdr p;
	int i, j;

	if (strcmp(kind, "no-gnu-stack") == 0) {
		if ((i = find(PT_GNU_STACK, 0)) < 0)
			return fail("no PT_GNU_STACK");
		p = get_ph((unsigned)i);
		p.type = PT_NULL;
		put_ph((unsigned)i, &p);
	} else if (strcmp(kind, "ei-version") == 0) {
		img[EI_VERSION] = 0;
	} else if (strcmp(kind, "ei-class") == 0) {
		img[EI_CLASS] = 3;
	} else if (strcmp(kind, "ei-data") == 0) {
		img[EI_DATA] = ELFDATA2MSB;
	} else if (strcmp(kind, "load-order") == 0) {
		struct phdr a, b;

		if ((i = find(PT_LOAD, 0)) < 0 || (j = find(PT_LOAD, 1)) < 0)
			return fail("fewer than two PT_LOADs");
		a = get_ph((unsigned)i);
		b = get_ph((unsigned)j);
		put_ph((unsigned)i, &b);
		put_ph((unsigned)j, &a);
	} else if (strcmp(kind, "dup-interp") == 0) {
		static const char name[] = "/nonexistent";

		if ((i = find(PT_NOTE, 0)) < 0 || find(PT_INTERP, 0) < 0)
			return fail("no PT_NOTE or no PT_INTERP");
		p = get_ph((unsigned)i);
		if (p.filesz < sizeof(name))
			return fail("PT_NOTE too small");
		/* the note's own bytes hold the second name; it stays mapped
		 * where the note was */
		memcpy(img + p.offset, name, sizeof(name));
		p.type = PT_INTERP;
		p.filesz = p.memsz = sizeof(name);
		p.align = 1;
		put_ph((unsigned)i, &p);
	} else if (strcmp(kind, "eof-segment") == 0) {
		if ((i = find(PT_NOTE, 0)) < 0)
			return fail("no PT_NOTE");
		p.type = PT_LOAD;
		p.flags = PF_R;
		p.offset = ((uint64_t)img_size + 0xffff) & ~0xfffull;
		p.vaddr = 0x30000000;
		p.filesz = p.memsz = 0x1000;
		p.align = 0x1000;
		put_ph((unsigned)i, &p);
	} else if (strcmp(kind, "text-filesz") == 0) {
		for (i = 0; i < (int)phnum(); i++) {
			p = get_ph((unsigned)i);
			if (p.type == PT_LOAD && (p.flags & PF_X) && !(p.flags & PF_W))
				break;
		}
		if (i == (int)phnum() || p.filesz < 64 || p.filesz != p.memsz)
			return fail("no read-only executable PT_LOAD");
		p.filesz -= 32;
		put_ph((unsigned)i, &p);
	} else if (strcmp(kind, "phdr-outside") == 0) {
		if ((i = find(PT_NOTE, 0)) < 0)
			return fail("no PT_NOTE");
		p.type = PT_PHDR;
		p.flags = PF_R;
		p.offset = (uint64_t)phoff();
		p.vaddr = 0x30000000;
		p.filesz = p.memsz = (uint64_t)phnum() * phentsize();
		p.align = is64 ? 8 : 4;
		put_ph((unsigned)i, &p);
	} else if (strcmp(kind, "phentsize") == 0) {
		uint16_t v = (uint16_t)(phentsize() + 1);

		memcpy(img + (is64 ? 54 : 42), &v, 2);
	} else if (strcmp(kind, "filesz-memsz") == 0) {
		if ((i = find(PT_LOAD, 0)) < 0)
			return fail("no PT_LOAD");
		p = get_ph((unsigned)i);
		p.memsz = p.filesz / 2;
		put_ph((unsigned)i, &p);
	} else {
		return fail("unknown kind");
	}
	return 0;
}

int main(int argc, char **argv)
{
	FILE *f;
	int r;

	if (argc != 4)
		return fail("usage: elf_mutate KIND INPUT OUTPUT");
	f = fopen(argv[2], "rb");
	if (!f || fseek(f, 0, SEEK_END) || (img_size = ftell(f)) < 64 ||
	    fseek(f, 0, SEEK_SET))
		return fail("cannot read INPUT");
	img = malloc((size_t)img_size);
	if (!img || fread(img, 1, (size_t)img_size, f) != (size_t)img_size)
		return fail("cannot read INPUT");
	fclose(f);
	if (memcmp(img, ELFMAG, SELFMAG) != 0)
		return fail("INPUT is not ELF");
	is64 = img[EI_CLASS] == ELFCLASS64;
	if (ph_at(phnum()) > img_size)
		return fail("program headers past the end");
	r = mutate(argv[1]);
	if (r)
		return r;
	f = fopen(argv[3], "wb");
	if (!f || fwrite(img, 1, (size_t)img_size, f) != (size_t)img_size || fclose(f))
		return fail("cannot write OUTPUT");
	return 0;
}
