; syscall (x86_64): system calls by `syscall`, the 64-bit table.
; Prints a message, the result of each call, exits (exit_group) with 13.
bits 64
default rel
global _start

section .data
msg:	db "syscall-x86_64: hello through syscall", 10
msglen	equ $ - msg
l_write:	db "syscall write(1, msg) ->", 0
l_efault:	db "syscall write(1, NULL, 5) ->", 0
l_unknown:	db "syscall nr 1000 ->", 0
l_x32row:	db "syscall nr 512 (an x32-only row) ->", 0
l_regs:		db "syscall preserves rbx rdx rsi rdi rbp r8-r10 r12-r15 ->", 0

section .text
write_buf:			; rsi = buffer, rdx = length
	mov	eax, 1		; write
	mov	edi, 1
	syscall
	ret

_start:
	lea	rsi, [msg]
	mov	edx, msglen
	call	write_buf
	lea	rsi, [l_write]
	call	print_kv

	mov	eax, 1
	mov	edi, 1
	xor	esi, esi
	mov	edx, 5
	syscall
	lea	rsi, [l_efault]
	call	print_kv

	mov	eax, 1000
	syscall
	lea	rsi, [l_unknown]
	call	print_kv

	mov	eax, 512	; rt_sigaction for x32 only: no 64-bit row
	syscall
	lea	rsi, [l_x32row]
	call	print_kv

	mov	rbx, 0x1111111111111111
	mov	rdx, 0x2222222222222222
	mov	rsi, 0x3333333333333333
	mov	rdi, 0x4444444444444444
	mov	rbp, 0x5555555555555555
	mov	r8, 0x6666666666666666
	mov	r9, 0x7777777777777777
	mov	r10, 0x0123456789abcdef
	mov	r12, 0x1212121212121212
	mov	r13, 0x1313131313131313
	mov	r14, 0x1414141414141414
	mov	r15, 0x1515151515151515
	mov	eax, 39		; getpid
	syscall
	xor	eax, eax
	mov	rcx, 0x1111111111111111
	cmp	rbx, rcx
	jne	.bad
	mov	rcx, 0x2222222222222222
	cmp	rdx, rcx
	jne	.bad
	mov	rcx, 0x3333333333333333
	cmp	rsi, rcx
	jne	.bad
	mov	rcx, 0x4444444444444444
	cmp	rdi, rcx
	jne	.bad
	mov	rcx, 0x5555555555555555
	cmp	rbp, rcx
	jne	.bad
	mov	rcx, 0x6666666666666666
	cmp	r8, rcx
	jne	.bad
	mov	rcx, 0x7777777777777777
	cmp	r9, rcx
	jne	.bad
	mov	rcx, 0x0123456789abcdef
	cmp	r10, rcx
	jne	.bad
	mov	rcx, 0x1212121212121212
	cmp	r12, rcx
	jne	.bad
	mov	rcx, 0x1313131313131313
	cmp	r13, rcx
	jne	.bad
	mov	rcx, 0x1414141414141414
	cmp	r14, rcx
	jne	.bad
	mov	rcx, 0x1515151515151515
	cmp	r15, rcx
	jne	.bad
	inc	eax
.bad:
	lea	rsi, [l_regs]
	call	print_kv

	mov	eax, 231	; exit_group
	mov	edi, 13
	syscall
	hlt

%include "fmt64.inc"
