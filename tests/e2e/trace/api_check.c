/* api_check STRAIGHT START LOOP: the embedding API on straight.asm (built
 * against the installed library by check_install.sh). START and LOOP are
 * the addresses nm gives for _start and loop. The source fixes the rest:
 *   _start: xor eax,eax (31 c0); mov ecx,3 (5 bytes); nop
 *   loop:   inc eax; dec ecx; jnz loop        (2 + 2 + 2 bytes)
 *           mov edi,eax; add edi,4 (83 c7 04); mov eax,231; syscall
 * so the exit status is (passes) + 4, normally 7. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysgate.h>

#include "api_check.h"

static char *prog;
static char *const envp[] = { NULL };

static sg_process *load(void)
{
	char *argv[] = { prog, NULL };
	sg_process *p = NULL;

	if (sg_create(mode_options(), &p) != SG_OK || sg_load(p, prog, argv, envp) != SG_OK) {
		fprintf(stderr, "api_check: cannot load %s\n", prog);
		exit(1);
	}
	return p;
}

static enum sg_hook_action exit_42(sg_process *p, struct sg_syscall_info *info, void *user)
{
	(void)p;
	(void)user;
	if (info->name && !strcmp(info->name, "exit_group"))
		info->args[0] = 42;
	return SG_HOOK_CONTINUE;
}

/* getpid; kill(pid, SIGUSR1); exit_group(7), written over _start */
static const unsigned char kill_self[] = {
	0xb8, 39, 0, 0, 0,       /* mov eax, 39 (getpid) */
	0x0f, 0x05,              /* syscall */
	0x89, 0xc7,              /* mov edi, eax */
	0xbe, 10, 0, 0, 0,       /* mov esi, 10 (SIGUSR1) */
	0xb8, 62, 0, 0, 0,       /* mov eax, 62 (kill) */
	0x0f, 0x05,              /* syscall */
	0xbf, 7, 0, 0, 0,        /* mov edi, 7 */
	0xb8, 231, 0, 0, 0,      /* mov eax, 231 (exit_group) */
	0x0f, 0x05,              /* syscall */
};

static enum sg_hook_action discard_usr1(sg_process *p, int tid, int signo, void *user)
{
	int *seen = user;

	(void)p;
	(void)tid;
	if (signo == 10)
		(*seen)++;
	return signo == 10 ? SG_HOOK_SKIP : SG_HOOK_CONTINUE;
}

static uint64_t stop_at;

static void stop_at_loop(sg_process *p, uint64_t addr, void *user)
{
	int *hits = user;

	if (addr == stop_at && (*hits)++ == 0)
		sg_stop(p);
}

int main(int argc, char **argv)
{
	uint64_t start, loop, v;
	struct sg_exit st;
	sg_process *p;
	unsigned char code[2];
	int hits = 0;
	char *noargv[] = { "/nonexistent", NULL };

	if (argc != 4)
		return 2;
	prog = argv[1];
	start = strtoull(argv[2], NULL, 16);
	loop = strtoull(argv[3], NULL, 16);

	/* errors */
	{
		struct sg_options o;
		sg_process *q = NULL;

		sg_options_init(&o);
		o.trace_filter = "trace=nosuchcall"; /* nothing traced: still checked */
		CHECK(sg_create(&o, &q) == SG_ERR_FILTER, "a bogus trace_filter");
	}
	CHECK(sg_create(mode_options(), &p) == SG_OK, "sg_create");
	CHECK(sg_run(p, &st) == SG_ERR_STATE, "run before load");
	CHECK(sg_load(p, "/nonexistent", noargv, envp) == SG_ERR_NOENT, "load of a missing file");
	CHECK(sg_reg_read(p, SG_REG__COUNT, &v) == SG_ERR_INVAL, "bad register");
	CHECK(strlen(sg_strerror(SG_ERR_FAULT)) > 0 && strlen(sg_strerror(SG_ERR_STOPPED)) > 0,
	      "error texts");
	sg_destroy(p);

	/* step, registers, memory */
	p = load();
	CHECK(sg_reg_read(p, SG_REG_RIP, &v) == SG_OK && v == start, "rip %#llx at start", (unsigned long long)v);
	CHECK(sg_mem_read(p, start, code, 2) == SG_OK && code[0] == 0x31 && code[1] == 0xc0,
	      "code bytes at _start");
	CHECK(sg_mem_read(p, 8, code, 1) == SG_ERR_FAULT, "read of an unmapped page");
	for (int i = 0; i < 3; i++)
		CHECK(sg_step(p, &st) == SG_OK, "step %d", i);
	CHECK(sg_reg_read(p, SG_REG_RIP, &v) == SG_OK && v == loop, "rip %#llx after 3 steps", (unsigned long long)v);
	CHECK(sg_reg_read(p, SG_REG_RCX, &v) == SG_OK && v == 3, "rcx %llu after mov ecx, 3", (unsigned long long)v);
	CHECK(sg_reg_write(p, SG_REG_RCX, 1) == SG_OK, "write rcx");
	CHECK(sg_run(p, &st) == SG_OK && !st.signaled && st.code == 5,
	      "one pass: status %d, expected 5", st.code);
	CHECK(sg_step(p, &st) == SG_ERR_STATE, "step after exit");
	/* a second run answers at once (it waited for threads for ever) */
	CHECK(sg_run(p, &st) == SG_ERR_STATE && st.code == 5, "run after exit");
	sg_destroy(p);

	/* patching code: add edi, 4 -> add edi, 9 (loop + 6 + 2 + 2) */
	p = load();
	code[0] = 9;
	CHECK(sg_mem_write(p, loop + 10, code, 1) == SG_OK, "patch");
	CHECK(sg_run(p, &st) == SG_OK && st.code == 12, "patched: status %d, expected 12", st.code);
	sg_destroy(p);

	/* a syscall entry hook changes an argument */
	p = load();
	CHECK(sg_hook_syscall_entry(p, exit_42, NULL) == SG_OK, "hook");
	CHECK(sg_run(p, &st) == SG_OK && st.code == 42, "hooked exit: status %d", st.code);
	sg_destroy(p);

	/* a signal hook sees the guest's SIGUSR1 to itself and discards it:
	 * the guest exits 7 instead of dying of it */
	{
		/* traced (to /dev/null): sysgate catches a signal whose
		 * default kills only when something must see it first (the
		 * trace); untraced the host's default ends the embedder too
		 * (src/signal/host.c, trace_sees) */
		char *kargv[] = { prog, NULL };
		struct sg_options o;

		o = *mode_options();
		o.trace = SG_TRACE_SYSCALLS;
		o.trace_fd = open("/dev/null", O_WRONLY);
		p = NULL;
		CHECK(o.trace_fd >= 0 && sg_create(&o, &p) == SG_OK &&
		      sg_load(p, prog, kargv, envp) == SG_OK, "load, traced");
	}
	hits = 0;
	CHECK(sg_mem_write(p, start, kill_self, sizeof(kill_self)) == SG_OK, "patch kill_self");
	CHECK(sg_hook_signal(p, discard_usr1, &hits) == SG_OK, "signal hook");
	CHECK(sg_run(p, &st) == SG_OK && !st.signaled && st.code == 7 && hits == 1,
	      "SIGUSR1 discarded by the hook: status %d, hook saw it %d times", st.code, hits);
	sg_destroy(p);
	hits = 0;

	/* sg_stop from an instruction hook, then continue */
	p = load();
	stop_at = loop;
	CHECK(sg_hook_insn(p, stop_at_loop, &hits) == SG_OK, "insn hook");
	CHECK(sg_run(p, &st) == SG_ERR_STOPPED, "stopped");
	CHECK(sg_reg_read(p, SG_REG_RIP, &v) == SG_OK && v == loop, "stopped at %#llx", (unsigned long long)v);
	CHECK(sg_run(p, &st) == SG_OK && st.code == 7, "continued: status %d", st.code);
	sg_destroy(p);

	if (failures)
		return 1;
	fprintf(stderr, "api_check: all checks passed\n");
	return 0;
}
