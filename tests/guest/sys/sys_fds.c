/* Descriptors the guest did not open stay out of its reach: every number
 * at or above 3 it did not open answers EBADF, F_DUPFD and dup2 get the
 * numbers a native run gets, /proc/self/fd lists only its own, and after
 * close_range(3, ~0) an execve still works (sysgate's trace goes on:
 * checked by the harness). Then, in the exec'd image, with a soft limit
 * the guest lowered before the exec and raises again, the numbers right
 * above the old limit are the guest's. Usage: sys_fds DIR [b]. */
#include "sys.h"
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>

#define LOW_LIMIT 256

/* The guest's open descriptors below limit, as a count and the largest. */
static void scan(const char *label, long limit)
{
	long count = 0, last = -1;

	for (long fd = 0; fd < limit; fd++)
		if (fcntl((int)fd, F_GETFD) >= 0) {
			count++;
			last = fd;
		}
	printf("%s: %ld open, the last %ld\n", label, count, last);
}

/* The 32 numbers around the soft limit (where sysgate keeps its own, or
 * just below the hard limit): none is the guest's, so poll says POLLNVAL
 * and passing one over a socket EBADF. (select is not compared: natively
 * a number past the process's descriptor table is ignored, one inside it
 * is EBADF, and sysgate's numbers make the host's table larger.) */
static void around_the_limit(long soft)
{
	int nval = 0, ebadf_send = 0, sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		return;
	for (long fd = soft - 16; fd < soft + 16; fd++) {
		struct pollfd p = { .fd = (int)fd, .events = POLLIN | POLLOUT };
		char ctl[CMSG_SPACE(sizeof(int))], byte = 'x';
		struct iovec iov = { &byte, 1 };
		struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
				    .msg_control = ctl, .msg_controllen = sizeof(ctl) };
		struct cmsghdr *c = CMSG_FIRSTHDR(&m);
		int one = (int)fd;

		if (poll(&p, 1, 0) == 1 && p.revents == POLLNVAL)
			nval++;
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &one, sizeof(one));
		if (sendmsg(sv[0], &m, 0) < 0 && errno == EBADF)
			ebadf_send++;
	}
	printf("around the limit: poll POLLNVAL %d, SCM_RIGHTS EBADF %d\n", nval,
	       ebadf_send);
	close(sv[0]);
	close(sv[1]);
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static void list_proc_fd(const char *label, const char *dir)
{
	int fds[256], n = 0;
	struct dirent *e;
	DIR *d = opendir(dir);

	if (!d) {
		printf("%s: opendir %s\n", label, err_name(errno));
		return;
	}
	while ((e = readdir(d)) && n < 256)
		if (e->d_name[0] != '.')
			fds[n++] = atoi(e->d_name);
	closedir(d);
	qsort(fds, (size_t)n, sizeof(fds[0]), cmp_int);
	printf("%s:", label);
	for (int i = 0; i < n; i++)
		printf(" %d", fds[i]);
	printf("\n");
}

static void limits(const char *label)
{
	struct rlimit r;

	getrlimit(RLIMIT_NOFILE, &r);
	printf("%s: soft %s hard, soft %llu\n", label,
	       r.rlim_cur == r.rlim_max ? "==" : "<", (unsigned long long)r.rlim_cur);
}

static int stage_b(void)
{
	struct rlimit r;
	char path[64];

	limits("b: limit");
	scan("b: below the limit", LOW_LIMIT);
	getrlimit(RLIMIT_NOFILE, &r);
	r.rlim_cur = r.rlim_max;
	CHECK("b: raise the soft limit", setrlimit(RLIMIT_NOFILE, &r));
	limits("b: limit");
	scan("b: below twice the old limit", 2 * LOW_LIMIT);
	CHECK("b: dup2(1, 256)", dup2(1, LOW_LIMIT));
	CHECK("b: write 256", write(LOW_LIMIT, "b: via 256\n", 11));
	CHECK("b: F_DUPFD 257", fcntl(0, F_DUPFD, LOW_LIMIT + 1));
	snprintf(path, sizeof(path), "/proc/self/fd/%d", LOW_LIMIT + 1);
	CHECK("b: open its /proc/self/fd", open(path, O_RDONLY | O_CLOEXEC) >= 0);
	list_proc_fd("b: /proc/self/fd", "/proc/self/fd");
	printf("b: done\n");
	fflush(stdout);
	return 0;
}

int main(int argc, char **argv)
{
	struct rlimit r;
	char path[64];

	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc < 2)
		return 2;
	if (argc > 2 && strcmp(argv[2], "b") == 0)
		return stage_b();

	limits("limit");
	getrlimit(RLIMIT_NOFILE, &r);
	scan("open", (long)r.rlim_cur);
	around_the_limit((long)r.rlim_cur);
	CHECK("fcntl(700, F_GETFD)", fcntl(700, F_GETFD));
	CHECK("fcntl(701, F_GETFD)", fcntl(701, F_GETFD));
	CHECK("close(700)", close(700));
	CHECK("F_DUPFD from 700", fcntl(1, F_DUPFD, 700));
	CHECK("F_DUPFD from 700 again", fcntl(1, F_DUPFD, 700));
	CHECK("dup2(1, 702)", dup2(1, 702));
	CHECK("write 702", write(702, "via 702\n", 8));
	CHECK("close_range(700, 702)", syscall(SYS_close_range, 700, 702, 0));
	CHECK("F_DUPFD from 3", fcntl(1, F_DUPFD, 3));
	list_proc_fd("/proc/self/fd", "/proc/self/fd");
	list_proc_fd("/dev/fd", "/dev/fd");
	{ /* what another process sees of ours */
		char dir[64];
		pid_t parent = getpid(), pid = fork();

		if (pid == 0) {
			snprintf(dir, sizeof(dir), "/proc/%d/fd", (int)parent);
			list_proc_fd("/proc/<parent>/fd, seen by a child", dir);
			/* the numbers around the parent's soft limit */
			for (long fd = (long)r.rlim_cur - 16; fd < (long)r.rlim_cur + 16; fd++) {
				char path[64];
				int o;

				snprintf(path, sizeof(path), "/proc/%d/fd/%ld", (int)parent, fd);
				o = open(path, O_RDONLY);
				if (o >= 0 || errno != ENOENT)
					printf("open %s: %s\n", path, o >= 0 ? "opened" : err_name(errno));
			}
			_exit(0);
		}
		waitpid(pid, NULL, 0);
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%ld", (long)r.rlim_cur - 1);
	CHECK("open the last number's /proc/self/fd", open(path, O_RDONLY));

	/* lower the soft limit, close everything but stdio, exec */
	r.rlim_cur = LOW_LIMIT;
	CHECK("lower the soft limit", setrlimit(RLIMIT_NOFILE, &r));
	limits("limit");
	CHECK("close_range(3, ~0)", syscall(SYS_close_range, 3, ~0u, 0));
	scan("after close_range", LOW_LIMIT);
	execl("/proc/self/exe", argv[0], argv[1], "b", (char *)NULL);
	printf("execl: %s\n", err_name(errno));
	return 1;
}
