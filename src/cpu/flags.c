/* Lazy flags: arithmetic handlers record (kind, size, operands, result);
 * the bits are computed only when something reads them (Jcc, PUSHF, ...).
 * Every bit the SDM defines for the recorded kind is exact. */
#include "cpu/insn.h"

static inline uint64_t sign_bit(unsigned sz)
{
	return 1ull << (sz * 8 - 1);
}

/* The bits of the record as kind op (lf.op without FL_CFOF). */
static uint64_t arith_bits_as(const struct cpu *c, unsigned op)
{
	uint64_t res = c->lf.res, a = c->lf.a, b = c->lf.b;
	uint64_t sb = sign_bit(c->lf.size);
	uint64_t f = 0;
	bool cf = false, of = false, af = false;

	switch (op) {
	case FL_ADD:
	case FL_ADC:
	case FL_INC:
		if (op == FL_INC)
			cf = c->lf.rf & FL_CF;
		else
			cf = res < a || (op == FL_ADC && c->lf.aux && res == a);
		of = (a ^ res) & (b ^ res) & sb;
		af = (a ^ b ^ res) & 0x10;
		break;
	case FL_SUB:
	case FL_SBB:
	case FL_DEC:
		if (op == FL_DEC)
			cf = c->lf.rf & FL_CF;
		else
			cf = a < b || (op == FL_SBB && c->lf.aux && a == b);
		of = (a ^ b) & (a ^ res) & sb;
		af = (a ^ b ^ res) & 0x10;
		break;
	case FL_RESCO:
		cf = c->lf.aux & FL_CF;
		of = c->lf.aux & FL_OF;
		break;
	default: /* FL_LOGIC */
		break;
	}
	if (cf)
		f |= FL_CF;
	if (of)
		f |= FL_OF;
	if (af)
		f |= FL_AF;
	if (res == 0)
		f |= FL_ZF;
	if (res & sb)
		f |= FL_SF;
	if (!__builtin_parity((unsigned)(res & 0xff)))
		f |= FL_PF;
	return f;
}

static uint64_t arith_bits(const struct cpu *c)
{
	uint64_t f = arith_bits_as(c, c->lf.op & ~FL_CFOF);

	if (c->lf.op & FL_CFOF)
		f = (f & ~(FL_CF | FL_OF)) | c->lf.cfof;
	return f;
}

uint64_t flags_get(const struct cpu *c)
{
	if (c->lf.op == FL_NONE)
		return c->lf.rf;
	return (c->lf.rf & ~FL_ARITH) | arith_bits(c);
}

void flags_put(struct cpu *c, uint64_t mask, uint64_t value)
{
	uint64_t rf = flags_get(c);

	c->lf.rf = (rf & ~mask) | (value & mask);
	c->lf.op = FL_NONE;
}

bool flags_cf_slow(struct cpu *c)
{
	if (c->lf.op & FL_CFOF)
		return c->lf.cfof & FL_CF;
	return arith_bits(c) & FL_CF;
}

bool flags_cond(struct cpu *c, unsigned cc)
{
	bool r;

	/* Fast paths for what precedes nearly every branch: CMP and TEST. */
	if (c->lf.op == FL_SUB) {
		uint64_t a = c->lf.a, b = c->lf.b;
		int64_t sa = (int64_t)sign_extend(a, c->lf.size);
		int64_t sb = (int64_t)sign_extend(b, c->lf.size);

		switch (cc >> 1) {
		case 1: r = a < b; break;
		case 2: r = a == b; break;
		case 3: r = a <= b; break;
		case 6: r = sa < sb; break;
		case 7: r = sa <= sb; break;
		default: return flags_cond_bits(flags_get(c), cc);
		}
		return r ^ (cc & 1);
	}
	if (c->lf.op == FL_LOGIC) {
		bool zf = c->lf.res == 0;
		bool sf = c->lf.res & sign_bit(c->lf.size);

		switch (cc >> 1) {
		case 0: r = false; break;
		case 1: r = false; break;
		case 2: r = zf; break;
		case 3: r = zf; break;
		case 4: r = sf; break;
		case 6: r = sf; break;
		case 7: r = zf || sf; break;
		default: return flags_cond_bits(flags_get(c), cc);
		}
		return r ^ (cc & 1);
	}
	return flags_cond_bits(flags_get(c), cc);
}

uint64_t cpu_get_rflags(const struct cpu *cpu)
{
	if (cpu->lf.op == FL_NONE) /* the system-call path: materialised at the stop */
		return cpu->lf.rf | 2;
	return flags_get(cpu) | 2;
}

void cpu_set_rflags(struct cpu *cpu, uint64_t rflags)
{
	cpu->lf.rf = rflags | 2;
	cpu->lf.op = FL_NONE;
}
