/* A guest execve done in place: the new program loaded into this sysgate
 * instead of a host execve of sysgate's binary (docs/syscalls.md, execve).
 * The syscall module (syscall/execve.c) reads the call, resets what the
 * kernel's exec resets of the task (signals, descriptors, timers, ...)
 * and asks core through the group's hooks, since only core may reach the
 * loader: exec_check before the point of no return, exec_replace after
 * it. The new registers are set by the run loop once the entry code's
 * return path is done with the old ones (thread.c, do_syscall), as the
 * kernel's exec returns to user mode through a fresh register frame. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/embed.h"
#include "core/exec_image.h"
#include "core/process.h"
#include "core/thread.h"
#include "cpu/cpu.h"
#include "loader/loader.h"
#include "mm/mm.h"

bool identity_adopt(struct sg_process *p, const char *path); /* identity.c */

static struct loader_args exec_loader_args(const struct sg_thread *t,
					   const struct sg_exec_req *req)
{
	const struct sg_process *p = t->proc;

	return (struct loader_args){
		.sysroot = p->sysroot,
		.exec_name = req->exec_name,
		.no_aslr = p->opts.no_aslr,
		.tsc_disabled = t->cpu.tsc_disabled,
	};
}

/* In place only where nothing outside this image holds on to it: one
 * guest thread (the kernel's de_thread is not done here: a host execve
 * ends the others), no debugger, no embedder (the embedding API's hooks,
 * a guest in a process of its own: their exec protocol is the host
 * execve's new image), and not forced onto the host (--exec=host). */
static int exec_check(struct sg_task *k, const struct sg_exec_req *req)
{
	struct sg_thread *t = thread_of_task(k);
	struct sg_process *p = t->proc;
	struct loader_args a = exec_loader_args(t, req);
	int e;

	/* the files first: the host execve's new image would fail on the
	 * same (a missing interpreter), where the old image cannot hear it */
	e = loader_exec_check(&a, req->path, req->argv);
	if (e)
		return -e;
	if (p->opts.exec_host || p->guest || p->client || embed_hooked(p))
		return SG_EXEC_ON_HOST;
	pthread_mutex_lock(&p->lock);
	e = p->nthreads == 1 && p->main_thread == t ? 0 : SG_EXEC_ON_HOST;
	pthread_mutex_unlock(&p->lock);
	return e;
}

#define CODE_FILES_MAX 64

/* Where old and new map the same file version at the same place (and
 * offset), never writable: the code decoded there stays good. */
static size_t same_code(const struct mm_code_file *old, size_t nold,
			const struct mm_code_file *new, size_t nnew,
			struct cpu_code_range *keep)
{
	size_t n = 0;

	for (size_t i = 0; i < nold; i++) {
		for (size_t j = 0; j < nnew; j++) {
			const struct mm_code_file *a = &old[i], *b = &new[j];
			uint64_t lo = a->start > b->start ? a->start : b->start;
			uint64_t hi = a->end < b->end ? a->end : b->end;

			if (lo >= hi || a->dev != b->dev || a->ino != b->ino ||
			    a->mtime_ns != b->mtime_ns || a->ctime_ns != b->ctime_ns ||
			    a->offset - a->start != b->offset - b->start)
				continue;
			keep[n++] = (struct cpu_code_range){ lo, hi };
			if (n == CODE_FILES_MAX)
				return n;
		}
	}
	return n;
}

static bool exec_replace(struct sg_task *k, const struct sg_exec_req *req)
{
	struct sg_thread *t = thread_of_task(k);
	struct sg_process *p = t->proc;
	struct loader_args a = exec_loader_args(t, req);
	struct loader_out out = { 0 };
	struct mm_code_file old[CODE_FILES_MAX], new[CODE_FILES_MAX];
	struct cpu_code_range keep[CODE_FILES_MAX];
	size_t nold, nkeep = 0;
	bool was_i386 = p->abi == SG_ABI_I386;
	uint64_t epoch;
	enum sg_err err;

	/* the old image's mappings (the low 4 GiB's reservation with them:
	 * the new mm makes its own); its decoded code where the new image
	 * maps the same file version at the same place is kept (a shell
	 * running busybox or itself, the same ld.so at a fixed address) */
	nold = mm_code_files(p->mm, old, CODE_FILES_MAX);
	epoch = cpu_code_epoch(&t->cpu);
	mm_destroy(p->mm);
	p->mm = NULL;
	t->cpu.mm = NULL;
	err = loader_load(&a, &out, &t->cpu, req->path, req->argv, req->envp);
	if (err == SG_OK && was_i386 == (out.abi == SG_ABI_I386)) /* the CPU mode */
		nkeep = same_code(old, nold, new, mm_code_files(out.mm, new, CODE_FILES_MAX),
				  keep);
	cpu_keep_code(&t->cpu, epoch, keep, nkeep);
	if (err != SG_OK) {
		/* what the kernel finds only while mapping: it kills the new
		 * image with SIGSEGV (the CLI's message for a start) */
		fprintf(stderr, "sysgate: %s: %s\n", req->path, sg_strerror(err));
		process_exit(t, &(const struct sg_exit){ .signaled = 1, .signal = SIGSEGV });
		return false;
	}
	process_take_image(p, &out);
	if (p->opts.guest_identity)
		p->host_shows_guest =
			identity_adopt(p, req->exec_name ? req->exec_name : req->path);
	t->exec_fresh = true; /* do_syscall: the new registers, once more */
	return true;
}

void exec_image_fresh_cpu(struct sg_thread *t)
{
	struct sg_process *p = t->proc;
	const struct loader_out out = { .abi = p->abi, .mm = p->mm, .image = p->image };

	t->exec_fresh = false;
	loader_init_cpu(&t->cpu, &out, t->cpu.tsc_disabled);
}

void exec_image_hooks_init(struct sg_process *p)
{
	p->hooks.exec_check = exec_check;
	p->hooks.exec_replace = exec_replace;
}
