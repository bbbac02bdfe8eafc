/* The vDSO images built at build time from src/vdso sources (DESIGN.md, vDSO). */
#ifndef SG_VDSO_H
#define SG_VDSO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "sysgate.h"

struct vdso_image {
	const uint8_t *data;     /* a whole ELF shared object, page-aligned size */
	size_t size;
	/* offsets from the image start; 0 when the image has no such symbol */
	uint64_t sym_kernel_vsyscall;   /* i386: AT_SYSINFO */
	uint64_t sym_sysenter_return;   /* i386: where the kernel resumes after SYSENTER */
	uint64_t sym_sigreturn, sym_rt_sigreturn;
	/* after the private call instruction of the time functions: a
	 * call that returns here is answered by vdso_answer */
	uint64_t sym_private_return;
};

/* The image of that ABI; NULL for SG_ABI_NONE. */
const struct vdso_image *vdso_image_for(enum sg_abi abi);

struct mm;

/* vdso_calls.c: answer a private call of a vDSO time function. is_i386: the
 * call came through the i386 table, else the x86_64/x32 one; nr is the
 * number in that table (x32 without its bit), a[] the arguments. Returns
 * what that system call returns (the value or -errno; -ENOSYS for a
 * number the vDSO does not use), writing guest memory through mm. */
long vdso_answer(struct mm *mm, bool is_i386, unsigned nr, const uint64_t *a);

/* vdso_calls.c: the real vDSO would make this call a system call (its
 * fallback: clock_gettime or clock_getres of a clock it does not read
 * itself, such as a CPU-time or an invalid clock), which a native strace
 * sees. is_i386, nr and a[] as for vdso_answer. */
bool vdso_call_enters_kernel(bool is_i386, unsigned nr, const uint64_t *a);

#endif
