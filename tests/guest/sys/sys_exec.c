/* execve through a descriptor and of files that may not be executed:
 * fexecve (execveat(fd, "", AT_EMPTY_PATH)) of a close-on-exec and of an
 * inherited descriptor, of the program and of a #! script (ENOENT when
 * the descriptor is close-on-exec: the interpreter could not open it),
 * execveat(dirfd, name) of a close-on-exec directory, and execve of files
 * without execute permission (EACCES). Usage: sys_exec DIR. The program
 * runs itself as "sys_exec DIR child FD", which reports what it got. */
#include "sys.h"
#include <fcntl.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <sys/wait.h>

extern char **environ;

static int child(int fd)
{
	printf("  child: AT_EXECFN %s, fd %d %s\n", (const char *)getauxval(AT_EXECFN),
	       fd, fcntl(fd, F_GETFD) < 0 ? "closed" : "open");
	return 7;
}

/* Run fn in a child that execs; report how it ended. */
static void run(const char *label, int fd, const char *path, int flags, char **argv)
{
	int status;
	pid_t pid;

	printf("%s:\n", label);
	pid = fork();
	if (pid == 0) {
		syscall(SYS_execveat, fd, path, argv, environ, flags);
		printf("  execveat = -1 %s\n", err_name(errno));
		_exit(99);
	}
	waitpid(pid, &status, 0);
	printf("  status %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
}

static void write_file(const char *path, const char *text, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);

	if (fd < 0 || write(fd, text, strlen(text)) < 0)
		exit(3);
	close(fd);
	chmod(path, mode);
}

static void copy_file(const char *from, const char *to, mode_t mode)
{
	char buf[65536];
	int in = open(from, O_RDONLY), out = open(to, O_WRONLY | O_CREAT | O_TRUNC, mode);
	ssize_t n;

	if (in < 0 || out < 0)
		exit(4);
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			exit(5);
	close(in);
	close(out);
	chmod(to, mode);
}

int main(int argc, char **argv)
{
	char script[4096], noexec[4096], noexec_elf[4096], fdarg[16];
	char *cargv[] = { argv[0], argv[1], "child", fdarg, NULL };
	char *sargv[] = { "script", NULL };
	const char *base;
	int fd, dfd;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc > 3 && strcmp(argv[2], "child") == 0)
		return child(atoi(argv[3]));
	if (argc < 2)
		return 2;

	fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	snprintf(fdarg, sizeof(fdarg), "%d", fd);
	run("fexecve of a close-on-exec fd", fd, "", AT_EMPTY_PATH, cargv);
	fcntl(fd, F_SETFD, 0);
	run("fexecve of an inherited fd", fd, "", AT_EMPTY_PATH, cargv);
	close(fd);

	snprintf(script, sizeof(script), "%s/script", argv[1]);
	write_file(script, "#!/bin/sh\necho \"  script: $0\"\nexit 5\n", 0755);
	fd = open(script, O_RDONLY | O_CLOEXEC);
	run("fexecve of a script, close-on-exec", fd, "", AT_EMPTY_PATH, sargv);
	fcntl(fd, F_SETFD, 0);
	run("fexecve of a script, inherited", fd, "", AT_EMPTY_PATH, sargv);
	close(fd);

	/* the program by name in its directory (run as ./prog) */
	base = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	dfd = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	snprintf(fdarg, sizeof(fdarg), "%d", dfd);
	run("execveat of a close-on-exec directory", dfd, base, 0, cargv);
	close(dfd);
	run("execveat AT_FDCWD, empty path", AT_FDCWD, "", AT_EMPTY_PATH, cargv);

	snprintf(noexec, sizeof(noexec), "%s/noexec", argv[1]);
	write_file(noexec, "#!/bin/sh\necho ran\n", 0644);
	run("a script without execute permission", AT_FDCWD, noexec, 0, sargv);
	snprintf(noexec_elf, sizeof(noexec_elf), "%s/noexec-elf", argv[1]);
	copy_file("/proc/self/exe", noexec_elf, 0644);
	run("a program without execute permission", AT_FDCWD, noexec_elf, 0, cargv);
	fd = open(noexec_elf, O_RDONLY);
	run("fexecve of it", fd, "", AT_EMPTY_PATH, cargv);
	return 0;
}
