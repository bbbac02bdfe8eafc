; native_i386 (i386): exit(0) through int $0x80 and nothing else.
; compare_strace.sh runs it natively before an i386 comparison: it exits 0
; only where the kernel runs i386 programs (IA32 emulation); elsewhere the
; exec fails with ENOEXEC and there is no native strace reference to have.
bits 32
global _start
section .text
_start:
	mov	eax, 1		; exit
	xor	ebx, ebx
	int	0x80
