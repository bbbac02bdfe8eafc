/* Differential tests: the host CPU is the oracle. Each snippet runs
 * natively (from an RWX page, through a wrapper that loads and saves every
 * GPR and RFLAGS) and in the interpreter from the same state; GPRs, the
 * flags the SDM defines for the snippet, and a memory buffer must match. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <errno.h>
#include <time.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <asm/prctl.h>
#include <cmocka.h>
#include "cpu/cpu.h"

struct state {
	uint64_t r[16];
	uint64_t rflags;
};

/* run_native(struct state *s, void *code): RSP stays the host's. */
void run_native(struct state *s, void *code);
__asm__(".text\n"
	".globl run_native\n"
	"run_native:\n"
	"push %rbx; push %rbp; push %r12; push %r13; push %r14; push %r15\n"
	"push %rdi\n"
	"push %rsi\n"
	"pushq 128(%rdi); popfq\n"
	"mov 0(%rdi),%rax; mov 8(%rdi),%rcx; mov 16(%rdi),%rdx; mov 24(%rdi),%rbx\n"
	"mov 40(%rdi),%rbp; mov 48(%rdi),%rsi\n"
	"mov 64(%rdi),%r8; mov 72(%rdi),%r9; mov 80(%rdi),%r10; mov 88(%rdi),%r11\n"
	"mov 96(%rdi),%r12; mov 104(%rdi),%r13; mov 112(%rdi),%r14; mov 120(%rdi),%r15\n"
	"mov 56(%rdi),%rdi\n"
	"call *(%rsp)\n"
	"xchg %rdi,8(%rsp)\n"
	"mov %rax,0(%rdi); mov %rcx,8(%rdi); mov %rdx,16(%rdi); mov %rbx,24(%rdi)\n"
	"mov %rbp,40(%rdi); mov %rsi,48(%rdi)\n"
	"mov %r8,64(%rdi); mov %r9,72(%rdi); mov %r10,80(%rdi); mov %r11,88(%rdi)\n"
	"mov %r12,96(%rdi); mov %r13,104(%rdi); mov %r14,112(%rdi); mov %r15,120(%rdi)\n"
	"pushfq; popq 128(%rdi)\n"
	"mov 8(%rsp),%rax; mov %rax,56(%rdi)\n"
	"cld\n"
	"add $16,%rsp\n"
	"pop %r15; pop %r14; pop %r13; pop %r12; pop %rbp; pop %rbx\n"
	"ret\n");

#define FCF 0x001
#define FPF 0x004
#define FAF 0x010
#define FZF 0x040
#define FSF 0x080
#define FOF 0x800
#define MASK_ARITH (FCF | FPF | FAF | FZF | FSF | FOF)
#define MASK_ARITH_NOAF (FCF | FPF | FZF | FSF | FOF)
#define MASK_ALL MASK_ARITH
#define MASK_CO (FCF | FOF)
#define MASK_COSZP (FCF | FOF | FSF | FZF | FPF)
#define MASK_CF FCF
#define MASK_CF_IFCNT FCF
#define MASK_ZF FZF
#define MASK_CZ (FCF | FZF)
#define MASK_NONE 0
#define MASK_CZSP (FCF | FZF | FSF | FPF)

struct snippet {
	const char *name;
	const char *bytes;
	unsigned len;
	uint64_t flags_mask;
};


static const struct snippet cases64[] = {
	/* 67h in 64-bit mode (x32's addr32 operands): the offset computed in
	 * 32 bits, zero-extended. Flat base + disp takes the fast forms
	 * (insn.h, insn_addr32_in_64): a base with garbage in its high half,
	 * loads, stores, ALU of memory, MOVZX, byte and 16-bit moves, INC;
	 * MOVSX/MOVSXD and LEA into a 64-bit register stay generic. */
	{ "ADDR32: movabs $0xdead000000000000,%r8; or %rsi,%r8; mov 4(%r8d),%eax; mov 8(%r8d),%rbx; mov %eax,12(%r8d); mov %rbx,48(%r8d); add 16(%r8d),%ecx; cmp %ecx,20(%r8d); sub %edx,24(%r8d); addl $5,28(%r8d); xor 44(%r8d),%r15; movzbl 3(%r8d),%r9d; movzwl 5(%r8d),%r10d; mov 7(%r8d),%r11b; mov %r10w,32(%r8d); movl $0x12345678,36(%r8d); incl 40(%r8d); lea 0x10(%r8d,%edx,4),%r12d; movsbl 9(%r8d),%r13d; lea 4(%r8d),%r14; movslq 52(%r8d),%rbp",
	  "\x49\xb8\x00\x00\x00\x00\x00\x00\xad\xde\x49\x09\xf0\x67\x41\x8b\x40\x04\x67\x49\x8b\x58\x08\x67\x41\x89\x40\x0c\x67\x49\x89\x58\x30\x67\x41\x03\x48\x10\x67\x41\x39\x48\x14\x67\x41\x29\x50\x18\x67\x41\x83\x40\x1c\x05\x67\x4d\x33\x78\x2c\x67\x45\x0f\xb6\x48\x03\x67\x45\x0f\xb7\x50\x05\x67\x45\x8a\x58\x07\x67\x66\x45\x89\x50\x20\x67\x41\xc7\x40\x24\x78\x56\x34\x12\x67\x41\xff\x40\x28\x67\x45\x8d\x64\x90\x10\x67\x45\x0f\xbe\x68\x09\x67\x4d\x8d\x70\x04\x67\x49\x63\x68\x34", 118, MASK_ARITH },
	/* ... an offset that wraps past 4 GiB (base + disp and an index),
	 * and one below 0 (a negative disp) */
	{ "ADDR32 WRAP: mov %esi,%r9d; add $0x80000100,%r9d; mov 0x7fffff00(%r9d),%eax; mov %ebx,0x7fffff04(%r9d); add 0x7fffff08(%r9d),%ecx; lea 0x10(%rsi),%r10; mov -0x10(%r10d),%edx; movabs $0x5500000001,%r11; mov 4(%r10d,%r11d,4),%r12d; mov 0x7ffffef8(%r9d,%r11d,8),%r13d",
	  "\x41\x89\xf1\x41\x81\xc1\x00\x01\x00\x80\x67\x41\x8b\x81\x00\xff\xff\x7f\x67\x41\x89\x99\x04\xff\xff\x7f\x67\x41\x03\x89\x08\xff\xff\x7f\x4c\x8d\x56\x10\x67\x41\x8b\x52\xf0\x49\xbb\x01\x00\x00\x00\x55\x00\x00\x00\x67\x47\x8b\x64\x9a\x04\x67\x47\x8b\xac\xd9\xf8\xfe\xff\x7f", 68, MASK_ARITH },
	/* ... compares fused with a Jcc and the three-way compare (fused.c) */
	{ "ADDR32 FUSED: movabs $0x7700000000000000,%r8; or %rsi,%r8; cmp 4(%r8d),%eax; jne 1f; inc %ecx; 1: cmp 8(%r8d),%rbx; je 2f; inc %edx; 2: cmpb $7,3(%r8d); jb 3f; inc %ebp; 3: cmp %eax,(%r8d); setg %al; setl %dl",
	  "\x49\xb8\x00\x00\x00\x00\x00\x00\x00\x77\x49\x09\xf0\x67\x41\x3b\x40\x04\x75\x02\xff\xc1\x67\x49\x3b\x58\x08\x74\x02\xff\xc2\x67\x41\x80\x78\x03\x07\x72\x02\xff\xc5\x67\x41\x39\x00\x0f\x9f\xc0\x0f\x9c\xc2", 51, MASK_ARITH },
	/* ... FS-relative: FS's base (the host's, run_case) added after the
	 * 32-bit wrap, to a base with garbage in its high half */
	{ "ADDR32 FS: movabs $0x1234500000000,%r9; mov %fs:(%r9d),%rax; mov %fs:0x10(%r9d),%rbx; add %fs:0x10(%r9d),%rcx",
	  "\x49\xb9\x00\x00\x00\x00\x45\x23\x01\x00\x64\x67\x49\x8b\x01\x64\x67\x49\x8b\x59\x10\x64\x67\x49\x03\x49\x10", 27, MASK_ARITH },
	/* PUSH of memory (move.c, fast_push_m64*): base + disp, an index,
	 * RSP as the base (the address before the push), FS-relative (the
	 * host's TCB pointer), and a push whose stack is in the snippet's
	 * own page, decoded code (its table handler runs the store) */
	{ "PUSH MEM: push 8(%rsi); pop %rax; xor %ecx,%ecx; push 16(%rsi,%rcx,8); pop %rbx; push %rdx; push %rbp; push 8(%rsp); pop %r10; pop %r11; pop %r12; push %fs:0; pop %r13; mov %rsp,%r8; lea 0x100(%rip),%rsp; push 8(%rsi); pop %r14; mov %r8,%rsp; xor %r8d,%r8d",
	  "\xff\x76\x08\x58\x31\xc9\xff\x74\xce\x10\x5b\x52\x55\xff\x74\x24\x08\x41\x5a\x41\x5b\x41\x5c\x64\xff\x34\x25\x00\x00\x00\x00\x41\x5d\x49\x89\xe0\x48\x8d\x25\x00\x01\x00\x00\xff\x76\x08\x41\x5e\x4c\x89\xc4\x45\x31\xc0", 54, MASK_ARITH },
	/* 16-bit ALU (every operand form), shifts by an immediate (17: past
	 * the width, generic), NEG, ADC/SBB: fast forms on the warm run. */
	{ "ALU16: add %bx,%ax; sub %r9w,%cx; and $0x1234,%dx; or %si,%di; xor $0xfffd,%r10w; cmp %ax,%bx; test $0x8001,%cx; adc %dx,%r11w; sbb $0x7,%r8w",
	  "\x66\x01\xd8\x66\x44\x29\xc9\x66\x81\xe2\x34\x12\x66\x09\xf7\x66\x41\x83\xf2\xfd\x66\x39\xc3\x66\xf7\xc1\x01\x80\x66\x41\x11\xd3\x66\x41\x83\xd8\x07", 37, MASK_ARITH },
	{ "MEM16 ALU: add %ax,0x6(%rsi); sub 0x2(%rdi),%bx; cmpw $0x5,0x4(%rsi); and %cx,(%rdi); xorw $0x1ff,0x8(%rsi); test %dx,0xa(%rsi); or 0xc(%rsi),%r9w",
	  "\x66\x01\x46\x06\x66\x2b\x5f\x02\x66\x83\x7e\x04\x05\x66\x21\x0f\x66\x81\x76\x08\xff\x01\x66\x85\x56\x0a\x66\x44\x0b\x4e\x0c", 31, MASK_ARITH_NOAF },
	{ "SHIFT16: shr $0x8,%r9w; shl $0x3,%ax; sar $0xf,%bx; rol $0x5,%cx; ror $0x9,%dx; shr $0x11,%si; sar %di; shl $0x4,%r10w",
	  "\x66\x41\xc1\xe9\x08\x66\xc1\xe0\x03\x66\xc1\xfb\x0f\x66\xc1\xc1\x05\x66\xc1\xca\x09\x66\xc1\xee\x11\x66\xd1\xff\x66\x41\xc1\xe2\x04", 33, MASK_CZSP },
	{ "NEG/ADC/SBB: neg %cx; neg %r9d; neg %rax; neg %bx; sbb %sil,%sil; adc %ah,%bl; sbb $0x3,%dh; adc %ecx,%edx; sbb %r8,%r9; adc $0xfffe,%r10w",
	  "\x66\xf7\xd9\x41\xf7\xd9\x48\xf7\xd8\x66\xf7\xdb\x40\x18\xf6\x10\xe3\x80\xde\x03\x11\xca\x4d\x19\xc1\x66\x41\x83\xd2\xfe", 30, MASK_ARITH },
	{ "MULDIV: mov $0x12345,%ecx; xor %edx,%edx; div %ecx; mov $-7,%r8; cqo; idiv %r8; movabs $0x100000000,%r10; mov $5,%edx; div %r10; mov $-9,%ecx; cltd; idiv %ecx; mov $-1,%r13d; cltd; idiv %r13d (generic); imul %ebx,%eax; imul %r9,%r10; imul $1000,%cx,%dx; imul $-3,%r11,%r12; imul %si,%di",
	  "\xb9\x45\x23\x01\x00\x31\xd2\xf7\xf1\x49\xc7\xc0\xf9\xff\xff\xff\x48\x99\x49\xf7\xf8\x49\xba\x00\x00\x00\x00\x01\x00\x00\x00\xba\x05\x00\x00\x00\x49\xf7\xf2\xb9\xf7\xff\xff\xff\x99\xf7\xf9\x41\xbd\xff\xff\xff\xff\x99\x41\xf7\xfd\x0f\xaf\xc3\x4d\x0f\xaf\xd1\x66\x69\xd1\xe8\x03\x4d\x6b\xe3\xfd\x66\x0f\xaf\xfe", 77, MASK_CO },
	/* MUL of a register (alu.c, fast_mul), multi-byte NOPs between */
	{ "MUL: mul %rbx; mov %rdx,%r8; mul %ecx; mov %edx,%r9d; mul %r10w; nopw 0x0(%rax,%rax,1); nopl 0x0(%rax); mul %rdx",
	  "\x48\xf7\xe3\x49\x89\xd0\xf7\xe1\x41\x89\xd1\x66\x41\xf7\xe2\x66\x0f\x1f\x04\x00\x0f\x1f\x00\x48\xf7\xe2", 26, MASK_CO },
	/* SETcc of memory (cond.c, fast_setcc_m*), base + disp and indexed,
	 * after a CMP, an ADD and an ADC (flags_cond's records) */
	{ "SETCC MEM: xor %r8d,%r8d; cmp %eax,%ebx; setne 0x5e(%rsi); setb (%rdi); setg 0x7(%rsi); setle 0x4(%rsi,%r8,2); add %ecx,%edx; seto 0x3(%rdi); setp 0x9(%rsi); adc %r9,%r10; setbe 0xb(%rsi)",
	  "\x45\x31\xc0\x39\xc3\x0f\x95\x46\x5e\x0f\x92\x07\x0f\x9f\x46\x07\x42\x0f\x9e\x44\x46\x04\x01\xca\x0f\x90\x47\x03\x0f\x9a\x46\x09\x4d\x11\xca\x0f\x96\x46\x0b", 39, MASK_ARITH },
	{ "FUSE16 (16-bit compares are not fused): cmp %ax,%bx; jb 1f; inc %ecx; 1: test %dx,%si; jne 2f; inc %edx; 2: cmp $0x7fff,%r9w; jg 3f; inc %r8d; 3: cmp %r10w,%r11w; jae 4f; inc %edi; 4: nop",
	  "\x66\x39\xc3\x72\x02\xff\xc1\x66\x85\xd6\x75\x02\xff\xc2\x66\x41\x81\xf9\xff\x7f\x7f\x03\x41\xff\xc0\x66\x45\x39\xd3\x73\x02\xff\xc7\x90", 34, MASK_ARITH },
	{ "MEM16: movw %ax,6(%rsi); movw 10(%rsi),%bx; mov %r9w,(%rdi); mov 2(%rdi),%r10w",
	  "\x66\x89\x46\x06\x66\x8b\x5e\x0a\x66\x44\x89\x0f\x66\x44\x8b\x57\x02", 17, MASK_NONE },
	{ "LF: not %r9; not %eax; mov %eax,%edx; add %ebx,%ecx; not %rsi; sub %r8,%rdx",
	  "\x49\xf7\xd1\xf7\xd0\x89\xc2\x01\xd9\x48\xf7\xd6\x4c\x29\xc2", 15, MASK_ARITH },
	{ "SHIFT CL: shl %cl,%eax; sar %cl,%r9; rol %cl,%ebx; ror %cl,%rdx; shr %cl,%esi; shl %cl,%r10",
	  "\xd3\xe0\x49\xd3\xf9\xd3\xc3\x48\xd3\xca\xd3\xee\x49\xd3\xe2", 15, MASK_CZSP },
	/* SHL/SHR/SAR by CL whose flags a later writer overwrites get their
	 * flag-free twins on the warm run (lflive.c), the walk going on past
	 * them (counts of 0 among the random CL); one whose flags ADC reads
	 * (CF through a count of 0 from the SUB) keeps them */
	{ "LF CL: shl %cl,%rax; lea -1(%rax),%rdx; and %rdx,%rsi; shr %cl,%ebx; sar %cl,%r9; add %r10,%r11; sar %cl,%r12d; shl %cl,%r13d; shr %cl,%r14; xor %r15,%rdi",
	  "\x48\xd3\xe0\x48\x8d\x50\xff\x48\x21\xd6\xd3\xeb\x49\xd3\xf9\x4d\x01\xd3\x41\xd3\xfc\x41\xd3\xe5\x49\xd3\xee\x4c\x31\xff", 30, MASK_ARITH_NOAF },
	{ "LF CL: sub %r8,%r9; shl %cl,%r10; adc %r11,%r12; add %r13,%r14",
	  "\x4d\x29\xc1\x49\xd3\xe2\x4d\x11\xdc\x4d\x01\xee", 12, MASK_ARITH },
	/* Counts of 0 (CL 0, and 64 or 32: masked to 0) keep the flags: a
	 * pair before the shift (ADD+MOV, paired past it when the ADC is
	 * decoded: pairs.c, pair_run) keeps the ADD's CF for the ADC; SETcc
	 * read the ADD's flags through two such shifts; the twins before a
	 * writer (the XOR) and a count-0 shift after it, read by JC */
	{ "LF CL 0: mov $0,%ecx; add %esi,%eax; mov %ebx,%edx; shl %cl,%r9; mov %r9d,%r10d; adc %r11,%r12",
	  "\xb9\x00\x00\x00\x00\x01\xf0\x89\xda\x49\xd3\xe1\x45\x89\xca\x4d\x11\xdc", 18, MASK_ARITH },
	{ "LF CL 0: mov $64,%ecx; add %esi,%eax; mov %ebx,%edx; shl %cl,%r9; sar %cl,%r13; mov %r9d,%r10d; sbb %r11,%r12",
	  "\xb9\x40\x00\x00\x00\x01\xf0\x89\xda\x49\xd3\xe1\x49\xd3\xfd\x45\x89\xca\x4d\x19\xdc", 21, MASK_ARITH },
	{ "LF CL 0: mov $32,%ecx; add %esi,%eax; shr %cl,%edx; sar %cl,%ebx; mov %ebx,%r8d; setc %r8b; seto %r9b; sets %r10b; sete %r11b; setp %r12b",
	  "\xb9\x20\x00\x00\x00\x01\xf0\xd3\xea\xd3\xfb\x41\x89\xd8\x41\x0f\x92\xc0\x41\x0f\x90\xc1\x41\x0f\x98\xc2\x41\x0f\x94\xc3\x41\x0f\x9a\xc4", 34, MASK_ARITH },
	{ "LF CL 0: mov $0,%ecx; sub %esi,%eax; mov %eax,%edx; shl %cl,%edx; ror $3,%edx; xor %edx,%eax; shr %cl,%eax; jc 1f; inc %r15; 1: nop",
	  "\xb9\x00\x00\x00\x00\x29\xf0\x89\xc2\xd3\xe2\xc1\xca\x03\x31\xd0\xd3\xe8\x72\x03\x49\xff\xc7\x90", 24, MASK_ARITH_NOAF },
	/* Shifts by 1 (D1 /r: the immediate forms' fast forms with a count
	 * of 1, and their twins), OF defined: each alone, then a run */
	{ "SHIFT1: shr %rdx", "\x48\xd1\xea", 3, MASK_COSZP },
	{ "SHIFT1: sar %eax", "\xd1\xf8", 2, MASK_COSZP },
	{ "SHIFT1: shl %r8", "\x49\xd1\xe0", 3, MASK_COSZP },
	{ "SHIFT1: rol %ecx", "\xd1\xc1", 2, MASK_CO },
	{ "SHIFT1: ror %r9", "\x49\xd1\xc9", 3, MASK_CO },
	{ "SHIFT1: shr %bx", "\x66\xd1\xeb", 3, MASK_COSZP },
	{ "SHIFT1: sar %r10w", "\x66\x41\xd1\xfa", 4, MASK_COSZP },
	{ "SHIFT1: shr %rdx; sar %eax; shl %r8; rol %ecx; ror %r9; shr %bx; sar %r10w; shr %r11d; add %r12,%r13; sar %r14",
	  "\x48\xd1\xea\xd1\xf8\x49\xd1\xe0\xd1\xc1\x49\xd1\xc9\x66\xd1\xeb\x66\x41\xd1\xfa\x41\xd1\xeb\x4d\x01\xe5\x49\xd1\xfe", 29, MASK_COSZP },
	/* Byte shifts by 1..7 (shift.c, fast_shl8/shr8/sar8: AH..BH, REX
	 * bytes; 9 is past the width, generic), CF checked after each run's
	 * last, then D0's count of 1 alone with OF */
	{ "SHIFT8: shr $3,%dl; shl $5,%ah; sar $7,%bh; shr $2,%sil; sar $4,%r9b; shl $7,%al; shr $9,%cl; shl $3,%r10b",
	  "\xc0\xea\x03\xc0\xe4\x05\xc0\xff\x07\x40\xc0\xee\x02\x41\xc0\xf9\x04\xc0\xe0\x07\xc0\xe9\x09\x41\xc0\xe2\x03", 27, MASK_CZSP },
	{ "SHIFT8: shr %dh", "\xd0\xee", 2, MASK_COSZP },
	{ "SHIFT8: shl %r11b", "\x41\xd0\xe3", 3, MASK_COSZP },
	{ "SHIFT8: sar %ah", "\xd0\xfc", 2, MASK_COSZP },
	{ "SHIFT8: shl $6,%bl", "\xc0\xe3\x06", 3, MASK_CZSP },
	{ "SHIFT8: sar $1,%ch", "\xc0\xfd\x01", 3, MASK_COSZP },
	/* Flag liveness (lflive.c): writers whose flags a later writer
	 * overwrites first get flag-free forms on the warm run; loads, the
	 * shift-by-1 form and flag readers stop that. */
	{ "LF: add %ebx,%eax; mov %eax,%ecx; ror $3,%ecx; lea 1(%rcx),%edx; sub %edx,%esi; xor %r8,%r9; and $0x7f,%r10b; or %r11d,%r12d; cmp %eax,%ebx",
	  "\x01\xd8\x89\xc1\xc1\xc9\x03\x8d\x51\x01\x29\xd6\x4d\x31\xc1\x41\x80\xe2\x7f\x45\x09\xdc\x39\xc3", 24, MASK_ARITH },
	{ "LF: shl $3,%rax; rol $5,%rax; ror $7,%ebx",
	  "\x48\xc1\xe0\x03\x48\xc1\xc0\x05\xc1\xcb\x07", 11, MASK_CZSP },
	{ "LF: sar $2,%edx; rol $2,%edx; shr $4,%r8; add %esi,%edi",
	  "\xc1\xfa\x02\xc1\xc2\x02\x49\xc1\xe8\x04\x01\xf7", 12, MASK_ARITH },
	{ "LF: test %eax,%eax; movzbl %cl,%edx; movsbq %bl,%r8; mov $5,%r9d; sub %r9d,%r10d; sete %r11b; adc %r12,%r13",
	  "\x85\xc0\x0f\xb6\xd1\x4c\x0f\xbe\xc3\x41\xb9\x05\x00\x00\x00\x45\x29\xca\x41\x0f\x94\xc3\x4d\x11\xe5", 25, MASK_ARITH },
	{ "LF: cmp %rbx,%rax; mov (%rsi),%ecx; add %ecx,%edx; sbb %eax,%eax",
	  "\x48\x39\xd8\x8b\x0e\x01\xca\x19\xc0", 9, MASK_ARITH },
	{ "LF: add %bl,%ah; sub %ch,%dl; xor %al,%al; cmp $3,%cl; or %bh,%dh",
	  "\x00\xdc\x28\xea\x30\xc0\x80\xf9\x03\x08\xfe", 11, MASK_ARITH_NOAF },
	/* Pairs (pairs.c): a SHA-256 round's moves, rotates, ALU forms with
	 * and without flags, LEA, loads and stores run two per dispatch on
	 * the warm run (the stores leave through the table handler: the unit
	 * tests have no page map). */
	{ "PAIRS: mov %esi,%ecx; mov %esi,%edx; ror $6,%ecx; ror $11,%edx; xor %ecx,%edx; mov %esi,%ecx; rol $7,%ecx; xor %ecx,%edx; not %ecx; shr $3,%r9d; and %ebx,%ecx; and $0xf,%eax; add (%rsi,%rax,4),%edx; add 4(%rsi),%edx; lea (%rdx,%r13),%r15d; mov 8(%rdi),%r8; mov 12(%rsi),%r10d; mov %edx,16(%rdi); add $8,%r11; mov %r8,%r12; add %ecx,%edx; xor %ebx,%r10d; mov %r10d,%ebx; and %edx,%ebx; add %ebx,%ecx; mov %ecx,20(%rdi); mov %ecx,24(%rdi); mov 20(%rdi),%r14; add %edx,%ecx",
	  "\x89\xf1\x89\xf2\xc1\xc9\x06\xc1\xca\x0b\x31\xca\x89\xf1\xc1\xc1\x07\x31\xca\xf7\xd1\x41\xc1\xe9\x03\x21\xd9\x83\xe0\x0f\x03\x14\x86\x03\x56\x04\x46\x8d\x3c\x2a\x4c\x8b\x47\x08\x44\x8b\x56\x0c\x89\x57\x10\x49\x83\xc3\x08\x4d\x89\xc4\x01\xca\x41\x31\xda\x44\x89\xd3\x21\xd3\x01\xd9\x89\x4f\x14\x89\x4f\x18\x4c\x8b\x77\x14\x01\xd1", 82, MASK_ARITH },
	/* ... and the units of gzip's and qsort's loops: MOVZX of byte
	 * registers (AH..BH too), MOVSXD, byte loads (into BH, R14B), ADD of
	 * 64-bit registers and AND with an immediate with their flags, MOVZX
	 * of a 16-bit load at any address; every unit heads a pair with the
	 * one after it (the last ADD's flags are checked) */
	{ "PAIRS2: movzbl %cl,%edx; movzbl %bh,%ebp; movslq %ecx,%rax; movslq %r9d,%r10; mov 4(%rsi),%al; mov 5(%rdi),%bh; mov 6(%rsi),%r14b; add %rcx,%rax; and $0x7f,%eax; movzwl (%rsi,%rax,2),%r8d; add %r9,%r11; movzbl %al,%ecx; and $0xf,%eax; movzwl 2(%rdi,%rax,4),%edx; sub %edx,%ecx; movslq %edx,%rdx; add %rdx,%r12; mov 7(%rdi),%dl; movzbl %dl,%ebx; add %r13,%r15",
	  "\x0f\xb6\xd1\x0f\xb6\xef\x48\x63\xc1\x4d\x63\xd1\x8a\x46\x04\x8a\x7f\x05\x44\x8a\x76\x06\x48\x01\xc8\x83\xe0\x7f\x44\x0f\xb7\x04\x46\x4d\x01\xcb\x0f\xb6\xc8\x83\xe0\x0f\x0f\xb7\x54\x87\x02\x29\xd1\x48\x63\xd2\x49\x01\xd4\x8a\x57\x07\x0f\xb6\xda\x4d\x01\xef", 64, MASK_ARITH },
	/* msort's copy loop: SUB r64,imm flag-free, ADD r64,imm with flags
	 * (the last one's checked) paired with loads and stores */
	{ "PAIRS3: mov 4(%rsi),%eax; sub $1,%rbp; add $4,%rbx; mov %eax,8(%rdi); add $4,%r14; sub $1,%r12; add $-8,%r9",
	  "\x8b\x46\x04\x48\x83\xed\x01\x48\x83\xc3\x04\x89\x47\x08\x49\x83\xc6\x04\x49\x83\xec\x01\x49\x83\xc1\xf8", 26, MASK_ARITH },
	/* ADD r32 of memory flag-free (the last writer before a register
	 * writer: lflive.c) as pair members, any address and base + disp */
	{ "PAIRS4: and $0xf,%eax; add 4(%rsi),%edx; mov %edx,%ecx; add (%rsi,%rax,4),%ecx; ror $3,%ecx; xor %ebx,%ecx; add 8(%rsi),%ebx; rol $5,%ebx; not %edx; add %ecx,%ebx",
	  "\x83\xe0\x0f\x03\x56\x04\x89\xd1\x03\x0c\x86\xc1\xc9\x03\x31\xd9\x03\x5e\x08\xc1\xc3\x05\xf7\xd2\x01\xcb", 26, MASK_ARITH },
	/* INC r64 flag-free as a pair member (busybox's SHA round: 'add
	 * 0x28(%rsp,%r10,4),%edx; not %ecx; inc %r10; and %ebx,%ecx'), heading
	 * a pair and second in one, the last INC's flags checked */
	{ "PAIRS5: and $0xf,%eax; add (%rsi,%rax,4),%edx; not %ecx; inc %r10; and %ebx,%ecx; inc %r11; mov %r11d,%r9d; inc %rax; inc %r10; xor %ecx,%edx; inc %r12; add %r10d,%edx",
	  "\x83\xe0\x0f\x03\x14\x86\xf7\xd1\x49\xff\xc2\x21\xd9\x49\xff\xc3\x45\x89\xd9\x48\xff\xc0\x49\xff\xc2\x31\xca\x49\xff\xc4\x44\x01\xd2", 33, MASK_ARITH },
	/* Triples (pairs.c): runs of the register units MOV, XOR, ADD, AND
	 * flag-free, ROR, ROL, LEA three per dispatch on the warm run; the
	 * last ADD's flags checked */
	{ "TRIPLES: mov %esi,%ecx; mov %esi,%edx; ror $6,%ecx; ror $11,%edx; xor %ecx,%edx; mov %esi,%ecx; rol $7,%ecx; xor %ecx,%edx; and %ebx,%ecx; add %ecx,%edx; lea (%rdx,%r13),%r15d; mov %r8d,%r13d; add %r11d,%ecx; mov %ebx,%r11d; xor %edx,%r9d; and %r9d,%r10d; rol $10,%r10d; lea (%rcx,%r10),%eax; ror $2,%eax; mov %eax,%r12d; add %r12d,%ebx; xor %r15d,%ecx; mov %ecx,%r14d; and %r14d,%edi; add %edi,%ebp",
	  "\x89\xf1\x89\xf2\xc1\xc9\x06\xc1\xca\x0b\x31\xca\x89\xf1\xc1\xc1\x07\x31\xca\x21\xd9\x01\xca\x46\x8d\x3c\x2a\x45\x89\xc5\x44\x01\xd9\x41\x89\xdb\x41\x31\xd1\x45\x21\xca\x41\xc1\xc2\x0a\x42\x8d\x04\x11\xc1\xc8\x02\x41\x89\xc4\x44\x01\xe3\x44\x31\xf9\x41\x89\xce\x44\x21\xf7\x01\xfd", 70, MASK_ARITH },
	/* A loop whose head is decoded after its body (gcc's rotated loops):
	 * the head's run ends in a fall-through stub into the body, found
	 * decoded, where its units are paired (pairs_run_ended); the loop
	 * runs three times, the last ADD's flags checked */
	{ "PAIRS6: mov $3,%r8d; jmp 2f; 1: mov %esi,%ecx; ror $6,%ecx; xor %ecx,%edx; mov %edx,%ebx; rol $7,%ebx; add %ebx,%eax; not %ecx; and %ecx,%r9d; mov %r9d,%r10d; 2: xor %eax,%r10d; add %r10d,%esi; mov %esi,%r11d; dec %r8d; jne 1b; add %ecx,%edx",
	  "\x41\xb8\x03\x00\x00\x00\xeb\x16\x89\xf1\xc1\xc9\x06\x31\xca\x89\xd3\xc1\xc3\x07\x01\xd8\xf7\xd1\x41\x21\xc9\x45\x89\xca\x41\x31\xc2\x44\x01\xd6\x41\x89\xf3\x41\xff\xc8\x75\xdc\x01\xca", 46, MASK_ARITH },
	/* Runs of units before entries that are neither units nor barriers
	 * (LEA r64, a shift by C41, MOV of an immediate: lflive passes them)
	 * paired when the barrier after them is decoded (pairs.c, pair_run);
	 * the last ADD's flags checked */
	{ "PAIRS7: mov %esi,%ecx; ror $6,%ecx; lea 8(%rax),%rdx; xor %ecx,%ebx; add %ebx,%eax; shl %cl,%r9; mov %r9d,%r10d; add %r10d,%r11d; mov $5,%r12d; not %r12d; add %r12d,%r13d; lea (%rdx,%rbx),%r14; add %r13d,%ebp",
	  "\x89\xf1\xc1\xc9\x06\x48\x8d\x50\x08\x31\xcb\x01\xd8\x49\xd3\xe1\x45\x89\xca\x45\x01\xd3\x41\xbc\x05\x00\x00\x00\x41\xf7\xd4\x45\x01\xe5\x4c\x8d\x34\x1a\x44\x01\xed", 41, MASK_ARITH },
	/* CPython's dispatch mask: NEG r16 and SBB of a byte register from
	 * itself fused (fused.c), the byte in NEG's register (AL of AX), a
	 * high byte (DH), REX bytes; SBB's flags checked */
	{ "NEG+SBB: neg %cx; sbb %sil,%sil; neg %ax; sbb %al,%al; neg %r9w; sbb %dh,%dh; mov %edx,%r11d; neg %bx; sbb %r10b,%r10b",
	  "\x66\xf7\xd9\x40\x18\xf6\x66\xf7\xd8\x18\xc0\x66\x41\xf7\xd9\x18\xf6\x41\x89\xd3\x66\xf7\xdb\x45\x18\xd2", 26, MASK_ARITH },
	/* ... and SBB of a byte register with an immediate after a NEG, not
	 * fused (AL's short form 1C: rm and reg both 0; 80 /3 of BL: reg,
	 * the /3, equal to rm), the last one fused; SBB's flags checked */
	{ "NEG+SBB imm: neg %ax; sbb $0xc2,%al; neg %bx; sbb $0x32,%bl; neg %cx; sbb %cl,%cl",
	  "\x66\xf7\xd8\x1c\xc2\x66\xf7\xdb\x80\xdb\x32\x66\xf7\xd9\x18\xc9", 16, MASK_ARITH },
	/* INC/DEC fused with the Jcc after it (fused.c; CF kept from
	 * before, OF at the ends of the range) and their flag-free twins
	 * (lflive.c), and CF carried through them to ADC. */
	{ "INCDEC: dec %ecx; jne; inc %rdx; jb; dec %rbx; jle; mov $0x7fffffff,%r11d; inc %r11d; jo; movabs $1<<63,%r13; dec %r13; js; inc %eax; jp; dec %edx; jbe (each over an inc); cmp %rbx,%rax; inc %r10; not %ecx; dec %r11d; and %ebx,%ecx; cmp %rcx,%rdx; inc %r12; dec %r13d; adc %r8,%r9",
	  "\xff\xc9\x75\x03\x41\xff\xc0\x48\xff\xc2\x72\x03\x41\xff\xc1\x48\xff\xcb\x7e\x03\x41\xff\xc2\x41\xbb\xff\xff\xff\x7f\x41\xff\xc3\x70\x03\x41\xff\xc4\x49\xbd\x00\x00\x00\x00\x00\x00\x00\x80\x49\xff\xcd\x78\x03\x41\xff\xc6\xff\xc0\x7a\x03\x41\xff\xc7\xff\xca\x76\x02\xff\xc3\x48\x39\xd8\x49\xff\xc2\xf7\xd1\x41\xff\xcb\x21\xd9\x48\x39\xca\x49\xff\xc4\x41\xff\xcd\x4d\x11\xc1", 93, MASK_ARITH },
	/* reg op= memory whose flags a register writer overwrites first gets
	 * a flag-free twin on the warm run (the last one before the writer:
	 * lflive.c), CMP/TEST a load */
	{ "LF MEM: add 4(%rsi),%eax; not %ecx; xor 8(%rdi),%r9d; mov %r9d,%r8d; cmp 12(%rsi),%edx; test 16(%rdi),%r10; or 20(%rsi),%bx; and %r11d,%r12d",
	  "\x03\x46\x04\xf7\xd1\x44\x33\x4f\x08\x45\x89\xc8\x3b\x56\x0c\x4c\x85\x57\x10\x66\x0b\x5e\x14\x45\x21\xdc", 26, MASK_ARITH_NOAF },
	{ "ALU: add %rbx,%rax; adc %rcx,%rdx; sub %r8,%r9; sbb %r10,%r11",
	  "\x48\x01\xd8\x48\x11\xca\x4d\x29\xc1\x4d\x19\xd3", 12, MASK_ARITH },
	{ "ALU: add %ebx,%eax; adc %ecx,%edx; sub %r8d,%r9d; sbb %r10d,%r11d",
	  "\x01\xd8\x11\xca\x45\x29\xc1\x45\x19\xd3", 10, MASK_ARITH },
	{ "ALU: addw %bx,%ax; adcb %ch,%dl; subb %ah,%bh; sbbw %r10w,%r11w",
	  "\x66\x01\xd8\x10\xea\x28\xe7\x66\x45\x19\xd3", 11, MASK_ARITH },
	{ "ALU: and %rbx,%rax; or %rcx,%rdx; xor %r8,%r9; test %r10,%r11",
	  "\x48\x21\xd8\x48\x09\xca\x4d\x31\xc1\x4d\x85\xd3", 12, MASK_ARITH_NOAF },
	{ "ALU: cmp %rbx,%rax; setb %cl; setl %dl; setle %r8b; seta %r9b; setg %r10b; sets %r11b; setp %r12b; seto %r13b",
	  "\x48\x39\xd8\x0f\x92\xc1\x0f\x9c\xc2\x41\x0f\x9e\xc0\x41\x0f\x97\xc1\x41\x0f\x9f\xc2\x41\x0f\x98\xc3\x41\x0f\x9a\xc4\x41\x0f\x90\xc5", 33, MASK_ARITH },
	{ "ALU: cmp %ebx,%eax; cmovb %ecx,%edx; cmovge %r8,%r9; cmovne %r10d,%r11d; cmovbe %r12,%r13",
	  "\x39\xd8\x0f\x42\xd1\x4d\x0f\x4d\xc8\x45\x0f\x45\xda\x4d\x0f\x46\xec", 17, MASK_ARITH },
	{ "ALU: add $0x7f,%al; adc $-3,%ebx; sub $0x12345678,%rcx; sbb $5,%dx; cmp $-1,%r8d",
	  "\x04\x7f\x83\xd3\xfd\x48\x81\xe9\x78\x56\x34\x12\x66\x83\xda\x05\x41\x83\xf8\xff", 20, MASK_ARITH },
	{ "ALU: inc %rax; dec %ebx; inc %cl; dec %dx; neg %rsi; not %edi",
	  "\x48\xff\xc0\xff\xcb\xfe\xc1\x66\xff\xca\x48\xf7\xde\xf7\xd7", 15, MASK_ARITH },
	{ "ALU: neg %eax; inc %r8w; dec %r9b",
	  "\xf7\xd8\x66\x41\xff\xc0\x41\xfe\xc9", 9, MASK_ARITH },
	{ "ALU: lea 0x10(%rax,%rbx,4),%rcx; lea -8(%rsi),%edx; lea (%rdi,%rdi,8),%r8w",
	  "\x48\x8d\x4c\x98\x10\x8d\x56\xf8\x66\x44\x8d\x04\xff", 13, MASK_ALL },
	{ "MUL: mul %rbx",
	  "\x48\xf7\xe3", 3, MASK_CO },
	{ "MUL: mul %ebx",
	  "\xf7\xe3", 2, MASK_CO },
	{ "MUL: mul %bl",
	  "\xf6\xe3", 2, MASK_CO },
	{ "MUL: mulw %bx",
	  "\x66\xf7\xe3", 3, MASK_CO },
	{ "MUL: imul %rcx",
	  "\x48\xf7\xe9", 3, MASK_CO },
	{ "MUL: imul %ecx",
	  "\xf7\xe9", 2, MASK_CO },
	{ "MUL: imul %cl",
	  "\xf6\xe9", 2, MASK_CO },
	{ "MUL: imul %rbx,%rdx; imul $-7,%r8,%r9",
	  "\x48\x0f\xaf\xd3\x4d\x6b\xc8\xf9", 8, MASK_CO },
	{ "MUL: imul $0x12345,%ecx,%esi",
	  "\x69\xf1\x45\x23\x01\x00", 6, MASK_CO },
	{ "MUL: imulw $-3,%bx,%dx",
	  "\x66\x6b\xd3\xfd", 4, MASK_CO },
	{ "DIV: mov $7,%ecx; xor %edx,%edx; div %ecx",
	  "\xb9\x07\x00\x00\x00\x31\xd2\xf7\xf1", 9, MASK_NONE },
	{ "DIV: mov $-7,%rcx; cqo; idiv %rcx",
	  "\x48\xc7\xc1\xf9\xff\xff\xff\x48\x99\x48\xf7\xf9", 12, MASK_NONE },
	{ "DIV: mov $13,%cl; movzwl %ax,%eax; and $0x3ff,%eax; div %cl",
	  "\xb1\x0d\x0f\xb7\xc0\x25\xff\x03\x00\x00\xf6\xf1", 12, MASK_NONE },
	{ "DIV: mov $-13,%cl; movsbw %al,%ax; idiv %cl",
	  "\xb1\xf3\x66\x0f\xbe\xc0\xf6\xf9", 8, MASK_NONE },
	{ "DIV: mov $1000,%cx; and $0x7,%dx; div %cx",
	  "\x66\xb9\xe8\x03\x66\x83\xe2\x07\x66\xf7\xf1", 11, MASK_NONE },
	{ "SHIFT: shl $3,%rax; shr $5,%ebx; sar $7,%cx; rol $9,%rdx; ror $11,%esi",
	  "\x48\xc1\xe0\x03\xc1\xeb\x05\x66\xc1\xf9\x07\x48\xc1\xc2\x09\xc1\xce\x0b", 18, MASK_CF },
	{ "SHIFT: shl $1,%rax",
	  "\x48\xd1\xe0", 3, MASK_COSZP },
	{ "SHIFT: shr $1,%ebx",
	  "\xd1\xeb", 2, MASK_COSZP },
	{ "SHIFT: sar $1,%cl",
	  "\xd0\xf9", 2, MASK_COSZP },
	{ "SHIFT: rol $1,%dx",
	  "\x66\xd1\xc2", 3, MASK_CO },
	{ "SHIFT: ror $1,%r8",
	  "\x49\xd1\xc8", 3, MASK_CO },
	{ "SHIFT: rcl $1,%r9d",
	  "\x41\xd1\xd1", 3, MASK_CO },
	{ "SHIFT: rcr $1,%r10w",
	  "\x66\x41\xd1\xda", 4, MASK_CO },
	{ "SHIFT: rcl $5,%r9d; rcr $3,%r10b; rcl $17,%r11w",
	  "\x41\xc1\xd1\x05\x41\xc0\xda\x03\x66\x41\xc1\xd3\x11", 13, MASK_CF },
	{ "SHIFT: shl %cl,%rax",
	  "\x48\xd3\xe0", 3, MASK_CF_IFCNT },
	{ "SHIFT: shr %cl,%ebx",
	  "\xd3\xeb", 2, MASK_CF_IFCNT },
	{ "SHIFT: sar %cl,%rdx",
	  "\x48\xd3\xfa", 3, MASK_CF_IFCNT },
	{ "SHIFT: rol %cl,%esi",
	  "\xd3\xc6", 2, MASK_CF_IFCNT },
	{ "SHIFT: shld $7,%rbx,%rax; shrd $9,%edx,%esi",
	  "\x48\x0f\xa4\xd8\x07\x0f\xac\xd6\x09", 9, MASK_CF },
	{ "SHIFT: shld %cl,%rbx,%rax",
	  "\x48\x0f\xa5\xd8", 4, MASK_CF_IFCNT },
	{ "SHIFT: shrd %cl,%edx,%esi",
	  "\x0f\xad\xd6", 3, MASK_CF_IFCNT },
	{ "SHIFT: shlb $4,%al; sarb $6,%bl; shrw $3,%dx",
	  "\xc0\xe0\x04\xc0\xfb\x06\x66\xc1\xea\x03", 10, MASK_CF },
	{ "BIT: bt %rbx,%rax; setc %cl; bts $5,%edx; setc %r8b; btr %rsi,%rdi; btc $63,%r9",
	  "\x48\x0f\xa3\xd8\x0f\x92\xc1\x0f\xba\xea\x05\x41\x0f\x92\xc0\x48\x0f\xb3\xf7\x49\x0f\xba\xf9\x3f", 24, MASK_CF },
	{ "BIT: bsf %rax,%rbx; bsr %rcx,%rdx; setz %r8b",
	  "\x48\x0f\xbc\xd8\x48\x0f\xbd\xd1\x41\x0f\x94\xc0", 12, MASK_ZF },
	{ "BIT: bsf %eax,%ebx; bsr %ecx,%edx",
	  "\x0f\xbc\xd8\x0f\xbd\xd1", 6, MASK_ZF },
	{ "BIT: popcnt %rax,%rbx; popcnt %ecx,%edx",
	  "\xf3\x48\x0f\xb8\xd8\xf3\x0f\xb8\xd1", 9, MASK_ARITH },
	{ "BIT: lzcnt %rax,%rbx; setc %r9b; lzcnt %ecx,%edx",
	  "\xf3\x48\x0f\xbd\xd8\x41\x0f\x92\xc1\xf3\x0f\xbd\xd1", 13, MASK_CZ },
	{ "BIT: bswap %eax; bswap %rbx",
	  "\x0f\xc8\x48\x0f\xcb", 5, MASK_ALL },
	{ "BIT: movzbl %al,%ebx; movzwq %cx,%rdx; movsbq %sil,%rdi; movswl %r8w,%r9d; movslq %r10d,%r11",
	  "\x0f\xb6\xd8\x48\x0f\xb7\xd1\x48\x0f\xbe\xfe\x45\x0f\xbf\xc8\x4d\x63\xda", 18, MASK_ALL },
	{ "BIT: xchg %rax,%rbx; xchg %ecx,%edx; xchg %al,%ah; cbw; cwde; cdqe; cwd; cdq; cqo",
	  "\x48\x93\x87\xca\x86\xc4\x66\x98\x98\x48\x98\x66\x99\x99\x48\x99", 16, MASK_ALL },
	{ "BIT: lahf; stc; cmc; sahf",
	  "\x9f\xf9\xf5\x9e", 4, MASK_ARITH },
	{ "MEM: mov (%rsi),%rax; add %rax,8(%rsi); sub 16(%rsi),%ebx; xor %bl,3(%rsi); incq 24(%rsi); notw 32(%rsi)",
	  "\x48\x8b\x06\x48\x01\x46\x08\x2b\x5e\x10\x30\x5e\x03\x48\xff\x46\x18\x66\xf7\x56\x20", 21, MASK_ARITH },
	{ "MOVSX MEM: movslq 4(%rsi),%rax; movsbl 1(%rsi),%ebx; movsbq 2(%rsi),%r9; movswl 6(%rsi),%edx; movswq 10(%rsi),%rdi; xor %ecx,%ecx; movslq 8(%rsi,%rcx,4),%r8; movsbq 3(%rsi,%rcx,2),%r10",
	  "\x48\x63\x46\x04\x0f\xbe\x5e\x01\x4c\x0f\xbe\x4e\x02\x0f\xbf\x56\x06\x48\x0f\xbf\x7e\x0a\x31\xc9\x4c\x63\x44\x8e\x08\x4c\x0f\xbe\x54\x4e\x03", 35, MASK_ARITH },
	/* The indexed flat-64 shape (insn.h, insn_ea_flat64_ix: CPython's
	 * indexed loads) of MOV and MOVSX of a byte to 64 bits, through DS
	 * and SS overrides; FS-relative and 67h operands must not take it
	 * (FS's base, the host's TCB, added; 32-bit offsets of a base with
	 * garbage in its high half); LEA without an index (fast_lea64_bd),
	 * RIP-relative, and with one */
	{ "FLAT64 IX: and $15,%ecx; and $7,%edx; mov (%rsi,%rcx,8),%rax; mov 0x10(%rsi,%rdx,4),%rbx; movsbq 3(%rsi,%rcx,2),%r8; movsbq -5(%rdi,%rdx,1),%r9; mov %ds:8(%rsi,%rdx,8),%r10; mov %ss:(%rdi,%rcx,1),%r11; xor %r12d,%r12d; mov %fs:0(,%r12,8),%r12; xor %r13d,%r13d; movsbq %fs:8(%r13,%r13,1),%r13; movabs $0x77<<56,%r14; or %rsi,%r14; mov 8(%r14d,%ecx,8),%r14; movabs $0x77<<56,%r15; or %rdi,%r15; movsbq -3(%r15d,%edx,2),%r15; lea 0x18(%rsi),%rbp; lea -0x7fffffff(%rbx),%rbx; lea 0x100(%rip),%rcx; lea 8(%rax,%rdx,4),%rdx",
	  "\x83\xe1\x0f\x83\xe2\x07\x48\x8b\x04\xce\x48\x8b\x5c\x96\x10\x4c\x0f\xbe\x44\x4e\x03\x4c\x0f\xbe\x4c\x17\xfb\x3e\x4c\x8b\x54\xd6\x08\x36\x4c\x8b\x1c\x0f\x45\x31\xe4\x64\x4e\x8b\x24\xe5\x00\x00\x00\x00\x45\x31\xed\x64\x4f\x0f\xbe\x6c\x2d\x08\x49\xbe\x00\x00\x00\x00\x00\x00\x00\x77\x49\x09\xf6\x67\x4d\x8b\x74\xce\x08\x49\xbf\x00\x00\x00\x00\x00\x00\x00\x77\x49\x09\xff\x67\x4d\x0f\xbe\x7c\x57\xfd\x48\x8d\x6e\x18\x48\x8d\x9b\x01\x00\x00\x80\x48\x8d\x0d\x00\x01\x00\x00\x48\x8d\x54\x90\x08", 122, MASK_ARITH },
	{ "MEM: lock xadd %rax,(%rsi); lock cmpxchg %rbx,8(%rsi); lock add %ecx,16(%rsi); lock btsq $3,24(%rsi)",
	  "\xf0\x48\x0f\xc1\x06\xf0\x48\x0f\xb1\x5e\x08\xf0\x01\x4e\x10\xf0\x48\x0f\xba\x6e\x18\x03", 22, MASK_ZF },
	{ "MEM: mov (%rsi),%rax; cmpxchg %rcx,(%rsi); mov 8(%rsi),%eax; cmpxchg %ecx,8(%rsi)",
	  "\x48\x8b\x06\x48\x0f\xb1\x0e\x8b\x46\x08\x0f\xb1\x4e\x08", 14, MASK_ARITH },
	{ "MEM: cmpxchg8b (%rsi); mov (%rsi),%rax; mov %rax,%rdx; cmpxchg8b (%rsi)",
	  "\x0f\xc7\x0e\x48\x8b\x06\x48\x89\xc2\x0f\xc7\x0e", 12, MASK_ZF },
	{ "MEM: mov %rsi,%rdi; add $64,%rdi; cmpxchg16b (%rsi); mov (%rsi),%rax; mov 8(%rsi),%rdx; cmpxchg16b (%rsi)",
	  "\x48\x89\xf7\x48\x83\xc7\x40\x48\x0f\xc7\x0e\x48\x8b\x06\x48\x8b\x56\x08\x48\x0f\xc7\x0e", 22, MASK_ZF },
	{ "MEM: push %rax; push %rbx; pushfq; pop %rcx; pop %rdx; pop %r8",
	  "\x50\x53\x9c\x59\x5a\x41\x58", 7, MASK_ALL },
	/* nine pushes in a row (decoded as a run of eight from the first, the
	 * ninth alone; without a page map, as here, a run falls back to its
	 * pushes one by one: the e2e runs store through it), PUSH %rsp (not a
	 * run's), PUSH %r11 */
	{ "MEM: push %rax; push %rbx; push %rcx; push %rdx; push %rsi; push %rbp; push %r8; push %r9; push %r10; push %rsp; push %r11; pop %rax; pop %rbx; sub %rsp,%rbx; pop %r12; pop %r13; pop %r14; pop %r15; pop %r8; pop %r9; pop %r10; pop %r11; pop %rbp",
	  "\x50\x53\x51\x52\x56\x55\x41\x50\x41\x51\x41\x52\x54\x41\x53"
	  "\x58\x5b\x48\x29\xe3\x41\x5c\x41\x5d\x41\x5e\x41\x5f\x41\x58\x41\x59\x41\x5a\x41\x5b\x5d", 37, MASK_ALL },
	{ "MEM: movsbq %bl,%rbx; bt %rbx,(%rsi); setc %al; and $511,%rcx; btc %rcx,(%rsi); setc %dl",
	  "\x48\x0f\xbe\xdb\x48\x0f\xa3\x1e\x0f\x92\xc0\x48\x81\xe1\xff\x01\x00\x00\x48\x0f\xbb\x0e\x0f\x92\xc2", 25, MASK_CF },
	{ "MEM: xchg %rax,(%rsi); xchg 8(%rsi),%bl",
	  "\x48\x87\x06\x86\x5e\x08", 6, MASK_ALL },
	{ "STR: cld; mov $13,%ecx; rep movsb",
	  "\xfc\xb9\x0d\x00\x00\x00\xf3\xa4", 8, MASK_ALL },
	{ "STR: cld; mov $9,%ecx; rep movsq",
	  "\xfc\xb9\x09\x00\x00\x00\xf3\x48\xa5", 9, MASK_ALL },
	{ "STR: std; mov $7,%ecx; add $64,%rsi; add $64,%rdi; rep movsl; cld",
	  "\xfd\xb9\x07\x00\x00\x00\x48\x83\xc6\x40\x48\x83\xc7\x40\xf3\xa5\xfc", 17, MASK_ALL },
	{ "STR: cld; mov $21,%ecx; rep stosb",
	  "\xfc\xb9\x15\x00\x00\x00\xf3\xaa", 8, MASK_ALL },
	{ "STR: cld; mov $5,%ecx; rep stosw; movsq; lodsl; stosl",
	  "\xfc\xb9\x05\x00\x00\x00\x66\xf3\xab\x48\xa5\xad\xab", 13, MASK_ALL },
	{ "STR: cld; mov $40,%ecx; mov (%rsi),%rdi; lea 8(%rsi),%rdi; repe cmpsb",
	  "\xfc\xb9\x28\x00\x00\x00\x48\x8b\x3e\x48\x8d\x7e\x08\xf3\xa6", 15, MASK_ARITH },
	{ "STR: cld; mov $40,%ecx; mov 5(%rsi),%al; mov %rsi,%rdi; repne scasb",
	  "\xfc\xb9\x28\x00\x00\x00\x8a\x46\x05\x48\x89\xf7\xf2\xae", 14, MASK_ARITH },
	{ "STR: cld; mov $16,%ecx; mov %rsi,%rdi; inc %rdi; rep movsb",
	  "\xfc\xb9\x10\x00\x00\x00\x48\x89\xf7\x48\xff\xc7\xf3\xa4", 14, MASK_ALL },
	{ "STR: cld; mov $30,%ecx; lea 4(%rsi),%rdi; repe cmpsw",
	  "\xfc\xb9\x1e\x00\x00\x00\x48\x8d\x7e\x04\x66\xf3\xa7", 13, MASK_ARITH },
	{ "SSE: movdqu (%rsi),%xmm0; movdqu 16(%rsi),%xmm1; pcmpeqb %xmm1,%xmm0; pmovmskb %xmm0,%eax; pxor %xmm2,%xmm2; pcmpeqb (%rsi),%xmm2; pmovmskb %xmm2,%ebx",
	  "\xf3\x0f\x6f\x06\xf3\x0f\x6f\x4e\x10\x66\x0f\x74\xc1\x66\x0f\xd7\xc0\x66\x0f\xef\xd2\x66\x0f\x74\x16\x66\x0f\xd7\xda", 29, MASK_ALL },
	{ "SSE: movdqa (%rsi),%xmm3; movdqa 16(%rsi),%xmm4; pminub %xmm4,%xmm3; pmaxub 32(%rsi),%xmm4; psubb %xmm3,%xmm4; paddd %xmm3,%xmm4; movq %xmm4,%rax; movd %xmm3,%ebx; pmovmskb %xmm4,%ecx",
	  "\x66\x0f\x6f\x1e\x66\x0f\x6f\x66\x10\x66\x0f\xda\xdc\x66\x0f\xde\x66\x20\x66\x0f\xf8\xe3\x66\x0f\xfe\xe3\x66\x48\x0f\x7e\xe0\x66\x0f\x7e\xdb\x66\x0f\xd7\xcc", 39, MASK_ALL },
	{ "SSE: movd %eax,%xmm0; punpcklbw %xmm0,%xmm0; punpcklwd %xmm0,%xmm0; pshufd $0,%xmm0,%xmm0; movq %xmm0,%rbx; movhlps %xmm0,%xmm1; movq %xmm1,%rcx",
	  "\x66\x0f\x6e\xc0\x66\x0f\x60\xc0\x66\x0f\x61\xc0\x66\x0f\x70\xc0\x00\x66\x48\x0f\x7e\xc3\x0f\x12\xc8\x66\x48\x0f\x7e\xc9", 30, MASK_ALL },
	{ "SSE: movdqu (%rsi),%xmm5; pslldq $3,%xmm5; movq %xmm5,%rax; movdqu (%rsi),%xmm6; psrldq $5,%xmm6; movq %xmm6,%rbx; psrlq $7,%xmm6; movq %xmm6,%rcx; psllw $3,%xmm5; movq %xmm5,%rdx",
	  "\xf3\x0f\x6f\x2e\x66\x0f\x73\xfd\x03\x66\x48\x0f\x7e\xe8\xf3\x0f\x6f\x36\x66\x0f\x73\xde\x05\x66\x48\x0f\x7e\xf3\x66\x0f\x73\xd6\x07\x66\x48\x0f\x7e\xf1\x66\x0f\x71\xf5\x03\x66\x48\x0f\x7e\xea", 48, MASK_ALL },
	{ "SSE: movdqu (%rsi),%xmm1; pcmpgtb 16(%rsi),%xmm1; pmovmskb %xmm1,%eax; movdqu (%rsi),%xmm2; pand 16(%rsi),%xmm2; por 32(%rsi),%xmm2; pandn 48(%rsi),%xmm2; movq %xmm2,%rbx; punpckhqdq %xmm2,%xmm2; movq %xmm2,%rcx",
	  "\xf3\x0f\x6f\x0e\x66\x0f\x64\x4e\x10\x66\x0f\xd7\xc1\xf3\x0f\x6f\x16\x66\x0f\xdb\x56\x10\x66\x0f\xeb\x56\x20\x66\x0f\xdf\x56\x30\x66\x48\x0f\x7e\xd3\x66\x0f\x6d\xd2\x66\x48\x0f\x7e\xd1", 46, MASK_ALL },
	{ "SSE: movups (%rsi),%xmm0; movaps %xmm0,%xmm1; movmskps %xmm1,%eax; movmskpd %xmm1,%ebx; pshuflw $0x1b,%xmm1,%xmm2; movq %xmm2,%rcx; movlpd 8(%rsi),%xmm2; movhpd (%rsi),%xmm2; movdqu %xmm2,64(%rsi)",
	  "\x0f\x10\x06\x0f\x28\xc8\x0f\x50\xc1\x66\x0f\x50\xd9\xf2\x0f\x70\xd1\x1b\x66\x48\x0f\x7e\xd1\x66\x0f\x12\x56\x08\x66\x0f\x16\x16\xf3\x0f\x7f\x56\x40", 37, MASK_ALL },
	/* The shifts by an immediate as fast forms (avx_fast.c), counts past
	 * the lane width and 0 included */
	{ "SSE: psrld $19/pslld $13/por (a rotate), psrad $40, psraw $5, psrlw $20, psllw $8, psrlq $63, psllq $64, pslld $32, psrld $0, psrad $31 of xmm loaded from (%rsi), each stored at 64(%rsi)..; movq %xmm1,%rax",
	  "\xf3\x0f\x6f\x06\x66\x0f\x6f\xc8\x66\x0f\x72\xd1\x13\x66\x0f\x6f\xd0\x66\x0f\x72\xf2\x0d\x66\x0f\xeb\xca\xf3\x0f\x7f\x4e\x40\x66\x0f\x6f\xd8\x66\x0f\x72\xe3\x28\xf3\x0f\x7f\x5e\x50\x66\x0f\x6f\xe0\x66\x0f\x71\xe4\x05\x66\x0f\x71\xd0\x14\xf3\x0f\x7f\x66\x60\xf3\x0f\x7f\x46\x70\xf3\x0f\x6f\x6e\x10\x66\x0f\x6f\xf5\x66\x0f\x71\xf6\x08\x66\x0f\x73\xd5\x3f\x66\x0f\x73\xf7\x40\xf3\x0f\x7f\xb6\x80\x00\x00\x00\xf3\x0f\x7f\xae\x90\x00\x00\x00\xf3\x44\x0f\x6f\x46\x20\x66\x41\x0f\x72\xf0\x20\x66\x0f\x72\xd6\x00\x66\x0f\x72\xe6\x1f\xf3\x44\x0f\x7f\x86\xa0\x00\x00\x00\xf3\x0f\x7f\xb6\xb0\x00\x00\x00\x66\x48\x0f\x7e\xc8", 153, MASK_ALL },
	/* MOVQ xmm,m64 (the high quadword zeroed) and MOVQ m64,xmm as fast
	 * forms (avx_fast.c), base + disp and indexed */
	{ "SSE: and $7,%eax; movdqu 32(%rsi),%xmm2; movq 8(%rsi),%xmm2; movdqu %xmm2,64(%rsi); movdqu 48(%rsi),%xmm3; movq (%rsi,%rax,8),%xmm3; movdqu %xmm3,80(%rsi); movq %xmm3,100(%rsi,%rax,4); movq %xmm2,120(%rsi); movq -8(%rsi,%rax,8),%xmm4; paddd %xmm4,%xmm2; movq %xmm2,%rbx",
	  "\x83\xe0\x07\xf3\x0f\x6f\x56\x20\xf3\x0f\x7e\x56\x08\xf3\x0f\x7f\x56\x40\xf3\x0f\x6f\x5e\x30\xf3\x0f\x7e\x1c\xc6\xf3\x0f\x7f\x5e\x50\x66\x0f\xd6\x5c\x86\x64\x66\x0f\xd6\x56\x78\xf3\x0f\x7e\x64\xc6\xf8\x66\x0f\xfe\xd4\x66\x48\x0f\x7e\xd3", 59, MASK_ALL },
	/* PACKUSWB and the PUNPCKs of registers as fast forms (avx_fast.c:
	 * the own SHA-256's byte swap), words of random sign and size */
	{ "SSE: movdqu (%rsi),%xmm0; movdqu 16(%rsi),%xmm1; then of copies of xmm0 with xmm1: packuswb, punpck{l,h}{bw,wd,dq,qdq}, each stored at 64(%rsi)..; packuswb %xmm2,%xmm2; movq %xmm2,%rax",
	  "\xf3\x0f\x6f\x06\xf3\x0f\x6f\x4e\x10\x66\x0f\x6f\xd0\x66\x0f\x67\xd1\xf3\x0f\x7f\x56\x40\x66\x0f\x6f\xd8\x66\x0f\x60\xd9\xf3\x0f\x7f\x5e\x50\x66\x0f\x6f\xe0\x66\x0f\x68\xe1\xf3\x0f\x7f\x66\x60\x66\x0f\x6f\xe8\x66\x0f\x61\xe9\xf3\x0f\x7f\x6e\x70\x66\x0f\x6f\xf0\x66\x0f\x69\xf1\xf3\x0f\x7f\xb6\x80\x00\x00\x00\x66\x0f\x6f\xf8\x66\x0f\x62\xf9\xf3\x0f\x7f\xbe\x90\x00\x00\x00\x66\x44\x0f\x6f\xc0\x66\x44\x0f\x6a\xc1\xf3\x44\x0f\x7f\x86\xa0\x00\x00\x00\x66\x44\x0f\x6f\xc8\x66\x44\x0f\x6c\xc9\xf3\x44\x0f\x7f\x8e\xb0\x00\x00\x00\x66\x0f\x6d\xc1\xf3\x0f\x7f\x86\xc0\x00\x00\x00\x66\x0f\x67\xd2\x66\x48\x0f\x7e\xd0", 152, MASK_ALL },
	{ "SSE: movq %rax,%xmm0; movq %rbx,%xmm1; punpcklqdq %xmm1,%xmm0; movdqu %xmm0,(%rsi); movq (%rsi),%xmm3; movq %xmm3,8(%rsi); psrad $3,%xmm0; movdqu %xmm0,16(%rsi)",
	  "\x66\x48\x0f\x6e\xc0\x66\x48\x0f\x6e\xcb\x66\x0f\x6c\xc1\xf3\x0f\x7f\x06\xf3\x0f\x7e\x1e\x66\x0f\xd6\x5e\x08\x66\x0f\x72\xe0\x03\xf3\x0f\x7f\x46\x10", 37, MASK_ALL },
};

static const struct snippet cases32[] = {
	{ "ALU16: add %bx,%ax; shr $8,%cx; sub 6(%esi),%ax; neg %dx; sbb %al,%al; adc %bh,%ch; neg %esi; sbb $1,%di; rol $4,%bx; adc %dx,%cx",
	  "\x66\x01\xd8\x66\xc1\xe9\x08\x66\x2b\x46\x06\x66\xf7\xda\x18\xc0\x10\xfd\xf7\xde\x66\x83\xdf\x01\x66\xc1\xc3\x04\x66\x11\xd1", 31, MASK_ARITH },
	{ "LF: add %bl,%ah; sub %ch,%dl; xor %al,%al; cmp $3,%cl; or %bh,%dh",
	  "\x00\xdc\x28\xea\x30\xc0\x80\xf9\x03\x08\xfe", 11, MASK_ARITH_NOAF },
	{ "ALU32: add %ebx,%eax; adc %ecx,%edx; sub %esi,%edi; sbb %ebp,%ebx; setl %cl; setbe %ch",
	  "\x01\xd8\x11\xca\x29\xf7\x19\xeb\x0f\x9c\xc1\x0f\x96\xc5", 14, MASK_ARITH },
	{ "ALU32: add $1,%eax; sub $1,%ebx; neg %ecx; imul %edx,%esi; shld $5,%eax,%ebx; bsr %ecx,%edi",
	  "\x83\xc0\x01\x83\xeb\x01\xf7\xd9\x0f\xaf\xf2\x0f\xa4\xc3\x05\x0f\xbd\xf9", 18, MASK_ZF },
	{ "ALU32: mov $9,%ecx; xor %edx,%edx; div %ecx; cmpxchg %ebx,%ecx; cmovz %esi,%edi",
	  "\xb9\x09\x00\x00\x00\x31\xd2\xf7\xf1\x0f\xb1\xd9\x0f\x44\xfe", 15, MASK_ZF },
	{ "SHIFT8: shr $3,%dl; shl $5,%ah; sar $2,%bh; shr $1,%ch",
	  "\xc0\xea\x03\xc0\xe4\x05\xc0\xff\x02\xd0\xed", 11, MASK_COSZP },
	{ "LF MEM: sub 4(%esi),%eax; add 8(%edi),%ebx; ror $3,%ebx; xor 12(%esi),%ecx; add %edx,%ebp",
	  "\x2b\x46\x04\x03\x5f\x08\xc1\xcb\x03\x33\x4e\x0c\x01\xd5", 14, MASK_ARITH },
	/* Pairs (pairs.c): i386 spill code, flat loads and stores between
	 * register ALU forms and rotates. */
	{ "PAIRS: mov 4(%esi),%eax; mov 8(%esi),%ebx; mov %eax,12(%edi); mov %ebx,16(%edi); mov %eax,%ecx; ror $6,%ecx; xor %ebx,%ecx; mov 20(%esi),%edx; add %ecx,%edx; mov %edx,20(%edi); mov 20(%edi),%ebp; and %ebp,%eax; mov %eax,24(%edi); mov %ebx,%ecx; rol $3,%ecx; add 4(%esi),%ecx; xor %eax,%ecx; mov %ecx,(%edi); mov (%edi),%edx; add %edx,%eax",
	  "\x8b\x46\x04\x8b\x5e\x08\x89\x47\x0c\x89\x5f\x10\x89\xc1\xc1\xc9\x06\x31\xd9\x8b\x56\x14\x01\xca\x89\x57\x14\x8b\x6f\x14\x21\xe8\x89\x47\x18\x89\xd9\xc1\xc1\x03\x03\x4e\x04\x31\xc1\x89\x0f\x8b\x17\x01\xd0", 51, MASK_ARITH },
	/* i386 stack slots (the flat-32 shape through ESP: move.c's
	 * load32_sp32/store32_sp32 and their pairs), ESP pointed at the
	 * buffer; the native run is 64-bit, so the host's RSP is kept in RBP
	 * (REX.W, DEC EAX in 32-bit mode) and EAX/EBP cleared after. */
	{ "STACK32: mov %rsp,%rbp (32-bit: dec %eax; mov %esp,%ebp); mov %esi,%esp; mov 4(%esp),%ebx; mov %ebx,12(%esp); mov 8(%esp),%ecx; add %ecx,%edx; mov %edx,16(%esp); mov 16(%esp),%edi; ror $6,%edi; mov %edi,20(%esp); mov %edi,%ecx; mov 0x40(%esp),%edx; xor %ecx,%edx; mov %edx,-4(%esp); mov -4(%esp),%ebx; mov %ebx,0x80(%esp); add 0x80(%esp),%ecx; mov 24(%esp),%eax; mov %eax,28(%esp); mov %rbp,%rsp (dec %eax; mov %ebp,%esp); xor %eax,%eax; xor %ebp,%ebp",
	  "\x48\x89\xe5\x89\xf4\x8b\x5c\x24\x04\x89\x5c\x24\x0c\x8b\x4c\x24\x08\x01\xca\x89\x54\x24\x10\x8b\x7c\x24\x10\xc1\xcf\x06\x89\x7c\x24\x14\x89\xf9\x8b\x54\x24\x40\x31\xca\x89\x54\x24\xfc\x8b\x5c\x24\xfc\x89\x9c\x24\x80\x00\x00\x00\x03\x8c\x24\x80\x00\x00\x00\x8b\x44\x24\x18\x89\x44\x24\x1c\x48\x89\xec\x31\xc0\x31\xed", 79, MASK_ARITH },
	/* INC r32 after writers that keep their flags for it (INC keeps CF:
	 * i386 busybox's round counter after its last ADD) and after a
	 * load, in runs of pair units; CF read after each */
	{ "INC TAIL: xor %ecx,%edx; inc %ebp; adc %edx,%eax; add %ecx,%edx; inc %ebp; adc $0,%eax; mov 4(%esi),%edi; inc %ebp; setc %bl; add %edi,%edx; ror $3,%ecx; inc %ebx; sbb %edi,%edi; add %ecx,%edx; inc %ebp; mov %edx,8(%esi); mov 12(%esi),%ecx; add %ecx,%eax",
	  "\x31\xca\xff\xc5\x11\xd0\x01\xca\xff\xc5\x83\xd0\x00\x8b\x7e\x04\xff\xc5\x0f\x92\xc3\x01\xfa\xc1\xc9\x03\xff\xc3\x19\xff\x01\xca\xff\xc5\x89\x56\x08\x8b\x4e\x0c\x01\xc8", 42, MASK_ARITH },
	/* reg op= memory through an indexed flat-32 operand (alu.c's
	 * _fx32 forms, i386 SHA-256's 'add -0x5b07c(%esi,%ebp,8),%edx'),
	 * flag-free and paired (the ADDs into EDX) and with the flags (the
	 * last); the native run is 64-bit: (%rsi,%rcx,S) */
	{ "FX32: mov $3,%ecx; add 8(%esi,%ecx,4),%eax; sub 4(%esi,%ecx,8),%ebx; add -4(%esi,%ecx,2),%eax; and (%esi,%ecx,1),%edx; or 12(%esi,%ecx,2),%edi; add 0x10(%esi,%ecx,4),%edx; add 0x14(%esi,%ecx,4),%edx; xor 16(%esi,%ecx,4),%ebp; add %ebx,%eax; add 20(%esi,%ecx,8),%eax",
	  "\xb9\x03\x00\x00\x00\x03\x44\x8e\x08\x2b\x5c\xce\x04\x03\x44\x4e\xfc\x23\x14\x0e\x0b\x7c\x4e\x0c\x03\x54\x8e\x10\x03\x54\x8e\x14\x33\x6c\x8e\x10\x01\xd8\x03\x44\xce\x14", 42, MASK_ARITH },
	/* the i386 message schedule's and qsort's pair units: ADD of base +
	 * disp, ADD/SUB of an immediate, flag-free between loads and stores,
	 * the last with its flags */
	{ "SCHED32: mov (%esi),%ebx; add 0x24(%esi),%ebx; add %ebx,%ecx; mov %ecx,0x40(%esi); add $4,%edx; sub $1,%edi; mov 4(%esi),%eax; add 8(%esi),%ebp; add $8,%eax; mov %eax,0x44(%esi); sub $1,%edi; mov 0x44(%esi),%ebx; add $-3,%ebx",
	  "\x8b\x1e\x03\x5e\x24\x01\xd9\x89\x4e\x40\x83\xc2\x04\x83\xef\x01\x8b\x46\x04\x03\x6e\x08\x83\xc0\x08\x89\x46\x44\x83\xef\x01\x8b\x5e\x44\x83\xc3\xfd", 37, MASK_ARITH },
	{ "MOVSX MEM32: movsbl 1(%esi),%ebx; movswl 6(%esi),%edx; xor %ecx,%ecx; movsbl 3(%esi,%ecx,2),%eax; movswl 8(%esi,%ecx,4),%edi",
	  "\x0f\xbe\x5e\x01\x0f\xbf\x56\x06\x31\xc9\x0f\xbe\x44\x4e\x03\x0f\xbf\x7c\x8e\x08", 20, MASK_ARITH },
	{ "MEM32: mov (%esi),%eax; add %eax,4(%esi); cld; mov $11,%ecx; rep movsb; lock xaddl %edx,8(%esi)",
	  "\x8b\x06\x01\x46\x04\xfc\xb9\x0b\x00\x00\x00\xf3\xa4\xf0\x0f\xc1\x56\x08", 18, MASK_ARITH },
	{ "MEM32: cmpxchg8b (%esi); mov $5,%ecx; rep stosl; lea 3(%eax,%ebx,2),%edx; mov %esi,%ebx; xlat",
	  "\x0f\xc7\x0e\xb9\x05\x00\x00\x00\xf3\xab\x8d\x54\x58\x03\x89\xf3\xd7", 17, MASK_ZF },
};

#define BUF_SIZE 1024
static uint8_t *code_page, *buf;
static uint8_t expect_buf[BUF_SIZE];
static uint8_t *guest_stack;

static uint64_t rng_state;
static uint64_t host_fs_base;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* Random values with edge cases mixed in. */
static uint64_t rnd_value(void)
{
	static const uint64_t edge[] = { 0, 1, ~0ull, 0x80000000ull, 0x7fffffffull,
					 0x8000000000000000ull, 0xffffffffull, 0x80, 0x7f,
					 0x8000, 0xffff, 63, 64, 31, 32 };
	uint64_t r = rnd();

	if (r % 4 == 0)
		return edge[(r >> 8) % (sizeof(edge) / sizeof(edge[0]))];
	if (r % 4 == 1)
		return rnd() & 0xff;
	return rnd();
}

static void fill_buf(uint64_t seed)
{
	uint64_t saved = rng_state;

	rng_state = seed | 1;
	for (unsigned k = 0; k < BUF_SIZE; k++)
		buf[k] = (uint8_t)(k % 7 == 0 ? buf[k ? k - 1 : 0] : rnd());
	rng_state = saved;
}

static void init_state(struct state *s, bool low32)
{
	for (int r = 0; r < 16; r++)
		s->r[r] = low32 ? (uint32_t)rnd_value() : rnd_value();
	s->r[4] = 0;
	s->r[6] = (uint64_t)(uintptr_t)(buf + 128);
	s->r[7] = (uint64_t)(uintptr_t)(buf + 256);
	s->rflags = 0x202 | (rnd() & MASK_ARITH);
}

static void run_case(const struct snippet *sn, bool mode32, uint64_t seed)
{
	struct state native, start;
	struct cpu *cpu;
	uint64_t mask32 = mode32 ? 0xffffffffull : ~0ull;

	if (getenv("SG_TEST_VERBOSE"))
		fprintf(stderr, "%s\n", sn->name);
	rng_state = seed;
	init_state(&start, mode32);
	native = start;

	memcpy(code_page, sn->bytes, sn->len);
	code_page[sn->len] = 0xc3; /* ret */
	fill_buf(seed);
	run_native(&native, code_page);
	memcpy(expect_buf, buf, BUF_SIZE);

	code_page[sn->len] = 0xcc; /* int3 stops the interpreter */
	cpu_invalidate_code((uint64_t)(uintptr_t)code_page, 4096);
	cpu = calloc(1, sizeof(*cpu));
	/* Twice: decoded as it runs, then from the decoded code (the second
	 * run has the decode-time choices made while the first ran, such as
	 * flag-free forms: lflive.c). */
	for (int warm = 0; warm < 2; warm++) {
		fill_buf(seed);
		cpu_init(cpu, mode32 ? CPU_MODE_32 : CPU_MODE_64);
		if (!mode32) /* the host's TLS, which FS-relative snippets read natively */
			cpu->base[SEG_FS] = host_fs_base;
		memcpy(cpu->r, start.r, sizeof(start.r));
		cpu->r[4] = (uint64_t)(uintptr_t)(guest_stack + 65536 - 64);
		cpu_set_rflags(cpu, start.rflags);
		cpu->rip = (uint64_t)(uintptr_t)code_page;
		assert_int_equal(cpu_run(cpu), CPU_STOP_FAULT);
		if (cpu->fault.vector != VEC_BP)
			fail_msg("%s: stopped with vector %d at +%llx", sn->name, cpu->fault.vector,
				 (unsigned long long)(cpu->fault.insn_addr - (uintptr_t)code_page));
		assert_int_equal(cpu->fault.insn_addr, (uintptr_t)code_page + sn->len);
		for (int r = 0; r < 16; r++) {
			if (r == 4)
				continue;
			if ((cpu->r[r] & mask32) != (native.r[r] & mask32))
				fail_msg("%s (seed %llx, run %d): r%d = %llx, native %llx", sn->name,
					 (unsigned long long)seed, warm, r,
					 (unsigned long long)cpu->r[r], (unsigned long long)native.r[r]);
		}
		if ((cpu_get_rflags(cpu) & sn->flags_mask) != (native.rflags & sn->flags_mask))
			fail_msg("%s (seed %llx, run %d): flags %llx, native %llx (mask %llx)",
				 sn->name, (unsigned long long)seed, warm,
				 (unsigned long long)cpu_get_rflags(cpu),
				 (unsigned long long)native.rflags, (unsigned long long)sn->flags_mask);
		if (memcmp(buf, expect_buf, BUF_SIZE) != 0)
			fail_msg("%s (seed %llx, run %d): memory differs", sn->name,
				 (unsigned long long)seed, warm);
	}
	cpu_release(cpu);
	free(cpu);
}

#define SEEDS 24

static void test_diff64(void **state)
{
	for (size_t k = 0; k < sizeof(cases64) / sizeof(cases64[0]); k++)
		for (uint64_t s = 1; s <= SEEDS; s++)
			run_case(&cases64[k], false, s * 0x9e3779b97f4a7c15ull + k);
}

/* 32-bit mode: code and data below 4 GiB; the same bytes run natively in
 * 64-bit mode mean the same for these snippets (no REX, no stack). */
static void test_diff32(void **state)
{
	for (size_t k = 0; k < sizeof(cases32) / sizeof(cases32[0]); k++)
		for (uint64_t s = 1; s <= SEEDS; s++)
			run_case(&cases32[k], true, s * 0x9e3779b97f4a7c15ull + k);
}

/* CMP/TEST + Jcc, every condition, each compare form (fused.c fuses the
 * pair on the warm run): "<compare>; jCC +N; inc %rcx; inc %rdx". */
static void test_fused_jcc(void **state)
{
	static const struct { const char *name, *bytes; unsigned len; } cmps[] = {
		{ "cmp %rbx,%rax", "\x48\x39\xd8", 3 },
		{ "cmp %ebx,%eax (GvEv)", "\x3b\xc3", 2 },
		{ "cmp %bl,%ah", "\x38\xdc", 2 },
		{ "cmp $-1,%r8d", "\x41\x83\xf8\xff", 4 },
		{ "cmp $0x80,%al", "\x3c\x80", 2 },
		{ "cmp (%rsi),%eax", "\x3b\x06", 2 },
		{ "cmp %rax,8(%rsi)", "\x48\x39\x46\x08", 4 },
		{ "cmpl $5,4(%rsi)", "\x83\x7e\x04\x05", 4 },
		{ "cmpb $0x7f,(%rdi)", "\x80\x3f\x7f", 3 },
		{ "test %edx,%eax", "\x85\xd0", 2 },
		{ "test %r9,%r9", "\x4d\x85\xc9", 3 },
		{ "test $0x81,%bl", "\xf6\xc3\x81", 3 },
		{ "test %al,(%rsi)", "\x84\x06", 2 },
		{ "testq $-2,(%rdi)", "\x48\xf7\x07\xfe\xff\xff\xff", 7 },
		/* 64-bit CMP and byte TEST of memory through a flat base + disp */
		{ "cmp 16(%rsi),%rcx", "\x48\x3b\x4e\x10", 4 },
		{ "cmpq $-3,24(%rdi)", "\x48\x83\x7f\x18\xfd", 5 },
		{ "cmpq $0x7f,(%rsi)", "\x48\x83\x3e\x7f", 4 },
		{ "testb $0x81,5(%rsi)", "\xf6\x46\x05\x81", 4 },
		/* SUB of a 64-bit memory operand, then JE/JNE (fused.c, Py_DECREF;
		 * its store leaves through the table handler here) */
		{ "subq $1,8(%rsi)", "\x48\x83\x6e\x08\x01", 5 },
		{ "subq $-2,(%rdi)", "\x48\x83\x2f\xfe", 4 },
		/* no fast form: must not fuse (16-bit, 32-bit addresses) */
		{ "cmp %ax,%bx", "\x66\x39\xc3", 3 },
		{ "testw $0x8001,(%rsi)", "\x66\xf7\x06\x01\x80", 5 },
		{ "cmp (%esi),%eax", "\x67\x3b\x06", 3 },
	};
	char name[96], bytes[32];

	for (size_t k = 0; k < sizeof(cmps) / sizeof(cmps[0]); k++) {
		for (unsigned cc = 0; cc < 16; cc++) {
			unsigned n = cmps[k].len;
			struct snippet sn = { name, bytes, 0, MASK_ARITH };

			memcpy(bytes, cmps[k].bytes, n);
			bytes[n++] = (char)(0x70 + cc);
			bytes[n++] = 3;
			memcpy(bytes + n, "\x48\xff\xc1\x48\xff\xc2", 6); /* inc %rcx; inc %rdx */
			sn.len = n + 6;
			snprintf(name, sizeof(name), "FUSE: %s; j%u", cmps[k].name, cc);
			for (uint64_t seed = 1; seed <= SEEDS; seed++)
				run_case(&sn, false, seed * 0x9e3779b97f4a7c15ull + k * 16 + cc);
		}
	}
}

/* The same in 32-bit mode (fused.c's flat-32 shapes of a 32-bit CMP of
 * memory): "<compare>; jCC +N; inc %ecx; inc %edx" (no REX: the bytes
 * mean the same natively in 64-bit mode). */
static void test_fused_jcc32(void **state)
{
	static const struct { const char *name, *bytes; unsigned len; } cmps[] = {
		{ "cmp (%esi),%eax", "\x3b\x06", 2 },
		{ "cmp %eax,8(%esi)", "\x39\x46\x08", 3 },
		{ "cmpl $5,4(%esi)", "\x83\x7e\x04\x05", 4 },
		{ "cmp $0x80000000,12(%edi)", "\x81\x7f\x0c\x00\x00\x00\x80", 7 },
	};
	char name[96], bytes[32];

	for (size_t k = 0; k < sizeof(cmps) / sizeof(cmps[0]); k++) {
		for (unsigned cc = 0; cc < 16; cc++) {
			unsigned n = cmps[k].len;
			struct snippet sn = { name, bytes, 0, MASK_ARITH };

			memcpy(bytes, cmps[k].bytes, n);
			bytes[n++] = (char)(0x70 + cc);
			bytes[n++] = 2;
			memcpy(bytes + n, "\xff\xc1\xff\xc2", 4); /* inc %ecx; inc %edx */
			sn.len = n + 4;
			snprintf(name, sizeof(name), "FUSE32: %s; j%u", cmps[k].name, cc);
			for (uint64_t seed = 1; seed <= SEEDS; seed++)
				run_case(&sn, true, seed * 0x9e3779b97f4a7c15ull + k * 16 + cc);
		}
	}
}

/* CMP + SETcc + SETcc, the three-way compare (fused.c fuses "setg;
 * setl" on the warm run), into low and high byte registers and REX ones,
 * the same register twice, other condition pairs (not fused), after each
 * compare form:
 * "<compare>; setCC1 r1; setCC2 r2; inc %rcx". */
static void test_fused_setcc(void **state)
{
	static const struct { const char *name, *bytes; unsigned len; } cmps[] = {
		{ "cmp %rbx,%rax", "\x48\x39\xd8", 3 },
		{ "cmp %ebx,%eax (GvEv)", "\x3b\xc3", 2 },
		{ "cmp %ebx,%ebx", "\x39\xdb", 2 },
		{ "cmp %bl,%ah", "\x38\xdc", 2 },
		{ "cmp $-1,%r8d", "\x41\x83\xf8\xff", 4 },
		{ "cmp (%rsi),%eax", "\x3b\x06", 2 },
		{ "cmp %eax,(%rdi)", "\x39\x07", 2 },
		{ "xor %ecx,%ecx; cmp %eax,4(%rsi,%rcx,4) (any address)", "\x31\xc9\x39\x44\x8e\x04", 6 },
		{ "cmp %rax,8(%rsi)", "\x48\x39\x46\x08", 4 },
		{ "cmpl $5,4(%rsi)", "\x83\x7e\x04\x05", 4 },
		{ "cmpb $0x7f,(%rdi)", "\x80\x3f\x7f", 3 },
		{ "test %edx,%eax", "\x85\xd0", 2 },
		{ "cmp %ax,%bx", "\x66\x39\xc3", 3 },
		{ "cmp (%esi),%eax", "\x67\x3b\x06", 3 },
	};
	static const struct { const char *name, *bytes; unsigned len; } sets[] = {
		{ "setg %al; setl %dl", "\x0f\x9f\xc0\x0f\x9c\xc2", 6 },
		{ "setg %ah; setl %bh", "\x0f\x9f\xc4\x0f\x9c\xc7", 6 },
		{ "setg %sil; setl %r9b", "\x40\x0f\x9f\xc6\x41\x0f\x9c\xc1", 8 },
		{ "setg %cl; setl %cl", "\x0f\x9f\xc1\x0f\x9c\xc1", 6 },
		{ "seta %cl; setb %dl", "\x0f\x97\xc1\x0f\x92\xc2", 6 },
		{ "setl %al; setg %dl", "\x0f\x9c\xc0\x0f\x9f\xc2", 6 },
		{ "sete %al; setne %dh", "\x0f\x94\xc0\x0f\x95\xc6", 6 },
		{ "setg %al; inc %rdx; setl %dl", "\x0f\x9f\xc0\x48\xff\xc2\x0f\x9c\xc2", 9 },
	};
	char name[160], bytes[48];

	for (size_t k = 0; k < sizeof(cmps) / sizeof(cmps[0]); k++) {
		for (size_t m = 0; m < sizeof(sets) / sizeof(sets[0]); m++) {
			unsigned n = cmps[k].len;
			struct snippet sn = { name, bytes, 0, MASK_ARITH };

			memcpy(bytes, cmps[k].bytes, n);
			memcpy(bytes + n, sets[m].bytes, sets[m].len);
			n += sets[m].len;
			memcpy(bytes + n, "\x48\xff\xc1", 3); /* inc %rcx */
			sn.len = n + 3;
			snprintf(name, sizeof(name), "SETCC: %s; %s", cmps[k].name, sets[m].name);
			for (uint64_t seed = 1; seed <= SEEDS; seed++)
				run_case(&sn, false, seed * 0x9e3779b97f4a7c15ull + k * 16 + m);
		}
	}
}

/* CMP + "setg; setl" + the rest of the three-way compare GCC makes of
 * (x > y) - (x < y): both bytes zero-extended, then subtracted (fused.c
 * fuses the six on the warm run when the registers fit: A = setg's, B =
 * setl's, "movzx A; movzx B" in either order, "sub B,A"), after each
 * compare form, in 64-bit mode, 32-bit mode and with 67h (x32); the
 * shapes that do not fit run unfused. Nothing after the SUB: its flags
 * are compared, then the registers. */
static void test_fused_3way_tail(void **state)
{
	static const struct { const char *name, *bytes; unsigned len; bool m32ok; } cmps[] = {
		{ "cmp %eax,(%rdi)", "\x39\x07", 2, true },
		{ "cmp (%rsi),%eax", "\x3b\x06", 2, true },
		{ "cmp %ebx,%eax", "\x39\xd8", 2, true },
		{ "cmp %ebx,%eax (GvEv)", "\x3b\xc3", 2, true },
		{ "cmp $-1,%ecx", "\x83\xf9\xff", 3, true },
		{ "cmpl $5,4(%rsi)", "\x83\x7e\x04\x05", 4, true },
		{ "xor %ecx,%ecx; cmp %eax,4(%rsi,%rcx,4) (any address)", "\x31\xc9\x39\x44\x8e\x04", 6, true },
		{ "cmp %rax,8(%rsi)", "\x48\x39\x46\x08", 4, false },
		{ "cmp %rbx,%rax", "\x48\x39\xd8", 3, false },
		{ "cmp %eax,(%edi) (67h)", "\x67\x39\x07", 3, false },
		{ "cmp %bl,%al", "\x38\xd8", 2, true },
		{ "mov %eax,(%rdi); cmp %eax,(%rdi) (equal)", "\x89\x07\x39\x07", 4, true },
	};
	static const struct { const char *name, *bytes; unsigned len; bool m32ok; } tails[] = {
		{ "setg %al; setl %dl; movzbl %dl,%edx; movzbl %al,%eax; sub %edx,%eax",
		  "\x0f\x9f\xc0\x0f\x9c\xc2\x0f\xb6\xd2\x0f\xb6\xc0\x29\xd0", 14, true },
		{ "setg %cl; setl %bl; movzbl %cl,%ecx; movzbl %bl,%ebx; sub %ebx,%ecx (GvEv)",
		  "\x0f\x9f\xc1\x0f\x9c\xc3\x0f\xb6\xc9\x0f\xb6\xdb\x2b\xcb", 14, true },
		{ "setg %sil; setl %r9b; movzbl %r9b,%r9d; movzbq %sil,%rsi; sub %r9d,%esi",
		  "\x40\x0f\x9f\xc6\x41\x0f\x9c\xc1\x45\x0f\xb6\xc9\x48\x0f\xb6\xf6\x44\x29\xce", 19, false },
		/* not the shape: the operands the other way round, another
		 * register, AH, a 64-bit SUB, the same register twice */
		{ "setg %al; setl %dl; movzbl %dl,%edx; movzbl %al,%eax; sub %eax,%edx",
		  "\x0f\x9f\xc0\x0f\x9c\xc2\x0f\xb6\xd2\x0f\xb6\xc0\x29\xc2", 14, true },
		{ "setg %al; setl %dl; movzbl %dl,%ecx; movzbl %al,%eax; sub %ecx,%eax",
		  "\x0f\x9f\xc0\x0f\x9c\xc2\x0f\xb6\xca\x0f\xb6\xc0\x29\xc8", 14, true },
		{ "setg %ah; setl %dl; movzbl %dl,%edx; movzbl %ah,%eax; sub %edx,%eax",
		  "\x0f\x9f\xc4\x0f\x9c\xc2\x0f\xb6\xd2\x0f\xb6\xc4\x29\xd0", 14, true },
		{ "setg %al; setl %dl; movzbl %dl,%edx; movzbl %al,%eax; sub %rdx,%rax",
		  "\x0f\x9f\xc0\x0f\x9c\xc2\x0f\xb6\xd2\x0f\xb6\xc0\x48\x29\xd0", 15, false },
		{ "setg %al; setl %al; movzbl %al,%eax; movzbl %al,%eax; sub %eax,%eax",
		  "\x0f\x9f\xc0\x0f\x9c\xc0\x0f\xb6\xc0\x0f\xb6\xc0\x29\xc0", 14, true },
	};
	char name[200], bytes[48];

	for (int m32 = 0; m32 < 2; m32++) {
		for (size_t k = 0; k < sizeof(cmps) / sizeof(cmps[0]); k++) {
			for (size_t m = 0; m < sizeof(tails) / sizeof(tails[0]); m++) {
				unsigned n = cmps[k].len;
				struct snippet sn = { name, bytes, 0, MASK_ARITH };

				if (m32 && (!cmps[k].m32ok || !tails[m].m32ok))
					continue;
				memcpy(bytes, cmps[k].bytes, n);
				memcpy(bytes + n, tails[m].bytes, tails[m].len);
				sn.len = n + tails[m].len;
				snprintf(name, sizeof(name), "3WAY%s: %s; %s", m32 ? "32" : "",
					 cmps[k].name, tails[m].name);
				for (uint64_t seed = 1; seed <= SEEDS; seed++)
					run_case(&sn, m32, seed * 0x9e3779b97f4a7c15ull + k * 16 + m);
			}
		}
	}
}

/* The comparison callback's whole body called and returned from: "call
 * L; [test; jcc; lea;] jmp END; L: [load;] cmp; setg; setl; movzbl;
 * movzbl; sub; ret; END:" (fused.c fuses the RET and the load before the
 * CMP into the three-way compare on the warm run; forms and loads that
 * do not fit stay apart; the caller tests the result as msort does). 64-bit mode (the harness's 32-bit mode has no stack
 * below 4 GiB); the x32 shape through 67h. */
static void test_fused_3way_ret(void **state)
{
	/* pushfq; pop %r10; and $0x8d5,%r10d; mov %rsp,%r9; sub %r8,%r9; xor %r8d,%r8d */
#define END_FLAGS_SP "\x9c\x41\x5a\x41\x81\xe2\xd5\x08\x00\x00\x49\x89\xe1\x4d\x29\xc1\x45\x31\xc0"
	static const struct { const char *name, *bytes; unsigned len; } loads[] = {
		{ "", "", 0 },
		{ "mov (%rsi),%eax", "\x8b\x06", 2 },
		{ "mov 8(%rsi),%rax", "\x48\x8b\x46\x08", 4 },
		{ "mov (%esi),%eax (67h)", "\x67\x8b\x06", 3 },
		{ "mov (%rdi),%eax (the compare's base)", "\x8b\x07", 2 },
		{ "mov (%rsi),%ecx", "\x8b\x0e", 2 },
		{ "xor %ecx,%ecx; mov (%rsi,%rcx,4),%eax (indexed)", "\x31\xc9\x8b\x04\x8e", 5 },
	};
	static const struct { const char *name, *bytes; unsigned len; } cmps[] = {
		{ "cmp %eax,(%rdi)", "\x39\x07", 2 },
		{ "cmp %eax,4(%rdi)", "\x39\x47\x04", 3 },
		{ "cmp %ecx,(%rdi)", "\x39\x0f", 2 },
		{ "cmp %rax,8(%rsi)", "\x48\x39\x46\x08", 4 },
		{ "cmp %eax,(%edi) (67h)", "\x67\x39\x07", 3 },
		{ "cmp %rax,(%rdi)", "\x48\x39\x07", 3 },
		{ "cmp (%rsi),%eax", "\x3b\x06", 2 },
		{ "cmp %ebx,%eax", "\x39\xd8", 2 },
	};
	static const struct { const char *name, *bytes; unsigned len; } tails[] = {
		{ "setg %al; setl %dl; movzbl %dl,%edx; movzbl %al,%eax; sub %edx,%eax",
		  "\x0f\x9f\xc0\x0f\x9c\xc2\x0f\xb6\xd2\x0f\xb6\xc0\x29\xd0", 14 },
		{ "setg %cl; setl %bl; movzbl %bl,%ebx; movzbl %cl,%ecx; sub %ebx,%ecx",
		  "\x0f\x9f\xc1\x0f\x9c\xc3\x0f\xb6\xdb\x0f\xb6\xc9\x29\xd9", 14 },
		{ "setg %al; setl %dl; movzbl %dl,%edx; movzbl %al,%eax; sub %eax,%edx (not the shape)",
		  "\x0f\x9f\xc0\x0f\x9c\xc2\x0f\xb6\xd2\x0f\xb6\xc0\x29\xc2", 14 },
	};
	/* where the callback returns to: the caller's test of the result
	 * (a fused TEST and Jcc), then "jmp END" */
	static const struct { const char *name, *bytes; unsigned len; } sites[] = {
		{ "", "", 0 },
		{ "test %eax,%eax; jg 1f; lea 1(%rdx),%edx; 1:", "\x85\xc0\x7f\x03\x8d\x52\x01", 7 },
		{ "test %eax,%eax; jle 1f; lea 1(%rdx),%edx; 1:", "\x85\xc0\x7e\x03\x8d\x52\x01", 7 },
		{ "test %ecx,%ecx; jg 1f; lea 1(%rdx),%edx; 1:", "\x85\xc9\x7f\x03\x8d\x52\x01", 7 },
		{ "test %eax,%eax; js 1f; lea 1(%rdx),%edx; 1:", "\x85\xc0\x78\x03\x8d\x52\x01", 7 },
		{ "test %ebx,%eax; jg 1f; lea 1(%rdx),%edx; 1:", "\x85\xd8\x7f\x03\x8d\x52\x01", 7 },
	};
	char name[320], bytes[80];

	for (size_t l = 0; l < sizeof(loads) / sizeof(loads[0]); l++) {
		for (size_t k = 0; k < sizeof(cmps) / sizeof(cmps[0]); k++) {
			for (size_t m = 0; m < sizeof(tails) / sizeof(tails[0]) * 6; m++) {
				size_t t = m % (sizeof(tails) / sizeof(tails[0])), st = m / (sizeof(tails) / sizeof(tails[0]));
				unsigned body = loads[l].len + cmps[k].len + tails[t].len + 1, n = 0;
				struct snippet sn = { name, bytes, 0, MASK_ARITH };

				memcpy(bytes + n, "\x49\x89\xe0", 3); /* mov %rsp,%r8 */
				n += 3;
				bytes[n++] = '\xe8'; /* call L */
				bytes[n++] = (char)(sites[st].len + 2);
				memcpy(bytes + n, "\x00\x00\x00", 3);
				n += 3;
				memcpy(bytes + n, sites[st].bytes, sites[st].len);
				n += sites[st].len;
				bytes[n++] = '\xeb'; /* jmp END */
				bytes[n++] = (char)body;
				memcpy(bytes + n, loads[l].bytes, loads[l].len);
				n += loads[l].len;
				memcpy(bytes + n, cmps[k].bytes, cmps[k].len);
				n += cmps[k].len;
				memcpy(bytes + n, tails[t].bytes, tails[t].len);
				n += tails[t].len;
				bytes[n++] = '\xc3'; /* ret */
				/* END: the callback's flags into r10, then r9 = 0 if
				 * the stack pointer came back where it was */
				memcpy(bytes + n, END_FLAGS_SP, sizeof(END_FLAGS_SP) - 1);
				n += sizeof(END_FLAGS_SP) - 1;
				sn.len = n;
				snprintf(name, sizeof(name), "3WAY RET: call; %s; %s; %s; %s; ret",
					 sites[st].name, loads[l].name, cmps[k].name, tails[t].name);
				for (uint64_t seed = 1; seed <= SEEDS; seed++)
					run_case(&sn, false, seed * 0x9e3779b97f4a7c15ull + l * 256 + k * 16 + m);
			}
		}
	}
}

/* Random runs of the forms the decoder makes multi-instruction handlers
 * of (pairs and triples, flag-free twins and the stale stretches before
 * their writers, fused CMP+Jcc, NEG+SBB, the three-way compare, SUB of
 * memory + JE/JNE, shifts by CL with counts of 0): sequences of 4..20
 * register and buffer instructions, run cold and warm against the host.
 * Trials of difftest hold one or two instructions; these are the
 * combinations random bytes rarely build. The generator tracks which
 * flags are defined (shifts and rotates leave OF, logic and shifts AF
 * undefined; a count in CL may be 0), gives flag readers only conditions
 * of defined flags, and compares the defined ones at the end. */
#define SEQ_RUNS 4000
#define SEQ_MAX 200
#define F_CF 0x001
#define F_PF 0x004
#define F_AF 0x010
#define F_ZF 0x040
#define F_SF 0x080
#define F_OF 0x800

struct seq {
	uint8_t b[SEQ_MAX + 32];
	unsigned n;
	unsigned defined; /* flags defined after the instructions so far */
	uint16_t defined_at[SEQ_MAX + 32]; /* ... before the instruction at each offset */
	bool nostop; /* the last group holds the stack: no native prefix ends inside it */
};

/* in defined_at: a stop here is not checked (a prefix ending here would
 * return with the group's pushes on the stack) */
#define SEQ_NOSTOP 0x8000u

/* 32-bit mode: no REX (the bytes mean the same run natively as 64-bit
 * code), registers EAX..EBX and EBP, byte registers AL..BL and CH */
static bool seq_m32;
#define SEQ_NOREX 0x100u

/* the registers an instruction may write: not RSP, RSI, RDI (the buffer) */
static bool seq_loop; /* the stop test's loop counts in R13 and R14 */

static unsigned seq_reg(void)
{
	static const uint8_t regs[] = { 0, 1, 2, 3, 5, 8, 9, 10, 11, 12, 15, 13, 14 };

	return regs[rnd() % (seq_m32 ? 5 : seq_loop ? sizeof(regs) - 2 : sizeof(regs))];
}

static void seq_put(struct seq *q, unsigned n, ...)
{
	va_list ap;

	va_start(ap, n);
	for (unsigned k = 0; k < n; k++) {
		unsigned v = va_arg(ap, unsigned);

		if (v != SEQ_NOREX)
			q->b[q->n++] = (uint8_t)v;
	}
	va_end(ap);
}

/* REX for reg (ModRM.reg) and rm (ModRM.rm), W: 64-bit; always present in
 * 64-bit mode (byte registers are then SPL..R15B, never AH..BH) */
static unsigned seq_rex(bool w, unsigned reg, unsigned rm)
{
	if (seq_m32)
		return SEQ_NOREX;
	return 0x40 | (w ? 8 : 0) | (reg >> 3) << 2 | (rm >> 3);
}

/* "jCC +N" over an instruction that touches no flags: "lea 1(%r15),%r15",
 * in 32-bit mode "lea 1(%ebp),%ebp" */
static void seq_jcc_over(struct seq *q, unsigned opcode)
{
	if (seq_m32)
		seq_put(q, 5, opcode, 3, 0x8d, 0x6d, 0x01);
	else
		seq_put(q, 6, opcode, 4, 0x4d, 0x8d, 0x7f, 0x01);
}

static unsigned seq_modrm(unsigned mod, unsigned reg, unsigned rm)
{
	return mod << 6 | (reg & 7) << 3 | (rm & 7);
}

/* The flags condition cc reads. */
static unsigned seq_cc_reads(unsigned cc)
{
	static const unsigned reads[8] = { F_OF, F_CF, F_ZF, F_CF | F_ZF, F_SF, F_PF,
					   F_SF | F_OF, F_ZF | F_SF | F_OF };

	return reads[(cc >> 1) & 7];
}

/* A condition of defined flags, or -1. */
static int seq_cc(const struct seq *q)
{
	for (int tries = 0; tries < 16; tries++) {
		unsigned cc = (unsigned)(rnd() % 16);

		if ((seq_cc_reads(cc) & ~q->defined) == 0)
			return (int)cc;
	}
	return -1;
}

#define ALL_FLAGS (F_CF | F_PF | F_AF | F_ZF | F_SF | F_OF)

static void seq_one(struct seq *q)
{
	unsigned d = seq_reg(), r = seq_reg(), op;
	bool w = !seq_m32 && rnd() % 2;
	int c;

	switch (rnd() % 30) {
	case 0: case 1: case 2: /* ALU of registers (ADC/SBB read CF: always defined) */
		op = (unsigned)(rnd() % 8);
		seq_put(q, 3, seq_rex(w, r, d), op << 3 | 1, seq_modrm(3, r, d));
		q->defined = op == 1 || op == 4 || op == 6 ? ALL_FLAGS & ~F_AF : ALL_FLAGS;
		break;
	case 3: /* ALU with an immediate */
		op = (unsigned)(rnd() % 8);
		seq_put(q, 4, seq_rex(w, 0, d), 0x83, seq_modrm(3, op, d), (unsigned)rnd() & 0xff);
		q->defined = op == 1 || op == 4 || op == 6 ? ALL_FLAGS & ~F_AF : ALL_FLAGS;
		break;
	case 4: /* ALU of a buffer word (reg op= memory) */
		op = (unsigned)(rnd() % 8);
		seq_put(q, 4, seq_rex(w, d, 6), op << 3 | 3, seq_modrm(1, d, 6), (unsigned)(rnd() % 16) * 8);
		q->defined = op == 1 || op == 4 || op == 6 ? ALL_FLAGS & ~F_AF : ALL_FLAGS;
		break;
	case 5: { /* shifts and rotates by an immediate, by 1, by CL */
		static const uint8_t kinds[] = { 0, 1, 4, 5, 7 };
		unsigned k = kinds[rnd() % sizeof(kinds)], how = (unsigned)(rnd() % 3);
		unsigned n = 1 + (unsigned)(rnd() % (w ? 63 : 31));

		if (how == 0)
			seq_put(q, 4, seq_rex(w, 0, d), 0xc1, seq_modrm(3, k, d), n);
		else
			seq_put(q, 3, seq_rex(w, 0, d), how == 1 ? 0xd1 : 0xd3, seq_modrm(3, k, d));
		if (how == 2) /* a count of 0 keeps them all; else as below */
			q->defined &= ~(F_OF | F_AF);
		else if (k < 2) /* rotates: CF, OF (by 1 only) */
			q->defined = (q->defined | F_CF | F_OF) & ~(how == 1 ? 0 : F_OF);
		else
			q->defined = ALL_FLAGS & ~F_AF & ~(how == 1 ? 0 : F_OF);
		break;
	}
	case 6: /* byte shifts by 1..7 */
		seq_put(q, 4, seq_rex(false, 0, d), 0xc0, seq_modrm(3, rnd() % 2 ? 5 : 4, d),
			1 + (unsigned)(rnd() % 7));
		q->defined = ALL_FLAGS & ~F_AF & ~F_OF;
		break;
	case 7: /* INC, DEC: CF kept */
		seq_put(q, 3, seq_rex(w, 0, d), 0xff, seq_modrm(3, (unsigned)(rnd() % 2), d));
		q->defined |= ALL_FLAGS & ~F_CF;
		break;
	case 8: case 9: /* MOV, and 32-bit MOV: pair and triple units */
		seq_put(q, 3, seq_rex(w, r, d), 0x89, seq_modrm(3, r, d));
		break;
	case 10: /* LEA */
		if ((r & 7) == 4)
			r = 0;
		seq_put(q, 4, seq_rex(w, d, r), 0x8d, seq_modrm(1, d, r), (unsigned)rnd() & 0xff);
		break;
	case 11: /* NOT, MOVZX of a byte, MOVSXD */
		if (rnd() % 2)
			seq_put(q, 3, seq_rex(w, 0, d), 0xf7, seq_modrm(3, 2, d));
		else if (rnd() % 2)
			seq_put(q, 4, seq_rex(false, d, r), 0x0f, 0xb6, seq_modrm(3, d, r));
		else if (!seq_m32) /* MOVSXD (ARPL in 32-bit mode) */
			seq_put(q, 3, seq_rex(true, d, r), 0x63, seq_modrm(3, d, r));
		break;
	case 12: case 13: { /* loads and stores of the buffer (RSI, RDI + disp) */
		unsigned base = rnd() % 2 ? 6 : 7;

		seq_put(q, 4, seq_rex(w, d, base), rnd() % 2 ? 0x8b : 0x89, seq_modrm(1, d, base),
			(unsigned)(rnd() % 32) * 4);
		break;
	}
	case 14: /* SETcc of a byte register */
		if ((c = seq_cc(q)) < 0)
			break;
		seq_put(q, 4, seq_rex(false, 0, d), 0x0f, 0x90 + (unsigned)c, seq_modrm(3, 0, d));
		break;
	case 15: /* CMOVcc */
		if ((c = seq_cc(q)) < 0)
			break;
		seq_put(q, 4, seq_rex(w, d, r), 0x0f, 0x40 + (unsigned)c, seq_modrm(3, d, r));
		break;
	case 16: case 17: { /* CMP/TEST (registers, an immediate, the buffer) + Jcc over a LEA */
		bool test = false;

		op = (unsigned)(rnd() % 3);
		if (op == 0) {
			test = rnd() % 2;
			seq_put(q, 3, seq_rex(w, r, d), test ? 0x85 : 0x39, seq_modrm(3, r, d));
		} else if (op == 1) {
			seq_put(q, 4, seq_rex(w, 0, d), 0x83, seq_modrm(3, 7, d), (unsigned)rnd() & 0xff);
		} else {
			seq_put(q, 4, seq_rex(w, d, 6), 0x3b, seq_modrm(1, d, 6), (unsigned)(rnd() % 16) * 8);
		}
		q->defined = test ? ALL_FLAGS & ~F_AF : ALL_FLAGS;
		if ((c = seq_cc(q)) < 0)
			break;
		seq_jcc_over(q, 0x70 + (unsigned)c);
		break;
	}
	case 18: /* NEG of a 16-bit register, SBB of a byte register from itself */
		seq_put(q, 4, 0x66, seq_rex(false, 0, d), 0xf7, seq_modrm(3, 3, d));
		seq_put(q, 3, seq_rex(false, r, r), 0x18, seq_modrm(3, r, r));
		q->defined = ALL_FLAGS;
		break;
	case 19: { /* the three-way compare: cmp; setg A; setl B; movzbl B; movzbl A; sub B,A */
		unsigned a = seq_reg(), b = seq_reg();

		if (a == b)
			break;
		if (rnd() % 2)
			seq_put(q, 3, seq_rex(w, r, d), 0x39, seq_modrm(3, r, d));
		else
			seq_put(q, 3, seq_rex(w, d, 7), 0x39, seq_modrm(0, d, 7));
		seq_put(q, 4, seq_rex(false, 0, a), 0x0f, 0x9f, seq_modrm(3, 0, a));
		seq_put(q, 4, seq_rex(false, 0, b), 0x0f, 0x9c, seq_modrm(3, 0, b));
		seq_put(q, 4, seq_rex(false, b, b), 0x0f, 0xb6, seq_modrm(3, b, b));
		seq_put(q, 4, seq_rex(false, a, a), 0x0f, 0xb6, seq_modrm(3, a, a));
		seq_put(q, 3, seq_rex(false, b, a), 0x29, seq_modrm(3, b, a));
		q->defined = ALL_FLAGS;
		break;
	}
	case 20: /* SUB of a buffer quadword (dword) + JE/JNE (Py_DECREF) */
		seq_put(q, 5, seq_m32 ? SEQ_NOREX : 0x48, 0x83, seq_modrm(1, 5, 7),
			(unsigned)(rnd() % 16) * 8, 1);
		seq_jcc_over(q, rnd() % 2 ? 0x74 : 0x75);
		q->defined = ALL_FLAGS;
		break;
	case 21: /* INC/DEC + Jcc (fused), CF kept */
		seq_put(q, 3, seq_rex(w, 0, d), 0xff, seq_modrm(3, (unsigned)(rnd() % 2), d));
		q->defined |= ALL_FLAGS & ~F_CF;
		if ((c = seq_cc(q)) >= 0)
			seq_jcc_over(q, 0x70 + (unsigned)c);
		break;
	case 22: /* MOV of an immediate into CL (shift counts 0, 32, 64 and others) */
		seq_put(q, 2, 0xb1, rnd() % 2 ? (unsigned)(rnd() % 3) * 32 : (unsigned)rnd() & 0xff);
		break;
	case 23: /* ADC/SBB of registers (CF readers) */
		seq_put(q, 3, seq_rex(w, r, d), rnd() % 2 ? 0x11 : 0x19, seq_modrm(3, r, d));
		q->defined = ALL_FLAGS;
		break;
	case 24: /* ALU into a buffer word (memory op= reg, memory op= imm8) */
		op = (unsigned)(rnd() % 8);
		if (rnd() % 2)
			seq_put(q, 4, seq_rex(w, r, 7), op << 3 | 1, seq_modrm(1, r, 7), (unsigned)(rnd() % 16) * 8);
		else
			seq_put(q, 5, seq_rex(w, 0, 7), 0x83, seq_modrm(1, op, 7), (unsigned)(rnd() % 16) * 8,
				(unsigned)rnd() & 0xff);
		q->defined = op == 1 || op == 4 || op == 6 ? ALL_FLAGS & ~F_AF : ALL_FLAGS;
		break;
	case 25: /* INC/DEC of a buffer word: CF kept */
		seq_put(q, 4, seq_rex(w, 0, 6), 0xff, seq_modrm(1, (unsigned)(rnd() % 2), 6),
			(unsigned)(rnd() % 16) * 8);
		q->defined |= ALL_FLAGS & ~F_CF;
		break;
	case 26: { /* JMP over a flag writer: the instruction after it finds the flags from before */
		unsigned k = rnd() % 2 ? 0x31 : 0x01; /* xor, add */

		if (seq_m32)
			seq_put(q, 4, 0xeb, 2, k, seq_modrm(3, r, d));
		else
			seq_put(q, 5, 0xeb, 3, seq_rex(w, r, d), k, seq_modrm(3, r, d));
		break;
	}
	case 27: case 28: { /* 64-bit: a run of PUSHes, then one of POPs (POP runs) */
		unsigned k = 2 + (unsigned)(rnd() % 5);

		if (seq_m32)
			break;
		q->nostop = true;
		for (unsigned j = 0; j < k; j++) {
			r = seq_reg();
			seq_put(q, 2, r >= 8 ? 0x41 : SEQ_NOREX, 0x50 + (r & 7));
		}
		for (unsigned j = 0; j < k; j++) {
			r = seq_reg();
			seq_put(q, 2, r >= 8 ? 0x41 : SEQ_NOREX, 0x58 + (r & 7));
		}
		break;
	}
	default: { /* 64-bit: CALL of PUSHes, POPs and RET (the POP run + RET form) */
		unsigned k = 1 + (unsigned)(rnd() % 5), at;

		if (seq_m32)
			break;
		q->nostop = true;
		seq_put(q, 7, 0xe8, 2, 0, 0, 0, 0xeb, 0); /* call over the jmp; jmp over the body */
		at = q->n;
		for (unsigned j = 0; j < k; j++) {
			r = seq_reg();
			seq_put(q, 2, r >= 8 ? 0x41 : SEQ_NOREX, 0x50 + (r & 7));
		}
		if (rnd() % 2) /* a flag writer in the body */
			seq_put(q, 3, seq_rex(w, r, d), 0x01, seq_modrm(3, r, d)),
				q->defined = ALL_FLAGS;
		for (unsigned j = 0; j < k; j++) {
			r = seq_reg();
			seq_put(q, 2, r >= 8 ? 0x41 : SEQ_NOREX, 0x58 + (r & 7));
		}
		seq_put(q, 1, 0xc3);
		q->b[at - 1] = (uint8_t)(q->n - at);
		break;
	}
	}
}

/* One more of seq_one's groups, with the flags defined before each of its
 * instructions: the first writes or reads them, the rest (a Jcc and the
 * LEA it skips; the three-way compare's SETcc, MOVZX and SUB; NEG's SBB)
 * find them as it left them. */
static void seq_step(struct seq *q)
{
	unsigned start = q->n, before = q->defined;

	q->nostop = false;
	seq_one(q);
	for (unsigned o = start; o < q->n; o++)
		q->defined_at[o] = (uint16_t)(o == start ? before : q->defined | (q->nostop ? SEQ_NOSTOP : 0));
}

/* Asynchronous stops inside such sequences (the run loop's run-on over a
 * stale stretch to its flag writer, pairs and triples stepped over whole):
 * the sequence in a loop of SEQ_LOOPS iterations counted in R14, a
 * timer (CLOCK_MONOTONIC, SIGPROF) requesting stops every 20 us. At each stop the state (registers, the flags defined there, the
 * buffer) must be the native state after as many whole iterations and the
 * instructions before the stop's rip: the same bytes run natively as the
 * loop of R14's iterations, then the sequence's prefix up to that rip.
 * The run goes on from each stop to the end. */
#define SEQ_STOP_RUNS 100
#define SEQ_STOPS_MAX 300 /* checked per sequence (the ASan build stops far more often) */
#define SEQ_LOOPS 2000

static struct cpu *volatile seq_stop_cpu;
static unsigned long seq_total_stops;

static void seq_on_prof(int sig)
{
	struct cpu *c = seq_stop_cpu;

	(void)sig;
	if (c)
		cpu_request_stop(c);
}

/* The loop around a sequence: "L: seq; lea 1(%r14),%r14; pushfq; dec
 * %r13d; jz E; popfq; jmp L; E: popfq": the sequence finds the flags its
 * last iteration left (the count's DEC is undone), so the loop's own
 * flags never depend on where the count stands. */
static unsigned seq_put_loop(uint8_t *at, const struct seq *q)
{
	int32_t rel = -(int32_t)(q->n + 16);
	unsigned n = 0;

	memcpy(at + n, q->b, q->n), n += q->n;
	memcpy(at + n, "\x4d\x8d\x76\x01\x9c\x41\xff\xcd\x74\x06\x9d\xe9", 12), n += 12;
	memcpy(at + n, &rel, 4), n += 4;
	at[n++] = 0x9d;
	return n;
}

/* The native state at the stop: "mov $k,%r13d" and the loop (k > 0),
 * R13 as the interpreted loop has it after k iterations, the sequence up
 * to off, then RET. */
static void seq_native_at(const struct seq *q, unsigned off, uint64_t k, struct state *st)
{
	uint32_t left = (uint32_t)(SEQ_LOOPS - k);
	unsigned n = 0;

	if (k) {
		code_page[n++] = 0x41, code_page[n++] = 0xbd; /* mov $k,%r13d */
		memcpy(code_page + n, &k, 4), n += 4;
		n += seq_put_loop(code_page + n, q);
	}
	code_page[n++] = 0x41, code_page[n++] = 0xbd;
	memcpy(code_page + n, &left, 4), n += 4;
	memcpy(code_page + n, q->b, off), n += off;
	code_page[n] = 0xc3;
	run_native(st, code_page);
}

/* The sequence's bytes before a SEQSTOP failure (the message has no room). */
static void seq_print_on_failure(const struct seq *q, const struct cpu *cpu, const struct state *native,
				 unsigned flags)
{
	bool differs = (cpu_get_rflags((struct cpu *)cpu) & flags) != (native->rflags & flags);

	for (int r = 0; r < 16; r++)
		differs |= r != 4 && cpu->r[r] != native->r[r];
	if (!differs)
		return;
	fprintf(stderr, "SEQSTOP sequence:");
	for (unsigned k = 0; k < q->n; k++)
		fprintf(stderr, " %02x", q->b[k]);
	fprintf(stderr, "\n");
}

static void seq_stop_one(const struct seq *q, const uint16_t *defined_at, uint64_t seed)
{
	static uint8_t at_stop[BUF_SIZE];
	struct state start, native;
	struct cpu *cpu = calloc(1, sizeof(*cpu));
	uint8_t *loop = code_page + 2048; /* the interpreted copy, apart from the native one */
	unsigned n = 0, stops = 0;
	uint64_t iters = SEQ_LOOPS;
	char name[64];

	rng_state = seed;
	init_state(&start, false);
	loop[n++] = 0x41, loop[n++] = 0xbd;
	memcpy(loop + n, &iters, 4), n += 4;
	n += seq_put_loop(loop + n, q);
	loop[n] = 0xcc;
	cpu_invalidate_code((uint64_t)(uintptr_t)code_page, 4096);
	fill_buf(seed);
	cpu_init(cpu, CPU_MODE_64);
	cpu->base[SEG_FS] = host_fs_base;
	memcpy(cpu->r, start.r, sizeof(start.r));
	cpu->r[4] = (uint64_t)(uintptr_t)(guest_stack + 65536 - 64);
	cpu_set_rflags(cpu, start.rflags);
	cpu->rip = (uint64_t)(uintptr_t)loop;
	for (;;) {
		enum cpu_stop_reason why;

		/* requests come only while it runs: one made during the checks
		 * would stop the next run before its first instruction, and
		 * those checks take longer than the timer's period */
		cpu->stop_requested = 0;
		seq_stop_cpu = stops < SEQ_STOPS_MAX ? cpu : NULL; /* then runs on to the end */
		why = cpu_run(cpu);
		seq_stop_cpu = NULL;
		uint64_t off = cpu->rip - (uintptr_t)loop - 6, k = cpu->r[14] - start.r[14];

		if (why != CPU_STOP_REQUEST)
			break;
		if (cpu->rip < (uintptr_t)loop + 6 || off >= q->n || (defined_at[off] & SEQ_NOSTOP))
			continue; /* in the loop's own instructions, or holding the stack */
		stops++;
		memcpy(at_stop, buf, BUF_SIZE);
		native = start;
		fill_buf(seed);
		seq_native_at(q, (unsigned)off, k, &native);
		snprintf(name, sizeof(name), "stop at +%llu of iteration %llu",
			 (unsigned long long)off, (unsigned long long)k);
		seq_print_on_failure(q, cpu, &native, defined_at[off]);
		for (int r = 0; r < 16; r++)
			if (r != 4 && cpu->r[r] != native.r[r])
				fail_msg("SEQSTOP (seed %llx) %s: r%d = %llx, native %llx", (unsigned long long)seed,
					 name, r, (unsigned long long)cpu->r[r], (unsigned long long)native.r[r]);
		if ((cpu_get_rflags(cpu) & defined_at[off]) != (native.rflags & defined_at[off]))
			fail_msg("SEQSTOP (seed %llx) %s: flags %llx, native %llx (mask %x)",
				 (unsigned long long)seed, name, (unsigned long long)cpu_get_rflags(cpu),
				 (unsigned long long)native.rflags, defined_at[off]);
		if (memcmp(buf, at_stop, BUF_SIZE) != 0)
			fail_msg("SEQSTOP (seed %llx) %s: memory differs", (unsigned long long)seed, name);
		memcpy(buf, at_stop, BUF_SIZE);
	}
	seq_stop_cpu = NULL;
	if (cpu->fault.vector != VEC_BP || cpu->fault.insn_addr != (uintptr_t)loop + n)
		fail_msg("SEQSTOP (seed %llx): stopped with vector %d at +%llx", (unsigned long long)seed,
			 cpu->fault.vector, (unsigned long long)(cpu->fault.insn_addr - (uintptr_t)loop));
	/* the end, against the whole loop run natively */
	memcpy(at_stop, buf, BUF_SIZE);
	native = start;
	fill_buf(seed);
	seq_native_at(q, 0, SEQ_LOOPS, &native);
	for (int r = 0; r < 16; r++)
		if (r != 4 && cpu->r[r] != native.r[r])
			fail_msg("SEQSTOP (seed %llx) end: r%d = %llx, native %llx", (unsigned long long)seed, r,
				 (unsigned long long)cpu->r[r], (unsigned long long)native.r[r]);
	if ((cpu_get_rflags(cpu) & ALL_FLAGS) != (native.rflags & ALL_FLAGS) ||
	    memcmp(buf, at_stop, BUF_SIZE) != 0)
		fail_msg("SEQSTOP (seed %llx) end: flags %llx, native %llx, or memory differs",
			 (unsigned long long)seed, (unsigned long long)cpu_get_rflags(cpu),
			 (unsigned long long)native.rflags);
	seq_total_stops += stops;
	cpu_release(cpu);
	free(cpu);
}

static void seq_stops(uint64_t base)
{
	struct sigaction sa, old;
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGPROF };
	struct itimerspec it = { { 0, 20000 }, { 0, 20000 } };
	timer_t timer;
	const char *runs_env = getenv("SEQ_STOP_RUNS");
	unsigned runs = runs_env ? (unsigned)strtoul(runs_env, NULL, 0) : SEQ_STOP_RUNS;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = seq_on_prof;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGPROF, &sa, &old);
	/* a high-resolution clock: CPU-time timers fire at ticks (ms) */
	if (timer_create(CLOCK_MONOTONIC, &ev, &timer) != 0 || timer_settime(timer, 0, &it, NULL) != 0)
		fail_msg("timer_create: %s", strerror(errno));
	seq_loop = true;
	seq_total_stops = 0;
	for (unsigned run = 0; run < runs; run++) {
		struct seq q = { .n = 0, .defined = ALL_FLAGS };
		unsigned count;

		rng_state = (0x570b0000ull + base + run) * 0x9e3779b97f4a7c15ull | 1;
		count = 4 + (unsigned)(rnd() % 17);
		for (unsigned k = 0; k < count && q.n < SEQ_MAX; k++)
			seq_step(&q);
		/* "cmp %rbx,%rax" last: every iteration starts with all six
		 * defined, as the tracking from offset 0 assumes */
		q.defined_at[q.n] = (uint16_t)q.defined;
		seq_put(&q, 3, 0x48, 0x39, 0xd8);
		q.defined = ALL_FLAGS;
		seq_stop_one(&q, q.defined_at, rng_state ^ 0x7654321ull);
	}
	seq_loop = false;
	timer_delete(timer);
	sigaction(SIGPROF, &old, NULL);
	print_message("%u looped sequences, %lu stops inside them checked\n", runs, seq_total_stops);
}

/* Faults inside such sequences (a pair's or triple's second or third
 * member, a flag-free stretch whose flags are rebuilt at the fault, a
 * fused compare of memory): an access to the guard page after buf put
 * between two of seq_step's groups. The state at the fault must be the
 * native state after the bytes before it; each sequence faults three
 * times: cold, warm, and once more after a run with the guard page
 * readable has decoded all of it (forms that change when later code is
 * decoded, such as pairs and twins, then final). */
#define SEQ_FAULT_RUNS 2000

static void seq_put_fault(struct seq *q)
{
	unsigned r = seq_reg(), w = !seq_m32 && rnd() % 2;
	/* RDI is buf + 256: the guard page at buf + 4096, and up to 63 past */
	uint32_t disp = 4096 - 256 + (uint32_t)(rnd() % 64);
	unsigned kind = (unsigned)(rnd() % 9);
	static const uint8_t ops[] = { 0x8b, 0x89, 0x03, 0x33, 0x2b, 0x3b, 0x01, 0x85, 0x0f };

	if (kind == 8) /* MOVZX of a word */
		seq_put(q, 3, seq_rex(false, r, 7), 0x0f, 0xb7);
	else
		seq_put(q, 2, seq_rex(w, r, 7), ops[kind]);
	seq_put(q, 5, seq_modrm(2, r, 7), disp & 0xff, disp >> 8 & 0xff, disp >> 16 & 0xff, disp >> 24);
	if (kind == 5) /* CMP + Jcc, fused */
		seq_jcc_over(q, 0x70 + (unsigned)(rnd() % 16));
}

static void seq_faults(uint64_t base)
{
	const char *runs_env = getenv("SEQ_FAULT_RUNS");
	unsigned runs = runs_env ? (unsigned)strtoul(runs_env, NULL, 0) : SEQ_FAULT_RUNS;
	uint8_t *guard = buf + 4096;

	cpu_install_fault_handler(); /* cmocka installs its own per test */
	for (unsigned run = 0; run < 2 * runs; run++) {
		struct seq q = { .n = 0, .defined = ALL_FLAGS };
		struct state start, native;
		unsigned count, at, off = 0, defined = ALL_FLAGS;
		bool placed = false;
		uint64_t seed, mask32;
		struct cpu *cpu;

		seq_m32 = run >= runs;
		mask32 = seq_m32 ? 0xffffffffull : ~0ull;
		rng_state = (0xfa170000ull + base + run) * 0x9e3779b97f4a7c15ull | 1;
		count = 4 + (unsigned)(rnd() % 17);
		at = (unsigned)(rnd() % (count + 1));
		for (unsigned k = 0; k <= count && q.n < SEQ_MAX; k++) {
			if (k == at) {
				off = q.n, defined = q.defined, placed = true;
				seq_put_fault(&q);
			}
			if (k < count)
				seq_step(&q);
		}
		if (!placed)
			continue;
		seed = rng_state ^ 0x89abcdefull;
		rng_state = seed;
		init_state(&start, seq_m32);
		native = start;
		memcpy(code_page, q.b, off);
		code_page[off] = 0xc3;
		fill_buf(seed);
		run_native(&native, code_page);
		memcpy(expect_buf, buf, BUF_SIZE);
		memcpy(code_page, q.b, q.n);
		code_page[q.n] = 0xcc;
		cpu_invalidate_code((uint64_t)(uintptr_t)code_page, 4096);
		cpu = calloc(1, sizeof(*cpu));
		for (int pass = 0; pass < 4; pass++) {
			enum cpu_stop_reason why;

			fill_buf(seed);
			cpu_init(cpu, seq_m32 ? CPU_MODE_32 : CPU_MODE_64);
			if (!seq_m32)
				cpu->base[SEG_FS] = host_fs_base;
			memcpy(cpu->r, start.r, sizeof(start.r));
			cpu->r[4] = (uint64_t)(uintptr_t)(guest_stack + 65536 - 64);
			cpu_set_rflags(cpu, start.rflags);
			cpu->rip = (uint64_t)(uintptr_t)code_page;
			if (pass == 2) { /* the whole sequence decoded and run */
				mprotect(guard, 4096, PROT_READ | PROT_WRITE);
				why = cpu_run(cpu);
				mprotect(guard, 4096, PROT_NONE);
				if (why != CPU_STOP_FAULT || cpu->fault.vector != VEC_BP)
					fail_msg("SEQFAULT %u: the readable run stopped with %d", run, cpu->fault.vector);
				continue;
			}
			why = cpu_run(cpu);
			if (why != CPU_STOP_FAULT || cpu->fault.vector != VEC_PF ||
			    cpu->fault.insn_addr != (uintptr_t)code_page + off) {
				seq_print_on_failure(&q, cpu, &native, ~0u);
				fail_msg("SEQFAULT%s %u pass %d: stop %d vector %d at +%llx, not #PF at +%u",
					 seq_m32 ? "32" : "", run, pass, why, cpu->fault.vector,
					 (unsigned long long)(cpu->fault.insn_addr - (uintptr_t)code_page), off);
			}
			for (int r = 0; r < 16; r++)
				if (r != 4 && (cpu->r[r] & mask32) != (native.r[r] & mask32)) {
					seq_print_on_failure(&q, cpu, &native, ~0u);
					fail_msg("SEQFAULT%s %u pass %d (fault at +%u): r%d = %llx, native %llx",
						 seq_m32 ? "32" : "", run, pass, off, r, (unsigned long long)cpu->r[r],
						 (unsigned long long)native.r[r]);
				}
			if ((cpu_get_rflags(cpu) & defined) != (native.rflags & defined)) {
				seq_print_on_failure(&q, cpu, &native, defined);
				fail_msg("SEQFAULT%s %u pass %d (fault at +%u): flags %llx, native %llx (mask %x)",
					 seq_m32 ? "32" : "", run, pass, off, (unsigned long long)cpu_get_rflags(cpu),
					 (unsigned long long)native.rflags, defined);
			}
			if (memcmp(buf, expect_buf, BUF_SIZE) != 0)
				fail_msg("SEQFAULT%s %u pass %d: memory differs", seq_m32 ? "32" : "", run, pass);
		}
		cpu_release(cpu);
		free(cpu);
	}
	seq_m32 = false;
	print_message("%u sequences faulted inside, cold, warm and fully decoded\n", 2 * runs);
}

/* SEQ_RUNS=N, SEQ_SEED=S (environment): longer runs, other sequences;
 * SEQ_STOP_RUNS=N: looped sequences stopped; SEQ_FAULT_RUNS=N: sequences
 * faulted */
static void test_fused_sequences(void **state)
{
	char name[SEQ_MAX * 3 + 64];
	const char *runs_env = getenv("SEQ_RUNS"), *seed_env = getenv("SEQ_SEED");
	unsigned runs = runs_env ? (unsigned)strtoul(runs_env, NULL, 0) : SEQ_RUNS;
	uint64_t base = seed_env ? strtoull(seed_env, NULL, 0) << 32 : 0;

	for (unsigned run = 0; run < 2 * runs; run++) {
		struct seq q = { .n = 0, .defined = ALL_FLAGS };
		unsigned count;
		size_t used;

		seq_m32 = run >= runs; /* then the same count in 32-bit mode */
		rng_state = (0x5eed0000ull + base + run) * 0x9e3779b97f4a7c15ull | 1;
		count = 4 + (unsigned)(rnd() % 17);
		for (unsigned k = 0; k < count && q.n < SEQ_MAX; k++)
			seq_step(&q);
		used = (size_t)snprintf(name, sizeof(name), "SEQ%s %u (flags %03x):", seq_m32 ? "32" : "",
					run, q.defined);
		for (unsigned k = 0; k < q.n && used + 4 < sizeof(name); k++)
			used += (size_t)snprintf(name + used, sizeof(name) - used, " %02x", q.b[k]);
		struct snippet sn = { name, (const char *)q.b, q.n, q.defined };

		run_case(&sn, seq_m32, rng_state ^ 0x1234567ull);
	}
	seq_m32 = false;
	seq_stops(base);
	seq_faults(base);
}

static int setup(void **state)
{
	code_page = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	/* and a guard page after it (seq_faults) */
	buf = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT,
		   -1, 0);
	if (buf != MAP_FAILED && mprotect(buf + 4096, 4096, PROT_NONE) != 0)
		return 1;
	guest_stack = malloc(65536);
	cpu_install_fault_handler();
	if (syscall(SYS_arch_prctl, ARCH_GET_FS, &host_fs_base) != 0)
		return 1;
	return code_page == MAP_FAILED || buf == MAP_FAILED || !guest_stack;
}

static int teardown(void **state)
{
	munmap(code_page, 4096);
	munmap(buf, 8192);
	free(guest_stack);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_diff64),
		cmocka_unit_test(test_diff32),
		cmocka_unit_test(test_fused_jcc),
		cmocka_unit_test(test_fused_jcc32),
		cmocka_unit_test(test_fused_setcc),
		cmocka_unit_test(test_fused_3way_tail),
		cmocka_unit_test(test_fused_3way_ret),
		cmocka_unit_test(test_fused_sequences),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
