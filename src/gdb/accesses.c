/* Read and access watchpoints (Z3, Z4): the data an instruction is about
 * to read or write, as the CPU's own decoder finds it (cpu_insn_accesses:
 * the memory operand, the stack slots PUSH, POP, CALL, RET, LEAVE, ENTER,
 * PUSHF/POPF and PUSHA/POPA touch without naming them, string operands
 * over rCX elements). Only in core's slow loop, only while such a
 * watchpoint is set. */
#include <string.h>

#include "gdb/stub.h"
#include "mm/mm.h"

/* The first read or access watchpoint that [ea, ea+len) overlaps (a read
 * watchpoint only if the access reads): its kind and address. */
static int match(const struct gdb_stub *s, uint64_t ea, uint64_t len, bool reads,
		 uint64_t *addr)
{
	for (unsigned i = 0; i < s->nwp; i++) {
		const struct gdb_watch *w = &s->wps[i];

		if (w->kind == GDB_STOP_WATCH || ea >= w->addr + w->len || w->addr >= ea + len)
			continue;
		if (w->kind == GDB_STOP_RWATCH && !reads)
			continue;
		*addr = w->addr;
		return w->kind;
	}
	return GDB_STOP_NONE;
}

/* Does the instruction at pc touch a Z3/Z4 watchpoint? Its kind and
 * address, or GDB_STOP_NONE. */
int gdb_access_hit(struct gdb_stub *s, struct sg_thread *t, uint64_t pc, uint64_t *addr)
{
	const struct cpu *c = &t->cpu;
	struct cpu_mem_access acc[CPU_MEM_ACCESSES_MAX];
	uint8_t bytes[15];
	size_t n = sizeof(bytes);
	int count, hit = GDB_STOP_NONE;

	/* the instruction (at c->rip: pc is its 32-bit form in 32-bit mode) may end just before an unreadable page */
	while (n && copy_from_guest(t->proc->mm, bytes, pc, n) != 0)
		n--;
	count = cpu_insn_accesses(c, bytes, n, acc);
	for (int k = 0; k < count && hit == GDB_STOP_NONE; k++)
		hit = match(s, acc[k].addr, acc[k].len, acc[k].reads, addr);
	return hit;
}
