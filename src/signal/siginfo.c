/* siginfo_t as each ABI's kernel writes it (asm-generic/siginfo.h,
 * compat_siginfo). The union's layout follows from signo and si_code as
 * the kernel's siginfo_layout() decides; i386 and x32 narrow longs and
 * pointers to 32 bits, and x32 keeps SIGCHLD's clock values 64-bit (at
 * 4-byte alignment). */
#include <string.h>

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

/* Offsets in the host (x64) siginfo: the union starts at 16. */
#define H(off) (16 + (off))
/* Offsets in compat siginfo: the union starts at 12. */
#define C(off) (12 + (off))

static uint32_t rd32(const void *p, size_t off)
{
	uint32_t v;

	memcpy(&v, (const uint8_t *)p + off, 4);
	return v;
}

static uint64_t rd64(const void *p, size_t off)
{
	uint64_t v;

	memcpy(&v, (const uint8_t *)p + off, 8);
	return v;
}

static void wr32(void *p, size_t off, uint32_t v)
{
	memcpy((uint8_t *)p + off, &v, 4);
}

static void wr64(void *p, size_t off, uint64_t v)
{
	memcpy((uint8_t *)p + off, &v, 8);
}

void siginfo_to_guest(const siginfo_t *host, enum sg_abi abi, uint8_t out[128])
{
	const void *h = host;

	if (abi != SG_ABI_I386 && abi != SG_ABI_X32) {
		memcpy(out, host, 128);
		return;
	}
	memset(out, 0, 128);
	memcpy(out, host, 12); /* signo, errno, code */
	switch (layout_of(host->si_signo, host->si_code)) {
	case L_KILL:
		wr32(out, C(0), rd32(h, H(0)));  /* pid */
		wr32(out, C(4), rd32(h, H(4)));  /* uid */
		break;
	case L_TIMER:
		wr32(out, C(0), rd32(h, H(0)));  /* timerid */
		wr32(out, C(4), rd32(h, H(4)));  /* overrun */
		wr32(out, C(8), rd32(h, H(8)));  /* sigval (low half) */
		break;
	case L_RT:
		wr32(out, C(0), rd32(h, H(0)));  /* pid */
		wr32(out, C(4), rd32(h, H(4)));  /* uid */
		wr32(out, C(8), rd32(h, H(8)));  /* sigval */
		break;
	case L_CHLD:
		wr32(out, C(0), rd32(h, H(0)));  /* pid */
		wr32(out, C(4), rd32(h, H(4)));  /* uid */
		wr32(out, C(8), rd32(h, H(8)));  /* status */
		if (abi == SG_ABI_X32) {
			wr64(out, C(12), rd64(h, H(16)));
			wr64(out, C(20), rd64(h, H(24)));
		} else {
			wr32(out, C(12), (uint32_t)rd64(h, H(16)));
			wr32(out, C(16), (uint32_t)rd64(h, H(24)));
		}
		break;
	case L_FAULT:
		wr32(out, C(0), (uint32_t)rd64(h, H(0)));  /* addr */
		/* addr_lsb / bounds / pkey follow the pointer */
		memcpy(out + C(4), (const uint8_t *)h + H(8), 20);
		break;
	case L_POLL:
		wr32(out, C(0), (uint32_t)rd64(h, H(0)));  /* band */
		wr32(out, C(4), rd32(h, H(8)));            /* fd */
		break;
	case L_SYS:
		wr32(out, C(0), (uint32_t)rd64(h, H(0)));  /* call_addr */
		wr32(out, C(4), rd32(h, H(8)));            /* syscall */
		wr32(out, C(8), rd32(h, H(12)));           /* arch */
		break;
	}
}

void siginfo_from_guest(const uint8_t in[128], enum sg_abi abi, siginfo_t *host)
{
	void *h = host;

	if (abi != SG_ABI_I386 && abi != SG_ABI_X32) {
		memcpy(host, in, 128);
		return;
	}
	memset(host, 0, sizeof(*host));
	memcpy(host, in, 12);
	switch (layout_of(host->si_signo, host->si_code)) {
	case L_FAULT:
		wr64(h, H(0), rd32(in, C(0)));
		break;
	case L_POLL:
		wr64(h, H(0), (uint64_t)(int64_t)(int32_t)rd32(in, C(0)));
		wr32(h, H(8), rd32(in, C(4)));
		break;
	case L_CHLD:
		wr32(h, H(0), rd32(in, C(0)));
		wr32(h, H(4), rd32(in, C(4)));
		wr32(h, H(8), rd32(in, C(8)));
		if (abi == SG_ABI_X32) {
			wr64(h, H(16), rd64(in, C(12)));
			wr64(h, H(24), rd64(in, C(20)));
		} else {
			wr64(h, H(16), (uint64_t)(int64_t)(int32_t)rd32(in, C(12)));
			wr64(h, H(24), (uint64_t)(int64_t)(int32_t)rd32(in, C(16)));
		}
		break;
	default: /* kill, timer, rt, sys: three 32-bit words */
		wr32(h, H(0), rd32(in, C(0)));
		wr32(h, H(4), rd32(in, C(4)));
		wr32(h, H(8), rd32(in, C(8)));
		break;
	}
}
