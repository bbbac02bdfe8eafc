/* `#!` scripts, as the kernel's binfmt_script reads them: the first line
 * (at most 256 bytes, BINPRM_BUF_SIZE) names an interpreter and at most
 * one argument (everything after the name, trailing blanks removed). The
 * interpreter runs with argv = interpreter, [argument,] script path as
 * given, the script's arguments after argv[0]. An interpreter may itself
 * be a script, up to the kernel's depth of 5. And the sysroot: where an
 * absolute program or interpreter path is looked up first. */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loader/loader_internal.h"

#define BINPRM_BUF_SIZE 256
#define MAX_SCRIPT_DEPTH 5

const char *loader_sysroot_path(const char *sysroot, const char *name,
				char *buf, size_t size)
{
	struct stat st;

	if (!sysroot || !sysroot[0] || name[0] != '/')
		return name;
	if (snprintf(buf, size, "%s%s", sysroot, name) >= (int)size)
		return name;
	return stat(buf, &st) == 0 ? buf : name;
}

static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Parse "#!" line in buf (n bytes read). Returns SG_OK with name/arg
 * pointing into buf (NUL-terminated in place), SG_ERR_NOEXEC when it is
 * not a script, or the interpreter name does not fit the buffer. */
static enum sg_err parse_line(char *buf, size_t n, char **name, char **arg)
{
	char *p, *end;

	if (n < 2 || buf[0] != '#' || buf[1] != '!')
		return SG_ERR_NOEXEC;
	end = memchr(buf, '\n', n);
	if (!end) {
		/* no newline in the buffer: fine only if the interpreter name
		 * ends before it (the kernel's "truncated name" rule) */
		end = buf + n;
		for (p = buf + 2; p < end && blank(*p); p++)
			;
		while (p < end && !blank(*p))
			p++;
		if (p == end)
			return SG_ERR_NOEXEC;
	}
	*end = '\0';
	while (end > buf + 2 && blank(end[-1]))
		*--end = '\0';
	for (p = buf + 2; blank(*p); p++)
		;
	if (!*p)
		return SG_ERR_NOEXEC;
	*name = p;
	while (*p && !blank(*p))
		p++;
	*arg = NULL;
	if (*p) {
		*p++ = '\0';
		while (blank(*p))
			p++;
		if (*p)
			*arg = p;
	}
	return SG_OK;
}

void script_free(struct script_exec *s)
{
	for (size_t i = 0; s->argv && s->argv[i]; i++)
		free(s->argv[i]);
	free(s->argv);
	s->argv = NULL;
	s->path = NULL;
}

/* New argv: name, [arg,] script, old argv[1..]. */
static char **script_argv(const char *name, const char *arg,
			  const char *script, char *const argv[])
{
	size_t argc = 0, n = 0;
	char **v;

	while (argv[argc])
		argc++;
	v = calloc(argc + 4, sizeof(*v));
	if (!v)
		return NULL;
	v[n++] = strdup(name);
	if (arg)
		v[n++] = strdup(arg);
	v[n++] = strdup(script);
	for (size_t i = 1; i < argc; i++)
		v[n++] = strdup(argv[i]);
	for (size_t i = 0; i < n; i++) {
		if (!v[i]) {
			struct script_exec tmp = { .argv = v };

			script_free(&tmp);
			return NULL;
		}
	}
	return v;
}

enum sg_err script_resolve(const char *sysroot, const char *path,
			   char *const argv[], struct script_exec *out)
{
	char buf[BINPRM_BUF_SIZE + 1];
	const char *cur = path;
	char *const *cur_argv = argv;

	memset(out, 0, sizeof(*out));
	for (int depth = 0;; depth++) {
		char rooted[PATH_MAX], *name, *arg;
		const char *file = loader_sysroot_path(sysroot, cur, rooted,
						       sizeof(rooted));
		int fd = open(file, O_RDONLY | O_CLOEXEC);
		ssize_t n;
		char **v;

		if (fd < 0)
			break; /* elf_open reports why */
		n = read(fd, buf, BINPRM_BUF_SIZE);
		close(fd);
		if (n < 0 || parse_line(buf, (size_t)n, &name, &arg) != SG_OK)
			break;
		if (depth == MAX_SCRIPT_DEPTH) {
			script_free(out);
			out->too_deep = true;
			return SG_ERR_NOEXEC; /* ELOOP, really */
		}
		v = script_argv(name, arg, cur, cur_argv);
		if (!v) {
			script_free(out);
			return SG_ERR_NOMEM;
		}
		script_free(out);
		out->argv = v;
		cur_argv = v;
		cur = v[0];
	}
	out->path = cur;
	return SG_OK;
}
