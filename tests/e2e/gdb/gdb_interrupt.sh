#!/bin/sh
# gdb_interrupt.sh SYSGATE GUEST
#
# Ctrl-C and detach: GUEST (gdbsignals spin) loops until stop_spinning is
# set. gdb continues it (SIGUSR1 passed without a stop: QPassSignals), is
# sent SIGINT, which it turns into a 0x03 to the stub; the stop must be in
# main, in the loop, with spins counted up from 1000 (the source: the
# handler adds 1000, the loop only increments). gdb sets stop_spinning and
# detaches: the program must run on to its end and print what its source
# says, with exit status 0.
#
# Exit: 0 pass; 1 fail; 77 skipped (no gdb).
set -u
sysgate=$1 guest=$2
if ! command -v gdb >/dev/null 2>&1; then
	echo "SKIP: gdb is not installed (Debian package gdb; scripts/setup.sh)"
	exit 77
fi
dir=$(mktemp -d /tmp/sg-gdbint.XXXXXX)
trap 'rm -rf "$dir"' EXIT
sock=$dir/sock

timeout 60 "$sysgate" --gdb-socket "$sock" "$guest" spin >"$dir/stdout" 2>"$dir/stderr" &
sg=$!
n=0
while [ ! -S "$sock" ] && [ $n -lt 200 ]; do sleep 0.05; n=$((n + 1)); done
# --foreground: timeout passes our SIGINT on to gdb once (without it, it
# signals its whole process group too, and a second SIGINT makes gdb give
# the target up as not responding)
timeout --foreground 60 gdb -batch -nx -ex "target remote $sock" \
	-ex 'handle SIGUSR1 nostop noprint pass' -ex 'continue' \
	-ex 'info symbol $pc' -ex 'p spins > 1000' -ex 'p stop_spinning = 1' \
	-ex 'detach' "$guest" >"$dir/gdb.out" 2>&1 </dev/null &
gdbpid=$!
# gdb has continued the program once it prints its first line (flushed
# before the loop); gdb is then waiting for a stop, where SIGINT is the
# remote interrupt (earlier it would interrupt gdb's own start-up)
n=0
while ! grep -q '^spins 1000$' "$dir/stdout" 2>/dev/null && [ $n -lt 600 ]; do
	sleep 0.05
	n=$((n + 1))
done
sleep 0.3
kill -INT $gdbpid
wait $gdbpid
wait $sg
status=$?

fail=0
grep -q '^Program received signal SIGINT' "$dir/gdb.out" || { echo "FAIL: no SIGINT stop"; fail=1; }
grep -q '^main + [0-9]* in section \.text' "$dir/gdb.out" || { echo "FAIL: not stopped in main"; fail=1; }
grep -q '^\$1 = 1$' "$dir/gdb.out" || { echo "FAIL: spins not counted up past 1000"; fail=1; }
grep -q 'detached\]$' "$dir/gdb.out" || { echo "FAIL: no detach"; fail=1; }
printf 'spins 1000\nstopped spinning\n' | cmp -s - "$dir/stdout" || { echo "FAIL: the program's output:"; cat "$dir/stdout"; fail=1; }
[ $status = 0 ] || { echo "FAIL: exit status $status"; fail=1; }
if grep -q -e 'AddressSanitizer' -e 'runtime error' -e 'LeakSanitizer' "$dir/stderr"; then
	echo "FAIL: a sanitizer report"
	fail=1
fi
if [ $fail = 1 ]; then
	echo "--- gdb:"; cat "$dir/gdb.out"; echo "--- sysgate's stderr:"; cat "$dir/stderr"
	exit 1
fi
echo "PASS: interrupted in main, detached, the program ran to its end"
