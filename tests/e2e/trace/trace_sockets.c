/* sockets: a TCP client/server pair over the loopback. The parent listens
 * on 127.0.0.1 (a port the kernel picks), the forked child connects and
 * sends "ping", the parent answers "pong"; both print what they got. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
	struct sockaddr_in addr;
	socklen_t len = sizeof(addr);
	char buf[16];
	int srv, conn, status;
	ssize_t n;
	pid_t child;

	srv = socket(AF_INET, SOCK_STREAM, 0);
	memset(&addr, 0, sizeof(addr));
	addr.sin_family = AF_INET;
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (srv < 0 || bind(srv, (struct sockaddr *)&addr, sizeof(addr)) < 0 ||
	    listen(srv, 1) < 0 || getsockname(srv, (struct sockaddr *)&addr, &len) < 0) {
		perror("server");
		return 1;
	}
	fflush(stdout);
	child = fork();
	if (child == 0) {
		int c = socket(AF_INET, SOCK_STREAM, 0);

		close(srv);
		if (c < 0 || connect(c, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
			perror("client");
			_exit(1);
		}
		write(c, "ping", 4);
		n = read(c, buf, sizeof(buf) - 1);
		buf[n > 0 ? n : 0] = '\0';
		printf("client got %s\n", buf);
		fflush(stdout);
		close(c);
		_exit(0);
	}
	conn = accept(srv, NULL, NULL);
	n = read(conn, buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	write(conn, "pong", 4);
	close(conn);
	waitpid(child, &status, 0);
	printf("server got %s, client status %d\n", buf, WEXITSTATUS(status));
	close(srv);
	return 0;
}
