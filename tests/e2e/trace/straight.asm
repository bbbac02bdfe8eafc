; straight (x86_64): straight-line code and one counted loop, then
; exit_group(7). The instruction trace and the coverage example are checked
; against this source: 3 + 3*3 + 4 = 16 instructions run. Basic blocks
; entered: _start..jnz, then loop..jnz twice (the branch back), then
; mov..syscall: 4 entered, 3 distinct.
bits 64
global _start
section .text
_start:
	xor	eax, eax
	mov	ecx, 3
	nop
loop:
	inc	eax
	dec	ecx
	jnz	loop
	mov	edi, eax
	add	edi, 4
	mov	eax, 231	; exit_group(3 + 4)
	syscall
