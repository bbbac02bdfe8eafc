/* The decode-time superinstructions on real memory (docs/cpu.md,
 * Pipeline): INC/DEC of a memory counter fused with the Jcc after it, the
 * CF they keep and the OF they set, and a hash round's moves, rotates,
 * loads and stores run in pairs. The unit tests have no page map (every
 * fast store there goes through the table handler); here the stores are
 * plain; and the three-way compares of comparison callbacks (CMP fused
 * with "setg; setl"); SETcc of memory. The output is compared with
 * the native run's. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* "decl mem; jne": the counter in memory (i386 keeps loop counters on
 * the stack). */
static unsigned count_down(unsigned n)
{
	volatile unsigned counter = n;
	unsigned acc = 0;

	__asm__ volatile("1: addl $3, %1\n\t"
			 "decl %0\n\t"
			 "jne 1b"
			 : "+m"(counter), "+r"(acc));
	return acc + counter;
}

/* "incl mem; jle": counts up from a negative number. */
static unsigned count_up(int from)
{
	volatile int counter = from;
	unsigned acc = 0;

	__asm__ volatile("1: addl $5, %1\n\t"
			 "incl %0\n\t"
			 "jle 1b"
			 : "+m"(counter), "+r"(acc));
	return acc + (unsigned)counter;
}

/* CF survives INC/DEC of memory and of a register; OF at the ends of the
 * range; JO/JB/JS/JP right after them. */
static unsigned flags_kept(unsigned seed)
{
	volatile unsigned m = 0x7fffffffu + (seed & 1);
	unsigned r = seed, out = 0, t;

	__asm__ volatile("stc\n\t"
			 "incl %2\n\t"
			 "adc $0, %0\n\t" /* CF from STC: +1 */
			 "clc\n\t"
			 "decl %2\n\t"
			 "jb 1f\n\t"
			 "addl $16, %0\n"
			 "1: stc\n\t"
			 "incl %2\n\t"
			 "jo 2f\n\t"
			 "addl $256, %0\n"
			 "2: mov %3, %1\n\t"
			 "cmp $7, %1\n\t"
			 "dec %1\n\t"
			 "jbe 3f\n\t"
			 "addl $4096, %0\n"
			 "3: inc %1\n\t"
			 "js 4f\n\t"
			 "addl $65536, %0\n"
			 "4: dec %1\n\t"
			 "jp 5f\n\t"
			 "addl $1048576, %0\n"
			 "5:"
			 : "+r"(out), "=&r"(t), "+m"(m)
			 : "r"(r)
			 : "cc");
	return out ^ m;
}

/* CPython's Py_DECREF, "subq $1,mem; jne/je" (fused.c): a count taken
 * down through 0 and past it, both conditions, CF after either branch
 * (SBB: the SUB's borrow), the count's memory after. i386 has no 64-bit
 * SUB: the same sums in C. */
static unsigned long long decref(unsigned n)
{
	volatile unsigned long long cnt = n;
	unsigned long long zeros = 0, borrows = 0, cf;

	for (unsigned k = 0; k < n + 3; k++) {
#ifdef __x86_64__
		__asm__ volatile("subq $1, %0\n\t"
				 "jne 1f\n\t"
				 "sbb %2, %2\n\t"
				 "addq $1, %1\n\t"
				 "jmp 2f\n"
				 "1: sbb %2, %2\n"
				 "2:"
				 : "+m"(cnt), "+r"(zeros), "=r"(cf)
				 :
				 : "cc");
		borrows -= cf;
		__asm__ volatile("subq $-2, %0\n\t"
				 "je 1f\n\t"
				 "subq $2, %0\n\t"
				 "je 1f\n\t"
				 "addq $0x10, %1\n"
				 "1: sbb %2, %2"
				 : "+m"(cnt), "+r"(zeros), "=r"(cf)
				 :
				 : "cc");
		borrows -= cf;
#else
		unsigned long long was = cnt, b;

		cnt = was - 1;
		zeros += cnt == 0;
		borrows += was == 0;
		b = cnt;
		cnt = b + 2; /* the second block's CF is 0 on each of its paths */
		if (cnt != 0) {
			cnt = b;
			if (b != 0)
				zeros += 0x10;
		}
		(void)cf;
#endif
	}
	return zeros * 1000003 + borrows * 31 + cnt;
}

static inline uint32_t ror32(uint32_t v, unsigned n)
{
	return (v >> n) | (v << (32 - n));
}

/* SHA-256's round function over a buffer: what gcc makes of it at -O2 is
 * moves, rotates, ALU forms and, on i386, spill loads and stores. */
static uint32_t rounds(const uint32_t *w, unsigned n)
{
	uint32_t a = 0x6a09e667, b = 0xbb67ae85, c = 0x3c6ef372, d = 0xa54ff53a;
	uint32_t e = 0x510e527f, f = 0x9b05688c, g = 0x1f83d9ab, h = 0x5be0cd19;

	for (unsigned i = 0; i < n; i++) {
		uint32_t s1 = ror32(e, 6) ^ ror32(e, 11) ^ ror32(e, 25);
		uint32_t ch = (e & f) ^ (~e & g);
		uint32_t t1 = h + s1 + ch + w[i & 63] + i;
		uint32_t s0 = ror32(a, 2) ^ ror32(a, 13) ^ ror32(a, 22);
		uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
		uint32_t t2 = s0 + maj;

		h = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
	}
	return a ^ b ^ c ^ d ^ e ^ f ^ g ^ h;
}

/* (x > y) - (x < y): gcc -O2 makes "cmp; setg; setl; movzbl; movzbl;
 * sub" of it (signed), "cmp; setb; cmp; sbb" (unsigned). */
static int cmp_signed(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static int cmp_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return (x > y) - (x < y);
}

/* qsort with both callbacks over values with many equal ones, then the
 * sorted arrays' checksums and whether each is in order. */
static void sorts(void)
{
	static int v[20000];
	uint32_t seed = 12345, sum = 0;
	unsigned bad = 0;

	for (unsigned k = 0; k < 2; k++) {
		for (unsigned i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
			seed = seed * 1103515245u + 12345u;
			v[i] = (int)(seed >> (i % 3 ? 1 : 20)) ^ (i & 1 ? (int)0x80000000u : 0);
		}
		qsort(v, sizeof(v) / sizeof(v[0]), sizeof(v[0]), k ? cmp_unsigned : cmp_signed);
		for (unsigned i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
			sum = sum * 31 + (uint32_t)v[i];
			if (i && (k ? cmp_unsigned : cmp_signed)(&v[i - 1], &v[i]) > 0)
				bad++;
		}
	}
	printf("sorts %08x %u\n", sum, bad);
}

/* PUSH of memory operands, popped back: through a base, indexed, and
 * ESP-relative (its address taken before the push: the first value
 * again). i386 passes a stack argument on this way. */
static void push_mem(const uint32_t *w, unsigned k)
{
	uint32_t a, b, c;

#ifdef __i386__
	__asm__ volatile("push (%3)\n\t"
			 "push 4(%3,%4,4)\n\t"
			 "push 4(%%esp)\n\t"
			 "pop %0\n\t"
			 "pop %1\n\t"
			 "pop %2"
			 : "=r"(a), "=r"(b), "=r"(c)
			 : "r"(w), "r"(k)
			 : "memory");
#else
	a = w[0], b = w[1 + k], c = w[0];
#endif
	printf("push_mem(%u) %08x %08x %08x\n", k, a, b, c);
}

/* A run of register pushes (move.c, push_run: one store check, one
 * dispatch), popped back in another order: (a, b, c) -> (b, c, a). */
static void push_run(uint32_t a, uint32_t b, uint32_t c)
{
#ifdef __i386__
	__asm__ volatile("push %0\n\t"
			 "push %1\n\t"
			 "push %2\n\t"
			 "push %0\n\t"
			 "pop %2\n\t"
			 "pop %1\n\t"
			 "pop %0\n\t"
			 "add $4, %%esp"
			 : "+r"(a), "+r"(b), "+r"(c)
			 :
			 : "memory");
#else
	uint32_t t = a;

	a = b, b = c, c = t;
#endif
	printf("push_run %08x %08x %08x\n", a, b, c);
}

/* ... mixed: registers, ESP + disp (the address with the stack pointer
 * before that push: b's slot) and an immediate: (a, b, c) -> (c, b +
 * 0x1234567, a)... */
static void push_run_mixed(uint32_t a, uint32_t b, uint32_t c)
{
#ifdef __i386__
	__asm__ volatile("push %0\n\t"
			 "push %1\n\t"
			 "push 4(%%esp)\n\t"
			 "push $0x1234567\n\t"
			 "push %2\n\t"
			 "pop %0\n\t"
			 "pop %1\n\t"
			 "pop %2\n\t"
			 "add (%%esp), %1\n\t"
			 "add $8, %%esp"
			 : "+r"(a), "+r"(b), "+r"(c)
			 :
			 : "memory", "cc");
#else
	uint32_t t = a;

	a = c, b += 0x1234567, c = t;
#endif
	printf("push_run_mixed %08x %08x %08x\n", a, b, c);
}

/* PUSH r64 with MOV r64, r64 between them (move.c, push_mix: a prologue
 * saving registers while it moves its arguments): a MOV's result pushed
 * later in the run, a MOV reading RSP mid-run (the pushes before it
 * done); run three times, the run's form taking over after the first.
 * (a, b, c) -> (a, b, 8, c, b). 128 bytes first: the red zone. */
static void push_mov_run(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t d = 0, e = 0;

	for (int k = 0; k < 3; k++) {
#if defined(__x86_64__) && !defined(HOTLOOPS_NO_ASM)
		uint64_t a1 = a, b1 = b, c1 = c;

		__asm__ volatile("sub $128, %%rsp\n\t"
				 "push %[a]\n\t"
				 "mov %[b], %[a]\n\t"
				 "push %[a]\n\t"
				 "mov %%rsp, %[d]\n\t"
				 "push %[c]\n\t"
				 "mov %[a], %[e]\n\t"
				 "push %[d]\n\t"
				 "pop %[c]\n\t"
				 "sub %%rsp, %[c]\n\t"
				 "pop %[d]\n\t"
				 "pop %[b]\n\t"
				 "pop %[a]\n\t"
				 "add $128, %%rsp"
				 : [a] "+r"(a1), [b] "+r"(b1), [c] "+r"(c1), [d] "=&r"(d), [e] "=&r"(e)
				 :
				 : "memory", "cc");
		printf("push_mov_run %llx %llx %llx %llx %llx\n", (unsigned long long)a1,
		       (unsigned long long)b1, (unsigned long long)c1, (unsigned long long)d,
		       (unsigned long long)e);
#else
		d = c, e = b;
		printf("push_mov_run %llx %llx %llx %llx %llx\n", (unsigned long long)a,
		       (unsigned long long)b, 8ull, (unsigned long long)d, (unsigned long long)e);
#endif
	}
}

/* MOV r64, r64 right before a polymorphic indirect CALL (control.c,
 * mov_call_fuse: the two one handler once the site has seen a second
 * target): an argument moved into RDI, then a call through base + disp
 * and through a register, the targets rotating (a SUB with its flags
 * before each MOV: a unit there would pair with the MOV). */
static __attribute__((noinline, used)) uint64_t poly_a(uint64_t x) { return x * 3 + 1; }
static __attribute__((noinline, used)) uint64_t poly_b(uint64_t x) { return x ^ 0x5555; }
static __attribute__((noinline, used)) uint64_t poly_c(uint64_t x) { return (x >> 1) + 77; }

static void mov_call_poly(void)
{
	static uint64_t (*const fns[3])(uint64_t) = { poly_a, poly_b, poly_c };
	uint64_t acc = 1, acc2 = 5;

	for (int k = 0; k < 3000; k++) {
		uint64_t (*const *f)(uint64_t) = &fns[k % 3];
#if defined(__x86_64__) && defined(__LP64__) && !defined(HOTLOOPS_NO_ASM) /* not x32: 4-byte pointers */
		/* the callees' frames below the red zone; no SSE there */
		__asm__ volatile("sub $128, %%rsp\n\t"
				 "mov %[acc], %%rdi\n\t"
				 "call *-0x10(%[f])\n\t"
				 "add $128, %%rsp\n\t"
				 "mov %%rax, %[acc]\n\t"
				 "sub $128, %%rsp\n\t"
				 "mov %[acc2], %%rdi\n\t"
				 "call *%[g]\n\t"
				 "add $128, %%rsp\n\t"
				 "mov %%rax, %[acc2]"
				 : [acc] "+r"(acc), [acc2] "+r"(acc2)
				 : [f] "b"((const char *)f + 0x10), [g] "r"(*f)
				 : "rax", "rdi", "rsi", "rdx", "rcx", "r8", "r9", "r10", "r11", "memory", "cc");
#else
		acc = (*f)(acc);
		acc2 = (*f)(acc2);
#endif
	}
	printf("mov_call_poly %llx %llx\n", (unsigned long long)acc, (unsigned long long)acc2);
}

/* Perl's run loop (fused.c, fuse_store_test_loop_call): "mov %rbx,%rdi;
 * call *0x10(%rax)", then at the CALL's return address "mov
 * %rax,0x8(%rbx); test %rax,%rax; jne" back to the MOV, the ops' handlers
 * rotating (the CALL polymorphic): once turned, the store, TEST and JNE
 * run the MOV and the CALL too. Each op's handler reads the interpreter's
 * current op (the store) and its argument through RDI (the MOV); the
 * chain ends in a NULL next (the JNE falls through). */
struct runops_interp {
	uint64_t acc;
	const struct runops_op *op;
};
struct runops_op {
	const struct runops_op *next;
	uint64_t arg;
	const struct runops_op *(*pp)(struct runops_interp *);
};
static __attribute__((noinline, used)) const struct runops_op *pp_add(struct runops_interp *in)
{
	in->acc += in->op->arg;
	return in->op->next;
}
static __attribute__((noinline, used)) const struct runops_op *pp_mul(struct runops_interp *in)
{
	in->acc = in->acc * in->op->arg + 1;
	return in->op->next;
}
static __attribute__((noinline, used)) const struct runops_op *pp_rot(struct runops_interp *in)
{
	in->acc = (in->acc << 7 | in->acc >> 57) ^ in->op->arg;
	return in->op->next;
}

static void runops_loop(void)
{
	static struct runops_op ops[3001];
	static const struct runops_op *(*const pps[3])(struct runops_interp *) = { pp_add, pp_mul, pp_rot };
	struct runops_interp in = { 7, ops };

	for (unsigned k = 0; k < 3001; k++)
		ops[k] = (struct runops_op){ k < 3000 ? &ops[k + 1] : NULL, k * 0x9e3779b97f4a7c15ull, pps[k % 3] };
#if defined(__x86_64__) && defined(__LP64__) && !defined(HOTLOOPS_NO_ASM) /* not x32: 4-byte pointers */
	/* the handlers' frames below the red zone; no SSE there */
	__asm__ volatile("sub $128, %%rsp\n\t"
			 "mov 0x8(%%rbx), %%rax\n"
			 "1:\n\t"
			 "mov %%rbx, %%rdi\n\t"
			 "call *0x10(%%rax)\n\t"
			 "mov %%rax, 0x8(%%rbx)\n\t"
			 "test %%rax, %%rax\n\t"
			 "jne 1b\n\t"
			 "add $128, %%rsp"
			 :
			 : "b"(&in)
			 : "rax", "rdi", "rsi", "rdx", "rcx", "r8", "r9", "r10", "r11", "memory", "cc");
#else
	while (in.op)
		in.op = in.op->pp(&in);
#endif
	printf("runops_loop %llx %d\n", (unsigned long long)in.acc, in.op == NULL);
}

/* The flags a TEST or AND leaves of its result r of bits bits: ZF, SF,
 * PF (CF and OF clear; AF undefined: not compared). */
#define FLAGS_SEEN 0x8c5u
static __attribute__((unused)) unsigned logic_flags(uint64_t r, unsigned bits)
{
	r &= bits == 64 ? ~0ull : (1ull << bits) - 1;
	return (r == 0 ? 0x40u : 0) | ((r >> (bits - 1)) & 1 ? 0x80u : 0) |
	       (__builtin_parity((unsigned)(r & 0xff)) ? 0 : 0x4u);
}

#if defined(__x86_64__) && !defined(HOTLOOPS_NO_ASM)
/* flags after the Jcc on either path (below the red zone: pushfq) */
#define SEEN_FLAGS "2: lea -128(%%rsp), %%rsp\n\tpushfq\n\tpop %[f]\n\tlea 128(%%rsp), %%rsp"
#define MOVE_TEST(INSNS, JCC, ...)                                                          \
	__asm__ volatile(INSNS "\n\t" JCC " 1f\n\tjmp 2f\n1: lea 1(%[k]), %[k]\n" SEEN_FLAGS \
			 : [t] "=&r"(t), [k] "+r"(k), [f] "=&r"(f), [m] "+m"(slot[1])          \
			 : [p] "r"((unsigned long long)(uintptr_t)slot), [ix] "r"(ix), ##__VA_ARGS__ \
			 : "cc", "memory")
#endif

/* A MOV load or store of a register, a TEST of it by itself and the Jcc
 * after it (fused.c, fused_move_test: "mov disp(%reg),%rax; test
 * %rax,%rax; je", indexed, 32 bits, a sign-extended byte, a store), AND
 * of a register with the Jcc after it (fused_and), SUB r64, m64 with it
 * (fused_sub_rm64: flat, and through FS as the stack protector's), and "neg %cx; sbb
 * %sil,%sil" (fused_neg16_sbb8): for each, whether it jumped, the flags
 * after it and what it wrote. i386 has no 64-bit forms: the same from C
 * (HOTLOOPS_NO_ASM builds that path on x86_64 to compare). */
static void move_tests(uint64_t v)
{
	volatile uint64_t slot[3] = { 0x5555, v, 0x7777 };
	uint64_t out[10][3];
	unsigned n = 0;

#if defined(__x86_64__) && !defined(HOTLOOPS_NO_ASM)
	unsigned long long ix = 1, t = 0, k = 0, f = 0;

#define SAVE() (out[n][0] = k, out[n][1] = f & FLAGS_SEEN, out[n][2] = t, n++, k = 0)
	MOVE_TEST("mov 8(%[p]), %[t]\n\ttest %[t], %[t]", "jne");
	SAVE();
	MOVE_TEST("mov (%[p],%[ix],8), %[t]\n\ttest %[t], %[t]", "je");
	SAVE();
	MOVE_TEST("mov 8(%[p]), %[t]\n\tnot %[t]\n\tmov %[t], 16(%[p])\n\ttest %[t], %[t]", "jns");
	t = slot[2];
	SAVE();
	MOVE_TEST("mov 8(%[p]), %k[t]\n\ttest %k[t], %k[t]", "je");
	SAVE();
	MOVE_TEST("movsbq (%[p],%[ix],8), %[t]\n\ttest %[t], %[t]", "js");
	SAVE();
	MOVE_TEST("mov 8(%[p]), %[t]\n\tand $0x80000080, %k[t]", "jne");
	SAVE();
	MOVE_TEST("mov 8(%[p]), %[t]\n\tand %[a], %[t]", "je", [a] "r"(0xffff0000ffff0000ull));
	SAVE();
	MOVE_TEST("mov 8(%[p]), %[t]\n\tsub (%[p]), %[t]", "jb");
	SAVE();
	MOVE_TEST("mov %%fs:0, %[t]\n\tadd %[m], %[t]\n\tsub %%fs:0, %[t]", "jne");
	t = t == v, f = 0; /* the flags of the TCB pointer's sum: not compared */
	SAVE();
	{
		unsigned long long c = v, b = 0x1234;

		__asm__ volatile("neg %w[c]\n\tsbb %b[b], %b[b]\n\t" SEEN_FLAGS
				 : [c] "+r"(c), [b] "+q"(b), [f] "=&r"(f)
				 :
				 : "cc");
		k = c, t = b;
		SAVE();
	}
#else
#define SAVE(K, F, T) (out[n][0] = (K), out[n][1] = (F), out[n][2] = (T), n++)
	int8_t b8 = (int8_t)v;
	uint64_t sx = (uint64_t)(int64_t)b8;

	SAVE(v != 0, logic_flags(v, 64), v);
	SAVE(v == 0, logic_flags(v, 64), v);
	slot[2] = ~v;
	SAVE(!(~v >> 63), logic_flags(~v, 64), slot[2]);
	SAVE((uint32_t)v == 0, logic_flags(v, 32), (uint32_t)v);
	SAVE(b8 < 0, logic_flags(sx, 64), sx);
	SAVE((v & 0x80000080u) != 0, logic_flags(v & 0x80000080u, 32), v & 0x80000080u);
	SAVE((v & 0xffff0000ffff0000ull) == 0, logic_flags(v & 0xffff0000ffff0000ull, 64),
	     v & 0xffff0000ffff0000ull);
	SAVE(v < 0x5555, (logic_flags(v - 0x5555, 64) & ~0x40u) | (v == 0x5555 ? 0x40 : 0) |
				 (v < 0x5555) | (((v ^ 0x5555) & (v ^ (v - 0x5555))) >> 63 ? 0x800 : 0),
	     v - 0x5555);
	SAVE(v != 0, 0, 1);
	{
		uint16_t c16 = (uint16_t)v;
		unsigned cin = c16 != 0;

		SAVE((v & ~0xffffull) | (uint16_t)(0 - c16), cin | (cin ? 0x80 : 0x40) | 0x4,
		     0x1200 | (cin ? 0xff : 0));
	}
#endif
	printf("move_tests %016llx:", (unsigned long long)v);
	for (unsigned j = 0; j < n; j++)
		printf(" %llx/%03llx/%llx", (unsigned long long)out[j][0], (unsigned long long)out[j][1],
		       (unsigned long long)out[j][2]);
	printf(" %llx\n", (unsigned long long)slot[2]);
}

/* SETcc of memory (cond.c, fast_setcc_m*: Perl's `setne 0x5e(%rsp)`):
 * the sixteen conditions after a CMP of each pair into bytes through a
 * base + disp and one through an index; the unit tests' stores go through
 * the table handler (no page map), these are plain. */
static void setcc_mem(void)
{
	static const unsigned vs[] = { 0, 1, 5, 0x7fffffffu, 0x80000000u, 0xffffffffu };
	uint32_t sum = 0; /* the same in every ABI: i386's twin is the x86_64 run */

	for (unsigned j = 0; j < sizeof(vs) / sizeof(vs[0]); j++)
		for (unsigned k = 0; k < sizeof(vs) / sizeof(vs[0]); k++) {
			volatile uint8_t m[17];
			unsigned bits = 0;

			__asm__ volatile("cmp %[b], %[a]\n\t"
					 "seto 0(%[p])\n\tsetno 1(%[p])\n\tsetb 2(%[p])\n\tsetae 3(%[p])\n\t"
					 "sete 4(%[p])\n\tsetne 5(%[p])\n\tsetbe 6(%[p])\n\tseta 7(%[p])\n\t"
					 "sets 8(%[p])\n\tsetns 9(%[p])\n\tsetp 10(%[p])\n\tsetnp 11(%[p])\n\t"
					 "setl 12(%[p])\n\tsetge 13(%[p])\n\tsetle 14(%[p])\n\tsetg 15(%[p])\n\t"
					 "setne (%[p],%[ix],1)"
					 :
					 : [a] "r"(vs[j]), [b] "r"(vs[k]), [p] "r"(m), [ix] "r"((uintptr_t)16)
					 : "cc", "memory");
			for (unsigned b = 0; b < 17; b++)
				bits |= (unsigned)m[b] << b;
			sum = sum * 131 + bits;
		}
	printf("setcc_mem %08x\n", (unsigned)sum);
}

/* DIV r64 with a 128-bit dividend (alu.c, fast_div64: RDX below the
 * divisor, the host's DIV): quotients and remainders summed. i386 has no
 * 64-bit DIV: it sums the same by long division, so every ABI prints the
 * same (its twin is the x86_64 run). */
static void div128(uint64_t hi, uint64_t lo, uint64_t d, uint64_t *q, uint64_t *r)
{
#if defined(__x86_64__)
	__asm__("divq %4" : "=a"(*q), "=d"(*r) : "0"(lo), "1"(hi), "rm"(d));
#else
	uint64_t quo = 0, rem = hi;

	for (int b = 63; b >= 0; b--) {
		uint64_t top = rem >> 63;

		rem = rem << 1 | (lo >> b & 1);
		quo <<= 1;
		if (top || rem >= d) {
			rem -= d;
			quo |= 1;
		}
	}
	*q = quo;
	*r = rem;
#endif
}

static void divides(void)
{
	static const uint64_t ds[] = { 1, 3, 10, 0xffffffffull, 0x100000000ull, 0x123456789abcdefull,
				       0x8000000000000000ull, 0xfffffffffffffffbull, 0xffffffffffffffffull };
	static const uint64_t los[] = { 0, 1, 0x7fffffffffffffffull, 0xffffffffffffffffull, 0x0123456789abcdefull };
	uint64_t sum = 0;

	for (unsigned round = 0; round < 50; round++)
		for (unsigned j = 0; j < sizeof(ds) / sizeof(ds[0]); j++)
			for (unsigned k = 0; k < sizeof(los) / sizeof(los[0]); k++) {
				uint64_t d = ds[j], q, r;
				uint64_t his[] = { 0, 1, d - 1, d / 2, (d >> 1) ^ (uint64_t)round * 0x9e3779b97f4a7c15ull % d };

				for (unsigned h = 0; h < sizeof(his) / sizeof(his[0]); h++) {
					if (his[h] >= d)
						continue;
					div128(his[h], los[k] + round, d, &q, &r);
					sum = sum * 31 + q;
					sum = sum * 31 + r;
				}
			}
	printf("divides %016llx\n", (unsigned long long)sum);
}

int main(void)
{
	uint32_t w[64];

	for (unsigned i = 0; i < 64; i++)
		w[i] = i * 0x9e3779b9u;
	printf("count_down %u %u\n", count_down(1), count_down(100000));
	printf("count_up %u %u\n", count_up(-1), count_up(-70000));
	for (unsigned s = 0; s < 4; s++)
		printf("flags_kept(%u) %08x\n", s, flags_kept(s * 5 + 3));
	printf("decref %llu %llu\n", decref(1), decref(50000));
	printf("rounds %08x %08x\n", rounds(w, 64), rounds(w, 100000));
	sorts();
	push_mem(w + 3, 0);
	push_mem(w + 3, 7);
	push_run(w[5], w[9], w[11]);
	push_run_mixed(w[6], w[10], w[12]);
	push_mov_run(0x1122334455667788ull, (uint64_t)w[7] << 32 | w[13], w[14]);
	mov_call_poly();
	runops_loop();
	setcc_mem();
	divides();
	{
		static const uint64_t vs[] = { 0, 1, 0x80, 0x7f, 0x80000000u, 0x100000000ull,
					       0x8000000000000000ull, 0xffff0000ull, 0xffffffffffffffffull,
					       0x10000ull, 0xffffull, 0x5555 };

		for (unsigned j = 0; j < sizeof(vs) / sizeof(vs[0]); j++)
			move_tests(vs[j]);
	}
	return 0;
}
