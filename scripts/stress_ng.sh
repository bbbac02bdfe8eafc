#!/bin/sh
# stress_ng.sh SYSGATE [SECONDS] [REGEX]
#
# The stress-ng oracle (`make stress-ng`; not part of `make test`): every
# stressor of the classes os, memory, signal, pipe, scheduler and
# filesystem (interrupt where there is no "signal"), one instance with --verify for SECONDS (default 10), natively
# and then as a guest of SYSGATE (Debian's x86_64 stress-ng). A stressor
# passes when sysgate's run ends as the native one does (stress-ng's exit
# status: 0 passed, 2 failed, 3 skipped for want of resources, 4 not
# implemented here) and sysgate itself printed no "sysgate:" line. REGEX
# keeps only the stressors it matches.
#
# Not run: the stressors that change the machine itself when run as root
# (CPU/memory hotplug, watchdog, reboot, swap, mounts, loop and tun
# devices, raw packets and floods, device ioctls, firmware variables) or
# take the shared machine's memory (bigheap, oom-pipe, mlockmany,
# pageswap).
# A stressor that fails natively (status 2) and otherwise under sysgate is
# no oracle: "native-fail", not counted as a failure.
# Output: one line per stressor ("name native N sysgate M ok|FAIL|
# native-fail"), then
# the totals; logs in $STRESS_NG_LOGS (default a temporary directory).
# Exit status: 0 when every stressor passed, 1 otherwise.
set -u
sysgate=$1 secs=${2:-10} only=${3:-.}
case $sysgate in /*) ;; *) sysgate=$PWD/$sysgate ;; esac
stressng=$(command -v stress-ng) || { echo "stress_ng.sh: stress-ng is not installed" >&2; exit 2; }
skip=" cpu-online memhotplug watchdog reboot swap efivar pci rtc smi tun kvm loop
bind-mount umount ramfs idle-page oom-pipe bigheap icmp-flood udp-flood rawpkt
rawudp rawsock dev sysfs mlockmany pageswap klog "
logs=${STRESS_NG_LOGS:-$(mktemp -d "${TMPDIR:-/tmp}/sg-stress-ng.XXXXXX")}
mkdir -p "$logs/tmp"
ulimit -c 0 2>/dev/null

# stress-ng before 0.16 has no class "signal": its signal stressors are
# the class "interrupt"
stressors=$(for c in os memory signal interrupt pipe scheduler filesystem; do
	"$stressng" --class "$c?" 2>&1 | grep "^class '$c' stressors: " |
		sed 's/.*stressors: //' | tr ' ' '\n'
done | grep . | sort -u | grep -E -- "$only")

# Files at most 256 MiB (ulimit -f, 512-byte blocks): the file system
# stressors share the machine's disk.
run() { # run NAME LOG CMD...: exit status of CMD, bounded in time
	name=$1 log=$2
	shift 2
	(cd "$logs/tmp" && ulimit -f 524288 && timeout -k 10 $((secs * 4 + 60)) "$@" --"$name" 1 \
		--timeout "${secs}s" --verify --temp-path "$logs/tmp" >"$log" 2>&1)
	echo $?
}

pass=0 fail=0 nofail=0 failed=""
for s in $stressors; do
	case $skip in *" $s "*|*"
$s "*|*" $s
"*) continue ;; esac
	n=$(run "$s" "$logs/$s.native" "$stressng")
	g=$(run "$s" "$logs/$s.sysgate" "$sysgate" "$stressng")
	verdict=ok
	[ "$n" = "$g" ] || verdict=FAIL
	grep -q '^sysgate:' "$logs/$s.sysgate" && verdict=FAIL
	# a stressor that fails natively is no oracle for sysgate
	[ "$n" = 2 ] && [ $verdict = FAIL ] && verdict=native-fail
	case $verdict in
	ok) pass=$((pass + 1)) ;;
	native-fail) nofail=$((nofail + 1)) ;;
	*) fail=$((fail + 1)); failed="$failed $s" ;;
	esac
	printf '%-16s native %3s sysgate %3s %s\n' "$s" "$n" "$g" "$verdict"
done
echo "stress-ng: $pass passed, $fail failed, $nofail failing natively (${secs}s each; logs in $logs)"
[ -z "$failed" ] || echo "failed:$failed"
[ $fail -eq 0 ]
