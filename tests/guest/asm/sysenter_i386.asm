; sysenter (i386): system calls through the vDSO's __kernel_vsyscall, the
; way i386 glibc makes them: find AT_SYSINFO in the auxiliary vector on the
; initial stack and `call` it with the i386 registers. On this path the
; kernel (and sysgate) enters through SYSENTER. Exits with status 12.
bits 32
global _start

AT_NULL		equ 0
AT_SYSINFO	equ 32

section .data
msg:	db "sysenter-i386: hello through __kernel_vsyscall", 10
msglen	equ $ - msg
nosys:	db "sysenter-i386: no AT_SYSINFO in the auxv", 10
nosyslen equ $ - nosys
l_write:	db "vsyscall write(1, msg) ->", 0
l_efault:	db "vsyscall write(1, NULL, 5) ->", 0
l_unknown:	db "vsyscall nr 1000 ->", 0
l_regs:		db "vsyscall preserves ebx ecx edx esi edi ebp ->", 0

section .bss
vsyscall:	resd 1

section .text
write_buf:			; ecx = buffer, edx = length
	mov	eax, 4
	mov	ebx, 1
	call	[vsyscall]
	ret

_start:
	; [esp] = argc, then argv[0..argc-1], NULL, envp..., NULL, auxv pairs
	mov	eax, [esp]
	lea	esi, [esp + 4 + eax * 4 + 4]
.skip_env:
	mov	eax, [esi]
	add	esi, 4
	test	eax, eax
	jnz	.skip_env
.auxv:
	mov	eax, [esi]
	cmp	eax, AT_NULL
	je	.not_found
	cmp	eax, AT_SYSINFO
	je	.found
	add	esi, 8
	jmp	.auxv
.not_found:
	mov	eax, 4		; say so by int 0x80, exit 99
	mov	ebx, 1
	mov	ecx, nosys
	mov	edx, nosyslen
	int	0x80
	mov	eax, 1
	mov	ebx, 99
	int	0x80
.found:
	mov	eax, [esi + 4]
	mov	[vsyscall], eax

	mov	ecx, msg
	mov	edx, msglen
	call	write_buf
	mov	esi, l_write
	call	print_kv

	mov	eax, 4
	mov	ebx, 1
	xor	ecx, ecx
	mov	edx, 5
	call	[vsyscall]
	mov	esi, l_efault
	call	print_kv

	mov	eax, 1000
	call	[vsyscall]
	mov	esi, l_unknown
	call	print_kv

	; getpid (20) must leave every register but eax as it was
	mov	ebx, 0x11111111
	mov	ecx, 0x22222222
	mov	edx, 0x33333333
	mov	esi, 0x44444444
	mov	edi, 0x55555555
	mov	ebp, 0x66666666
	mov	eax, 20
	call	[vsyscall]
	xor	eax, eax
	cmp	ebx, 0x11111111
	jne	.bad
	cmp	ecx, 0x22222222
	jne	.bad
	cmp	edx, 0x33333333
	jne	.bad
	cmp	esi, 0x44444444
	jne	.bad
	cmp	edi, 0x55555555
	jne	.bad
	cmp	ebp, 0x66666666
	jne	.bad
	inc	eax
.bad:
	mov	esi, l_regs
	call	print_kv

	mov	eax, 1		; exit
	mov	ebx, 12
	call	[vsyscall]
	hlt

%include "fmt32.inc"
