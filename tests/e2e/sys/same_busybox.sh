#!/bin/sh
# same_busybox.sh DIR1 DIR2: exit 0 when the busybox packages unpacked in
# DIR1 and DIR2 have the same version (DIR/version, written by the fetch
# scripts), so that one is the other's twin; else say so and exit 1.
a=$(cat "$1/version" 2>/dev/null) b=$(cat "$2/version" 2>/dev/null)
[ -n "$a" ] && [ "$a" = "$b" ] && exit 0
echo "busybox versions differ: $1 ${a:-unknown}, $2 ${b:-unknown}"
exit 1
