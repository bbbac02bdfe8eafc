/* The handlers' narrow view (issue 21): what a syscall handler file may
 * use. The thread a handler gets is an opaque handle here (struct
 * sg_thread is core's): the guest memory and the per-call state are
 * reached through the functions below, never its fields. internal.h adds
 * the guest task (signal/guest_task.h) for the few files that keep a
 * thread's state: clone, entry, execve, task (docs/syscalls.md, Handler
 * context).
 *
 * A handler is defined with its arguments' names (SG_SYSCALL_DEFINEn,
 * below): their types and conversions come from tables/syscall_args.in
 * (docs/syscalls.md, "The argument description"). The few that read the
 * registers themselves (SG_SYSCALL_DEFINE, a[0]..a[5]: zero-extended to
 * 64 bits from the ABI's registers) are the multiplexers and the entry
 * points whose rows disagree. Guest pointers are checked through src/mm
 * before the host touches them. Host calls are made with raw `syscall` instructions so the
 * result is the kernel's own value or -errno, and errno is left alone.
 */
#ifndef SG_SYSCALL_HANDLER_H
#define SG_SYSCALL_HANDLER_H

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "mm/mm.h"
#include "signal/sigstate.h" /* sig_host_call, SG_ERESTART* */
#include "syscall/syscall.h"

struct sg_thread;

#define ARRAY_SIZE(x) (sizeof(x) / sizeof((x)[0]))

/* --- host kernel entry ----------------------------------------------- */

static inline long host_syscall6(long nr, long a1, long a2, long a3, long a4,
				 long a5, long a6)
{
	register long r10 __asm__("r10") = a4;
	register long r8 __asm__("r8") = a5;
	register long r9 __asm__("r9") = a6;
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr), "D"(a1), "S"(a2), "d"(a3), "r"(r10),
			   "r"(r8), "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
}

#define host_syscall0(nr) host_syscall6(nr, 0, 0, 0, 0, 0, 0)
#define host_syscall1(nr, a) host_syscall6(nr, (long)(a), 0, 0, 0, 0, 0)
#define host_syscall2(nr, a, b) \
	host_syscall6(nr, (long)(a), (long)(b), 0, 0, 0, 0)
#define host_syscall3(nr, a, b, c) \
	host_syscall6(nr, (long)(a), (long)(b), (long)(c), 0, 0, 0)
#define host_syscall4(nr, a, b, c, d) \
	host_syscall6(nr, (long)(a), (long)(b), (long)(c), (long)(d), 0, 0)
#define host_syscall5(nr, a, b, c, d, e) \
	host_syscall6(nr, (long)(a), (long)(b), (long)(c), (long)(d), (long)(e), 0)

/* A host call that may block: one that a guest signal which arrived since
 * the thread's last instruction boundary keeps from starting, answering
 * -SG_ERESTARTNOINTR (signal/signal.h, sig_host_call). Only where nothing
 * done before it in the handler would be done twice by a restart.
 *
 * The host's -EINTR (its queueing handler ran: a guest signal is queued)
 * comes back as -SG_ERESTARTSYS, the code of the kernel's interruptible
 * waits (table.h): what most calls answer. A call whose kernel code is
 * another says so where it is defined, with sc_interrupted_as (or
 * sc_restart_block, time.c, for a timed wait that goes on through
 * restart_syscall); docs/syscalls.md, "Interrupted calls". */
static inline long sc_interruptible(long r)
{
	return r == -EINTR ? -SG_ERESTARTSYS : r;
}

#define host_blocking6(t, nr, a, b, c, d, e, f)                                      \
	sc_interruptible(sig_host_call(sc_signal_arrived(t), nr, (long)(a), (long)(b),    \
				       (long)(c), (long)(d), (long)(e), (long)(f)))
#define host_blocking2(t, nr, a, b) host_blocking6(t, nr, a, b, 0, 0, 0, 0)
#define host_blocking3(t, nr, a, b, c) host_blocking6(t, nr, a, b, c, 0, 0, 0)
#define host_blocking4(t, nr, a, b, c, d) host_blocking6(t, nr, a, b, c, d, 0, 0)
#define host_blocking5(t, nr, a, b, c, d, e) host_blocking6(t, nr, a, b, c, d, e, 0)

/* A small host file (/proc, /sys) into buf, NUL-terminated, by raw
 * system calls: its length, or -1 (nothing read). */
static inline long host_read_small_file(const char *path, char *buf, size_t cap)
{
	long fd = host_syscall4(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC, 0), n;

	if (fd < 0)
		return -1;
	n = host_syscall3(SYS_read, fd, buf, cap - 1);
	host_syscall1(SYS_close, fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	return n;
}

/* Whether the host kernel runs int $0x80 from 64-bit code (IA32
 * emulation built in and enabled). Without it the instruction raises
 * SIGSEGV instead of returning -ENOSYS, so it is probed once, in a child
 * process (compat_dirs.c). */
bool host_has_ia32_entry(void);

/* The host's own i386 entry (int $0x80 from 64-bit code): arguments are
 * truncated to 32 bits, so pointers must be below 4 GiB (guest memory of
 * i386 and x32). The kernel then treats the call as a compat one, e.g.
 * file systems give 32-bit directory offsets (is_32bit_api()), as they do
 * for a native i386 or x32 program. -ENOSYS if the host has no IA32
 * emulation. */
static inline long host_int80(long nr, long a1, long a2, long a3, long a4,
			      long a5)
{
	long ret;

	if (!host_has_ia32_entry())
		return -ENOSYS;
	__asm__ volatile("int $0x80"
			 : "=a"(ret)
			 : "a"(nr), "b"(a1), "c"(a2), "d"(a3), "S"(a4), "D"(a5)
			 : "r8", "r9", "r10", "r11", "memory");
	return (long)(int32_t)ret;
}

/* --- ptrace between guests (ptrace.c) ----------------------------------- */

/* The host calls a traced thread makes before and after each guest call
 * (no kernel has these numbers: -ENOSYS at once); the tracer reports their
 * syscall stops as the guest call's and hides every other. */
#define SG_PTRACE_MARK_ENTER 0x0fff5301L
#define SG_PTRACE_MARK_EXIT 0x0fff5302L

/* After a host wait gave pid's status: true if it is a syscall stop of
 * sysgate's own (resumed, unseen: wait again); a guest call's stop gets
 * the status the guest's options ask for. */
bool ptrace_hidden_stop(long pid, int *status);

/* --- the call being handled ------------------------------------------ */

/* Set by syscall_entry for the duration of one handler (per host thread:
 * guest threads are host threads). */
extern __thread const struct sg_syscall_call *sc_current;

/* The table the current call came through: several entry points (sys_readv,
 * sys_sigaltstack, ...) serve more than one ABI and, like the kernel's
 * in_compat_syscall(), pick the guest layout per call. */
static inline enum sg_table sc_table(void)
{
	return sc_current ? sc_current->table : SG_TABLE_X64;
}

/* i386 or x32: guest longs and pointers are 32 bits. */
static inline bool sc_compat(void)
{
	return sc_table() != SG_TABLE_X64;
}

static inline bool sc_i386(void)
{
	return sc_table() == SG_TABLE_I386;
}

/* The guest's memory. */
struct mm *sc_mm(struct sg_thread *t);
/* The program's ABI (a call's table may differ: sc_table). */
enum sg_abi sc_abi(struct sg_thread *t);
/* Where the process's vDSO is (0: none). */
uint64_t sc_vdso_base(struct sg_thread *t);
/* mremap moved the vDSO from old to new: what sysgate finds in it follows. */
void sc_vdso_moved(struct sg_thread *t, uint64_t old, uint64_t new);
/* The thread's flag a guest signal sets on arrival (sig_host_call). */
volatile int *sc_signal_arrived(struct sg_thread *t);
/* The thread's signal state (the signal module's, signal/sigstate.h):
 * the restart block a timed wait fills, the mask a call swaps in. */
struct sg_sigstate *sc_sigstate(struct sg_thread *t);
/* The sysgate binary's path (another process running it: fds.c). */
const char *sc_host_exe(struct sg_thread *t);
/* The guest program's path (/proc/self/exe), or NULL. */
const char *sc_exe_path(struct sg_thread *t);
/* --sysroot (canonical), or NULL. */
const char *sc_sysroot(struct sg_thread *t);
/* The host's /proc/self/cmdline and environ are the guest's own
 * (core/identity.c). */
bool sc_host_shows_guest(struct sg_thread *t);
/* The guest's stack pointer as the call found it. */
uint64_t sc_stack_pointer(struct sg_thread *t);
/* The thread's CPU stops at the next instruction boundary (a signal the
 * call made deliverable is delivered there). */
void sc_request_stop(struct sg_thread *t);
/* PR_SET_TSC: RDTSC faults for this thread (emulated by the CPU). */
bool sc_tsc_disabled(struct sg_thread *t);
void sc_set_tsc_disabled(struct sg_thread *t, bool disabled);

/* Signed 32-bit argument (compat_long_t, compat_off_t). */
static inline long sc_s32(uint64_t v)
{
	return (long)(int32_t)(uint32_t)v;
}

/* --- guest memory ------------------------------------------------------ */

static inline bool sc_ok(struct sg_thread *t, uint64_t addr, uint64_t len,
			 int prot)
{
	return mm_access_ok(sc_mm(t), addr, len, prot);
}

/* Host pointer for a guest buffer of len bytes with prot, or NULL with
 * *err = -EFAULT. A guest NULL is passed on as NULL (the host kernel then
 * answers as it would natively: EFAULT, or "not given"). */
void *sc_buf(struct sg_thread *t, uint64_t addr, uint64_t len, int prot,
	     long *err);
/* A guest buffer that is not (all) the guest's is handed to the host as a
 * pointer that faults at the same byte, so the host kernel checks in its
 * own order and copies as far as it would (uaccess.c). sc_buf does this
 * itself; *err is set (-EFAULT) only when that cannot be done. */
/* A pointer the host faults on at once (same page offset as addr). */
void *sc_fault_ptr(struct sg_thread *t, uint64_t addr);
/* For a path whose copy failed with err (-EFAULT, -ENAMETOOLONG): what to
 * hand the host instead, so that it fails the same way at its own time. */
const char *sc_path_fault(struct sg_thread *t, uint64_t addr, long err);
/* sc_path for a path the host is then given: *host is buf, or (the copy
 * failed with -EFAULT or -ENAMETOOLONG: 0 returned) what makes the host
 * fail the same way at its own time; only when *host == buf does buf
 * hold the path for sysgate's own policy. */
long sc_path_host(struct sg_thread *t, uint64_t addr, char *buf,
		  bool exe_alias, const char **host);
/* After the handler: the partial buffers made since mark (sc_buf_mark
 * before it) are copied back and freed (the dispatcher; calls nest). */
unsigned sc_buf_mark(void);
void sc_buf_release(struct sg_thread *t, unsigned mark);

/* A call interrupted by a signal (r: -SG_ERESTARTSYS from a blocking host
 * call) answers code instead: the one the kernel's handler of that call
 * returns (-SG_ERESTARTNOHAND, -EINTR, ...). Any other r is left alone. */
static inline long sc_interrupted_as(long r, long code)
{
	return r == -SG_ERESTARTSYS ? code : r;
}

/* sigwait.c: a call that waits with a mask of its own (pselect6, ppoll,
 * epoll_pwait, io_pgetevents) makes it the guest's while it waits
 * (begin: true when a queued signal is already deliverable under it: the
 * call is interrupted before it waits) and, when interrupted, until the
 * signal's delivery (end, given the call's result, which it returns). */
struct sc_wait_mask {
	bool set;
	uint64_t old;
};
bool sc_wait_mask_begin(struct sg_thread *t, uint64_t umask, uint64_t size,
			struct sc_wait_mask *w);
long sc_wait_mask_end(struct sg_thread *t, const struct sc_wait_mask *w, long r);

/* restart block (time.c): now on a clock in ns; sc_restart_block fills
 * the block for restart_syscall after a timed wait was interrupted and
 * returns the call's code, -SG_ERESTART_RESTARTBLOCK */
int64_t sc_clock_ns(int clock);
long sc_restart_block(struct sg_thread *t, int fn, int clock, int64_t deadline,
		      uint64_t a0, uint64_t a1, uint64_t a2);
long sc_poll_restart(struct sg_thread *t); /* select.c */

/* path.c: copy a guest path (at most PATH_MAX bytes with the NUL) into
 * buf. 0, -EFAULT or -ENAMETOOLONG. With exe_alias, /proc/self/exe and
 * /proc/<pid>/exe name the guest program instead of sysgate; an absolute
 * path that exists under the sysroot is rewritten to that file. */
long sc_path(struct sg_thread *t, uint64_t addr, char *buf, bool exe_alias);

/* Is this path the guest's /proc/self/exe (or /proc/<own pid>/exe)? */
bool sc_is_proc_exe(const char *path);
/* ... or /proc/self/NAME (/proc/thread-self/NAME, /proc/<own pid>/NAME)? */
bool sc_is_proc_self(const char *path, const char *name);
/* path.c: a host path as the guest sees it, the sysroot prefix taken off
 * as a chroot into it would show the path (in place); its new length. */
size_t sc_guest_view(const char *sysroot, char *path);

/* path.c: fd just opened by the host for the guest with flags: if it is
 * one of this process's /proc files that show its memory or exec facts
 * (maps, smaps, smaps_rollup, numa_maps, auxv, cmdline, environ; whatever
 * the path's spelling, as the kernel resolved it) and read-only, the same
 * fd number now holds a memory file with the guest's view. Returns fd or
 * -errno (fd closed). */
long sc_proc_view(struct sg_thread *t, long fd, int flags);
/* The path a view's descriptor names (/proc/self/fd/N, readlink), as the
 * host's link reads for it, or NULL if target is not such a view. */
const char *sc_proc_view_path(const char *target);
/* Is fd /proc/<pid>/ENTRY or /proc/<pid>/task/<tid>/ENTRY of this
 * process? entry: the last component. */
bool sc_own_proc_file(long fd, char *entry, size_t size);
/* pid (or a tid of it) runs sysgate, as this process does (fds.c) */
bool sc_is_sysgate_process(struct sg_thread *t, long pid);

/* fds.c: sysgate's own descriptors kept from the guest (hostfd.h) */
bool sc_names_private_fd(unsigned fd_args, const uint64_t *a);
/* "fd/N" or "fdinfo/N" of /proc/self naming one of sysgate's */
bool sc_proc_fd_entry_private(const char *entry);
/* the same after /proc/<pid>/ of another process running sysgate */
bool sc_other_proc_fd_entry_private(struct sg_thread *t, long pid, const char *entry);
enum sc_dirent { SC_DIRENT64, SC_DIRENT_LONG, SC_DIRENT_COMPAT };
/* After a getdents of n bytes into guest buf: a listing of our own
 * /proc/<pid>/fd loses sysgate's entries; *again when a batch had only
 * those (read on: 0 would say the end). */
long sc_getdents_hide(struct sg_thread *t, int fd, uint64_t buf, long n,
		      enum sc_dirent kind, bool *again);
/* -EBADF when a message's SCM_RIGHTS names one of sysgate's */
struct msghdr;
long sc_cmsg_rights_check(const struct msghdr *h);
/* What an execve in place must know of this process (execve.c): a POSIX
 * timer was made (timers.c); an AIO context is alive (aio.c). */
bool sc_timers_made(void);
bool sc_aio_contexts(void);
/* poll arrays and select sets naming one of sysgate's (fds.c) */
struct pollfd;
struct sc_poll_saved {
	int n;
	uint64_t idx[16];
	int fd[16];
};
int sc_poll_hide(struct pollfd *fds, uint64_t n, struct sc_poll_saved *saved);
void sc_poll_unhide(struct pollfd *fds, const struct sc_poll_saved *saved);
void sc_fdset_drop_private(uint64_t *bits, int n);
/* the descriptor table size a native process would have (select) */
int sc_guest_fd_table_size(void);
/* a stat as a native one: /proc fd directories' size without sysgate's
 * descriptors, /proc views as the file they stand for (fds.c) */
struct stat;
enum sc_stat_kind { SC_STAT_SAME, SC_STAT_FD_DIR, SC_STAT_VIEW };
bool sc_stat_may_differ(unsigned mode, uint64_t nlink, uint64_t dev);
enum sc_stat_kind sc_stat_classify(struct sg_thread *t, int dfd, const char *path, int flags,
				   long *hidden, char *view);
void sc_stat_fixup(struct sg_thread *t, int dfd, const char *path, int flags,
		   struct stat *st);
struct rlimit;
/* getrlimit/setrlimit on the host, RLIMIT_NOFILE and RLIMIT_AS as the
 * guest of address space mm sees them */
long sc_host_getrlimit(const struct mm *mm, int resource, struct rlimit *r);
long sc_host_setrlimit(const struct mm *mm, int resource, const struct rlimit *r);

/* io.c: host iovecs from the guest's array of cnt entries (struct
 * compat_iovec when compat), every buffer checked for prot: 0, -EFAULT or
 * -EINVAL (a negative length). */
struct iovec;
long sc_get_iovec(struct sg_thread *t, uint64_t uvec, uint64_t cnt,
		  bool compat, int prot, struct iovec *iov);
#define SC_UIO_MAXIOV 1024
/* io.c: the same for a call the host then checks in its own order (no
 * error of its own but a failed partial copy): iov, or a pointer the host
 * faults on (sc_fault_ptr) where the guest's array is unreadable; counts
 * above SC_UIO_MAXIOV and negative lengths are left to the host. */
const struct iovec *sc_iovec_for_host(struct sg_thread *t, uint64_t uvec,
				      uint64_t cnt, bool compat, int prot,
				      struct iovec *iov, long *err);

/* net.c: what the kernel's socket lookup gives for fd before it looks at
 * any other argument: 0, -EBADF or -ENOTSOCK. */
long sc_sock_fd(uint64_t fd);
/* net.c: a socket call interrupted by a signal (r: -SG_ERESTARTSYS) gives
 * -EINTR when the socket has a timeout in the call's direction
 * (SO_RCVTIMEO for receiving and accepting, SO_SNDTIMEO for sending and
 * connecting), as the kernel's sock_intr_errno; any other r as it is. */
long sc_sock_interrupted_slow(long r, uint64_t fd, bool receiving);
static inline long sc_sock_interrupted(long r, uint64_t fd, bool receiving)
{
	/* read and write pass here on every call: the socket is asked only
	 * when a signal interrupted the call */
	return r == -SG_ERESTARTSYS ? sc_sock_interrupted_slow(r, fd, receiving) : r;
}

/* --- generic pass-through ---------------------------------------------- */

/* How one argument of a pass-through call is handed to the host: the
 * shapes of tables/syscall_args.in, which tools/systab_gen.sh turns into
 * one PA() list per entry point, SG_ARGS_<entry> (syscall_shapes.h). */
enum sc_arg_kind {
	PA_VAL,   /* the value as is */
	PA_S32,   /* compat long/off_t: sign-extend the low 32 bits */
	PA_PATH,  /* NUL-terminated guest path */
	PA_IN,    /* readable guest buffer, length in argument p */
	PA_OUT,   /* writable guest buffer, length in argument p */
	PA_INN,   /* readable guest buffer of p bytes */
	PA_OUTN,  /* writable guest buffer of p bytes */
	PA_STR,   /* NUL-terminated guest string that is not a path (no policy) */
	PA_ID16,  /* i386 16-bit uid/gid: (u16)-1 stays -1 (low2highuid) */
	PA_INE,   /* readable array: count in argument p & 7, element p >> 3 bytes */
	PA_OUTE,  /* writable array, as PA_INE */
};

/* Array argument: count in argument idx, elements of size bytes. */
#define PA_ELEM(idx, size) ((idx) | ((size) << 3))

#define PA(kind, p) ((uint32_t)((kind) | ((p) << 4)))
#define PA_KIND(s) ((enum sc_arg_kind)((s) & 0xf))
#define PA_PARAM(s) ((unsigned)((s) >> 4))

long sc_passthrough(struct sg_thread *t, const uint64_t *a, long nr,
		    const uint32_t *spec, unsigned nargs);

/* The generated per-entry-point argument descriptions: SG_ARGS_<entry>,
 * SG_PARAMS_<entry>, SG_ARGV_<entry> (tools/systab_gen.sh). */
#include "syscall_shapes.h"

/* Define handler `entry` as the host call nr, its arguments handed over
 * as tables/syscall_args.in describes them (SG_ARGS_<entry>; none: the
 * call has an argument without a shape there, or rows that disagree). */
#define SG_PASSTHROUGH(entry, nr)                                           \
	SG_SYSCALL_DEFINE(entry)                                            \
	{                                                                   \
		static const uint32_t spec[] = { SG_ARGS_##entry };         \
		return sc_passthrough(t, a, nr, spec, ARRAY_SIZE(spec));    \
	}

/* The same for a call whose kernel code when a signal interrupts it is
 * not -ERESTARTSYS (sc_interrupted_as): -SG_ERESTARTNOHAND, -EINTR. */
#define SG_PASSTHROUGH_INTERRUPTED_AS(entry, nr, code)                      \
	SG_SYSCALL_DEFINE(entry)                                            \
	{                                                                   \
		static const uint32_t spec[] = { SG_ARGS_##entry };         \
		return sc_interrupted_as(sc_passthrough(t, a, nr, spec,     \
							ARRAY_SIZE(spec)),  \
					 code);                             \
	}

/* In a typed handler (below) that does more around it: the call's own
 * arguments passed through as host call nr. */
#define SC_PASSTHROUGH(t, entry, nr)                                        \
	({                                                                  \
		static const uint32_t spec_##entry[] = { SG_ARGS_##entry }; \
		sc_passthrough(t, sc_call_regs, nr, spec_##entry,           \
			       ARRAY_SIZE(spec_##entry));                   \
	})

/* A typed handler (the kernel's SYSCALL_DEFINEn): the arguments arrive
 * as the C parameters name0.. with the types tables/syscall_args.in's
 * kinds give them, converted once (SG_PARAMS_<entry>, SG_ARGV_<entry>:
 * int kinds truncated, long sign-extended in compat_ entry points, an
 * i386 off64 joined from its two registers). The body is the handler's;
 * the table's entry point converts and calls it. A count of names that
 * is not the row's is a build error. The registers themselves stay
 * reachable only for SC_PASSTHROUGH (sc_call_regs). */
#define SG_SYSCALL_DEFINEN_(entry, ...)                                     \
	static long entry##_typed(struct sg_thread *t, const uint64_t *sc_call_regs, \
				  SG_PARAMS_##entry(__VA_ARGS__));          \
	SG_SYSCALL_DEFINE(entry)                                            \
	{                                                                   \
		return entry##_typed(t, a, SG_ARGV_##entry);                \
	}                                                                   \
	static long entry##_typed(struct sg_thread *t, const uint64_t *sc_call_regs, \
				  SG_PARAMS_##entry(__VA_ARGS__))
#define SG_SYSCALL_DEFINE1(entry, n0) SG_SYSCALL_DEFINEN_(entry, n0)
#define SG_SYSCALL_DEFINE2(entry, n0, n1) SG_SYSCALL_DEFINEN_(entry, n0, n1)
#define SG_SYSCALL_DEFINE3(entry, n0, n1, n2) SG_SYSCALL_DEFINEN_(entry, n0, n1, n2)
#define SG_SYSCALL_DEFINE4(entry, n0, n1, n2, n3) SG_SYSCALL_DEFINEN_(entry, n0, n1, n2, n3)
#define SG_SYSCALL_DEFINE5(entry, n0, n1, n2, n3, n4) \
	SG_SYSCALL_DEFINEN_(entry, n0, n1, n2, n3, n4)
#define SG_SYSCALL_DEFINE6(entry, n0, n1, n2, n3, n4, n5) \
	SG_SYSCALL_DEFINEN_(entry, n0, n1, n2, n3, n4, n5)

#endif
