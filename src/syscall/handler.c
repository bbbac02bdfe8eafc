/* The handlers' narrow view (handler.h): what the handler files that
 * include only handler.h read of the calling thread's task and its group
 * (signal/guest_task.h; docs/syscalls.md, Handler context). */
#include "syscall/internal.h"

struct mm *sc_mm(struct sg_thread *t)
{
	return sg_task(t)->group->mm;
}

volatile int *sc_signal_arrived(struct sg_thread *t)
{
	return &sg_task(t)->sig.arrived;
}

enum sg_abi sc_abi(struct sg_thread *t)
{
	return sg_task(t)->group->abi;
}

uint64_t sc_vdso_base(struct sg_thread *t)
{
	return sg_task(t)->group->vdso.base;
}

/* The vDSO moved by mremap: as the kernel's vdso_mremap, the process's
 * vDSO is where its start went, and what sysgate finds there follows it
 * (the SYSENTER landing pad, the i386 signal restorers through vdso_base,
 * the time functions' private return). AT_SYSINFO stays what it was. */
void sc_vdso_moved(struct sg_thread *t, uint64_t old, uint64_t new)
{
	struct sg_vdso_place *v = &sg_task(t)->group->vdso;
	uint64_t delta = new - old;

	if (!v->base || old != v->base || new == old)
		return;
	v->base = new;
	if (v->sysenter_return)
		v->sysenter_return += delta;
	if (v->private_return)
		v->private_return += delta;
}

struct sg_sigstate *sc_sigstate(struct sg_thread *t)
{
	return &sg_task(t)->sig;
}

const char *sc_host_exe(struct sg_thread *t)
{
	return sg_task(t)->group->host_exe;
}

const char *sc_exe_path(struct sg_thread *t)
{
	return sg_task(t)->group->exe_path;
}

const char *sc_sysroot(struct sg_thread *t)
{
	return sg_task(t)->group->sysroot;
}

bool sc_host_shows_guest(struct sg_thread *t)
{
	return sg_task(t)->group->host_shows_guest;
}

uint64_t sc_stack_pointer(struct sg_thread *t)
{
	return cpu_stack_pointer(&sg_task(t)->cpu);
}

void sc_request_stop(struct sg_thread *t)
{
	cpu_request_stop(&sg_task(t)->cpu);
}

bool sc_tsc_disabled(struct sg_thread *t)
{
	return sg_task(t)->cpu.tsc_disabled;
}

void sc_set_tsc_disabled(struct sg_thread *t, bool disabled)
{
	sg_task(t)->cpu.tsc_disabled = disabled;
}
