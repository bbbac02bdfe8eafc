/* ELF loading: validate, decide the ABI, map segments (and PT_INTERP),
 * map the vDSO, build the initial stack and CPU state. */
#ifndef SG_LOADER_H
#define SG_LOADER_H

#include "sysgate.h"
#include "core/process.h"

/* Read the ELF headers of path and decide its ABI without mapping anything:
 * the validation the CLI's error messages come from. */
enum sg_err loader_probe(const char *path, enum sg_abi *abi);

/* Load path into p: sets p->abi, creates p->mm, fills p->image and
 * p->exe_path, and initialises cpu (mode, rip, rsp and the entry registers
 * a fresh process has). argv/envp are host strings copied onto the guest
 * stack. */
enum sg_err loader_load(struct sg_process *p, struct cpu *cpu, const char *path,
			char *const argv[], char *const envp[]);

#endif
