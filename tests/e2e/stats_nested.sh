#!/bin/sh
# stats_nested.sh SYSGATE GUEST EXPECTED
# e2e.stats-nested.*: sysgate runs itself as an x86_64 guest (what `make
# bench COUNT=1` does to count the inner's host instructions for any ABI,
# docs/performance.md "The --stats counters"). The inner must run GUEST
# (tests/guest/asm/counted.asm, EXPECTED guest instructions) as a direct
# run does: same output, status 0; the outer's one stats line counts the
# inner's instructions, which must exceed the guest's own (every guest
# instruction costs the inner at least one).
set -u
sysgate=$1 guest=$2 expected=$3
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

"$sysgate" --stats "$sysgate" "$guest" >"$tmp/out" 2>"$tmp/err"
st=$?
if [ "$st" != 0 ]; then
	echo "FAIL: nested run: status $st"; cat "$tmp/err"; exit 1
fi
if [ "$(cat "$tmp/out")" != "counted: done" ]; then
	echo "FAIL: nested run: output:"; cat "$tmp/out"; cat "$tmp/err"; exit 1
fi
lines=$(grep -c '^sysgate: stats pid [0-9]* exit: ' "$tmp/err")
if [ "$lines" != 1 ]; then
	echo "FAIL: $lines stats lines at exit:"; cat "$tmp/err"; exit 1
fi
host=$(sed -n 's/^sysgate: stats pid [0-9]* exit: \([0-9]*\) guest instructions, .*/\1/p' "$tmp/err")
if [ "$host" -le "$expected" ]; then
	echo "FAIL: the inner sysgate executed $host instructions for $expected guest ones"
	exit 1
fi
echo "ok: the inner sysgate executed $host instructions for $expected guest ones"
