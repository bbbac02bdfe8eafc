/* Socket kinds: addresses, message headers, socket type and protocol, as
 * strace prints them. */
#define _GNU_SOURCE /* struct mmsghdr */
#include <arpa/inet.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "mm/mm.h"
#include "syscall/compat/compat.h"
#include "trace/trace_internal.h"

static uint64_t rd(const void *p, unsigned size)
{
	uint64_t v = 0;

	memcpy(&v, p, size);
	return v;
}

/* socket(2)'s type: SOCK_STREAM|SOCK_CLOEXEC */
bool tk_socktypefl(const struct targ *a, uint64_t v)
{
	uint32_t t = (uint32_t)v;

	tprint_enum(a->l, &xlat_socktype, t & 0xf);
	if (t & ~0xfu) {
		tl_putc(a->l, '|');
		tprint_flags(a->l, &xlat_sockflags, t & ~0xfu);
	}
	return true;
}

/* The protocol has IPPROTO_ names only for the Internet families. */
bool tk_sockproto(const struct targ *a, uint64_t v)
{
	int family = (int)a->call->args[0];

	if (family == AF_INET || family == AF_INET6)
		tprint_enum(a->l, &xlat_ipproto, (int32_t)v);
	else
		tl_printf(a->l, "%d", (int)(int32_t)v);
	return true;
}

/* socket addresses are the same bytes in every ABI */
#define SUN_PATH_AT offsetof(struct sockaddr_un, sun_path)
#define SA_DATA_AT offsetof(struct sockaddr, sa_data)

/* {sa_family=AF_INET, sin_port=htons(80), sin_addr=inet_addr("1.2.3.4")} */
static void print_sockaddr(const struct targ *a, uint64_t addr, uint64_t len)
{
	unsigned char b[sizeof(struct sockaddr_storage)];
	size_t n = len < sizeof(b) ? (size_t)len : sizeof(b);
	int family;

	if (!addr) {
		tl_puts(a->l, "NULL");
		return;
	}
	memset(b, 0, sizeof(b));
	if (n < 2 || !tread(a, b, addr, n)) {
		tprint_ptr(a->l, addr);
		return;
	}
	family = (int)GUEST_FIELD(b, struct sockaddr, sa_family);
	tl_puts(a->l, "{sa_family=");
	tprint_enum(a->l, &xlat_family, family);
	if (family == AF_INET && n >= sizeof(struct sockaddr_in)) {
		char ip[INET_ADDRSTRLEN];

		inet_ntop(AF_INET, b + offsetof(struct sockaddr_in, sin_addr), ip, sizeof(ip));
		tl_printf(a->l, ", sin_port=htons(%u), sin_addr=inet_addr(\"%s\")",
			  (unsigned)ntohs((uint16_t)GUEST_FIELD(b, struct sockaddr_in, sin_port)),
			  ip);
	} else if (family == AF_INET6 && n >= sizeof(struct sockaddr_in6)) {
		char ip[INET6_ADDRSTRLEN];

		inet_ntop(AF_INET6, b + offsetof(struct sockaddr_in6, sin6_addr), ip, sizeof(ip));
		tl_printf(a->l, ", sin6_port=htons(%u), sin6_flowinfo=htonl(%u), "
			  "inet_pton(AF_INET6, \"%s\", &sin6_addr), sin6_scope_id=%u",
			  (unsigned)ntohs((uint16_t)GUEST_FIELD(b, struct sockaddr_in6, sin6_port)),
			  (unsigned)ntohl(
				  (uint32_t)GUEST_FIELD(b, struct sockaddr_in6, sin6_flowinfo)),
			  ip, (unsigned)GUEST_FIELD(b, struct sockaddr_in6, sin6_scope_id));
	} else if (family == AF_UNIX && n > SUN_PATH_AT) { /* (an unnamed one: no path) */
		size_t plen = n - SUN_PATH_AT;
		const unsigned char *path = b + SUN_PATH_AT;

		tl_puts(a->l, ", sun_path=");
		if (plen && path[0] == 0) {
			/* abstract: strace prints @name */
			tl_putc(a->l, '@');
			tl_quote(a->l, path + 1, plen - 1, false);
		} else {
			tl_quote(a->l, path, strnlen((const char *)path, plen), false);
		}
	} else if (n > SA_DATA_AT && family != AF_UNIX) {
		tl_puts(a->l, ", sa_data=");
		tl_quote(a->l, b + SA_DATA_AT, n - SA_DATA_AT, false);
	}
	tl_putc(a->l, '}');
}

void trace_print_sockaddr(const struct targ *a, uint64_t addr, uint64_t len)
{
	print_sockaddr(a, addr, len);
}

/* Input address, its length in the next argument (connect, bind, sendto). */
bool tk_sockaddr(const struct targ *a, uint64_t v)
{
	print_sockaddr(a, targ_ulong(a, v), (uint32_t)a->call->args[a->i + 1]);
	return true;
}

/* Output address, its length through the pointer in the next argument
 * (accept, getsockname, recvfrom's last two). */
bool tk_osockaddr(const struct targ *a, uint64_t v)
{
	uint32_t len;

	if (!tread(a, &len, targ_ulong(a, a->call->args[a->i + 1]), sizeof(len)))
		len = 0;
	print_sockaddr(a, targ_ulong(a, v), len);
	return true;
}

/* [16]: the socklen_t an output address came with */
bool tk_osocklen(const struct targ *a, uint64_t v)
{
	uint32_t len;
	uint64_t addr = targ_ulong(a, v);

	if (!tread(a, &len, addr, sizeof(len))) {
		tprint_ptr(a->l, addr);
		return true;
	}
	tl_printf(a->l, "[%u]", len);
	return true;
}

static bool is_sol_ip(uint32_t level)
{
	const char *name = xlat_name(&xlat_sollevel, level);

	return name && !strcmp(name, "SOL_IP");
}

/* SCM_RIGHTS' descriptors, SCM_CREDENTIALS' struct ucred, SOL_IP's TTL
 * and TOS. */
static void print_cmsg_data(const struct targ *a, uint32_t level, uint32_t type,
			    uint64_t data, uint64_t len)
{
	if (level == 1 /* SOL_SOCKET */ && type == 1 /* SCM_RIGHTS */) {
		tl_puts(a->l, ", cmsg_data=[");
		for (uint64_t i = 0; i + 4 <= len; i += 4) {
			int32_t fd;

			if (!tread(a, &fd, data + i, 4))
				break;
			tl_printf(a->l, "%s%d", i ? ", " : "", fd);
		}
		tl_putc(a->l, ']');
	} else if (is_sol_ip(level)) {
		const char *name = xlat_name(&xlat_sockoptip, type);
		unsigned char v[4];

		/* IP_TTL's int, IP_TOS's byte (strace's forms) */
		if (name && !strcmp(name, "IP_TTL") && len >= 4 && tread(a, v, data, 4))
			tl_printf(a->l, ", cmsg_data=[%d]", (int32_t)rd(v, 4));
		else if (name && !strcmp(name, "IP_TOS") && len >= 1 && tread(a, v, data, 1))
			tl_printf(a->l, ", cmsg_data=[%#x]", v[0]);
	} else if (level == 1 && type == 2 /* SCM_CREDENTIALS */ && len >= 12) {
		uint32_t cred[3];

		if (tread(a, cred, data, sizeof(cred)))
			tl_printf(a->l, ", cmsg_data={pid=%d, uid=%u, gid=%u}",
				  (int32_t)cred[0], cred[1], cred[2]);
	}
}

/* msg_control: [{cmsg_len=24, cmsg_level=SOL_SOCKET, cmsg_type=SCM_RIGHTS,
 * cmsg_data=[0, 1]}, ...]. The header is size_t, int, int (16 bytes) in
 * the 64-bit ABI; the compat one (i386, x32) is three 32-bit words, and
 * each message starts at the ABI's alignment (8 or 4). */
static void print_cmsgs(const struct targ *a, uint64_t addr, uint64_t total)
{
	bool compat = targ_table(a) != SG_TABLE_X64;
	/* CMSG_ALIGN: the kernel's long (compat: 4) */
	unsigned hdr = compat ? sizeof(struct compat_cmsghdr) : sizeof(struct cmsghdr);
	unsigned align = compat ? sizeof(compat_ulong_t) : sizeof(long);
	uint64_t off = 0;
	unsigned n = 0;

	tl_putc(a->l, '[');
	while (off + hdr <= total) {
		unsigned char b[sizeof(struct cmsghdr)];
		uint64_t len;
		uint32_t level, type;
		const char *name;

		if (!tread(a, b, addr + off, hdr))
			break;
#define CMSG_FIELD(f) \
	(compat ? GUEST_FIELD(b, struct compat_cmsghdr, f) : GUEST_FIELD(b, struct cmsghdr, f))
		len = CMSG_FIELD(cmsg_len);
		level = (uint32_t)CMSG_FIELD(cmsg_level);
		type = (uint32_t)CMSG_FIELD(cmsg_type);
#undef CMSG_FIELD
		if (len < hdr || len > total - off)
			break;
		if (n++ == TRACE_MAX_ELEMS) {
			tl_puts(a->l, ", ...");
			break;
		}
		tl_printf(a->l, "%s{cmsg_len=%llu, cmsg_level=", n > 1 ? ", " : "",
			  (unsigned long long)len);
		tprint_enum(a->l, &xlat_sollevel, (int32_t)level);
		tl_puts(a->l, ", cmsg_type=");
		name = level == 1 && type == 1 ? "SCM_RIGHTS"
		     : level == 1 && type == 2 ? "SCM_CREDENTIALS" : NULL;
		if (!name && is_sol_ip(level))
			name = xlat_name(&xlat_sockoptip, type);
		if (name)
			tl_puts(a->l, name);
		else
			tl_printf(a->l, "%#x", type);
		print_cmsg_data(a, level, type, addr + off + hdr, len - hdr);
		tl_putc(a->l, '}');
		off += (len + align - 1) & ~(uint64_t)(align - 1);
	}
	tl_putc(a->l, ']');
}

/* struct msghdr: pointers and lengths in the guest's width, except
 * msg_namelen and msg_flags (ints). */
static void print_msghdr(const struct targ *a, uint64_t addr, uint64_t budget)
{
	bool compat = guest_long_bytes(targ_table(a)) == 4;
	unsigned char b[sizeof(struct msghdr)];
	uint64_t name, namelen, iov, iovlen, control, controllen, flags;

	if (!tread(a, b, addr, compat ? sizeof(struct compat_msghdr) : sizeof(b))) {
		tprint_ptr(a->l, addr);
		return;
	}
#define MSGHDR_FIELD(f) \
	(compat ? GUEST_FIELD(b, struct compat_msghdr, f) : GUEST_FIELD(b, struct msghdr, f))
	name = MSGHDR_FIELD(msg_name);
	namelen = MSGHDR_FIELD(msg_namelen);
	iov = MSGHDR_FIELD(msg_iov);
	iovlen = MSGHDR_FIELD(msg_iovlen);
	control = MSGHDR_FIELD(msg_control);
	controllen = MSGHDR_FIELD(msg_controllen);
	flags = MSGHDR_FIELD(msg_flags);
#undef MSGHDR_FIELD
	tl_puts(a->l, "{msg_name=");
	print_sockaddr(a, name, namelen);
	tl_printf(a->l, ", msg_namelen=%u, msg_iov=", (unsigned)namelen);
	trace_print_iov(a, iov, iovlen, budget);
	tl_printf(a->l, ", msg_iovlen=%llu", (unsigned long long)iovlen);
	if (controllen) {
		tl_puts(a->l, ", msg_control=");
		if (control && a->mm && mm_access_ok(a->mm, control, controllen, PROT_READ))
			print_cmsgs(a, control, controllen);
		else
			tprint_ptr(a->l, control);
	}
	tl_printf(a->l, ", msg_controllen=%llu, msg_flags=",
		  (unsigned long long)controllen);
	tprint_flags(a->l, &xlat_msgflags, flags);
	tl_putc(a->l, '}');
}

bool tk_msghdr(const struct targ *a, uint64_t v)
{
	print_msghdr(a, targ_ulong(a, v), UINT64_MAX);
	return true;
}

bool tk_omsghdr(const struct targ *a, uint64_t v)
{
	print_msghdr(a, targ_ulong(a, v), (uint64_t)a->call->result);
	return true;
}

/* sendmmsg/recvmmsg: as many struct mmsghdr as the result, each a msghdr
 * and the bytes it carried (msg_len, the budget of a received one's iov). */
bool tk_ommsghdr(const struct targ *a, uint64_t v)
{
	bool compat = guest_long_bytes(targ_table(a)) == 4;
	size_t size = compat ? sizeof(struct compat_mmsghdr) : sizeof(struct mmsghdr);
	size_t hdr = compat ? offsetof(struct compat_mmsghdr, msg_len)
			    : offsetof(struct mmsghdr, msg_len);
	bool received = a->call->row && !strncmp(a->call->row->name, "recv", 4);
	uint64_t addr = targ_ulong(a, v);
	uint32_t len;

	if (!tread(a, &len, addr + hdr, sizeof(len))) {
		tprint_ptr(a->l, addr);
		return true;
	}
	tl_putc(a->l, '[');
	for (long i = 0; i < a->call->result; i++) {
		uint64_t m = addr + (uint64_t)i * size;

		if (i == TRACE_MAX_ELEMS) {
			tl_puts(a->l, ", ...");
			break;
		}
		if (!tread(a, &len, m + hdr, sizeof(len)))
			break;
		tl_puts(a->l, i ? ", {msg_hdr=" : "{msg_hdr=");
		print_msghdr(a, m, received ? len : UINT64_MAX);
		tl_printf(a->l, ", msg_len=%u}", len);
	}
	tl_putc(a->l, ']');
	return true;
}

/* i386 socketcall's call number, when the call is shown as itself (its
 * arguments unreadable): SYS_SOCKET...; another number in decimal, as
 * strace prints it. */
bool tk_socketcallop(const struct targ *a, uint64_t v)
{
	const char *name = xlat_name(&xlat_sockcallno, (uint32_t)v);

	if (name)
		tl_puts(a->l, name);
	else
		tl_printf(a->l, "%d", (int32_t)v);
	return true;
}
