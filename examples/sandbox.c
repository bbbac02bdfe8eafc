/* sandbox: run a program under sysgate, letting it write files only inside
 * one directory. Every system call that would create, change or remove a
 * file is checked on entry; a path outside the directory gets EACCES
 * without the call being made.
 *
 *   usage: sandbox DIR PROGRAM [ARG]...
 *
 * Built against the installed library:
 *   cc sandbox.c $(pkg-config --cflags --libs sysgate) -o sandbox
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sysgate.h>

extern char **environ;

/* The calls that write through a path: which argument holds the path, which
 * the directory fd it is relative to (-1: the cwd), and for open-like
 * calls which holds the flags (-1: every use writes). Two-path calls
 * (rename, link) list their destination; the source is checked too. */
static const struct rule {
	const char *name;
	int dirfd, path, flags;
	int dirfd2, path2; /* second path (rename, link), -1 if none */
} rules[] = {
	{ "open", -1, 0, 1, -1, -1 },
	{ "openat", 0, 1, 2, -1, -1 },
	{ "openat2", 0, 1, -1, -1, -1 },
	{ "creat", -1, 0, -1, -1, -1 },
	{ "mkdir", -1, 0, -1, -1, -1 },
	{ "mkdirat", 0, 1, -1, -1, -1 },
	{ "rmdir", -1, 0, -1, -1, -1 },
	{ "unlink", -1, 0, -1, -1, -1 },
	{ "unlinkat", 0, 1, -1, -1, -1 },
	{ "rename", -1, 0, -1, -1, 1 },
	{ "renameat", 0, 1, -1, 2, 3 },
	{ "renameat2", 0, 1, -1, 2, 3 },
	{ "link", -1, 0, -1, -1, 1 },
	{ "linkat", 0, 1, -1, 2, 3 },
	{ "symlink", -1, 1, -1, -1, -1 },
	{ "symlinkat", 1, 2, -1, -1, -1 },
	{ "truncate", -1, 0, -1, -1, -1 },
	{ "truncate64", -1, 0, -1, -1, -1 },
	{ "chmod", -1, 0, -1, -1, -1 },
	{ "fchmodat", 0, 1, -1, -1, -1 },
	{ "chown", -1, 0, -1, -1, -1 },
	{ "lchown", -1, 0, -1, -1, -1 },
	{ "chown32", -1, 0, -1, -1, -1 },
	{ "lchown32", -1, 0, -1, -1, -1 },
	{ "fchownat", 0, 1, -1, -1, -1 },
	{ "mknod", -1, 0, -1, -1, -1 },
	{ "mknodat", 0, 1, -1, -1, -1 },
	{ "utimensat", 0, 1, -1, -1, -1 },
};

struct sandbox {
	char root[PATH_MAX];  /* the allowed directory, resolved */
	unsigned denied;
};

/* The absolute form of path (relative to dirfd of guest thread tid), with
 * its last component kept as given: the file may not exist yet, but its
 * directory does. The guest's working directory and descriptors are read
 * from /proc/TID: the guest runs in a process of its own (and in-process
 * TID is a thread of this one: the same answer). */
static int resolve(int tid, int dirfd, const char *path, char *out)
{
	char base[PATH_MAX], dir[PATH_MAX], real[PATH_MAX], joined[2 * PATH_MAX + 2];
	const char *slash;
	size_t n;

	if (path[0] == '/') {
		snprintf(joined, sizeof(joined), "%s", path);
	} else {
		char link[64];
		ssize_t len;

		/* guest descriptors are host descriptors, of its process */
		if (dirfd == AT_FDCWD)
			snprintf(link, sizeof(link), "/proc/%d/cwd", tid);
		else
			snprintf(link, sizeof(link), "/proc/%d/fd/%d", tid, dirfd);
		len = readlink(link, base, sizeof(base) - 1);
		if (len <= 0)
			return -1;
		base[len] = '\0';
		snprintf(joined, sizeof(joined), "%s/%s", base, path);
	}
	slash = strrchr(joined, '/');
	n = (size_t)(slash - joined);
	memcpy(dir, joined, n);
	dir[n] = '\0';
	if (!realpath(n ? dir : "/", real))
		return -1;
	if (strlen(real) + strlen(slash) >= PATH_MAX)
		return -1;
	strcpy(out, strcmp(real, "/") ? real : "");
	strcat(out, slash);
	return 0;
}

static int inside(const struct sandbox *sb, const char *abs)
{
	size_t n = strlen(sb->root);

	return !strncmp(abs, sb->root, n) && (abs[n] == '/' || abs[n] == '\0');
}

/* 1 if argument pair (dirfd, path) of the call points outside the root. */
static int outside(sg_process *p, const struct sandbox *sb,
		   const struct sg_syscall_info *info, int dirfd_arg, int path_arg)
{
	char path[PATH_MAX], abs[PATH_MAX];
	int dirfd = dirfd_arg < 0 ? AT_FDCWD : (int)info->args[dirfd_arg];

	if (sg_mem_read_string(p, info->args[path_arg], path, sizeof(path)) != SG_OK)
		return 0; /* the call itself will answer EFAULT */
	if (resolve(info->tid, dirfd, path, abs) < 0)
		return 0; /* a missing directory: the call will fail on its own */
	return !inside(sb, abs);
}

static enum sg_hook_action on_entry(sg_process *p, struct sg_syscall_info *info,
				    void *user)
{
	struct sandbox *sb = user;

	if (!info->name)
		return SG_HOOK_CONTINUE;
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		const struct rule *r = &rules[i];

		if (strcmp(info->name, r->name))
			continue;
		if (r->flags >= 0 &&
		    !(info->args[r->flags] & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC)))
			return SG_HOOK_CONTINUE; /* opened for reading */
		if (outside(p, sb, info, r->dirfd, r->path) ||
		    (r->path2 >= 0 && outside(p, sb, info, r->dirfd2, r->path2))) {
			char path[PATH_MAX] = "?";

			sg_mem_read_string(p, info->args[r->path], path, sizeof(path));
			fprintf(stderr, "sandbox: denied %s(\"%s\")\n", info->name, path);
			sb->denied++;
			info->result = -EACCES;
			return SG_HOOK_SKIP;
		}
		return SG_HOOK_CONTINUE;
	}
	return SG_HOOK_CONTINUE;
}

int main(int argc, char **argv)
{
	struct sandbox sb = { .denied = 0 };
	struct sg_options opts;
	struct sg_exit status;
	sg_process *p;
	enum sg_err err;

	if (argc < 3) {
		fprintf(stderr, "usage: sandbox DIR PROGRAM [ARG]...\n");
		return 2;
	}
	if (!realpath(argv[1], sb.root)) {
		perror(argv[1]);
		return 2;
	}
	sg_options_init(&opts);
	err = sg_create(&opts, &p);
	if (err == SG_OK)
		err = sg_hook_syscall_entry(p, on_entry, &sb);
	if (err == SG_OK)
		err = sg_load(p, argv[2], &argv[2], environ);
	if (err == SG_OK)
		err = sg_run(p, &status);
	if (err != SG_OK) {
		fprintf(stderr, "sandbox: %s: %s\n", argv[2], sg_strerror(err));
		sg_destroy(p);
		return 127;
	}
	sg_destroy(p);
	fprintf(stderr, "sandbox: %u call%s denied\n", sb.denied, sb.denied == 1 ? "" : "s");
	return status.signaled ? 128 + status.signal : status.code;
}
