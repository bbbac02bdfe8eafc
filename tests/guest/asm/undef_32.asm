; undef (i386): execute 0F 0A, an opcode no x86 CPU defines. Natively:
; SIGILL (status 132); sysgate also names the address (symbol bad_insn)
; and the bytes on stderr.
bits 32
global _start
global bad_insn
section .data
msg:	db "undef-i386: executing 0f 0a", 10
msglen	equ $ - msg
section .text
_start:
	mov	eax, 4
	mov	ebx, 1
	mov	ecx, msg
	mov	edx, msglen
	int	0x80
bad_insn:
	db	0x0f, 0x0a
	mov	eax, 1		; not reached
	xor	ebx, ebx
	int	0x80
