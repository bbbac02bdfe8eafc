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

bool sc_tsc_disabled(struct sg_thread *t)
{
	return t->cpu.tsc_disabled;
}

void sc_set_tsc_disabled(struct sg_thread *t, bool disabled)
{
	t->cpu.tsc_disabled = disabled;
}
