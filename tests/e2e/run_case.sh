#!/bin/sh
# run_case.sh [OPTION]... SYSGATE GUEST [ARG]...
# run_case.sh --no-guest [OPTION]... SYSGATE      (CLI checks: --opt only)
#
# Run GUEST under SYSGATE and check it against an oracle that is never
# sysgate itself: a native run of a reference program (--ref: the same
# program for i386/x86_64, the -m64 twin for x32), or an expected-output
# file plus status (--expect, --status). Stdout and the exit status are
# compared; a mismatch prints a unified diff of stdout and sysgate's stderr.
# One line "reference: ..." says which oracle the case used.
# Exit status 0: pass; 1: fail; 2: bad use of this script; 77: skipped (the
# host cannot run --ref and the case has no fallback oracle).
#
# A host without IA32 emulation cannot run an i386 --ref (exec: ENOEXEC) or
# `int $0x80` from 64-bit code (SIGSEGV). --probe PROG names a tiny program
# that exits 0 natively exactly where the host can run --ref; it is run once,
# before anything else. When it exits otherwise, the fallback replaces --ref:
# --ref-twin (the same source built for x86_64, as x32 cases always use) or
# --ref-expect (an expected-output file, with --status). With the twin, both
# runs get E2E_REF_TWIN=1 in their environment: a guest program then leaves
# out the checks only its own ABI has (the i386-only system calls), for
# which the twin is no oracle. --ref-emulator CMD (qemu-i386) is the last
# fallback, for the few cases checked to give the native output under it:
# --ref run under CMD, where CMD is installed.
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
#   --expect FILE        expected stdout (use with --status); leading lines
#                        starting with '#' are the file's comment, not output
#   --probe PROG         run natively first; status 0: the host can run --ref
#   --ref-twin PROG      reference when the probe fails: the x86_64 twin
#   --twin-sed SCRIPT    sed script applied to the twin's stdout (only for a
#                        difference the kernel documents, e.g. AT_PLATFORM)
#   --twin-check CMD     sh command that must exit 0 for the twin to be a
#                        valid oracle (else skip, 77), e.g. same versions
#   --ref-expect FILE    expected stdout when the probe fails (as --expect)
#   --ref-emulator CMD   when the probe fails: --ref run under CMD (a
#                        qemu-user); skipped (77) where CMD is not installed
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
probe= twin= twinsed= twincheck= refexpect= emulator=
nl='
'
while [ $# -gt 0 ]; do
	case $1 in
	--no-guest) noguest=1; shift ;;
	--ref) ref=$2; shift 2 ;;
	--expect) expect=$2; shift 2 ;;
	--probe) probe=$2; shift 2 ;;
	--ref-twin) twin=$2; shift 2 ;;
	--twin-sed) twinsed=$2; shift 2 ;;
	--twin-check) twincheck=$2; shift 2 ;;
	--ref-expect) refexpect=$2; shift 2 ;;
	--ref-emulator) emulator=$2; shift 2 ;;
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
[ -n "$twin" ] && [ -n "$refexpect" ] && die "--ref-twin and --ref-expect exclude each other"
[ -n "$twin$refexpect$emulator" ] && [ -z "$probe" ] && die "a fallback needs --probe"
[ -n "$emulator" ] && [ -n "$twin$refexpect" ] && die "--ref-emulator excludes the other fallbacks"
[ -n "$probe" ] && [ -z "$ref" ] && die "--probe needs --ref"
[ -n "$refexpect" ] && [ -z "$status" ] && die "--ref-expect needs --status"
[ -x "$sysgate" ] || { echo "FAIL: $sysgate is not built"; exit 1; }

# The runs happen in other directories: name existing files absolutely.
abs() { case $1 in /*|'') echo "$1" ;; *) if [ -e "$1" ]; then echo "$PWD/$1"; else echo "$1"; fi ;; esac; }
sysgate=$(abs "$sysgate") guest=$(abs "$guest") ref=$(abs "$ref") probe=$(abs "$probe")
twin=$(abs "$twin") stdin=$(abs "$stdin") expect=$(abs "$expect") refexpect=$(abs "$refexpect")

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sg-e2e.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/ref" "$tmp/sg"
ulimit -c 0 2>/dev/null

# Choose the oracle: the native --ref where the probe says the host runs
# it, else the fallback, else skip. Only the probe decides, never a
# failure of the reference itself, so a broken reference still fails.
why=
if [ -n "$probe" ]; then
	[ -x "$probe" ] || die "probe $probe is not built"
	(cd "$tmp" && env -i PATH=/usr/local/bin:/usr/bin:/bin sh -c '"$1"' sh "$probe" \
		</dev/null >/dev/null 2>&1)
	ps=$?
	if [ $ps != 0 ]; then
		why="the host is no oracle for $ref: probe $(basename "$probe") exited $ps"
		if [ -n "$twin" ]; then
			if [ -n "$twincheck" ] && ! msg=$(sh -c "$twincheck" 2>&1); then
				echo "SKIP: $why, and the twin $twin is no oracle: $msg"
				exit 77
			fi
			ref=$twin
			# both runs: a program may leave out what only its own
			# ABI has (i386-only calls), which the twin cannot show
			envs="${envs}E2E_REF_TWIN=1$nl"
		elif [ -n "$refexpect" ]; then
			ref= expect=$refexpect
		elif [ -n "$emulator" ]; then
			found=$(command -v "$emulator") || {
				echo "SKIP: $why, and its fallback oracle $emulator is not installed"
				exit 77
			}
			emulator=$found
		else
			echo "SKIP: $why, and the case has no fallback oracle"
			exit 77
		fi
	fi
fi
if [ -z "$why" ] && [ -n "$ref" ]; then
	echo "reference: $ref, native"
	emulator=
elif [ -n "$emulator" ]; then
	echo "reference: $ref under $emulator ($why)"
elif [ -n "$ref" ]; then
	echo "reference: $ref, the x86_64 twin${twinsed:+ (stdout through sed '$twinsed')} ($why)"
elif [ -n "$expect" ]; then
	echo "reference: $expect, status $status${why:+ ($why)}"
else
	echo "reference: status $status"
fi

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
	# SYSGATE_EXEC (host, inplace) reaches sysgate through env -i as
	# its option: the whole suite runs either way (docs/testing.md)
	[ -n "${SYSGATE_EXEC:-}" ] && set -- "--exec=$SYSGATE_EXEC" "$@"
	set -- "$sysgate" "$@"
	[ -n "$guest" ] && set -- "$@" "$p"
	eval "set -- \"\$@\" $case_args"
	run "$w" "$@"
}
ref_run() {
	w=$tmp/ref
	p=$(prog "$ref" "$w")
	set -- "$p"
	[ -n "$emulator" ] && set -- "$emulator" "$@"
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
	if [ -n "$why" ] && [ -n "$twinsed" ]; then
		sed "$twinsed" "$tmp/ref/out" >"$tmp/expected"
	else
		cp "$tmp/ref/out" "$tmp/expected"
	fi
else
	want=$status
	if [ -n "$expect" ]; then
		# the file's leading '#' lines say why its content is right
		awk 'out || !/^#/ { out = 1; print }' "$expect" >"$tmp/expected"
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
