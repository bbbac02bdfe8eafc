/* strace's -e expressions (trace=, signal=, status=, quiet=, decode-fds=;
 * which calls and lines are printed) and -c (the summary table). The
 * trace set is resolved once into one bit per row of each table, so the
 * test per call is an index. Classes follow strace's: a name is in %file
 * when it takes a file name, and so on. */
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sysgate.h"
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
		  "fchown ftruncate ftruncate64 faccessat faccessat2 mmap mmap2 "
		  "copy_file_range splice tee timerfd_create timerfd_settime "
		  "timerfd_gettime timerfd_settime64 timerfd_gettime64 signalfd "
		  "signalfd4 inotify_init1 inotify_add_watch inotify_rm_watch "
		  "readlinkat unlinkat mkdirat mknodat fchmodat fchownat utimensat "
		  "utimensat_time64 futimesat linkat symlinkat renameat renameat2 "
		  "openat2 fstatat64 execveat fstatfs fstatfs64 fsetxattr fgetxattr "
		  "flistxattr fremovexattr fallocate fadvise64 fadvise64_64 "
		  "readahead sync_file_range syncfs vmsplice epoll_pwait2 "
		  "name_to_handle_at preadv2 pwritev2 readdir" },
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

/* strace's stat and statfs groups and %pure (no arguments, always
 * succeed). */
static const struct {
	const char *name;
	const char *calls;
} groups[] = {
	{ "stat", "stat stat64 oldstat" },
	{ "lstat", "lstat lstat64 oldlstat" },
	{ "fstat", "fstat fstat64 oldfstat newfstatat fstatat64 statx" },
	{ "%stat", "stat stat64 oldstat lstat lstat64 oldlstat fstat fstat64 "
		   "oldfstat newfstatat fstatat64 statx" },
	{ "statfs", "statfs statfs64" },
	{ "fstatfs", "fstatfs fstatfs64" },
	{ "%statfs", "statfs statfs64 fstatfs fstatfs64" },
	{ "pure", "getpid getppid gettid getpgrp getuid geteuid getgid getegid "
		  "getuid32 geteuid32 getgid32 getegid32" },
};

/* The classes strace also takes without the % (its old spelling). */
static const char *const bare_classes[] = {
	"file", "process", "network", "signal", "ipc", "desc", "memory",
};

static bool in_list(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; (p = strstr(p, name)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return true;
	return false;
}

/* The calls of a %class (cls without the %), NULL if there is none. */
static const char *class_calls(const char *cls)
{
	if (!strcmp(cls, "net"))
		cls = "network";
	for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++)
		if (!strcmp(classes[i].name, cls))
			return classes[i].calls;
	for (size_t i = 0; i < sizeof(groups) / sizeof(groups[0]); i++)
		if (!strcmp(groups[i].name, cls))
			return groups[i].calls;
	return NULL;
}

/* Mark (or clear) every row that word names: a name, a %class, a bare
 * class name, /regex, all, none; ?word: the same, but no error when it
 * names nothing. 0, or -1 with the reason in why. */
static int mark(struct trace_filter *f, const char *word, bool on, char *why, size_t size)
{
	const char *list = NULL;
	bool quiet = word[0] == '?';
	bool all, is_re;
	regex_t re;
	int found, rc;

	if (quiet)
		word++;
	all = !strcmp(word, "all") || !strcmp(word, "%all");
	is_re = word[0] == '/';
	found = all || !strcmp(word, "none");
	if (is_re && (rc = regcomp(&re, word + 1, REG_EXTENDED | REG_NOSUB)) != 0) {
		char msg[128];

		regerror(rc, &re, msg, sizeof(msg));
		snprintf(why, size, "invalid regular expression '%s': %s", word + 1, msg);
		return -1;
	}
	if (word[0] == '%') {
		list = class_calls(word + 1);
		if (!list && !all)
			goto unknown;
	}
	for (size_t i = 0; !list && !is_re && i < sizeof(bare_classes) / sizeof(bare_classes[0]); i++)
		if (!strcmp(word, bare_classes[i]))
			list = class_calls(word);
	for (int t = 0; t < SG_TABLE__COUNT; t++) {
		const struct sg_syscall_table *tab = sg_syscall_table(t);

		for (unsigned r = 0; tab && r < tab->size; r++) {
			const char *name = tab->rows[r].name;
			bool hit;

			if (!name[0]) /* a hole */
				continue;
			if (all)
				hit = true;
			else if (is_re)
				hit = regexec(&re, name, 0, NULL, 0) == 0;
			else
				hit = list ? in_list(list, name) : !strcmp(name, word);
			if (hit) {
				f->bits[t][r] = on;
				found = 1;
			}
		}
	}
	if (is_re)
		regfree(&re);
	/* a class can name calls no table of this build has (oldstat) */
	if (found || quiet || list)
		return 0;
unknown:
	snprintf(why, size, "invalid system call '%s%s'", quiet ? "?" : "", word);
	return -1;
}

bool trace_filter_valid(const char *spec)
{
	struct trace_filter f;

	if (trace_filter_init(&f, spec) < 0)
		return false;
	trace_filter_free(&f);
	return true;
}

/* A comma list of words after an optional "!", each passed to one(); the
 * set starts full when negated. */
static int parse_set(const char *value, bool *negated, char **copy)
{
	*negated = value[0] == '!';
	*copy = strdup(value + *negated);
	return *copy ? 0 : -1;
}

/* trace=SET */
static int parse_trace(struct trace_filter *f, const char *value, char *why, size_t size)
{
	char *copy, *save = NULL;
	bool negate;
	int rc = 0;

	if (parse_set(value, &negate, &copy) < 0)
		return -2;
	for (int t = 0; t < SG_TABLE__COUNT; t++) {
		const struct sg_syscall_table *tab = sg_syscall_table(t);

		if (tab)
			memset(f->bits[t], negate, tab->size);
	}
	f->all = false;
	for (char *w = strtok_r(copy, ",", &save); w && !rc; w = strtok_r(NULL, ",", &save))
		rc = mark(f, w, !negate, why, size);
	free(copy);
	return rc;
}

/* signal=SET: names with or without SIG, numbers, all, none */
static int signal_number(const char *w)
{
	char name[32];
	char *end;
	long n = strtol(w, &end, 10);

	if (*w && !*end)
		return n >= 1 && n <= 64 ? (int)n : 0;
	snprintf(name, sizeof(name), "%s%s", strncmp(w, "SIG", 3) ? "SIG" : "", w);
	for (size_t i = 0; i < xlat_signo.n; i++)
		if (!strcmp(xlat_entry_name(&xlat_signo, &xlat_signo.entries[i]), name))
			return (int)xlat_signo.entries[i].value;
	if (!strcmp(name, "SIGRTMIN"))
		return 32;
	if (!strncmp(name, "SIGRT_", 6)) {
		n = strtol(name + 6, &end, 10);
		return !*end && n >= 1 && n <= 32 ? 32 + (int)n : 0;
	}
	return 0;
}

/* One "name" of the value sets of status=, quiet=, decode-fds=: its bit,
 * all or none; 0 when unknown. */
static uint64_t word_bit(const char *const *names, size_t n, const char *w)
{
	if (!strcmp(w, "all"))
		return ~(uint64_t)0;
	if (!strcmp(w, "none"))
		return (uint64_t)1 << 63; /* known, sets nothing */
	for (size_t i = 0; i < n; i++)
		if (!strcmp(w, names[i]))
			return (uint64_t)1 << i;
	return 0;
}

static const char *const status_names[] = { "successful", "failed", "unfinished",
					    "unavailable", "detached" };
static const char *const quiet_names[] = { "attach", "exit", "path-resolution",
					   "personality", "thread-execve", "superseded" };
static const char *const decode_fd_names[] = { "path", "socket", "dev", "pidfd",
					       "signalfd" };
/* entry=: tables (as SG_TABLE_*: i386, x32, x86_64), mechanisms (as
 * CPU_MECH_*), attributes (TRACE_ENTRY_*) */
static const char *const entry_names[] = { "i386", "x32", "x86_64", "syscall",
					   "sysenter", "int80", "missing", "compat",
					   "vdso", "vdso-fn" };
_Static_assert(SG_TABLE_I386 == 0 && SG_TABLE_X32 == 1 && SG_TABLE_X64 == 2,
	       "entry_names in table order");
_Static_assert(CPU_MECH_SYSCALL == 0 && CPU_MECH_SYSENTER == 1 && CPU_MECH_INT80 == 2,
	       "entry_names in mechanism order");

/* signal=, status=, quiet=, decode-fds=: a set of bits (64 for signals) */
static int parse_bits(const char *qual, const char *value, uint64_t *out,
		      char *why, size_t size)
{
	const char *const *names = NULL;
	size_t n = 0;
	char *copy, *save = NULL;
	bool negate;
	uint64_t set = 0;
	int rc = 0;

	if (!strcmp(qual, "status"))
		names = status_names, n = sizeof(status_names) / sizeof(status_names[0]);
	else if (!strcmp(qual, "quiet"))
		names = quiet_names, n = sizeof(quiet_names) / sizeof(quiet_names[0]);
	else if (!strcmp(qual, "decode-fds"))
		names = decode_fd_names, n = sizeof(decode_fd_names) / sizeof(decode_fd_names[0]);
	else if (!strcmp(qual, "entry"))
		names = entry_names, n = sizeof(entry_names) / sizeof(entry_names[0]);
	if (parse_set(value, &negate, &copy) < 0)
		return -2;
	for (char *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		uint64_t bit;

		if (names) {
			bit = word_bit(names, n, w);
			bit &= ~((uint64_t)1 << 63);
			if (!bit && strcmp(w, "none")) {
				snprintf(why, size, "invalid %s '%s'", qual, w);
				rc = -1;
				break;
			}
		} else if (!strcmp(w, "all") || !strcmp(w, "none")) {
			bit = w[0] == 'a' ? ~(uint64_t)0 : 0;
		} else {
			int sig = signal_number(w);

			if (!sig) {
				snprintf(why, size, "invalid signal '%s'", w);
				rc = -1;
				break;
			}
			bit = (uint64_t)1 << (sig - 1);
		}
		set |= bit;
	}
	free(copy);
	*out = negate ? ~set : set;
	return rc;
}

/* One -e expression: [QUALIFIER=][!]SET. */
static int parse_expr(struct trace_filter *f, const char *expr, char *why, size_t size)
{
	static const struct {
		const char *alias, *qual;
	} quals[] = {
		{ "trace", "trace" }, { "t", "trace" }, { "signal", "signal" },
		{ "signals", "signal" }, { "s", "signal" }, { "status", "status" },
		{ "quiet", "quiet" }, { "silent", "quiet" }, { "silence", "quiet" },
		{ "q", "quiet" }, { "decode-fds", "decode-fds" }, { "entry", "entry" },
	};
	const char *eq = strchr(expr, '=');
	const char *qual = NULL;
	uint64_t bits;
	int rc;

	if (!eq)
		return parse_trace(f, expr, why, size);
	for (size_t i = 0; i < sizeof(quals) / sizeof(quals[0]); i++)
		if (strlen(quals[i].alias) == (size_t)(eq - expr) &&
		    !strncmp(expr, quals[i].alias, (size_t)(eq - expr)))
			qual = quals[i].qual;
	if (!qual) {
		/* strace reads it as a call name: "invalid system call 'x=y'" */
		snprintf(why, size, "invalid system call '%s'", expr);
		return -1;
	}
	if (!strcmp(qual, "trace"))
		return parse_trace(f, eq + 1, why, size);
	rc = parse_bits(qual, eq + 1, &bits, why, size);
	if (rc)
		return rc;
	if (!strcmp(qual, "signal"))
		f->signals = bits;
	else if (!strcmp(qual, "status"))
		f->status = (unsigned)bits;
	else if (!strcmp(qual, "quiet"))
		f->quiet_exit = bits >> 1 & 1;
	else if (!strcmp(qual, "entry")) {
		f->entry_tables = bits & 7;
		f->entry_mechs = bits >> 3 & 7;
		f->entry_attrs = bits >> 6 & 15;
	} else
		f->decode_paths = bits & 1;
	return 0;
}

unsigned trace_entry_attrs(const struct sg_syscall_call *call)
{
	unsigned a = 0;

	if (!call->row || (!systab_row_fn(call->row) && !systab_row_is_ni(call->row)))
		a |= TRACE_ENTRY_MISSING;
	if (call->row && systab_row_fn(call->row) &&
	    (!strncmp(call->row->entry, "compat_", 7) || !strncmp(call->row->entry, "sys_ia32_", 9)))
		a |= TRACE_ENTRY_COMPAT;
	if (call->vdso_fn)
		a |= TRACE_ENTRY_VDSO_FN;
	else if (call->vdso)
		a |= TRACE_ENTRY_VDSO;
	return a;
}

/* entry=: the tables and mechanisms named (any), the attributes (all) */
static bool entry_wanted(const struct trace_filter *f, const struct sg_syscall_call *call)
{
	if (f->entry_tables && !(f->entry_tables >> call->table & 1))
		return false;
	if (f->entry_mechs && !(f->entry_mechs >> call->mech & 1))
		return false;
	return (trace_entry_attrs(call) & f->entry_attrs) == f->entry_attrs;
}

/* spec: one or more strace -e expressions, one per line. 0, or -1 with
 * errno EINVAL (why says which word) or ENOMEM. */
static int filter_parse(struct trace_filter *f, const char *spec, char *why, size_t size)
{
	char *copy, *save = NULL;
	int rc = 0;

	memset(f, 0, sizeof(*f));
	f->all = true;
	f->signals = ~(uint64_t)0;
	f->status = ~0u;
	if (!spec || !*spec)
		return 0;
	for (int t = 0; t < SG_TABLE__COUNT; t++) {
		const struct sg_syscall_table *tab = sg_syscall_table(t);

		f->bits[t] = calloc(tab ? tab->size + 1 : 1, 1);
		if (!f->bits[t]) {
			trace_filter_free(f);
			errno = ENOMEM;
			return -1;
		}
	}
	copy = strdup(spec);
	if (!copy) {
		trace_filter_free(f);
		errno = ENOMEM;
		return -1;
	}
	for (char *e = strtok_r(copy, "\n", &save); e && !rc; e = strtok_r(NULL, "\n", &save))
		rc = parse_expr(f, e, why, size);
	free(copy);
	if (rc) {
		trace_filter_free(f);
		errno = rc == -2 ? ENOMEM : EINVAL;
		return -1;
	}
	return 0;
}

int trace_filter_init(struct trace_filter *f, const char *spec)
{
	char why[160];

	return filter_parse(f, spec, why, sizeof(why));
}

SG_API int sg_trace_filter_check(const char *spec, char *why, size_t size)
{
	struct trace_filter f;
	char buf[160] = "";

	if (filter_parse(&f, spec, buf, sizeof(buf)) < 0) {
		if (why && size)
			snprintf(why, size, "%s", errno == ENOMEM ? "out of memory" : buf);
		return -1;
	}
	trace_filter_free(&f);
	return 0;
}

void trace_filter_free(struct trace_filter *f)
{
	for (int t = 0; t < SG_TABLE__COUNT; t++) {
		free(f->bits[t]);
		f->bits[t] = NULL;
	}
}

bool trace_filter_status(const struct trace_filter *f, const struct sg_syscall_call *call,
			 bool returned)
{
	unsigned bit;

	if (!returned)
		bit = 1u << 2; /* unfinished: exit, exit_group */
	else if (call->result < 0 && call->result >= -4095)
		bit = 1u << 1;
	else
		bit = 1u << 0;
	return f->status & bit;
}

bool trace_filter_wants(const struct trace_filter *f,
			const struct sg_syscall_call *call)
{
	const struct sg_syscall_table *tab;

	if (!entry_wanted(f, call))
		return false;
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
	if ((unsigned)call->table < SG_TABLE__COUNT && (unsigned)call->mech < 3) {
		struct trace_path_count *pc = &tr->sh->paths[call->table][call->mech];
		unsigned attrs = trace_entry_attrs(call);

		pc->calls++;
		pc->errors += call->result < 0 && call->result >= -4095;
		pc->missing += !!(attrs & TRACE_ENTRY_MISSING);
		pc->vdso += !!(attrs & (TRACE_ENTRY_VDSO | TRACE_ENTRY_VDSO_FN));
	}
	trace_sh_unlock(tr);
}

/* The run's first execve was its starter's, a 64-bit program's (as the
 * child strace forks is): strace counts it in the 64-bit table whatever
 * the program's ABI, and so does -c here. The call was just counted in
 * the program's table; moved to the x86_64 one's execve row. */
void trace_count_as_starter(struct trace *tr, const struct sg_syscall_call *call)
{
	const struct sg_syscall_table *x64 = sg_syscall_table(SG_TABLE_X64);
	struct trace_count *from = tr->counts[call->table], *to = tr->counts[SG_TABLE_X64];
	unsigned r64;

	if (call->table == SG_TABLE_X64 || !from || !to || !x64 || !call->row)
		return;
	for (r64 = 0; r64 < x64->size; r64++)
		if (!strcmp(x64->rows[r64].name, "execve"))
			break;
	if (r64 == x64->size)
		return;
	trace_sh_lock(tr);
	to[r64].calls += from[call->index].calls;
	to[r64].ns += from[call->index].ns;
	to[r64].errors += from[call->index].errors;
	memset(&from[call->index], 0, sizeof(from[call->index]));
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
	trace_write_fd(tr->fd, s, strlen(s));
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
/* -c --trace=entry: after strace's tables, the calls per table and
 * mechanism (sysgate's own: a program's int80 calls from 64-bit code,
 * the ones that found no handler). */
static void print_paths(struct trace *tr)
{
	static const char *const mechs[] = { "syscall", "sysenter", "int80" };
	char line[160];
	bool heading = false;

	for (int t = 0; t < SG_TABLE__COUNT; t++)
		for (int m = 0; m < 3; m++) {
			const struct trace_path_count *pc = &tr->sh->paths[t][m];
			const struct sg_syscall_table *tab = sg_syscall_table(t);

			if (!pc->calls)
				continue;
			if (!heading) {
				put(tr, "\nCalls by table and mechanism:\n"
					"table  mechanism     calls    errors   missing      vdso\n"
					"------ --------- --------- --------- --------- ---------\n");
				heading = true;
			}
			snprintf(line, sizeof(line), "%-6s %-9s %9llu %9llu %9llu %9llu\n",
				 tab ? tab->abi_name : "?", mechs[m],
				 (unsigned long long)pc->calls, (unsigned long long)pc->errors,
				 (unsigned long long)pc->missing, (unsigned long long)pc->vdso);
			put(tr, line);
		}
}

void trace_print_summary(struct trace *tr)
{
	static const struct {
		int table;
		const char *heading;
	} pers[] = {
		{ SG_TABLE_X64, NULL },
		{ SG_TABLE_I386, "System call usage summary for 32 bit mode:\n" },
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
	if (tr->flags & SG_TRACE_ENTRY)
		print_paths(tr);
}
