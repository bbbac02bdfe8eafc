/* The interpreting CPU: guest register state and the run API.
 *
 * The CPU knows nothing of system calls or signals: cpu_run() interprets
 * until something needs the outside world and returns why it stopped
 * (DESIGN.md, Data flow). Guest virtual address == host virtual address.
 */
#ifndef SG_CPU_H
#define SG_CPU_H

#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>

enum cpu_gpr {
	R_AX, R_CX, R_DX, R_BX, R_SP, R_BP, R_SI, R_DI,
	R_R8, R_R9, R_R10, R_R11, R_R12, R_R13, R_R14, R_R15,
};

enum cpu_seg { SEG_ES, SEG_CS, SEG_SS, SEG_DS, SEG_FS, SEG_GS, SEG_COUNT };

enum cpu_mode { CPU_MODE_32 = 32, CPU_MODE_64 = 64 };

enum cpu_stop_reason {
	CPU_STOP_NONE,
	CPU_STOP_SYSCALL,  /* mech says which instruction; rip is past it */
	CPU_STOP_FAULT,    /* fault says which; rip is the faulting insn */
	CPU_STOP_HALT,     /* HLT in user mode is #GP, so this is unused by guests */
	CPU_STOP_REQUEST,  /* cpu_request_stop() was called (signals, API) */
};

enum cpu_syscall_mech { CPU_MECH_SYSCALL, CPU_MECH_SYSENTER, CPU_MECH_INT80 };

enum cpu_vector {
	VEC_DE = 0, VEC_DB = 1, VEC_BP = 3, VEC_OF = 4, VEC_BR = 5, VEC_UD = 6,
	VEC_NM = 7, VEC_SS = 12, VEC_GP = 13, VEC_PF = 14, VEC_MF = 16, VEC_AC = 17,
	VEC_XM = 19,
};

struct cpu_fault {
	enum cpu_vector vector;
	uint64_t insn_addr;   /* guest address of the faulting instruction */
	uint64_t data_addr;   /* VEC_PF/VEC_GP on memory: the guest data address */
	bool write;           /* VEC_PF: the access was a write */
	bool prot;            /* VEC_PF: page present but access denied (SEGV_ACCERR) */
	bool single_step;     /* VEC_DB: the trap flag's trap (rip: the next instruction) */
	bool fetch;           /* VEC_PF: an instruction fetch (error code's I/D bit) */
	bool present;         /* VEC_PF: the host's error code bit 0, a present page
				 (the same page tables: guest addresses are host ones) */
	int bus_code;         /* VEC_PF: the host raised SIGBUS with this si_code
			       * (BUS_ADRERR: a file page past the end of file) */
	bool host_signal;     /* VEC_PF: the host raised SIGSEGV/SIGBUS for it (a
			       * host tracer saw it already); else a check found it */
	uint8_t bytes[15];    /* VEC_UD: the instruction bytes that could be read */
	uint8_t nbytes;
};

/* One i386 TLS descriptor (set_thread_area); GDT entries 12..14 as on a
 * 64-bit kernel running a compat task. */
#define CPU_GDT_TLS_MIN 12
#define CPU_GDT_TLS_COUNT 3
struct cpu_tls_desc {
	uint32_t base;
	uint32_t limit;
	uint32_t flags;       /* struct user_desc bitfields, as the guest gave them */
	bool present;
};

typedef union {
	uint8_t b[16];
	uint16_t w[8];
	uint32_t d[4];
	uint64_t q[2];
	float f[4];
	double fd[2];
} __attribute__((aligned(16))) cpu_xmm;

struct cpu_x87 {
	long double st[8];    /* physical registers; host long double == x87 80-bit */
	uint16_t fcw, fsw, ftw_tags; /* ftw_tags: 2 bits per physical register */
	uint8_t top;
	uint16_t fop;
	uint64_t fip, fdp;
	uint16_t fcs, fds;
};

struct cpu_code_cache; /* decoded-instruction cache, private to src/cpu */
struct mm;
struct insn;

struct cpu {
	/* The 16 GPRs; r[16] and r[17] stay 0: the fast forms' address
	 * arithmetic indexes them for "no base/index register" (insn.h);
	 * r[18..] are the bases of RIP-relative operands beyond 32 bits of
	 * displacement (insn.h, GREG_RIP_BASE), set by decoding, kept by
	 * cpu_init as the decoded code is. */
	uint64_t r[18 + 8];
	uint64_t rip;
	enum cpu_mode mode;

	/* Lazy flags: private to src/cpu. Use cpu_get_rflags/cpu_set_rflags. */
	struct {
		uint64_t res, a, b, aux;
		uint64_t rf;     /* all bits when op == FL_NONE; else the non-arithmetic ones */
		uint32_t op, size;
		uint32_t cfof;   /* CF/OF replacing the record's when op has FL_CFOF */
	} lf;

	uint16_t sel[SEG_COUNT];
	uint64_t base[SEG_COUNT];   /* FS/GS bases (arch_prctl or GDT TLS entry) */
	struct cpu_tls_desc tls[CPU_GDT_TLS_COUNT];

	cpu_xmm xmm[16];
	/* Bits 255:128 of YMM0..15 (XSAVE state component 2): the legacy SSE
	 * forms leave them alone, VEX.128 forms and VZEROUPPER clear them. */
	cpu_xmm ymm_hi[16];
	/* XCR0 (XGETBV 0): the state components the OS enabled; cpu_init
	 * sets CPU_XCR0. With XCR0[2:1] != 11b every AVX form is #UD, as on
	 * hardware; 0 would be an OS without CR4.OSXSAVE (XSAVE family #UD,
	 * FXSR-only signal frames). */
	uint64_t xcr0;
	uint32_t mxcsr;
	struct cpu_x87 x87;
	uint64_t mmx_priv;          /* reserved for the CPU module */

	/* stop: filled when cpu_run returns. stop_requested: async-signal-safe,
	 * cpu_request_stop. code_dirty: private (a store hit decoded code or
	 * the mode changed: resync the cache). pending: private, the three
	 * together, so the run loop tests them with one load. */
	union {
		struct {
			enum cpu_stop_reason stop;
			volatile uint8_t stop_requested;
			uint8_t code_dirty;
		};
		uint64_t pending;
	};
	enum cpu_syscall_mech mech;
	struct cpu_fault fault;

	struct cpu_code_cache *cache; /* may be shared by threads of a process */
	void *owner;                  /* the sg_thread this CPU belongs to */
	/* prctl(PR_SET_TSC, PR_TSC_SIGSEGV) of this guest thread: RDTSC and
	 * RDTSCP are #GP, as with the kernel's CR4.TSD (syscall/ids.c). */
	bool tsc_disabled;
	/* The guest's address space: a newly decoded code page (and the
	 * second page of an instruction crossing into it) must be PROT_EXEC
	 * there, else the fetch faults as natively. NULL: no check (tests
	 * that run the CPU on host memory). cpu_init keeps it. */
	const struct mm *mm;

	/* Private to src/cpu. */
	uint64_t insn_rip;            /* address of the executing instruction */
	const struct insn *cur;       /* the instruction fast forms run (NULL: insn_rip says) */
	uint64_t cache_epoch;         /* code-invalidation epoch this cache has seen */
	uint64_t amask;               /* the mode's address mask (fast forms' addresses) */
	uint64_t executed;            /* --stats: counted since run() began (flushed at its end) */
};

/* What one instruction does to the flow of control, as the CPU's own
 * decoder sees it (handler_props.def's flow column). */
enum cpu_insn_flow {
	CPU_INSN_FALLS_THROUGH, /* runs on to the next instruction (unless an operand faults) */
	CPU_INSN_BRANCHES,      /* may transfer control elsewhere (a jump, call, return,
				 * LOOP/JCXZ, INT n/INT3/INTO, SYSCALL/SYSENTER, IRET, a far
				 * transfer) or always faults (UD2, HLT): ends a basic block */
	CPU_INSN_FAULTS,        /* an encoding that raises #UD or #GP whatever the state
				 * (invalid, or longer than 15 bytes): ends a basic block */
};

/* Decode the instruction at bytes[0..n) in that mode, without running it
 * (the embedding API's block hook, the block trace): its length (1..15)
 * and flow. false: the bytes end before the instruction does. */
bool cpu_decode_one(enum cpu_mode mode, const uint8_t *bytes, size_t n, unsigned *len,
		    enum cpu_insn_flow *flow);

/* One memory access of an instruction (cpu_insn_accesses). */
struct cpu_mem_access {
	uint64_t addr; /* the guest (linear) address of its lowest byte */
	uint64_t len;  /* bytes */
	bool reads, writes;
};
#define CPU_MEM_ACCESSES_MAX 2

/* The memory the instruction at bytes[0..n) would read or write if it ran
 * at cpu->rip in cpu's present state, as the CPU's own decoder and
 * handler tables (handler_mem.def) know it: its memory operand (ModRM,
 * RIP-relative from the next instruction, moffs; FS/GS bases), the stack
 * slots it pushes or pops (PUSH/POP, CALL/RET, far ones, IRET, ENTER,
 * LEAVE, PUSHF/POPF, PUSHA/POPA), the string operands at rSI and rDI (REP:
 * rCX elements, downwards with DF), XLAT's byte, MASKMOVQ/DQU's bytes at
 * rDI. None for an encoding that faults whatever the state. Fills out[]
 * and returns how many (0..CPU_MEM_ACCESSES_MAX), or -1 when the bytes end
 * before the instruction does. For the gdb stub's read and access
 * watchpoints (docs/cpu.md, Memory accesses). */
int cpu_insn_accesses(const struct cpu *cpu, const uint8_t *bytes, size_t n,
		      struct cpu_mem_access out[CPU_MEM_ACCESSES_MAX]);

/* Reset to the state the kernel gives a new process of that mode: all GPRs
 * zero, RFLAGS = 0x202, FCW = 0x37f, MXCSR = 0x1f80, selectors as a 64-bit
 * kernel sets them (CS 0x33 or 0x23, SS/DS/ES 0x2b). */
void cpu_init(struct cpu *cpu, enum cpu_mode mode);

/* Free what the CPU allocated (its decoded-instruction cache). */
void cpu_release(struct cpu *cpu);

/* dst becomes a copy of src's guest state (clone's new thread): registers,
 * flags, segments and TLS entries, FPU/SSE/AVX state, the mode, the
 * guest's mm and PR_SET_TSC; not what is src's own: dst decodes into a
 * cache of its own (made at its first run), has no stop asked, and no
 * owner until its owner sets one. */
void cpu_clone(struct cpu *dst, const struct cpu *src);

/* An execve in place (core/exec_image.c). Before it changes the
 * mappings: the cache brought up to date with the changes logged so far;
 * the point it is at. After: only the decoded code of pages wholly
 * inside keep[0..n) stays (mappings of the same file version at the same
 * place, same CPU mode), all the rest is dropped (all of it if the cache
 * is no longer at keep_epoch's point before the exec's changes: safe),
 * and the mapping changes logged since (the exec's own) are taken as
 * done. n == 0 drops everything, keeping the cache's memory. */
struct cpu_code_range {
	uint64_t start, end;
};
uint64_t cpu_code_epoch(struct cpu *c);
/* Before a host fork of the thread of c: decode what earlier fork
 * children decoded (fork_teach.c), so that the next finds it. */
void cpu_code_before_fork(struct cpu *c);
/* A host fork happened (parent and child call it): the decoded code's
 * pages are shared copy-on-write for a while (cache.h, cpu_kept_quiet);
 * the child records its decodes for the parent (fork_teach.c). */
void cpu_code_forked(bool child);
void cpu_keep_code(struct cpu *c, uint64_t keep_epoch, const struct cpu_code_range *keep,
		   size_t n);

/* What --stats reports of the CPU module, for the whole host process (all
 * its threads). Counting is off until cpu_stats_enable: then every
 * cpu_run goes instruction by instruction through the table handlers
 * (docs/performance.md, The --stats counters), so executed is exact;
 * off, the run loop pays one test per turn, none per instruction. */
struct cpu_stats {
	uint64_t executed;   /* guest instructions completed (a faulting one is not) */
	uint64_t decoded;    /* instructions decoded */
	uint64_t pool_bytes; /* decoded-code entries written (fall-through stubs included) */
	uint64_t slot_bytes; /* slot blocks given to code pages */
};
void cpu_stats_enable(void);
void cpu_stats_get(struct cpu_stats *out);
void cpu_stats_reset(void); /* a fork child counts its own from 0 */

/* Interpret from cpu->rip until a stop; returns cpu->stop. */
enum cpu_stop_reason cpu_run(struct cpu *cpu);

/* Interpret exactly one instruction (or stop earlier). */
enum cpu_stop_reason cpu_step(struct cpu *cpu);

/* Ask a running cpu_run to return CPU_STOP_REQUEST at the next instruction
 * boundary. Safe from a signal handler or another thread. */
void cpu_request_stop(struct cpu *cpu);

uint64_t cpu_get_rflags(const struct cpu *cpu);
void cpu_set_rflags(struct cpu *cpu, uint64_t rflags);

/* A far transfer to cs:ip from outside cpu_run (the kernel's returns to
 * user mode): the user code selectors 0x23 (32-bit mode) and 0x33
 * (64-bit mode) only; false (nothing changed) for any other. */
bool cpu_far_jump(struct cpu *cpu, uint16_t cs, uint64_t ip);

/* Load a segment register from a selector as a MOV Sreg would (GDT TLS
 * entries, null selector, the fixed user selectors). 0 or -1 (#GP). */
int cpu_load_segment(struct cpu *cpu, enum cpu_seg seg, uint16_t sel);

/* FS or GS with the null selector and this base (arch_prctl ARCH_SET_FS/GS,
 * a 64-bit clone's TLS), as the kernel's x86_fsbase_write_task does. */
void cpu_set_seg_base(struct cpu *cpu, enum cpu_seg seg, uint64_t base);

/* FS's or GS's base (arch_prctl ARCH_GET_FS/GS). */
static inline uint64_t cpu_seg_base(const struct cpu *cpu, enum cpu_seg seg)
{
	return cpu->base[seg];
}

/* GDT TLS entry CPU_GDT_TLS_MIN + n (n < CPU_GDT_TLS_COUNT), as
 * get_thread_area reads it. */
static inline const struct cpu_tls_desc *cpu_tls_entry(const struct cpu *cpu, unsigned n)
{
	return &cpu->tls[n];
}

/* GDT TLS entry CPU_GDT_TLS_MIN + n (n < CPU_GDT_TLS_COUNT) becomes *d (a
 * d that is not present clears it), and a data segment register holding
 * its selector is loaded again, as the kernel's set_thread_area does: the
 * null selector where the load faults (the entry was cleared). */
void cpu_set_tls_entry(struct cpu *cpu, unsigned n, const struct cpu_tls_desc *d);

/* The guest's stack pointer (RSP), as the kernel's
 * current_user_stack_pointer(): sigaltstack's "on the stack" test. */
static inline uint64_t cpu_stack_pointer(const struct cpu *c)
{
	return c->r[R_SP];
}

/* RSP = sp: a clone's new stack (the kernel's copy_thread). */
static inline void cpu_set_stack_pointer(struct cpu *c, uint64_t sp)
{
	c->r[R_SP] = sp;
}

/* A new program's first instruction and stack, after cpu_init (which
 * zeroes every other register), as the kernel's start_thread. */
static inline void cpu_set_start(struct cpu *c, uint64_t rip, uint64_t sp)
{
	c->rip = rip;
	c->r[R_SP] = sp;
}

/* Forget decoded instructions in [addr, addr+len): called when guest code
 * pages are unmapped, remapped or made writable. */
void cpu_invalidate_code(uint64_t addr, uint64_t len);

/* Install the host SIGSEGV/SIGBUS handling that turns faults on guest
 * accesses inside cpu_run into CPU_STOP_FAULT. Idempotent. */
void cpu_install_fault_handler(void);

/* SIGSEGV/SIGBUS sent by a process (kill, tgkill, sigqueue: si_code <= 0)
 * are no fault: they go to fn, the guest's ordinary signal path. Without
 * one, such a signal has its default action. */
void cpu_set_user_signal_handler(void (*fn)(int sig, void *siginfo, void *uctx));

/* While a system call's handler runs, a host SIGBUS BUS_ADRERR in sysgate
 * itself (reading or writing a guest buffer whose page lies past the end
 * of its file: no VMA check can foresee that) jumps to *jb, for the call
 * to answer -EFAULT as the kernel does; NULL: none (such a fault then
 * kills sysgate, as any fault of its own). Per thread; returns the one
 * set before (to be set again after a nested use). */
void *cpu_set_host_bus_recovery(void *jb /* sigjmp_buf * */);

/* XSAVE state components: x87, SSE (in the legacy region), AVX. */
#define CPU_XSTATE_X87 1ull
#define CPU_XSTATE_SSE 2ull
#define CPU_XSTATE_AVX 4ull
/* The XCR0 every guest thread has, as a kernel sets it from what CPUID
 * reports (leaf 1 XSAVE/OSXSAVE/AVX, leaf 0xD): x87|SSE|AVX. CPUID's AVX,
 * AVX2, FMA and F16C bits follow the AVX bit here (docs/cpu.md, "XSAVE"). */
#define CPU_XCR0 (CPU_XSTATE_X87 | CPU_XSTATE_SSE | CPU_XSTATE_AVX)

/* Bytes of the standard-format XSAVE area for these components (CPUID
 * 0xD.0 EBX with that XCR0): 576 for x87|SSE, 832 with AVX. */
uint32_t cpu_xstate_size(uint64_t xcr0);
/* XSAVE64 of c's state (RFBM = rfbm & c->xcr0, standard format) into img,
 * host memory of cpu_xstate_size(c->xcr0) bytes: what the kernel's XSAVE
 * writes into a signal frame (bytes it does not write keep img's). */
void cpu_xsave_host(struct cpu *c, void *img, uint64_t rfbm);
/* XRSTOR64 from img (RFBM = rfbm & c->xcr0): 0, or -1 (nothing changed)
 * where the instruction raises #GP: a header or MXCSR value the CPU
 * rejects. Components outside RFBM keep their state. */
int cpu_xrstor_host(struct cpu *c, const void *img, uint64_t rfbm);

/* CPUID as the guest sees it (also used for AT_HWCAP). */
void cpu_cpuid(uint32_t leaf, uint32_t subleaf, uint32_t out[4]);

#endif
