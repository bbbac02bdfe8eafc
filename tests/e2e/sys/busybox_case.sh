#!/bin/sh
# busybox_case.sh DIR ABI RUN_CASE SYSGATE APPLET [ARG]...: fetch busybox
# (get_busybox.sh, SKIP with 77 when it cannot), then compare the applet
# under sysgate with the same busybox natively (run_case.sh).
set -u
dir=$1 abi=$2 run_case=$3 sysgate=$4
shift 4
sh "$(dirname "$0")/get_busybox.sh" "$dir" || exit $?
bb=$dir/$abi/bin/busybox
exec sh "$run_case" --ref "$bb" "$sysgate" "$bb" "$@"
