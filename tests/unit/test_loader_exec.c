/* src/loader, what exec does beyond mapping one ELF file: `#!` scripts
 * (binfmt_script's argv rules), the sysroot lookup of the program and its
 * interpreter, address randomisation (ranges from the kernel's bit counts,
 * fixed addresses with no_aslr), and the facts kept for /proc/self
 * (cmdline/environ ranges, the auxv bytes). Expected values come from the
 * strings and files the test made and the kernel's documented layouts. */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "cpu/cpu.h"
#include "loader/loader.h"
#include "mm/mm.h"

static char dir[64];
static char *const no_env[] = { "A=1", "BB=two", NULL };

static const char *tmp_path(const char *name)
{
	static char buf[8][PATH_MAX];
	static int i;
	char *p = buf[i++ % 8];

	snprintf(p, PATH_MAX, "%s/%s", dir, name);
	return p;
}

static void write_file(const char *path, const char *text, int mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static bool build(const char *flags, const char *out)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd),
		 "echo 'int main(void){return 0;}' | cc %s -x c -o %s - 2>/dev/null",
		 flags, tmp_path(out));
	return system(cmd) == 0;
}

static int setup(void **state)
{
	strcpy(dir, "/tmp/sg_loadx_XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	build("-m64 -static", "s64");
	build("-m32 -static", "s32");
	build("-m32 -static-pie -fpie", "pie32");
	build("-m64 -static-pie -fpie", "pie64");
	build("-m32", "dyn32");
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void need(const char *path)
{
	if (access(path, R_OK) != 0)
		skip();
}

/* --- a loaded process and its initial stack --------------------------- */

struct loaded {
	struct loader_out p;
	struct cpu cpu;
	unsigned word;
};

static enum sg_err try_load(struct loaded *l, const char *sysroot, bool aslr,
			    const char *path, char *const argv[])
{
	memset(l, 0, sizeof(*l));
	return loader_load(&(const struct loader_args){ .sysroot = sysroot,
							 .no_aslr = !aslr },
			   &l->p, &l->cpu, path, argv, no_env);
}

static void unload(struct loaded *l)
{
	mm_destroy(l->p.mm);
	cpu_release(&l->cpu);
	free(l->p.exe_path);
	l->p.mm = NULL;
}

static uint64_t word_at(const struct loaded *l, uint64_t addr)
{
	uint64_t v = 0;

	memcpy(&v, g2h(addr), l->word);
	return v;
}

/* argv[i] on the guest stack */
static const char *stack_arg(const struct loaded *l, unsigned i)
{
	uint64_t sp = l->p.image.stack_pointer;

	return g2h(word_at(l, sp + (1 + i) * l->word));
}

static uint64_t stack_argc(const struct loaded *l)
{
	return word_at(l, l->p.image.stack_pointer);
}

/* Address of the auxv on the stack. */
static uint64_t stack_auxv(const struct loaded *l)
{
	uint64_t p = l->p.image.stack_pointer + (stack_argc(l) + 2) * l->word;

	while (word_at(l, p))
		p += l->word;
	return p + l->word;
}

static uint64_t auxv_get(const struct loaded *l, uint64_t type)
{
	for (uint64_t a = stack_auxv(l); word_at(l, a) != AT_NULL; a += 2 * l->word)
		if (word_at(l, a) == type)
			return word_at(l, a + l->word);
	return 0;
}

/* --- #! scripts ------------------------------------------------------- */

static void test_script_argv(void **state)
{
	char *argv[] = { "name-ignored", "x", "y z", NULL };
	char line[PATH_MAX + 64], real[PATH_MAX];
	struct loaded l;

	need(tmp_path("s64"));
	/* blanks around the argument go, blanks inside it stay */
	snprintf(line, sizeof(line), "#! \t%s   one  arg \t\nexit 1\n",
		 tmp_path("s64"));
	write_file(tmp_path("script"), line, 0755);
	assert_int_equal(try_load(&l, NULL, false, tmp_path("script"), argv), SG_OK);
	l.word = 8;
	assert_int_equal(stack_argc(&l), 5);
	assert_string_equal(stack_arg(&l, 0), tmp_path("s64"));
	assert_string_equal(stack_arg(&l, 1), "one  arg");
	assert_string_equal(stack_arg(&l, 2), tmp_path("script"));
	assert_string_equal(stack_arg(&l, 3), "x");
	assert_string_equal(stack_arg(&l, 4), "y z");
	/* AT_EXECFN: the name exec was given; /proc/self/exe: the interpreter */
	assert_string_equal(g2h(auxv_get(&l, AT_EXECFN)), tmp_path("script"));
	assert_non_null(realpath(tmp_path("s64"), real));
	assert_string_equal(l.p.exe_path, real);
	unload(&l);
}

static void test_script_nested_and_bad(void **state)
{
	char *argv[] = { "n", NULL };
	char line[PATH_MAX + 64];
	struct loaded l;

	need(tmp_path("s32"));
	/* no argument; the interpreter is itself a script */
	snprintf(line, sizeof(line), "#!%s\n", tmp_path("s32"));
	write_file(tmp_path("inner"), line, 0755);
	snprintf(line, sizeof(line), "#!%s\n", tmp_path("inner"));
	write_file(tmp_path("outer"), line, 0755);
	assert_int_equal(try_load(&l, NULL, false, tmp_path("outer"), argv), SG_OK);
	l.word = 4;
	assert_int_equal(l.p.abi, SG_ABI_I386);
	assert_int_equal(stack_argc(&l), 3);
	assert_string_equal(stack_arg(&l, 0), tmp_path("s32"));
	assert_string_equal(stack_arg(&l, 1), tmp_path("inner"));
	assert_string_equal(stack_arg(&l, 2), tmp_path("outer"));
	unload(&l);

	/* a script naming itself: the kernel gives up after a few levels */
	snprintf(line, sizeof(line), "#!%s\n", tmp_path("loop"));
	write_file(tmp_path("loop"), line, 0755);
	assert_int_equal(try_load(&l, NULL, false, tmp_path("loop"), argv),
			 SG_ERR_NOEXEC);
	/* no interpreter name, or a name that does not exist */
	write_file(tmp_path("empty"), "#!  \t\n", 0755);
	assert_int_equal(try_load(&l, NULL, false, tmp_path("empty"), argv),
			 SG_ERR_NOEXEC);
	write_file(tmp_path("missing"), "#!/nonexistent/interp\n", 0755);
	assert_int_equal(try_load(&l, NULL, false, tmp_path("missing"), argv),
			 SG_ERR_NOENT);
	/* a first line longer than the kernel's 256-byte buffer whose name
	 * does not end inside it */
	memset(line, 'a', 300);
	memcpy(line, "#!/", 3);
	line[300] = '\0';
	write_file(tmp_path("long"), line, 0755);
	assert_int_equal(try_load(&l, NULL, false, tmp_path("long"), argv),
			 SG_ERR_NOEXEC);
	assert_null(l.p.mm);
}

/* --- sysroot ---------------------------------------------------------- */

static void test_sysroot(void **state)
{
	char *argv[] = { "p", NULL };
	char cmd[PATH_MAX * 2], real[PATH_MAX], maps[1 << 16];
	const char *root = tmp_path("root");
	struct loaded l;
	int fd;
	ssize_t n;

	need(tmp_path("s64"));
	need(tmp_path("dyn32"));
	need("/lib/ld-linux.so.2");
	/* ROOT/bin/prog and ROOT/lib/ld-linux.so.2 (a copy of the host's) */
	snprintf(cmd, sizeof(cmd),
		 "mkdir -p %s/bin %s/lib && cp %s %s/bin/prog && cp %s %s/bin/dyn && "
		 "cp -L /lib/ld-linux.so.2 %s/lib/ld-linux.so.2",
		 root, root, tmp_path("s64"), root, tmp_path("dyn32"), root, root);
	assert_int_equal(system(cmd), 0);
	/* an absolute program path is looked up in the sysroot first */
	assert_int_equal(try_load(&l, root, false, "/bin/prog", argv), SG_OK);
	snprintf(cmd, sizeof(cmd), "%s/bin/prog", root);
	assert_non_null(realpath(cmd, real));
	assert_string_equal(l.p.exe_path, real);
	unload(&l);
	/* ... and the interpreter: its mapping names the sysroot's file */
	assert_int_equal(try_load(&l, root, false, "/bin/dyn", argv), SG_OK);
	fd = memfd_create("maps", 0);
	assert_true(fd >= 0);
	assert_int_equal(mm_write_maps(l.p.mm, fd), 0);
	n = pread(fd, maps, sizeof(maps) - 1, 0);
	assert_true(n > 0);
	maps[n] = '\0';
	close(fd);
	snprintf(cmd, sizeof(cmd), "%s/lib/ld-linux.so.2", root);
	assert_non_null(realpath(cmd, real));
	assert_non_null(strstr(maps, real));
	unload(&l);
	/* without the sysroot the host's path is used; a missing sysroot
	 * file falls back to the host's */
	assert_int_equal(try_load(&l, root, false, tmp_path("s64"), argv), SG_OK);
	unload(&l);
	assert_int_equal(try_load(&l, NULL, false, "/bin/prog", argv), SG_ERR_NOENT);
}

/* --- address randomisation -------------------------------------------- */

static void test_fixed_layout(void **state)
{
	static const struct { const char *name; uint64_t base; } pies[] = {
		{ "pie32", 0x56555000 }, { "pie64", 0x555555554000 },
	};
	char *argv[] = { "p", NULL };
	struct loaded l;

	for (int i = 0; i < 2; i++) {
		const char *path = tmp_path(pies[i].name);

		if (access(path, R_OK) != 0)
			continue;
		assert_int_equal(try_load(&l, NULL, false, path, argv), SG_OK);
		assert_int_equal(l.p.image.load_bias, pies[i].base);
#ifndef SG_ASAN /* (ASan's shadow lowers it: docs/loader.md) */
		if (i == 0) /* compat stack right below TASK_SIZE */
			assert_true(l.p.image.stack_pointer > 0xffffe000 - 65536);
#endif
		unload(&l);
	}
}

static void test_aslr_ranges(void **state)
{
	char *argv[] = { "p", NULL };
	uint64_t biases[4], stacks[4];
	bool differ = false;
	struct loaded l;

	need(tmp_path("pie32"));
	for (int i = 0; i < 4; i++) {
		uint64_t end;

		assert_int_equal(try_load(&l, NULL, true, tmp_path("pie32"), argv),
				 SG_OK);
		biases[i] = l.p.image.load_bias;
		stacks[i] = l.p.image.stack_pointer;
		/* 8 random page bits above ELF_ET_DYN_BASE */
		assert_true(biases[i] >= 0x56555000 &&
			    biases[i] < 0x56555000 + (256ull << 12));
		assert_int_equal(biases[i] % 4096, 0);
#ifndef SG_ASAN
		/* stack top within 8 MiB below TASK_SIZE */
		assert_true(stacks[i] < 0xffffe000 &&
			    stacks[i] > 0xffffe000 - (8ull << 20) - 65536);
#endif
		/* brk within 32 MiB after the image */
		end = l.p.image.brk_start;
		assert_true(mm_brk(l.p.mm, 0) == end);
		assert_true(end > biases[i] && end < biases[i] + (64ull << 20));
		if (i && (biases[i] != biases[0] || stacks[i] != stacks[0]))
			differ = true;
		unload(&l);
	}
	assert_true(differ);
}

/* --- /proc/self facts ------------------------------------------------- */

static void check_exec_info(const char *path, unsigned word)
{
	char *argv[] = { "first", "", "third arg", NULL };
	const struct mm_exec_info *x;
	uint64_t auxv, pairs = 0, want;
	struct loaded l;

	need(path);
	assert_int_equal(try_load(&l, NULL, false, path, argv), SG_OK);
	l.word = word;
	x = mm_exec_info(l.p.mm);
	/* cmdline: the argv strings, NUL-separated, as on the stack */
	assert_int_equal(x->arg_end - x->arg_start, sizeof("first\0\0third arg"));
	assert_memory_equal(g2h(x->arg_start), "first\0\0third arg",
			    sizeof("first\0\0third arg"));
	assert_int_equal(x->arg_start, (uint64_t)(uintptr_t)stack_arg(&l, 0));
	assert_int_equal(x->env_end - x->env_start, sizeof("A=1\0BB=two"));
	assert_memory_equal(g2h(x->env_start), "A=1\0BB=two", sizeof("A=1\0BB=two"));
	/* auxv: the stack's vector; compat pairs packed, then zero pairs to
	 * the next even one (the kernel's 64-bit read of a compat vector) */
	auxv = stack_auxv(&l);
	while (word_at(&l, auxv + pairs * 2 * word) != AT_NULL)
		pairs++;
	pairs++;
	want = word == 8 ? pairs * 16 : 8 * (pairs + 1 + ((pairs - 1) & 1));
	assert_int_equal(x->auxv_len, want);
	assert_memory_equal(x->auxv, g2h(auxv), pairs * 2 * word);
	for (size_t i = pairs * 2 * word; i < x->auxv_len; i++)
		assert_int_equal(x->auxv[i], 0);
	unload(&l);
}

static void test_exec_info(void **state)
{
	check_exec_info(tmp_path("s32"), 4);
	check_exec_info(tmp_path("s64"), 8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_script_argv),
		cmocka_unit_test(test_script_nested_and_bad),
		cmocka_unit_test(test_sysroot),
		cmocka_unit_test(test_fixed_layout),
		cmocka_unit_test(test_aslr_ranges),
		cmocka_unit_test(test_exec_info),
	};

	return cmocka_run_group_tests_name("loader_exec", tests, setup, teardown);
}
