/* store_driver [--expect-foreign] PROGRAM [ARG]... (a host tool): runs
 * PROGRAM (iso-stores natively, or sysgate with it) and gives it the
 * addresses of the host mappings of its process that its own maps view
 * does not show: under sysgate, sysgate's image, bss, heap, stacks and
 * decoded-code chunks; natively none. Protocol (stores.c): the program
 * writes its /proc/self/maps view on fd 4 and "end"; the driver reads
 * /proc/PID/maps of the process and answers on fd 3 with "ADDR PREVFREE"
 * lines and "end"; after the program's "done" it reads the targets
 * through /proc/PID/mem and answers "ok" when none holds the program's
 * pattern (a store that landed), else "written at target N". Exits with
 * the program's status as a shell reports it (128 + signal).
 * --expect-foreign: fail (exit 3) when there is no such mapping, so the
 * sysgate run cannot pass by finding nothing to aim at. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define TARGETS 6 /* stores.c */
#define MAGIC 0x5ca1ab1e5ca1ab1eull
#define MAX_RANGES 4096

struct range {
	unsigned long long start, end;
	char perms[8];
	char name[256];
};

static struct range view[MAX_RANGES], host[MAX_RANGES];
static unsigned nview, nhost;

static int parse_line(const char *line, struct range *r)
{
	int off = 0;

	memset(r, 0, sizeof(*r));
	if (sscanf(line, "%llx-%llx %7s %*s %*s %*s %n", &r->start, &r->end, r->perms, &off) < 3)
		return -1;
	if (off > 0)
		snprintf(r->name, sizeof(r->name), "%s", line + off);
	r->name[strcspn(r->name, "\n")] = 0;
	return 0;
}

static char *read_line(FILE *f, char *buf, size_t size)
{
	if (!fgets(buf, (int)size, f))
		return NULL;
	buf[strcspn(buf, "\n")] = 0;
	return buf;
}

static int overlaps_view(const struct range *r)
{
	for (unsigned i = 0; i < nview; i++)
		if (view[i].start < r->end && r->start < view[i].end)
			return 1;
	return 0;
}

static int host_mapped(unsigned long long addr)
{
	for (unsigned i = 0; i < nhost; i++)
		if (host[i].start <= addr && addr < host[i].end)
			return 1;
	return 0;
}

/* Up to TARGETS foreign mappings, one of each kind first: the image's
 * text and data, the heap, a stack, the largest anonymous writable
 * mapping (decoded code), then the rest by address. */
static unsigned pick(const struct range **out)
{
	const struct range *foreign[MAX_RANGES];
	unsigned nf = 0, n = 0;
	const struct range *largest = NULL;

	for (unsigned i = 0; i < nhost; i++)
		if (!overlaps_view(&host[i]) && host[i].end <= 0x800000000000ull &&
		    strcmp(host[i].perms, "---p") != 0)
			foreign[nf++] = &host[i];
	for (unsigned i = 0; i < nf; i++)
		if (!foreign[i]->name[0] && foreign[i]->perms[1] == 'w' &&
		    (!largest || foreign[i]->end - foreign[i]->start > largest->end - largest->start))
			largest = foreign[i];
	for (int pass = 0; pass < 6 && n < TARGETS; pass++) {
		for (unsigned i = 0; i < nf && n < TARGETS; i++) {
			const struct range *r = foreign[i];
			int take = 0, dup = 0;

			for (unsigned j = 0; j < n; j++)
				dup |= out[j] == r;
			if (dup)
				continue;
			switch (pass) {
			case 0: take = r->name[0] == '/' && r->perms[2] == 'x'; break;
			case 1: take = r->name[0] == '/' && r->perms[1] == 'w'; break;
			case 2: take = strcmp(r->name, "[heap]") == 0; break;
			case 3: take = strcmp(r->name, "[stack]") == 0; break;
			case 4: take = r == largest; break;
			default: take = 1; break;
			}
			if (take) {
				out[n++] = r;
				if (pass < 5)
					break;
			}
		}
	}
	return n;
}

int main(int argc, char **argv)
{
	int expect_foreign = 0, to_prog[2], from_prog[2], status;
	const struct range *targets[TARGETS];
	unsigned n;
	char line[1024], path[64];
	FILE *in, *out, *maps;
	pid_t pid;

	if (argc > 1 && strcmp(argv[1], "--expect-foreign") == 0)
		expect_foreign = 1, argv++, argc--;
	if (argc < 2) {
		fprintf(stderr, "usage: store_driver [--expect-foreign] PROGRAM [ARG]...\n");
		return 2;
	}
	if (pipe(to_prog) || pipe(from_prog))
		return 2;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		dup2(to_prog[0], 3);
		dup2(from_prog[1], 4);
		for (int fd = 5; fd < 16; fd++)
			close(fd);
		execvp(argv[1], argv + 1);
		_exit(127);
	}
	close(to_prog[0]);
	close(from_prog[1]);
	in = fdopen(from_prog[0], "r");
	out = fdopen(to_prog[1], "w");
	while (read_line(in, line, sizeof(line)) && strcmp(line, "end") != 0)
		if (nview < MAX_RANGES && parse_line(line, &view[nview]) == 0)
			nview++;
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	maps = fopen(path, "r");
	while (maps && read_line(maps, line, sizeof(line)))
		if (nhost < MAX_RANGES && parse_line(line, &host[nhost]) == 0)
			nhost++;
	if (maps)
		fclose(maps);
	n = pick(targets);
	if (expect_foreign && n == 0) {
		fprintf(stderr, "store_driver: no host mapping outside the program's view\n");
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		return 3;
	}
	for (unsigned i = 0; i < n; i++) {
		fprintf(stderr, "store_driver: target %u: %llx %s %s\n", i, targets[i]->start,
			targets[i]->perms, targets[i]->name);
		fprintf(out, "%llx %d\n", targets[i]->start,
			targets[i]->start >= 4096 && !host_mapped(targets[i]->start - 4096));
	}
	fprintf(out, "end\n");
	fflush(out);
	if (read_line(in, line, sizeof(line)) && strcmp(line, "done") == 0) {
		int mem;
		unsigned bad = n;

		snprintf(path, sizeof(path), "/proc/%d/mem", (int)pid);
		mem = open(path, O_RDONLY);
		if (mem < 0 && n)
			fprintf(stderr, "store_driver: %s: cannot read the targets\n", path);
		for (unsigned i = 0; i < n && mem >= 0; i++) {
			uint64_t w[4];

			if (pread(mem, w, sizeof(w), (off_t)targets[i]->start) != sizeof(w))
				continue; /* unreadable: nothing the program wrote */
			for (unsigned k = 0; k < 4; k++)
				if (w[k] == MAGIC || w[k] == 0x1e1e1e1e1e1e1e1eull)
					bad = i;
		}
		if (mem >= 0)
			close(mem);
		if (bad < n)
			fprintf(out, "written at target %u\n", bad);
		else
			fprintf(out, "ok\n");
		fflush(out);
	}
	fclose(out);
	fclose(in);
	if (waitpid(pid, &status, 0) < 0)
		return 2;
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}
