; undef (x86_64): execute 0F 0A, an opcode no x86 CPU defines. Natively:
; SIGILL (status 132); sysgate also names the address (symbol bad_insn)
; and the bytes on stderr.
bits 64
default rel
global _start
global bad_insn
section .data
msg:	db "undef-x86_64: executing 0f 0a", 10
msglen	equ $ - msg
section .text
_start:
	mov	eax, 1
	mov	edi, 1
	lea	rsi, [msg]
	mov	edx, msglen
	syscall
bad_insn:
	db	0x0f, 0x0a
	mov	eax, 231	; not reached
	xor	edi, edi
	syscall
