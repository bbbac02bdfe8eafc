; probe (i386): exit 0 by `int 0x80`, nothing else. The e2e harness runs it
; natively (run_case.sh --probe) to learn whether this host executes i386
; programs: a kernel without IA32 emulation refuses the exec (ENOEXEC, the
; shell's status 126), and the i386 cases then use their fallback oracle.
bits 32
global _start
section .text
_start:
	mov	eax, 1		; i386 exit
	xor	ebx, ebx
	int	0x80
	hlt
