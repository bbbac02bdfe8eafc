#!/bin/sh
# check_tail_dispatch.sh OBJDUMP SYSGATE
# Threaded dispatch (src/cpu/cache.h, exec_next): the fast handlers
# (fast_*, fused_*) pass control on with a jump, never a call that
# dispatches, or the host stack would grow with every instruction of a
# straight run. Counts, in those functions of the built code, indirect
# calls and direct calls of a function that dispatches itself: one with an
# indirect jump that is not a switch's jump table (there the jump follows
# the ADD of the table's base; nor the sanitizers' runtime, through a PLT
# stub (gcc) or linked in (clang's __asan_memcpy)). A helper the compiler left out of line
# (avx_fast.c's vpalignr: a guest loop of VPALIGNR overflowed the stack)
# is such a call. Fails on any, or when fast_mov_rr32 is not there to look
# at (-1).
set -u
objdump=$1 exe=$2
n=$("$objdump" -d --no-show-raw-insn "$exe" |
	awk '/^[0-9a-f]+ </ {
		fn = $2; f = (fn ~ /^<(fast_|fused_)/); prev = ""
		if (fn == "<fast_mov_rr32>:") seen = 1
		next
	     }
	     f && /call +[*]/ { n++ }
	     f && /call +[0-9a-f]+ </ { calls++; callee[calls] = $NF ":"; caller[calls] = fn }
	     /jmp +[*]/ && prev !~ /^add/ && fn !~ /@plt>:$/ && fn !~ /^<__(asan|ubsan|sanitizer)_/ { dispatches[fn] = 1 }
	     NF >= 2 { sub(/^ *[0-9a-f]+:[ \t]*/, ""); prev = $0 }
	     END {
		for (k = 1; k <= calls; k++)
			if (callee[k] in dispatches) {
				print caller[k] " calls " callee[k] > "/dev/stderr"
				n++
			}
		print (seen ? n + 0 : -1)
	     }')
echo "indirect or dispatching calls in fast handlers: $n"
[ "$n" = 0 ]
