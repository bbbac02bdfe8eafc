#!/bin/sh
# stats_count.sh SYSGATE GUEST EXPECTED [REF STEPCOUNT [PROBE]]
# e2e.stats.*: sysgate --stats must report exactly EXPECTED guest
# instructions for GUEST (tests/guest/asm/counted.asm says how the number
# follows from the program). Where the host can run REF (GUEST itself, or
# the x86_64 twin of an x32 guest; PROBE, if given, must run natively
# first), REF is counted natively by single-stepping it (STEPCOUNT) and
# must give EXPECTED too, so the hand count is checked against the CPU.
# The guest's output must be its native one ("counted: done").
set -u
sysgate=$1 guest=$2 expected=$3
ref=${4:-} stepcount=${5:-} probe=${6:-}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

if [ -n "$ref" ] && { [ -z "$probe" ] || "$probe" >/dev/null 2>&1; }; then
	if native=$("$stepcount" "$ref" 2>/dev/null | tail -n 1) && [ -n "$native" ]; then
		if [ "$native" != "$expected" ]; then
			echo "FAIL: native single-stepping counts $native instructions, the program's count is $expected"
			exit 1
		fi
		echo "native: $native instructions (single-stepped)"
	else
		echo "note: $ref could not be single-stepped here; the program's count only"
	fi
fi

"$sysgate" --stats "$guest" >"$tmp/out" 2>"$tmp/err"
st=$?
if [ "$st" != 0 ]; then
	echo "FAIL: status $st"; cat "$tmp/err"; exit 1
fi
if [ "$(cat "$tmp/out")" != "counted: done" ]; then
	echo "FAIL: output:"; cat "$tmp/out"; exit 1
fi
lines=$(grep -c '^sysgate: stats pid [0-9]* exit: ' "$tmp/err")
if [ "$lines" != 1 ]; then
	echo "FAIL: $lines stats lines at exit:"; cat "$tmp/err"; exit 1
fi
got=$(sed -n 's/^sysgate: stats pid [0-9]* exit: \([0-9]*\) guest instructions, .*/\1/p' "$tmp/err")
if [ "$got" != "$expected" ]; then
	echo "FAIL: sysgate --stats: '$got' guest instructions, expected $expected"
	cat "$tmp/err"; exit 1
fi
# the other fields are there and plausible: something decoded, faults taken
if ! grep -Eq ' [1-9][0-9]* decoded, [1-9][0-9]* bytes of decoded code \([0-9]+ pools, [0-9]+ slots\), [1-9][0-9]* page faults \([0-9]+ minor, [0-9]+ major\), [0-9]+\.[0-9]{6} s CPU' "$tmp/err"; then
	echo "FAIL: the stats line's other fields:"; cat "$tmp/err"; exit 1
fi
echo "ok: $got guest instructions"
