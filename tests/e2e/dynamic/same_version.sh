#!/bin/sh
# same_version.sh ROOT PACKAGE: exit 0 when the host has PACKAGE installed
# at the version make_i386_root.sh unpacked into ROOT (ROOT/.versions), so
# the host's own amd64 build of the package's programs is the twin of the
# root's i386 build (same Debian source and version). Else say why, exit 1.
root=$1 pkg=$2
want=$(awk -v p="$pkg" '$1 == p { print $2 }' "$root/.versions" 2>/dev/null)
have=$(dpkg-query -W -f '${Version}' "$pkg" 2>/dev/null)
[ -n "$want" ] || { echo "$pkg is not in $root/.versions"; exit 1; }
[ "$have" = "$want" ] && exit 0
echo "the host has $pkg ${have:-(not installed)}, the i386 root $want"
exit 1
