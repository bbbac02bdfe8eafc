/* Guest address space calls: brk, the three mmap forms, munmap, mprotect,
 * mremap, madvise. src/mm keeps the guest's mappings; decoded code for any
 * range that is unmapped, replaced or changes protection is dropped. */
#include "cpu/cpu.h"
#include "syscall/compat/compat.h"
#include "syscall/internal.h"
#include "vdso/vdso.h"

static bool is_err(long r)
{
	return r < 0 && r >= -4095;
}

SG_SYSCALL_DEFINE(sys_brk)
{
	return (long)mm_brk(sc_mm(t), a[0]);
}

static long do_mmap(struct sg_thread *t, uint64_t addr, uint64_t len, int prot,
		    int flags, int fd, uint64_t off)
{
	long r = mm_mmap(sc_mm(t), addr, len, prot, flags, fd, (off_t)off);

	if (!is_err(r) && (flags & MAP_FIXED))
		cpu_invalidate_code((uint64_t)r, len);
	return r;
}

/* x86_64 and x32: offset in bytes, must be page aligned */
SG_SYSCALL_DEFINE(sys_mmap)
{
	if (a[5] & (MM_PAGE_SIZE - 1))
		return -EINVAL;
	return do_mmap(t, a[0], a[1], (int)a[2], (int)a[3], (int)a[4], a[5]);
}

/* i386 mmap2: offset in 4096-byte pages */
SG_SYSCALL_DEFINE(sys_mmap_pgoff)
{
	return do_mmap(t, a[0], a[1], (int)a[2], (int)a[3], (int)a[4],
		       (uint64_t)(uint32_t)a[5] * MM_PAGE_SIZE);
}

/* i386 old mmap (90): the arguments in a struct in guest memory */
SG_SYSCALL_DEFINE(compat_sys_ia32_mmap)
{
	struct compat_mmap_arg m;

	if (copy_from_guest(sc_mm(t), &m, a[0], sizeof(m)))
		return -EFAULT;
	if (m.offset & (MM_PAGE_SIZE - 1))
		return -EINVAL;
	return do_mmap(t, m.addr, m.len, (int)m.prot, (int)m.flags, (int)m.fd,
		       m.offset);
}

SG_SYSCALL_DEFINE(sys_old_mmap)
{
	return compat_sys_ia32_mmap(t, a);
}

SG_SYSCALL_DEFINE(sys_munmap)
{
	long r = mm_munmap(sc_mm(t), a[0], a[1]);

	if (r == 0)
		cpu_invalidate_code(a[0], a[1]);
	return r;
}

SG_SYSCALL_DEFINE(sys_mprotect)
{
	long r = mm_mprotect(sc_mm(t), a[0], a[1], (int)a[2]);

	if (r == 0)
		cpu_invalidate_code(a[0], a[1]);
	return r;
}

/* The vDSO moved by mremap: as the kernel's vdso_mremap, the process's
 * vDSO is where its start went, and what sysgate finds there follows it
 * (the SYSENTER landing pad, the i386 signal restorers through vdso_base,
 * the time functions' private return). AT_SYSINFO stays what it was. */
static void vdso_moved(struct sg_process *p, uint64_t old, uint64_t new)
{
	struct sg_image_info *im = &p->image;
	uint64_t delta = new - old;

	if (!im->vdso_base || old != im->vdso_base || new == old)
		return;
	im->vdso_base = new;
	if (im->sysenter_return)
		im->sysenter_return += delta;
	if (im->vdso_private_return)
		im->vdso_private_return += delta;
}

SG_SYSCALL_DEFINE(sys_mremap)
{
	const struct sg_image_info *im = &t->proc->image;
	const struct vdso_image *vdso = vdso_image_for(t->proc->abi);
	long r;

	/* the kernel's vDSO is a special mapping that may not be split: only
	 * all of it moves (the selftest test_mremap_vdso grows its try) */
	if (im->vdso_base && vdso && a[0] >= im->vdso_base &&
	    a[0] < im->vdso_base + vdso->size &&
	    (a[0] != im->vdso_base || MM_PAGE_ALIGN_UP(a[1]) != vdso->size))
		return -EINVAL;
	r = mm_mremap(sc_mm(t), a[0], a[1], a[2], (int)a[3], a[4]);

	if (!is_err(r)) {
		cpu_invalidate_code(a[0], a[1]);
		cpu_invalidate_code((uint64_t)r, a[2]);
		vdso_moved(t->proc, a[0], (uint64_t)r);
	}
	return r;
}

/* Advice only touches guest pages: the range must be guest memory. */
SG_SYSCALL_DEFINE(sys_madvise)
{
	uint64_t len = MM_PAGE_ALIGN_UP(a[1]);

	if (a[0] & (MM_PAGE_SIZE - 1))
		return -EINVAL;
	if (!sc_ok(t, a[0], len, 0))
		return -ENOMEM;
	return host_syscall3(SYS_madvise, a[0], len, a[2]);
}

/* mincore(addr, len, vec): one byte per page of a guest range */
SG_SYSCALL_DEFINE(sys_mincore)
{
	uint64_t pages = MM_PAGE_ALIGN_UP(a[1]) / MM_PAGE_SIZE;

	if (a[0] & (MM_PAGE_SIZE - 1))
		return -EINVAL;
	if (!sc_ok(t, a[0], pages * MM_PAGE_SIZE, 0))
		return -ENOMEM;
	if (!sc_ok(t, a[2], pages, PROT_WRITE))
		return -EFAULT;
	return host_syscall3(SYS_mincore, a[0], a[1], g2h(a[2]));
}
