/* Named constants: flags and enums of the sets generated from the system
 * headers (tools/xlat_gen.sh, kinds.in), and signal names. */
#include <string.h>

#include "trace/trace_internal.h"

/* Highest-popcount match first, so composite names (O_SYNC, O_TMPFILE,
 * MAP_SHARED_VALIDATE) take their bits before their parts. */
static const struct xlat_entry *best_flag(const struct xlat *x, uint64_t v,
					  uint64_t *taken)
{
	const struct xlat_entry *best = NULL;

	for (size_t i = 0; i < x->n; i++) {
		uint64_t e = x->entries[i].value;

		if (!e || (v & e) != e || (*taken & e))
			continue;
		if (!best || __builtin_popcountll(e) >
				     __builtin_popcountll(best->value))
			best = &x->entries[i];
	}
	return best;
}

/* strace's note after a value no name of the set has: the prefix the
 * set's names share and "???" in a C comment (none when they share none). */
static void print_unknown_note(struct tline *l, const struct xlat *x)
{
	size_t n = 0;

	if (!x->n)
		return;
	for (const char *p = xlat_entry_name(x, &x->entries[0]); p[n]; n++) {
		bool shared = true;

		for (size_t i = 1; i < x->n && shared; i++)
			shared = !strncmp(xlat_entry_name(x, &x->entries[i]), xlat_entry_name(x, &x->entries[0]), n + 1);
		if (!shared)
			break;
	}
	while (n > 0 && xlat_entry_name(x, &x->entries[0])[n - 1] != '_')
		n--;
	if (n)
		tl_printf(l, " /* %.*s??? */", (int)n, xlat_entry_name(x, &x->entries[0]));
}

void tprint_flags(struct tline *l, const struct xlat *x, uint64_t v)
{
	const struct xlat_entry *chosen[64];
	uint64_t taken = 0, mask = x->mask ? x->mask : ~(uint64_t)0;
	uint64_t rest;
	size_t n = 0;
	bool first = true;

	if (!v) {
		tl_puts(l, x->zero ? x->zero : "0");
		return;
	}
	while (n < 64) {
		const struct xlat_entry *e = best_flag(x, v & mask, &taken);

		if (!e)
			break;
		taken |= e->value;
		chosen[n++] = e;
	}
	/* strace's order: ascending value, the set's tail names last */
	for (int tail = 0; tail < 2; tail++) {
		for (;;) {
			const struct xlat_entry *lo = NULL;
			size_t lo_i = 0;

			for (size_t i = 0; i < n; i++)
				if (chosen[i] && chosen[i]->tail == tail &&
				    (!lo || (chosen[i]->value < lo->value) != x->desc)) {
					lo = chosen[i];
					lo_i = i;
				}
			if (!lo)
				break;
			if (!first)
				tl_putc(l, '|');
			tl_puts(l, xlat_entry_name(x, lo));
			first = false;
			chosen[lo_i] = NULL;
		}
	}
	rest = v & ~taken;
	if (rest) {
		if (!first)
			tl_putc(l, '|');
		tl_printf(l, "%#llx", (unsigned long long)rest);
		if (first)
			print_unknown_note(l, x);
	}
}

const char *xlat_name(const struct xlat *x, uint64_t value)
{
	for (size_t i = 0; i < x->n; i++)
		if (x->entries[i].value == value)
			return xlat_entry_name(x, &x->entries[i]);
	return NULL;
}

uint64_t xlat_value(const struct xlat *x, const char *name)
{
	for (size_t i = 0; i < x->n; i++)
		if (!strcmp(xlat_entry_name(x, &x->entries[i]), name))
			return x->entries[i].value;
	return 0;
}

void tprint_enum(struct tline *l, const struct xlat *x, int64_t v)
{
	const char *name = xlat_name(x, (uint64_t)v);

	if (name) {
		tl_puts(l, name);
	} else if (x == &xlat_ioctlreq) {
		tl_printf(l, "%#llx", (unsigned long long)v);
	} else {
		size_t len = l->len;

		/* strace: the value in hex with the note (0x2a and SEEK_???
		 * in a comment); in decimal when the names share no prefix */
		tl_printf(l, "%#llx", (unsigned long long)(uint32_t)v);
		print_unknown_note(l, x);
		if (l->len == len + (size_t)snprintf(NULL, 0, "%#llx",
						     (unsigned long long)(uint32_t)v)) {
			l->len = len;
			tl_printf(l, "%lld", (long long)v);
		}
	}
}

/* Real-time signals have no macro: strace prints SIGRTMIN, SIGRT_1, ... */
void tprint_signame(struct tline *l, int sig, bool bare)
{
	const char *name = xlat_name(&xlat_signo, (uint64_t)sig);
	const char *pfx = bare ? "" : "SIG";

	if (name)
		tl_puts(l, bare ? name + 3 : name);
	else if (sig == 32)
		tl_printf(l, "%sRTMIN", pfx);
	else if (sig > 32 && sig <= 64)
		tl_printf(l, "%sRT_%d", pfx, sig - 32);
	else
		tl_printf(l, "%d", sig);
}
