/* The run loop, CPU reset, stops and faults, and the host SIGSEGV/SIGBUS
 * handler that turns faults on guest accesses into CPU_STOP_FAULT. */
#define _GNU_SOURCE /* REG_ERR */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <ucontext.h>
#include "cpu/cache.h"
#include "cpu/ops.h"

__thread struct cpu *cpu_tl_current; /* the CPU this thread interprets (cache.h) */

/* Per host thread: where a fault inside guest interpretation returns to. */
static __thread sigjmp_buf *tl_jmp;
static __thread volatile sig_atomic_t tl_in_guest;
static __thread uint64_t tl_fault_addr;
static __thread bool tl_fault_write, tl_fault_prot;
static __thread int tl_fault_bus_code;
__thread bool cpu_tl_ac __attribute__((tls_model("initial-exec"))); /* insn.h: ac_check */
__thread bool cpu_tl_fetch __attribute__((tls_model("initial-exec"))); /* insn.h */
static __thread bool tl_fault_fetch, tl_fault_present;
/* the fault came as a host signal (on_host_fault), not from a check */
static __thread bool tl_fault_host_signal;

/* A misaligned access with EFLAGS.AC set: leave the instruction like a
 * host fault does, run() raises VEC_AC (si_addr 0, as Linux reports). */
void cpu_ac_fault(void)
{
	cpu_tl_ac = false;
	tl_in_guest = 0;
	siglongjmp(*tl_jmp, 2);
}

/* An instruction fetch from a page that is not executable (cache.c):
 * leave like a host fault on the fetch does. mapped: SEGV_ACCERR. */
void cpu_fetch_fault(uint64_t addr, bool mapped, bool present)
{
	tl_fault_addr = addr;
	tl_fault_write = false;
	tl_fault_prot = mapped;
	tl_fault_fetch = true;
	tl_fault_present = present;
	tl_fault_host_signal = false;
	tl_fault_bus_code = 0;
	tl_in_guest = 0;
	siglongjmp(*tl_jmp, 1);
}

void cpu_store_fault(uint64_t addr)
{
	tl_fault_addr = addr;
	tl_fault_write = true;
	tl_fault_prot = false;
	tl_fault_fetch = false;
	tl_fault_present = false;
	tl_fault_host_signal = false;
	tl_fault_bus_code = 0;
	tl_in_guest = 0;
	siglongjmp(*tl_jmp, 1);
}

void cpu_init(struct cpu *c, enum cpu_mode mode)
{
	struct cpu_code_cache *cache = c->cache;
	uint64_t cache_epoch = c->cache_epoch; /* the cache is valid up to it */
	void *owner = c->owner;
	const struct mm *mm = c->mm;
	uint64_t rip_bases[GREG_RIP_BASES];

	cache_install_write_hook();
	memcpy(rip_bases, &c->r[GREG_RIP_BASE], sizeof(rip_bases)); /* the cache's code uses them */
	memset(c, 0, sizeof(*c));
	memcpy(&c->r[GREG_RIP_BASE], rip_bases, sizeof(rip_bases));
	c->cache = cache;
	c->cache_epoch = cache_epoch;
	c->owner = owner;
	c->mm = mm;
	c->mode = mode;
	c->lf.rf = 0x202;
	c->lf.op = FL_NONE;
	c->x87.fcw = 0x37f;
	c->x87.ftw_tags = 0xffff; /* all empty */
	c->mxcsr = 0x1f80;
	c->xcr0 = CPU_XCR0;
	c->sel[SEG_CS] = mode == CPU_MODE_64 ? 0x33 : 0x23;
	c->sel[SEG_SS] = 0x2b;
	/* start_thread: DS = ES = 0 for 64-bit programs, __USER_DS for compat */
	c->sel[SEG_DS] = c->sel[SEG_ES] = mode == CPU_MODE_64 ? 0 : 0x2b;
}

void cpu_release(struct cpu *c)
{
	cache_free(c);
}

void cpu_clone(struct cpu *dst, const struct cpu *src)
{
	*dst = *src;
	dst->cache = NULL; /* each thread decodes into its own cache */
	dst->cache_epoch = 0;
	dst->stop_requested = 0;
	dst->owner = NULL;
}

void cpu_raise(struct cpu *c, enum cpu_vector vec)
{
	c->rip = c->insn_rip;
	c->stop = CPU_STOP_FAULT;
	memset(&c->fault, 0, sizeof(c->fault));
	c->fault.vector = vec;
	c->fault.insn_addr = c->insn_rip;
}

void cpu_raise_addr(struct cpu *c, enum cpu_vector vec, uint64_t addr)
{
	cpu_raise(c, vec);
	c->fault.data_addr = addr;
}

void op_ud(struct cpu *c, const struct insn *i)
{
	/* The bytes that can be read: the decoded ones, and up to 15 while
	 * they stay on the instruction's page. */
	uint64_t to_page_end = CODE_PAGE_SIZE - (c->insn_rip & (CODE_PAGE_SIZE - 1));
	unsigned n = to_page_end < 15 ? (unsigned)to_page_end : 15;

	if (n < insn_cold(i)->len)
		n = insn_cold(i)->len;
	cpu_raise(c, VEC_UD);
	memcpy(c->fault.bytes, g2h(c->insn_rip), n);
	c->fault.nbytes = (uint8_t)n;
}

void op_gp(struct cpu *c, const struct insn *i)
{
	cpu_raise(c, VEC_GP);
}

void op_nop(struct cpu *c, const struct insn *i)
{
}

/* op_nop's fast form (decode.c, SPEC_NOP): the multi-byte NOPs compilers
 * pad loop heads with run at every iteration; nothing to do but the
 * dispatch (no cpu.cur: it cannot fault). */
const struct insn *fast_nop(struct cpu *c, const struct insn *i)
{
	return exec_next(c, i);
}

/* Threaded dispatch: each instruction's exec runs it and returns the next
 * one, so straight-line code and branches whose fast form knows its
 * target never go back through a lookup here. An instruction decoded
 * right after its predecessor sits next to it in the page's pool
 * (insn.seq): falling through is i + 1.
 *
 * cpu->rip is exact only where the loop stops: exec_generic sets it for
 * the table's handlers, and a stop (a handler's, a store into decoded
 * code, cpu_request_stop) leaves the loop with rip at the returned next
 * instruction, or where the handler put it (NULL). Nothing of an
 * instruction is read after its handler unless the handler left no
 * pending stop or resync (a mode switch frees the decoded code, the
 * handler's own instruction included). */
__attribute__((noinline)) const struct insn *exec_lookup(struct cpu *c, uint64_t addr)
{
	uint64_t page = addr & ~(uint64_t)(CODE_PAGE_SIZE - 1);
	struct code_page *pg = cache_page(c, page);
	unsigned s = code_slot(pg, addr & (CODE_PAGE_SIZE - 1));

	if (s)
		return &pg->pool[s - 1];
	c->cur = NULL;
	c->insn_rip = c->rip = addr; /* a fetch fault names the fetched instruction */
	return cache_decode(c, pg, addr);
}

/* A stub whose target is on its page, once found: its exec jumps to the
 * kept target and nothing else (2 host instructions; exec_fallthrough's
 * tag test and the moves around it were 6). The stub and its target live
 * and die with the page, so the pointer needs no check. The loops of
 * msort (qsort) ran three stubs per compare: a loop entered at its
 * condition, and two exits taken on the first run. */
static const struct insn *exec_fallthrough_kept(struct cpu *c, const struct insn *stub)
{
	const struct insn *t = (const struct insn *)insn_link(stub);

	if (EXEC_TAIL_DISPATCH) {
		__asm__("" : "+r"(t)); /* jmp *(reg), as exec_next */
		return t->exec(c, t);
	}
	(void)c;
	return t;
}

/* A stub whose fall-through is a JMP on the next page, to a third place
 * off that page (a loop whose body ends at its page's end, then jumps
 * back to its condition: msort's every second compare in the x86_64
 * qsort), goes to the JMP's target itself, one dispatch and the JMP's
 * target check less: the target's address kept in the stub's imm,
 * checked against the entry the JMP keeps (tagged: off its page), once
 * the JMP is still decoded at the stub's address (its entry keeps the
 * address while decoded: cache.h, INSN_ADDR_DEAD; a JMP decoded there
 * anew keeps its own target, none until it first runs). A store into
 * the JMP drops the stub's page too (drop_range takes the 15 bytes
 * before a written range: an instruction may start there), so these
 * checks hold for pages dropped otherwise. Anything else: back to the
 * plain stub's exec. */
static const struct insn *exec_fallthrough_jmp(struct cpu *c, const struct insn *stub)
{
	const struct insn *j = (const struct insn *)(insn_link(stub) - 1);
	uintptr_t t = insn_link(j);

	/* chains: its fast form, whose v is its link (a JMP decoded there
	 * anew may be a generic one, a 16-bit JMP, whose v is its rel16) */
	if (__builtin_expect(insn_cold(j)->addr == insn_cold(stub)->addr && insn_cold(j)->fn == op_jmp_Jz &&
				     insn_cold(j)->chains && (t & 1) &&
				     insn_cold(((const struct insn *)(t - 1)))->addr == insn_imm(stub),
			     1))
		return exec_branch(c, (const struct insn *)(t - 1));
	((struct insn *)stub)->exec = exec_fallthrough;
	return exec_fallthrough(c, stub);
}

/* A loop body falling into a condition decoded before it (gcc's rotated
 * loops) runs its stub every iteration: the target, once found, is kept
 * in the stub's v like a chained branch's — on the same page plainly
 * (valid as long as the page) and run straight on, still a fall-through,
 * so a straight run stays within its page; on the next page (an
 * instruction ending at its page's end: Perl ran 123k such stubs per
 * compute.pl 40000, each a full lookup) tagged with bit 0 and checked at
 * each use (its entry still has the address: cache.h, INSN_ADDR_DEAD),
 * then run through exec_branch, which tests pending. A new stub keeps
 * its window's dead entry 0, tagged (cache.c, insn_unlink), so the hit
 * test needs no NULL test.
 * The lookup is out of line: the hit path needs no frame. */
static __attribute__((noinline)) const struct insn *fallthrough_lookup(struct cpu *c,
								       const struct insn *stub)
{
	const struct insn *t = exec_at(c, insn_cold(stub)->addr);
	bool other_page = ((insn_cold(stub)->addr ^ insn_cold(&stub[-1])->addr) & ~(uint64_t)(CODE_PAGE_SIZE - 1)) != 0;

	/* t == stub: the fall-through was decoded over the stub just now */
	if (t != stub) {
		insn_set_link(stub, (uintptr_t)t | other_page);
		if (!other_page)
			((struct insn *)stub)->exec = exec_fallthrough_kept;
		else if (insn_cold(t)->fn == op_jmp_Jz && insn_cold(t)->osz == (c->mode == CPU_MODE_64 ? 8 : 4)) {
			/* its fast form (control.c), to another page than its
			 * own: the target it keeps is tagged */
			uint64_t back = (insn_cold(t)->addr + insn_cold(t)->len + insn_imm(t)) & c->amask;

			if (((back ^ insn_cold(t)->addr) & ~(uint64_t)(CODE_PAGE_SIZE - 1)) != 0) {
				insn_imm(stub) = back;
				((struct insn *)stub)->exec = exec_fallthrough_jmp;
			}
		}
		cache_run_ended(c, stub);
	}
	return t;
}

const struct insn *exec_fallthrough(struct cpu *c, const struct insn *stub)
{
	uintptr_t t = insn_link(stub);

	if (__builtin_expect(!(t & 1), 1)) {
		const struct insn *same = (const struct insn *)t;

		return EXEC_TAIL_DISPATCH ? same->exec(c, same) : same;
	}
	if (insn_cold(((const struct insn *)(t - 1)))->addr == insn_cold(stub)->addr)
		return exec_branch(c, (const struct insn *)(t - 1));
	return fallthrough_lookup(c, stub);
}

__attribute__((noinline)) const struct insn *exec_pending(struct cpu *c, const struct insn *i)
{
	/* a fault set rip already; a store into decoded code (the page stays
	 * until cache_sync) or a stop request did not */
	if (c->stop == CPU_STOP_NONE)
		c->rip = insn_cold(i)->addr + insn_cold(i)->len;
	return NULL;
}

const struct insn *exec_plain(struct cpu *c, const struct insn *i)
{
	c->insn_rip = insn_cold(i)->addr;
	c->cur = i;
	insn_cold(i)->fn(c, i);
	if (__builtin_expect(c->pending != 0, 0))
		return exec_pending(c, i);
	return exec_next(c, i);
}

/* The first run of a direct branch (operand size 32 or 64, as its fast
 * form is chosen): find the target and chain it — on the same page
 * plainly, on another tagged (bit 0) and checked at every use (cache.h,
 * INSN_ADDR_DEAD). */
__attribute__((noinline)) const struct insn *exec_chain(struct cpu *c, const struct insn *i)
{
	uint64_t target = insn_cold(i)->addr + insn_cold(i)->len + insn_imm(i);
	uintptr_t kept = insn_link(i);
	const struct insn *t;

	if (c->mode == CPU_MODE_32)
		target = (uint32_t)target;
	if (kept & 1) {
		t = (const struct insn *)(kept - 1);
		if (__builtin_expect(insn_cold(t)->addr == target, 1))
			return t;
	}
	t = exec_at(c, target);
	if (((target ^ insn_cold(i)->addr) & ~(uint64_t)(CODE_PAGE_SIZE - 1)) == 0)
		insn_set_link(i, (uintptr_t)t);
	else
		insn_set_link(i, (uintptr_t)t | 1);
	return t;
}

void exec_prelink(struct cpu *c, const struct insn *i)
{
	const struct insn_cold *ic = insn_cold(i);

	if (ic->chains && insn_unlinked(i)) {
		uint64_t target = ic->addr + ic->len + insn_imm(i);

		if (c->mode == CPU_MODE_32)
			target = (uint32_t)target;
		if (cache_find(c, target))
			exec_chain(c, i);
	}
	if (!ic->ends_run && !ic->seq) {
		const struct insn *stub = i + 1;

		if (stub->exec == exec_fallthrough &&
		    insn_unlinked(stub) &&
		    cache_find(c, insn_cold(stub)->addr))
			fallthrough_lookup(c, stub);
	}
}

/* Only c and i live across the call: two saved registers. i is read
 * again only when nothing is pending (its page still lives). */
const struct insn *exec_generic(struct cpu *c, const struct insn *i)
{
	const struct insn_cold *ic = insn_cold(i);
	c->insn_rip = ic->addr;
	c->cur = i;
	c->rip = ic->addr + ic->len;
	ic->fn(c, i);
	if (__builtin_expect(c->pending != 0, 0))
		return NULL;
	if (__builtin_expect(c->rip == ic->addr + ic->len, 1) && (ic->seq || !ic->ends_run))
		return exec_next(c, i);
	return exec_at(c, c->rip);
}

/* --stats: each instruction through its table handler (exact at every
 * step, as single-stepping), counted once it completed: not one that
 * faulted (a memory fault leaves by longjmp before the count, the others
 * stop with CPU_STOP_FAULT). Apart from the fast forms so that counting
 * costs them nothing: the threaded dispatch has no place to count
 * without a test or an add per instruction. Returns with rip exact. */
static __attribute__((noinline)) void run_counted(struct cpu *c, const struct insn *i)
{
	for (;;) {
		c->cur = NULL;
		c->insn_rip = insn_cold(i)->addr;
		c->rip = insn_cold(i)->addr + insn_cold(i)->len;
		insn_cold(i)->fn(c, i);
		c->executed += c->stop != CPU_STOP_FAULT;
		if (__builtin_expect(c->pending != 0, 0))
			return;
		i = exec_at(c, c->rip);
	}
}

/* A stop or fault with lf.op FL_DEFER or FL_INCDEC_DEFER (after a
 * flag-free or deferring writer, at or right after a load or store of its
 * stretch): its flags recorded from the registers before anything reads
 * them (lflive.c). */
static inline void settle_deferred_flags(struct cpu *c)
{
	if (__builtin_expect(c->lf.op == FL_DEFER || (c->lf.op & FL_INCDEC_DEFER), 0))
		lf_rebuild(c, c->cache ? c->cur : NULL);
}

/* Not inlined into run(): after its sigsetjmp the compiler keeps c in
 * memory, here it stays in a register. */
static __attribute__((noinline)) void run_loop(struct cpu *c, bool single)
{
	for (;;) {
		const struct insn *i;

		if (__builtin_expect(c->stop_requested, 0)) {
			c->stop_requested = 0;
			c->stop = CPU_STOP_REQUEST;
			return;
		}
		if (c->code_dirty) {
			c->code_dirty = 0;
			cache_sync(c);
		}
		i = exec_at(c, c->rip);
		if (single || (c->lf.rf & FL_TF)) {
			/* TF (a non-arithmetic flag: always in lf.rf) at an
			 * instruction's start: it traps once that instruction
			 * completes. One that stops the CPU itself does not:
			 * a fault, or a system call (SYSCALL masks TF, INT n
			 * clears it, and the kernel swallows SYSENTER's). */
			bool tf = (c->lf.rf & FL_TF) != 0;

			/* the table's handler: exact at every step */
			c->cur = NULL;
			c->insn_rip = insn_cold(i)->addr;
			c->rip = insn_cold(i)->addr + insn_cold(i)->len;
			insn_cold(i)->fn(c, i);
			if (cpu_stats_on)
				c->executed += c->stop != CPU_STOP_FAULT;
			if (tf && c->stop == CPU_STOP_NONE) {
				uint64_t next = c->rip;

				cpu_raise(c, VEC_DB);
				c->fault.single_step = true;
				c->rip = next;
			}
			return;
		}
		if (__builtin_expect(cpu_stats_on, 0)) {
			run_counted(c, i);
			if (c->stop != CPU_STOP_NONE)
				return;
			continue;
		}
		do {
			c->cur = i;
			i = i->exec(c, i);
		} while (__builtin_expect(c->pending == 0, 1));
		if (c->stop != CPU_STOP_NONE)
			return;
		if (i) {
			/* Stopped between a flag-free form and the flag writer that
			 * made it so: run on along the fall-through to that writer
			 * (lflive.c). The stale stretch is register forms, but an
			 * exec runs the whole straight run on (exec_next tests
			 * nothing), up to a branch or a table handler, which sees
			 * the stop request pending and returns NULL with rip set —
			 * or stops the CPU itself (a fault, a system call). */
			while ((insn_cold(i)->lf & LF_STALE) && !c->code_dirty) {
				const struct insn *next;

				c->cur = i;
				next = i->exec(c, i);
				if (next != i + 1 &&
				    !((insn_cold(i)->lf & LF_PAIR_HEAD) && (next == i + 2 || next == i + 3))) {
					/* a branch (a fused compare's included): the
					 * writer has run (a stretch is straight-line);
					 * NULL: rip says where. A pair (pairs.c) falls
					 * through to i + 2, a triple to i + 3 */
					i = next;
					break;
				}
				i = next;
			}
			if (c->stop != CPU_STOP_NONE)
				return;
			if (i)
				c->rip = insn_cold(i)->addr;
		}
		/* Stopped right after a store in such a stretch that went
		 * through its table handler (decoded code written, or a stop
		 * pending) */
		settle_deferred_flags(c);
	}
}

static bool canonical(uint64_t a)
{
	return (uint64_t)((int64_t)(a << 16) >> 16) == a;
}

/* The implicit stack access of i, if it has one: its address and whether
 * it comes before the explicit operand's (pops read the stack first,
 * pushes read their source first). */
static bool implicit_stack(const struct cpu *c, const struct insn *i, uint64_t *addr, bool *first)
{
	insn_fn f = insn_cold(i)->fn;
	unsigned sz = insn_cold(i)->osz;

	*first = f == op_pop_r || f == op_pop_Ev || f == op_popf || f == op_pop_sreg ||
		 f == op_ret || f == op_ret_Iw || f == op_leave;
	if (f == op_leave)
		*addr = c->r[R_BP];
	else if (*first)
		*addr = c->r[R_SP];
	else if (f == op_push_r || f == op_push_Iz || f == op_push_Ev || f == op_pushf ||
		 f == op_push_sreg || f == op_enter || f == op_call_Jz || f == op_call_Ev)
		*addr = c->r[R_SP] - (f == op_call_Jz || f == op_call_Ev ? 8 : sz);
	else
		return false;
	return true;
}

/* A host #GP (si_addr 0) on a non-canonical address is #SS natively when
 * that access goes through SS (Linux: SIGBUS): the stack of a push, pop,
 * call or return, or a memory operand based on RSP or RBP without an FS/GS
 * override. Only the fault path decodes the instruction again to tell,
 * itself guarded: the fault may have been the fetch (found by the
 * fuzzer). */
static bool stack_based(struct cpu *c)
{
	sigjmp_buf jb;
	sigjmp_buf *outer = tl_jmp;
	volatile bool r = false;
	struct insn *i = insn_scratch(c, INSN_SCRATCH_FAULT);
	uint64_t sp;
	bool stack_first, stack_bad, explicit_bad;

	if (sigsetjmp(jb, 0) == 0) {
		tl_jmp = &jb;
		tl_in_guest = 1;
		insn_decode(i, c, c->insn_rip);
		stack_bad = implicit_stack(c, i, &sp, &stack_first) && !canonical(sp);
		/* (a RIP-relative operand comes resolved: insn_decode) */
		explicit_bad = insn_cold(i)->mod != 3 && !canonical(insn_ea(c, i));
		if (stack_bad && (stack_first || !explicit_bad))
			r = true;
		else /* the explicit operand: through SS if RSP/RBP-based, no FS/GS */
			r = insn_cold(i)->mod != 3 && (i->base == R_SP || i->base == R_BP) &&
			    insn_seg(i) != SEG_FS && insn_seg(i) != SEG_GS;
	}
	tl_in_guest = 0;
	tl_jmp = outer;
	return r;
}

/* A fault in a fast form: it names the instruction by cpu->cur (the
 * dispatch stores only that), the others set insn_rip too. A load or store
 * after a flag-free writer rebuilds the flags it sees (lflive.c). */
static void sync_insn_rip(struct cpu *c)
{
	if (c->cur)
		c->insn_rip = insn_cold(c->cur)->addr;
	settle_deferred_flags(c);
}

static void flush_executed(struct cpu *c)
{
	if (c->executed) {
		__atomic_fetch_add(&cpu_stats_counts.executed, c->executed, __ATOMIC_RELAXED);
		c->executed = 0;
	}
}

static enum cpu_stop_reason run(struct cpu *c, bool single)
{
	sigjmp_buf jb;
	sigjmp_buf *outer = tl_jmp;

	cache_sync(c);
	c->stop = CPU_STOP_NONE;
	if (c->mode == CPU_MODE_32)
		c->rip = (uint32_t)c->rip;
	c->cur = NULL;
	c->r[16] = c->r[17] = 0; /* insn_ea_fast's "no register" (cpu.h), whatever a caller wrote */
	c->amask = cpu_mode_amask(c->mode);
	switch (sigsetjmp(jb, 0)) {
	case 0:
		break;
	case 2: /* cpu_ac_fault: a misaligned access with AC set */
		tl_jmp = outer;
		sync_insn_rip(c);
		flush_executed(c);
		cpu_raise(c, VEC_AC);
		return c->stop;
	default:
		/* A guest access faulted (on_host_fault). */
		tl_in_guest = 0;
		tl_jmp = outer;
		cpu_tl_ac = false;
		sync_insn_rip(c);
		flush_executed(c);
		cpu_raise_addr(c, VEC_PF, tl_fault_addr);
		c->fault.write = tl_fault_write;
		c->fault.prot = tl_fault_prot;
		c->fault.fetch = tl_fault_fetch;
		c->fault.present = tl_fault_present;
		c->fault.bus_code = tl_fault_bus_code;
		c->fault.host_signal = tl_fault_host_signal;
		if (tl_fault_addr == 0 && c->mode == CPU_MODE_64 && stack_based(c))
			c->fault.vector = VEC_SS; /* non-canonical via RSP/RBP */
		return c->stop;
	}
	tl_jmp = &jb;
	tl_in_guest = 1;
	cpu_tl_current = c;
	cpu_tl_ac = (c->lf.rf & FL_AC) != 0; /* AC is never a lazy flag */
	run_loop(c, single);
	settle_deferred_flags(c); /* a stop in a stretch: as a fault */
	flush_executed(c);
	cpu_tl_ac = false;
	tl_in_guest = 0;
	tl_jmp = outer;
	if (c->stop == CPU_STOP_NONE)
		c->stop = CPU_STOP_REQUEST; /* single step done */
	return c->stop;
}

enum cpu_stop_reason cpu_run(struct cpu *c)
{
	return run(c, false);
}

enum cpu_stop_reason cpu_step(struct cpu *c)
{
	enum cpu_stop_reason r = run(c, true);

	if (r == CPU_STOP_REQUEST && !c->stop_requested)
		c->stop = r = CPU_STOP_NONE;
	return r;
}

void cpu_request_stop(struct cpu *c)
{
	c->stop_requested = 1;
}

static void (*user_signal_handler)(int sig, void *siginfo, void *uctx);
static __thread sigjmp_buf *tl_bus_recovery;

void *cpu_set_host_bus_recovery(void *jb)
{
	sigjmp_buf *outer = tl_bus_recovery;

	tl_bus_recovery = jb;
	return outer;
}

void cpu_set_user_signal_handler(void (*fn)(int sig, void *siginfo, void *uctx))
{
	user_signal_handler = fn;
}

static void on_host_fault(int sig, siginfo_t *si, void *uctx)
{
	ucontext_t *uc = uctx;

	if (si->si_code <= 0) {
		/* SI_USER, SI_TKILL, SI_QUEUE...: sent, not a fault */
		if (user_signal_handler) {
			user_signal_handler(sig, si, uctx);
		} else {
			signal(sig, SIG_DFL);
			raise(sig);
		}
		return;
	}
	if (!tl_in_guest && sig == SIGBUS && si->si_code == BUS_ADRERR && tl_bus_recovery) {
		sigjmp_buf *jb = tl_bus_recovery;

		tl_bus_recovery = NULL; /* a guest buffer past its file's end */
		siglongjmp(*jb, 1);
	}
	if (!tl_in_guest || !tl_jmp) {
		/* A fault in sysgate itself: die of it as if unhandled. */
		signal(sig, SIG_DFL);
		return; /* the faulting instruction runs again, now fatally */
	}
	tl_fault_addr = (uint64_t)(uintptr_t)si->si_addr;
	tl_fault_prot = sig == SIGSEGV && si->si_code == SEGV_ACCERR;
	/* a page the host cannot back (a file mapping past its end) */
	tl_fault_bus_code = sig == SIGBUS ? si->si_code : 0;
	/* Page-fault error code bit 1: the access was a write. */
	tl_fault_write = (uc->uc_mcontext.gregs[REG_ERR] & 2) != 0;
	tl_fault_present = (uc->uc_mcontext.gregs[REG_ERR] & 1) != 0;
	tl_fault_host_signal = true;
	tl_fault_fetch = cpu_tl_fetch;
	cpu_tl_fetch = false;
	tl_in_guest = 0;
	siglongjmp(*tl_jmp, 1);
}

static void install_fault_handler(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_host_fault;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
}

/* Idempotent; installs again if someone replaced the handler since. */
void cpu_install_fault_handler(void)
{
	struct sigaction cur;

	if (sigaction(SIGSEGV, NULL, &cur) == 0 && (cur.sa_flags & SA_SIGINFO) &&
	    cur.sa_sigaction == on_host_fault)
		return;
	install_fault_handler();
}
