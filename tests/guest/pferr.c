/* The page-fault error code a SIGSEGV handler finds in its sigcontext
 * (err, trapno) for a read, a write and an instruction fetch at an unmapped
 * address (0x1000, below mmap_min_addr: nobody maps it) and in a PROT_NONE
 * page, and a write to a read-only page that was read first: user 4,
 * write 2, present 1 (a page in the page tables: not PROT_NONE, not one
 * never touched), instruction fetch 0x10 (the vsyscall selftest's "I/D"
 * check). Output is the same for every ABI. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>

static sigjmp_buf jump;
static volatile long got_err, got_trapno, got_code;
static volatile int same_addr;
static void *volatile expect_addr;

static void on_segv(int sig, siginfo_t *info, void *uc_void)
{
	ucontext_t *uc = uc_void;

	(void)sig;
	got_err = (long)uc->uc_mcontext.gregs[REG_ERR];
	got_trapno = (long)uc->uc_mcontext.gregs[REG_TRAPNO];
	got_code = info->si_code;
	same_addr = info->si_addr == expect_addr;
	siglongjmp(jump, 1);
}

static void report(const char *what)
{
	printf("%s: err %#lx trapno %ld si_code %ld si_addr %s\n", what, got_err,
	       got_trapno, got_code, same_addr ? "the address" : "another");
}

int main(void)
{
	struct sigaction sa;
	char *volatile page;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigaction(SIGSEGV, &sa, NULL);
	page = (char *)0x1000;
	expect_addr = page;
	if (!sigsetjmp(jump, 1))
		(void)*(volatile char *)page;
	report("read unmapped");
	if (!sigsetjmp(jump, 1))
		*(volatile char *)page = 1;
	report("write unmapped");
	if (!sigsetjmp(jump, 1))
		((void (*)(void))page)();
	report("call unmapped");

	page = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	expect_addr = page;
	if (!sigsetjmp(jump, 1))
		(void)*(volatile char *)page;
	report("read PROT_NONE");
	if (!sigsetjmp(jump, 1))
		*(volatile char *)page = 1;
	report("write PROT_NONE");
	if (!sigsetjmp(jump, 1))
		((void (*)(void))page)();
	report("call PROT_NONE");

	page = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	expect_addr = page;
	(void)*(volatile char *)page; /* now present */
	if (!sigsetjmp(jump, 1))
		*(volatile char *)page = 1;
	report("write read-only");
	return 0;
}
