#!/bin/sh
# fetch_busybox.sh DIR: Debian's busybox-static for amd64 and i386 into
# DIR/<arch>/bin/busybox (apt-get download + dpkg -x), its version in
# DIR/<arch>/version. Exit 77 (skip) when a package cannot be had.
set -u
dir=$1
mkdir -p "$dir" || exit 77
for arch in amd64 i386; do
	[ -x "$dir/$arch/bin/busybox" ] && [ -f "$dir/$arch/version" ] && continue
	dl=$dir/dl-$arch
	rm -rf "$dl"
	mkdir -p "$dl"
	if ! (cd "$dl" && apt-get download -q "busybox-static:$arch" >/dev/null 2>&1); then
		echo "SKIP: busybox-static:$arch cannot be downloaded"
		exit 77
	fi
	dpkg -x "$dl"/busybox-static_*.deb "$dir/$arch" || exit 77
	# the version: an i386 case's amd64 twin must be the same one
	dpkg-deb -f "$dl"/busybox-static_*.deb Version >"$dir/$arch/version" || exit 77
	rm -rf "$dl"
done
echo "busybox ready in $dir"
