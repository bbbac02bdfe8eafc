/* nx: code runs only from executable pages. A call into a page without
 * PROT_EXEC (read-write, read-only, none; a non-PF_X segment's .data; the
 * non-executable stack) is SIGSEGV with SEGV_ACCERR, si_addr and the
 * saved instruction pointer at the code; an unmapped page SEGV_MAPERR;
 * an instruction running from an executable page into one that is not
 * faults at the second page, the ip still at its start; the error code
 * has the fetch bit (0x10) and P as the page is. mprotect back and
 * forth over code that already ran must count every time. Addresses are
 * printed relative to the code's. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

/* mov eax, 42; ret — the same bytes in 32- and 64-bit mode */
static const unsigned char ret42[] = { 0xb8, 0x2a, 0x00, 0x00, 0x00, 0xc3 };
static unsigned char in_data[16] = { 0xb8, 0x2a, 0x00, 0x00, 0x00, 0xc3 };

static sigjmp_buf jb;
static volatile int got_code;
static volatile uintptr_t got_addr, got_ip;
static volatile unsigned long got_err;

static void on_segv(int sig, siginfo_t *si, void *uctx)
{
	ucontext_t *uc = uctx;

	(void)sig;
	got_code = si->si_code;
	got_addr = (uintptr_t)si->si_addr;
#ifdef __x86_64__
	got_ip = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
#else
	got_ip = (uintptr_t)uc->uc_mcontext.gregs[REG_EIP];
#endif
	got_err = (unsigned long)uc->uc_mcontext.gregs[REG_ERR];
	siglongjmp(jb, 1);
}

static void call(const char *what, void *code)
{
	int (*fn)(void) = (int (*)(void))code;

	if (sigsetjmp(jb, 1) == 0) {
		int r = fn();

		printf("%-28s returned %d\n", what, r);
	} else {
		printf("%-28s SIGSEGV %s, si_addr code%+ld, ip code%+ld, error code %#lx\n",
		       what, got_code == SEGV_ACCERR ? "SEGV_ACCERR" :
		       got_code == SEGV_MAPERR ? "SEGV_MAPERR" : "other",
		       (long)(got_addr - (uintptr_t)code), (long)(got_ip - (uintptr_t)code),
		       got_err);
	}
}

int main(void)
{
	struct sigaction sa;
	unsigned char *page, *two, on_stack[16];
	long ps = sysconf(_SC_PAGESIZE);

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSEGV, &sa, NULL);

	page = mmap(NULL, ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	memcpy(page, ret42, sizeof(ret42));
	call("read-write page", page);
	mprotect(page, ps, PROT_READ | PROT_EXEC);
	call("after mprotect r-x", page);
	call("again", page);
	mprotect(page, ps, PROT_READ | PROT_WRITE);
	call("after mprotect rw-", page);
	mprotect(page, ps, PROT_READ);
	call("after mprotect r--", page);
	mprotect(page, ps, PROT_NONE);
	call("after mprotect ---", page);
	mprotect(page, ps, PROT_READ | PROT_WRITE | PROT_EXEC);
	call("after mprotect rwx", page);
	memcpy(page + 64, ret42, sizeof(ret42)); /* code that never ran */
	mprotect(page, ps, PROT_READ | PROT_WRITE);
	call("new code, rw-", page + 64);
	munmap(page, ps);
	call("unmapped", page);

	/* mov eax, 42 across the boundary of an r-x and an rw- page */
	two = mmap(NULL, 2 * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	memcpy(two + ps - 2, ret42, sizeof(ret42));
	mprotect(two, ps, PROT_READ | PROT_EXEC);
	call("across into rw-", two + ps - 2);
	mprotect(two + ps, ps, PROT_READ | PROT_EXEC);
	call("across into r-x", two + ps - 2);
	mprotect(two + ps, ps, PROT_READ | PROT_WRITE);
	call("across into rw- again", two + ps - 2);
	munmap(two + ps, ps);
	call("across into unmapped", two + ps - 2);

	call(".data (no PF_X)", in_data);
	memcpy(on_stack, ret42, sizeof(ret42));
	call("stack (PT_GNU_STACK rw-)", on_stack);
	return 0;
}
