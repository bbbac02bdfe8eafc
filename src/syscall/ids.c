/* Identity, limits and system information where the guest's form differs
 * from the host's: the i386 16-bit uid/gid calls, old uname forms, the
 * i386 rusage / sysinfo / tms layouts, nice (no x86_64 host call), and
 * prctl, whose pointer arguments depend on the option. */
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/sysinfo.h>
#include <sys/times.h>
#include <sys/utsname.h>

#include "syscall/compat/compat.h"
#include "syscall/handler.h"

/* --- i386 16-bit ids: -1 (0xffff) stays "unchanged" (low2highuid) -------- */
SG_PASSTHROUGH(sys_setuid16, SYS_setuid)
SG_PASSTHROUGH(sys_setgid16, SYS_setgid)
SG_PASSTHROUGH(sys_setreuid16, SYS_setreuid)
SG_PASSTHROUGH(sys_setregid16, SYS_setregid)
SG_PASSTHROUGH(sys_setresuid16, SYS_setresuid)
SG_PASSTHROUGH(sys_setresgid16, SYS_setresgid)
SG_PASSTHROUGH(sys_chown16, SYS_chown)
SG_PASSTHROUGH(sys_lchown16, SYS_lchown)
SG_PASSTHROUGH(sys_fchown16, SYS_fchown)

/* setfsuid answers the previous fsuid, narrowed as well */
SG_SYSCALL_DEFINE1(sys_setfsuid16, uid)
{
	uint16_t id = (uint16_t)uid;

	return compat_high2low_id((uint32_t)host_syscall1(
		SYS_setfsuid, id == 0xffff ? -1L : (long)id));
}

SG_SYSCALL_DEFINE1(sys_setfsgid16, gid)
{
	uint16_t id = (uint16_t)gid;

	return compat_high2low_id((uint32_t)host_syscall1(
		SYS_setfsgid, id == 0xffff ? -1L : (long)id));
}

/* the three ids of host call nr, narrowed, to the guest's addresses */
static long getres16(struct sg_thread *t, long nr, const uint64_t addr[3])
{
	uint32_t id[3];
	long r = host_syscall3(nr, &id[0], &id[1], &id[2]);

	for (int i = 0; i < 3 && r == 0; i++) {
		uint16_t v = compat_high2low_id(id[i]);

		if (copy_to_guest(sc_mm(t), addr[i], &v, sizeof(v)))
			r = -EFAULT;
	}
	return r;
}

SG_SYSCALL_DEFINE3(sys_getresuid16, ruid, euid, suid)
{
	return getres16(t, SYS_getresuid, (const uint64_t[3]){ ruid, euid, suid });
}

SG_SYSCALL_DEFINE3(sys_getresgid16, rgid, egid, sgid)
{
	return getres16(t, SYS_getresgid, (const uint64_t[3]){ rgid, egid, sgid });
}

#define SC_NGROUPS_MAX 65536

SG_SYSCALL_DEFINE2(sys_getgroups16, gidsetsize, grouplist)
{
	int size = gidsetsize;
	uint32_t *groups;
	uint16_t *out;
	long n;

	if (size < 0)
		return -EINVAL;
	n = host_syscall2(SYS_getgroups, 0, NULL);
	if (n <= 0 || size == 0)
		return n;
	if (n > size)
		return -EINVAL;
	groups = malloc((size_t)n * (sizeof(*groups) + sizeof(*out)));
	if (!groups)
		return -ENOMEM;
	out = (uint16_t *)(groups + n);
	n = host_syscall2(SYS_getgroups, n, groups);
	for (long i = 0; i < n; i++)
		out[i] = compat_high2low_id(groups[i]);
	if (n > 0 && copy_to_guest(sc_mm(t), grouplist, out, (size_t)n * 2))
		n = -EFAULT;
	free(groups);
	return n;
}

SG_SYSCALL_DEFINE2(sys_setgroups16, gidsetsize, grouplist)
{
	uint32_t n = (uint32_t)gidsetsize;
	uint32_t *groups;
	uint16_t *in;
	long r;

	/* the kernel asks may_setgroups() first (EPERM, e.g. in a user
	 * namespace): the host's setgroups with a size it refuses says so
	 * without changing anything */
	if (host_syscall2(SYS_setgroups, -1, NULL) == -EPERM)
		return -EPERM;
	if (n > SC_NGROUPS_MAX)
		return -EINVAL;
	groups = malloc((size_t)n * (sizeof(*groups) + sizeof(*in)) + 1);
	if (!groups)
		return -ENOMEM;
	in = (uint16_t *)(groups + n);
	r = n && copy_from_guest(sc_mm(t), in, grouplist, (size_t)n * 2) ? -EFAULT : 0;
	for (uint32_t i = 0; i < n && !r; i++)
		groups[i] = in[i] == 0xffff ? 0xffffffffu : in[i];
	if (!r)
		r = host_syscall2(SYS_setgroups, n, groups);
	free(groups);
	return r;
}

/* --- nice: i386 only; the x86_64 host has no such call ------------------- */
SG_SYSCALL_DEFINE1(sys_nice, increment)
{
	long inc = increment;
	long prio = host_syscall2(SYS_getpriority, PRIO_PROCESS, 0);
	long nice, r;

	if (prio < 0)
		return prio;
	inc = inc < -40 ? -40 : inc > 40 ? 40 : inc;
	nice = 20 - prio + inc; /* getpriority answers 20 - nice */
	nice = nice < -20 ? -20 : nice > 19 ? 19 : nice;
	/* nice(2) answers EPERM where setpriority answers EACCES (a lower
	 * nice value without the privilege) */
	r = host_syscall3(SYS_setpriority, PRIO_PROCESS, 0, nice);
	return r == -EACCES ? -EPERM : r;
}

/* --- old uname forms (i386 59, 109) --------------------------------------- */

/* oldold_utsname: five 9-byte fields; old_utsname: five 65-byte fields
 * (no domainname). Strings are cut, as the kernel's copies are. */
static long old_uname(struct sg_thread *t, uint64_t buf, size_t field)
{
	const char *src[5];
	char out[5 * 65];
	struct utsname u;
	long r = host_syscall1(SYS_uname, &u);

	if (r)
		return r;
	src[0] = u.sysname;
	src[1] = u.nodename;
	src[2] = u.release;
	src[3] = u.version;
	src[4] = u.machine;
	memset(out, 0, sizeof(out));
	for (int i = 0; i < 5; i++)
		strncpy(out + i * field, src[i], field - 1);
	return copy_to_guest(sc_mm(t), buf, out, 5 * field);
}

SG_SYSCALL_DEFINE1(sys_olduname, name)
{
	return name ? old_uname(t, name, 9) : -EFAULT;
}

SG_SYSCALL_DEFINE1(sys_uname, name)
{
	return name ? old_uname(t, name, 65) : -EFAULT;
}

/* --- i386 resource and system information layouts ------------------------ */

SG_SYSCALL_DEFINE2(compat_sys_getrusage, who, ru)
{
	struct compat_rusage c;
	struct rusage r;
	long ret = host_syscall2(SYS_getrusage, (int)who, &r);

	if (ret)
		return ret;
	put_compat_rusage(&c, &r);
	return copy_to_guest(sc_mm(t), ru, &c, sizeof(c));
}

SG_SYSCALL_DEFINE1(compat_sys_sysinfo, info)
{
	struct compat_sysinfo c;
	struct sysinfo s;
	long r = host_syscall1(SYS_sysinfo, &s);

	if (r)
		return r;
	put_compat_sysinfo(&c, &s);
	return copy_to_guest(sc_mm(t), info, &c, sizeof(c));
}

SG_SYSCALL_DEFINE1(compat_sys_times, tbuf)
{
	struct compat_tms c;
	struct tms h;
	long r = host_syscall1(SYS_times, &h);

	if (tbuf) {
		put_compat_tms(&c, &h);
		if (copy_to_guest(sc_mm(t), tbuf, &c, sizeof(c)))
			return -EFAULT;
	}
	return (long)(int32_t)r; /* compat_clock_t */
}

/* --- scheduling with 32-bit guest longs --------------------------------- */

SG_SYSCALL_DEFINE3(compat_sys_sched_setaffinity, pid, size, user_mask_ptr)
{
	uint8_t mask[1024] = { 0 };
	uint32_t len = (uint32_t)size;
	/* the kernel reads at most its cpumask size (what the host's
	 * sched_getaffinity answers for a large buffer) */
	long host_size = host_syscall3(SYS_sched_getaffinity, 0, sizeof(mask), mask);
	uint32_t n = len < sizeof(mask) ? len : sizeof(mask);

	if (host_size > 0 && n > (uint64_t)host_size)
		n = (uint32_t)host_size;
	memset(mask, 0, sizeof(mask));
	if (copy_from_guest(sc_mm(t), mask, user_mask_ptr, n))
		return -EFAULT;
	return host_syscall3(SYS_sched_setaffinity, pid, sizeof(mask), mask);
}

SG_SYSCALL_DEFINE2(sys_sched_rr_get_interval_time32, pid, interval)
{
	struct compat_timespec c;
	struct timespec ts;
	long r = host_syscall2(SYS_sched_rr_get_interval, pid, &ts);

	if (r)
		return r;
	put_compat_timespec(&c, &ts);
	return copy_to_guest(sc_mm(t), interval, &c, sizeof(c));
}

/* --- prctl: pointer arguments by option ------------------------------------ */

#define SC_PR_SET_VMA 0x53564d41
#define SC_PR_SET_SYSCALL_USER_DISPATCH 59

/* PR_SET_TSC/PR_GET_TSC are the guest thread's own state (the kernel's
 * TIF_NOTSC: per thread, inherited by clone and fork): the CPU makes the
 * guest's RDTSC/RDTSCP #GP. Given to the host, sysgate's own TSC reads
 * (clock_gettime through the host vDSO) would crash it. */
static long tsc_mode(struct sg_thread *t, int opt, uint64_t arg)
{
	int mode;

	if (opt == PR_GET_TSC) {
		mode = sc_tsc_disabled(t) ? PR_TSC_SIGSEGV : PR_TSC_ENABLE;
		return copy_to_guest(sc_mm(t), arg, &mode, sizeof(mode));
	}
	if (arg != PR_TSC_ENABLE && arg != PR_TSC_SIGSEGV)
		return -EINVAL;
	sc_set_tsc_disabled(t, arg == PR_TSC_SIGSEGV);
	return 0;
}

SG_SYSCALL_DEFINE5(sys_prctl, option, arg2, arg3, arg4, arg5)
{
	int opt = (int)option;
	long err = 0;
	void *p;

	switch (opt) {
	case PR_SET_NAME:
	case PR_GET_NAME:
		/* TASK_COMM_LEN bytes */
		p = sc_buf(t, arg2, 16, opt == PR_SET_NAME ? PROT_READ : PROT_WRITE,
			   &err);
		if (err || !p)
			return -EFAULT;
		return host_syscall2(SYS_prctl, opt, p);
	case PR_GET_PDEATHSIG:
	case PR_GET_UNALIGN:
	case PR_GET_FPEMU:
	case PR_GET_FPEXC:
	case PR_GET_CHILD_SUBREAPER:
		p = sc_buf(t, arg2, sizeof(int), PROT_WRITE, &err);
		if (err)
			return err;
		return host_syscall2(SYS_prctl, opt, p);
	case PR_SET_TSC:
	case PR_GET_TSC:
		return tsc_mode(t, opt, arg2);
	case PR_GET_TID_ADDRESS:
	case PR_SET_MM:
	case PR_SET_SECCOMP:
	case SC_PR_SET_SYSCALL_USER_DISPATCH:
		/* would describe or change sysgate's own host process */
		return -EINVAL;
	case SC_PR_SET_VMA:
		/* anonymous VMA names: answered as a kernel without
		 * CONFIG_ANON_VMA_NAME does (the guest's maps view has none) */
		return -EINVAL;
	default:
		/* the remaining options take values only */
		return host_syscall6(SYS_prctl, opt, (long)arg2, (long)arg3,
				     (long)arg4, (long)arg5, 0);
	}
}

/* --- keyctl: pointer arguments by operation ----------------------------------- */

enum {
	KC_GET_KEYRING_ID, KC_JOIN_SESSION_KEYRING, KC_UPDATE, KC_REVOKE,
	KC_CHOWN, KC_SETPERM, KC_DESCRIBE, KC_CLEAR, KC_LINK, KC_UNLINK,
	KC_SEARCH, KC_READ, KC_INSTANTIATE, KC_NEGATE, KC_SET_REQKEY_KEYRING,
	KC_SET_TIMEOUT, KC_ASSUME_AUTHORITY, KC_GET_SECURITY,
	KC_SESSION_TO_PARENT, KC_REJECT, KC_INSTANTIATE_IOV, KC_INVALIDATE,
	KC_GET_PERSISTENT,
};

static long do_keyctl(struct sg_thread *t, int op, uint64_t arg2, uint64_t arg3,
		      uint64_t arg4, uint64_t arg5)
{
	char s1[PATH_MAX], s2[PATH_MAX];
	long err = 0, r;
	void *p;

	switch (op) {
	case KC_JOIN_SESSION_KEYRING:
		if (!arg2)
			return host_syscall2(SYS_keyctl, op, NULL);
		r = strncpy_from_guest(sc_mm(t), s1, arg2, sizeof(s1));
		return r < 0 ? r : host_syscall2(SYS_keyctl, op, s1);
	case KC_UPDATE:
	case KC_INSTANTIATE:
		p = sc_buf(t, arg3, (uint32_t)arg4, PROT_READ, &err);
		return err ? err
			   : host_syscall5(SYS_keyctl, op, arg2, p,
					   (uint32_t)arg4, arg5);
	case KC_DESCRIBE:
	case KC_READ:
	case KC_GET_SECURITY:
		p = sc_buf(t, arg3, (uint32_t)arg4, PROT_WRITE, &err);
		return err ? err
			   : host_syscall4(SYS_keyctl, op, arg2, p, (uint32_t)arg4);
	case KC_SEARCH:
		r = strncpy_from_guest(sc_mm(t), s1, arg3, sizeof(s1));
		if (r >= 0)
			r = strncpy_from_guest(sc_mm(t), s2, arg4, sizeof(s2));
		return r < 0 ? r
			     : host_syscall5(SYS_keyctl, op, arg2, s1, s2, arg5);
	case KC_GET_KEYRING_ID:
	case KC_REVOKE:
	case KC_CHOWN:
	case KC_SETPERM:
	case KC_CLEAR:
	case KC_LINK:
	case KC_UNLINK:
	case KC_NEGATE:
	case KC_SET_REQKEY_KEYRING:
	case KC_SET_TIMEOUT:
	case KC_ASSUME_AUTHORITY:
	case KC_SESSION_TO_PARENT:
	case KC_REJECT:
	case KC_INVALIDATE:
	case KC_GET_PERSISTENT:
		return host_syscall5(SYS_keyctl, op, sc_s32(arg2), sc_s32(arg3),
				     sc_s32(arg4), sc_s32(arg5));
	default:
		/* INSTANTIATE_IOV, DH_COMPUTE, PKEY_*, RESTRICT_KEYRING,
		 * MOVE, CAPABILITIES, WATCH_KEY: not translated */
		return -EOPNOTSUPP;
	}
}

SG_SYSCALL_DEFINE5(sys_keyctl, option, arg2, arg3, arg4, arg5)
{
	return do_keyctl(t, option, arg2, arg3, arg4, arg5);
}

SG_SYSCALL_DEFINE5(compat_sys_keyctl, option, arg2, arg3, arg4, arg5)
{
	return do_keyctl(t, option, arg2, arg3, arg4, arg5);
}
