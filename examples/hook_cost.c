/* hook_cost [-i] PROGRAM [ARG]...: runs PROGRAM with an entry hook on
 * getpid (x86_64's table) and prints the calls it saw and the wall time
 * per call; -i runs the guest in-process (SG_MODE_IN_PROCESS) instead of
 * in a process of its own. With tests/guest/getpids.c (N getpid calls),
 * the difference between a run with N and one with 0 calls, over N, is
 * what one hooked call costs (docs/api.md, A guest in a process of its
 * own).
 */
#include <asm/unistd_64.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <sysgate.h>

extern char **environ;

static enum sg_hook_action count(sg_process *p, struct sg_syscall_info *info, void *user)
{
	(void)p;
	(void)info;
	(*(long *)user)++;
	return SG_HOOK_CONTINUE;
}

int main(int argc, char **argv)
{
	static const unsigned getpid_nr[] = { __NR_getpid };
	struct sg_options o;
	struct timespec t0, t1;
	struct sg_exit st;
	sg_process *p;
	long calls = 0;
	int first = 1;
	double s;

	sg_options_init(&o);
	if (argc > 1 && !strcmp(argv[1], "-i")) {
		o.mode = SG_MODE_IN_PROCESS;
		first = 2;
	}
	if (argc <= first) {
		fprintf(stderr, "usage: hook_cost [-i] PROGRAM [ARG]...\n");
		return 2;
	}
	if (sg_create(&o, &p) != SG_OK ||
	    sg_hook_syscall_nrs(p, SG_ABI_X64, getpid_nr, 1, SG_HOOK_ON_ENTRY, count, &calls,
				NULL) != SG_OK ||
	    sg_load(p, argv[first], &argv[first], environ) != SG_OK) {
		fprintf(stderr, "hook_cost: cannot load %s\n", argv[first]);
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (sg_run(p, &st) != SG_OK)
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	sg_destroy(p);
	s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("hook_cost: %ld hooked calls, %.3f s, %.2f us per call (%s)\n", calls, s,
	       calls ? s * 1e6 / (double)calls : 0.0,
	       o.mode == SG_MODE_IN_PROCESS ? "in-process" : "own process");
	return st.code;
}
