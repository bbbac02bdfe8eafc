/* Fuzzing system call arguments: one guest process (a tiny asm program of
 * the ABI in SG_FUZZ_ABI: i386, x32 or x86_64; default x86_64) whose entry
 * instruction is made a system call instruction, then per input: a call
 * from an allow-list of calls that only touch the calling process (no
 * exit, no signals, no file-system changes, no limits, nothing that
 * blocks or changes the harness's signal handling), its
 * arguments from the input as its row's argument kinds say: descriptors
 * from a fixed set the harness opened, pointers from a set of places —
 * NULL, unmapped, the guest's read-only text, its stack (also the last
 * bytes before its end), sysgate's own memory (a canary buffer of this
 * harness), a kernel address, anything — and numbers as they come. One
 * sg_step runs it. An input whose first byte is 0 mod 4 runs a guest store
 * instead (mov, rep stosb, xchg, lock cmpxchg, push, movups, fxsave; each
 * placed in the guest's text by the harness) to a pointer of the same set,
 * with a guest SIGSEGV handler on an alternate stack (set up through the
 * guest's own rt_sigaction and sigaltstack): a store aimed at sysgate's
 * memory must raise SIGSEGV in the guest (rip at the handler). What must
 * hold: no crash, no sanitizer report, and the canary unchanged (sysgate
 * never writes outside guest memory, for the guest or as the guest).
 * Built with SG_FUZZ (tests/fuzz/CMakeLists.txt); the guest programs
 * (nasm) come from SG_FUZZ_GUEST_DIR, else the build's guest/. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sysgate.h"
#include "syscall/syscall.h"
#include "syscall/table.h"

#ifndef SG_FUZZ_GUEST_DIR
#error "SG_FUZZ_GUEST_DIR: the build's guest/ directory"
#endif

/* Calls whose effects stay inside the calling process and its own
 * descriptors (the harness's), whatever the arguments. */
static const char *const allowed[] = {
	"read", "write", "pread64", "pwrite64", "readv", "writev", "preadv",
	"pwritev", "uname", "olduname", "getcwd", "clock_gettime",
	"clock_gettime64", "clock_getres", "clock_getres_time64", "gettimeofday",
	"time", "times", "sysinfo", "getrusage", "getrandom", "fstat", "fstat64",
	"newfstatat", "fstatat64", "stat", "lstat", "stat64", "lstat64", "statx",
	"oldstat", "oldlstat", "oldfstat", "access", "faccessat", "faccessat2",
	"readlink", "readlinkat", "getdents", "getdents64", "readdir",
	"rt_sigpending", "sigpending", "sched_getaffinity", "getresuid",
	"getresgid", "getresuid32", "getresgid32", "getgroups", "getgroups32",
	"getitimer", "getrlimit", "ugetrlimit", "old_getrlimit", "lseek",
	"_llseek", "mincore", "getpid", "gettid", "sched_getparam",
	"sched_getscheduler", "sched_rr_get_interval",
	"sched_rr_get_interval_time64", "capget", "get_robust_list", "fstatfs",
	"fstatfs64", "statfs", "statfs64", "ustat", "getxattr", "lgetxattr",
	"fgetxattr", "listxattr", "llistxattr", "flistxattr", "getpeername",
	"getsockname", "getsockopt", "recvfrom", "recvmsg", "sendto", "sendmsg",
	"name_to_handle_at", "ioprio_get", "get_mempolicy", "getcpu",
	"timer_gettime", "timerfd_gettime", "newuname", "set_tid_address", "brk",
};

static sg_process *proc;
static enum sg_table table;
static uint64_t entry, stack_lo, stack_hi, text, stack_top;

/* Guest store instructions, one per 16 bytes of text after the entry:
 * 64-bit forms (x86_64, x32) and 32-bit ones (i386). Registers: the
 * destination in rDI (rSP for PUSH), the value in rSI, the count in rCX. */
#define STORE_SLOT(k) (entry + 16 * ((k) + 1))
static const struct { uint8_t b64[6], n64, b32[6], n32; } stores[] = {
	{ { 0x48, 0x89, 0x37 }, 3, { 0x89, 0x37 }, 2 },                   /* mov [rdi], rsi */
	{ { 0xf3, 0xaa }, 2, { 0xf3, 0xaa }, 2 },                         /* rep stosb */
	{ { 0x48, 0x87, 0x37 }, 3, { 0x87, 0x37 }, 2 },                   /* xchg [rdi], rsi */
	{ { 0xf0, 0x48, 0x0f, 0xb1, 0x37 }, 5, { 0xf0, 0x0f, 0xb1, 0x37 }, 4 }, /* lock cmpxchg */
	{ { 0x56 }, 1, { 0x56 }, 1 },                                     /* push rsi */
	{ { 0x0f, 0x11, 0x07 }, 3, { 0x0f, 0x11, 0x07 }, 3 },             /* movups [rdi], xmm0 */
	{ { 0x0f, 0xae, 0x07 }, 3, { 0x0f, 0xae, 0x07 }, 3 },             /* fxsave [rdi] */
};
#define NSTORES (sizeof(stores) / sizeof(stores[0]))
#define ALTSTACK_SIZE 65536
static int fds[5];
static uint8_t canary[8192];
static unsigned nr_list[512];
static unsigned nr_count;

static uint64_t reg_of(enum sg_reg r)
{
	uint64_t v = 0;

	sg_reg_read(proc, r, &v);
	return v;
}

/* One system call of the guest's own, through the entry instruction. */
static uint64_t guest_call(unsigned nr64, unsigned nr32, uint64_t a0, uint64_t a1, uint64_t a2,
			   uint64_t a3)
{
	static const enum sg_reg r64[4] = { SG_REG_RDI, SG_REG_RSI, SG_REG_RDX, SG_REG_R10 };
	static const enum sg_reg r32[4] = { SG_REG_RBX, SG_REG_RCX, SG_REG_RDX, SG_REG_RSI };
	uint64_t a[4] = { a0, a1, a2, a3 };
	struct sg_exit st;

	for (unsigned k = 0; k < 4; k++)
		sg_reg_write(proc, table == SG_TABLE_I386 ? r32[k] : r64[k], a[k]);
	sg_reg_write(proc, SG_REG_RAX, table == SG_TABLE_I386 ? nr32 :
			   table == SG_TABLE_X32 ? (nr32 | 0x40000000u) : nr64);
	sg_reg_write(proc, SG_REG_RIP, entry);
	if (sg_step(proc, &st) != SG_OK)
		abort();
	return reg_of(SG_REG_RAX);
}

/* The guest's SIGSEGV handler (at the entry: never run, the next input
 * moves rip), SA_NODEFER, on an alternate stack at the bottom of the
 * fuzzed stack range, so that a fault with rSP anywhere is delivered.
 * rt_sigaction: x86_64 13 (8-byte fields), i386 174 and x32 512 (the
 * compat layout: 4-byte handler, flags, restorer, then the 8-byte mask);
 * sigaltstack: x86_64 131, i386 186, x32 525. */
static void guest_fault_handler(void)
{
	const uint64_t sa_flags = 0x40000000 | 0x08000000 | 0x04000000; /* NODEFER ONSTACK RESTORER */
	uint64_t act = stack_lo + ALTSTACK_SIZE, ss = act + 64;
	uint8_t buf[32] = { 0 };
	long r;

	if (table == SG_TABLE_X64) {
		memcpy(buf, &entry, 8);
		memcpy(buf + 8, &sa_flags, 8);
		memcpy(buf + 16, &entry, 8);
	} else {
		uint32_t h = (uint32_t)entry, f = (uint32_t)sa_flags;

		memcpy(buf, &h, 4);
		memcpy(buf + 4, &f, 4);
		memcpy(buf + 8, &h, 4);
	}
	sg_mem_write(proc, act, buf, sizeof(buf));
	r = (long)guest_call(13, table == SG_TABLE_X32 ? 512 : 174, 11, act, 0, 8);
	memset(buf, 0, sizeof(buf)); /* stack_t: sp, flags, size */
	if (table == SG_TABLE_X64) {
		uint64_t sp = stack_lo, size = ALTSTACK_SIZE;

		memcpy(buf, &sp, 8);
		memcpy(buf + 16, &size, 8);
	} else {
		uint32_t sp = (uint32_t)stack_lo, size = ALTSTACK_SIZE;

		memcpy(buf, &sp, 4);
		memcpy(buf + 8, &size, 4);
	}
	sg_mem_write(proc, ss, buf, sizeof(buf));
	if (r != 0 || guest_call(131, table == SG_TABLE_X32 ? 525 : 186, ss, 0, 0, 0) != 0) {
		fprintf(stderr, "fuzz_syscall: the guest's SIGSEGV handler: %ld\n", r);
		abort();
	}
	for (unsigned k = 0; k < NSTORES; k++) {
		if (table == SG_TABLE_I386)
			sg_mem_write(proc, STORE_SLOT(k), stores[k].b32, stores[k].n32);
		else
			sg_mem_write(proc, STORE_SLOT(k), stores[k].b64, stores[k].n64);
	}
}

static void setup(void)
{
	static char *const argv[] = { "fuzzed", NULL };
	static char *const envp[] = { NULL };
	const char *abi = getenv("SG_FUZZ_ABI");
	const char *dir = getenv("SG_FUZZ_GUEST_DIR"); /* else the build's */
	const char *name = "probe-int80-x86_64";
	char prog[4096];
	static const uint8_t syscall_insn[] = { 0x0f, 0x05 }, int80[] = { 0xcd, 0x80 };
	const struct sg_syscall_table *t;
	struct sg_options o;
	enum sg_err err;
	int pfd[2];

	table = SG_TABLE_X64;
	if (abi && strcmp(abi, "i386") == 0) {
		table = SG_TABLE_I386;
		name = "probe-i386";
	} else if (abi && strcmp(abi, "x32") == 0) {
		table = SG_TABLE_X32;
		name = "entry-x32";
	}
	snprintf(prog, sizeof(prog), "%s/%s", dir ? dir : SG_FUZZ_GUEST_DIR, name);
	sg_options_init(&o);
	o.no_aslr = 1;
	/* the guest's calls land in this process: its descriptors (fds[])
	 * and memory (the canary) are the ones checked */
	o.mode = SG_MODE_IN_PROCESS;
	err = sg_create(&o, &proc);
	if (err == SG_OK)
		err = sg_load(proc, prog, argv, envp);
	if (err != SG_OK) {
		fprintf(stderr, "fuzz_syscall: %s: %s\n", prog, sg_strerror(err));
		abort();
	}
	entry = text = reg_of(SG_REG_RIP);
	stack_hi = (reg_of(SG_REG_RSP) | 0xfff) + 1;
	stack_lo = stack_hi - (1u << 20);
	if (table == SG_TABLE_I386)
		sg_mem_write(proc, entry, int80, sizeof(int80));
	else
		sg_mem_write(proc, entry, syscall_insn, sizeof(syscall_insn));
	fds[0] = open("/dev/zero", O_RDWR | O_CLOEXEC);
	fds[1] = open("/dev/null", O_RDWR | O_CLOEXEC);
	fds[2] = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (pipe2(pfd, O_CLOEXEC | O_NONBLOCK))
		abort();
	fds[3] = pfd[0];
	fds[4] = pfd[1];
	memset(canary, 0xa5, sizeof(canary));
	stack_top = reg_of(SG_REG_RSP);
	guest_fault_handler();
	t = sg_syscall_table(table);
	for (unsigned nr = 0; nr < t->size && nr_count < 512; nr++)
		for (unsigned k = 0; t->rows[nr].name[0] && k < sizeof(allowed) / sizeof(allowed[0]); k++)
			if (strcmp(t->rows[nr].name, allowed[k]) == 0) {
				nr_list[nr_count++] = nr;
				break;
			}
}

struct input {
	const uint8_t *p;
	size_t n;
};

static uint64_t take(struct input *in, unsigned bytes)
{
	uint64_t v = 0;

	for (unsigned k = 0; k < bytes && in->n; k++, in->p++, in->n--)
		v |= (uint64_t)*in->p << (8 * k);
	return v;
}

static uint64_t pointer(struct input *in)
{
	unsigned kind = (unsigned)take(in, 1);
	uint64_t off = take(in, 2);

	switch (kind % 9) {
	case 0: return 0;
	case 1: return 0x10000 + off;                      /* unmapped */
	case 2: return text + (off & 0xfff);               /* guest, read-only */
	case 3: return stack_lo + ((off << 4) % (stack_hi - stack_lo)); /* guest */
	case 4: return stack_hi - 1 - (off & 63);          /* runs off its end */
	case 5: return (uint64_t)(uintptr_t)canary + (off % sizeof(canary)); /* sysgate's */
	case 6: return 0xffff800000000000ull + off;        /* kernel half */
	case 7: return (uint64_t)(uintptr_t)&proc;         /* sysgate's data */
	default: return take(in, 8);
	}
}

static void check_canary(const char *what)
{
	for (size_t k = 0; k < sizeof(canary); k++)
		if (canary[k] != 0xa5) {
			fprintf(stderr, "fuzz_syscall: %s wrote sysgate's memory at +%zu\n", what, k);
			abort();
		}
}

/* One guest store instruction to a pointer of the set. */
static int guest_store(struct input *in)
{
	unsigned k = (unsigned)(take(in, 1) >> 2) % NSTORES;
	uint64_t dst = pointer(in), v = take(in, 8), n = take(in, 1) % 64;
	uint64_t host_lo = (uint64_t)(uintptr_t)canary, host_hi = host_lo + sizeof(canary);
	bool is_push = k == 4;
	uint64_t first = is_push ? dst - (table == SG_TABLE_I386 ? 4 : 8) : dst;
	struct sg_exit st;

	if (table == SG_TABLE_I386)
		dst = (uint32_t)dst;
	sg_reg_write(proc, SG_REG_RDI, dst);
	sg_reg_write(proc, SG_REG_RSI, v);
	sg_reg_write(proc, SG_REG_RCX, n);
	sg_reg_write(proc, SG_REG_RSP, is_push ? dst : stack_top);
	sg_reg_write(proc, SG_REG_RIP, STORE_SLOT(k));
	if (sg_step(proc, &st) != SG_OK)
		abort(); /* the guest died of a store it had a handler for */
	check_canary("a guest store");
	/* the canary's first byte, by a store the guest could not see fail */
	if (table != SG_TABLE_I386 && first >= host_lo && first < host_hi &&
	    (k != 1 || n != 0) /* REP STOSB with rCX 0 stores nothing */ &&
	    reg_of(SG_REG_RIP) != entry) {
		fprintf(stderr, "fuzz_syscall: a store into sysgate's memory raised nothing\n");
		abort();
	}
	sg_reg_write(proc, SG_REG_RSP, stack_top);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum sg_reg regs64[6] = { SG_REG_RDI, SG_REG_RSI, SG_REG_RDX,
					       SG_REG_R10, SG_REG_R8, SG_REG_R9 };
	static const enum sg_reg regs32[6] = { SG_REG_RBX, SG_REG_RCX, SG_REG_RDX,
					       SG_REG_RSI, SG_REG_RDI, SG_REG_RBP };
	struct input in = { data, size };
	const struct systab_sig *sig;
	struct sg_exit st;
	unsigned nr;

	if (!proc)
		setup();
	if (size < 2 || !nr_count)
		return 0;
	if (data[0] % 4 == 0)
		return guest_store(&in);
	nr = nr_list[take(&in, 2) % nr_count];
	sig = systab_sig(table, nr);
	for (unsigned a = 0; a < 6; a++) {
		unsigned kind = sig ? sig->arg[a] : SYSTAB_ARG_LONG;
		uint64_t v;

		switch (kind) {
		case SYSTAB_ARG_FD:
		case SYSTAB_ARG_DIRFD:
			v = (uint64_t)(int64_t)(take(&in, 1) % 8 < 5 ? fds[take(&in, 1) % 5] : -1);
			break;
		case SYSTAB_ARG_PTR:
		case SYSTAB_ARG_STR:
		case SYSTAB_ARG_IBUF:
		case SYSTAB_ARG_OBUF:
			v = pointer(&in);
			break;
		case SYSTAB_ARG_SIZE:
			v = take(&in, 3); /* up to 16 MiB */
			break;
		default:
			v = take(&in, 8);
		}
		sg_reg_write(proc, table == SG_TABLE_I386 ? regs32[a] : regs64[a], v);
	}
	sg_reg_write(proc, SG_REG_RAX, nr | (table == SG_TABLE_X32 ? 0x40000000u : 0));
	sg_reg_write(proc, SG_REG_RIP, entry);
	if (sg_step(proc, &st) != SG_OK)
		abort(); /* an allowed call ended the guest */
	check_canary(sg_syscall_table(table)->rows[nr].name);
	return 0;
}
