/* The instruction trace (--trace=insn, --trace=blocks): each executed
 * instruction with its address, bytes, Capstone's disassembly and the
 * general registers it changed; or each basic block as it is entered,
 * its boundaries as the CPU's own decoder finds them (cpu_decode_one:
 * Capstone gives the text only).
 * The run loop calls trace_insn() after every instruction only while the
 * trace wants them (src/core/embed.c steps instead of cpu_run then), so a
 * run without it pays nothing. */
#include <capstone/capstone.h>
#include <string.h>

#include "cpu/cpu.h"
#include "mm/mm.h"
#include "trace/trace.h"
#include "trace/trace_internal.h"

#define BLOCK_MAX 64 /* instructions disassembled ahead for one block */

static const char *const reg64[16] = {
	"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
	"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
};
static const char *const reg32[8] = {
	"eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi",
};

/* Per guest thread (= host thread). */
static __thread struct {
	csh cs;
	int cs_mode;           /* 0: not open */
	uint64_t block[BLOCK_MAX]; /* addresses of the current block */
	unsigned block_n, block_next;
} ist;

bool trace_wants_insns(const struct trace *tr)
{
	return tr && (tr->flags & (SG_TRACE_INSN | SG_TRACE_BLOCKS)) &&
	       !(tr->insn_count && tr->insn_shown >= tr->insn_count);
}

static bool open_cs(enum cpu_mode mode)
{
	int want = mode == CPU_MODE_64 ? CS_MODE_64 : CS_MODE_32;

	if (ist.cs_mode == want)
		return true;
	if (ist.cs_mode)
		cs_close(&ist.cs);
	ist.cs_mode = 0;
	if (cs_open(CS_ARCH_X86, want, &ist.cs) != CS_ERR_OK)
		return false;
	cs_option(ist.cs, CS_OPT_DETAIL, CS_OPT_ON);
	ist.cs_mode = want;
	return true;
}

/* Up to 15 bytes at pc that are readable guest memory. */
static size_t fetch(const struct mm *mm, uint64_t pc, uint8_t *buf, size_t max)
{
	size_t n = max;

	while (n && copy_from_guest(mm, buf, pc, n) != 0)
		n--;
	return n;
}

/* "0x401000: 48 89 e5    mov rbp, rsp" (no newline) */
static void print_insn(struct tline *l, const struct mm *mm, uint64_t pc)
{
	uint8_t bytes[15];
	size_t n = fetch(mm, pc, bytes, sizeof(bytes));
	cs_insn *in = NULL;
	size_t start;

	tl_printf(l, "%#llx: ", (unsigned long long)pc);
	if (!n || cs_disasm(ist.cs, bytes, n, pc, 1, &in) != 1) {
		tl_puts(l, "(bad)");
		return;
	}
	start = l->len;
	for (unsigned i = 0; i < in->size; i++)
		tl_printf(l, "%02x ", in->bytes[i]);
	while (l->len < start + 30)
		tl_putc(l, ' ');
	tl_printf(l, "%s%s%s", in->mnemonic, in->op_str[0] ? " " : "", in->op_str);
	cs_free(in, 1);
}

static void print_changes(struct tline *l, const struct cpu *cpu,
			  const uint64_t before[16], uint64_t before_flags,
			  uint64_t flags)
{
	bool wide = cpu->mode == CPU_MODE_64;
	unsigned nregs = wide ? 16 : 8;
	bool any = false;

	for (unsigned r = 0; r < nregs; r++) {
		uint64_t now = wide ? cpu->r[r] : (uint32_t)cpu->r[r];
		uint64_t was = wide ? before[r] : (uint32_t)before[r];

		if (now == was)
			continue;
		tl_printf(l, "%s%s=%#llx", any ? " " : "  ; ",
			  wide ? reg64[r] : reg32[r], (unsigned long long)now);
		any = true;
	}
	if (flags != before_flags)
		tl_printf(l, "%s%s=%#llx", any ? " " : "  ; ",
			  wide ? "rflags" : "eflags", (unsigned long long)flags);
}

/* "block 0x401000 (3 insns): push rbp; mov rbp, rsp; call 0x401136" */
static void print_block(struct tline *l, const struct mm *mm, enum cpu_mode mode,
			uint64_t pc)
{
	uint64_t at = pc;
	unsigned n = 0;
	size_t head;

	tl_printf(l, "block %#llx", (unsigned long long)pc);
	head = l->len;
	tl_puts(l, ":");
	while (n < BLOCK_MAX) {
		uint8_t bytes[15];
		size_t got = fetch(mm, at, bytes, sizeof(bytes));
		unsigned len;
		enum cpu_insn_flow flow;
		cs_insn *in = NULL;

		/* the boundaries are the CPU's (what it will run); Capstone
		 * only names the instructions (given all the bytes: where the
		 * two differ on a length, its text still says something) */
		if (!got || !cpu_decode_one(mode, bytes, got, &len, &flow))
			break;
		ist.block[n++] = at;
		if (cs_disasm(ist.cs, bytes, got, at, 1, &in) == 1) {
			tl_printf(l, "%s %s%s%s", n > 1 ? ";" : "", in->mnemonic,
				  in->op_str[0] ? " " : "", in->op_str);
			cs_free(in, 1);
		} else {
			tl_printf(l, "%s (bad)", n > 1 ? ";" : "");
		}
		at += len;
		if (flow != CPU_INSN_FALLS_THROUGH)
			break;
	}
	ist.block_n = n;
	ist.block_next = 1;
	{
		/* the count after the address, now that it is known */
		char count[32];
		int k = snprintf(count, sizeof(count), " (%u insns)", n);

		if (k > 0 && l->len + (size_t)k < sizeof(l->buf) - 1) {
			memmove(l->buf + head + k, l->buf + head, l->len - head);
			memcpy(l->buf + head, count, (size_t)k);
			l->len += (size_t)k;
		}
	}
}

void trace_insn(struct trace *tr, const struct cpu *cpu, uint64_t pc,
		const uint64_t before[16], uint64_t before_flags,
		uint64_t after_flags)
{
	const struct mm *mm = cpu->mm;
	struct tline l = { .len = 0 };

	if (!trace_wants_insns(tr))
		return;
	if (!tr->insn_started) {
		if (tr->insn_start && pc != tr->insn_start)
			return;
		tr->insn_started = true;
	}
	if (!open_cs(cpu->mode))
		return;
	if (tr->flags & SG_TRACE_BLOCKS) {
		if (ist.block_next < ist.block_n && ist.block[ist.block_next] == pc) {
			ist.block_next++;
			return;
		}
		trace_print_prefix(tr, &l);
		print_block(&l, mm, cpu->mode, pc);
	} else {
		trace_print_prefix(tr, &l);
		print_insn(&l, mm, pc);
		print_changes(&l, cpu, before, before_flags, after_flags);
	}
	__atomic_add_fetch(&tr->insn_shown, 1, __ATOMIC_RELAXED);
	trace_emit(tr, &l);
}
