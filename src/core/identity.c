/* The host process takes the guest's identity (sg_options.guest_identity,
 * set by the CLI): what other processes see of it — ps, pgrep, top,
 * killall read /proc/PID/comm, stat, status and cmdline — is the guest
 * program, not sysgate.
 *
 * - comm: as the kernel's exec sets it, the last component of the path
 *   exec was given, at most 15 bytes (guest PR_SET_NAME then passes
 *   through: guest threads are host threads).
 * - cmdline and environ: the kernel reads [arg_start, arg_end) and
 *   [env_start, env_end) of the process's memory when they are read;
 *   PR_SET_MM_MAP points them at the guest's argv and envp strings on its
 *   stack (guest addresses are host addresses). That needs no privilege
 *   (only a new exe_fd would), but all of the map is given: the other
 *   fields are the current ones, from /proc/self/stat and brk(0). Then the
 *   guest's own /proc/self/cmdline and environ are the host's files too:
 *   live, so one opened before an exec reads the new image's argv after
 *   it, as natively (path.c). docs/loader.md, Identity. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/prctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/process.h"
#include "mm/mm.h"

/* /proc/self/stat fields (1-based, man 5 proc) after "pid (comm)". */
enum { STAT_STARTCODE = 26, STAT_ENDCODE = 27, STAT_STARTSTACK = 28,
       STAT_START_DATA = 45, STAT_END_DATA = 46, STAT_START_BRK = 47,
       STAT_LAST = 51 };

static bool read_stat(unsigned long long v[STAT_LAST + 1])
{
	char buf[2048], *p, *save = NULL;
	ssize_t n;
	int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = 0;
	p = strrchr(buf, ')'); /* comm may hold anything but ends there */
	if (!p)
		return false;
	p++;
	for (int field = 3; field <= STAT_LAST; field++) {
		char *tok = strtok_r(field == 3 ? p : NULL, " \n", &save);

		if (!tok)
			return false;
		v[field] = strtoull(tok, NULL, 10);
	}
	return true;
}

static void set_comm(const char *path)
{
	const char *base = strrchr(path, '/');
	char comm[16];

	snprintf(comm, sizeof(comm), "%s", base ? base + 1 : path);
	prctl(PR_SET_NAME, comm, 0, 0, 0);
}

bool identity_adopt(struct sg_process *p, const char *path)
{
	const struct mm_exec_info *x = mm_exec_info(p->mm);
	/* sysgate's own code, data and brk start: read once, the same for
	 * every image an execve in place loads (and a fork's) */
	static unsigned long long v[STAT_LAST + 1];
	static bool have_stat;
	struct prctl_mm_map map;

	set_comm(path);
	if (!x || (!have_stat && !(have_stat = read_stat(v))))
		return false;
	memset(&map, 0, sizeof(map));
	map.start_code = v[STAT_STARTCODE];
	map.end_code = v[STAT_ENDCODE];
	map.start_data = v[STAT_START_DATA];
	map.end_data = v[STAT_END_DATA];
	map.start_brk = v[STAT_START_BRK];
	map.brk = (uint64_t)syscall(SYS_brk, 0);
	map.start_stack = v[STAT_STARTSTACK];
	map.arg_start = x->arg_start;
	map.arg_end = x->arg_end;
	map.env_start = x->env_start;
	map.env_end = x->env_end;
	map.exe_fd = (uint32_t)-1;
	return prctl(PR_SET_MM, PR_SET_MM_MAP, &map, sizeof(map), 0) == 0;
}
