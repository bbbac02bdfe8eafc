/* Control transfer: JMP, CALL, RET, ENTER, LEAVE, and the instructions that
 * leave the interpreter: SYSCALL, SYSENTER, INT n, INT3, INTO; privileged
 * and timing instructions (group 7, RDTSC, RDTSCP, CPUID, fences). */
#include <x86intrin.h>
#include "cpu/cache.h"
#include "cpu/ops.h"

void op_jmp_Jz(struct cpu *c, const struct insn *i)
{
	jump_to(c, i, c->rip + insn_imm(i));
}

void op_call_Jz(struct cpu *c, const struct insn *i)
{
	push(c, insn_cold(i)->osz, c->rip);
	jump_to(c, i, c->rip + insn_imm(i));
}

void op_jmp_Ev(struct cpu *c, const struct insn *i)
{
	jump_to(c, i, rm_read(c, i, insn_cold(i)->osz));
}

void op_call_Ev(struct cpu *c, const struct insn *i)
{
	uint64_t target = rm_read(c, i, insn_cold(i)->osz);

	push(c, insn_cold(i)->osz, c->rip);
	jump_to(c, i, target);
}

void op_ret(struct cpu *c, const struct insn *i)
{
	jump_to(c, i, pop(c, insn_cold(i)->osz));
}

void op_ret_Iw(struct cpu *c, const struct insn *i)
{
	uint64_t target = pop(c, insn_cold(i)->osz);

	if (c->mode == CPU_MODE_64)
		c->r[R_SP] += insn_imm(i);
	else
		reg_set(c, R_SP, 4, c->r[R_SP] + insn_imm(i));
	jump_to(c, i, target);
}

static void set_sp(struct cpu *c, uint64_t v)
{
	if (c->mode == CPU_MODE_64)
		c->r[R_SP] = v;
	else
		reg_set(c, R_SP, 4, v);
}

/* ENTER: the frame is written first, then the new stack top is probed;
 * a fault there leaves RSP and RBP unchanged (as the host does). */
void op_enter(struct cpu *c, const struct insn *i)
{
	unsigned sz = insn_cold(i)->osz, level = insn_cold(i)->imm2 & 31;
	uint64_t sp = c->r[R_SP] - sz, bp = c->r[R_BP], frame, top;

	mem_write(stack_addr(c, sp), sz, reg_get(c, R_BP, sz));
	frame = sp;
	for (unsigned k = 1; k < level; k++) {
		bp -= sz;
		sp -= sz;
		mem_write(stack_addr(c, sp), sz, mem_read(stack_addr(c, bp), sz));
	}
	if (level) {
		sp -= sz;
		mem_write(stack_addr(c, sp), sz, frame);
	}
	top = stack_addr(c, sp - insn_imm(i));
	mem_write(top, 1, mem_read(top, 1));
	reg_set(c, R_BP, sz, frame);
	set_sp(c, sp - insn_imm(i));
}

/* rSP = rBP, then pop rBP (stack width by mode, rBP width by operand size). */
void op_leave(struct cpu *c, const struct insn *i)
{
	uint64_t sp = c->mode == CPU_MODE_64 ? c->r[R_BP] : (uint32_t)c->r[R_BP];
	uint64_t v = mem_read(sp, insn_cold(i)->osz);

	set_sp(c, sp + insn_cold(i)->osz);
	reg_set(c, R_BP, insn_cold(i)->osz, v);
}

/* ---- far transfers ----
 * Ring 3 can far-jump, call and return between its own code segments: the
 * kernel's user32 (0x23, 32-bit mode) and user64 (0x33, 64-bit mode) CS.
 * Any other selector is #GP. A mode switch drops the decoded code, which
 * depends on the mode (rare: WoW64-style thunks). */
#define USER32_CS 0x23
#define USER64_CS 0x33

static bool far_to(struct cpu *c, uint16_t cs, uint64_t ip)
{
	enum cpu_mode m;

	if ((cs | 3) == USER32_CS)
		m = CPU_MODE_32;
	else if ((cs | 3) == USER64_CS)
		m = CPU_MODE_64;
	else
		return false;
	c->sel[SEG_CS] = (uint16_t)(cs | 3);
	c->rip = m == CPU_MODE_32 ? (uint32_t)ip : ip;
	if (m != c->mode) {
		c->mode = m;
		c->amask = cpu_mode_amask(m);
		cache_free(c); /* the handler's own insn goes too: callers are done with it */
		c->code_dirty = 1; /* the run loop must not read that insn again */
	}
	return true;
}

bool cpu_far_jump(struct cpu *c, uint16_t cs, uint64_t ip)
{
	return far_to(c, cs, ip);
}

static void far_call(struct cpu *c, const struct insn *i, uint16_t cs, uint64_t ip)
{
	unsigned sz = insn_cold(i)->osz;
	uint64_t sp = c->r[R_SP], ret = c->rip;
	uint16_t old_cs = c->sel[SEG_CS];

	if ((cs | 3) != USER32_CS && (cs | 3) != USER64_CS) {
		cpu_raise(c, VEC_GP);
		return;
	}
	push(c, sz, old_cs);
	push(c, sz, ret);
	if (!far_to(c, cs, ip)) {
		c->r[R_SP] = sp;
		cpu_raise(c, VEC_GP);
	}
}

static void far_jump(struct cpu *c, uint16_t cs, uint64_t ip)
{
	if (!far_to(c, cs, ip))
		cpu_raise(c, VEC_GP);
}

void op_callf_Ap(struct cpu *c, const struct insn *i)
{
	far_call(c, i, insn_cold(i)->imm2, insn_imm(i) & size_mask(insn_cold(i)->osz));
}

void op_jmpf_Ap(struct cpu *c, const struct insn *i)
{
	far_jump(c, insn_cold(i)->imm2, insn_imm(i) & size_mask(insn_cold(i)->osz));
}

/* FF /3, FF /5: m16:16, m16:32, m16:64 (REX.W) */
void op_callf_Mp(struct cpu *c, const struct insn *i)
{
	uint64_t ea = insn_ea(c, i);
	uint64_t ip = mem_read(ea, insn_cold(i)->osz);

	far_call(c, i, (uint16_t)mem_read(ea + insn_cold(i)->osz, 2), ip);
}

void op_jmpf_Mp(struct cpu *c, const struct insn *i)
{
	uint64_t ea = insn_ea(c, i);
	uint64_t ip = mem_read(ea, insn_cold(i)->osz);

	far_jump(c, (uint16_t)mem_read(ea + insn_cold(i)->osz, 2), ip);
}

/* RETF [imm16]: pop IP, pop CS (operand-size slots), release imm16 bytes. */
void op_retf(struct cpu *c, const struct insn *i)
{
	uint64_t sp = c->r[R_SP], release = insn_imm(i);
	uint64_t ip = pop(c, insn_cold(i)->osz);
	uint16_t cs = (uint16_t)pop(c, insn_cold(i)->osz);

	if ((cs & 3) != 3 || !far_to(c, cs, ip)) {
		c->r[R_SP] = sp;
		cpu_raise(c, VEC_GP);
		return;
	}
	set_sp(c, c->r[R_SP] + release);
}

/* IRET at CPL 3 to CPL 3: IP, CS, FLAGS; in 64-bit mode also RSP and SS. */
void op_iret(struct cpu *c, const struct insn *i)
{
	unsigned sz = insn_cold(i)->osz;
	bool m64 = c->mode == CPU_MODE_64;
	uint64_t sp = c->r[R_SP], ip, fl, nsp = 0;
	uint16_t cs, ss = 0;

	ip = pop(c, sz);
	cs = (uint16_t)pop(c, sz);
	fl = pop(c, sz);
	if (m64) {
		nsp = pop(c, sz);
		ss = (uint16_t)pop(c, sz);
	}
	if ((cs & 3) != 3 || (m64 && cpu_load_segment(c, SEG_SS, ss) < 0) ||
	    !far_to(c, cs, ip)) {
		c->r[R_SP] = sp;
		cpu_raise(c, VEC_GP);
		return;
	}
	flags_load_user(c, fl, sz);
	if (m64)
		c->r[R_SP] = sz == 8 ? nsp : (sz == 4 ? (uint32_t)nsp : (uint16_t)nsp);
}

/* ---- leaving the interpreter ---- */

static void stop_syscall(struct cpu *c, enum cpu_syscall_mech mech)
{
	/* Materialise the flags once: the entry reads RFLAGS (R11 for
	 * SYSCALL, the signal frame...), each cpu_get_rflags is then a load. */
	c->lf.rf = flags_get(c);
	c->lf.op = FL_NONE;
	c->stop = CPU_STOP_SYSCALL;
	c->mech = mech;
}

/* Traps (#BP, #OF) report the address after the instruction in rip. */
static void trap(struct cpu *c, enum cpu_vector vec)
{
	uint64_t next = c->rip;

	cpu_raise(c, vec);
	c->rip = next;
}

void op_syscall(struct cpu *c, const struct insn *i)
{
	if (c->mode != CPU_MODE_64) {
		op_ud(c, i); /* Intel: SYSCALL outside 64-bit mode is #UD */
		return;
	}
	stop_syscall(c, CPU_MECH_SYSCALL); /* flags materialised there */
	c->r[R_CX] = c->rip;
	c->r[R_R11] = cpu_get_rflags(c) & ~0x10000ull; /* RF reads as 0 */
}

void op_sysenter(struct cpu *c, const struct insn *i)
{
	stop_syscall(c, CPU_MECH_SYSENTER);
}

/* INT1 (F1, ICEBP): a debug trap, SIGTRAP in Linux. */
void op_int1(struct cpu *c, const struct insn *i)
{
	trap(c, VEC_DB);
}

/* BOUND Gv, Ma: #BR unless lower <= index <= upper (signed). */
void op_bound_GvMa(struct cpu *c, const struct insn *i)
{
	unsigned sz = insn_cold(i)->osz;
	uint64_t ea = insn_ea(c, i);
	int64_t v = (int64_t)sign_extend(greg_get(c, i, sz), sz);

	/* Intel checks the lower bound before it reads the upper one (AMD
	 * reads both first: docs/cpu.md, vendor differences) */
	if (v < (int64_t)sign_extend(mem_read(ea, sz), sz) ||
	    v > (int64_t)sign_extend(mem_read(ea + sz, sz), sz))
		cpu_raise(c, VEC_BR);
}

void op_int3(struct cpu *c, const struct insn *i)
{
	trap(c, VEC_BP);
}

/* INT n: vectors 3 and 4 have user-callable gates; 0x80 is the system call
 * gate; every other gate has DPL 0, so ring 3 gets #GP. */
void op_int_Ib(struct cpu *c, const struct insn *i)
{
	switch (insn_imm(i)) {
	case 0x80: stop_syscall(c, CPU_MECH_INT80); break;
	case 3: trap(c, VEC_BP); break;
	case 4: trap(c, VEC_OF); break;
	default: cpu_raise(c, VEC_GP); break;
	}
}

void op_into(struct cpu *c, const struct insn *i)
{
	if (flags_get(c) & FL_OF)
		trap(c, VEC_OF);
}

/* ---- system and timing ---- */

void op_rdtsc(struct cpu *c, const struct insn *i)
{
	uint64_t t;

	if (c->tsc_disabled) {
		cpu_raise(c, VEC_GP);
		return;
	}
	t = __rdtsc();
	reg_set(c, R_AX, 4, t);
	reg_set(c, R_DX, 4, t >> 32);
}

/* 0F 01: only RDTSCP (F9) is for user mode; XGETBV is #UD while CPUID
 * reports no OSXSAVE; the rest are system-table instructions (#GP, as with
 * UMIP) or MONITOR/MWAIT-like forms (#UD). */
void op_grp7(struct cpu *c, const struct insn *i)
{
	const struct insn_cold *ic = insn_cold(i);
	unsigned aux;
	uint64_t t;

	if (ic->modrm == 0xf9) {
		if (c->tsc_disabled) {
			cpu_raise(c, VEC_GP);
			return;
		}
		t = __rdtscp(&aux);
		reg_set(c, R_AX, 4, t);
		reg_set(c, R_DX, 4, t >> 32);
		reg_set(c, R_CX, 4, aux);
		return;
	}
	if (ic->modrm == 0xd0) {
		op_xgetbv(c, i);
		return;
	}
	if (ic->modrm == 0xd1) { /* XSETBV: #GP at CPL 3; with 66/F2/F3 #UD */
		if (ic->pfx & (PFX_OSZ | PFX_REP | PFX_REPNE))
			op_ud(c, i);
		else
			cpu_raise(c, VEC_GP);
		return;
	}
	if (ic->modrm == 0xf8 && c->mode != CPU_MODE_64) { /* SWAPGS */
		op_ud(c, i);
		return;
	}
	if (ic->mod == 3 && (ic->modrm & 0x38) != 0x38 && (ic->modrm & 0x38) != 0x20 &&
	    (ic->modrm & 0x38) != 0x30)
		op_ud(c, i);
	else
		cpu_raise(c, VEC_GP);
}

/* MOV to/from CR/DR: a register that does not exist is #UD (checked
 * first, as the host does), any other is #GP at CPL 3. */
void op_mov_crdr(struct cpu *c, const struct insn *i)
{
	bool cr = !(insn_cold(i)->op & 1);
	unsigned n = i->reg;

	if (cr ? !(n == 0 || n == 2 || n == 3 || n == 4 || n == 8) : n > 7)
		op_ud(c, i);
	else
		cpu_raise(c, VEC_GP);
}

void op_cpuid(struct cpu *c, const struct insn *i)
{
	uint32_t out[4];

	cpu_cpuid((uint32_t)c->r[R_AX], (uint32_t)c->r[R_CX], out);
	reg_set(c, R_AX, 4, out[0]);
	reg_set(c, R_BX, 4, out[1]);
	reg_set(c, R_CX, 4, out[2]);
	reg_set(c, R_DX, 4, out[3]);
}

void op_fence(struct cpu *c, const struct insn *i)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

/* ---- fast forms, chosen at decode time (control_specialise) ----
 * Near JMP/CALL (relative and indirect) and RET with the mode's operand
 * size (no 66): the relative targets chain (cache.h, exec_rel_target). */
static const struct insn *fast_jmp_rel64(struct cpu *c, const struct insn *i)
{
	return exec_rel_target_from(c, i, false, 0, ~0ull);
}

static const struct insn *fast_jmp_rel32(struct cpu *c, const struct insn *i)
{
	return exec_rel_target_from(c, i, false, 0, 0xffffffffull);
}

/* The return address is the fall-through the target's check needs on
 * another page (98% of Perl's CALLs): computed once. */
static const struct insn *fast_call_rel64(struct cpu *c, const struct insn *i)
{
	c->cur = i; /* before it can fault (insn_ea_fast) */
	uint64_t sp = c->r[R_SP] - 8, next;

	EXEC_STORE_OR_GENERIC(c, i, sp, 8);
	next = insn_return_addr(i);
	mem_write_nocheck(sp, 8, next);
	c->r[R_SP] = sp;
	return exec_rel_target_from(c, i, true, next, ~0ull);
}

static const struct insn *fast_call_rel32(struct cpu *c, const struct insn *i)
{
	c->cur = i; /* before it can fault (insn_ea_fast) */
	uint32_t sp = (uint32_t)c->r[R_SP] - 4;
	uint64_t next;

	EXEC_STORE_OR_GENERIC(c, i, sp, 4);
	next = insn_return_addr(i);
	mem_write_nocheck(sp, 4, (uint32_t)next);
	c->r[R_SP] = sp;
	return exec_rel_target_from(c, i, true, next, 0xffffffffull);
}

static const struct insn *fast_ret64(struct cpu *c, const struct insn *i)
{
	return exec_ret_near(c, i, true);
}

static const struct insn *fast_ret32(struct cpu *c, const struct insn *i)
{
	return exec_ret_near(c, i, false);
}

/* An indirect CALL site that has had two targets (a miss of its kept
 * target while it kept one: Perl's op dispatch `call *0x10(%rax)`, whose
 * kept target misses 84% of its runs) becomes its polymorphic form,
 * which goes straight to the cache's table of targets (cache.h,
 * exec_indirect) and keeps nothing: no compare with a kept target that
 * mostly misses, no store of the new one into the pool on every miss
 * (Perl's op dispatch 40 -> 31 host instructions). After a fork the
 * switch waits as a kept target's store does (cpu_kept_quiet). Not for
 * indirect JMPs: Perl's hit their kept target all but now and then, and
 * so turned cost them 14 host instructions a run instead of 9. */
static inline __attribute__((always_inline)) const struct insn *
indirect_poly(struct cpu *c, const struct insn *i, uint64_t target)
{
	const struct insn *t = c->cache->targets[target_slot(target)];

	if (__builtin_expect(insn_cold(t)->addr == target, 1))
		return exec_branch(c, t);
	return exec_indirect_lookup(c, i, target);
}

static void mov_call_fuse(struct cpu *c, const struct insn *i, insn_exec poly);

static __attribute__((noinline)) const struct insn *
indirect_turn_poly(struct cpu *c, const struct insn *i, uint64_t target, insn_exec poly)
{
	uint32_t quiet = __atomic_load_n(&cpu_kept_quiet, __ATOMIC_RELAXED);

	if (quiet == 0) {
		((struct insn *)i)->exec = poly;
		mov_call_fuse(c, i, poly);
	}
	else /* threads may race here: a miscount is harmless */
		__atomic_store_n(&cpu_kept_quiet, quiet - 1, __ATOMIC_RELAXED);
	return indirect_poly(c, i, target);
}

/* A site's target: poly NULL for the polymorphic form itself, else
 * that form, for the site's kept-target form to turn into. */
static inline __attribute__((always_inline)) const struct insn *
indirect_site(struct cpu *c, const struct insn *i, uint64_t target, insn_exec poly, bool in_v)
{
	const struct insn *kept;

	if (!poly)
		return indirect_poly(c, i, target);
	kept = insn_kept(i, in_v);
	if (__builtin_expect(insn_cold(kept)->addr == target, 1))
		return exec_branch(c, kept);
	if (!insn_kept_none(i, in_v))
		return indirect_turn_poly(c, i, target, poly);
	return exec_indirect(c, i, target, in_v);
}

/* Indirect CALL/JMP through a register, or through memory in the four
 * address shapes (insn.h, EA_SHAPES: Perl's op dispatch `call
 * *0x10(%rax)` is base + disp through a flat segment); the target is read
 * before the push (`call *(%rsp)` reads the old top). */
static inline __attribute__((always_inline)) const struct insn *
call_ind64(struct cpu *c, const struct insn *i, uint64_t target, insn_exec poly, bool in_v)
{
	uint64_t sp = c->r[R_SP] - 8;

	EXEC_STORE_OR_GENERIC(c, i, sp, 8);
	mem_write_nocheck(sp, 8, insn_return_addr(i));
	c->r[R_SP] = sp;
	return indirect_site(c, i, target, poly, in_v);
}

static inline __attribute__((always_inline)) const struct insn *
call_ind32(struct cpu *c, const struct insn *i, uint32_t target, insn_exec poly, bool in_v)
{
	uint32_t sp = (uint32_t)c->r[R_SP] - 4;

	EXEC_STORE_OR_GENERIC(c, i, sp, 4);
	mem_write_nocheck(sp, 4, (uint32_t)insn_return_addr(i));
	c->r[R_SP] = sp;
	return indirect_site(c, i, target, poly, in_v);
}

/* Each CALL form NAME with its body: the polymorphic form NAME_poly,
 * then the kept-target form NAME, which may turn into it. */
#define INDIRECT_FORM(NAME, BODY)                                                             \
	static const struct insn *NAME##_poly(struct cpu *c, const struct insn *i)            \
	{                                                                                     \
		const insn_exec poly = NULL;                                                  \
		BODY;                                                                         \
	}                                                                                     \
	static const struct insn *NAME(struct cpu *c, const struct insn *i)                   \
	{                                                                                     \
		const insn_exec poly = NAME##_poly;                                           \
		BODY;                                                                         \
	}
static const struct insn *fast_jmp_ind64(struct cpu *c, const struct insn *i)
{
	return exec_indirect(c, i, c->r[i->rm], true);
}

static const struct insn *fast_jmp_ind32(struct cpu *c, const struct insn *i)
{
	return exec_indirect(c, i, (uint32_t)c->r[i->rm], true);
}

/* cur first: before the store can fault */
INDIRECT_FORM(fast_call_ind64, c->cur = i; return call_ind64(c, i, c->r[i->rm], poly, true))
INDIRECT_FORM(fast_call_ind32, c->cur = i; return call_ind32(c, i, (uint32_t)c->r[i->rm], poly, true))

/* the memory forms: EA names the instruction in cpu.cur first */
#define INDIRECT_MEM_FORMS(_, SH, EA)                                                            \
	static const struct insn *fast_jmp_ind64_m##SH(struct cpu *c, const struct insn *i)       \
	{                                                                                        \
		return exec_indirect(c, i, mem_read_fast(EA(c, i), 8), false);                   \
	}                                                                                        \
	static const struct insn *fast_jmp_ind32_m##SH(struct cpu *c, const struct insn *i)       \
	{                                                                                        \
		return exec_indirect(c, i, (uint32_t)mem_read_fast(EA(c, i), 4), false);         \
	}                                                                                        \
	INDIRECT_FORM(fast_call_ind64_m##SH, return call_ind64(c, i, mem_read_fast(EA(c, i), 8), poly, false)) \
	INDIRECT_FORM(fast_call_ind32_m##SH,                                                     \
		      return call_ind32(c, i, (uint32_t)mem_read_fast(EA(c, i), 4), poly, false))
EA_SHAPES(INDIRECT_MEM_FORMS, indirect)

/* MOV r64, r64 and the polymorphic indirect CALL after it (64-bit mode)
 * as one handler, the MOV's entry: a call's argument moved into place
 * (Perl's op dispatch `mov %rbx,%rdi; call *0x10(%rax)`, 720 k runs per
 * compute.pl 40000) dispatches once. Only a polymorphic site: its form
 * is final (a kept-target form may still turn), so the MOV's entry turns
 * with it (mov_call_fuse). The MOV is done first, then the CALL as its
 * own form: a fault in the CALL has cur naming it, the MOV done. A jump
 * to the CALL runs its own entry. */
#define MOV_CALL_FORM(NAME, BODY)                                                        \
	static const struct insn *mov_##NAME##_poly(struct cpu *c, const struct insn *m) \
	{                                                                                \
		const struct insn *i = m + 1;                                            \
		const insn_exec poly = NULL;                                             \
		c->r[m->rm] = c->r[m->reg];                                              \
		BODY;                                                                    \
	}
MOV_CALL_FORM(fast_call_ind64, c->cur = i; return call_ind64(c, i, c->r[i->rm], poly, true))
#define MOV_CALL_MEM_FORM(_, SH, EA) \
	MOV_CALL_FORM(fast_call_ind64_m##SH, return call_ind64(c, i, mem_read_fast(EA(c, i), 8), poly, false))
EA_SHAPES(MOV_CALL_MEM_FORM, mov_call)

const struct insn *control_mov_call_m64_f64_poly(struct cpu *c, const struct insn *m)
{
	return mov_fast_call_ind64_m_f64_poly(c, m);
}

/* MOV r32, [ESP + disp] and the indirect CALL of that register right
 * after it (32-bit mode: gcc -m32 loads a function pointer kept in a
 * stack slot, then "call *%eax": glibc's msort calling qsort's
 * comparison) as one handler, the MOV's entry (control_load_call_decoded);
 * the CALL's kept target and its polymorphic form as the CALL's own
 * (mov_call_fuse turns this entry with the CALL's). The load first, cur
 * naming the MOV; then the CALL with cur naming it: a fault in its push
 * has the MOV done. A jump to the CALL runs its own entry. */
#define LOAD_CALL_FORM(NAME, POLY)                                                      \
	static const struct insn *NAME(struct cpu *c, const struct insn *m)              \
	{                                                                                \
		const struct insn *i = m + 1;                                            \
		const insn_exec poly = POLY;                                             \
		uint32_t target = (uint32_t)mem_read_fast(insn_ea_sp32(c, m), 4);        \
		c->r[m->reg] = target;                                                   \
		c->cur = i;                                                              \
		return call_ind32(c, i, target, poly, true);                             \
	}
LOAD_CALL_FORM(load_sp32_call_ind32_poly, NULL)
LOAD_CALL_FORM(load_sp32_call_ind32, fast_call_ind32_poly)

void control_load_call_decoded(struct insn *pool, uint32_t n)
{
	struct insn *m, *i = &pool[n - 1];

	if (n < 2 || i->exec != fast_call_ind32)
		return;
	m = &pool[n - 2];
	if (insn_cold(m)->seq && move_is_load32_sp32(m) && m->reg == i->rm)
		m->exec = load_sp32_call_ind32;
}

/* When the CALL site i turns polymorphic (poly its form now): the MOV r64,
 * r64 decoded right before it (3 bytes; its slot names the entry before
 * i, whose fall-through i is) takes the fused form. */
static void mov_call_fuse(struct cpu *c, const struct insn *i, insn_exec poly)
{
	static const struct {
		insn_exec poly, fused;
	} forms[] = {
		{ fast_call_ind64_poly, mov_fast_call_ind64_poly },
#define MOV_CALL_ROW(_, SH, EA) { fast_call_ind64_m##SH##_poly, mov_fast_call_ind64_m##SH##_poly },
		EA_SHAPES(MOV_CALL_ROW, mov_call)
#undef MOV_CALL_ROW
	};
	uint64_t addr = insn_cold(i)->addr;
	unsigned off = (unsigned)(addr & (CODE_PAGE_SIZE - 1)), s;
	const struct code_page *pg;
	insn_exec fused = NULL;

	for (unsigned k = 0; k < sizeof(forms) / sizeof(forms[0]); k++)
		if (forms[k].poly == poly)
			fused = forms[k].fused;
	if (poly == fast_call_ind32_poly) { /* a MOV load through ESP: 4 or 7 bytes */
		for (unsigned len = 4; len <= 7; len += 3) {
			pg = off >= len ? cache_page(c, addr - off) : NULL;
			s = pg ? code_slot(pg, off - len) : 0;
			if (s && &pg->pool[s - 1] == i - 1 && (i - 1)->exec == load_sp32_call_ind32)
				((struct insn *)(i - 1))->exec = load_sp32_call_ind32_poly;
		}
		return;
	}
	if (!fused || off < 3)
		return;
	pg = cache_page(c, addr - off);
	s = code_slot(pg, off - 3);
	if (!s || &pg->pool[s - 1] != i - 1 || !insn_cold(i - 1)->seq || !move_is_mov_rr64(i - 1))
		return;
	((struct insn *)(i - 1))->exec = fused;
	/* the CALL's return address on the page: Perl's run loop stores,
	 * tests and jumps back to the MOV there */
	off += insn_cold(i)->len;
	if (fused == mov_fast_call_ind64_m_f64_poly && off < CODE_PAGE_SIZE && (s = code_slot(pg, off)))
		fuse_store_test_loop_call(&pg->pool[s - 1], i - 1);
}

bool control_fast_ret(const struct insn *i, bool m64)
{
	return i->exec == (m64 ? fast_ret64 : fast_ret32);
}

void control_specialise(struct insn *i, bool m64)
{
	const struct insn_cold *ic = insn_cold(i);
	if (ic->osz != (m64 ? 8 : 4))
		return;
	if (ic->fn == op_jmp_Jz || ic->fn == op_call_Jz) {
		insn_cold(i)->chains = 1;
		i->v = INSN_LINK_SELF_TAGGED;
	}
	if (ic->fn == op_jmp_Jz)
		i->exec = m64 ? fast_jmp_rel64 : fast_jmp_rel32;
	else if (ic->fn == op_call_Jz)
		i->exec = m64 ? fast_call_rel64 : fast_call_rel32;
	else if (ic->fn == op_ret)
		i->exec = m64 ? fast_ret64 : fast_ret32;
	else if (ic->fn == op_jmp_Ev && ic->mod == 3)
		i->exec = m64 ? fast_jmp_ind64 : fast_jmp_ind32;
	else if (ic->fn == op_jmp_Ev)
		i->exec = m64 ? EA_PICK(i, fast_jmp_ind64_m) : EA_PICK(i, fast_jmp_ind32_m);
	else if (ic->fn == op_call_Ev && ic->mod == 3)
		i->exec = m64 ? fast_call_ind64 : fast_call_ind32;
	else if (ic->fn == op_call_Ev)
		i->exec = m64 ? EA_PICK(i, fast_call_ind64_m) : EA_PICK(i, fast_call_ind32_m);
	else
		return;
	if (ic->fn != op_jmp_Jz && ic->fn != op_call_Jz) { /* the indirect ones and RET */
		if (ic->mod == 3) /* kept in v (cache.h, insn_kept) */
			i->v = INSN_LINK_SELF;
		else
			insn_imm(i) = (uint64_t)(uintptr_t)insn_no_target;
	}
}
