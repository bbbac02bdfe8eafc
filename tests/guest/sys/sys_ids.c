/* Identity, limits, scheduling and system information; i386 also the
 * 16-bit id calls through syscall(). */
#include "sys.h"

#include <sched.h>
#include <stdint.h>
#include <sys/fsuid.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>

int main(void)
{
	struct rlimit rl, rl2;
	struct rusage ru;
	struct sysinfo si;
	struct utsname u;
	char name[16] = { 0 };
	cpu_set_t set;
	gid_t groups[64];
	uid_t r, e, s;
	int n;

	setvbuf(stdout, NULL, _IOLBF, 0);
	CHECK("getuid", getuid());
	CHECK("geteuid", geteuid());
	CHECK("getgid", getgid());
	CHECK("getegid", getegid());
	CHECK("getresuid", getresuid(&r, &e, &s));
	printf("resuid %u %u %u\n", r, e, s);
	CHECK("setuid same", setuid(getuid()));
	CHECK("setreuid same", setreuid(-1, -1));
	CHECK("setresgid same", setresgid(-1, -1, -1));
	CHECK("setfsuid", setfsuid(-1));
	n = getgroups(64, groups);
	CHECK("getgroups", n);
	CHECK("getgroups too small", n > 0 ? getgroups(0, groups) : n);
	FACT("pid consistent", getpid() == (pid_t)syscall(SYS_getpid));
	FACT("tid is pid", gettid() == getpid());
	FACT("ppid > 0", getppid() > 0);
	FACT("pgid is pgrp", getpgid(0) == getpgrp());
	FACT("sid > 0", getsid(0) > 0);
	CHECK("setpgid self", setpgid(0, 0));
	CHECK("getrlimit nofile", getrlimit(RLIMIT_NOFILE, &rl));
	rl2 = rl;
	rl2.rlim_cur = 64;
	CHECK("setrlimit nofile", setrlimit(RLIMIT_NOFILE, &rl2));
	CHECK("getrlimit again", getrlimit(RLIMIT_NOFILE, &rl2));
	printf("nofile cur %llu\n", (unsigned long long)rl2.rlim_cur);
	CHECK("prlimit back", prlimit(0, RLIMIT_NOFILE, &rl, &rl2));
	printf("prlimit old cur %llu\n", (unsigned long long)rl2.rlim_cur);
	CHECK("getrlimit bad", getrlimit(999, &rl));
	CHECK("getrusage", getrusage(RUSAGE_SELF, &ru));
	FACT("maxrss > 0", ru.ru_maxrss > 0);
	CHECK("getrusage bad", getrusage(42, &ru));
	CHECK("sysinfo", sysinfo(&si));
	FACT("sysinfo ram > 64MiB",
	     (unsigned long long)si.totalram * si.mem_unit > (64ull << 20));
	FACT("sysinfo procs > 0", si.procs > 0);
	CHECK("uname", uname(&u));
	printf("uname %s %s\n", u.sysname, u.machine);
	CHECK("personality query", personality(0xffffffff) & ~ADDR_NO_RANDOMIZE);
	CHECK("prctl set name", prctl(PR_SET_NAME, "sg-ids", 0, 0, 0));
	CHECK("prctl get name", prctl(PR_GET_NAME, name, 0, 0, 0));
	printf("name %s\n", name);
	CHECK("prctl dumpable", prctl(PR_GET_DUMPABLE, 0, 0, 0, 0));
	CHECK("sched_getaffinity", sched_getaffinity(0, sizeof(set), &set));
	FACT("affinity has a cpu", CPU_COUNT(&set) > 0);
	CHECK("sched_setaffinity", sched_setaffinity(0, sizeof(set), &set));
	CHECK("sched_getscheduler", sched_getscheduler(0));
	CHECK("sched_get_priority_max", sched_get_priority_max(SCHED_FIFO));
	CHECK("sched_yield", sched_yield());
	{
		struct sched_param sp;
		struct timespec ts;

		CHECK("sched_getparam", sched_getparam(0, &sp));
		printf("priority %d\n", sp.sched_priority);
		CHECK("sched_rr_get_interval", sched_rr_get_interval(0, &ts));
	}
	errno = 0;
	CHECK("getpriority", getpriority(PRIO_PROCESS, 0));
	CHECK("setpriority", setpriority(PRIO_PROCESS, 0, 1));
	CHECK("getpriority after", getpriority(PRIO_PROCESS, 0));
	{
		unsigned cpu, node;

		CHECK("getcpu", syscall(SYS_getcpu, &cpu, &node, NULL));
	}
	CHECK("umask", umask(077));
#ifdef __i386__
	if (abi_only_checks()) {
		uint16_t r16, e16, s16;

		FACT("i386 getuid16", (uid_t)syscall(SYS_getuid) == getuid());
		CHECK("i386 getresuid16", syscall(SYS_getresuid, &r16, &e16, &s16));
		printf("i386 resuid16 %u %u %u\n", r16, e16, s16);
		CHECK("i386 setreuid16 -1", syscall(SYS_setreuid, 0xffff, 0xffff));
		CHECK("i386 setfsuid16 query", syscall(SYS_setfsuid, 0xffff));
		CHECK("i386 getgroups16", syscall(SYS_getgroups, 0, NULL));
		CHECK("i386 nice 0", syscall(SYS_nice, 0));
		CHECK("i386 ugetrlimit", syscall(SYS_ugetrlimit, RLIMIT_CORE, &rl));
		{
			char old[5 * 65];

			CHECK("i386 olduname", syscall(SYS_olduname, old));
			printf("i386 olduname %s\n", old);
		}
	}
#endif
	return 0;
}
