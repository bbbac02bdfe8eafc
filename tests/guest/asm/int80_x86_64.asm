; int80 (x86_64): `int 0x80` from 64-bit code still enters the i386 table:
; i386 numbers, 32-bit registers (ebx ecx edx ...), so buffers must lie in
; the low 4 GiB, which a non-PIE static program's .data does.
; Exits with status 14 by i386 exit (1), which in the 64-bit table would
; be write.
bits 64
default rel
global _start

section .data
msg:	db "int80-x86_64: hello through int 0x80 from 64-bit code", 10
msglen	equ $ - msg
l_write:	db "int80 write(1, msg) ->", 0
l_unknown:	db "int80 nr 1000 ->", 0
l_getpid:	db "int80 getpid(20) == syscall getpid(39) ->", 0
l_upper:	db "int80 ignores the upper halves of rbx rcx rdx ->", 0

section .text
write_buf:			; rsi = buffer, rdx = length (the i386 way)
	push	rbx
	mov	ecx, esi
	mov	eax, 4		; i386 write
	mov	ebx, 1
	int	0x80
	pop	rbx
	ret

_start:
	lea	rsi, [msg]
	mov	edx, msglen
	call	write_buf
	lea	rsi, [l_write]
	call	print_kv

	mov	eax, 1000
	int	0x80
	lea	rsi, [l_unknown]
	call	print_kv

	mov	eax, 20		; i386 getpid
	int	0x80
	mov	r12, rax
	mov	eax, 39		; x86_64 getpid
	syscall
	cmp	rax, r12
	sete	al
	movzx	eax, al
	lea	rsi, [l_getpid]
	call	print_kv

	; garbage in the upper halves: the i386 table sees 32-bit values only
	mov	rbx, 0xdead000000000001	; fd 1
	lea	rcx, [msg]
	mov	rax, 0xbeef000000000000
	or	rcx, rax
	mov	rdx, 0xf00d000000000000 | msglen
	mov	eax, 4
	int	0x80
	lea	rsi, [l_upper]
	call	print_kv

	mov	eax, 1		; i386 exit
	mov	ebx, 14
	int	0x80
	hlt

%include "fmt64.inc"
