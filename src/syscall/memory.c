/* Guest address space calls: brk, the three mmap forms, munmap, mprotect,
 * mremap, madvise. src/mm keeps the guest's mappings; decoded code for any
 * range that is unmapped, replaced or changes protection is dropped. */
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/statfs.h>

#include "syscall/compat/compat.h"
#include "syscall/handler.h"
#include "vdso/vdso.h"

static bool is_err(long r)
{
	return r < 0 && r >= -4095;
}

SG_SYSCALL_DEFINE1(sys_brk, brk)
{
	return (long)mm_brk(sc_mm(t), brk);
}

#define SC_HUGETLBFS_MAGIC 0x958458f6
#define SC_MAP_HUGE_SHIFT 26
#define SC_MAP_HUGE_MASK 0x3f

/* What the kernel's ksys_mmap_pgoff checks before the mapping itself: a
 * file mapping's descriptor (EBADF), MAP_HUGETLB on a file that is not
 * hugetlbfs, or with a huge page size the host does not have (EINVAL). */
static long mmap_file_checks(int flags, int fd)
{
	if (!(flags & MAP_ANONYMOUS)) {
		struct statfs sfs;

		if (host_syscall2(SYS_fstatfs, fd, &sfs) == -EBADF)
			return -EBADF;
		if ((flags & MAP_HUGETLB) &&
		    (uint32_t)sfs.f_type != SC_HUGETLBFS_MAGIC)
			return -EINVAL;
	} else if (flags & MAP_HUGETLB) {
		unsigned shift = ((unsigned)flags >> SC_MAP_HUGE_SHIFT) &
				 SC_MAP_HUGE_MASK;
		char path[64];
		struct stat st;

		if (shift && (shift < 12 || shift > 40))
			return -EINVAL;
		if (shift) {
			snprintf(path, sizeof(path),
				 "/sys/kernel/mm/hugepages/hugepages-%llukB",
				 (1ull << shift) >> 10);
			if (host_syscall4(SYS_newfstatat, AT_FDCWD, path, &st, 0))
				return -EINVAL;
		}
	}
	return 0;
}

static long do_mmap(struct sg_thread *t, uint64_t addr, uint64_t len, int prot,
		    int flags, int fd, uint64_t off)
{
	long r = mmap_file_checks(flags, fd);

	if (r)
		return r;
	/* decoded code under a MAP_FIXED mapping goes: mm tells the CPU */
	return mm_mmap(sc_mm(t), addr, len, prot, flags, fd, (off_t)off);
}

/* x86_64 and x32: offset in bytes, must be page aligned */
SG_SYSCALL_DEFINE6(sys_mmap, addr, len, prot, flags, fd, off)
{
	if (off & (MM_PAGE_SIZE - 1))
		return -EINVAL;
	return do_mmap(t, addr, len, (int)prot, (int)flags, fd, off);
}

/* i386 mmap2: offset in 4096-byte pages */
SG_SYSCALL_DEFINE6(sys_mmap_pgoff, addr, len, prot, flags, fd, pgoff)
{
	return do_mmap(t, addr, len, (int)prot, (int)flags, fd,
		       (uint64_t)(uint32_t)pgoff * MM_PAGE_SIZE);
}

/* i386 old mmap (90): the arguments in a struct in guest memory */
SG_SYSCALL_DEFINE1(compat_sys_ia32_mmap, arg)
{
	struct compat_mmap_arg m;

	if (copy_from_guest(sc_mm(t), &m, arg, sizeof(m)))
		return -EFAULT;
	if (m.offset & (MM_PAGE_SIZE - 1))
		return -EINVAL;
	if (!(m.flags & MAP_ANONYMOUS) && sc_names_private_fd(1, (uint64_t[1]){ m.fd }))
		return -EBADF; /* the entry's check cannot see into the struct */
	return do_mmap(t, m.addr, m.len, (int)m.prot, (int)m.flags, (int)m.fd,
		       m.offset);
}

SG_SYSCALL_DEFINE(sys_old_mmap)
{
	return compat_sys_ia32_mmap(t, a);
}

SG_SYSCALL_DEFINE2(sys_munmap, addr, len)
{
	return mm_munmap(sc_mm(t), addr, len);
}

SG_SYSCALL_DEFINE3(sys_mprotect, start, len, prot_arg)
{
	/* prot is an unsigned long for x86_64 and x32: bits above 31 are
	 * unknown bits (EINVAL at that check), 0x40000000 stands for them */
	int prot = (int)prot_arg | (!sc_i386() && (prot_arg >> 32) ? 0x40000000 : 0);
	return mm_mprotect(sc_mm(t), start, len, prot);
}

SG_SYSCALL_DEFINE5(sys_mremap, addr, old_len, new_len, flags_arg, new_addr)
{
	uint64_t vdso_base = sc_vdso_base(t);
	const struct vdso_image *vdso = vdso_image_for(sc_abi(t));
	/* flags is a long for x86_64 and x32: high bits are unknown flags */
	int flags = (int)flags_arg | (!sc_i386() && (flags_arg >> 32) ? 0x40000000 : 0);
	long r;

	/* the kernel's vDSO is a special mapping that may not be split: only
	 * all of it moves (the selftest test_mremap_vdso grows its try) */
	if (vdso_base && vdso && addr >= vdso_base &&
	    addr < vdso_base + vdso->size &&
	    (addr != vdso_base || MM_PAGE_ALIGN_UP(old_len) != vdso->size))
		return -EINVAL;
	r = mm_mremap(sc_mm(t), addr, old_len, new_len, flags, new_addr);

	if (!is_err(r))
		sc_vdso_moved(t, addr, (uint64_t)r);
	return r;
}

/* --- calls on a range of pages: msync, mlock, mlock2, munlock, madvise,
 * mincore. Only the guest's pages reach the host: elsewhere (sysgate's
 * own memory, the low-4 GiB reservation) the guest has nothing, so its
 * range has a hole there and the kernel's answer is ENOMEM. The host
 * first sees the call with length 0, which runs its argument checks
 * (flags, alignment, privileges: EINVAL, EPERM) and nothing else; then
 * the guest's pieces of the range, as the kernel acts on the mapped part
 * of a range with holes (up to the first hole for the mlock family). */
static long guest_pieces(struct sg_thread *t, long nr, uint64_t addr,
			 uint64_t len, long arg, bool stop_at_hole)
{
	struct mm *mm = sc_mm(t);
	/* the mlock family rounds the start down and counts its offset in
	 * the length; msync and madvise need it aligned (the host said so) */
	bool lock = stop_at_hole;
	uint64_t start = lock ? MM_PAGE_ALIGN_DOWN(addr) : addr;
	uint64_t alen = MM_PAGE_ALIGN_UP(len + (lock ? addr - start : 0));
	uint64_t end = start + alen, cur = start;
	bool hole = false;
	long r = host_syscall3(nr, addr, 0, arg);

	if (r || len == 0)
		return r;
	if (nr == SYS_madvise && !alen)
		return -EINVAL;
	if (end < start)
		return nr == SYS_msync ? -ENOMEM : -EINVAL;
	while (cur < end) {
		uint64_t part = mm_access_prefix(mm, cur, end - cur, 0);

		if (part) {
			r = host_syscall3(nr, cur, part, arg);
			if (r && r != -ENOMEM)
				return r;
			cur += part;
			continue;
		}
		hole = true;
		if (stop_at_hole)
			break;
		cur = mm_next_mapped(mm, cur);
	}
	return hole ? -ENOMEM : r;
}

SG_SYSCALL_DEFINE3(sys_msync, start, len, flags)
{
	return guest_pieces(t, SYS_msync, start, len, (int)flags, false);
}

SG_SYSCALL_DEFINE2(sys_mlock, start, len)
{
	return guest_pieces(t, SYS_mlock, start, len, 0, true);
}

SG_SYSCALL_DEFINE3(sys_mlock2, start, len, flags)
{
	return guest_pieces(t, SYS_mlock2, start, len, (int)flags, true);
}

SG_SYSCALL_DEFINE2(sys_munlock, start, len)
{
	return guest_pieces(t, SYS_munlock, start, len, 0, true);
}

SG_SYSCALL_DEFINE3(sys_madvise, start, len_in, behavior)
{
	return guest_pieces(t, SYS_madvise, start, len_in, (int)behavior, false);
}

/* mincore(addr, len, vec): one byte per page of a guest range; the
 * kernel checks both ranges against the user address space, then walks
 * the pages, filling vec, up to the first unmapped one (ENOMEM) */
SG_SYSCALL_DEFINE3(sys_mincore, start, len, vec_addr)
{
	struct mm *mm = sc_mm(t);
	uint64_t pages = MM_PAGE_ALIGN_UP(len) / MM_PAGE_SIZE;
	uint64_t user_end = mm_is_low4g(mm) ? UINT64_MAX : mm_task_size(mm);
	uint64_t part;
	long err = 0;
	void *vec;

	if (start & (MM_PAGE_SIZE - 1))
		return -EINVAL;
	if (start + len < start || start + len > user_end)
		return -ENOMEM;
	if (vec_addr + pages < vec_addr || vec_addr + pages > user_end)
		return -EFAULT;
	vec = sc_buf(t, vec_addr, pages, PROT_WRITE, &err);
	if (err)
		return err;
	part = mm_access_prefix(mm, start, pages * MM_PAGE_SIZE, 0);
	if (part >= pages * MM_PAGE_SIZE)
		return host_syscall3(SYS_mincore, start, len, vec);
	if (part) {
		long r = host_syscall3(SYS_mincore, start, part, vec);

		if (r)
			return r;
	}
	return -ENOMEM;
}
