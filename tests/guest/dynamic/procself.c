/* /proc/self as the guest sees it: cmdline, environ and auxv hold this
 * process's own argv, environment and auxiliary vector, exe names this
 * program, maps lists its own mappings (the program, [vdso], [stack]).
 * Prints what it finds; the native run is the oracle. */
#include <elf.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

extern char **environ;
static char buf[1 << 16];
static const char *label; /* the path as printed: /proc/PID for our pid */

static int slurp(const char *path)
{
	int fd = open(path, O_RDONLY), n = 0, r;

	if (fd < 0)
		return -1;
	while (n < (int)sizeof(buf) && (r = read(fd, buf + n, sizeof(buf) - n)) > 0)
		n += r;
	close(fd);
	return n;
}

/* The kernel's /proc/self/auxv length for the vector on our stack (see
 * docs/loader.md): 64-bit pairs up to AT_NULL; compat pairs packed, on to
 * the next even pair. */
static void check_auxv(const char *path)
{
	char **e = environ;
	unsigned long *v;
	size_t pairs = 0, want;
	int n = slurp(path);

	while (*e)
		e++;
	v = (unsigned long *)(e + 1);
	while (v[2 * pairs] != AT_NULL)
		pairs++;
	pairs++;
	if (sizeof(long) == 8)
		want = pairs * 16;
	else
		want = 8 * (pairs + 1 + ((pairs - 1) & 1));
	printf("%s: length as the kernel's: %d, same vector: %d, zero tail: %d\n",
	       label, n == (int)want, memcmp(buf, v, pairs * 2 * sizeof(long)) == 0,
	       n >= (int)(pairs * 2 * sizeof(long)) &&
		       !memchr(buf + pairs * 2 * sizeof(long), 1,
			       n - pairs * 2 * sizeof(long)));
}

static void check_cmdline(const char *path, int argc, char **argv)
{
	int n = slurp(path), pos = 0, same = 1;

	for (int i = 0; i < argc; i++) {
		size_t len = strlen(argv[i]) + 1;

		same &= pos + (int)len <= n && memcmp(buf + pos, argv[i], len) == 0;
		pos += (int)len;
	}
	printf("%s: %d bytes, argv: %d\n", label, n, same && pos == n);
}

static void check_environ(const char *path)
{
	int n = slurp(path), pos = 0, same = 1, count = 0;

	for (char **e = environ; *e; e++, count++) {
		size_t len = strlen(*e) + 1;

		same &= pos + (int)len <= n && memcmp(buf + pos, *e, len) == 0;
		pos += (int)len;
	}
	printf("%s: %d variables, environ: %d\n", label, count, same && pos == n);
}

static void check_maps(const char *path)
{
	char exe[4096], line[8192], *p;
	int n = slurp(path), prog = 0, vdso = 0, stack = 0, heap_ok = 1;
	uintptr_t main_addr = (uintptr_t)&check_maps, main_in_exe = 0;
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	exe[len > 0 ? len : 0] = '\0';
	buf[n > 0 ? n : 0] = '\0';
	for (p = strtok(buf, "\n"); p; p = strtok(NULL, "\n")) {
		unsigned long lo, hi;
		char perms[5];

		snprintf(line, sizeof(line), "%s", p);
		if (sscanf(line, "%lx-%lx %4s", &lo, &hi, perms) != 3)
			heap_ok = 0;
		prog += strstr(line, exe) != NULL;
		vdso += strstr(line, "[vdso]") != NULL;
		stack += strstr(line, "[stack]") != NULL;
		if (main_addr >= lo && main_addr < hi && strstr(line, exe) &&
		    perms[2] == 'x')
			main_in_exe = 1;
	}
	printf("%s: program mapped: %d, code here: %d, [vdso]: %d, [stack]: %d, well-formed: %d\n",
	       label, prog > 0, (int)main_in_exe, vdso, stack, heap_ok);
}

int main(int argc, char **argv)
{
	char path[64], exe[4096], *real = realpath(argv[0], NULL);
	const char *self[] = { "/proc/self", "/proc/thread-self", path };
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	snprintf(path, sizeof(path), "/proc/%d", (int)getpid());
	exe[len > 0 ? len : 0] = '\0';
	/* argv[0] is the path run (a symlink in the e2e harness) */
	printf("exe is argv[0]'s file: %d\n", real && strcmp(exe, real) == 0);
	for (int i = 0; i < 3; i++) {
		const char *dir = i == 2 ? "/proc/PID" : self[i];
		char p[128], l[128];

#define AT(entry) (snprintf(p, sizeof(p), "%s/%s", self[i], entry), \
		   snprintf(l, sizeof(l), "%s/%s", dir, entry), label = l, p)
		check_cmdline(AT("cmdline"), argc, argv);
		check_environ(AT("environ"));
		check_auxv(AT("auxv"));
		check_maps(AT("maps"));
#undef AT
	}
	return 0;
}
