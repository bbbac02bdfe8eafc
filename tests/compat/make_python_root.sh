#!/bin/sh
# make_python_root.sh OUTDIR
#
# A Debian i386 root with python3.11 and its regression tests
# (libpython3.11-testsuite) for the compat run (tests/compat/compat.sh):
# python3.11:i386, libc-bin, gcc and binutils (test_ctypes runs them) and the
# i386 packages they depend on, from the
# distribution's own packages with `apt-get download` + `dpkg -x`
# (nothing is installed on the host; i386 is added as a dpkg architecture
# if missing), with dash, bash and coreutils, which the tests run. The host's
# passwd, group, hosts, nsswitch.conf, resolv.conf, services and
# protocols are copied in, so that a chroot into OUTDIR and `sysgate -L
# OUTDIR` (which falls back to the host's /etc) see the same files.
# OUTDIR/.complete marks a root finished by this version of the script
# (its checksum): a changed script builds the root again.
#
# Exit status: 0 ready; 77 packages could not be fetched (skip); 1 other.
set -eu
out=${1:?usage: make_python_root.sh OUTDIR}
stamp=$(cksum <"$0")
[ -f "$out/.complete" ] && [ "$(cat "$out/.complete")" = "$stamp" ] && exit 0

skip() { echo "make_python_root.sh: $*; skipping" >&2; exit 77; }
command -v dpkg >/dev/null && command -v apt-get >/dev/null || skip "no dpkg/apt-get"
if ! dpkg --print-foreign-architectures | grep -qx i386; then
	[ "$(id -u)" = 0 ] || skip "i386 is not a dpkg architecture and we are not root"
	dpkg --add-architecture i386
	apt-get update -qq >/dev/null 2>&1 || skip "apt-get update failed"
fi
# python3.11 and what test_ctypes runs to find libraries (ctypes.util:
# ldconfig -p, gcc, ld): the root's own, so that the chroot has them as
# `sysgate -L` (which would else run the host's) does
depends() {
	apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts \
		--no-breaks --no-replaces --no-enhances python3.11:i386 \
		libc-bin:i386 gcc:i386 binutils:i386 libc6-dev:i386 2>/dev/null
}
if ! depends | grep -q '^libpython3.11-stdlib:i386'; then
	apt-get update -qq >/dev/null 2>&1 || true
fi
# i386 packages these need (not the tools dpkg's own scripts use),
# the architecture-independent ones (shown as <name:i386>), and the tests
pkgs=$(depends | grep -v '^ ' | sort -u |
	sed -n -e 's/^<\(.*\):i386>$/\1/p' -e '/^[^<].*:i386$/p' |
	grep -Ev '^(dpkg|install-info|tar|perl|perl-base|libperl.*|mime-support|mailcap)(:i386)?$' || true)
[ -n "$pkgs" ] || skip "apt-cache knows no python3.11:i386"
# the tests run /bin/sh, bash (test_subprocess's test_specific_shell) and
# coreutils (id, ls, ...): the root's own, so that the chroot has them as
# `sysgate -L` (else the host's) does
pkgs="$pkgs libpython3.11-testsuite tzdata dash:i386 bash:i386 libtinfo6:i386
coreutils:i386 libacl1:i386 libattr1:i386 libselinux1:i386 libpcre2-8-0:i386
libgmp10:i386"

debs=$out.debs
rm -rf "$out" "$debs"
mkdir -p "$debs" "$out"
chmod 777 "$debs" # apt-get download runs as _apt
# shellcheck disable=SC2086 # the list splits on blanks
(cd "$debs" && apt-get download -q $pkgs >download.log 2>&1) ||
	{ tail -3 "$debs/download.log" >&2; skip "apt-get download failed"; }
for d in "$debs"/*.deb; do
	dpkg -x "$d" "$out"
	echo "$(dpkg-deb -f "$d" Package) $(dpkg-deb -f "$d" Version)" >>"$out/.versions"
done
rm -rf "$debs"
# /bin/sh is dash's postinst's link, which dpkg -x does not make
[ -e "$out/bin/sh" ] || ln -s dash "$out/bin/sh"
mkdir -p "$out/etc" "$out/proc" "$out/dev" "$out/sys" "$out/tmp" "$out/run"
chmod 1777 "$out/tmp"
for f in passwd group hosts nsswitch.conf resolv.conf services protocols; do
	[ -f "/etc/$f" ] && cp "/etc/$f" "$out/etc/$f"
done
printf 'include /etc/ld.so.conf.d/*.conf\n' >"$out/etc/ld.so.conf"
ldconfig -r "$out" 2>/dev/null || true
[ -x "$out/usr/bin/python3.11" ] && [ -f "$out/usr/lib/python3.11/test/test_os.py" ] ||
	{ echo "make_python_root.sh: no python3.11 or tests in $out" >&2; exit 1; }
echo "$stamp" >"$out/.complete"
echo "make_python_root.sh: $out ready"
