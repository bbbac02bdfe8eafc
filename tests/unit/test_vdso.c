/* src/vdso: the embedded i386 image is a real linux-gate.so.1 with the
 * kernel's exported symbols and versions, and the recorded offsets point
 * at the instruction bytes the kernel ABI prescribes (Intel SDM encodings). */
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

static void test_image_is_i386_dso(void **state)
{
	const struct vdso_image *img = vdso_image_for(SG_ABI_I386);
	GElf_Ehdr eh;
	char *copy;
	Elf *elf;

	assert_non_null(img);
	assert_true(img->size > 0 && img->size % 4096 == 0);
	assert_int_equal((uintptr_t)img->data % 4096, 0);
	elf = open_image(img, &copy);
	assert_int_equal(elf_kind(elf), ELF_K_ELF);
	assert_int_equal(gelf_getclass(elf), ELFCLASS32);
	assert_non_null(gelf_getehdr(elf, &eh));
	assert_int_equal(eh.e_machine, EM_386);
	assert_int_equal(eh.e_type, ET_DYN);
	assert_int_equal(eh.e_ident[EI_DATA], ELFDATA2LSB);
	/* mappable as one blob: every PT_LOAD at offset == address */
	size_t nph;
	assert_int_equal(elf_getphdrnum(elf, &nph), 0);
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;

		assert_non_null(gelf_getphdr(elf, (int)i, &ph));
		if (ph.p_type == PT_LOAD)
			assert_int_equal(ph.p_offset, ph.p_vaddr);
	}
	elf_end(elf);
	free(copy);
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

static void check_export(Elf *elf, const char *name, uint64_t value)
{
	GElf_Shdr sh, vsh;
	Elf_Scn *dyn = find_section(elf, SHT_DYNSYM, &sh);
	Elf_Scn *ver = find_section(elf, SHT_GNU_versym, &vsh);
	Elf_Data *d, *vd;

	assert_non_null(dyn);
	assert_non_null(ver);
	d = elf_getdata(dyn, NULL);
	vd = elf_getdata(ver, NULL);
	for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
		GElf_Sym sym;
		GElf_Versym vs;

		assert_non_null(gelf_getsym(d, (int)i, &sym));
		if (strcmp(elf_strptr(elf, sh.sh_link, sym.st_name), name))
			continue;
		assert_int_equal(GELF_ST_BIND(sym.st_info), STB_GLOBAL);
		assert_int_equal(GELF_ST_TYPE(sym.st_info), STT_FUNC);
		assert_int_equal(sym.st_value, value);
		assert_non_null(gelf_getversym(vd, (int)i, &vs));
		assert_string_equal(verdef_name(elf, vs & 0x7fff), "LINUX_2.5");
		return;
	}
	fail_msg("%s not exported", name);
}

static void test_exports(void **state)
{
	const struct vdso_image *img = vdso_image_for(SG_ABI_I386);
	char *copy;
	Elf *elf = open_image(img, &copy);
	GElf_Shdr sh;
	Elf_Scn *dynamic = find_section(elf, SHT_DYNAMIC, &sh);
	bool soname = false;

	check_export(elf, "__kernel_vsyscall", img->sym_kernel_vsyscall);
	check_export(elf, "__kernel_sigreturn", img->sym_sigreturn);
	check_export(elf, "__kernel_rt_sigreturn", img->sym_rt_sigreturn);
	/* DT_SONAME linux-gate.so.1, and both hash styles */
	assert_non_null(dynamic);
	Elf_Data *d = elf_getdata(dynamic, NULL);
	bool hash = false, gnu_hash = false;
	for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
		GElf_Dyn dyn;

		assert_non_null(gelf_getdyn(d, (int)i, &dyn));
		if (dyn.d_tag == DT_SONAME)
			soname = !strcmp(elf_strptr(elf, sh.sh_link, dyn.d_un.d_val),
					 "linux-gate.so.1");
		hash |= dyn.d_tag == DT_HASH;
		gnu_hash |= dyn.d_tag == DT_GNU_HASH;
	}
	assert_true(soname);
	assert_true(hash && gnu_hash);
	elf_end(elf);
	free(copy);
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

static void test_other_abis(void **state)
{
	assert_null(vdso_image_for(SG_ABI_X32));
	assert_null(vdso_image_for(SG_ABI_X64));
	assert_null(vdso_image_for(SG_ABI_NONE));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_image_is_i386_dso),
		cmocka_unit_test(test_exports),
		cmocka_unit_test(test_offsets_point_at_code),
		cmocka_unit_test(test_other_abis),
	};

	return cmocka_run_group_tests_name("vdso", tests, NULL, NULL);
}
