#!/bin/sh
# run_sysdiff.sh [OPTION]... SYSGATE GUESTDIR
#
# The system call differential tester (docs/testing.md): for each ABI the
# guest program guest/sysdiff-<abi> makes COUNT generated calls with
# hostile arguments, once natively and once under SYSGATE, and the two
# runs' lines (return value, bytes written) are compared. The oracle is
# never sysgate:
#   i386    sysdiff-i386 natively; a host that cannot run i386 programs
#           (guest/probe-i386 does not exit 0) skips i386 and says so
#   x32     the x86_64 build in mode x32 (the twin: the same calls by the
#           64-bit numbers x32's common rows share, the same registers)
#   x86_64  sysdiff-x86_64 natively
# The rows called are the ABI's implemented rows (`SYSGATE --syscalls`),
# x32's below 512 (the rows it shares with x86_64); the guest leaves out
# the rows of its documented exclusion list.
#
# Options:
#   --seed S       generator seed (default 1)
#   --count N      calls per ABI (default 1500)
#   --abi LIST     ABIs, comma separated (default i386,x32,x86_64)
#   --max-pct P    fail when an ABI's differing calls reach P percent of
#                  its calls (default 1)
#   --timeout MS   a call still running after MS is killed (default 5000:
#                  nothing in the list blocks; a loaded machine is slow)
#   --work DIR     scratch directory (default: a fresh one under /tmp)
#   --show N       print at most N differing call pairs per ABI (default 40)
# Exit 0 when every ABI compared is under the limit, 1 otherwise, 2 bad
# use, 77 when no ABI could be compared.
set -u
seed=1
count=1500
abis=i386,x32,x86_64
max_pct=1
timeout=5000
work=
show=40
while [ $# -gt 0 ]; do
	case $1 in
	--seed) seed=$2; shift 2 ;;
	--count) count=$2; shift 2 ;;
	--abi) abis=$2; shift 2 ;;
	--max-pct) max_pct=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--work) work=$2; shift 2 ;;
	--show) show=$2; shift 2 ;;
	--*) echo "run_sysdiff.sh: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -eq 2 ] || { echo "usage: run_sysdiff.sh [OPTION]... SYSGATE GUESTDIR" >&2; exit 2; }
sysgate=$(readlink -f "$1")
guests=$(readlink -f "$2")
if [ -z "$work" ]; then
	# tmpfs when there is one: deleting thousands of small files (and the
	# sparse gigabyte ones some calls make) on a disk waits for its journal
	base=/tmp
	[ -d /dev/shm ] && [ -w /dev/shm ] && base=/dev/shm
	work=$(mktemp -d "$base/sysdiff.XXXXXX") || exit 2
	trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"
work=$(readlink -f "$work")

# Both runs without address randomisation where setarch can say so: a
# native brk heap placed at random can land in the range a generated
# munmap takes away (the child then dies on its TLS), which no other run
# repeats.
norandom=
if setarch "$(uname -m)" -R true > /dev/null 2>&1; then
	norandom="setarch $(uname -m) -R"
fi

# Both runs in new user, mount, UTS and IPC namespaces where the kernel
# gives them (unshare -U): there the administration calls (mount,
# sethostname, swapon, ...) act on namespaces that end with the run, or
# are refused (EPERM) as they need privileges over the host, so the guest
# calls them too (SYSDIFF_NS=1). Without them they are left out, since a
# native run as root would change the host.
ns=
if unshare --user --map-root-user --mount --uts --ipc true > /dev/null 2>&1; then
	ns="unshare --user --map-root-user --mount --uts --ipc"
	export SYSDIFF_NS=1
	echo "namespaces: user, mount, UTS, IPC (administration calls included)"
else
	echo "namespaces: none (unshare -U failed): administration calls left out"
fi

# one run in a fresh scratch directory (the same path for both runs, so
# getcwd and the like agree): run DIR OUT PROGRAM ARGS...
run() {
	out=$1
	shift
	rm -rf "$work/scratch"
	mkdir "$work/scratch"
	# shellcheck disable=SC2086
	(cd "$work/scratch" && $ns $norandom "$@" > "$out" 2> "$out.err" < /dev/null)
	st=$?
	rm -rf "$work/scratch"
	return $st
}

failed=0
compared=0
for abi in $(echo "$abis" | tr ',' ' '); do
	case $abi in
	i386)
		"$guests/probe-i386" > /dev/null 2>&1
		pst=$?
		if [ $pst -ne 0 ]; then
			echo "i386: SKIPPED: this host cannot run i386 programs natively (guest/probe-i386 exited $pst); no twin makes i386's calls"
			continue
		fi
		native="$guests/sysdiff-i386 i386"
		guest="$guests/sysdiff-i386 i386"
		;;
	x32)
		native="$guests/sysdiff-x86_64 x32"
		guest="$guests/sysdiff-x32 x32"
		;;
	x86_64)
		native="$guests/sysdiff-x86_64 x86_64"
		guest="$guests/sysdiff-x86_64 x86_64"
		;;
	*) echo "run_sysdiff.sh: unknown ABI $abi" >&2; exit 2 ;;
	esac
	rows="$work/rows-$abi"
	"$sysgate" --syscalls="$abi" |
		awk -v abi="$abi" '$NF == "implemented" && (abi != "x32" || $1 < 512) { print $1, $2 }' > "$rows"
	# shellcheck disable=SC2086
	run "$work/native-$abi" $native "$rows" "$seed" "$count" "$timeout"
	nst=$?
	# shellcheck disable=SC2086
	run "$work/sysgate-$abi" "$sysgate" $guest "$rows" "$seed" "$count" "$timeout"
	sst=$?
	if [ $nst -ne 0 ]; then
		echo "$abi: the native run failed (status $nst):"
		head -5 "$work/native-$abi.err"
		failed=1
		continue
	fi
	compared=$((compared + 1))
	n=$(wc -l < "$work/native-$abi")
	awk -v show="$show" -v abi="$abi" -v n="$n" -v sst="$sst" -v maxp="$max_pct" '
		NR == FNR { nat[FNR] = $0; next }
		{ sg[FNR] = $0; m = FNR }
		END {
			d = 0
			for (i = 1; i <= n; i++) {
				if (nat[i] == sg[i]) continue
				d++
				if (d <= show) {
					printf "  native:  %s\n  sysgate: %s\n", nat[i], (i in sg) ? sg[i] : "(no line)"
				}
			}
			if (d > show) printf "  ... %d more\n", d - show
			pct = n ? 100.0 * d / n : 0
			printf "%s: %d calls, %d differ (%.2f%%), limit %s%%; sysgate exited %d\n", abi, n, d, pct, maxp, sst
			exit (sst != 0 || m != n || pct >= maxp) ? 1 : 0
		}' "$work/native-$abi" "$work/sysgate-$abi" || failed=1
	if [ $sst -ne 0 ]; then
		echo "$abi: sysgate exited $sst:"
		head -5 "$work/sysgate-$abi.err"
	fi
done
[ $compared -eq 0 ] && exit 77
exit $failed
