#!/bin/sh
# check_tail_dispatch.sh OBJDUMP SYSGATE
# Threaded dispatch (src/cpu/cache.h, exec_next): the fast handlers
# (fast_*, fused_*) pass control on with a jump, never an indirect call,
# or the host stack would grow with every instruction of a straight run.
# Counts indirect calls in those functions of the built code; fails on
# any, or when fast_mov_rr32 is not there to look at (-1).
set -u
objdump=$1 exe=$2
n=$("$objdump" -d --no-show-raw-insn "$exe" |
	awk '/^[0-9a-f]+ </ { f = ($2 ~ /^<(fast_|fused_)/) }
	     f && /call +[*]/ { n++ }
	     /^[0-9a-f]+ <fast_mov_rr32>/ { seen = 1 }
	     END { print (seen ? n + 0 : -1) }')
echo "indirect calls in fast handlers: $n"
[ "$n" = 0 ]
