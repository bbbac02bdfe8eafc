/* Private to src/trace: the trace object, the line being built and the
 * argument printers. */
#ifndef SG_TRACE_INTERNAL_H
#define SG_TRACE_INTERNAL_H

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "syscall/table.h"
#include "systab_kinds.h"
#include "trace/trace.h"
#include "trace/xlat.h"

struct mm;

/* Field f of a guest struct whose bytes were read into b, at the offset
 * and with the size the layout type T gives it: no offset is written by
 * hand. T is the guest's layout: syscall/compat/compat.h's (for i386, x32
 * where it shares them, and x86_64's sc_*: most generated from the uapi
 * headers compiled for that ABI, docs/syscalls.md, Compat layouts), the
 * host's headers for x86_64 and the structs x32 shares with it (sysgate
 * builds for x86_64 hosts only), <linux/...> for the layouts every ABI
 * shares. Unsigned, zero-extended; cast for a signed field. */
#define GUEST_FIELD(b, T, f) \
	trace_field_bytes((const unsigned char *)(b) + offsetof(T, f), sizeof(((T *)0)->f))
static inline uint64_t trace_field_bytes(const unsigned char *p, size_t n)
{
	uint64_t v = 0;

	memcpy(&v, p, n < sizeof(v) ? n : sizeof(v)); /* little-endian guest and host */
	return v;
}

/* strace's default: strings and buffers are cut after this many bytes. */
#define TRACE_STRLEN 32
/* The most -s can ask for: a quoted byte is at most 4 characters and the
 * whole line must fit struct tline. */
#define TRACE_STRLEN_MAX 1024
/* Paths are shown whole (strace's printpath), up to this many bytes. */
#define TRACE_PATH_MAX 4096
/* strace's alignment: " = result" starts at this column when it can. */
#define TRACE_RESULT_COLUMN 40
/* Array elements strace shows before "..." (iovec, pollfd, argv). */
#define TRACE_MAX_ELEMS 32

/* One output line, built in place and written with a single write(2).
 * Overlong text is cut (the line still ends with '\n'). */
struct tline {
	char buf[8192];
	size_t len;
	size_t col0; /* column where buf starts (the rest of an open line) */
};

/* -c: calls, errors and time per row of each table. */
struct trace_count {
	uint64_t calls, errors, ns;
};

/* The -e expressions: trace=SET, one bit per row of each table (1:
 * traced); signal=, status=, quiet=exit, decode-fds=path. */
struct trace_filter {
	bool all;
	uint8_t *bits[SG_TABLE__COUNT];
	uint64_t signals;  /* bit s-1: "--- SIGx ---" lines shown */
	unsigned status;   /* bit 0 successful, 1 failed, 2 unfinished */
	bool quiet_exit;   /* no "+++ exited/killed" lines */
	bool decode_paths; /* decode-fds=path: as -y */
	/* entry=: the path a call took (sysgate's own qualifier): any of
	 * the tables, any of the mechanisms, all of the attributes named */
	unsigned entry_tables, entry_mechs, entry_attrs;
};

/* entry= attributes, as the entry column names them */
enum {
	TRACE_ENTRY_MISSING = 1u << 0,
	TRACE_ENTRY_COMPAT = 1u << 1,
	TRACE_ENTRY_VDSO = 1u << 2,
	TRACE_ENTRY_VDSO_FN = 1u << 3,
};

/* -c with the entry column: calls per table and mechanism. */
struct trace_path_count {
	uint64_t calls, errors, missing, vdso;
};

struct trace {
	int fd;
	bool own_fd;
	unsigned flags;      /* enum sg_trace_flags */
	unsigned strlen;     /* -s */
	struct trace_filter filter;
	uint64_t insn_start, insn_count;
	pthread_mutex_t lock; /* counts */
	/* What the threads and forked children writing to the same fd share
	 * (a MAP_SHARED page, so a fork keeps sharing it). */
	struct trace_shared {
		pthread_mutex_t lock; /* process-shared, robust */
		int open_tid;  /* task whose line was left open (<unfinished>) */
		int tasks;     /* tasks traced: more than 1 gives [pid N] prefixes */
		int to_file;   /* -o FILE / a trace fd given: "%-5d " prefixes
				* with -f (decided by the first image; an
				* execve passes the fd on, not how it began) */
		int root_pid;  /* -c: the process that prints the table (the
				* first image's, kept across its execve) */
		/* -ff: the tasks whose file this run has begun (truncated);
		 * later opens, an execve'd image's included, append */
		int ff_begun[1024];
		unsigned ff_nbegun;
		/* -c --trace=entry: [table][mechanism] */
		struct trace_path_count paths[SG_TABLE__COUNT][3];
	} *sh;
	int tl_fd;           /* --trace-timeline: the events file (private), -1 */
	char *tl_path;       /* ... as given (FILE or FILE.html) */
	int tl_first_tid;    /* the image's first thread: no task-start flow */
	char *ff_prefix;     /* -ff: FILE of FILE.TID */
	int ff_fd;           /* -ff: the file of ff_tid (a private fd), -1 */
	int ff_tid;
	size_t shared_size;  /* *sh and, after it, the -c counts of every
			      * table, shared by forks and execve'd images */
	int main_tid;        /* without -f: the only thread traced */
	int shared_fd;       /* the memfd of *sh (passed on across execve) */
	char *filter_spec;   /* -e, as given (passed on across execve) */
	/* printed instructions or blocks so far (--trace-count); reached
	 * --trace-start */
	uint64_t insn_shown;
	bool insn_started;
	struct trace_count *counts[SG_TABLE__COUNT]; /* in the shared map */
};

/* All of p to fd, again after EINTR: 0, or -1 when the fd refuses. */
int trace_write_fd(int fd, const void *p, size_t n);

void tl_putc(struct tline *l, char c);
void tl_puts(struct tline *l, const char *s);
void tl_printf(struct tline *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* n bytes as a C string literal the way strace quotes them; "..." after
 * the closing quote when more is true. hex: every byte as \xNN (strace's
 * form for binary data such as getrandom's). */
void tl_quote(struct tline *l, const unsigned char *p, size_t n, bool more);
void tl_quote_hex(struct tline *l, const unsigned char *p, size_t n, bool more);
/* Spaces up to TRACE_RESULT_COLUMN (or none), as strace's tabto(). */
void tl_tab_to_result(struct tline *l);

/* Width of the guest's long and pointer: 4 for i386 and x32, 8 for x86_64. */
static inline unsigned guest_long_bytes(enum sg_table t)
{
	return t == SG_TABLE_X64 ? 8 : 4;
}

/* What one argument printer sees. */
struct targ {
	struct tline *l;
	const struct mm *mm;
	const struct sg_syscall_call *call;
	const struct trace *tr;
	unsigned i;          /* argument slot */
	bool exiting;
	int part;            /* split kinds (trace_arg_is_split): TARG_WHOLE,
			      * or the part strace prints on entry / exit */
};

enum { TARG_WHOLE, TARG_HEAD, TARG_TAIL };

/* The guest stack pointer when the call entered (sigreturn's frame). */
extern __thread uint64_t trace_entry_sp;

static inline enum sg_table targ_table(const struct targ *a)
{
	return a->call->table;
}

/* --- args.c: scalars, strings, buffers, xlat sets ---------------------- */

/* Print argument i of call (kind from sig) into l. Kinds shown on exit
 * (output buffers and structs) need the result: pass exiting = true then.
 * Returns false for a slot that prints nothing (the high word of an i386
 * 64-bit offset, the mode of an open without O_CREAT). */
bool trace_print_arg(struct tline *l, const struct mm *mm,
		     const struct trace *tr, const struct sg_syscall_call *call,
		     const struct systab_sig *sig, unsigned i, bool exiting);
/* The same, one part of a split kind (TARG_HEAD on entry, TARG_TAIL on
 * return): clone's and clone3's arguments, which strace prints in two. */
bool trace_print_arg_part(struct tline *l, const struct mm *mm,
			  const struct trace *tr, const struct sg_syscall_call *call,
			  const struct systab_sig *sig, unsigned i, int part);
bool trace_arg_is_split(const struct sg_syscall_call *call,
			const struct systab_sig *sig, unsigned i);
/* The kind is printed when the call returns (output buffers, structs). */
bool trace_kind_is_late(unsigned kind);
/* Argument i is printed when the call returns (what it fills in). */
bool trace_arg_is_late(const struct sg_syscall_call *call,
		       const struct systab_sig *sig, unsigned i);
/* structs_ioctl.c: the request fills the memory its argument points to; reads
 * and rewrites it (printed in two parts, as clone's arguments). */
bool trace_ioctl_fills(uint64_t req);
bool trace_ioctl_splits(uint64_t req);
/* sockets.c: a struct sockaddr of len bytes at addr. */
void trace_print_sockaddr(const struct targ *a, uint64_t addr, uint64_t len);
/* structs_io.c: the prctl option fills what its argument points to. */
bool trace_prctl_fills(const struct sg_syscall_call *call);
/* structs_io.c: SUID_DUMP_* by value (PR_SET_DUMPABLE, PR_GET_DUMPABLE). */
const char *trace_suid_dump_name(uint64_t v);

/* "= 3", "= 0x7f...", "= -1 ENOENT (No such file or directory)", "= ?" */
void trace_print_result(struct tline *l, const struct trace *tr,
			const struct sg_syscall_call *call, unsigned ret_kind);

/* "ENOENT" for 2; NULL when the kernel has no name for the number. */
const char *trace_errno_name(long err);

/* The register as the guest's long / unsigned long. */
uint64_t targ_ulong(const struct targ *a, uint64_t v);
int64_t targ_long(const struct targ *a, uint64_t v);
void tprint_ptr(struct tline *l, uint64_t v);
void tprint_hex(struct tline *l, uint64_t v);
/* fd, with -y its path: 3</etc/passwd> */
void tprint_fd(const struct targ *a, int fd);
void tprint_str(const struct targ *a, uint64_t addr);  /* cut at -s */
void tprint_path(const struct targ *a, uint64_t addr); /* whole */
void tprint_buf(const struct targ *a, uint64_t addr, uint64_t n, bool hex);
/* Flags of a set ("O_RDONLY|O_CLOEXEC", leftover bits in hex), enums by
 * name or as a decimal number. */
void tprint_flags(struct tline *l, const struct xlat *x, uint64_t v);
void tprint_enum(struct tline *l, const struct xlat *x, int64_t v);
/* Signal name: "SIGCHLD", "SIGRTMIN", "SIGRT_3"; bare: without "SIG". */
void tprint_signame(struct tline *l, int sig, bool bare);
/* Copy n bytes of guest memory; false when unreadable. */
bool tread(const struct targ *a, void *dst, uint64_t addr, size_t n);

/* [{iov_base="ab", iov_len=2}, ...]: budget is the bytes still to show
 * (readv: the result), UINT64_MAX for input vectors, or
 * TRACE_IOV_ADDRESSES for bases shown as addresses (aio's PREADV). */
#define TRACE_IOV_ADDRESSES (UINT64_MAX - 1)
void trace_print_iov(const struct targ *a, uint64_t addr, uint64_t count,
		     uint64_t budget);

/* --- structs.c, sockets.c: the struct kinds of kinds.in --------------- */
#define TRACE_KIND_FLAGS(k)
#define TRACE_KIND_ENUM(k)
#define TRACE_KIND_STRUCT(k) bool tk_##k(const struct targ *a, uint64_t v);
#define TRACE_KIND_OSTRUCT(k) bool tk_##k(const struct targ *a, uint64_t v);
#define TRACE_KIND(up, k, style) TRACE_KIND_##style(k)
#include "trace_kinds.h"
#undef TRACE_KIND
#undef TRACE_KIND_FLAGS
#undef TRACE_KIND_ENUM
#undef TRACE_KIND_STRUCT
#undef TRACE_KIND_OSTRUCT

/* {tv_sec=0, tv_nsec=1000}: w the width of each field (4 or 8); NULL. */
bool trace_print_timespec(const struct targ *a, uint64_t addr, unsigned w);

/* poll's revents after its result. */
void trace_print_poll_note(const struct targ *a);
/* " (in [3], out [4], left {...})" after select's and pselect6's result. */
void trace_print_select_note(const struct targ *a);
/* time(2)'s result with its date: "= 1796429189 (2026-12-05T00:06:29+0000)" */
void trace_print_time_note(const struct targ *a);

/* Extra text after the result: " (flags O_RDONLY)" of fcntl F_GETFL, the
 * revents of poll. */
void trace_print_result_note(struct tline *l, const struct trace *tr,
			     const struct sg_syscall_call *call,
			     const struct mm *mm);

/* --- output.c: writing lines ---------------------------------------------- */
/* The calling host thread's id (the guest task's). */
int trace_tid(void);
/* Several tasks are traced into one output: prefixes, lines left open. */
bool trace_multi(const struct trace *tr);
/* Write a whole line (adds the newline), closing another thread's open
 * line first. */
void trace_emit(struct trace *tr, struct tline *l);
/* Bytes to the output (-ff: the calling task's file), as they are. */
void trace_write_all(struct trace *tr, const char *p, size_t left);
/* Close the line another task than except_tid left open ("<unfinished
 * ...>"); with the shared lock held. */
void trace_close_open_line(struct trace *tr, int except_tid);
/* "[pid N] " (-f with several tasks) and the -t/-tt/-ttt time. */
void trace_print_prefix(struct trace *tr, struct tline *l);
/* ... with several tasks as they were when the line began. */
void trace_print_prefix_as(struct trace *tr, struct tline *l, bool several);

/* --- session.c: the shared page ------------------------------------------- */
/* The lock of the shared page (open line, task count, -c counts). */
void trace_sh_lock(struct trace *tr);
void trace_sh_unlock(struct trace *tr);

/* --- call_view.c: how a call is shown ------------------------------------ */
/* Is it the row named name? */
bool trace_is_call(const struct sg_syscall_call *call, const char *name);
/* socketcall, ipc or the old select as the call it carries: view filled
 * and returned, or call itself. */
const struct sg_syscall_call *trace_call_view(const struct sg_syscall_call *call,
					      struct sg_syscall_call *view, const struct mm *mm);
/* The argument kinds of the row shown. */
const struct systab_sig *trace_sig_of(const struct sg_syscall_call *call);

/* --- syscall_line.c ------------------------------------------------------- */
/* A task is gone (after its last line): prefixes stop with the last but
 * one. */
void trace_note_task_gone(struct trace *tr);
/* {si_signo=SIGCHLD, si_code=CLD_EXITED, ...} */
void trace_print_siginfo(struct tline *l, const siginfo_t *si);

/* --- filter.c: -e trace=, -c -------------------------------------------- */
int trace_filter_init(struct trace_filter *f, const char *spec);
void trace_filter_free(struct trace_filter *f);
/* The call's entry attributes (TRACE_ENTRY_*). */
unsigned trace_entry_attrs(const struct sg_syscall_call *call);
/* -e status=: the call's line is shown (returned: false for exit's). */
bool trace_filter_status(const struct trace_filter *f, const struct sg_syscall_call *call,
			 bool returned);
bool trace_filter_wants(const struct trace_filter *f,
			const struct sg_syscall_call *call);
void trace_count_call(struct trace *tr, const struct sg_syscall_call *call,
		      uint64_t ns);
/* The first execve's count moved to the x86_64 table (its starter's). */
void trace_count_as_starter(struct trace *tr, const struct sg_syscall_call *call);
void trace_print_summary(struct trace *tr);

/* --- timeline.c, timeline_html.c: --trace-timeline ---------------------- */
uint64_t timeline_now_ns(void);
/* Open the events file (inherited: an execve'd image's, appended to). */
int timeline_open(struct trace *tr, const char *path, bool inherited);
void timeline_syscall(struct trace *tr, const struct sg_syscall_call *call,
		      const char *line, size_t len, uint64_t start_ns, uint64_t end_ns,
		      bool forked);
void timeline_task_start(struct trace *tr, uint64_t ns);
void timeline_instant(struct trace *tr, const char *cat, const char *text, size_t len);
void timeline_finish(struct trace *tr);
void timeline_close(struct trace *tr);
int timeline_write_html(const char *out_path, const char *events_path);

#endif
