/* What `sysgate --syscalls=ABI` lists, and what a row without a handler
 * answers: every table row is implemented (a handler is linked), missing
 * (-ENOSYS, with a warning under -v/--trace), or deliberately unsupported
 * with a reason (tables/syscall_unsupported.in; rows whose entry point is
 * sys_ni_syscall have no implementation in Linux either).
 */
#include <string.h>

#include "syscall/handler.h"
#include "syscall/table.h"

struct unsupported {
	const char *name;
	int err;
	const char *reason;
};

static const struct unsupported unsupported[] = {
#define SG_UNSUPPORTED(name, err, reason) { #name, err, reason },
#include "syscall_unsupported.h"
#undef SG_UNSUPPORTED
};

static const char ni_reason[] = "no implementation in Linux either";

/* Linear: only rows without a handler get here, once per call. */
static const struct unsupported *find_unsupported(const char *name)
{
	for (unsigned i = 0; name && i < ARRAY_SIZE(unsupported); i++)
		if (strcmp(unsupported[i].name, name) == 0)
			return &unsupported[i];
	return NULL;
}

long syscall_unsupported_errno(const struct sg_syscall_row *row)
{
	const struct unsupported *u = row ? find_unsupported(row->name) : NULL;

	return u ? -u->err : 0;
}

/* Status of one row; *reason set for unsupported ones. */
static enum sc_status {
	ST_IMPLEMENTED,
	ST_MISSING,
	ST_UNSUPPORTED,
} row_status(const struct sg_syscall_row *row, const char **reason)
{
	const struct unsupported *u;

	*reason = NULL;
	if (strcmp(row->entry, "sys_ni_syscall") == 0) {
		*reason = ni_reason;
		return ST_UNSUPPORTED;
	}
	if (systab_row_fn(row))
		return ST_IMPLEMENTED;
	u = find_unsupported(row->name);
	if (!u)
		return ST_MISSING;
	*reason = u->reason;
	return ST_UNSUPPORTED;
}

void syscall_print_coverage(FILE *out, enum sg_table table)
{
	static const char *const words[] = { "implemented", "missing",
					     "unsupported" };
	const struct sg_syscall_table *tab = sg_syscall_table(table);
	unsigned count[3] = { 0 }, rows = 0;

	if (!tab)
		return;
	for (unsigned i = 0; i < tab->size; i++) {
		const struct sg_syscall_row *row = &tab->rows[i];
		const char *reason;
		enum sc_status st;

		if (!row->name[0])
			continue;
		st = row_status(row, &reason);
		count[st]++;
		rows++;
		fprintf(out, "%4u  %-24s %-32s %s%s%s\n", i, row->name,
			row->entry, words[st], reason ? ": " : "",
			reason ? reason : "");
	}
	fprintf(out,
		"%s: %u rows: %u implemented, %u unsupported, %u missing "
		"(%.1f%% implemented or unsupported)\n",
		tab->abi_name, rows, count[ST_IMPLEMENTED],
		count[ST_UNSUPPORTED], count[ST_MISSING],
		rows ? 100.0 * (rows - count[ST_MISSING]) / rows : 100.0);
}
