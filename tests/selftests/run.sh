#!/bin/bash
# The kernel's own x86 selftests (tools/testing/selftests/x86 and vDSO of
# Debian's linux-source-6.1) built for i386 (-m32), x86_64 (-m64) and x32
# (-mx32, where they compile) with their Makefiles' flags, each run natively
# and under sysgate. One line per test and ABI, then a summary line.
#
#   tests/selftests/run.sh SYSGATE WORKDIR [NAME-REGEX]
#
# The oracle is the native run: i386 natively where the host runs i386
# programs (else "n/a": not compared), x32 against the -m64 build run
# natively (the host kernel may not run x32). A test is compared only where
# its native run passes. Tests a user-mode emulator cannot pass are listed,
# each with its reason, in docs/testing.md ("Expected differences"); they
# are reported by name and not counted as failures.
#
# Environment: SELFTEST_TIMEOUT (seconds per run, default 120).
# Exit: 0 no unexpected difference, 1 some, 77 the source package cannot be
# had (skipped), 2 bad use.
set -u
if [ $# -lt 2 ]; then
	echo "usage: $0 SYSGATE WORKDIR [NAME-REGEX]" >&2
	exit 2
fi
SYSGATE=$(readlink -f "$1")
WORK=$(mkdir -p "$2" && cd "$2" && pwd)
FILTER=${3:-.}
TIMEOUT=${SELFTEST_TIMEOUT:-120}
HERE=$(cd "$(dirname "$0")" && pwd)
DOC=$HERE/../../docs/testing.md
PKG=linux-source-6.1
TARBALL=/usr/src/$PKG.tar.xz
TOP=$WORK/src/$PKG
ST=$TOP/tools/testing/selftests

# --- the source: Debian's package, installed here only (130 MB) ----------
if [ ! -f "$TARBALL" ]; then
	echo "selftests: installing $PKG"
	SUDO=""
	[ "$(id -u)" = 0 ] || SUDO=sudo
	if ! { $SUDO apt-get update -qq &&
	       DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq \
		--no-install-recommends $PKG; } >"$WORK/install.log" 2>&1 ||
	   [ ! -f "$TARBALL" ]; then
		echo "selftests: skipped: $PKG cannot be installed (see $WORK/install.log)"
		exit 77
	fi
fi
stamp="$(stat -c %Y:%s "$TARBALL")"
if [ "$(cat "$WORK/src.stamp" 2>/dev/null)" != "$stamp" ]; then
	echo "selftests: extracting the selftests from $TARBALL"
	rm -rf "$WORK/src" "$WORK"/bin-* "$WORK/build.stamp"
	mkdir -p "$WORK/src"
	tar -xJf "$TARBALL" -C "$WORK/src" --wildcards \
		"$PKG/tools/testing/selftests/x86/*" \
		"$PKG/tools/testing/selftests/vDSO/*" \
		"$PKG/tools/testing/selftests/lib.mk" \
		"$PKG/tools/testing/selftests/kselftest*" \
		"$PKG/tools/include/*" \
		"$PKG/arch/x86/include/asm/desc_defs.h" || exit 1
	echo "$stamp" >"$WORK/src.stamp"
fi

# --- the build: each ABI with the Makefiles' own rules and flags ----------
# x32: the x86 Makefile knows -m32 and -m64 only; its 64-bit rules are run
# with a compiler that turns -m64 into -mx32 (outputs keep the _64 name).
cat >"$WORK/cc-x32" <<'CC'
#!/bin/sh
for a in "$@"; do [ "$a" = -m64 ] && a=-mx32; set -- "$@" "$a"; shift; done
exec gcc -mx32 "$@"
CC
chmod +x "$WORK/cc-x32"

is_elf() { [ "$(head -c 4 "$1" 2>/dev/null | od -An -c | tr -d ' ')" = '177ELF' ]; }

build_abi() { # abi x86-target cc vdso-cc
	local abi=$1 out=$WORK/bin-$1
	mkdir -p "$out"
	make -s -k -j2 -C "$ST/x86" OUTPUT="$out" CC="$3" "$2" >"$out/build.log" 2>&1
	make -s -k -j2 -C "$ST/vDSO" OUTPUT="$out" CC="$4" >>"$out/build.log" 2>&1
	# A failed compile of "x.c helpers.h -o x" leaves a precompiled header.
	for f in "$out"/*; do
		[ -f "$f" ] && [ "${f%.log}" = "$f" ] && ! is_elf "$f" && rm -f "$f"
	done
}
if [ "$(cat "$WORK/build.stamp" 2>/dev/null)" != "$stamp" ]; then
	echo "selftests: building (i386, x86_64, x32)"
	build_abi i386 all_32 gcc "gcc -m32"
	build_abi x86_64 all_64 gcc "gcc -m64"
	build_abi x32 all_64 "$WORK/cc-x32" "$WORK/cc-x32"
	gcc -m32 -o "$WORK/probe-i386" "$ST/x86/trivial_32bit_program.c" 2>/dev/null
	echo "$stamp" >"$WORK/build.stamp"
fi

# --- expected differences: the table in docs/testing.md -------------------
# Rows "| `name` | ABIs | reason |" under "### Expected differences".
EXPECTED=$(awk '/^### Expected differences/ { on = 1; next }
	on && /^#/ { exit }
	on && /^\| `/ { n = split($0, c, "|"); name = c[2]; abis = c[3]; why = c[4]
		gsub(/[` ]/, "", name); gsub(/^ +| +$/, "", abis); gsub(/^ +| +$/, "", why)
		print name "|" abis "|" why }' "$DOC")
expected_reason() { # name abi -> reason, or nothing
	local line name abis why
	while IFS='|' read -r name abis why; do
		[ "$name" = "$1" ] || continue
		case " $abis " in *" all "*|*" $2 "*) echo "$why"; return ;; esac
	done <<<"$EXPECTED"
}

# --- running --------------------------------------------------------------
result() { # exit status -> pass, skip, fail(N), timeout, signal N
	case $1 in
	0) echo pass ;;
	4) echo skip ;;         # KSFT_SKIP
	124) echo timeout ;;
	12[6-7]) echo "cannot-run($1)" ;;
	*) if [ "$1" -gt 128 ]; then echo "signal$(($1 - 128))"; else echo "fail($1)"; fi ;;
	esac
}
run_one() { # log cmd... -> result
	local log=$1; shift
	(cd "$WORK/run" && exec timeout -k 5 "$TIMEOUT" "$@" </dev/null >"$log" 2>&1)
	result $?
}
skips() { grep -c '^\[SKIP\]' "$1" 2>/dev/null; }

mkdir -p "$WORK/logs" "$WORK/run"
can_i386=0
"$WORK/probe-i386" >/dev/null 2>&1 && can_i386=1
passed=0 failed=0 skipped=0 expected=0
declare -A native64
printf '%-30s %-7s %-12s %-12s %s\n' TEST ABI NATIVE SYSGATE VERDICT
for abi in i386 x86_64 x32; do
	for bin in "$WORK/bin-$abi"/*; do
		[ -x "$bin" ] && [ -f "$bin" ] || continue
		name=$(basename "$bin")
		[[ $name =~ $FILTER ]] || continue
		test=${name%_32}; test=${test%_64}
		log=$WORK/logs/$name-$abi
		case $abi in
		i386)
			if [ $can_i386 = 1 ]; then nat=$(run_one "$log.native" "$bin")
			else nat=n/a; fi ;;
		x86_64)
			nat=$(run_one "$log.native" "$bin"); native64[$name]=$nat ;;
		x32)
			nat=${native64[$name]:-n/a} ;;   # the -m64 build, natively
		esac
		why=$(expected_reason "$test" "$abi")
		# a listed test can hang where its premise fails (syscall_numbering
		# waits for ever for a tracee): its result is not compared
		if [ -n "$why" ]; then
			sg=$(TIMEOUT=15 run_one "$log.sysgate" "$SYSGATE" "$bin")
		else
			sg=$(run_one "$log.sysgate" "$SYSGATE" "$bin")
		fi
		if [ "$nat" != pass ]; then
			verdict="not compared (native $nat)"; skipped=$((skipped + 1))
		elif [ "$sg" = pass ]; then
			verdict=PASS; passed=$((passed + 1))
			[ -n "$why" ] && verdict="PASS (listed as an expected difference)"
			# a pass by skipping parts the native run did
			ref=$log.native
			[ $abi = x32 ] && ref=$WORK/logs/$name-x86_64.native
			more=$(( $(skips "$log.sysgate") - $(skips "$ref") ))
			[ $more -gt 0 ] && verdict="$verdict, $more more [SKIP] than native"
		elif [ -n "$why" ]; then
			verdict="expected difference: $why"; expected=$((expected + 1))
		else
			verdict=FAIL; failed=$((failed + 1))
		fi
		printf '%-30s %-7s %-12s %-12s %s\n' "$name" "$abi" "$nat" "$sg" "$verdict"
	done
done
echo "selftests: $expected expected differences (docs/testing.md), logs in $WORK/logs"
echo "selftests: $passed passed, $failed failed, $skipped skipped"
[ $failed = 0 ]
