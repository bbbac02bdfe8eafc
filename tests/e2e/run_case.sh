#!/bin/sh
# run_case.sh [OPTION]... SYSGATE GUEST [ARG]...
# run_case.sh --no-guest [OPTION]... SYSGATE      (CLI checks: --opt only)
#
# Run GUEST under SYSGATE and check it against an oracle that is never
# sysgate itself: a native run of a reference program (--ref: the same
# program for i386/x86_64, the -m64 twin for x32), or an expected-output
# file plus status (--expect, --status). Stdout and the exit status are
# compared; a mismatch prints a unified diff of stdout and sysgate's stderr.
# Exit status 0: pass; 1: fail; 2: bad use of this script.
#
# Both runs start in their own empty directory with the same environment
# (env -i, PATH plus --env) and stdin (--stdin, else /dev/null), under
# `sh -c`, so the status is what a shell sees (128+N for signal N). With
# --ref or --expect, both programs are run as ./prog (a symlink), so argv[0]
# and AT_EXECFN are the same. In ARGs and --opt, @WORK@ is replaced by the
# run's directory.
#
# Options:
#   --ref PROG           native reference program
#   --expect FILE        expected stdout (use with --status)
#   --status N           expected exit status (with --expect, or alone)
#   --stdin FILE         stdin for both runs
#   --env NAME=VALUE     add to the environment of both runs (repeatable)
#   --opt OPTION         sysgate option before GUEST (repeatable)
#   --no-guest           run SYSGATE with its --opt options only
#   --stdout-grep ERE    sysgate's stdout must have a line matching ERE
#   --stderr-grep ERE    sysgate's stderr must have a line matching ERE
#   --stderr-nogrep ERE  ... and must have none matching ERE
#   --stderr-lines N     sysgate's stderr must have exactly N lines
#   --stderr-addr SYM ERE  a stderr line must name the address of GUEST's
#                        symbol SYM (hex, from nm) and match ERE
#   --file-grep FILE ERE  @WORK@/FILE (after the sysgate run) must have a
#                        line matching ERE
set -u

die() { echo "run_case.sh: $*" >&2; exit 2; }

noguest= ref= expect= status= stdin=/dev/null envs= opts_n=0 checks=
nl='
'
while [ $# -gt 0 ]; do
	case $1 in
	--no-guest) noguest=1; shift ;;
	--ref) ref=$2; shift 2 ;;
	--expect) expect=$2; shift 2 ;;
	--status) status=$2; shift 2 ;;
	--stdin) stdin=$2; shift 2 ;;
	--env) envs="$envs$2$nl"; shift 2 ;;
	--opt) eval "opt_$opts_n=\$2"; opts_n=$((opts_n + 1)); shift 2 ;;
	--stdout-grep|--stderr-grep|--stderr-nogrep|--stderr-lines)
		checks="$checks${1#--}	$2$nl"; shift 2 ;;
	--stderr-addr|--file-grep)
		checks="$checks${1#--}	$2	$3$nl"; shift 3 ;;
	--) shift; break ;;
	-*) die "unknown option $1" ;;
	*) break ;;
	esac
done
if [ -n "$noguest" ]; then
	[ $# -eq 1 ] || die "usage: run_case.sh --no-guest [OPTION]... SYSGATE"
	sysgate=$1 guest=
	shift
	[ -z "$ref$expect" ] || die "--no-guest takes no --ref or --expect"
else
	[ $# -ge 2 ] || die "usage: run_case.sh [OPTION]... SYSGATE GUEST [ARG]..."
	sysgate=$1 guest=$2
	shift 2
fi
[ -n "$ref" ] && [ -n "$expect" ] && die "--ref and --expect exclude each other"
[ -z "$ref" ] && [ -z "$status" ] && die "no oracle: give --ref, or --status"
[ -x "$sysgate" ] || { echo "FAIL: $sysgate is not built"; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sg-e2e.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/ref" "$tmp/sg"
ulimit -c 0 2>/dev/null

# run DIR PROGRAM [SYSGATE-OPTIONS]: run in DIR with the case's arguments,
# environment and stdin; leave out/err/status in DIR.
run() {
	dir=$1
	shift
	(
		cd "$dir" || exit 2
		IFS=$nl
		# shellcheck disable=SC2086 # split the env list on newlines only
		env -i PATH=/usr/local/bin:/usr/bin:/bin $envs sh -c '"$@"' sh "$@" \
			<"$stdin" >out 2>err
		echo $? >status
	)
}

# The case's arguments, @WORK@ replaced; appended to a command by `args`.
subst() { printf '%s\n' "$1" | sed "s|@WORK@|$2|g"; }

prog() { # PROGRAM DIR -> how the program is named in the run
	if [ -n "$ref" ] || [ -n "$expect" ]; then
		ln -s "$1" "$2/prog" && echo ./prog
	else
		echo "$1"
	fi
}

# Build the sysgate command line in positional parameters, in a subshell.
sg_run() {
	w=$tmp/sg
	p=
	[ -n "$guest" ] && p=$(prog "$guest" "$w")
	set --
	i=0
	while [ $i -lt $opts_n ]; do
		eval "o=\$opt_$i"
		set -- "$@" "$(subst "$o" "$w")"
		i=$((i + 1))
	done
	set -- "$sysgate" "$@"
	[ -n "$guest" ] && set -- "$@" "$p"
	eval "set -- \"\$@\" $case_args"
	run "$w" "$@"
}
ref_run() {
	w=$tmp/ref
	p=$(prog "$ref" "$w")
	set -- "$p"
	eval "set -- \"\$@\" $case_args"
	run "$w" "$@"
}

# Quote the case's arguments once, with @WORK@ left for eval to expand.
case_args=
for a in "$@"; do
	q=$(printf '%s' "$a" | sed "s/'/'\\\\''/g; s|@WORK@|'\"\$w\"'|g")
	case_args="$case_args '$q'"
done

shown="$sysgate $guest $*"
fail=0
say() { echo "FAIL: $*"; fail=1; }

sg_run
sgs=$(cat "$tmp/sg/status")
if [ -n "$ref" ]; then
	ref_run
	want=$(cat "$tmp/ref/status")
	[ -n "$status" ] && [ "$want" != "$status" ] &&
		say "native reference exited $want, the case expects $status (bad reference?)"
	cp "$tmp/ref/out" "$tmp/expected"
else
	want=$status
	if [ -n "$expect" ]; then
		cp "$expect" "$tmp/expected"
	fi
fi

if [ "$sgs" != "$want" ]; then
	case $sgs in
	134|135|136|139) say "sysgate crashed? exit status $sgs (signal $((sgs - 128))), expected $want" ;;
	*) say "exit status $sgs, expected $want" ;;
	esac
fi
if [ -f "$tmp/expected" ] && ! cmp -s "$tmp/expected" "$tmp/sg/out"; then
	say "stdout differs (--- expected, +++ sysgate):"
	diff -u "$tmp/expected" "$tmp/sg/out" | sed '1,2d' | head -100
fi

err=$tmp/sg/err
oldifs=$IFS
IFS=$nl
for c in $checks; do
	IFS='	'
	set -- $c
	IFS=$nl
	case $1 in
	stdout-grep)
		grep -Eq -- "$2" "$tmp/sg/out" || say "no stdout line matches /$2/" ;;
	stderr-grep)
		grep -Eq -- "$2" "$err" || say "no stderr line matches /$2/" ;;
	stderr-nogrep)
		! grep -Eq -- "$2" "$err" || say "a stderr line matches /$2/, and should not" ;;
	stderr-lines)
		n=$(wc -l <"$err" | tr -d ' ')
		[ "$n" = "$2" ] || say "stderr has $n lines, expected $2" ;;
	stderr-addr)
		addr=$(nm "$guest" | awk -v s="$2" '$3 == s { print $1 }' | sed 's/^0*//')
		[ -n "$addr" ] || die "no symbol $2 in $guest"
		grep -Ei -- "(0x|[^0-9a-f]|^)0*$addr([^0-9a-f]|\$)" "$err" | grep -Eqi -- "$3" ||
			say "no stderr line names address $addr (symbol $2) and matches /$3/" ;;
	file-grep)
		if [ ! -f "$tmp/sg/$2" ]; then
			say "sysgate wrote no file $2"
		else
			grep -Eq -- "$3" "$tmp/sg/$2" || say "no line of $2 matches /$3/"
		fi ;;
	esac
done
IFS=$oldifs

if [ $fail = 0 ]; then
	echo "PASS (status $sgs)"
	exit 0
fi
echo "--- case: $shown"
echo "--- sysgate stderr (first 40 lines):"
head -40 "$err"
exit 1
