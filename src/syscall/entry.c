/* System call entry: what the kernel's entry code does for each of the three
 * x86 mechanisms (DESIGN.md, Data flow step 4).
 *
 *   INT 0x80      i386 table, nr eax, args ebx ecx edx esi edi ebp (the low
 *                 32 bits, even from 64-bit code); result in rax as a long.
 *   SYSENTER      i386 table, args ebx ecx edx esi edi and the 32-bit word
 *                 at [ebp] (where __kernel_vsyscall saved ebp; ebp is also
 *                 the user stack pointer: esp = ebp); resumes at the vDSO
 *                 landing pad with ebp = that word.
 *   SYSCALL, 32   (AMD compat mode) i386 table, args ebx ebp edx esi edi and
 *                 the word at [esp]; resumes at the landing pad as well.
 *   SYSCALL, 64   nr is the low 32 bits of rax: below the x64 table's size
 *                 the x64 table, else with 0x40000000 set the x32 table
 *                 (nr minus the bit; systab_pick); args rdi rsi rdx r10 r8
 *                 r9.
 *
 * Numbers are compared unsigned, so nothing negative can index a table.
 * Unknown numbers, holes and unwritten handlers answer -ENOSYS.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include "syscall/internal.h"
#include "vdso/vdso.h"

#define RFLAGS_RF 0x10000ull

__thread const struct sg_syscall_call *sc_current;

/* One warning per unimplemented name, whatever the ABI. */
static pthread_mutex_t warn_lock = PTHREAD_MUTEX_INITIALIZER;
static const char *warned[256];
static unsigned nwarned;

static void warn_unimplemented(const struct sg_syscall_call *call)
{
	const char *name = call->row->name;
	bool seen = false;

	pthread_mutex_lock(&warn_lock);
	for (unsigned i = 0; i < nwarned && !seen; i++)
		seen = strcmp(warned[i], name) == 0;
	if (!seen && nwarned < ARRAY_SIZE(warned))
		warned[nwarned++] = name;
	pthread_mutex_unlock(&warn_lock);
	if (!seen)
		fprintf(stderr,
			"sysgate: warning: syscall %s (%s %llu) not implemented\n",
			name, sg_syscall_table(call->table)->abi_name,
			(unsigned long long)call->index);
}

/* The table and row for nr (systab_pick: the kernel's choice, shared with
 * the run loop's restart). */
static void pick(struct sg_syscall_call *call, bool i386_entry, uint32_t nr)
{
	struct systab_slot slot = systab_pick(i386_entry, nr);

	call->table = slot.table;
	call->index = slot.index;
	call->row = slot.row;
}

/* A vDSO function's private call that the real vDSO would make a system
 * call (an invalid or CPU-time clock): handled as that call, which the
 * trace then shows, as strace sees the real vDSO's fallback. */
static void vdso_fallback(struct sg_syscall_call *call)
{
	if (call->vdso_fn && call->row &&
	    vdso_call_enters_kernel(call->table == SG_TABLE_I386, (unsigned)call->index, call->args))
		call->vdso_fn = false;
}

/* The handler (fn NULL: the vDSO function's answer). A guest buffer
 * whose page lies past the end of its file faults with SIGBUS when sysgate
 * touches it: the call answers -EFAULT, as the kernel's copy does
 * (cpu_set_host_bus_recovery). */
static long guarded(struct sg_thread *t, struct sg_syscall_call *call, sg_syscall_fn fn)
{
	sigjmp_buf jb;
	long r;

	if (sigsetjmp(jb, 0))
		return -EFAULT;
	cpu_set_host_bus_recovery(&jb);
	r = fn ? fn(t, call->args)
	       : vdso_answer(sc_mm(t), call->table == SG_TABLE_I386, call->index,
			     call->args);
	cpu_set_host_bus_recovery(NULL);
	return r;
}

static void dispatch(struct sg_thread *t, struct sg_syscall_call *call)
{
	sg_syscall_fn fn = systab_row_fn(call->row);

	if (call->row && call->row->fd_args &&
	    sc_names_private_fd(call->row->fd_args, call->args)) {
		call->result = -EBADF; /* sysgate's own: not the guest's (hostfd.h) */
	} else if (fn) {
		const struct sg_syscall_call *outer = sc_current;
		unsigned mark = sc_buf_mark();

		sc_current = call;
		call->result = guarded(t, call, fn);
		sc_buf_release(t, mark);
		sc_current = outer;
	} else {
		const struct sg_task_group *g = sg_task(t)->group;
		long err = syscall_unsupported_errno(call->row);

		/* deliberately unsupported rows answer quietly; missing ones
		 * say so once per name under -v or --trace */
		if (call->row && !err && (g->opts.verbose || g->trace))
			warn_unimplemented(call);
		call->result = err ? err : -ENOSYS;
	}
}

void syscall_handle(struct sg_thread *t, struct sg_syscall_call *call)
{
	struct sg_task *k = sg_task(t);
	bool traced = k->sig.ptraced;

	if (call->vdso_fn) { /* no system call natively either */
		call->result = guarded(t, call, NULL);
		return;
	}
	/* a guest tracer's syscall stops (ptrace.c); none after a call that
	 * ended the thread or the process, as natively */
	if (traced)
		host_syscall0(SG_PTRACE_MARK_ENTER);
	dispatch(t, call);
	if (traced && k->sig.ptraced && !k->group->exiting && !k->gone)
		host_syscall0(SG_PTRACE_MARK_EXIT);
}

/* SYSENTER and 32-bit SYSCALL: the vDSO's fast path. */
static void vdso_syscall_32(struct sg_thread *t, struct sg_syscall_call *call,
			    syscall_run_fn run)
{
	struct sg_task *k = sg_task(t);
	struct cpu *cpu = &k->cpu;
	uint64_t landing;
	bool sysenter = call->mech == CPU_MECH_SYSENTER;
	uint32_t sp = (uint32_t)(sysenter ? cpu->r[R_BP] : cpu->r[R_SP]);
	uint32_t arg6;

	call->args[0] = (uint32_t)cpu->r[R_BX];
	call->args[1] = (uint32_t)(sysenter ? cpu->r[R_CX] : cpu->r[R_BP]);
	call->args[2] = (uint32_t)cpu->r[R_DX];
	call->args[3] = (uint32_t)cpu->r[R_SI];
	call->args[4] = (uint32_t)cpu->r[R_DI];

	if (!k->group->vdso.sysenter_return) {
		/* No vDSO, no landing pad: a real kernel would return to a
		 * garbage address. We refuse the call instead and resume
		 * after the instruction with the registers untouched. */
		call->result = -ENOSYS;
		return;
	}
	if (copy_from_guest(sc_mm(t), &arg6, sp, sizeof(arg6)) == 0) {
		call->args[5] = arg6;
		run(t, call);
		cpu->r[R_BP] = arg6;
	} else {
		/* The kernel gives up before tracing or dispatching. */
		call->result = -EFAULT;
	}
	if (sysenter)
		cpu->r[R_SP] = sp;
	/* read after the call: an mremap of the vDSO moved the landing pad
	 * (the kernel's vdso_fix_landing) */
	landing = k->group->vdso.sysenter_return;
	cpu->rip = landing;
	if (sysenter && cpu->mode == CPU_MODE_64) {
		/* SYSENTER from 64-bit code (Intel; AMD: #UD): the kernel
		 * takes it as a compat call and returns to the 32-bit landing
		 * pad's offset in this process's vDSO, in compatibility mode
		 * (the kernel's single_step_syscall selftest) */
		cpu_far_jump(cpu, 0x23, landing);
		return;
	}
	if (cpu->mode == CPU_MODE_32) {
		/* returned through SYSRETL: ecx = eip, r11 = eflags */
		cpu->r[R_CX] = (uint32_t)landing;
		cpu->r[R_R11] = cpu_get_rflags(cpu) & ~RFLAGS_RF;
	}
}

struct systab_slot syscall_entry(struct sg_thread *t, syscall_run_fn run)
{
	struct sg_task *k = sg_task(t);
	struct cpu *cpu = &k->cpu;
	struct sg_syscall_call call;
	enum cpu_syscall_mech mech = cpu->mech;

	if (!run)
		run = syscall_handle;
	memset(&call, 0, sizeof(call));
	call.mech = mech;
	/* the vDSO's time functions call in through one instruction of
	 * their own (docs/loader.md, vDSO) */
	call.vdso_fn = k->group->vdso.private_return &&
		       cpu->rip == k->group->vdso.private_return &&
		       mech != CPU_MECH_SYSENTER;

	if (mech == CPU_MECH_SYSCALL && cpu->mode == CPU_MODE_64) {
		uint32_t nr = (uint32_t)cpu->r[R_AX];

		/* RCX and R11 hold what the SYSCALL instruction left there
		 * (the CPU's op_syscall), which the kernel's SYSRET returns */
		call.nr = nr;
		pick(&call, false, nr);
		call.args[0] = cpu->r[R_DI];
		call.args[1] = cpu->r[R_SI];
		call.args[2] = cpu->r[R_DX];
		call.args[3] = cpu->r[R_R10];
		call.args[4] = cpu->r[R_R8];
		call.args[5] = cpu->r[R_R9];
		vdso_fallback(&call);
		run(t, &call);
	} else {
		uint32_t nr = (uint32_t)cpu->r[R_AX];

		call.nr = nr;
		pick(&call, true, nr);
		if (mech == CPU_MECH_INT80) {
			call.args[0] = (uint32_t)cpu->r[R_BX];
			call.args[1] = (uint32_t)cpu->r[R_CX];
			call.args[2] = (uint32_t)cpu->r[R_DX];
			call.args[3] = (uint32_t)cpu->r[R_SI];
			call.args[4] = (uint32_t)cpu->r[R_DI];
			call.args[5] = (uint32_t)cpu->r[R_BP];
			vdso_fallback(&call);
			run(t, &call);
		} else {
			call.vdso = true;
			vdso_syscall_32(t, &call, run);
		}
	}

	if (cpu->mode == CPU_MODE_64)
		cpu->r[R_AX] = (uint64_t)call.result;
	else
		cpu->r[R_AX] = (uint32_t)call.result;
	return (struct systab_slot){ .table = call.table, .index = (unsigned)call.index,
				     .row = call.row };
}
