#!/bin/sh
# strace_suite.sh [--fast] [--min PCT] [--min-programs N] [--only REGEX] BUILD [ABI]...
#
# `sysgate --trace -f` against `strace -f` over real programs per ABI
# (issue 18; compare_strace.sh does each comparison): the share of
# identical lines per program and per ABI, then the lines that differ
# counted by call, most frequent first (what to fix next).
#   x86_64: the host's programs (ls, cp, tar, python3, perl, bash, git,
#           find, id, env, sort) and the C guests
#   i386:   the Debian i386 root's programs (BUILD/i386-root, natively in
#           a chroot), the i386 busybox and the C guests; on a host that
#           cannot run i386 programs, the C guests against their x86_64
#           twins (the root's programs are skipped)
#   x32:    the C guests against their -m64 twins
# --fast: a few programs per ABI (the sanitizer tree's ctest cases).
# --min PCT: exit 1 when an ABI's share is below PCT, over all its
#   programs' lines or over all but the longest trace's.
# --min-programs N: exit 1 when fewer than N programs of an ABI were
#   compared (one skipped for want of a tool does not count).
# ABI: i386, x32, x86_64 (default: all three).
set -u
fast= min=0 min_progs=0 only=.
while [ $# -gt 0 ]; do
	case $1 in
	--fast) fast=1; shift ;;
	--min) min=$2; shift 2 ;;
	--min-programs) min_progs=$2; shift 2 ;;
	--only) only=$2; shift 2 ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || { echo "usage: $0 [--fast] [--min PCT] [--min-programs N] [--only RE] BUILD [ABI]..." >&2; exit 2; }
build=$(cd "$1" && pwd)
shift
[ $# -gt 0 ] || set -- x86_64 i386 x32
here=$(cd "$(dirname "$0")" && pwd)
sysgate=$build/sysgate
g=$build/guest
root=$build/i386-root
bb=$build/busybox
command -v strace >/dev/null || { echo "strace-suite: no strace, skipped"; exit 77; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# a tree to copy, archive and search; its times fixed, as tar records
# them (and gzip's output then differs from run to run, natively too)
TREE='mkdir -p src/a/b src/c && echo one > src/a/f1 && echo two > src/a/b/f2 &&
	printf "x%.0s" $(seq 1 300) > src/c/f3 && ln -s a/f1 src/link &&
	find src -exec touch -h -d @1600000000 {} +'
PY_FILES='import os
with open("f", "w") as f: f.write("hello\n" * 10)
with open("f") as f: print(len(f.read()))
os.rename("f", "g"); print(os.stat("g").st_size); os.unlink("g")
os.mkdir("d"); print(os.listdir(".")); os.rmdir("d")'
PY_SOCKETS='import socket
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", 0)); s.listen(1)
c = socket.create_connection(s.getsockname()); a, _ = s.accept()
c.sendall(b"ping"); print(a.recv(4)); a.close(); c.close(); s.close()
u = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); u.close()'
PY_THREADS='import threading
def work(n): sum(range(n))
ts = [threading.Thread(target=work, args=(1000,)) for i in range(3)]
[t.start() for t in ts]; [t.join() for t in ts]; print("done")'
PERL_FORK='my $p = fork; if ($p == 0) { exec "/bin/true" or die } waitpid($p, 0); print "child ", $? >> 8, "\n"'
BASH_PIPE='echo one two three | tr a-z A-Z | wc -c; x=$(head -1 /etc/passwd | wc -l); echo $x'
GIT_REPO='git init -q repo && cd repo && echo x > f && git -c user.name=a -c user.email=a@b add f &&
	git -c user.name=a -c user.email=a@b commit -q -m m && echo y > g'

# one NAME ABI COMPARE_ARGS...: run compare_strace.sh, keep its result
one() {
	name=$1 abi=$2
	shift 2
	echo "$name.$abi" | grep -Eq -- "$only" || return 0
	SG_TRACE_COMPARE_DIFF=1 sh "$here/compare_strace.sh" --name "$name.$abi" "$@" \
		>"$out/$name.$abi.log" 2>&1
	st=$?
	res=$(grep -E "^trace-compare $name.$abi[^:]*: [0-9]+/[0-9]+ lines" "$out/$name.$abi.log" | tail -1)
	if [ -n "$res" ]; then
		echo "$res" | sed -E 's/^trace-compare ([^:]*): ([0-9]+)\/([0-9]+).*/\1 \2 \3/' >>"$out/results.$abi"
		printf '  %-28s %s\n' "$name" "${res#*: }"
	elif [ $st -eq 77 ]; then
		printf '  %-28s skipped: %s\n' "$name" "$(tail -1 "$out/$name.$abi.log" | cut -c1-100)"
	else
		printf '  %-28s FAILED (%s)\n' "$name" "$(tail -1 "$out/$name.$abi.log" | cut -c1-100)"
		echo "$name.$abi 0 1" >>"$out/results.$abi"
	fi
	# the diff's lines: "-" strace's, "+" sysgate's
	sed -n '/^--- /d;/^+++ /d;/^[-+]/p' "$out/$name.$abi.log" >>"$out/diff.$abi"
}

# guest NAME PROG ABI [ARGS...]: a C guest of tests/guest or tests/e2e/trace
guest() {
	name=$1 prog=$2 abi=$3
	shift 3
	case $abi in
	x32) one "$name" x32 --abi-sizes 0 "$sysgate" "$g/$prog-x32" "$g/$prog-x86_64" "$@" ;;
	i386) one "$name" i386 --native-probe "$g/trace-native-i386" --twin "$g/$prog-x86_64" 0 \
		0 "$sysgate" "$g/$prog-i386" "$g/$prog-i386" "$@" ;;
	*) one "$name" x86_64 0 "$sysgate" "$g/$prog-x86_64" "$g/$prog-x86_64" "$@" ;;
	esac
}

guests() {
	abi=$1
	guest hello hello "$abi" one two
	guest structs trace-structs "$abi"
	guest abort trace-abort "$abi"
	guest threads trace-threads "$abi"
	[ -n "$fast" ] && return
	guest sockets trace-sockets "$abi"
	guest segv trace-segv "$abi"
	for s in sys_fs sys_time sys_ids sys_poll sys_net sys_fds sys_exec sys_ident sys_task sys_cwd sys_aio; do
		guest "$s" "$s" "$abi" .
	done
	guest files files "$abi"
	guest envp env "$abi"
	guest alloc alloc "$abi"
	guest strings strings "$abi"
}

# opts [--setup CMD] [--stdin FILE] --: into $setup and $stdin
opts() {
	setup= stdin=/dev/null nopts=0
	while [ "$1" != -- ]; do
		case $1 in
		--setup) setup=$2 ;;
		--stdin) stdin=$2 ;;
		esac
		shift 2
		nopts=$((nopts + 2))
	done
}

host() { # host NAME PROG [--setup CMD] [--stdin FILE] -- ARGS
	name=$1 prog=$2
	shift 2
	opts "$@"
	shift $((nopts + 1))
	if [ ! -x "$prog" ]; then
		printf '  %-28s skipped: no %s on this host\n' "$name" "$prog"
		return
	fi
	one "$name" x86_64 --setup "$setup" --stdin "$stdin" 0 "$sysgate" "$prog" "$prog" "$@"
}

run_x86_64() {
	host ls-l /bin/ls -- -l /
	host python3-files /usr/bin/python3 -- -c "$PY_FILES"
	host bash-pipeline /bin/bash -- -c "$BASH_PIPE"
	guests x86_64
	[ -n "$fast" ] && return
	host cp-r /bin/cp --setup "$TREE" -- -r src dst
	host tar-czf /bin/tar --setup "$TREE" -- czf out.tgz src
	host find /usr/bin/find --setup "$TREE" -- src
	host id /usr/bin/id --
	host env /usr/bin/env --
	host sort /usr/bin/sort --stdin "$here/trace_sockets.c" --
	host python3-sockets /usr/bin/python3 -- -c "$PY_SOCKETS"
	host python3-threads /usr/bin/python3 -- -c "$PY_THREADS"
	host perl-fork-exec /usr/bin/perl -- -e "$PERL_FORK"
	host git-status /usr/bin/git --setup "$GIT_REPO" -- -C repo status
	host python3-abort /usr/bin/python3 -- -c 'import os; os.abort()'
}

# i386 root program (dynamic, chroot natively)
rootp() { # rootp NAME PROG [--setup CMD] [--stdin FILE] -- ARGS
	name=$1 prog=$2
	shift 2
	opts "$@"
	shift $((nopts + 1))
	one "$name" i386 --native-probe "$g/trace-native-i386" --chroot "$root" \
		--setup "$setup" --stdin "$stdin" 0 "$sysgate" "$prog" "$prog" "$@"
}
busybox() { # busybox NAME [--setup CMD] [--stdin FILE] -- APPLET ARGS
	name=$1
	shift
	opts "$@"
	shift $((nopts + 1))
	sh "$here/../sys/get_busybox.sh" "$bb" >/dev/null 2>&1 || { printf '  %-28s skipped: no busybox\n' "bb-$name"; return; }
	one "bb-$name" i386 --native-probe "$g/trace-native-i386" --as busybox \
		--setup "$setup" --stdin "$stdin" 0 "$sysgate" "$bb/i386/bin/busybox" "$bb/i386/bin/busybox" "$@"
}

run_i386() {
	# /etc, not /: `sysgate -L` shows the host's / (docs/trace-format.md)
	rootp ls-l /bin/ls -- -l /etc
	rootp dash-pipeline /bin/sh -- -c "$BASH_PIPE"
	guests i386
	[ -n "$fast" ] && return
	rootp cp-r /bin/cp --setup "$TREE" -- -r src dst
	rootp id /usr/bin/id --
	rootp env /usr/bin/env --
	rootp sort /usr/bin/sort --stdin "$here/trace_sockets.c" --
	rootp uname /bin/uname -- -a
	rootp df /bin/df -- /
	rootp du /usr/bin/du --setup "$TREE" -- src
	busybox tar-czf --setup "$TREE" -- tar czf out.tgz src
	busybox find --setup "$TREE" -- find src
}

run_x32() {
	guests x32
}

status=0
for abi in "$@"; do
	if [ "$abi" = i386 ] && [ "$min" -gt 0 ] && ! "$g/trace-native-i386" >/dev/null 2>&1; then
		# the floor is for native i386 references; here the guests would
		# be compared with their x86_64 twins and the root's programs
		# skipped (compare_strace.sh --native-probe)
		echo "strace-suite i386: skipped: this host cannot run i386 programs natively"
		[ $# -eq 1 ] && exit 77
		continue
	fi
	echo "strace-suite $abi:"
	: >"$out/results.$abi"
	: >"$out/diff.$abi"
	"run_$abi"
	set -- $(awk '{s += $2; t += $3} END {print s + 0, t + 0}' "$out/results.$abi")
	same=$1 total=$2
	[ "$total" -gt 0 ] || { echo "strace-suite $abi: nothing compared"; continue; }
	nprogs=$(wc -l <"$out/results.$abi")
	# two decimals, as integer arithmetic
	pct=$((10000 * same / total))
	# and per program (a long trace such as sys_fds' weighs as much as
	# a short one): the mean of the programs' shares and the lowest
	progs=$(awk '{n++; m += 100 * $2 / $3; if (!lo || 100 * $2 / $3 < lo) {lo = 100 * $2 / $3; w = $1}}
		END {printf "%d programs, mean %.2f%%, lowest %.2f%% (%s)", n, m / n, lo, w}' "$out/results.$abi")
	printf 'strace-suite %s: %d/%d lines identical (%d.%02d%%); %s\n' "$abi" "$same" "$total" \
		$((pct / 100)) $((pct % 100)) "$progs"
	# and without the longest trace (sys_fds: 21 000 of the lines), so
	# that one program cannot carry the share
	set -- $(sort -k3,3n "$out/results.$abi" | sed '$d' |
		awk '{s += $2; t += $3} END {print s + 0, t + 0}') $(sort -k3,3n "$out/results.$abi" | tail -1)
	rest_pct=10000
	[ "$2" -gt 0 ] && rest_pct=$((10000 * $1 / $2))
	printf 'strace-suite %s: without the longest (%s): %d/%d lines identical (%d.%02d%%)\n' "$abi" \
		"$3" "$1" "$2" $((rest_pct / 100)) $((rest_pct % 100))
	if [ -s "$out/diff.$abi" ]; then
		echo "strace-suite $abi: differing lines by call (strace's -, sysgate's +):"
		sed -E 's/^([-+])(\+\+\+ |--- )?([a-z_0-9]+|<\.\.\.)?.*/\1 \2\3/' "$out/diff.$abi" |
			sort | uniq -c | sort -rn | head -${SG_SUITE_TOP:-25} | sed 's/^/   /'
	fi
	[ -n "${SG_SUITE_KEEP:-}" ] && cp "$out/diff.$abi" "$SG_SUITE_KEEP.$abi"
	[ -n "${SG_SUITE_LOGS:-}" ] && mkdir -p "$SG_SUITE_LOGS" && cp "$out"/*."$abi".log "$SG_SUITE_LOGS"/
	if [ $((pct / 100)) -lt "$min" ] || [ $((rest_pct / 100)) -lt "$min" ]; then
		echo "strace-suite $abi: below $min%" >&2
		status=1
	fi
	if [ "$nprogs" -lt "$min_progs" ]; then
		echo "strace-suite $abi: $nprogs programs compared, fewer than $min_progs" >&2
		status=1
	fi
done
exit $status
