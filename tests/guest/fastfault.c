/* Faults inside the fast paths that run several instructions per
 * dispatch (docs/cpu.md: pairs and triples, fused compares, the callback's
 * three-way compare with its load and RET, Py_DECREF's SUB+Jcc, PUSH of
 * memory, i386's ESP+disp forms): each snippet starts from a known register
 * state and faults in its second or later instruction (a guard page, a
 * read-only page, a stack pointer into either), or rewrites the second
 * instruction of a pair; the register ALU operations before a load or
 * store whose flags lflive.c leaves unrecorded and rebuilds at a fault
 * there (or a stop after a store into decoded code). The SIGSEGV handler prints what its context
 * holds: the faulting instruction's offset in the snippet, si_addr, every
 * general register and the arithmetic flags. They must be the state the
 * instructions before the faulting one leave, as natively: the output is
 * compared with the native run (x32 with the x86_64 build). Each snippet
 * runs three times from three states (shift counts 0, 5, 32; three flag
 * sets): the first with a valid pointer, so the whole snippet is decoded
 * and its pairs and fusions made (sysgate decodes an instruction when it
 * first runs), the two later ones faulting in those forms. Snippets end
 * in CMC (a flag reader: pairs.c pairs a run when such a barrier is
 * decoded; a run ending in a JMP alone is not paired). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdbool.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

/* fixed addresses, the same in every run and ABI: data, a guard page,
 * a page read-only, a data page right above the guard (a stack pointer
 * there pushes into the guard) */
#define DATA 0x10000000u
#define GUARD 0x10010000u
#define DATA2 0x10011000u
#define RO 0x10020000u
#define STR_(x) #x
#define STR(x) STR_(x)

#define ARITH_DF 0xcd5u /* CF PF AF ZF SF DF OF */
#define NREGS 16

/* the snippets' registers in and out (the stack pointer's slot, 4, is
 * not loaded) and the flags at [16] */
uint64_t g_in[NREGS + 1], g_out[NREGS + 1], g_saved_sp, g_body;
void enter_regs(void);
extern char exit_regs[];

/* name, the register given the bad pointer (-1: none), the pointer in
 * the first run (valid: the whole snippet runs and is decoded, pairs and
 * fusions made) and in the two later ones (a fault), and the flags the
 * SDM leaves undefined after the snippet's last flag writer (a rotate by
 * 3: OF; shifts by 3 or CL: AF, and OF unless the count is 1) */
#define GOOD_SP (DATA2 + 0x800)
#define SNIPPETS(X)                                                                  \
	X(pair_load_second, 3, DATA + 0x100, GUARD + 0x100, 0)                         \
	X(pair_add_mem_second, 3, DATA + 0x100, GUARD + 0x100, 0)                      \
	X(pair_store_second, 3, DATA + 0x100, RO + 0x100, 0)                           \
	X(pair_load_head, 3, DATA + 0x100, GUARD + 0x100, 0)                           \
	X(pair_ix_load_second, 3, DATA + 0x100, GUARD + 0x100, 0)                      \
	X(pair_smc_second, -1, 0, 0, 0)                                                \
	X(triple_then_load, 3, DATA + 0x100, GUARD + 0x100, 0x800)                     \
	X(shift_cl_then_load, 3, DATA + 0x100, GUARD + 0x100, 0x810)                   \
	X(neg_sbb_then_load, 3, DATA + 0x100, GUARD + 0x100, 0)                        \
	X(shift8_then_load, 3, DATA + 0x100, GUARD + 0x100, 0x810)                     \
	X(dec_jcc_then_load, 3, DATA + 0x100, GUARD + 0x100, 0)                        \
	X(threeway_cmp, 7, DATA + 0x80, GUARD + 0x40, 0)                               \
	X(threeway_load_cmp, 7, DATA + 0x80, GUARD + 0x40, 0)                          \
	X(threeway_ret, 4, GOOD_SP, GUARD + 0x80, 0)                                   \
	X(threeway_load_ret, 4, GOOD_SP, GUARD + 0x80, 0)                              \
	X(threeway_load_ret64, 4, GOOD_SP, GUARD + 0x80, 0)                            \
	X(threeway_ret_addr32, 4, GOOD_SP, GUARD + 0x80, 0)                            \
	X(threeway_ret_target, 4, GOOD_SP, GOOD_SP + 8, 0)                             \
	X(decref_store, 3, DATA + 0x10, RO + 0x10, 0)                                  \
	X(decref_taken, -1, 0, 0, 0)                                                   \
	X(cmp_jcc_mem, 3, DATA + 0x100, GUARD + 0x100, 0)                              \
	X(dec_mem_jcc, 3, DATA + 0x100, RO + 0x100, 0)                                 \
	X(setcc_store, 3, DATA + 0x100, RO + 0x100, 0)                                 \
	X(push_mem_read, 3, DATA + 0x100, GUARD + 0x100, 0)                            \
	X(push_mem_store, 4, GOOD_SP, DATA2, 0)                                        \
	X(sp_load_second, 4, GOOD_SP, GUARD + 0x100, 0)                                \
	X(sp_store_second, 4, GOOD_SP, RO + 0x100, 0)                                  \
	X(sp_cmp_jcc, 4, GOOD_SP, GUARD + 0x100, 0)                                    \
	X(push_sp_disp, 4, GOOD_SP, DATA2, 0)                                          \
	X(push_run_ro, 4, GOOD_SP, RO + 0x100, 0)                                      \
	X(push_run_cross, 4, GOOD_SP, DATA2 + 8, 0)                                    \
	X(push_run_mixed_read, 4, GOOD_SP, GOOD_SP + 0x100, 0)                         \
	X(sub_push_run_ro, 4, GOOD_SP, RO + 0x100, 0)                                  \
	X(sub_push_run_cross, 4, GOOD_SP, DATA2 + 8, 0)                                \
	X(load_call_read, 4, GOOD_SP, DATA2 + 8, 0)                                    \
	X(load_call_push, 4, GOOD_SP, DATA2, 0)                                        \
	X(load_call_poly, -1, 0, 0, 0)                                                 \
	X(add_test_jcc, -1, 0, 0, 0)                                                   \
	X(push_mov_run_ro, 4, GOOD_SP, RO + 0x100, 0)                                  \
	X(push_mov_run_cross, 4, GOOD_SP, DATA2 + 8, 0)                                \
	X(rebuild_add_load, 3, DATA + 0x100, GUARD + 0x100, 0)                         \
	X(rebuild_sub_store, 3, DATA + 0x100, RO + 0x100, 0)                           \
	X(rebuild_load_store, 3, DATA + 0x100, RO + 0x100, 0)                          \
	X(rebuild_cmp_imm, 3, DATA + 0x100, GUARD + 0x100, 0)                          \
	X(rebuild_test, 3, DATA + 0x100, GUARD + 0x100, 0)                             \
	X(rebuild_sub16, 3, DATA + 0x100, GUARD + 0x100, 0)                            \
	X(rebuild_wide, 3, DATA + 0x100, GUARD + 0x100, 0)                             \
	X(rebuild_triple_load, 3, DATA + 0x100, GUARD + 0x100, 0)                      \
	X(rebuild_sp_load, 4, GOOD_SP, GUARD + 0x100, 0)                               \
	X(rebuild_jump_in, 3, DATA + 0x100, GUARD + 0x100, 0)                          \
	X(rebuild_same_reg, 3, DATA + 0x100, GUARD + 0x100, 0)                         \
	X(rebuild_clobbered, 3, DATA + 0x100, GUARD + 0x100, 0)                        \
	X(rebuild_smc, -1, 0, 0, 0)                                                    \
	X(rebuild_xor_addmem, 3, DATA + 0x100, GUARD + 0x100, 0)                       \
	X(rebuild_addmem_addmem, 3, DATA + 0x100, GUARD + 0x100, 0)                    \
	X(rebuild_submem_load, 3, DATA + 0x100, GUARD + 0x100, 0)                      \
	X(rebuild_cmpmem_store, 3, DATA + 0x100, RO + 0x100, 0)                        \
	X(rebuild_addmem16_load, 3, DATA + 0x100, GUARD + 0x100, 0)                    \
	X(rebuild_addmem_clobbered, 3, DATA + 0x100, GUARD + 0x100, 0)                 \
	X(rebuild_add_inc_load, 3, DATA + 0x100, GUARD + 0x100, 0)                     \
	X(rebuild_add_inc_store, 3, DATA + 0x100, RO + 0x100, 0)                       \
	X(rebuild_dec_clobbered, 3, DATA + 0x100, GUARD + 0x100, 0)                    \
	X(rebuild_add_kept_store, 3, DATA + 0x100, RO + 0x100, 0)                      \
	X(rebuild_sub_kept_load, 3, DATA + 0x100, GUARD + 0x100, 0)                    \
	X(rebuild_add_inc_jump_in, 3, DATA + 0x100, RO + 0x100, 0)                     \
	X(rebuild_add_inc_same, 3, DATA + 0x100, RO + 0x100, 0)                        \
	X(pop_run_guard, 4, GOOD_SP, GUARD + 0x100, 0)                                 \
	X(pop_run_cross, 4, GOOD_SP, DATA2 + 0xff8, 0)                                 \
	X(pop_ret_cross, 4, GOOD_SP, DATA2 + 0xff0, 0)                                 \
	X(store_last_page, 3, DATA + 0x1ff0, DATA + 0x1ff4, 0)                         \
	X(store_from_guard, 3, DATA2 + 0x100, DATA2 - 0xc, 0)                          \
	X(push_cross, 4, GOOD_SP, DATA2 + 4, 0)                                        \
	X(call_cross, 4, GOOD_SP, DATA2 + 4, 0)                                        \
	X(sp_store_cross, 4, GOOD_SP, DATA2 - 0xc, 0)                                \
	X(triple_sp_first, 4, GOOD_SP, GUARD + 0x100, 0)                               \
	X(triple_sp_second, 4, GOOD_SP, RO + 0x100, 0)                                 \
	X(triple_sp_third, 4, GOOD_SP, RO + 0x100, 0)                                  \
	X(sha_round_addmem, 3, DATA + 0x100, GUARD + 0x100, 0)                         \
	X(sha_schedule_store, 3, DATA + 0x100, RO + 0x100, 0)                          \
	X(triple_smc_third, -1, 0, 0, 0)
#define DECLARE(name, ...) extern char snip_##name[], snip_##name##_end[];
SNIPPETS(DECLARE)

#ifdef __i386__
__asm__(".text\n"
	".globl enter_regs, exit_regs\n"
	"enter_regs:\n"
	"push %ebx; push %ebp; push %esi; push %edi\n"
	"mov %esp, g_saved_sp\n"
	"pushl g_in+128; popfl\n"
	"mov g_in+8, %ecx; mov g_in+16, %edx; mov g_in+24, %ebx\n"
	"mov g_in+40, %ebp; mov g_in+48, %esi; mov g_in+56, %edi\n"
	"mov g_in, %eax; mov g_in+32, %esp\n"
	"jmp *g_body\n"
	"exit_regs:\n"
	"mov %eax, g_out; mov %ecx, g_out+8; mov %edx, g_out+16; mov %ebx, g_out+24\n"
	"mov %esp, g_out+32; mov %ebp, g_out+40; mov %esi, g_out+48; mov %edi, g_out+56\n"
	"mov g_saved_sp, %esp\n"
	"pushfl; popl g_out+128\n"
	"pop %edi; pop %esi; pop %ebp; pop %ebx\n"
	"ret\n"
	/* units of pairs (pairs.c: MOV, XOR, ADD of registers, loads and
	 * stores through a flat base + disp or ESP + disp), the second one
	 * faulting */
	"snip_pair_load_second:\n"
	"mov %ecx, %eax; mov 4(%ebx), %edx; cmc; cmc; jmp exit_regs\n"
	"snip_pair_load_second_end:\n"
	"snip_pair_add_mem_second:\n"
	"add %ecx, %eax; add 4(%ebx), %edx; cmc; cmc; jmp exit_regs\n"
	"snip_pair_add_mem_second_end:\n"
	"snip_pair_store_second:\n"
	"xor %ecx, %eax; mov %eax, 4(%ebx); cmc; cmc; jmp exit_regs\n"
	"snip_pair_store_second_end:\n"
	"snip_pair_load_head:\n"
	"mov 4(%ebx), %eax; mov %ecx, %edx; cmc; cmc; jmp exit_regs\n"
	"snip_pair_load_head_end:\n"
	"snip_pair_ix_load_second:\n"
	"movzbl %cl, %edx; movzwl (%ebx,%edx,2), %eax; cmc; cmc; jmp exit_regs\n"
	"snip_pair_ix_load_second_end:\n"
	/* a triple (MOV, XOR, ADD) and a rotate, then a load faulting: the
	 * flags are the rotate's over the ADD's */
	"snip_triple_then_load:\n"
	"mov %esi, %ecx; xor %ecx, %edx; add %ecx, %eax; ror $3, %eax\n"
	"mov 4(%ebx), %esi; sub %eax, %eax; cmc; cmc; jmp exit_regs\n"
	"snip_triple_then_load_end:\n"
	/* a shift by CL (counts 0, 5, 32: 0 and 32 keep the ADD's flags) */
	"snip_shift_cl_then_load:\n"
	"add %esi, %eax; shl %cl, %edx; mov 4(%ebx), %esi; xor %eax, %eax; cmc; cmc; jmp exit_regs\n"
	"snip_shift_cl_then_load_end:\n"
	"snip_neg_sbb_then_load:\n"
	"neg %cx; sbb %dl, %dl; mov 4(%ebx), %esi; xor %eax, %eax; cmc; cmc; jmp exit_regs\n"
	"snip_neg_sbb_then_load_end:\n"
	"snip_shift8_then_load:\n"
	"shr $3, %dl; mov 4(%ebx), %esi; xor %eax, %eax; cmc; cmc; jmp exit_regs\n"
	"snip_shift8_then_load_end:\n"
	"snip_dec_jcc_then_load:\n"
	"dec %ecx; jne 1f; inc %eax; 1: mov 4(%ebx), %esi; xor %eax, %eax; cmc; cmc; jmp exit_regs\n"
	"snip_dec_jcc_then_load_end:\n"
	/* the comparison callback (fused.c, fused_3way_sub_ret: its load,
	 * CMP, SETG, SETL, both MOVZX, SUB, RET): the CMP's operand in the
	 * guard page, called; the RET's stack in it, entered by a jump */
	"snip_threeway_cmp: mov $" STR(DATA) "+0x40, %esi\n"
	"call 1f; cmc; cmc; jmp exit_regs\n"
	"1: cmp %eax, (%edi); setg %al; setl %dl; movzbl %dl, %edx; movzbl %al, %eax; sub %edx, %eax; ret\n"
	"snip_threeway_cmp_end:\n"
	"snip_threeway_load_cmp: mov $" STR(DATA) "+0x40, %esi\n"
	"call 1f; cmc; cmc; jmp exit_regs\n"
	"1: mov (%esi), %eax; cmp %eax, (%edi); setg %al; setl %dl; movzbl %dl, %edx; movzbl %al, %eax; sub %edx, %eax; ret\n"
	"snip_threeway_load_cmp_end:\n"
	"snip_threeway_ret: mov $" STR(DATA) "+0x40, %esi; mov $" STR(DATA) "+0x80, %edi\n"
	"cmp %eax, (%edi); setg %al; setl %dl; movzbl %dl, %edx; movzbl %al, %eax; sub %edx, %eax; ret\n"
	"snip_threeway_ret_end:\n"
	"snip_threeway_load_ret: mov $" STR(DATA) "+0x40, %esi; mov $" STR(DATA) "+0x80, %edi\n"
	"mov (%esi), %eax; cmp %eax, (%edi); setg %al; setl %dl; movzbl %dl, %edx; movzbl %al, %eax; sub %edx, %eax; ret\n"
	"snip_threeway_load_ret_end:\n"
	"snip_threeway_load_ret64: mov $" STR(DATA) "+0x44, %esi; mov $" STR(DATA) "+0x84, %edi\n"
	"mov (%esi), %ecx; cmp %ecx, (%edi); setg %cl; setl %bl; movzbl %bl, %ebx; movzbl %cl, %ecx; sub %ebx, %ecx; ret\n"
	"snip_threeway_load_ret64_end:\n"
	"snip_threeway_ret_addr32: mov $" STR(DATA) "+0x48, %esi; mov $" STR(DATA) "+0x88, %edi\n"
	"mov (%esi), %eax; cmp %eax, (%edi); setg %al; setl %dl; movzbl %al, %eax; movzbl %dl, %edx; sub %edx, %eax; ret\n"
	"snip_threeway_ret_addr32_end:\n"
	"snip_threeway_ret_target: mov $" STR(DATA) "+0x40, %esi; mov $" STR(DATA) "+0x80, %edi\n"
	"mov (%esi), %eax; cmp %eax, (%edi); setg %al; setl %dl; movzbl %dl, %edx; movzbl %al, %eax; sub %edx, %eax; ret\n"
	"snip_threeway_ret_target_end:\n"
	/* i386 has no 64-bit SUB of memory: DEC of memory fused (below) */
	"snip_decref_store:\n"
	"subl $1, 8(%ebx); je 1f; inc %ecx; 1: jmp exit_regs\n"
	"snip_decref_store_end:\n"
	"snip_decref_taken: mov $" STR(DATA) "+0x10, %ebx; movl $1, 8(%ebx)\n"
	"subl $1, 8(%ebx); je 1f; inc %ecx; 1: mov $" STR(GUARD) ", %ebx; mov (%ebx), %ebx; cmc; cmc; jmp exit_regs\n"
	"snip_decref_taken_end:\n"
	"snip_cmp_jcc_mem:\n"
	"cmp 8(%ebx), %ecx; jne 1f; inc %ecx; 1: jmp exit_regs\n"
	"snip_cmp_jcc_mem_end:\n"
	"snip_dec_mem_jcc:\n"
	"decl 8(%ebx); jne 1f; inc %ecx; 1: jmp exit_regs\n"
	"snip_dec_mem_jcc_end:\n"
	/* SETcc of memory (cond.c, fast_setcc_m*): its store to a read-only
	 * page of the guest's, which the store check lets through to the
	 * host's fault */
	"snip_setcc_store:\n"
	"cmp %ecx, %eax; setne 8(%ebx); inc %ecx; cmc; cmc; jmp exit_regs\n"
	"snip_setcc_store_end:\n"
	"snip_push_mem_read:\n"
	"mov %ecx, %eax; push 8(%ebx); pop %eax; cmc; cmc; jmp exit_regs\n"
	"snip_push_mem_read_end:\n"
	"snip_push_mem_store: mov $" STR(DATA) "+0x100, %esi\n"
	"mov %ecx, %eax; push 8(%esi); pop %eax; cmc; cmc; jmp exit_regs\n"
	"snip_push_mem_store_end:\n"
	/* ESP + disp (insn_ea_sp32: i386's spill slots), the stack in the
	 * guard page or the read-only one */
	"snip_sp_load_second:\n"
	"mov %ecx, %eax; mov 4(%esp), %edx; cmc; cmc; jmp exit_regs\n"
	"snip_sp_load_second_end:\n"
	"snip_sp_store_second:\n"
	"xor %ecx, %eax; mov %eax, 4(%esp); cmc; cmc; jmp exit_regs\n"
	"snip_sp_store_second_end:\n"
	"snip_sp_cmp_jcc:\n"
	"cmpl $5, 8(%esp); jne 1f; inc %ecx; 1: jmp exit_regs\n"
	"snip_sp_cmp_jcc_end:\n"
	"snip_push_sp_disp:\n"
	"mov %ecx, %eax; push 0x14(%esp); pop %eax; cmc; cmc; jmp exit_regs\n"
	"snip_push_sp_disp_end:\n"
	/* a run of pushes (move.c, push_run): its first store into the
	 * read-only page (nothing done), and one across into the guard page
	 * (the pushes one by one: the third faults, two done) */
	"snip_push_run_ro:\n"
	"mov %ecx, %eax; push %eax; push %ebx; push %esi; cmc; cmc; jmp exit_regs\n"
	"snip_push_run_ro_end:\n"
	"snip_push_run_cross:\n"
	"mov %ecx, %eax; push %eax; push %ebx; push %esi; cmc; cmc; jmp exit_regs\n"
	"snip_push_run_cross_end:\n"
	/* pushes with MOVs between them (a mixed run in 64-bit mode:
	 * move.c, push_mix): into a read-only page (the first push faults,
	 * nothing done) and across into the guard (the first push and the
	 * MOV after it done) */
	"snip_push_mov_run_ro:\n"
	"mov %ecx, %eax; push %eax; mov %ebx, %edi; push %edi; mov %esi, %edx; push %edx; cmc; cmc; jmp exit_regs\n"
	"snip_push_mov_run_ro_end:\n"
	"snip_push_mov_run_cross:\n"
	"mov %ecx, %eax; push %eax; mov %ebx, %edi; push %edi; mov %esi, %edx; push %edx; cmc; cmc; jmp exit_regs\n"
	"snip_push_mov_run_cross_end:\n"
	/* a mixed run (registers, an immediate, ESP + disp) whose PUSH of
	 * memory reads past DATA2's page: the two pushes before it done */
	"snip_push_run_mixed_read:\n"
	"mov %ecx, %eax; push %eax; push $0x1234; push 0x800(%esp); push %ebx; cmc; cmc; jmp exit_regs\n"
	"snip_push_run_mixed_read_end:\n"
	/* SUB ESP and the pushes after it, one handler (move.c,
	 * sub_push_run): a fault at the first push (read-only page) and at
	 * the second (across into the guard) has the SUB done, its flags */
	"snip_sub_push_run_ro:\n"
	"mov %ecx, %eax; sub $4, %esp; push %eax; push %ebx; cmc; cmc; jmp exit_regs\n"
	"snip_sub_push_run_ro_end:\n"
	"snip_sub_push_run_cross:\n"
	"mov %ecx, %eax; sub $4, %esp; push %eax; push %ebx; cmc; cmc; jmp exit_regs\n"
	"snip_sub_push_run_cross_end:\n"
	/* MOV r32, [ESP + disp] and the CALL of that register, one handler
	 * (control.c, load_sp32_call_ind32): the load faulting (into the
	 * guard) and the CALL's push (the MOV done); the first run's slot
	 * holds the target, 0x100117f0 = GOOD_SP - 0x10 */
	"snip_load_call_read:\n"
	"mov %ecx, %eax; mov $2f, %edx; mov %edx, 0x100117f0; mov -0x10(%esp), %eax; call *%eax\n"
	"2: cmc; cmc; jmp exit_regs\n"
	"snip_load_call_read_end:\n"
	"snip_load_call_push:\n"
	"mov %ecx, %eax; mov $2f, %edx; mov %edx, 8(%esp); mov 8(%esp), %eax; call *%eax\n"
	"2: cmc; cmc; jmp exit_regs\n"
	"snip_load_call_push_end:\n"
	/* ... and its site with two targets in turn (it turns polymorphic,
	 * the fused entry with it: mov_call_fuse) */
	"snip_load_call_poly:\n"
	"mov %ecx, %eax; mov $6, %edi; movl $3f, 0x100117f0\n"
	"1: mov -0x10(%esp), %eax; call *%eax\n"
	"dec %edi; jnz 1b; cmc; cmc; jmp exit_regs\n"
	"3: movl $4f, 0x100117f0; ret\n"
	"4: movl $3b, 0x100117f0; ret\n"
	"snip_load_call_poly_end:\n"
	/* the caller's ADD ESP after a call, the TEST of its result and
	 * the Jcc, one handler from the return target (fused.c,
	 * fused_add_test_rr32_*): taken in two runs, not in the first */
	"snip_add_test_jcc:\n"
	"mov %ecx, %eax; and $0xff, %eax; sub $0xc, %esp; call 3f; add $0xc, %esp; test %eax, %eax; jne 1f\n"
	"inc %ebx; 1: cmc; cmc; jmp exit_regs\n"
	"3: ret\n"
	"snip_add_test_jcc_end:\n"
	/* a register flag writer, a load or store, a register flag writer:
	 * the first flag-free, its flags rebuilt at a fault in the access
	 * (lflive.c): ADD, SUB, XOR, CMP and TEST, 16 bits, a load then a
	 * store (the load's register written in between), three units, an
	 * ESP + disp load; entered past the writer by a jump (runs 1 and 2:
	 * the flags are the TEST's); not flag-free: ADD of a register to
	 * itself, a source written before the load */
	"snip_rebuild_add_load:\n"
	"add %esi, %eax; mov 4(%ebx), %edx; xor %ecx, %edi; cmc; cmc; jmp exit_regs\n"
	"snip_rebuild_add_load_end:\n"
	"snip_rebuild_sub_store:\n"
	"sub %ecx, %eax; mov %eax, 4(%ebx); and %esi, %edi; cmc; cmc; jmp exit_regs\n"
	"snip_rebuild_sub_store_end:\n"
	"snip_rebuild_load_store:\n"
	"xor %ecx, %eax; mov 4(%ebx), %edx; mov %edx, %esi; mov %esi, 8(%ebx); add %esi, %edx; cmc; cmc; jmp exit_regs\n"
	"snip_rebuild_load_store_end:\n"
	"snip_rebuild_cmp_imm:\n"
	"cmp $5, %ecx; mov 4(%ebx), %edx; test %esi, %edi; cmc; cmc; jmp exit_regs\n"
	"snip_rebuild_cmp_imm_end:\n"
	"snip_rebuild_test:\n"
	"test %esi, %eax; mov 4(%ebx), %edx; or %ecx, %edi; cmc; cmc; jmp exit_regs\n"
	"snip_rebuild_test_end:\n"
	"snip_rebuild_sub16:\n"
	"sub %si, %ax; mov 4(%ebx), %edx; add %cx, %di; cmc; cmc; jmp exit_regs\n"
	"snip_rebuild_sub16_end:\n"
	"snip_rebuild_wide:\n"
	"add $0x7fffffff, %eax; mov 8(%ebx), %edx; xor %ecx, %edi; cmc; cmc; jmp exit_regs\n"
	"snip_rebuild_wide_end:\n"
	"snip_rebuild_triple_load:\n"
	"mov %esi, %ecx; xor %ecx, %edx; add %ecx, %eax; mov 4(%ebx), %esi; and %edi, %ebp; cmc; cmc; jmp exit_regs\n"
	"snip_rebuild_triple_load_end:\n"
	"snip_rebuild_sp_load:\n"
	"add %esi, %eax; mov 4(%esp), %edx; xor %ecx, %edi; cmc; cmc; jmp exit_regs\n"
	"snip_rebuild_sp_load_end:\n"
	"snip_rebuild_jump_in:\n"
	"test %cl, %cl; jne 2f; add %esi, %eax; 2: mov 4(%ebx), %edx; xor %ecx, %edi; cmc; cmc; jmp exit_regs\n"
	"snip_rebuild_jump_in_end:\n"
	"snip_rebuild_same_reg:\n"
	"add %eax, %eax; mov 4(%ebx), %edx; xor %ecx, %edi; cmc; cmc; jmp exit_regs\n"
	"snip_rebuild_same_reg_end:\n"
	"snip_rebuild_clobbered:\n"
	"add %esi, %eax; mov %ecx, %esi; mov 4(%ebx), %edx; xor %ecx, %edi; cmc; cmc; jmp exit_regs\n"
	"snip_rebuild_clobbered_end:\n"
	/* reg op= memory: its twin keeps the value loaded (lflive.c): the
	 * XOR before an ADD of memory (the ADD's load faults), an ADD of
	 * memory (SIB) before another (the second's load faults), SUB and CMP
	 * of memory before a load or store, ADD of 16 bits; not flag-free: its
	 * destination written before the load */
	"snip_rebuild_xor_addmem:\n"
	"xor %ecx, %edx; add 4(%ebx), %edx; add %esi, %edi; cmc; cmc; jmp exit_regs\n"
	"snip_rebuild_xor_addmem_end:\n"
	"snip_rebuild_addmem_addmem:\n"
	"mov $" STR(DATA) "+0x200, %ebp; mov $4, %eax; xor %ecx, %edx; add 8(%ebp,%eax,4), %edx; add 4(%ebx), %edx; add %esi, %edi; cmc; cmc; jmp exit_regs\n"
	"snip_rebuild_addmem_addmem_end:\n"
	"snip_rebuild_submem_load:\n"
	"mov $" STR(DATA) "+0x200, %ebp; sub 8(%ebp), %edx; mov 4(%ebx), %eax; xor %ecx, %edi; cmc; cmc; jmp exit_regs\n"
	"snip_rebuild_submem_load_end:\n"
	"snip_rebuild_cmpmem_store:\n"
	"mov $" STR(DATA) "+0x200, %ebp; cmp 8(%ebp), %edx; mov %eax, 4(%ebx); xor %ecx, %edi; cmc; cmc; jmp exit_regs\n"
	"snip_rebuild_cmpmem_store_end:\n"
	"snip_rebuild_addmem16_load:\n"
	"mov $" STR(DATA) "+0x200, %ebp; add 8(%ebp), %dx; mov 4(%ebx), %eax; xor %ecx, %edi; cmc; cmc; jmp exit_regs\n"
	"snip_rebuild_addmem16_load_end:\n"
	"snip_rebuild_addmem_clobbered:\n"
	"mov $" STR(DATA) "+0x200, %ebp; add 8(%ebp), %edx; mov %ecx, %edx; mov 4(%ebx), %eax; xor %ecx, %edi; cmc; cmc; jmp exit_regs\n"
	"snip_rebuild_addmem_clobbered_end:\n"
	/* INC/DEC before a load or store, its flags deferred (CF the ADD's
	 * record, the rest INC's register): the SHA round's `add %esi,%edx;
	 * inc %ebp; mov 4(%esp),%esi; mov %esi,0x34(%esp); cmp $0x40,%ebp`
	 * (the load reads the read-only page, the store faults); not
	 * deferred: its register written before the load */
	"snip_rebuild_add_inc_load:\n"
	"add %esi, %edx; inc %ebp; mov 4(%ebx), %esi; xor %ecx, %edi; cmc; cmc; jmp exit_regs\n"
	"snip_rebuild_add_inc_load_end:\n"
	"snip_rebuild_add_inc_store:\n"
	"add %esi, %edx; inc %ebp; mov 4(%ebx), %esi; mov %esi, 8(%ebx); cmp $0x40, %ebp; cmc; cmc; jmp exit_regs\n"
	"snip_rebuild_add_inc_store_end:\n"
	"snip_rebuild_dec_clobbered:\n"
	"sub %ecx, %eax; dec %edi; mov %ecx, %edi; mov 4(%ebx), %edx; xor %ecx, %esi; cmc; cmc; jmp exit_regs\n"
	"snip_rebuild_dec_clobbered_end:\n"
	/* ADD/SUB whose source is written before the access (by the load
	 * before a faulting store, by a MOV: recorded, not rebuilt); the
	 * ADD; INC of the round entered past the ADD (the flags before are
	 * the TEST's; %edx 1: a rebuild of the ADD there would set CF); INC
	 * of the ADD's destination (the ADD recorded: a rebuild from the
	 * register INC wrapped would clear CF) */
	"snip_rebuild_add_kept_store:\n"
	"add %esi, %edx; mov 4(%ebx), %esi; mov %esi, 8(%ebx); xor %ecx, %edi; cmc; cmc; jmp exit_regs\n"
	"snip_rebuild_add_kept_store_end:\n"
	"snip_rebuild_sub_kept_load:\n"
	"{load} sub %esi, %edx; mov %ecx, %esi; mov 4(%ebx), %eax; xor %ecx, %edi; cmc; cmc; jmp exit_regs\n"
	"snip_rebuild_sub_kept_load_end:\n"
	"snip_rebuild_add_inc_jump_in:\n"
	"mov $1, %edx; test %cl, %cl; jne 2f; add %esi, %edx; 2: inc %ebp; mov 4(%ebx), %esi; mov %esi, 8(%ebx); cmp $0x40, %ebp; cmc; cmc; jmp exit_regs\n"
	"snip_rebuild_add_inc_jump_in_end:\n"
	"snip_rebuild_add_inc_same:\n"
	"mov $-1, %ebp; add %esi, %ebp; inc %ebp; mov 4(%ebx), %esi; mov %esi, 8(%ebx); cmp $0x40, %ebp; cmc; cmc; jmp exit_regs\n"
	"snip_rebuild_add_inc_same_end:\n"
	/* a run of pops (move.c, pop_run): its first load in the guard page
	 * (nothing done), and one across DATA2's end into unmapped memory (the
	 * pops one by one: the third faults, two done); a run with its RET
	 * whose return address is across the end (the pops done, the RET
	 * faults), which otherwise returns to the address stored first */
	"snip_pop_run_guard:\n"
	"mov %ecx, %eax; pop %ebx; pop %esi; pop %edx; cmc; cmc; jmp exit_regs\n"
	"snip_pop_run_guard_end:\n"
	"snip_pop_run_cross:\n"
	"mov %ecx, %eax; pop %ebx; pop %esi; pop %edx; cmc; cmc; jmp exit_regs\n"
	"snip_pop_run_cross_end:\n"
	"snip_pop_ret_cross: mov $1f, %eax; mov %eax, " STR(GOOD_SP) "+0x10\n"
	"pop %ebx; pop %esi; pop %edx; pop %edi; ret\n"
	"1: cmc; cmc; jmp exit_regs\n"
	"snip_pop_ret_cross_end:\n"
	/* stores next to pages that are not plain (a store check that read a
	 * neighbour's byte for its own page would miss these: branch store64,
	 * history.md): in the last page before an unmapped one, within it and
	 * across; from the guard page across into DATA2; a push, a CALL and a
	 * MOV to a stack slot above the guard page and across into it */
	"snip_store_last_page:\n"
	"xor %ecx, %eax; mov %ecx, 0xc(%ebx); cmc; cmc; jmp exit_regs\n"
	"snip_store_last_page_end:\n"
	"snip_store_from_guard:\n"
	"xor %ecx, %eax; mov %ecx, 0xa(%ebx); cmc; cmc; jmp exit_regs\n"
	"snip_store_from_guard_end:\n"
	"snip_push_cross:\n"
	"mov %ecx, %eax; push %eax; cmc; cmc; jmp exit_regs\n"
	"snip_push_cross_end:\n"
	"snip_call_cross:\n"
	"mov %ecx, %eax; call 1f; 1: cmc; cmc; jmp exit_regs\n"
	"snip_call_cross_end:\n"
	"snip_sp_store_cross:\n"
	"xor %ecx, %eax; mov %ecx, 0xa(%esp); cmc; cmc; jmp exit_regs\n"
	"snip_sp_store_cross_end:\n"
	/* triples of spill loads and stores (pairs.c: load32_sp32 and
	 * store32_sp32 are triple units), a fault in each member; the third
	 * after XOR (its flags rebuilt) */
	"snip_triple_sp_first:\n"
	"mov 4(%esp), %edx; mov %edx, 8(%esp); mov 12(%esp), %eax; cmc; cmc; jmp exit_regs\n"
	"snip_triple_sp_first_end:\n"
	"snip_triple_sp_second:\n"
	"mov %ecx, %eax; mov %eax, 4(%esp); mov 8(%esp), %edx; cmc; cmc; jmp exit_regs\n"
	"snip_triple_sp_second_end:\n"
	"snip_triple_sp_third:\n"
	"xor %ecx, %eax; mov 4(%esp), %edx; mov %eax, 8(%esp); mov %esi, %ebx; cmc; cmc; jmp exit_regs\n"
	"snip_triple_sp_third_end:\n"
	/* busybox's SHA-256 round and message schedule, their units' kinds
	 * (the indexed ADD of memory flat-32 here) */
	"snip_sha_round_addmem: mov $" STR(DATA) "+0x200, %ebp; mov $4, %eax; cmc\n"
	"mov %esi, %ecx; mov %esi, %edx; mov %esi, %edi; ror $6, %ecx; ror $11, %edx; and %ebp, %edi\n"
	"xor %ecx, %edx; mov %esi, %ecx; rol $7, %ecx; xor %ecx, %edx; mov %esi, %ecx\n"
	"add 8(%ebp,%eax,4), %edx; add -12(%ebx,%eax,4), %edx; not %ecx; inc %eax; and %edi, %ecx\n"
	"xor %esi, %ecx; mov %edx, %edi; add %ecx, %edx; ror $13, %ecx; xor %ecx, %edi; lea (%edx,%esi), %ecx\n"
	"add %edi, %ecx; cmp %eax, %ecx; mov %ebp, %ebx; mov %ecx, %ebp; mov %esi, %edx; mov %edi, %esi\n"
	"cmc; cmc; jmp exit_regs\n"
	"snip_sha_round_addmem_end:\n"
	"snip_sha_schedule_store:\n"
	"mov 0x38(%ebx), %esi; mov 0x4(%ebx), %edi; add $4, %ebx; mov %esi, %ecx; mov %esi, %ebp; shr $10, %esi\n"
	"rol $13, %ebp; rol $15, %ecx; xor %ebp, %ecx; mov %edi, %ebp; xor %esi, %ecx; mov -4(%ebx), %esi\n"
	"add 0x20(%ebx), %esi; rol $14, %ebp; add %esi, %ecx; mov %edi, %esi; shr $3, %edi; ror $7, %esi\n"
	"xor %ebp, %esi; xor %edi, %esi; add %esi, %ecx; mov %ecx, 0x3c(%ebx); cmp %ebx, %edx; cmc; cmc; jmp exit_regs\n"
	"snip_sha_schedule_store_end:\n"
	/* a page of its own: the stores into it drop its decoded code */
	".p2align 12\n"
	"snip_pair_smc_second: lea 1f, %edi; mov $0x9090da89, %ecx\n"
	"mov %ecx, (%edi)\n"
	"1: mov %ecx, %edx; nop; nop\n"
	"xor %edi, %edi; cmc; cmc; jmp exit_regs\n"
	"snip_pair_smc_second_end:\n"
	/* a store in such a stretch (run 0: into DATA; then into the next
	 * instruction, decoded: the run loop stops after it) rewriting it to
	 * PUSHF; POP %edx: the flags pushed are the ADD's */
	"snip_rebuild_smc: lea 1f, %edi; mov $" STR(DATA) "+0x100, %edx; test %cl, %cl; cmovz %edx, %edi\n"
	"mov $0xcb895a9c, %ecx; add %esi, %eax; mov %ecx, (%edi)\n"
	"1: .byte 0x89, 0xca, 0x89, 0xcb\n" /* mov %ecx, %edx; mov %ecx, %ebx */
	"xor %ebp, %ebp; cmc; cmc; jmp exit_regs\n"
	"snip_rebuild_smc_end:\n"
	/* a triple's second member, a spill store (run 0: into DATA; then
	 * through ESP into the triple's third, decoded: the triple ends
	 * there and the third runs as rewritten, mov %ebx, %edx) */
	"snip_triple_smc_third: lea 1f, %edi; mov $" STR(DATA) "+0x100, %edx; test %cl, %cl; cmovz %edx, %edi\n"
	"mov %esp, %ebp; lea -4(%edi), %esp; mov $0x9090da89, %ecx; cmc\n"
	"mov %ecx, %eax; mov %ecx, 4(%esp)\n"
	"1: mov %ecx, %edx; nop; nop\n"
	"mov %ebp, %esp; xor %ebp, %ebp; xor %edi, %edi; cmc; cmc; jmp exit_regs\n"
	"snip_triple_smc_third_end:\n"
	".p2align 12\n");
#else
__asm__(".text\n"
	".globl enter_regs, exit_regs\n"
	"enter_regs:\n"
	"push %rbx; push %rbp; push %r12; push %r13; push %r14; push %r15\n"
	"mov %rsp, g_saved_sp(%rip)\n"
	"pushq g_in+128(%rip); popfq\n"
	"mov g_in+8(%rip), %rcx; mov g_in+16(%rip), %rdx; mov g_in+24(%rip), %rbx\n"
	"mov g_in+40(%rip), %rbp; mov g_in+48(%rip), %rsi; mov g_in+56(%rip), %rdi\n"
	"mov g_in+64(%rip), %r8; mov g_in+72(%rip), %r9; mov g_in+80(%rip), %r10\n"
	"mov g_in+88(%rip), %r11; mov g_in+96(%rip), %r12; mov g_in+104(%rip), %r13\n"
	"mov g_in+112(%rip), %r14; mov g_in+120(%rip), %r15\n"
	"mov g_in(%rip), %rax; mov g_in+32(%rip), %rsp\n"
	"jmp *g_body(%rip)\n"
	"exit_regs:\n"
	"mov %rax, g_out(%rip); mov %rcx, g_out+8(%rip); mov %rdx, g_out+16(%rip)\n"
	"mov %rbx, g_out+24(%rip); mov %rsp, g_out+32(%rip); mov %rbp, g_out+40(%rip)\n"
	"mov %rsi, g_out+48(%rip); mov %rdi, g_out+56(%rip); mov %r8, g_out+64(%rip)\n"
	"mov %r9, g_out+72(%rip); mov %r10, g_out+80(%rip); mov %r11, g_out+88(%rip)\n"
	"mov %r12, g_out+96(%rip); mov %r13, g_out+104(%rip); mov %r14, g_out+112(%rip)\n"
	"mov %r15, g_out+120(%rip)\n"
	"mov g_saved_sp(%rip), %rsp\n"
	"pushfq; popq g_out+128(%rip)\n"
	"pop %r15; pop %r14; pop %r13; pop %r12; pop %rbp; pop %rbx\n"
	"ret\n"
	"snip_pair_load_second:\n"
	"mov %ecx, %eax; mov 4(%rbx), %edx; cmc; cmc; jmp exit_regs\n"
	"snip_pair_load_second_end:\n"
	"snip_pair_add_mem_second:\n"
	"add %ecx, %eax; add 4(%rbx), %edx; cmc; cmc; jmp exit_regs\n"
	"snip_pair_add_mem_second_end:\n"
	"snip_pair_store_second:\n"
	"xor %ecx, %eax; mov %eax, 4(%rbx); cmc; cmc; jmp exit_regs\n"
	"snip_pair_store_second_end:\n"
	"snip_pair_load_head:\n"
	"mov 8(%rbx), %rax; mov %ecx, %edx; cmc; cmc; jmp exit_regs\n"
	"snip_pair_load_head_end:\n"
	"snip_pair_ix_load_second:\n"
	"movzbl %cl, %edx; movzwl (%rbx,%rdx,2), %eax; cmc; cmc; jmp exit_regs\n"
	"snip_pair_ix_load_second_end:\n"
	"snip_triple_then_load:\n"
	"mov %esi, %ecx; xor %ecx, %edx; add %ecx, %eax; ror $3, %eax\n"
	"mov 4(%rbx), %esi; sub %eax, %eax; cmc; cmc; jmp exit_regs\n"
	"snip_triple_then_load_end:\n"
	"snip_shift_cl_then_load:\n"
	"add %rsi, %rax; shl %cl, %rdx; sar %cl, %r9d; mov 4(%rbx), %esi; xor %eax, %eax; cmc; cmc; jmp exit_regs\n"
	"snip_shift_cl_then_load_end:\n"
	"snip_neg_sbb_then_load:\n"
	"neg %cx; sbb %sil, %sil; mov 4(%rbx), %r8d; xor %eax, %eax; cmc; cmc; jmp exit_regs\n"
	"snip_neg_sbb_then_load_end:\n"
	"snip_shift8_then_load:\n"
	"shr $3, %dl; mov 4(%rbx), %esi; xor %eax, %eax; cmc; cmc; jmp exit_regs\n"
	"snip_shift8_then_load_end:\n"
	"snip_dec_jcc_then_load:\n"
	"dec %ecx; jne 1f; inc %eax; 1: mov 4(%rbx), %esi; xor %eax, %eax; cmc; cmc; jmp exit_regs\n"
	"snip_dec_jcc_then_load_end:\n"
	"snip_threeway_cmp: mov $" STR(DATA) "+0x40, %esi\n"
	"call 1f; cmc; cmc; jmp exit_regs\n"
	"1: cmp %eax, (%rdi); setg %al; setl %dl; movzbl %dl, %edx; movzbl %al, %eax; sub %edx, %eax; ret\n"
	"snip_threeway_cmp_end:\n"
	"snip_threeway_load_cmp: mov $" STR(DATA) "+0x40, %esi\n"
	"call 1f; cmc; cmc; jmp exit_regs\n"
	"1: mov (%rsi), %eax; cmp %eax, (%rdi); setg %al; setl %dl; movzbl %dl, %edx; movzbl %al, %eax; sub %edx, %eax; ret\n"
	"snip_threeway_load_cmp_end:\n"
	"snip_threeway_ret: mov $" STR(DATA) "+0x40, %esi; mov $" STR(DATA) "+0x80, %edi\n"
	"cmp %eax, (%rdi); setg %al; setl %dl; movzbl %dl, %edx; movzbl %al, %eax; sub %edx, %eax; ret\n"
	"snip_threeway_ret_end:\n"
	"snip_threeway_load_ret: mov $" STR(DATA) "+0x40, %esi; mov $" STR(DATA) "+0x80, %edi\n"
	"mov (%rsi), %eax; cmp %eax, (%rdi); setg %al; setl %dl; movzbl %dl, %edx; movzbl %al, %eax; sub %edx, %eax; ret\n"
	"snip_threeway_load_ret_end:\n"
	"snip_threeway_load_ret64: mov $" STR(DATA) "+0x40, %esi; mov $" STR(DATA) "+0x80, %edi\n"
	"mov 8(%rsi), %rcx; cmp %rcx, 8(%rdi); setg %cl; setl %bl; movzbl %bl, %ebx; movzbl %cl, %ecx; sub %ebx, %ecx; ret\n"
	"snip_threeway_load_ret64_end:\n"
	/* x32's shape: 67h addresses, a 64-bit RET */
	"snip_threeway_ret_addr32: mov $" STR(DATA) "+0x48, %esi; mov $" STR(DATA) "+0x88, %edi\n"
	"mov (%esi), %eax; cmp %eax, (%edi); setg %al; setl %dl; movzbl %al, %eax; movzbl %dl, %edx; sub %edx, %eax; ret\n"
	"snip_threeway_ret_addr32_end:\n"
	/* ... and returning to the guard page (the stack holds its address):
	 * a fetch fault at the target, the RET done */
	"snip_threeway_ret_target: mov $" STR(DATA) "+0x40, %esi; mov $" STR(DATA) "+0x80, %edi\n"
	"mov (%rsi), %eax; cmp %eax, (%rdi); setg %al; setl %dl; movzbl %dl, %edx; movzbl %al, %eax; sub %edx, %eax; ret\n"
	"snip_threeway_ret_target_end:\n"
	/* Py_DECREF (fused.c, fused_sub_mi64_f64): its store faulting (the
	 * read succeeds), and a taken JE before a fault */
	"snip_decref_store:\n"
	"subq $1, 8(%rbx); je 1f; inc %ecx; 1: jmp exit_regs\n"
	"snip_decref_store_end:\n"
	"snip_decref_taken: mov $" STR(DATA) "+0x10, %ebx; movq $1, 8(%rbx)\n"
	"subq $1, 8(%rbx); je 1f; inc %ecx; 1: mov $" STR(GUARD) ", %ebx; mov (%rbx), %ebx; cmc; cmc; jmp exit_regs\n"
	"snip_decref_taken_end:\n"
	"snip_cmp_jcc_mem:\n"
	"cmp 8(%rbx), %rcx; jne 1f; inc %ecx; 1: jmp exit_regs\n"
	"snip_cmp_jcc_mem_end:\n"
	"snip_dec_mem_jcc:\n"
	"decl 8(%rbx); jne 1f; inc %ecx; 1: jmp exit_regs\n"
	"snip_dec_mem_jcc_end:\n"
	"snip_setcc_store:\n"
	"cmp %rcx, %rax; setne 8(%rbx); inc %ecx; cmc; cmc; jmp exit_regs\n"
	"snip_setcc_store_end:\n"
	"snip_push_mem_read:\n"
	"mov %ecx, %eax; push 8(%rbx); pop %rax; cmc; cmc; jmp exit_regs\n"
	"snip_push_mem_read_end:\n"
	"snip_push_mem_store: mov $" STR(DATA) "+0x100, %esi\n"
	"mov %ecx, %eax; push 8(%rsi); pop %rax; cmc; cmc; jmp exit_regs\n"
	"snip_push_mem_store_end:\n"
	/* RSP + disp loads and stores (flat 64) */
	"snip_sp_load_second:\n"
	"mov %ecx, %eax; mov 4(%rsp), %edx; cmc; cmc; jmp exit_regs\n"
	"snip_sp_load_second_end:\n"
	"snip_sp_store_second:\n"
	"xor %ecx, %eax; mov %eax, 4(%rsp); cmc; cmc; jmp exit_regs\n"
	"snip_sp_store_second_end:\n"
	"snip_sp_cmp_jcc:\n"
	"cmpl $5, 8(%rsp); jne 1f; inc %ecx; 1: jmp exit_regs\n"
	"snip_sp_cmp_jcc_end:\n"
	"snip_push_sp_disp:\n"
	"mov %ecx, %eax; push 0x14(%rsp); pop %rax; cmc; cmc; jmp exit_regs\n"
	"snip_push_sp_disp_end:\n"
	"snip_push_run_ro:\n"
	"mov %ecx, %eax; push %rax; push %rbx; push %rsi; cmc; cmc; jmp exit_regs\n"
	"snip_push_run_ro_end:\n"
	"snip_push_run_cross:\n"
	"mov %ecx, %eax; push %rax; push %rbx; push %rsi; cmc; cmc; jmp exit_regs\n"
	"snip_push_run_cross_end:\n"
	"snip_push_mov_run_ro:\n"
	"mov %ecx, %eax; push %rax; mov %rbx, %rdi; push %rdi; mov %rsi, %rdx; push %rdx; cmc; cmc; jmp exit_regs\n"
	"snip_push_mov_run_ro_end:\n"
	"snip_push_mov_run_cross:\n"
	"mov %ecx, %eax; push %rax; mov %rbx, %rdi; push %rdi; mov %rsi, %rdx; push %rdx; cmc; cmc; jmp exit_regs\n"
	"snip_push_mov_run_cross_end:\n"
	"snip_push_run_mixed_read:\n"
	"mov %ecx, %eax; push %rax; push $0x1234; push 0x800(%rsp); push %rbx; cmc; cmc; jmp exit_regs\n"
	"snip_push_run_mixed_read_end:\n"
	"snip_sub_push_run_ro:\n"
	"mov %ecx, %eax; sub $8, %rsp; push %rax; push %rbx; cmc; cmc; jmp exit_regs\n"
	"snip_sub_push_run_ro_end:\n"
	"snip_sub_push_run_cross:\n"
	"mov %ecx, %eax; sub $8, %rsp; push %rax; push %rbx; cmc; cmc; jmp exit_regs\n"
	"snip_sub_push_run_cross_end:\n"
	/* no fused form in 64-bit mode; the target not left in a register
	 * (x32's and x86_64's code addresses differ) */
	"snip_load_call_read:\n"
	"mov %ecx, %eax; lea 2f(%rip), %rdx; mov %rdx, 0x100117f0; xor %edx, %edx; call *-0x10(%rsp)\n"
	"2: cmc; cmc; jmp exit_regs\n"
	"snip_load_call_read_end:\n"
	"snip_load_call_push:\n"
	"mov %ecx, %eax; lea 2f(%rip), %rdx; mov %rdx, 8(%rsp); xor %edx, %edx; call *8(%rsp)\n"
	"2: cmc; cmc; jmp exit_regs\n"
	"snip_load_call_push_end:\n"
	"snip_load_call_poly:\n"
	"mov %ecx, %eax; mov $6, %edi; lea 3f(%rip), %rdx; mov %rdx, 0x100117f0; xor %edx, %edx\n"
	"1: call *-0x10(%rsp)\n"
	"dec %edi; jnz 1b; cmc; cmc; jmp exit_regs\n"
	"3: lea 4f(%rip), %rdx; mov %rdx, 0x100117f0; xor %edx, %edx; ret\n"
	"4: lea 3b(%rip), %rdx; mov %rdx, 0x100117f0; xor %edx, %edx; ret\n"
	"snip_load_call_poly_end:\n"
	"snip_add_test_jcc:\n"
	"mov %ecx, %eax; and $0xff, %eax; sub $0x8, %rsp; call 3f; add $0x8, %rsp; test %eax, %eax; jne 1f\n"
	"inc %ebx; 1: cmc; cmc; jmp exit_regs\n"
	"3: ret\n"
	"snip_add_test_jcc_end:\n"
	/* a register flag writer, a load or store, a register flag writer:
	 * the first flag-free, its flags rebuilt at a fault in the access
	 * (lflive.c): ADD, SUB, XOR, CMP and TEST, 16 bits, a load then a
	 * store (the load's register written in between), three units, an
	 * ESP + disp load; entered past the writer by a jump (runs 1 and 2:
	 * the flags are the TEST's); not flag-free: ADD of a register to
	 * itself, a source written before the load */
	"snip_rebuild_add_load:\n"
	"add %esi, %eax; mov 4(%rbx), %edx; xor %ecx, %edi; cmc; cmc; jmp exit_regs\n"
	"snip_rebuild_add_load_end:\n"
	"snip_rebuild_sub_store:\n"
	"sub %ecx, %eax; mov %eax, 4(%rbx); and %esi, %edi; cmc; cmc; jmp exit_regs\n"
	"snip_rebuild_sub_store_end:\n"
	"snip_rebuild_load_store:\n"
	"xor %ecx, %eax; mov 4(%rbx), %edx; mov %edx, %esi; mov %esi, 8(%rbx); add %esi, %edx; cmc; cmc; jmp exit_regs\n"
	"snip_rebuild_load_store_end:\n"
	"snip_rebuild_cmp_imm:\n"
	"cmp $5, %ecx; mov 4(%rbx), %edx; test %esi, %edi; cmc; cmc; jmp exit_regs\n"
	"snip_rebuild_cmp_imm_end:\n"
	"snip_rebuild_test:\n"
	"test %esi, %eax; mov 4(%rbx), %edx; or %ecx, %edi; cmc; cmc; jmp exit_regs\n"
	"snip_rebuild_test_end:\n"
	"snip_rebuild_sub16:\n"
	"sub %si, %ax; mov 4(%rbx), %edx; add %cx, %di; cmc; cmc; jmp exit_regs\n"
	"snip_rebuild_sub16_end:\n"
	"snip_rebuild_wide:\n"
	"add %rsi, %rax; mov 8(%rbx), %rdx; xor %rcx, %rdi; cmc; cmc; jmp exit_regs\n"
	"snip_rebuild_wide_end:\n"
	"snip_rebuild_triple_load:\n"
	"mov %esi, %ecx; xor %ecx, %edx; add %ecx, %eax; mov 4(%rbx), %esi; and %edi, %ebp; cmc; cmc; jmp exit_regs\n"
	"snip_rebuild_triple_load_end:\n"
	"snip_rebuild_sp_load:\n"
	"add %esi, %eax; mov 4(%rsp), %edx; xor %ecx, %edi; cmc; cmc; jmp exit_regs\n"
	"snip_rebuild_sp_load_end:\n"
	"snip_rebuild_jump_in:\n"
	"test %cl, %cl; jne 2f; add %esi, %eax; 2: mov 4(%rbx), %edx; xor %ecx, %edi; cmc; cmc; jmp exit_regs\n"
	"snip_rebuild_jump_in_end:\n"
	"snip_rebuild_same_reg:\n"
	"add %eax, %eax; mov 4(%rbx), %edx; xor %ecx, %edi; cmc; cmc; jmp exit_regs\n"
	"snip_rebuild_same_reg_end:\n"
	"snip_rebuild_clobbered:\n"
	"add %esi, %eax; mov %ecx, %esi; mov 4(%rbx), %edx; xor %ecx, %edi; cmc; cmc; jmp exit_regs\n"
	"snip_rebuild_clobbered_end:\n"
	"snip_rebuild_xor_addmem:\n"
	"xor %ecx, %edx; add 4(%rbx), %edx; add %esi, %edi; cmc; cmc; jmp exit_regs\n"
	"snip_rebuild_xor_addmem_end:\n"
	"snip_rebuild_addmem_addmem:\n"
	"mov $" STR(DATA) "+0x200, %ebp; mov $4, %eax; xor %ecx, %edx; add 8(%rbp,%rax,4), %edx; add 4(%rbx), %edx; add %esi, %edi; cmc; cmc; jmp exit_regs\n"
	"snip_rebuild_addmem_addmem_end:\n"
	"snip_rebuild_submem_load:\n"
	"mov $" STR(DATA) "+0x200, %ebp; sub 8(%rbp), %rdx; mov 4(%rbx), %eax; xor %ecx, %edi; cmc; cmc; jmp exit_regs\n"
	"snip_rebuild_submem_load_end:\n"
	"snip_rebuild_cmpmem_store:\n"
	"mov $" STR(DATA) "+0x200, %ebp; cmp 8(%rbp), %edx; mov %eax, 4(%rbx); xor %ecx, %edi; cmc; cmc; jmp exit_regs\n"
	"snip_rebuild_cmpmem_store_end:\n"
	"snip_rebuild_addmem16_load:\n"
	"mov $" STR(DATA) "+0x200, %ebp; add 8(%rbp), %dx; mov 4(%rbx), %eax; xor %ecx, %edi; cmc; cmc; jmp exit_regs\n"
	"snip_rebuild_addmem16_load_end:\n"
	"snip_rebuild_addmem_clobbered:\n"
	"mov $" STR(DATA) "+0x200, %ebp; add 8(%rbp), %edx; mov %ecx, %edx; mov 4(%rbx), %eax; xor %ecx, %edi; cmc; cmc; jmp exit_regs\n"
	"snip_rebuild_addmem_clobbered_end:\n"
	"snip_rebuild_add_inc_load:\n"
	"add %rsi, %rdx; inc %rbp; mov 4(%rbx), %esi; xor %ecx, %edi; cmc; cmc; jmp exit_regs\n"
	"snip_rebuild_add_inc_load_end:\n"
	"snip_rebuild_add_inc_store:\n"
	"add %esi, %edx; inc %ebp; mov 4(%rbx), %esi; mov %esi, 8(%rbx); cmp $0x40, %ebp; cmc; cmc; jmp exit_regs\n"
	"snip_rebuild_add_inc_store_end:\n"
	"snip_rebuild_dec_clobbered:\n"
	"sub %ecx, %eax; dec %edi; mov %ecx, %edi; mov 4(%rbx), %edx; xor %ecx, %esi; cmc; cmc; jmp exit_regs\n"
	"snip_rebuild_dec_clobbered_end:\n"
	"snip_rebuild_add_kept_store:\n"
	"add %esi, %edx; mov 4(%rbx), %esi; mov %esi, 8(%rbx); xor %ecx, %edi; cmc; cmc; jmp exit_regs\n"
	"snip_rebuild_add_kept_store_end:\n"
	"snip_rebuild_sub_kept_load:\n"
	"{load} sub %rsi, %rdx; mov %rcx, %rsi; mov 4(%rbx), %eax; xor %ecx, %edi; cmc; cmc; jmp exit_regs\n"
	"snip_rebuild_sub_kept_load_end:\n"
	"snip_rebuild_add_inc_jump_in:\n"
	"mov $1, %edx; test %cl, %cl; jne 2f; add %esi, %edx; 2: inc %ebp; mov 4(%rbx), %esi; mov %esi, 8(%rbx); cmp $0x40, %ebp; cmc; cmc; jmp exit_regs\n"
	"snip_rebuild_add_inc_jump_in_end:\n"
	"snip_rebuild_add_inc_same:\n"
	"mov $-1, %ebp; add %esi, %ebp; inc %ebp; mov 4(%rbx), %esi; mov %esi, 8(%rbx); cmp $0x40, %ebp; cmc; cmc; jmp exit_regs\n"
	"snip_rebuild_add_inc_same_end:\n"
	"snip_pop_run_guard:\n"
	"mov %ecx, %eax; pop %rbx; pop %rsi; pop %rdx; cmc; cmc; jmp exit_regs\n"
	"snip_pop_run_guard_end:\n"
	"snip_pop_run_cross:\n"
	"mov %ecx, %eax; pop %rbx; pop %rsi; pop %rdx; cmc; cmc; jmp exit_regs\n"
	"snip_pop_run_cross_end:\n"
	"snip_pop_ret_cross: lea 1f(%rip), %rax; mov %rax, " STR(GOOD_SP) "+0x10\n"
	"pop %rbx; pop %rsi; ret\n"
	"1: cmc; cmc; jmp exit_regs\n"
	"snip_pop_ret_cross_end:\n"
	/* 64-bit stores next to pages that are not plain (as above): in
	 * DATA's last page (an unmapped one after it), within it and across;
	 * from the guard page across into DATA2; a push, a CALL and a MOV to
	 * a stack slot above the guard page and across into it */
	"snip_store_last_page:\n"
	"xor %ecx, %eax; mov %rcx, 8(%rbx); cmc; cmc; jmp exit_regs\n"
	"snip_store_last_page_end:\n"
	"snip_store_from_guard:\n"
	"xor %ecx, %eax; mov %rcx, 8(%rbx); cmc; cmc; jmp exit_regs\n"
	"snip_store_from_guard_end:\n"
	"snip_push_cross:\n"
	"mov %ecx, %eax; push %rax; cmc; cmc; jmp exit_regs\n"
	"snip_push_cross_end:\n"
	"snip_call_cross:\n"
	"mov %ecx, %eax; call 1f; 1: cmc; cmc; jmp exit_regs\n"
	"snip_call_cross_end:\n"
	"snip_sp_store_cross:\n"
	"xor %ecx, %eax; mov %rcx, 8(%rsp); cmc; cmc; jmp exit_regs\n"
	"snip_sp_store_cross_end:\n"
	"snip_triple_sp_first:\n"
	"mov 4(%rsp), %edx; mov %edx, 8(%rsp); mov 12(%rsp), %eax; cmc; cmc; jmp exit_regs\n"
	"snip_triple_sp_first_end:\n"
	"snip_triple_sp_second:\n"
	"mov %ecx, %eax; mov %eax, 4(%rsp); mov 8(%rsp), %edx; cmc; cmc; jmp exit_regs\n"
	"snip_triple_sp_second_end:\n"
	"snip_triple_sp_third:\n"
	"xor %ecx, %eax; mov 4(%rsp), %edx; mov %eax, 8(%rsp); mov %esi, %ebx; cmc; cmc; jmp exit_regs\n"
	"snip_triple_sp_third_end:\n"
	/* busybox's SHA-256 round (its two indexed ADDs of memory, fx64
	 * pair units, the second faulting after the first's flags went
	 * flag-free) and its message schedule (the store faulting): runs
	 * of pairs and triples */
	"snip_sha_round_addmem: mov $" STR(DATA) "+0x200, %ebp; mov $4, %eax; cmc\n"
	"mov %esi, %ecx; mov %esi, %edx; mov %esi, %r15d; ror $6, %ecx; ror $11, %edx; and %ebp, %r15d\n"
	"xor %ecx, %edx; mov %esi, %ecx; rol $7, %ecx; xor %ecx, %edx; mov %esi, %ecx\n"
	"add 8(%rbp,%rax,4), %edx; add -12(%rbx,%rax,4), %edx; not %ecx; inc %r10; and %edi, %ecx\n"
	"xor %r15d, %ecx; mov %r9d, %r15d; add %ecx, %edx; mov %edi, %ecx; and %r8d, %r15d; add %r11d, %edx\n"
	"mov %edi, %r11d; ror $13, %ecx; ror $2, %r11d; xor %ecx, %r11d; mov %edi, %ecx; rol $10, %ecx\n"
	"xor %ecx, %r11d; mov %r9d, %ecx; xor %r8d, %ecx; and %edi, %ecx; xor %r15d, %ecx\n"
	"lea (%rdx,%r13,1), %r15d; mov %r8d, %r13d; add %r11d, %ecx; mov %ebx, %r11d; add %edx, %ecx\n"
	"cmp $0x40, %r10; mov %ebp, %ebx; mov %r9d, %r8d; mov %esi, %ebp; mov %edi, %r9d; mov %r15d, %esi\n"
	"mov %ecx, %edi; cmc; cmc; jmp exit_regs\n"
	"snip_sha_round_addmem_end:\n"
	"snip_sha_schedule_store:\n"
	"mov 0x38(%rbx), %esi; mov 0x4(%rbx), %edi; add $4, %rbx; mov %esi, %ecx; mov %esi, %r9d; shr $10, %esi\n"
	"rol $13, %r9d; rol $15, %ecx; xor %r9d, %ecx; mov %edi, %r9d; xor %esi, %ecx; mov -4(%rbx), %esi\n"
	"add 0x20(%rbx), %esi; rol $14, %r9d; add %esi, %ecx; mov %edi, %esi; shr $3, %edi; ror $7, %esi\n"
	"xor %r9d, %esi; xor %edi, %esi; add %esi, %ecx; mov %ecx, 0x3c(%rbx); cmp %rbx, %r8; cmc; cmc; jmp exit_regs\n"
	"snip_sha_schedule_store_end:\n"
	/* a page of its own: the stores into it drop its decoded code */
	".p2align 12\n"
	"snip_pair_smc_second: lea 1f(%rip), %rdi; mov $0x9090da89, %ecx\n"
	"mov %ecx, (%rdi)\n"
	"1: mov %ecx, %edx; nop; nop\n"
	"xor %edi, %edi; cmc; cmc; jmp exit_regs\n"
	"snip_pair_smc_second_end:\n"
	"snip_rebuild_smc: lea 1f(%rip), %rdi; mov $" STR(DATA) "+0x100, %edx; test %cl, %cl; cmovz %rdx, %rdi\n"
	"mov $0xcb895a9c, %ecx; add %esi, %eax; mov %ecx, (%rdi)\n"
	"1: .byte 0x89, 0xca, 0x89, 0xcb\n"
	"xor %ebp, %ebp; cmc; cmc; jmp exit_regs\n"
	"snip_rebuild_smc_end:\n"
	"snip_triple_smc_third: lea 1f(%rip), %rdi; mov $" STR(DATA) "+0x100, %edx; test %cl, %cl; cmovz %rdx, %rdi\n"
	"mov %rsp, %rbp; lea -4(%rdi), %rsp; mov $0x9090da89, %ecx; cmc\n"
	"mov %ecx, %eax; mov %ecx, 4(%rsp)\n"
	"1: mov %ecx, %edx; nop; nop\n"
	"mov %rbp, %rsp; xor %ebp, %ebp; xor %edi, %edi; cmc; cmc; jmp exit_regs\n"
	"snip_triple_smc_third_end:\n"
	".p2align 12\n");
#endif

static const struct {
	const char *name;
	char *start, *end;
	int reg;
	uint32_t good, bad;
	unsigned undefined_flags;
} snippets[] = {
#define ROW(name, reg, good, bad, undef) { #name, snip_##name, snip_##name##_end, reg, good, bad, undef },
	SNIPPETS(ROW)
};

/* greg_t: int on i386, long long on x32 and x86_64 */
#ifdef __i386__
#define GREG(v) ((uint64_t)(uint32_t)(v))
#else
#define GREG(v) ((uint64_t)(v))
#endif

static sigjmp_buf jb;
static uint64_t ctx_regs[NREGS + 1], ctx_rip;
static int ctx_sig, ctx_code;
static uintptr_t ctx_addr;

static void on_fault(int sig, siginfo_t *si, void *uctx)
{
	ucontext_t *uc = uctx;
	greg_t *g = uc->uc_mcontext.gregs;
#ifdef __i386__
	static const int idx[8] = { REG_EAX, REG_ECX, REG_EDX, REG_EBX, REG_ESP, REG_EBP, REG_ESI, REG_EDI };
	const int n = 8;

	ctx_rip = (uint32_t)g[REG_EIP];
#else
	static const int idx[16] = { REG_RAX, REG_RCX, REG_RDX, REG_RBX, REG_RSP, REG_RBP,
				     REG_RSI, REG_RDI, REG_R8,  REG_R9,  REG_R10, REG_R11,
				     REG_R12, REG_R13, REG_R14, REG_R15 };
	const int n = 16;

	ctx_rip = (uint64_t)g[REG_RIP];
#endif
	for (int k = 0; k < n; k++)
		ctx_regs[k] = GREG(g[idx[k]]);
	ctx_regs[NREGS] = GREG(g[REG_EFL]);
	ctx_sig = sig;
	ctx_code = si->si_code;
	ctx_addr = (uintptr_t)si->si_addr;
	siglongjmp(jb, 1);
}

static void print_regs(const uint64_t *r, unsigned flags_mask)
{
#ifdef __i386__
	const int n = 8;
#else
	const int n = 16;
#endif
	for (int k = 0; k < n; k++) {
		printf(" %llx", (unsigned long long)r[k]);
	}
	printf(" fl=%03llx\n", (unsigned long long)(r[NREGS] & flags_mask));
}

static void fill(void *p, size_t len)
{
	for (size_t k = 0; k < len; k++)
		((uint8_t *)p)[k] = (uint8_t)(k * 0x9d + 0x3b + (k >> 7));
}

static void map_fixed(uintptr_t at, size_t len, int prot)
{
	void *p = mmap((void *)at, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);

	if (p != (void *)at) { /* taken: fail, do not map over it */
		perror("mmap");
		exit(2);
	}
	fill(p, len);
	if (prot != (PROT_READ | PROT_WRITE) && mprotect(p, len, prot) != 0) {
		perror("mprotect");
		exit(2);
	}
}

int main(void)
{
	static uint8_t altstack[65536];
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack) };
	struct sigaction sa;
	uintptr_t page = (uintptr_t)snip_pair_smc_second & ~(uintptr_t)4095;
	uint8_t smc_orig[8];
	char *smc_at = NULL;

	setvbuf(stdout, NULL, _IOLBF, 0);
	map_fixed(DATA, 0x2000, PROT_READ | PROT_WRITE);
	map_fixed(GUARD, 0x1000, PROT_NONE);
	map_fixed(DATA2, 0x1000, PROT_READ | PROT_WRITE);
	map_fixed(RO, 0x1000, PROT_READ);
	/* the self-modifying snippet's page */
	if (mprotect((void *)page, 4096, PROT_READ | PROT_WRITE | PROT_EXEC) != 0) {
		perror("mprotect text");
		return 2;
	}
	/* the rewritten instruction: after "mov %ecx,(%edi)" (89 0f) */
	for (char *p = snip_pair_smc_second; p + 1 < snip_pair_smc_second_end; p++)
		if ((uint8_t)p[0] == 0x89 && (uint8_t)p[1] == 0x0f) {
			smc_at = p + 2;
			break;
		}
	if (!smc_at)
		return 2;
	memcpy(smc_orig, smc_at, sizeof(smc_orig));
	sigaltstack(&ss, NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_fault;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);

	for (size_t s = 0; s < sizeof(snippets) / sizeof(snippets[0]); s++) {
		unsigned mask = ARITH_DF & ~snippets[s].undefined_flags;

		for (unsigned run = 0; run < 3; run++) {
			static const uint8_t counts[3] = { 0, 5, 32 };
			static const uint64_t flags[3] = { 0x8d5 | 0x202, 0x202, 0x0c5 | 0x202 };

			for (int k = 0; k < NREGS; k++)
				g_in[k] = (0x0123456789abcdefull * (uint64_t)(k + 1)) ^ (run * 0x1111111111ull);
			g_in[1] = (g_in[1] & ~0xffull) | counts[run];
			g_in[4] = GOOD_SP;
			if (snippets[s].reg >= 0)
				g_in[snippets[s].reg] = run ? snippets[s].bad : snippets[s].good;
			fill((void *)(uintptr_t)DATA, 0x2000);
			fill((void *)(uintptr_t)DATA2, 0x1000);
			/* a RET from the good stack pointer returns to exit_regs */
			*(uint64_t *)(uintptr_t)GOOD_SP = (uintptr_t)exit_regs;
			/* ... and above it a return into the guard page */
			*(uint64_t *)(uintptr_t)(GOOD_SP + 8) = GUARD + 0x10;
			/* the three-way compares' operands: greater, equal, less */
			((int32_t *)(uintptr_t)DATA)[0x10] = (int32_t)run - 1;
			((int32_t *)(uintptr_t)DATA)[0x20] = 0;
			((int64_t *)(uintptr_t)DATA)[0x9] = (int64_t)run - 1;
			((int64_t *)(uintptr_t)DATA)[0x11] = 0;
			g_in[NREGS] = flags[run];
#ifdef __i386__
			for (int k = 0; k < NREGS; k++)
				g_in[k] = (uint32_t)g_in[k];
#endif
			if (snippets[s].start == snip_pair_smc_second) /* its page only */
				memcpy(smc_at, smc_orig, sizeof(smc_orig));
			g_body = (uintptr_t)snippets[s].start;
			if (sigsetjmp(jb, 1) == 0) {
				enter_regs();
				printf("%-24s %u done:", snippets[s].name, run);
				print_regs(g_out, mask);
			} else {
				uint64_t off = ctx_rip - (uintptr_t)snippets[s].start;

				bool inside = ctx_rip >= (uintptr_t)snippets[s].start &&
					      ctx_rip < (uintptr_t)snippets[s].end;

				/* outside the snippet: rip itself (the fixed pages; the
				 * text's addresses differ between the builds) */
				printf("%-24s %u sig %d code %d addr %lx at %s%llx:", snippets[s].name,
				       run, ctx_sig, ctx_code, (unsigned long)ctx_addr,
				       inside ? "+" : "rip ",
				       (unsigned long long)(inside ? off : ctx_rip));
				print_regs(ctx_regs, mask);
			}
		}
	}
	return 0;
}
