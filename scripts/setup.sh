#!/bin/sh
# Install the Debian packages sysgate needs to build and test, only those
# that are missing. Used by `make run` and `make test` on a fresh machine;
# arguments name more packages (`make stress-ng`: stress-ng).
set -eu
# (strace: the trace comparisons; chromium: the timeline page's test,
# e2e.trace-timeline-html, which is skipped without it; qemu-user: the
# oracle of e2e.fastfault.i386 on a host without IA32)
PKGS="cmake make gcc pkg-config libcapstone-dev libelf-dev libcmocka-dev uthash-dev
gcc-multilib libc6-dev-x32 libc6-dev-i386 nasm binutils file gdb valgrind strace chromium qemu-user $*"
missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
		missing="$missing $p"
	fi
done
if [ -n "$missing" ]; then
	echo "setup: installing:$missing"
	SUDO=""
	[ "$(id -u)" = 0 ] || SUDO=sudo
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
fi
