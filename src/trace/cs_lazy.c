/* Capstone, loaded on first use. Linking libcapstone makes the dynamic
 * loader apply its ~77,000 relocations (and touch the pages they land on)
 * at every start of sysgate, including every execve of a guest, although
 * only --trace=insn and the embedding API's disassembly use it. These
 * definitions of the Capstone functions sysgate calls take precedence
 * over the library's (the executable is searched first); the library
 * (SG_CAPSTONE_PATH, found at configure time) is dlopen'ed the first time
 * one is called. The sysgate executable does not link libcapstone (a
 * static PIE by default, else --as-needed: top-level CMakeLists.txt);
 * tests that link it call these too. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <capstone/capstone.h>

static struct {
	cs_err (*open)(cs_arch, cs_mode, csh *);
	cs_err (*close)(csh *);
	cs_err (*option)(csh, cs_opt_type, size_t);
	size_t (*disasm)(csh, const uint8_t *, size_t, uint64_t, size_t, cs_insn **);
	void (*free)(cs_insn *, size_t);
	bool (*insn_group)(csh, const cs_insn *, unsigned int);
} cs;
static pthread_once_t cs_once = PTHREAD_ONCE_INIT;

static void cs_load(void)
{
	void *lib = dlopen(SG_CAPSTONE_PATH, RTLD_NOW | RTLD_LOCAL);

	if (!lib) {
		/* A static-PIE sysgate loads it with its own copy of the
		 * dynamic loader, which needs the libc it was linked with. */
		fprintf(stderr, "sysgate: cannot load Capstone (instruction "
			"trace, disassembly): %s\n", dlerror());
		return;
	}
	*(void **)&cs.open = dlsym(lib, "cs_open");
	*(void **)&cs.close = dlsym(lib, "cs_close");
	*(void **)&cs.option = dlsym(lib, "cs_option");
	*(void **)&cs.disasm = dlsym(lib, "cs_disasm");
	*(void **)&cs.free = dlsym(lib, "cs_free");
	*(void **)&cs.insn_group = dlsym(lib, "cs_insn_group");
	if (!cs.open || !cs.close || !cs.option || !cs.disasm || !cs.free || !cs.insn_group)
		cs.open = NULL;
}

cs_err cs_open(cs_arch arch, cs_mode mode, csh *handle)
{
	pthread_once(&cs_once, cs_load);
	return cs.open ? cs.open(arch, mode, handle) : CS_ERR_MEM;
}

/* The others are only reached with a handle cs_open gave. */
cs_err cs_close(csh *handle)
{
	return cs.close(handle);
}

cs_err cs_option(csh handle, cs_opt_type type, size_t value)
{
	return cs.option(handle, type, value);
}

size_t cs_disasm(csh handle, const uint8_t *code, size_t size, uint64_t address, size_t count,
		 cs_insn **insn)
{
	return cs.disasm(handle, code, size, address, count, insn);
}

void cs_free(cs_insn *insn, size_t count)
{
	cs.free(insn, count);
}

bool cs_insn_group(csh handle, const cs_insn *insn, unsigned int group_id)
{
	return cs.insn_group(handle, insn, group_id);
}
