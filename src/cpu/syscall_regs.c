/* The register effects of a system call's return that are more than
 * RAX (cpu.h, System call registers): the vDSO fast path's SYSEXIT and
 * SYSRETL. The entry side and RAX are inline in cpu.h. */
#include "cpu/cpu.h"

#define RFLAGS_RF 0x10000ull

void cpu_syscall_return_fast32(struct cpu *c, uint32_t user_sp, uint64_t landing,
			       const uint32_t *arg6)
{
	bool sysenter = c->mech == CPU_MECH_SYSENTER;

	if (arg6)
		c->r[R_BP] = *arg6;
	if (sysenter)
		c->r[R_SP] = user_sp;
	c->rip = landing;
	if (sysenter && c->mode == CPU_MODE_64) {
		/* SYSENTER from 64-bit code (Intel; AMD: #UD): the kernel
		 * takes it as a compat call and returns to the 32-bit landing
		 * pad's offset in this process's vDSO, in compatibility mode
		 * (the kernel's single_step_syscall selftest) */
		cpu_far_jump(c, 0x23, landing);
		return;
	}
	if (c->mode == CPU_MODE_32) {
		/* a 64-bit kernel returns from both by SYSRETL (no SYSEXIT):
		 * ecx = eip, r11 = eflags (RF reads as 0) */
		c->r[R_CX] = (uint32_t)landing;
		c->r[R_R11] = cpu_get_rflags(c) & ~RFLAGS_RF;
	}
}
