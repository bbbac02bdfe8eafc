/* sysgate CLI: options -> sg_options, run the guest, mirror its exit. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include "sysgate.h"

extern char **environ;

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
		"  -t, --trace[=WHAT]     trace system calls to stderr; WHAT is\n"
		"                         syscalls (default: strace format) or entry\n"
		"                         (also the path each call took: ABI, mechanism,\n"
		"                         number, handler)\n"
		"  -o FILE                write the trace to FILE instead of stderr\n"
		"      --no-aslr          no address randomisation (as setarch -R)\n"
		"  -v, --verbose          warn about unimplemented system calls\n"
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

static int parse_trace(const char *what, unsigned *flags)
{
	if (!what || !strcmp(what, "syscalls") || !strcmp(what, "1")) {
		*flags |= SG_TRACE_SYSCALLS;
		return 0;
	}
	if (!strcmp(what, "entry")) {
		*flags |= SG_TRACE_SYSCALLS | SG_TRACE_ENTRY;
		return 0;
	}
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

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "trace", optional_argument, NULL, 't' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "no-aslr", no_argument, NULL, 'R' },
		{ "syscalls", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 }
	};
	struct sg_options opts;
	const char *trace_path = NULL;
	struct sg_exit status;
	sg_process *proc;
	enum sg_err err;
	int c;

	sg_options_init(&opts);
	opts.sysroot = getenv("SYSGATE_SYSROOT");
	/* '+': options end at the program name; its own options are its own. */
	while ((c = getopt_long(argc, argv, "+L:to:vhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'L':
			opts.sysroot = optarg;
			break;
		case 't':
			if (parse_trace(optarg, &opts.trace) < 0) {
				fprintf(stderr, "sysgate: unknown trace kind '%s' "
					"(syscalls, entry)\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'o':
			trace_path = optarg;
			break;
		case 'v':
			opts.verbose++;
			break;
		case 'R':
			opts.no_aslr = 1;
			break;
		case 'S':
			return list_syscalls(optarg);
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
	if (optind >= argc) {
		fprintf(stderr, "sysgate: no program given\n");
		usage(stderr);
		return EXIT_USAGE;
	}
	if (trace_path) {
		opts.trace_fd = open(trace_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
		if (opts.trace_fd < 0) {
			fprintf(stderr, "sysgate: %s: %s\n", trace_path, strerror(errno));
			return 1;
		}
		if (!opts.trace)
			opts.trace = SG_TRACE_SYSCALLS;
	}

	err = sg_create(&opts, &proc);
	if (err != SG_OK) {
		fprintf(stderr, "sysgate: %s\n", sg_strerror(err));
		return 1;
	}
	if (opts.trace_fd >= 0)
		close(opts.trace_fd); /* the library keeps its own copy */

	const char *path = argv[optind];
	err = sg_load(proc, path, &argv[optind], environ);
	if (err != SG_OK) {
		fprintf(stderr, "sysgate: %s: %s\n", path, sg_strerror(err));
		sg_destroy(proc);
		return err == SG_ERR_NOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_EXEC;
	}
	err = sg_run(proc, &status);
	sg_destroy(proc);
	if (err != SG_OK) {
		fprintf(stderr, "sysgate: %s: %s\n", path, sg_strerror(err));
		return 1;
	}
	fflush(stdout);
	if (status.signaled)
		die_by_signal(status.signal);
	return status.code;
}
