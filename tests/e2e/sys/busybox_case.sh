#!/bin/sh
# busybox_case.sh DIR ABI RUN_CASE PROBE SYSGATE APPLET [ARG]...: fetch
# busybox (get_busybox.sh, SKIP with 77 when it cannot), then compare the
# applet under sysgate with the same busybox natively (run_case.sh). Where
# the host cannot run i386 programs (PROBE, an i386 program, fails), the
# i386 busybox is compared with the x86_64 one: both are Debian's
# busybox-static of one version, built from one source and configuration.
set -u
dir=$1 abi=$2 run_case=$3 probe=$4 sysgate=$5
shift 5
sh "$(dirname "$0")/get_busybox.sh" "$dir" || exit $?
bb=$dir/$abi/bin/busybox
set -- "$sysgate" "$bb" "$@"
if [ "$abi" = i386 ]; then
	set -- --probe "$probe" --ref-twin "$dir/x86_64/bin/busybox" \
		--twin-check "sh $(dirname "$0")/same_busybox.sh $dir/i386 $dir/x86_64" "$@"
fi
exec sh "$run_case" --ref "$bb" "$@"
