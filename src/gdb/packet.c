/* The GDB remote serial protocol's framing (gdb's manual, "Overview" of
 * the remote protocol): "$body#cs", cs the byte sum mod 256 in two hex
 * digits; '}' escapes the next byte (xor 0x20); a bare 0x03 is an
 * interrupt; '+'/'-' acks. Run-length encoding ('*') is only ever sent
 * by a stub, and this one sends none. */
#include <string.h>

#include "gdb/gdb.h"

static const char hexdigits[] = "0123456789abcdef";

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

uint8_t rsp_checksum(const char *data, size_t len)
{
	uint8_t sum = 0;

	for (size_t i = 0; i < len; i++)
		sum += (uint8_t)data[i];
	return sum;
}

static bool needs_escape(uint8_t c)
{
	return c == '$' || c == '#' || c == '}' || c == '*';
}

size_t rsp_frame(char *out, size_t outsz, const char *data, size_t len)
{
	uint8_t sum = rsp_checksum(data, len);

	if (len + 4 > outsz)
		return 0;
	out[0] = '$';
	memcpy(out + 1, data, len);
	out[len + 1] = '#';
	out[len + 2] = hexdigits[sum >> 4];
	out[len + 3] = hexdigits[sum & 15];
	return len + 4;
}

size_t rsp_unescape(char *data, size_t len)
{
	size_t o = 0;

	for (size_t i = 0; i < len; i++) {
		char c = data[i];

		if (c == '}' && i + 1 < len) {
			data[o++] = (char)(data[++i] ^ 0x20);
		} else {
			data[o++] = c;
		}
	}
	return o;
}

size_t rsp_escape(char *out, size_t outsz, const uint8_t *in, size_t len,
		  size_t *used)
{
	size_t o = 0, i = 0;

	for (; i < len; i++) {
		bool esc = needs_escape(in[i]);

		if (o + 1 + esc > outsz)
			break;
		if (esc) {
			out[o++] = '}';
			out[o++] = (char)(in[i] ^ 0x20);
		} else {
			out[o++] = (char)in[i];
		}
	}
	*used = i;
	return o;
}

void rsp_hex(char *out, const uint8_t *in, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		out[2 * i] = hexdigits[in[i] >> 4];
		out[2 * i + 1] = hexdigits[in[i] & 15];
	}
	out[2 * len] = 0;
}

long rsp_unhex(uint8_t *out, size_t outsz, const char *hex, size_t hexlen)
{
	size_t n = hexlen / 2;

	if (hexlen % 2 || n > outsz)
		return -1;
	for (size_t i = 0; i < n; i++) {
		int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -1;
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	return (long)n;
}

enum rsp_event rsp_feed(struct rsp_reader *r, char c)
{
	int v;

	switch (r->state) {
	case RSP_IDLE:
		if (c == '$') {
			r->state = RSP_BODY;
			r->len = 0;
			r->sum = 0;
			r->overflow = false;
			return RSP_NONE;
		}
		if (c == 0x03)
			return RSP_INTERRUPT;
		if (c == '+')
			return RSP_ACK;
		if (c == '-')
			return RSP_NAK;
		return RSP_NONE; /* noise between packets */
	case RSP_BODY:
		if (c == '#') {
			r->state = RSP_CS1;
			return RSP_NONE;
		}
		r->sum += (uint8_t)c;
		if (r->len + 1 < sizeof(r->buf))
			r->buf[r->len++] = c;
		else
			r->overflow = true;
		return RSP_NONE;
	case RSP_CS1:
		v = hexval(c);
		r->got = (uint8_t)((v < 0 ? 0 : v) << 4);
		r->state = v < 0 ? RSP_IDLE : RSP_CS2;
		return v < 0 ? RSP_BAD_CHECKSUM : RSP_NONE;
	case RSP_CS2:
		r->state = RSP_IDLE;
		v = hexval(c);
		if (v < 0 || (uint8_t)(r->got | v) != r->sum || r->overflow)
			return RSP_BAD_CHECKSUM;
		r->len = rsp_unescape(r->buf, r->len);
		r->buf[r->len] = 0;
		return RSP_PACKET;
	}
	return RSP_NONE;
}
