/* strings: glibc's string routines on many sizes and alignments (glibc
 * picks its implementations from CPUID, so these exercise whatever the
 * emulated CPU claims), snprintf and strtol. Output must not depend on the
 * ABI: the x32 build is compared with the x86_64 build. Floating point
 * formatting is in floats.c. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXN 600
#define MAXA 32

static unsigned char src[MAXN + 2 * MAXA + 64];
static unsigned char dst[MAXN + 2 * MAXA + 64];
static uint32_t fails;

static uint32_t hash(const void *p, size_t n)
{
	const unsigned char *s = p;
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ s[i]) * 16777619u;
	return h;
}

static void check(int ok, const char *what, size_t n, size_t a)
{
	if (!ok) {
		if (fails < 10)
			printf("FAIL %s n=%zu align=%zu\n", what, n, a);
		fails++;
	}
}

static void fill(unsigned char *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)(1 + (i * 7 + seed) % 251); /* no NUL */
}

static void test_mem(void)
{
	uint32_t acc = 0;

	for (size_t n = 0; n <= MAXN; n += (n < 80 ? 1 : 37)) {
		for (size_t a = 0; a < MAXA; a += (a < 8 ? 1 : 5)) {
			size_t b = (a * 3) % MAXA;

			fill(src, sizeof(src), (unsigned)(n + a));
			memset(dst, 0xEE, sizeof(dst));
			memcpy(dst + b, src + a, n);
			check(memcmp(dst + b, src + a, n) == 0, "memcpy", n, a);
			check(b == 0 || dst[b - 1] == 0xEE, "memcpy under", n, a);
			check(dst[b + n] == 0xEE, "memcpy over", n, a);

			memset(dst, 0xEE, sizeof(dst));
			memset(dst + a, 'x', n);
			size_t k;
			for (k = 0; k < n && dst[a + k] == 'x'; k++)
				;
			check(k == n && dst[a + n] == 0xEE && (a == 0 || dst[a - 1] == 0xEE),
			      "memset", n, a);

			/* overlapping moves, both directions */
			fill(dst, sizeof(dst), (unsigned)n);
			memcpy(src, dst, sizeof(src));
			memmove(dst + a + 3, dst + a, n);
			check(memcmp(dst + a + 3, src + a, n) == 0, "memmove up", n, a);
			fill(dst, sizeof(dst), (unsigned)n);
			memmove(dst + a, dst + a + 5, n);
			check(memcmp(dst + a, src + a + 5, n) == 0, "memmove down", n, a);

			/* strlen / strchr / strrchr / strcmp on a NUL at n */
			fill(src, sizeof(src), (unsigned)(n ^ a));
			src[a + n] = 0;
			check(strlen((char *)src + a) == n, "strlen", n, a);
			if (n > 0) {
				unsigned char c = src[a + n - 1];
				char *p = strchr((char *)src + a, c);
				check(p && (unsigned char)*p == c && (size_t)(p - (char *)src - a) < n,
				      "strchr", n, a);
				check(strrchr((char *)src + a, c) == (char *)src + a + n - 1,
				      "strrchr", n, a);
			}
			check(strchr((char *)src + a, 0) == (char *)src + a + n, "strchr nul", n, a);
			memcpy(dst + b, src + a, n + 1);
			check(strcmp((char *)dst + b, (char *)src + a) == 0, "strcmp eq", n, a);
			if (n > 0) {
				dst[b + n - 1]++;
				check(strcmp((char *)dst + b, (char *)src + a) > 0, "strcmp gt", n, a);
				check(strncmp((char *)dst + b, (char *)src + a, n - 1) == 0,
				      "strncmp", n, a);
				check(memcmp(dst + b, src + a, n) > 0, "memcmp gt", n, a);
			}
			acc = acc * 31 + hash(src + a, n) + (uint32_t)strlen((char *)src + a);
			src[a + n] = 1;
		}
	}
	printf("mem/str: checksum=%08x fails=%u\n", (unsigned)acc, (unsigned)fails);
}

static void test_printf(void)
{
	char buf[256];
	int n;

	n = snprintf(buf, sizeof(buf), "[%s|%10s|%-6s|%.3s]", "abc", "right", "left", "truncate");
	printf("%d %s\n", n, buf);
	n = snprintf(buf, sizeof(buf), "[%d|%5d|%-5d|%05d|%+d|%d]", 0, 42, -42, 7, 9, -2147483647 - 1);
	printf("%d %s\n", n, buf);
	n = snprintf(buf, sizeof(buf), "[%x|%X|%#x|%08x|%x]", 255u, 0xabcdefu, 16u, 0xbeefu, 0xffffffffu);
	printf("%d %s\n", n, buf);
	n = snprintf(buf, sizeof(buf), "[%ld|%lu|%ld|%lx]", 123456789L, 4000000000UL & 0xffffffffUL,
		     -2147483647L, 0x7fffffffUL);
	printf("%d %s\n", n, buf);
	n = snprintf(buf, sizeof(buf), "[%lld|%llu|%llx]", -9000000000000000000LL,
		     18000000000000000000ULL, 0x123456789abcdefULL);
	printf("%d %s\n", n, buf);
	n = snprintf(buf, sizeof(buf), "[%c%c%c|%%|%u]", 'o', 'k', '!', 3000000000u);
	printf("%d %s\n", n, buf);
	const char *volatile longer = "this is longer than eight";
	n = snprintf(buf, 8, "%s", longer);
	printf("%d %s (truncated)\n", n, buf);
}

static void test_strtol(void)
{
	static const char *in[] = { "0", "42", "-17", "  +99", "0x1f", "0777", "12abc",
				    "2147483647", "-2147483648", "zzz", "" };
	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		char *end;
		errno = 0;
		long v = strtol(in[i], &end, 0);
		printf("strtol(\"%s\", 0) = %ld, rest \"%s\", errno %d\n", in[i], v, end, errno);
	}
	printf("strtol(\"ff\", 16) = %ld\n", strtol("ff", NULL, 16));
	printf("strtol(\"-101\", 2) = %ld\n", strtol("-101", NULL, 2));
	printf("strtol(\"zz\", 36) = %ld\n", strtol("zz", NULL, 36));
	errno = 0;
	long long ll = strtoll("99999999999999999999", NULL, 10);
	printf("strtoll overflow = %lld, errno %d\n", ll, errno);
	printf("strtoul(\"4294967295\") = %lu\n", strtoul("4294967295", NULL, 10));
}

int main(void)
{
	test_mem();
	test_printf();
	test_strtol();
	return fails ? 1 : 0;
}
