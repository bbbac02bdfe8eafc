/* Stack stores over code just run: the stack pointer moved into an RWX
 * buffer of two pages, a push at its top, a call of code on the first
 * page (decoded now), then a single push, a run of two pushes (a
 * prologue's form), a push of an immediate, or a MOV of a register or an
 * immediate to a stack slot (RSP + disp) over that code, and the code
 * called again from the second page (so that the call's own push does
 * not drop the code): it must run the bytes stored, as natively (a stack
 * store's check that missed decoded code, such as a window of pages
 * found plain kept past a decode, fails it); and a MOV through base +
 * disp. Each case on a fresh buffer, with a data page below it or not.
 * The same code and results in every ABI (x32 uses the 64-bit stores;
 * i386 stores the same bytes in 4-byte halves). */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* results: two ints at buf + RESULTS, what the code returned before and
 * after the pushes over it */
#define RESULTS 0x1800

void sw_push(unsigned char *buf), sw_run(unsigned char *buf), sw_pushi(unsigned char *buf);
void sw_slot(unsigned char *buf), sw_sloti(unsigned char *buf), sw_base(unsigned char *buf);

#if defined(__x86_64__)
/* rdi = buf; r12 the old rsp; r13 the code */
#ifdef __ILP32__
#define SW_ZEXT "mov %edi,%edi\n" /* x32 passes a 32-bit pointer */
#else
#define SW_ZEXT
#endif
#define SW_ENTER                                             \
	"push %rbx; push %r12; push %r13\n" SW_ZEXT          \
	"mov %rsp,%r12\n"                                    \
	"lea 0x2000(%rdi),%rsp\n"                            \
	"push %rax\n" /* the first stack store on the page */ \
	"lea 0x800(%rdi),%r13\n"                             \
	"call *%r13\n" /* decodes the page */                \
	"mov %eax,0x1800(%rdi)\n"
#define SW_LEAVE                      \
	"lea 0x1ff0(%rdi),%rsp\n"      \
	"call *%r13\n"                \
	"mov %eax,0x1804(%rdi)\n"     \
	"mov %r12,%rsp\n"             \
	"pop %r13; pop %r12; pop %rbx\n" \
	"ret\n"
__asm__(".text\n"
	".globl sw_push\n"
	"sw_push:\n" SW_ENTER
	"movabs $0x9090c300000009b8,%rsi\n" /* mov $9,%eax; ret */
	"lea 0x808(%rdi),%rsp\n"
	"push %rsi\n" SW_LEAVE
	".globl sw_run\n"
	"sw_run:\n" SW_ENTER
	"movabs $0x9090c30000000bb8,%rsi\n" /* mov $11,%eax; ret */
	"movabs $0xc3c3c3c3c3c3c3c3,%rdx\n"
	"lea 0x810(%rdi),%rsp\n"
	"push %rdx\n"
	"push %rsi\n" SW_LEAVE
	".globl sw_pushi\n"
	"sw_pushi:\n" SW_ENTER
	"lea 0x805(%rdi),%rsp\n"
	"pushq $-0x48000000\n" /* 0xb8 at 0x800, ff ff ff ff after: mov $-1,%eax */
	SW_LEAVE
	".globl sw_slot\n"
	"sw_slot:\n" SW_ENTER /* rsp = buf + 0x1ff8 */
	"movabs $0x9090c30000000db8,%rsi\n" /* mov $13,%eax; ret */
	"mov %rsi,-0x17f8(%rsp)\n" SW_LEAVE
	".globl sw_sloti\n"
	"sw_sloti:\n" SW_ENTER
	"movl $0x0f,-0x17f7(%rsp)\n" /* the immediate of mov $7,%eax */
	SW_LEAVE
	".globl sw_base\n"
	"sw_base:\n" SW_ENTER
	"movabs $0x9090c30000000fb8,%rsi\n" /* mov $15,%eax; ret */
	"mov %rsi,0x800(%rdi)\n" SW_LEAVE);
#else
/* edi = buf; ebx the old esp; esi the code */
#define SW_ENTER                                             \
	"push %ebx; push %esi; push %edi\n"                  \
	"mov 16(%esp),%edi\n"                                \
	"mov %esp,%ebx\n"                                    \
	"lea 0x2000(%edi),%esp\n"                            \
	"push %eax\n"                                        \
	"lea 0x800(%edi),%esi\n"                             \
	"call *%esi\n"                                       \
	"mov %eax,0x1800(%edi)\n"
#define SW_LEAVE                      \
	"lea 0x1ff0(%edi),%esp\n"      \
	"call *%esi\n"                \
	"mov %eax,0x1804(%edi)\n"     \
	"mov %ebx,%esp\n"             \
	"pop %edi; pop %esi; pop %ebx\n" \
	"ret\n"
__asm__(".text\n"
	".globl sw_push\n"
	"sw_push:\n" SW_ENTER
	"lea 0x808(%edi),%esp\n"
	"push $0x9090c300\n"
	"push $0x000009b8\n" SW_LEAVE
	".globl sw_run\n"
	"sw_run:\n" SW_ENTER
	"mov $0xc3c3c3c3,%edx\n"
	"lea 0x810(%edi),%esp\n"
	"push %edx\n"
	"push %edx\n"
	"mov $0x9090c300,%edx\n"
	"mov $0x00000bb8,%ecx\n"
	"push %edx\n"
	"push %ecx\n" SW_LEAVE
	".globl sw_pushi\n"
	"sw_pushi:\n" SW_ENTER
	"lea 0x805(%edi),%esp\n"
	"push $-1\n" /* the immediate of mov $7,%eax */
	SW_LEAVE
	".globl sw_slot\n"
	"sw_slot:\n" SW_ENTER /* esp = buf + 0x1ffc */
	"movl $0x00000db8,-0x17fc(%esp)\n"
	"movl $0x9090c300,-0x17f8(%esp)\n" SW_LEAVE
	".globl sw_sloti\n"
	"sw_sloti:\n" SW_ENTER
	"movl $0x0f,-0x17fb(%esp)\n"
	SW_LEAVE
	".globl sw_base\n"
	"sw_base:\n" SW_ENTER
	"movl $0x00000fb8,0x800(%edi)\n"
	"movl $0x9090c300,0x804(%edi)\n" SW_LEAVE);
#endif

/* below: a data page of the same mapping under the buffer (a store
 * check that read the page below a stack store's with its own must still
 * see the code on its own page: branch store64, history.md) */
static void run_case(const char *name, void (*fn)(unsigned char *), int below)
{
	size_t extra = below ? 0x1000 : 0;
	unsigned char *map = mmap(NULL, 0x2000 + extra, PROT_READ | PROT_WRITE | PROT_EXEC,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned char *buf = map + extra;
	static const unsigned char code[] = { 0xb8, 7, 0, 0, 0, 0xc3, 0x90, 0x90 }; /* mov $7,%eax; ret */
	int r[2];

	if (map == MAP_FAILED) {
		perror("mmap");
		_exit(1);
	}
	memcpy(buf + 0x800, code, sizeof(code));
	fn(buf);
	memcpy(r, buf + RESULTS, sizeof(r));
	printf("%s%s: %d then %d\n", name, below ? ", a data page below" : "", r[0], r[1]);
	munmap(map, 0x2000 + extra);
}

int main(void)
{
	for (int round = 0; round < 6; round++) {
		int below = round & 1;

		run_case("push over code", sw_push, below);
		run_case("two pushes over code", sw_run, below);
		run_case("push imm over code", sw_pushi, below);
		run_case("store to a stack slot over code", sw_slot, below);
		run_case("immediate to a stack slot over code", sw_sloti, below);
		/* base + disp (a check reading its page and the one after) */
		run_case("store through base + disp over code", sw_base, below);
	}
	return 0;
}
