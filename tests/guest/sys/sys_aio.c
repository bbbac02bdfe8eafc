/* Linux native AIO by raw system calls (glibc has no wrappers): contexts,
 * the ring as the guest sees it, reads and writes (plain and vectored)
 * of a file in WORK, fsync, poll on a pipe, cancel, the completion events
 * (data, obj, res) and the errors the kernel gives for bad contexts,
 * control blocks, descriptors, opcodes and buffers. */
#include "sys.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <time.h>
#include <linux/aio_abi.h>

#define RING_MAGIC 0xa10a10a1u

static long io_setup(unsigned nr, aio_context_t *ctx)
{
	return syscall(SYS_io_setup, nr, ctx);
}

static long io_submit(aio_context_t ctx, long nr, struct iocb **cbs)
{
	return syscall(SYS_io_submit, ctx, nr, cbs);
}

static long io_getevents(aio_context_t ctx, long min, long nr,
			 struct io_event *ev, struct timespec *ts)
{
	return syscall(SYS_io_getevents, ctx, min, nr, ev, ts);
}

static void prep(struct iocb *cb, int op, int fd, void *buf, uint64_t n,
		 int64_t off, uint64_t data)
{
	memset(cb, 0, sizeof(*cb));
	cb->aio_lio_opcode = op;
	cb->aio_fildes = fd;
	cb->aio_buf = (uint64_t)(uintptr_t)buf;
	cb->aio_nbytes = n;
	cb->aio_offset = off;
	cb->aio_data = data;
}

/* wait for n events and print them in data order (at most 8) */
static void reap(aio_context_t ctx, int n, struct iocb **cbs, const char *what)
{
	struct io_event ev[8];
	struct timespec ts = { 5, 0 };
	long got = 0;

	while (got < n) {
		long r = io_getevents(ctx, 1, n - got, ev + got, &ts);

		if (r <= 0) {
			printf("%s: getevents = %ld %s\n", what, r,
			       r < 0 ? err_name(errno) : "");
			return;
		}
		got += r;
	}
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			if (ev[j].data == (uint64_t)i + 1) {
				int k = (int)ev[j].data - 1;

				printf("%s event %llu: res %lld res2 %lld obj %s\n", what,
				       (unsigned long long)ev[j].data,
				       (long long)ev[j].res, (long long)ev[j].res2,
				       ev[j].obj == (uint64_t)(uintptr_t)cbs[k]
					       ? "its iocb" : "another");
			}
}

int main(int argc, char **argv)
{
	const char *work = argc > 1 ? argv[1] : ".";
	char path[4096], buf[64], a[8], b[8], line[256];
	aio_context_t ctx = 0, other = 5;
	struct iocb cb[4], *cbs[4] = { &cb[0], &cb[1], &cb[2], &cb[3] };
	struct io_event ev[4];
	struct timespec zero = { 0, 0 };
	struct iovec iov[2];
	const struct aio_ring {
		unsigned id, nr, head, tail, magic, compat, incompat, header;
	} *ring;
	char *noaccess;
	int fd, p[2], in_maps = 0;
	FILE *maps;

	setvbuf(stdout, NULL, _IOLBF, 0);
	/* cb[3] is never prepared: zeroed, so that what io_cancel is given
	 * (and a trace shows) is the same in every run */
	memset(cb, 0, sizeof(cb));
	snprintf(path, sizeof(path), "%s/aio-file", work);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	CHECK("open", fd >= 0 ? 0 : -1);
	CHECK("pipe", pipe(p));
	/* kept mapped: a hole would be reused (by the ring, natively too) */
	noaccess = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	CHECK("io_setup ctx not 0", io_setup(8, &other));
	other = 0;
	CHECK("io_setup nr 0", io_setup(0, &other));
	CHECK("io_setup bad ctxp", io_setup(8, (aio_context_t *)noaccess));
	CHECK("io_setup", io_setup(8, &ctx));
	ring = (const void *)(uintptr_t)ctx;
	FACT("ring magic", ring->magic == RING_MAGIC);
	FACT("ring header 32", ring->header == 32);
	FACT("ring empty", ring->head == ring->tail);
	maps = fopen("/proc/self/maps", "r");
	while (maps && fgets(line, sizeof(line), maps))
		if (strtoull(line, NULL, 16) == (unsigned long long)ctx &&
		    strstr(line, "[aio]"))
			in_maps = 1;
	if (maps)
		fclose(maps);
	FACT("ring in maps as [aio]", in_maps);

	/* write, read back, vectored both ways, fsync */
	prep(&cb[0], IOCB_CMD_PWRITE, fd, "hello, aio", 10, 0, 1);
	CHECK("submit pwrite", io_submit(ctx, 1, cbs));
	reap(ctx, 1, cbs, "pwrite");
	memset(buf, 0, sizeof(buf));
	prep(&cb[0], IOCB_CMD_PREAD, fd, buf, sizeof(buf), 0, 1);
	memcpy(a, "ABCDEFGH", 8);
	memcpy(b, "12345678", 8);
	iov[0] = (struct iovec){ a, 3 };
	iov[1] = (struct iovec){ b, 4 };
	prep(&cb[1], IOCB_CMD_PWRITEV, fd, iov, 2, 10, 2);
	prep(&cb[2], IOCB_CMD_FSYNC, fd, NULL, 0, 0, 3);
	CHECK("submit pread pwritev fsync", io_submit(ctx, 3, cbs));
	reap(ctx, 3, cbs, "three");
	printf("read back: %s\n", buf);
	memset(a, 0, sizeof(a));
	memset(b, 0, sizeof(b));
	iov[0] = (struct iovec){ a, 5 };
	iov[1] = (struct iovec){ b, 8 };
	prep(&cb[0], IOCB_CMD_PREADV, fd, iov, 2, 4, 1);
	CHECK("submit preadv", io_submit(ctx, 1, cbs));
	reap(ctx, 1, cbs, "preadv");
	printf("preadv: %.5s|%.8s\n", a, b);
	FACT("key written 0", cb[0].aio_key == 0);

	/* poll on a pipe: completes when written; another one cancelled */
	prep(&cb[0], IOCB_CMD_POLL, p[0], NULL, 0, 0, 1);
	cb[0].aio_buf = POLLIN;
	CHECK("submit poll", io_submit(ctx, 1, cbs));
	CHECK("no event yet", io_getevents(ctx, 0, 4, ev, &zero));
	CHECK("write pipe", write(p[1], "x", 1));
	reap(ctx, 1, cbs, "poll");
	CHECK("read pipe", read(p[0], buf, 1));
	prep(&cb[0], IOCB_CMD_POLL, p[0], NULL, 0, 0, 1);
	cb[0].aio_buf = POLLIN;
	CHECK("submit poll 2", io_submit(ctx, 1, cbs));
	CHECK("cancel poll", syscall(SYS_io_cancel, ctx, &cb[0], &ev[0]));
	reap(ctx, 1, cbs, "cancelled");
	CHECK("cancel again", syscall(SYS_io_cancel, ctx, &cb[0], &ev[0]));
	CHECK("cancel never submitted", syscall(SYS_io_cancel, ctx, &cb[3], &ev[0]));

	/* errors */
	prep(&cb[0], IOCB_CMD_PREAD, fd, buf, 4, 0, 1);
	CHECK("submit bad ctx", io_submit(ctx + 4096, 1, cbs));
	CHECK("submit nr -1", io_submit(ctx, -1, cbs));
	CHECK("submit nr 0", io_submit(ctx, 0, cbs));
	CHECK("submit bad array", io_submit(ctx, 1, (struct iocb **)noaccess));
	cbs[1] = (struct iocb *)noaccess;
	CHECK("submit second iocb bad", io_submit(ctx, 2, cbs));
	reap(ctx, 1, cbs, "first of two");
	cbs[1] = &cb[1];
	prep(&cb[0], IOCB_CMD_PREAD, 999, buf, 4, 0, 1);
	CHECK("submit bad fd", io_submit(ctx, 1, cbs));
	prep(&cb[0], 99, fd, buf, 4, 0, 1);
	CHECK("submit bad opcode", io_submit(ctx, 1, cbs));
	prep(&cb[0], IOCB_CMD_NOOP, fd, buf, 4, 0, 1);
	CHECK("submit noop", io_submit(ctx, 1, cbs));
	prep(&cb[0], IOCB_CMD_PREAD, fd, buf, 4, 0, 1);
	cb[0].aio_reserved2 = 1;
	CHECK("submit reserved2", io_submit(ctx, 1, cbs));
	prep(&cb[0], IOCB_CMD_PREAD, fd, noaccess, 4, 0, 1);
	CHECK("submit pread noaccess buffer", io_submit(ctx, 1, cbs));
	reap(ctx, 1, cbs, "noaccess buffer");
	prep(&cb[0], IOCB_CMD_PREAD, fd, (void *)main, 4, 0, 1);
	CHECK("submit pread into code", io_submit(ctx, 1, cbs));
	reap(ctx, 1, cbs, "read-only buffer");
	CHECK("getevents min > nr", io_getevents(ctx, 2, 1, ev, &zero));
	CHECK("getevents bad ctx", io_getevents(ctx + 4096, 0, 1, ev, &zero));
	CHECK("getevents bad timeout", io_getevents(ctx, 0, 1, ev, (struct timespec *)noaccess));
	{
		sigset_t mask;
#ifdef __i386__
		uint32_t sig[2] = { (uint32_t)(uintptr_t)&mask, 8 };
		uint32_t badsize[2] = { (uint32_t)(uintptr_t)&mask, 4 };
#else
		uint64_t sig[2] = { (uint64_t)(uintptr_t)&mask, 8 };
		uint64_t badsize[2] = { (uint64_t)(uintptr_t)&mask, 4 };
#endif
		sigemptyset(&mask);
		sigaddset(&mask, SIGUSR1);
		CHECK("pgetevents mask", syscall(SYS_io_pgetevents, ctx, 0, 1, ev, &zero, sig));
		CHECK("pgetevents no mask", syscall(SYS_io_pgetevents, ctx, 0, 1, ev, &zero, NULL));
		CHECK("pgetevents bad size", syscall(SYS_io_pgetevents, ctx, 0, 1, ev, &zero, badsize));
		CHECK("pgetevents bad sig", syscall(SYS_io_pgetevents, ctx, 0, 1, ev, &zero, noaccess));
	}
	CHECK("io_destroy", syscall(SYS_io_destroy, ctx));
	in_maps = 0;
	maps = fopen("/proc/self/maps", "r");
	while (maps && fgets(line, sizeof(line), maps))
		if (strstr(line, "[aio]"))
			in_maps = 1;
	if (maps)
		fclose(maps);
	FACT("ring gone from maps", !in_maps);
	CHECK("io_destroy again", syscall(SYS_io_destroy, ctx));
	CHECK("getevents destroyed", io_getevents(ctx, 0, 1, ev, &zero));

	/* a ring the program moves, and one it unmaps, before io_destroy */
	{
		aio_context_t moved = 0, gone = 0;
		size_t len;
		void *to;

		CHECK("io_setup to move", io_setup(4, &moved));
		ring = (const void *)(uintptr_t)moved;
		len = (32 + (size_t)ring->nr * 32 + 4095) & ~(size_t)4095;
		to = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		FACT("moved", mremap((void *)(uintptr_t)moved, len, len,
				     MREMAP_MAYMOVE | MREMAP_FIXED, to) == to);
		FACT("old id gone", io_getevents(moved, 0, 1, ev, &zero) == -1 && errno == EINVAL);
		moved = (aio_context_t)(uintptr_t)to;
		ring = to;
		FACT("moved ring magic", ring->magic == RING_MAGIC);
		CHECK("getevents moved", io_getevents(moved, 0, 1, ev, &zero));
		CHECK("io_destroy moved", syscall(SYS_io_destroy, moved));
		CHECK("io_setup to unmap", io_setup(4, &gone));
		ring = (const void *)(uintptr_t)gone;
		len = (32 + (size_t)ring->nr * 32 + 4095) & ~(size_t)4095;
		CHECK("munmap ring", munmap((void *)(uintptr_t)gone, len));
		CHECK("io_destroy unmapped", syscall(SYS_io_destroy, gone));
		CHECK("io_destroy unmapped again", syscall(SYS_io_destroy, gone));
	}
	in_maps = 0;
	maps = fopen("/proc/self/maps", "r");
	while (maps && fgets(line, sizeof(line), maps))
		if (strstr(line, "[aio]"))
			in_maps = 1;
	if (maps)
		fclose(maps);
	FACT("no ring in maps", !in_maps);
	close(fd);
	unlink(path);
	return 0;
}
