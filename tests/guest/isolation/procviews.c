/* procviews: every spelling of this process's /proc files that describe
 * its memory and exec facts gives the same bytes as /proc/self/<file>
 * (natively they are one file), and smaps, smaps_rollup and numa_maps
 * describe the mappings maps lists. Each spelling prints "same" or
 * "differs"; nothing else depends on the run. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define BUF_MAX (1 << 20)
static char ref[BUF_MAX], got[BUF_MAX];

/* The whole file at dfd/path into buf; length, or -1 */
static long slurp_at(int dfd, const char *path, char *buf)
{
	int fd = openat(dfd, path, O_RDONLY | O_CLOEXEC);
	long n = 0, r;

	if (fd < 0)
		return -1;
	while ((r = read(fd, buf + n, BUF_MAX - 1 - n)) > 0)
		n += r;
	close(fd);
	buf[n] = '\0';
	return r < 0 ? -1 : n;
}

static void compare(const char *what, long nref, int dfd, const char *path)
{
	long n = slurp_at(dfd, path, got);

	printf("%-28s %s\n", what,
	       n < 0 ? "cannot read" : n == nref && memcmp(ref, got, n) == 0 ? "same" : "differs");
}

/* The "start-end" of each line of maps (the mappings, in order) */
static void ranges_of_maps(const char *maps, char *out)
{
	*out = '\0';
	for (const char *p = maps; *p; p = strchr(p, '\n') + 1) {
		strncat(out, p, strcspn(p, " "));
		strcat(out, "\n");
	}
}

int main(void)
{
	static const char *const files[] = { "maps", "auxv", "cmdline", "environ",
					     "smaps", "numa_maps", "smaps_rollup" };
	static char want[BUF_MAX], have[BUF_MAX], path[256], what[64];
	int pid = getpid(), tid = (int)syscall(SYS_gettid);
	int self = open("/proc/self", O_RDONLY | O_DIRECTORY);
	int proc = open("/proc", O_RDONLY | O_DIRECTORY);
	int task = -1;

	printf("start\n"); /* stdout's buffer exists before maps is read */
	snprintf(path, sizeof(path), "/proc/self/task/%d", tid);
	task = open(path, O_RDONLY | O_DIRECTORY);
	symlink("/proc/self/maps", "maps-link");
	for (unsigned i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		const char *f = files[i];
		char spelled[8][128];
		long nref;

		snprintf(path, sizeof(path), "/proc/self/%s", f);
		nref = slurp_at(AT_FDCWD, path, ref);
		if (nref < 0) {
			printf("%s: cannot read\n", f);
			continue;
		}
		if (strcmp(f, "smaps") == 0 || strcmp(f, "smaps_rollup") == 0 ||
		    strcmp(f, "numa_maps") == 0)
			continue; /* their numbers move between reads: below */
		snprintf(spelled[0], 128, "/proc/self/task/%d/%s", tid, f);
		snprintf(spelled[1], 128, "//proc/self/%s", f);
		snprintf(spelled[2], 128, "/proc/./self/%s", f);
		snprintf(spelled[3], 128, "/proc/self/../self/%s", f);
		snprintf(spelled[4], 128, "/proc/%d/%s", pid, f);
		snprintf(spelled[5], 128, "/proc/thread-self/%s", f);
		snprintf(spelled[6], 128, "/proc/%d/task/%d/%s", pid, tid, f);
		for (unsigned k = 0; k < 7; k++) {
			/* names without the pid and tid, which differ per run */
			static const char *const names[] = {
				"task/TID", "//proc", "/proc/./self", "self/../self",
				"/proc/PID", "thread-self", "PID/task/TID" };

			snprintf(what, sizeof(what), "%s %s", f, names[k]);
			compare(what, nref, AT_FDCWD, spelled[k]);
		}
		snprintf(what, sizeof(what), "%s openat(/proc/self)", f);
		compare(what, nref, self, f);
		snprintf(what, sizeof(what), "%s openat(/proc)", f);
		snprintf(path, sizeof(path), "self/%s", f);
		compare(what, nref, proc, path);
		snprintf(what, sizeof(what), "%s openat(task dir)", f);
		compare(what, nref, task, f);
	}
	{
		long nref = slurp_at(AT_FDCWD, "/proc/self/maps", ref);

		compare("maps via a symlink", nref, AT_FDCWD, "maps-link");
	}
	{
		/* the exe link read through other spellings */
		char exe[256], spelled[3][128], got_exe[256];
		long n = readlink("/proc/self/exe", exe, sizeof(exe));
		static const char *const names[] = { "//proc", "PID/task/TID", "readlinkat(/proc/self)" };

		snprintf(spelled[0], 128, "//proc/self/exe");
		snprintf(spelled[1], 128, "/proc/%d/task/%d/exe", pid, tid);
		for (unsigned k = 0; k < 3; k++) {
			long m = k < 2 ? readlink(spelled[k], got_exe, sizeof(got_exe))
				       : readlinkat(self, "exe", got_exe, sizeof(got_exe));

			printf("exe %-24s %s\n", names[k],
			       m == n && memcmp(exe, got_exe, n) == 0 ? "same" : "differs");
		}
	}
	{
		/* an O_PATH fd of maps reopened through /proc/self/fd */
		long nref = slurp_at(AT_FDCWD, "/proc/self/maps", ref);
		int o = open("/proc/self/maps", O_PATH | O_CLOEXEC);

		snprintf(path, sizeof(path), "/proc/self/fd/%d", o);
		compare("maps via an O_PATH fd", nref, AT_FDCWD, path);
		close(o);
	}

	{
		/* the descriptor itself: what /proc/self/fd/N names, its mode,
		 * its access mode (the pid is taken out of the link) */
		for (unsigned i = 0; i < 2; i++) {
			const char *f = i ? "auxv" : "maps";
			char link[256], want_link[64];
			int fd;
			long m;
			struct stat st;

			snprintf(path, sizeof(path), "/proc/self/%s", f);
			fd = open(path, O_RDONLY | O_CLOEXEC);
			snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
			m = readlink(path, link, sizeof(link) - 1);
			link[m > 0 ? m : 0] = '\0';
			snprintf(want_link, sizeof(want_link), "/proc/%d/%s", pid, f);
			printf("%s fd link %s\n", f, strcmp(link, want_link) ? link : "/proc/PID/FILE");
			if (fstat(fd, &st) == 0)
				printf("%s fd mode %o\n", f, (unsigned)st.st_mode);
			printf("%s fd access %d\n", f, fcntl(fd, F_GETFL) & O_ACCMODE);
			printf("%s fd write %s\n", f, write(fd, "x", 1) < 0 ? "fails" : "works");
			close(fd);
		}
	}
	/* smaps: its header lines are the maps lines */
	slurp_at(AT_FDCWD, "/proc/self/maps", ref);
	slurp_at(AT_FDCWD, "/proc/self/smaps", got);
	ranges_of_maps(ref, want);
	{
		char *h = have, *line;

		*h = '\0';
		for (line = strtok(got, "\n"); line; line = strtok(NULL, "\n"))
			if ((line[0] >= '0' && line[0] <= '9') || (line[0] >= 'a' && line[0] <= 'f')) {
				strncat(h, line, strcspn(line, " "));
				strcat(h, "\n");
			}
		printf("smaps ranges                 %s\n", strcmp(want, have) ? "differ" : "same as maps");
	}
	/* the [vsyscall] page (x86_64) is not one of the mm's mappings:
	 * numa_maps and smaps_rollup leave it out */
	if (strstr(want, "ffffffffff600000-"))
		*strstr(want, "ffffffffff600000-") = '\0';
	/* numa_maps: one line per mapping, by start address */
	if (slurp_at(AT_FDCWD, "/proc/self/numa_maps", got) >= 0) {
		char starts[BUF_MAX / 4], *s = starts;

		*s = '\0';
		for (char *p = want; *p; p = strchr(p, '\n') + 1) {
			strncat(s, p, strcspn(p, "-"));
			strcat(s, "\n");
		}
		*have = '\0';
		for (char *line = strtok(got, "\n"); line; line = strtok(NULL, "\n")) {
			strncat(have, line, strcspn(line, " "));
			strcat(have, "\n");
		}
		printf("numa_maps starts             %s\n", strcmp(starts, have) ? "differ" : "same as maps");
	} else {
		printf("numa_maps                    none\n");
	}
	/* smaps_rollup: first start to last end of maps */
	if (slurp_at(AT_FDCWD, "/proc/self/smaps_rollup", got) >= 0) {
		char first[40] = "", *last, span[96];

		last = strrchr(want, '\n');
		sscanf(want, "%39[^-]", first);
		*last = '\0';
		last = strrchr(want, '\n');
		last = last ? strchr(last, '-') + 1 : strchr(want, '-') + 1;
		snprintf(span, sizeof(span), "%s-%s ", first, last);
		printf("smaps_rollup span            %s\n",
		       strncmp(got, span, strlen(span)) ? "differs" : "first to last mapping");
	}
	unlink("maps-link");
	return 0;
}
