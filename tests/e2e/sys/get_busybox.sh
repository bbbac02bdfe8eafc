#!/bin/sh
# get_busybox.sh OUTDIR: Debian's static busybox for amd64 and i386 in
# OUTDIR/{x86_64,i386}/bin/busybox, fetched with `apt-get download` and
# unpacked with `dpkg -x` (nothing installed), the package's version in
# OUTDIR/{x86_64,i386}/version. Exit 0 ready, 77 when the
# packages cannot be fetched (ctest SKIP), 1 otherwise.
set -eu
out=${1:?usage: get_busybox.sh OUTDIR}
[ -x "$out/x86_64/bin/busybox" ] && [ -x "$out/i386/bin/busybox" ] &&
	[ -f "$out/x86_64/version" ] && [ -f "$out/i386/version" ] && exit 0
skip() { echo "get_busybox.sh: $*; skipping" >&2; exit 77; }
command -v apt-get >/dev/null && command -v dpkg >/dev/null || skip "no apt-get/dpkg"
if ! dpkg --print-foreign-architectures | grep -qx i386; then
	[ "$(id -u)" = 0 ] || skip "i386 is not a dpkg architecture"
	dpkg --add-architecture i386
	apt-get update -qq >/dev/null 2>&1 || skip "apt-get update failed"
fi
debs=$out.debs
rm -rf "$debs"
mkdir -p "$debs" "$out"
chmod 777 "$debs" # apt-get download runs as _apt
(cd "$debs" && apt-get download -q busybox-static busybox-static:i386 >log 2>&1) ||
	{ tail -2 "$debs/log" >&2; skip "apt-get download failed"; }
dpkg -x "$debs"/busybox-static_*_amd64.deb "$out/x86_64"
dpkg -x "$debs"/busybox-static_*_i386.deb "$out/i386"
# each package's version: the i386 cases' twin must be the same one
dpkg-deb -f "$debs"/busybox-static_*_amd64.deb Version >"$out/x86_64/version"
dpkg-deb -f "$debs"/busybox-static_*_i386.deb Version >"$out/i386/version"
rm -rf "$debs"
