/* Directories of compat guests (i386, x32): getdents, getdents64,
 * readdir and lseek/_llseek, whose directory positions a 64-bit caller
 * and a compat caller get differently, through the host's own int $0x80
 * entry where it has one (probed once: host_has_ia32_entry). */
#include <dirent.h>
#include <fcntl.h>
#include <string.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/statfs.h>
#include <sys/wait.h>

#include "syscall/compat/compat.h"
#include "syscall/handler.h"

static long getdents_convert(struct sg_thread *t, int fd, uint64_t dirent, uint64_t count_arg);

/* i386 numbers of the host's own ia32 entry */
#define IA32_NR_LSEEK 19
#define IA32_NR_LLSEEK 140
#define IA32_NR_GETDENTS 141
#define IA32_NR_GETDENTS64 220
#define IA32_NR_READDIR 89
#define IA32_NR_GETPID 20

/* The probe child: int $0x80 getpid, exit 0 if it returned. Cloned with
 * no exit signal, so neither sysgate nor the guest sees a SIGCHLD, and a
 * guest's wait(-1) (without __WALL) never reaps it. */
static bool probe_ia32_entry(void)
{
	long pid = host_syscall2(SYS_clone, 0, 0);
	int status = 0;

	if (pid == 0) {
		long r;

		__asm__ volatile("int $0x80"
				 : "=a"(r)
				 : "a"(IA32_NR_GETPID)
				 : "rbx", "rcx", "rdx", "r8", "r9", "r10", "r11",
				   "memory");
		host_syscall1(SYS_exit_group, r > 0 ? 0 : 1);
	}
	if (pid < 0)
		return false;
	while (host_syscall4(SYS_wait4, pid, &status, __WALL, 0) == -EINTR)
		;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

bool host_has_ia32_entry(void)
{
	static _Atomic int known; /* 0 not yet probed, 1 yes, 2 no */
	int v = known;

	if (!v) {
		v = probe_ia32_entry() ? 1 : 2;
		known = v;
	}
	return v == 1;
}

/* Directory offsets: file systems hash directory positions into 32 bits
 * for compat callers (ext4, ... look at in_compat_syscall()), and a 32-bit
 * C library fails with EOVERFLOW on 64-bit ones. So the calls that read
 * or set directory positions of i386 and x32 guests go through the host's
 * own int $0x80 entry, with the guest's (low) pointers unchanged: the
 * host answers exactly as to a native program, -EFAULT included. Without
 * IA32 emulation on the host (-ENOSYS), the 64-bit calls are used. */
/* Directory positions without the host's ia32 entry. ext4 (ext2/3 share
 * the magic) hashed directories give a compat caller (i386 or x32) the
 * position major_hash>>1, 0x7fffffff at the end; a 64-bit caller, as
 * sysgate is, gets (major_hash>>1)<<32 | minor_hash, 2^63-1 at the end.
 * So for those directories sysgate converts positions both ways and the
 * guest sees what the kernel would give it. A directory is hashed on a
 * dir_index file system if indexed, one block long or inline. Other file
 * systems' positions pass unchanged (they fit 32 bits on the common ones;
 * else -EOVERFLOW as before). */
#define EXT4_SUPER_MAGIC_ 0xEF53
#define EXT4_INDEX_FL_ 0x00001000
#define EXT4_INLINE_DATA_FL_ 0x10000000
#define DIRPOS_EOF32 0x7fffffffLL
#define DIRPOS_EOF64 0x7fffffffffffffffLL

static bool dir_positions_hashed(long fd)
{
	struct statfs sfs;
	struct stat st;
	unsigned int flags = 0;

	if (host_has_ia32_entry() ||
	    host_syscall2(SYS_fstat, fd, &st) || !S_ISDIR(st.st_mode) ||
	    host_syscall2(SYS_fstatfs, fd, &sfs) ||
	    sfs.f_type != EXT4_SUPER_MAGIC_)
		return false;
	host_syscall3(SYS_ioctl, fd, FS_IOC_GETFLAGS, &flags);
	return (flags & (EXT4_INDEX_FL_ | EXT4_INLINE_DATA_FL_)) ||
	       st.st_size <= st.st_blksize;
}

static int64_t dirpos_to_compat(int64_t pos)
{
	return pos == DIRPOS_EOF64 ? DIRPOS_EOF32 : (int64_t)((uint64_t)pos >> 32);
}

static int64_t dirpos_from_compat(int64_t pos)
{
	return pos == DIRPOS_EOF32 ? DIRPOS_EOF64 : (int64_t)((uint64_t)pos << 32);
}

/* lseek on a hashed directory in compat positions (whence as the host's) */
static long dir_lseek_compat(long fd, int64_t off, int whence)
{
	long r;

	if (whence == SEEK_CUR) {
		r = host_syscall3(SYS_lseek, fd, 0, SEEK_CUR);
		if (r < 0)
			return r;
		off += dirpos_to_compat(r);
		whence = SEEK_SET;
	}
	if (whence == SEEK_SET) {
		if (off < 0)
			return -EINVAL;
		off = dirpos_from_compat(off);
	}
	r = host_syscall3(SYS_lseek, fd, off, whence);
	return r < 0 ? r : (long)dirpos_to_compat(r);
}

/* The host's int $0x80 writes a guest buffer itself, unchecked; in a
 * sanitizer build the low 4 GiB also hold the sanitizer's shadow, where
 * fuzz_syscall (i386) had getdents write directory entries. So the host
 * gets a buffer only as far as it is guest memory (any protection: on a
 * read-only page the host faults as the guest's kernel would): *len is
 * cut to that part, and a buffer with none is a pointer into the
 * PROT_NONE top of the low 4 GiB (EFAULT, in the order the host checks).
 * The part is also dropped from the decoded code where writable. */
static long int80_fault_ptr(struct sg_thread *t, uint64_t buf)
{
	return (long)(mm_task_size(sc_mm(t)) + (buf & (MM_PAGE_SIZE - 1)));
}

static long int80_buffer(struct sg_thread *t, uint64_t buf, uint64_t *len)
{
	uint64_t part = mm_access_prefix(sc_mm(t), buf, *len, 0);

	if (part == 0 && *len != 0)
		return int80_fault_ptr(t, buf);
	(void)sc_ok(t, buf, part, PROT_WRITE);
	*len = part;
	return (long)buf;
}

/* getdents through the ia32 entry into the guest's part of the buffer:
 * entries that would have run into memory not the guest's end the list
 * there, as the kernel's EFAULT does after the entries before it; when
 * not even the first fits, the kernel's answer is EFAULT, not the
 * host's EINVAL for a short buffer. */
static long int80_getdents(struct sg_thread *t, long nr, int fd, uint64_t dirent,
			  uint64_t count_arg)
{
	uint64_t len = (uint32_t)count_arg;
	long buf = int80_buffer(t, dirent, &len);
	long r = host_int80(nr, (long)fd, buf, (long)len, 0, 0);

	return r == -EINVAL && len < (uint32_t)count_arg ? -EFAULT : r;
}

static long compat_getdents_once(struct sg_thread *t, int fd, uint64_t dirent, uint64_t count_arg)
{
	long r = int80_getdents(t, IA32_NR_GETDENTS, fd, dirent, count_arg);

	return r == -ENOSYS ? getdents_convert(t, fd, dirent, count_arg) : r;
}

static long getdents64_once(struct sg_thread *t, int fd, uint64_t dirent, uint64_t count_arg)
{
	long err = 0;
	void *buf;

	/* the host's int $0x80 keeps a pointer's low 32 bits: an x32 buffer
	 * at or above 4 GiB would be written there (the kernel: -EFAULT) */
	if (sc_compat() && dirent <= UINT32_MAX) {
		long r = int80_getdents(t, IA32_NR_GETDENTS64, fd, dirent, count_arg);

		if (r != -ENOSYS)
			return r;
	}
	buf = sc_buf(t, dirent, (uint32_t)count_arg, PROT_WRITE, &err);
	if (err)
		return err;
	long n = host_syscall3(SYS_getdents64, fd, buf, (uint32_t)count_arg);

	if (n > 0 && sc_compat() && dir_positions_hashed((long)fd))
		for (long pos = 0; pos < n;) {
			/* the guest's buffer may be only 4-byte aligned */
			char *d = (char *)buf + pos;
			int64_t off;
			uint16_t reclen;

			memcpy(&off, d + offsetof(struct sc_linux_dirent64, d_off),
			       sizeof(off));
			memcpy(&reclen,
			       d + offsetof(struct sc_linux_dirent64, d_reclen),
			       sizeof(reclen));
			off = dirpos_to_compat(off);
			memcpy(d + offsetof(struct sc_linux_dirent64, d_off), &off,
			       sizeof(off));
			pos += reclen;
		}
	return n;
}

/* Both getdents: a listing of our own /proc/<pid>/fd without sysgate's
 * descriptors (fds.c). */
SG_SYSCALL_DEFINE3(compat_sys_getdents, fd, dirent, count)
{
	bool again;
	long n;

	do {
		n = compat_getdents_once(t, fd, dirent, count);
		n = sc_getdents_hide(t, fd, dirent, n, SC_DIRENT_COMPAT, &again);
	} while (again);
	return n;
}

SG_SYSCALL_DEFINE3(sys_getdents64, fd, dirent, count)
{
	bool again;
	long n;

	do {
		n = getdents64_once(t, fd, dirent, count);
		n = sc_getdents_hide(t, fd, dirent, n, SC_DIRENT64, &again);
	} while (again);
	return n;
}

/* i386 lseek(fd, compat off_t, whence) */
SG_SYSCALL_DEFINE3(compat_sys_lseek, fd, offset, whence)
{
	long r = host_int80(IA32_NR_LSEEK, (long)fd, (long)offset, (long)whence,
			    0, 0);

	if (r != -ENOSYS)
		return r;
	if (dir_positions_hashed((long)fd))
		return dir_lseek_compat((long)fd, sc_s32(offset), (int)whence);
	return host_syscall3(SYS_lseek, fd, sc_s32(offset), whence);
}

static bool is_directory(long fd)
{
	struct stat st;

	return host_syscall2(SYS_fstat, fd, &st) == 0 && S_ISDIR(st.st_mode);
}

/* x86_64 lseek; x32 lseek on a directory through the ia32 entry while the
 * offset fits 32 bits (directory positions always do): its positions are
 * a compat caller's. Anything else as x86_64: x32's lseek is the 64-bit
 * call, whose result the ia32 entry would cut to 32 bits (a file's end
 * past 4 GiB). */
SG_SYSCALL_DEFINE3(sys_lseek, fd, offset, whence)
{
	if (sc_compat() && (int64_t)offset == (int32_t)offset &&
	    is_directory((long)fd)) {
		long r = host_int80(IA32_NR_LSEEK, (long)fd, (long)offset,
				    (long)whence, 0, 0);

		if (r != -ENOSYS && r != -EOVERFLOW)
			return r;
		if (r == -ENOSYS && dir_positions_hashed((long)fd))
			return dir_lseek_compat((long)fd, (int64_t)offset,
						(int)whence);
	}
	return host_syscall3(SYS_lseek, fd, offset, whence);
}

/* i386 _llseek(fd, offset_high, offset_low, loff_t *result, whence) */
SG_SYSCALL_DEFINE5(sys_llseek, fd, offset_high, offset_low, uresult, whence)
{
	uint64_t off = (offset_high << 32) | (uint32_t)offset_low;
	int64_t pos;
	/* the result only into guest memory (int80_buffer) */
	long r = host_int80(IA32_NR_LLSEEK, (long)fd, (long)offset_high, (long)offset_low,
			    sc_ok(t, uresult, sizeof(pos), 0) ? (long)uresult : int80_fault_ptr(t, uresult),
			    (long)whence);

	if (r != -ENOSYS)
		return r;
	if (dir_positions_hashed((long)fd))
		r = dir_lseek_compat((long)fd, (int64_t)off, (int)whence);
	else
		r = host_syscall3(SYS_lseek, fd, off, whence);
	if (r < 0)
		return r;
	pos = r;
	return copy_to_guest(sc_mm(t), uresult, &pos, sizeof(pos)) ? -EFAULT : 0;
}

/* compat getdents without the host's ia32 entry: read linux_dirent64
 * records into a bounce buffer, re-pack as the i386 struct linux_dirent.
 * Records that do not fit are given back with lseek to the last one
 * copied. -EOVERFLOW for an inode or offset over 32 bits. */
static long getdents_convert(struct sg_thread *t, int fd, uint64_t dirent, uint64_t count_arg)
{
	uint32_t count = (uint32_t)count_arg;
	char in[8192], out[8192];
	size_t used = 0, pos = 0;
	int64_t last_off = -1;
	bool hashed;
	long n;

	if (!sc_ok(t, dirent, count, PROT_WRITE))
		return -EFAULT;
	/* host records are at least as large: ask for no more than fits */
	n = host_syscall3(SYS_getdents64, fd, in,
			  count < sizeof(in) ? count : sizeof(in));
	if (n <= 0)
		return n;
	hashed = dir_positions_hashed((long)fd);
	while (pos < (size_t)n) {
		const struct sc_linux_dirent64 *d = (const void *)(in + pos);
		size_t namelen = strlen(d->d_name);
		/* the name, its NUL and the type byte, to the compat long */
		size_t reclen = (offsetof(struct compat_linux_dirent, d_name) + namelen + 2 +
				 sizeof(compat_ulong_t) - 1) & ~(sizeof(compat_ulong_t) - 1);
		struct compat_linux_dirent *c = (void *)(out + used);

		if (used + reclen > count || used + reclen > sizeof(out))
			break;
		int64_t off = hashed ? dirpos_to_compat(d->d_off) : d->d_off;

		if ((d->d_ino >> 32) || ((uint64_t)off >> 32)) {
			if (!used)
				return -EOVERFLOW;
			break;
		}
		memset(c, 0, reclen);
		c->d_ino = (uint32_t)d->d_ino;
		c->d_off = (uint32_t)off;
		c->d_reclen = (uint16_t)reclen;
		memcpy(c->d_name, d->d_name, namelen);
		out[used + reclen - 1] = (char)d->d_type;
		used += reclen;
		last_off = d->d_off;
		pos += d->d_reclen;
	}
	if (!used)
		return -EINVAL; /* the buffer cannot hold one entry */
	if (pos < (size_t)n)
		host_syscall3(SYS_lseek, fd, last_off, SEEK_SET);
	if (copy_to_guest(sc_mm(t), dirent, out, used))
		return -EFAULT;
	return (long)used;
}

/* readdir: one old_linux_dirent, 1 or 0 at the end */
SG_SYSCALL_DEFINE3(compat_sys_old_readdir, fd, dirent, count)
{
	/* the entry (a name of at most 255 bytes) only into guest memory */
	long r80 = host_int80(IA32_NR_READDIR, (long)fd,
			      sc_ok(t, dirent, sizeof(struct compat_old_linux_dirent) + 256, 0)
				      ? (long)dirent : int80_fault_ptr(t, dirent),
			      (long)count, 0, 0);

	if (r80 != -ENOSYS)
		return r80;
	char in[sizeof(struct sc_linux_dirent64) + 256 + 8];
	const struct sc_linux_dirent64 *d = (const void *)in;
	struct compat_old_linux_dirent c;
	size_t namelen;
	long n = host_syscall3(SYS_getdents64, fd, in, sizeof(in));

	if (n <= 0)
		return n;
	if (d->d_reclen < (size_t)n)
		host_syscall3(SYS_lseek, fd, d->d_off, SEEK_SET);
	namelen = strlen(d->d_name);
	int64_t off = dir_positions_hashed((long)fd) ? dirpos_to_compat(d->d_off)
						       : d->d_off;

	if ((d->d_ino >> 32) || ((uint64_t)off >> 32))
		return -EOVERFLOW;
	c.d_ino = (uint32_t)d->d_ino;
	c.d_offset = (uint32_t)off;
	c.d_namlen = (uint16_t)namelen;
	if (copy_to_guest(sc_mm(t), dirent, &c, sizeof(c)) ||
	    copy_to_guest(sc_mm(t), dirent + offsetof(typeof(c), d_name),
			  d->d_name, namelen + 1))
		return -EFAULT;
	return 1;
}
