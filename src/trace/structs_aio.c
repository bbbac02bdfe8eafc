/* The kinds of kinds.in for Linux native AIO (io_setup, io_submit,
 * io_cancel, io_getevents, io_pgetevents), printed as strace shows them.
 * struct iocb and struct io_event have one layout in every ABI (64-bit
 * fields, <linux/aio_abi.h>); what differs is io_submit's array of iocb
 * pointers and io_setup's context (the guest's pointer width: x32's
 * entries for both are the compat ones). */
#include <linux/aio_abi.h>
#include <stddef.h>
#include <string.h>

#include "trace/trace_internal.h"

static uint64_t rd(const void *p, unsigned size)
{
	uint64_t v = 0;

	memcpy(&v, p, size); /* little-endian guest and host */
	return v;
}

static const char *iocb_cmd_name(unsigned cmd)
{
#define IOCB_CMD(name) case name: return #name;
	switch (cmd) {
	IOCB_CMD(IOCB_CMD_PREAD)
	IOCB_CMD(IOCB_CMD_PWRITE)
	IOCB_CMD(IOCB_CMD_FSYNC)
	IOCB_CMD(IOCB_CMD_FDSYNC)
	IOCB_CMD(IOCB_CMD_POLL)
	IOCB_CMD(IOCB_CMD_NOOP)
	IOCB_CMD(IOCB_CMD_PREADV)
	IOCB_CMD(IOCB_CMD_PWRITEV)
	}
#undef IOCB_CMD
	return NULL;
}

#define IOCB_FIELD(b, f) rd((b) + offsetof(struct iocb, f), sizeof(((struct iocb *)0)->f))

/* The fields strace shows for every command: data always (0 as 0),
 * key, rw_flags and reqprio only when set. */
static void print_iocb_header(const struct targ *a, const unsigned char *b)
{
	uint64_t data = IOCB_FIELD(b, aio_data);
	uint32_t key = (uint32_t)IOCB_FIELD(b, aio_key);
	uint32_t rw_flags = (uint32_t)IOCB_FIELD(b, aio_rw_flags);
	unsigned cmd = (unsigned)IOCB_FIELD(b, aio_lio_opcode);
	int16_t prio = (int16_t)IOCB_FIELD(b, aio_reqprio);
	const char *name = iocb_cmd_name(cmd);

	tl_printf(a->l, data ? "aio_data=%#llx, " : "aio_data=%llu, ", (unsigned long long)data);
	if (key)
		tl_printf(a->l, "aio_key=%u, ", key);
	if (rw_flags) {
		tl_puts(a->l, "aio_rw_flags=");
		tprint_flags(a->l, &xlat_rwfflags, rw_flags);
		tl_puts(a->l, ", ");
	}
	if (name)
		tl_printf(a->l, "aio_lio_opcode=%s", name);
	else
		tl_printf(a->l, "aio_lio_opcode=%u /* IOCB_CMD_??? */", cmd);
	if (prio)
		tl_printf(a->l, ", aio_reqprio=%d", prio);
	tl_puts(a->l, ", aio_fildes=");
	tprint_fd(a, (int32_t)IOCB_FIELD(b, aio_fildes));
}

/* What the command reads or writes: the buffer (written bytes shown),
 * the vector, or the poll events; then the eventfd when asked for. */
static void print_iocb_body(const struct targ *a, const unsigned char *b)
{
	uint64_t buf = IOCB_FIELD(b, aio_buf), n = IOCB_FIELD(b, aio_nbytes);
	int64_t off = (int64_t)IOCB_FIELD(b, aio_offset);
	uint32_t flags = (uint32_t)IOCB_FIELD(b, aio_flags);

	switch (IOCB_FIELD(b, aio_lio_opcode)) {
	case IOCB_CMD_PREAD:
	case IOCB_CMD_PWRITE:
		tl_puts(a->l, ", aio_buf=");
		if (IOCB_FIELD(b, aio_lio_opcode) == IOCB_CMD_PWRITE)
			tprint_buf(a, buf, n, false);
		else
			tprint_hex(a->l, buf);
		tl_printf(a->l, ", aio_nbytes=%llu, aio_offset=%lld", (unsigned long long)n,
			  (long long)off);
		break;
	case IOCB_CMD_PREADV:
	case IOCB_CMD_PWRITEV:
		tl_puts(a->l, ", aio_buf=");
		trace_print_iov(a, buf, n,
				IOCB_FIELD(b, aio_lio_opcode) == IOCB_CMD_PWRITEV ? UINT64_MAX
				: TRACE_IOV_ADDRESSES);
		tl_printf(a->l, ", aio_offset=%lld", (long long)off);
		break;
	case IOCB_CMD_POLL:
		tl_puts(a->l, ", aio_buf=");
		tprint_flags(a->l, &xlat_pollevents, buf);
		break;
	}
	if (flags) {
		tl_puts(a->l, ", aio_flags=");
		tl_puts(a->l, flags == IOCB_FLAG_RESFD ? "IOCB_FLAG_RESFD"
			: flags == IOCB_FLAG_IOPRIO ? "IOCB_FLAG_IOPRIO"
			: flags == (IOCB_FLAG_RESFD | IOCB_FLAG_IOPRIO) ? "IOCB_FLAG_RESFD|IOCB_FLAG_IOPRIO"
			: "");
		if (flags & ~(uint32_t)(IOCB_FLAG_RESFD | IOCB_FLAG_IOPRIO))
			tl_printf(a->l, "%#x", flags);
		if (flags & IOCB_FLAG_RESFD) {
			tl_puts(a->l, ", aio_resfd=");
			tprint_fd(a, (int32_t)IOCB_FIELD(b, aio_resfd));
		}
	}
}

/* io_setup's *ctxp: [0x...] once the call filled it; the compat entry
 * (i386 and x32) stores 32 bits */
bool tk_oaioctx(const struct targ *a, uint64_t v)
{
	unsigned w = targ_table(a) == SG_TABLE_X64 ? 8 : 4;
	uint64_t addr = targ_ulong(a, v);
	unsigned char b[8];

	if (!tread(a, b, addr, w)) {
		tprint_ptr(a->l, addr);
		return true;
	}
	tl_printf(a->l, "[%#llx]", (unsigned long long)rd(b, w));
	return true;
}

/* io_submit's iocbpp: [{...}, ...], the count the argument before; an
 * element that cannot be read as its address; a negative count as the
 * address alone. */
bool tk_iocbpp(const struct targ *a, uint64_t v)
{
	unsigned w = guest_long_bytes(targ_table(a));
	uint64_t addr = targ_ulong(a, v);
	int64_t n = w == 4 ? (int32_t)a->call->args[a->i - 1] : (int64_t)a->call->args[a->i - 1];
	unsigned char p[8];

	if (n < 0 || (n > 0 && !tread(a, p, addr, w))) {
		tprint_ptr(a->l, addr);
		return true;
	}
	tl_putc(a->l, '[');
	for (int64_t i = 0; i < n; i++) {
		unsigned char b[sizeof(struct iocb)];
		uint64_t cb;

		if (i == TRACE_MAX_ELEMS) {
			tl_puts(a->l, ", ...");
			break;
		}
		if (i)
			tl_puts(a->l, ", ");
		if (!tread(a, p, addr + (uint64_t)i * w, w)) {
			tl_puts(a->l, "...");
			break;
		}
		cb = rd(p, w);
		if (!tread(a, b, cb, sizeof(b))) {
			tprint_ptr(a->l, cb);
			continue;
		}
		tl_putc(a->l, '{');
		print_iocb_header(a, b);
		print_iocb_body(a, b);
		tl_putc(a->l, '}');
	}
	tl_putc(a->l, ']');
	return true;
}

/* io_cancel's iocb: the fields that name the request */
bool tk_iocb(const struct targ *a, uint64_t v)
{
	uint64_t addr = targ_ulong(a, v);
	unsigned char b[sizeof(struct iocb)];

	if (!tread(a, b, addr, sizeof(b))) {
		tprint_ptr(a->l, addr);
		return true;
	}
	tl_putc(a->l, '{');
	print_iocb_header(a, b);
	tl_putc(a->l, '}');
	return true;
}

/* io_getevents' events: as many as the call returned */
bool tk_oioevents(const struct targ *a, uint64_t v)
{
	uint64_t addr = targ_ulong(a, v);
	long n = (long)a->call->result;

	tl_putc(a->l, '[');
	for (long i = 0; i < n; i++) {
		struct io_event e;

		if (i == TRACE_MAX_ELEMS) {
			tl_puts(a->l, ", ...");
			break;
		}
		if (i)
			tl_puts(a->l, ", ");
		if (!tread(a, &e, addr + (uint64_t)i * sizeof(e), sizeof(e))) {
			tl_puts(a->l, "...");
			break;
		}
		tl_printf(a->l, "{data=%#llx, obj=%#llx, res=%lld, res2=%lld}",
			  (unsigned long long)e.data, (unsigned long long)e.obj,
			  (long long)e.res, (long long)e.res2);
	}
	tl_putc(a->l, ']');
	return true;
}
