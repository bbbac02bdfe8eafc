/* execve, execveat: an x86 program (ELF of any of the three ABIs, or a #!
 * script) is loaded in place, into this sysgate (core/exec_image.c, by the
 * group's exec hooks), where nothing outside the image holds on to it;
 * this file then does what the kernel's exec does to the task: handled
 * signals go back to the default (the mask and ignored signals stay), the
 * alternate stack, POSIX timers, robust list and clear_child_tid go, a
 * vfork parent goes on, close-on-exec descriptors close. Elsewhere (other
 * threads, a debugger, an embedder, a guest tracer, --exec=host) the host
 * execs sysgate's own binary (recorded at start-up, the group's host_exe)
 * with the same sysroot and trace options, the guest's argv[0] (--argv0)
 * and its environment, and the host kernel does the same. What cannot run
 * gives the kernel's errno to the old image either way: ENOENT, EACCES,
 * ENOEXEC, ELOOP, ELIBBAD, E2BIG. docs/syscalls.md, execve.
 */
#define _GNU_SOURCE /* AT_EMPTY_PATH */
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/personality.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "hostfd/hostfd.h"
#include "syscall/internal.h"
#include "trace/trace.h"

#define MAX_ARG_STRINGS 0x7fffffff
#define EXEC_ARGS_MAX (32u << 20) /* bytes of strings we copy at most */
#define EXEC_STRLEN_MAX (PATH_MAX * 32) /* the kernel's limit per string */

struct strv {
	char **v;
	size_t n, cap, bytes;
};

static long strv_add(struct strv *s, char *str)
{
	if (s->n + 1 >= s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 32;
		char **v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = str;
	s->v[s->n] = NULL;
	return 0;
}

static void strv_free(struct strv *s, size_t from)
{
	for (size_t i = from; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
}

/* A guest char *[] (4- or 8-byte pointers) into s; NULL array: empty.
 * Each string is kept at its own length, copied through a stack buffer,
 * or for a longer one a scratch buffer of the kernel's limit (allocated
 * once: a buffer that size is an mmap and a page fault, and one per
 * string was dozens per exec). */
static long read_strings(struct sg_task *t, uint64_t arr, bool compat, struct strv *s)
{
	size_t width = compat ? 4 : 8;
	char small[4096], *big = NULL;
	long r = 0;

	if (!arr)
		return 0;
	for (size_t i = 0;; i++) {
		uint64_t p = 0;
		const char *src = small;
		char *str;
		long len;

		if (i >= MAX_ARG_STRINGS) {
			r = -E2BIG;
			break;
		}
		if (copy_from_guest(t->group->mm, &p, arr + i * width, width)) {
			r = -EFAULT;
			break;
		}
		if (!p)
			break;
		len = strncpy_from_guest(t->group->mm, small, p, sizeof(small));
		if (len == -ENAMETOOLONG) {
			if (!big && !(big = malloc(EXEC_STRLEN_MAX))) {
				r = -ENOMEM;
				break;
			}
			src = big;
			len = strncpy_from_guest(t->group->mm, big, p, EXEC_STRLEN_MAX);
		}
		if (len < 0 || (s->bytes += (size_t)len + 1) > EXEC_ARGS_MAX) {
			r = len == -EFAULT ? -EFAULT : -E2BIG;
			break;
		}
		str = malloc((size_t)len + 1);
		if (!str) {
			r = -ENOMEM;
			break;
		}
		memcpy(str, src, (size_t)len + 1);
		if (strv_add(s, str)) {
			free(str);
			r = -ENOMEM;
			break;
		}
	}
	free(big);
	return r;
}

/* What the kernel would say before loading: ENOENT, EACCES (not a
 * regular executable file), ENOEXEC (neither x86 ELF nor #!). *script:
 * the file starts with #!. */
static long check_target(const char *path, bool *script)
{
	unsigned char hdr[20];
	struct stat st;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == EACCES && access(path, X_OK) == 0)
			return -EACCES;
		return -errno;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || access(path, X_OK)) {
		close(fd);
		return -EACCES;
	}
	n = pread(fd, hdr, sizeof(hdr), 0);
	close(fd);
	*script = n >= 2 && hdr[0] == '#' && hdr[1] == '!';
	if (*script)
		return 0;
	if (n >= 20 && !memcmp(hdr, ELFMAG, SELFMAG)) {
		uint16_t machine = (uint16_t)(hdr[18] | hdr[19] << 8);

		if ((hdr[EI_CLASS] == ELFCLASS32 && (machine == EM_386 || machine == EM_X86_64)) ||
		    (hdr[EI_CLASS] == ELFCLASS64 && machine == EM_X86_64))
			return 0;
	}
	return -ENOEXEC;
}

/* The trace goes on in the new image: the same descriptor (left open for
 * the exec) and the options the trace module says recreate it. */
static long add_trace_options(struct trace *tr, int fd, struct strv *s)
{
	char *opts[32];
	char buf[64];
	int n;
	long r;

	snprintf(buf, sizeof(buf), "--trace-fd=%d", fd);
	r = strv_add(s, strdup(buf));
	n = trace_exec_options(tr, opts, (int)ARRAY_SIZE(opts));
	if (n < 0)
		return r ? r : -ENOMEM;
	for (int i = 0; i < n; i++) {
		if (!r)
			r = strv_add(s, opts[i]);
		else
			free(opts[i]);
	}
	return r;
}

/* sysgate's own arguments for the new image; close_fd >= 0: the guest's
 * close-on-exec descriptor that names the program, for the new image to
 * close once it has loaded it. */
/* An attached debugger's exec option (core lends it: the group's hooks). */
static int debugger_exec_option(struct sg_task *t, char *buf, size_t size)
{
	const struct sg_core_hooks *h = &t->group->hooks;

	return h->debugger_exec_option ? h->debugger_exec_option(t, buf, size) : -1;
}

/* The channel to an embedder (a guest in a process of its own), which the
 * new image keeps: its hooks hold over the exec. */
static int embedder_exec_option(struct sg_task *t, char *buf, size_t size)
{
	const struct sg_core_hooks *h = &t->group->hooks;

	return h->embedder_exec_option ? h->embedder_exec_option(t, buf, size) : -1;
}

static long add_options(struct sg_task *t, struct strv *s, const char *argv0,
			int close_fd, const char *exec_name)
{
	const struct sg_task_group *p = t->group;
	long r = strv_add(s, strdup(p->host_exe));

	if (!r && p->sysroot) {
		r = strv_add(s, strdup("-L"));
		r = r ? r : strv_add(s, strdup(p->sysroot));
	}
	if (!r && p->opts.no_aslr)
		r = strv_add(s, strdup("--no-aslr"));
	if (!r && p->opts.stats)
		r = strv_add(s, strdup("--stats"));
	if (!r && p->opts.exec_host)
		r = strv_add(s, strdup("--exec=host"));
	if (!r && t->cpu.tsc_disabled)
		r = strv_add(s, strdup("--tsc-sigsegv"));
	for (int i = 0; !r && i < p->opts.verbose; i++)
		r = strv_add(s, strdup("-v"));
	if (!r && p->trace)
		r = add_trace_options(p->trace, trace_output_fd(p->trace), s);
	if (!r && argv0) {
		r = strv_add(s, strdup("--argv0"));
		r = r ? r : strv_add(s, strdup(argv0));
	}
	if (!r && exec_name) {
		r = strv_add(s, strdup("--exec-name"));
		r = r ? r : strv_add(s, strdup(exec_name));
	}
	if (!r) {
		char buf[128]; /* --gdb-fd=N and the session flags */

		if (debugger_exec_option(t, buf, sizeof(buf)) >= 0)
			r = strv_add(s, strdup(buf));
		if (!r && embedder_exec_option(t, buf, sizeof(buf)) >= 0)
			r = strv_add(s, strdup(buf));
	}
	if (!r && close_fd >= 0) {
		char buf[32];

		snprintf(buf, sizeof(buf), "--exec-close=%d", close_fd);
		r = strv_add(s, strdup(buf));
	}
	if (!r)
		r = strv_add(s, strdup("--"));
	for (size_t i = 0; i < s->n; i++)
		if (!s->v[i])
			return -ENOMEM;
	return r;
}

/* The guest's close-on-exec descriptors closed, as the kernel's exec
 * closes them; sysgate's own (hostfd) stay. Listed from /proc/self/fd;
 * where that cannot be opened (no descriptor free below the guest's
 * limit) each number below the limit is asked. */
static void close_on_exec(void)
{
	char buf[4096];
	uint64_t soft = 0, hard = 0;
	int dir = open("/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (dir < 0) {
		hostfd_nofile_get(&soft, &hard);
		for (uint64_t fd = 0; fd < soft && fd <= INT32_MAX; fd++) {
			int fl = fcntl((int)fd, F_GETFD);

			if (fl >= 0 && (fl & FD_CLOEXEC) && !hostfd_is_private((long)fd))
				close((int)fd);
		}
		return;
	}
	for (;;) {
		long n = syscall(SYS_getdents64, dir, buf, sizeof(buf));

		if (n <= 0)
			break;
		for (long off = 0; off < n;) {
			const struct dirent64 *d = (const struct dirent64 *)(buf + off);
			char *end;
			long fd = strtol(d->d_name, &end, 10);

			off += d->d_reclen;
			if (*end || end == d->d_name || fd == dir || hostfd_is_private(fd))
				continue;
			if (fcntl((int)fd, F_GETFD) & FD_CLOEXEC)
				close((int)fd);
		}
	}
	close(dir);
}

/* Every POSIX timer of this process deleted (the kernel's exec deletes
 * them), as /proc/self/timers lists them ("ID: n"). */
static void delete_timers(void)
{
	char buf[8192];
	ssize_t n = 0, got;
	int fd = open("/proc/self/timers", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	while (n < (ssize_t)sizeof(buf) - 1 &&
	       (got = read(fd, buf + n, sizeof(buf) - 1 - (size_t)n)) > 0)
		n += got;
	close(fd);
	buf[n > 0 ? n : 0] = 0;
	for (const char *at = buf; (at = strstr(at, "ID: ")); at += 4)
		syscall(SYS_timer_delete, (int)strtol(at + 4, NULL, 10));
}

/* The kernel's limit on argv and envp (bprm_stack_limits): a quarter of
 * RLIMIT_STACK, at most 6 MiB, at least 128 KiB, for the strings (the
 * file name among them) and a pointer of 8 bytes per string; more is
 * E2BIG. (A host execve gets it from the host kernel.) */
static bool exceeds_arg_limit(const char *full, const struct strv *args,
			      const struct strv *env)
{
	struct rlimit rl;
	uint64_t limit = 6ull << 20, need;

	if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur / 4 < limit)
		limit = rl.rlim_cur / 4;
	if (limit < (128u << 10))
		limit = 128u << 10;
	need = args->bytes + env->bytes + strlen(full) + 1 +
	       ((args->n ? args->n : 1) + env->n) * 8;
	return need > limit;
}

/* The old image ends at an execve that succeeds, in place or on the
 * host: the trace's execve line, and --stats's counts of this image. */
static void image_ends(struct sg_task *t)
{
	if (t->group->trace && sc_current)
		trace_syscall_exec(t->group->trace, sc_current);
	if (t->group->opts.stats) {
		struct cpu_stats st;

		cpu_stats_get(&st);
		trace_print_run_stats(t->group->trace, "execve", &st);
	}
}

/* The execve loaded into this process (docs/syscalls.md, execve): 0 once
 * done (or the process dies of the new image's SIGSEGV), -errno for the
 * old image, SG_EXEC_ON_HOST where only a host execve can do it: a guest
 * tracer (its host tracer waits for the host's exec stop), AIO contexts
 * (the host's, which its exec would destroy), timers that cannot be
 * listed, and what core refuses (exec_check). */
static long exec_in_place(struct sg_task *t, const char *full, struct strv *args,
			  struct strv *env, const char *exec_name)
{
	const struct sg_core_hooks *h = &t->group->hooks;
	/* an empty argv gets "" as argv[0], as the kernel's since 5.18 */
	char *empty_argv[] = { "", NULL }, *empty_env[] = { NULL };
	struct sg_exec_req req = {
		.path = full,
		.argv = args->n ? args->v : empty_argv,
		.envp = env->n ? env->v : empty_env,
		.exec_name = exec_name,
	};
	int r, pers;

	if (!h->exec_check || !h->exec_replace)
		return SG_EXEC_ON_HOST;
	r = h->exec_check(t, &req);
	if (r < 0)
		return r;
	if (r || t->sig.ptraced || sc_aio_contexts() ||
	    (sc_timers_made() && access("/proc/self/timers", R_OK)))
		return SG_EXEC_ON_HOST;
	if (exceeds_arg_limit(full, args, env))
		return -E2BIG;
	/* the point of no return */
	image_ends(t);
	cpu_stats_reset(); /* the new image counts from 0 here */
	sig_exec_reset(t);
	if (sc_timers_made())
		delete_timers();
	t->robust_list = t->robust_list_len = 0;
	t->clear_child_tid = 0;
	sc_vfork_release();
	/* the host's exec of sysgate (a 64-bit program) clears it, as
	 * SET_PERSONALITY does; the loader sets the guest's own (mm) */
	if ((pers = personality(0xffffffff)) != -1 && (pers & READ_IMPLIES_EXEC))
		personality((unsigned long)pers & ~(unsigned long)READ_IMPLIES_EXEC);
	if (h->exec_replace(t, &req))
		close_on_exec(); /* after the load: /dev/fd/N of a fexecve */
	return 0;
}

static long do_execve(struct sg_thread *th, int dirfd, uint64_t path_addr, uint64_t argv,
		      uint64_t envp, int flags, bool compat)
{
	struct sg_task *t = sg_task(th);
	char path[PATH_MAX], full[PATH_MAX + 64], given[PATH_MAX];
	struct strv args = { 0 }, env = { 0 }, host = { 0 };
	bool script = false, cloexec_dir = false;
	long r;

	if (flags & ~(AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW))
		return -EINVAL;
	r = sc_path(th, path_addr, path, true);
	if (r)
		return r;
	/* /proc/self/exe names the guest's program, found by another name:
	 * the new image still shows the name given (AT_EXECFN, comm) */
	given[0] = 0;
	if (strncpy_from_guest(t->group->mm, given, path_addr, sizeof(given)) < 0 ||
	    !sc_is_proc_exe(given))
		given[0] = 0;
	if (!path[0] && !(flags & AT_EMPTY_PATH))
		return -ENOENT;
	if (!path[0] && dirfd == AT_FDCWD)
		return -EACCES; /* the working directory: not a regular file */
	/* Through a descriptor the kernel names the file /dev/fd/N[/path]
	 * (AT_EXECFN, a script's argument); the new image opens it by that
	 * name, so a close-on-exec N stays open for the exec and the new
	 * image closes it once loaded (--exec-close). */
	if (!path[0])
		snprintf(full, sizeof(full), "/dev/fd/%d", dirfd);
	else if (path[0] != '/' && dirfd != AT_FDCWD)
		snprintf(full, sizeof(full), "/dev/fd/%d/%s", dirfd, path);
	else
		snprintf(full, sizeof(full), "%s", path);
	if (!path[0] || (path[0] != '/' && dirfd != AT_FDCWD)) {
		int fdflags = fcntl(dirfd, F_GETFD);

		if (fdflags < 0)
			return -EBADF;
		cloexec_dir = fdflags & FD_CLOEXEC;
	}
	if (path[0] && (flags & AT_SYMLINK_NOFOLLOW)) {
		struct stat st;

		/* the last component must not be a symlink */
		if (lstat(full, &st) == 0 && S_ISLNK(st.st_mode))
			return -ELOOP;
	}
	if (!t->group->host_exe)
		return -ENOEXEC;
	r = read_strings(t, argv, compat, &args);
	if (!r)
		r = read_strings(t, envp, compat, &env);
	if (!r)
		r = check_target(full, &script);
	/* the interpreter could not open it: the kernel's ENOENT */
	if (!r && script && cloexec_dir)
		r = -ENOENT;
	if (!r) {
		long e = exec_in_place(t, full, &args, &env, given[0] ? given : NULL);

		if (e != SG_EXEC_ON_HOST) {
			r = e;
			goto out;
		}
	}
	if (!r)
		r = add_options(t, &host, args.n ? args.v[0] : NULL,
				cloexec_dir ? dirfd : -1, given[0] ? given : NULL);
	if (!r)
		r = strv_add(&host, strdup(full));
	for (size_t i = 1; !r && i < args.n; i++)
		r = strv_add(&host, args.v[i]);
	if (!r) {
		int tfd = t->group->trace ? trace_output_fd(t->group->trace) : -1;
		char dbgopt[128];
		int gfd = debugger_exec_option(t, dbgopt, sizeof(dbgopt));
		int efd = embedder_exec_option(t, dbgopt, sizeof(dbgopt));

		if (tfd >= 0)
			fcntl(tfd, F_SETFD, 0); /* the new sysgate writes on */
		if (gfd >= 0)
			fcntl(gfd, F_SETFD, 0); /* and serves gdb on */
		if (efd >= 0)
			fcntl(efd, F_SETFD, 0); /* and keeps the embedder's hooks */
		image_ends(t);
		if (!env.v)
			strv_add(&env, NULL);
		hostfd_exec_begin(); /* the new image reads the guest's limit */
		if (cloexec_dir)
			fcntl(dirfd, F_SETFD, 0);
		execve(t->group->host_exe, host.v, env.v);
		r = -errno;
		if (cloexec_dir)
			fcntl(dirfd, F_SETFD, FD_CLOEXEC);
		hostfd_exec_failed();
		if (tfd >= 0)
			fcntl(tfd, F_SETFD, FD_CLOEXEC);
		if (gfd >= 0)
			fcntl(gfd, F_SETFD, FD_CLOEXEC);
		if (efd >= 0)
			fcntl(efd, F_SETFD, FD_CLOEXEC);
	}
out:
	/* host.v borrowed args.v[1..]: free those through args only */
	for (size_t i = 0; i < host.n; i++) {
		bool borrowed = false;

		for (size_t j = 1; j < args.n && !borrowed; j++)
			borrowed = host.v[i] == args.v[j];
		if (!borrowed)
			free(host.v[i]);
	}
	free(host.v);
	strv_free(&args, 0);
	strv_free(&env, 0);
	return r;
}

SG_SYSCALL_DEFINE3(sys_execve, filename, argv, envp)
{
	return do_execve(t, AT_FDCWD, filename, argv, envp, 0, sc_compat());
}

SG_SYSCALL_DEFINE3(compat_sys_execve, filename, argv, envp)
{
	return do_execve(t, AT_FDCWD, filename, argv, envp, 0, true);
}

SG_SYSCALL_DEFINE5(sys_execveat, fd, filename, argv, envp, flags)
{
	return do_execve(t, fd, filename, argv, envp, (int)flags, sc_compat());
}

SG_SYSCALL_DEFINE5(compat_sys_execveat, fd, filename, argv, envp, flags)
{
	return do_execve(t, fd, filename, argv, envp, (int)flags, true);
}
