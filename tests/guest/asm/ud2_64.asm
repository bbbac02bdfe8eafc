; ud2 (x86_64; also assembled as x32): write a line, then execute ud2.
; Natively: SIGILL (status 132).
bits 64
default rel
global _start
%ifidn __OUTPUT_FORMAT__, elfx32
NR_WRITE	equ 0x40000000 | 1
NR_EXIT_GROUP	equ 0x40000000 | 231
%else
NR_WRITE	equ 1
NR_EXIT_GROUP	equ 231
%endif
section .data
msg:	db "ud2: executing ud2", 10
msglen	equ $ - msg
section .text
_start:
	mov	eax, NR_WRITE
	mov	edi, 1
	lea	rsi, [msg]
	mov	edx, msglen
	syscall
	ud2
	mov	eax, NR_EXIT_GROUP	; not reached
	xor	edi, edi
	syscall
