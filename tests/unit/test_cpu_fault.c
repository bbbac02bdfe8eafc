/* Stops and faults: #PF from a guest access (address, write, rip at the
 * instruction), #UD with its bytes, #DE, INT3 as a trap, the syscall
 * mechanisms, and the state SYSCALL leaves. */
#define _GNU_SOURCE /* REG_RIP */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <ucontext.h>
#include <cmocka.h>
#include "cpu/cpu.h"

static uint8_t *code;

static struct cpu *run(const char *bytes, size_t n, enum cpu_mode mode)
{
	static struct cpu c;

	memcpy(code, bytes, n);
	cpu_invalidate_code((uint64_t)(uintptr_t)code, 4096);
	cpu_release(&c);
	cpu_init(&c, mode);
	c.rip = (uint64_t)(uintptr_t)code;
	cpu_run(&c);
	return &c;
}

static void test_page_fault(void **state)
{
	/* mov [rax], ebx with rax = a PROT_READ page: a write to a present page */
	uint8_t *ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	cpu_install_fault_handler(); /* cmocka installs its own per test */
	memcpy(code, "\x90\x89\x18", 3);
	cpu_invalidate_code((uint64_t)(uintptr_t)code, 4096);
	{
		static struct cpu d;

		cpu_init(&d, CPU_MODE_64);
		d.r[0] = (uint64_t)(uintptr_t)ro + 8;
		d.rip = (uint64_t)(uintptr_t)code;
		assert_int_equal(cpu_run(&d), CPU_STOP_FAULT);
		assert_int_equal(d.fault.vector, VEC_PF);
		assert_int_equal(d.fault.insn_addr, (uintptr_t)code + 1);
		assert_int_equal(d.rip, (uintptr_t)code + 1);
		assert_int_equal(d.fault.data_addr, (uintptr_t)ro + 8);
		assert_true(d.fault.write);
		assert_true(d.fault.prot);
		cpu_release(&d);
	}
	munmap(ro, 4096);
}

static void test_stops(void **state)
{
	struct cpu *c;

	c = run("\x90\x0f\x0b", 3, CPU_MODE_64);
	assert_int_equal(c->stop, CPU_STOP_FAULT);
	assert_int_equal(c->fault.vector, VEC_UD);
	assert_int_equal(c->fault.insn_addr, (uintptr_t)code + 1);
	assert_true(c->fault.nbytes >= 2);
	assert_memory_equal(c->fault.bytes, "\x0f\x0b", 2);

	c = run("\x31\xc9\xf7\xf1", 4, CPU_MODE_64); /* xor ecx,ecx; div ecx */
	assert_int_equal(c->fault.vector, VEC_DE);
	assert_int_equal(c->rip, (uintptr_t)code + 2);

	c = run("\xcc", 1, CPU_MODE_64);
	assert_int_equal(c->fault.vector, VEC_BP);
	assert_int_equal(c->fault.insn_addr, (uintptr_t)code);
	assert_int_equal(c->rip, (uintptr_t)code + 1);

	c = run("\x0f\x05", 2, CPU_MODE_64);
	assert_int_equal(c->stop, CPU_STOP_SYSCALL);
	assert_int_equal(c->mech, CPU_MECH_SYSCALL);
	assert_int_equal(c->rip, (uintptr_t)code + 2);
	assert_int_equal(c->r[1], (uintptr_t)code + 2); /* RCX */
	assert_int_equal(c->r[11], 0x202);               /* R11 = RFLAGS */

	c = run("\x0f\x05", 2, CPU_MODE_32);
	assert_int_equal(c->stop, CPU_STOP_FAULT);
	assert_int_equal(c->fault.vector, VEC_UD);

	c = run("\xcd\x80", 2, CPU_MODE_32);
	assert_int_equal(c->mech, CPU_MECH_INT80);
	assert_int_equal(c->rip, (uintptr_t)code + 2);

	c = run("\x0f\x34", 2, CPU_MODE_32);
	assert_int_equal(c->mech, CPU_MECH_SYSENTER);

	c = run("\xcd\x81", 2, CPU_MODE_64);
	assert_int_equal(c->fault.vector, VEC_GP);
	assert_int_equal(c->rip, (uintptr_t)code);

	c = run("\xfa", 1, CPU_MODE_64); /* cli */
	assert_int_equal(c->fault.vector, VEC_GP);
}

static void test_segments(void **state)
{
	static struct cpu c;

	cpu_init(&c, CPU_MODE_32);
	assert_int_equal(cpu_load_segment(&c, SEG_GS, 0x63), -1); /* not present yet */
	c.tls[0].base = 0x1234000;
	c.tls[0].present = true;
	assert_int_equal(cpu_load_segment(&c, SEG_GS, 0x63), 0);
	assert_int_equal(c.base[SEG_GS], 0x1234000);
	assert_int_equal(cpu_load_segment(&c, SEG_DS, 0x2b), 0);
	assert_int_equal(cpu_load_segment(&c, SEG_SS, 0), -1);
	assert_int_equal(cpu_load_segment(&c, SEG_DS, 0x2c), -1); /* LDT */
}

/* LAR/LSL of the selectors ring 3 sees; expected values read on this host
 * (lar/lsl in a -m32 and a -m64 process). */
static void test_lar_lsl(void **state)
{
	static const struct { uint16_t sel; bool ok; uint32_t ar, limit; } cases[] = {
		{ 0x00, false, 0, 0 }, { 0x10, false, 0, 0 }, { 0x23, true, 0xcffb00, 0xffffffff },
		{ 0x28, true, 0xcff300, 0xffffffff }, { 0x33, true, 0xaffb00, 0xffffffff },
		{ 0x63, true, 0xdff300, 0xffffffff }, { 0x6b, false, 0, 0 }, { 0x78, true, 0x40f500, 0 },
		{ 0x83, false, 0, 0 },
	};
	static struct cpu c;

	cpu_install_fault_handler();
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		for (int lsl = 0; lsl < 2; lsl++) {
			/* lar/lsl eax, ecx */
			memcpy(code, lsl ? "\x0f\x03\xc1\xcc" : "\x0f\x02\xc1\xcc", 4);
			cpu_invalidate_code((uint64_t)(uintptr_t)code, 4096);
			cpu_release(&c);
			cpu_init(&c, CPU_MODE_32);
			c.tls[0].base = 0x1000;
			c.tls[0].limit = 0xfffff;
			c.tls[0].flags = 0x51; /* glibc: seg_32bit, limit_in_pages, useable */
			c.tls[0].present = true;
			c.r[R_CX] = cases[k].sel;
			c.r[R_AX] = 0xdead;
			c.rip = (uintptr_t)code;
			cpu_run(&c);
			assert_int_equal(c.fault.vector, VEC_BP);
			assert_int_equal(!!(cpu_get_rflags(&c) & 0x40), cases[k].ok);
			if (!cases[k].ok)
				assert_int_equal(c.r[R_AX], 0xdead);
			else if (!lsl)
				assert_int_equal(c.r[R_AX], cases[k].ar);
			else if (cases[k].sel != 0x78) /* the CPU number */
				assert_int_equal(c.r[R_AX], cases[k].limit);
		}
	}
}

/* VERR/VERW (0F 00 /4 /5) run in ring 3: ZF per selector, against the
 * host's answer for the same selector from this 64-bit process (0x23 only
 * where the host has the 32-bit code segment: LAR says). */
static void test_verr_verw(void **state)
{
	static const uint16_t sels[] = { 0x00, 0x10, 0x18, 0x23, 0x2b, 0x33,
					 0x7b, 0x83, 0x2c, 0xfff8 };
	static struct cpu c;

	cpu_install_fault_handler();
	for (size_t k = 0; k < sizeof(sels) / sizeof(sels[0]); k++) {
		uint16_t sel = sels[k];
		uint8_t host_r, host_w, lar_ok;
		uint32_t ar = 0;

		__asm__ volatile("lar %2, %0; setz %1" : "+r"(ar), "=q"(lar_ok) : "r"((uint32_t)sel) : "cc");
		if (sel == 0x23 && !lar_ok)
			continue; /* no IA32 emulation: the GDT has no 0x23 */
		__asm__ volatile("verr %w1; setz %0" : "=q"(host_r) : "r"(sel) : "cc");
		__asm__ volatile("verw %w1; setz %0" : "=q"(host_w) : "r"(sel) : "cc");
		for (int w = 0; w < 2; w++) {
			/* verr/verw cx */
			memcpy(code, w ? "\x0f\x00\xe9\xcc" : "\x0f\x00\xe1\xcc", 4);
			cpu_invalidate_code((uint64_t)(uintptr_t)code, 4096);
			cpu_release(&c);
			cpu_init(&c, CPU_MODE_64);
			c.r[R_CX] = sel;
			c.rip = (uintptr_t)code;
			cpu_run(&c);
			assert_int_equal(c.fault.vector, VEC_BP);
			assert_int_equal(!!(cpu_get_rflags(&c) & 0x40), w ? host_w : host_r);
		}
	}
}

static void test_cpuid(void **state)
{
	uint32_t r[4];

	cpu_cpuid(0, 0, r);
	assert_memory_equal(&r[1], "Genu", 4);
	cpu_cpuid(1, 0, r);
	assert_true(r[3] & (1u << 26));          /* SSE2 */
	/* OSXSAVE with the XCR0 threads get; AVX only with AVX state in it */
	assert_int_equal(!!(r[2] & (1u << 27)), CPU_XCR0 != 0);
	assert_int_equal(!!(r[2] & (1u << 28)), !!(CPU_XCR0 & CPU_XSTATE_AVX));
	cpu_cpuid(0xd, 0, r);
	assert_int_equal(r[0], (uint32_t)CPU_XCR0);
	assert_int_equal(r[1], CPU_XCR0 & CPU_XSTATE_AVX ? 832 : 576); /* SDM: 512 + 64 (+ 256) */
	cpu_cpuid(7, 0, r);
	assert_false(r[1] & (1u << 9));          /* no ERMS */
}

/* Faults as stop reasons: vector, rip at the instruction (traps after it),
 * the data address. Expected vectors: the SDM, as the host raises them
 * (the differential tester checks the same forms against the host). */
static void test_more_faults(void **state)
{
	struct cpu *c;

	cpu_install_fault_handler(); /* cmocka installs its own per test */
	/* idiv overflow: INT_MIN / -1 */
	c = run("\xb8\x00\x00\x00\x80\x99\xb9\xff\xff\xff\xff\xf7\xf9", 13, CPU_MODE_64);
	assert_int_equal(c->fault.vector, VEC_DE);
	assert_int_equal(c->fault.insn_addr, (uintptr_t)code + 11);
	/* privileged: hlt, in al,dx, wbinvd, mov rax,cr0 are #GP; mov rax,cr9 #UD */
	c = run("\xf4", 1, CPU_MODE_64);
	assert_int_equal(c->fault.vector, VEC_GP);
	c = run("\xec", 1, CPU_MODE_32);
	assert_int_equal(c->fault.vector, VEC_GP);
	c = run("\x0f\x09", 2, CPU_MODE_64);
	assert_int_equal(c->fault.vector, VEC_GP);
	c = run("\x0f\x20\xc0", 3, CPU_MODE_64);
	assert_int_equal(c->fault.vector, VEC_GP);
	c = run("\x44\x0f\x20\xc8", 4, CPU_MODE_64);
	assert_int_equal(c->fault.vector, VEC_UD);
	/* lock cmp is #UD; lock add to memory is fine */
	c = run("\xf0\x39\x00", 3, CPU_MODE_64);
	assert_int_equal(c->fault.vector, VEC_UD);
	/* int1 (F1) traps with rip after it */
	c = run("\xf1", 1, CPU_MODE_64);
	assert_int_equal(c->fault.vector, VEC_DB);
	assert_int_equal(c->rip, (uintptr_t)code + 1);
	/* into with OF set traps (32-bit); bound out of range is #BR */
	c = run("\xb0\x7f\x04\x01\xce", 5, CPU_MODE_32);
	assert_int_equal(c->fault.vector, VEC_OF);
	assert_int_equal(c->rip, (uintptr_t)code + 5);
	memcpy(code + 64, "\x00\x00\x00\x00\x10\x00\x00\x00", 8); /* bounds 0..16 */
	{
		static struct cpu d;
		static const uint8_t bound[] = { 0x62, 0x03 }; /* bound eax, [ebx] */

		cpu_release(&d);
		cpu_init(&d, CPU_MODE_32);
		memcpy(code, bound, sizeof(bound));
		cpu_invalidate_code((uint64_t)(uintptr_t)code, 4096);
		d.r[R_BX] = (uintptr_t)code + 64;
		d.r[R_AX] = 17;
		d.rip = (uintptr_t)code;
		cpu_run(&d);
		assert_int_equal(d.fault.vector, VEC_BR);
		assert_int_equal(d.fault.insn_addr, (uintptr_t)code);
	}
	/* a non-canonical address through RSP is #SS, through RAX #GP */
	{
		static struct cpu d;

		cpu_release(&d);
		cpu_init(&d, CPU_MODE_64);
		memcpy(code, "\x48\x8b\x04\x24\x48\x8b\x00", 7);
		cpu_invalidate_code((uint64_t)(uintptr_t)code, 4096);
		d.r[R_SP] = 0x8000000000000000ull;
		d.rip = (uintptr_t)code;
		cpu_run(&d);
		assert_int_equal(d.fault.vector, VEC_SS);
		d.r[R_SP] = 0;
		d.r[R_AX] = 0x8000000000000000ull;
		d.rip = (uintptr_t)code + 4;
		cpu_run(&d);
		assert_int_equal(d.fault.vector, VEC_PF); /* host #GP: data_addr 0 */
		assert_int_equal(d.fault.data_addr, 0);
		/* through RBP #SS too, but not with a GS override: #GP (the host
		 * gives SIGSEGV for "mov rax, gs:[rbp]", SIGBUS without 65) */
		memcpy(code, "\x48\x8b\x45\x00\x65\x48\x8b\x45\x00", 9);
		cpu_invalidate_code((uint64_t)(uintptr_t)code, 4096);
		d.r[R_BP] = 0x8000000000000000ull;
		d.rip = (uintptr_t)code;
		cpu_run(&d);
		assert_int_equal(d.fault.vector, VEC_SS);
		d.rip = (uintptr_t)code + 4;
		cpu_run(&d);
		assert_int_equal(d.fault.vector, VEC_PF);
		assert_int_equal(d.fault.data_addr, 0);
	}
}

/* Far transfers between the user code segments switch the mode: 0x40 is
 * INC EAX in 32-bit mode and a REX prefix in 64-bit mode. */
static void test_far_mode_switch(void **state)
{
	static struct cpu c;
	uint32_t base = (uint32_t)(uintptr_t)code, p32 = base + 32, p64 = base + 48;
	uint8_t prog[64] = {
		0xff, 0x2d, 0x0a, 0x00, 0x00, 0x00, /* 0: ljmp *10(%rip) -> [16] */
	};

	cpu_install_fault_handler();
	memcpy(prog + 16, &p32, 4);                /* m16:32 = 0x23:p32 */
	prog[20] = 0x23;
	prog[32] = 0x40;                           /* 32-bit: inc eax */
	prog[33] = 0xea;                           /* ljmp 0x33:p64 */
	memcpy(prog + 34, &p64, 4);
	prog[38] = 0x33;
	prog[48] = 0x40;                           /* 64-bit: REX, then */
	prog[49] = 0x90;                           /* nop */
	prog[50] = 0xcb;                           /* retf (64-bit: 32-bit slots) */
	memcpy(code, prog, sizeof(prog));
	cpu_invalidate_code((uint64_t)(uintptr_t)code, 4096);
	cpu_release(&c);
	cpu_init(&c, CPU_MODE_64);
	{
		static uint32_t stack[64];
		uint32_t end = base + 56;

		code[56] = 0xcc;
		stack[60] = end;                    /* retf pops EIP, then CS */
		stack[61] = 0x33;
		c.r[R_SP] = (uintptr_t)&stack[60];
	}
	c.rip = (uintptr_t)code;
	assert_int_equal(cpu_run(&c), CPU_STOP_FAULT);
	assert_int_equal(c.fault.vector, VEC_BP);
	assert_int_equal(c.mode, CPU_MODE_64);
	assert_int_equal(c.sel[SEG_CS], 0x33);
	assert_int_equal(c.r[R_AX], 1);            /* one INC, in 32-bit mode */
	assert_int_equal(c.rip, (uintptr_t)code + 57);
	/* a far jump to any other selector is #GP */
	code[0] = 0xea;
	cpu_invalidate_code((uint64_t)(uintptr_t)code, 4096);
	cpu_release(&c);
	cpu_init(&c, CPU_MODE_32);
	memcpy(code + 1, "\x00\x00\x00\x00\x2b\x00", 6);
	c.rip = (uintptr_t)code;
	cpu_run(&c);
	assert_int_equal(c.fault.vector, VEC_GP);
}

/* Self-modifying code: the expected results come from running the same
 * bytes natively (with RET for the final INT3). */
static uint8_t *rwx;

static uint64_t native_call(const uint8_t *bytes, size_t n, uint64_t rdi)
{
	uint64_t (*fn)(uint64_t) = (uint64_t (*)(uint64_t))(void *)rwx;

	memcpy(rwx, bytes, n);
	rwx[n - 1] = 0xc3;
	return fn(rdi);
}

static void test_smc_patch(void **state)
{
	/* xor ecx,ecx; L: mov eax,1; inc ecx; cmp ecx,2; je end;
	 * mov byte [rip-18],7 (the immediate of L); jmp L; end: int3 */
	static const uint8_t prog[] = {
		0x31, 0xc9, 0xb8, 0x01, 0x00, 0x00, 0x00, 0xff, 0xc1, 0x83, 0xf9, 0x02,
		0x74, 0x09, 0xc6, 0x05, 0xee, 0xff, 0xff, 0xff, 0x07, 0xeb, 0xeb, 0xcc,
	};
	uint64_t expect = (uint32_t)native_call(prog, sizeof(prog), 0);
	struct cpu *c;

	cpu_install_fault_handler();
	c = run((const char *)prog, sizeof(prog), CPU_MODE_64);
	assert_int_equal(expect, 7);
	assert_int_equal(c->fault.vector, VEC_BP);
	assert_int_equal((uint32_t)c->r[R_AX], expect);
}

/* The same through the x87: FISTP m32 (a host thunk's store copied out to
 * the guest) patches the immediate; the loop must see it. */
static void test_smc_x87(void **state)
{
	static const uint8_t prog[] = {
		0x31, 0xc9,                         /* 0: xor ecx,ecx */
		0xb8, 0x01, 0x00, 0x00, 0x00,       /* 2: L: mov eax,1 */
		0xff, 0xc1,                         /* 7: inc ecx */
		0x83, 0xf9, 0x02,                   /* 9: cmp ecx,2 */
		0x74, 0x12,                         /* 12: je end */
		0xdb, 0x05, 0x08, 0x00, 0x00, 0x00, /* 14: fild dword [rip+8] (7) */
		0xdb, 0x1d, 0xe9, 0xff, 0xff, 0xff, /* 20: fistp dword [rip-23] (L+1) */
		0xeb, 0xe6,                         /* 26: jmp L */
		0x07, 0x00, 0x00, 0x00,             /* 28: 7 */
		0xcc,                               /* 32: end: int3 */
	};
	uint64_t expect = (uint32_t)native_call(prog, sizeof(prog), 0);
	struct cpu *c;

	cpu_install_fault_handler();
	c = run((const char *)prog, sizeof(prog), CPU_MODE_64);
	assert_int_equal(expect, 7);
	assert_int_equal(c->fault.vector, VEC_BP);
	assert_int_equal((uint32_t)c->r[R_AX], expect);
}

/* Run from rip with the stack at rsp to the program's INT3; EAX must be
 * what the same bytes gave natively. */
static void run_to_int3(struct cpu *c, uint64_t rip, uint64_t rsp, uint32_t expect_eax)
{
	c->r[R_SP] = rsp;
	c->rip = rip;
	assert_int_equal(cpu_run(c), CPU_STOP_FAULT);
	assert_int_equal(c->fault.vector, VEC_BP);
	assert_int_equal((uint32_t)c->r[R_AX], expect_eax);
}

static void test_smc_jit(void **state)
{
	/* A JIT: store "mov eax,1; ret" into the buffer at rdi, call it; store
	 * "mov eax,2; ret" over it, call again; eax + edx * 8. */
	static const uint8_t prog[] = {
		0x48, 0xb8, 0xb8, 0x01, 0x00, 0x00, 0x00, 0xc3, 0x00, 0x00, /* mov rax, imm64 */
		0x48, 0x89, 0x07,                                           /* mov [rdi], rax */
		0xff, 0xd7,                                                 /* call rdi */
		0x89, 0xc2,                                                 /* mov edx, eax */
		0x48, 0xb8, 0xb8, 0x02, 0x00, 0x00, 0x00, 0xc3, 0x00, 0x00,
		0x48, 0x89, 0x07, 0xff, 0xd7,
		0x8d, 0x04, 0xd0,                                           /* lea eax, [rax+rdx*8] */
		0xcc,
	};
	uint8_t *buf = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	static uint64_t stack[512];
	static struct cpu c;
	uint64_t expect;

	assert_true(buf != MAP_FAILED);
	cpu_install_fault_handler();
	expect = (uint32_t)native_call(prog, sizeof(prog), (uintptr_t)buf);
	assert_int_equal(expect, 2 + 8);
	memset(buf, 0xcc, 4096);
	memcpy(code, prog, sizeof(prog));
	cpu_invalidate_code((uint64_t)(uintptr_t)code, 4096);
	cpu_invalidate_code((uint64_t)(uintptr_t)buf, 4096);
	cpu_release(&c);
	cpu_init(&c, CPU_MODE_64);
	c.r[R_DI] = (uintptr_t)buf;
	run_to_int3(&c, (uintptr_t)code, (uintptr_t)&stack[500], (uint32_t)expect);
	munmap(buf, 4096);
}

/* A fault in a fast form names that instruction (cpu.cur is stored by the
 * forms that access memory, not by the dispatch): each memory or stack
 * form right after a register MOV (mov ecx, ecx), which tail-dispatches
 * to it in the warm run, faults at its own address on an unmapped page,
 * cold (first decode) and warm. */
static void test_fast_form_fault_rip(void **state)
{
	static const struct {
		const char *bytes;
		size_t len;
		enum cpu_mode mode;
		bool stack; /* the stack pointer is the bad address */
	} forms[] = {
		{ "\x8b\x00", 2, CPU_MODE_64, false },             /* mov eax, [rax] */
		{ "\x8b\x04\x08", 3, CPU_MODE_64, false },         /* mov eax, [rax+rcx] */
		{ "\x48\x8b\x00", 3, CPU_MODE_64, false },         /* mov rax, [rax] */
		{ "\x89\x18", 2, CPU_MODE_64, false },             /* mov [rax], ebx */
		{ "\x48\x89\x1c\x08", 4, CPU_MODE_64, false },     /* mov [rax+rcx], rbx */
		{ "\xc7\x00\x01\x00\x00\x00", 6, CPU_MODE_64, false }, /* mov dword [rax], 1 */
		{ "\x0f\xb6\x00", 3, CPU_MODE_64, false },         /* movzx eax, byte [rax] */
		{ "\x0f\xb7\x00", 3, CPU_MODE_64, false },         /* movzx eax, word [rax] */
		{ "\x66\x8b\x00", 3, CPU_MODE_64, false },         /* mov ax, [rax] */
		{ "\x66\x89\x18", 3, CPU_MODE_64, false },         /* mov [rax], bx */
		{ "\x8a\x00", 2, CPU_MODE_64, false },             /* mov al, [rax] */
		{ "\x88\x18", 2, CPU_MODE_64, false },             /* mov [rax], bl */
		{ "\x03\x00", 2, CPU_MODE_64, false },             /* add eax, [rax] */
		{ "\x01\x18", 2, CPU_MODE_64, false },             /* add [rax], ebx */
		{ "\x83\x00\x01", 3, CPU_MODE_64, false },         /* add dword [rax], 1 */
		{ "\x02\x00", 2, CPU_MODE_64, false },             /* add al, [rax] */
		{ "\x3b\x00\x74\x00", 4, CPU_MODE_64, false },     /* cmp eax, [rax]; je (fused) */
		{ "\x48\x83\x28\x01\x74\x00", 6, CPU_MODE_64, false }, /* sub qword [rax], 1; je (fused) */
		{ "\x48\x63\x00", 3, CPU_MODE_64, false },         /* movsxd rax, [rax] */
		{ "\x48\x8b\x04\x08", 4, CPU_MODE_64, false },     /* mov rax, [rax+rcx] (flat, indexed) */
		{ "\x48\x0f\xbe\x04\x08", 5, CPU_MODE_64, false }, /* movsx rax, byte [rax+rcx] */
		{ "\x0f\xbe\x00", 3, CPU_MODE_64, false },         /* movsx eax, byte [rax] */
		{ "\x0f\x44\x00", 3, CPU_MODE_64, false },         /* cmove eax, [rax] */
		{ "\x0f\x95\x00", 3, CPU_MODE_64, false },         /* setne byte [rax] */
		{ "\x0f\x94\x04\x08", 4, CPU_MODE_64, false },     /* sete byte [rax+rcx] */
		{ "\x0f\x95\x00", 3, CPU_MODE_32, false },         /* setne byte [eax] */
		{ "\xff\x20", 2, CPU_MODE_64, false },             /* jmp [rax] */
		{ "\xff\x10", 2, CPU_MODE_64, false },             /* call [rax] */
		{ "\x66\x0f\x6f\x00", 4, CPU_MODE_64, false },     /* movdqa xmm0, [rax] */
		{ "\x50", 1, CPU_MODE_64, true },                  /* push rax */
		{ "\x58", 1, CPU_MODE_64, true },                  /* pop rax */
		{ "\xe8\x00\x00\x00\x00", 5, CPU_MODE_64, true },  /* call rel32 */
		{ "\xc3", 1, CPU_MODE_64, true },                  /* ret */
		{ "\xff\xd0", 2, CPU_MODE_64, true },              /* call rax */
		{ "\x50", 1, CPU_MODE_32, true },                  /* push eax */
		{ "\x58", 1, CPU_MODE_32, true },                  /* pop eax */
		{ "\xe8\x00\x00\x00\x00", 5, CPU_MODE_32, true },  /* call rel32 */
		{ "\xc3", 1, CPU_MODE_32, true },                  /* ret */
		{ "\x8b\x00", 2, CPU_MODE_32, false },             /* mov eax, [eax] */
		{ "\x89\x18", 2, CPU_MODE_32, false },             /* mov [eax], ebx */
	};
	uint8_t *bad = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	uint64_t addr = (uint64_t)(uintptr_t)bad + 0x800;

	(void)state;
	cpu_install_fault_handler(); /* cmocka installs its own per test */
	assert_true(bad != MAP_FAILED);
	munmap(bad, 4096);
	for (size_t k = 0; k < sizeof(forms) / sizeof(forms[0]); k++) {
		static struct cpu c;

		memcpy(code, "\x89\xc9", 2); /* mov ecx, ecx */
		memcpy(code + 2, forms[k].bytes, forms[k].len);
		cpu_invalidate_code((uint64_t)(uintptr_t)code, 4096);
		cpu_init(&c, forms[k].mode);
		for (int pass = 0; pass < 2; pass++) { /* cold, then warm */
			for (int r = 0; r < 16; r++)
				c.r[r] = 0;
			c.r[R_AX] = c.r[R_BX] = addr;
			c.r[R_SP] = forms[k].stack ? addr : (uint64_t)(uintptr_t)code + 4096;
			c.rip = (uint64_t)(uintptr_t)code;
			assert_int_equal(cpu_run(&c), CPU_STOP_FAULT);
			if (c.fault.vector != VEC_PF || c.fault.insn_addr != (uintptr_t)code + 2)
				fail_msg("form %zu pass %d: vector %d at code+%ld", k, pass,
					 (int)c.fault.vector, (long)(c.fault.insn_addr - (uintptr_t)code));
			assert_int_equal(c.rip, (uintptr_t)code + 2);
		}
		cpu_release(&c);
	}
}

/* The host's EFLAGS after one flag writer on a and b (the value of its
 * first and second operand), from flags_in; the red zone skipped for the
 * PUSHF/POPF. */
#define HOST_FLAGS(INSN, a_in, b_in, flags_in)                                                   \
	({                                                                                       \
		uint64_t f_, a_ = (a_in), b_ = (b_in), fi_ = (flags_in);                         \
		__asm__ volatile("sub $128, %%rsp; push %3; popf; " INSN "; pushf; pop %0; add $128, %%rsp" \
				 : "=&r"(f_), "+r"(a_)                                           \
				 : "r"(b_), "r"(fi_)                                             \
				 : "cc", "memory");                                              \
		f_;                                                                              \
	})

enum rebuilt_writer { W_ADD32, W_SUB32, W_CMP32_5, W_SUB16, W_XOR32, W_ADD64, W_TEST8, W_ADD32_SELF, W_SUB64, W_CMP32,
		      W_ADD32_INC, W_SUB32_DEC, W_ADD64_INC, W_ADD16 };

static uint64_t host_writer_flags(enum rebuilt_writer w, uint64_t a, uint64_t b, uint64_t flags_in)
{
	switch (w) {
	case W_ADD32: return HOST_FLAGS("add %k2, %k1", a, b, flags_in);
	case W_SUB32: return HOST_FLAGS("sub %k2, %k1", a, b, flags_in);
	case W_CMP32_5: return HOST_FLAGS("cmp $5, %k1", a, b, flags_in);
	case W_SUB16: return HOST_FLAGS("sub %w2, %w1", a, b, flags_in);
	case W_XOR32: return HOST_FLAGS("xor %k2, %k1", a, b, flags_in);
	case W_ADD64: return HOST_FLAGS("add %2, %1", a, b, flags_in);
	case W_TEST8: return HOST_FLAGS("test %b1, %b1", a, b, flags_in);
	case W_SUB64: return HOST_FLAGS("sub %2, %1", a, b, flags_in);
	case W_CMP32: return HOST_FLAGS("cmp %k2, %k1", a, b, flags_in);
	case W_ADD32_INC: return HOST_FLAGS("add %k2, %k1; inc %k2", a, b, flags_in);
	case W_SUB32_DEC: return HOST_FLAGS("sub %k2, %k1; dec %k2", a, b, flags_in);
	case W_ADD64_INC: return HOST_FLAGS("add %2, %1; inc %2", a, b, flags_in);
	case W_ADD16: return HOST_FLAGS("add %w2, %w1", a, b, flags_in);
	default: return HOST_FLAGS("add %k1, %k1", a, b, flags_in);
	}
}

/* A register ALU operation before a load or store, a register flag writer
 * after it: lflive.c gives the first its flag-free twin and rebuilds its
 * flags from the registers when the access faults. Each snippet runs
 * once with a good pointer (all decoded, the twins chosen), then with a
 * bad one from the decoded code: EFLAGS at the fault must be those the
 * host's own first flag writer leaves (AF of logic operations left out:
 * undefined). The jump-in snippet is entered past its ADD the second time
 * (TEST; JNE): the flags are the TEST's, not the ADD's. reg op= memory
 * (the operand at the stack's top) is such a writer and such an access;
 * INC/DEC before an access shows CF from the writer before it, the rest
 * from its own result (the host runs both). In 32-bit mode too: it runs
 * where the host cannot run i386 programs. */
static void test_flags_rebuilt_at_fault(void **state)
{
	static const struct {
		const char *bytes;
		size_t len;
		enum cpu_mode mode;
		enum rebuilt_writer writer;
		int a, b; /* its operands' registers; b -1: the stack's top (memory) */
	} snips[] = {
		/* add eax, esi; mov edx, [ebx+4]; xor edi, ecx; int3 */
		{ "\x01\xf0\x8b\x53\x04\x31\xcf\xcc", 8, CPU_MODE_32, W_ADD32, R_AX, R_SI },
		{ "\x01\xf0\x8b\x53\x04\x31\xcf\xcc", 8, CPU_MODE_64, W_ADD32, R_AX, R_SI },
		/* sub eax, ecx; mov [ebx+4], eax; and edi, esi; int3 */
		{ "\x29\xc8\x89\x43\x04\x21\xf7\xcc", 8, CPU_MODE_32, W_SUB32, R_AX, R_CX },
		/* cmp ecx, 5; mov edx, [ebx+4]; test edi, esi; int3 */
		{ "\x83\xf9\x05\x8b\x53\x04\x85\xf7\xcc", 9, CPU_MODE_32, W_CMP32_5, R_CX, R_CX },
		/* sub ax, si; mov edx, [ebx+4]; add di, cx; int3 */
		{ "\x66\x29\xf0\x8b\x53\x04\x66\x01\xcf\xcc", 10, CPU_MODE_32, W_SUB16, R_AX, R_SI },
		/* xor eax, ecx; mov edx, [ebx]; mov esi, edx; mov [ebx+8], esi;
		 * add edx, esi; int3 (the store faults: the load at ebx does not) */
		{ "\x31\xc8\x8b\x13\x89\xd6\x89\x73\x08\x01\xf2\xcc", 12, CPU_MODE_32, W_XOR32, R_AX, R_CX },
		/* add rax, rsi; mov rdx, [rbx+8]; xor rdi, rcx; int3 */
		{ "\x48\x01\xf0\x48\x8b\x53\x08\x48\x31\xcf\xcc", 11, CPU_MODE_64, W_ADD64, R_AX, R_SI },
		/* test cl, cl; jne +2; add eax, esi; mov edx, [ebx+4]; xor edi, ecx; int3 */
		{ "\x84\xc9\x75\x02\x01\xf0\x8b\x53\x04\x31\xcf\xcc", 12, CPU_MODE_32, W_TEST8, R_CX, R_CX },
		/* add eax, eax; mov edx, [ebx+4]; xor edi, ecx; int3 (not rebuilt) */
		{ "\x01\xc0\x8b\x53\x04\x31\xcf\xcc", 8, CPU_MODE_32, W_ADD32_SELF, R_AX, R_AX },
		/* add eax, esi; mov esi, ecx; mov edx, [ebx+4]; xor edi, ecx; int3
		 * (its source written before the load: not rebuilt) */
		{ "\x01\xf0\x89\xce\x8b\x53\x04\x31\xcf\xcc", 10, CPU_MODE_32, W_ADD32, R_AX, R_SI },
		/* add eax, esi; mov esi, [ebx]; mov [ebx+8], esi; xor edi, ecx;
		 * int3 (the source loaded over before the store that faults: not
		 * rebuilt; history.md, branch addsrc) */
		{ "\x01\xf0\x8b\x33\x89\x73\x08\x31\xcf\xcc", 10, CPU_MODE_32, W_ADD32, R_AX, R_SI },
		/* sub rax, rsi (r, r/m); mov rsi, rcx; mov rdx, [rbx+8]; xor rdi, rcx; int3 */
		{ "\x48\x2b\xc6\x48\x89\xce\x48\x8b\x53\x08\x48\x31\xcf\xcc", 14, CPU_MODE_64, W_SUB64, R_AX, R_SI },
		/* add ax, si; mov esi, ecx; mov edx, [ebx+4]; xor edi, ecx; int3 */
		{ "\x66\x01\xf0\x89\xce\x8b\x53\x04\x31\xcf\xcc", 11, CPU_MODE_32, W_ADD16, R_AX, R_SI },
		/* reg op= memory, its twin keeping the value loaded:
		 * add eax, [esp]; mov edx, [ebx+4]; xor edi, ecx; int3 */
		{ "\x03\x04\x24\x8b\x53\x04\x31\xcf\xcc", 9, CPU_MODE_32, W_ADD32, R_AX, -1 },
		/* xor eax, ecx; add edx, [ebx+4]; int3 (the ADD's load faults) */
		{ "\x31\xc8\x03\x53\x04\xcc", 6, CPU_MODE_32, W_XOR32, R_AX, R_CX },
		/* add eax, [esp]; add edx, [ebx+4]; int3 */
		{ "\x03\x04\x24\x03\x53\x04\xcc", 7, CPU_MODE_32, W_ADD32, R_AX, -1 },
		/* sub rax, [rsp]; mov rdx, [rbx+8]; xor rdi, rcx; int3 */
		{ "\x48\x2b\x04\x24\x48\x8b\x53\x08\x48\x31\xcf\xcc", 12, CPU_MODE_64, W_SUB64, R_AX, -1 },
		/* cmp eax, [esp]; mov [ebx+4], edx; xor edi, ecx; int3 */
		{ "\x3b\x04\x24\x89\x53\x04\x31\xcf\xcc", 9, CPU_MODE_32, W_CMP32, R_AX, -1 },
		/* add eax, [esp]; mov eax, ecx; mov edx, [ebx+4]; xor edi, ecx;
		 * int3 (its destination written before the load: not rebuilt) */
		{ "\x03\x04\x24\x89\xc8\x8b\x53\x04\x31\xcf\xcc", 11, CPU_MODE_32, W_ADD32, R_AX, -1 },
		/* the compare a reg op= memory form fused with the Jcc after
		 * it (fused.c), its load faulting: add eax, [esp]; cmp edx,
		 * [ebx+4]; jne +0; int3 (found by test_cpu_diff's SEQFAULT) */
		{ "\x03\x04\x24\x3b\x53\x04\x75\x00\xcc", 9, CPU_MODE_32, W_ADD32, R_AX, -1 },
		{ "\x03\x04\x24\x3b\x53\x04\x75\x00\xcc", 9, CPU_MODE_64, W_ADD32, R_AX, -1 },
		/* ... a SUB r64, m64 fused with its Jcc (fused_sub_rm64): add
		 * eax, [rsp]; sub rdx, [rbx+8]; jne +0; int3 */
		{ "\x03\x04\x24\x48\x2b\x53\x08\x75\x00\xcc", 10, CPU_MODE_64, W_ADD32, R_AX, -1 },
		/* ... and the three-way compare's: add eax, [esp]; cmp edx,
		 * [ebx+4]; setg cl; setl dl; movzbl dl, edx; movzbl cl, ecx;
		 * sub ecx, edx (the flags the SUB reads: fused.c); int3 */
		{ "\x03\x04\x24\x3b\x53\x04\x0f\x9f\xc1\x0f\x9c\xc2\x0f\xb6\xd2\x0f\xb6\xc9\x29\xd1\xcc", 21,
		  CPU_MODE_64, W_ADD32, R_AX, -1 },
		/* INC/DEC deferring its flags over the record before it:
		 * add eax, esi; inc esi; mov edx, [ebx+4]; xor edi, ecx; int3 */
		{ "\x01\xf0\x46\x8b\x53\x04\x31\xcf\xcc", 9, CPU_MODE_32, W_ADD32_INC, R_AX, R_SI },
		{ "\x01\xf0\xff\xc6\x8b\x53\x04\x31\xcf\xcc", 10, CPU_MODE_64, W_ADD32_INC, R_AX, R_SI },
		/* sub eax, ecx; dec ecx; mov edx, [ebx+4]; xor edi, esi; int3 */
		{ "\x29\xc8\x49\x8b\x53\x04\x31\xf7\xcc", 9, CPU_MODE_32, W_SUB32_DEC, R_AX, R_CX },
		/* add rax, rsi; inc rsi; mov [rbx+8], rdx; xor rdi, rcx; int3 */
		{ "\x48\x01\xf0\x48\xff\xc6\x48\x89\x53\x08\x48\x31\xcf\xcc", 14, CPU_MODE_64, W_ADD64_INC, R_AX, R_SI },
		/* add eax, esi; inc esi; mov esi, ecx; mov edx, [ebx+4]; xor edi,
		 * ecx; int3 (its register written before the load: recorded) */
		{ "\x01\xf0\x46\x89\xce\x8b\x53\x04\x31\xcf\xcc", 11, CPU_MODE_32, W_ADD32_INC, R_AX, R_SI },
	};
	static const uint64_t in[4][4] = {
		/* eax, ecx, esi, the flags before */
		{ 0x7fffffff, 0x80000001, 1, 0x8d5 },
		{ 0xffffffff, 0, 1, 0 },
		{ 0x12345678, 0x12345678, 0x9abcdef0, 0x0c5 },
		{ 0x8000, 0x7fff, 0x8001, 0x801 },
	};
	uint8_t *pages = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	uint64_t good = (uint64_t)(uintptr_t)pages + 0x100, bad;

	(void)state;
	cpu_install_fault_handler(); /* cmocka installs its own per test */
	assert_true(pages != MAP_FAILED);
	/* the accesses at bad + 4 and + 8 fault (the load at bad does not) */
	bad = (uint64_t)(uintptr_t)pages + 4096 - 4;
	mprotect(pages + 4096, 4096, PROT_NONE);
	for (size_t k = 0; k < sizeof(snips) / sizeof(snips[0]); k++) {
		for (unsigned v = 0; v < 4; v++) {
			static struct cpu c;
			uint64_t want, mask = snips[k].writer == W_XOR32 || snips[k].writer == W_TEST8 ? 0x8c5 : 0x8d5;

			cpu_init(&c, snips[k].mode);
			memcpy(code, snips[k].bytes, snips[k].len);
			cpu_invalidate_code((uint64_t)(uintptr_t)code, 4096);
			for (int pass = 0; pass < 2; pass++) { /* pass 1 runs what pass 0 decoded */
				for (int r = 0; r < 16; r++)
					c.r[r] = 0x1111111111111111ull * (uint64_t)(r + 1) &
						 (snips[k].mode == CPU_MODE_32 ? 0xffffffffull : ~0ull);
				c.r[R_AX] = in[v][0];
				c.r[R_CX] = pass == 0 ? 0 : in[v][1] | 1; /* CL 0: the JNE falls through */
				c.r[R_SI] = in[v][2];
				c.r[R_BX] = pass == 0 ? good : bad;
				c.r[R_SP] = good + 0x800;
				/* the memory operand at the stack's top (another in
				 * pass 0: a value left from it in the lazy record) */
				*(uint64_t *)(uintptr_t)c.r[R_SP] =
					pass == 0 ? 0 : (in[v][2] ^ 0x80000010) | in[v][1] << 32;
				c.rip = (uint64_t)(uintptr_t)code;
				cpu_set_rflags(&c, in[v][3] | 0x202);
				want = host_writer_flags(snips[k].writer, c.r[snips[k].a],
							 snips[k].b < 0 ? *(uint64_t *)(uintptr_t)c.r[R_SP]
									: c.r[snips[k].b],
							 in[v][3] | 0x202);
				assert_int_equal(cpu_run(&c), CPU_STOP_FAULT);
				assert_int_equal(c.fault.vector, pass == 0 ? VEC_BP : VEC_PF);
			}
			if ((cpu_get_rflags(&c) ^ want) & mask)
				fail_msg("snippet %zu values %u: flags %#llx at the fault, the host's %#llx", k, v,
					 (unsigned long long)cpu_get_rflags(&c), (unsigned long long)want);
			cpu_release(&c);
		}
	}
	munmap(pages, 8192);
}

/* Kept branch targets across pages (cache.h, INSN_ADDR_DEAD): the same
 * indirect CALL and direct cross-page CALL run three times, their target
 * page rewritten before each ("mov eax, k; ret" at page 2 + 0 and + 8:
 * not next to the caller's page, which the invalidation's margin for
 * instructions straddling pages would drop too); edx sums what they
 * return. Checked against the same bytes run natively at the same
 * relative placement. */
static void test_smc_kept_targets(void **state)
{
	static const uint8_t prog[] = {
		0x31, 0xd2,                               /* 0: xor edx, edx */
		0xb9, 0x03, 0x00, 0x00, 0x00,             /* 2: mov ecx, 3 */
		0x48, 0x8d, 0x3d, 0xf2, 0x1f, 0x00, 0x00, /* 7: lea rdi, [rip + 0x1ff2] (page 2) */
		0x48, 0x8b, 0x06,                         /* 14: L: mov rax, [rsi] */
		0x48, 0x89, 0x07,                         /* 17: mov [rdi], rax */
		0x48, 0x89, 0x47, 0x08,                   /* 20: mov [rdi + 8], rax */
		0xff, 0xd7,                               /* 24: call rdi */
		0x01, 0xc2,                               /* 26: add edx, eax */
		0xe8, 0xe7, 0x1f, 0x00, 0x00,             /* 28: call page 2 + 8 */
		0x01, 0xc2,                               /* 33: add edx, eax */
		0x48, 0x83, 0xc6, 0x08,                   /* 35: add rsi, 8 */
		0xff, 0xc9,                               /* 39: dec ecx */
		0x75, 0xe3,                               /* 41: jnz L */
		0x89, 0xd0,                               /* 43: mov eax, edx */
		0xcc,                                     /* 45: int3 (natively: ret) */
	};
	/* mov eax, k; ret — the second with a NOP first, so the page decodes
	 * to a different layout and a stale kept pointer would run old code */
	static const uint64_t table[3] = {
		0xc300000001b8ull, 0xc300000002b890ull, 0xc300000003b8ull,
	};
	static uint64_t stack[512];
	static struct cpu c;
	uint8_t *nat = mmap(NULL, 3 * 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint8_t *emu = mmap(NULL, 3 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint64_t expect;

	(void)state;
	assert_true(nat != MAP_FAILED && emu != MAP_FAILED);
	memcpy(nat, prog, sizeof(prog));
	nat[sizeof(prog) - 1] = 0xc3;
	expect = (uint32_t)((uint64_t (*)(uint64_t, const uint64_t *))(void *)nat)(0, table);
	assert_int_equal(expect, 2 * (1 + 2 + 3));
	cpu_install_fault_handler();
	memcpy(emu, prog, sizeof(prog));
	cpu_invalidate_code((uint64_t)(uintptr_t)emu, 3 * 4096);
	cpu_release(&c);
	cpu_init(&c, CPU_MODE_64);
	c.r[R_SI] = (uintptr_t)table;
	run_to_int3(&c, (uintptr_t)emu, (uintptr_t)&stack[500], (uint32_t)expect);
	cpu_release(&c);
	munmap(nat, 3 * 4096);
	munmap(emu, 3 * 4096);
}

/* 32-bit mode: an access through DS decoded while DS's base was 0 (the
 * flat address form, insn.flat) runs again after DS was loaded with a
 * TLS descriptor of base 64: it must add the base (the decoded code is
 * dropped). Expected by the SDM's segment arithmetic (no 32-bit host run
 * here): 5 from [ebx], then 7 from [ebx + 64]; 10 if the old form ran. */
static void test_flat_segment_base_change(void **state)
{
	static const uint8_t prog[] = {
		0x8b, 0x03,       /* 0: L: mov eax, [ebx] */
		0x01, 0xc2,       /* 2: add edx, eax */
		0x8e, 0xd9,       /* 4: mov ds, ecx (0x63: TLS entry 0) */
		0x4e,             /* 6: dec esi */
		0x75, 0xf7,       /* 7: jnz L */
		0xcc,             /* 9: int3 */
	};
	uint32_t *buf = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT,
			     -1, 0);
	static struct cpu c;

	(void)state;
	assert_true(buf != MAP_FAILED);
	cpu_install_fault_handler();
	buf[0] = 5;
	buf[16] = 7;
	memcpy(code, prog, sizeof(prog));
	cpu_invalidate_code((uint64_t)(uintptr_t)code, 4096);
	cpu_release(&c);
	cpu_init(&c, CPU_MODE_32);
	c.tls[0].base = 64;
	c.tls[0].present = true;
	c.r[R_BX] = (uint32_t)(uintptr_t)buf;
	c.r[R_CX] = 0x63;
	c.r[R_SI] = 2;
	c.r[R_SP] = (uint32_t)(uintptr_t)code + 4096;
	c.rip = (uint32_t)(uintptr_t)code;
	assert_int_equal(cpu_run(&c), CPU_STOP_FAULT);
	if (c.fault.vector != VEC_BP)
		fail_msg("vector %d at code+%ld, data %#lx", (int)c.fault.vector,
			 (long)(c.fault.insn_addr - (uintptr_t)code), (unsigned long)c.fault.data_addr);
	assert_int_equal(c.base[SEG_DS], 64);
	assert_int_equal((uint32_t)c.r[R_DX], 5 + 7);
	cpu_release(&c);
	munmap(buf, 4096);
}

static int setup(void **state)
{
	code = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT,
		    -1, 0);
	rwx = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS,
		   -1, 0);
	cpu_install_fault_handler();
	return code == MAP_FAILED || rwx == MAP_FAILED;
}

static sigjmp_buf native_jb;
static uint64_t native_rip, native_addr;

static void on_native_segv(int sig, siginfo_t *si, void *ctx)
{
	native_rip = (uint64_t)((ucontext_t *)ctx)->uc_mcontext.gregs[REG_RIP];
	native_addr = (uint64_t)(uintptr_t)si->si_addr;
	siglongjmp(native_jb, sig);
}

/* Calls target natively; the SIGSEGV's rip and address land in native_*. */
static void native_branch(uint64_t target)
{
	struct sigaction sa = { .sa_sigaction = on_native_segv, .sa_flags = SA_SIGINFO }, old;

	sigaction(SIGSEGV, &sa, &old);
	if (sigsetjmp(native_jb, 1) == 0)
		__asm__ volatile("call *%0" : : "r"(target) : "memory", "rax", "rcx", "rdx", "rsi",
				 "rdi", "r8", "r9", "r10", "r11");
	sigaction(SIGSEGV, &old, NULL);
}

/* A fetch fault: a branch to an unmapped page, and an instruction that
 * runs into one. The host names the fetched instruction (rip) and the
 * first unmapped byte; so must the interpreter (not the branch). */
static void test_fetch_fault(void **state)
{
	uint8_t *pages = mmap(NULL, 8192, PROT_READ | PROT_WRITE | PROT_EXEC,
			      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint64_t hole = (uint64_t)(uintptr_t)pages + 4096;
	uint8_t *straddle = pages + 4096 - 3;
	static struct cpu c;

	assert_true(pages != MAP_FAILED);
	munmap(pages + 4096, 4096);
	memcpy(straddle, "\x48\xb8\x01", 3); /* movabs $imm64, %rax: 7 bytes missing */
	cpu_install_fault_handler();
	for (int k = 0; k < 2; k++) {
		uint64_t target = k ? (uint64_t)(uintptr_t)straddle : hole;

		native_rip = native_addr = 0;
		native_branch(target);
		assert_int_equal(native_rip, target);
		memcpy(code, "\xff\xd0", 2); /* call *%rax */
		cpu_invalidate_code((uint64_t)(uintptr_t)code, 4096);
		cpu_invalidate_code((uint64_t)(uintptr_t)pages, 4096);
		cpu_release(&c);
		cpu_init(&c, CPU_MODE_64);
		c.r[0] = target;
		c.r[4] = (uint64_t)(uintptr_t)(pages + 2048);
		c.rip = (uint64_t)(uintptr_t)code;
		assert_int_equal(cpu_run(&c), CPU_STOP_FAULT);
		assert_int_equal(c.fault.vector, VEC_PF);
		assert_int_equal(c.rip, native_rip);
		assert_int_equal(c.fault.insn_addr, native_rip);
		assert_int_equal(c.fault.data_addr, native_addr);
	}
	cpu_release(&c);
	munmap(pages, 4096);
}


/* Call fn through `call *%rax; syscall` at code; its %rax. */
static uint64_t call_in_cpu(struct cpu *c, const uint8_t *fn)
{
	memcpy(code, "\xff\xd0\x0f\x05", 4);
	c->r[R_AX] = (uint64_t)(uintptr_t)fn;
	c->r[R_SP] = (uint64_t)(uintptr_t)(code + 4096);
	c->rip = (uint64_t)(uintptr_t)code;
	assert_int_equal(cpu_run(c), CPU_STOP_SYSCALL);
	return c->r[R_AX];
}

/* An exec in place keeps the decoded code of a range's last page only
 * where nothing decoded there runs on into the next page, whose bytes
 * the range does not cover (cpu_keep_code). Bytes changed behind the
 * cache's back tell a kept decode (the old result) from a new one. */
static void test_keep_code_range_end(void **state)
{
	uint8_t *pages = mmap(NULL, 8192, PROT_READ | PROT_WRITE | PROT_EXEC,
			      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint8_t *inside = pages + 100, *across = pages + 4096 - 3;
	struct cpu_code_range keep;
	static struct cpu c;

	(void)state;
	assert_true(pages != MAP_FAILED);
	keep = (struct cpu_code_range){ (uintptr_t)pages, (uintptr_t)pages + 4096 };
	cpu_init(&c, CPU_MODE_64);
	/* mov $1, %eax; ret: within the page, which is kept */
	memcpy(inside, "\xb8\x01\x00\x00\x00\xc3", 6);
	assert_int_equal(call_in_cpu(&c, inside), 1);
	cpu_keep_code(&c, cpu_code_epoch(&c), &keep, 1);
	inside[1] = 2;
	assert_int_equal(call_in_cpu(&c, inside), 1);
	/* movabs $imm64, %rax across into the next page, then ret: the
	 * page is dropped */
	memcpy(across, "\x48\xb8\x11\x22\x33\x44\x55\x66\x77\x08\xc3", 11);
	assert_int_equal(call_in_cpu(&c, across), 0x0877665544332211ull);
	cpu_keep_code(&c, cpu_code_epoch(&c), &keep, 1);
	across[9] = 0x09;
	inside[1] = 3;
	assert_int_equal(call_in_cpu(&c, across), 0x0977665544332211ull);
	assert_int_equal(call_in_cpu(&c, inside), 3);
	cpu_release(&c);
	munmap(pages, 8192);
}

/* #AC: with EFLAGS.AC set (POPF), a misaligned access faults natively
 * (Linux sets CR0.AM): SIGBUS, BUS_ADRALN, si_addr NULL, at the
 * instruction. Each case runs natively in a forked child (AC must not
 * leak into this process), then in the interpreter, which must stop with
 * VEC_AC at the same offset, or run to the end where the host did. */
struct ac_result {
	int signo, code;
	uint64_t rip, addr;
};
static volatile struct ac_result *ac_res;

static void on_native_ac(int sig, siginfo_t *si, void *ctx)
{
	/* AC is still set in the handler: clear it before anything else */
	__asm__ volatile("pushfq; andl $~0x40000, (%%rsp); popfq" : : : "memory", "cc");
	ac_res->signo = sig;
	ac_res->code = si->si_code;
	ac_res->rip = (uint64_t)((ucontext_t *)ctx)->uc_mcontext.gregs[REG_RIP];
	ac_res->addr = (uint64_t)(uintptr_t)si->si_addr;
	_exit(0);
}

#define AC_SET "\x9c\x81\x0c\x24\x00\x00\x04\x00\x9d"   /* pushf; or [rsp],AC; popf */
#define AC_CLEAR "\x9c\x81\x24\x24\xff\xff\xfb\xff\x9d" /* pushf; and [rsp],~AC; popf */
#define SAVE_SP "\x48\x89\xe6\x48\x89\xfc"               /* mov rsi,rsp; mov rsp,rdi */
#define REST_SP "\x48\x89\xf4"                           /* mov rsp,rsi */

static const struct ac_case {
	const char *name;
	const char *body; /* runs with rdi = buffer + off */
	size_t len;
	unsigned off;
	bool set_ac;
} ac_cases[] = {
#define C(name, body, off, ac) { name, body, sizeof(body) - 1, off, ac }
	C("mov eax,[rdi] +1", "\x8b\x07", 1, true),
	C("mov eax,[rdi] +4", "\x8b\x07", 4, true),
	C("mov eax,[rdi] +1 AC clear", "\x8b\x07", 1, false),
	C("mov ax,[rdi] +1", "\x66\x8b\x07", 1, true),
	C("mov ax,[rdi] +2", "\x66\x8b\x07", 2, true),
	C("mov rax,[rdi] +4", "\x48\x8b\x07", 4, true),
	C("mov rax,[rdi] +8", "\x48\x8b\x07", 8, true),
	C("mov [rdi],rax +4", "\x48\x89\x07", 4, true),
	C("movzx eax,byte [rdi] +1", "\x0f\xb6\x07", 1, true),
	C("add [rdi],eax +2", "\x01\x07", 2, true),
	C("push/pop rsp+4", SAVE_SP "\x50\x58" REST_SP, 4, true),
	C("push/pop rsp+8", SAVE_SP "\x50\x58" REST_SP, 8, true),
	C("pop rsp+4", SAVE_SP "\x58" REST_SP, 4, true),
	C("call rsp+4", SAVE_SP "\xe8\x00\x00\x00\x00\x58" REST_SP, 4, true),
	C("lodsw +1", "\x48\x89\xfe\x66\xad", 1, true),
	C("stosd +2", "\xab", 2, true),
	C("stosb +1", "\xaa", 1, true),
	C("rep movsd +2", "\x48\x89\xfe\xb9\x04\x00\x00\x00\xf3\xa5", 2, true),
	C("rep movsd +4", "\x48\x89\xfe\xb9\x04\x00\x00\x00\xf3\xa5", 4, true),
	C("lock cmpxchg [rdi],ecx +2", "\xf0\x0f\xb1\x0f", 2, true),
	C("xchg [rdi],eax +2", "\x87\x07", 2, true),
	C("cmpxchg8b [rdi] +4", "\x0f\xc7\x0f", 4, true),
	C("movzx eax,word [rdi] +3", "\x0f\xb7\x07", 3, true),
	C("fld qword [rdi] +4", "\xdd\x07\xdd\xd8", 4, true),
	C("fld dword [rdi] +2", "\xd9\x07\xdd\xd8", 2, true),
	C("fld dword [rdi] +4", "\xd9\x07\xdd\xd8", 4, true),
	C("fild word [rdi] +1", "\xdf\x07\xdd\xd8", 1, true),
	C("fld tbyte [rdi] +4", "\xdb\x2f\xdd\xd8", 4, true),
	C("fld tbyte [rdi] +8", "\xdb\x2f\xdd\xd8", 8, true),
	C("fstp tbyte [rdi] +2", "\xd9\xee\xdb\x3f", 2, true),
	C("fnstcw [rdi] +1", "\xd9\x3f", 1, true),
	C("fnstenv [rdi] +2", "\xd9\x37", 2, true),
	C("fnstenv [rdi] +4", "\xd9\x37", 4, true),
	/* the same loads run first with AC clear, then again after POPF set
	 * it: the decoded code (fast forms, which skip the #AC test) must not
	 * outlive the change. xor ecx,ecx; L: load; test ecx,ecx; jnz out;
	 * inc ecx; AC_SET; jmp L; out: */
	C("mov eax,[rdi] +1, then AC", "\x31\xc9\x8b\x07\x85\xc9\x75\x0d\xff\xc1" AC_SET "\xeb\xed", 1, false),
	C("add eax,[rdi] +2, then AC", "\x31\xc9\x03\x07\x85\xc9\x75\x0d\xff\xc1" AC_SET "\xeb\xed", 2, false),
	C("cmp [rdi],eax; jne +2, then AC", "\x31\xc9\x39\x07\x75\x00\x85\xc9\x75\x0d\xff\xc1" AC_SET "\xeb\xeb", 2, false),
#undef C
};

static uint8_t ac_buf[512] __attribute__((aligned(64)));

/* The case's bytes: [AC_SET] body [AC_CLEAR] then tail (ret or ud2). */
static size_t ac_build(uint8_t *dst, const struct ac_case *k, const char *tail)
{
	size_t n = 0;

	if (k->set_ac) {
		memcpy(dst, AC_SET, 9);
		n = 9;
	}
	memcpy(dst + n, k->body, k->len);
	n += k->len;
	memcpy(dst + n, AC_CLEAR, 9);
	n += 9;
	memcpy(dst + n, tail, 2);
	return n; /* offset of the tail: where a faultless run ends */
}

static void test_alignment_check(void **state)
{
	static struct cpu c;
	static uint64_t stack[64] __attribute__((aligned(16)));

	ac_res = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	assert_true(ac_res != MAP_FAILED);
	for (size_t n = 0; n < sizeof(ac_cases) / sizeof(ac_cases[0]); n++) {
		const struct ac_case *k = &ac_cases[n];
		uint64_t buf = (uint64_t)(uintptr_t)ac_buf + 256 + k->off;
		size_t end = ac_build(rwx, k, "\xc3\x90");
		int status;
		pid_t pid;

		memset((void *)ac_res, 0, sizeof(*ac_res));
		pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			/* the stack cases point rsp into ac_buf: the handler
			 * needs a stack of its own */
			static uint8_t alt[65536] __attribute__((aligned(16)));
			stack_t ss = { .ss_sp = alt, .ss_size = sizeof(alt) };
			struct sigaction sa = { .sa_sigaction = on_native_ac,
						.sa_flags = SA_SIGINFO | SA_ONSTACK };

			sigaltstack(&ss, NULL);
			sigaction(SIGBUS, &sa, NULL);
			sigaction(SIGSEGV, &sa, NULL);
			__asm__ volatile("call *%0"
					 : : "r"(rwx), "D"(buf)
					 : "memory", "rax", "rcx", "rsi", "rdx", "r8", "r9", "r10",
					   "r11", "cc");
			_exit(0);
		}
		assert_int_equal(waitpid(pid, &status, 0), pid);
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			print_message("%s: child status %#x\n", k->name, status);
		assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
		print_message("%-28s native: %s at +%lld\n", k->name,
			      ac_res->signo ? strsignal(ac_res->signo) : "no fault",
			      ac_res->signo ? (long long)(ac_res->rip - (uintptr_t)rwx) : -1);

		ac_build(code, k, "\x0f\x0b");
		cpu_invalidate_code((uint64_t)(uintptr_t)code, 4096);
		cpu_release(&c);
		cpu_init(&c, CPU_MODE_64);
		c.r[7] = buf;
		c.r[4] = (uint64_t)(uintptr_t)&stack[63];
		c.rip = (uint64_t)(uintptr_t)code;
		assert_int_equal(cpu_run(&c), CPU_STOP_FAULT);
		if (ac_res->signo) {
			assert_int_equal(ac_res->signo, SIGBUS);
			assert_int_equal(ac_res->code, BUS_ADRALN);
			assert_int_equal(ac_res->addr, 0);
			assert_int_equal(c.fault.vector, VEC_AC);
			assert_int_equal(c.fault.data_addr, 0);
			assert_int_equal(c.fault.insn_addr - (uintptr_t)code,
					 ac_res->rip - (uintptr_t)rwx);
			assert_true(cpu_get_rflags(&c) & 0x40000); /* AC stays set */
		} else {
			assert_int_equal(c.fault.vector, VEC_UD);
			assert_int_equal(c.fault.insn_addr - (uintptr_t)code, end);
		}
	}
	cpu_release(&c);
	munmap((void *)ac_res, 4096);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_page_fault),
		cmocka_unit_test(test_stops),
		cmocka_unit_test(test_segments),
		cmocka_unit_test(test_lar_lsl),
		cmocka_unit_test(test_verr_verw),
		cmocka_unit_test(test_cpuid),
		cmocka_unit_test(test_more_faults),
		cmocka_unit_test(test_smc_patch),
		cmocka_unit_test(test_smc_x87),
		cmocka_unit_test(test_smc_jit),
		cmocka_unit_test(test_far_mode_switch),
		cmocka_unit_test(test_fetch_fault),
		cmocka_unit_test(test_keep_code_range_end),
		cmocka_unit_test(test_alignment_check),
		cmocka_unit_test(test_fast_form_fault_rip),
		cmocka_unit_test(test_flags_rebuilt_at_fault),
		cmocka_unit_test(test_smc_kept_targets),
		cmocka_unit_test(test_flat_segment_base_change),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
