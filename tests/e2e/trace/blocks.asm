; blocks.asm: basic-block boundaries after the instructions that may
; transfer control, for tests/e2e/trace/check_blocks.sh; one source for
; the three ABIs (nasm -f elf32 -DI386 / -f elfx32 -DX32 / -f elf64).
;
; The labels are the expected result, from the SDM's semantics, not from
; sysgate: bb_NAME follows an instruction that may transfer control
; (IRET, HLT and UD2 (which fault), INT3, the system call instruction, a
; far JMP, LOOP, JCXZ, RET imm16), so a block starts there even though
; control goes on to that very address; nb_NAME follows one that falls
; through (a REP string instruction, a NOP), so no block starts there.
; Control reaches every bb_ label by the next address: the faulting ones
; through a signal handler that is the next instruction itself, so the
; only thing that tells a new block is the instruction before. Each runs
; once. Exit status 0; 1 if a branch went where it must not.

%ifdef I386
	bits 32
	%define NR_getpid 20
	%define NR_rt_sigaction 174
	%define NR_exit_group 252
	%define SP esp
	%define AX_ eax
	%define CX_ ecx
	%define SI_ esi
	%define DI_ edi
	%define PTR dd
	%define SLOT 4
	%macro SYSCALL_INSN 0
		int 0x80
	%endmacro
	%macro ADDR 2 ; ADDR reg, label
		mov %1, %2
	%endmacro
%else
	bits 64
	%ifdef X32
		%define X32_BIT 0x40000000
		%define NR_rt_sigaction (X32_BIT + 512)
		%define PTR dd
	%else
		%define X32_BIT 0
		%define NR_rt_sigaction 13
		%define PTR dq
	%endif
	%define NR_getpid (X32_BIT + 39)
	%define NR_exit_group (X32_BIT + 231)
	%define SP rsp
	%define AX_ rax
	%define CX_ rcx
	%define SI_ rsi
	%define DI_ rdi
	%define SLOT 8
	%macro SYSCALL_INSN 0
		syscall
	%endmacro
	%macro ADDR 2
		lea %1, [rel %2]
	%endmacro
%endif

%define SIGILL 4
%define SIGTRAP 5
%define SIGSEGV 11
%define SA_RESTORER 0x04000000
%define SA_NODEFER 0x40000000

; rt_sigaction(sig, act, NULL, 8): the kernel's struct sigaction of the
; ABI (handler, flags, restorer, mask); never returned from, but x86_64
; wants SA_RESTORER
%macro HANDLE 2 ; HANDLE signal, act
%ifdef I386
	mov eax, NR_rt_sigaction
	mov ebx, %1
	mov ecx, %2
	xor edx, edx
	mov esi, 8
	int 0x80
%else
	mov eax, NR_rt_sigaction
	mov edi, %1
	lea rsi, [rel %2]
	xor edx, edx
	mov r10d, 8
	syscall
%endif
	test eax, eax
	jnz fail
%endmacro

%macro ACT 1 ; ACT handler
	PTR %1
	PTR SA_RESTORER | SA_NODEFER
	PTR fail
	dd 0, 0
%endmacro

section .data
act_segv: ACT bb_hlt
act_ill:  ACT bb_ud2
act_trap: ACT bb_int3
farptr:   dd bb_farjmp ; m16:32
	  dw 0
src:      db 1, 2, 3, 4
dst:      db 0, 0, 0, 0

section .text
global _start
_start:
	HANDLE SIGSEGV, act_segv
	HANDLE SIGILL, act_ill
	HANDLE SIGTRAP, act_trap

	; IRET to the next instruction, at the same privilege
%ifdef I386
	pushfd
	xor eax, eax
	mov ax, cs
	push eax
	push bb_iret
	iretd
%else
	mov rdx, rsp
	xor eax, eax
	mov ax, ss
	push rax
	push rdx
	pushfq
	mov ax, cs
	push rax
	lea rax, [rel bb_iret]
	push rax
	iretq
%endif
bb_iret:
	nop                     ; the trace shows only what ran, so no
	hlt                     ; block here starts with a faulting one
bb_hlt:                         ; HLT: #GP at CPL 3, SIGSEGV handled here
	nop
	ud2
bb_ud2:                         ; UD2: #UD, SIGILL handled here
	nop
	int3
bb_int3:                        ; INT3: SIGTRAP handled here
	mov eax, NR_getpid
	SYSCALL_INSN
bb_syscall:
	mov ax, cs              ; JMP FAR m16:32 with this code segment
%ifdef I386
	mov [farptr + 4], ax
	jmp far [farptr]
%else
	mov [rel farptr + 4], ax
	jmp dword far [rel farptr] ; m16:32 (REX.W would make it m16:64, Intel only)
%endif
bb_farjmp:
	mov ecx, 1
	loop fail               ; rCX 1 -> 0: not taken
bb_loop:
	mov ecx, 1
%ifdef I386
	jecxz fail              ; not taken
%else
	jrcxz fail
%endif
bb_jcxz:
	ADDR SI_, src
	ADDR DI_, dst
	mov ecx, 4
	cld
	rep movsb
nb_rep:
	nop
nb_nop:
	push AX_                ; a slot that RET imm16 releases
	ADDR AX_, bb_retimm
	push AX_
	ret SLOT
bb_retimm:
%ifdef I386
	mov eax, [dst]          ; the copied bytes arrived
%else
	mov eax, [rel dst]
%endif
	cmp eax, 0x04030201
	jne fail
	xor ebx, ebx
	jmp exit
fail:
	mov ebx, 1
exit:
%ifdef I386
	mov eax, NR_exit_group
	int 0x80
%else
	mov edi, ebx
	mov eax, NR_exit_group
	syscall
%endif
