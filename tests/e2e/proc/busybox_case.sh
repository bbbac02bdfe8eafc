#!/bin/sh
# busybox_case.sh [--twin BUSYBOX] [--opt OPTION]... [--exec-traced FILE]
#                 [--sg-env NAME=VALUE]... SYSGATE BUSYBOX SCRIPT
# Run SCRIPT with `busybox sh` natively and under sysgate, in empty
# directories, with the same environment; stdout and the exit status must
# be the same. 77: no busybox (the fetch was skipped).
#   --twin BUSYBOX     native reference when BUSYBOX itself cannot run
#                      here (an i386 busybox on a host without IA32
#                      emulation: its amd64 build of the same version)
#   --opt OPTION       sysgate option before BUSYBOX (repeatable)
#   --exec-traced FILE the trace FILE (-f -o FILE, in the run directory)
#                      must show every process that exec'd going on
#                      under sysgate: a line of its pid after execve = 0
#   --sg-env NAME=VALUE in the sysgate run's environment too (repeatable)
set -u
twin= opts= traced= sgenv=
while [ $# -gt 0 ]; do
	case $1 in
	--twin) twin=$2; shift 2 ;;
	--opt) opts="$opts $2"; shift 2 ;;
	--exec-traced) traced=$2; shift 2 ;;
	--sg-env) sgenv="$sgenv $2"; shift 2 ;;
	*) break ;;
	esac
done
sg=$1 bb=$2 script=$3
[ -x "$bb" ] || { echo "SKIP: no $bb"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sg-bb.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/ref" "$tmp/sg"
ulimit -c 0 2>/dev/null
ref=$bb
if ! "$bb" true >/dev/null 2>&1; then
	[ -n "$twin" ] && [ -x "$twin" ] || { echo "SKIP: $bb cannot run natively"; exit 77; }
	# the twin only if it is the same busybox version (fetch_busybox.sh)
	v=$(sh "$(dirname "$0")/../sys/same_busybox.sh" "${bb%/bin/busybox}" \
		"${twin%/bin/busybox}") || { echo "SKIP: $bb cannot run natively; $v"; exit 77; }
	ref=$twin
	echo "reference: $ref, the twin ($bb cannot run natively)"
else
	echo "reference: $ref, native"
fi
# PATH holds only busybox's applets: both runs use the same programs
links() { # DIR BUSYBOX
	mkdir "$1"
	for a in sh echo cat sort head tr wc sleep kill true false seq expr; do
		ln -s "$2" "$1/$a"
	done
}
links "$tmp/bin" "$bb"
links "$tmp/refbin" "$ref"
run() { # DIR BIN COMMAND...
	d=$1 bin=$2
	shift 2
	(cd "$d" && env -i PATH="$bin" HOME="$d" "$@" "$bin/sh" "$script" \
		</dev/null >out 2>err; echo $? >status)
}
run "$tmp/ref" "$tmp/refbin"
# shellcheck disable=SC2086 # options and assignments split on blanks
run "$tmp/sg" "$tmp/bin" $sgenv "$sg" $opts
fail=0
if ! cmp -s "$tmp/ref/status" "$tmp/sg/status"; then
	echo "FAIL: status $(cat "$tmp/sg/status"), native $(cat "$tmp/ref/status")"
	fail=1
fi
if ! cmp -s "$tmp/ref/out" "$tmp/sg/out"; then
	echo "FAIL: stdout differs (--- native, +++ sysgate):"
	diff -u "$tmp/ref/out" "$tmp/sg/out" | sed '1,2d' | head -60
	fail=1
fi
if [ -n "$traced" ]; then
	t=$tmp/sg/$traced
	# pids whose execve succeeded, and whether a line of theirs follows
	bad=$(awk '/^[0-9]+ +execve\(.*\) = 0$/ { ex[$1] = 1; after[$1] = 0; next }
		   /^[0-9]+ / { if ($1 in ex) after[$1] = 1 }
		   END { n = 0; for (p in ex) { n++; if (!after[p]) print "pid " p }
			 if (n < 3) print "only " n " execs traced" }' "$t" 2>&1)
	if [ ! -s "$t" ] || [ -n "$bad" ]; then
		echo "FAIL: exec'd processes not traced under sysgate: $bad"
		fail=1
	fi
fi
if [ $fail = 0 ]; then
	echo "PASS (status $(cat "$tmp/sg/status"))"
	exit 0
fi
echo "--- sysgate stderr:"
head -30 "$tmp/sg/err"
exit 1
