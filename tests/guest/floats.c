/* floats: floating-point arithmetic and formatting through libc (x87 on
 * i386, SSE2 on x32/x86_64), strtod. Output is ABI-independent: values are
 * computed in double and printed with fixed precision. */
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
	char buf[256];
	volatile double a = 3.14159, b = 12345.678, c = 0.0001, d = 1e20;
	double sum = 0;

	snprintf(buf, sizeof(buf), "[%.2f|%e|%g|%g]", a, b, c, d);
	printf("%s\n", buf);
	printf("%.6f %.6f %.6f %.6f\n", a * b, b / a, a - b, -a);
	for (int i = 1; i <= 1000; i++)
		sum += 1.0 / ((double)i * i);
	printf("sum 1/i^2 (1000 terms) = %.12f\n", sum);
	printf("(int)%.3f = %d, (long long)%.1f = %lld\n", b, (int)b, d, (long long)(d / 1e4));
	printf("%g %g %g\n", 1.0 / 3.0, 2.0 / 3.0, 1e-300 * 1e-300);
	printf("%.3f %.3f\n", strtod("2.5e3", NULL), strtod("-0.125", NULL));
	printf("%s %s\n", a < b ? "lt" : "ge", c > d ? "gt" : "le");
	float f = 1.5f;
	for (int i = 0; i < 10; i++)
		f = f * 1.25f + 0.5f;
	printf("float %.4f\n", (double)f);
	return 0;
}
