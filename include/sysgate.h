/* sysgate: run x86 Linux ELF programs (i386, x32, x86_64) in an
 * interpreting CPU, passing their system calls to the host kernel.
 *
 * This header is the whole public API; the sysgate CLI uses nothing else.
 * Functions return SG_OK (0) or an enum sg_err; sg_strerror() names it.
 * One sg_process may be used by one host thread at a time.
 */
#ifndef SYSGATE_H
#define SYSGATE_H

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SG_API __attribute__((visibility("default")))

enum sg_err {
	SG_OK = 0,
	SG_ERR_NOENT,        /* program file not found */
	SG_ERR_ACCES,        /* permission denied */
	SG_ERR_ISDIR,        /* is a directory */
	SG_ERR_NOEXEC,       /* not an ELF file (or not a script) */
	SG_ERR_TRUNCATED,    /* ELF file shorter than its headers say */
	SG_ERR_BADELF,       /* malformed ELF headers or segments */
	SG_ERR_MACHINE,      /* ELF for another machine (not x86) */
	SG_ERR_CLASS,        /* unsupported class/machine/type combination */
	SG_ERR_INTERP,       /* program interpreter not found or unusable */
	SG_ERR_NOMEM,        /* out of memory, or a mapping did not fit */
	SG_ERR_RESERVE,      /* could not reserve the low 4 GiB for a 32-bit guest */
	SG_ERR_IO,           /* read error */
	SG_ERR_INVAL,        /* bad argument to the API */
	SG_ERR_STATE,        /* call not valid in this state (e.g. run before load) */
	SG_ERR_STOPPED,      /* sg_run returned because sg_stop was called */
	SG_ERR_FAULT,        /* guest address not mapped or not accessible */
	SG_ERR_FILTER,       /* unknown syscall name or %class in trace_filter */
	SG_ERR__COUNT
};

SG_API const char *sg_strerror(enum sg_err err);
SG_API const char *sg_version(void);

enum sg_abi { SG_ABI_NONE = 0, SG_ABI_I386, SG_ABI_X32, SG_ABI_X64 };
SG_API const char *sg_abi_name(enum sg_abi abi); /* "i386", "x32", "x86_64" */

/* What --trace shows (bit set). */
enum sg_trace_flags {
	SG_TRACE_SYSCALLS = 1u << 0, /* strace-format line per syscall */
	SG_TRACE_ENTRY = 1u << 1,    /* + [abi mech nr handler] annotation, vDSO calls */
	SG_TRACE_FOLLOW = 1u << 2,   /* -f: threads and children too, [pid N] prefixes */
	SG_TRACE_FDPATHS = 1u << 3,  /* -y: fd arguments with their paths, 3</etc/passwd> */
	SG_TRACE_SUMMARY = 1u << 4,  /* -c: a table of calls, errors, time at exit, no lines */
	SG_TRACE_TIME = 1u << 5,     /* -t: time of day before each line */
	SG_TRACE_TIME_US = 1u << 6,  /* -tt: the same with microseconds */
	SG_TRACE_TIME_EPOCH = 1u << 7, /* -ttt: seconds since the epoch, microseconds */
	SG_TRACE_DURATION = 1u << 8, /* -T: time spent in the call, <0.000012> */
	SG_TRACE_INSN = 1u << 9,     /* --trace=insn: each instruction, disassembled */
	SG_TRACE_BLOCKS = 1u << 10,  /* --trace=blocks: each basic block entered */
};

struct sg_options {
	const char *sysroot;     /* -L DIR: looked up first for the interpreter and absolute paths */
	unsigned trace;          /* enum sg_trace_flags */
	int trace_fd;            /* where trace lines go; -1: stderr */
	int verbose;             /* warnings (unimplemented syscalls, ...) to stderr */
	int no_aslr;             /* --no-aslr: the kernel's layout with ADDR_NO_RANDOMIZE */
	unsigned trace_strlen;   /* -s N: bytes of strings shown; 0: strace's 32 */
	const char *trace_filter; /* -e trace=SET: names, %classes, !negation; NULL: all */
	uint64_t trace_start;    /* --trace-start=ADDR: instruction trace from there; 0: start */
	uint64_t trace_count;    /* --trace-count=N: instructions/blocks shown; 0: no limit */
};

/* Defaults: no sysroot, no trace, trace_fd -1. */
SG_API void sg_options_init(struct sg_options *opts);

typedef struct sg_process sg_process;

SG_API enum sg_err sg_create(const struct sg_options *opts, sg_process **out);

/* Load an ELF program. argv[0] is what the guest sees as its name; envp
 * NULL-terminated. On failure the process stays unloaded. */
SG_API enum sg_err sg_load(sg_process *p, const char *path,
			   char *const argv[], char *const envp[]);

SG_API enum sg_abi sg_process_abi(const sg_process *p);

struct sg_exit {
	int signaled; /* 0: exited with code; 1: killed by signal */
	int code;     /* exit status (0..255) when !signaled */
	int signal;   /* the signal when signaled */
};

/* Run the loaded program until it exits (exit_group) or is killed.
 * The guest's process exit does not exit the host process. */
SG_API enum sg_err sg_run(sg_process *p, struct sg_exit *status);

SG_API void sg_destroy(sg_process *p);

/* --syscalls=ABI: every row of that ABI's syscall table as implemented,
 * missing or unsupported (with the reason), then a line of totals.
 * SG_ERR_INVAL for SG_ABI_NONE. */
SG_API enum sg_err sg_list_syscalls(enum sg_abi abi, FILE *out);

#ifdef __cplusplus
}
#endif
#endif
