/* src/signal: x86_64's sigcontext (generated from the uapi header) against
 * glibc's struct sigcontext, siginfo narrowing against the uapi si_*
 * offsets for i386/x32 (gen/signal_layout_ref.h), and whole frames built and taken back by
 * rt_sigreturn/sigreturn for every ABI. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <cmocka.h>

#include "signal_layout_ref.h"
#include "signal/frame.h"
#include "syscall/compat/sigframe_layout.h"
#include "syscall/syscall.h"

long sys_rt_sigreturn(struct sg_thread *t, const uint64_t *a);
long compat_sys_x32_rt_sigreturn(struct sg_thread *t, const uint64_t *a);
long compat_sys_rt_sigreturn(struct sg_thread *t, const uint64_t *a);
long sys_sigreturn(struct sg_thread *t, const uint64_t *a);

/* --- layouts -------------------------------------------------------------- */

static void test_sigcontext64_layout(void **state)
{
	(void)state;
	assert_int_equal(sizeof(struct sc64), sizeof(struct sigcontext));
	assert_int_equal(offsetof(struct sc64, rip), offsetof(struct sigcontext, rip));
	assert_int_equal(offsetof(struct sc64, eflags), offsetof(struct sigcontext, eflags));
	assert_int_equal(offsetof(struct sc64, cs), offsetof(struct sigcontext, cs));
	assert_int_equal(offsetof(struct sc64, ss), offsetof(struct sigcontext, __pad0));
	assert_int_equal(offsetof(struct sc64, err), offsetof(struct sigcontext, err));
	assert_int_equal(offsetof(struct sc64, trapno), offsetof(struct sigcontext, trapno));
	assert_int_equal(offsetof(struct sc64, oldmask), offsetof(struct sigcontext, oldmask));
	assert_int_equal(offsetof(struct sc64, cr2), offsetof(struct sigcontext, cr2));
	assert_int_equal(offsetof(struct sc64, fpstate), offsetof(struct sigcontext, fpstate));
}

static void test_sigcontext32_layout(void **state)
{
	(void)state;
#ifdef REF_SIG_I386
	/* sc32 and the FP state's size are generated from the uapi headers
	 * (layouts.in); fpstate.c's FSAVE_HDR: the fsave header ends where
	 * _fxsr_env starts */
	assert_int_equal(REF_SIG_I386_FPSTATE32_FXSR_ENV, 112);
#else
	skip();
#endif
}

/* --- siginfo ---------------------------------------------------------------- */

static uint32_t at32(const uint8_t *p, size_t off)
{
	uint32_t v;

	memcpy(&v, p + off, 4);
	return v;
}

static uint64_t at64(const uint8_t *p, size_t off)
{
	uint64_t v;

	memcpy(&v, p + off, 8);
	return v;
}

static void check_compat_siginfo(enum sg_abi l, size_t pid, size_t uid, size_t status,
				 size_t utime, size_t stime, size_t value, size_t addr,
				 size_t band, size_t fd, bool wide_clock)
{
	siginfo_t si, back;
	uint8_t out[128];

	memset(&si, 0, sizeof(si));
	si.si_signo = SIGCHLD;
	si.si_code = CLD_EXITED;
	si.si_pid = 1234;
	si.si_uid = 1000;
	si.si_status = 7;
	si.si_utime = 0x123456789ll;
	si.si_stime = 55;
	siginfo_to_guest(&si, l, out);
	assert_int_equal(at32(out, 0), SIGCHLD);
	assert_int_equal(at32(out, 8), CLD_EXITED);
	assert_int_equal(at32(out, pid), 1234);
	assert_int_equal(at32(out, uid), 1000);
	assert_int_equal(at32(out, status), 7);
	if (wide_clock) {
		assert_int_equal(at64(out, utime), 0x123456789ull);
		assert_int_equal(at64(out, stime), 55);
	} else {
		assert_int_equal(at32(out, utime), 0x23456789u); /* compat_clock_t */
		assert_int_equal(at32(out, stime), 55);
	}
	siginfo_from_guest(out, l, &back);
	assert_int_equal(back.si_pid, 1234);
	assert_int_equal(back.si_status, 7);

	memset(&si, 0, sizeof(si));
	si.si_signo = SIGUSR1;
	si.si_code = SI_QUEUE;
	si.si_pid = 99;
	si.si_value.sival_int = 4321;
	siginfo_to_guest(&si, l, out);
	assert_int_equal(at32(out, pid), 99);
	assert_int_equal(at32(out, value), 4321);
	siginfo_from_guest(out, l, &back);
	assert_int_equal(back.si_value.sival_int, 4321);

	memset(&si, 0, sizeof(si));
	si.si_signo = SIGSEGV;
	si.si_code = SEGV_MAPERR;
	si.si_addr = (void *)0x12345678;
	siginfo_to_guest(&si, l, out);
	assert_int_equal(at32(out, addr), 0x12345678u);

	memset(&si, 0, sizeof(si));
	si.si_signo = SIGIO;
	si.si_code = POLL_IN;
	si.si_band = 0x41;
	si.si_fd = 9;
	siginfo_to_guest(&si, l, out);
	assert_int_equal(at32(out, band), 0x41);
	assert_int_equal(at32(out, fd), 9);
}

static void test_siginfo_i386(void **state)
{
	(void)state;
#ifdef REF_SIG_I386
	assert_int_equal(REF_SIG_I386_SIGINFO_SIZE, 128);
	check_compat_siginfo(SG_ABI_I386, REF_SIG_I386_SI_PID, REF_SIG_I386_SI_UID,
			     REF_SIG_I386_SI_STATUS, REF_SIG_I386_SI_UTIME, REF_SIG_I386_SI_STIME,
			     REF_SIG_I386_SI_VALUE, REF_SIG_I386_SI_ADDR, REF_SIG_I386_SI_BAND,
			     REF_SIG_I386_SI_FD, false);
#else
	skip();
#endif
}

static void test_siginfo_x32(void **state)
{
	(void)state;
#ifdef REF_SIG_X32
	check_compat_siginfo(SG_ABI_X32, REF_SIG_X32_SI_PID, REF_SIG_X32_SI_UID,
			     REF_SIG_X32_SI_STATUS, REF_SIG_X32_SI_UTIME, REF_SIG_X32_SI_STIME,
			     REF_SIG_X32_SI_VALUE, REF_SIG_X32_SI_ADDR, REF_SIG_X32_SI_BAND,
			     REF_SIG_X32_SI_FD, true);
#else
	skip();
#endif
}

/* SIGSYS (seccomp's layout: call address, syscall, arch) both ways, at the
 * offsets of the uapi header's own si_* names: rt_sigqueueinfo to itself
 * may send one, and the host's siginfo must carry each field in its own
 * place (the kernel's post_copy_siginfo_from_user32, SIL_SYS). */
static void check_compat_sigsys(enum sg_abi l, size_t call_addr, size_t syscall_nr,
				size_t arch)
{
	siginfo_t si, back;
	uint8_t out[128];

	memset(&si, 0, sizeof(si));
	si.si_signo = SIGSYS;
	si.si_code = 1; /* SYS_SECCOMP */
	si.si_call_addr = (void *)0x8049000ul;
	si.si_syscall = 201;
	si.si_arch = 0x40000003u; /* AUDIT_ARCH_I386 */
	siginfo_to_guest(&si, l, out);
	assert_int_equal(at32(out, call_addr), 0x8049000u);
	assert_int_equal(at32(out, syscall_nr), 201);
	assert_int_equal(at32(out, arch), 0x40000003u);
	siginfo_from_guest(out, l, &back);
	assert_int_equal(back.si_signo, SIGSYS);
	assert_int_equal((uintptr_t)back.si_call_addr, 0x8049000u);
	assert_int_equal(back.si_syscall, 201);
	assert_int_equal(back.si_arch, 0x40000003u);
}

static void test_siginfo_sigsys(void **state)
{
	bool checked = false;

	(void)state;
#ifdef REF_SIG_I386
	check_compat_sigsys(SG_ABI_I386, REF_SIG_I386_SI_CALL_ADDR, REF_SIG_I386_SI_SYSCALL,
			    REF_SIG_I386_SI_ARCH);
	checked = true;
#endif
#ifdef REF_SIG_X32
	check_compat_sigsys(SG_ABI_X32, REF_SIG_X32_SI_CALL_ADDR, REF_SIG_X32_SI_SYSCALL,
			    REF_SIG_X32_SI_ARCH);
	checked = true;
#endif
	if (!checked)
		skip();
}

/* --- frames ----------------------------------------------------------------- */

struct fixture {
	struct sg_task_group p;
	struct sg_task t;
	uint64_t stack_top;
};

static struct fixture *make(enum sg_abi abi)
{
	struct fixture *f = calloc(1, sizeof(*f));
	long base;

	f->p.abi = abi;
	f->p.mm = mm_create(abi != SG_ABI_X64);
	assert_non_null(f->p.mm);
	pthread_mutex_init(&f->p.lock, NULL);
	f->t.group = &f->p;
	cpu_init(&f->t.cpu, abi == SG_ABI_I386 ? CPU_MODE_32 : CPU_MODE_64);
	base = mm_mmap(f->p.mm, 0, 1 << 16, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(base > 0);
	f->stack_top = (uint64_t)base + (1 << 16) - 100; /* odd on purpose */
	for (int i = 0; i < 16; i++)
		f->t.cpu.r[i] = 0x1111111100000000ull * (abi == SG_ABI_X64) + 0x1000u * (unsigned)i + 7;
	f->t.cpu.r[R_SP] = f->stack_top;
	f->t.cpu.rip = 0x401234;
	f->t.cpu.xmm[3].q[0] = 0xdeadbeefcafef00dull;
	f->t.cpu.mxcsr = 0x1f80 | 0x6000;
	f->t.sig.mask = SIGBIT(SIGUSR2);
	return f;
}

static void destroy(struct fixture *f)
{
	sig_mask_changed(&f->t); /* leave the test thread as it was */
	mm_destroy(f->p.mm);
	free(f);
}

static void frame_round_trip(enum sg_abi abi, bool siginfo)
{
	struct fixture *f = make(abi);
	struct cpu saved = f->t.cpu;
	struct sg_sigaction ka = {
		.handler = 0x402000,
		.flags = SG_SA_RESTORER | (siginfo ? SG_SA_SIGINFO : 0),
		.restorer = 0x403000,
	};
	struct frame_req r = { .t = &f->t, .sig = SIGUSR1, .ka = &ka };
	/* the handle a handler gets points at the thread's task (signal.h, sg_task) */
	struct sg_thread *handle = (struct sg_thread *)(void *)&f->t;
	uint64_t sp, word = 0;
	int rc;

	r.old_mask = f->t.sig.mask;
	r.info[0] = SIGUSR1;
	if (abi == SG_ABI_I386)
		rc = frame_setup_i386(&r);
	else
		rc = frame_setup_x64(&r, abi == SG_ABI_X32);
	assert_int_equal(rc, 0);
	sp = f->t.cpu.r[R_SP];
	assert_int_equal(f->t.cpu.rip, 0x402000);
	assert_true(sp < f->stack_top - (abi == SG_ABI_I386 ? 0 : 128));
	/* at the handler's entry the stack is as after a call */
	assert_int_equal((sp + (abi == SG_ABI_I386 ? 4 : 8)) % 16, 0);
	assert_int_equal(copy_from_guest(f->p.mm, &word, sp, abi == SG_ABI_I386 ? 4 : 8), 0);
	assert_int_equal(word, 0x403000); /* pretcode */
	if (abi == SG_ABI_I386) {
		assert_int_equal(f->t.cpu.r[R_AX], SIGUSR1);
		assert_int_equal(f->t.cpu.r[R_DX], siginfo ? sp + offsetof(struct rt_frame32, info) : 0);
	} else {
		assert_int_equal(f->t.cpu.r[R_DI], SIGUSR1);
		assert_int_equal(f->t.cpu.r[R_SI], sp + (abi == SG_ABI_X32
				 ? offsetof(struct rt_frame_x32, info) : offsetof(struct rt_frame64, info)));
		assert_int_equal(f->t.cpu.r[R_DX], sp + 8);
	}
	/* the handler's own changes, then its ret */
	f->t.cpu.r[R_BX] = 0;
	f->t.cpu.xmm[3].q[0] = 0;
	f->t.cpu.mxcsr = 0x1f80;
	f->t.sig.mask = ~0ull;
	f->t.cpu.r[R_SP] = sp + (abi == SG_ABI_I386 ? 4 : 8);
	if (abi == SG_ABI_I386 && !siginfo) {
		f->t.cpu.r[R_SP] += 4; /* __kernel_sigreturn's popl */
		sys_sigreturn(handle, NULL);
	} else if (abi == SG_ABI_I386) {
		compat_sys_rt_sigreturn(handle, NULL);
	} else if (abi == SG_ABI_X32) {
		compat_sys_x32_rt_sigreturn(handle, NULL);
	} else {
		sys_rt_sigreturn(handle, NULL);
	}
	assert_false(f->t.sig.pending & SIGBIT(SIGSEGV));
	assert_int_equal(f->t.cpu.rip, saved.rip);
	for (int i = 0; i < (abi == SG_ABI_I386 ? 8 : 16); i++)
		assert_int_equal(f->t.cpu.r[i], abi == SG_ABI_I386 ? (uint32_t)saved.r[i] : saved.r[i]);
	assert_int_equal(f->t.cpu.xmm[3].q[0], 0xdeadbeefcafef00dull);
	assert_int_equal(f->t.cpu.mxcsr, 0x1f80 | 0x6000);
	assert_int_equal(f->t.sig.mask, SIGBIT(SIGUSR2));
	destroy(f);
}

static void test_frame_x64(void **state)
{
	(void)state;
	frame_round_trip(SG_ABI_X64, true);
}

static void test_frame_x32(void **state)
{
	(void)state;
	frame_round_trip(SG_ABI_X32, true);
}

static void test_frame_i386_rt(void **state)
{
	(void)state;
	frame_round_trip(SG_ABI_I386, true);
}

static void test_frame_i386_plain(void **state)
{
	(void)state;
	frame_round_trip(SG_ABI_I386, false);
}

/* x86_64 without SA_RESTORER: the kernel refuses the frame (SIGSEGV). */
static void test_frame_x64_needs_restorer(void **state)
{
	struct fixture *f = make(SG_ABI_X64);
	struct sg_sigaction ka = { .handler = 0x402000, .flags = SG_SA_SIGINFO };
	struct frame_req r = { .t = &f->t, .sig = SIGUSR1, .ka = &ka };

	(void)state;
	assert_int_equal(frame_setup_x64(&r, false), -1);
	destroy(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sigcontext64_layout),
		cmocka_unit_test(test_sigcontext32_layout),
		cmocka_unit_test(test_siginfo_i386),
		cmocka_unit_test(test_siginfo_x32),
		cmocka_unit_test(test_siginfo_sigsys),
		cmocka_unit_test(test_frame_x64),
		cmocka_unit_test(test_frame_x32),
		cmocka_unit_test(test_frame_i386_rt),
		cmocka_unit_test(test_frame_i386_plain),
		cmocka_unit_test(test_frame_x64_needs_restorer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
