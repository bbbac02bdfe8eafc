; probe (x86_64): exit 0 by `int 0x80` from 64-bit code (i386 exit, 1).
; The e2e harness runs it natively (run_case.sh --probe) to learn whether
; this host's kernel has the i386 entry: without IA32 emulation `int 0x80`
; raises SIGSEGV (status 139), and int80-x86_64 uses its fallback oracle.
bits 64
global _start
section .text
_start:
	mov	eax, 1		; i386 exit
	xor	ebx, ebx
	int	0x80
	mov	eax, 60		; not reached where int 0x80 works: exit(1)
	mov	edi, 1
	syscall
