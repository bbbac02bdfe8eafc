/* The kernel's own declarations of the guest structs no uapi header
 * describes (and the setting two uapi headers need to compile without a C
 * library), written once in the kernel's types — `unsigned long`, `int`,
 * pointers, `__kernel_*` — as strace's mpers does: tools/layout_gen.sh
 * compiles this file -m32, -mx32 and -m64, so each ABI's layout is the
 * compiler's (layouts.in names the rows; docs/syscalls.md, Compat layouts).
 * A 32-bit compile of a kernel declaration gives the compat layout the
 * 64-bit kernel reads from i386 and x32 (compat_ulong_t, compat_uptr_t are
 * the 32-bit long and pointer): layouts.in marks a row i386,x32 only where
 * the generator checks that -mx32 gives the same numbers.
 *
 * Never compiled into sysgate: these types have the host's layout. */
#ifndef SG_LAYOUT_GEN
#error "kernel_structs.h is tools/layout_gen.sh's input only (use the generated guest_layout_*.h)"
#endif
#ifndef SG_SYSCALL_KERNEL_STRUCTS_H
#define SG_SYSCALL_KERNEL_STRUCTS_H

#include <linux/types.h>
#include <linux/posix_types.h>
#include <linux/time_types.h>
#include <asm/signal.h>
#include <asm/siginfo.h>
#include <asm/sigcontext.h>
#include <asm/ucontext.h>

/* <linux/if.h> (ifconf, ifreq) includes the C library's <sys/socket.h> for
 * struct sockaddr, which needs that library built for the ABI; the
 * kernel's own struct sockaddr (include/linux/socket.h) stands in. */
#define _SYS_SOCKET_H 1
struct sockaddr {
	unsigned short sa_family;
	char sa_data[14];
};
#include <linux/if.h>

/* <linux/shm.h> (shm_info) includes <unistd.h>, which it does not use for
 * its structs. */
#define _UNISTD_H 1
#include <linux/shm.h>

/* include/linux/signal_types.h: rt_sigaction's struct sigaction, sigset_t
 * being _NSIG (64) bits in longs (the uapi <asm/signal.h> of -m32 has the
 * old sigaction call's struct instead, and makes sa_handler a macro: the
 * members are named without sa_) */
struct kernel_sigaction {
	__sighandler_t handler;
	unsigned long flags;
	__sigrestore_t restorer;
	unsigned long mask[64 / (8 * sizeof(unsigned long))];
};

/* mm/mmap.c: old mmap's six arguments in guest memory */
struct kernel_mmap_arg_struct {
	unsigned long addr;
	unsigned long len;
	unsigned long prot;
	unsigned long flags;
	unsigned long fd;
	unsigned long offset;
};

/* fs/select.c: old select's five arguments in guest memory */
struct kernel_fd_set;
struct kernel_sel_arg_struct {
	unsigned long n;
	struct kernel_fd_set *inp, *outp, *exp;
	struct __kernel_old_timeval *tvp;
};

/* fs/select.c: pselect6's sixth argument, the mask's address and size */
struct kernel_sigset_argpack {
	void *p;
	__kernel_size_t size;
};

/* fs/readdir.c: getdents' and old readdir's records */
struct kernel_linux_dirent {
	unsigned long d_ino;
	unsigned long d_off;
	unsigned short d_reclen;
	char d_name[];
};

struct kernel_old_linux_dirent {
	unsigned long d_ino;
	unsigned long d_offset;
	unsigned short d_namlen;
	char d_name[1];
};

/* include/linux/dirent.h: getdents64's record (fixed-width: every ABI) */
struct kernel_linux_dirent64 {
	__u64 d_ino;
	__s64 d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/* include/linux/socket.h: sendmsg's and recvmsg's header, sendmmsg's
 * entry, a control message's header */
struct kernel_user_msghdr {
	void *msg_name;
	int msg_namelen;
	struct iovec *msg_iov;
	__kernel_size_t msg_iovlen;
	void *msg_control;
	__kernel_size_t msg_controllen;
	unsigned int msg_flags;
};

struct kernel_mmsghdr {
	struct kernel_user_msghdr msg_hdr;
	unsigned int msg_len;
};

struct kernel_cmsghdr {
	__kernel_size_t cmsg_len;
	int cmsg_level;
	int cmsg_type;
};

/* The signal frames (arch/x86/include/asm/sigframe.h) and the compat
 * ucontexts (asm/ia32.h's ucontext_ia32, sigframe.h's ucontext_x32),
 * around the uapi sigcontexts, FP state, stack_t (the compat_stack_t of a
 * 32-bit compile), ucontext and siginfo_t (compat_siginfo_t likewise);
 * compat_sigset_t is two 32-bit words. Rows: i386's, x32's, x86_64's. */
struct kernel_sigframe_ia32 {
	__u32 pretcode;
	int sig;
	struct sigcontext_32 sc;
	struct _fpstate_32 fpstate_unused;
	unsigned int extramask[1];
	char retcode[8];
};

struct kernel_ucontext_ia32 {
	unsigned int uc_flags;
	unsigned int uc_link;
	stack_t uc_stack;
	struct sigcontext_32 uc_mcontext;
	unsigned int uc_sigmask[2];
};

struct kernel_rt_sigframe_ia32 {
	__u32 pretcode;
	int sig;
	__u32 pinfo;
	__u32 puc;
	siginfo_t info;
	struct kernel_ucontext_ia32 uc;
	char retcode[8];
};

struct kernel_ucontext_x32 {
	unsigned int uc_flags;
	unsigned int uc_link;
	stack_t uc_stack;
	unsigned int uc__pad0;
	struct sigcontext_64 uc_mcontext;
	unsigned int uc_sigmask[2];
};

struct kernel_rt_sigframe_x32 {
	__u64 pretcode;
	struct kernel_ucontext_x32 uc;
	siginfo_t info;
};

struct kernel_rt_sigframe {
	char *pretcode;
	struct ucontext uc;
	siginfo_t info;
};

#endif
