; int80 (i386): system calls by `int 0x80`, the i386 table.
; Prints a message, the result of each call, and exits with status 11.
bits 32
global _start

section .data
msg:	db "int80-i386: hello through int 0x80", 10
msglen	equ $ - msg
l_write:	db "int80 write(1, msg) ->", 0
l_efault:	db "int80 write(1, NULL, 5) ->", 0
l_unknown:	db "int80 nr 1000 ->", 0
l_big:		db "int80 nr 0xffffffff ->", 0

section .text
write_buf:			; ecx = buffer, edx = length
	mov	eax, 4		; i386 write
	mov	ebx, 1
	int	0x80
	ret

_start:
	mov	ecx, msg
	mov	edx, msglen
	call	write_buf
	mov	esi, l_write
	call	print_kv

	mov	eax, 4		; a bad pointer: -EFAULT, not a crash
	mov	ebx, 1
	xor	ecx, ecx
	mov	edx, 5
	int	0x80
	mov	esi, l_efault
	call	print_kv

	mov	eax, 1000	; no such row: -ENOSYS
	int	0x80
	mov	esi, l_unknown
	call	print_kv

	mov	eax, -1		; -1 is "no syscall": -ENOSYS as well
	int	0x80
	mov	esi, l_big
	call	print_kv

	mov	eax, 1		; i386 exit
	mov	ebx, 11
	int	0x80
	hlt

%include "fmt32.inc"
