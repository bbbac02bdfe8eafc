/* The fast path of host-executed x87 instructions: when every exception is
 * masked and the guest's registers form a plain stack (ST0..ST(n-1) in use,
 * the rest empty), the instruction runs on the host FPU with just those
 * registers pushed (FLD m80 is exact) under the guest's control word, and
 * the resulting stack is popped back (FSTP m80 is exact). The host then sees
 * exactly the guest's situation, stack faults included, at a fraction of
 * the cost of FXRSTOR/FXSAVE.
 *
 * What the host cannot be told cheaply is the guest's C0..C3 and sticky
 * flags: which condition bits an encoding writes (rather than keeps) is
 * probed once per encoding with the slow path, and the host's sticky
 * exception flags must be a subset of the guest's (FNCLEX when not).
 * Hosts that record FOP/FDP for every instruction (older CPUs) keep the
 * slow path: the probe checks that too. */
#include <pthread.h>
#include "cpu/ops.h"
#include "cpu/optable.h"
#include "cpu/x87.h"

struct x87_fast_frame {
	uint8_t st[8][16];  /* in: ST0..ST(n-1); out: ST0..ST(depth-1) */
	uint64_t n;         /* in: registers pushed; out: registers popped */
	uint64_t rflags;    /* in (FCMOVcc) and out (FCOMI) */
	uint16_t fcw;       /* the guest's control word */
	uint16_t fsw;       /* out: the host's status word after the instruction */
	uint16_t host_fcw;
	uint8_t flags_in;   /* load rflags before the instruction */
	uint8_t clear;      /* FNCLEX first */
	uint16_t fsw0;      /* out: the host's status word before the instruction */
};
_Static_assert(offsetof(struct x87_fast_frame, n) == 128 &&
	       offsetof(struct x87_fast_frame, fcw) == 144 &&
	       offsetof(struct x87_fast_frame, flags_in) == 150 &&
	       offsetof(struct x87_fast_frame, fsw0) == 152, "the asm uses these offsets");

void x87_fast_call(struct x87_fast_frame *f, const void *thunk, void *mem);
__asm__(".text\n"
	".globl x87_fast_call\n"
	".type x87_fast_call, @function\n"
	"x87_fast_call:\n"
	"  push %rdi\n"
	"  sub $16, %rsp\n"
	"  fnstcw 148(%rdi)\n"
	"  cmpb $0, 151(%rdi)\n"
	"  je 1f\n"
	"  fnclex\n"
	"1:\n"
	"  mov 144(%rdi), %ax\n"
	"  cmp 148(%rdi), %ax\n"
	"  je 9f\n"                   /* FLDCW only when the word differs */
	"  fldcw 144(%rdi)\n"
	"9:\n"
	"  mov 128(%rdi), %rax\n"
	"2:\n"                       /* push ST(n-1) .. ST0 */
	"  test %rax, %rax\n"
	"  jz 3f\n"
	"  dec %rax\n"
	"  mov %rax, %r8\n"
	"  shl $4, %r8\n"
	"  fldt (%rdi,%r8)\n"
	"  jmp 2b\n"
	"3:\n"
	"  fnstsw 152(%rdi)\n"
	"  cmpb $0, 150(%rdi)\n"
	"  je 4f\n"
	"  pushq 136(%rdi)\n"
	"  popfq\n"
	"4:\n"
	"  mov %rdx, %rdi\n"
	"  call *%rsi\n"
	"  pushfq\n"
	"  pop %rax\n"
	"  mov 16(%rsp), %rdi\n"
	"  mov %rax, 136(%rdi)\n"
	"  fnstsw 146(%rdi)\n"
	/* depth = n + (TOP before - TOP after), clamped to 0..8 */
	"  movzwl 146(%rdi), %eax\n"
	"  shr $11, %eax\n"
	"  and $7, %eax\n"
	"  movzwl 152(%rdi), %edx\n"
	"  shr $11, %edx\n"
	"  and $7, %edx\n"
	"  mov 128(%rdi), %rcx\n"
	"  sub %eax, %edx\n"
	"  add $4, %edx\n"
	"  and $7, %edx\n"
	"  sub $4, %edx\n"
	"  movslq %edx, %rdx\n"
	"  add %rdx, %rcx\n"
	"  jns 5f\n"
	"  xor %ecx, %ecx\n"
	"5:\n"
	"  cmp $8, %rcx\n"
	"  jbe 6f\n"
	"  mov $8, %ecx\n"
	"6:\n"
	"  mov %rcx, 128(%rdi)\n"
	"  xor %eax, %eax\n"
	"7:\n"                       /* pop ST0 .. ST(depth-1) */
	"  cmp %rcx, %rax\n"
	"  jae 8f\n"
	"  mov %rax, %r8\n"
	"  shl $4, %r8\n"
	"  fstpt (%rdi,%r8)\n"
	"  inc %rax\n"
	"  jmp 7b\n"
	"8:\n"
	"  mov 144(%rdi), %ax\n"
	"  cmp 148(%rdi), %ax\n"
	"  je 10f\n"
	"  fldcw 148(%rdi)\n"
	"10:\n"
	"  add $24, %rsp\n"
	"  ret\n"
	".size x87_fast_call, . - x87_fast_call\n");

#define CBITS 0x4700 /* C3 C2 C1 C0 */

/* Per encoding [opcode - 0xd8][slot]: 0 = slow path only, else 0x8000 |
 * the condition bits the instruction writes | stack_need() << 4. */
static uint16_t fast_tab[8][72];
static pthread_once_t probe_once = PTHREAD_ONCE_INIT;

/* How many stack registers the encoding reads or writes in place (so with
 * fewer in use the host would fault differently from the guest, whose
 * registers above ST(n-1) may hold values): ST(i) forms i + 1, the rest
 * by instruction; loads push (0). */
static unsigned stack_need(unsigned op, unsigned slot)
{
	static const uint8_t d9_e0[32] = {
		1, 1, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* FCHS FABS FTST FXAM, consts */
		1, 2, 1, 2, 1, 2, 0, 0, 2, 2, 1, 1, 1, 2, 1, 1, /* F2XM1 .. FCOS */
	};
	unsigned m = slot - 8;

	if (slot < 8)
		return (op == 1 || op == 3 || op == 5 || op == 7) &&
		       (slot == 0 || (op == 3 && slot == 5) || (op == 7 && (slot == 4 || slot == 5)))
			       ? 0 : 1;
	if (op == 1 && m >= 0x20)
		return d9_e0[m - 0x20];
	if (op == 1 && m == 0x10) /* FNOP */
		return 0;
	if ((op == 2 && m == 0x29) || (op == 6 && m == 0x19)) /* FUCOMPP FCOMPP */
		return 2;
	if (op == 3 && m >= 0x20 && m < 0x28) /* FENI FDISI FSETPM */
		return 0;
	return (m & 7) + 1;
}

/* Runs one encoding through the slow path from a fixed state with C0..C3
 * = cbits; returns the FSW and, through fop/fdp, whether they moved. */
static uint16_t probe_one(unsigned op, unsigned slot, uint16_t cbits, bool *moved)
{
	static const long double vals[8] = { 1.5L, 2.5L, -3.0L, 4.0L, 0.75L, 5.0L, -6.0L, 7.0L };
	unsigned n = stack_need(op, slot) < 2 ? 2 : stack_need(op, slot);
	struct fx_area fx;
	uint8_t buf[112] __attribute__((aligned(16))) = { 0 };
	uint64_t rflags = 2;

	memset(&fx, 0, sizeof(fx));
	fx.fcw = 0x37f;
	fx.fsw = (uint16_t)(cbits | ((8 - n) & 7) << 11); /* ST0..ST(n-1) in use */
	fx.ftw = (uint8_t)(0xff00u >> n);
	fx.fop = 0x5a5;
	fx.fdp = 0x1234;
	__asm__ volatile("stmxcsr %0" : "=m"(fx.mxcsr));
	for (unsigned k = 0; k < n; k++)
		memcpy(fx.st[k], &vals[k], 10);
	x87_host_call(&fx, x87_thunk(op, slot), buf, &rflags);
	*moved = fx.fop != 0x5a5 || fx.fdp != 0x1234;
	return fx.fsw;
}

static void probe(void)
{
	bool moved = false;

	for (unsigned op = 0; op < 8; op++) {
		for (unsigned slot = 0; slot < 72; slot++) {
			unsigned h = slot < 8 ? op_x87_mem[op][slot] : op_x87_reg[op][slot - 8];
			unsigned m = slot - 8;
			bool m0, m1;

			if (!(op_handler_flags[h] & HF_X87_FAST) ||
			    (op == 1 && slot == 5) ||                      /* FLDCW */
			    (op == 1 && (m == 0x36 || m == 0x37)) ||       /* FDECSTP FINCSTP */
			    (op == 1 && (m == 0x35 || m == 0x38)) ||       /* FPREM1 FPREM: C0..C3
										  by outcome */
			    (op == 6 && slot >= 8 && (m & 7) == 0) ||      /* FADDP ST(0), ...: the
										  result lands in the
										  popped register */
			    ((op == 5 || op == 7) && m < 8))               /* FFREE FFREEP */
				continue;
			uint16_t a = probe_one(op, slot, 0, &m0);
			uint16_t b = probe_one(op, slot, CBITS, &m1);
			if (m0 || m1)
				moved = true;
			fast_tab[op][slot] = (uint16_t)(0x8000 | stack_need(op, slot) << 4 |
							(~(a ^ b) & CBITS));
		}
	}
	if (moved) /* the host records FOP/FDP itself: the slow path fixes them up */
		memset(fast_tab, 0, sizeof(fast_tab));
}

bool x87_fast_run(struct cpu *c, const struct insn *i, unsigned slot, const uint8_t *thunk,
		  void *buf, uint64_t *rflags, bool flags_in)
{
	struct cpu_x87 *x = &c->x87;
	struct x87_fast_frame f;
	unsigned top = x->top & 7, n = 0, ent;
	uint16_t rel, tags;

	pthread_once(&probe_once, probe);
	ent = fast_tab[insn_cold(i)->op - 0xd8][slot];
	if (!ent || (x->fcw & 0x3f) != 0x3f)
		return false;
	/* tags relative to TOP: n in use, then only empty ones */
	rel = (uint16_t)(((uint32_t)x->ftw_tags >> (2 * top)) |
			 ((uint32_t)x->ftw_tags << (16 - 2 * top)));
	while (n < 8 && !((rel >> (2 * n)) & 3))
		n++;
	if (n < 8 && (unsigned)(rel >> (2 * n)) != (0xffffu >> (2 * n)))
		return false;
	if (n < ((ent >> 4) & 0xf))
		return false;

	for (unsigned k = 0; k < n; k++)
		memcpy(f.st[k], &x->st[(top + k) & 7], 10);
	f.n = n;
	f.fcw = x->fcw;
	f.flags_in = flags_in;
	f.rflags = *rflags;
	{
		/* host code may have raised flags too (long double arithmetic) */
		uint16_t host_fsw;

		__asm__ volatile("fnstsw %0" : "=m"(host_fsw));
		f.clear = (host_fsw & ~x->fsw & 0x7f) != 0;
	}
	x87_fast_call(&f, thunk, buf);

	top = (top + ((f.fsw >> 11) & 7) - ((f.fsw0 >> 11) & 7)) & 7;
	for (unsigned k = 0; k < f.n; k++) {
		long double *st = &x->st[(top + k) & 7];

		memset(st, 0, sizeof(*st));
		memcpy(st, f.st[k], 10);
	}
	tags = (uint16_t)(0xffffu << (2 * f.n));
	x->ftw_tags = (uint16_t)(((uint32_t)tags << (2 * top)) | ((uint32_t)tags >> (16 - 2 * top)));
	x->top = (uint8_t)top;
	x->fsw = (uint16_t)((x->fsw & ~(ent & CBITS)) | (f.fsw & ent & CBITS) | (f.fsw & 0x7f));
	x->fip = c->insn_rip;
	*rflags = f.rflags;
	return true;
}
