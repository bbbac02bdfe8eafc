/* The handlers' narrow view (handler.h): the one place that reads core's
 * thread and process for the handler files that include only handler.h
 * (docs/syscalls.md, Handler context). */
#include "syscall/internal.h"

struct mm *sc_mm(struct sg_thread *t)
{
	return t->proc->mm;
}

volatile int *sc_signal_arrived(struct sg_thread *t)
{
	return &t->sig.arrived;
}

enum sg_abi sc_abi(struct sg_thread *t)
{
	return t->proc->abi;
}

uint64_t sc_vdso_base(struct sg_thread *t)
{
	return t->proc->image.vdso_base;
}

/* The vDSO moved by mremap: as the kernel's vdso_mremap, the process's
 * vDSO is where its start went, and what sysgate finds there follows it
 * (the SYSENTER landing pad, the i386 signal restorers through vdso_base,
 * the time functions' private return). AT_SYSINFO stays what it was. */
void sc_vdso_moved(struct sg_thread *t, uint64_t old, uint64_t new)
{
	struct sg_image_info *im = &t->proc->image;
	uint64_t delta = new - old;

	if (!im->vdso_base || old != im->vdso_base || new == old)
		return;
	im->vdso_base = new;
	if (im->sysenter_return)
		im->sysenter_return += delta;
	if (im->vdso_private_return)
		im->vdso_private_return += delta;
}

struct sg_sigstate *sc_sigstate(struct sg_thread *t)
{
	return &t->sig;
}

const char *sc_host_exe(struct sg_thread *t)
{
	return t->proc->host_exe;
}

const char *sc_exe_path(struct sg_thread *t)
{
	return t->proc->exe_path;
}

const char *sc_sysroot(struct sg_thread *t)
{
	return t->proc->sysroot;
}

bool sc_host_shows_guest(struct sg_thread *t)
{
	return t->proc->host_shows_guest;
}

uint64_t sc_stack_pointer(struct sg_thread *t)
{
	return t->cpu.r[R_SP];
}

void sc_request_stop(struct sg_thread *t)
{
	cpu_request_stop(&t->cpu);
}

bool sc_tsc_disabled(struct sg_thread *t)
{
	return t->cpu.tsc_disabled;
}

void sc_set_tsc_disabled(struct sg_thread *t, bool disabled)
{
	t->cpu.tsc_disabled = disabled;
}
