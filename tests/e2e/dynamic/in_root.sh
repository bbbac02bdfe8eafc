#!/bin/sh
# in_root.sh ROOT COMMAND...: run COMMAND if make_i386_root.sh finished
# ROOT, else report a skip (exit 77, the cases' SKIP_RETURN_CODE).
root=$1
shift
if [ ! -f "$root/.complete" ]; then
	echo "SKIP: no i386 root in $root (make_i386_root.sh could not fetch packages)"
	exit 77
fi
exec "$@"
