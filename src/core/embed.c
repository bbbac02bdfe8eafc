/* The embedding API (include/sysgate.h, docs/api.md): stop and step,
 * registers and guest memory, and the hooks on system calls, instructions,
 * basic blocks and signals.
 *
 * Costs when unused: p->embed->syscall_enter etc. stay NULL (one test per
 * call), and the run loop calls cpu_run itself unless an instruction hook,
 * a block hook, the instruction trace or a stop/step is pending; only then
 * does it step one instruction at a time here (the "slow loop").
 */
#include <capstone/capstone.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "core/embed.h"
#include "cpu/cpu.h"
#include "mm/mm.h"
#include "syscall/syscall.h"
#include "trace/trace.h"

/* The guest thread whose hook is running on this host thread: sg_reg_* and
 * sg_mem_* inside a hook act on it. */
static __thread struct sg_thread *hook_thread;

static struct sg_embed *embed_of(sg_process *p)
{
	if (!p->embed)
		p->embed = calloc(1, sizeof(*p->embed));
	return p->embed;
}

static struct sg_thread *thread_for(sg_process *p)
{
	if (hook_thread && hook_thread->proc == p)
		return hook_thread;
	return p->main_thread;
}

static enum sg_abi abi_of_table(enum sg_table t)
{
	switch (t) {
	case SG_TABLE_IA32: return SG_ABI_I386;
	case SG_TABLE_X32: return SG_ABI_X32;
	default: return SG_ABI_X64;
	}
}

static void fill_info(struct sg_syscall_info *info, const struct sg_thread *t,
		      const struct sg_syscall_call *call)
{
	info->abi = abi_of_table(call->table);
	info->name = call->row ? call->row->name : NULL;
	info->nr = call->index;
	info->tid = t->tid;
	memcpy(info->args, call->args, sizeof(info->args));
	info->result = call->result;
}

/* --- hooks called by the other layers (through struct sg_embed) --------- */

static bool on_syscall_enter(struct sg_thread *t, struct sg_syscall_call *call)
{
	struct sg_embed *em = t->proc->embed;
	struct sg_thread *outer = hook_thread;
	struct sg_syscall_info info;
	enum sg_hook_action act;

	call->result = -ENOSYS;
	fill_info(&info, t, call);
	hook_thread = t;
	act = em->entry_fn(t->proc, &info, em->entry_user);
	hook_thread = outer;
	memcpy(call->args, info.args, sizeof(call->args));
	if (act != SG_HOOK_SKIP)
		return false;
	call->result = info.result;
	return true;
}

static void on_syscall_exit(struct sg_thread *t, struct sg_syscall_call *call)
{
	struct sg_embed *em = t->proc->embed;
	struct sg_thread *outer = hook_thread;
	struct sg_syscall_info info;

	fill_info(&info, t, call);
	hook_thread = t;
	em->exit_fn(t->proc, &info, em->exit_user);
	hook_thread = outer;
	call->result = info.result;
}

static bool on_signal(struct sg_thread *t, const siginfo_t *si)
{
	struct sg_embed *em = t->proc->embed;
	struct sg_thread *outer = hook_thread;
	enum sg_hook_action act;

	hook_thread = t;
	act = em->signal_fn(t->proc, t->tid, si->si_signo, em->signal_user);
	hook_thread = outer;
	return act == SG_HOOK_SKIP;
}

/* --- registering ----------------------------------------------------------- */

SG_API enum sg_err sg_hook_syscall_entry(sg_process *p, sg_syscall_hook fn, void *user)
{
	struct sg_embed *em = p ? embed_of(p) : NULL;

	if (!p)
		return SG_ERR_INVAL;
	if (!em)
		return SG_ERR_NOMEM;
	em->entry_fn = fn;
	em->entry_user = user;
	em->syscall_enter = fn ? on_syscall_enter : NULL;
	return SG_OK;
}

SG_API enum sg_err sg_hook_syscall_exit(sg_process *p, sg_syscall_hook fn, void *user)
{
	struct sg_embed *em = p ? embed_of(p) : NULL;

	if (!p)
		return SG_ERR_INVAL;
	if (!em)
		return SG_ERR_NOMEM;
	em->exit_fn = fn;
	em->exit_user = user;
	em->syscall_exit = fn ? on_syscall_exit : NULL;
	return SG_OK;
}

SG_API enum sg_err sg_hook_insn(sg_process *p, sg_code_hook fn, void *user)
{
	struct sg_embed *em = p ? embed_of(p) : NULL;

	if (!p)
		return SG_ERR_INVAL;
	if (!em)
		return SG_ERR_NOMEM;
	em->insn_fn = fn;
	em->insn_user = user;
	return SG_OK;
}

SG_API enum sg_err sg_hook_block(sg_process *p, sg_code_hook fn, void *user)
{
	struct sg_embed *em = p ? embed_of(p) : NULL;

	if (!p)
		return SG_ERR_INVAL;
	if (!em)
		return SG_ERR_NOMEM;
	em->block_fn = fn;
	em->block_user = user;
	return SG_OK;
}

SG_API enum sg_err sg_hook_signal(sg_process *p, sg_signal_hook fn, void *user)
{
	struct sg_embed *em = p ? embed_of(p) : NULL;

	if (!p)
		return SG_ERR_INVAL;
	if (!em)
		return SG_ERR_NOMEM;
	em->signal_fn = fn;
	em->signal_user = user;
	em->signal = fn ? on_signal : NULL;
	return SG_OK;
}

/* --- the slow loop ----------------------------------------------------------- */

/* Basic blocks for the block hook: an instruction starts one when it is
 * the first, a branch target, or follows a control transfer. Lengths and
 * kinds come from Capstone, cached per address (direct-mapped). */
#define BLOCK_CACHE 1024
static __thread struct {
	csh cs;
	int cs_mode;
	uint64_t pc[BLOCK_CACHE];
	uint8_t len[BLOCK_CACHE];
	bool ends[BLOCK_CACHE];
	uint64_t next;      /* where the current block continues; 0: none */
} blk;

static bool decode_for_block(struct sg_thread *t, uint64_t pc, unsigned *len,
			     bool *ends)
{
	unsigned slot = (unsigned)(pc ^ (pc >> 10)) % BLOCK_CACHE;
	int want = t->cpu.mode == CPU_MODE_64 ? CS_MODE_64 : CS_MODE_32;
	uint8_t bytes[15];
	size_t n = sizeof(bytes);
	cs_insn *in = NULL;

	if (blk.pc[slot] == pc && blk.len[slot]) {
		*len = blk.len[slot];
		*ends = blk.ends[slot];
		return true;
	}
	if (blk.cs_mode != want) {
		if (blk.cs_mode)
			cs_close(&blk.cs);
		blk.cs_mode = 0;
		if (cs_open(CS_ARCH_X86, want, &blk.cs) != CS_ERR_OK)
			return false;
		cs_option(blk.cs, CS_OPT_DETAIL, CS_OPT_ON);
		blk.cs_mode = want;
	}
	while (n && copy_from_guest(t->proc->mm, bytes, pc, n) != 0)
		n--;
	if (!n || cs_disasm(blk.cs, bytes, n, pc, 1, &in) != 1)
		return false;
	*len = in->size;
	*ends = cs_insn_group(blk.cs, in, CS_GRP_JUMP) ||
		cs_insn_group(blk.cs, in, CS_GRP_CALL) ||
		cs_insn_group(blk.cs, in, CS_GRP_RET) ||
		cs_insn_group(blk.cs, in, CS_GRP_INT) ||
		in->id == X86_INS_SYSCALL || in->id == X86_INS_SYSENTER;
	cs_free(in, 1);
	blk.pc[slot] = pc;
	blk.len[slot] = (uint8_t)*len;
	blk.ends[slot] = *ends;
	return true;
}

static void call_code_hooks(struct sg_thread *t, struct sg_embed *em, uint64_t pc)
{
	struct sg_thread *outer = hook_thread;

	hook_thread = t;
	if (em->block_fn) {
		unsigned len = 0;
		bool ends = true;
		bool starts = pc != blk.next;

		if (!decode_for_block(t, pc, &len, &ends))
			len = 0;
		blk.next = ends || !len ? 0 : pc + len;
		if (starts)
			em->block_fn(t->proc, pc, em->block_user);
	}
	if (em->insn_fn)
		em->insn_fn(t->proc, pc, em->insn_user);
	hook_thread = outer;
}

static bool wants_steps(const struct sg_process *p)
{
	const struct sg_embed *em = p->embed;

	return trace_wants_insns(p->trace) ||
	       (em && (em->insn_fn || em->block_fn || em->stepping ||
		       em->stop_requested || em->debug_steps));
}

enum cpu_stop_reason embed_cpu_run(struct sg_thread *t)
{
	struct sg_process *p = t->proc;
	struct sg_embed *em = p->embed;
	struct cpu *c = &t->cpu;

	if (!wants_steps(p))
		return cpu_run(c);
	for (;;) {
		uint64_t before[16], before_flags, pc;
		enum cpu_stop_reason r;

		if (em && em->stop_requested && t == p->main_thread) {
			em->stop_requested = 0;
			em->stopped = true;
			return CPU_STOP_REQUEST;
		}
		if (c->stop_requested)
			return cpu_run(c); /* answers the request at once */
		pc = c->mode == CPU_MODE_32 ? (uint32_t)c->rip : c->rip;
		if (em && em->debugger && em->debug_steps &&
		    em->debugger->before_insn(t, pc))
			return CPU_STOP_REQUEST; /* the debugger stops it here */
		if (em && (em->insn_fn || em->block_fn))
			call_code_hooks(t, em, pc);
		memcpy(before, c->r, sizeof(before));
		before_flags = cpu_get_rflags(c);
		r = cpu_step(c);
		if (r != CPU_STOP_FAULT && trace_wants_insns(p->trace))
			trace_insn(p->trace, t, pc, before, before_flags,
				   cpu_get_rflags(c));
		if (em && em->debugger && em->debug_steps &&
		    em->debugger->after_insn(t, pc))
			return r == CPU_STOP_NONE ? CPU_STOP_REQUEST : r;
		if (em && em->stepping && t == p->main_thread) {
			em->stepping = false;
			em->stopped = true;
			return r == CPU_STOP_NONE ? CPU_STOP_REQUEST : r;
		}
		if (r != CPU_STOP_NONE)
			return r;
		if (!wants_steps(p))
			return cpu_run(c); /* --trace-count reached: full speed */
	}
}

/* --- control ----------------------------------------------------------------- */

SG_API void sg_stop(sg_process *p)
{
	if (!p || !p->embed || !p->main_thread)
		return;
	p->embed->stop_requested = 1;
	cpu_request_stop(&p->main_thread->cpu);
}

SG_API enum sg_err sg_step(sg_process *p, struct sg_exit *status)
{
	struct sg_embed *em;
	enum sg_err err;

	if (!p || !p->loaded)
		return SG_ERR_STATE;
	if (p->exited) {
		if (status)
			*status = p->exit;
		return SG_ERR_STATE;
	}
	em = embed_of(p);
	if (!em)
		return SG_ERR_NOMEM;
	em->stepping = true;
	err = sg_run(p, status);
	em->stepping = false;
	if (err == SG_ERR_STOPPED)
		err = SG_OK;
	return err;
}

/* --- registers and memory ---------------------------------------------------- */

SG_API enum sg_err sg_reg_read(sg_process *p, enum sg_reg reg, uint64_t *value)
{
	struct sg_thread *t;
	uint64_t v;

	if (!p || !value || (unsigned)reg >= SG_REG__COUNT)
		return SG_ERR_INVAL;
	t = thread_for(p);
	if (!t)
		return SG_ERR_STATE;
	if (reg <= SG_REG_R15)
		v = t->cpu.r[reg];
	else if (reg == SG_REG_RIP)
		v = t->cpu.rip;
	else if (reg == SG_REG_RFLAGS)
		v = cpu_get_rflags(&t->cpu);
	else if (reg == SG_REG_FS_BASE)
		v = t->cpu.base[SEG_FS];
	else
		v = t->cpu.base[SEG_GS];
	*value = t->cpu.mode == CPU_MODE_32 ? (uint32_t)v : v;
	return SG_OK;
}

SG_API enum sg_err sg_reg_write(sg_process *p, enum sg_reg reg, uint64_t value)
{
	struct sg_thread *t;

	if (!p || (unsigned)reg >= SG_REG__COUNT)
		return SG_ERR_INVAL;
	t = thread_for(p);
	if (!t)
		return SG_ERR_STATE;
	if (t->cpu.mode == CPU_MODE_32)
		value = (uint32_t)value;
	if (reg <= SG_REG_R15)
		t->cpu.r[reg] = value;
	else if (reg == SG_REG_RIP)
		t->cpu.rip = value;
	else if (reg == SG_REG_RFLAGS)
		cpu_set_rflags(&t->cpu, value);
	else if (reg == SG_REG_FS_BASE)
		t->cpu.base[SEG_FS] = value;
	else
		t->cpu.base[SEG_GS] = value;
	return SG_OK;
}

SG_API enum sg_err sg_mem_read(sg_process *p, uint64_t addr, void *buf, size_t n)
{
	if (!p || (!buf && n))
		return SG_ERR_INVAL;
	if (!p->mm)
		return SG_ERR_STATE;
	return copy_from_guest(p->mm, buf, addr, n) == 0 ? SG_OK : SG_ERR_FAULT;
}

SG_API enum sg_err sg_mem_write(sg_process *p, uint64_t addr, const void *buf,
				size_t n)
{
	if (!p || (!buf && n))
		return SG_ERR_INVAL;
	if (!p->mm)
		return SG_ERR_STATE;
	if (copy_to_guest(p->mm, addr, buf, n) != 0) {
		/* read-only (code) pages: written through, as ptrace's
		 * POKETEXT does, then given their protection back */
		uint64_t lo = addr & ~(uint64_t)4095;
		uint64_t hi = (addr + n + 4095) & ~(uint64_t)4095;
		int prot = PROT_READ;

		if (!mm_access_ok(p->mm, addr, n, PROT_READ))
			return SG_ERR_FAULT;
		if (mm_access_ok(p->mm, addr, n, PROT_EXEC))
			prot |= PROT_EXEC;
		if (mprotect(g2h(lo), hi - lo, prot | PROT_WRITE) != 0)
			return SG_ERR_FAULT;
		memcpy(g2h(addr), buf, n);
		mprotect(g2h(lo), hi - lo, prot);
	}
	cpu_invalidate_code(addr, n); /* it may be code already decoded */
	return SG_OK;
}

SG_API enum sg_err sg_mem_read_string(sg_process *p, uint64_t addr, char *buf,
				      size_t size)
{
	long n;

	if (!p || !buf || !size)
		return SG_ERR_INVAL;
	if (!p->mm)
		return SG_ERR_STATE;
	n = strncpy_from_guest(p->mm, buf, addr, size);
	if (n == -ENAMETOOLONG)
		return SG_ERR_INVAL;
	return n < 0 ? SG_ERR_FAULT : SG_OK;
}
