#!/bin/sh
# check_summary.sh [--native-probe P] SYSGATE GUEST [ARG]...
#
# `sysgate -c` against `strace -c` of the native run of GUEST: the same
# tables (strace's headings: the 64-bit one first, then "System call
# usage summary for 32 bit mode:" / "... x32 mode:"), in each the same
# calls with the same call and error counts (times differ by nature).
# Rows of strace_allow.txt's calls (rseq: ENOSYS by design) are left out,
# and so are the totals, which count them. Exit 77 when strace is missing
# or P (an i386 program) cannot run natively.
set -u
probe=
if [ "$1" = --native-probe ]; then
	probe=$2
	shift 2
fi
sysgate=$1
shift
command -v strace >/dev/null || { echo "check-summary: no strace, skipped"; exit 77; }
if [ -n "$probe" ] && ! "$probe" >/dev/null 2>&1; then
	echo "check-summary: skipped: this host cannot run $* natively (probe $(basename "$probe") failed): strace has nothing to count"
	exit 77
fi
allow=$(dirname "$0")/strace_allow.txt
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
strace -f -c -o "$work/ref" "$@" >/dev/null 2>&1
"$sysgate" -f -c -o "$work/sg" "$@" >/dev/null 2>&1
# the calls of the allow-list's expressions ("rseq\(" -> rseq)
skip=$(sed -n 's/^\([a-z_0-9]*\)\\(.*/\1/p' "$allow" | paste -sd'|' -)
rows() { # table name calls errors, one per line
	awk -v skip="^(${skip:-NONE})$" '
		/^System call usage summary for/ { table = $0; next }
		/^% time/ || /^-/ { next }
		NF >= 5 && $NF != "total" && $NF !~ skip {
			errors = NF == 6 ? $5 : 0
			printf "%s | %s %s %s\n", table, $NF, $4, errors
		}' "$1" | sort
}
rows "$work/ref" >"$work/ref.rows"
rows "$work/sg" >"$work/sg.rows"
grep '^System call usage summary' "$work/ref" >"$work/ref.heads"
grep '^System call usage summary' "$work/sg" >"$work/sg.heads"
if ! cmp -s "$work/ref.heads" "$work/sg.heads" || ! cmp -s "$work/ref.rows" "$work/sg.rows"; then
	echo "check-summary: -c differs from strace -c (strace's -, sysgate's +):"
	diff -u "$work/ref.heads" "$work/sg.heads"
	diff -u "$work/ref.rows" "$work/sg.rows"
	exit 1
fi
echo "check-summary: $(wc -l <"$work/ref.rows") rows in $(($(wc -l <"$work/ref.heads") + 1)) tables as strace -c's"
