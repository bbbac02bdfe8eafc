#!/bin/sh
# check_blocks.sh SYSGATE BLOCK_COVERAGE PROG
# Basic-block boundaries of tests/e2e/trace/blocks.asm (PROG, one ABI),
# through the embedding API's block hook (examples/block_coverage.c -l:
# the distinct block addresses) and through --trace=blocks. The expected
# result is the source's labels (nm): a block starts at every bb_* (after
# IRET, HLT, UD2, INT3, the system call, a far JMP, LOOP, JCXZ, RET imm16:
# they may transfer control, SDM) and at no nb_* (after REP MOVSB, NOP).
# Capstone's groups, which chose the boundaries before, miss IRET, HLT and
# UD2.
set -u
sysgate=$1 coverage=$2 prog=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "check_blocks: $*" >&2; exit 1; }

nm "$prog" | awk '$3 ~ /^(bb|nb)_/ { sub(/^0+/, "", $1); print $3, $1 }' > "$work/labels"
[ "$(grep -c '^bb_' "$work/labels")" -eq 9 ] && [ "$(grep -c '^nb_' "$work/labels")" -eq 2 ] ||
	fail "labels of $prog: $(cat "$work/labels")"

"$coverage" -l "$prog" > "$work/hook" 2> "$work/hook.err" ||
	fail "block_coverage $prog: status $? $(cat "$work/hook.err")"
sed 's/^0x//' "$work/hook" > "$work/hook.set"

"$sysgate" --trace=blocks -o "$work/trace" "$prog" || fail "sysgate --trace=blocks $prog: status $?"
sed -n 's/^block 0x\([0-9a-f]*\).*/\1/p' "$work/trace" > "$work/trace.set"

bad=0
while read -r name addr; do
	for how in hook trace; do
		if grep -qx "$addr" "$work/$how.set"; then got=yes; else got=no; fi
		case $name in bb_*) want=yes ;; *) want=no ;; esac
		if [ "$got" != "$want" ]; then
			echo "check_blocks: $how: $name ($addr) starts a block: $got, expected $want" >&2
			bad=1
		fi
	done
done < "$work/labels"
[ $bad -eq 0 ] || { cat "$work/trace" >&2; exit 1; }
echo "check_blocks: $(wc -l < "$work/labels") boundaries as the SDM says, hook and trace"
