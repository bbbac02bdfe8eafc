#!/bin/sh
# compat.sh SYSGATE WORKDIR ABIS [MODULE]...
#
# CPython's own regression tests (Debian's libpython3.11-testsuite) run
# natively and under sysgate, module by module; each module's set of test
# outcomes (pass, skip, fail, error, per test id, from regrtest's
# --junit-xml) must be the same in both runs. ABIS: x86_64, i386 or
# "x86_64 i386" (one argument).
#   x86_64: /usr/bin/python3.11 natively and under SYSGATE. The package
#           is installed with apt-get when missing (root only).
#   i386:   a Debian i386 root with python3.11:i386 (make_python_root.sh,
#           under WORKDIR): natively in a chroot into it (a private mount
#           namespace with /proc, /dev and /sys bound in), under
#           `SYSGATE -L ROOT`. Needs root and a host that runs i386
#           programs; otherwise that ABI is skipped, with a message.
#           COMPAT_I386_TWIN="MODULE...": on a host without i386 those of
#           the MODULEs run with the host's x86_64 python3.11 (the same
#           version's tests) as the native side: modules whose outcomes
#           do not depend on the word size (checked on a host with IA32).
# Without MODULEs, the issue's list (COMPAT_MODULES). Per module and run at
# most COMPAT_TIMEOUT seconds (default 900). Logs and XML in WORKDIR.
# COMPAT_I386_PROBE: a static i386 program that exits 0 where the host runs
# i386 code (guest/probe-i386); where it does not, i386 is skipped before
# the root is built, or compared with the twin (COMPAT_I386_TWIN).
#
# Prints one line per ABI and module, "same" or "DIFFERS" with the tests
# whose outcome differs, then "compat: N passed, N failed".
# Exit 0: every module the same; 1: a difference; 77: nothing could run.
set -u
sysgate=${1:?usage: compat.sh SYSGATE WORKDIR ABIS [MODULE]...}
work=${2:?usage}
abis=${3:?usage}
shift 3
here=$(cd "$(dirname "$0")" && pwd)
modules=${*:-${COMPAT_MODULES:-test_os test_posix test_signal test_threading
test_subprocess test_socket test_select test_mmap test_time test_fcntl
test_pty test_resource test_eintr test_threadsignals test_multiprocessing_fork
test_concurrent_futures test_ctypes test_ssl}}
limit=${COMPAT_TIMEOUT:-900}
# Tests left out of every run (regrtest --ignore): test_socket's vsock
# stream test waits in accept() for ever natively where /dev/vsock has no
# peer (a VM's guest side).
ignore='*VSOCKSocketStream*'

py=/usr/bin/python3.11
mkdir -p "$work"
work=$(cd "$work" && pwd)
sysgate=$(cd "$(dirname "$sysgate")" && pwd)/$(basename "$sysgate")

note() { echo "compat: $*"; }

have_x86_64_tests() { [ -x $py ] && [ -f /usr/lib/python3.11/test/test_os.py ]; }
setup_x86_64() {
	have_x86_64_tests && return 0
	if [ "$(id -u)" != 0 ]; then
		note "x86_64 skipped: libpython3.11-testsuite is not installed and we are not root"
		return 1
	fi
	apt-get install -y -q --no-install-recommends libpython3.11-testsuite \
		>"$work/apt.log" 2>&1 ||
		{ apt-get update -qq >/dev/null 2>&1 &&
		  apt-get install -y -q --no-install-recommends libpython3.11-testsuite \
			>"$work/apt.log" 2>&1; }
	have_x86_64_tests && return 0
	note "x86_64 skipped: libpython3.11-testsuite could not be installed ($(tail -1 "$work/apt.log"))"
	return 1
}

root=$work/i386-root
i386_twin=0
setup_i386() {
	if [ "$(id -u)" != 0 ] || ! command -v unshare >/dev/null; then
		note "i386 skipped: the native run needs root (a chroot in a mount namespace)"
		return 1
	fi
	i386_twin=0
	if [ -n "${COMPAT_I386_PROBE:-}" ] && ! "$COMPAT_I386_PROBE" >/dev/null 2>&1; then
		if [ -z "${COMPAT_I386_TWIN:-}" ]; then
			note "i386 skipped: the host does not run i386 programs ($COMPAT_I386_PROBE)"
			return 1
		fi
		setup_x86_64 || { note "i386 skipped: no native i386 and no x86_64 twin"; return 1; }
		note "i386: the host does not run i386 programs ($COMPAT_I386_PROBE): the native side is x86_64's python3.11"
		i386_twin=1
	fi
	sh "$here/make_python_root.sh" "$root" >"$work/root.log" 2>&1 ||
		{ note "i386 skipped: no i386 python root ($(tail -1 "$work/root.log"))"; return 1; }
	if [ $i386_twin = 0 ] && ! in_root /usr/bin/python3.11 -c pass >/dev/null 2>&1; then
		note "i386 skipped: the host does not run the root's i386 python3.11 natively"
		return 1
	fi
}

# in_root CMD...: CMD natively in a chroot into the i386 root, from its /tmp
chroot_script='c=$1 r=$2; shift 2
	mount --rbind /proc "$r/proc" && mount --rbind /dev "$r/dev" &&
	mount --rbind /sys "$r/sys" && cd "$r/tmp" && exec "$c" "$r" "$@"'
chroot=$(PATH=$PATH:/usr/sbin:/sbin command -v chroot || echo chroot)
in_root() {
	unshare -m --propagation private sh -c "$chroot_script" sh "$chroot" "$root" "$@"
}

# run ABI KIND MODULE: one regrtest run of MODULE; XML in $work/KIND.ABI.MODULE.xml
run() {
	abi=$1 kind=$2 mod=$3
	xml=$work/$kind.$abi.$mod.xml
	log=$work/$kind.$abi.$mod.log
	rm -f "$xml"
	dir=$work/cwd.$kind.$abi
	rm -rf "$dir"
	mkdir -p "$dir"
	what=$abi.$kind
	[ "$what" = i386.native ] && [ "$i386_twin" = 1 ] && what=x86_64.native
	case $what in
	x86_64.native)
		(cd "$dir" && env -i PATH=/usr/bin:/bin HOME="$dir" LANG=C.UTF-8 \
			timeout -k 10 "$limit" $py -m test --ignore "$ignore" --junit-xml "$xml" "$mod") ;;
	x86_64.sysgate)
		(cd "$dir" && env -i PATH=/usr/bin:/bin HOME="$dir" LANG=C.UTF-8 \
			timeout -k 10 "$limit" "$sysgate" $py -m test --ignore "$ignore" --junit-xml "$xml" "$mod") ;;
	i386.native)
		# the XML inside the root, then out to the work directory
		rm -f "$root/tmp/compat.xml"
		env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C.UTF-8 \
			timeout -k 10 "$limit" unshare -m --propagation private \
			sh -c "$chroot_script" sh "$chroot" "$root" \
			/usr/bin/python3.11 -m test --ignore "$ignore" --junit-xml /tmp/compat.xml "$mod"
		st=$?
		[ -f "$root/tmp/compat.xml" ] && mv "$root/tmp/compat.xml" "$xml"
		(exit $st) ;;
	i386.sysgate)
		(cd "$dir" && env -i PATH=/usr/bin:/bin HOME="$dir" LANG=C.UTF-8 \
			timeout -k 10 "$limit" "$sysgate" -L "$root" /usr/bin/python3.11 -m test \
			--ignore "$ignore" --junit-xml "$xml" "$mod") ;;
	esac >"$log" 2>&1
	echo "exit status $?" >>"$log"
}

passed=0 failed=0 ran=0
for abi in $abis; do
	case $abi in
	x86_64) setup_x86_64 || continue ;;
	i386) setup_i386 || continue ;;
	*) echo "compat.sh: unknown ABI $abi" >&2; exit 2 ;;
	esac
	for mod in $modules; do
		if [ "$abi" = i386 ] && [ $i386_twin = 1 ]; then
			case " $COMPAT_I386_TWIN " in *" $mod "*) ;; *) continue ;; esac
		fi
		start=$(date +%s)
		run "$abi" native "$mod"
		mid=$(date +%s)
		run "$abi" sysgate "$mod"
		end=$(date +%s)
		ran=1
		if python3 "$here/compare.py" "$abi" "$mod" "$work" \
			"$((mid - start))" "$((end - mid))"; then
			passed=$((passed + 1))
		else
			failed=$((failed + 1))
		fi
	done
done
[ $ran = 1 ] || exit 77
echo "compat: $passed passed, $failed failed"
[ $failed = 0 ]
