/* files DIR: create a temporary file in DIR, write, lseek, read back,
 * pread/pwrite, fstat, ftruncate, unlink; print what each call returned.
 * Nothing printed depends on the ABI or the file's name. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SIZE 10000

static char wbuf[SIZE], rbuf[SIZE];

int main(int argc, char **argv)
{
	char path[4096];
	struct stat st;
	long r;

	if (argc < 2) {
		fprintf(stderr, "usage: files DIR\n");
		return 100;
	}
	snprintf(path, sizeof(path), "%s/sg-files-XXXXXX", argv[1]);
	int fd = mkstemp(path);
	if (fd < 0) {
		perror("mkstemp");
		return 1;
	}
	printf("mkstemp: fd>2 %d\n", fd > 2);
	for (int i = 0; i < SIZE; i++)
		wbuf[i] = (char)('a' + i % 26);

	r = write(fd, wbuf, SIZE);
	printf("write = %ld\n", r);
	r = lseek(fd, 0, SEEK_CUR);
	printf("lseek(0, SEEK_CUR) = %ld\n", r);
	r = lseek(fd, 5000, SEEK_SET);
	printf("lseek(5000, SEEK_SET) = %ld\n", r);
	r = read(fd, rbuf, 100);
	printf("read(100) = %ld, same=%d\n", r, !memcmp(rbuf, wbuf + 5000, 100));
	r = lseek(fd, -10, SEEK_END);
	printf("lseek(-10, SEEK_END) = %ld\n", r);
	r = read(fd, rbuf, 100);
	printf("read(100) at end-10 = %ld, \"%.*s\"\n", r, (int)(r > 0 ? r : 0), rbuf);
	r = read(fd, rbuf, 100);
	printf("read at EOF = %ld\n", r);

	r = pwrite(fd, "HELLO", 5, 26);
	printf("pwrite(5, @26) = %ld\n", r);
	memset(rbuf, 0, 64);
	r = pread(fd, rbuf, 40, 20);
	printf("pread(40, @20) = %ld \"%.40s\"\n", r, rbuf);
	r = lseek(fd, 0, SEEK_CUR);
	printf("offset after pread = %ld\n", r);

	r = fstat(fd, &st);
	printf("fstat = %ld, size=%lld regular=%d mode=%o\n", r, (long long)st.st_size,
	       S_ISREG(st.st_mode), (unsigned)(st.st_mode & 0777));
	r = lseek(fd, 20000, SEEK_SET); /* a hole */
	r = write(fd, "Z", 1);
	r = fstat(fd, &st);
	printf("after write @20000: size=%lld\n", (long long)st.st_size);
	r = ftruncate(fd, 123);
	r = fstat(fd, &st);
	printf("ftruncate(123) = %ld, size=%lld\n", r, (long long)st.st_size);

	r = stat(path, &st);
	printf("stat by name = %ld, size=%lld\n", r, (long long)st.st_size);
	r = close(fd);
	printf("close = %ld\n", r);
	r = close(fd);
	printf("close again = %ld errno=%s\n", r, r < 0 && errno == EBADF ? "EBADF" : "?");
	r = unlink(path);
	printf("unlink = %ld\n", r);
	errno = 0;
	r = stat(path, &st);
	printf("stat after unlink = %ld errno=%s\n", r, errno == ENOENT ? "ENOENT" : "?");
	r = open(path, O_RDONLY);
	printf("open after unlink = %ld errno=%s\n", r, errno == ENOENT ? "ENOENT" : "?");
	return 0;
}
