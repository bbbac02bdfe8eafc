#!/bin/bash
# bench/run.sh BUILD_DIR: every workload natively, under sysgate and under
# qemu-user, interleaved, REPS times; then one table of medians, the ratios
# to native and to qemu, and peak RSS. `make bench` runs it on the release
# tree. Environment:
#	REPS=N     repetitions (default 5)
#	SMALL=1    sizes / 8, for a quick look
#	FULL=1     the issue's sizes (sha256 of 32 MiB, gzip of 16 MiB)
#	ONLY=RE    only the workloads whose name matches the regex RE
#	SG_REV=... the revision to print (default: git describe of this tree)
#	COUNT=1    no timing: host instructions per guest instruction of each
#	           workload under sysgate, noise-free, for every ABI (below)
# A workload that fails under sysgate (or qemu) is measured no further
# there and shows "fails (reason)": the run goes on.
set -u
BUILD=$(cd "${1:-build}" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
REPS=${REPS:-5}
SMALL=${SMALL:-0}
FULL=${FULL:-0}
ONLY=${ONLY:-.}
SG=$BUILD/sysgate
W=$BUILD/bench
LIMIT=300 # seconds: one run longer than this counts as a hang

# Sizes, chosen so the default `make bench` takes under ten minutes at the
# interpreter's speed of December 2026 (about 100x native on hashing) on a
# 2-CPU machine; FULL=1 takes about half an hour.
SHA_MIB=4 GZIP_MIB=2 QSORT_N=200000 SYS_N=100000 TIME_N=100000
START_N=20 FORK_N=300 PERL_N=250000 PY_N=80000
if [ "$FULL" = 1 ]; then
	SHA_MIB=32 GZIP_MIB=16
fi
if [ "$SMALL" = 1 ]; then
	SHA_MIB=1 GZIP_MIB=1 QSORT_N=40000 SYS_N=20000 TIME_N=20000
	START_N=5 FORK_N=40 PERL_N=40000 PY_N=15000
fi

die() { echo "bench: $*" >&2; exit 1; }
[ -x "$SG" ] || die "$SG not built"
mkdir -p "$W/bin" "$W/data" "$W/out"
sh "$HERE/setup.sh" "$W"

# --- programs -------------------------------------------------------------
CC=${CC:-gcc}
GCFLAGS="-static -O2 -Wall -Wextra -Werror -fno-pie -no-pie"
declare -A MFLAG=([i386]=-m32 [x32]=-mx32 [x86_64]=-m64)
for p in sha256 qsort sysloop timeloop nop; do
	for abi in i386 x32 x86_64; do
		out=$W/bin/$p-$abi
		[ "$out" -nt "$HERE/src/$p.c" ] && continue
		$CC ${MFLAG[$abi]} $GCFLAGS -o "$out" "$HERE/src/$p.c" || die "cannot build $p-$abi"
	done
done
for p in runner mktext; do
	[ "$W/bin/$p" -nt "$HERE/src/$p.c" ] ||
		$CC -O2 -Wall -Wextra -Werror -o "$W/bin/$p" "$HERE/src/$p.c" || die "cannot build $p"
done
RUNNER=$W/bin/runner
for mib in $SHA_MIB $GZIP_MIB; do
	[ -s "$W/data/text-$mib" ] || "$W/bin/mktext" "$mib" >"$W/data/text-$mib"
done
printf 'i=0\nwhile [ $i -lt %s ]; do "$1" true; i=$((i+1)); done\n' "$FORK_N" >"$W/bin/forkexec.sh"
cat >"$W/bin/compute.pl" <<'EOF'
my ($n, $s, %h) = ($ARGV[0], 0);
for my $i (1 .. $n) { $s = ($s * 31 + $i) % 1000003; $h{$i % 1000} += $s; }
print "$s ", scalar(keys %h), "\n";
EOF
cat >"$W/bin/compute.py" <<'EOF'
import sys
n, s, h = int(sys.argv[1]), 0, {}
for i in range(n):
    s = (s * 31 + i) % 1000003
    h[i % 1000] = h.get(i % 1000, 0) + s
print(s, len(h))
EOF

# --- workloads --------------------------------------------------------------
# add NAME ABI RUNS STDIN STDOUT NATIVE-CMD GUEST-CMD
# Commands are word-split (no spaces in paths). STDOUT "file" keeps the
# output and checks it against the native run's; otherwise a path.
declare -a WL_NAME WL_ABI WL_RUNS WL_IN WL_OUT WL_NATIVE WL_GUEST
add() {
	[[ $1 =~ $ONLY ]] || return 0
	WL_NAME+=("$1") WL_ABI+=("$2") WL_RUNS+=("$3") WL_IN+=("$4") WL_OUT+=("$5")
	WL_NATIVE+=("$6") WL_GUEST+=("$7")
}
B=$W/bin
# A host without IA32 emulation cannot run i386 programs (exec fails):
# there the i386 rows' native column is the x86_64 build, as for x32.
I386_NATIVE=1
"$B/nop-i386" >/dev/null 2>&1 || I386_NATIVE=0
twin() { # the native stand-in of an ABI
	case $1 in
	x32) echo x86_64 ;;
	i386) [ $I386_NATIVE = 1 ] && echo i386 || echo x86_64 ;;
	*) echo "$1" ;;
	esac
}
SHA_IN=$W/data/text-$SHA_MIB GZ_IN=$W/data/text-$GZIP_MIB
for abi in i386 x32 x86_64; do
	n=$(twin $abi)
	add "start-up (nop, per run)" $abi $START_N /dev/null file "$B/nop-$n" "$B/nop-$abi"
	add "sha256 own ${SHA_MIB} MiB" $abi 1 /dev/null file "$B/sha256-$n $SHA_IN" "$B/sha256-$abi $SHA_IN"
	add "qsort ${QSORT_N} ints" $abi 1 /dev/null file "$B/qsort-$n $QSORT_N" "$B/qsort-$abi $QSORT_N"
	add "read+write 1 B x${SYS_N}" $abi 1 /dev/zero /dev/null "$B/sysloop-$n $SYS_N" "$B/sysloop-$abi $SYS_N"
	add "getppid+clock_gettime x${TIME_N}" $abi 1 /dev/null file "$B/timeloop-$n $TIME_N" "$B/timeloop-$abi $TIME_N"
done
declare -A BBARCH=([i386]=i386 [x86_64]=amd64)
for abi in i386 x86_64; do
	bb=$W/busybox/${BBARCH[$abi]}/bin/busybox
	[ -x "$bb" ] || continue
	nb=$bb # native stand-in
	[ $abi = i386 ] && [ $I386_NATIVE = 0 ] && nb=$W/busybox/amd64/bin/busybox
	add "start-up (busybox true)" $abi $START_N /dev/null file "$nb true" "$bb true"
	add "busybox sha256sum ${SHA_MIB} MiB" $abi 1 /dev/null file "$nb sha256sum $SHA_IN" "$bb sha256sum $SHA_IN"
	add "busybox gzip ${GZIP_MIB} MiB" $abi 1 "$GZ_IN" file "$nb gzip -c" "$bb gzip -c"
	add "busybox dd bs=1 x${SYS_N}" $abi 1 /dev/zero /dev/null "$nb dd bs=1 count=$SYS_N" "$bb dd bs=1 count=$SYS_N"
	add "sh: ${FORK_N} fork+exec" $abi 1 /dev/null file "$nb sh $B/forkexec.sh $nb" "$bb sh $B/forkexec.sh $bb"
done
# Host programs (dynamic: the interpreter, libc and libperl/libpython).
add "gzip -6 ${GZIP_MIB} MiB (host)" x86_64 1 "$GZ_IN" file "/bin/gzip -c" "/bin/gzip -c"
add "perl compute (host)" x86_64 1 /dev/null file "/usr/bin/perl $B/compute.pl $PERL_N" "/usr/bin/perl $B/compute.pl $PERL_N"
add "python3 compute (host)" x86_64 1 /dev/null file "/usr/bin/python3 $B/compute.py $PY_N" "/usr/bin/python3 $B/compute.py $PY_N"
add "python3 -c pass (host)" x86_64 1 /dev/null file "/usr/bin/python3 -c pass" "/usr/bin/python3 -c pass"
# AES-NI and SHA (docs/cpu.md): OpenSSL's own code paths for them
OSSL_KEY="-K 000102030405060708090a0b0c0d0e0f -iv 00000000000000000000000000000000"
# AES-128-GCM through libcrypto (bench/src/gcm.c: `openssl speed -evp
# aes-128-gcm`'s work, fixed), where its headers are (libssl-dev)
if [ -f /usr/include/openssl/evp.h ] &&
   { [ "$W/bin/gcm" -nt "$HERE/src/gcm.c" ] ||
     $CC -O2 -Wall -Wextra -Werror -o "$W/bin/gcm" "$HERE/src/gcm.c" -lcrypto; }; then
	add "openssl aes-128-gcm ${SHA_MIB} MiB (host libcrypto)" x86_64 1 /dev/null file \
		"$W/bin/gcm $SHA_MIB" "$W/bin/gcm $SHA_MIB"
fi
if command -v openssl >/dev/null; then
	add "openssl aes-128-cbc ${SHA_MIB} MiB (host)" x86_64 1 /dev/null file \
		"/usr/bin/openssl enc -aes-128-cbc $OSSL_KEY -in $SHA_IN" "/usr/bin/openssl enc -aes-128-cbc $OSSL_KEY -in $SHA_IN"
	add "openssl sha256 ${SHA_MIB} MiB (host)" x86_64 1 /dev/null file \
		"/usr/bin/openssl dgst -sha256 $SHA_IN" "/usr/bin/openssl dgst -sha256 $SHA_IN"
fi
if command -v clang >/dev/null; then
	clang_bin=$(readlink -f "$(command -v clang)")
	add "clang --version (host)" x86_64 1 /dev/null file "$clang_bin --version" "$clang_bin --version"
fi

# --- COUNT=1: host instructions per guest instruction -----------------------
# Guest instructions: one run with --stats. Host instructions: one run of
# sysgate itself as an x86_64 guest of sysgate --stats (the outer's guest
# instructions are the inner's host instructions, the same count callgrind
# gives, within 0.3%), which works for i386 and x32 guests too, where
# valgrind cannot. Both are sums over every process of the run.
stats_sum() { # stats_sum FILE -> the guest instructions of every stats line
	sed -n 's/^sysgate: stats pid [0-9]* [a-z]*: \([0-9]*\) guest instructions.*/\1/p' "$1" |
		awk '{ s += $1 } END { printf("%.0f\n", s) }'
}
if [ "${COUNT:-0}" = 1 ]; then
	# the interpreters' hash seeds fixed: counts that repeat (perl's moves
	# by ~0.3% from run to run otherwise)
	export PYTHONHASHSEED=0 PERL_HASH_SEED=0 PERL_PERTURB_KEYS=0
	echo "| workload | ABI | guest instructions | host instructions | host per guest |"
	echo "|---|---|---:|---:|---:|"
	for i in "${!WL_NAME[@]}"; do
		g=$W/out/$i.count-guest h=$W/out/$i.count-host
		# shellcheck disable=SC2086 # commands are word lists
		"$SG" --stats ${WL_GUEST[$i]} <"${WL_IN[$i]}" >/dev/null 2>"$g"
		# shellcheck disable=SC2086
		"$SG" --stats "$SG" ${WL_GUEST[$i]} <"${WL_IN[$i]}" >/dev/null 2>"$h"
		ng=$(stats_sum "$g") nh=$(stats_sum "$h")
		echo "| ${WL_NAME[$i]} | ${WL_ABI[$i]} | $ng | $nh |" \
			"$(awk -v h="$nh" -v g="$ng" 'BEGIN { if (g > 0) printf("%.2f", h / g); else printf("-") }') |"
	done
	exit 0
fi

declare -A QEMU=([i386]=qemu-i386 [x86_64]=qemu-x86_64)
qemu_for() { # the qemu-user command for an ABI, or nothing
	local q=${QEMU[$1]:-}
	[ -n "$q" ] && command -v "$q" >/dev/null 2>&1 && echo "$q"
}

# --- measure ------------------------------------------------------------------
RES=$W/results.txt
: >"$RES"
declare -A FAILED
measure() { # measure ID MODE REP
	local i=$1 mode=$2 rep=$3 cmd pre="" tag="$1.$2" line reason
	[ -n "${FAILED[$tag]:-}" ] && return
	case $mode in
	native) cmd=${WL_NATIVE[$i]} ;;
	sysgate) cmd="$SG ${WL_GUEST[$i]}" ;;
	qemu) cmd="$(qemu_for "${WL_ABI[$i]}") ${WL_GUEST[$i]}" ;;
	esac
	local out=${WL_OUT[$i]} err=$W/out/$tag.err
	[ "$out" = file ] && out=$W/out/$tag.out
	rm -f "$err" "$W/out/$tag.out"
	# shellcheck disable=SC2086 # commands are word lists
	line=$("$RUNNER" -n "${WL_RUNS[$i]}" -t $LIMIT -i "${WL_IN[$i]}" -o "$out" -e "$err" -- $cmd)
	set -- $line
	reason=""
	if [ "${3:-}" != ok ]; then
		# The last message, without our paths and the fault address.
		reason="$(grep -v '^$' "$err" 2>/dev/null | tail -n 1 |
			sed -e "s|$W/||g" -e 's/ at 0x[0-9a-f]*//' -e 's/^[^ ]*\.sh: line [0-9]*: //' |
			cut -c1-64)"
		[ -n "$reason" ] || reason="${3:-?} ${4:-}"
		[ "$3" = signal ] && [ "$4" = 14 ] && reason="timeout ${LIMIT}s"
	elif [ "${WL_OUT[$i]}" = file ] && [ "$mode" != native ] &&
	     ! cmp -s "$W/out/$tag.out" "$W/out/$i.native.out"; then
		reason="wrong output"
	fi
	if [ -n "$reason" ]; then
		FAILED[$tag]=$reason
		echo "  ${WL_NAME[$i]} [${WL_ABI[$i]}] $mode: fails: $reason" >&2
		return
	fi
	echo "$i $mode $rep $1 $2" >>"$RES"
}

NWL=${#WL_NAME[@]}
echo "bench: $NWL workloads x $REPS repetitions (native, sysgate, qemu interleaved)"
T0=$(date +%s)
for rep in $(seq 1 "$REPS"); do
	for i in $(seq 0 $((NWL - 1))); do
		measure "$i" native "$rep"
		if [ -n "${FAILED[$i.native]:-}" ]; then
			FAILED[$i.sysgate]="native run fails" FAILED[$i.qemu]="native run fails"
			continue
		fi
		measure "$i" sysgate "$rep"
		[ -n "$(qemu_for "${WL_ABI[$i]}")" ] && measure "$i" qemu "$rep"
	done
	echo "bench: repetition $rep/$REPS done ($(( $(date +%s) - T0 )) s)"
done

# --- table ------------------------------------------------------------------
median() { # median ID MODE FIELD(4=time 5=rss) -> value or empty
	awk -v i="$1" -v m="$2" -v f="$3" '$1 == i && $2 == m { print $f }' "$RES" |
		sort -g | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
ms() { [ -n "$1" ] && awk -v t="$1" 'BEGIN { printf(t < 0.1 ? "%.2f" : "%.0f", t * 1000) }'; }
ratio() { # ratio A B -> "A/B x" or "-"
	if [ -n "$1" ] && [ -n "$2" ]; then
		awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf("%.1fx", a / b); else printf("-") }'
	else echo -; fi
}
cell() { # cell ID MODE -> "ms" | "fails (reason)" | "n/a"
	local f=${FAILED[$1.$2]:-}
	if [ -n "$f" ]; then echo "fails ($f)"
	elif [ "$2" = qemu ] && [ -z "$(qemu_for "${WL_ABI[$1]}")" ]; then echo "n/a"
	else ms "$(median "$1" "$2" 4)"; fi
}
rss() { local r; r=$(median "$1" "$2" 5); [ -n "$r" ] && printf '%.0f' "$r" || echo -; }

echo
echo "sysgate ${SG_REV:-$(git -C "$HERE" describe --always --dirty 2>/dev/null)}, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs:" \
	"$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
echo "kernel $(uname -r); $(qemu-x86_64 --version 2>/dev/null | head -n 1 || echo 'no qemu-user')"
echo "medians of $REPS runs; times in ms (start-up: per run, of $START_N); RSS = peak KiB; x32 native = its x86_64 twin$([ $I386_NATIVE = 1 ] || echo "; i386 native = the x86_64 build (this host cannot run i386)")"
echo
echo "| workload | ABI | native | sysgate | qemu | sysgate/native | sysgate/qemu | RSS native / sysgate / qemu |"
echo "|---|---|---:|---:|---:|---:|---:|---:|"
for i in $(seq 0 $((NWL - 1))); do
	tn=$(median "$i" native 4) ts=$(median "$i" sysgate 4) tq=$(median "$i" qemu 4)
	echo "| ${WL_NAME[$i]} | ${WL_ABI[$i]} | $(cell "$i" native) | $(cell "$i" sysgate) | $(cell "$i" qemu)" \
		"| $(ratio "$ts" "$tn") | $(ratio "$ts" "$tq") | $(rss "$i" native) / $(rss "$i" sysgate) / $(rss "$i" qemu) |"
done
echo
echo "bench: $(( $(date +%s) - T0 )) s; raw results in $RES"
