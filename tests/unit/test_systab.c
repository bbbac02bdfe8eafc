/* The generated syscall tables against the kernel's own headers.
 *
 * The reference (gen/systab_nr_ref.h, tools/nr_ref.sh) comes from the C
 * preprocessor expanding every __NR_ macro of <asm/unistd.h> as compiled
 * for -m32, -m64 and -mx32; it never reads tables/. Both directions are
 * checked: every header define has its row, every row is a header define,
 * with the same number.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <errno.h>
#include <linux/ipc.h>
#include <linux/net.h>

#include "syscall/carried.h"
#include "syscall/table.h"

#define X32_BIT 0x40000000ul

struct ref {
	const char *name;
	unsigned long nr;
};

#define NR_REF_X64(n, v)
#define NR_REF_X32(n, v)
#define NR_REF_I386(n, v) { #n, v },
static const struct ref ref_i386[] = {
#include "systab_nr_ref.h"
};
#undef NR_REF_I386
#define NR_REF_I386(n, v)
#undef NR_REF_X64
#define NR_REF_X64(n, v) { #n, v },
static const struct ref ref_x64[] = {
#include "systab_nr_ref.h"
};
#undef NR_REF_X64
#define NR_REF_X64(n, v)
#undef NR_REF_X32
#define NR_REF_X32(n, v) { #n, v },
static const struct ref ref_x32[] = {
#include "systab_nr_ref.h"
};
#undef NR_REF_I386
#undef NR_REF_X64
#undef NR_REF_X32

#define ARRAY_SIZE(x) (sizeof(x) / sizeof((x)[0]))

struct abi_ref {
	enum sg_table table;
	const struct ref *ref;
	size_t n;
	unsigned long bias; /* x32: the header numbers include the x32 bit */
};

static const struct abi_ref abis[] = {
	{ SG_TABLE_I386, ref_i386, ARRAY_SIZE(ref_i386), 0 },
	{ SG_TABLE_X64, ref_x64, ARRAY_SIZE(ref_x64), 0 },
	{ SG_TABLE_X32, ref_x32, ARRAY_SIZE(ref_x32), X32_BIT },
};

static const struct sg_syscall_row *row_at(enum sg_table t, unsigned long i)
{
	const struct sg_syscall_table *tab = sg_syscall_table(t);

	assert_non_null(tab);
	if (i >= tab->size || !tab->rows[i].name[0])
		return NULL;
	return &tab->rows[i];
}

static const struct ref *ref_by_name(const struct abi_ref *a, const char *name)
{
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->ref[i].name, name) == 0)
			return &a->ref[i];
	return NULL;
}

static void test_reference_is_complete(void **state)
{
	/* the header sizes of this host (linux-libc-dev 6.1): guards against
	 * an empty reference making the other tests vacuous */
	assert_true(ARRAY_SIZE(ref_i386) >= 400);
	assert_true(ARRAY_SIZE(ref_x64) >= 350);
	assert_true(ARRAY_SIZE(ref_x32) >= 340);
}

static void test_every_header_define_has_its_row(void **state)
{
	for (size_t a = 0; a < ARRAY_SIZE(abis); a++) {
		const struct abi_ref *abi = &abis[a];

		for (size_t i = 0; i < abi->n; i++) {
			unsigned long nr = abi->ref[i].nr;
			const struct sg_syscall_row *row;

			assert_true(nr >= abi->bias);
			row = row_at(abi->table, nr - abi->bias);
			if (!row)
				fail_msg("%s: no row for %s (%lu)",
					 sg_syscall_table(abi->table)->abi_name,
					 abi->ref[i].name, nr);
			assert_string_equal(row->name, abi->ref[i].name);
			assert_non_null(row->entry);
		}
	}
}

static void test_every_row_is_a_header_define(void **state)
{
	for (size_t a = 0; a < ARRAY_SIZE(abis); a++) {
		const struct abi_ref *abi = &abis[a];
		const struct sg_syscall_table *tab = sg_syscall_table(abi->table);
		size_t rows = 0;

		for (unsigned i = 0; i < tab->size; i++) {
			const struct ref *r;

			if (!tab->rows[i].name[0])
				continue;
			rows++;
			r = ref_by_name(abi, tab->rows[i].name);
			if (!r)
				fail_msg("%s: row %u %s is not in <asm/unistd.h>",
					 tab->abi_name, i, tab->rows[i].name);
			assert_int_equal(r->nr, i + abi->bias);
		}
		assert_int_equal(rows, abi->n);
	}
}

/* systab_pick, the table choice the entry code and the run loop share:
 * every header number of each ABI lands on its own row, as the kernel's
 * entry (INT 0x80 / SYSENTER: i386; 64-bit SYSCALL: x64, or x32 with the
 * bit) would put it. */
static void test_pick_finds_every_header_number(void **state)
{
	for (size_t a = 0; a < ARRAY_SIZE(abis); a++) {
		const struct abi_ref *abi = &abis[a];
		bool i386_entry = abi->table == SG_TABLE_I386;

		for (size_t i = 0; i < abi->n; i++) {
			struct systab_slot s = systab_pick(i386_entry, (uint32_t)abi->ref[i].nr);

			assert_int_equal(s.table, abi->table);
			assert_int_equal(s.index, abi->ref[i].nr - abi->bias);
			assert_non_null(s.row);
			assert_string_equal(s.row->name, abi->ref[i].name);
		}
	}
}

static void test_pick_edges(void **state)
{
	const struct ref *x32_read = ref_by_name(&abis[2], "read");
	const struct ref *x64_read = ref_by_name(&abis[1], "read");
	struct systab_slot s;

	assert_non_null(x32_read);
	assert_non_null(x64_read);
	/* the x32 bit means nothing to the i386 entry: past its table */
	s = systab_pick(true, (uint32_t)x32_read->nr);
	assert_int_equal(s.table, SG_TABLE_I386);
	assert_null(s.row);
	/* past the x64 table without the bit: x64, no row */
	s = systab_pick(false, sg_syscall_table(SG_TABLE_X64)->size);
	assert_int_equal(s.table, SG_TABLE_X64);
	assert_null(s.row);
	/* the bit and a number past the x32 table; all bits set */
	s = systab_pick(false, (uint32_t)(X32_BIT + sg_syscall_table(SG_TABLE_X32)->size));
	assert_int_equal(s.table, SG_TABLE_X32);
	assert_null(s.row);
	s = systab_pick(false, 0xffffffffu);
	assert_null(s.row);
	/* read: x64 0, x32 0 | bit */
	assert_string_equal(systab_pick(false, (uint32_t)x64_read->nr).row->name, "read");
	assert_int_equal(systab_pick(false, (uint32_t)x32_read->nr).table, SG_TABLE_X32);
}

/* restart_syscall's number per ABI, as <asm/unistd.h> gives it (x32 with
 * the bit): what the run loop puts in the guest's rax/eax for a
 * -ERESTART_RESTARTBLOCK. */
static void test_restart_nr_is_the_headers(void **state)
{
	for (size_t a = 0; a < ARRAY_SIZE(abis); a++) {
		const struct ref *r = ref_by_name(&abis[a], "restart_syscall");

		assert_non_null(r);
		assert_int_equal(systab_restart_nr(abis[a].table), r->nr);
	}
}

static void test_holes_answer_enosys(void **state)
{
	for (size_t a = 0; a < ARRAY_SIZE(abis); a++) {
		const struct abi_ref *abi = &abis[a];
		const struct sg_syscall_table *tab = sg_syscall_table(abi->table);
		bool *defined = calloc(tab->size, sizeof(*defined));
		unsigned holes = 0;

		assert_non_null(defined);
		for (size_t i = 0; i < abi->n; i++)
			defined[abi->ref[i].nr - abi->bias] = true;
		for (unsigned i = 0; i < tab->size; i++) {
			if (defined[i])
				continue;
			holes++;
			assert_string_equal(tab->rows[i].name, "");
			assert_null(systab_row_fn(&tab->rows[i]));
			assert_null(systab_sig(abi->table, i));
		}
		free(defined);
		/* i386 222-223, 251, 285, 387-392, 415; x32 has the 64-only
		 * rows and 451-511 */
		assert_true(abi->table == SG_TABLE_X64 || holes > 0);
	}
	/* past the end: no table to index */
	assert_null(systab_sig(SG_TABLE_X64, sg_syscall_table(SG_TABLE_X64)->size));
	assert_null(sg_syscall_table(SG_TABLE__COUNT));
}

static void test_no_handler_linked_means_null_fn(void **state)
{
	/* this test links the tables alone: every weak entry stays NULL */
	for (int t = 0; t < SG_TABLE__COUNT; t++) {
		const struct sg_syscall_table *tab = sg_syscall_table(t);

		for (unsigned i = 0; i < tab->size; i++)
			assert_null(systab_row_fn(&tab->rows[i]));
	}
}

static void expect_entry(enum sg_table t, unsigned nr, const char *name,
			 const char *entry)
{
	const struct sg_syscall_row *row = row_at(t, nr);

	assert_non_null(row);
	assert_string_equal(row->name, name);
	assert_string_equal(row->entry, entry);
}

static void test_entry_points(void **state)
{
	/* i386 rows use the compat entry point where the kernel has one */
	expect_entry(SG_TABLE_I386, 5, "open", "compat_sys_open");
	expect_entry(SG_TABLE_I386, 4, "write", "sys_write");
	expect_entry(SG_TABLE_I386, 11, "execve", "compat_sys_execve");
	expect_entry(SG_TABLE_I386, 90, "mmap", "compat_sys_ia32_mmap");
	expect_entry(SG_TABLE_I386, 192, "mmap2", "sys_mmap_pgoff");
	expect_entry(SG_TABLE_I386, 180, "pread64", "sys_ia32_pread64");
	expect_entry(SG_TABLE_I386, 197, "fstat64", "compat_sys_ia32_fstat64");
	expect_entry(SG_TABLE_I386, 113, "vm86old", "sys_ni_syscall");
	/* no entry point at all: sys_ni_syscall, as the kernel fills it */
	expect_entry(SG_TABLE_I386, 17, "break", "sys_ni_syscall");
	assert_true(systab_row_is_ni(row_at(SG_TABLE_I386, 17)));
	assert_false(systab_row_is_ni(row_at(SG_TABLE_I386, 5)));

	expect_entry(SG_TABLE_X64, 2, "open", "sys_open");
	expect_entry(SG_TABLE_X64, 4, "stat", "sys_newstat");
	expect_entry(SG_TABLE_X64, 13, "rt_sigaction", "sys_rt_sigaction");
	/* x32: own rows at 512-547, common rows take the 64-bit entry */
	expect_entry(SG_TABLE_X32, 512, "rt_sigaction", "compat_sys_rt_sigaction");
	expect_entry(SG_TABLE_X32, 515, "readv", "sys_readv");
	expect_entry(SG_TABLE_X32, 547, "pwritev2", "compat_sys_pwritev64v2");
	expect_entry(SG_TABLE_X32, 14, "rt_sigprocmask", "sys_rt_sigprocmask");
	assert_null(row_at(SG_TABLE_X32, 13)); /* 64-only row */
	assert_null(row_at(SG_TABLE_X64, 512)); /* x32-only row */
}

static void expect_sig(enum sg_table t, unsigned nr, unsigned ret,
		       unsigned nargs, const unsigned char *kinds)
{
	const struct systab_sig *sig = systab_sig(t, nr);

	assert_non_null(sig);
	assert_int_equal(sig->ret, ret);
	assert_int_equal(sig->nargs, nargs);
	assert_int_equal(row_at(t, nr)->nargs, nargs);
	for (unsigned i = 0; i < 6; i++)
		assert_int_equal(sig->arg[i],
				 i < nargs ? kinds[i] : SYSTAB_ARG_NONE);
}

static void test_argument_kinds(void **state)
{
	static const unsigned char rd[] = { SYSTAB_ARG_FD, SYSTAB_ARG_OBUF,
					    SYSTAB_ARG_SIZE };
	static const unsigned char pread_i386[] = {
		SYSTAB_ARG_FD, SYSTAB_ARG_OBUF, SYSTAB_ARG_SIZE,
		SYSTAB_ARG_LO64, SYSTAB_ARG_HI64 };
	static const unsigned char pread_x64[] = {
		SYSTAB_ARG_FD, SYSTAB_ARG_OBUF, SYSTAB_ARG_SIZE,
		SYSTAB_ARG_OFF64 };
	static const unsigned char one_ptr[] = { SYSTAB_ARG_PTR };
	static const unsigned char one_int[] = { SYSTAB_ARG_INT };
	static const unsigned char six_hex[] = {
		SYSTAB_ARG_HEX, SYSTAB_ARG_HEX, SYSTAB_ARG_HEX,
		SYSTAB_ARG_HEX, SYSTAB_ARG_HEX, SYSTAB_ARG_HEX };

	expect_sig(SG_TABLE_X64, 0, SYSTAB_RET_DEC, 3, rd);
	expect_sig(SG_TABLE_I386, 3, SYSTAB_RET_DEC, 3, rd);
	expect_sig(SG_TABLE_X32, 0, SYSTAB_RET_DEC, 3, rd);
	/* a 64-bit offset takes two i386 registers, one elsewhere */
	expect_sig(SG_TABLE_I386, 180, SYSTAB_RET_DEC, 5, pread_i386);
	expect_sig(SG_TABLE_X64, 17, SYSTAB_RET_DEC, 4, pread_x64);
	expect_sig(SG_TABLE_X32, 17, SYSTAB_RET_DEC, 4, pread_x64);
	/* i386 mmap (old_mmap) takes a pointer to its arguments */
	expect_sig(SG_TABLE_I386, 90, SYSTAB_RET_HEX, 1, one_ptr);
	expect_sig(SG_TABLE_X64, 12, SYSTAB_RET_HEX, 1, one_ptr); /* brk */
	expect_sig(SG_TABLE_X64, 231, SYSTAB_RET_NONE, 1, one_int);
	expect_sig(SG_TABLE_I386, 252, SYSTAB_RET_NONE, 1, one_int);
	/* not in syscall_args.in: six hex arguments */
	expect_sig(SG_TABLE_X64, 169, SYSTAB_RET_DEC, 6, six_hex); /* reboot */
}

static void test_lookup_abi(void **state)
{
	enum sg_table t = SG_TABLE__COUNT;

	assert_int_equal(systab_lookup_abi("i386", &t), 0);
	assert_int_equal(t, SG_TABLE_I386);
	assert_int_equal(systab_lookup_abi("x32", &t), 0);
	assert_int_equal(t, SG_TABLE_X32);
	assert_int_equal(systab_lookup_abi("x86_64", &t), 0);
	assert_int_equal(t, SG_TABLE_X64);
	assert_int_equal(systab_lookup_abi("x64", NULL), 0);
	assert_int_equal(systab_lookup_abi("arm", &t), -1);
	assert_int_equal(systab_lookup_abi("", &t), -1);
	assert_int_equal(systab_lookup_abi(NULL, &t), -1);
	assert_string_equal(sg_syscall_table(SG_TABLE_I386)->abi_name, "i386");
	assert_string_equal(sg_syscall_table(SG_TABLE_X64)->abi_name, "x86_64");
	assert_string_equal(sg_syscall_table(SG_TABLE_X32)->abi_name, "x32");
}

static void test_coverage_listing(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	char totals[160];
	unsigned lines = 0, ni = 0;

	assert_non_null(f);
	systab_print_coverage(f, SG_TABLE_I386);
	fclose(f);
	for (char *p = buf; (p = strchr(p, '\n')); p++)
		lines++;
	/* one line per header define, plus the totals */
	assert_int_equal(lines, ARRAY_SIZE(ref_i386) + 1);
	assert_non_null(strstr(buf, "   5  open                         "
				    "compat_sys_open                      missing\n"));
	assert_non_null(strstr(buf, "  17  break "));
	for (size_t i = 0; i < ARRAY_SIZE(ref_i386); i++)
		ni += systab_row_is_ni(row_at(SG_TABLE_I386, ref_i386[i].nr));
	snprintf(totals, sizeof(totals),
		 "i386: %zu syscalls: 0 implemented, %zu missing, %u ni ",
		 ARRAY_SIZE(ref_i386), ARRAY_SIZE(ref_i386) - ni, ni);
	assert_non_null(strstr(buf, totals));
	free(buf);
}

/* --- socketcall/ipc's carried calls (syscall/carried.h) --------------------- */

/* Every carried call runs as an i386 row that <asm/unistd_32.h> defines:
 * its own name's, or (send, recv, accept: no such define) another's with
 * fewer arguments; a call that shares its row's name reads as many words
 * as the row has arguments, so the trace shows all of them. semop and
 * semtimedop (time32) have no i386 define. */
static void test_carried_rows(void **state)
{
	const struct abi_ref *i386 = &abis[0];
	unsigned renamed = 0, rowless = 0;

	for (unsigned id = 0; id < SG_CARRIED__COUNT; id++) {
		const struct sg_carried_def *def = sg_carried_def((enum sg_carried_id)id);
		const struct ref *own = ref_by_name(i386, def->name);
		const struct sg_syscall_row *row;
		const struct systab_sig *sig;

		assert_non_null(def);
		if (def->row < 0) {
			assert_null(own);
			rowless++;
			continue;
		}
		row = row_at(SG_TABLE_I386, (unsigned long)def->row);
		assert_non_null(row);
		assert_non_null(ref_by_name(i386, row->name));
		assert_int_equal(ref_by_name(i386, row->name)->nr, def->row);
		sig = systab_sig(SG_TABLE_I386, (unsigned)def->row);
		assert_non_null(sig);
		if (own) {
			assert_string_equal(row->name, def->name);
			assert_int_equal(def->nargs, sig->nargs);
		} else {
			assert_true(def->nargs < sig->nargs);
			renamed++;
		}
	}
	assert_int_equal(renamed, 3);
	assert_int_equal(rowless, 2);
	assert_null(sg_carried_def(SG_CARRIED__COUNT));
}

/* guest memory for the demultiplexer: words at FAKE_BASE */
#define FAKE_BASE 0x1000u
static uint32_t fake_mem[16];

static int fake_read(const struct mm *mm, void *dst, uint64_t src, size_t n)
{
	(void)mm;
	if (src < FAKE_BASE || src + n > FAKE_BASE + sizeof(fake_mem))
		return -EFAULT;
	memcpy(dst, (const char *)fake_mem + (src - FAKE_BASE), n);
	return 0;
}

static void test_carried_socketcall(void **state)
{
	struct sg_carried c;

	for (unsigned i = 0; i < 16; i++)
		fake_mem[i] = 100 + i;
	assert_int_equal(sg_carried_socketcall((uint64_t[6]){ SYS_SENDTO, FAKE_BASE }, fake_read,
					       NULL, &c), 0);
	assert_string_equal(c.name, "sendto");
	assert_int_equal(c.nargs, 6);
	for (unsigned i = 0; i < 6; i++)
		assert_int_equal(c.args[i], 100 + i);
	/* send: sendto's row, the address and its length 0 */
	assert_int_equal(sg_carried_socketcall((uint64_t[6]){ SYS_SEND, FAKE_BASE + 4 }, fake_read,
					       NULL, &c), 0);
	assert_string_equal(c.name, "send");
	assert_string_equal(row_at(SG_TABLE_I386, (unsigned long)c.row)->name, "sendto");
	assert_int_equal(c.nargs, 4);
	assert_int_equal(c.args[0], 101);
	assert_int_equal(c.args[3], 104);
	assert_int_equal(c.args[4], 0);
	assert_int_equal(c.args[5], 0);
	assert_int_equal(c.early, 0);
	/* the block is read to its kernel size only: listen's two words fit
	 * at the end of the memory, socket's three do not */
	assert_int_equal(sg_carried_socketcall((uint64_t[6]){ SYS_LISTEN, FAKE_BASE + 56 },
					       fake_read, NULL, &c), 0);
	assert_int_equal(sg_carried_socketcall((uint64_t[6]){ SYS_SOCKET, FAKE_BASE + 56 },
					       fake_read, NULL, &c), -EFAULT);
	/* net/socket.c: call < 1 || call > SYS_SENDMMSG is -EINVAL */
	assert_int_equal(sg_carried_socketcall((uint64_t[6]){ 0, FAKE_BASE }, fake_read, NULL, &c),
			 -EINVAL);
	assert_int_equal(sg_carried_socketcall((uint64_t[6]){ SYS_SENDMMSG + 1, FAKE_BASE },
					       fake_read, NULL, &c), -EINVAL);
}

/* ipc/syscall.c's argument order per sub-call */
static void test_carried_ipc(void **state)
{
	struct sg_carried c;

	fake_mem[0] = 0x5000; /* struct ipc_kludge: msgp, msgtyp */
	fake_mem[1] = (uint32_t)-7;
	/* ipc(call, first, second, third, ptr, fifth) */
	assert_int_equal(sg_carried_ipc((uint64_t[6]){ MSGRCV, 3, 8, 04000, FAKE_BASE, 9 },
					fake_read, NULL, &c), 0);
	assert_string_equal(c.name, "msgrcv");
	assert_int_equal(c.id, SG_CARRIED_IPC_MSGRCV);
	assert_int_equal(c.args[0], 3);
	assert_int_equal(c.args[1], 0x5000);
	assert_int_equal(c.args[2], 8);
	assert_int_equal(c.args[3], (uint32_t)-7);
	assert_int_equal(c.args[4], 04000);
	assert_int_equal(sg_carried_ipc((uint64_t[6]){ IPCCALL(1, MSGRCV), 3, 8, 04000, 0x6000, 9 },
					fake_read, NULL, &c), 0);
	assert_int_equal(c.args[1], 0x6000);
	assert_int_equal(c.args[3], 9);
	assert_int_equal(sg_carried_ipc((uint64_t[6]){ MSGRCV, 3, 8, 0, 0, 0 }, fake_read, NULL,
					&c), -EINVAL);
	assert_int_equal(sg_carried_ipc((uint64_t[6]){ MSGRCV, 3, 8, 0, 0x9000, 0 }, fake_read,
					NULL, &c), -EFAULT);
	assert_int_equal(sg_carried_ipc((uint64_t[6]){ MSGSND, 3, 8, 04000, 0x5000, 0 }, fake_read,
					NULL, &c), 0);
	assert_int_equal(c.args[1], 0x5000);
	assert_int_equal(c.args[2], 8);
	assert_int_equal(c.args[3], 04000);
	/* semctl's union semun is the word at ptr; NULL: -EINVAL, shown */
	assert_int_equal(sg_carried_ipc((uint64_t[6]){ SEMCTL, 2, 1, 16, FAKE_BASE + 4, 0 },
					fake_read, NULL, &c), 0);
	assert_int_equal(c.args[3], (uint32_t)-7);
	assert_int_equal(c.early, 0);
	assert_int_equal(sg_carried_ipc((uint64_t[6]){ SEMCTL, 2, 1, 16, 0, 0 }, fake_read, NULL,
					&c), 0);
	assert_int_equal(c.early, -EINVAL);
	/* shmat: the address goes to third; version 1 is -EINVAL */
	assert_int_equal(sg_carried_ipc((uint64_t[6]){ SHMAT, 4, 010000, 0x7000, 0x8000, 0 },
					fake_read, NULL, &c), 0);
	assert_int_equal(c.args[0], 4);
	assert_int_equal(c.args[1], 0x8000);
	assert_int_equal(c.args[2], 010000);
	assert_int_equal(c.result_at, 0x7000);
	assert_int_equal(c.early, 0);
	assert_int_equal(sg_carried_ipc((uint64_t[6]){ IPCCALL(1, SHMAT), 4, 0, 0x7000, 0, 0 },
					fake_read, NULL, &c), 0);
	assert_int_equal(c.early, -EINVAL);
	assert_int_equal(sg_carried_ipc((uint64_t[6]){ SEMTIMEDOP, 2, 1, 0, 0x5000, 0x5100 },
					fake_read, NULL, &c), 0);
	assert_int_equal(c.row, -1);
	assert_int_equal(c.args[1], 0x5000);
	assert_int_equal(c.args[2], 1);
	assert_int_equal(c.args[3], 0x5100);
	assert_int_equal(sg_carried_ipc((uint64_t[6]){ 99 }, fake_read, NULL, &c), -ENOSYS);
	assert_int_equal(sg_carried_ipc((uint64_t[6]){ 0 }, fake_read, NULL, &c), -ENOSYS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reference_is_complete),
		cmocka_unit_test(test_every_header_define_has_its_row),
		cmocka_unit_test(test_every_row_is_a_header_define),
		cmocka_unit_test(test_pick_finds_every_header_number),
		cmocka_unit_test(test_pick_edges),
		cmocka_unit_test(test_restart_nr_is_the_headers),
		cmocka_unit_test(test_holes_answer_enosys),
		cmocka_unit_test(test_no_handler_linked_means_null_fn),
		cmocka_unit_test(test_entry_points),
		cmocka_unit_test(test_argument_kinds),
		cmocka_unit_test(test_lookup_abi),
		cmocka_unit_test(test_coverage_listing),
		cmocka_unit_test(test_carried_rows),
		cmocka_unit_test(test_carried_socketcall),
		cmocka_unit_test(test_carried_ipc),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
