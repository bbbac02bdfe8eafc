/* api_more_check APIREGS START CALLS REGS_READY INT80 THREADS FORKEXEC INT80_I386 X32:
 * the embedding API's per-number syscall hooks, SG_HOOK_KILL,
 * sg_run_until, the address space calls, the wide registers, events and
 * sg_load_memory, built against the installed library by
 * check_install.sh. START, CALLS, REGS_READY: nm's addresses of those
 * labels in apiregs.asm; INT80: tests/guest/asm/int80_x86_64.asm's
 * program; THREADS, FORKEXEC: trace_threads.c and forkexec.c here; INT80_I386:
 * tests/guest/asm/int80_i386.asm's (exit status 11); X32: x32.asm's. Syscall numbers come from the kernel headers (-D flags
 * check_install.sh takes from <asm/unistd_32.h> and <asm/unistd_64.h>),
 * the rest from the two sources and from this host CPU (FLDPI, the x87
 * environment after FLD1/FLDPI, MXCSR and selectors of this process). */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <sysgate.h>

#if !defined(NRX32_GETPID) || !defined(NRX32_RT_SIGACTION) || !defined(NR64_CLONE) || !defined(NR64_GETPID) || !defined(NR64_GETUID) || !defined(NR32_GETPID) || \
	!defined(NR32_EXIT) || !defined(NR32_MKDIR)
#error "syscall numbers: built by check_install.sh from the kernel headers"
#endif

#include "api_check.h"

static char *const envp[] = { NULL };

static sg_process *load(const char *prog)
{
	char *argv[] = { (char *)prog, NULL };
	sg_process *p = NULL;

	if (sg_create(mode_options(), &p) != SG_OK || sg_load(p, prog, argv, envp) != SG_OK) {
		fprintf(stderr, "api_more_check: cannot load %s\n", prog);
		exit(1);
	}
	return p;
}

/* --- hooks ------------------------------------------------------------- */

struct counts {
	int entries, exits, last_result;
	int rax_not_nr; /* the hooked thread's rax is the number */
};

static enum sg_hook_action count_call(sg_process *p, struct sg_syscall_info *info, void *user)
{
	struct counts *c = user;

	(void)p;
	(void)info;
	c->entries++;
	return SG_HOOK_CONTINUE;
}

/* entry: answered 4321 without the call; exit: sees the answer */
static enum sg_hook_action answer_4321(sg_process *p, struct sg_syscall_info *info, void *user)
{
	struct counts *c = user;
	uint64_t rax = 0;

	if (sg_reg_read(p, SG_REG_RAX, &rax) != SG_OK || rax != info->nr)
		c->rax_not_nr++;
	if (c->entries++ == c->exits) {
		info->result = 4321;
		return SG_HOOK_SKIP;
	}
	c->exits++;
	c->last_result = (int)info->result;
	return SG_HOOK_CONTINUE;
}

/* a made-up child: the guest's waitpid for it fails */
static enum sg_hook_action fake_child(sg_process *p, struct sg_syscall_info *info, void *user)
{
	(void)p;
	(void)user;
	info->result = 999999999;
	return SG_HOOK_SKIP;
}

static enum sg_hook_action kill_it(sg_process *p, struct sg_syscall_info *info, void *user)
{
	(void)p;
	(void)info;
	(*(int *)user)++;
	return SG_HOOK_KILL;
}

/* --- the host's own state, the oracle for the x87/SSE/selector checks --- */

struct x87_env { /* FNSTENV, 32-bit protected-mode format */
	uint16_t fcw, r0, fsw, r1, ftw, r2;
	uint32_t rest[4];
};

static void host_fpu_after_fld1_fldpi(struct x87_env *env, unsigned char st0[10],
				      unsigned char st1[10])
{
	long double pi, one;

	/* one statement: nothing may touch the x87 stack in between */
	__asm__ volatile("fninit\n\tfld1\n\tfldpi\n\tfnstenv %0\n\tfldenv %0\n\t"
			 "fstpt %1\n\tfstpt %2"
			 : "+m"(*env), "=m"(pi), "=m"(one));
	memcpy(st0, &pi, 10);
	memcpy(st1, &one, 10);
}

static uint16_t host_selector(int which)
{
	uint16_t s = 0;

	switch (which) {
	case 0: __asm__("mov %%es, %0" : "=r"(s)); break;
	case 1: __asm__("mov %%cs, %0" : "=r"(s)); break;
	case 2: __asm__("mov %%ss, %0" : "=r"(s)); break;
	case 3: __asm__("mov %%ds, %0" : "=r"(s)); break;
	case 4: __asm__("mov %%fs, %0" : "=r"(s)); break;
	default: __asm__("mov %%gs, %0" : "=r"(s)); break;
	}
	return s;
}

struct events {
	int n[SG_EVENT_EXIT_GROUP + 1];
	long fork_id;
	int exit_group_value;
	char exec_path[64];
};

static void count_event(sg_process *p, const struct sg_event_info *ev, void *user)
{
	struct events *e = user;

	(void)p;
	if ((unsigned)ev->event <= SG_EVENT_EXIT_GROUP)
		__atomic_add_fetch(&e->n[ev->event], 1, __ATOMIC_RELAXED); /* threads */
	if (ev->event == SG_EVENT_FORK)
		e->fork_id = ev->id;
	if (ev->event == SG_EVENT_EXIT_GROUP)
		e->exit_group_value = ev->value;
	if (ev->event == SG_EVENT_EXEC && ev->path)
		snprintf(e->exec_path, sizeof(e->exec_path), "%s", ev->path);
}

struct range_hits {
	int n;
	uint64_t addr[8];
};

static void record_addr(sg_process *p, uint64_t addr, void *user)
{
	struct range_hits *h = user;

	(void)p;
	if (h->n < 8)
		h->addr[h->n] = addr;
	h->n++;
}

static char *read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)n)) && fread(buf, 1, (size_t)n, f) == (size_t)n)
		*size = (size_t)n;
	else {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

static const struct sg_region *region_of(const struct sg_region *r, size_t n, uint64_t addr)
{
	for (size_t i = 0; i < n; i++)
		if (r[i].start <= addr && addr < r[i].end)
			return &r[i];
	return NULL;
}

int main(int argc, char **argv)
{
	const char *apiregs, *int80, *threads, *forkexec, *int80_i386, *x32;
	pid_t self = getpid();
	uint64_t start, calls, ready, v;
	struct sg_exit st;
	sg_process *p;

	if (argc != 10)
		return 2;
	apiregs = argv[1];
	start = strtoull(argv[2], NULL, 16);
	calls = strtoull(argv[3], NULL, 16);
	ready = strtoull(argv[4], NULL, 16);
	int80 = argv[5];
	threads = argv[6];
	forkexec = argv[7];
	int80_i386 = argv[8];
	x32 = argv[9];

	/* 1. hooks per number, per ABI; the order of a round; remove */
	{
		static const unsigned getpid64[] = { NR64_GETPID }, getuid64[] = { NR64_GETUID },
				      getpid32[] = { NR32_GETPID };
		struct counts pid = { 0 }, uid = { 0 }, pid32 = { 0 }, all = { 0 }, gone = { 0 };
		unsigned id = 0, id2 = 0;

		p = load(apiregs);
		CHECK(sg_hook_syscall_nrs(p, SG_ABI_X64, getpid64, 1, SG_HOOK_ON_ENTRY, count_call,
					  &pid, NULL) == SG_OK, "hook getpid");
		CHECK(sg_hook_syscall_nrs(p, SG_ABI_X64, getuid64, 1,
					  SG_HOOK_ON_ENTRY | SG_HOOK_ON_EXIT, answer_4321, &uid,
					  NULL) == SG_OK, "hook getuid");
		CHECK(sg_hook_syscall_nrs(p, SG_ABI_I386, getpid32, 1, SG_HOOK_ON_ENTRY, count_call,
					  &pid32, NULL) == SG_OK, "hook i386 getpid");
		CHECK(sg_hook_syscall_nrs(p, SG_ABI_X64, getpid64, 1, SG_HOOK_ON_ENTRY, count_call,
					  &gone, &id) == SG_OK && id, "hook to remove");
		CHECK(sg_hook_remove(p, id) == SG_OK, "remove");
		CHECK(sg_hook_remove(p, id) == SG_ERR_INVAL, "remove twice");
		CHECK(sg_hook_syscall_entry(p, count_call, &all) == SG_OK, "global entry hook");
		{
			unsigned bad = SG_HOOK_NR_MAX;

			CHECK(sg_hook_syscall_nrs(p, SG_ABI_X64, &bad, 1, SG_HOOK_ON_ENTRY,
						  count_call, NULL, &id2) == SG_ERR_INVAL, "nr too big");
			CHECK(sg_hook_syscall_nrs(p, SG_ABI_NONE, getpid64, 1, SG_HOOK_ON_ENTRY,
						  count_call, NULL, &id2) == SG_ERR_INVAL, "no ABI");
			CHECK(sg_hook_syscall_nrs(p, SG_ABI_X64, getpid64, 1, 0, count_call, NULL,
						  &id2) == SG_ERR_INVAL, "no when");
		}
		CHECK(sg_run_until(p, ready, 0, &st) == SG_ERR_REACHED, "run to regs_ready");
		CHECK(sg_reg_read(p, SG_REG_RAX, &v) == SG_OK && v == 4321,
		      "getuid answered by the hook: rax %llu", (unsigned long long)v);
		CHECK(sg_run(p, &st) == SG_OK && !st.signaled && st.code == 3, "exit 3: %d", st.code);
		/* the source: getpid twice, getuid once, then exit_group */
		CHECK(pid.entries == 2, "getpid hook: %d calls, expected 2", pid.entries);
		CHECK(uid.entries == 2 && uid.exits == 1 && uid.last_result == 4321 && !uid.rax_not_nr,
		      "getuid: entries %d exits %d result %d, rax not the number %d times",
		      uid.entries, uid.exits, uid.last_result, uid.rax_not_nr);
		CHECK(pid32.entries == 0, "the i386 getpid hook ran %d times for x86_64 calls",
		      pid32.entries);
		CHECK(gone.entries == 0, "a removed hook ran %d times", gone.entries);
		/* getuid's round ended at its SKIP: getpid, getpid, exit_group */
		CHECK(all.entries == 3, "global hook: %d calls, expected 3", all.entries);
		sg_destroy(p);
	}

	/* 2. int 0x80 from 64-bit code is the i386 table; KILL as seccomp's */
	{
		static const unsigned getpid32[] = { NR32_GETPID }, exit32[] = { NR32_EXIT },
				      getpid64[] = { NR64_GETPID }, mkdir32[] = { NR32_MKDIR };
		struct counts pid32 = { 0 }, pid64 = { 0 }, mkdir = { 0 };
		int kills = 0;

		p = load(int80);
		sg_hook_syscall_nrs(p, SG_ABI_I386, getpid32, 1, SG_HOOK_ON_ENTRY, count_call, &pid32, NULL);
		sg_hook_syscall_nrs(p, SG_ABI_X64, getpid64, 1, SG_HOOK_ON_ENTRY, count_call, &pid64, NULL);
		/* 39: x86_64 getpid, i386 mkdir */
		sg_hook_syscall_nrs(p, SG_ABI_I386, mkdir32, 1, SG_HOOK_ON_ENTRY, count_call, &mkdir, NULL);
		CHECK(sg_hook_syscall_nrs(p, SG_ABI_I386, exit32, 1, SG_HOOK_ON_ENTRY, kill_it,
					  &kills, NULL) == SG_OK, "kill hook");
		CHECK(sg_run(p, &st) == SG_OK && st.signaled && st.signal == SIGSYS,
		      "killed: signaled %d signal %d code %d", st.signaled, st.signal, st.code);
		CHECK(kills == 1 && pid32.entries == 1 && pid64.entries == 1 && mkdir.entries == 0,
		      "int80: kills %d, i386 getpid %d, x86_64 getpid %d, i386 mkdir %d",
		      kills, pid32.entries, pid64.entries, mkdir.entries);
		CHECK(sg_run(p, &st) == SG_ERR_STATE && st.signaled && st.signal == SIGSYS,
		      "run after the kill");
		sg_destroy(p);
	}

	/* x32.asm: getpid once through the x32 table (x32|39) and once through
	 * the 64-bit one (39), rt_sigaction through x32's own row (x32|512),
	 * exit status 15 */
	{
		static const unsigned getpid_x32[] = { NRX32_GETPID }, getpid64[] = { NR64_GETPID },
				      sigaction_x32[] = { NRX32_RT_SIGACTION };
		struct counts px = { 0 }, p64 = { 0 }, sa = { 0 };

		p = load(x32);
		CHECK(sg_process_abi(p) == SG_ABI_X32, "x32 abi");
		sg_hook_syscall_nrs(p, SG_ABI_X32, getpid_x32, 1, SG_HOOK_ON_ENTRY, count_call, &px, NULL);
		sg_hook_syscall_nrs(p, SG_ABI_X64, getpid64, 1, SG_HOOK_ON_ENTRY, count_call, &p64, NULL);
		sg_hook_syscall_nrs(p, SG_ABI_X32, sigaction_x32, 1, SG_HOOK_ON_ENTRY, count_call, &sa, NULL);
		CHECK(sg_run(p, &st) == SG_OK && !st.signaled && st.code == 15, "x32 exit %d", st.code);
		CHECK(px.entries == 1 && p64.entries == 1 && sa.entries == 1,
		      "x32: x32 getpid %d, x86_64 getpid %d, x32 rt_sigaction %d",
		      px.entries, p64.entries, sa.entries);
		sg_destroy(p);
	}

	/* 3. run until an address, for a budget */
	p = load(apiregs);
	CHECK(sg_run_until(p, 0, 3, &st) == SG_ERR_BUDGET, "budget 3");
	CHECK(sg_reg_read(p, SG_REG_RIP, &v) == SG_OK && v == calls,
	      "after 3 instructions rip %#llx, expected calls", (unsigned long long)v);
	/* mov eax, 39 (5 bytes); syscall (2 bytes, its call included) */
	CHECK(sg_run_until(p, 0, 2, &st) == SG_ERR_BUDGET, "budget 2");
	CHECK(sg_reg_read(p, SG_REG_RIP, &v) == SG_OK && v == calls + 7,
	      "after 5 rip %#llx, expected calls + 7", (unsigned long long)v);
	CHECK(sg_run_until(p, ready, 100, &st) == SG_ERR_REACHED, "reached before the budget");
	CHECK(sg_reg_read(p, SG_REG_RIP, &v) == SG_OK && v == ready, "at regs_ready");
	CHECK(sg_run_until(p, 0, 1, &st) == SG_ERR_BUDGET, "the nop");
	CHECK(sg_reg_read(p, SG_REG_RIP, &v) == SG_OK && v == ready + 1, "after the nop");
	CHECK(sg_run_until(p, 0, 1000, &st) == SG_OK && st.code == 3,
	      "a budget past the end: the exit (%d)", st.code);
	sg_destroy(p);

	/* an instruction hook for [calls, regs_ready): the six instructions
	 * there (mov eax, imm32: 5 bytes; syscall: 2) */
	{
		static const unsigned offs[] = { 0, 5, 7, 12, 14, 19 };
		struct range_hits in = { 0 }, gone = { 0 };
		unsigned id = 0;

		p = load(apiregs);
		CHECK(sg_hook_code_range(p, calls, ready, record_addr, &in, NULL) == SG_OK, "range");
		CHECK(sg_hook_code_range(p, start, ready, record_addr, &gone, &id) == SG_OK, "range 2");
		CHECK(sg_hook_code_range(p, ready, ready, record_addr, &gone, NULL) == SG_ERR_INVAL,
		      "empty range");
		CHECK(sg_hook_remove(p, id) == SG_OK, "range removed");
		CHECK(sg_run(p, &st) == SG_OK && st.code == 3, "range: exit %d", st.code);
		CHECK(in.n == 6 && gone.n == 0, "range: %d hits (6), removed one %d", in.n, gone.n);
		for (int i = 0; i < 6 && i < in.n; i++)
			CHECK(in.addr[i] == calls + offs[i], "hit %d at %#llx", i,
			      (unsigned long long)in.addr[i]);
		sg_destroy(p);
	}

	/* a run that starts at its address runs it: calls is not met again */
	p = load(apiregs);
	CHECK(sg_run_until(p, calls, 0, &st) == SG_ERR_REACHED, "to calls");
	CHECK(sg_run_until(p, calls, 0, &st) == SG_OK && st.code == 3, "from calls: the exit");
	sg_destroy(p);

	/* 4. registers at calls: XMM3, the x87 stack and words, MXCSR, selectors */
	{
		struct x87_env env;
		unsigned char st0[10], st1[10], buf[16], want[16];
		uint32_t mxcsr;

		host_fpu_after_fld1_fldpi(&env, st0, st1);
		__asm__ volatile("stmxcsr %0" : "=m"(mxcsr));
		p = load(apiregs);
		CHECK(sg_run_until(p, calls, 0, &st) == SG_ERR_REACHED, "to calls");
		for (int i = 0; i < 16; i++)
			want[i] = (unsigned char)(0x10 + i);
		CHECK(sg_reg_read_bytes(p, SG_REG_XMM3, buf, 16) == SG_OK && !memcmp(buf, want, 16),
		      "xmm3 = the source's bytes");
		CHECK(sg_reg_read_bytes(p, SG_REG_ST0, buf, 10) == SG_OK && !memcmp(buf, st0, 10),
		      "st0 = FLDPI as this CPU loads it");
		CHECK(sg_reg_read_bytes(p, SG_REG_ST1, buf, 10) == SG_OK && !memcmp(buf, st1, 10),
		      "st1 = 1.0");
		CHECK(sg_reg_read(p, SG_REG_FCW, &v) == SG_OK && v == env.fcw, "fcw %#llx, host %#x",
		      (unsigned long long)v, env.fcw);
		CHECK(sg_reg_read(p, SG_REG_FSW, &v) == SG_OK && v == env.fsw, "fsw %#llx, host %#x",
		      (unsigned long long)v, env.fsw);
		CHECK(sg_reg_read(p, SG_REG_FTW, &v) == SG_OK && v == env.ftw, "ftw %#llx, host %#x",
		      (unsigned long long)v, env.ftw);
		CHECK(sg_reg_read(p, SG_REG_MXCSR, &v) == SG_OK && v == mxcsr, "mxcsr %#llx, host %#x",
		      (unsigned long long)v, mxcsr);
		for (int s = 0; s < 6; s++) {
			enum sg_reg r = (enum sg_reg)(SG_REG_ES + s);

			CHECK(sg_reg_read(p, r, &v) == SG_OK && v == host_selector(s),
			      "selector %d: %#llx, host %#x", s, (unsigned long long)v, host_selector(s));
			CHECK(sg_reg_write(p, r, v) == SG_ERR_INVAL, "selector %d written", s);
		}
		CHECK(sg_reg_size(SG_REG_XMM15) == 16 && sg_reg_size(SG_REG_ST7) == 10 &&
		      sg_reg_size(SG_REG_RAX) == 8 && sg_reg_size(SG_REG__COUNT) == 0, "sizes");
		CHECK(sg_reg_read(p, SG_REG_XMM0, &v) == SG_ERR_INVAL, "a wide register as 64 bits");
		CHECK(sg_reg_read_bytes(p, SG_REG_XMM0, buf, 8) == SG_ERR_INVAL, "a short buffer");
		/* written, read back; ST1 stays where it is */
		memset(want, 0xa5, 16);
		CHECK(sg_reg_write_bytes(p, SG_REG_XMM15, want, 16) == SG_OK &&
		      sg_reg_read_bytes(p, SG_REG_XMM15, buf, 16) == SG_OK && !memcmp(buf, want, 16),
		      "xmm15 written");
		CHECK(sg_reg_write_bytes(p, SG_REG_ST0, st1, 10) == SG_OK &&
		      sg_reg_read_bytes(p, SG_REG_ST0, buf, 10) == SG_OK && !memcmp(buf, st1, 10) &&
		      sg_reg_read_bytes(p, SG_REG_ST1, buf, 10) == SG_OK && !memcmp(buf, st1, 10),
		      "st0 written");
		/* XMMn is YMMn's low half (Intel SDM vol. 1, 14.1); the legacy
		 * movdqu left YMM3's high half as it was: zero at the start */
		{
			unsigned char y[32], zero[16] = { 0 };

			for (int i = 0; i < 16; i++)
				want[i] = (unsigned char)(0x10 + i);
			CHECK(sg_reg_read_bytes(p, SG_REG_YMM3, y, 32) == SG_OK &&
			      !memcmp(y, want, 16) && !memcmp(y + 16, zero, 16), "ymm3");
			for (int i = 0; i < 32; i++)
				y[i] = (unsigned char)(0x80 + i);
			CHECK(sg_reg_write_bytes(p, SG_REG_YMM5, y, 32) == SG_OK &&
			      sg_reg_read_bytes(p, SG_REG_XMM5, buf, 16) == SG_OK && !memcmp(buf, y, 16),
			      "ymm5 written, xmm5 its low half");
			CHECK(sg_reg_size(SG_REG_YMM15) == 32, "ymm size");
		}
		CHECK(sg_reg_write(p, SG_REG_MXCSR, 0x9fc0) == SG_OK &&
		      sg_reg_read(p, SG_REG_MXCSR, &v) == SG_OK && v == 0x9fc0, "mxcsr written");
		CHECK(sg_run(p, &st) == SG_OK && st.code == 3, "exit 3");
		sg_destroy(p);
	}

	/* 5. the address space */
	{
		struct sg_region r[256];
		const struct sg_region *q;
		size_t n = 0, n2 = 0;
		uint64_t a = 0, b;
		/* mov edi, 9; mov eax, 231; syscall: exit_group(9) */
		static const unsigned char code[] = { 0xbf, 9, 0, 0, 0, 0xb8, 231, 0, 0, 0, 0x0f, 0x05 };
		char text[4] = "abc", back[4];

		p = load(apiregs);
		CHECK(sg_mem_regions(p, r, 256, &n) == SG_OK && n > 2 && n <= 256, "regions: %zu", n);
		q = region_of(r, n, start);
		CHECK(q && q->prot == (PROT_READ | PROT_EXEC) && strstr(q->name, "apiregs"),
		      "the text: prot %d name %s", q ? q->prot : -1, q ? q->name : "-");
		CHECK(sg_mem_regions(p, r, 1, &n2) == SG_OK && n2 == n, "count with a short array");
		CHECK(sg_mem_map(p, &a, 8192, PROT_READ | PROT_WRITE) == SG_OK && a && !(a & 4095),
		      "map anywhere");
		sg_mem_regions(p, r, 256, &n);
		q = region_of(r, n, a);
		CHECK(q && q->start <= a && q->end >= a + 8192 && q->prot == (PROT_READ | PROT_WRITE),
		      "the new region");
		CHECK(sg_mem_write(p, a + 4094, text, 4) == SG_OK &&
		      sg_mem_read(p, a + 4094, back, 4) == SG_OK && !memcmp(back, text, 4),
		      "written across the page boundary");
		CHECK(sg_mem_protect(p, a, 4096, PROT_READ) == SG_OK, "protect");
		sg_mem_regions(p, r, 256, &n);
		q = region_of(r, n, a);
		CHECK(q && q->prot == PROT_READ && q->end == a + 4096, "split: first page read-only");
		CHECK(sg_mem_unmap(p, a + 4096, 4096) == SG_OK, "unmap");
		CHECK(sg_mem_read(p, a + 4094, back, 4) == SG_ERR_FAULT, "read across into unmapped");
		CHECK(sg_mem_read(p, a + 4096, back, 1) == SG_ERR_FAULT, "read of unmapped");
		CHECK(sg_mem_write(p, a + 4096, text, 1) == SG_ERR_FAULT, "write of unmapped");
		b = a;
		CHECK(sg_mem_map(p, &b, 4096, PROT_READ) == SG_ERR_EXIST, "map over a mapping");
		b = a + 4096;
		CHECK(sg_mem_map(p, &b, 4096, PROT_READ | PROT_EXEC) == SG_OK && b == a + 4096,
		      "map at a fixed place");
		CHECK(sg_mem_unmap(p, a + 1, 4096) == SG_ERR_INVAL, "unaligned");
		CHECK(sg_mem_protect(p, a, 4096, 64) == SG_ERR_INVAL, "bad prot");
		/* this program's own memory is not the guest's to take */
		{
			unsigned char *mine = aligned_alloc(4096, 8192);

			CHECK(mine != NULL, "aligned_alloc");
			if (mine) {
				memset(mine, 0x5a, 8192);
				uint64_t at = (uint64_t)(uintptr_t)mine;

				CHECK(sg_mem_map(p, &at, 4096, PROT_READ) == SG_ERR_NOMEM,
				      "map over the embedder's heap");
				CHECK(sg_mem_protect(p, (uint64_t)(uintptr_t)mine, 4096, PROT_NONE) ==
				      SG_ERR_NOMEM, "protect of the embedder's heap");
				CHECK(sg_mem_unmap(p, (uint64_t)(uintptr_t)mine, 4096) == SG_OK,
				      "unmap there: nothing of the guest's to do");
				CHECK(sg_mem_read(p, (uint64_t)(uintptr_t)mine, back, 1) == SG_ERR_FAULT,
				      "the embedder's heap through sg_mem_read");
				mine[0] ^= 1; /* still mapped, still writable */
				CHECK(mine[0] == 0x5b && mine[4095] == 0x5a, "the heap page kept");
				free(mine);
			}
		}
		/* the guest runs code written to a page the embedder mapped */
		CHECK(sg_mem_write(p, b, code, sizeof(code)) == SG_OK, "code written (read-only page)");
		CHECK(sg_reg_write(p, SG_REG_RIP, b) == SG_OK, "rip");
		CHECK(sg_run(p, &st) == SG_OK && !st.signaled && st.code == 9,
		      "the mapped code's exit_group(9): signaled %d code %d", st.signaled, st.code);
		sg_destroy(p);

		/* ... and faults where it may not execute, as on NX hardware */
		p = load(apiregs);
		a = 0;
		CHECK(sg_mem_map(p, &a, 4096, PROT_READ | PROT_WRITE) == SG_OK, "map");
		sg_mem_write(p, a, code, sizeof(code));
		sg_reg_write(p, SG_REG_RIP, a);
		CHECK(sg_run(p, &st) == SG_OK && st.signaled && st.signal == SIGSEGV,
		      "no PROT_EXEC: signaled %d signal %d", st.signaled, st.signal);
		sg_destroy(p);
	}

	/* an i386 guest: its memory in the low 4 GiB (32-bit pointers), 8 XMM
	 * registers, 32-bit rip, budget and exit as for the others */
	{
		uint64_t a = 0;
		unsigned char x[16];

		p = load(int80_i386);
		CHECK(sg_process_abi(p) == SG_ABI_I386, "i386 abi");
		CHECK(sg_mem_map(p, &a, 8192, PROT_READ | PROT_WRITE) == SG_OK &&
		      a + 8192 <= (1ull << 32), "i386 map at %#llx", (unsigned long long)a);
		CHECK(sg_reg_read_bytes(p, SG_REG_XMM7, x, 16) == SG_OK, "i386 xmm7");
		CHECK(sg_reg_read_bytes(p, SG_REG_XMM8, x, 16) == SG_ERR_INVAL, "i386 has no xmm8");
		{
			unsigned char y[32];

			CHECK(sg_reg_read_bytes(p, SG_REG_YMM8, y, 32) == SG_ERR_INVAL, "nor ymm8");
		}
		CHECK(sg_run_until(p, 0, 1, &st) == SG_ERR_BUDGET, "i386 budget 1");
		CHECK(sg_reg_read(p, SG_REG_RIP, &v) == SG_OK && v < (1ull << 32), "i386 rip");
		CHECK(sg_run(p, &st) == SG_OK && !st.signaled && st.code == 11, "i386 exit %d", st.code);
		sg_destroy(p);
	}

	/* 6. events: trace_threads.c makes two threads that end by exit, then
	 * returns 0 from main (exit_group) */
	{
		struct events e = { 0 };

		p = load(threads);
		CHECK(sg_hook_event(p, count_event, &e) == SG_OK, "event hook");
		CHECK(sg_run(p, &st) == SG_OK && !st.signaled && st.code == 0, "threads: %d", st.code);
		CHECK(e.n[SG_EVENT_CLONE] == 2 && e.n[SG_EVENT_FORK] == 0 && e.n[SG_EVENT_EXIT] == 2 &&
		      e.n[SG_EVENT_EXIT_GROUP] == 1 && e.n[SG_EVENT_EXEC] == 0 && e.exit_group_value == 0,
		      "threads: clone %d fork %d exit %d exit_group %d exec %d",
		      e.n[SG_EVENT_CLONE], e.n[SG_EVENT_FORK], e.n[SG_EVENT_EXIT],
		      e.n[SG_EVENT_EXIT_GROUP], e.n[SG_EVENT_EXEC]);
		sg_destroy(p);
	}
	/* forkexec.c: one fork (its child _exit(5)s: in the child's copy of
	 * this program, which leaves at once), a failing execve, exit 6 */
	{
		struct events e = { 0 };

		p = load(forkexec);
		sg_hook_event(p, count_event, &e);
		if (sg_run(p, &st) == SG_OK && getpid() != self)
			_exit(st.code); /* the guest's fork child, whose sg_run returns
					 * here too (issue 20): it ends as the guest child */
		CHECK(!st.signaled && st.code == 6, "forkexec: status %d", st.code);
		/* in a process of its own the hooks hold over the guest's
		 * fork: the child's exit_group (5, first: its parent waits
		 * for it) comes here too */
		CHECK(e.n[SG_EVENT_FORK] == 1 && e.fork_id > 0 && e.n[SG_EVENT_CLONE] == 0 &&
		      e.n[SG_EVENT_EXEC] == 1 && !strcmp(e.exec_path, "/nonexistent/prog") &&
		      e.n[SG_EVENT_EXIT_GROUP] == (in_process() ? 1 : 2) && e.exit_group_value == 6,
		      "forkexec: fork %d (id %ld) clone %d exec %d (%s) exit_group %d (%d)",
		      e.n[SG_EVENT_FORK], e.fork_id, e.n[SG_EVENT_CLONE], e.n[SG_EVENT_EXEC],
		      e.exec_path, e.n[SG_EVENT_EXIT_GROUP], e.exit_group_value);
		sg_destroy(p);
	}

	/* a fork a hook answered (with a made-up pid) made no process: no
	 * event; forkexec.c returns 1 when waitpid fails (glibc's fork is
	 * the clone call) */
	{
		static const unsigned clone64[] = { NR64_CLONE };
		struct events e = { 0 };

		p = load(forkexec);
		sg_hook_event(p, count_event, &e);
		sg_hook_syscall_nrs(p, SG_ABI_X64, clone64, 1, SG_HOOK_ON_ENTRY, fake_child, NULL, NULL);
		CHECK(sg_run(p, &st) == SG_OK && !st.signaled && st.code == 1, "fork refused: %d", st.code);
		CHECK(e.n[SG_EVENT_FORK] == 0 && e.n[SG_EVENT_EXIT_GROUP] == 1,
		      "fork refused: fork events %d", e.n[SG_EVENT_FORK]);
		sg_destroy(p);
	}

	/* 7. a program from memory */
	{
		size_t size = 0;
		char *image = read_file(apiregs, &size);
		char *av[] = { "/some/where/apiregs-in-memory", NULL };
		struct sg_region r[256];
		size_t n = 0;
		const struct sg_region *q;

		CHECK(image && size > 64, "read %s", apiregs);
		if (image) {
			CHECK(sg_create(mode_options(), &p) == SG_OK &&
			      sg_load_memory(p, image, size, av, envp) == SG_OK, "load from memory");
			free(image); /* the library has its own copy */
			sg_mem_regions(p, r, 256, &n);
			q = region_of(r, n, start);
			/* a memfd's mapping, as the kernel names it */
			CHECK(q && !strncmp(q->name, "/memfd:apiregs-in-memory", 24),
			      "text region name %s", q ? q->name : "-");
			CHECK(sg_run(p, &st) == SG_OK && st.code == 3, "from memory: exit %d", st.code);
			sg_destroy(p);
		}
		CHECK(sg_create(mode_options(), &p) == SG_OK &&
		      sg_load_memory(p, "#!", 1, av, envp) == SG_ERR_NOEXEC, "one byte: not an ELF");
		CHECK(sg_load_memory(p, "\177ELF\2\1\1", 7, av, envp) != SG_OK, "a truncated ELF");
		sg_destroy(p);
	}

	if (failures)
		return 1;
	fprintf(stderr, "api_more_check: all checks passed\n");
	return 0;
}
