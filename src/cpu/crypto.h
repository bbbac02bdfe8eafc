/* AES-NI, PCLMULQDQ and SHA as functions of 128-bit values (crypto.c):
 * the portable C the handlers run, exported to the unit test that checks
 * them against the host's instructions. Private to src/cpu. */
#ifndef SG_CPU_CRYPTO_H
#define SG_CPU_CRYPTO_H

#include "cpu/cpu.h"

enum crypto_op {
	CR_AESENC, CR_AESENCLAST, CR_AESDEC, CR_AESDECLAST, CR_AESIMC, CR_AESKEYGENASSIST,
	CR_PCLMULQDQ, CR_SHA1RNDS4, CR_SHA1NEXTE, CR_SHA1MSG1, CR_SHA1MSG2, CR_SHA256RNDS2,
	CR_SHA256MSG1, CR_SHA256MSG2, CR_COUNT
};

/* dst = op(dst, src[, imm][, xmm0]) in portable C. */
void crypto_portable(enum crypto_op op, cpu_xmm *dst, const cpu_xmm *src, unsigned imm,
		     const cpu_xmm *xmm0);

/* The same on the host's instruction; false (dst untouched) where the
 * host lacks it or the build forces the portable path (SG_PORTABLE_CRYPTO). */
bool crypto_host(enum crypto_op op, cpu_xmm *dst, const cpu_xmm *src, unsigned imm,
		 const cpu_xmm *xmm0);

/* crypto_host runs op on the host's instruction (the fast forms that call
 * the host's instructions directly exist only where this is true). */
bool crypto_host_has(enum crypto_op op);

#endif
