/* src/vdso: the embedded images are real shared objects of their ABI with
 * the kernel's exported symbols and versions (x86_64: the same as this
 * host's own vDSO), the recorded offsets point at the instruction bytes
 * the kernel ABI prescribes (Intel SDM encodings), and vdso_answer gives
 * what the host's clock says, in each ABI's layout. */
#include <gelf.h>
#include <libelf.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <errno.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <time.h>

#include "mm/mm.h"

#include "vdso/vdso.h"

static Elf *open_image(const struct vdso_image *img, char **copy)
{
	Elf *elf;

	assert_int_not_equal(elf_version(EV_CURRENT), EV_NONE);
	*copy = malloc(img->size);
	assert_non_null(*copy);
	memcpy(*copy, img->data, img->size);
	elf = elf_memory(*copy, img->size);
	assert_non_null(elf);
	return elf;
}

static Elf_Scn *find_section(Elf *elf, uint32_t type, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, sh) && sh->sh_type == type)
			return scn;
	return NULL;
}

struct abi_facts {
	enum sg_abi abi;
	int elfclass, machine;
	const char *soname;
};

static const struct abi_facts abis[] = {
	{ SG_ABI_I386, ELFCLASS32, EM_386, "linux-gate.so.1" },
	{ SG_ABI_X32, ELFCLASS32, EM_X86_64, "linux-vdso.so.1" },
	{ SG_ABI_X64, ELFCLASS64, EM_X86_64, "linux-vdso.so.1" },
};

static void test_images_are_dsos(void **state)
{
	for (size_t a = 0; a < sizeof(abis) / sizeof(abis[0]); a++) {
		const struct vdso_image *img = vdso_image_for(abis[a].abi);
		GElf_Ehdr eh;
		GElf_Shdr sh;
		char *copy;
		Elf *elf;
		size_t nph;
		bool soname = false, hash = false, gnu_hash = false;

		assert_non_null(img);
		assert_true(img->size > 0 && img->size % 4096 == 0);
		assert_int_equal((uintptr_t)img->data % 4096, 0);
		elf = open_image(img, &copy);
		assert_int_equal(elf_kind(elf), ELF_K_ELF);
		assert_int_equal(gelf_getclass(elf), abis[a].elfclass);
		assert_non_null(gelf_getehdr(elf, &eh));
		assert_int_equal(eh.e_machine, abis[a].machine);
		assert_int_equal(eh.e_type, ET_DYN);
		assert_int_equal(eh.e_ident[EI_DATA], ELFDATA2LSB);
		/* mappable as one blob: every PT_LOAD at offset == address */
		assert_int_equal(elf_getphdrnum(elf, &nph), 0);
		for (size_t i = 0; i < nph; i++) {
			GElf_Phdr ph;

			assert_non_null(gelf_getphdr(elf, (int)i, &ph));
			if (ph.p_type == PT_LOAD)
				assert_int_equal(ph.p_offset, ph.p_vaddr);
		}
		/* DT_SONAME, and both hash styles */
		Elf_Scn *dynamic = find_section(elf, SHT_DYNAMIC, &sh);
		assert_non_null(dynamic);
		Elf_Data *d = elf_getdata(dynamic, NULL);
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Dyn dyn;

			assert_non_null(gelf_getdyn(d, (int)i, &dyn));
			if (dyn.d_tag == DT_SONAME)
				soname = !strcmp(elf_strptr(elf, sh.sh_link,
							    dyn.d_un.d_val),
						 abis[a].soname);
			hash |= dyn.d_tag == DT_HASH;
			gnu_hash |= dyn.d_tag == DT_GNU_HASH;
		}
		assert_true(soname);
		assert_true(hash && gnu_hash);
		elf_end(elf);
		free(copy);
	}
	assert_null(vdso_image_for(SG_ABI_NONE));
}

/* Name of the version definition with index ndx. */
static const char *verdef_name(Elf *elf, unsigned ndx)
{
	GElf_Shdr sh;
	Elf_Scn *scn = find_section(elf, SHT_GNU_verdef, &sh);
	Elf_Data *d;
	size_t off = 0;

	assert_non_null(scn);
	d = elf_getdata(scn, NULL);
	for (size_t i = 0; i < sh.sh_info; i++) {
		GElf_Verdef vd;
		GElf_Verdaux va;

		assert_non_null(gelf_getverdef(d, (int)off, &vd));
		assert_non_null(gelf_getverdaux(d, (int)(off + vd.vd_aux), &va));
		if (vd.vd_ndx == ndx)
			return elf_strptr(elf, sh.sh_link, va.vda_name);
		off += vd.vd_next;
	}
	return NULL;
}

/* One exported symbol: its value, binding and version; false if absent. */
static bool find_export(Elf *elf, const char *name, GElf_Sym *out,
			const char **version)
{
	GElf_Shdr sh, vsh;
	Elf_Scn *dyn = find_section(elf, SHT_DYNSYM, &sh);
	Elf_Scn *ver = find_section(elf, SHT_GNU_versym, &vsh);
	Elf_Data *d, *vd;

	assert_non_null(dyn);
	assert_non_null(ver);
	d = elf_getdata(dyn, NULL);
	vd = elf_getdata(ver, NULL);
	for (size_t i = 1; i < sh.sh_size / sh.sh_entsize; i++) {
		GElf_Versym vs;

		assert_non_null(gelf_getsym(d, (int)i, out));
		if (strcmp(elf_strptr(elf, sh.sh_link, out->st_name), name))
			continue;
		assert_non_null(gelf_getversym(vd, (int)i, &vs));
		*version = verdef_name(elf, vs & 0x7fff);
		return true;
	}
	return false;
}

/* The kernel's exports per ABI (arch/x86/entry/vdso/vdso*.lds.S, and the
 * host's linux-gate.so.1 as dumped from a native i386 process). */
struct export {
	enum sg_abi abi;
	const char *name, *version;
	int bind;
};

static const struct export exports[] = {
	{ SG_ABI_I386, "__kernel_vsyscall", "LINUX_2.5", STB_GLOBAL },
	{ SG_ABI_I386, "__kernel_sigreturn", "LINUX_2.5", STB_GLOBAL },
	{ SG_ABI_I386, "__kernel_rt_sigreturn", "LINUX_2.5", STB_GLOBAL },
	{ SG_ABI_I386, "__vdso_clock_gettime", "LINUX_2.6", STB_GLOBAL },
	{ SG_ABI_I386, "__vdso_clock_gettime64", "LINUX_2.6", STB_GLOBAL },
	{ SG_ABI_I386, "__vdso_gettimeofday", "LINUX_2.6", STB_GLOBAL },
	{ SG_ABI_I386, "__vdso_time", "LINUX_2.6", STB_GLOBAL },
	{ SG_ABI_I386, "__vdso_clock_getres", "LINUX_2.6", STB_GLOBAL },
	{ SG_ABI_I386, "__vdso_getcpu", "LINUX_2.6", STB_GLOBAL },
	{ SG_ABI_X32, "__vdso_clock_gettime", "LINUX_2.6", STB_GLOBAL },
	{ SG_ABI_X32, "__vdso_gettimeofday", "LINUX_2.6", STB_GLOBAL },
	{ SG_ABI_X32, "__vdso_time", "LINUX_2.6", STB_GLOBAL },
	{ SG_ABI_X32, "__vdso_clock_getres", "LINUX_2.6", STB_GLOBAL },
	{ SG_ABI_X32, "__vdso_getcpu", "LINUX_2.6", STB_GLOBAL },
};

static void test_exports(void **state)
{
	const struct vdso_image *i386 = vdso_image_for(SG_ABI_I386);

	for (size_t i = 0; i < sizeof(exports) / sizeof(exports[0]); i++) {
		char *copy;
		Elf *elf = open_image(vdso_image_for(exports[i].abi), &copy);
		const char *version = NULL;
		GElf_Sym sym;

		if (!find_export(elf, exports[i].name, &sym, &version))
			fail_msg("ABI %d: %s not exported", (int)exports[i].abi,
				 exports[i].name);
		assert_int_equal(GELF_ST_BIND(sym.st_info), exports[i].bind);
		assert_int_equal(GELF_ST_TYPE(sym.st_info), STT_FUNC);
		assert_non_null(version);
		assert_string_equal(version, exports[i].version);
		if (!strcmp(exports[i].name, "__kernel_vsyscall"))
			assert_int_equal(sym.st_value, i386->sym_kernel_vsyscall);
		if (!strcmp(exports[i].name, "__kernel_sigreturn"))
			assert_int_equal(sym.st_value, i386->sym_sigreturn);
		if (!strcmp(exports[i].name, "__kernel_rt_sigreturn"))
			assert_int_equal(sym.st_value, i386->sym_rt_sigreturn);
		elf_end(elf);
		free(copy);
	}
}

/* x86_64: every export of this host's own vDSO, with the same binding
 * and version, except getrandom (its state protocol is not emulated) and
 * SGX. */
static void test_x64_exports_match_host(void **state)
{
	const uint8_t *host = (const uint8_t *)getauxval(AT_SYSINFO_EHDR);
	const struct vdso_image *img = vdso_image_for(SG_ABI_X64);
	GElf_Shdr sh;
	char *copy, *hcopy;
	Elf *elf, *helf;
	unsigned checked = 0;

	if (!host)
		skip();
	/* the host image's size: up to the end of its section headers */
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)host;
	size_t hsize = eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;
	struct vdso_image himg = { .data = host, .size = hsize };

	elf = open_image(img, &copy);
	helf = open_image(&himg, &hcopy);
	Elf_Scn *dyn = find_section(helf, SHT_DYNSYM, &sh);
	assert_non_null(dyn);
	Elf_Data *d = elf_getdata(dyn, NULL);
	for (size_t i = 1; i < sh.sh_size / sh.sh_entsize; i++) {
		GElf_Sym hs, ours;
		const char *name, *hver = NULL, *over = NULL;

		assert_non_null(gelf_getsym(d, (int)i, &hs));
		name = elf_strptr(helf, sh.sh_link, hs.st_name);
		if (GELF_ST_TYPE(hs.st_info) != STT_FUNC || strstr(name, "getrandom") ||
		    strstr(name, "sgx"))
			continue;
		assert_true(find_export(helf, name, &hs, &hver));
		if (!find_export(elf, name, &ours, &over))
			fail_msg("x86_64: host exports %s, sysgate does not", name);
		assert_int_equal(GELF_ST_BIND(ours.st_info), GELF_ST_BIND(hs.st_info));
		assert_string_equal(over, hver);
		checked++;
	}
	assert_true(checked >= 10);
	elf_end(elf);
	elf_end(helf);
	free(copy);
	free(hcopy);
}

static void test_offsets_point_at_code(void **state)
{
	const struct vdso_image *img = vdso_image_for(SG_ABI_I386);
	/* push ecx; push edx; push ebp; mov ebp,esp; sysenter; int 0x80 */
	static const uint8_t vsyscall[] = { 0x51, 0x52, 0x55, 0x89, 0xe5,
					    0x0f, 0x34, 0xcd, 0x80 };
	/* pop ebp; pop edx; pop ecx; ret */
	static const uint8_t landing[] = { 0x5d, 0x5a, 0x59, 0xc3 };
	/* pop eax; mov eax,119; int 0x80 */
	static const uint8_t sigret[] = { 0x58, 0xb8, 119, 0, 0, 0, 0xcd, 0x80 };
	/* mov eax,173; int 0x80 */
	static const uint8_t rt_sigret[] = { 0xb8, 173, 0, 0, 0, 0xcd, 0x80 };
	const uint8_t *d = img->data;

	assert_true(img->sym_kernel_vsyscall && img->sym_sysenter_return &&
		    img->sym_sigreturn && img->sym_rt_sigreturn);
	assert_true(img->sym_rt_sigreturn + sizeof(rt_sigret) <= img->size);
	assert_memory_equal(d + img->sym_kernel_vsyscall, vsyscall, sizeof(vsyscall));
	assert_memory_equal(d + img->sym_sysenter_return, landing, sizeof(landing));
	/* SYSENTER, then the int 0x80 fallback, right before the landing pad */
	assert_memory_equal(d + img->sym_sysenter_return - 4,
			    "\x0f\x34\xcd\x80", 4);
	assert_memory_equal(d + img->sym_sigreturn, sigret, sizeof(sigret));
	assert_memory_equal(d + img->sym_rt_sigreturn, rt_sigret, sizeof(rt_sigret));
}

/* The time functions' private call: `int $0x80` (i386) or `syscall`
 * right before vdso_private_return, then `ret`. */
static void test_private_call(void **state)
{
	static const struct { enum sg_abi abi; uint8_t insn[2]; } calls[] = {
		{ SG_ABI_I386, { 0xcd, 0x80 } },
		{ SG_ABI_X32, { 0x0f, 0x05 } },
		{ SG_ABI_X64, { 0x0f, 0x05 } },
	};

	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		const struct vdso_image *img = vdso_image_for(calls[i].abi);

		assert_true(img->sym_private_return >= 2 &&
			    img->sym_private_return < img->size);
		assert_memory_equal(img->data + img->sym_private_return - 2,
				    calls[i].insn, 2);
		assert_int_equal(img->data[img->sym_private_return], 0xc3);
		/* only i386 has the SYSENTER path */
		assert_true(!!img->sym_kernel_vsyscall == (calls[i].abi == SG_ABI_I386));
	}
}

/* --- vdso_answer against the host's clock --------------------------------- */

static struct mm *answer_mm;
static uint64_t page;

static int setup_mm(void **state)
{
	long r;

	answer_mm = mm_create(false);
	if (!answer_mm)
		return -1;
	r = mm_mmap(answer_mm, 0, 4096, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (r < 0)
		return -1;
	page = (uint64_t)r;
	return 0;
}

static int teardown_mm(void **state)
{
	mm_destroy(answer_mm);
	return 0;
}

static int64_t ns(const struct timespec *t)
{
	return (int64_t)t->tv_sec * 1000000000 + t->tv_nsec;
}

static void test_answer_clock_gettime(void **state)
{
	struct timespec before, after;
	int64_t got[2];
	int32_t got32[2];
	uint64_t a[3] = { CLOCK_MONOTONIC, page, 0 };

	/* x86_64/x32 clock_gettime (228): two 64-bit words */
	clock_gettime(CLOCK_MONOTONIC, &before);
	assert_int_equal(vdso_answer(answer_mm, false, 228, a), 0);
	clock_gettime(CLOCK_MONOTONIC, &after);
	memcpy(got, g2h(page), sizeof(got));
	assert_true(got[0] * 1000000000 + got[1] >= ns(&before));
	assert_true(got[0] * 1000000000 + got[1] <= ns(&after));
	/* i386 clock_gettime64 (403): the same layout */
	memset(g2h(page), 0xff, 32);
	clock_gettime(CLOCK_MONOTONIC, &before);
	assert_int_equal(vdso_answer(answer_mm, true, 403, a), 0);
	clock_gettime(CLOCK_MONOTONIC, &after);
	memcpy(got, g2h(page), sizeof(got));
	assert_true(got[0] * 1000000000 + got[1] >= ns(&before));
	assert_true(got[0] * 1000000000 + got[1] <= ns(&after));
	/* i386 clock_gettime (265): old_timespec32, nothing written past it */
	memset(g2h(page), 0xff, 32);
	assert_int_equal(vdso_answer(answer_mm, true, 265, a), 0);
	clock_gettime(CLOCK_MONOTONIC, &after);
	memcpy(got32, g2h(page), sizeof(got32));
	assert_true(got32[0] <= after.tv_sec && got32[0] >= before.tv_sec);
	assert_true(got32[1] >= 0 && got32[1] < 1000000000);
	assert_int_equal(((uint8_t *)g2h(page))[8], 0xff);
	/* errors as the system call's: bad clock, bad pointer */
	a[0] = 12345;
	assert_int_equal(vdso_answer(answer_mm, false, 228, a), -EINVAL);
	a[0] = CLOCK_REALTIME;
	a[1] = 16; /* not guest memory */
	assert_int_equal(vdso_answer(answer_mm, false, 228, a), -EFAULT);
	/* a number the vDSO does not use */
	assert_int_equal(vdso_answer(answer_mm, false, 39, a), -ENOSYS);
}

static void test_answer_time_and_tod(void **state)
{
	uint64_t a[3] = { page, page + 64, 0 };
	time_t before = time(NULL), after;
	struct timezone tz, htz;
	struct timeval htv;
	int64_t tv[2], t64;
	int32_t tv32[2], t32;
	long r;

	r = vdso_answer(answer_mm, false, 201, a);
	after = time(NULL);
	memcpy(&t64, g2h(page), 8);
	assert_true(r >= before && r <= after && t64 == r);
	r = vdso_answer(answer_mm, true, 13, a);
	after = time(NULL);
	memcpy(&t32, g2h(page), 4);
	assert_true(r >= before && r <= after && t32 == r);
	/* gettimeofday: 64-bit timeval (x86_64/x32), 32-bit (i386); tz */
	assert_int_equal(vdso_answer(answer_mm, false, 96, a), 0);
	gettimeofday(&htv, &htz);
	memcpy(tv, g2h(page), sizeof(tv));
	memcpy(&tz, g2h(page + 64), sizeof(tz));
	assert_true(tv[0] >= before && tv[0] <= htv.tv_sec && tv[1] < 1000000);
	assert_int_equal(tz.tz_minuteswest, htz.tz_minuteswest);
	assert_int_equal(vdso_answer(answer_mm, true, 78, a), 0);
	memcpy(tv32, g2h(page), sizeof(tv32));
	assert_true(tv32[0] >= before && tv32[1] < 1000000);
	/* clock_getres: the host's resolution, NULL allowed */
	struct timespec hres;
	int64_t res[2];
	uint64_t g[3] = { CLOCK_MONOTONIC, page, 0 };
	clock_getres(CLOCK_MONOTONIC, &hres);
	assert_int_equal(vdso_answer(answer_mm, false, 229, g), 0);
	memcpy(res, g2h(page), sizeof(res));
	assert_true(res[0] == hres.tv_sec && res[1] == hres.tv_nsec);
	g[1] = 0;
	assert_int_equal(vdso_answer(answer_mm, false, 229, g), 0);
	/* getcpu: a CPU this host has */
	uint64_t c[3] = { page, page + 4, 0 };
	uint32_t cpu;
	assert_int_equal(vdso_answer(answer_mm, true, 318, c), 0);
	memcpy(&cpu, g2h(page), 4);
	assert_true(cpu < 4096);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_images_are_dsos),
		cmocka_unit_test(test_exports),
		cmocka_unit_test(test_x64_exports_match_host),
		cmocka_unit_test(test_offsets_point_at_code),
		cmocka_unit_test(test_private_call),
		cmocka_unit_test_setup_teardown(test_answer_clock_gettime,
						setup_mm, teardown_mm),
		cmocka_unit_test_setup_teardown(test_answer_time_and_tod,
						setup_mm, teardown_mm),
	};

	return cmocka_run_group_tests_name("vdso", tests, NULL, NULL);
}
