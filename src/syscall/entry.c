/* System call entry: what the kernel's entry code does for each of the
 * three x86 mechanisms (DESIGN.md, Data flow step 4). Which registers hold
 * the number and the arguments per instruction, and what the return
 * leaves in them, is the CPU's (cpu.h, System call registers); here:
 *
 *   INT 0x80      the i386 table.
 *   SYSENTER,     (the latter AMD's compat mode) the i386 table; the sixth
 *   SYSCALL, 32   argument is the 32-bit word at the user stack pointer
 *                 (where __kernel_vsyscall saved ebp), read through mm;
 *                 resumes at the vDSO landing pad with ebp = that word.
 *   SYSCALL, 64   nr is the low 32 bits of rax: below the x64 table's size
 *                 the x64 table, else with 0x40000000 set the x32 table
 *                 (nr minus the bit; systab_pick).
 *
 * Numbers are compared unsigned, so nothing negative can index a table.
 * Unknown numbers, holes and unwritten handlers answer -ENOSYS.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include "cpu/syscall_regs.h"
#include "syscall/internal.h"
#include "vdso/vdso.h"

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

/* SYSENTER and 32-bit SYSCALL: the vDSO's fast path. The sixth argument
 * is the word __kernel_vsyscall saved EBP as, on the user stack: the
 * kernel's entry code reads it (through mm, as its get_user), the CPU
 * says where it is and makes the return (cpu_syscall_return_fast32). */
static void vdso_syscall_32(struct sg_thread *t, struct sg_syscall_call *call,
			    syscall_run_fn run)
{
	struct sg_task *k = sg_task(t);
	uint32_t sp = cpu_syscall_user_sp(&k->cpu);
	uint32_t arg6;
	bool read;

	if (!k->group->vdso.sysenter_return) {
		/* No vDSO, no landing pad: a real kernel would return to a
		 * garbage address. We refuse the call instead and resume
		 * after the instruction with the registers untouched. */
		call->result = -ENOSYS;
		return;
	}
	read = copy_from_guest(sc_mm(t), &arg6, sp, sizeof(arg6)) == 0;
	if (read) {
		call->args[5] = arg6;
		run(t, call);
	} else {
		/* The kernel gives up before tracing or dispatching. */
		call->result = -EFAULT;
	}
	/* the landing pad read after the call: an mremap of the vDSO moved
	 * it (the kernel's vdso_fix_landing) */
	cpu_syscall_return_fast32(&k->cpu, sp, k->group->vdso.sysenter_return,
				  read ? &arg6 : NULL);
}

struct systab_slot syscall_entry(struct sg_thread *t, syscall_run_fn run)
{
	struct sg_task *k = sg_task(t);
	struct cpu *cpu = &k->cpu;
	struct sg_syscall_call call;
	enum cpu_syscall_entry entry;

	if (!run)
		run = syscall_handle;
	memset(&call, 0, sizeof(call));
	entry = cpu_syscall_get_arguments(cpu, call.args);
	call.mech = cpu->mech;
	call.nr = cpu_syscall_nr(cpu);
	pick(&call, entry != CPU_SYSCALL_ENTRY_64, (uint32_t)call.nr);
	/* the vDSO's time functions call in through one instruction of
	 * their own (docs/loader.md, vDSO) */
	call.vdso_fn = k->group->vdso.private_return &&
		       cpu_syscall_next_rip(cpu) == k->group->vdso.private_return &&
		       call.mech != CPU_MECH_SYSENTER;

	if (entry == CPU_SYSCALL_ENTRY_FAST32) {
		call.vdso = true;
		vdso_syscall_32(t, &call, run);
	} else {
		/* after 64-bit SYSCALL, RCX and R11 hold what the instruction
		 * left there (the CPU's op_syscall), which SYSRET returns */
		vdso_fallback(&call);
		run(t, &call);
	}
	cpu_syscall_set_return_value(cpu, call.result);
	return (struct systab_slot){ .table = call.table, .index = (unsigned)call.index,
				     .row = call.row };
}
