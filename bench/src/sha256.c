/* sha256: the project's own SHA-256 (FIPS 180-4) of a file, printed like
 * sha256sum. A CPU-bound guest workload: 32-bit rotates, adds and table
 * loads, the same source built for i386, x32 and x86_64. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

static const uint32_t k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

struct sha256 {
	uint32_t h[8];
	uint64_t len;
	unsigned char buf[64];
	size_t fill;
};

static uint32_t ror(uint32_t x, int n)
{
	return (x >> n) | (x << (32 - n));
}

static void block(struct sha256 *s, const unsigned char *p)
{
	uint32_t w[64];
	uint32_t a = s->h[0], b = s->h[1], c = s->h[2], d = s->h[3];
	uint32_t e = s->h[4], f = s->h[5], g = s->h[6], h = s->h[7];
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (; i < 64; i++) {
		uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10);
		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	for (i = 0; i < 64; i++) {
		uint32_t t1 = h + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) +
			      ((e & f) ^ (~e & g)) + k[i] + w[i];
		uint32_t t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) +
			      ((a & b) ^ (a & c) ^ (b & c));
		h = g;
		g = f;
		f = e;
		e = d + t1;
		d = c;
		c = b;
		b = a;
		a = t1 + t2;
	}
	s->h[0] += a;
	s->h[1] += b;
	s->h[2] += c;
	s->h[3] += d;
	s->h[4] += e;
	s->h[5] += f;
	s->h[6] += g;
	s->h[7] += h;
}

static void update(struct sha256 *s, const unsigned char *p, size_t n)
{
	s->len += n;
	if (s->fill) {
		size_t take = 64 - s->fill < n ? 64 - s->fill : n;
		memcpy(s->buf + s->fill, p, take);
		s->fill += take;
		p += take;
		n -= take;
		if (s->fill < 64)
			return;
		block(s, s->buf);
		s->fill = 0;
	}
	for (; n >= 64; p += 64, n -= 64)
		block(s, p);
	memcpy(s->buf, p, n);
	s->fill = n;
}

static void finish(struct sha256 *s, unsigned char out[32])
{
	uint64_t bits = s->len * 8;
	unsigned char pad[72] = { 0x80 };
	size_t padlen = (s->fill < 56 ? 56 : 120) - s->fill;
	int i;

	for (i = 0; i < 8; i++)
		pad[padlen + i] = (unsigned char)(bits >> (56 - 8 * i));
	update(s, pad, padlen + 8);
	for (i = 0; i < 32; i++)
		out[i] = (unsigned char)(s->h[i / 4] >> (24 - 8 * (i % 4)));
}

int main(int argc, char **argv)
{
	static unsigned char buf[1 << 16];
	struct sha256 s = { .h = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
				   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 } };
	unsigned char digest[32];
	const char *name = argc > 1 ? argv[1] : "-";
	int fd = argc > 1 ? open(name, O_RDONLY) : 0;
	ssize_t n;
	int i;

	if (fd < 0) {
		perror(name);
		return 1;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		update(&s, buf, (size_t)n);
	if (n < 0) {
		perror(name);
		return 1;
	}
	finish(&s, digest);
	for (i = 0; i < 32; i++)
		printf("%02x", digest[i]);
	printf("  %s\n", name);
	return 0;
}
