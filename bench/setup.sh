#!/bin/sh
# bench/setup.sh WORKDIR: what the benchmarks need beyond `make test`'s
# set-up: qemu-user (the comparison) and libssl-dev (the AES-GCM row's
# program) from Debian, and Debian's static
# busybox for amd64 and i386, unpacked into WORKDIR/busybox/<arch>/bin.
# Anything that cannot be had is skipped: run.sh leaves its rows out or
# marks them, it never stops for a missing comparison.
set -u
W=$1
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo

if ! command -v qemu-x86_64 >/dev/null 2>&1 || ! command -v qemu-i386 >/dev/null 2>&1; then
	echo "bench setup: installing qemu-user"
	$SUDO apt-get update -qq >/dev/null 2>&1
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
		qemu-user >/dev/null 2>&1 || echo "bench setup: qemu-user not available, no qemu column"
fi

if [ ! -f /usr/include/openssl/evp.h ]; then
	echo "bench setup: installing libssl-dev"
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
		libssl-dev >/dev/null 2>&1 || echo "bench setup: libssl-dev not available, no AES-GCM row"
fi

mkdir -p "$W/busybox"
for arch in amd64 i386; do
	bb=$W/busybox/$arch/bin/busybox
	[ -x "$bb" ] && continue
	if [ "$arch" = i386 ] && ! dpkg --print-foreign-architectures | grep -qx i386; then
		$SUDO dpkg --add-architecture i386 && $SUDO apt-get update -qq >/dev/null 2>&1
	fi
	dl=$W/busybox/dl-$arch
	mkdir -p "$dl"
	# apt's sandbox user must be able to write the download directory.
	chmod 777 "$dl" 2>/dev/null
	if (cd "$dl" && apt-get download -q "busybox-static:$arch" >/dev/null 2>&1) &&
	   dpkg -x "$dl"/busybox-static_*_"$arch".deb "$W/busybox/$arch"; then
		echo "bench setup: busybox-static:$arch unpacked"
	else
		echo "bench setup: busybox-static:$arch not available, its rows are skipped"
	fi
	rm -rf "$dl"
done
exit 0
