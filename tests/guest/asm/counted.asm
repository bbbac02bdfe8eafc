; counted: a program of known length for --stats (e2e.stats.*). Built as
; i386 (elf32), x32 (elfx32) and x86_64 (elf64); every build executes
; the same number of instructions:
;
;   _start               2                  (mov ecx, LOOPS; xor eax, eax)
;   .loop, LOOPS times   6                  (call; add, rol, ret; dec, jnz)
;   write(1, msg, len)   5                  (four moves, the system call)
;   exit_group(0)        3                  (two moves, the system call)
;
; 10 + 6 * LOOPS in all (tests/e2e/CMakeLists.txt computes it; the test
; also counts them natively by single-stepping, where the host can run
; the build).
%ifndef LOOPS
%define LOOPS 5000
%endif
global _start
%ifidn __OUTPUT_FORMAT__, elf32
bits 32
section .data
msg:	db "counted: done", 10
msglen	equ $ - msg
section .text
_start:
	mov	ecx, LOOPS
	xor	eax, eax
.loop:
	call	step
	dec	ecx
	jnz	.loop
	mov	eax, 4		; write
	mov	ebx, 1
	mov	ecx, msg
	mov	edx, msglen
	int	0x80
	mov	eax, 252	; exit_group
	xor	ebx, ebx
	int	0x80
step:
	add	eax, ecx
	rol	eax, 3
	ret
%else
bits 64
default rel
%ifidn __OUTPUT_FORMAT__, elfx32
NR_WRITE	equ 0x40000000 | 1
NR_EXIT_GROUP	equ 0x40000000 | 231
%else
NR_WRITE	equ 1
NR_EXIT_GROUP	equ 231
%endif
section .data
msg:	db "counted: done", 10
msglen	equ $ - msg
section .text
_start:
	mov	ecx, LOOPS
	xor	eax, eax
.loop:
	call	step
	dec	ecx
	jnz	.loop
	mov	eax, NR_WRITE
	mov	edi, 1
	lea	rsi, [msg]
	mov	edx, msglen
	syscall
	mov	eax, NR_EXIT_GROUP
	xor	edi, edi
	syscall
step:
	add	eax, ecx
	rol	eax, 3
	ret
%endif
