#!/bin/sh
# busybox_case.sh SYSGATE BUSYBOX SCRIPT: run SCRIPT with `busybox sh`
# natively and under sysgate, in empty directories, with the same
# environment; stdout and the exit status must be the same. 77: no
# busybox (the fetch was skipped).
set -u
sg=$1 bb=$2 script=$3
[ -x "$bb" ] || { echo "SKIP: no $bb"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sg-bb.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/ref" "$tmp/sg"
# PATH holds only busybox's applets: both runs use the same programs
mkdir "$tmp/bin"
for a in sh echo cat sort head tr wc sleep kill true false seq expr; do
	ln -s "$bb" "$tmp/bin/$a"
done
run() { # DIR COMMAND...
	d=$1
	shift
	(cd "$d" && env -i PATH="$tmp/bin" HOME="$d" "$@" "$tmp/bin/sh" "$script" \
		</dev/null >out 2>err; echo $? >status)
}
run "$tmp/ref"
run "$tmp/sg" "$sg"
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
if [ $fail = 0 ]; then
	echo "PASS (status $(cat "$tmp/sg/status"))"
	exit 0
fi
echo "--- sysgate stderr:"
head -30 "$tmp/sg/err"
exit 1
