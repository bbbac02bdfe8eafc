/* sysgate: run x86 Linux ELF programs (i386, x32, x86_64) in an
 * interpreting CPU, passing their system calls to the host kernel.
 *
 * This header is the whole public API; the sysgate CLI uses nothing else.
 * Functions return SG_OK (0) or an enum sg_err; sg_strerror() names it.
 * docs/api.md has the whole story, with examples.
 *
 * By default (SG_MODE_OWN_PROCESS) each guest runs in a process of its own
 * that sg_load starts; the calls below act on it from yours, and hooks run
 * in yours, on the thread in sg_run, one at a time. SG_MODE_IN_PROCESS
 * runs it inside your process (docs/api.md: what that costs).
 *
 * Thread safety: one sg_process may be used by one host thread at a time
 * (sg_stop excepted: any thread, or a signal handler). Different
 * sg_process objects may be used from different threads. In-process,
 * hooks run on the host thread of the guest thread that triggered them,
 * so a multithreaded guest can run a hook on several threads at once.
 * Inside a hook, sg_reg_* and sg_mem_* act on the guest thread whose
 * event it is.
 */
#ifndef SYSGATE_H
#define SYSGATE_H

#include <stddef.h>
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
	SG_ERR_SEGMENTS,     /* PT_LOAD segments that cannot be mapped (the kernel
			      * finds it after the point of no return: SIGSEGV) */
	SG_ERR_REACHED,      /* sg_run_until returned at its address */
	SG_ERR_BUDGET,       /* sg_run_until returned: its instruction budget is spent */
	SG_ERR_EXIST,        /* sg_mem_map: the range is mapped already */
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
	SG_TRACE_PER_TASK = 1u << 11, /* -ff: each task's lines in trace_ff_prefix.TID */
	SG_TRACE_TIMELINE = 1u << 12, /* trace_timeline: Chrome trace-event JSON / HTML */
};

/* Where the guest runs (docs/api.md, A guest in a process of its own). */
enum sg_mode {
	SG_MODE_OWN_PROCESS = 0, /* the default: sg_load starts a process of its
				  * own for the guest (a fork of yours); hooks
				  * still run here, on the thread in sg_run */
	SG_MODE_IN_PROCESS = 1,  /* the guest runs inside your process: the
				  * lowest hook latency, no isolation */
};

struct sg_options {
	const char *sysroot;     /* -L DIR: looked up first for the interpreter and absolute paths */
	unsigned trace;          /* enum sg_trace_flags */
	int trace_fd;            /* where trace lines go; -1: stderr */
	int verbose;             /* warnings (unimplemented syscalls, ...) to stderr */
	int no_aslr;             /* --no-aslr: the kernel's layout with ADDR_NO_RANDOMIZE */
	unsigned trace_strlen;   /* -s N: bytes of strings shown (sg_options_init: strace's 32) */
	const char *trace_filter; /* strace's -e expressions, one per line: trace=SET
				   * (names, %classes, /regex, ?name, !negation),
				   * signal=, status=, quiet=, decode-fds=; NULL: all */
	uint64_t trace_start;    /* --trace-start=ADDR: instruction trace from there; 0: start */
	uint64_t trace_count;    /* --trace-count=N: instructions/blocks shown; 0: no limit */
	int trace_shared_fd;     /* internal (--trace-shared): the -f state an exec'd
				  * sysgate inherits; 0: none */
	const char *trace_ff_prefix; /* -ff -o FILE: FILE, the prefix of each task's
				      * file (FILE.TID); NULL: one trace fd */
	const char *trace_timeline; /* --trace-timeline=FILE: the calls as Chrome
				     * trace events (FILE.html: a page drawing
				     * them); with SG_TRACE_TIMELINE */
	int trace_initial_exec;  /* trace the execve that started the program first, as
				  * strace's first line (the CLI: unless the trace
				  * goes on from a guest's execve, --trace-fd) */
	int tsc_disabled;        /* internal (--tsc-sigsegv): the guest's
				  * PR_SET_TSC(PR_TSC_SIGSEGV) kept across its execve */
	const char *exec_name;   /* internal (--exec-name): the name exec was given
				  * when the file was found by another
				  * (/proc/self/exe): AT_EXECFN and comm; NULL: the path */
	int guest_identity;      /* the host process takes the guest's name, argv and
				  * environment as others see them (/proc/PID/comm,
				  * cmdline, environ); the CLI sets it */
	enum sg_mode mode;       /* sg_options_init: SG_MODE_OWN_PROCESS */
	int stdin_fd, stdout_fd, stderr_fd; /* SG_MODE_OWN_PROCESS: the guest's
				  * descriptors 0, 1, 2 (copies of these);
				  * -1 (sg_options_init): your own 0, 1, 2 */
	int embed_fd;            /* internal (--embed-fd): the channel to the
				  * embedder a guest's execve hands on; 0: none */
	int stats;               /* --stats: a line of counts at the end of each
				  * guest process image (exit, execve) to the
				  * trace's output or stderr: guest instructions,
				  * instructions decoded, decoded-code bytes, page
				  * faults, CPU time (docs/performance.md); the
				  * guest runs slower, instruction by instruction */
	int exec_host;           /* --exec=host (SYSGATE_EXEC=host): a guest's execve
				  * runs the sysgate command again (a host execve)
				  * even where the new program could be loaded in
				  * place, in this process (docs/syscalls.md, execve) */
};

/* Defaults: no sysroot, no trace, trace_fd -1. */
SG_API void sg_options_init(struct sg_options *opts);

typedef struct sg_process sg_process;

SG_API enum sg_err sg_create(const struct sg_options *opts, sg_process **out);

/* Load an ELF program. argv[0] is what the guest sees as its name; envp
 * NULL-terminated. On failure the process stays unloaded. In
 * SG_MODE_OWN_PROCESS this starts the guest's process (a fork of yours,
 * which runs only the library's code). */
SG_API enum sg_err sg_load(sg_process *p, const char *path,
			   char *const argv[], char *const envp[]);

/* sg_load from memory: the ELF image (or #! script) in image[0..size),
 * written to a memfd that the program is loaded from, as fexecve of a
 * memfd: /proc/self/exe reads "/memfd:NAME (deleted)", NAME argv[0]'s
 * last component, and AT_EXECFN is "/dev/fd/N". */
SG_API enum sg_err sg_load_memory(sg_process *p, const void *image, size_t size,
				  char *const argv[], char *const envp[]);

SG_API enum sg_abi sg_process_abi(const sg_process *p);

struct sg_exit {
	int signaled; /* 0: exited with code; 1: killed by signal */
	int code;     /* exit status (0..255) when !signaled */
	int signal;   /* the signal when signaled */
};

/* Run the loaded program until it exits (exit_group) or is killed.
 * The guest's process exit does not exit the host process. Once it has
 * exited, SG_ERR_STATE (status: the exit again). */
SG_API enum sg_err sg_run(sg_process *p, struct sg_exit *status);

SG_API void sg_destroy(sg_process *p);

/* --- embedding: control, registers, memory --------------------------- */

/* Ask a running sg_run to return SG_ERR_STOPPED at the next instruction
 * boundary (of the main guest thread). Safe from any thread and from a
 * signal handler. sg_run may be called again to continue. */
SG_API void sg_stop(sg_process *p);

/* Run one instruction of the main guest thread (a system call instruction
 * includes the call). SG_OK, or SG_ERR_STATE when the program has exited;
 * status (may be NULL) is filled once it has. */
SG_API enum sg_err sg_step(sg_process *p, struct sg_exit *status);

/* Run until the main guest thread is about to run the instruction at
 * until (0: no address), or has run budget instructions (0: no limit),
 * counted from this call (a system call instruction is one, its call
 * included). Returns SG_ERR_REACHED (rip == until, that instruction not
 * run), SG_ERR_BUDGET, or as sg_run: SG_OK when the program exited,
 * SG_ERR_STOPPED after sg_stop. A run that starts at until runs that
 * instruction first, so calling it again goes round a loop once more.
 * Other guest threads are neither counted nor stopped. */
SG_API enum sg_err sg_run_until(sg_process *p, uint64_t until, uint64_t budget,
				struct sg_exit *status);

/* Guest registers. The 16 general registers in encoding order, then the
 * instruction pointer and flags. For 32-bit guests the high halves read 0
 * and are ignored on write. */
enum sg_reg {
	SG_REG_RAX, SG_REG_RCX, SG_REG_RDX, SG_REG_RBX,
	SG_REG_RSP, SG_REG_RBP, SG_REG_RSI, SG_REG_RDI,
	SG_REG_R8, SG_REG_R9, SG_REG_R10, SG_REG_R11,
	SG_REG_R12, SG_REG_R13, SG_REG_R14, SG_REG_R15,
	SG_REG_RIP, SG_REG_RFLAGS, SG_REG_FS_BASE, SG_REG_GS_BASE,
	/* segment selectors: read only (SG_ERR_INVAL on write; a selector
	 * means a descriptor table entry, the bases are FS_BASE/GS_BASE) */
	SG_REG_ES, SG_REG_CS, SG_REG_SS, SG_REG_DS, SG_REG_FS, SG_REG_GS,
	/* SSE control/status, x87 control word, status word (TOP in bits
	 * 11-13, as FNSTSW stores it), tag word (2 bits per physical
	 * register, as FNSTENV stores it) */
	SG_REG_MXCSR, SG_REG_FCW, SG_REG_FSW, SG_REG_FTW,
	/* wide registers: sg_reg_read_bytes/sg_reg_write_bytes only.
	 * ST0..ST7 in stack order (ST0 is the top), 10 bytes each in the
	 * x87 80-bit format; XMM0..XMM15, 16 bytes each (i386: XMM0..7) */
	SG_REG_ST0, SG_REG_ST1, SG_REG_ST2, SG_REG_ST3,
	SG_REG_ST4, SG_REG_ST5, SG_REG_ST6, SG_REG_ST7,
	SG_REG_XMM0, SG_REG_XMM1, SG_REG_XMM2, SG_REG_XMM3,
	SG_REG_XMM4, SG_REG_XMM5, SG_REG_XMM6, SG_REG_XMM7,
	SG_REG_XMM8, SG_REG_XMM9, SG_REG_XMM10, SG_REG_XMM11,
	SG_REG_XMM12, SG_REG_XMM13, SG_REG_XMM14, SG_REG_XMM15,
	/* YMM0..YMM15, 32 bytes each: XMMn is the low half (i386: YMM0..7) */
	SG_REG_YMM0, SG_REG_YMM1, SG_REG_YMM2, SG_REG_YMM3,
	SG_REG_YMM4, SG_REG_YMM5, SG_REG_YMM6, SG_REG_YMM7,
	SG_REG_YMM8, SG_REG_YMM9, SG_REG_YMM10, SG_REG_YMM11,
	SG_REG_YMM12, SG_REG_YMM13, SG_REG_YMM14, SG_REG_YMM15,
	SG_REG__COUNT
};
/* SG_ERR_STATE before sg_load, SG_ERR_INVAL for a bad reg. Inside a hook:
 * the registers of the hooked thread (during a syscall hook, RAX still
 * holds the number and RIP points after the instruction). */
SG_API enum sg_err sg_reg_read(sg_process *p, enum sg_reg reg, uint64_t *value);
SG_API enum sg_err sg_reg_write(sg_process *p, enum sg_reg reg, uint64_t value);
/* Any register as its bytes, little-endian: size must be its size (10 for
 * ST0..7, 16 for XMM0..15, 32 for YMM0..15, 8 for the others, which sg_reg_read gives
 * too), else SG_ERR_INVAL. sg_reg_read/sg_reg_write on a wide register:
 * SG_ERR_INVAL. */
SG_API size_t sg_reg_size(enum sg_reg reg); /* 0 for a bad reg */
SG_API enum sg_err sg_reg_read_bytes(sg_process *p, enum sg_reg reg, void *buf,
				     size_t size);
SG_API enum sg_err sg_reg_write_bytes(sg_process *p, enum sg_reg reg,
				      const void *buf, size_t size);

/* Guest memory (guest addresses are host addresses, DESIGN.md). The whole
 * range must be mapped and readable: else SG_ERR_FAULT and nothing is
 * copied. sg_mem_write writes read-only pages too (as a debugger's poke
 * does; do it while the program is stopped or from a hook), and code
 * written is seen by the next instruction. */
SG_API enum sg_err sg_mem_read(sg_process *p, uint64_t addr, void *buf, size_t n);
SG_API enum sg_err sg_mem_write(sg_process *p, uint64_t addr, const void *buf,
				size_t n);
/* A NUL-terminated guest string into buf (at most size bytes with the NUL):
 * SG_ERR_FAULT if unreadable, SG_ERR_INVAL if it does not fit. */
SG_API enum sg_err sg_mem_read_string(sg_process *p, uint64_t addr, char *buf,
				      size_t size);

/* The guest's address space as its /proc/self/maps shows it: one region
 * per line, in address order. prot: PROT_READ | PROT_WRITE | PROT_EXEC
 * (<sys/mman.h>); name: the path, "[stack]", "[heap]", "[vdso]", or "". */
struct sg_region {
	uint64_t start, end; /* [start, end), page aligned */
	int prot;
	int shared;          /* MAP_SHARED ('s' in maps) */
	char name[256];      /* truncated if longer */
};
/* Fills out[0..max) and sets *count to the number of regions (which may
 * be more than max: call again with a bigger array). */
SG_API enum sg_err sg_mem_regions(sg_process *p, struct sg_region *out,
				  size_t max, size_t *count);
/* Map anonymous zeroed memory for the guest (as its mmap would): *addr 0
 * lets the library choose and returns the address there; otherwise
 * exactly there (page aligned, SG_ERR_EXIST if any of it is mapped,
 * SG_ERR_NOMEM if it is not the guest's to take). size is rounded up to
 * pages. prot: PROT_READ | PROT_WRITE | PROT_EXEC. */
SG_API enum sg_err sg_mem_map(sg_process *p, uint64_t *addr, uint64_t size,
			      int prot);
/* munmap / mprotect of guest memory, as the guest's own calls (a range
 * with nothing mapped is fine for unmap; protect needs it all mapped:
 * SG_ERR_NOMEM). Decoded code there is dropped. SG_ERR_INVAL for an
 * unaligned addr. */
SG_API enum sg_err sg_mem_unmap(sg_process *p, uint64_t addr, uint64_t size);
SG_API enum sg_err sg_mem_protect(sg_process *p, uint64_t addr, uint64_t size,
				  int prot);

/* --- debugging: the GDB remote stub (docs/gdb.md) --------------------- */

/* Serve the GDB remote protocol on fd, a connected stream socket (the
 * library keeps its own copy: close yours). Call after sg_load and before
 * sg_run: the program then stops before its first instruction until gdb
 * resumes it (in SG_MODE_OWN_PROCESS the stub serves it in the guest's
 * process). SG_ERR_STATE if a debugger is attached already. flags: 0
 * for a new connection; a guest's execve hands the connection on to the
 * new image (sysgate --gdb-fd) with the protocol state gdb negotiated
 * and SG_GDB_AFTER_EXEC, which reports the stop as the exec. */
enum sg_gdb_flags {
	SG_GDB_AFTER_EXEC = 1,    /* the first stop is an exec event */
	SG_GDB_NO_ACK = 2,        /* gdb asked for QStartNoAckMode */
	SG_GDB_MULTIPROCESS = 4,  /* gdb asked for multiprocess thread ids */
	SG_GDB_FORK_EVENTS = 8,   /* gdb takes fork stops */
	SG_GDB_VFORK_EVENTS = 16, /* gdb takes vfork stops */
	SG_GDB_THREAD_EVENTS = 32, /* gdb asked for thread create stops */
};
SG_API enum sg_err sg_gdb_attach(sg_process *p, int fd, unsigned flags);

/* --- embedding: hooks ---------------------------------------------------- */

/* One system call as the hooks see it. */
struct sg_syscall_info {
	enum sg_abi abi;      /* the table the call went through (per call) */
	const char *name;     /* "openat"; NULL for a number with no table row */
	unsigned nr;          /* number in that table (x32: without 0x40000000) */
	int tid;              /* the guest thread (its host thread id) */
	uint64_t args[6];     /* entry hook: may change them; the call sees the change */
	long result;          /* value or -errno: set it with SG_HOOK_SKIP on entry,
			       * or change it on exit */
};

enum sg_hook_action {
	SG_HOOK_CONTINUE = 0, /* go on as usual */
	SG_HOOK_SKIP = 1,     /* entry: do not make the call, answer info->result;
			       * signal: discard the signal */
	SG_HOOK_KILL = 2,     /* syscall hooks: the guest process dies of SIGSYS
			       * at once, as seccomp's SECCOMP_RET_KILL_PROCESS
			       * (on entry the call is not made; sg_exit:
			       * signaled, SIGSYS) */
};

typedef enum sg_hook_action (*sg_syscall_hook)(sg_process *p,
					       struct sg_syscall_info *info,
					       void *user);
/* addr: the instruction about to run (or the first of a basic block). */
typedef void (*sg_code_hook)(sg_process *p, uint64_t addr, void *user);
/* A signal is about to be delivered to guest thread tid. */
typedef enum sg_hook_action (*sg_signal_hook)(sg_process *p, int tid, int signo,
					      void *user);

/* One hook of each of these kinds per process (sg_hook_syscall_nrs and
 * sg_hook_code_range below add many); fn NULL removes it. Register before
 * sg_run (or while stopped). SG_ERR_NOMEM, SG_ERR_INVAL for p NULL.
 * Instruction and block hooks make the run step one instruction at a time
 * (several times slower); without them the interpreter runs at full speed. */
SG_API enum sg_err sg_hook_syscall_entry(sg_process *p, sg_syscall_hook fn, void *user);
SG_API enum sg_err sg_hook_syscall_exit(sg_process *p, sg_syscall_hook fn, void *user);
SG_API enum sg_err sg_hook_insn(sg_process *p, sg_code_hook fn, void *user);
SG_API enum sg_err sg_hook_block(sg_process *p, sg_code_hook fn, void *user);
SG_API enum sg_err sg_hook_signal(sg_process *p, sg_signal_hook fn, void *user);

/* A syscall hook for some numbers of one ABI's table only (the numbers in
 * sg_syscall_info.nr: <asm/unistd_32.h>, <asm/unistd_x32.h> without
 * __X32_SYSCALL_BIT, <asm/unistd_64.h>), on entry, exit or both (when).
 * Any number of them; each gets an id (*id, may be NULL) for
 * sg_hook_remove. For a call, the hooks for its number run first, in the
 * order registered, then the sg_hook_syscall_entry/exit one; the first
 * SKIP or KILL on entry ends the round. SG_ERR_INVAL: abi not one of the
 * three, a number >= SG_HOOK_NR_MAX, when 0, fn NULL. */
#define SG_HOOK_NR_MAX 1024
enum sg_hook_when { SG_HOOK_ON_ENTRY = 1, SG_HOOK_ON_EXIT = 2 };
SG_API enum sg_err sg_hook_syscall_nrs(sg_process *p, enum sg_abi abi,
				       const unsigned *nrs, size_t count,
				       unsigned when, sg_syscall_hook fn,
				       void *user, unsigned *id);
/* Process and thread events, on the guest thread that causes them (which
 * for FORK and CLONE is the parent, after the call succeeded). */
enum sg_event {
	SG_EVENT_CLONE = 1,  /* a new thread (clone with CLONE_THREAD): id its tid */
	SG_EVENT_FORK,       /* a new process (fork, vfork, clone without
			      * CLONE_THREAD, clone3): id its pid */
	SG_EVENT_EXEC,       /* execve/execveat is about to be made: path (NULL
			      * for execveat of a descriptor); it may fail */
	SG_EVENT_EXIT,       /* a thread ends (exit): value its status */
	SG_EVENT_EXIT_GROUP, /* the process ends (exit_group): value its status */
};
struct sg_event_info {
	enum sg_event event;
	int tid;             /* the guest thread it happened on */
	long id;             /* CLONE, FORK: the new thread's or process's id */
	int value;           /* EXIT, EXIT_GROUP: the status (0..255) */
	const char *path;    /* EXEC: the program, as the guest named it */
};
typedef void (*sg_event_hook)(sg_process *p, const struct sg_event_info *ev,
			      void *user);
/* One per process; fn NULL removes it. Events come from the syscalls
 * above, so a hook on them that SKIPs or KILLs one has no event. */
SG_API enum sg_err sg_hook_event(sg_process *p, sg_event_hook fn, void *user);

/* An instruction hook for [begin, end) only: fn before each instruction
 * whose address is in the range, on any guest thread. Any number of them,
 * ids as sg_hook_syscall_nrs's. While one is set the run steps one
 * instruction at a time (as with sg_hook_insn). SG_ERR_INVAL for an
 * empty range or fn NULL. */
SG_API enum sg_err sg_hook_code_range(sg_process *p, uint64_t begin, uint64_t end,
				      sg_code_hook fn, void *user, unsigned *id);

/* Remove a hook sg_hook_syscall_nrs or sg_hook_code_range added (while
 * the guest is stopped or not yet running). SG_ERR_INVAL for an unknown
 * id. */
SG_API enum sg_err sg_hook_remove(sg_process *p, unsigned id);

/* --syscalls=ABI: every row of that ABI's syscall table as implemented,
 * missing or unsupported (with the reason), then a line of totals.
 * SG_ERR_INVAL for SG_ABI_NONE. */
SG_API enum sg_err sg_list_syscalls(enum sg_abi abi, FILE *out);

/* Check a trace filter (sg_options.trace_filter): 0, or -1 with the reason
 * in why, as strace words it ("invalid system call 'foo'", "invalid
 * signal 'SIGFOO'", "invalid status 'x'"). */
SG_API int sg_trace_filter_check(const char *spec, char *why, size_t size);

#ifdef __cplusplus
}
#endif
#endif
