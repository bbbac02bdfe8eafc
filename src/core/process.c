/* sg_process lifecycle and the run loop: the seam where the CPU's stop
 * reasons meet the syscall layer (DESIGN.md, Data flow). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "sysgate.h"
#include "core/channel.h"
#include "core/embed.h"
#include "core/outproc.h"
#include "core/process.h"
#include "core/thread.h"
#include "hostfd/hostfd.h"

bool identity_adopt(struct sg_process *p, const char *path); /* identity.c */
#include "cpu/cpu.h"
#include "loader/loader.h"
#include "mm/mm.h"
#include "signal/signal.h"
#include "trace/trace.h"

/* sysgate's own binary, remembered before the guest can change anything
 * (execve re-enters it); SYSGATE_EXE names another (a library user's
 * guest then execs that CLI). */
static char *host_exe_path(void)
{
	const char *env = getenv("SYSGATE_EXE");
	char buf[4096];
	ssize_t n;

	if (env && *env)
		return strdup(env);
	n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	if (n <= 0)
		return NULL;
	buf[n] = 0;
	return strdup(buf);
}

SG_API enum sg_err sg_create(const struct sg_options *opts, sg_process **out)
{
	struct sg_process *p;

	if (!out)
		return SG_ERR_INVAL;
	*out = NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return SG_ERR_NOMEM;
	p->pending_trace_fd = -1;
	if (opts)
		p->opts = *opts;
	else
		sg_options_init(&p->opts);
	if (p->opts.stats)
		cpu_stats_enable(); /* for the whole host process: one guest per process */
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->threads_done, NULL);
	thread_hooks_init(p);
	p->host_exe = host_exe_path();
	/* the embedding API's state, here so that sg_stop never allocates */
	p->embed = calloc(1, sizeof(*p->embed));
	if (!p->embed)
		goto nomem;
	if (p->opts.sysroot) {
		/* canonical, as the host's getcwd and readlink answer paths
		 * (the guest's view takes the prefix off), and absolute, so
		 * a chdir does not move it */
		p->sysroot = realpath(p->opts.sysroot, NULL);
		if (!p->sysroot)
			p->sysroot = strdup(p->opts.sysroot);
		if (!p->sysroot)
			goto nomem;
		p->opts.sysroot = p->sysroot;
	}
	if (p->opts.mode != SG_MODE_OWN_PROCESS && p->opts.mode != SG_MODE_IN_PROCESS)
		goto inval;
	/* in-process, the guest's descriptors are yours: no stdio of its own */
	if (p->opts.mode == SG_MODE_IN_PROCESS &&
	    (p->opts.stdin_fd >= 0 || p->opts.stdout_fd >= 0 || p->opts.stderr_fd >= 0))
		goto inval;
	if (p->opts.embed_fd > 0) {
		/* an image a guest's execve started: the hooks come from the
		 * embedder; none to be had, the guest must not run unhooked */
		p->opts.mode = SG_MODE_IN_PROCESS;
		if (!guestside_hello(p, p->opts.embed_fd)) {
			sg_destroy(p);
			return SG_ERR_STATE;
		}
	}
	if (!p->opts.trace && p->opts.trace_filter && !trace_filter_valid(p->opts.trace_filter)) {
		int e = errno;

		sg_destroy(p);
		return e == EINVAL ? SG_ERR_FILTER : SG_ERR_NOMEM;
	}
	if (p->opts.trace && p->opts.mode == SG_MODE_OWN_PROCESS) {
		/* the trace is the guest process's (the first process's -c
		 * table, the timeline's end): made there (outproc.c); the
		 * filter is checked now */
		if (p->opts.trace_filter && !trace_filter_valid(p->opts.trace_filter)) {
			int e = errno;

			sg_destroy(p);
			return e == EINVAL ? SG_ERR_FILTER : SG_ERR_NOMEM;
		}
		p->pending_trace_fd = fcntl(p->opts.trace_fd >= 0 ? p->opts.trace_fd : STDERR_FILENO,
					    F_DUPFD_CLOEXEC, 3);
		if (p->pending_trace_fd < 0)
			goto nomem;
	} else if (p->opts.trace) {
		/* sysgate's own copy, out of the guest's reach (hostfd.h) */
		int fd = hostfd_dup(p->opts.trace_fd >= 0 ? p->opts.trace_fd
							  : STDERR_FILENO, NULL);
		if (fd < 0)
			goto nomem;
		p->trace = trace_create_opts(fd, &p->opts);
		if (!p->trace) {
			hostfd_close(fd);
			if (errno == EINVAL) {
				sg_destroy(p);
				return SG_ERR_FILTER;
			}
			goto nomem;
		}
	}
	*out = p;
	return SG_OK;
inval:
	sg_destroy(p);
	return SG_ERR_INVAL;
nomem:
	sg_destroy(p);
	return SG_ERR_NOMEM;
}

SG_API enum sg_err sg_load(sg_process *p, const char *path, char *const argv[],
			   char *const envp[])
{
	const struct load_args a = { .path = path, .argv = argv, .envp = envp };

	if (!p || !path || !argv || !envp)
		return SG_ERR_INVAL;
	if (p->loaded)
		return SG_ERR_STATE;
	if (p->opts.mode == SG_MODE_OWN_PROCESS && !p->guest)
		return client_load(p, &a);
	return process_load_here(p, &a);
}

/* Its ABI, memory, image facts, vDSO place and program path. */
void process_take_image(struct sg_process *p, const struct loader_out *out)
{
	p->abi = out->abi;
	p->mm = out->mm;
	p->image = out->image;
	p->vdso = (struct sg_vdso_place){
		.base = out->image.vdso_base,
		.sysenter_return = out->image.sysenter_return,
		.private_return = out->image.vdso_private_return,
	};
	free(p->exe_path);
	p->exe_path = out->exe_path;
}

enum sg_err process_load_here(struct sg_process *p, const struct load_args *a)
{
	const char *path = a->path;
	char *const *argv = a->argv, *const *envp = a->envp;
	struct loader_out out = { 0 };
	struct sg_thread *t;
	enum sg_err err;

	t = calloc(1, sizeof(*t));
	if (!t)
		return SG_ERR_NOMEM;
	t->proc = p;
	t->group = &p->group;
	t->tid = getpid();
	t->cpu.owner = t;
	err = loader_load(&(const struct loader_args){
				  .sysroot = p->sysroot,
				  .exec_name = p->opts.exec_name,
				  .no_aslr = p->opts.no_aslr,
				  .tsc_disabled = p->opts.tsc_disabled,
			  },
			  &out, &t->cpu, path, argv, envp);
	if (err != SG_OK) {
		free(t);
		return err;
	}
	process_take_image(p, &out);
	t->cpu.owner = t;
	p->main_thread = t;
	p->threads = t;
	p->nthreads = 1;
	sig_process_init(&p->group);
	sig_thread_init(&t->task);
	p->loaded = true;
	if (p->opts.guest_identity)
		p->host_shows_guest =
			identity_adopt(p, p->opts.exec_name ? p->opts.exec_name : path);
	return SG_OK;
}

SG_API enum sg_err sg_load_memory(sg_process *p, const void *image, size_t size,
				  char *const argv[], char *const envp[])
{
	const char *name = argv && argv[0] ? strrchr(argv[0], '/') : NULL;
	const char *at = image;
	char path[32];
	enum sg_err err;
	int fd;

	if (!p || (!image && size) || !argv || !envp)
		return SG_ERR_INVAL;
	if (p->loaded)
		return SG_ERR_STATE;
	name = name ? name + 1 : argv[0] ? argv[0] : "";
	/* a memfd as fexecve's: the loader reads and maps it like a file,
	 * the mappings keep it once the descriptor is closed */
	fd = (int)syscall(SYS_memfd_create, name, 1u /* MFD_CLOEXEC */);
	if (fd < 0)
		return SG_ERR_NOMEM;
	for (size_t done = 0; done < size;) {
		ssize_t n = write(fd, at + done, size - done);

		if (n <= 0) {
			close(fd);
			return n < 0 && errno == ENOSPC ? SG_ERR_NOMEM : SG_ERR_IO;
		}
		done += (size_t)n;
	}
	snprintf(path, sizeof(path), "/dev/fd/%d", fd);
	err = sg_load(p, path, argv, envp);
	close(fd);
	return err;
}

SG_API enum sg_abi sg_process_abi(const sg_process *p)
{
	return p ? p->abi : SG_ABI_NONE;
}

SG_API enum sg_err sg_run(sg_process *p, struct sg_exit *status)
{
	if (!p || !p->loaded)
		return SG_ERR_STATE;
	if (p->client)
		return client_run(p, CHAN_RUN, 0, 0, status);
	if (p->guest && !guestside_serving(p)) {
		/* an image a guest's execve started under an embedder: it
		 * goes on running, then serves the embedder's requests */
		struct sg_exit st = { 0 };
		enum sg_err err = guestside_serve(p, true, &st);

		if (status)
			*status = st;
		return err == SG_ERR_STATE && p->exited ? SG_OK : err;
	}
	return process_run_here(p, status);
}

enum sg_err process_run_here(struct sg_process *p, struct sg_exit *status)
{
	struct sg_thread *t;

	if (p->exited) { /* ran to its end already: as sg_step says */
		if (status)
			*status = p->exit;
		return SG_ERR_STATE;
	}
	t = p->main_thread;
	cpu_install_fault_handler();
	if (p->trace && p->opts.trace_initial_exec && !p->start_traced) {
		struct trace_task task;

		p->start_traced = true;
		trace_task_of(&task, t);
		trace_initial_execve(p->trace, &task, p->image.stack_pointer);
	}
	thread_loop(t);
	if (embed_stopped(p)) {
		p->embed->stopped = false;
		/* a stop on the program's last instruction (exit_group) is
		 * its exit: the threads are waited for below */
		if (!p->exiting) {
			if (status)
				*status = p->exit;
			return SG_ERR_STOPPED;
		}
	}
	thread_finish(t);
	thread_wait_all(p);
	if (p->opts.stats)
		process_print_run_stats(p, "exit");
	if (p->trace)
		trace_exit(p->trace, &p->exit);
	if (status)
		*status = p->exit;
	return SG_OK;
}

SG_API void sg_destroy(sg_process *p)
{
	if (!p)
		return;
	if (p->client)
		client_destroy(p); /* the guest's process killed if it runs */
	if (p->pending_trace_fd >= 0)
		close(p->pending_trace_fd);
	guestside_destroy(p);
	if (embed_debugger(p))
		embed_debugger(p)->destroy(p); /* its thread reads p */
	if (p->trace)
		trace_destroy(p->trace);
	if (p->mm)
		mm_destroy(p->mm);
	if (p->main_thread)
		cpu_release(&p->main_thread->cpu);
	free(p->main_thread);
	thread_free_dead(p);
	free(p->exe_path);
	free(p->host_exe);
	embed_destroy(p); /* hooks of the embedding API (core/embed.c) */
	free(p->sysroot);
	free(p);
}
