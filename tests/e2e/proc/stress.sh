#!/bin/sh
# stress.sh SYSGATE GUESTDIR N: the thread and signal programs N times per
# ABI under sysgate; each run's stdout and status must equal the native
# run's (x32: its x86_64 twin; i386: the i386 program natively, or its
# x86_64 twin on a host that cannot run i386 programs — the programs print
# the same lines in every ABI). Prints one "ABI PROG: N passed, N failed"
# line per program and ABI, then the totals.
set -u
sg=$1 g=$2 n=$3
pass=0 fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sg-stress.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
ulimit -c 0 2>/dev/null
for prog in threads sig; do
	for abi in i386 x32 x86_64; do
		ref=$g/proc-$prog-$abi
		[ $abi = x32 ] && ref=$g/proc-$prog-x86_64
		# a host without IA32 emulation cannot exec it (ENOEXEC: 126)
		"$ref" >"$tmp/want" 2>/dev/null
		st=$?
		if [ $abi = i386 ] && [ $st = 126 ] && [ ! -s "$tmp/want" ]; then
			ref=$g/proc-$prog-x86_64
			"$ref" >"$tmp/want" 2>/dev/null
			st=$?
		fi
		echo $st >>"$tmp/want"
		i=0 p=0 f=0
		while [ $i -lt "$n" ]; do
			timeout 120 "$sg" "$g/proc-$prog-$abi" >"$tmp/got" 2>"$tmp/err"
			echo $? >>"$tmp/got"
			if cmp -s "$tmp/want" "$tmp/got"; then
				p=$((p + 1))
			else
				f=$((f + 1))
				echo "FAIL: $prog-$abi run $i"
				diff "$tmp/want" "$tmp/got" | head -10
				head -5 "$tmp/err"
			fi
			i=$((i + 1))
		done
		echo "$abi $prog: $p passed, $f failed"
		pass=$((pass + p)) fail=$((fail + f))
	done
done
echo "$pass passed, $fail failed"
[ $fail = 0 ]
