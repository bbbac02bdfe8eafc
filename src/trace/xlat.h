/* Named constants of the trace: sets generated from the system headers
 * (tools/xlat_gen.sh, src/trace/kinds.in). This header is included by the
 * generated files next to kernel or C library headers, so it needs only
 * <stdint.h> and <stddef.h>. */
#ifndef SG_TRACE_XLAT_H
#define SG_TRACE_XLAT_H

#include <stddef.h>
#include <stdint.h>

enum xlat_style { XLAT_FLAGS, XLAT_ENUM };

/* No pointer in an entry: a static-PIE sysgate relocates every pointer of
 * its tables at each start (a page fault per page), so the generated
 * entries are plain .rodata and name their name by offset into the set's
 * names (xlat_entry_name). */
struct xlat_entry {
	uint16_t name; /* offset in xlat.names */
	uint16_t tail; /* flags: printed after the others (strace's order) */
	uint64_t value;
};

struct xlat {
	const char *kind;
	enum xlat_style style;
	const char *names;                /* the entries' names, each NUL-ended */
	const struct xlat_entry *entries;
	size_t n;
	const char *zero;  /* flags: the name of 0, or NULL for "0" */
	uint64_t mask;     /* flags: bits the set decodes; 0: all */
	int desc;          /* flags: descending order (R_OK|W_OK) */
};

#define TRACE_KIND_FLAGS(k) extern const struct xlat xlat_##k;
#define TRACE_KIND_ENUM(k) extern const struct xlat xlat_##k;
#define TRACE_KIND_STRUCT(k)
#define TRACE_KIND_OSTRUCT(k)
#define TRACE_KIND(up, k, style) TRACE_KIND_##style(k)
#include "trace_kinds.h"
#undef TRACE_KIND
#undef TRACE_KIND_FLAGS
#undef TRACE_KIND_ENUM
#undef TRACE_KIND_STRUCT
#undef TRACE_KIND_OSTRUCT

static inline const char *xlat_entry_name(const struct xlat *x, const struct xlat_entry *e)
{
	return x->names + e->name;
}

/* The name of value in an enum set, or NULL. */
const char *xlat_name(const struct xlat *x, uint64_t value);
/* The value of a name of the set, 0 when the headers lack it. */
uint64_t xlat_value(const struct xlat *x, const char *name);

#endif
