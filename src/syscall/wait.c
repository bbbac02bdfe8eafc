/* wait4, waitpid, waitid. Children are host processes (fork is a host
 * fork), so the host answers; i386 gets its 72-byte rusage, i386 and x32
 * their compat siginfo (SIGCHLD layout: x32 keeps 64-bit clock values). */
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "syscall/compat/compat.h"
#include "syscall/handler.h"

/* The results are written after the host's wait, as the kernel writes
 * them after reaping: bad options and no children come first. A syscall
 * stop of a traced child's own sysgate is no guest event: that child is
 * resumed and the wait goes on (ptrace.c). */
static long wait4_common(struct sg_thread *t, uint64_t pid, uint64_t status_addr,
			 uint64_t options, uint64_t ru_addr, bool compat)
{
	struct rusage ru;
	int status = 0;
	long r;

	do {
		r = host_blocking4(t, SYS_wait4, compat ? sc_s32(pid) : (long)(int)pid,
				   &status, (int)options, ru_addr ? &ru : NULL);
		if (r <= 0)
			return r;
	} while (ptrace_hidden_stop(r, &status));
	if (status_addr && copy_to_guest(sc_mm(t), status_addr, &status, sizeof(status)))
		return -EFAULT;
	if (ru_addr && compat) {
		struct compat_rusage c;

		put_compat_rusage(&c, &ru);
		if (copy_to_guest(sc_mm(t), ru_addr, &c, sizeof(c)))
			return -EFAULT;
	} else if (ru_addr && copy_to_guest(sc_mm(t), ru_addr, &ru, sizeof(ru))) {
		return -EFAULT;
	}
	return r;
}

/* x86_64 and x32 wait4 (x32 shares the 64-bit rusage) */
SG_SYSCALL_DEFINE4(sys_wait4, upid, stat_addr, options, ru)
{
	return wait4_common(t, upid, stat_addr, options, ru, false);
}

/* i386 wait4 (114) */
SG_SYSCALL_DEFINE4(compat_sys_wait4, pid, stat_addr, options, ru)
{
	return wait4_common(t, pid, stat_addr, options, ru, true);
}

/* i386 waitpid (7) = wait4 without rusage */
SG_SYSCALL_DEFINE3(sys_waitpid, pid, stat_addr, options)
{
	return wait4_common(t, pid, stat_addr, options, 0, true);
}

/* waitid: as the kernel, the rusage
 * only for a child found, then, whatever the result (an error too), the
 * six fields of infop it writes one by one: signo, errno, code, pid, uid,
 * status (the rest of the guest's siginfo is left as it was). */
static long do_waitid(struct sg_thread *t, bool compat, int which, int upid, uint64_t infop,
		      uint64_t options, uint64_t ru)
{
	size_t ru_size = compat ? sizeof(struct compat_rusage) : sizeof(struct rusage);
	/* offsets of pid, uid, status: the union starts at 12 in the compat
	 * siginfo, at 16 in the 64-bit one */
	const unsigned at = compat ? 12 : 16;
	siginfo_t si;
	struct rusage rusage;
	int32_t field[6];
	long r;

	for (;;) {
		int status;

		memset(&si, 0, sizeof(si));
		r = host_blocking6(t, SYS_waitid, which, upid, (long)&si, (int)options,
				   (long)(ru ? &rusage : NULL), 0);
		if (r == -SG_ERESTARTNOINTR)
			return r; /* not started: nothing to write */
		if (r != 0 || si.si_code != CLD_TRAPPED)
			break;
		/* a traced child's stop: as wait4's status (ptrace.c) */
		status = si.si_status << 8 | 0x7f;
		if (!ptrace_hidden_stop(si.si_pid, &status)) {
			si.si_status = WSTOPSIG(status);
			break;
		}
	}
	if (r == 0 && si.si_signo && ru) {
		struct compat_rusage c;

		put_compat_rusage(&c, &rusage);
		if (copy_to_guest(sc_mm(t), ru, compat ? (void *)&c : (void *)&rusage, ru_size))
			return -EFAULT;
	}
	if (!infop)
		return r;
	if (infop + 128 < infop ||
	    (!mm_is_low4g(sc_mm(t)) && infop + 128 > mm_task_size(sc_mm(t))))
		return -EFAULT; /* user_write_access_begin */
	field[0] = si.si_signo;
	field[1] = 0;
	field[2] = si.si_code;
	field[3] = si.si_pid;
	field[4] = (int32_t)si.si_uid;
	field[5] = si.si_status;
	for (unsigned i = 0; i < 6; i++) {
		uint64_t off = i < 3 ? i * 4 : at + (i - 3) * 4;

		if (copy_to_guest(sc_mm(t), infop + off, &field[i], 4))
			return -EFAULT;
	}
	return r;
}

SG_SYSCALL_DEFINE5(sys_waitid, which, upid, infop, options, ru)
{
	return do_waitid(t, sc_compat(), which, upid, infop, options, ru);
}

SG_SYSCALL_DEFINE5(compat_sys_waitid, which, pid, infop, options, ru)
{
	return do_waitid(t, true, which, pid, infop, options, ru);
}
