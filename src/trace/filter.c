/* -e trace=SET (which calls are printed) and -c (the summary table). The
 * set is resolved once into one bit per row of each table, so the test per
 * call is an index. Classes follow strace's: a name is in %file when it
 * takes a file name, and so on. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace/trace_internal.h"

static const struct {
	const char *name;
	const char *calls;
} classes[] = {
	{ "file", "open openat openat2 creat stat lstat stat64 lstat64 "
		  "fstatat64 newfstatat statx access faccessat faccessat2 "
		  "readlink readlinkat chdir mkdir mkdirat rmdir unlink unlinkat "
		  "rename renameat renameat2 link linkat symlink symlinkat chmod "
		  "fchmodat chown lchown fchownat chown32 lchown32 truncate "
		  "truncate64 utime utimes utimensat futimesat execve execveat "
		  "statfs statfs64 getxattr setxattr lgetxattr listxattr mknod "
		  "mknodat chroot mount umount2 swapon swapoff inotify_add_watch "
		  "name_to_handle_at uselib acct pivot_root" },
	{ "desc", "read write open openat creat close lseek _llseek pread64 "
		  "pwrite64 readv writev preadv pwritev fstat fstat64 newfstatat "
		  "statx dup dup2 dup3 pipe pipe2 fcntl fcntl64 ioctl flock fsync "
		  "fdatasync sendfile sendfile64 poll ppoll select pselect6 "
		  "epoll_create epoll_create1 epoll_ctl epoll_wait epoll_pwait "
		  "eventfd eventfd2 memfd_create getdents getdents64 fchdir fchmod "
		  "fchown ftruncate ftruncate64 faccessat close_range mmap mmap2 "
		  "copy_file_range splice tee timerfd_create signalfd4 "
		  "inotify_init1 readlinkat unlinkat mkdirat fchmodat utimensat" },
	{ "network", "socket socketpair bind connect listen accept accept4 "
		     "getsockname getpeername sendto recvfrom sendmsg recvmsg "
		     "sendmmsg recvmmsg shutdown setsockopt getsockopt "
		     "socketcall" },
	{ "process", "fork vfork clone clone3 execve execveat exit exit_group "
		     "wait4 waitpid waitid kill tkill tgkill rt_sigqueueinfo "
		     "rt_tgsigqueueinfo pidfd_open pidfd_send_signal" },
	{ "memory", "brk mmap mmap2 munmap mprotect mremap madvise msync "
		    "mincore mlock munlock mlockall munlockall mlock2 "
		    "remap_file_pages pkey_mprotect get_mempolicy set_mempolicy "
		    "mbind migrate_pages move_pages" },
	{ "signal", "rt_sigaction sigaction signal rt_sigprocmask sigprocmask "
		    "rt_sigreturn sigreturn rt_sigsuspend sigsuspend "
		    "rt_sigpending sigpending rt_sigtimedwait "
		    "rt_sigtimedwait_time64 rt_sigqueueinfo rt_tgsigqueueinfo "
		    "sigaltstack kill tkill tgkill pause alarm signalfd "
		    "signalfd4 sgetmask ssetmask" },
	{ "ipc", "ipc msgget msgsnd msgrcv msgctl semget semop semctl "
		 "semtimedop shmget shmat shmdt shmctl" },
	{ "creds", "getuid geteuid getgid getegid getuid32 geteuid32 getgid32 "
		   "getegid32 setuid setgid setreuid setregid setresuid "
		   "setresgid getresuid getresgid setfsuid setfsgid getgroups "
		   "setgroups capget capset prctl" },
	{ "clock", "time gettimeofday settimeofday clock_gettime "
		   "clock_gettime64 clock_settime clock_getres "
		   "clock_getres_time64 clock_adjtime adjtimex" },
};

static bool in_list(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; (p = strstr(p, name)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return true;
	return false;
}

/* Mark (or clear) every row whose name is name or in class cls. */
static int mark(struct trace_filter *f, const char *word, bool on)
{
	const char *list = NULL;
	bool all = !strcmp(word, "all") || !strcmp(word, "%all");
	int found = all;

	if (word[0] == '%') {
		const char *cls = word + 1;

		if (!strcmp(cls, "net"))
			cls = "network";
		for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++)
			if (!strcmp(classes[i].name, cls))
				list = classes[i].calls;
		if (!list && !all)
			return -1;
	}
	for (int t = 0; t < SG_TABLE__COUNT; t++) {
		const struct sg_syscall_table *tab = sg_syscall_table(t);

		for (unsigned r = 0; tab && r < tab->size; r++) {
			const char *name = tab->rows[r].name;

			if (!name)
				continue;
			if (all || (list ? in_list(list, name) : !strcmp(name, word))) {
				f->bits[t][r] = on;
				found = 1;
			}
		}
	}
	return found || !strcmp(word, "none") ? 0 : -1;
}

bool trace_filter_valid(const char *spec)
{
	struct trace_filter f;

	if (trace_filter_init(&f, spec) < 0)
		return false;
	trace_filter_free(&f);
	return true;
}

/* spec: [trace=][!]WORD[,WORD...]; a WORD is a name or a %class, "all" or
 * "none". 0, or -1 with errno EINVAL for an unknown name or class. */
int trace_filter_init(struct trace_filter *f, const char *spec)
{
	char *copy, *save = NULL;
	bool negate = false;
	int rc = 0;

	memset(f, 0, sizeof(*f));
	if (!spec || !*spec) {
		f->all = true;
		return 0;
	}
	if (!strncmp(spec, "trace=", 6))
		spec += 6;
	if (*spec == '!') {
		negate = true;
		spec++;
	}
	for (int t = 0; t < SG_TABLE__COUNT; t++) {
		const struct sg_syscall_table *tab = sg_syscall_table(t);

		f->bits[t] = calloc(tab ? tab->size + 1 : 1, 1);
		if (!f->bits[t]) {
			trace_filter_free(f);
			errno = ENOMEM;
			return -1;
		}
		if (negate && tab)
			memset(f->bits[t], 1, tab->size);
	}
	copy = strdup(spec);
	if (!copy) {
		trace_filter_free(f);
		errno = ENOMEM;
		return -1;
	}
	for (char *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save))
		if (mark(f, w, !negate) < 0)
			rc = -1;
	free(copy);
	if (rc < 0) {
		trace_filter_free(f);
		errno = EINVAL;
	}
	return rc;
}

void trace_filter_free(struct trace_filter *f)
{
	for (int t = 0; t < SG_TABLE__COUNT; t++) {
		free(f->bits[t]);
		f->bits[t] = NULL;
	}
}

bool trace_filter_wants(const struct trace_filter *f,
			const struct sg_syscall_call *call)
{
	const struct sg_syscall_table *tab;

	if (f->all)
		return true;
	tab = sg_syscall_table(call->table);
	if (!call->row || !tab || call->index >= tab->size)
		return false;
	return f->bits[call->table][call->index];
}

/* --- -c ------------------------------------------------------------------ */

void trace_count_call(struct trace *tr, const struct sg_syscall_call *call,
		      uint64_t ns)
{
	const struct sg_syscall_table *tab = sg_syscall_table(call->table);
	struct trace_count *c;

	if (!call->row || !tab || call->index >= tab->size)
		return;
	trace_sh_lock(tr);
	c = tr->counts[call->table];
	if (c) {
		c[call->index].calls++;
		c[call->index].ns += ns;
		if (call->result < 0 && call->result >= -4095)
			c[call->index].errors++;
	}
	trace_sh_unlock(tr);
}

struct summary_row {
	const char *name;
	struct trace_count c;
};

static int by_time(const void *pa, const void *pb)
{
	const struct summary_row *a = pa, *b = pb;

	if (a->c.ns != b->c.ns)
		return a->c.ns < b->c.ns ? 1 : -1;
	if (a->c.calls != b->c.calls)
		return a->c.calls < b->c.calls ? 1 : -1;
	return strcmp(a->name, b->name);
}

static void put(struct trace *tr, const char *s)
{
	size_t left = strlen(s);

	while (left) {
		ssize_t n = write(tr->fd, s, left);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		s += n;
		left -= (size_t)n;
	}
}

/* One line of the table; errors left blank when there are none. */
static void print_row(char *line, size_t size, const struct trace_count *c,
		      uint64_t total_ns, const char *name)
{
	char errors[24] = "";

	if (c->errors)
		snprintf(errors, sizeof(errors), "%llu",
			 (unsigned long long)c->errors);
	snprintf(line, size, "%6.2f %11.6f %11llu %9llu %9s %s\n",
		 total_ns ? 100.0 * (double)c->ns / (double)total_ns : 100.0,
		 (double)c->ns / 1e9,
		 (unsigned long long)(c->calls ? c->ns / 1000 / c->calls : 0),
		 (unsigned long long)c->calls, errors, name);
}

/* One table (strace's call_summary_pers): rows by time spent, a total. */
static void print_table(struct trace *tr, int t)
{
	static const char rule[] = "------ ----------- ----------- --------- "
				   "--------- ----------------\n";
	const struct sg_syscall_table *tab = sg_syscall_table(t);
	struct summary_row *rows = calloc(tab->size ? tab->size : 1, sizeof(*rows));
	struct trace_count total = { 0, 0, 0 };
	size_t n = 0;
	char line[160];

	if (!rows)
		return;
	for (unsigned r = 0; r < tab->size; r++) {
		if (!tr->counts[t][r].calls)
			continue;
		rows[n].name = tab->rows[r].name;
		rows[n].c = tr->counts[t][r];
		total.calls += rows[n].c.calls;
		total.errors += rows[n].c.errors;
		total.ns += rows[n].c.ns;
		n++;
	}
	qsort(rows, n, sizeof(*rows), by_time);
	put(tr, "% time     seconds  usecs/call     calls    errors syscall\n");
	put(tr, rule);
	for (size_t i = 0; i < n; i++) {
		print_row(line, sizeof(line), &rows[i].c, total.ns, rows[i].name);
		put(tr, line);
	}
	put(tr, rule);
	print_row(line, sizeof(line), &total, total.ns, "total");
	put(tr, line);
	free(rows);
}

/* strace -c: one table per personality the calls went through, in
 * strace's order (64 bit, 32 bit, x32), each with its own total; all but
 * the 64-bit one under a heading naming it. Time is the wall time of the
 * handler (sysgate has no separate kernel time). */
void trace_print_summary(struct trace *tr)
{
	static const struct {
		int table;
		const char *heading;
	} pers[] = {
		{ SG_TABLE_X64, NULL },
		{ SG_TABLE_IA32, "System call usage summary for 32 bit mode:\n" },
		{ SG_TABLE_X32, "System call usage summary for x32 mode:\n" },
	};

	for (size_t i = 0; i < sizeof(pers) / sizeof(pers[0]); i++) {
		int t = pers[i].table;
		bool used = false;

		for (unsigned r = 0; tr->counts[t] && r < sg_syscall_table(t)->size; r++)
			used = used || tr->counts[t][r].calls;
		if (!used)
			continue;
		if (pers[i].heading)
			put(tr, pers[i].heading);
		print_table(tr, t);
	}
}
