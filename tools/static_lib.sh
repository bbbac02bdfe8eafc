#!/bin/sh
# Build-time step that makes libsysgate.a: the module objects joined by
# `ld -r` into one relocatable object, so a consumer that links the archive
# gets every module at once (syscall handlers are found through weak
# references, which would not pull separate archive members in); objcopy
# then keeps only the sg_* (SG_API) symbols global, so the archive's
# internals cannot clash with a consumer's names.
# Usage: static_lib.sh LD OBJCOPY AR ARCHIVE OBJECT...
set -eu

if [ $# -lt 5 ]; then
	echo "usage: $0 ld objcopy ar archive object..." >&2
	exit 2
fi
ld=$1 objcopy=$2 ar=$3 archive=$4
shift 4
obj=${archive%.a}_all.o
trap 'rm -f "$obj"' EXIT

"$ld" -r -o "$obj" "$@"
"$objcopy" --localize-hidden -w --keep-global-symbol='sg_*' "$obj"
rm -f "$archive"
"$ar" rcs "$archive" "$obj"
