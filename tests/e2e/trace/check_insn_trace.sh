#!/bin/sh
# check_insn_trace.sh SYSGATE STRAIGHT
# --trace=insn and --trace=blocks of tests/e2e/trace/straight.asm, checked
# against objdump and nm (never sysgate): every traced instruction has the
# address and bytes objdump gives for that address, in the order the source
# runs them (_start..jnz, loop..jnz twice more, then to the syscall), and
# the block trace enters 4 blocks at _start, loop, loop, and after the loop.
# Also --trace-start / --trace-count.
set -u
sysgate=$1 prog=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "check_insn_trace: $*" >&2; cat "$work/trace" >&2; exit 1; }

# objdump: "  401000:	31 c0                	xor    %eax,%eax"
objdump -d "$prog" | awk -F'\t' '/^ +[0-9a-f]+:\t/ {
	a = $1; sub(/^ +/, "", a); sub(/:$/, "", a)
	b = $2; gsub(/ +$/, "", b); print a, b }' > "$work/objdump"
loop=$(nm "$prog" | awk '$3 == "loop" { sub(/^0+/, "", $1); print $1 }')
start=$(nm "$prog" | awk '$3 == "_start" { sub(/^0+/, "", $1); print $1 }')
[ -n "$loop" ] && [ -n "$start" ] || fail "no symbols in $prog"

# the path the source takes: 6 from _start, 3 from loop twice, 4 after
awk -v loop="$loop" '
	{ addr[NR] = $1; line[NR] = $0; if ($1 == loop) l = NR }
	END {
		for (i = 1; i < l + 3; i++) print line[i]
		for (k = 0; k < 2; k++) for (i = l; i < l + 3; i++) print line[i]
		for (i = l + 3; i <= NR; i++) print line[i]
	}' "$work/objdump" > "$work/expect"

"$sysgate" --trace=insn -o "$work/trace" "$prog"
[ $? -eq 7 ] || fail "exit status not 7"
# "0x401000: 31 c0     xor eax, eax  ; rax=0x0": address and bytes
sed -E 's/^0x([0-9a-f]+): ((([0-9a-f]{2}) )+) *.*/\1 \2/; s/ +$//' "$work/trace" |
	grep -E '^[0-9a-f]+ [0-9a-f]{2}' > "$work/got"
diff -u "$work/expect" "$work/got" > "$work/diff" || { cat "$work/diff" >&2; fail "insn trace differs from objdump"; }
grep -q "rcx=0x3" "$work/trace" || fail "no rcx=0x3 change after mov ecx, 3"

"$sysgate" --trace=blocks -o "$work/trace" "$prog"
blocks=$(grep -Eo '^block 0x[0-9a-f]+' "$work/trace" | sed 's/block 0x//' | tr '\n' ' ')
after=$(awk -v loop="$loop" '$1 == loop { getline; getline; getline; print $1 }' "$work/objdump")
[ "$blocks" = "$start $loop $loop $after " ] || fail "blocks '$blocks', expected '$start $loop $loop $after '"

"$sysgate" --trace=insn --trace-start=0x$loop --trace-count=4 -o "$work/trace" "$prog"
n=$(grep -c '^0x' "$work/trace")
first=$(sed -n 's/^0x\([0-9a-f]*\):.*/\1/p' "$work/trace" | head -1)
[ "$n" -eq 4 ] && [ "$first" = "$loop" ] || fail "--trace-start/--trace-count: $n lines from $first"
echo "check_insn_trace: insn, blocks, start/count match objdump"
