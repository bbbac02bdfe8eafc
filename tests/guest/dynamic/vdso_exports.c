/* The vDSO as a program finds it: AT_SYSINFO_EHDR points at an ELF
 * shared object; list its exported functions with their version nodes
 * (getrandom and SGX left out: sysgate does not provide them), and check
 * that its clock functions agree with the system calls they stand for.
 * The native run is the oracle (x32: its x86_64 twin, so only the
 * __vdso_ names are listed, the ones every ABI has; i386 where the host
 * cannot run it: the twin too, and only the __vdso_ names without the
 * i386-only time64 forms). */
#define _GNU_SOURCE
#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

typedef int (*gettime_fn)(clockid_t, struct timespec *);

static const char *names[64];
static unsigned nnames;
static gettime_fn vdso_gettime;

static int cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static const char *verdef_name(ElfW(Verdef) *vd, const char *str, unsigned ndx)
{
	for (;;) {
		if (vd->vd_ndx == ndx)
			return str + ((ElfW(Verdaux) *)((char *)vd + vd->vd_aux))->vda_name;
		if (!vd->vd_next)
			return "?";
		vd = (ElfW(Verdef) *)((char *)vd + vd->vd_next);
	}
}

static void scan(const unsigned char *base)
{
	const ElfW(Ehdr) *eh = (const void *)base;
	const ElfW(Phdr) *ph = (const void *)(base + eh->e_phoff);
	ElfW(Addr) load = 0;
	const ElfW(Dyn) *dyn = NULL;
	const ElfW(Sym) *sym = NULL;
	const char *str = NULL;
	const ElfW(Half) *versym = NULL;
	ElfW(Verdef) *verdef = NULL;
	const Elf32_Word *hash = NULL;

	for (int i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type == PT_LOAD && !load)
			load = (ElfW(Addr))base + ph[i].p_offset - ph[i].p_vaddr;
		if (ph[i].p_type == PT_DYNAMIC)
			dyn = (const void *)(base + ph[i].p_offset);
	}
	for (; dyn && dyn->d_tag != DT_NULL; dyn++) {
		void *p = (void *)(load + dyn->d_un.d_ptr);

		switch (dyn->d_tag) {
		case DT_SYMTAB: sym = p; break;
		case DT_STRTAB: str = p; break;
		case DT_VERSYM: versym = p; break;
		case DT_VERDEF: verdef = p; break;
		case DT_HASH: hash = p; break;
		}
	}
	if (!sym || !str || !hash || !versym || !verdef) {
		printf("vdso: incomplete dynamic section\n");
		return;
	}
	for (Elf32_Word i = 1; i < hash[1] && nnames < 64; i++) {
		const char *name = str + sym[i].st_name;
		char *line;

		if (ELF64_ST_TYPE(sym[i].st_info) != STT_FUNC || !sym[i].st_shndx)
			continue;
		if (!strcmp(name, "__vdso_clock_gettime"))
			vdso_gettime = (gettime_fn)(load + sym[i].st_value);
		if (strstr(name, "getrandom") || strstr(name, "sgx"))
			continue;
		if (getenv("VDSO_PREFIXED_ONLY") && strncmp(name, "__", 2))
			continue;
		/* i386 against its x86_64 twin (run_case.sh): only the
		 * __vdso_ names both have, not __kernel_* nor the time64 forms */
		if (getenv("E2E_REF_TWIN") &&
		    (strncmp(name, "__vdso_", 7) || strstr(name, "64")))
			continue;
		if (asprintf(&line, "%s@%s %s", name,
			     verdef_name(verdef, str, versym[i] & 0x7fff),
			     ELF64_ST_BIND(sym[i].st_info) == STB_WEAK ? "weak" : "global") > 0)
			names[nnames++] = line;
	}
}

static long long ns(const struct timespec *t)
{
	return t->tv_sec * 1000000000LL + t->tv_nsec;
}

int main(void)
{
	const unsigned char *base = (const void *)getauxval(AT_SYSINFO_EHDR);
	struct timespec a, b, c;
	int ordered = 1;

	if (!base) {
		printf("no vDSO\n");
		return 1;
	}
	scan(base);
	qsort(names, nnames, sizeof(names[0]), cmp);
	for (unsigned i = 0; i < nnames; i++)
		printf("%s\n", names[i]);
	if (!vdso_gettime) {
		printf("no __vdso_clock_gettime\n");
		return 1;
	}
	/* the vDSO's clock between two readings by the system call itself */
	for (int i = 0; i < 100; i++) {
		syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &a);
		vdso_gettime(CLOCK_MONOTONIC, &b);
		syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &c);
		ordered &= ns(&a) <= ns(&b) && ns(&b) <= ns(&c);
	}
	printf("__vdso_clock_gettime between two clock_gettime calls: %d\n", ordered);
	printf("bad clock: %d\n", vdso_gettime(-12345, &b));
	return 0;
}
