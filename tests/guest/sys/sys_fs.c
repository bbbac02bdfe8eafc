/* Files and directories: the calls glibc, busybox and coreutils make, and
 * for i386 the old forms through syscall(). Run in an empty directory
 * (argv[1]); prints ABI-independent results. */
#include "sys.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/time.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <sys/xattr.h>
#include <utime.h>

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* the names in "." sorted, through getdents64 (readdir) */
static void list_dir(const char *label)
{
	char *names[32];
	int n = 0;
	DIR *d = opendir(".");
	struct dirent *e;

	while (d && (e = readdir(d)) && n < 32)
		names[n++] = strdup(e->d_name);
	if (d)
		closedir(d);
	qsort(names, n, sizeof(names[0]), cmp);
	printf("%s:", label);
	for (int i = 0; i < n; i++) {
		printf(" %s", names[i]);
		free(names[i]);
	}
	printf("\n");
}

/* getdents (struct linux_dirent: the kernel's longs, 64-bit on x32) and
 * getdents64 read whole, as raw records: the sorted "name/type" list, and
 * whether every record is aligned to the ABI's long (8 bytes for
 * linux_dirent64), has its name NUL-terminated inside it and a
 * position; a buffer too small for one record. */
#if defined(__i386__)
typedef uint32_t kernel_ulong;
#else
typedef uint64_t kernel_ulong; /* x32 too: its getdents is the 64-bit one */
#endif

static void raw_getdents(const char *label, long nr)
{
	char buf[4096], *names[32];
	int fd = open(".", O_RDONLY | O_DIRECTORY), n = 0, ok = 1;
	int is64 = nr == SYS_getdents64;
	size_t name_at = is64 ? 19 : 2 * sizeof(kernel_ulong) + 2;
	size_t align = is64 ? 8 : sizeof(kernel_ulong);
	long got;

	CHECK("getdents too small", syscall(nr, fd, buf, 8));
	while ((got = syscall(nr, fd, buf, sizeof(buf))) > 0) {
		for (long pos = 0; pos < got && n < 32;) {
			char *d = buf + pos, *name = d + name_at, line[300];
			uint16_t reclen;
			uint64_t off;
			unsigned type;

			memcpy(&reclen, d + (is64 ? 16 : 2 * sizeof(kernel_ulong)), 2);
			if (is64) {
				memcpy(&off, d + 8, 8);
				type = (unsigned char)d[18];
			} else {
				kernel_ulong o;

				memcpy(&o, d + sizeof(kernel_ulong), sizeof(o));
				off = o;
				type = (unsigned char)d[reclen - 1];
			}
			if (!reclen || reclen % align || !memchr(name, 0, reclen - name_at) || !off)
				ok = 0;
			if (!reclen)
				break;
			snprintf(line, sizeof(line), "%s/%u", name, type);
			names[n++] = strdup(line);
			pos += reclen;
		}
	}
	CHECK("getdents end", got);
	close(fd);
	qsort(names, n, sizeof(names[0]), cmp);
	printf("%s:", label);
	for (int i = 0; i < n; i++) {
		printf(" %s", names[i]);
		free(names[i]);
	}
	printf("\n%s records aligned, named, placed: %s\n", label, ok ? "yes" : "no");
}

static void stat_report(const char *label, const struct stat *st)
{
	printf("%s: size %lld mode %o nlink %ld\n", label, (long long)st->st_size,
	       (unsigned)st->st_mode, (long)st->st_nlink);
}

static void io(void)
{
	char buf[64] = { 0 }, b1[4], b2[4];
	struct iovec iov[2] = { { b1, 4 }, { b2, 4 } };
	int fd = open("data", O_CREAT | O_RDWR | O_TRUNC, 0644);

	CHECK("open data", fd >= 0 ? 0 : -1);
	CHECK("write", write(fd, "0123456789", 10));
	CHECK("pwrite", pwrite(fd, "AB", 2, 4));
	CHECK("pread", pread(fd, buf, 6, 2));
	printf("pread bytes: %.6s\n", buf);
	CHECK("lseek set", lseek(fd, 0, SEEK_SET));
	CHECK("readv", readv(fd, iov, 2));
	printf("readv bytes: %.4s|%.4s\n", b1, b2);
	CHECK("lseek end", lseek(fd, 0, SEEK_END));
	CHECK("lseek bad whence", lseek(fd, 0, 42));
	CHECK("writev", writev(fd, iov, 2));
	CHECK("preadv", preadv(fd, iov, 2, 10));
	printf("preadv bytes: %.4s|%.4s\n", b1, b2);
	CHECK("pwritev", pwritev(fd, iov, 1, 0));
	CHECK("preadv2", preadv2(fd, iov, 1, 0, 0));
	CHECK("ftruncate", ftruncate(fd, 5));
	CHECK("fsync", fsync(fd));
	CHECK("fdatasync", fdatasync(fd));
	CHECK("posix_fadvise", posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL));
	CHECK("fallocate", fallocate(fd, 0, 0, 8192));
	CHECK("flock", flock(fd, LOCK_EX));
	{
		struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET,
				    .l_start = 0, .l_len = 3 };

		CHECK("fcntl setlk", fcntl(fd, F_SETLK, &fl));
		fl.l_type = F_RDLCK;
		CHECK("fcntl getlk", fcntl(fd, F_GETLK, &fl));
		printf("getlk type: %d\n", fl.l_type);
	}
	CHECK("fcntl getfl", fcntl(fd, F_GETFL) & O_ACCMODE);
	CHECK("fcntl dupfd", fcntl(fd, F_DUPFD_CLOEXEC, 50));
	CHECK("fcntl getfd", fcntl(50, F_GETFD));
	CHECK("dup2", dup2(fd, 60));
	CHECK("dup3", dup3(fd, 61, O_CLOEXEC));
	CHECK("dup3 same", dup3(fd, fd, 0));
	CHECK("close 50", close(50));
	CHECK("close 60", close(60));
	CHECK("close 61", close(61));
	CHECK("close bad", close(999));
	CHECK("close", close(fd));
}

static void stats(void)
{
	struct stat st;
	struct statfs sf;
	struct statx sx;
	int fd = open("data", O_RDONLY);

	CHECK("stat", stat("data", &st));
	stat_report("stat data", &st);
	CHECK("fstat", fstat(fd, &st));
	stat_report("fstat data", &st);
	CHECK("lstat link", lstat("link", &st));
	FACT("lstat is link", S_ISLNK(st.st_mode));
	CHECK("fstatat", fstatat(AT_FDCWD, "data", &st, 0));
	CHECK("statx", statx(AT_FDCWD, "data", 0, STATX_BASIC_STATS, &sx));
	printf("statx size %llu mode %o\n", (unsigned long long)sx.stx_size,
	       sx.stx_mode);
	CHECK("stat missing", stat("nope", &st));
	CHECK("statfs", statfs(".", &sf));
	FACT("statfs bsize > 0", sf.f_bsize > 0);
	{
		struct statfs s2;

		CHECK("fstatfs", fstatfs(fd, &s2));
		FACT("fstatfs same type", s2.f_type == sf.f_type);
	}
	CHECK("access", access("data", R_OK | W_OK));
	CHECK("access missing", access("nope", F_OK));
	CHECK("faccessat", faccessat(AT_FDCWD, "data", R_OK, AT_EACCESS));
	close(fd);
}

static void names(void)
{
	char buf[64] = { 0 }, cwd[4096];
	int dfd;

	CHECK("mkdir", mkdir("dir", 0755));
	CHECK("mkdir again", mkdir("dir", 0755));
	CHECK("mkdirat", mkdirat(AT_FDCWD, "dir/sub", 0700));
	CHECK("rmdir nonempty", rmdir("dir"));
	CHECK("symlink", symlink("data", "link"));
	CHECK("readlink", readlink("link", buf, sizeof(buf)));
	printf("readlink: %s\n", buf);
	CHECK("readlinkat", readlinkat(AT_FDCWD, "link", buf, 2));
	CHECK("readlink not link", readlink("data", buf, sizeof(buf)));
	CHECK("link", link("data", "hard"));
	CHECK("linkat", linkat(AT_FDCWD, "data", AT_FDCWD, "hard2", 0));
	CHECK("rename", rename("hard2", "hard3"));
	CHECK("renameat", renameat(AT_FDCWD, "hard3", AT_FDCWD, "hard4"));
	CHECK("renameat2 noreplace",
	      renameat2(AT_FDCWD, "hard4", AT_FDCWD, "data", RENAME_NOREPLACE));
	CHECK("unlink", unlink("hard4"));
	CHECK("unlinkat dir", unlinkat(AT_FDCWD, "dir/sub", AT_REMOVEDIR));
	CHECK("chmod", chmod("data", 0600));
	CHECK("fchmodat", fchmodat(AT_FDCWD, "data", 0640, 0));
	CHECK("chown same", chown("data", getuid(), getgid()));
	CHECK("lchown same", lchown("link", getuid(), getgid()));
	CHECK("truncate", truncate("data", 3));
	CHECK("creat", creat("made", 0600) >= 0 ? 0 : -1);
	CHECK("mknod fifo", mknod("fifo", S_IFIFO | 0600, 0));
	CHECK("mkfifoat", mkfifoat(AT_FDCWD, "fifo2", 0600));
	CHECK("umask", umask(022));
	CHECK("umask back", umask(022));
	dfd = open(".", O_RDONLY | O_DIRECTORY);
	CHECK("chdir", chdir("dir"));
	FACT("getcwd ends in /dir",
	     getcwd(cwd, sizeof(cwd)) && strcmp(strrchr(cwd, '/'), "/dir") == 0);
	CHECK("getcwd small", syscall(SYS_getcwd, cwd, 1));
	CHECK("fchdir", fchdir(dfd));
	close(dfd);
	list_dir("entries");
}

static void times_and_attrs(void)
{
	struct timespec ts[2] = { { 1000000, 5 }, { 2000000, 6 } };
	struct timeval tv[2] = { { 3000000, 7 }, { 4000000, 8 } };
	struct utimbuf ub = { 5000000, 6000000 };
	struct stat st;
	char val[16] = { 0 };

	CHECK("utimensat", utimensat(AT_FDCWD, "data", ts, 0));
	stat("data", &st);
	printf("mtime %lld.%ld\n", (long long)st.st_mtim.tv_sec, (long)st.st_mtim.tv_nsec);
	CHECK("utimes", utimes("data", tv));
	stat("data", &st);
	printf("mtime %lld.%ld\n", (long long)st.st_mtim.tv_sec, (long)st.st_mtim.tv_nsec);
	CHECK("utime", utime("data", &ub));
	stat("data", &st);
	printf("mtime %lld atime %lld\n", (long long)st.st_mtim.tv_sec,
	       (long long)st.st_atim.tv_sec);
	CHECK("futimesat", futimesat(AT_FDCWD, "data", tv));
	ts[0].tv_nsec = UTIME_OMIT;
	ts[1].tv_nsec = UTIME_OMIT;
	CHECK("utimensat omit", utimensat(AT_FDCWD, "data", ts, 0));
	CHECK("setxattr", setxattr("data", "user.sg", "v1", 2, 0));
	CHECK("getxattr", getxattr("data", "user.sg", val, sizeof(val)));
	CHECK("getxattr missing", getxattr("data", "user.none", val, sizeof(val)));
	CHECK("listxattr size", listxattr("data", NULL, 0) >= 0 ? 0 : -1);
	CHECK("removexattr", removexattr("data", "user.sg"));
}

static void pipes(void)
{
	int p[2], q[2], fd;
	char buf[16] = { 0 };
	loff_t off = 0;
	off_t soff = 0;

	CHECK("pipe", pipe(p));
	CHECK("pipe2", pipe2(q, O_CLOEXEC | O_NONBLOCK));
	CHECK("read empty nonblock", read(q[0], buf, 1));
	fd = open("data", O_RDWR);
	CHECK("pwrite data", pwrite(fd, "xyz", 3, 0));
	CHECK("sendfile", sendfile(p[1], fd, &soff, 3));
	printf("sendfile offset %lld\n", (long long)soff);
	CHECK("read pipe", read(p[0], buf, sizeof(buf)));
	printf("pipe bytes: %.3s\n", buf);
	off = 0;
	CHECK("copy_file_range", copy_file_range(fd, &off, fd, NULL, 0, 0));
	CHECK("write pipe", write(p[1], "splice", 6));
	CHECK("tee", tee(p[0], q[1], 6, 0));
	CHECK("splice", splice(p[0], NULL, fd, &off, 6, 0));
	CHECK("splice offset", off);
	CHECK("sync", (sync(), 0));
	CHECK("syncfs", syncfs(fd));
	close(fd);
	close(p[0]);
	close(p[1]);
	close(q[0]);
	close(q[1]);
}

#ifdef __i386__
/* i386 forms glibc no longer uses: struct stat, old stat, statfs64,
 * getdents with struct linux_dirent, readdir, _llseek, truncate64 */
static void i386_forms(void)
{
	unsigned char st[96], sf[84];
	long long pos = 0;
	int fd = open("data", O_RDWR), dfd = open(".", O_RDONLY);
	char ents[1024];

	CHECK("i386 stat", syscall(SYS_stat, "data", st));
	printf("i386 stat size %u\n", *(unsigned *)(st + 20));
	/* -EOVERFLOW where the inode number does not fit 16 bits */
	if (syscall(SYS_oldstat, "data", st) == 0)
		printf("i386 oldstat mode %o size %u\n",
		       *(unsigned short *)(st + 4), *(unsigned *)(st + 16));
	CHECK("i386 statfs64 bad size", syscall(SYS_statfs64, ".", 88, sf));
	CHECK("i386 statfs64", syscall(SYS_statfs64, ".", 84, sf));
	CHECK("i386 _llseek", syscall(SYS__llseek, fd, 0, 2, &pos, SEEK_SET));
	printf("_llseek pos %lld\n", pos);
	CHECK("i386 truncate64", syscall(SYS_truncate64, "data", 4, 0));
	CHECK("i386 ftruncate64", syscall(SYS_ftruncate64, fd, 3, 0));
	CHECK("i386 getdents >0", syscall(SYS_getdents, dfd, ents, sizeof(ents)) > 0);
	CHECK("i386 readdir", syscall(SYS_readdir, dfd, ents, 1));
	{ /* struct old_linux_dirent from the start: ino, offset, namlen, the name */
		uint16_t namlen;

		lseek(dfd, 0, SEEK_SET);
		memset(ents, 0x55, sizeof(ents));
		CHECK("i386 readdir first", syscall(SYS_readdir, dfd, ents, 1));
		memcpy(&namlen, ents + 8, 2);
		FACT("i386 readdir namlen is the name's", namlen == strlen(ents + 10));
		FACT("i386 readdir offset placed", *(uint32_t *)(ents + 4) != 0);
	}
	CHECK("i386 readdir end", (lseek(dfd, 0, SEEK_END), syscall(SYS_readdir, dfd, ents, 1)));
	close(fd);
	close(dfd);
}
#endif

/* ioctl: a bad buffer is the driver's to judge (a terminal call on a
 * file fails with ENOTTY whatever its pointer; FIONREAD faults on it) */
static void ioctls(void)
{
	int p[2], n = -1, null = open("/dev/null", O_RDWR);
	struct winsize ws;

	CHECK("pipe for ioctl", pipe(p));
	CHECK("write for FIONREAD", write(p[1], "12345", 5));
	CHECK("FIONREAD", ioctl(p[0], FIONREAD, &n));
	printf("FIONREAD bytes %d\n", n);
	CHECK("FIONREAD bad pointer", ioctl(p[0], FIONREAD, (void *)8));
	CHECK("TIOCGWINSZ /dev/null", ioctl(null, TIOCGWINSZ, &ws));
	CHECK("TIOCGWINSZ /dev/null NULL", ioctl(null, TIOCGWINSZ, NULL));
	CHECK("TIOCGWINSZ /dev/null bad pointer",
	      ioctl(null, TIOCGWINSZ, (void *)8));
	close(p[0]);
	close(p[1]);
	close(null);
}

/* A directory large enough to be indexed (ext4 hashes its positions):
 * every entry read, and telldir/seekdir return to the 100th. i386 and x32
 * get the kernel's 32-bit positions, which sysgate must convert when it
 * reads the directory as a 64-bit process. */
static void big_dir(void)
{
	char name[32];
	int total = 0, after = 0;
	long mark = 0;
	DIR *d;

	CHECK("mkdir big", mkdir("big", 0755));
	for (int i = 0; i < 300; i++) {
		snprintf(name, sizeof(name), "big/entry-%03d", i);
		close(open(name, O_CREAT | O_WRONLY, 0644));
	}
	d = opendir("big");
	if (!d) {
		printf("opendir big: failed\n");
		return;
	}
	while (readdir(d))
		if (++total == 100)
			mark = telldir(d);
	seekdir(d, mark);
	while (readdir(d))
		after++;
	printf("big dir: %d entries, %d after seekdir to the 100th\n", total,
	       after);
	closedir(d);
}

/* Offsets past 4 GiB in a sparse file (x32's lseek once answered
 * SEEK_END with the low 32 bits). open64 and lseek64: on i386 a file
 * without O_LARGEFILE cannot grow past 2 GiB, and lseek64 is _llseek. */
static void big_file(void)
{
	const long long size = (5LL << 30) + 3;
	int fd = open64("bigfile", O_RDWR | O_CREAT | O_TRUNC, 0600);

	if (fd < 0 || ftruncate64(fd, size) != 0) {
		printf("big file: cannot make one (%s)\n", err_name(errno));
		if (fd >= 0)
			close(fd);
		unlink("bigfile");
		return;
	}
	printf("lseek64 end %lld\n", (long long)lseek64(fd, 0, SEEK_END));
	printf("lseek64 end-1 %lld\n", (long long)lseek64(fd, -1, SEEK_END));
	printf("lseek64 cur %lld\n", (long long)lseek64(fd, 0, SEEK_CUR));
	printf("lseek64 set 4G+5 %lld\n", (long long)lseek64(fd, (4LL << 30) + 5, SEEK_SET));
	printf("lseek64 cur+7 %lld\n", (long long)lseek64(fd, 7, SEEK_CUR));
	printf("lseek64 set 12 %lld\n", (long long)lseek64(fd, 12, SEEK_SET));
	printf("lseek64 data %lld\n", (long long)lseek64(fd, 0, SEEK_DATA));
	printf("lseek64 hole 4G %lld\n", (long long)lseek64(fd, 4LL << 30, SEEK_HOLE));
	close(fd);
	unlink("bigfile");
}

int main(int argc, char **argv)
{
	if (argc < 2 || chdir(argv[1]) != 0)
		return 2;
	setvbuf(stdout, NULL, _IOLBF, 0);
	io();
	names();
	stats();
	times_and_attrs();
	pipes();
	big_dir();
	raw_getdents("getdents", SYS_getdents);
	raw_getdents("getdents64", SYS_getdents64);
	ioctls();
	big_file();
#ifdef __i386__
	if (abi_only_checks())
		i386_forms();
#endif
	return 0;
}
