/* ioctl's request and third argument, as strace 6.1 shows them for the
 * terminal requests: struct termios field by field, struct winsize, the
 * int a request reads or fills ("[0]"), TCFLSH/TCXONC's operation. What
 * the call fills is printed when it returns (its address when it fails);
 * what it reads, when it enters. Other requests show the argument as a
 * pointer. The layouts are the same on every x86 ABI (u32 flags, u16
 * winsize fields, int). */
#include <string.h>
#include <asm/termbits.h> /* the kernel's struct termios, every x86 ABI's */
#include <net/if.h>

#include "syscall/compat/compat.h"
#include "trace/trace_internal.h"

enum ioctl_arg {
	IOCTL_PTR,       /* unknown: the value */
	IOCTL_INT,       /* a plain int argument (TCSBRK) */
	IOCTL_IN_INT,    /* [n], read by the call */
	IOCTL_OUT_INT,   /* [n], filled by the call */
	IOCTL_IN_TERMIOS,
	IOCTL_OUT_TERMIOS,
	IOCTL_IN_WINSIZE,
	IOCTL_OUT_WINSIZE,
	IOCTL_FLSH,      /* TCFLSH's queue */
	IOCTL_XONC,      /* TCXONC's action */
	IOCTL_IFCONF,    /* SIOCGIFCONF's struct ifconf: read and rewritten */
};

static const struct {
	const char *name;
	enum ioctl_arg arg;
} requests[] = {
	{ "TCGETS", IOCTL_OUT_TERMIOS },
	{ "TCSETS", IOCTL_IN_TERMIOS },
	{ "TCSETSW", IOCTL_IN_TERMIOS },
	{ "TCSETSF", IOCTL_IN_TERMIOS },
	{ "TIOCGWINSZ", IOCTL_OUT_WINSIZE },
	{ "TIOCSWINSZ", IOCTL_IN_WINSIZE },
	{ "TIOCGPGRP", IOCTL_OUT_INT },
	{ "TIOCSPGRP", IOCTL_IN_INT },
	{ "TIOCGSID", IOCTL_OUT_INT },
	{ "TIOCOUTQ", IOCTL_OUT_INT },
	{ "TIOCGPTN", IOCTL_OUT_INT },
	{ "TIOCSPTLCK", IOCTL_IN_INT },
	{ "FIONREAD", IOCTL_OUT_INT },
	{ "FIONBIO", IOCTL_IN_INT },
	{ "FIOASYNC", IOCTL_IN_INT },
	{ "TCSBRK", IOCTL_INT },
	{ "TCFLSH", IOCTL_FLSH },
	{ "TCXONC", IOCTL_XONC },
	{ "FICLONE", IOCTL_INT },
	{ "SIOCOUTQNSD", IOCTL_OUT_INT },
	{ "SIOCINQ", IOCTL_OUT_INT },
	{ "SIOCGIFCONF", IOCTL_IFCONF },
};

static const char *request_name(uint64_t req)
{
	return xlat_name(&xlat_ioctlreq, (uint32_t)req);
}

static enum ioctl_arg arg_of(uint64_t req)
{
	const char *name = request_name(req);

	for (size_t i = 0; name && i < sizeof(requests) / sizeof(requests[0]); i++)
		if (!strcmp(name, requests[i].name))
			return requests[i].arg;
	return IOCTL_PTR;
}

bool trace_ioctl_fills(uint64_t req)
{
	enum ioctl_arg k = arg_of(req);

	return k == IOCTL_OUT_INT || k == IOCTL_OUT_TERMIOS || k == IOCTL_OUT_WINSIZE;
}

/* The request; TCSETS, TCSETSW, TCSETSF share their numbers with OSS's
 * SNDCTL_TMR_START, _STOP, _CONTINUE (_IO('T', 2..4)), FICLONE with
 * BTRFS_IOC_CLONE, IOCTL_VM_SOCKETS_GET_LOCAL_CID with its VMCI name, and
 * strace names both. */
bool tk_ioctlcmd(const struct targ *a, uint64_t v)
{
	static const struct {
		const char *name, *other;
	} shared[] = {
		{ "TCSETS", "SNDCTL_TMR_START" },
		{ "TCSETSW", "SNDCTL_TMR_STOP" },
		{ "TCSETSF", "SNDCTL_TMR_CONTINUE" },
		{ "FICLONE", "BTRFS_IOC_CLONE" },
		{ "IOCTL_VM_SOCKETS_GET_LOCAL_CID", "IOCTL_VMCI_SOCKETS_GET_LOCAL_CID" },
	};
	const char *name = request_name(v);

	for (size_t i = 0; name && i < sizeof(shared) / sizeof(shared[0]); i++)
		if (!strcmp(name, shared[i].name))
			tl_printf(a->l, "%s or ", shared[i].other);
	if (name)
		tl_puts(a->l, name);
	else
		tprint_enum(a->l, &xlat_ioctlreq, (int32_t)(uint32_t)v);
	return true;
}

/* Flags with nothing set print nothing (strace 6.1's termios fields). */
static void flags_or_empty(struct tline *l, const struct xlat *x, uint32_t v)
{
	if (v)
		tprint_flags(l, x, v);
}

static uint32_t mask(const char *name)
{
	return (uint32_t)xlat_value(&xlat_termmask, name);
}

/* A multi-bit field: its value's name, or the value in hex. */
static void field(struct tline *l, const struct xlat *x, uint32_t v)
{
	const char *name = xlat_name(x, v);

	if (name)
		tl_puts(l, name);
	else
		tl_printf(l, "%#x", v);
}

/* c_lflag in strace's order, which is not the bits' (IEXTEN after NOFLSH,
 * TOSTOP after PENDIN). */
static void print_lflag(struct tline *l, uint32_t v)
{
	static const char *const order[] = {
		"ISIG", "ICANON", "XCASE", "ECHO", "ECHOE", "ECHOK", "ECHONL",
		"NOFLSH", "IEXTEN", "ECHOCTL", "ECHOPRT", "ECHOKE", "FLUSHO",
		"PENDIN", "TOSTOP", "EXTPROC",
	};
	bool first = true;

	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		uint32_t bit = (uint32_t)xlat_value(&xlat_termlflag, order[i]);

		if (!bit || !(v & bit))
			continue;
		tl_printf(l, "%s%s", first ? "" : "|", order[i]);
		first = false;
		v &= ~bit;
	}
	if (v)
		tl_printf(l, "%s%#x", first ? "" : "|", v);
}

static void print_termios(const struct targ *a, uint64_t addr)
{
	/* the four flag words are all strace shows before c_line */
	unsigned char b[offsetof(struct termios, c_line)];
	uint32_t ifl, ofl, cfl, lfl, ibaud;

	if (!tread(a, b, addr, sizeof(b))) {
		tprint_ptr(a->l, addr);
		return;
	}
	ifl = (uint32_t)GUEST_FIELD(b, struct termios, c_iflag);
	ofl = (uint32_t)GUEST_FIELD(b, struct termios, c_oflag);
	cfl = (uint32_t)GUEST_FIELD(b, struct termios, c_cflag);
	lfl = (uint32_t)GUEST_FIELD(b, struct termios, c_lflag);
	tl_puts(a->l, "{c_iflag=");
	flags_or_empty(a->l, &xlat_termiflag, ifl);
	/* the delays, then '|' and the flags (strace 6.1 leaves the '|'
	 * when there are none) */
	tl_puts(a->l, ", c_oflag=");
	field(a->l, &xlat_termnldly, ofl & mask("NLDLY"));
	tl_putc(a->l, '|');
	field(a->l, &xlat_termcrdly, ofl & mask("CRDLY"));
	tl_putc(a->l, '|');
	field(a->l, &xlat_termtabdly, ofl & mask("TABDLY"));
	tl_putc(a->l, '|');
	field(a->l, &xlat_termbsdly, ofl & mask("BSDLY"));
	tl_putc(a->l, '|');
	field(a->l, &xlat_termvtdly, ofl & mask("VTDLY"));
	tl_putc(a->l, '|');
	field(a->l, &xlat_termffdly, ofl & mask("FFDLY"));
	tl_putc(a->l, '|');
	flags_or_empty(a->l, &xlat_termoflag,
		       ofl & ~(mask("NLDLY") | mask("CRDLY") | mask("TABDLY") |
			       mask("BSDLY") | mask("VTDLY") | mask("FFDLY")));
	/* speed, input speed when set, character size, then the flags */
	tl_puts(a->l, ", c_cflag=");
	field(a->l, &xlat_termbaud, cfl & mask("CBAUD"));
	tl_putc(a->l, '|');
	ibaud = (cfl & mask("CIBAUD")) >> mask("IBSHIFT");
	if (ibaud) {
		field(a->l, &xlat_termbaud, ibaud);
		tl_puts(a->l, "<<IBSHIFT|");
	}
	field(a->l, &xlat_termcsize, cfl & mask("CSIZE"));
	tl_putc(a->l, '|');
	flags_or_empty(a->l, &xlat_termcflag,
		       cfl & ~(mask("CBAUD") | mask("CIBAUD") | mask("CSIZE")));
	tl_puts(a->l, ", c_lflag=");
	print_lflag(a->l, lfl);
	tl_puts(a->l, ", ...}");
}

static void print_winsize(const struct targ *a, uint64_t addr)
{
	uint16_t w[4];

	if (!tread(a, w, addr, sizeof(w))) {
		tprint_ptr(a->l, addr);
		return;
	}
	tl_printf(a->l, "{ws_row=%u, ws_col=%u, ws_xpixel=%u, ws_ypixel=%u}",
		  w[0], w[1], w[2], w[3]);
}

static void print_int(const struct targ *a, uint64_t addr)
{
	int32_t n;

	if (!tread(a, &n, addr, sizeof(n))) {
		tprint_ptr(a->l, addr);
		return;
	}
	tl_printf(a->l, "[%d]", n);
}

bool trace_ioctl_splits(uint64_t req)
{
	return arg_of(req) == IOCTL_IFCONF;
}

/* strace's note "2 * sizeof(struct ifreq)", in a C comment, when n is a
 * whole number of them */
static void ifreq_count(struct tline *l, int32_t n, unsigned size)
{
	if (n > 0 && n % (int32_t)size == 0)
		tl_printf(l, " /%c %d * sizeof(struct ifreq) %c/", '*', n / (int32_t)size, '*');
}

/* struct ifconf {int ifc_len; char *ifc_buf;}: strace shows the length
 * asked for, " => " the length filled, and the struct ifreq entries
 * (name, address) the call wrote: 40 bytes each in the 64-bit ABI, 32 in
 * the compat one. On entry (TARG_HEAD) the length is kept for the return. */
static __thread struct {
	bool read;
	int32_t len;
	uint64_t buf;
} ifconf_in;

static void print_ifconf(const struct targ *a, uint64_t addr)
{
	bool compat = targ_table(a) != SG_TABLE_X64;
	unsigned size = compat ? sizeof(struct compat_ifreq) : sizeof(struct ifreq);
	unsigned char b[sizeof(struct ifconf)];
	int32_t len;
	uint64_t buf;

	if (a->part == TARG_TAIL && !ifconf_in.read)
		return;
	if (!tread(a, b, addr, compat ? sizeof(struct compat_ifconf) : sizeof(b))) {
		if (a->part != TARG_TAIL)
			tprint_ptr(a->l, addr);
		ifconf_in.read = false;
		return;
	}
	len = (int32_t)(compat ? GUEST_FIELD(b, struct compat_ifconf, ifc_len)
			       : GUEST_FIELD(b, struct ifconf, ifc_len));
	buf = compat ? GUEST_FIELD(b, struct compat_ifconf, ifcbuf)
		     : GUEST_FIELD(b, struct ifconf, ifc_buf);
	if (a->part == TARG_HEAD) {
		ifconf_in.read = true;
		ifconf_in.len = len;
		ifconf_in.buf = buf;
		tl_putc(a->l, '{');
		if (buf) { /* a NULL buffer: only the length the call gives */
			tl_printf(a->l, "ifc_len=%d", len);
			ifreq_count(a->l, len, size);
		}
		return;
	}
	if (a->part == TARG_WHOLE)
		tl_putc(a->l, '{');
	if (a->part == TARG_WHOLE || !ifconf_in.buf) {
		tl_printf(a->l, "ifc_len=%d", len);
		ifreq_count(a->l, len, size);
	} else if (a->call->result >= 0 && len != ifconf_in.len) {
		tl_printf(a->l, " => %d", len);
		ifreq_count(a->l, len, size);
	}
	tl_puts(a->l, ", ifc_buf=");
	if (!buf || a->call->result < 0) {
		tprint_ptr(a->l, buf);
	} else {
		tl_putc(a->l, '[');
		for (int32_t i = 0; (i + 1) * (int32_t)size <= len; i++) {
			char name[IFNAMSIZ + 1] = "";

			if (i == TRACE_MAX_ELEMS) {
				tl_puts(a->l, ", ...");
				break;
			}
			if (!tread(a, name, buf + (uint64_t)i * size, IFNAMSIZ))
				break;
			tl_puts(a->l, i ? ", {ifr_name=" : "{ifr_name=");
			tl_quote(a->l, (const unsigned char *)name, strnlen(name, IFNAMSIZ), false);
			tl_puts(a->l, ", ifr_addr=");
			/* name and address at the same offsets in the compat ifreq */
			trace_print_sockaddr(a, buf + (uint64_t)i * size +
						     offsetof(struct ifreq, ifr_addr),
					     sizeof(struct sockaddr));
			tl_putc(a->l, '}');
		}
		tl_putc(a->l, ']');
	}
	tl_putc(a->l, '}');
}

bool tk_ioctlarg(const struct targ *a, uint64_t v)
{
	enum ioctl_arg k = arg_of(a->call->args[1]);
	uint64_t addr = targ_ulong(a, v);

	if (k == IOCTL_IFCONF) {
		print_ifconf(a, addr);
		return true;
	}
	/* what the call fills: nothing to show when it failed */
	if (trace_ioctl_fills(a->call->args[1]) && (!a->exiting || a->call->result < 0)) {
		tprint_ptr(a->l, addr);
		return true;
	}
	if (!addr && k != IOCTL_INT && k != IOCTL_FLSH && k != IOCTL_XONC)
		k = IOCTL_PTR;
	switch (k) {
	case IOCTL_INT:
		tl_printf(a->l, "%d", (int)(uint32_t)v);
		break;
	case IOCTL_FLSH:
		tprint_enum(a->l, &xlat_tcflshop, (int32_t)(uint32_t)v);
		break;
	case IOCTL_XONC:
		tprint_enum(a->l, &xlat_tcxoncop, (int32_t)(uint32_t)v);
		break;
	case IOCTL_IN_INT:
	case IOCTL_OUT_INT:
		print_int(a, addr);
		break;
	case IOCTL_IN_TERMIOS:
	case IOCTL_OUT_TERMIOS:
		print_termios(a, addr);
		break;
	case IOCTL_IN_WINSIZE:
	case IOCTL_OUT_WINSIZE:
		print_winsize(a, addr);
		break;
	case IOCTL_PTR:
	case IOCTL_IFCONF: /* (printed above) */
		tprint_ptr(a->l, addr);
		break;
	}
	return true;
}
