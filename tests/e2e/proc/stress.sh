#!/bin/sh
# stress.sh SYSGATE GUESTDIR N: the thread and signal programs N times per
# ABI under sysgate; each run's stdout and status must equal the native
# run's (x32: its x86_64 twin). Prints "N passed, N failed".
set -u
sg=$1 g=$2 n=$3
pass=0 fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sg-stress.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
for prog in threads sig; do
	for abi in i386 x32 x86_64; do
		ref=$g/proc-$prog-$abi
		[ $abi = x32 ] && ref=$g/proc-$prog-x86_64
		"$ref" >"$tmp/want" 2>/dev/null
		echo $? >>"$tmp/want"
		i=0
		while [ $i -lt "$n" ]; do
			timeout 60 "$sg" "$g/proc-$prog-$abi" >"$tmp/got" 2>"$tmp/err"
			echo $? >>"$tmp/got"
			if cmp -s "$tmp/want" "$tmp/got"; then
				pass=$((pass + 1))
			else
				fail=$((fail + 1))
				echo "FAIL: $prog-$abi run $i"
				diff "$tmp/want" "$tmp/got" | head -10
			fi
			i=$((i + 1))
		done
	done
done
echo "$pass passed, $fail failed"
[ $fail = 0 ]
