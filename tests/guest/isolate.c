/* isolate.c MODE: what a guest may do that must not reach the program
 * embedding it (tests/e2e/trace/isolation_check.c runs it natively for
 * the expected status, then through the library):
 *   abort   abort()                         (dies of SIGABRT)
 *   term    kill(getpid(), SIGTERM)         (dies of SIGTERM)
 *   close   closes 0, 1, 2                  exit 3
 *   cwd     chdir("/"), umask(077)          exit 4
 *   fds     leaves 12 descriptors open      exit 5
 *   fork    a child that exits 6, waited    exit 7 (its status + 1)
 *   count   exits with the number of its open descriptors
 */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	if (!strcmp(mode, "abort"))
		abort();
	if (!strcmp(mode, "term")) {
		kill(getpid(), SIGTERM);
		for (;;)
			pause();
	}
	if (!strcmp(mode, "close")) {
		close(0);
		close(1);
		close(2);
		return 3;
	}
	if (!strcmp(mode, "cwd")) {
		if (chdir("/") != 0)
			return 1;
		umask(077);
		return 4;
	}
	if (!strcmp(mode, "fds")) {
		int p[2];

		for (int i = 0; i < 10; i++)
			if (open("/dev/null", O_RDONLY) < 0)
				return 1;
		if (pipe(p) != 0)
			return 1;
		return 5;
	}
	if (!strcmp(mode, "fork")) {
		int ws = 0;
		pid_t pid = fork();

		if (pid == 0)
			_exit(6);
		if (pid < 0 || waitpid(pid, &ws, 0) != pid || !WIFEXITED(ws))
			return 1;
		return WEXITSTATUS(ws) + 1;
	}
	if (!strcmp(mode, "count")) {
		DIR *d = opendir("/proc/self/fd");
		int n = -1; /* the directory's own descriptor */

		if (!d)
			return 255;
		while (readdir(d))
			n++;
		closedir(d);
		return n - 2; /* "." and ".." */
	}
	return 2;
}
