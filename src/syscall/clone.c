/* clone, clone3, fork, vfork (DESIGN.md, Processes, threads, signals).
 *
 * CLONE_VM|CLONE_THREAD makes a guest thread: a host thread of our own
 * (src/core through the group's hooks) with a copy of the parent's CPU
 * (cpu_clone: its own decoded-code cache), the stack and TLS the guest
 * gave. Anything else is a new process: a host fork, the child going on
 * with the same guest state.
 * CLONE_VM|CLONE_VFORK (posix_spawn, vfork) is done as a fork whose parent
 * waits, as vfork's does, until the child has exec'd or exited.
 */
#define _GNU_SOURCE /* pipe2 */
#include <fcntl.h>
#include <linux/sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu/syscall_regs.h"
#include "hostfd/hostfd.h"
#include "syscall/internal.h"

#define CSIGNAL_MASK 0xffu

struct clone_req {
	uint64_t flags;
	int exit_signal;
	uint64_t sp;        /* 0: the parent's */
	uint64_t ptid, ctid, tls;
};

static long set_tls(struct sg_task *t, uint64_t tls)
{
	if (t->cpu.mode == CPU_MODE_64) {
		cpu_set_seg_base(&t->cpu, SEG_FS, tls);
		return 0;
	}
	return sc_set_thread_area(t, tls); /* struct user_desc * */
}

static long new_thread(struct sg_task *t, const struct clone_req *r)
{
	/* the child's state, for core to make the thread from (8 KiB of
	 * signal queue among it: not on a thread's stack) */
	struct sg_task *child = calloc(1, sizeof(*child));
	long rc;

	if (!child)
		return -ENOMEM;
	if (!t->group->hooks.spawn_thread) {
		free(child);
		return -ENOSYS;
	}
	cpu_clone(&child->cpu, &t->cpu);
	child->group = t->group;
	child->sig.mask = t->sig.mask;
	cpu_syscall_set_return_value(&child->cpu, 0); /* the call returns 0 in the child */
	if (r->sp)
		cpu_set_stack_pointer(&child->cpu, r->sp);
	rc = r->flags & CLONE_SETTLS ? set_tls(child, r->tls) : 0;
	if (!rc) {
		if (r->flags & CLONE_CHILD_SETTID)
			child->child_tid = r->ctid;
		if (r->flags & CLONE_CHILD_CLEARTID)
			child->clear_child_tid = r->ctid;
		if (r->flags & CLONE_PARENT_SETTID)
			child->parent_tid = r->ptid;
		rc = t->group->hooks.spawn_thread(t, child);
	}
	free(child);
	return rc; /* the tid; the thread itself may be gone by now */
}

/* A vfork parent waits for this pipe to close: the child's exec (close on
 * exec) or exit closes it. */
static void vfork_pipe(int fds[2])
{
	int p[2];

	fds[0] = fds[1] = -1;
	if (pipe2(p, O_CLOEXEC))
		return;
	/* sysgate's own (hostfd.h): the guest's close_range in the child
	 * must not end the wait early */
	if (hostfd_dup(p[0], &fds[0]) < 0 || hostfd_dup(p[1], &fds[1]) < 0) {
		hostfd_close(fds[0]);
		fds[0] = fds[1] = -1;
	}
	close(p[0]);
	close(p[1]);
}

/* In a vfork child: the pipe's write end, which its exec (or exit)
 * closes; -1: none. One per process: a fork child closes the one it
 * inherited (the vfork parent waits for its own child only). */
static int vfork_done_fd = -1;

void sc_vfork_release(void)
{
	if (vfork_done_fd >= 0)
		hostfd_close(vfork_done_fd);
	vfork_done_fd = -1;
}

/* Are the host pages under [addr, addr + len) mapped (mincore: ENOMEM)? */
static bool host_mapped(uint64_t addr, uint64_t len)
{
	uint64_t h = (uint64_t)(uintptr_t)g2h(addr), start = MM_PAGE_ALIGN_DOWN(h);
	unsigned char vec[2];

	return len <= MM_PAGE_SIZE && h + len > h &&
	       host_syscall3(SYS_mincore, start, MM_PAGE_ALIGN_UP(h + len) - start, vec) == 0;
}

static long new_process(struct sg_task *t, const struct clone_req *r)
{
	bool vfork = r->flags & CLONE_VFORK;
	int vp[2] = { -1, -1 };
	long pid;

	if (vfork)
		vfork_pipe(vp);
	if (t->group->hooks.before_fork)
		t->group->hooks.before_fork(t);
	cpu_code_before_fork(&t->cpu);
	if (r->exit_signal == SIGCHLD)
		pid = fork();
	else
		pid = host_syscall2(SYS_clone, (long)r->exit_signal, 0);
	if (pid >= 0)
		cpu_code_forked(pid == 0);
	if (pid < 0) {
		pid = r->exit_signal == SIGCHLD ? -errno : pid;
		if (t->group->hooks.after_fork)
			t->group->hooks.after_fork(t, pid);
		goto out;
	}
	if (pid == 0) {
		uint32_t tid;

		hostfd_close(vp[0]);
		sc_vfork_release();
		if (vp[1] >= 0)
			hostfd_hold(vp[1], &vfork_done_fd); /* vp is the parent's frame */
		vfork_done_fd = vp[1];
		t->sig.ptraced = false; /* a host fork child is not traced */
		t->group->hooks.forked(t);
		tid = (uint32_t)t->tid;
		if (r->sp)
			cpu_set_stack_pointer(&t->cpu, r->sp);
		if (r->flags & CLONE_SETTLS)
			set_tls(t, r->tls);
		/* a page the guest marked MADV_DONTFORK is listed but not
		 * in this child: the kernel's own write fails silently */
		if ((r->flags & CLONE_CHILD_SETTID) && host_mapped(r->ctid, sizeof(tid)))
			copy_to_guest(t->group->mm, r->ctid, &tid, sizeof(tid));
		if (r->flags & CLONE_CHILD_CLEARTID)
			t->clear_child_tid = r->ctid;
		return 0;
	}
	if (t->group->hooks.after_fork)
		t->group->hooks.after_fork(t, pid);
	if (r->flags & CLONE_PARENT_SETTID) {
		uint32_t v = (uint32_t)pid;

		copy_to_guest(t->group->mm, r->ptid, &v, sizeof(v));
	}
out:
	hostfd_close(vp[1]);
	if (vp[0] >= 0) {
		char c;

		if (pid > 0)
			while (read(vp[0], &c, 1) < 0 && errno == EINTR)
				;
		hostfd_close(vp[0]);
	}
	if (pid > 0 && t->group->hooks.debugger_fork_parent)
		t->group->hooks.debugger_fork_parent(t, pid, vfork);
	return pid;
}

static long do_clone(struct sg_task *t, const struct clone_req *r)
{
	uint64_t f = r->flags;

	if ((f & CLONE_THREAD) && !(f & CLONE_SIGHAND))
		return -EINVAL;
	if ((f & CLONE_SIGHAND) && !(f & CLONE_VM))
		return -EINVAL;
	/* for threads too (the kernel refuses some with CLONE_THREAD, and a
	 * thread's pidfd would not be written) */
	if (f & (CLONE_PIDFD | CLONE_NEWNS | CLONE_NEWUSER | CLONE_NEWPID |
		 CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWCGROUP))
		return -EINVAL; /* not emulated */
	/* the kernel's copy_thread: arch_prctl(ARCH_SET_FS)'s bound */
	if ((f & CLONE_SETTLS) && t->cpu.mode == CPU_MODE_64 && r->tls >= MM_X64_TASK_SIZE)
		return -EPERM;
	if (f & CLONE_THREAD)
		return new_thread(t, r);
	return new_process(t, r);
}

/* x86_64 and x32: clone(flags, newsp, parent_tid, child_tid, tls) */
SG_SYSCALL_DEFINE5(sys_clone, clone_flags, newsp, parent_tidptr, child_tidptr, tls)
{
	struct clone_req r = {
		.flags = clone_flags & ~(uint64_t)CSIGNAL_MASK,
		.exit_signal = (int)(clone_flags & CSIGNAL_MASK),
		.sp = newsp, .ptid = parent_tidptr, .ctid = child_tidptr, .tls = tls,
	};

	return do_clone(sg_task(t), &r);
}

/* i386: clone(flags, newsp, parent_tid, tls, child_tid) */
SG_SYSCALL_DEFINE5(compat_sys_ia32_clone, clone_flags, newsp, parent_tidptr, tls, child_tidptr)
{
	struct clone_req r = {
		.flags = (uint32_t)clone_flags & ~CSIGNAL_MASK,
		.exit_signal = (int)(clone_flags & CSIGNAL_MASK),
		.sp = (uint32_t)newsp, .ptid = parent_tidptr, .tls = tls, .ctid = child_tidptr,
	};

	return do_clone(sg_task(t), &r);
}

/* clone3(struct clone_args *, size): the same 64-bit fields in every ABI */
SG_SYSCALL_DEFINE2(sys_clone3, uargs, size)
{
	struct clone_args ca;
	struct clone_req r;

	if (size > 4096)
		return -E2BIG; /* PAGE_SIZE */
	if (size < 64)
		return -EINVAL; /* CLONE_ARGS_SIZE_VER0 */
	memset(&ca, 0, sizeof(ca));
	if (copy_from_guest(sc_mm(t), &ca, uargs, size < sizeof(ca) ? size : sizeof(ca)))
		return -EFAULT;
	/* a newer caller's fields past ours must be zero (copy_struct_from_user) */
	for (uint64_t at = sizeof(ca); at < size;) {
		uint8_t tail[256];
		uint64_t n = size - at < sizeof(tail) ? size - at : sizeof(tail);

		if (copy_from_guest(sc_mm(t), tail, uargs + at, n))
			return -EFAULT;
		for (uint64_t i = 0; i < n; i++)
			if (tail[i])
				return -E2BIG;
		at += n;
	}
	if ((ca.exit_signal & ~(uint64_t)CSIGNAL_MASK) || ca.exit_signal > SG_NSIG)
		return -EINVAL;
	/* clone3_args_valid: no flag above CLONE_INTO_CGROUP, no exit signal
	 * in the flags (CLONE_NEWTIME's bit aside) nor with a thread */
	if ((ca.flags >> 34) || (ca.flags & (CLONE_DETACHED | (CSIGNAL_MASK & ~0x80ull))) ||
	    ((ca.flags & (CLONE_THREAD | CLONE_PARENT)) && ca.exit_signal))
		return -EINVAL;
	if ((ca.stack == 0) != (ca.stack_size == 0))
		return -EINVAL;
	if (ca.set_tid || ca.set_tid_size || (ca.flags & CLONE_INTO_CGROUP))
		return -EINVAL; /* not emulated */
	r.flags = ca.flags;
	r.exit_signal = (int)ca.exit_signal;
	r.sp = ca.stack ? ca.stack + ca.stack_size : 0;
	r.ptid = ca.parent_tid;
	r.ctid = ca.child_tid;
	r.tls = ca.tls;
	return do_clone(sg_task(t), &r);
}

SG_SYSCALL_DEFINE(sys_fork)
{
	struct clone_req r = { .exit_signal = SIGCHLD };

	return new_process(sg_task(t), &r);
}

SG_SYSCALL_DEFINE(sys_vfork)
{
	struct clone_req r = { .flags = CLONE_VFORK | CLONE_VM, .exit_signal = SIGCHLD };

	return new_process(sg_task(t), &r);
}
