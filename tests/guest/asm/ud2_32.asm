; ud2 (i386): write a line, then execute ud2. Natively: SIGILL (status 132).
bits 32
global _start
section .data
msg:	db "ud2-i386: executing ud2", 10
msglen	equ $ - msg
section .text
_start:
	mov	eax, 4
	mov	ebx, 1
	mov	ecx, msg
	mov	edx, msglen
	int	0x80
	ud2
	mov	eax, 1		; not reached
	xor	ebx, ebx
	int	0x80
