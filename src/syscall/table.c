/* The syscall tables, expanded from the X-macro headers that
 * tools/systab_gen.sh generates from tables/ (see table.h).
 *
 * Each entry point is declared weak: a handler that is not written (or
 * not linked into this executable) leaves a NULL fn and the call answers
 * -ENOSYS, so the tables can list every syscall from the start.
 */
#include <asm/unistd.h>
#include <string.h>

#include "syscall/table.h"

_Static_assert(SYSTAB_X32_BIT == __X32_SYSCALL_BIT, "the kernel's x32 bit");

#define SG_SYSCALL_ENTRY(entry) \
	extern long entry(struct sg_thread *, const uint64_t *) __attribute__((weak));
#include "syscall_entries.h"
#undef SG_SYSCALL_ENTRY

/* The entry points, one each: the only pointers of the tables (the
 * rows name them by index, sg_syscall_row.handler). */
enum systab_handler {
	SYSTAB_HANDLER_NONE,
#define SG_SYSCALL_ENTRY(entry) SYSTAB_HANDLER_##entry,
#include "syscall_entries.h"
#undef SG_SYSCALL_ENTRY
	SYSTAB_HANDLER__COUNT
};
_Static_assert(SYSTAB_HANDLER__COUNT <= UINT16_MAX, "sg_syscall_row.handler");

static sg_syscall_fn const handlers[SYSTAB_HANDLER__COUNT] = {
#define SG_SYSCALL_ENTRY(entry) [SYSTAB_HANDLER_##entry] = entry,
#include "syscall_entries.h"
#undef SG_SYSCALL_ENTRY
};

sg_syscall_fn systab_row_fn(const struct sg_syscall_row *row)
{
	return row ? handlers[row->handler] : NULL;
}

/* Bit i: argument i names a descriptor of the caller (kind fd or dirfd). */
#define FD_BIT(k, i)                                                       \
	((unsigned)((int)SYSTAB_ARG_##k == (int)SYSTAB_ARG_FD ||              \
		    (int)SYSTAB_ARG_##k == (int)SYSTAB_ARG_DIRFD) << (i))
#define SG_SYSCALL(nr, name, entry, ret, nargs, k0, k1, k2, k3, k4, k5) \
	[nr] = { #name, #entry, SYSTAB_HANDLER_##entry, nargs,            \
		 FD_BIT(k0, 0) | FD_BIT(k1, 1) | FD_BIT(k2, 2) | FD_BIT(k3, 3) | \
			 FD_BIT(k4, 4) | FD_BIT(k5, 5) },

static const struct sg_syscall_row i386_rows[] = {
#include "syscalls_i386.h"
};
static const struct sg_syscall_row x64_rows[] = {
#include "syscalls_x64.h"
};
static const struct sg_syscall_row x32_rows[] = {
#include "syscalls_x32.h"
};
#undef SG_SYSCALL
#undef FD_BIT

#define SG_SYSCALL(nr, name, entry, ret, nargs, k0, k1, k2, k3, k4, k5) \
	[nr] = { SYSTAB_RET_##ret, nargs,                                 \
		 { SYSTAB_ARG_##k0, SYSTAB_ARG_##k1, SYSTAB_ARG_##k2,     \
		   SYSTAB_ARG_##k3, SYSTAB_ARG_##k4, SYSTAB_ARG_##k5 } },

static const struct systab_sig i386_sigs[] = {
#include "syscalls_i386.h"
};
static const struct systab_sig x64_sigs[] = {
#include "syscalls_x64.h"
};
static const struct systab_sig x32_sigs[] = {
#include "syscalls_x32.h"
};
#undef SG_SYSCALL

#define ARRAY_SIZE(x) (sizeof(x) / sizeof((x)[0]))

_Static_assert(ARRAY_SIZE(i386_rows) == ARRAY_SIZE(i386_sigs), "i386 sizes");
_Static_assert(ARRAY_SIZE(x64_rows) == ARRAY_SIZE(x64_sigs), "x64 sizes");
_Static_assert(ARRAY_SIZE(x32_rows) == ARRAY_SIZE(x32_sigs), "x32 sizes");

static const struct sg_syscall_table tables[SG_TABLE__COUNT] = {
	[SG_TABLE_I386] = { "i386", ARRAY_SIZE(i386_rows), i386_rows },
	[SG_TABLE_X64] = { "x86_64", ARRAY_SIZE(x64_rows), x64_rows },
	[SG_TABLE_X32] = { "x32", ARRAY_SIZE(x32_rows), x32_rows },
};

static const struct systab_sig *const sigs[SG_TABLE__COUNT] = {
	[SG_TABLE_I386] = i386_sigs,
	[SG_TABLE_X64] = x64_sigs,
	[SG_TABLE_X32] = x32_sigs,
};

const struct sg_syscall_table *sg_syscall_table(enum sg_table table)
{
	if ((unsigned)table >= SG_TABLE__COUNT)
		return NULL;
	return &tables[table];
}

static const struct sg_syscall_row *row_at(enum sg_table table, uint32_t index)
{
	const struct sg_syscall_table *tab = sg_syscall_table(table);

	if (!tab || index >= tab->size || !tab->rows[index].name[0])
		return NULL;
	return &tab->rows[index];
}

struct systab_slot systab_pick(bool i386_entry, uint32_t nr)
{
	struct systab_slot slot = { SG_TABLE_I386, nr, NULL };

	if (!i386_entry) {
		slot.table = SG_TABLE_X64;
		if (nr >= tables[SG_TABLE_X64].size && (nr & SYSTAB_X32_BIT)) {
			slot.table = SG_TABLE_X32;
			slot.index = nr - SYSTAB_X32_BIT;
		}
	}
	slot.row = row_at(slot.table, slot.index);
	return slot;
}

uint32_t systab_restart_nr(enum sg_table table)
{
	const struct sg_syscall_table *tab = sg_syscall_table(table);

	for (uint32_t i = 0; tab && i < tab->size; i++)
		if (strcmp(tab->rows[i].name, "restart_syscall") == 0)
			return table == SG_TABLE_X32 ? i | SYSTAB_X32_BIT : i;
	return 0; /* every table has the row (tests/unit/test_systab.c) */
}

const struct systab_sig *systab_sig(enum sg_table t, unsigned index)
{
	const struct sg_syscall_table *tab = sg_syscall_table(t);

	if (!tab || index >= tab->size || !tab->rows[index].name[0])
		return NULL;
	return &sigs[t][index];
}

bool systab_row_is_ni(const struct sg_syscall_row *row)
{
	return row && strcmp(row->entry, "sys_ni_syscall") == 0;
}

int systab_lookup_abi(const char *name, enum sg_table *out)
{
	static const struct {
		const char *name;
		enum sg_table table;
	} names[] = {
		{ "i386", SG_TABLE_I386 }, { "ia32", SG_TABLE_I386 },
		{ "x86_64", SG_TABLE_X64 }, { "x64", SG_TABLE_X64 },
		{ "x32", SG_TABLE_X32 },
	};

	for (unsigned i = 0; name && i < ARRAY_SIZE(names); i++) {
		if (strcmp(name, names[i].name) == 0) {
			if (out)
				*out = names[i].table;
			return 0;
		}
	}
	return -1;
}

void systab_print_coverage(FILE *out, enum sg_table t)
{
	const struct sg_syscall_table *tab = sg_syscall_table(t);
	unsigned rows = 0, done = 0, missing = 0, ni = 0;

	if (!tab)
		return;
	for (unsigned i = 0; i < tab->size; i++) {
		const struct sg_syscall_row *row = &tab->rows[i];
		const char *status;

		if (!row->name[0])
			continue;
		rows++;
		if (systab_row_is_ni(row)) {
			status = "ni";
			ni++;
		} else if (systab_row_fn(row)) {
			status = "implemented";
			done++;
		} else {
			status = "missing";
			missing++;
		}
		fprintf(out, "%4u  %-28s %-36s %s\n", i, row->name, row->entry,
			status);
	}
	fprintf(out,
		"%s: %u syscalls: %u implemented, %u missing, %u ni (not implemented by Linux either)\n",
		tab->abi_name, rows, done, missing, ni);
}
