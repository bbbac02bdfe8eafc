/* The i386 vDSO's entry points, built as linux-gate.so.1 (DESIGN.md, vDSO).
 * The instruction sequences are the kernel's ABI: glibc calls
 * __kernel_vsyscall through AT_SYSINFO, and sysgate's SYSENTER emulation
 * resumes at vdso_sysenter_return with ecx, edx and ebp still pushed. */

	.text

	.globl	__kernel_vsyscall
	.type	__kernel_vsyscall, @function
	.p2align 4
__kernel_vsyscall:
	/* SYSENTER loses ecx/edx (and the kernel takes arg 6 from (ebp)), so
	 * they are saved here and the kernel reads the user stack via ebp.
	 * The CFI lets an unwinder step out at every instruction (the
	 * kernel's unwind_vdso selftest single-steps through it). */
	.cfi_startproc
	pushl	%ecx
	.cfi_adjust_cfa_offset 4
	.cfi_rel_offset ecx, 0
	pushl	%edx
	.cfi_adjust_cfa_offset 4
	.cfi_rel_offset edx, 0
	pushl	%ebp
	.cfi_adjust_cfa_offset 4
	.cfi_rel_offset ebp, 0
	movl	%esp, %ebp
	sysenter
	/* not reached through SYSENTER; a kernel that will not take it
	 * falls back to the legacy gate */
	int	$0x80
	.type	vdso_sysenter_return, @function
vdso_sysenter_return:
	popl	%ebp
	.cfi_adjust_cfa_offset -4
	.cfi_restore ebp
	popl	%edx
	.cfi_adjust_cfa_offset -4
	.cfi_restore edx
	popl	%ecx
	.cfi_adjust_cfa_offset -4
	.cfi_restore ecx
	ret
	.cfi_endproc
	.size	vdso_sysenter_return, . - vdso_sysenter_return
	.size	__kernel_vsyscall, . - __kernel_vsyscall

	/* Signal-frame restorers: the return address of a handler points
	 * here; the first pops the signal number the frame left. */
	.globl	__kernel_sigreturn
	.type	__kernel_sigreturn, @function
	.p2align 5
__kernel_sigreturn:
	popl	%eax
	movl	$119, %eax	/* __NR_sigreturn (i386) */
	int	$0x80
	.size	__kernel_sigreturn, . - __kernel_sigreturn

	.globl	__kernel_rt_sigreturn
	.type	__kernel_rt_sigreturn, @function
	.p2align 5
__kernel_rt_sigreturn:
	movl	$173, %eax	/* __NR_rt_sigreturn (i386) */
	int	$0x80
	.size	__kernel_rt_sigreturn, . - __kernel_rt_sigreturn

	.section .note.GNU-stack, "", @progbits
