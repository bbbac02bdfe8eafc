; x32: how the kernel routes `syscall` from an x32 program.
;
; Built twice from this one file:
;   nasm -f elfx32        -> the x32 program (x32 calls: bit 0x40000000 set)
;   nasm -f elf64 -DTWIN  -> its 64-bit twin, run natively as the reference
;                            (this host's kernel cannot run x32 programs).
; Each line prints what one call returned. The twin makes, for each x32
; call, the 64-bit call the kernel's entry code is documented to route it
; to, so both print the same numbers:
;   x32|1 write            -> x32 table row 1 (common write)  = twin nr 1
;   1 (no bit) write       -> 64-bit table (do_syscall_x64)   = twin nr 1
;   512 (no bit)           -> 64-bit table, no row: -ENOSYS   = twin nr 512
;   x32|13 rt_sigaction    -> x32 table has no "64" rows: -ENOSYS. The twin
;                             makes the same call; whether the kernel has x32
;                             compiled in or not, it answers -ENOSYS.
;   x32|512 rt_sigaction   -> the x32 row of rt_sigaction    = twin nr 13
;   1000, x32|1000         -> no row in either table: -ENOSYS (twin: same)
;   x32|39 getpid == 39    -> common row in both tables      = twin 39, 39
; Exit: exit_group, x32|231 (twin 231), status 15.
bits 64
default rel
global _start

X32	equ 0x40000000
%ifdef TWIN
NR_WRITE	equ 1
NR_SIGACTION	equ 13
NR_GETPID	equ 39
NR_EXIT_GROUP	equ 231
%else
NR_WRITE	equ X32 | 1
NR_SIGACTION	equ X32 | 512
NR_GETPID	equ X32 | 39
NR_EXIT_GROUP	equ X32 | 231
%endif

section .data
msg1:	db "x32: write with the x32 bit (x32 table)", 10
msg1len	equ $ - msg1
msg2:	db "x32: write without the bit (64-bit table)", 10
msg2len	equ $ - msg2
l_write1:	db "x32|1 write ->", 0
l_write2:	db "1 write (no x32 bit) ->", 0
l_512:		db "512 without the x32 bit ->", 0
l_x32_13:	db "x32|13 (rt_sigaction, a 64-only row) ->", 0
l_x32_512:	db "x32|512 rt_sigaction(SIGUSR1, NULL, &old, 8) ->", 0
l_1000:		db "1000 ->", 0
l_x32_1000:	db "x32|1000 ->", 0
l_getpid:	db "x32|39 getpid == 39 getpid ->", 0

section .bss
oldact:	resb 64

section .text
write_buf:			; rsi = buffer, rdx = length
	mov	eax, NR_WRITE
	mov	edi, 1
	syscall
	ret

_start:
	lea	rsi, [msg1]
	mov	edx, msg1len
	call	write_buf
	lea	rsi, [l_write1]
	call	print_kv

	mov	eax, 1		; no bit: the 64-bit table's write
	mov	edi, 1
	lea	rsi, [msg2]
	mov	edx, msg2len
	syscall
	lea	rsi, [l_write2]
	call	print_kv

	mov	eax, 512
	mov	edi, 10
	xor	esi, esi
	lea	rdx, [oldact]
	mov	r10d, 8
	syscall
	lea	rsi, [l_512]
	call	print_kv

	mov	eax, X32 | 13
	mov	edi, 10
	xor	esi, esi
	lea	rdx, [oldact]
	mov	r10d, 8
	syscall
	lea	rsi, [l_x32_13]
	call	print_kv

	mov	eax, NR_SIGACTION
	mov	edi, 10		; SIGUSR1
	xor	esi, esi
	lea	rdx, [oldact]
	mov	r10d, 8
	syscall
	lea	rsi, [l_x32_512]
	call	print_kv

	mov	eax, 1000
	syscall
	lea	rsi, [l_1000]
	call	print_kv

	mov	eax, X32 | 1000
	syscall
	lea	rsi, [l_x32_1000]
	call	print_kv

	mov	eax, NR_GETPID
	syscall
	mov	r12, rax
	mov	eax, 39
	syscall
	cmp	rax, r12
	sete	al
	movzx	eax, al
	lea	rsi, [l_getpid]
	call	print_kv

	mov	eax, NR_EXIT_GROUP
	mov	edi, 15
	syscall
	hlt

%include "fmt64.inc"
