/* The differential tester: the host CPU is the oracle (DESIGN.md, Testing).
 * Each trial runs one generated snippet natively, in a child process of
 * the right mode (difftest-native64 / difftest-native32), and in the
 * interpreter, from the same registers, RFLAGS, FXSAVE state and scratch
 * memory; GPRs, RFLAGS (less what the SDM leaves undefined), XMM, MXCSR,
 * x87 state (x87 snippets), the scratch memory and the fault (signal,
 * address, rip) must agree. The interpreter runs every snippet three
 * times from the same state, each compared with the one native run:
 * cold (cpu_run, freshly decoded), warm (cpu_run again from the decoded
 * code, so the choices made at decode time apply: flag-free twins,
 * fused CMP/TEST+Jcc, chained branches) and step (cpu_step, the table's
 * handlers). Usage:
 *
 *   difftest [--mode 64|32|both] [-n TRIALS] [--seed S] [--strict]
 *            [--log N] [--twin32] [--vex] --native64 PATH --native32 PATH
 *
 * prints every mismatch (up to N per family) with its bytes, input and both
 * outputs, then a per-family table. --strict: exit 1 when an integer
 * family has a mismatch (SIMD/x87 families are reported only; the VEX
 * families avx, avx2, fma and f16c are strict). --vex: every trial a VEX
 * SIMD form (skipped, exit 77, where the host does not run AVX). With the
 * host's AVX state enabled the YMM upper halves are part of the input
 * state and compared too, in every family.
 *
 * Mode 32 runs in the -m32 runner where the host can execute it. Where it
 * cannot (no IA32 emulation, or a hypervisor that gives user space no
 * 32-bit code segment at all), or with --twin32, the oracle is the -m64
 * runner on each trial's long-mode twin (gen_long_twin(): the same
 * instructions as 64-bit code with 32-bit addresses); trials without a
 * twin (stack, branches, BCD, segments) are left out and counted. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>
#include "difftest.h"
#include "gen.h"
#include "../host_cpu.h"
#include "cpu/cpu.h"

#define MAX_FAMILIES 32
#define MAX_STEPS 64

/* The interpreter's runs of each trial, in this order: the cold run
 * decodes (and the decode-time passes look back as each instruction is
 * added), the warm one runs what that left in the cache. */
enum interp_run { RUN_COLD, RUN_WARM, RUN_STEP, RUN_COUNT };
static const char *const run_names[RUN_COUNT] = { "cold", "warm", "step" };

struct fam_stat {
	const char *name;
	bool strict;
	unsigned long trials, mismatches, logged;
	unsigned long run_mismatches[RUN_COUNT];
	unsigned long no_twin; /* mode 32 on twins: trials left out */
};

struct child {
	pid_t pid;
	int to, from;
	const char *path;
};

static struct dt_io *io = (struct dt_io *)DT_IO;
static uint8_t *code_rw;
static int memfd;
static unsigned max_log = 5;
static struct fam_stat fams[MAX_FAMILIES];
static unsigned nfams;
static bool host_amd;
/* The host's AVX state is enabled: YMM upper halves loaded and compared */
static bool host_avx;
/* --vex: only VEX SIMD candidates (families avx, avx2, fma, f16c) */
static bool vex_only;
/* ctest's SKIP_RETURN_CODE: the native runner cannot run on this host */
#define EXIT_SKIP 77

static void die(const char *what)
{
	fprintf(stderr, "difftest: %s: %s\n", what, strerror(errno));
	exit(2);
}

static void map_fixed(uint64_t addr, size_t len, int prot, int flags, int fd, off_t off)
{
	void *p = mmap((void *)(uintptr_t)addr, len, prot, flags | MAP_FIXED_NOREPLACE, fd, off);

	if (p != (void *)(uintptr_t)addr)
		die("mmap at a fixed address");
}

static size_t io_len(void)
{
	return (sizeof(struct dt_io) + DT_PAGE - 1) & ~(size_t)(DT_PAGE - 1);
}

static void setup_memory(void)
{
	memfd = memfd_create("difftest", 0);
	if (memfd < 0 || ftruncate(memfd, DT_PAGE + (off_t)io_len()) < 0)
		die("memfd");
	map_fixed(DT_CODE, DT_PAGE, PROT_READ | PROT_EXEC, MAP_SHARED, memfd, DT_MEMFD_CODE);
	code_rw = mmap(NULL, DT_PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, memfd, DT_MEMFD_CODE);
	if (code_rw == MAP_FAILED)
		die("mmap code");
	map_fixed(DT_IO, io_len(), PROT_READ | PROT_WRITE, MAP_SHARED, memfd, DT_MEMFD_IO);
	/* The interpreter's exit: INT3s where the snippet's trailing JMP goes */
	map_fixed(DT_EXIT, DT_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	memset((void *)(uintptr_t)DT_EXIT, 0xcc, DT_PAGE);
	if (mprotect((void *)(uintptr_t)DT_EXIT, DT_PAGE, PROT_READ | PROT_EXEC) < 0)
		die("mprotect");
	map_fixed(DT_GUARD_LO, DT_DATA - DT_GUARD_LO, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	map_fixed(DT_DATA, DT_DATA_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	map_fixed(DT_GUARD_HI, DT_GUARD_END - DT_GUARD_HI, PROT_NONE,
		  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

static void child_stop(struct child *c)
{
	if (c->pid <= 0)
		return;
	close(c->to);
	close(c->from);
	kill(c->pid, SIGKILL);
	waitpid(c->pid, NULL, 0);
	c->pid = 0;
}

/* Starts the native runner; false (with errno) when it cannot be
 * executed, e.g. an i386 ELF on a kernel without IA32 emulation (ENOEXEC). */
static bool child_start(struct child *c)
{
	int in[2], out[2], err[2], exec_errno = 0;
	char fdarg[16];

	if (pipe(in) < 0 || pipe(out) < 0 || pipe2(err, O_CLOEXEC) < 0)
		die("pipe");
	io->ready = 0;
	c->pid = fork();
	if (c->pid < 0)
		die("fork");
	if (c->pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		close(in[1]);
		close(out[0]);
		close(err[0]);
		snprintf(fdarg, sizeof(fdarg), "%d", memfd);
		execl(c->path, c->path, fdarg, (char *)NULL);
		exec_errno = errno;
		if (write(err[1], &exec_errno, sizeof(exec_errno)) < 0)
			_exit(126);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	close(err[1]);
	c->to = in[1];
	c->from = out[0];
	/* the close-on-exec pipe: EOF when the exec succeeded */
	if (read(err[0], &exec_errno, sizeof(exec_errno)) == (ssize_t)sizeof(exec_errno)) {
		close(err[0]);
		child_stop(c);
		errno = exec_errno;
		return false;
	}
	close(err[0]);
	return true;
}

/* Run the snippet in the child; false if it died or hung (restarted). */
static bool run_native(struct child *c)
{
	struct pollfd p = { .fd = c->from, .events = POLLIN };
	char b = 1;
	int ready = -1;

	if (c->pid <= 0 && !child_start(c))
		die(c->path);
	if (write(c->to, &b, 1) == 1)
		do /* the watchdog's signal (SA_RESTART does not restart poll) */
			ready = poll(&p, 1, 3000);
		while (ready < 0 && errno == EINTR);
	if (ready != 1 || read(c->from, &b, 1) != 1) {
		child_stop(c);
		return false;
	}
	return true;
}

/* ---- the interpreter side ---- */

static void fx_to_cpu(struct cpu *cpu, const uint8_t *fx, bool m64)
{
	uint16_t fsw;
	unsigned top;

	memcpy(&cpu->x87.fcw, fx, 2);
	memcpy(&fsw, fx + 2, 2);
	top = (fsw >> 11) & 7;
	cpu->x87.fsw = fsw & (uint16_t)~0x3800;
	cpu->x87.top = (uint8_t)top;
	cpu->x87.ftw_tags = 0;
	for (unsigned k = 0; k < 8; k++) {
		unsigned phys = (top + k) & 7;
		long double v = 0;

		memcpy(&v, fx + 32 + 16 * k, 10);
		cpu->x87.st[phys] = v;
		if (!(fx[4] >> phys & 1))
			cpu->x87.ftw_tags |= (uint16_t)(3u << (2 * phys));
		else if (v == 0)
			cpu->x87.ftw_tags |= (uint16_t)(1u << (2 * phys));
		else if (!__builtin_isnormal(v))
			cpu->x87.ftw_tags |= (uint16_t)(2u << (2 * phys));
	}
	memcpy(&cpu->mxcsr, fx + 24, 4);
	for (unsigned k = 0; k < (m64 ? 16u : 8u); k++)
		memcpy(&cpu->xmm[k], fx + 160 + 16 * k, 16);
}

static void cpu_to_fx(const struct cpu *cpu, uint8_t *fx)
{
	uint16_t fsw = (uint16_t)((cpu->x87.fsw & ~0x3800) | (cpu->x87.top & 7) << 11);

	memset(fx, 0, 512);
	memcpy(fx, &cpu->x87.fcw, 2);
	memcpy(fx + 2, &fsw, 2);
	for (unsigned k = 0; k < 8; k++) {
		unsigned phys = (cpu->x87.top + k) & 7;

		if (((cpu->x87.ftw_tags >> (2 * phys)) & 3) != 3)
			fx[4] |= (uint8_t)(1u << phys);
		memcpy(fx + 32 + 16 * k, &cpu->x87.st[phys], 10);
	}
	memcpy(fx + 24, &cpu->mxcsr, 4);
	for (unsigned k = 0; k < 16; k++)
		memcpy(fx + 160 + 16 * k, &cpu->xmm[k], 16);
}

struct outcome {
	uint64_t r[16], rflags, rip;
	int sig;
	uint64_t addr;
	uint8_t fx[512];
	uint8_t ymmh[16][16];
	const uint8_t *data;
	const char *note;
};

static int vector_signal(enum cpu_vector v)
{
	switch (v) {
	case VEC_UD: return SIGILL;
	case VEC_DE: case VEC_MF: case VEC_XM: return SIGFPE;
	case VEC_BP: case VEC_DB: return SIGTRAP;
	case VEC_AC: case VEC_SS: return SIGBUS;
	default: return SIGSEGV;
	}
}

/* One CPU for every run: cpu_init keeps its decoded cache, which only the
 * cold run's cpu_invalidate_code drops. */
static struct cpu cpu;

/* A cpu_run that never ends (an interpreter bug: the snippet's own bytes
 * always end at the INT3 after them or at a fault) is stopped by a
 * periodic ITIMER_VIRTUAL tick that finds the same run still going as at
 * the tick before. Virtual time only passes in user mode, so the signal
 * does not interrupt the tester's pipe I/O with the runner. */
static volatile sig_atomic_t in_run;
static volatile unsigned long run_serial;

static void watchdog(int sig)
{
	static unsigned long seen;

	(void)sig;
	if (in_run && run_serial == seen)
		cpu_request_stop(&cpu);
	seen = run_serial;
}

static void watchdog_start(void)
{
	struct sigaction sa = { .sa_handler = watchdog, .sa_flags = SA_RESTART };
	struct itimerval tv = { .it_interval = { 1, 0 }, .it_value = { 1, 0 } };

	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGVTALRM, &sa, NULL) < 0 || setitimer(ITIMER_VIRTUAL, &tv, NULL) < 0)
		die("watchdog timer");
}

/* Runs the trial from its input state. The code page holds the snippet
 * and the JMP to DT_EXIT the native runner takes too (the same bytes: an
 * instruction Capstone decodes shorter than the CPU reads into it); a
 * complete run stops at the INT3 there. */
static void run_interp(const struct trial *t, struct outcome *o, enum interp_run how,
		       uint8_t *data_out)
{
	uint64_t end = DT_CODE + t->len;

	memcpy((void *)(uintptr_t)DT_DATA, t->data, DT_DATA_SIZE);
	if (how == RUN_COLD)
		cpu_invalidate_code(DT_CODE, DT_PAGE);
	cpu_init(&cpu, t->m64 ? CPU_MODE_64 : CPU_MODE_32);
	memcpy(cpu.r, t->r, sizeof(t->r)); /* r[16..17] stay 0 (cpu.h) */
	cpu_set_rflags(&cpu, t->rflags);
	fx_to_cpu(&cpu, t->fx, t->m64);
	/* cpu_init's XCR0 enables AVX; with the host's AVX state off the
	 * trials hold no VEX form (gen.c) and the halves are not compared */
	memcpy(cpu.ymm_hi, t->ymmh, t->m64 ? sizeof(t->ymmh) : sizeof(t->ymmh) / 2);
	cpu.base[SEG_GS] = t->m64 ? DT_GS_BASE : io->gs_base;
	/* the child's selectors: FS/GS 0 in 64-bit mode; glibc's in 32-bit */
	cpu.sel[SEG_FS] = t->m64 ? 0 : (uint16_t)io->scratch[0];
	cpu.sel[SEG_GS] = t->m64 ? 0 : (uint16_t)io->scratch[1];
	if (!t->m64) { /* glibc's TLS descriptor, GDT entry 12 */
		cpu.tls[0].base = (uint32_t)io->gs_base;
		cpu.tls[0].limit = 0xfffff;
		cpu.tls[0].flags = 0x51; /* seg_32bit, limit_in_pages, useable */
		cpu.tls[0].present = true;
	}
	cpu.rip = DT_CODE;
	memset(o, 0, sizeof(*o));
	if (how != RUN_STEP) {
		enum cpu_stop_reason st;

		run_serial++;
		in_run = 1;
		st = cpu_run(&cpu);
		in_run = 0;
		if (st == CPU_STOP_FAULT && cpu.fault.vector == VEC_BP &&
		    cpu.fault.insn_addr == DT_EXIT) {
			cpu.rip = end; /* through the trailing JMP */
		} else if (st == CPU_STOP_FAULT) {
			o->sig = vector_signal(cpu.fault.vector);
			o->addr = cpu.fault.vector == VEC_PF ? cpu.fault.data_addr : 0;
		} else {
			o->note = st == CPU_STOP_REQUEST ? "did not stop (watchdog)"
							 : "stopped (not a fault)";
			o->sig = -1;
		}
	}
	/* steps through the tail too, like cpu_run */
	for (int s = 0; how == RUN_STEP && s < MAX_STEPS && cpu.rip != DT_EXIT; s++) {
		enum cpu_stop_reason st = cpu_step(&cpu);

		if (st == CPU_STOP_FAULT) {
			o->sig = vector_signal(cpu.fault.vector);
			o->addr = cpu.fault.vector == VEC_PF ? cpu.fault.data_addr : 0;
			break;
		}
		if (st != CPU_STOP_NONE) {
			o->note = "stopped (not a fault)";
			o->sig = -1;
			break;
		}
	}
	if (how == RUN_STEP && !o->sig && cpu.rip == DT_EXIT)
		cpu.rip = end;
	if (!o->sig && cpu.rip != end)
		o->note = "did not reach the end";
	memcpy(o->r, cpu.r, sizeof(o->r));
	o->rflags = cpu_get_rflags(&cpu);
	o->rip = cpu.rip;
	cpu_to_fx(&cpu, o->fx);
	memcpy(o->ymmh, cpu.ymm_hi, sizeof(o->ymmh));
	memcpy(data_out, (const void *)(uintptr_t)DT_DATA, DT_DATA_SIZE);
	o->data = data_out;
}

static void native_outcome(const struct trial *t, struct outcome *o)
{
	memset(o, 0, sizeof(*o));
	memcpy(o->r, io->out_r, sizeof(o->r));
	o->rflags = io->out_flags;
	o->sig = (int)io->sig;
	o->rip = io->sig ? io->out_rip : DT_CODE + t->len;
	o->addr = (o->sig == SIGSEGV || o->sig == SIGBUS) ? io->fault_addr : 0;
	memcpy(o->fx, io->out_fx, 512);
	memcpy(o->ymmh, io->out_ymmh, sizeof(o->ymmh));
	o->data = io->out_data;
}

/* ---- comparison and report ---- */

static struct fam_stat *family(const char *name, bool strict)
{
	for (unsigned k = 0; k < nfams; k++)
		if (!strcmp(fams[k].name, name))
			return &fams[k];
	if (nfams == MAX_FAMILIES)
		return &fams[MAX_FAMILIES - 1];
	fams[nfams].name = name;
	fams[nfams].strict = strict;
	return &fams[nfams++];
}

static const char *const rnames[16] = { "rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
					"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15" };

/* Documented vendor differences (docs/cpu.md, "Host vendor and host
 * kernel differences"): sysgate does what Intel does, and on an AMD host
 * the comparator accepts AMD's result by name, only where the rule's
 * condition holds; each acceptance is counted and reported. */
enum vendor_alt {
	ALT_MASKMOV_FIRST_BYTE, /* MASKMOVQ/MASKMOVDQU, VEX masked stores: the first byte */
	ALT_REP_CMP_FLAGS,      /* REP CMPS/SCAS faulting part-way: last iteration's flags */
	ALT_SPLIT_STORE,        /* FSTP m80/FBSTP into an unmapped page: nothing written */
	ALT_PUSH_SREG_ZEXT,     /* 32-bit PUSH Sreg: the slot zero-extended */
	ALT_BOUND_READS_BOTH,   /* BOUND reads both bounds before the check */
	ALT_CMPS_SOURCE_FIRST,  /* CMPS reads DS:rSI before ES:rDI */
	ALT_F16C_FAULT_MXCSR,   /* VCVTPS2PH to memory that faults: MXCSR's flags kept */
	ALT_REP_A32_UPPER,      /* REP string, 32-bit addresses: RCX/RSI/RDI's upper halves */
	ALT_COUNT
};
static const char *const alt_names[ALT_COUNT] = {
	"maskmov-first-byte", "rep-cmp-flags",      "split-store",
	"push-sreg-zext",     "bound-reads-both",   "cmps-source-first",
	"f16c-fault-mxcsr",   "rep-a32-upper",
};
static unsigned long alt_accepted[ALT_COUNT];

static bool regs_equal(const struct outcome *n, const struct outcome *i, unsigned nr,
		       uint64_t rmask)
{
	for (unsigned r = 0; r < nr; r++)
		if ((n->r[r] & rmask) != (i->r[r] & rmask))
			return false;
	return true;
}

/* A fault address among the bytes a masked store may write: MASKMOVQ and
 * MASKMOVDQU's offsets from rDI wrap at the address size (67 with DI
 * 0xfffd: the high chunk at DS:0005), the VEX stores' at the mode's. */
static bool maskmov_in_window(const struct trial *t, uint64_t addr, uint64_t rmask)
{
	uint64_t amask = t->maskmov_amask ? t->maskmov_amask : rmask;

	return ((addr - t->maskmov_ea) & amask & rmask) < t->maskmov_len;
}

/* Differences as text into buf; empty when they agree. *alts gets a bit
 * per vendor alternative that explained a difference. */
static void compare(const struct trial *t, const struct outcome *n, const struct outcome *i,
		    char *buf, size_t cap, unsigned *alts)
{
	size_t u = 0;
	unsigned nr = t->m64 ? 16 : 8;
	uint64_t rmask = t->m64 ? ~0ull : 0xffffffffull;
	uint64_t fmask = 0xcd5 & ~t->flags_undef;
	/* bytes of a 32-bit PUSH Sreg slot AMD zero-fills (the upper half) */
	uint64_t zext_lo = 0, zext_hi = 0;

#define OUT(...) (u += (size_t)snprintf(buf + u, u < cap ? cap - u : 0, __VA_ARGS__))
	bool same_fault = n->sig == i->sig && n->addr == i->addr;
	bool both_segv = n->sig == SIGSEGV && i->sig == SIGSEGV;

	buf[0] = 0;
	*alts = 0;
	if (host_amd && !same_fault && both_segv && t->maskmov_len &&
	    maskmov_in_window(t, n->addr, rmask) && maskmov_in_window(t, i->addr, rmask)) {
		same_fault = true;
		*alts |= 1u << ALT_MASKMOV_FIRST_BYTE;
	}
	/* the interpreter's #BR (SIGSEGV, no address) against AMD's fault on
	 * the upper bound */
	if (host_amd && !same_fault && both_segv && t->bound_sz && i->addr == 0 &&
	    ((n->addr - t->bound_ea) & rmask) - t->bound_sz < t->bound_sz &&
	    regs_equal(n, i, nr, rmask)) {
		same_fault = true;
		*alts |= 1u << ALT_BOUND_READS_BOTH;
	}
	/* the interpreter faults on ES:rDI (read first), AMD on the source */
	if (host_amd && !same_fault && both_segv && t->cmps_di_mask && regs_equal(n, i, nr, rmask) &&
	    i->addr == (i->r[7] & t->cmps_di_mask)) {
		same_fault = true;
		*alts |= 1u << ALT_CMPS_SOURCE_FIRST;
	}
	if (host_amd && t->rep_cmp && n->sig && n->sig == i->sig &&
	    ((n->rflags ^ i->rflags) & fmask & 0x8d5ull)) {
		fmask &= ~0x8d5ull;
		*alts |= 1u << ALT_REP_CMP_FLAGS;
	}
	bool mem_defined = true;
	if (host_amd && t->split_store && n->sig && same_fault &&
	    memcmp(n->data, i->data, DT_DATA_SIZE)) {
		mem_defined = false;
		*alts |= 1u << ALT_SPLIT_STORE;
	}
	if (host_amd && t->push_sreg32 && (n->r[4] & rmask) == (i->r[4] & rmask)) {
		zext_lo = (n->r[4] & rmask) + 2;
		zext_hi = zext_lo + 2;
	}
	if (i->note)
		OUT("  interpreter: %s (rip %#llx)\n", i->note, (unsigned long long)i->rip);
	if (!same_fault)
		OUT("  fault: native sig %d addr %#llx, interpreter sig %d addr %#llx\n", n->sig,
		    (unsigned long long)n->addr, i->sig, (unsigned long long)i->addr);
	if ((n->rip & rmask) != (i->rip & rmask))
		OUT("  rip: native %#llx, interpreter %#llx\n", (unsigned long long)n->rip,
		    (unsigned long long)i->rip);
	for (unsigned r = 0; r < nr; r++) {
		uint64_t m = rmask;

		/* Intel clears them before the first element; AMD: not known */
		if (host_amd && t->rep_a32 && (r == 1 || r == 6 || r == 7) &&
		    ((n->r[r] ^ i->r[r]) & rmask) >> 32 && !(uint32_t)(n->r[r] ^ i->r[r])) {
			m = 0xffffffffull;
			*alts |= 1u << ALT_REP_A32_UPPER;
		}
		if ((n->r[r] & m) != (i->r[r] & m))
			OUT("  %s: native %#llx, interpreter %#llx\n", rnames[r],
			    (unsigned long long)(n->r[r] & rmask), (unsigned long long)(i->r[r] & rmask));
	}
	if ((n->rflags & fmask) != (i->rflags & fmask))
		OUT("  rflags: native %#llx, interpreter %#llx (compared %#llx)\n",
		    (unsigned long long)n->rflags, (unsigned long long)i->rflags,
		    (unsigned long long)fmask);
	uint32_t n_mxcsr, i_mxcsr, mxcsr_mask = ~0u;

	memcpy(&n_mxcsr, n->fx + 24, 4);
	memcpy(&i_mxcsr, i->fx + 24, 4);
	if (host_amd && t->f16c_store && both_segv && same_fault && n_mxcsr != i_mxcsr) {
		mxcsr_mask = ~0x3fu; /* the exception flags */
		if (!((n_mxcsr ^ i_mxcsr) & mxcsr_mask))
			*alts |= 1u << ALT_F16C_FAULT_MXCSR;
	}
	if ((n_mxcsr ^ i_mxcsr) & mxcsr_mask)
		OUT("  mxcsr: native %#x, interpreter %#x\n", n_mxcsr, i_mxcsr);
	for (unsigned k = 0; k < nr; k++)
		if (memcmp(n->fx + 160 + 16 * k, i->fx + 160 + 16 * k, 16))
			OUT("  xmm%u: native %016llx%016llx, interpreter %016llx%016llx\n", k,
			    *(const unsigned long long *)(n->fx + 168 + 16 * k),
			    *(const unsigned long long *)(n->fx + 160 + 16 * k),
			    *(const unsigned long long *)(i->fx + 168 + 16 * k),
			    *(const unsigned long long *)(i->fx + 160 + 16 * k));
	for (unsigned k = 0; host_avx && k < nr; k++)
		if (memcmp(n->ymmh[k], i->ymmh[k], 16))
			OUT("  ymm%u[255:128]: native %016llx%016llx, interpreter %016llx%016llx\n", k,
			    *(const unsigned long long *)(n->ymmh[k] + 8),
			    *(const unsigned long long *)n->ymmh[k],
			    *(const unsigned long long *)(i->ymmh[k] + 8),
			    *(const unsigned long long *)i->ymmh[k]);
	if (t->x87) {
		if (memcmp(n->fx, i->fx, 5))
			OUT("  x87 fcw/fsw/tags: native %04x %04x %02x, interpreter %04x %04x %02x\n",
			    *(const uint16_t *)n->fx, *(const uint16_t *)(n->fx + 2), n->fx[4],
			    *(const uint16_t *)i->fx, *(const uint16_t *)(i->fx + 2), i->fx[4]);
		for (unsigned k = 0; k < 8; k++) {
			unsigned phys = (((*(const uint16_t *)(n->fx + 2)) >> 11) + k) & 7;

			if ((n->fx[4] >> phys & 1) && memcmp(n->fx + 32 + 16 * k, i->fx + 32 + 16 * k, 10))
				OUT("  st%u: native %04x:%016llx, interpreter %04x:%016llx\n", k,
				    *(const uint16_t *)(n->fx + 40 + 16 * k),
				    *(const unsigned long long *)(n->fx + 32 + 16 * k),
				    *(const uint16_t *)(i->fx + 40 + 16 * k),
				    *(const unsigned long long *)(i->fx + 32 + 16 * k));
		}
	}
	for (unsigned k = 0; mem_defined && k < DT_DATA_SIZE; k++) {
		if (DT_DATA + k >= zext_lo && DT_DATA + k < zext_hi && n->data[k] == 0 &&
		    i->data[k] == t->data[k]) {
			if (n->data[k] != i->data[k])
				*alts |= 1u << ALT_PUSH_SREG_ZEXT;
			continue;
		}
		if (n->data[k] != i->data[k]) {
			unsigned lo = k & ~7u;

			OUT("  memory %#x: native %016llx, interpreter %016llx, input %016llx\n",
			    DT_DATA + lo, *(const unsigned long long *)(n->data + lo),
			    *(const unsigned long long *)(i->data + lo),
			    *(const unsigned long long *)(t->data + lo));
			break;
		}
	}
#undef OUT
}

/* diff[k]: run k's differences (empty when it agreed); tags name the
 * runs that disagree, e.g. [warm] or [cold+warm+step]. */
static void log_mismatch(const struct trial *t, const struct long_twin *w, unsigned long idx,
			 char diff[RUN_COUNT][4096])
{
	const char *sep = "";

	printf("MISMATCH [");
	for (unsigned k = 0; k < RUN_COUNT; k++)
		if (diff[k][0]) {
			printf("%s%s", sep, run_names[k]);
			sep = "+";
		}
	printf("] mode %d trial %lu family %s: %s\n  bytes:", t->m64 ? 64 : 32, idx, t->family,
	       t->text);
	for (unsigned k = 0; k < t->len; k++)
		printf(" %02x", t->code[k]);
	if (w) {
		printf("\n  twin (64-bit, run natively):");
		for (unsigned k = 0; k < w->len; k++)
			printf(" %02x", w->code[k]);
	}
	printf("\n  input:");
	for (unsigned r = 0; r < (t->m64 ? 16u : 8u); r++)
		printf(" %s=%llx", rnames[r], (unsigned long long)t->r[r]);
	printf(" rflags=%llx mxcsr=%x\n", (unsigned long long)t->rflags,
	       *(const uint32_t *)(t->fx + 24));
	/* SIMD families: the vector input too (ymm: upper half, then xmm) */
	if (!t->strict || !strcmp(t->family, "avx") || !strcmp(t->family, "avx2") ||
	    !strcmp(t->family, "fma") || !strcmp(t->family, "f16c")) {
		for (unsigned k = 0; k < (t->m64 ? 16u : 8u); k++)
			printf("  ymm%u: %016llx%016llx %016llx%016llx\n", k,
			       *(const unsigned long long *)(t->ymmh[k] + 8),
			       *(const unsigned long long *)t->ymmh[k],
			       *(const unsigned long long *)(t->fx + 168 + 16 * k),
			       *(const unsigned long long *)(t->fx + 160 + 16 * k));
	}
	if (t->r[4] >= DT_DATA && t->r[4] + 16 <= DT_DATA + DT_DATA_SIZE) {
		printf("  stack:");
		for (unsigned k = 0; k < 16; k++)
			printf(" %02x", t->data[t->r[4] - DT_DATA + k]);
		printf("\n");
	}
	for (unsigned k = 0; k < RUN_COUNT; k++) {
		/* the same differences as the run before are not repeated */
		if (!diff[k][0])
			continue;
		printf("  %s run:%s\n", run_names[k],
		       k && !strcmp(diff[k], diff[k - 1]) ? " as above" : "");
		if (!k || strcmp(diff[k], diff[k - 1]))
			fputs(diff[k], stdout);
	}
}

/* The native rip of a twin's fault, as the trial's rip: the start of
 * the same instruction (or the end); left as it is when it is neither. */
static uint64_t twin_rip(const struct long_twin *w, uint64_t rip)
{
	for (unsigned k = 0; k <= w->ninsn; k++)
		if (rip == DT_CODE + w->twin_at[k])
			return DT_CODE + w->at[k];
	return rip;
}

/* Start the runner of this mode: the -m32 one for mode 32 if it can run
 * here, else (*twin set) the -m64 one on long-mode twins. False when
 * none can run. */
static bool start_runner(struct child *c, bool m64, const char *native, const char *native64,
			 bool force_twin, bool *twin)
{
	const char *why = force_twin ? "--twin32" : "no -m32 runner given";

	*twin = false;
	c->path = native;
	if (native && !force_twin) {
		if (child_start(c)) {
			printf("mode %d: runner %s%s\n", m64 ? 64 : 32, native,
			       m64 ? "" : " (a 32-bit process)");
			return true;
		}
		why = errno == ENOEXEC ? "exec: ENOEXEC, the kernel runs no i386 programs here"
				       : strerror(errno);
	}
	if (m64 || !native64) {
		printf("mode %d: SKIPPED: the native runner %s cannot run on this host (%s)\n",
		       m64 ? 64 : 32, native ? native : "(none)", why);
		return false;
	}
	c->path = native64;
	if (!child_start(c)) {
		printf("mode 32: SKIPPED: neither runner can run on this host (%s; %s: %s)\n", why,
		       native64, strerror(errno));
		return false;
	}
	*twin = true;
	printf("mode 32: runner %s on long-mode twins, not %s (%s)\n", native64,
	       native ? native : "a -m32 runner", why);
	return true;
}

/* Returns false when no native runner can run on this host. */
static bool run_mode(bool m64, unsigned long n, uint64_t seed, const char *native,
		     const char *native64, bool force_twin)
{
	struct child c = { 0 };
	struct gen g;
	struct trial t;
	struct long_twin w;
	struct outcome no, in;
	static uint8_t run_data[DT_DATA_SIZE];
	static char diff[RUN_COUNT][4096];
	unsigned long done = 0, attempts = 0, lost = 0;
	bool twin;

	if (gen_init(&g, m64, seed) < 0) {
		fprintf(stderr, "difftest: capstone\n");
		exit(2);
	}
	g.vex_only = vex_only;
	if (vex_only && !g.host_avx) {
		printf("mode %d: SKIPPED: --vex: the host does not run AVX (CPUID.1:ECX "
		       "OSXSAVE/AVX, or XCR0 without SSE|AVX state)\n", m64 ? 64 : 32);
		gen_fini(&g);
		return false;
	}
	if (vex_only) {
		bool fma = g.cpuid1_ecx >> 12 & 1, f16c = g.cpuid1_ecx >> 29 & 1,
		     avx2 = g.cpuid7_ebx >> 5 & 1;

		if (!fma || !f16c || !avx2)
			printf("mode %d: families SKIPPED, not on this host (or not reported):%s%s%s\n",
			       m64 ? 64 : 32, fma ? "" : " fma", f16c ? "" : " f16c",
			       avx2 ? "" : " avx2");
	}
	if (!start_runner(&c, m64, native, native64, force_twin, &twin)) {
		gen_fini(&g);
		return false;
	}
	if (twin && vex_only) {
		/* gen_long_twin() makes none for VEX (C4/C5 are LES/LDS there) */
		printf("mode 32: SKIPPED: --vex: VEX trials have no long-mode twins\n");
		child_stop(&c);
		gen_fini(&g);
		return false;
	}
	while (done < n && attempts < n * 50) {
		attempts++;
		if (!gen_trial(&g, &t))
			continue;
		if (twin) {
			if (!gen_long_twin(&g, &t, &w)) {
				family(t.family, t.strict)->no_twin++;
				continue;
			}
			memcpy(code_rw, w.code, w.len);
			gen_tail(code_rw, w.len);
			/* a 32-bit process has no upper halves; r8..r15 stay 0 */
			memset(io->in_r, 0, sizeof(io->in_r));
			for (unsigned k = 0; k < 8; k++)
				io->in_r[k] = (uint32_t)t.r[k];
		} else {
			memcpy(code_rw, t.code, t.len + DT_TAIL_LEN);
			memcpy(io->in_r, t.r, sizeof(t.r));
		}
		io->in_flags = t.rflags;
		memcpy(io->in_fx, t.fx, 512);
		memcpy(io->in_ymmh, t.ymmh, sizeof(t.ymmh));
		memcpy(io->in_data, t.data, DT_DATA_SIZE);
		if (!run_native(&c)) {
			/* a runner that never answers is a broken host, not a trial */
			if (++lost > 100 && lost * 10 > done) {
				fprintf(stderr, "difftest: mode %d: %lu native runs lost, %lu done\n",
					m64 ? 64 : 32, lost, done);
				exit(2);
			}
			continue;
		}
		native_outcome(&t, &no);
		if (twin) { /* the interpreter runs the trial's own bytes */
			if (no.sig)
				no.rip = twin_rip(&w, io->out_rip);
			memcpy(code_rw, t.code, t.len + DT_TAIL_LEN);
		}
		done++;
		struct fam_stat *f = family(t.family, t.strict);
		bool differs = false;

		f->trials++;
		/* cold, warm, step: nothing touches the code page in between */
		for (unsigned k = 0; k < RUN_COUNT; k++) {
			unsigned alts;

			run_interp(&t, &in, (enum interp_run)k, run_data);
			compare(&t, &no, &in, diff[k], sizeof(diff[k]), &alts);
			for (unsigned a = 0; k == RUN_COLD && a < ALT_COUNT; a++)
				alt_accepted[a] += alts >> a & 1;
			if (diff[k][0]) {
				f->run_mismatches[k]++;
				differs = true;
			}
		}
		if (differs) {
			f->mismatches++;
			if (f->logged++ < max_log)
				log_mismatch(&t, twin ? &w : NULL, done, diff);
		}
	}
	child_stop(&c);
	printf("mode %d: %lu trials, %lu candidates rejected by Capstone, %lu skipped "
	       "(unsafe/undefined), %lu left out for the host (%s%s), %lu native runs lost",
	       m64 ? 64 : 32, done, g.invalid, g.skipped, g.vendor_skipped,
	       g.host_amd ? "AMD" : "not AMD", g.host_compat_cs ? "" : ", no 32-bit code segment",
	       lost);
	if (twin)
		printf(", %lu without a long-mode twin", g.no_twin);
	printf("\n");
	gen_fini(&g);
	return true;
}

static bool report(void)
{
	bool strict_fail = false;

	bool twins = false;

	for (unsigned k = 0; k < nfams; k++)
		twins |= fams[k].no_twin != 0;
	/* mismatch: trials where any run disagreed; then per run */
	printf("%-10s %6s %10s %10s %8s %8s %8s%s\n", "family", "strict", "trials", "mismatch",
	       run_names[RUN_COLD], run_names[RUN_WARM], run_names[RUN_STEP],
	       twins ? "    no twin" : "");
	for (unsigned k = 0; k < nfams; k++) {
		printf("%-10s %6s %10lu %10lu %8lu %8lu %8lu", fams[k].name,
		       fams[k].strict ? "yes" : "no", fams[k].trials, fams[k].mismatches,
		       fams[k].run_mismatches[RUN_COLD], fams[k].run_mismatches[RUN_WARM],
		       fams[k].run_mismatches[RUN_STEP]);
		if (twins)
			printf(" %10lu", fams[k].no_twin);
		printf("\n");
		if (fams[k].strict && fams[k].mismatches)
			strict_fail = true;
	}
	bool any = false;

	for (unsigned a = 0; a < ALT_COUNT; a++)
		if (alt_accepted[a]) {
			printf("%s%s %lu", any ? ", " : "vendor alternatives accepted (docs/cpu.md): ",
			       alt_names[a], alt_accepted[a]);
			any = true;
		}
	if (any)
		printf("\n");
	return strict_fail;
}

int main(int argc, char **argv)
{
	const char *mode = "both", *n64 = NULL, *n32 = NULL;
	unsigned long n = 1000;
	uint64_t seed = 1;
	bool strict = false, force_twin = false;

	for (int k = 1; k < argc; k++) {
		if (!strcmp(argv[k], "--mode") && k + 1 < argc)
			mode = argv[++k];
		else if (!strcmp(argv[k], "-n") && k + 1 < argc)
			n = strtoul(argv[++k], NULL, 0);
		else if (!strcmp(argv[k], "--seed") && k + 1 < argc)
			seed = strtoull(argv[++k], NULL, 0);
		else if (!strcmp(argv[k], "--log") && k + 1 < argc)
			max_log = (unsigned)strtoul(argv[++k], NULL, 0);
		else if (!strcmp(argv[k], "--native64") && k + 1 < argc)
			n64 = argv[++k];
		else if (!strcmp(argv[k], "--native32") && k + 1 < argc)
			n32 = argv[++k];
		else if (!strcmp(argv[k], "--strict"))
			strict = true;
		else if (!strcmp(argv[k], "--twin32"))
			force_twin = true;
		else if (!strcmp(argv[k], "--vex"))
			vex_only = true;
		else {
			fprintf(stderr, "usage: difftest [--mode 64|32|both] [-n N] [--seed S] "
					"[--log N] [--strict] [--twin32] [--vex] --native64 P --native32 P\n");
			return 2;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGPIPE, SIG_IGN);
	host_amd = host_cpu_is_amd();
	host_avx = host_has_avx_state();
	setup_memory();
	io->avx = host_avx;
	cpu_install_fault_handler();
	watchdog_start();
	bool ran = false;
	if (strcmp(mode, "32") && n64)
		ran |= run_mode(true, n, seed, n64, n64, false);
	if (strcmp(mode, "64") && (n32 || n64))
		ran |= run_mode(false, n, seed, n32, n64, force_twin);
	if (!ran)
		return EXIT_SKIP;
	return report() && strict ? 1 : 0;
}
