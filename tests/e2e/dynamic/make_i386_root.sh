#!/bin/sh
# make_i386_root.sh OUTDIR
#
# Build a small Debian i386 root (libc6, dash, coreutils and the libraries
# coreutils links) in OUTDIR from the distribution's own packages, for the
# sysroot cases (sysgate -L OUTDIR). Packages are fetched with
# `apt-get download` and unpacked with `dpkg -x` (nothing is installed on
# the host); the i386 architecture is added to dpkg first if missing.
# Run once per build tree: OUTDIR/.complete marks a finished root, and
# OUTDIR/.versions lists "PACKAGE VERSION" of each package unpacked.
#
# Exit status: 0 ready; 77 packages could not be fetched (ctest SKIP);
# 1 anything else.
set -eu
out=${1:?usage: make_i386_root.sh OUTDIR}
[ -f "$out/.complete" ] && [ -f "$out/.versions" ] && exit 0

skip() { echo "make_i386_root.sh: $*; skipping" >&2; exit 77; }
command -v dpkg >/dev/null && command -v apt-get >/dev/null || skip "no dpkg/apt-get"

if ! dpkg --print-foreign-architectures | grep -qx i386; then
	[ "$(id -u)" = 0 ] || skip "i386 is not a dpkg architecture and we are not root"
	dpkg --add-architecture i386
	apt-get update -qq >/dev/null 2>&1 || skip "apt-get update failed"
fi

PKGS="libc6:i386 dash:i386 coreutils:i386 libacl1:i386 libattr1:i386
libselinux1:i386 libpcre2-8-0:i386 libgmp10:i386 libssl3:i386"

debs=$out.debs
rm -rf "$out" "$debs"
mkdir -p "$debs" "$out"
# apt-get download writes to the current directory; _apt may not read ours
chmod 777 "$debs"
# shellcheck disable=SC2086 # the list splits on blanks
if ! (cd "$debs" && apt-get download -q $PKGS >download.log 2>&1); then
	if ! apt-cache policy libc6:i386 2>/dev/null | grep -q Candidate; then
		apt-get update -qq >/dev/null 2>&1 || true
	fi
	(cd "$debs" && apt-get download -q $PKGS >download.log 2>&1) ||
		{ tail -3 "$debs/download.log" >&2; skip "apt-get download failed"; }
fi
: >"$debs/versions"
for d in "$debs"/*.deb; do
	dpkg -x "$d" "$out"
	echo "$(dpkg-deb -f "$d" Package) $(dpkg-deb -f "$d" Version)" >>"$debs/versions"
done
# A cache of the root's own libraries, so its ld.so does not use the
# host's /etc/ld.so.cache (which lists the host's /usr/lib32).
mkdir -p "$out/etc"
printf 'include /etc/ld.so.conf.d/*.conf\n' >"$out/etc/ld.so.conf"
ldconfig -r "$out" 2>/dev/null || true
# "PACKAGE VERSION" of each, for same_version.sh
mv "$debs/versions" "$out/.versions"
rm -rf "$debs"
touch "$out/.complete"
echo "make_i386_root.sh: $out ready"
