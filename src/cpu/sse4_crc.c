/* CRC32 (SSE4.2, F2 0F 38 F0/F1): CRC-32C (Castagnoli, reflected
 * polynomial 0x82F63B78) of the source's bytes, low byte first,
 * accumulated into the destination's low 32 bits; a 64-bit destination
 * (REX.W) gets the result zero-extended. No flags change. */
#include "cpu/ops.h"

static uint32_t crc32c_bytes(uint32_t crc, uint64_t v, unsigned n)
{
	for (unsigned k = 0; k < n; k++) {
		crc ^= (uint8_t)(v >> (8 * k));
		for (int b = 0; b < 8; b++)
			crc = crc >> 1 ^ (0x82f63b78u & -(crc & 1));
	}
	return crc;
}

/* F0: r32/r64, r/m8 (byte register coding as for any Eb operand) */
void op_crc32_GdEb(struct cpu *c, const struct insn *i)
{
	uint64_t v = rm_read(c, i, 1);
	uint32_t crc = (uint32_t)c->r[i->reg];

	reg_set(c, i->reg, 4, crc32c_bytes(crc, v, 1));
}

/* F1: r32, r/m16 (66) or r/m32; r64, r/m64 (REX.W) */
void op_crc32_GdEv(struct cpu *c, const struct insn *i)
{
	uint64_t v = rm_read(c, i, insn_cold(i)->osz);
	uint32_t crc = (uint32_t)c->r[i->reg];

	reg_set(c, i->reg, 4, crc32c_bytes(crc, v, insn_cold(i)->osz));
}
