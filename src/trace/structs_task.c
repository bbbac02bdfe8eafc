/* The process and signal kinds of kinds.in: clone and clone3, futex,
 * wait status, i386 user_desc, signal numbers, sets, actions and the
 * sigreturn mask, as strace prints them. Layouts per guest ABI are read
 * field by field at the kernel's offsets. */
#include <string.h>
#include <ucontext.h>

#include "syscall/compat/compat.h"
#include "trace/sigframe.h"
#include "trace/trace_internal.h"

static unsigned wl(const struct targ *a)
{
	return guest_long_bytes(targ_table(a));
}

bool tk_killsig(const struct targ *a, uint64_t v)
{
	if ((int)v == 0)
		tl_putc(a->l, '0');
	else
		tprint_signame(a->l, (int)(uint32_t)v, false);
	return true;
}

/* clone(2): the kernel's argument order differs by ABI (CLONE_BACKWARDS on
 * i386: tls before child_tid); strace prints named fields. The whole
 * argument list is printed from slot 0. */
bool tk_clonefl(const struct targ *a, uint64_t v)
{
	const uint64_t *arg = a->call->args;
	bool i386 = targ_table(a) == SG_TABLE_I386;
	uint64_t flags = arg[0], stack = targ_ulong(a, arg[1]);
	uint64_t ptid = targ_ulong(a, arg[2]);
	uint64_t tls = targ_ulong(a, i386 ? arg[3] : arg[4]);
	uint64_t ctid = targ_ulong(a, i386 ? arg[4] : arg[3]);
	int sig = (int)(flags & 0xff);

	/* strace prints the stack and flags when the call enters, the rest
	 * when it returns */
	if (a->part == TARG_TAIL)
		goto tail;
	tl_puts(a->l, "child_stack=");
	tprint_ptr(a->l, stack);
	tl_puts(a->l, ", flags=");
	if (flags & ~(uint64_t)0xff)
		tprint_flags(a->l, &xlat_cloneflags, flags & ~(uint64_t)0xff);
	if (sig) {
		if (flags & ~(uint64_t)0xff)
			tl_putc(a->l, '|');
		tprint_signame(a->l, sig, false);
	} else if (!(flags & ~(uint64_t)0xff)) {
		tl_putc(a->l, '0');
	}
	if (a->part == TARG_HEAD)
		return true;
tail:
	if (flags & (xlat_value(&xlat_cloneflags, "CLONE_PARENT_SETTID") |
		     xlat_value(&xlat_cloneflags, "CLONE_PIDFD"))) {
		int32_t stored;

		/* printed on return (trace_arg_is_late), as what the kernel
		 * stored: the child's tid (the result; a thread may already
		 * have cleared the word) or the pidfd */
		tl_puts(a->l, ", parent_tid=");
		if (a->call->result <= 0)
			tprint_ptr(a->l, ptid);
		else if (flags & xlat_value(&xlat_cloneflags, "CLONE_PARENT_SETTID"))
			tl_printf(a->l, "[%ld]", a->call->result);
		else if (tread(a, &stored, ptid, sizeof(stored)))
			tl_printf(a->l, "[%d]", stored);
		else
			tprint_ptr(a->l, ptid);
	}
	if (flags & xlat_value(&xlat_cloneflags, "CLONE_SETTLS")) {
		tl_puts(a->l, ", tls=");
		tprint_ptr(a->l, tls);
	}
	if (flags & (xlat_value(&xlat_cloneflags, "CLONE_CHILD_SETTID") |
		     xlat_value(&xlat_cloneflags, "CLONE_CHILD_CLEARTID"))) {
		tl_puts(a->l, ", child_tidptr=");
		tprint_ptr(a->l, ctid);
	}
	return true;
}

/* "[INT USR2]"; more than half the signals set: "~[...]" of the missing. */
static void print_sigmask(struct tline *l, uint64_t mask)
{
	bool inverted = __builtin_popcountll(mask) > 32;
	bool first = true;

	if (inverted) {
		mask = ~mask;
		tl_putc(l, '~');
	}
	tl_putc(l, '[');
	for (int s = 1; s <= 64; s++) {
		if (!(mask >> (s - 1) & 1))
			continue;
		if (!first)
			tl_putc(l, ' ');
		tprint_signame(l, s, true);
		first = false;
	}
	tl_putc(l, ']');
}

/* --- signals ------------------------------------------------------------ */

bool tk_sigset(const struct targ *a, uint64_t v)
{
	uint64_t addr = targ_ulong(a, v), mask;

	if (!addr) {
		tl_puts(a->l, "NULL");
		return true;
	}
	if (!tread(a, &mask, addr, sizeof(mask))) {
		tprint_ptr(a->l, addr);
		return true;
	}
	print_sigmask(a->l, mask);
	return true;
}

bool tk_osigset(const struct targ *a, uint64_t v)
{
	return tk_sigset(a, v);
}

/* The kernel's struct sigaction: handler, flags, restorer, mask; 32-bit
 * words for i386 and x32 (compat_sigaction), 64-bit for x86_64. */
static void print_sigaction(struct tline *l, uint64_t handler, uint64_t mask, uint64_t flags,
			    uint64_t restorer)
{
	tl_puts(l, "{sa_handler=");
	if (handler == 0)
		tl_puts(l, "SIG_DFL");
	else if (handler == 1)
		tl_puts(l, "SIG_IGN");
	else
		tl_printf(l, "%#llx", (unsigned long long)handler);
	tl_puts(l, ", sa_mask=");
	print_sigmask(l, mask);
	tl_puts(l, ", sa_flags=");
	tprint_flags(l, &xlat_saflags, flags);
	if (flags & xlat_value(&xlat_saflags, "SA_RESTORER")) {
		tl_puts(l, ", sa_restorer=");
		tprint_ptr(l, restorer);
	}
	tl_putc(l, '}');
}

bool tk_sigaction(const struct targ *a, uint64_t v)
{
	bool compat = wl(a) == 4;
	unsigned char b[sizeof(struct sc_sigaction64)];
	uint64_t addr = targ_ulong(a, v);

	if (!addr) {
		tl_puts(a->l, "NULL");
		return true;
	}
	if (!tread(a, b, addr, compat ? sizeof(struct compat_sigaction) : sizeof(b))) {
		tprint_ptr(a->l, addr);
		return true;
	}
#define SIGACTION_FIELD(f) \
	(compat ? GUEST_FIELD(b, struct compat_sigaction, f) : GUEST_FIELD(b, struct sc_sigaction64, f))
	/* i386's mask[2]: both words */
	print_sigaction(a->l, SIGACTION_FIELD(handler), SIGACTION_FIELD(mask),
			SIGACTION_FIELD(flags), SIGACTION_FIELD(restorer));
#undef SIGACTION_FIELD
	return true;
}

bool tk_osigaction(const struct targ *a, uint64_t v)
{
	return tk_sigaction(a, v);
}

/* i386's old sigaction (67): a one-word mask, before the flags */
bool tk_oldsigaction(const struct targ *a, uint64_t v)
{
	unsigned char b[sizeof(struct compat_old_sigaction)];
	uint64_t addr = targ_ulong(a, v);

	if (!addr) {
		tl_puts(a->l, "NULL");
		return true;
	}
	if (!tread(a, b, addr, sizeof(b))) {
		tprint_ptr(a->l, addr);
		return true;
	}
#define OLD_SIGACTION_FIELD(f) GUEST_FIELD(b, struct compat_old_sigaction, f)
	print_sigaction(a->l, OLD_SIGACTION_FIELD(handler), OLD_SIGACTION_FIELD(mask),
			OLD_SIGACTION_FIELD(flags), OLD_SIGACTION_FIELD(restorer));
#undef OLD_SIGACTION_FIELD
	return true;
}

bool tk_ooldsigaction(const struct targ *a, uint64_t v)
{
	return tk_oldsigaction(a, v);
}

/* (rt_)sigreturn: the mask it restores, read from the signal frame at the
 * stack pointer as the kernel lays it out (the handler's return popped the
 * return address; i386 __kernel_sigreturn also popped the signal number),
 * at the offsets of the frames the signal module writes (trace/sigframe.h):
 *   x86_64 rt: ucontext at sp, its uc_sigmask (the host's ucontext_t's too)
 *   x32 rt:    ucontext_x32 at sp, its uc_sigmask
 *   i386 rt:   frame+4 = sp; ucontext_i386's sigmask
 *   i386 sigreturn: sigcontext_32 at sp, its oldmask; extramask after it
 *              and the unused _fpstate_32 */
_Static_assert(TRACE_RT_SIGRETURN_X86_64_MASK == offsetof(ucontext_t, uc_sigmask),
	       "x86_64 uc_sigmask");

bool tk_sigreturnmask(const struct targ *a, uint64_t v)
{
	uint64_t sp = trace_entry_sp, mask = 0;
	bool i386 = targ_table(a) == SG_TABLE_I386;
	bool rt = a->call->row && !strcmp(a->call->row->name, "rt_sigreturn");
	uint32_t lo = 0, hi = 0;
	bool ok;

	(void)v;
	if (i386 && !rt) {
		ok = tread(a, &lo, (uint32_t)(sp + TRACE_SIGRETURN_I386_OLDMASK), 4) &&
		     tread(a, &hi, (uint32_t)(sp + TRACE_SIGRETURN_I386_EXTRAMASK), 4);
		mask = lo | (uint64_t)hi << 32;
	} else if (i386) {
		ok = tread(a, &mask, (uint32_t)(sp + TRACE_RT_SIGRETURN_I386_MASK), 8);
	} else {
		ok = tread(a, &mask, sp + (targ_table(a) == SG_TABLE_X32 ? TRACE_RT_SIGRETURN_X32_MASK
							 : TRACE_RT_SIGRETURN_X86_64_MASK), 8);
	}
	if (!ok)
		return false;
	tl_puts(a->l, "{mask=");
	print_sigmask(a->l, mask);
	tl_putc(a->l, '}');
	return true;
}

/* [{WIFEXITED(s) && WEXITSTATUS(s) == 0}] */
bool tk_wstatus(const struct targ *a, uint64_t v)
{
	uint64_t addr = targ_ulong(a, v);
	int32_t s;

	if (!addr || a->call->result == 0) {
		tprint_ptr(a->l, addr);
		return true;
	}
	if (!tread(a, &s, addr, sizeof(s))) {
		tprint_ptr(a->l, addr);
		return true;
	}
	tl_puts(a->l, "[{");
	if ((s & 0x7f) == 0) {
		tl_printf(a->l, "WIFEXITED(s) && WEXITSTATUS(s) == %d", (s >> 8) & 0xff);
	} else if ((s & 0xff) == 0x7f) {
		tl_puts(a->l, "WIFSTOPPED(s) && WSTOPSIG(s) == ");
		tprint_signame(a->l, (s >> 8) & 0xff, false);
	} else {
		tl_puts(a->l, "WIFSIGNALED(s) && WTERMSIG(s) == ");
		tprint_signame(a->l, s & 0x7f, false);
		if (s & 0x80)
			tl_puts(a->l, " && WCOREDUMP(s)");
	}
	tl_puts(a->l, "}]");
	return true;
}

/* i386 set_thread_area's struct user_desc: three words, then bit-fields
 * (strace shows those of the i386 header: lm left out). */
bool tk_userdesc(const struct targ *a, uint64_t v)
{
	uint64_t addr = targ_ulong(a, v);
	struct sc_user_desc d;

	if (!tread(a, &d, addr, sizeof(d))) {
		tprint_ptr(a->l, addr);
		return true;
	}
	tl_printf(a->l, "{entry_number=%d, base_addr=%#x, limit=%#08x, seg_32bit=%u, "
		  "contents=%u, read_exec_only=%u, limit_in_pages=%u, "
		  "seg_not_present=%u, useable=%u}",
		  (int32_t)d.entry_number, d.base_addr, d.limit,
		  LAYOUT_BITS(d.flags, SC_USER_DESC_SEG_32BIT),
		  LAYOUT_BITS(d.flags, SC_USER_DESC_CONTENTS),
		  LAYOUT_BITS(d.flags, SC_USER_DESC_READ_EXEC_ONLY),
		  LAYOUT_BITS(d.flags, SC_USER_DESC_LIMIT_IN_PAGES),
		  LAYOUT_BITS(d.flags, SC_USER_DESC_SEG_NOT_PRESENT),
		  LAYOUT_BITS(d.flags, SC_USER_DESC_USEABLE));
	return true;
}

/* clone3's struct clone_args (u64 fields, every ABI): the fields strace
 * shows, then " => {parent_tid=[N]}" as the call left it. Printed on
 * exit, so both halves come from one read. */
bool tk_clone3args(const struct targ *a, uint64_t v)
{
	uint64_t addr = targ_ulong(a, v), f[8];
	uint64_t psettid = xlat_value(&xlat_cloneflags, "CLONE_PARENT_SETTID");
	uint64_t csettid = xlat_value(&xlat_cloneflags, "CLONE_CHILD_SETTID") |
			   xlat_value(&xlat_cloneflags, "CLONE_CHILD_CLEARTID");
	int32_t ptid;

	if (!tread(a, f, addr, sizeof(f))) {
		if (a->part != TARG_TAIL)
			tprint_ptr(a->l, addr);
		return true;
	}
	/* the struct when the call enters, " => {...}" when it returns */
	if (a->part == TARG_TAIL)
		goto tail;
	/* flags, pidfd, child_tid, parent_tid, exit_signal, stack, size, tls */
	tl_puts(a->l, "{flags=");
	tprint_flags(a->l, &xlat_cloneflags, f[0]);
	if (f[0] & xlat_value(&xlat_cloneflags, "CLONE_PIDFD"))
		tl_printf(a->l, ", pidfd=%#llx", (unsigned long long)f[1]);
	if (f[0] & csettid)
		tl_printf(a->l, ", child_tid=%#llx", (unsigned long long)f[2]);
	if (f[0] & psettid)
		tl_printf(a->l, ", parent_tid=%#llx", (unsigned long long)f[3]);
	tl_puts(a->l, ", exit_signal=");
	if (f[4])
		tprint_signame(a->l, (int)f[4], false);
	else
		tl_putc(a->l, '0');
	tl_printf(a->l, ", stack=%#llx, stack_size=%#llx", (unsigned long long)f[5],
		  (unsigned long long)f[6]);
	if (f[0] & xlat_value(&xlat_cloneflags, "CLONE_SETTLS")) {
		tl_puts(a->l, ", tls=");
		if (targ_table(a) == SG_TABLE_I386)
			tk_userdesc(a, f[7]); /* i386: a struct user_desc */
		else
			tl_printf(a->l, "%#llx", (unsigned long long)f[7]);
	}
	tl_putc(a->l, '}');
	if (a->part == TARG_HEAD)
		return true;
tail:
	/* What the kernel stored there is the result; read back from memory
	 * it could already be gone: a thread that has run to its end before
	 * the parent's line is printed cleared it (CLONE_CHILD_CLEARTID on
	 * the same word, as glibc's threads have it). */
	if ((f[0] & psettid) && a->call->result > 0 && tread(a, &ptid, f[3], sizeof(ptid)))
		tl_printf(a->l, " => {parent_tid=[%d]}", (int)a->call->result);
	return true;
}

/* futex(2): the operation decides which arguments there are. */
static bool print_futex(const struct targ *a, unsigned ts_width)
{
	const uint64_t *arg = a->call->args;
	uint32_t op = (uint32_t)arg[1];
	uint32_t realtime = (uint32_t)xlat_value(&xlat_futexflag, "FUTEX_CLOCK_REALTIME");
	uint32_t private = (uint32_t)xlat_value(&xlat_futexflag, "FUTEX_PRIVATE_FLAG");
	const char *name = xlat_name(&xlat_futexcmd, op & ~realtime);
	const char *cmd = xlat_name(&xlat_futexcmd, op & ~(realtime | private));
	struct targ t = *a;

	tprint_ptr(a->l, targ_ulong(a, arg[0]));
	tl_puts(a->l, ", ");
	if (name)
		tl_puts(a->l, name);
	else
		tl_printf(a->l, "%#x", op & ~realtime);
	if (op & realtime)
		tl_puts(a->l, "|FUTEX_CLOCK_REALTIME");
	tl_printf(a->l, ", %u", (uint32_t)arg[2]);
	if (!cmd)
		cmd = "";
	if (!strcmp(cmd, "FUTEX_WAKE") || !strcmp(cmd, "FUTEX_UNLOCK_PI"))
		return true;
	tl_puts(a->l, ", ");
	if (!strcmp(cmd, "FUTEX_REQUEUE") || !strcmp(cmd, "FUTEX_CMP_REQUEUE") ||
	    !strcmp(cmd, "FUTEX_WAKE_OP") || !strcmp(cmd, "FUTEX_CMP_REQUEUE_PI")) {
		tl_printf(a->l, "%u, ", (uint32_t)arg[3]);
		tprint_ptr(a->l, targ_ulong(a, arg[4]));
		if (strcmp(cmd, "FUTEX_REQUEUE"))
			tl_printf(a->l, ", %#x", (uint32_t)arg[5]);
		return true;
	}
	trace_print_timespec(&t, targ_ulong(a, arg[3]), ts_width);
	if (!strcmp(cmd, "FUTEX_WAIT_BITSET") || !strcmp(cmd, "FUTEX_WAKE_BITSET")) {
		tl_puts(a->l, ", ");
		if ((uint32_t)arg[5] == 0xffffffffu)
			tl_puts(a->l, "FUTEX_BITSET_MATCH_ANY");
		else
			tl_printf(a->l, "%#x", (uint32_t)arg[5]);
	} else if (!strcmp(cmd, "FUTEX_WAIT_REQUEUE_PI")) {
		tl_puts(a->l, ", ");
		tprint_ptr(a->l, targ_ulong(a, arg[4]));
	}
	return true;
}

bool tk_futexcall(const struct targ *a, uint64_t v)
{
	(void)v;
	return print_futex(a, targ_table(a) == SG_TABLE_I386 ? 4 : 8);
}

bool tk_futex64call(const struct targ *a, uint64_t v)
{
	(void)v;
	return print_futex(a, 8);
}
