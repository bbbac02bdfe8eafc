/* Process and thread state: exit, thread registration (tid address,
 * robust list, rseq), TLS (arch_prctl, set/get_thread_area), the i386
 * 16-bit id and 32-bit rlimit forms, and CPU affinity for compat callers. */
#include <asm/prctl.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "cpu/cpu.h"
#include "signal/signal.h"
#include "syscall/compat/compat.h"
#include "syscall/internal.h"

/* --- exit ---------------------------------------------------------------- */

/* exit_group: the guest process ends, sysgate does not: every thread's run
 * loop stops (the others are kicked out of blocking calls) and sg_run
 * returns the status. */
SG_SYSCALL_DEFINE1(sys_exit_group, error_code)
{
	struct sg_task *k = sg_task(t);
	struct sg_exit status = { .code = error_code & 0xff };

	if (k->group->hooks.exit_group)
		k->group->hooks.exit_group(k, &status);
	return 0;
}

/* exit: this thread ends (clear_child_tid, futex wake: src/core/thread.c);
 * the last one out ends the process with the leader's code. */
SG_SYSCALL_DEFINE1(sys_exit, error_code)
{
	struct sg_task *k = sg_task(t);

	k->exit_code = error_code & 0xff;
	k->gone = true;
	return 0;
}

/* --- thread registration ------------------------------------------------- */

SG_SYSCALL_DEFINE1(sys_set_tid_address, tidptr)
{
	struct sg_task *k = sg_task(t);

	k->clear_child_tid = tidptr;
	if (!k->tid)
		k->tid = (int)host_syscall0(SYS_gettid);
	return k->tid;
}

static long set_robust_list(struct sg_thread *t, uint64_t head, uint64_t len,
			    uint64_t head_size)
{
	struct sg_task *k = sg_task(t);

	if (len != head_size)
		return -EINVAL;
	k->robust_list = head;
	k->robust_list_len = len;
	return 0;
}

/* struct robust_list_head: three guest longs */
SG_SYSCALL_DEFINE2(sys_set_robust_list, head, len)
{
	return set_robust_list(t, head, len, sc_compat() ? 12 : 24);
}

SG_SYSCALL_DEFINE2(compat_sys_set_robust_list, head, len)
{
	return set_robust_list(t, head, len, 12);
}

/* get_robust_list(pid, head_ptr, len_ptr): a thread of this process (0:
 * the caller) answers the head it registered with sysgate; another task's
 * is the host's (permission and ESRCH as natively; a task that runs under
 * sysgate shows its host thread's list). len is the size of the ABI's
 * struct robust_list_head, written first, as the kernel does. */
static long get_robust_list(struct sg_thread *t, int pid, uint64_t head_ptr,
			    uint64_t len_ptr, size_t word)
{
	struct sg_task *k = sg_task(t);
	uint64_t head = 0, len = 3 * word;
	bool found = pid == 0;

	if (found)
		head = k->robust_list;
	else if (k->group->hooks.robust_list_of)
		found = k->group->hooks.robust_list_of(k, pid, &head);
	if (!found) {
		void *host_head;
		size_t host_len;
		long r = host_syscall3(SYS_get_robust_list, pid, &host_head,
				       &host_len);

		if (r)
			return r;
		head = (uint64_t)(uintptr_t)host_head;
	}
	if (copy_to_guest(sc_mm(t), len_ptr, &len, word) ||
	    copy_to_guest(sc_mm(t), head_ptr, &head, word))
		return -EFAULT;
	return 0;
}

SG_SYSCALL_DEFINE3(sys_get_robust_list, pid, head_ptr, len_ptr)
{
	return get_robust_list(t, pid, head_ptr, len_ptr, sc_compat() ? 4 : 8);
}

SG_SYSCALL_DEFINE3(compat_sys_get_robust_list, pid, head_ptr, len_ptr)
{
	return get_robust_list(t, pid, head_ptr, len_ptr, 4);
}

/* The host kernel would update an rseq area on migration and preemption of
 * the host thread, which is not the guest's CPU: registration is refused and
 * glibc carries on without it (sched_getcpu falls back to getcpu). */
SG_SYSCALL_DEFINE(sys_rseq)
{
	return -ENOSYS;
}

/* --- FS/GS base: arch_prctl ---------------------------------------------- */

SG_SYSCALL_DEFINE2(sys_arch_prctl, option, addr)
{
	struct cpu *cpu = &sg_task(t)->cpu;
	uint64_t val;

	switch ((int)option) {
	case ARCH_SET_FS:
	case ARCH_SET_GS:
		/* the kernel refuses bases outside the user address space */
		if (addr >= MM_X64_TASK_SIZE)
			return -EPERM;
		cpu_set_seg_base(cpu, (int)option == ARCH_SET_FS ? SEG_FS : SEG_GS, addr);
		return 0;
	case ARCH_GET_FS:
	case ARCH_GET_GS:
		val = cpu_seg_base(cpu, (int)option == ARCH_GET_FS ? SEG_FS : SEG_GS);
		/* an unsigned long of the kernel: 8 bytes, x32 included */
		return copy_to_guest(sc_mm(t), addr, &val, sizeof(val));
	case ARCH_GET_CPUID:
		return 1;
	default:
		return -EINVAL;
	}
}

/* i386 arch_prctl (384): only the ABI-independent codes; FS/GS bases are
 * 64-bit business (-EINVAL, as do_arch_prctl_common answers). */
SG_SYSCALL_DEFINE2(compat_sys_arch_prctl, option, addr)
{
	(void)addr; /* no i386 code takes one */
	if ((int)option == ARCH_GET_CPUID)
		return 1;
	return -EINVAL;
}

/* --- i386 TLS descriptors: set_thread_area / get_thread_area ------------- */

/* struct sc_user_desc (generated: the 64-bit kernel's <asm/ldt.h>, which
 * it reads from i386 too) and its flags word's bit-fields; what the CPU
 * keeps of them (cpu_tls_desc.flags) is every bit-field but lm */
#define UD_FLAGS_MASK                                                              \
	(SC_USER_DESC_SEG_32BIT | SC_USER_DESC_CONTENTS | SC_USER_DESC_READ_EXEC_ONLY | \
	 SC_USER_DESC_LIMIT_IN_PAGES | SC_USER_DESC_SEG_NOT_PRESENT | SC_USER_DESC_USEABLE)

/* "clear this entry": LDT_empty or all zero */
static bool desc_is_clear(const struct sc_user_desc *u)
{
	uint32_t f = u->flags & (UD_FLAGS_MASK | SC_USER_DESC_LM);

	if (u->base_addr || u->limit)
		return false;
	return f == 0 || f == (SC_USER_DESC_READ_EXEC_ONLY | SC_USER_DESC_SEG_NOT_PRESENT);
}

static bool desc_okay(const struct sc_user_desc *u)
{
	if (desc_is_clear(u))
		return true;
	if (!(u->flags & SC_USER_DESC_SEG_32BIT))
		return false;  /* no 16-bit segments */
	if (LAYOUT_BITS(u->flags, SC_USER_DESC_CONTENTS) > 1)
		return false;  /* data segments only */
	if (u->flags & SC_USER_DESC_SEG_NOT_PRESENT)
		return false;
	return true;
}

/* set_thread_area for t (clone's CLONE_SETTLS too: the new thread's). */
long sc_set_thread_area(struct sg_task *t, uint64_t u_info)
{
	struct cpu *cpu = &t->cpu;
	struct sc_user_desc u;
	struct cpu_tls_desc d = { 0 };
	uint32_t idx;

	if (copy_from_guest(t->group->mm, &u, u_info, sizeof(u)))
		return -EFAULT;
	if (!desc_okay(&u))
		return -EINVAL;
	idx = u.entry_number;
	if (idx == UINT32_MAX) {
		for (idx = 0; idx < CPU_GDT_TLS_COUNT; idx++)
			if (!cpu_tls_entry(cpu, idx)->present)
				break;
		if (idx == CPU_GDT_TLS_COUNT)
			return -ESRCH;
		idx += CPU_GDT_TLS_MIN;
		if (copy_to_guest(t->group->mm, u_info, &idx, sizeof(idx)))
			return -EFAULT;
	}
	if (idx < CPU_GDT_TLS_MIN || idx >= CPU_GDT_TLS_MIN + CPU_GDT_TLS_COUNT)
		return -EINVAL;
	if (!desc_is_clear(&u)) {
		d.base = u.base_addr;
		d.limit = u.limit & 0xfffff;
		d.flags = u.flags & UD_FLAGS_MASK;
		d.present = true;
	}
	cpu_set_tls_entry(cpu, idx - CPU_GDT_TLS_MIN, &d);
	return 0;
}

SG_SYSCALL_DEFINE1(sys_set_thread_area, u_info)
{
	return sc_set_thread_area(sg_task(t), u_info);
}

SG_SYSCALL_DEFINE1(sys_get_thread_area, u_info)
{
	struct sc_user_desc u;
	const struct cpu_tls_desc *d;
	uint32_t idx;

	if (copy_from_guest(sc_mm(t), &idx, u_info, sizeof(idx)))
		return -EFAULT;
	if (idx < CPU_GDT_TLS_MIN || idx >= CPU_GDT_TLS_MIN + CPU_GDT_TLS_COUNT)
		return -EINVAL;
	d = cpu_tls_entry(&sg_task(t)->cpu, idx - CPU_GDT_TLS_MIN);
	u.entry_number = idx;
	if (d->present) {
		u.base_addr = d->base;
		u.limit = d->limit;
		u.flags = d->flags;
	} else {
		/* what an all-zero descriptor decodes to */
		u.base_addr = 0;
		u.limit = 0;
		u.flags = SC_USER_DESC_READ_EXEC_ONLY | SC_USER_DESC_SEG_NOT_PRESENT;
	}
	return copy_to_guest(sc_mm(t), u_info, &u, sizeof(u));
}

/* --- i386 16-bit ids ------------------------------------------------------- */

#define SG_ID16(entry, nr)                                             \
	SG_SYSCALL_DEFINE(entry)                                       \
	{                                                              \
		return compat_high2low_id((uint32_t)host_syscall0(nr)); \
	}

SG_ID16(sys_getuid16, SYS_getuid)
SG_ID16(sys_geteuid16, SYS_geteuid)
SG_ID16(sys_getgid16, SYS_getgid)
SG_ID16(sys_getegid16, SYS_getegid)

/* --- i386 rlimits ------------------------------------------------------------ */

static long compat_getrlimit(struct sg_thread *t, uint64_t resource, uint64_t rlim,
			     uint32_t infinity)
{
	struct rlimit r;
	struct compat_rlimit c;
	long ret = sc_host_getrlimit(sc_mm(t), (int)resource, &r);

	if (ret)
		return ret;
	put_compat_rlimit(&c, &r, infinity);
	return copy_to_guest(sc_mm(t), rlim, &c, sizeof(c));
}

SG_SYSCALL_DEFINE2(compat_sys_getrlimit, resource, rlim)
{
	return compat_getrlimit(t, resource, rlim, COMPAT_RLIM_INFINITY);
}

SG_SYSCALL_DEFINE2(compat_sys_old_getrlimit, resource, rlim)
{
	return compat_getrlimit(t, resource, rlim, COMPAT_RLIM_OLD_INFINITY);
}

SG_SYSCALL_DEFINE2(compat_sys_setrlimit, resource, rlim)
{
	struct compat_rlimit c;
	struct rlimit r;

	if (copy_from_guest(sc_mm(t), &c, rlim, sizeof(c)))
		return -EFAULT;
	get_compat_rlimit(&r, &c);
	return sc_host_setrlimit(sc_mm(t), (int)resource, &r);
}

/* --- affinity for 32-bit longs ---------------------------------------------- */

/* The host's nr_cpu_ids: the last possible CPU + 1. */
static long host_nr_cpu_ids(void)
{
	static long n;
	char buf[64];

	if (n)
		return n;
	if (host_read_small_file("/sys/devices/system/cpu/possible", buf, sizeof(buf)) > 0) {
		char *p = strrchr(buf, '-'), *q = strrchr(buf, ',');

		if (q && (!p || q > p))
			p = q;
		n = strtol(p ? p + 1 : buf, NULL, 10) + 1;
	}
	if (n <= 0)
		n = 1;
	return n;
}

SG_SYSCALL_DEFINE3(compat_sys_sched_getaffinity, pid, len_arg, user_mask_ptr)
{
	uint8_t mask[1024];
	uint32_t len = (uint32_t)len_arg;
	long r;

	/* the kernel's compat checks: len * 8 (an unsigned int, which can
	 * wrap) below nr_cpu_ids, then the alignment */
	if ((uint32_t)(len * 8u) < (uint32_t)host_nr_cpu_ids())
		return -EINVAL;
	if (len & 3)
		return -EINVAL;
	r = host_syscall3(SYS_sched_getaffinity, pid,
			  len < sizeof(mask) ? (len + 7) & ~7u : sizeof(mask),
			  mask);
	if (r < 0)
		return r;
	if ((uint64_t)r > len)
		r = len;
	if (copy_to_guest(sc_mm(t), user_mask_ptr, mask, (size_t)r))
		return -EFAULT;
	return r;
}
