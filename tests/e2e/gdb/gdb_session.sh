#!/bin/sh
# gdb_session.sh SYSGATE SCENARIO GUEST REF [PROBE]
#
# One gdb batch session against sysgate's stub (sysgate --gdb-socket, or
# -g 0 with SG_GDB_TCP=1; gdb `target remote`) compared with the same
# commands run by gdb natively on REF: the same program (i386, x86_64) or its -m64 twin (x32: gdb cannot
# run x32 programs on this kernel). Where PROBE (a tiny i386 program)
# cannot run natively, the host has no IA32 emulation: REF should then be
# the x86_64 twin, which the caller passes as $6.
#
# gdb's own text is compared after normalising what differs by nature:
# addresses (load addresses, a twin's code), instruction offsets within a
# function (<leaf+24>; `info registers pc` is compared by its name only,
# `info symbol $pc` says where: an x32 pc prints as a number), the values
# of the general registers, rip and fs_base/gs_base in `info registers`
# (addresses, whose decimal column differs too: their names are compared,
# eflags and the selectors in full), AVX-512's k0-k7 (a host's, the
# guest's CPU has none), thread and
# process ids, how the program was
# started (everything before the first breakpoint hit) and the target id
# column of `info threads`; thread names must match (qXfer:threads) but
# for the ABI suffix of the program's name (a twin's differs). Function names,
# arguments, line numbers, source lines, variable values, watchpoint
# old/new values and the exit must be the same.
#
# Exit: 0 same; 1 different; 77 skipped (no gdb).
set -u
sysgate=$1 scenario=$2 guest=$3 ref=$4 probe=${5:-} twin=${6:-}

if ! command -v gdb >/dev/null 2>&1; then
	echo "SKIP: gdb is not installed (Debian package gdb; scripts/setup.sh)"
	exit 77
fi
if [ -n "$probe" ] && ! "$probe" >/dev/null 2>&1; then
	if [ -z "$twin" ]; then
		echo "SKIP: this host cannot run $ref natively and there is no twin"
		exit 77
	fi
	echo "note: no native i386 here: the reference is the x86_64 twin"
	ref=$twin
	ref_is_twin=1
fi

# Hardware watchpoints: under some hypervisors the host's debug registers
# never fire (seen on a Zen 5 VM: gdb sets the watchpoint natively and the
# program runs on), so there the native session is no oracle for them.
# Probed by a native gdb run of gdbprog-static-x86_64.
host_watchpoints_fire() {
	timeout 60 gdb -batch -nx -ex 'break leaf' -ex 'run >/dev/null' -ex 'watch counter' \
		-ex 'continue' "$(dirname "$ref")/gdbprog-static-x86_64" </dev/null 2>&1 |
		grep -q '^New value = '
}
no_watch="this host's hardware watchpoints do not fire natively (gdbprog-static-x86_64 under gdb)"

# Lines by their marker comments in the programs' sources.
src=$(dirname "$0")/../../guest/gdb
mark() { grep -n "MARK: $2" "$src/$1" | cut -d: -f1; }

case $scenario in
basic)
	# the register set and the flags are the ABI's own: not against a twin
	regs='info registers'
	if [ -n "${ref_is_twin:-}" ]; then
		echo "note: info registers not compared (the twin's are x86_64's)"
		regs='p x'
	fi
	watch='watch counter'
	if ! host_watchpoints_fire; then
		echo "note: watchpoint not compared: $no_watch"
		watch='p counter'
	fi
	set -- -ex 'break leaf' -ex 'CONTINUE' -ex 'bt' -ex 'info registers pc' -ex 'info symbol $pc' \
		-ex "$regs" \
		-ex 'p counter' -ex 'p answer' -ex 'p x' -ex "$watch" \
		-ex 'continue' -ex 'next' -ex 'next' -ex 'p total' \
		-ex 'delete' -ex "break $(mark gdbprog.c after-loop)" -ex 'continue' -ex 'p total' \
		-ex 'p counter' -ex 'stepi' -ex 'p counter' -ex 'delete' -ex 'continue'
	;;
registers)
	# x87 stack (logical order), XMM, MXCSR, x87 control and status, tag
	# word, selectors: decimal, the normalisation takes hex for addresses
	set -- -ex 'break probe' -ex 'CONTINUE' -ex 'p $st0' -ex 'p $st1' \
		-ex 'p $st2' -ex 'p $xmm1.v2_double' -ex 'p/d $mxcsr' \
		-ex 'p/d $fctrl' -ex 'p/d $fstat' -ex 'p/d $ftag' \
		-ex 'set var $xmm1.v2_double[0] = 7.75' -ex 'p $xmm1.v2_double'
	# the selectors are the ABI's (i386 0x23/0x2b, x86_64 0x33/0): only
	# a native run of the same ABI can be the reference for them
	if [ -z "${ref_is_twin:-}" ]; then
		set -- "$@" -ex 'p $cs' -ex 'p $ss' -ex 'p $ds'
	else
		echo "note: selectors not compared (the twin's are x86_64's)"
	fi
	set -- "$@" -ex 'continue'
	;;
avx)
	# $ymm0/$ymm1: gdb's pseudo registers from xmmN and ymmNh; a write
	# to an element of each half, which the program prints. Natively
	# the program needs a CPU with AVX (and an OS that enabled it).
	if ! grep -qw avx /proc/cpuinfo; then
		echo "SKIP: this host's CPU has no AVX: the native reference cannot run"
		exit 77
	fi
	set -- -ex 'break probe' -ex 'CONTINUE' -ex 'p $ymm0.v8_int32' \
		-ex 'p $ymm1.v8_int32' -ex 'p $ymm0.v4_int64' -ex 'p/x $ymm0.v2_int128' \
		-ex 'set var $ymm1.v8_int32[7] = -77' -ex 'set var $ymm1.v8_int32[1] = 4242' \
		-ex 'p $ymm1.v8_int32' -ex 'continue'
	;;
access)
	# read and access watchpoints: the instruction's data operands
	if ! host_watchpoints_fire; then
		echo "SKIP: $no_watch"
		exit 77
	fi
	set -- -ex 'break leaf' -ex 'CONTINUE' -ex 'awatch counter' \
		-ex 'continue' -ex 'continue' -ex 'continue' -ex 'delete' \
		-ex 'rwatch answer' -ex 'continue' -ex 'bt' -ex 'delete' -ex 'continue'
	;;
stack)
	# awatch on the slot a PUSH writes and its POP reads, rwatch on the
	# return address a RET reads: no memory operand names them. A slot
	# is 4 bytes on i386, 8 on x86_64 and x32 (64-bit mode); the
	# watched bytes are its low 4, zeroed first (the old value)
	if ! host_watchpoints_fire; then
		echo "SKIP: $no_watch"
		exit 77
	fi
	slot=8 sp='$rsp' fp='$rbp'
	[ "${guest##*-}" = i386 ] && slot=4 sp='$esp' fp='$ebp'
	set -- -ex 'break stack_ops' -ex 'CONTINUE' -ex "set \$slot = (char *)$sp - $slot" \
		-ex 'set var *(int *)$slot = 0' -ex 'awatch *(int *)$slot' \
		-ex 'continue' -ex 'continue' -ex 'delete' -ex 'break callee' -ex 'continue' \
		-ex "set \$ret = (char *)$fp + $slot" -ex 'rwatch *(void **)$ret' -ex 'continue' \
		-ex 'bt 1' -ex 'delete' -ex 'continue'
	;;
membreak)
	# gdb writes INT3 itself (M packets) instead of asking for Z0
	# (the instruction at the breakpoint is the ABI's own: not shown
	# against a twin)
	insn='x/1i $pc'
	if [ -n "${ref_is_twin:-}" ]; then
		echo "note: the instruction at the breakpoint not compared (the twin's is x86_64 code)"
		insn='p x'
	fi
	set -- -ex 'set remote software-breakpoint-packet off' -ex 'break leaf' \
		-ex 'CONTINUE' -ex 'bt' -ex 'continue' -ex 'bt' -ex "$insn" \
		-ex 'p counter' -ex 'delete' -ex 'continue'
	;;
signals)
	# `signal SIGUSR1` at a breakpoint delivers one gdb chose (the
	# handler adds 1000), then the program's own raise stops, then the
	# SIGSEGV, then the death; $_siginfo at each signal stop (qXfer:siginfo)
	set -- -ex "break $(mark gdbsignals.c raise)" -ex 'CONTINUE' -ex 'signal SIGUSR1' \
		-ex 'continue' -ex 'p spins' -ex 'p $_siginfo.si_signo' \
		-ex 'p $_siginfo.si_code' -ex 'continue' -ex 'p spins' \
		-ex 'p $_siginfo.si_signo' -ex 'p $_siginfo.si_code' \
		-ex 'p/d (long)$_siginfo._sifields._sigfault.si_addr' -ex 'bt' -ex 'continue'
	# the function raise(3) stops in is the ABI's own (i386: the vDSO's
	# __kernel_vsyscall): named FUNCTION on both sides against a twin
	if [ -n "${ref_is_twin:-}" ]; then
		echo "note: the function of the raise stop not compared (the twin's libc is x86_64's)"
		twin_frames=1
	fi
	;;
exec)
	# fork and vfork (the children let go: "[Detaching after fork from
	# child process N]"), an exec of the program itself, which forks and
	# vforks again (gdb's fork events went on into the new image), then
	# an exec of gdbprog of the same ABI: gdb reloads the symbols and the
	# pending breakpoint is found there
	set -- -ex 'set breakpoint pending on' -ex 'tbreak main' -ex 'break after_fork' \
		-ex 'break leaf' -ex 'CONTINUE' -ex 'continue' -ex 'p status' \
		-ex 'continue' -ex 'p status' -ex 'continue' -ex 'p status' \
		-ex 'continue' -ex 'p status' -ex 'continue' \
		-ex 'bt' -ex 'p counter' -ex 'delete' -ex 'continue'
	;;
libraries)
	# the shared libraries gdb found: with qXfer:libraries-svr4 (the
	# remote session's packet log must show gdb got libc from it)
	set -- -ex 'break leaf' -ex 'CONTINUE' -ex 'info sharedlibrary' \
		-ex 'info symbol puts' -ex 'bt' -ex 'continue'
	packet_log=1
	;;
threads|threadlist)
	# from main on: "[New Thread ...]" as natively, the brief thread's too
	# (stepped over with next; a create stop: the remote session asks
	# for QThreadEvents, which
	# gdb 13 never does itself in all-stop); gdb numbers threads in the
	# order it hears of them. threadlist: without qXfer:threads, gdb
	# lists the threads with qfThreadInfo/qsThreadInfo (and has no names)
	list=
	[ "$scenario" = threadlist ] && list='set remote threads-packet off' packet_log=1
	set -- ${list:+-ex "$list"} -ex 'tbreak main' -ex 'CONTINUE' -ex 'next' -ex 'next' \
		-ex 'break work' -ex 'continue' -ex 'bt 1' -ex 'p id' \
		-ex 'p results' -ex 'continue' -ex 'bt 1' -ex 'p id' -ex 'p results' \
		-ex 'delete' -ex "break $(mark gdbthreads.c joined)" -ex 'continue' -ex 'p results' \
		-ex 'info threads' -ex 'continue'
	;;
*)
	echo "gdb_session.sh: unknown scenario $scenario" >&2
	exit 2
	;;
esac

dir=$(mktemp -d /tmp/sg-gdb.XXXXXX)
trap 'rm -rf "$dir"' EXIT
sock=$dir/sock

# The arguments with CONTINUE as each side starts the program.
# The exec scenario's program takes itself and the gdbprog of its own ABI
# to exec.
guest_arg= ref_arg=
if [ "$scenario" = exec ]; then
	guest_arg="$guest $(dirname "$guest")/gdbprog-static-${guest##*-}"
	ref_arg="$ref $(dirname "$ref")/gdbprog-static-${ref##*-}"
fi
native_args() {
	for a in "$@"; do
		[ "$a" = CONTINUE ] && a="run $ref_arg >$dir/native.stdout"
		printf '%s\n' "$a"
	done
}
remote_args() {
	for a in "$@"; do
		[ "$a" = CONTINUE ] && a=continue
		printf '%s\n' "$a"
	done
}

# Lines -> arguments again (each line one argument).
run_gdb() { # OUT PROG SETUP... -- LINES-FILE
	out=$1 prog=$2 lines=$3
	shift 3
	set -- "$@"
	while IFS= read -r l; do set -- "$@" "$l"; done <"$lines"
	timeout 60 gdb -batch -nx -ex 'set pagination off' -ex 'set width 0' \
		-ex 'set startup-with-shell on' "$@" "$prog" >"$out" 2>&1 </dev/null
}

native_args "$@" >"$dir/native.lines"
remote_args "$@" >"$dir/remote.lines"
run_gdb "$dir/native.raw" "$ref" "$dir/native.lines"

# SG_GDB_TCP=1: `-g 0` (a free TCP port, which sysgate prints) instead of
# a Unix socket
if [ -n "${SG_GDB_TCP:-}" ]; then
	timeout 60 "$sysgate" -g 0 "$guest" $guest_arg >"$dir/remote.stdout" \
		2>"$dir/sysgate.stderr" &
	sg=$!
	target=
	n=0
	while [ -z "$target" ] && [ $n -lt 200 ]; do
		sleep 0.05
		n=$((n + 1))
		port=$(sed -n 's/^sysgate: waiting for gdb on port \([0-9]*\)$/\1/p' "$dir/sysgate.stderr")
		[ -n "$port" ] && target=localhost:$port
	done
else
	timeout 60 "$sysgate" --gdb-socket "$sock" "$guest" $guest_arg >"$dir/remote.stdout" \
		2>"$dir/sysgate.stderr" &
	sg=$!
	n=0
	while [ ! -S "$sock" ] && [ $n -lt 200 ]; do sleep 0.05; n=$((n + 1)); done
	target=$sock
fi
# Where the scenario asks, the remote session's packets go to a log of
# their own (debugredirect: not into the output compared).
connect=
case $scenario in threads | threadlist) connect='maint packet QThreadEvents:1' ;; esac
if [ -n "${packet_log:-}" ]; then
	run_gdb "$dir/remote.raw" "$guest" "$dir/remote.lines" \
		-ex "set logging file $dir/remote.log" -ex 'set logging debugredirect on' \
		-ex 'set logging enabled on' -ex 'set debug remote 1' -ex "target remote $target" \
		${connect:+-ex "$connect"}
else
	run_gdb "$dir/remote.raw" "$guest" "$dir/remote.lines" -ex "target remote $target" \
		${connect:+-ex "$connect"}
fi
wait $sg
sg_status=$?

# Left out: "[Thread ... exited]" (gdb 13 prints it for its native
# target only, never for a remote one, and takes no "w" stop reply in
# all-stop), "[Thread debugging using libthread_db enabled]" (native only),
# "[Switching to ...]" (ids).
normalise() {
	sed -n '/^\(Breakpoint\|Temporary breakpoint\|Thread .* hit Breakpoint\) 1, /,$p' "$1" |
	sed -e 's/^\(=> \)*ADDR <\(.*\)>:/\1<\2>:/' |
	grep -v -e '^\[Thread ' -e '^\[Switching to ' \
		-e '^Reading .* from remote target\.\.\.$' \
		-e '^Using host libthread_db' -e '^warning:' -e '^\[Inferior 1 (process [0-9]*) killed\]' |
	sed -e 's/0x[0-9a-f]\{1,16\}/ADDR/g' \
		-e 's/<\([A-Za-z_][A-Za-z0-9_.]*\)+[0-9]*>/<\1>/g' \
		-e 's/^pc  .*/pc/' \
		-e 's/^\([re]\(ax\|bx\|cx\|dx\|si\|di\|bp\|sp\|ip\)\|r[0-9]\{1,2\}\|[fg]s_base\) \{2,\}.*/\1/' \
		-e '/^k[0-7] \{2,\}/d' \
		-e 's/^\([A-Za-z_][A-Za-z0-9_]*\) + [0-9]* in section \([.a-z]*\).*/\1 + N in section \2/' \
		-e 's/\[Inferior 1 ([^)]*) /[Inferior 1 /' \
		-e 's/"\([a-z]*\)-\(i386\|x32\|x86_64\|x86_6\|x86_\)"/"\1-ABI"/g' \
		-e 's/ in ?? ()//' -e 's/^process [0-9]* is executing/process N is executing/' \
		-e 's/^\[New Thread [^]]*\]$/[New Thread N]/' \
		-e 's/^\[Detaching after \(v*fork\) from child process [0-9]*\]/[Detaching after \1 from child process N]/' \
		-e 's/^\(process N is executing new program: \).*\/\(gdbprog\|gdbexec\)-.*/\1\2/' |
	sed -E -e '/^  Id +Target Id/d' \
		-e 's/^(\*?) *([0-9]+) +Thread [^ ]+( \(LWP [0-9]+\))? *("[^"]*")? *([A-Za-z_][A-Za-z0-9_]* \(.*\) at .*)$/\1 \2 \4 \5/' \
		-e 's/( |^)target:\//\1\//g' | libraries_by_name | thread_names | signal_frames
}
signal_frames() {
	if [ -n "${twin_frames:-}" ]; then
		sed -e 's/^ADDR in [A-Za-z_][A-Za-z0-9_.]* ()$/ADDR in FUNCTION ()/'
	else
		cat
	fi
}
# threadlist: gdb has no thread names without qXfer:threads
thread_names() {
	if [ "$scenario" = threadlist ]; then
		sed -e 's/^\(Thread [0-9]*\) "[^"]*" hit /\1 hit /' -e 's/^\(\*\{0,1\} [0-9]*\) "[^"]*" /\1  /'
	else
		cat
	fi
}
# A reference of another ABI (the x86_64 twin) loads that ABI's libraries:
# compared by their names (ld-linux-x32.so.2 is the loader as
# ld-linux-x86-64.so.2 is), without whether gdb found their debug info.
libraries_by_name() {
	case ${guest##*-} in
	"${ref##*-}") cat ;;
	*) sed -E -e 's#/[^ ]*/((lib[a-z0-9_]*|ld-linux[a-z0-9_-]*)\.so\.[0-9]+)$#\1#' \
		-e 's#/[^ ]*/((lib[a-z0-9_]*|ld-linux[a-z0-9_-]*)\.so\.[0-9]+) #\1 #' \
		-e 's/^ld-linux[a-z0-9_-]*\.so/ld-linux.so/; s/ ld-linux[a-z0-9_-]*\.so/ ld-linux.so/' \
		-e 's/Yes \(\*\)/Yes    /' -e '/^\(\*\): Shared library is missing/d' \
		-e 's/^From +To +Syms Read/From To Syms Read/' ;;
	esac
}
normalise "$dir/native.raw" >"$dir/native.norm"
normalise "$dir/remote.raw" >"$dir/remote.norm"

fail=0
if [ ! -s "$dir/native.norm" ]; then
	echo "FAIL: the native gdb session stopped nowhere:"; cat "$dir/native.raw"; fail=1
elif ! diff -u "$dir/native.norm" "$dir/remote.norm"; then
	echo "FAIL: gdb under sysgate differs from gdb natively (- native, + sysgate)"
	fail=1
fi
# threadlist: after `set remote threads-packet off` (once connected) gdb
# lists the threads with qfThreadInfo
if [ "$scenario" = threadlist ] && ! grep -q 'Sending packet: \$qfThreadInfo' "$dir/remote.log"; then
	echo "FAIL: gdb did not list the threads with qfThreadInfo"
	fail=1
fi
# gdb took the list from qXfer:libraries-svr4: libc in the stub's reply,
# the reply parsed without a warning, and no link_map entry of it read
# through m packets (what gdb does without the packet, or when it rejects
# the reply)
if [ "$scenario" = libraries ]; then
	if ! grep -q 'Packet received: [ml]<library-list-svr4 .*<library name="[^"]*/libc\.so\.6"' \
		"$dir/remote.log"; then
		echo "FAIL: gdb got no library list with libc through qXfer:libraries-svr4:read"
		fail=1
	fi
	if grep 'while parsing target library list' "$dir/remote.raw"; then
		echo "FAIL: gdb rejected the stub's library list"
		fail=1
	fi
	for lm in $(grep -o ' lm="0x[0-9a-f]*"' "$dir/remote.log" | sort -u | sed 's/.*0x\([0-9a-f]*\)"/\1/'); do
		if grep -q "Sending packet: \\\$m$lm," "$dir/remote.log"; then
			echo "FAIL: gdb read the link_map entry at 0x$lm itself"
			fail=1
		fi
	done
fi
if ! cmp -s "$dir/native.stdout" "$dir/remote.stdout"; then
	echo "FAIL: the program's output differs:"; diff "$dir/native.stdout" "$dir/remote.stdout"
	fail=1
fi
# sysgate itself: ended with the program (not by the timeout), and no
# sanitizer report (the ASan build)
if [ $sg_status = 124 ] || grep -q -e 'AddressSanitizer' -e 'runtime error' \
	-e 'LeakSanitizer' "$dir/sysgate.stderr"; then
	echo "FAIL: sysgate ended with status $sg_status or a sanitizer report"
	fail=1
fi
if [ $fail = 1 ]; then
	echo "--- gdb under sysgate, raw:"; cat "$dir/remote.raw"
	echo "--- sysgate's stderr (status $sg_status):"; cat "$dir/sysgate.stderr"
	exit 1
fi
echo "PASS: $(wc -l <"$dir/native.norm") lines of gdb output the same"
exit 0
