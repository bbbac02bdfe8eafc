/* CPUID as the guest sees it: exactly what the interpreter implements.
 * glibc picks its string and memory functions from these bits, and sizes
 * its copy thresholds from the cache descriptors (leaf 2 says "see leaf 4";
 * leaf 4 lists a plausible, consistent hierarchy). */
#include "cpu/cpu.h"
#include <string.h>

#define MAX_BASIC_LEAF 0xd
#define MAX_EXT_LEAF 0x80000008u

/* Leaf 1 EDX */
#define ID_FPU (1u << 0)
#define ID_TSC (1u << 4)
#define ID_CX8 (1u << 8)
#define ID_CMOV (1u << 15)
#define ID_CLFSH (1u << 19)
#define ID_MMX (1u << 23)
#define ID_FXSR (1u << 24)
#define ID_SSE (1u << 25)
#define ID_SSE2 (1u << 26)
/* Leaf 1 ECX */
#define ID_SSE3 (1u << 0)
#define ID_PCLMULQDQ (1u << 1)
#define ID_SSSE3 (1u << 9)
#define ID_FMA (1u << 12)
#define ID_CX16 (1u << 13)
#define ID_SSE41 (1u << 19)
#define ID_SSE42 (1u << 20)
#define ID_MOVBE (1u << 22)
#define ID_POPCNT (1u << 23)
#define ID_AES (1u << 25)
#define ID_XSAVE (1u << 26)
#define ID_OSXSAVE (1u << 27) /* the OS set CR4.OSXSAVE: XGETBV, XSAVE usable */
#define ID_AVX (1u << 28)
#define ID_F16C (1u << 29)
#define ID_RDRAND (1u << 30)
/* Leaf 0xD subleaf 1 EAX */
#define IDD_XSAVEOPT (1u << 0)
#define IDD_XSAVEC (1u << 1)
#define IDD_XGETBV1 (1u << 2)
/* Leaf 7 subleaf 0 EBX */
#define ID7_BMI1 (1u << 3)
#define ID7_AVX2 (1u << 5)
#define ID7_BMI2 (1u << 8)
#define ID7_RDSEED (1u << 18)
#define ID7_ADX (1u << 19)
#define ID7_SHA (1u << 29)
/* Leaf 0x80000001 ECX / EDX */
#define ID_LAHF_LM (1u << 0)
#define ID_ABM (1u << 5)
#define ID_SYSCALL (1u << 11)
#define ID_NX (1u << 20)
#define ID_RDTSCP (1u << 27)
#define ID_LM (1u << 29)

static void leaf4(uint32_t sub, uint32_t out[4])
{
	/* type (1 data, 2 code, 3 unified), level, ways, sets; 64-byte lines */
	static const struct { uint8_t type, level; uint16_t ways; uint32_t sets; } c[] = {
		{ 1, 1, 8, 64 },     /* L1d 32 KiB */
		{ 2, 1, 8, 64 },     /* L1i 32 KiB */
		{ 3, 2, 4, 1024 },   /* L2 256 KiB */
		{ 3, 3, 16, 8192 },  /* L3 8 MiB */
	};

	if (sub >= sizeof(c) / sizeof(c[0]))
		return;
	out[0] = c[sub].type | (uint32_t)c[sub].level << 5 | 1u << 8; /* self-initialising */
	out[1] = (uint32_t)(c[sub].ways - 1) << 22 | 63;              /* 1 partition, 64 B */
	out[2] = c[sub].sets - 1;
	out[3] = c[sub].level == 3 ? 2 : 0;                            /* L3 inclusive */
}

/* XSAVE: the components of CPU_XCR0, their sizes and the AVX offset
 * (what a CPU with exactly these components reports: sizes for the
 * enabled set = for all supported ones). */
static void leafd(uint32_t sub, uint32_t out[4])
{
	if (!CPU_XCR0)
		return;
	switch (sub) {
	case 0:
		out[0] = (uint32_t)CPU_XCR0;
		out[1] = out[2] = cpu_xstate_size(CPU_XCR0);
		break;
	case 1:
		out[0] = IDD_XSAVEOPT | IDD_XSAVEC | IDD_XGETBV1;
		out[1] = cpu_xstate_size(CPU_XCR0); /* compacted: AVX right after the header */
		break;
	case 2:
		if (CPU_XCR0 & CPU_XSTATE_AVX) {
			out[0] = 256;
			out[1] = 576;
		}
		break;
	}
}

void cpu_cpuid(uint32_t leaf, uint32_t sub, uint32_t out[4])
{
	static const char brand[48] = "sysgate x86 interpreter";

	out[0] = out[1] = out[2] = out[3] = 0;
	switch (leaf) {
	case 0:
		out[0] = MAX_BASIC_LEAF;
		memcpy(&out[1], "Genu", 4);
		memcpy(&out[3], "ineI", 4);
		memcpy(&out[2], "ntel", 4);
		break;
	case 1:
		out[0] = 0x000206a7;          /* family 6 */
		out[1] = 8u << 8 | 1u << 16;  /* CLFLUSH 64 B, 1 logical CPU */
		out[2] = ID_SSE3 | ID_PCLMULQDQ | ID_SSSE3 | ID_CX16 | ID_SSE41 | ID_SSE42 | ID_MOVBE |
			 ID_POPCNT | ID_AES | ID_RDRAND | (CPU_XCR0 ? ID_XSAVE | ID_OSXSAVE : 0) |
			 (CPU_XCR0 & CPU_XSTATE_AVX ? ID_AVX | ID_FMA | ID_F16C : 0);
		out[3] = ID_FPU | ID_TSC | ID_CX8 | ID_CMOV | ID_MMX | ID_CLFSH | ID_FXSR | ID_SSE |
			 ID_SSE2;
		break;
	case 2:
		out[0] = 0x0000ff01; /* one round; descriptor FF: use leaf 4 */
		break;
	case 4:
		leaf4(sub, out);
		break;
	case 7:
		if (sub == 0)
			out[1] = ID7_BMI1 | ID7_BMI2 | ID7_RDSEED | ID7_ADX | ID7_SHA |
				 (CPU_XCR0 & CPU_XSTATE_AVX ? ID7_AVX2 : 0);
		break;
	case 0xd:
		leafd(sub, out);
		break;
	case 0x80000000:
		out[0] = MAX_EXT_LEAF;
		break;
	case 0x80000001:
		out[2] = ID_LAHF_LM | ID_ABM;
		out[3] = ID_SYSCALL | ID_NX | ID_RDTSCP | ID_LM;
		break;
	case 0x80000002:
	case 0x80000003:
	case 0x80000004:
		memcpy(out, brand + 16 * (leaf - 0x80000002), 16);
		break;
	case 0x80000006:
		out[2] = 256u << 16 | 6u << 12 | 64; /* L2 256 KiB, 8-way, 64 B */
		break;
	case 0x80000008:
		out[0] = 0x3027; /* 39-bit physical, 48-bit virtual */
		break;
	}
}
