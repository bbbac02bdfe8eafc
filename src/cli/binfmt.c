/* binfmt_misc: registering sysgate as the kernel's handler of i386 and x32
 * ELF executables (docs/binfmt.md), and taking apart the command line the
 * kernel builds when it runs sysgate that way.
 *
 * Entries are "sysgate-i386" and "sysgate-x32", flags P (argv[0] kept:
 * the kernel passes program path, then the original argv[0], and sets
 * AT_FLAGS_PRESERVE_ARGV0) and F (the interpreter opened at registration,
 * so it works in containers and chroots). A sysroot (-L) is the entry's
 * own configuration: the entry's interpreter is a link (or copy) of
 * sysgate named for the entry in --binfmt-dir, with NAME.conf beside it;
 * /proc/self/exe names that file when the kernel runs it. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/binfmts.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli/binfmt.h"

#define BINFMT_MISC "/proc/sys/fs/binfmt_misc"
#define HEADER_LEN 20 /* e_ident, e_type, e_machine */

/* ELF header bytes that select an ABI: ELFCLASS32, little-endian,
 * version 1, ET_EXEC or ET_DYN (e_type's low bit masked), e_machine.
 * OSABI, ABI version and padding (bytes 7..15) are not looked at, as the
 * kernel's own loader does not. */
static const struct binfmt_abi {
	const char *abi, *entry;
	unsigned char magic[HEADER_LEN], mask[HEADER_LEN];
} abis[] = {
	{ "i386", "sysgate-i386",
	  { 0x7f, 'E', 'L', 'F', 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 3, 0 },
	  { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff } },
	{ "x32", "sysgate-x32",
	  { 0x7f, 'E', 'L', 'F', 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0x3e, 0 },
	  { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff } },
};
#define NABIS (sizeof(abis) / sizeof(abis[0]))

static void escaped(FILE *out, const unsigned char *b, size_t n)
{
	for (size_t k = 0; k < n; k++)
		fprintf(out, "\\x%02x", b[k]);
}

/* The kernel's register string: :name:M::magic:mask:interpreter:flags */
static char *register_line(const struct binfmt_abi *a, const char *interp)
{
	char *line = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&line, &len);

	if (!f)
		return NULL;
	fprintf(f, ":%s:M::", a->entry);
	escaped(f, a->magic, HEADER_LEN);
	fputc(':', f);
	escaped(f, a->mask, HEADER_LEN);
	fprintf(f, ":%s:PF", interp);
	fclose(f);
	return line;
}

/* Can this kernel run i386 programs itself? An INT 0x80 getpid in a child:
 * without IA32 emulation it is SIGSEGV. */
static bool host_runs_i386(void)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		long r = 20; /* __NR_getpid, i386 */

		__asm__ volatile("int $0x80" : "+a"(r) : : "memory");
		_exit(r == (long)getpid() ? 0 : 1);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return false;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* The entry's interpreter: sysgate itself, or with a sysroot a link (else a
 * copy) of it in dir with NAME.conf saying the sysroot. */
static int entry_interpreter(const struct binfmt_abi *a, const char *self, const char *sysroot,
			     const char *dir, char *out, size_t cap)
{
	char conf[PATH_MAX + 8], root[PATH_MAX];
	FILE *f;

	if (!sysroot) {
		snprintf(out, cap, "%s", self);
		return 0;
	}
	if (!realpath(sysroot, root)) {
		fprintf(stderr, "sysgate: %s: %s\n", sysroot, strerror(errno));
		return -1;
	}
	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		fprintf(stderr, "sysgate: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	snprintf(out, cap, "%s/%s", dir, a->entry);
	unlink(out);
	if (link(self, out) < 0) {
		/* another file system: a copy */
		int in = open(self, O_RDONLY | O_CLOEXEC), o;
		char buf[1 << 16];
		ssize_t n = 0;

		o = in < 0 ? -1 : open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
		while (o >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
			if (write(o, buf, (size_t)n) != n) {
				n = -1;
				break;
			}
		if (in >= 0)
			close(in);
		if (o < 0 || n < 0 || close(o) < 0) {
			fprintf(stderr, "sysgate: %s: %s\n", out, strerror(errno));
			return -1;
		}
	}
	snprintf(conf, sizeof(conf), "%s.conf", out);
	f = fopen(conf, "w");
	if (!f || fprintf(f, "sysroot=%s\n", root) < 0 || fclose(f) != 0) {
		fprintf(stderr, "sysgate: %s: %s\n", conf, strerror(errno));
		return -1;
	}
	return 0;
}

static void print_entry(const struct binfmt_abi *a, const char *interp, const char *line)
{
	printf("# %s: echo '%s' > " BINFMT_MISC "/register\n%s\n", a->entry, line, line);
	printf("# binfmt-support (/usr/share/binfmts/%s):\n", a->entry);
	printf("#   package sysgate\n#   interpreter %s\n#   magic ", interp);
	escaped(stdout, a->magic, HEADER_LEN);
	printf("\n#   mask ");
	escaped(stdout, a->mask, HEADER_LEN);
	printf("\n#   credentials no\n#   preserve yes\n#   fix_binary yes\n");
	printf("# systemd (/etc/binfmt.d/%s.conf): the line above\n", a->entry);
}

int binfmt_command(const char *action, const char *which, const char *sysroot, const char *dir)
{
	enum { REGISTER, UNREGISTER, PRINT } act;
	char self[PATH_MAX], interp[PATH_MAX], path[PATH_MAX];
	bool want[NABIS] = { false };
	int rc = 0;
	ssize_t n;

	if (!strcmp(action, "register"))
		act = REGISTER;
	else if (!strcmp(action, "unregister"))
		act = UNREGISTER;
	else if (!strcmp(action, "print"))
		act = PRINT;
	else {
		fprintf(stderr, "sysgate: --binfmt=%s: register, unregister or print\n", action);
		return 2;
	}
	if (!which || !strcmp(which, "x32")) {
		want[1] = true;
	} else if (!strcmp(which, "i386")) {
		want[0] = true;
	} else if (!strcmp(which, "all")) {
		want[0] = want[1] = true;
	} else {
		fprintf(stderr, "sysgate: --binfmt: '%s': i386, x32 or all\n", which);
		return 2;
	}
	if (want[0] && act == REGISTER && host_runs_i386()) {
		/* an entry would take i386 programs from the kernel that runs them */
		if (strcmp(which, "i386")) {
			fprintf(stderr, "sysgate: i386 not registered: this kernel runs i386 "
				"programs itself (ask for i386 alone to register it anyway)\n");
			want[0] = false;
		} else {
			fprintf(stderr, "sysgate: note: this kernel runs i386 programs itself; "
				"they will run under sysgate now\n");
		}
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n < 0) {
		fprintf(stderr, "sysgate: /proc/self/exe: %s\n", strerror(errno));
		return 1;
	}
	self[n] = 0;
	for (size_t k = 0; k < NABIS; k++) {
		const struct binfmt_abi *a = &abis[k];
		char *line;

		if (!want[k])
			continue;
		snprintf(path, sizeof(path), BINFMT_MISC "/%s", a->entry);
		if (act == UNREGISTER) {
			if (write_file(path, "-1") < 0 && errno != ENOENT) {
				fprintf(stderr, "sysgate: %s: %s\n", path, strerror(errno));
				rc = 1;
			}
			continue;
		}
		if (act == PRINT) {
			/* where register would put the entry's interpreter */
			if (sysroot)
				snprintf(interp, sizeof(interp), "%s/%s", dir, a->entry);
			else
				snprintf(interp, sizeof(interp), "%s", self);
		} else if (entry_interpreter(a, self, sysroot, dir, interp, sizeof(interp)) < 0) {
			rc = 1;
			continue;
		}
		line = register_line(a, interp);
		if (!line)
			return 1;
		if (act == PRINT) {
			print_entry(a, interp, line);
		} else {
			/* an entry of the same name is replaced */
			write_file(path, "-1");
			if (write_file(BINFMT_MISC "/register", line) < 0) {
				fprintf(stderr, "sysgate: " BINFMT_MISC "/register: %s%s\n",
					strerror(errno),
					errno == ENOENT ? " (mount -t binfmt_misc binfmt_misc "
							  BINFMT_MISC ")" : "");
				rc = 1;
			} else {
				printf("sysgate: registered %s (%s)\n", a->entry, interp);
			}
		}
		free(line);
	}
	return rc;
}

int binfmt_invocation(int *argc, char ***argv, const char **argv0, const char **sysroot)
{
	static char root[PATH_MAX + 16];
	char conf[PATH_MAX + 8], line[PATH_MAX + 16];
	ssize_t n;
	FILE *f;

	/* the kernel's P flag: sysgate PATH ARGV0 ARGS... */
	if (!(getauxval(AT_FLAGS) & AT_FLAGS_PRESERVE_ARGV0) || *argc < 3)
		return 0;
	*argv0 = (*argv)[2];
	(*argv)[2] = (*argv)[1]; /* the program path, then its arguments */
	(*argv)++;
	(*argc)--;
	n = readlink("/proc/self/exe", conf, PATH_MAX - 1);
	if (n < 0)
		return 1;
	memcpy(conf + n, ".conf", 6);
	f = fopen(conf, "re");
	if (!f)
		return 1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "sysroot=", 8)) {
			line[strcspn(line, "\n")] = 0;
			snprintf(root, sizeof(root), "%s", line + 8);
			*sysroot = root;
		}
	fclose(f);
	return 1;
}
