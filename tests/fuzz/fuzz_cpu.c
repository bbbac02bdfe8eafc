/* libFuzzer target: decode and execute arbitrary bytes from an arbitrary
 * CPU state. No crash, hang or sanitizer report is allowed.
 *
 * Input: byte 0 picks the mode (bit 0: 64-bit) and, in 32-bit mode, how
 * the code runs (bit 1); the rest is code, copied into a sandbox page.
 * Step mode (64-bit, or bit 1 clear) single-steps with cpu_step, which
 * runs the table's handlers, under the same kind of timer as run mode
 * (STEP_CPU_NS for all its steps: one REP string instruction may have
 * ~2^32 elements, which yield to the stop request as to a signal). Run
 * mode (32-bit with bit 1) runs the code with cpu_run twice from the same state and memory: cold (decoded as it
 * runs) and warm (from the decoded code: the fast exec forms, flag-free
 * twins, fused CMP/TEST+Jcc and chained branches that only run from the
 * cache). Every 32-bit address wraps below 4 GiB, so the sandbox holds
 * for a whole cpu_run; a thread CPU-time timer (RUN_CPU_NS) stops a run
 * with cpu_request_stop, so loops end (the state a timed-out run reaches
 * depends on timing; only crashes and reports count). A far transfer to
 * CS 0x33 would switch a run to 64-bit mode, outside that guarantee:
 * nothing after such a switch can be bounded, so its warm run is skipped
 * (see docs/cpu.md, Fuzzing). The GPRs and RFLAGS come
 * from a generator seeded with a hash of the whole input, so short inputs
 * already execute their own bytes (a state-first layout kept libFuzzer's
 * short early inputs from ever reaching the code). The sandbox: the guest can only reach
 * addresses below SANDBOX_LIMIT, which hold nothing but the sandbox pages
 * (reserved PROT_NONE around them; under ASan the low shadow that lives in
 * that range is made read-only). 64-bit mode keeps every GPR and RIP below
 * 4 GiB before each instruction, so base + index * 8 + disp stays below
 * 64 GiB, which is reserved (or ASan's protected shadow gap). */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "cpu/cpu.h"
#include "mm/mm.h" /* SG_ASAN */

#define SANDBOX 0x40000000ull       /* code page, then data pages */
#define SANDBOX_SIZE 0x20000ull
#define CODE_MAX 4096
#define STEPS_MAX 4000
#define RUN_CPU_NS 2000000ll         /* per cpu_run pass (ticks: a few ms) */
#define STEP_CPU_NS 50000000ll       /* per step-mode input */
#define RUN_SYSCALLS_MAX 64          /* SYSCALL/INT 80h stops per pass */
#define SEL_64 0x01                  /* byte 0 */
#define SEL_RUN 0x02
#define LIMIT_64 (64ull << 30)


static uint8_t *box;
static struct cpu cpu;
static uint8_t code_image[CODE_MAX]; /* the sandbox's first page at the start */
static const uint8_t zero_page[4096];

/* The run timer: the fuzzing thread's CPU time, signalled to that thread
 * (SIGEV_THREAD_ID, raw syscalls: no librt), so the handler interrupts
 * only cpu_run, never another thread. in_run: a late tick between runs
 * leaves nothing behind (cpu_init clears stop_requested anyway). */
static int run_timer = -1;
static volatile sig_atomic_t in_run, timed_out;

static void run_timeout(int sig)
{
	(void)sig;
	if (in_run) {
		timed_out = 1;
		cpu_request_stop(&cpu);
	}
}

static void run_timer_init(void)
{
	struct sigaction sa = { .sa_handler = run_timeout, .sa_flags = SA_RESTART };
	struct sigevent ev;

	memset(&ev, 0, sizeof(ev));
	ev.sigev_notify = SIGEV_THREAD_ID;
	ev.sigev_signo = SIGVTALRM;
	ev._sigev_un._tid = (pid_t)syscall(SYS_gettid);
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGVTALRM, &sa, NULL) < 0 ||
	    syscall(SYS_timer_create, CLOCK_THREAD_CPUTIME_ID, &ev, &run_timer) < 0) {
		perror("fuzz_cpu: run timer");
		abort();
	}
}

static void run_timer_set(long long ns)
{
	struct itimerspec t = { .it_value = { (time_t)(ns / 1000000000), (long)(ns % 1000000000) } };

	syscall(SYS_timer_settime, run_timer, 0, &t, NULL);
}

/* The timer armed for ns of CPU time around the runs or steps of an input. */
static void timed_begin(long long ns)
{
	timed_out = 0;
	run_timer_set(ns);
	in_run = 1;
}

static void timed_end(void)
{
	in_run = 0;
	run_timer_set(0);
}

/* Reserve [lo, hi) PROT_NONE where nothing is mapped yet, in chunks so a
 * taken chunk (the program's own low mappings) is simply skipped. */
static void reserve(uint64_t lo, uint64_t hi)
{
	for (uint64_t a = lo; a < hi; a += 1ull << 24) {
		uint64_t n = hi - a < (1ull << 24) ? hi - a : 1ull << 24;

		mmap((void *)(uintptr_t)a, n, PROT_NONE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
	}
}

static void sandbox_init(void)
{
	box = mmap((void *)(uintptr_t)SANDBOX, SANDBOX_SIZE, PROT_READ | PROT_WRITE | PROT_EXEC,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (box != (void *)(uintptr_t)SANDBOX) {
		fprintf(stderr, "fuzz_cpu: cannot map the sandbox\n");
		abort();
	}
#ifdef SG_ASAN
	/* Low shadow [0x7fff8000, 0x8fff7000): only the sanitizer writes it,
	 * and only for low-memory objects, of which there are none. */
	mprotect((void *)0x7fff8000ull, 0x8fff7000ull - 0x7fff8000ull, PROT_READ);
#endif
	reserve(0x10000, LIMIT_64);
	cpu_install_fault_handler();
	run_timer_init();
}

static uint64_t next_rand(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* The input state: GPRs, RFLAGS and XMM from the generator seeded with h.
 * cpu_init keeps the decoded cache. */
static void set_state(bool m64, uint64_t h)
{
	cpu_init(&cpu, m64 ? CPU_MODE_64 : CPU_MODE_32);
	for (int r = 0; r < 16; r++) {
		uint64_t v = next_rand(&h);

		/* Many inputs point a register into the sandbox. */
		cpu.r[r] = (v & 0x80000000u) ? SANDBOX + (v & (SANDBOX_SIZE - 1)) : (v & 0xffffffff);
	}
	cpu_set_rflags(&cpu, 0x202 | (next_rand(&h) & 0xcd5));
	for (int x = 0; x < 16; x++)
		for (int q = 0; q < 2; q++)
			cpu.xmm[x].q[q] = next_rand(&h);
	cpu.rip = SANDBOX;
}

/* Put back the sandbox pages a run changed; the decoded code of a page
 * the harness rewrites behind the CPU's back must go too. */
static void sandbox_restore(void)
{
	for (uint64_t off = 0; off < SANDBOX_SIZE; off += 4096) {
		const uint8_t *want = off < CODE_MAX ? code_image + off : zero_page;

		if (memcmp(box + off, want, 4096)) {
			memcpy(box + off, want, 4096);
			cpu_invalidate_code(SANDBOX + off, 4096);
		}
	}
}

static void run_timed(void)
{
	timed_begin(RUN_CPU_NS);
	for (int n = 0; n < RUN_SYSCALLS_MAX; n++) {
		if (cpu_run(&cpu) != CPU_STOP_SYSCALL)
			break;
		cpu.r[0] = (uint32_t)-38; /* -ENOSYS, and go on */
	}
	timed_end();
}

/* Cold, then warm: nothing between the two drops the decoded code but
 * the restore of pages the cold run wrote (self-modifying inputs). */
static void run_twice(uint64_t h)
{
	set_state(false, h);
	run_timed();
	if (cpu.mode != CPU_MODE_32)
		return; /* switched to 64-bit mode: not bounded by the sandbox */
	sandbox_restore();
	set_state(false, h);
	run_timed();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	bool m64;
	unsigned sel;

	if (!box)
		sandbox_init();
	if (size < 1)
		return 0;
	uint64_t h = 1469598103934665603ull;

	for (size_t k = 0; k < size; k++)
		h = (h ^ data[k]) * 1099511628211ull;
	h |= 1;
	sel = data[0];
	data++, size--;
	m64 = sel & SEL_64;
	memset(box, 0, SANDBOX_SIZE); /* deterministic data */
	memset(code_image, 0xcc, CODE_MAX); /* INT3 after the code */
	if (size)
		memcpy(code_image, data, size < CODE_MAX ? size : CODE_MAX);
	memcpy(box, code_image, CODE_MAX);
	cpu_release(&cpu);
	cpu_invalidate_code(SANDBOX, SANDBOX_SIZE);
	if (!m64 && (sel & SEL_RUN)) {
		run_twice(h);
		return 0;
	}
	set_state(m64, h);
	timed_begin(STEP_CPU_NS);
	for (int s = 0; s < STEPS_MAX && !timed_out; s++) {
		/* the current mode: a 32-bit input may far-jump to CS 0x33 */
		if (cpu.mode == CPU_MODE_64) {
			for (int r = 0; r < 16; r++)
				cpu.r[r] = (uint32_t)cpu.r[r];
			cpu.rip = (uint32_t)cpu.rip;
			cpu.base[SEG_FS] = (uint32_t)cpu.base[SEG_FS];
			cpu.base[SEG_GS] = (uint32_t)cpu.base[SEG_GS];
		}
		if (cpu_step(&cpu) != CPU_STOP_NONE) {
			if (cpu.stop != CPU_STOP_SYSCALL)
				break;
			cpu.r[0] = (uint64_t)-38; /* -ENOSYS, and go on */
		}
	}
	timed_end();
	return 0;
}
