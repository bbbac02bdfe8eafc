#!/bin/sh
# cpu_busybox.sh BBDIR ABI SYSGATE SRCDIR WORK: Debian's static busybox of
# ABI (i386, x86_64) runs CPU-heavy applets under sysgate; each output must
# equal the native run's byte for byte:
#   sha256sum   of a 150 KB input (the source files of src/, concatenated;
#               SG_SMALL=1, set for the sanitizer build: 15 KB and fewer
#               lines and terms below)
#   gzip -9     the compressed bytes, then gunzip -c of them: the input again
#   awk         word counts, integer and floating-point arithmetic (series,
#               Newton's square root), printf
#   sort        -n, -r, -k2,2 -t: and -u on generated lines
# The oracle is the same busybox natively; where the host cannot run the
# i386 one (no IA32 emulation: the exec fails), the amd64 busybox of the
# same Debian version (get_busybox.sh records both versions), built from one
# source and configuration. Exit 0 same, 1 different, 77 skipped (busybox
# could not be fetched).
set -u
bbdir=$1 abi=$2 sysgate=$3 src=$4 work=$5
sh "$src/tests/e2e/sys/get_busybox.sh" "$bbdir" || exit $?
abs() { (cd "$(dirname "$1")" && echo "$(pwd)/$(basename "$1")"); }
bbdir=$(abs "$bbdir") sysgate=$(abs "$sysgate") src=$(abs "$src")
bb=$bbdir/$abi/bin/busybox
ref=$bb
if ! "$bb" true 2>/dev/null; then
	twin=$bbdir/x86_64/bin/busybox
	if [ "$abi" != i386 ] || ! cmp -s "$bbdir/i386/version" "$bbdir/x86_64/version"; then
		echo "cpu_busybox.sh: $bb does not run natively and has no twin" >&2
		exit 1
	fi
	echo "cpu_busybox.sh: $abi busybox does not run natively; oracle: $twin" \
	     "(version $(cat "$bbdir/x86_64/version"))"
	ref=$twin
fi
rm -rf "$work"
mkdir -p "$work" || exit 1
cd "$work" || exit 1
# SG_SMALL=1 (the sanitizer build, unoptimised: ~30x slower): a tenth of
# the work, the same paths
bytes=150000 nlines=10000 terms=100000
if [ "${SG_SMALL:-0}" = 1 ]; then
	bytes=15000 nlines=1000 terms=10000
fi
find "$src/src" -type f -name '*.[ch]' | LC_ALL=C sort | xargs cat | head -c $bytes >input
"$ref" awk -v n=$nlines 'BEGIN { srand(7); for (i = 0; i < n; i++)
	printf "%d:%s:%.3f\n", int(rand() * 100000), substr("kqzjxwvbmfpr", int(rand() * 12) + 1, 3),
	       rand() * 1000 - 500 }' >lines
fail=0
# run NAME STDIN ARG...: one applet both ways; outputs in NAME.sg, NAME.ref
run() {
	name=$1 stdin=$2
	shift 2
	"$sysgate" "$bb" "$@" <"$stdin" >"$name.sg" 2>"$name.sg.err"
	s1=$?
	"$ref" "$@" <"$stdin" >"$name.ref" 2>/dev/null
	s2=$?
	if [ $s2 -ne 0 ] || [ $s1 -ne $s2 ] || ! cmp -s "$name.sg" "$name.ref"; then
		echo "FAIL $name: status $s1 (native $s2)"
		cmp "$name.sg" "$name.ref" | head -1
		head -5 "$name.sg.err"
		fail=1
	else
		echo "ok   $name ($(wc -c <"$name.ref") bytes)"
	fi
}
run sha256sum /dev/null sha256sum input lines
run gzip input gzip -9 -c
run gunzip gzip.sg gunzip -c
if ! cmp -s gunzip.sg input; then
	echo "FAIL gunzip: the round trip under sysgate does not give the input back"
	fail=1
fi
run awk /dev/null awk -v terms=$terms -F'[^A-Za-z_]+' '
	{ for (i = 1; i <= NF; i++) if ($i != "") { w[$i]++; n++ } lines++ }
	END {
		for (k in w) { d++; if (w[k] > best) { best = w[k]; top = k } }
		# no libm in Debian'"'"'s busybox awk: series, Newton, modular sums
		e = 1; f = 1; for (i = 1; i < 20; i++) { f *= i; e += 1 / f }
		p = 0; for (i = 0; i < terms; i++) p += (i % 2 ? -4 : 4) / (2 * i + 1)
		r = 1; for (i = 0; i < 30; i++) r = (r + 2 / r) / 2
		h = 0; q = 0; for (i = 1; i <= 5000; i++) { h += 1 / i; q += (i * i * i) % 97 }
		printf "%d lines %d words %d distinct, top %s x%d\n", lines, n, d, top, best
		printf "%.10g %.10g %.10g %.10g %d\n", e, p, r, h, q
		printf "%d %.6e %x %o %s\n", int(-7.9), 1 / 3, 48879, 511, 0.1 + 0.2
	}' input
run sort-n /dev/null sort -t: -k1,1n lines
run sort-r /dev/null sort -r lines
run sort-k2 /dev/null sort -t: -k2,2 -k3,3g lines
run sort-u /dev/null sort -u -t: -k2,2 lines
exit $fail
