/* The working directory as the guest sees it: chdir to each argument,
 * then getcwd (with a buffer one byte short of it, and exact) and
 * readlink("/proc/self/cwd"). Under `sysgate -L ROOT` with the argument
 * directories in ROOT, a guest sees them as a chroot into ROOT shows
 * them: the same paths a native run prints. Symbolic links made to each
 * argument first read back as the argument. */
#include "sys.h"

#include <fcntl.h>

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* a link's target is its content: never rewritten into the sysroot */
	for (int i = 1; i < argc; i++) {
		char target[4096];
		long n;

		unlink("link");
		printf("symlink %s: %s\n", argv[i], symlink(argv[i], "link") == 0 ? "ok" : err_name(errno));
		printf("symlinkat %s: %s\n", argv[i],
		       syscall(SYS_symlinkat, argv[i], AT_FDCWD, "link2") == 0 ? "ok" : err_name(errno));
		n = readlink("link", target, sizeof(target) - 1);
		target[n < 0 ? 0 : n] = '\0';
		printf("readlink link: %s\n", n < 0 ? err_name(errno) : target);
		n = readlink("link2", target, sizeof(target) - 1);
		target[n < 0 ? 0 : n] = '\0';
		printf("readlink link2: %s\n", n < 0 ? err_name(errno) : target);
		unlink("link");
		unlink("link2");
	}
	for (int i = 1; i < argc; i++) {
		char cwd[4096], link[4096];
		long n;

		printf("chdir %s: %s\n", argv[i], chdir(argv[i]) == 0 ? "ok" : err_name(errno));
		if (!getcwd(cwd, sizeof(cwd))) {
			printf("getcwd: %s\n", err_name(errno));
			continue;
		}
		printf("getcwd %s\n", cwd);
		n = syscall(SYS_getcwd, cwd, strlen(cwd));
		printf("getcwd one short: %ld %s\n", n, n < 0 ? err_name(errno) : "");
		n = syscall(SYS_getcwd, cwd, strlen(cwd) + 1);
		printf("getcwd exact: %ld\n", n);
		n = readlink("/proc/self/cwd", link, sizeof(link) - 1);
		link[n < 0 ? 0 : n] = '\0';
		printf("/proc/self/cwd %s\n", n < 0 ? err_name(errno) : link);
		n = readlink("/proc/self/cwd", link, 3);
		printf("/proc/self/cwd in 3 bytes: %ld %.3s\n", n, n < 0 ? "" : link);
	}
	return 0;
}
