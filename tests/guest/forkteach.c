/* Fork children teach their parent what they decoded (docs/performance.md,
 * "Fork children teach their parent"): under sysgate, a parent decodes
 * at its next fork the addresses its children decoded, in its own memory,
 * and links those instructions' branches. So this program's children run
 * code first and the parent after, where the parent's bytes are no longer
 * what the child ran: code rewritten since, a mapping gone, a file shrunk
 * under its mapping (a decode's read there raises SIGBUS). The results
 * are the same natively, where nothing is taught. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define PAGE 4096
#define FUNCS 64
#define STRIDE 96 /* FUNCS * STRIDE > PAGE: the functions span two pages */
#define AT_EDGE (PAGE - 3) /* a function whose first instruction crosses into page 2 */

typedef int (*fn_t)(void);

/* mov eax, k; jmp .+0; cmp eax, 5; jne +5; add eax, 100; ret
 * (the same bytes in 32- and 64-bit code) */
static void put_fn(uint8_t *p, int32_t k)
{
	static const uint8_t tmpl[] = { 0xb8, 0, 0, 0, 0, 0xeb, 0x00, 0x3d, 5, 0, 0, 0,
					0x75, 0x05, 0x05, 100, 0, 0, 0, 0xc3 };

	memcpy(p, tmpl, sizeof(tmpl));
	memcpy(p + 1, &k, 4);
}

static void put_fns(uint8_t *base, int gen)
{
	for (int f = 0; f < FUNCS; f++)
		put_fn(base + f * STRIDE, f * gen);
	put_fn(base + AT_EDGE, 5 * gen);
}

static long sum_fns(uint8_t *base)
{
	long s = 0;

	for (int f = 0; f < FUNCS; f++)
		s += ((fn_t)(uintptr_t)(base + f * STRIDE))();
	return s + ((fn_t)(uintptr_t)(base + AT_EDGE))();
}

/* fork; the child prints what run() gives and exits 0; the parent waits
 * and says how the child ended */
static void in_child(const char *what, long (*run)(uint8_t *), uint8_t *arg)
{
	int st;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		printf("%s: fork failed\n", what);
		return;
	}
	if (pid == 0) {
		long v = run ? run(arg) : 0;

		printf("%s: child %ld\n", what, v);
		fflush(stdout);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	if (WIFSIGNALED(st))
		printf("%s: child killed by signal %d\n", what, WTERMSIG(st));
	else if (WEXITSTATUS(st) != 0)
		printf("%s: child exit %d\n", what, WEXITSTATUS(st));
}

static long call_first(uint8_t *base)
{
	return ((fn_t)(uintptr_t)base)();
}

int main(void)
{
	uint8_t *code = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE | PROT_EXEC,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint8_t *gone = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char path[] = "/tmp/sg-forkteach-XXXXXX";
	int fd = mkstemp(path);
	uint8_t *file;

	if (code == MAP_FAILED || gone == MAP_FAILED || fd < 0) {
		printf("setup failed\n");
		return 1;
	}
	unlink(path);

	/* rewritten: the child ran generation 1, the parent replays (and
	 * links) generation 2's bytes and runs them, then generation 3 */
	put_fns(code, 1);
	in_child("rewritten gen 1", sum_fns, code);
	put_fns(code, 2);
	in_child("rewritten gen 2", sum_fns, code);
	printf("rewritten gen 2: parent %ld\n", sum_fns(code));
	put_fns(code, 3);
	in_child("rewritten gen 3", sum_fns, code);
	printf("rewritten gen 3: parent %ld\n", sum_fns(code));

	/* gone: the child ran code the parent then unmaps, or makes data */
	put_fns(gone, 4);
	mprotect(gone, 2 * PAGE, PROT_READ | PROT_EXEC);
	in_child("gone", sum_fns, gone);
	munmap(gone, PAGE);
	mprotect(gone + PAGE, PAGE, PROT_READ | PROT_WRITE);
	in_child("after unmap", NULL, NULL);

	/* shrunk: the child ran code in the file's second page, which the
	 * parent's replay then reads past the file's end */
	{
		uint8_t img[2 * PAGE];

		memset(img, 0xcc, sizeof(img));
		put_fns(img, 5);
		if (write(fd, img, sizeof(img)) != (ssize_t)sizeof(img)) {
			printf("write failed\n");
			return 1;
		}
	}
	file = mmap(NULL, 2 * PAGE, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	if (file == MAP_FAILED) {
		printf("file mmap failed\n");
		return 1;
	}
	in_child("file", sum_fns, file);
	if (ftruncate(fd, PAGE) != 0) {
		printf("ftruncate failed\n");
		return 1;
	}
	in_child("shrunk: page 1", call_first, file);
	in_child("shrunk: all", sum_fns, file);
	printf("shrunk: parent page 1 %ld\n", call_first(file));
	return 0;
}
