/* The vDSO image for each guest ABI (the bytes are generated at build time
 * by vdso_embed from the shared objects built in this folder). */
#include "vdso/vdso.h"

extern const struct vdso_image vdso_image_i386;

const struct vdso_image *vdso_image_for(enum sg_abi abi)
{
	switch (abi) {
	case SG_ABI_I386:
		return &vdso_image_i386;
	default:
		return NULL; /* x32 and x86_64 images: not yet */
	}
}
