/* AES-NI (AESENC, AESENCLAST, AESDEC, AESDECLAST, AESIMC,
 * AESKEYGENASSIST), PCLMULQDQ and the SHA extensions (SHA1RNDS4,
 * SHA1NEXTE, SHA1MSG1, SHA1MSG2, SHA256RNDS2, SHA256MSG1, SHA256MSG2), as
 * the SDM defines them: portable C, and the host's own instruction where
 * the host has it (the same result, faster; SG_PORTABLE_CRYPTO builds use
 * the C always). All take xmm1 (ModRM.reg) and xmm2/m128 (16-byte aligned
 * for AES-NI and PCLMULQDQ, any for SHA, as on the host), some an imm8,
 * SHA256RNDS2 XMM0 too. */
#include <cpuid.h>
#include <immintrin.h>
#include <pthread.h>
#include <sys/random.h>
#include "cpu/crypto.h"
#include "cpu/ops.h"

/* ---- AES: the state is 16 bytes, column-major (byte r + 4c: row r, column c) ---- */

static uint8_t sbox[256], inv_sbox[256];

static uint8_t gf_mul(uint8_t a, uint8_t b)
{
	uint8_t p = 0;

	for (; b; b >>= 1) {
		if (b & 1)
			p ^= a;
		a = (uint8_t)(a << 1 ^ (a & 0x80 ? 0x1b : 0));
	}
	return p;
}

static uint8_t rotl8(uint8_t v, unsigned n)
{
	return (uint8_t)(v << n | v >> (8 - n));
}

/* The S-box from its definition: the inverse in GF(2^8), then the affine map. */
static void sbox_build(void)
{
	for (unsigned x = 0; x < 256; x++) {
		uint8_t inv = 0;

		for (unsigned y = 1; x && y < 256; y++)
			if (gf_mul((uint8_t)x, (uint8_t)y) == 1) {
				inv = (uint8_t)y;
				break;
			}
		sbox[x] = (uint8_t)(inv ^ rotl8(inv, 1) ^ rotl8(inv, 2) ^ rotl8(inv, 3) ^
				    rotl8(inv, 4) ^ 0x63);
		inv_sbox[sbox[x]] = (uint8_t)x;
	}
}

static void sboxes(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, sbox_build);
}

static void shift_rows(uint8_t s[16], bool inverse)
{
	uint8_t t[16];

	for (unsigned r = 0; r < 4; r++)
		for (unsigned c = 0; c < 4; c++)
			t[r + 4 * c] = s[r + 4 * ((inverse ? c + 4 - r : c + r) % 4)];
	memcpy(s, t, 16);
}

static void sub_bytes(uint8_t s[16], const uint8_t box[256])
{
	for (unsigned k = 0; k < 16; k++)
		s[k] = box[s[k]];
}

static void mix_columns(uint8_t s[16], bool inverse)
{
	static const uint8_t fwd[4] = { 2, 3, 1, 1 }, inv[4] = { 14, 11, 13, 9 };
	const uint8_t *m = inverse ? inv : fwd;

	for (unsigned c = 0; c < 4; c++) {
		uint8_t a[4], *col = s + 4 * c;

		memcpy(a, col, 4);
		for (unsigned r = 0; r < 4; r++)
			col[r] = (uint8_t)(gf_mul(a[0], m[(4 - r) % 4]) ^ gf_mul(a[1], m[(5 - r) % 4]) ^
					   gf_mul(a[2], m[(6 - r) % 4]) ^ gf_mul(a[3], m[(7 - r) % 4]));
	}
}

static uint32_t sub_word(uint32_t w)
{
	return (uint32_t)sbox[w & 0xff] | (uint32_t)sbox[w >> 8 & 0xff] << 8 |
	       (uint32_t)sbox[w >> 16 & 0xff] << 16 | (uint32_t)sbox[w >> 24] << 24;
}

/* ---- SHA ---- */

static uint32_t rol32(uint32_t v, unsigned n)
{
	return v << n | v >> (32 - n);
}

static uint32_t ror32(uint32_t v, unsigned n)
{
	return v >> n | v << (32 - n);
}

static uint32_t sha1_f(unsigned fn, uint32_t b, uint32_t c, uint32_t d)
{
	switch (fn) {
	case 0: return (b & c) ^ (~b & d);
	case 2: return (b & c) ^ (b & d) ^ (c & d);
	default: return b ^ c ^ d;
	}
}

/* d[3] is bits 127:96 (the SDM's first word), d[0] bits 31:0. */
static void sha1rnds4(uint32_t d[4], const uint32_t s[4], unsigned imm)
{
	static const uint32_t k[4] = { 0x5a827999, 0x6ed9eba1, 0x8f1bbcdc, 0xca62c1d6 };
	uint32_t a = d[3], b = d[2], c = d[1], dd = d[0], e = 0;
	const uint32_t w[4] = { s[3], s[2], s[1], s[0] };
	unsigned fn = imm & 3;

	for (unsigned i = 0; i < 4; i++) {
		uint32_t t = sha1_f(fn, b, c, dd) + rol32(a, 5) + w[i] + e + k[fn];

		e = dd;
		dd = c;
		c = rol32(b, 30);
		b = a;
		a = t;
	}
	d[3] = a, d[2] = b, d[1] = c, d[0] = dd;
}

static void sha256rnds2(uint32_t d[4], const uint32_t s[4], const uint32_t wk[4])
{
	uint32_t a = s[3], b = s[2], c = d[3], dd = d[2], e = s[1], f = s[0], g = d[1], h = d[0];

	for (unsigned i = 0; i < 2; i++) {
		uint32_t ch = (e & f) ^ (~e & g), maj = (a & b) ^ (a & c) ^ (b & c);
		uint32_t s1 = ror32(e, 6) ^ ror32(e, 11) ^ ror32(e, 25);
		uint32_t s0 = ror32(a, 2) ^ ror32(a, 13) ^ ror32(a, 22);
		uint32_t t = ch + s1 + wk[i] + h;

		h = g, g = f, f = e, e = t + dd;
		dd = c, c = b, b = a, a = t + maj + s0;
	}
	d[3] = a, d[2] = b, d[1] = e, d[0] = f;
}

static uint32_t sigma0(uint32_t w)
{
	return ror32(w, 7) ^ ror32(w, 18) ^ (w >> 3);
}

static uint32_t sigma1(uint32_t w)
{
	return ror32(w, 17) ^ ror32(w, 19) ^ (w >> 10);
}

void crypto_portable(enum crypto_op op, cpu_xmm *dst, const cpu_xmm *src, unsigned imm,
		     const cpu_xmm *xmm0)
{
	uint32_t *d = dst->d;
	const uint32_t *s = src->d;
	uint32_t t[4];

	sboxes();
	switch (op) {
	case CR_AESENC:
	case CR_AESENCLAST:
		shift_rows(dst->b, false);
		sub_bytes(dst->b, sbox);
		if (op == CR_AESENC)
			mix_columns(dst->b, false);
		dst->q[0] ^= src->q[0], dst->q[1] ^= src->q[1];
		break;
	case CR_AESDEC:
	case CR_AESDECLAST:
		shift_rows(dst->b, true);
		sub_bytes(dst->b, inv_sbox);
		if (op == CR_AESDEC)
			mix_columns(dst->b, true);
		dst->q[0] ^= src->q[0], dst->q[1] ^= src->q[1];
		break;
	case CR_AESIMC:
		*dst = *src;
		mix_columns(dst->b, true);
		break;
	case CR_AESKEYGENASSIST: {
		uint32_t x1 = sub_word(s[1]), x3 = sub_word(s[3]);

		d[0] = x1, d[1] = ror32(x1, 8) ^ (imm & 0xff);
		d[2] = x3, d[3] = ror32(x3, 8) ^ (imm & 0xff);
		break;
	}
	case CR_PCLMULQDQ: {
		uint64_t a = dst->q[imm & 1], b = src->q[imm >> 4 & 1], lo = 0, hi = 0;

		for (unsigned k = 0; k < 64; k++)
			if (b >> k & 1) {
				lo ^= a << k;
				hi ^= k ? a >> (64 - k) : 0;
			}
		dst->q[0] = lo, dst->q[1] = hi;
		break;
	}
	case CR_SHA1RNDS4:
		sha1rnds4(d, s, imm);
		break;
	case CR_SHA1NEXTE:
		t[3] = s[3] + rol32(d[3], 30);
		d[0] = s[0], d[1] = s[1], d[2] = s[2], d[3] = t[3];
		break;
	case CR_SHA1MSG1:
		/* W0..W3 = d[3]..d[0], W4 = s[3], W5 = s[2] */
		t[3] = d[1] ^ d[3], t[2] = d[0] ^ d[2], t[1] = s[3] ^ d[1], t[0] = s[2] ^ d[0];
		memcpy(d, t, 16);
		break;
	case CR_SHA1MSG2:
		t[3] = rol32(d[3] ^ s[2], 1);
		t[2] = rol32(d[2] ^ s[1], 1);
		t[1] = rol32(d[1] ^ s[0], 1);
		t[0] = rol32(d[0] ^ t[3], 1);
		memcpy(d, t, 16);
		break;
	case CR_SHA256RNDS2:
		sha256rnds2(d, s, xmm0->d);
		break;
	case CR_SHA256MSG1:
		t[3] = d[3] + sigma0(s[0]);
		t[2] = d[2] + sigma0(d[3]);
		t[1] = d[1] + sigma0(d[2]);
		t[0] = d[0] + sigma0(d[1]);
		memcpy(d, t, 16);
		break;
	case CR_SHA256MSG2:
		t[0] = d[0] + sigma1(s[2]);
		t[1] = d[1] + sigma1(s[3]);
		t[2] = d[2] + sigma1(t[0]);
		t[3] = d[3] + sigma1(t[1]);
		memcpy(d, t, 16);
		break;
	case CR_COUNT:
		break;
	}
}

/* ---- the host's instructions ---- */

#ifndef SG_PORTABLE_CRYPTO
enum { HOST_AES = 1, HOST_PCLMUL = 2, HOST_SHA = 4 };

static unsigned host_features(void)
{
	static int have = -1;

	if (have < 0) {
		unsigned a, b, c, d, f = 0;

		if (__get_cpuid(1, &a, &b, &c, &d))
			f |= (c >> 25 & 1 ? HOST_AES : 0) | (c >> 1 & 1 ? HOST_PCLMUL : 0);
		if (__get_cpuid_count(7, 0, &a, &b, &c, &d) && (b >> 29 & 1))
			f |= HOST_SHA;
		have = (int)f;
	}
	return (unsigned)have;
}

__attribute__((target("aes,pclmul,sha,sse4.1"))) static void host_run(enum crypto_op op,
								       cpu_xmm *dst,
								       const cpu_xmm *src,
								       unsigned imm,
								       const cpu_xmm *xmm0)
{
	__m128i x = _mm_loadu_si128((const __m128i *)dst), y = _mm_loadu_si128((const __m128i *)src);

	switch (op) {
	case CR_AESENC: x = _mm_aesenc_si128(x, y); break;
	case CR_AESENCLAST: x = _mm_aesenclast_si128(x, y); break;
	case CR_AESDEC: x = _mm_aesdec_si128(x, y); break;
	case CR_AESDECLAST: x = _mm_aesdeclast_si128(x, y); break;
	case CR_AESIMC: x = _mm_aesimc_si128(y); break;
	case CR_AESKEYGENASSIST:
		/* the immediate is part of the instruction: one per value */
		switch (imm & 0xff) {
#define KG(n) case n: x = _mm_aeskeygenassist_si128(y, n); break;
#define KG16(n) KG(n) KG(n + 1) KG(n + 2) KG(n + 3) KG(n + 4) KG(n + 5) KG(n + 6) KG(n + 7) \
	KG(n + 8) KG(n + 9) KG(n + 10) KG(n + 11) KG(n + 12) KG(n + 13) KG(n + 14) KG(n + 15)
		KG16(0x00) KG16(0x10) KG16(0x20) KG16(0x30) KG16(0x40) KG16(0x50) KG16(0x60)
		KG16(0x70) KG16(0x80) KG16(0x90) KG16(0xa0) KG16(0xb0) KG16(0xc0) KG16(0xd0)
		KG16(0xe0) KG16(0xf0)
#undef KG16
#undef KG
		}
		break;
	case CR_PCLMULQDQ:
		switch (imm & 0x11) {
		case 0x00: x = _mm_clmulepi64_si128(x, y, 0x00); break;
		case 0x01: x = _mm_clmulepi64_si128(x, y, 0x01); break;
		case 0x10: x = _mm_clmulepi64_si128(x, y, 0x10); break;
		default: x = _mm_clmulepi64_si128(x, y, 0x11); break;
		}
		break;
	case CR_SHA1RNDS4:
		switch (imm & 3) {
		case 0: x = _mm_sha1rnds4_epu32(x, y, 0); break;
		case 1: x = _mm_sha1rnds4_epu32(x, y, 1); break;
		case 2: x = _mm_sha1rnds4_epu32(x, y, 2); break;
		default: x = _mm_sha1rnds4_epu32(x, y, 3); break;
		}
		break;
	case CR_SHA1NEXTE: x = _mm_sha1nexte_epu32(x, y); break;
	case CR_SHA1MSG1: x = _mm_sha1msg1_epu32(x, y); break;
	case CR_SHA1MSG2: x = _mm_sha1msg2_epu32(x, y); break;
	case CR_SHA256RNDS2:
		x = _mm_sha256rnds2_epu32(x, y, _mm_loadu_si128((const __m128i *)xmm0));
		break;
	case CR_SHA256MSG1: x = _mm_sha256msg1_epu32(x, y); break;
	case CR_SHA256MSG2: x = _mm_sha256msg2_epu32(x, y); break;
	case CR_COUNT: break;
	}
	_mm_storeu_si128((__m128i *)dst, x);
}
#endif

bool crypto_host_has(enum crypto_op op)
{
#ifdef SG_PORTABLE_CRYPTO
	(void)op;
	return false;
#else
	unsigned need = op <= CR_AESKEYGENASSIST ? HOST_AES : op == CR_PCLMULQDQ ? HOST_PCLMUL : HOST_SHA;

	return (host_features() & need) != 0;
#endif
}

bool crypto_host(enum crypto_op op, cpu_xmm *dst, const cpu_xmm *src, unsigned imm,
		 const cpu_xmm *xmm0)
{
#ifdef SG_PORTABLE_CRYPTO
	(void)op, (void)dst, (void)src, (void)imm, (void)xmm0;
	return false;
#else
	if (!crypto_host_has(op))
		return false;
	host_run(op, dst, src, imm, xmm0);
	return true;
#endif
}

/* ---- the handlers ---- */

static void crypto_insn(struct cpu *c, const struct insn *i, enum crypto_op op)
{
	cpu_xmm src, dst = c->xmm[i->reg];

	/* an aligned m128, else #GP (legacy SSE; AMD runs SHA on any, docs/cpu.md) */
	if (!xmm_rm_load(c, i, &src, true))
		return;
	if (!crypto_host(op, &dst, &src, (unsigned)insn_imm(i), &c->xmm[0]))
		crypto_portable(op, &dst, &src, (unsigned)insn_imm(i), &c->xmm[0]);
	c->xmm[i->reg] = dst;
}

#define CRYPTO_HANDLER(fn, op) \
	void fn(struct cpu *c, const struct insn *i) \
	{ \
		crypto_insn(c, i, op); \
	}
CRYPTO_HANDLER(op_aesenc_VxWx, CR_AESENC)
CRYPTO_HANDLER(op_aesenclast_VxWx, CR_AESENCLAST)
CRYPTO_HANDLER(op_aesdec_VxWx, CR_AESDEC)
CRYPTO_HANDLER(op_aesdeclast_VxWx, CR_AESDECLAST)
CRYPTO_HANDLER(op_aesimc_VxWx, CR_AESIMC)
CRYPTO_HANDLER(op_aeskeygenassist_VxWxIb, CR_AESKEYGENASSIST)
CRYPTO_HANDLER(op_pclmulqdq_VxWxIb, CR_PCLMULQDQ)
CRYPTO_HANDLER(op_sha1rnds4_VxWxIb, CR_SHA1RNDS4)
CRYPTO_HANDLER(op_sha1nexte_VxWx, CR_SHA1NEXTE)
CRYPTO_HANDLER(op_sha1msg1_VxWx, CR_SHA1MSG1)
CRYPTO_HANDLER(op_sha1msg2_VxWx, CR_SHA1MSG2)
CRYPTO_HANDLER(op_sha256rnds2_VxWx, CR_SHA256RNDS2)
CRYPTO_HANDLER(op_sha256msg1_VxWx, CR_SHA256MSG1)
CRYPTO_HANDLER(op_sha256msg2_VxWx, CR_SHA256MSG2)
#undef CRYPTO_HANDLER

/* RDRAND/RDSEED r16/32/64: the kernel's random bytes (getrandom, never
 * blocking); CF = 1 with a value, CF = 0 and 0 when there is none yet, as
 * the hardware says "try again"; OF SF ZF AF PF clear. */
static void random_insn(struct cpu *c, const struct insn *i)
{
	uint64_t v = 0;
	bool ok = getrandom(&v, insn_cold(i)->osz, GRND_NONBLOCK) == (ssize_t)insn_cold(i)->osz;

	reg_set(c, i->rm, insn_cold(i)->osz, ok ? v : 0);
	flags_put(c, FL_ARITH, ok ? FL_CF : 0);
}

void op_rdrand_Rv(struct cpu *c, const struct insn *i)
{
	random_insn(c, i);
}

void op_rdseed_Rv(struct cpu *c, const struct insn *i)
{
	random_insn(c, i);
}
