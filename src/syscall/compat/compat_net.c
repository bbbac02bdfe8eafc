/* Control messages (ancillary data) between the host's struct cmsghdr
 * (64-bit length, 8-byte alignment) and the i386/x32 one (32-bit length,
 * 4-byte alignment). Payloads are the same bytes (descriptors, ucred),
 * except the i386 timestamps: with 32-bit time the kernel delivers
 * SCM_TIMESTAMP / SCM_TIMESTAMPNS / SCM_TIMESTAMPING as 32-bit timevals
 * and timespecs (x32 has 64-bit time and keeps the 64-bit forms). */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "syscall/compat/compat.h"

#define SC_SO_TIMESTAMP_OLD 29
#define SC_SO_TIMESTAMPNS_OLD 35
#define SC_SO_TIMESTAMPING_OLD 37

long get_compat_cmsgs(void *out, size_t outsize, size_t *outlen,
		      const void *in, size_t inlen, bool time32)
{
	const uint8_t *p = in, *end = p + inlen;
	uint8_t *o = out;
	size_t used = 0;

	(void)time32; /* a sender gives no timestamps */
	while ((size_t)(end - p) >= sizeof(struct compat_cmsghdr)) {
		struct compat_cmsghdr c;
		struct cmsghdr *h = (struct cmsghdr *)(o + used);
		size_t payload, space;

		memcpy(&c, p, sizeof(c));
		if (c.cmsg_len < sizeof(c) || c.cmsg_len > (size_t)(end - p))
			return -EINVAL;
		payload = c.cmsg_len - sizeof(c);
		space = HOST_CMSG_ALIGN(sizeof(*h) + payload);
		if (used + space > outsize)
			return -ENOBUFS;
		memset(h, 0, space);
		h->cmsg_len = sizeof(*h) + payload;
		h->cmsg_level = c.cmsg_level;
		h->cmsg_type = c.cmsg_type;
		memcpy(CMSG_DATA(h), p + sizeof(c), payload);
		used += space;
		if (COMPAT_CMSG_ALIGN(c.cmsg_len) >= (size_t)(end - p))
			break;
		p += COMPAT_CMSG_ALIGN(c.cmsg_len);
	}
	*outlen = used;
	return 0;
}

/* i386 timestamps: n 16-byte {sec, frac} pairs -> n 8-byte pairs */
static size_t narrow_times(uint8_t *dst, const uint8_t *src, size_t len)
{
	size_t n = len / 16;

	for (size_t i = 0; i < n; i++) {
		int64_t v[2];
		int32_t w[2];

		memcpy(v, src + 16 * i, sizeof(v));
		w[0] = (int32_t)v[0];
		w[1] = (int32_t)v[1];
		memcpy(dst + 8 * i, w, sizeof(w));
	}
	return n * 8;
}

static bool is_old_timestamp(const struct cmsghdr *h)
{
	return h->cmsg_level == SOL_SOCKET &&
	       (h->cmsg_type == SC_SO_TIMESTAMP_OLD ||
		h->cmsg_type == SC_SO_TIMESTAMPNS_OLD ||
		h->cmsg_type == SC_SO_TIMESTAMPING_OLD);
}

static void close_fds(const struct cmsghdr *h, size_t from)
{
	size_t n = (h->cmsg_len - sizeof(*h)) / sizeof(int);
	const int *fds = (const int *)CMSG_DATA(h);

	for (size_t i = from; i < n; i++)
		close(fds[i]);
}

size_t put_compat_cmsgs(void *out, size_t outsize, const void *in,
			size_t inlen, bool time32, bool *ctrunc)
{
	const uint8_t *p = in, *end = p + inlen;
	uint8_t *o = out;
	size_t used = 0;
	bool full = false;

	while ((size_t)(end - p) >= sizeof(struct cmsghdr)) {
		const struct cmsghdr *h = (const void *)p;
		size_t payload = h->cmsg_len - sizeof(*h);
		size_t step = HOST_CMSG_ALIGN(h->cmsg_len);
		bool rights = h->cmsg_level == SOL_SOCKET &&
			      h->cmsg_type == SCM_RIGHTS;
		uint8_t buf[64];
		const uint8_t *data = CMSG_DATA(h);
		struct compat_cmsghdr c;
		size_t len;

		/* the host's last header may be cut to what its buffer
		 * had left (not aligned) */
		if (h->cmsg_len < sizeof(*h) || h->cmsg_len > (size_t)(end - p))
			break;
		if (time32 && is_old_timestamp(h) && payload <= 48) {
			payload = narrow_times(buf, data, payload);
			data = buf;
		}
		len = sizeof(c) + payload;
		if (full || used + len > outsize) {
			size_t left = full ? 0 : outsize - used;

			*ctrunc = true;
			if (rights) {
				/* as scm_detach_fds_compat: the descriptors
				 * that fit, the others closed; no header
				 * without one */
				size_t room = left > sizeof(c)
					? (left - sizeof(c)) / sizeof(int) : 0;

				close_fds(h, room);
				payload = room * sizeof(int);
			} else {
				/* as put_cmsg_compat: a header that fits
				 * gets what is left, cmsg_len saying so */
				payload = left >= sizeof(c) ? left - sizeof(c) : 0;
				if (left < sizeof(c))
					left = 0;
			}
			len = sizeof(c) + payload;
			if ((rights && !payload) || (!rights && !left))
				full = true;
		}
		if (!full) {
			c.cmsg_len = (uint32_t)len;
			c.cmsg_level = h->cmsg_level;
			c.cmsg_type = h->cmsg_type;
			memcpy(o + used, &c, sizeof(c));
			memcpy(o + used + sizeof(c), data, payload);
			used += len;
			len = COMPAT_CMSG_ALIGN(len) - len; /* padding */
			if (len > outsize - used)
				len = outsize - used;
			memset(o + used, 0, len);
			used += len;
			if (*ctrunc)
				full = true;
		}
		if (step >= (size_t)(end - p))
			break;
		p += step;
	}
	return used;
}
