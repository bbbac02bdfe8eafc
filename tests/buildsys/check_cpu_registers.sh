#!/bin/sh
# check_cpu_registers.sh SRC_DIR [--self-test]
# Fails if a file of the modules below core that the CPU serves (src/syscall,
# src/loader, src/vdso) reaches into struct cpu's register state itself
# (r[], rip, the segment bases, selectors and TLS entries, the lazy flags)
# instead of going through the CPU's API (cpu.h: System call registers,
# cpu_set_seg_base, cpu_set_tls_entry, ...; docs/architecture.md, Layers).
# Prints each offending line. --self-test: shows the check failing on
# each kind of access planted in a copy, and passing on the API's calls.
set -u
src=$1
# r[R_xx] whatever the variable; the fields through any struct cpu (the
# modules name it cpu or reach it as t->cpu / sg_task(t)->cpu)
PATTERN='r\[R_[A-Z0-9]+\]|cpu(\.|->)(r|base|sel|tls)\[|cpu(\.|->)(rip|lf)\b'
DIRS="src/syscall src/loader src/vdso"

scan() {
	(cd "$1" && grep -rnE "$PATTERN" $DIRS --include='*.c' --include='*.h')
}

if [ "${2:-}" = --self-test ]; then
	tmp=$(mktemp -d) || exit 1
	trap 'rm -rf "$tmp"' EXIT
	fail=0
	for line in 't->cpu.r[R_AX] = 0;' 'x = cpu->r[R_SP];' 'cpu->rip = landing;' \
		    'v = cpu->base[SEG_FS];' 'd = &sg_task(t)->cpu.tls[0];' \
		    'cpu->lf.op = 0;'; do
		mkdir -p "$tmp/src/syscall" "$tmp/src/loader" "$tmp/src/vdso"
		printf '%s\n' "$line" > "$tmp/src/syscall/planted.c"
		if [ -z "$(scan "$tmp")" ]; then
			echo "check_cpu_registers: self-test: not caught: $line"
			fail=1
		fi
	done
	printf '%s\n' 'cpu_syscall_set_return_value(cpu, r);' 'sp = cpu_stack_pointer(&t->cpu);' \
		'if (t->cpu.mode == CPU_MODE_64)' > "$tmp/src/syscall/planted.c"
	if [ -n "$(scan "$tmp")" ]; then
		echo "check_cpu_registers: self-test: the API's calls were taken for register accesses"
		fail=1
	fi
	[ $fail = 0 ] && echo "check_cpu_registers: self-test: every planted access caught"
	exit $fail
fi

found=$(scan "$src")
if [ -n "$found" ]; then
	echo "check_cpu_registers: struct cpu's registers touched outside the CPU's API:"
	echo "$found"
	exit 1
fi
echo "check_cpu_registers: $DIRS reach the CPU's registers through its API only"
