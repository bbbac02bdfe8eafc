; apiregs (x86_64): known values in an XMM register and on the x87 stack,
; then system calls, for api_more_check.c (check_install.sh). The checks
; take their expected values from this source (and the host CPU's own
; FLDPI / selectors / initial FPU state for the rest):
;   _start:     movdqu xmm3, [bytes 0x10..0x1f]; fld1; fldpi  (3 instructions)
;   calls:      getpid; getpid; getuid                        (6 instructions)
;   regs_ready: nop; mov edi, 3; mov eax, 231; syscall        exit_group(3)
bits 64
global _start, calls, regs_ready
section .data
vec:	db 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17
	db 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f
section .text
_start:
	movdqu	xmm3, [rel vec]
	fld1
	fldpi
calls:
	mov	eax, 39		; getpid
	syscall
	mov	eax, 39		; getpid
	syscall
	mov	eax, 102	; getuid
	syscall
regs_ready:
	nop
	mov	edi, 3
	mov	eax, 231	; exit_group(3)
	syscall
