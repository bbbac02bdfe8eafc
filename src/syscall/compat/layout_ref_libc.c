/* Build-time reference, never linked: structures the kernel's uapi headers
 * do not describe for user space (msghdr, mmsghdr, cmsghdr: generated from
 * sysgate's kernel_structs.h, checked here against a second source), and the x32
 * forms where the uapi headers assume 32-bit kernel longs but the x32
 * kernel and its C library use 64-bit ones (struct statfs). Compiled with
 * -m32 / -mx32 -S against the C library's headers, like layout_ref_uapi.c. */
#define _GNU_SOURCE
#include <stddef.h>
#include <sys/socket.h>
#include <sys/statfs.h>
#include <sys/times.h>
#include <sys/uio.h>

#define EMIT(name, val) \
	__asm__ volatile(".ascii \"@@ " #name " %c0\\n\"" : : "i"((long)(val)))
#define SIZE(name, type) EMIT(name##_SIZE, sizeof(type))
#define OFF(name, type, field) EMIT(name##_##field, offsetof(type, field))

void layout_ref_libc(void);
void layout_ref_libc(void)
{
	SIZE(LIBC_MSGHDR, struct msghdr);
	OFF(LIBC_MSGHDR, struct msghdr, msg_namelen);
	OFF(LIBC_MSGHDR, struct msghdr, msg_iov);
	OFF(LIBC_MSGHDR, struct msghdr, msg_iovlen);
	OFF(LIBC_MSGHDR, struct msghdr, msg_control);
	OFF(LIBC_MSGHDR, struct msghdr, msg_controllen);
	OFF(LIBC_MSGHDR, struct msghdr, msg_flags);
	SIZE(LIBC_MMSGHDR, struct mmsghdr);
	OFF(LIBC_MMSGHDR, struct mmsghdr, msg_len);
	SIZE(LIBC_CMSGHDR, struct cmsghdr);
	EMIT(LIBC_CMSG_ALIGN_1, CMSG_ALIGN(1));
	EMIT(LIBC_CMSG_LEN_4, CMSG_LEN(4));
	EMIT(LIBC_CMSG_SPACE_4, CMSG_SPACE(4));
	SIZE(LIBC_STATFS, struct statfs);
	OFF(LIBC_STATFS, struct statfs, f_blocks);
	OFF(LIBC_STATFS, struct statfs, f_fsid);
	OFF(LIBC_STATFS, struct statfs, f_flags);
}
