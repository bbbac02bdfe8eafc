/* siginfo_t as each ABI's kernel writes it (asm-generic/siginfo.h,
 * compat_siginfo). The union's layout follows from signo and si_code as
 * the kernel's siginfo_layout() decides; i386 and x32 narrow longs and
 * pointers to 32 bits, and x32 keeps SIGCHLD's clock values 64-bit (at
 * 4-byte alignment). */
#include <string.h>

#include "guest_layout_i386.h"
#include "guest_layout_x32.h"
#include "guest_layout_x86_64.h"
#include "signal/signal.h"

enum layout { L_KILL, L_TIMER, L_POLL, L_FAULT, L_CHLD, L_RT, L_SYS };

static enum layout layout_of(int sig, int code)
{
	if (code > SI_USER && code < SI_KERNEL) {
		switch (sig) {
		case SIGILL: case SIGFPE: case SIGSEGV: case SIGBUS: case SIGTRAP:
			return L_FAULT;
		case SIGCHLD:
			return L_CHLD;
		case SIGPOLL:
			return L_POLL;
		case SIGSYS:
			return L_SYS;
		default:
			return code <= 6 ? L_POLL : L_KILL; /* NSIGPOLL */
		}
	}
	if (code == SI_TIMER)
		return L_TIMER;
	if (code == SI_SIGIO)
		return L_POLL;
	return code < 0 ? L_RT : L_KILL;
}

/* The three layouts, generated from the uapi headers of each ABI
 * (src/syscall/compat/layouts.in): same field names in each. */
_Static_assert(sizeof(struct sc_siginfo64) == sizeof(siginfo_t), "x86_64 siginfo");
_Static_assert(sizeof(struct compat_siginfo) == 128, "i386 siginfo");
_Static_assert(sizeof(struct compat_siginfo_x32) == 128, "x32 siginfo");

/* addr_lsb / bounds / pkey follow the fault's address: copied as they are */
#define FAULT_TAIL 20

/* The compat (i386 or x32: C) form from the host's; they differ only in
 * SIGCHLD's clocks, which x32 keeps 64-bit. Narrowing casts keep the low
 * bits, as the kernel's copy_siginfo_to_user32. */
#define SIGINFO_TO_COMPAT(C, h, out)                                                   \
	do {                                                                           \
		C c_;                                                                  \
		memset(&c_, 0, sizeof(c_));                                            \
		c_.si_signo = (h)->si_signo;                                           \
		c_.si_errno = (h)->si_errno;                                           \
		c_.si_code = (h)->si_code;                                             \
		switch (layout_of((h)->si_signo, (h)->si_code)) {                      \
		case L_KILL:                                                           \
			c_.pid = (h)->pid;                                             \
			c_.uid = (h)->uid;                                             \
			break;                                                         \
		case L_TIMER:                                                          \
			c_.timerid = (h)->timerid;                                     \
			c_.overrun = (h)->overrun;                                     \
			c_.value = (uint32_t)(h)->value; /* sigval's low half */       \
			break;                                                         \
		case L_RT:                                                             \
			c_.pid = (h)->pid;                                             \
			c_.uid = (h)->uid;                                             \
			c_.value = (uint32_t)(h)->value;                               \
			break;                                                         \
		case L_CHLD:                                                           \
			c_.pid = (h)->pid;                                             \
			c_.uid = (h)->uid;                                             \
			c_.status = (h)->status;                                       \
			c_.utime = (__typeof__(c_.utime))(h)->utime;                   \
			c_.stime = (__typeof__(c_.stime))(h)->stime;                   \
			break;                                                         \
		case L_FAULT:                                                          \
			c_.addr = (uint32_t)(h)->addr;                                 \
			memcpy(&c_.addr_lsb, &(h)->addr_lsb, FAULT_TAIL);              \
			break;                                                         \
		case L_POLL:                                                           \
			c_.band = (int32_t)(h)->band;                                  \
			c_.fd = (h)->fd;                                               \
			break;                                                         \
		case L_SYS:                                                            \
			c_.call_addr = (uint32_t)(h)->call_addr;                       \
			c_.syscall = (h)->syscall;                                     \
			c_.arch = (h)->arch;                                           \
			break;                                                         \
		}                                                                      \
		memcpy((out), &c_, sizeof(c_));                                        \
	} while (0)

/* The host's form from the compat one: pointers zero-extended, longs
 * sign-extended (the field types do it). */
#define SIGINFO_FROM_COMPAT(C, in, h)                                                  \
	do {                                                                           \
		C c_;                                                                  \
		memcpy(&c_, (in), sizeof(c_));                                         \
		memset((h), 0, sizeof(*(h)));                                          \
		(h)->si_signo = c_.si_signo;                                           \
		(h)->si_errno = c_.si_errno;                                           \
		(h)->si_code = c_.si_code;                                             \
		switch (layout_of(c_.si_signo, c_.si_code)) {                          \
		case L_FAULT:                                                          \
			(h)->addr = c_.addr;                                           \
			break;                                                         \
		case L_POLL:                                                           \
			(h)->band = c_.band;                                           \
			(h)->fd = c_.fd;                                               \
			break;                                                         \
		case L_CHLD:                                                           \
			(h)->pid = c_.pid;                                             \
			(h)->uid = c_.uid;                                             \
			(h)->status = c_.status;                                       \
			(h)->utime = c_.utime;                                         \
			(h)->stime = c_.stime;                                         \
			break;                                                         \
		case L_SYS:                                                            \
			(h)->call_addr = c_.call_addr;                                 \
			(h)->syscall = c_.syscall;                                     \
			(h)->arch = c_.arch;                                           \
			break;                                                         \
		default: /* kill, timer, rt: three 32-bit words */                    \
			(h)->pid = c_.pid;                                             \
			(h)->uid = c_.uid;                                             \
			(h)->value = c_.value;                                         \
			break;                                                         \
		}                                                                      \
	} while (0)

void siginfo_to_guest(const siginfo_t *host, enum sg_abi abi, uint8_t out[128])
{
	struct sc_siginfo64 h;

	memcpy(&h, host, sizeof(h));
	if (abi == SG_ABI_I386)
		SIGINFO_TO_COMPAT(struct compat_siginfo, &h, out);
	else if (abi == SG_ABI_X32)
		SIGINFO_TO_COMPAT(struct compat_siginfo_x32, &h, out);
	else
		memcpy(out, &h, 128);
}

void siginfo_from_guest(const uint8_t in[128], enum sg_abi abi, siginfo_t *host)
{
	struct sc_siginfo64 h;

	if (abi == SG_ABI_I386)
		SIGINFO_FROM_COMPAT(struct compat_siginfo, in, &h);
	else if (abi == SG_ABI_X32)
		SIGINFO_FROM_COMPAT(struct compat_siginfo_x32, in, &h);
	else
		memcpy(&h, in, 128);
	memcpy(host, &h, sizeof(h));
}
#undef SIGINFO_TO_COMPAT
#undef SIGINFO_FROM_COMPAT
#undef FAULT_TAIL
