#!/bin/sh
# stores.sh DRIVER SYSGATE GUEST REF: e2e.iso-stores. The reference program
# runs natively under the driver (it aims at pages of its own it gave
# back), the guest under sysgate with the driver aiming it at sysgate's own
# mappings (--expect-foreign: there must be some); stdout and status must
# be the same. The driver's stderr names the targets.
set -u
[ $# -eq 4 ] || { echo "usage: stores.sh DRIVER SYSGATE GUEST REF" >&2; exit 2; }
driver=$1 sysgate=$2 guest=$3 ref=$4
work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT
"$driver" "$ref" >"$work/native" 2>"$work/native.err"
native_status=$?
"$driver" --expect-foreign "$sysgate" "$guest" >"$work/sysgate" 2>"$work/sysgate.err"
sysgate_status=$?
echo "reference: native $ref (status $native_status), sysgate status $sysgate_status"
cat "$work/sysgate.err" >&2
if [ "$native_status" != "$sysgate_status" ] || ! cmp -s "$work/native" "$work/sysgate"; then
	diff -u "$work/native" "$work/sysgate"
	echo "FAIL: stdout or status differ from the native run" >&2
	exit 1
fi
echo "PASS: $(wc -l <"$work/native") lines as natively"
