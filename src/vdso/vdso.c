/* The vDSO image for each guest ABI (the bytes are generated at build time
 * by tools/vdso_embed.c from the shared objects built in this folder). */
#include "vdso/vdso.h"

extern const struct vdso_image vdso_image_i386, vdso_image_x32,
	vdso_image_x86_64;

const struct vdso_image *vdso_image_for(enum sg_abi abi)
{
	switch (abi) {
	case SG_ABI_I386:
		return &vdso_image_i386;
	case SG_ABI_X32:
		return &vdso_image_x32;
	case SG_ABI_X64:
		return &vdso_image_x86_64;
	default:
		return NULL;
	}
}
