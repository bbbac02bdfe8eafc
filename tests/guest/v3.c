/* x86-64-v3 code as gcc makes it: loops auto-vectorised at -O3 for
 * -march=x86-64-v3 (AVX2, FMA contraction, F16C, BMI, MOVBE), intrinsics
 * for AES-NI, PCLMULQDQ, SHA, FMA, F16C, AVX2 gathers and permutes, and
 * the C library's string functions (its AVX2 variants where CPUID says
 * AVX2). Prints checksums, compared with the native run (x32 with the -m64
 * twin). On a CPU without these extensions it says so and stops, natively
 * and under sysgate alike. */
/* built with -O3 -march=x86-64-v3 -maes -mpclmul -msha (tests/guest/CMakeLists.txt) */
#include <cpuid.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <immintrin.h>

#define N 4096

static uint64_t seed = 0x9e3779b97f4a7c15ull;

static uint64_t next(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return seed;
}

static uint32_t ia[N], ib[N], ic[N], idx[N];
static float fa[N], fb[N], fc[N];
static double da[N], db[N];
static uint8_t bytes[N + 64];
static int16_t sa[N], sb[N];

static uint64_t fnv(const void *p, size_t n)
{
	const uint8_t *b = p;
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t k = 0; k < n; k++)
		h = (h ^ b[k]) * 0x100000001b3ull;
	return h;
}

__attribute__((noinline)) static void loops(void)
{
	uint64_t sum = 0;
	int32_t mx = INT32_MIN;

	for (int k = 0; k < N; k++)
		ic[k] = ia[k] * ib[k] + (ia[k] >> 3) - (ib[k] ^ 0x5a5a5a5au);
	for (int k = 0; k < N; k++)
		fc[k] = fa[k] * fb[k] + fc[k]; /* FMA contraction */
	for (int k = 0; k < N; k++)
		da[k] = da[k] * 0.75 + db[k] * db[k];
	for (int k = 0; k < N; k++)
		sum += (uint64_t)ia[k] * ib[k];
	for (int k = 0; k < N; k++)
		mx = ((int32_t)ic[k] > mx) ? (int32_t)ic[k] : mx;
	for (int k = 0; k < N; k++)
		sa[k] = (int16_t)((sa[k] * sb[k]) >> 4) + (sa[k] < sb[k] ? sa[k] : sb[k]);
	for (int k = 0; k < N; k++)
		ib[k] = ia[idx[k] % N] + (uint32_t)k; /* a gather */
	for (int k = 0; k < N; k++)
		fb[k] = (float)(int32_t)ia[k] * 0.5f - (float)k;
	for (int k = 0; k < N / 2; k++) {
		uint32_t t = ia[k];

		ia[k] = ia[N - 1 - k];
		ia[N - 1 - k] = t;
	}
	for (int k = 0; k < N; k++)
		bytes[k] = (uint8_t)(bytes[k] < 0x80 ? bytes[k] * 3 : bytes[k] >> 1);
	printf("loops: ic %016llx fc %016llx da %016llx sum %016llx max %d sa %016llx\n",
	       (unsigned long long)fnv(ic, sizeof(ic)), (unsigned long long)fnv(fc, sizeof(fc)),
	       (unsigned long long)fnv(da, sizeof(da)), (unsigned long long)sum, mx,
	       (unsigned long long)fnv(sa, sizeof(sa)));
	printf("loops: ib %016llx fb %016llx ia %016llx bytes %016llx\n",
	       (unsigned long long)fnv(ib, sizeof(ib)), (unsigned long long)fnv(fb, sizeof(fb)),
	       (unsigned long long)fnv(ia, sizeof(ia)), (unsigned long long)fnv(bytes, N));
}

__attribute__((noinline)) static void intrinsics(void)
{
	__m128i key = _mm_set_epi64x((long long)next(), (long long)next());
	__m128i st = _mm_set_epi64x((long long)next(), (long long)next());
	__m128i cl = _mm_setzero_si128(), sha = st, msg = key;
	__m256 acc = _mm256_set1_ps(1.0f);
	__m256i g = _mm256_setzero_si256();
	uint16_t halves[8];
	uint64_t out[8] = { 0 };

	for (int k = 0; k < 1000; k++) {
		st = _mm_aesenc_si128(st, key);
		st = _mm_aesdeclast_si128(st, _mm_aeskeygenassist_si128(key, 0x1b));
		cl = _mm_xor_si128(cl, k & 1 ? _mm_clmulepi64_si128(st, key, 0x11)
					     : _mm_clmulepi64_si128(st, key, 0x00));
		sha = _mm_sha256rnds2_epu32(sha, msg, st);
		msg = _mm_sha256msg1_epu32(msg, sha);
		acc = _mm256_fmadd_ps(acc, _mm256_set1_ps(1.0001f), _mm256_set1_ps((float)k * 1e-3f));
		g = _mm256_add_epi32(g, _mm256_i32gather_epi32((const int *)ia,
				_mm256_and_si256(_mm256_set1_epi32(k * 7), _mm256_set1_epi32(N - 1)), 4));
		g = _mm256_permutevar8x32_epi32(g, _mm256_set_epi32(0, 7, 1, 6, 2, 5, 3, 4));
	}
	_mm_storeu_si128((__m128i *)halves, _mm256_cvtps_ph(acc, _MM_FROUND_TO_NEAREST_INT));
	acc = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)halves));
	_mm_storeu_si128((__m128i *)&out[0], st);
	_mm_storeu_si128((__m128i *)&out[2], cl);
	_mm_storeu_si128((__m128i *)&out[4], sha);
	_mm256_storeu_si256((__m256i *)&out[4], _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)&out[4]), g));
	printf("intrinsics: aes %016llx%016llx clmul %016llx%016llx\n",
	       (unsigned long long)out[1], (unsigned long long)out[0], (unsigned long long)out[3],
	       (unsigned long long)out[2]);
	printf("intrinsics: sha/gather %016llx fma/f16c %016llx\n",
	       (unsigned long long)fnv(&out[4], 32), (unsigned long long)fnv(&acc, sizeof(acc)));
}

/* A long loop of nothing but VPALIGNR (register and memory, xmm and ymm)
 * and its DEC/JNZ, as OpenSSL's SHA-512 of 1 MB runs: sysgate's handlers
 * of it once called a shared helper that went on to the next handler, so
 * their host frames piled up and 200,000 rounds overflowed the stack. */
__attribute__((noinline)) static void long_runs(void)
{
	static uint64_t mem[4];
	__m256i a = _mm256_set_epi64x((long long)next(), (long long)next(), (long long)next(),
				      (long long)next());
	__m256i b = _mm256_set_epi64x((long long)next(), (long long)next(), (long long)next(),
				      (long long)next());
	__m256i t = _mm256_setzero_si256();
	uint64_t out[8];
	unsigned n = 300000;

	for (int k = 0; k < 4; k++)
		mem[k] = next();
	__asm__ volatile("1: vpalignr $3, %[b], %[a], %[t]\n\t"
			 "vpalignr $13, %[m], %[t], %[b]\n\t"
			 "vpalignr $7, %x[b], %x[t], %x[a]\n\t"
			 "vpalignr $9, %[m], %x[a], %x[t]\n\t"
			 "vpxor %[t], %[b], %[b]\n\t"
			 "dec %[n]\n\t"
			 "jnz 1b"
			 : [a] "+x"(a), [b] "+x"(b), [t] "+x"(t), [n] "+r"(n)
			 : [m] "m"(mem));
	_mm256_storeu_si256((__m256i *)&out[0], a);
	_mm256_storeu_si256((__m256i *)&out[4], b);
	printf("long runs: vpalignr %016llx\n", (unsigned long long)fnv(out, sizeof(out)));
}

__attribute__((noinline)) static void strings(void)
{
	static char s[8192];
	uint64_t h = 0;

	for (int k = 0; k < (int)sizeof(s) - 1; k++)
		s[k] = (char)('a' + next() % 26);
	for (int len = 0; len < 600; len += 7) {
		char save = s[len];
		const char *p;

		s[len] = 0;
		h = h * 31 + strlen(s);
		p = memchr(s, 'q', (size_t)len);
		h = h * 31 + (p ? (uint64_t)(p - s) : 999);
		p = strchr(s, 'z');
		h = h * 31 + (p ? (uint64_t)(p - s) : 999);
		h = h * 31 + (uint64_t)(memcmp(s, s + 1, (size_t)len) > 0);
		h = h * 31 + (uint64_t)(strcmp(s, s + 3) < 0);
		s[len] = save;
	}
	memset(s, 'x', 5000);
	memmove(s + 3, s, 4000);
	h = h * 31 + fnv(s, sizeof(s));
	printf("strings: %016llx\n", (unsigned long long)h);
}

int main(void)
{
	unsigned a, b, c, d;

	__cpuid(1, a, b, c, d);
	if (!(c & (1u << 28)) || !(c & (1u << 12)) || !(c & (1u << 29)) || !(c & (1u << 25)) ||
	    !(c & (1u << 1))) {
		printf("no AVX/FMA/F16C/AES/PCLMULQDQ\n");
		return 0;
	}
	__cpuid_count(7, 0, a, b, c, d);
	if (!(b & (1u << 5)) || !(b & (1u << 29))) {
		printf("no AVX2/SHA\n");
		return 0;
	}
	for (int k = 0; k < N; k++) {
		ia[k] = (uint32_t)next();
		ib[k] = (uint32_t)next();
		ic[k] = (uint32_t)next();
		idx[k] = (uint32_t)next();
		fa[k] = (float)(int32_t)next() * 1e-6f;
		fb[k] = (float)(int16_t)next() * 1e-3f;
		fc[k] = (float)k;
		da[k] = (double)(int32_t)next() * 1e-9;
		db[k] = (double)(int16_t)next();
		sa[k] = (int16_t)next();
		sb[k] = (int16_t)next();
	}
	for (int k = 0; k < N + 64; k++)
		bytes[k] = (uint8_t)next();
	loops();
	intrinsics();
	long_runs();
	strings();
	return 0;
}
