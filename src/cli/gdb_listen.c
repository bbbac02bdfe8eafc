/* sysgate -g PORT / --gdb-socket PATH: wait for gdb's connection, as
 * qemu-user's -g does, and hand it to the library's stub. */
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "cli/gdb_listen.h"

/* A listening socket: TCP on every address (PORT), or a Unix socket at
 * PATH. -1 with a message on failure. */
static int listen_on(const char *port, const char *path)
{
	int fd, one = 1;

	if (path) {
		struct sockaddr_un sa = { .sun_family = AF_UNIX };

		if (strlen(path) >= sizeof(sa.sun_path)) {
			fprintf(stderr, "sysgate: --gdb-socket: path too long: %s\n", path);
			return -1;
		}
		strcpy(sa.sun_path, path);
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		unlink(path); /* a socket left by an earlier run */
		if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
		    listen(fd, 1) < 0)
			goto fail;
		fprintf(stderr, "sysgate: waiting for gdb on %s\n", path);
		return fd;
	}
	char *end;
	long n = strtol(port, &end, 10);
	struct sockaddr_in6 sa6 = { .sin6_family = AF_INET6, .sin6_port = htons((uint16_t)n) };
	struct sockaddr_in sa4 = { .sin_family = AF_INET, .sin_port = htons((uint16_t)n) };

	if (*end || !*port || n < 0 || n > 65535) {
		fprintf(stderr, "sysgate: -g: not a port number: '%s'\n", port);
		return -1;
	}
	fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd >= 0) {
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(fd, (struct sockaddr *)&sa6, sizeof(sa6)) < 0) {
			close(fd);
			fd = -1;
		}
	}
	if (fd < 0) { /* no IPv6 here */
		fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0)
			goto fail;
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(fd, (struct sockaddr *)&sa4, sizeof(sa4)) < 0)
			goto fail;
	}
	if (listen(fd, 1) < 0)
		goto fail;
	if (n == 0) { /* the kernel chose: say which */
		struct sockaddr_in6 got;
		socklen_t len = sizeof(got);

		getsockname(fd, (struct sockaddr *)&got, &len);
		n = ntohs(got.sin6_port);
	}
	fprintf(stderr, "sysgate: waiting for gdb on port %ld\n", n);
	return fd;
fail:
	fprintf(stderr, "sysgate: gdb: %s: %s\n", path ? path : port, strerror(errno));
	if (fd >= 0)
		close(fd);
	return -1;
}

int gdb_wait_connection(const char *port, const char *path)
{
	int lfd = listen_on(port, path), fd, one = 1;

	if (lfd < 0)
		return -1;
	do
		fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	while (fd < 0 && errno == EINTR);
	if (fd < 0)
		fprintf(stderr, "sysgate: gdb: accept: %s\n", strerror(errno));
	else if (!path)
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)); /* packets are small */
	close(lfd);
	if (path)
		unlink(path);
	return fd;
}
