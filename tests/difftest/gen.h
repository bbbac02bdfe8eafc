/* Trial generation for the differential tester: instruction bytes from
 * per-family templates or random byte strings (filtered through Capstone
 * to valid user-mode encodings), a random input state, and the fix-ups
 * that keep every memory access inside the scratch region. */
#ifndef SG_DIFFTEST_GEN_H
#define SG_DIFFTEST_GEN_H

#include <stdbool.h>
#include <stdint.h>
#include <capstone/capstone.h>

struct trial {
	bool m64;
	uint8_t code[DT_CODE_MAX];
	unsigned len;                 /* bytes of the snippet */
	unsigned ninsn;
	char text[160];               /* Capstone's disassembly of the snippet */
	const char *family;           /* family of the last instruction */
	bool strict;                  /* integer family: a mismatch fails CI */
	uint64_t flags_undef;         /* RFLAGS bits the SDM leaves undefined */
	bool x87;                     /* compare x87 state */
	/* vendor-divergent outcomes the comparator may accept (host_amd) */
	bool rep_cmp;                 /* REP/REPNE CMPS/SCAS */
	uint64_t maskmov_ea;          /* MASKMOVQ/MASKMOVDQU and the VEX masked
				       * stores: the store address */
	unsigned maskmov_len;         /* ... and its length (0: not one) */
	uint64_t maskmov_amask;       /* MASKMOVQ/MASKMOVDQU: the address size's
				       * mask, where rDI's offsets wrap (0: the
				       * mode's) */
	bool f16c_store;              /* VCVTPS2PH to memory */
	bool rep_a32;                 /* REP string, 64-bit mode, 32-bit addresses */
	bool split_store;             /* FSTP m80/FBSTP: 8 bytes, then 2 */
	bool push_sreg32;             /* PUSH Sreg with a 32-bit operand size */
	uint64_t bound_ea;            /* BOUND: the address of the bounds pair */
	unsigned bound_sz;            /* ... and the size of one bound (0: not one) */
	uint64_t cmps_di_mask;        /* CMPS: rDI's address-size mask (0: not one) */
	uint64_t r[16], rflags;
	uint8_t fx[512];
	uint8_t ymmh[16][16];         /* YMM0..15 bits 255:128 (with host AVX state) */
	uint8_t data[DT_DATA_SIZE];
};

struct gen {
	csh cs;
	bool m64;
	uint64_t rng;
	uint32_t cpuid1_ecx, cpuid1_edx, cpuid7_ebx, cpuidx_ecx;
	bool vex_only;                /* --vex: every candidate a VEX SIMD form */
	unsigned long skipped, invalid;
	/* The host, probed once: an AMD CPU (docs/cpu.md, "Host vendor
	 * differences"), and a present 32-bit user code segment 0x23 (absent
	 * when the kernel runs without IA32 emulation). */
	bool host_amd, host_compat_cs;
	bool host_avx;                /* host_has_avx_state() */
	unsigned long vendor_skipped; /* trials left out for the host's vendor */
	unsigned long no_twin;        /* mode-32 trials without a long-mode twin */
};

/* A mode-32 trial as 64-bit code that does the same (docs/cpu.md,
 * "Differential tester"): for hosts that cannot run 32-bit code. */
struct long_twin {
	uint8_t code[DT_CODE_MAX];
	unsigned len, ninsn;
	unsigned at[3], twin_at[3];   /* instruction starts in the trial and the twin, then the ends */
};

/* The bytes after a snippet of len bytes at DT_CODE (DT_TAIL_LEN of them):
 * JMP to DT_EXIT, where falling through ends, then CMC and another JMP
 * to DT_EXIT: a relative branch (JMP, CALL, Jcc, LOOPcc, JrCXZ) skips the
 * first JMP (displacement 5), so taken and not taken differ in CF. */
#define DT_TAIL_LEN 11
void gen_tail(uint8_t *code, unsigned len);

/* CPUID vendor of the host is AuthenticAMD. */
/* The host runs AVX: CPUID.1:ECX OSXSAVE and AVX, and XGETBV(0) has the
 * SSE and AVX components (bits 1 and 2) enabled by the kernel. */
bool host_has_avx_state(void);

int gen_init(struct gen *g, bool m64, uint64_t seed);
void gen_fini(struct gen *g);
/* Fill t with the next trial; false if this attempt was rejected (try again). */
bool gen_trial(struct gen *g, struct trial *t);
uint64_t gen_rnd(struct gen *g);
/* The long-mode twin of mode-32 trial t; false (counted in no_twin) when
 * an instruction means something else in 64-bit mode (stack, branches,
 * BCD, segments, ...) or would grow past 15 bytes. */
bool gen_long_twin(struct gen *g, const struct trial *t, struct long_twin *w);

#endif
