/* The process's identity as it and others see it: PR_GET_NAME,
 * /proc/self/comm, stat and status, the command line and environment a
 * child reads from /proc/<parent>/, PR_SET_NAME, and a /proc/self/cmdline
 * opened before an execve and read after it (the new image's argv).
 * Usage: sys_ident DIR [after FD]. */
#include "sys.h"
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>

extern char **environ;

/* The run's directory (argv[1], also in PWD) differs between the native
 * run and sysgate's: shown as DIR. */
static const char *work_dir;

/* A file's bytes, NULs shown as '|', at most one line. */
static void show_fd(const char *label, int fd)
{
	char buf[4096];
	ssize_t n = read(fd, buf, sizeof(buf) - 1);

	if (n < 0) {
		printf("%s: %s\n", label, err_name(errno));
		return;
	}
	for (ssize_t i = 0; i < n; i++)
		if (buf[i] == 0)
			buf[i] = '|';
		else if (buf[i] == '\n')
			buf[i] = '^';
	buf[n] = 0;
	printf("%s: ", label);
	for (char *p = buf; *p;) {
		size_t len = strlen(work_dir);

		if (len && strncmp(p, work_dir, len) == 0) {
			printf("DIR");
			p += len;
		} else {
			putchar(*p++);
		}
	}
	printf("\n");
}

static void show(const char *label, const char *path)
{
	int fd = open(path, O_RDONLY);

	if (fd < 0) {
		printf("%s: %s\n", label, err_name(errno));
		return;
	}
	show_fd(label, fd);
	close(fd);
}

/* The status line "Name:" and stat's "(comm)". */
static void show_stat_names(const char *who, pid_t pid)
{
	char path[64], buf[4096], *p;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	while (f && fgets(buf, sizeof(buf), f))
		if (strncmp(buf, "Name:", 5) == 0)
			printf("%s status %s", who, buf);
	if (f)
		fclose(f);
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (f && fgets(buf, sizeof(buf), f) && (p = strchr(buf, ' ')) && strchr(p, ')')) {
		*(strrchr(p, ')') + 1) = 0;
		printf("%s stat %s\n", who, p + 1);
	}
	if (f)
		fclose(f);
}

/* What another process sees of this one. */
static void from_child(const char *label)
{
	pid_t parent = getpid(), pid = fork();
	char path[64];
	int status;

	if (pid == 0) {
		printf("%s, seen by a child:\n", label);
		snprintf(path, sizeof(path), "/proc/%d/comm", (int)parent);
		show("  comm", path);
		snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)parent);
		show("  cmdline", path);
		snprintf(path, sizeof(path), "/proc/%d/environ", (int)parent);
		show("  environ", path);
		show_stat_names(" ", parent);
		_exit(0);
	}
	waitpid(pid, &status, 0);
}

int main(int argc, char **argv)
{
	char name[16] = "", fdarg[16];
	int fd;

	setvbuf(stdout, NULL, _IONBF, 0);
	work_dir = argc > 1 ? argv[1] : "";
	if (argc > 3 && strcmp(argv[2], "after") == 0) {
		show_fd("after exec, cmdline opened before it", atoi(argv[3]));
		show("after exec, comm", "/proc/self/comm");
		from_child("after exec");
		return 0;
	}
	if (argc < 2)
		return 2;
	CHECK("PR_GET_NAME", prctl(PR_GET_NAME, name));
	printf("name: %s\n", name);
	show("comm", "/proc/self/comm");
	show("cmdline", "/proc/self/cmdline");
	show_stat_names("self", getpid());
	from_child("at start");

	CHECK("PR_SET_NAME", prctl(PR_SET_NAME, "renamed-guest-program"));
	CHECK("PR_GET_NAME", prctl(PR_GET_NAME, name));
	printf("name: %s\n", name);
	show("comm", "/proc/self/comm");
	from_child("renamed");

	/* exec a new image (its path's last component is the new comm) */
	fd = open("/proc/self/cmdline", O_RDONLY);
	snprintf(fdarg, sizeof(fdarg), "%d", fd);
	execl("/proc/self/exe", "new-argv0", argv[1], "after", fdarg, (char *)NULL);
	printf("execl: %s\n", err_name(errno));
	return 1;
}
