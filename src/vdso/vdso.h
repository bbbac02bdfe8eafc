/* The vDSO images built at build time from src/vdso sources (DESIGN.md, vDSO). */
#ifndef SG_VDSO_H
#define SG_VDSO_H

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
};

/* NULL if this ABI has no image (yet). */
const struct vdso_image *vdso_image_for(enum sg_abi abi);

#endif
