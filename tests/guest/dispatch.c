/* Indirect branches with many targets and kept fall-throughs (docs/cpu.md,
 * Pipeline): an interpreter's op dispatch (one CALL site through a table, as Perl's
 * `call *op_ppaddr`), a RET shared by many callers, a computed-goto loop
 * (CPython's `jmp *reg`), and generated functions whose addresses all
 * share one entry of the CPU's table of targets by address, so that site
 * keeps missing it and looks them up, and a fall-through into the next
 * page, whose code changes. Each site's kept target, the table and the
 * lookups are all run, cold and warm, and again in a fork child and its
 * parent; the output is compared with the native run's. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static uint32_t rng = 12345;

static uint32_t next_random(void)
{
	rng = rng * 1103515245u + 12345u;
	return rng >> 8;
}

/* ---- an op dispatch loop: each op updates the state and names the next */
struct vm {
	uint32_t acc;
	unsigned pc;
	const uint8_t *prog;
};

#define NOPS 24
#define OP(n)                                                                      \
	static __attribute__((noinline)) unsigned op##n(struct vm *v)             \
	{                                                                          \
		v->acc = (v->acc ^ (n * 0x9e3779b9u)) * (2 * n + 3) + (v->acc >> (n % 7 + 1)); \
		return v->prog[v->pc++];                                           \
	}
OP(1) OP(2) OP(3) OP(4) OP(5) OP(6) OP(7) OP(8) OP(9) OP(10) OP(11) OP(12)
OP(13) OP(14) OP(15) OP(16) OP(17) OP(18) OP(19) OP(20) OP(21) OP(22) OP(23)

static unsigned op_end(struct vm *v)
{
	(void)v;
	return 0;
}

static unsigned (*const ops[NOPS])(struct vm *) = {
	op_end, op1, op2, op3, op4, op5, op6, op7, op8, op9, op10, op11, op12,
	op13, op14, op15, op16, op17, op18, op19, op20, op21, op22, op23,
};

static uint32_t run_ops(const uint8_t *prog, uint32_t acc)
{
	struct vm v = { acc, 1, prog };
	unsigned op = prog[0];

	while (op)
		op = ops[op](&v);
	return v.acc;
}

/* ---- ops as structures holding their function (Perl's `call
 * *op_ppaddr`: through a base register and a displacement), and a tail
 * call through one (a JMP through memory) */
struct node {
	uint32_t weight;
	struct node *(*fn)(struct node *, uint32_t *);
	struct node *next[2];
};

#define NODE_FN(n)                                                                           \
	static __attribute__((noinline)) struct node *node##n(struct node *o, uint32_t *acc) \
	{                                                                                    \
		*acc = (*acc << (n + 1)) ^ (*acc >> 3) ^ o->weight;                          \
		return o->next[(*acc >> n) & 1];                                             \
	}
NODE_FN(1) NODE_FN(2) NODE_FN(3) NODE_FN(4) NODE_FN(5)

static __attribute__((noinline)) struct node *node_tail(struct node *o, uint32_t *acc)
{
	struct node *to = o->next[*acc & 1];

	*acc += 0x9e37;
	return to->fn(to, acc); /* a sibling call: jmp *disp(%reg) */
}

static uint32_t run_nodes(unsigned steps)
{
	static struct node nodes[12];
	struct node *(*const fns[6])(struct node *, uint32_t *) = { node1, node2, node3, node4,
								    node5, node_tail };
	uint32_t acc = 7;
	struct node *o = &nodes[0];

	for (unsigned k = 0; k < 12; k++) {
		nodes[k].weight = k * 0x01000193u + 11;
		nodes[k].fn = fns[k % 6];
		nodes[k].next[0] = &nodes[(k * 5 + 1) % 12];
		nodes[k].next[1] = &nodes[(k * 7 + 3) % 12];
	}
	while (steps--)
		o = o->fn(o, &acc);
	return acc;
}

/* ---- PUSH of immediates (i386 passes constant arguments so; a lazy
 * PLT entry pushes its index), a byte one sign-extended */
#ifdef __x86_64__ /* x32 too: a push is 8 bytes in 64-bit mode */
typedef uint64_t stack_word;
#else
typedef uint32_t stack_word;
#endif

/* Under E2E_REF_TWIN=1 (run_case.sh: an i386 run checked against its
 * x86_64 twin, on a host without IA32 emulation) both runs hash only the
 * low 32 bits of each word popped, which the two ABIs share; the upper
 * halves (the 64-bit sign extension) are checked where each runs natively. */
static int twin_oracle;

static stack_word popped(stack_word w)
{
	return twin_oracle ? (stack_word)(uint32_t)w : w;
}

static uint32_t pushed_immediates(uint32_t x)
{
	stack_word a, b, c;

	__asm__ volatile("push $-5\n\t"
			 "push $0x7fffff00\n\t"
			 "push $0x7f\n\t"
			 "pop %0\n\t"
			 "pop %1\n\t"
			 "pop %2"
			 : "=r"(a), "=r"(b), "=r"(c));
	a = popped(a), b = popped(b), c = popped(c);
	return x * 31 + (uint32_t)a + (uint32_t)(b >> 3) + (uint32_t)c + (uint32_t)(c >> 16) +
	       (uint32_t)((uint64_t)c >> 32);
}

/* ---- PUSH of memory (i386 passes stack arguments so: msort's "push
 * 0x14(%esp)" before each call of qsort's callback): base + disp, an
 * index, and the stack pointer as the base, which names the slot before
 * the push (the first word pushed, pushed again) */
#ifdef __x86_64__
#define STACK_POINTER "rsp"
#else
#define STACK_POINTER "esp"
#endif

static uint32_t pushed_memory(const stack_word *w, uint32_t x)
{
	stack_word a, b, c;
	unsigned long k = x & 3;

	__asm__ volatile("push %c6(%3)\n\t"
			 "push (%3,%4,%c6)\n\t"
			 "push %c6(%%" STACK_POINTER ")\n\t"
			 "pop %0\n\t"
			 "pop %1\n\t"
			 "pop %2"
			 : "=&r"(a), "=&r"(b), "=&r"(c)
			 : "r"(w), "r"(k), "m"(*(const stack_word(*)[4])w), "i"(sizeof(stack_word)));
	a = popped(a), b = popped(b), c = popped(c);
	return x * 31 + (uint32_t)a + (uint32_t)(b >> 3) + (uint32_t)c * 7 + (uint32_t)((uint64_t)b >> 32);
}

/* ---- one RET returning to many places */
static __attribute__((noinline)) uint32_t shared(uint32_t x, uint32_t k)
{
	return (x << 5) - x + k;
}

#define CALLS4(x, k) x = shared(x, k); x ^= k; x = shared(x, k + 1); x += k; \
	x = shared(x, k + 2); x -= k; x = shared(x, k + 3); x ^= x >> 7;

static uint32_t shared_ret(uint32_t x, unsigned n)
{
	for (unsigned k = 0; k < n; k++) {
		CALLS4(x, k)
		if (next_random() & 1) {
			CALLS4(x, 2 * k)
		} else {
			CALLS4(x, 3 * k)
			CALLS4(x, 5 * k)
		}
	}
	return x;
}

/* ---- computed goto: every label's own indirect jump, many targets */
static uint32_t threaded(const uint8_t *prog)
{
	static const void *const labels[8] = { &&l0, &&l1, &&l2, &&l3, &&l4, &&l5, &&l6, &&l7 };
	uint32_t acc = 1;
	unsigned pc = 0;

	goto *labels[prog[pc++] & 7];
l1: acc = acc * 3 + 1; goto *labels[prog[pc++] & 7];
l2: acc ^= acc >> 3; goto *labels[prog[pc++] & 7];
l3: acc += 0x1234567; goto *labels[prog[pc++] & 7];
l4: acc = (acc << 7) | (acc >> 25); goto *labels[prog[pc++] & 7];
l5: acc -= pc; goto *labels[prog[pc++] & 7];
l6: acc *= 0x01000193; goto *labels[prog[pc++] & 7];
l7: acc ^= 0xdeadbeef; goto *labels[prog[pc++] & 7];
l0: return acc;
}

/* ---- generated functions whose addresses share a table entry ----
 * `mov $imm32, %eax; ret` (the same bytes in every mode) at offsets
 * k * 0x401 of a 1 MiB-aligned buffer: for k < 1024, k * 0x401 is k | k << 10,
 * so the address xor itself shifted right by 10 keeps no low bits of k:
 * one slot of a table indexed by (addr ^ addr >> 10) mod 1024. */
#define NSTUBS 16
typedef uint32_t (*stub_fn)(void);

static int make_stubs(stub_fn *out)
{
	size_t mib = 1u << 20;
	uint8_t *map = mmap(NULL, 3 * mib, PROT_READ | PROT_WRITE | PROT_EXEC,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint8_t *base;

	if (map == MAP_FAILED) {
		perror("mmap");
		return -1;
	}
	base = (uint8_t *)(((uintptr_t)map + mib - 1) & ~(uintptr_t)(mib - 1));
	for (unsigned k = 0; k < NSTUBS; k++) {
		uint8_t *p = base + k * 0x401u;
		uint32_t v = k * 0x10001u + 7;

		p[0] = 0xb8;
		memcpy(p + 1, &v, 4);
		p[5] = 0xc3;
		out[k] = (stub_fn)(uintptr_t)p;
	}
	return 0;
}

static uint32_t call_stubs(stub_fn *stubs, unsigned n)
{
	uint32_t acc = 0;

	for (unsigned j = 0; j < n; j++) {
		/* runs of one stub (the kept target hits), then another */
		unsigned k = (next_random() >> 3) % NSTUBS, run = next_random() % 4 + 1;

		while (run--)
			acc = acc * 33 + stubs[k]();
	}
	return acc;
}

/* ---- a fall-through into the next page ----
 * `xor %eax,%eax` ends at a page's end, a JMP to `add $imm32,%eax; ret`
 * starts the next: the first page's fall-through stub keeps the second
 * page's entry (exec.c: tagged, checked at each use); rewriting the
 * immediate (far enough into the page that the first is not dropped
 * with it: an instruction may start 15 bytes before a store) drops the
 * second page, whose new code must run, whatever was decoded there first. */
static int next_page_fallthrough(void)
{
	uint8_t *code = mmap(NULL, 8192, PROT_READ | PROT_WRITE | PROT_EXEC,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint8_t *second = code + 4096;
	stub_fn fn = (stub_fn)(uintptr_t)(second - 2), other = (stub_fn)(uintptr_t)(second + 64);
	uint32_t imm = 0x1111, got[6];

	if (code == MAP_FAILED) {
		perror("mmap");
		return -1;
	}
	second[-2] = 0x31, second[-1] = 0xc0;
	second[0] = 0xeb, second[1] = 30; /* jmp .+32 */
	second[32] = 0x05;
	memcpy(second + 33, &imm, 4);
	second[37] = 0xc3;
	second[64] = 0xb8; /* other: mov $5,%eax; ret */
	memcpy(second + 65, &(uint32_t){ 5 }, 4);
	second[69] = 0xc3;
	for (unsigned k = 0; k < 3; k++)
		got[k] = fn();
	imm = 0x2222;
	memcpy(second + 33, &imm, 4);
	/* the second page decoded anew from another place first: the kept
	 * entry's place now holds that instruction */
	if (other() != 5)
		return -1;
	for (unsigned k = 3; k < 6; k++)
		got[k] = fn();
	printf("next page %x %x %x %x %x %x\n", got[0], got[1], got[2], got[3], got[4], got[5]);
	return 0;
}

/* ---- after a fork ----
 * For a while after a fork parent and child keep no new targets (cache.h,
 * cpu_kept_quiet): their sites must still go where the branches go, a
 * stub the child rewrites (its kept and table entries stale) must run as
 * rewritten there, and the parent must still run its own bytes. */
static int after_fork(stub_fn *stubs, const uint8_t *loop)
{
	uint8_t *stub5 = (uint8_t *)(uintptr_t)stubs[5];
	uint32_t v = 0xabcdef;
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		return -1;
	}
	if (pid == 0) {
		printf("child ops %08x shared ret %08x\n", run_ops(loop, 5), shared_ret(3, 500));
		printf("child stubs %08x", call_stubs(stubs, 2000));
		memcpy(stub5 + 1, &v, 4);
		printf(" %08x %08x\n", stubs[5](), call_stubs(stubs, 2000));
		fflush(stdout);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return -1;
	printf("parent stubs %08x %08x %08x\n", call_stubs(stubs, 2000), stubs[5](),
	       call_stubs(stubs, 2000));
	printf("parent ops %08x shared ret %08x\n", run_ops(loop, 5), shared_ret(3, 500));
	return 0;
}

int main(void)
{
	static uint8_t prog[4096], loop[64], bytes[4096];
	stub_fn stubs[NSTUBS];
	uint32_t acc = 1;

	twin_oracle = getenv("E2E_REF_TWIN") != NULL;

	/* a random program, then a short one repeated (an interpreter's hot loop) */
	for (unsigned k = 0; k + 1 < sizeof(prog); k++)
		prog[k] = (uint8_t)(next_random() % (NOPS - 1) + 1);
	for (unsigned k = 0; k + 1 < sizeof(loop); k++)
		loop[k] = (uint8_t)(k % 9 + 3 * (k % 2) + 1);
	printf("ops random %08x\n", run_ops(prog, 1));
	for (unsigned r = 0; r < 300; r++)
		acc = run_ops(loop, acc);
	printf("ops loop %08x\n", acc);
	printf("nodes %08x %08x\n", run_nodes(3), run_nodes(30000));
	acc = 0;
	for (unsigned k = 0; k < 1000; k++)
		acc = pushed_immediates(acc);
	printf("pushed %08x\n", acc);
	{
		stack_word words[4] = { 0x11, (stack_word)0x8000000000000123ull, 0xfffffff0u, 0x7f };

		acc = 0;
		for (unsigned k = 0; k < 1000; k++) {
			words[k & 3] += acc;
			acc = pushed_memory(words, acc + k);
		}
		printf("pushed memory %08x\n", acc);
	}
	printf("shared ret %08x %08x\n", shared_ret(1, 1), shared_ret(7, 3000));
	for (unsigned k = 0; k + 1 < sizeof(bytes); k++)
		bytes[k] = (uint8_t)(next_random() % 7 + 1);
	acc = 0;
	for (unsigned r = 0; r < 40; r++)
		acc += threaded(bytes);
	printf("threaded %08x\n", acc);
	if (make_stubs(stubs) < 0)
		return 1;
	printf("stubs %08x %08x\n", call_stubs(stubs, 3), call_stubs(stubs, 20000));
	if (after_fork(stubs, loop) < 0)
		return 1;
	return next_page_fallthrough() < 0;
}
