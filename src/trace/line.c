/* The line buffer of the trace and strace's string quoting. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "trace/trace_internal.h"

/* Room kept for the final '\n'. */
#define TL_MAX (sizeof(((struct tline *)0)->buf) - 1)

void tl_putc(struct tline *l, char c)
{
	if (l->len < TL_MAX)
		l->buf[l->len++] = c;
}

void tl_puts(struct tline *l, const char *s)
{
	while (*s)
		tl_putc(l, *s++);
}

void tl_printf(struct tline *l, const char *fmt, ...)
{
	char tmp[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	tl_puts(l, tmp);
}

void tl_tab_to_result(struct tline *l)
{
	while (l->col0 + l->len < TRACE_RESULT_COLUMN && l->len < TL_MAX)
		l->buf[l->len++] = ' ';
}

static bool is_octal_digit(unsigned char c)
{
	return c >= '0' && c <= '7';
}

/* strace's default style: C escapes for the usual controls, printable
 * ASCII as is, anything else in octal, three digits when an octal digit
 * follows so the escape cannot absorb it ("\0337" is ESC then '7'). */
void tl_quote(struct tline *l, const unsigned char *p, size_t n, bool more)
{
	tl_putc(l, '"');
	for (size_t i = 0; i < n; i++) {
		unsigned char c = p[i];

		switch (c) {
		case '"': tl_puts(l, "\\\""); continue;
		case '\\': tl_puts(l, "\\\\"); continue;
		case '\f': tl_puts(l, "\\f"); continue;
		case '\n': tl_puts(l, "\\n"); continue;
		case '\r': tl_puts(l, "\\r"); continue;
		case '\t': tl_puts(l, "\\t"); continue;
		case '\v': tl_puts(l, "\\v"); continue;
		}
		if (c >= 0x20 && c < 0x7f)
			tl_putc(l, (char)c);
		else if (i + 1 < n && is_octal_digit(p[i + 1]))
			tl_printf(l, "\\%03o", c);
		else
			tl_printf(l, "\\%o", c);
	}
	tl_putc(l, '"');
	if (more)
		tl_puts(l, "...");
}

/* Binary data (getrandom): every byte as \xNN, as strace's QUOTE_FORCE_HEX. */
void tl_quote_hex(struct tline *l, const unsigned char *p, size_t n, bool more)
{
	tl_putc(l, '"');
	for (size_t i = 0; i < n; i++)
		tl_printf(l, "\\x%02x", p[i]);
	tl_putc(l, '"');
	if (more)
		tl_puts(l, "...");
}
