#include <signal.h>
#include <stdio.h>
#include <string.h>
#include "core/fault.h"

int fault_signal(const struct cpu_fault *f)
{
	switch (f->vector) {
	case VEC_DE:
	case VEC_MF:
	case VEC_XM:
		return SIGFPE;
	case VEC_DB:
	case VEC_BP:
		return SIGTRAP;
	case VEC_UD:
		return SIGILL;
	case VEC_AC:
		return SIGBUS;
	case VEC_PF:
		return f->bus_code ? SIGBUS : SIGSEGV;
	default: /* #GP, #PF, #NM, #OF, #BR */
		return SIGSEGV;
	}
}

void fault_report(const struct cpu_fault *f, int signo)
{
	char bytes[3 * sizeof(f->bytes) + 1] = "";
	size_t n = f->nbytes < sizeof(f->bytes) ? f->nbytes : sizeof(f->bytes);

	if (f->vector != VEC_UD)
		return;
	size_t len = 0;

	for (size_t i = 0; i < n; i++)
		len += snprintf(bytes + len, sizeof(bytes) - len, "%s%02x",
				i ? " " : "", f->bytes[i]);
	fprintf(stderr, "sysgate: illegal instruction at 0x%llx: %s (%s)\n",
		(unsigned long long)f->insn_addr, n ? bytes : "(unreadable)",
		strsignal(signo));
}
