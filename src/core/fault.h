/* What a CPU fault means for the guest process. */
#ifndef SG_FAULT_H
#define SG_FAULT_H

#include "cpu/cpu.h"

/* The signal the kernel sends for this fault (SIGSEGV, SIGILL, ...). */
int fault_signal(const struct cpu_fault *f);

/* One line on stderr for faults a user should hear about (an instruction
 * sysgate does not know: address and bytes). */
void fault_report(const struct cpu_fault *f, int signo);

#endif
