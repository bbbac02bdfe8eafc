/* sysgate CLI: options -> sg_options, run the guest, mirror its exit. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sysgate.h"
#include "cli/binfmt.h"
#include "cli/gdb_listen.h"
#include "mm/mm.h"

extern char **environ;

#ifdef SG_ASAN /* mm/mm.h */
#define SG_CLI_FULL_TEARDOWN 1
#else
#define SG_CLI_FULL_TEARDOWN 0
#endif

/* Exit statuses a shell gives (bash: 127 not found, 126 cannot execute). */
enum { EXIT_USAGE = 2, EXIT_CANNOT_EXEC = 126, EXIT_NOT_FOUND = 127 };

static void usage(FILE *out)
{
	fprintf(out,
		"usage: sysgate [OPTION]... [--] PROGRAM [ARG]...\n"
		"Run an x86 Linux program (i386, x32 or x86_64) in sysgate's\n"
		"interpreter, passing its system calls to this kernel.\n"
		"\n"
		"  -L DIR                 sysroot: look up the program interpreter and\n"
		"                         absolute paths in DIR first (also SYSGATE_SYSROOT)\n"
		"      --trace[=WHAT]     trace system calls to stderr; WHAT is a comma\n"
		"                         list of syscalls (default: strace format),\n"
		"                         entry (also the path each call took: ABI,\n"
		"                         mechanism, number, handler), insn (each\n"
		"                         instruction, disassembled, with the registers\n"
		"                         it changed) or blocks (each basic block)\n"
		"  -t, -tt, -ttt          trace, with the time of day (seconds,\n"
		"                         microseconds) / seconds since the epoch before\n"
		"                         each line, as strace's\n"
		"  -T                     show the time spent in each call\n"
		"  -f                     trace threads and child processes, [pid N]\n"
		"  -ff                    with -o FILE: each task's lines in FILE.TID\n"
		"  -y                     print the paths of file descriptors\n"
		"  -s N                   show N bytes of strings (default 32)\n"
		"  -e trace=SET           trace only SET: names, /regex, ?name and %%file,\n"
		"                         %%network, %%process, %%memory, %%signal, %%desc,\n"
		"                         %%ipc, %%creds, %%clock, %%stat, %%lstat, %%fstat,\n"
		"                         %%%%stat, %%statfs, %%fstatfs, %%%%statfs, %%pure;\n"
		"                         !SET for all but SET\n"
		"  -e signal=SET          show only these signals (all, none, names)\n"
		"  -e status=SET          only calls that: successful, failed, unfinished\n"
		"  -e quiet=exit          no +++ exited/killed lines\n"
		"  -e decode-fds=path     fd paths, as -y\n"
		"  -c                     count time, calls and errors per call; print\n"
		"                         a table at exit instead of the trace\n"
		"      --trace-timeline=FILE  the calls, signals, forks and exits as\n"
		"                         Chrome trace-event JSON (Perfetto,\n"
		"                         chrome://tracing); FILE.html: a page drawing\n"
		"                         them with the -c summary\n"
		"      --trace-start=ADDR instruction trace from ADDR on\n"
		"      --trace-count=N    at most N instructions (or blocks)\n"
		"  -o FILE                write the trace to FILE instead of stderr\n"
		"      --no-aslr          no address randomisation (as setarch -R)\n"
		"      --exec=WHERE       a guest's execve: 'inplace' (default) loads the\n"
		"                         new program into this process where it can,\n"
		"                         'host' always runs sysgate again (a host\n"
		"                         execve; also SYSGATE_EXEC=host)\n"
		"      --stats            at the end of each process (and at each\n"
		"                         execve) print to stderr (the trace's output\n"
		"                         with a trace) guest instructions executed,\n"
		"                         instructions decoded, decoded-code bytes,\n"
		"                         page faults and CPU time; runs slower\n"
		"  -v, --verbose          warn about unimplemented system calls\n"
		"  -g PORT                wait for gdb on TCP PORT (0: any free port,\n"
		"                         printed) and serve the GDB remote protocol;\n"
		"                         the program stops before its first\n"
		"                         instruction (docs/gdb.md)\n"
		"      --gdb-socket PATH  the same on a Unix socket at PATH\n"
		"      --argv0 NAME       the program's argv[0] (default: PROGRAM)\n"
		"      --trace-fd N       trace to descriptor N (left open by an exec)\n"
		"      --binfmt=ACTION [i386|x32|all] [-L DIR] [--binfmt-dir DIR]\n"
		"                         register, unregister or print the kernel's\n"
		"                         binfmt_misc entries that run i386/x32 programs\n"
		"                         under sysgate (default x32; flags P and F; with\n"
		"                         -L the entry keeps the sysroot: docs/binfmt.md)\n"
		"      --exec-name NAME   the name PROGRAM was exec'd by (AT_EXECFN, comm)\n"
		"      --exec-close N     close descriptor N once PROGRAM is loaded\n"
		"                         (a guest's fexecve of a close-on-exec N)\n"
		"      --embed-fd N       the program runs for a library user: its\n"
		"                         hooks over the channel N (a guest's execve\n"
		"                         under the library: docs/api.md)\n"
		"      --syscalls=ABI     list the system calls of ABI (i386, x32,\n"
		"                         x86_64) as implemented, missing or\n"
		"                         unsupported (with the reason) and exit\n"
		"  -h, --help             show this help and exit\n"
		"  -V, --version          show the version and exit\n"
		"\n"
		"The exit status is the program's; a program killed by a signal\n"
		"kills sysgate by the same signal. 126/127: the program cannot be\n"
		"run / was not found.\n");
}

/* How many -t were given: -t, -tt and -ttt trace with timestamps, as
 * strace's (which traces anyway). */
static int bare_t_count;
/* -s or -e was given: they trace, as strace's do. */
static int strace_option_given;
/* A text trace was asked for (--trace, -t, -o, -c, -s, -e); without one,
 * --trace-timeline writes only the timeline. */
static int text_trace_asked;

/* --trace=WHAT[,WHAT...] */
static int parse_trace(const char *what, unsigned *flags)
{
	static const struct {
		const char *word;
		unsigned flags;
	} words[] = {
		{ "syscalls", SG_TRACE_SYSCALLS },
		{ "1", SG_TRACE_SYSCALLS },
		{ "entry", SG_TRACE_SYSCALLS | SG_TRACE_ENTRY },
		{ "insn", SG_TRACE_INSN },
		{ "blocks", SG_TRACE_BLOCKS },
	};
	char buf[128], *save = NULL;

	if (!what) {
		*flags |= SG_TRACE_SYSCALLS;
		return 0;
	}
	if (strlen(what) >= sizeof(buf))
		return -1;
	strcpy(buf, what);
	for (char *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		size_t i = 0;

		while (i < sizeof(words) / sizeof(words[0]) && strcmp(w, words[i].word))
			i++;
		if (i == sizeof(words) / sizeof(words[0]))
			return -1;
		*flags |= words[i].flags;
	}
	return 0;
}

/* strace's one-letter options; 1 if c is one of them. */
static int parse_strace_option(int c, const char *arg, struct sg_options *o)
{
	char *end;

	switch (c) {
	case 'f': /* -ff: each task in a file of its own (with -o) */
		o->trace |= o->trace & SG_TRACE_FOLLOW ? SG_TRACE_PER_TASK : SG_TRACE_FOLLOW;
		return 1;
	case 'W': /* --trace-timeline=FILE */
		o->trace |= SG_TRACE_TIMELINE;
		o->trace_timeline = arg;
		return 1;
	case 'P': /* --trace-ff=PREFIX: -ff -o PREFIX, passed on by an execve */
		o->trace |= SG_TRACE_FOLLOW | SG_TRACE_PER_TASK;
		o->trace_ff_prefix = arg;
		return 1;
	case 'y': o->trace |= SG_TRACE_FDPATHS; return 1;
	case 'c': o->trace |= SG_TRACE_SUMMARY | SG_TRACE_SYSCALLS; text_trace_asked = 1; return 1;
	case 'T': o->trace |= SG_TRACE_DURATION; return 1;
	case 's':
		strace_option_given = 1;
		o->trace_strlen = (unsigned)strtoul(arg, &end, 10);
		if (*end || !*arg) {
			fprintf(stderr, "sysgate: -s: not a number: '%s'\n", arg);
			exit(EXIT_USAGE);
		}
		return 1;
	case 'e': {
		/* each -e is one expression; the library takes them one per
		 * line (trace=, signal=, status=, quiet=, decode-fds=) */
		static char *filters;
		size_t had = filters ? strlen(filters) : 0;
		char *joined = realloc(filters, had + strlen(arg) + 2);

		if (!joined) {
			fprintf(stderr, "sysgate: -e: out of memory\n");
			exit(1);
		}
		filters = joined;
		sprintf(filters + had, "%s%s", had ? "\n" : "", arg);
		strace_option_given = 1;
		o->trace_filter = filters;
		return 1;
	}
	case 'H': /* --trace-shared=FD: inherited across a guest's execve */
		o->trace_shared_fd = atoi(arg);
		return 1;
	case 'A': /* --trace-start */
	case 'N': /* --trace-count */
		errno = 0;
		(c == 'A' ? &o->trace_start : &o->trace_count)[0] = strtoull(arg, &end, 0);
		if (*end || !*arg || errno) {
			fprintf(stderr, "sysgate: not a number: '%s'\n", arg);
			exit(EXIT_USAGE);
		}
		return 1;
	}
	return 0;
}

/* After the options: what the strace options imply. */
static void finish_trace_options(struct sg_options *o)
{
	if (bare_t_count == 1)
		o->trace |= SG_TRACE_TIME;
	else if (bare_t_count == 2)
		o->trace |= SG_TRACE_TIME_US;
	else if (bare_t_count >= 3)
		o->trace |= SG_TRACE_TIME_EPOCH;
	/* a trace fd alone (an execve's) traces, unless only the timeline
	 * was traced before the exec */
	if (o->trace_fd >= 0 && !o->trace)
		o->trace = SG_TRACE_SYSCALLS;
	if ((o->trace || strace_option_given) &&
	    !(o->trace & (SG_TRACE_SYSCALLS | SG_TRACE_INSN | SG_TRACE_BLOCKS)) &&
	    (!(o->trace & SG_TRACE_TIMELINE) || text_trace_asked || strace_option_given))
		o->trace |= SG_TRACE_SYSCALLS;
}

/* --exec=WHERE, SYSGATE_EXEC: where a guest's execve runs the new
 * program (docs/syscalls.md, execve). */
static int parse_exec(const char *where, struct sg_options *o)
{
	if (!strcmp(where, "host") || !strcmp(where, "inplace")) {
		o->exec_host = !strcmp(where, "host");
		return 0;
	}
	fprintf(stderr, "sysgate: --exec: '%s' is neither 'inplace' nor 'host'\n", where);
	return -1;
}

/* --syscalls=ABI */
static int list_syscalls(const char *name)
{
	static const enum sg_abi abis[] = { SG_ABI_I386, SG_ABI_X32, SG_ABI_X64 };

	for (unsigned i = 0; i < sizeof(abis) / sizeof(abis[0]); i++)
		if (!strcmp(name, sg_abi_name(abis[i])))
			return sg_list_syscalls(abis[i], stdout) == SG_OK ? 0 : 1;
	fprintf(stderr, "sysgate: unknown ABI '%s' (i386, x32, x86_64)\n", name);
	return EXIT_USAGE;
}

/* Die the way the guest died, so our parent sees the same wait status. */
static void die_by_signal(int signo)
{
	struct rlimit no_core = { 0, 0 };
	sigset_t set;

	setrlimit(RLIMIT_CORE, &no_core); /* the guest's core, not ours */
	signal(signo, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, signo);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(signo);
	_exit(128 + signo); /* only if the signal's default is to ignore */
}

/* A program named without a '/' is looked up in PATH, as strace and a
 * shell do (execvp's default PATH when it is unset), in the sysroot first
 * where there is one; its argv[0] stays as given. The name itself when
 * nothing is found (the load then says what is wrong). */
static const char *find_in_path(const char *name, const char *sysroot)
{
	static char found[PATH_MAX];
	const char *dirs = getenv("PATH");
	char host[PATH_MAX * 2 + 2];

	if (!*name || strchr(name, '/'))
		return name;
	if (!dirs)
		dirs = "/usr/local/bin:/bin:/usr/bin";
	for (const char *d = dirs; *d;) {
		size_t n = strcspn(d, ":");
		struct stat st;

		const char *file = found;

		snprintf(found, sizeof(found), "%.*s/%s", (int)n, n ? d : ".", name);
		snprintf(host, sizeof(host), "%s%s", sysroot ? sysroot : "", found);
		if (sysroot && found[0] == '/' && stat(host, &st) == 0)
			file = host;
		if (stat(file, &st) == 0 && S_ISREG(st.st_mode) && access(file, X_OK) == 0)
			return found;
		d += n + (d[n] == ':');
	}
	return name;
}

/* sysgate must sit above 4 GiB: the low 4 GiB are the 32-bit guests' and
 * where static x86_64 programs are linked. The kernel puts a PIE there;
 * valgrind loads a static PIE (SG_STATIC_PIE, the default) at 0x108000. */
static void warn_if_loaded_low(void)
{
	if ((uintptr_t)&warn_if_loaded_low < (1ull << 32))
		fprintf(stderr, "sysgate: warning: loaded below 4 GiB, where guests "
			"go (valgrind? configure with -DSG_STATIC_PIE=OFF)\n");
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "trace", optional_argument, NULL, 'Y' },
		{ "trace-start", required_argument, NULL, 'A' },
		{ "trace-count", required_argument, NULL, 'N' },
		{ "trace-shared", required_argument, NULL, 'H' },
		{ "trace-ff", required_argument, NULL, 'P' },
		{ "trace-timeline", required_argument, NULL, 'W' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "no-aslr", no_argument, NULL, 'R' },
		{ "stats", no_argument, NULL, 'Z' },
		{ "exec", required_argument, NULL, 'X' },
		{ "syscalls", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "argv0", required_argument, NULL, '0' },
		{ "trace-fd", required_argument, NULL, 'F' },
		{ "tsc-sigsegv", no_argument, NULL, 'D' },
		{ "binfmt", required_argument, NULL, 'B' },
		{ "binfmt-dir", required_argument, NULL, 'b' },
		{ "exec-close", required_argument, NULL, 'C' },
		{ "exec-name", required_argument, NULL, 'E' },
		{ "gdb", required_argument, NULL, 'g' },
		{ "gdb-socket", required_argument, NULL, 'K' },
		{ "gdb-fd", required_argument, NULL, 'J' },
		{ "embed-fd", required_argument, NULL, 'M' },
		{ 0 }
	};
	struct sg_options opts;
	const char *trace_path = NULL;
	const char *argv0 = NULL;
	const char *binfmt_action = NULL, *binfmt_dir = BINFMT_DEFAULT_DIR;
	const char *binfmt_root = NULL;
	int trace_inherited = 0;
	int exec_close = -1;
	const char *gdb_port = NULL, *gdb_socket = NULL;
	int gdb_fd = -1;
	unsigned gdb_flags = 0;
	struct sg_exit status;
	sg_process *proc;
	enum sg_err err;
	int c;

	sg_options_init(&opts);
	opts.mode = SG_MODE_IN_PROCESS; /* this process is the guest's own */
	opts.guest_identity = 1; /* ps, pgrep, killall find the guest */
	opts.sysroot = getenv("SYSGATE_SYSROOT");
	if (getenv("SYSGATE_EXEC") && parse_exec(getenv("SYSGATE_EXEC"), &opts) < 0)
		return EXIT_USAGE;
	/* run by the kernel through a binfmt_misc entry: no options of ours */
	if (binfmt_invocation(&argc, &argv, &argv0, &binfmt_root)) {
		if (binfmt_root)
			opts.sysroot = binfmt_root;
		optind = 1;
		goto run;
	}
	/* '+': options end at the program name; its own options are its own. */
	while ((c = getopt_long(argc, argv, "+L:to:vhVfycTs:e:p:g:", longopts, NULL)) != -1) {
		switch (c) {
		case 'L':
			opts.sysroot = optarg;
			break;
		case 't': /* strace's -t: trace, with the time of day */
			bare_t_count++;
			text_trace_asked = 1;
			opts.trace |= SG_TRACE_SYSCALLS;
			break;
		case 'Y':
			text_trace_asked = 1;
			if (parse_trace(optarg, &opts.trace) < 0) {
				fprintf(stderr, "sysgate: unknown trace kind '%s' "
					"(syscalls, entry, insn, blocks)\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'o':
			trace_path = optarg;
			text_trace_asked = 1;
			break;
		case 'v':
			opts.verbose++;
			break;
		case 'R':
			opts.no_aslr = 1;
			break;
		case 'Z':
			opts.stats = 1;
			break;
		case 'X':
			if (parse_exec(optarg, &opts) < 0)
				return EXIT_USAGE;
			break;
		case 'S':
			return list_syscalls(optarg);
		case '0': /* the guest's argv[0] (a guest's execve re-enters us) */
			argv0 = optarg;
			break;
		case 'B':
			binfmt_action = optarg;
			break;
		case 'g':
			gdb_port = optarg;
			break;
		case 'K':
			gdb_socket = optarg;
			break;
		case 'J': /* --gdb-fd=N[,noack][,multiprocess][,fork][,vfork]
			   * [,threadevents]: a guest's execve under gdb hands
			   * the connection on */
			gdb_fd = atoi(optarg);
			gdb_flags = SG_GDB_AFTER_EXEC |
				    (strstr(optarg, ",noack") ? SG_GDB_NO_ACK : 0) |
				    (strstr(optarg, ",multiprocess") ? SG_GDB_MULTIPROCESS : 0) |
				    (strstr(optarg, ",fork") ? SG_GDB_FORK_EVENTS : 0) |
				    (strstr(optarg, ",vfork") ? SG_GDB_VFORK_EVENTS : 0) |
				    (strstr(optarg, ",threadevents") ? SG_GDB_THREAD_EVENTS : 0);
			break;
		case 'b':
			binfmt_dir = optarg;
			break;
		case 'M': /* --embed-fd=N: a guest's execve under an embedder
			   * (docs/api.md): its hooks hold on over this channel */
			opts.embed_fd = atoi(optarg);
			break;
		case 'D': /* the guest disabled RDTSC (PR_SET_TSC) before execve */
			opts.tsc_disabled = 1;
			break;
		case 'E': /* the name the guest's exec gave (/proc/self/exe) */
			opts.exec_name = optarg;
			break;
		case 'C': /* the guest's close-on-exec fd that named the program
			   * (a guest fexecve): closed once loaded */
			exec_close = atoi(optarg);
			break;
		case 'F': /* trace to this inherited descriptor (execve); the
			   * options after it say what (finish_trace_options) */
			opts.trace_fd = atoi(optarg);
			trace_inherited = 1;
			break;
		case 'p':
			fprintf(stderr, "sysgate: -p: attaching to a running process is not "
				"possible: sysgate traces the programs it runs itself\n");
			return EXIT_USAGE;
		case 'f': case 'y': case 'c': case 'T': case 's': case 'e':
		case 'A': case 'N': case 'H': case 'P': case 'W':
			parse_strace_option(c, optarg, &opts);
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("sysgate %s\n", sg_version());
			return 0;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (binfmt_action) {
		/* --binfmt=ACTION [WHICH] [-L DIR] [--binfmt-dir DIR], in any order */
		const char *which = NULL, *root = NULL;

		for (int k = optind; k < argc; k++) {
			if (!strcmp(argv[k], "-L") && k + 1 < argc)
				root = argv[++k];
			else if (!strcmp(argv[k], "--binfmt-dir") && k + 1 < argc)
				binfmt_dir = argv[++k];
			else if (!which)
				which = argv[k];
			else {
				fprintf(stderr, "sysgate: --binfmt: unexpected '%s'\n", argv[k]);
				return EXIT_USAGE;
			}
		}
		if (!root && opts.sysroot && opts.sysroot != getenv("SYSGATE_SYSROOT"))
			root = opts.sysroot; /* -L before --binfmt */
		return binfmt_command(binfmt_action, which, root, binfmt_dir);
	}
	finish_trace_options(&opts);
	if (opts.trace_filter) {
		char why[200];

		if (sg_trace_filter_check(opts.trace_filter, why, sizeof(why)) < 0) {
			fprintf(stderr, "sysgate: %s\n", why); /* strace's words */
			return 1;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "sysgate: no program given\n");
		usage(stderr);
		return EXIT_USAGE;
	}
	if (trace_path && (opts.trace & SG_TRACE_PER_TASK)) {
		/* -ff -o FILE: FILE.TID per task, opened by the trace */
		opts.trace_ff_prefix = trace_path;
	} else if (trace_path) {
		opts.trace_fd = open(trace_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
		if (opts.trace_fd < 0) {
			fprintf(stderr, "sysgate: %s: %s\n", trace_path, strerror(errno));
			return 1;
		}
		if (!opts.trace)
			opts.trace = SG_TRACE_SYSCALLS;
	}

	/* strace's first line: the execve that starts the program, unless the
	 * trace goes on from a guest's execve, which traced it already */
	opts.trace_initial_exec = !trace_inherited;
run:
	warn_if_loaded_low();
	err = sg_create(&opts, &proc);
	if (err != SG_OK) {
		fprintf(stderr, "sysgate: %s\n", sg_strerror(err));
		return 1;
	}
	if (opts.trace_fd >= 0)
		close(opts.trace_fd); /* the library keeps its own copy */

	const char *path = find_in_path(argv[optind], opts.sysroot);
	if (argv0)
		argv[optind] = (char *)argv0;
	err = sg_load(proc, path, &argv[optind], environ);
	if (exec_close >= 0)
		close(exec_close);
	if (err != SG_OK) {
		fprintf(stderr, "sysgate: %s: %s\n", path, sg_strerror(err));
		sg_destroy(proc);
		if (err == SG_ERR_SEGMENTS) {
			/* the kernel fails these after the point of no return
			 * and kills the new program with SIGSEGV */
			signal(SIGSEGV, SIG_DFL);
			raise(SIGSEGV);
		}
		return err == SG_ERR_NOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_EXEC;
	}
	if (gdb_port || gdb_socket || gdb_fd >= 0) {
		int fd = gdb_fd >= 0 ? gdb_fd : gdb_wait_connection(gdb_port, gdb_socket);

		if (fd < 0 || (err = sg_gdb_attach(proc, fd, gdb_flags)) != SG_OK) {
			if (fd >= 0)
				fprintf(stderr, "sysgate: gdb: %s\n", sg_strerror(err));
			return 1;
		}
		close(fd); /* the library has its own copy */
	}
	pid_t started_pid = getpid();
	err = sg_run(proc, &status);
	/* The host process ends here and its exit unmaps everything at once;
	 * tearing the guest down first (a munmap per mapping, every decoded
	 * page freed) is only time spent at the end of every run, every
	 * guest execve's child included. sg_destroy still runs when there
	 * is a trace to flush and close (its -c table), and in sanitizer
	 * builds, where LeakSanitizer checks the teardown: in the process
	 * this run started (a host execve's included), not in the host fork
	 * a guest fork made of it, which returns here too. Its teardown and
	 * LeakSanitizer's scan cost ~70 ms a child (the sanitizer suite
	 * forks thousands); what it allocated before the fork is scanned in
	 * the parent. SYSGATE_CHECK_FORK_LEAKS=1 checks the children too
	 * (docs/testing.md, "Leaks in fork children"). */
	int fork_child_unchecked = SG_CLI_FULL_TEARDOWN && getpid() != started_pid &&
				   !getenv("SYSGATE_CHECK_FORK_LEAKS");
	if (opts.trace || (SG_CLI_FULL_TEARDOWN && !fork_child_unchecked))
		sg_destroy(proc);
	if (err != SG_OK) {
		fprintf(stderr, "sysgate: %s: %s\n", path, sg_strerror(err));
		return 1;
	}
	fflush(stdout);
	if (status.signaled)
		die_by_signal(status.signal);
	if (fork_child_unchecked) {
		fflush(NULL);
		_exit(status.code); /* no atexit: no LeakSanitizer scan */
	}
	return status.code;
}
