#ifndef SG_CPU_SYSCALL_REGS_H
#define SG_CPU_SYSCALL_REGS_H

#include "cpu/cpu.h"

/* The system call registers (the CPU module's; inline: they run once
 * per system call). After cpu_run returns CPU_STOP_SYSCALL, cpu->mech and
 * cpu->mode say which instruction trapped; these functions are its
 * register convention, what the kernel's entry code saves in pt_regs for
 * it and its return leaves in the registers (SYSRET, IRET, SYSRETL to
 * the vDSO), named after the kernel's <asm/syscall.h> accessors. The
 * syscall module reads and writes the guest's registers through them
 * only (docs/architecture.md, Layers); what is the kernel's, not the
 * CPU's (the table, the sixth SYSENTER argument on the user stack, the
 * landing pad's address) stays in the entry code. */

/* Which of the kernel's entry points the instruction reaches. */
enum cpu_syscall_entry {
	CPU_SYSCALL_ENTRY_64,     /* SYSCALL in 64-bit mode: do_syscall_64 (x86_64, x32) */
	CPU_SYSCALL_ENTRY_INT80,  /* INT 0x80 from either mode: the i386 table */
	CPU_SYSCALL_ENTRY_FAST32, /* SYSENTER from either mode, SYSCALL in 32-bit mode
				   * (AMD): the i386 table through the vDSO's
				   * __kernel_vsyscall, back to its landing pad */
};

/* The number: EAX, the low 32 bits of RAX for every entry (the kernel
 * takes it as an unsigned int). */
static inline uint32_t cpu_syscall_nr(const struct cpu *c)
{
	return (uint32_t)c->r[R_AX];
}

/* RAX whole, taken at entry: what a restart puts back (the kernel's
 * orig_ax; cpu_syscall_rewind). */
static inline uint64_t cpu_syscall_orig_ax(const struct cpu *c)
{
	return c->r[R_AX];
}

/* The address after the instruction (where INT 0x80 and SYSCALL return). */
static inline uint64_t cpu_syscall_next_rip(const struct cpu *c)
{
	return c->rip;
}

/* The six argument registers into args; returns the entry point.
 * ENTRY_64: RDI RSI RDX R10 R8 R9 whole. INT80: EBX ECX EDX ESI EDI EBP,
 * the low 32 bits (from 64-bit code too). FAST32: EBX, ECX (SYSENTER) or
 * EBP (SYSCALL, which took ECX for the return address: __kernel_vsyscall
 * moved it to EBP), EDX ESI EDI, and args[5] 0: the sixth is the 32-bit
 * word at cpu_syscall_user_sp, for the entry code to read through mm. */
static inline enum cpu_syscall_entry cpu_syscall_get_arguments(const struct cpu *c,
							       uint64_t args[6])
{
	const uint64_t *r = c->r;
	bool sysenter = c->mech == CPU_MECH_SYSENTER;

	/* each entry whole, the 64-bit one first: the common case tests
	 * two fields and copies six registers, nothing more */
	if (c->mech == CPU_MECH_SYSCALL && c->mode == CPU_MODE_64) {
		args[0] = r[R_DI];
		args[1] = r[R_SI];
		args[2] = r[R_DX];
		args[3] = r[R_R10];
		args[4] = r[R_R8];
		args[5] = r[R_R9];
		return CPU_SYSCALL_ENTRY_64;
	}
	if (c->mech == CPU_MECH_INT80) {
		args[0] = (uint32_t)r[R_BX];
		args[1] = (uint32_t)r[R_CX];
		args[2] = (uint32_t)r[R_DX];
		args[3] = (uint32_t)r[R_SI];
		args[4] = (uint32_t)r[R_DI];
		args[5] = (uint32_t)r[R_BP];
		return CPU_SYSCALL_ENTRY_INT80;
	}
	args[0] = (uint32_t)r[R_BX];
	args[1] = (uint32_t)(sysenter ? r[R_CX] : r[R_BP]);
	args[2] = (uint32_t)r[R_DX];
	args[3] = (uint32_t)r[R_SI];
	args[4] = (uint32_t)r[R_DI];
	args[5] = 0;
	return CPU_SYSCALL_ENTRY_FAST32;
}

/* A FAST32 call's user stack pointer as the kernel takes it at entry: EBP
 * for SYSENTER (which saves no ESP; __kernel_vsyscall copied ESP there
 * after pushing EBP), ESP for SYSCALL. The sixth argument is the 32-bit
 * word there. */
static inline uint32_t cpu_syscall_user_sp(const struct cpu *c)
{
	return (uint32_t)(c->mech == CPU_MECH_SYSENTER ? c->r[R_BP] : c->r[R_SP]);
}

/* The call's result in RAX: the whole long in 64-bit mode, else its low
 * 32 bits (EAX, the upper half zero). After cpu_syscall_return_fast32,
 * which may change the mode. */
static inline void cpu_syscall_set_return_value(struct cpu *c, long result)
{
	c->r[R_AX] = c->mode == CPU_MODE_64 ? (uint64_t)result : (uint32_t)result;
}

/* RAX as a call's result, as the kernel's signal code tests it for
 * -EINTR and -ERESTART*: EAX sign-extended in 32-bit mode. */
static inline long cpu_syscall_get_return_value(const struct cpu *c)
{
	return c->mode == CPU_MODE_64 ? (long)c->r[R_AX] : (long)(int32_t)c->r[R_AX];
}

/* A FAST32 call's return to the vDSO's landing pad, as a 64-bit kernel
 * returns by SYSRETL: rip = landing, ECX = landing and R11 = RFLAGS
 * without RF; after SYSENTER ESP = user_sp (cpu_syscall_user_sp at the
 * entry), and SYSENTER from 64-bit code (Intel; the kernel takes it as a
 * compat call) lands in compatibility mode, CS 0x23, with ECX and R11 as
 * they were; EBP = *arg6 (the word __kernel_vsyscall saved EBP as, for
 * its landing pad's pop) unless arg6 is NULL (the word could not be
 * read). RAX is cpu_syscall_set_return_value's, after this. */
static inline void cpu_syscall_return_fast32(struct cpu *c, uint32_t user_sp, uint64_t landing,
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
		c->r[R_R11] = cpu_get_rflags(c) & ~0x10000ull; /* RF */
	}
}

/* Where a call interrupted by a signal runs again (the kernel's -ERESTART*
 * rewind: ip -= 2, cx and ax from pt_regs). Taken at entry, before the
 * call: RCX as the kernel's pt_regs->cx holds it, the SYSCALL
 * instruction's return address after 64-bit SYSCALL, the guest's ECX
 * after INT 0x80 and SYSENTER, and EBP after 32-bit SYSCALL (which took
 * ECX for its return address: __kernel_vsyscall moved the second argument
 * to EBP, and the kernel's compat SYSCALL entry saves EBP as cx) — the
 * vDSO's return clobbers ECX, so it cannot be taken after. */
struct cpu_syscall_restart {
	uint64_t rip, rcx;
};

static inline struct cpu_syscall_restart cpu_syscall_restart_point(const struct cpu *c)
{
	bool syscall32 = c->mech == CPU_MECH_SYSCALL && c->mode != CPU_MODE_64;

	return (struct cpu_syscall_restart){ .rip = c->rip - 2,
					     .rcx = syscall32 ? (uint32_t)c->r[R_BP] : c->r[R_CX] };
}

/* After the call: the instruction to enter again is the 2 bytes before
 * where the call returned, the instruction itself after INT 0x80 and
 * 64-bit SYSCALL, the vDSO's int $0x80 just before the landing pad after
 * a FAST32 call. */
static inline void cpu_syscall_restart_returned(const struct cpu *c, struct cpu_syscall_restart *r)
{
	r->rip = c->rip - 2;
}

/* Rewind to r with ax in RAX (the call's own orig_ax, or restart_syscall's
 * number): the instruction makes the call again when the guest resumes. */
static inline void cpu_syscall_rewind(struct cpu *c, const struct cpu_syscall_restart *r,
				      uint64_t ax)
{
	c->r[R_AX] = ax;
	c->r[R_CX] = r->rcx;
	c->rip = r->rip;
}

#endif
