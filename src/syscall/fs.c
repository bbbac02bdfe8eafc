/* File-system calls that need more than a pass-through: the i386 stat
 * family (struct stat / struct stat64 translated), open (the guest's
 * /proc/self files: path.c) and readlink of /proc/self/exe, and i386 fcntl64 with
 * its struct flock variants. */
#define _GNU_SOURCE /* O_PATH */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <linux/dqblk_xfs.h>
#include <linux/quota.h>
#include <sys/stat.h>

#include "syscall/compat/compat.h"
#include "syscall/handler.h"

/* --- stat ------------------------------------------------------------- */

enum stat_form { FORM_STAT, FORM_STAT64 };

/* path_addr 0: fstat(dfd). */
static long host_stat(struct sg_thread *t, int dfd, uint64_t path_addr,
		      int flags, bool by_fd, struct stat *st)
{
	char path[PATH_MAX];
	const char *hp;
	long r;

	if (by_fd) {
		r = host_syscall2(SYS_fstat, dfd, st);
		if (r == 0)
			sc_stat_fixup(t, dfd, NULL, 0, st);
		return r;
	}
	r = sc_path_host(t, path_addr, path, true, &hp);
	if (r)
		return r;
	r = host_syscall4(SYS_newfstatat, dfd, hp, st, flags);
	if (r == 0)
		sc_stat_fixup(t, dfd, hp, flags, st);
	return r;
}

static long put_stat(struct sg_thread *t, uint64_t buf, enum stat_form form,
		     const struct stat *st)
{
	if (form == FORM_STAT) {
		struct compat_stat c;
		int r = put_compat_stat(&c, st);

		if (r)
			return r;
		return copy_to_guest(sc_mm(t), buf, &c, sizeof(c));
	} else {
		struct compat_stat64 c;

		/* the kernel leaves the padding bytes as they were, and
		 * writes the fields before a fault (field by field) */
		if (copy_from_guest(sc_mm(t), &c, buf, sizeof(c))) {
			uint64_t part = mm_access_prefix(sc_mm(t), buf, sizeof(c),
							 PROT_WRITE);

			memset(&c, 0, sizeof(c));
			if (part && copy_from_guest(sc_mm(t), &c, buf, part))
				return -EFAULT;
		}
		put_compat_stat64(&c, st);
		return copy_to_guest(sc_mm(t), buf, &c, sizeof(c));
	}
}

static long compat_stat(struct sg_thread *t, int dfd, uint64_t path_addr,
			int flags, bool by_fd, uint64_t buf,
			enum stat_form form)
{
	struct stat st;
	long r = host_stat(t, dfd, path_addr, flags, by_fd, &st);

	return r ? r : put_stat(t, buf, form, &st);
}

SG_SYSCALL_DEFINE2(compat_sys_newstat, filename, statbuf)
{
	return compat_stat(t, AT_FDCWD, filename, 0, false, statbuf, FORM_STAT);
}

SG_SYSCALL_DEFINE2(compat_sys_newlstat, filename, statbuf)
{
	return compat_stat(t, AT_FDCWD, filename, AT_SYMLINK_NOFOLLOW, false, statbuf,
			   FORM_STAT);
}

SG_SYSCALL_DEFINE2(compat_sys_newfstat, fd, statbuf)
{
	return compat_stat(t, (int)fd, 0, 0, true, statbuf, FORM_STAT);
}

SG_SYSCALL_DEFINE2(compat_sys_ia32_stat64, filename, statbuf)
{
	return compat_stat(t, AT_FDCWD, filename, 0, false, statbuf, FORM_STAT64);
}

SG_SYSCALL_DEFINE2(compat_sys_ia32_lstat64, filename, statbuf)
{
	return compat_stat(t, AT_FDCWD, filename, AT_SYMLINK_NOFOLLOW, false, statbuf,
			   FORM_STAT64);
}

SG_SYSCALL_DEFINE2(compat_sys_ia32_fstat64, fd, statbuf)
{
	return compat_stat(t, (int)fd, 0, 0, true, statbuf, FORM_STAT64);
}

SG_SYSCALL_DEFINE4(compat_sys_ia32_fstatat64, dfd, filename, statbuf, flag)
{
	return compat_stat(t, (int)dfd, filename, (int)flag, false, statbuf,
			   FORM_STAT64);
}

/* --- open: /proc/self files show the guest (path.c) ----------------------- */

static long do_openat(struct sg_thread *t, int dfd, uint64_t path_addr,
		      uint64_t flags, uint64_t mode)
{
	char path[PATH_MAX];
	const char *hp;
	long r = sc_path_host(t, path_addr, path, true, &hp);

	if (r)
		return r;
	/* a FIFO's open blocks */
	return sc_proc_view(t, host_blocking4(t, SYS_openat, dfd, hp, flags, mode),
			    (int)flags);
}

SG_SYSCALL_DEFINE3(sys_open, filename, flags, mode)
{
	return do_openat(t, AT_FDCWD, filename, flags, mode);
}

SG_SYSCALL_DEFINE3(compat_sys_open, filename, flags, mode)
{
	return do_openat(t, AT_FDCWD, filename, flags, mode);
}

SG_SYSCALL_DEFINE2(sys_creat, filename, mode)
{
	return do_openat(t, AT_FDCWD, filename, O_CREAT | O_WRONLY | O_TRUNC, mode);
}

SG_SYSCALL_DEFINE4(sys_openat, dfd, filename, flags, mode)
{
	return do_openat(t, (int)dfd, filename, flags, mode);
}

SG_SYSCALL_DEFINE4(compat_sys_openat, dfd, filename, flags, mode)
{
	return do_openat(t, (int)dfd, filename, flags, mode);
}

/* --- readlink ------------------------------------------------------------ */

/* /proc/self/exe names the guest program, not sysgate. Any other
 * spelling of it (//proc/self/exe, /proc/<pid>/task/<tid>/exe, a
 * /proc/self directory fd) reads sysgate's path from the host: only then
 * is the link itself asked what it is. /proc/self/cwd is seen from inside
 * the sysroot. */
static bool is_sysgate_exe(const char *target)
{
	static char self[PATH_MAX];
	static long len;

	if (!len) {
		long n = host_syscall4(SYS_readlinkat, AT_FDCWD, "/proc/self/exe",
				       self, sizeof(self) - 1);

		len = n > 0 ? n : -1;
		if (n > 0)
			self[n] = '\0';
	}
	return len > 0 && strcmp(target, self) == 0;
}

static bool is_own_exe_link(int dfd, const char *path)
{
	long fd = host_syscall4(SYS_openat, dfd, path,
				O_PATH | O_NOFOLLOW | O_CLOEXEC, 0);
	char entry[8];
	bool own;

	if (fd < 0)
		return false;
	own = sc_own_proc_file(fd, entry, sizeof(entry)) && strcmp(entry, "exe") == 0;
	host_syscall1(SYS_close, fd);
	return own;
}

static long do_readlinkat(struct sg_thread *t, int dfd, uint64_t path_addr,
			  uint64_t buf, uint64_t bufsiz)
{
	char path[PATH_MAX], target[PATH_MAX];
	const char *answer = target;
	long r;

	if ((int)bufsiz <= 0)
		return -EINVAL;
	r = sc_path(t, path_addr, path, false);
	if (r)
		return r;
	if (sc_exe_path(t) && sc_is_proc_exe(path)) {
		answer = sc_exe_path(t);
	} else {
		r = host_syscall4(SYS_readlinkat, dfd, path, target, sizeof(target) - 1);
		if (r < 0)
			return r;
		target[r] = '\0';
		if (sc_exe_path(t) && is_sysgate_exe(target) &&
		    is_own_exe_link(dfd, path))
			answer = sc_exe_path(t);
		/* a /proc view's descriptor names the file it stands for */
		if (sc_proc_view_path(target))
			answer = sc_proc_view_path(target);
		/* the working directory as getcwd shows it: in the sysroot */
		if (sc_sysroot(t) && sc_is_proc_self(path, "cwd"))
			sc_guest_view(sc_sysroot(t), target);
	}
	r = (long)strlen(answer);
	if (r > (uint32_t)bufsiz)
		r = (uint32_t)bufsiz;
	if (copy_to_guest(sc_mm(t), buf, answer, (size_t)r))
		return -EFAULT;
	return r;
}

SG_SYSCALL_DEFINE3(sys_readlink, path, buf, bufsiz)
{
	return do_readlinkat(t, AT_FDCWD, path, buf, bufsiz);
}

SG_SYSCALL_DEFINE4(sys_readlinkat, dfd, pathname, buf, bufsiz)
{
	return do_readlinkat(t, (int)dfd, pathname, buf, bufsiz);
}

/* --- i386 fcntl / fcntl64 ------------------------------------------------ */

/* i386 command numbers (the x86_64 host has no separate *64 commands) */
#define COMPAT_F_GETLK64 12
#define COMPAT_F_SETLK64 13
#define COMPAT_F_SETLKW64 14
#define SC_F_OFD_GETLK 36
#define SC_F_OFD_SETLK 37
#define SC_F_OFD_SETLKW 38

static long fcntl_lock(struct sg_thread *t, int fd, int host_cmd,
		       uint64_t arg, bool is64)
{
	struct flock fl;
	long r;

	if (is64) {
		struct compat_flock64 c;

		if (copy_from_guest(sc_mm(t), &c, arg, sizeof(c)))
			return -EFAULT;
		get_compat_flock64(&fl, &c);
	} else {
		struct compat_flock c;

		if (copy_from_guest(sc_mm(t), &c, arg, sizeof(c)))
			return -EFAULT;
		get_compat_flock(&fl, &c);
	}
	r = host_blocking3(t, SYS_fcntl, fd, host_cmd, &fl); /* F_SETLKW waits */
	if (r || (host_cmd != F_GETLK && host_cmd != SC_F_OFD_GETLK))
		return r;
	if (is64) {
		struct compat_flock64 c;

		put_compat_flock64(&c, &fl);
		return copy_to_guest(sc_mm(t), arg, &c, sizeof(c));
	} else {
		struct compat_flock c;

		r = put_compat_flock(&c, &fl);
		if (r)
			return r;
		return copy_to_guest(sc_mm(t), arg, &c, sizeof(c));
	}
}

SG_SYSCALL_DEFINE3(compat_sys_fcntl64, fd, command, arg)
{
	unsigned cmd = (unsigned)command;

	switch (cmd) {
	case F_GETLK:
	case F_SETLK:
	case F_SETLKW:
		return fcntl_lock(t, fd, (int)cmd, arg, false);
	case COMPAT_F_GETLK64:
	case COMPAT_F_SETLK64:
	case COMPAT_F_SETLKW64:
		return fcntl_lock(t, fd, F_GETLK + (int)(cmd - COMPAT_F_GETLK64),
				  arg, true);
	case SC_F_OFD_GETLK:
	case SC_F_OFD_SETLK:
	case SC_F_OFD_SETLKW:
		return fcntl_lock(t, fd, (int)cmd, arg, true);
	default:
		return host_syscall3(SYS_fcntl, fd, cmd, arg);
	}
}

/* open_how is three u64s in every ABI; the guest's /proc/self files as
 * for openat */
SG_SYSCALL_DEFINE4(sys_openat2, dfd, filename, uhow, usize)
{
	uint64_t how[3] = { 0 };
	char path[PATH_MAX];
	uint64_t size = usize;
	long r;

	if (size < sizeof(how) || size > 4096)
		return size < sizeof(how) ? -EINVAL : -E2BIG;
	if (copy_from_guest(sc_mm(t), how, uhow, sizeof(how)))
		return -EFAULT;
	r = sc_path(t, filename, path, true);
	if (r)
		return r;
	/* fields beyond the ones known here must be zero: the host checks
	 * the guest's own copy */
	if (size > sizeof(how) && !sc_ok(t, uhow, size, PROT_READ))
		return -EFAULT;
	return sc_proc_view(t, host_blocking4(t, SYS_openat2, dfd, path,
					     size > sizeof(how) ? g2h(uhow) : (void *)how,
					     size),
			    (int)how[0]);
}

/* x86_64 and x32 fcntl: the commands whose argument points somewhere get
 * it checked (struct flock is the 64-bit one for both) */
SG_SYSCALL_DEFINE3(sys_fcntl, fd, command, arg)
{
	unsigned cmd = (unsigned)command;
	uint64_t size = 0;
	int prot = PROT_READ;
	long err = 0;
	void *p;

	switch (cmd) {
	case F_GETLK:
	case SC_F_OFD_GETLK:
		prot |= PROT_WRITE;
		/* fall through */
	case F_SETLK:
	case F_SETLKW:
	case SC_F_OFD_SETLK:
	case SC_F_OFD_SETLKW:
		size = sizeof(struct flock);
		break;
	case 16: /* F_GETOWN_EX */
		prot = PROT_WRITE;
		/* fall through */
	case 15: /* F_SETOWN_EX: struct f_owner_ex */
		size = 8;
		break;
	case 1035: /* F_GET_RW_HINT */
	case 1037: /* F_GET_FILE_RW_HINT */
		prot = PROT_WRITE;
		/* fall through */
	case 1036: /* F_SET_RW_HINT */
	case 1038: /* F_SET_FILE_RW_HINT: a u64 */
		size = 8;
		break;
	default:
		return host_syscall3(SYS_fcntl, fd, cmd, arg);
	}
	p = sc_buf(t, arg, size, prot, &err);
	if (err)
		return err;
	return host_blocking3(t, SYS_fcntl, fd, cmd, p); /* F_SETLKW waits */
}

/* --- quotactl, quotactl_fd ---------------------------------------------------
 * The host decides by the caller's privileges, as for mount. What addr is
 * depends on the subcommand (cmd >> 8); x32 has the x86_64 layouts (the
 * kernel fixes alignment for i386 callers only), i386 a shorter if_dqblk
 * and its own fs_quota_stat. */

static long quota_call(long fd_or_cmd, long cmd_or_special, long id, void *p,
		       bool by_fd)
{
	if (by_fd)
		return host_syscall4(SYS_quotactl_fd, fd_or_cmd, cmd_or_special,
				     id, p);
	return host_syscall4(SYS_quotactl, fd_or_cmd, cmd_or_special, id, p);
}

/* arg0, arg1: quotactl's cmd and special, or quotactl_fd's fd and cmd */
static long do_quotactl(struct sg_thread *t, bool by_fd, uint64_t arg0, uint64_t arg1,
			uint64_t id, uint64_t addr_arg)
{
	unsigned cmd = (unsigned)(by_fd ? arg1 : arg0);
	long first = (long)arg0, second = (long)(unsigned)arg1;
	char special[PATH_MAX], file[PATH_MAX];
	const char *host_special = NULL, *host_file;
	uint64_t addr = addr_arg;
	uint64_t size = 0;
	int prot = PROT_WRITE;
	void *p = NULL;
	long r, err = 0;

	if (!by_fd && arg1) {
		r = sc_path_host(t, arg1, special, true, &host_special);
		if (r)
			return r;
		second = (long)host_special;
	}
	if (by_fd)
		first = (long)(unsigned)arg0;
	switch (cmd >> 8) {
	case Q_QUOTAON: /* addr: the quota file */
		r = sc_path_host(t, addr, file, true, &host_file);
		if (r)
			return r;
		return quota_call(first, second, (long)(uint32_t)id,
				  (void *)host_file, by_fd);
	case Q_GETFMT:
		size = 4;
		break;
	case Q_SETINFO:
		prot = PROT_READ;
		/* fall through */
	case Q_GETINFO:
		size = sizeof(struct if_dqinfo);
		break;
	case Q_SETQUOTA:
	case Q_GETQUOTA:
		if (sc_i386()) {
			struct if_dqblk dq = { 0 };

			if (cmd >> 8 == Q_SETQUOTA) {
				/* a fault stays the host's to report, after its
				 * permission checks */
				p = copy_from_guest(sc_mm(t), &dq, addr,
						    COMPAT_IF_DQBLK_SIZE)
					    ? sc_fault_ptr(t, addr)
					    : &dq;
				return quota_call(first, second,
						  (long)(uint32_t)id, p, by_fd);
			}
			r = quota_call(first, second, (long)(uint32_t)id, &dq,
				       by_fd);
			if (r == 0 && copy_to_guest(sc_mm(t), addr, &dq,
						    COMPAT_IF_DQBLK_SIZE))
				r = -EFAULT;
			return r;
		}
		if (cmd >> 8 == Q_SETQUOTA)
			prot = PROT_READ;
		size = sizeof(struct if_dqblk);
		break;
	case Q_GETNEXTQUOTA: /* the same 72 bytes in every ABI */
		size = sizeof(struct if_nextdqblk);
		break;
	case Q_XQUOTAON:
	case Q_XQUOTAOFF:
	case Q_XQUOTARM: /* a u32 of flags */
		prot = PROT_READ;
		size = 4;
		break;
	case Q_XSETQLIM:
		prot = PROT_READ;
		/* fall through */
	case Q_XGETQUOTA:
	case Q_XGETNEXTQUOTA: /* the same 112 bytes in every ABI */
		size = sizeof(struct fs_disk_quota);
		break;
	case Q_XGETQSTATV: /* its version read first; no layout difference */
		prot = PROT_READ | PROT_WRITE;
		size = sizeof(struct fs_quota_statv);
		break;
	case Q_XGETQSTAT:
		if (sc_i386()) {
			struct fs_quota_stat st = { 0 };
			struct compat_fs_quota_stat c;

			r = quota_call(first, second, (long)(uint32_t)id,
				       &st, by_fd);
			if (r)
				return r;
			put_compat_fs_quota_stat(&c, &st);
			return copy_to_guest(sc_mm(t), addr, &c, sizeof(c))
				       ? -EFAULT
				       : 0;
		}
		size = sizeof(struct fs_quota_stat);
		break;
	}
	/* Q_SYNC, Q_QUOTAOFF, Q_XQUOTASYNC and unknown commands: no addr */
	if (size) {
		p = sc_buf(t, addr, size, prot, &err);
		if (err)
			return err;
	}
	return quota_call(first, second, (long)(uint32_t)id, p, by_fd);
}

SG_SYSCALL_DEFINE4(sys_quotactl, cmd, special, id, addr)
{
	return do_quotactl(t, false, cmd, special, id, addr);
}

SG_SYSCALL_DEFINE4(sys_quotactl_fd, fd, cmd, id, addr)
{
	return do_quotactl(t, true, fd, cmd, id, addr);
}
