/* Stops and faults: #PF from a guest access (address, write, rip at the
 * instruction), #UD with its bytes, #DE, INT3 as a trap, the syscall
 * mechanisms, and the state SYSCALL leaves. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
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

static void test_cpuid(void **state)
{
	uint32_t r[4];

	cpu_cpuid(0, 0, r);
	assert_memory_equal(&r[1], "Genu", 4);
	cpu_cpuid(1, 0, r);
	assert_true(r[3] & (1u << 26));          /* SSE2 */
	assert_false(r[2] & (1u << 27));         /* no OSXSAVE */
	assert_false(r[2] & (1u << 28));         /* no AVX */
	cpu_cpuid(7, 0, r);
	assert_false(r[1] & (1u << 9));          /* no ERMS */
}

static int setup(void **state)
{
	code = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT,
		    -1, 0);
	cpu_install_fault_handler();
	return code == MAP_FAILED;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_page_fault),
		cmocka_unit_test(test_stops),
		cmocka_unit_test(test_segments),
		cmocka_unit_test(test_cpuid),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
