#!/bin/sh
# check_library_only.sh SRC_DIR [--no-hide]
# Configures and builds SRC_DIR with -DBUILD_TESTING=OFF into a temporary
# tree, as on a machine without cmocka, nasm, gcc-multilib or
# libc6-dev-x32, and checks that libsysgate (shared and static) and the
# CLI come out and that no test target and no test exist.
#
# "Without the packages": where user and mount namespaces are allowed
# (`unshare -rm`), the build runs in one where every file those packages
# installed is gone from view: regular files are covered by /dev/null
# (nasm is no longer executable, cmocka.pc and the 32-bit crt files are
# empty) and /usr/include is a tmpfs of links to the real entries, less the
# packages' own (gcc-multilib's asm link, cmocka's headers). The hiding is
# checked before the build (pkg-config finds no cmocka, no nasm runs,
# `cc -m32` finds no <asm/unistd.h>). Elsewhere (or with --no-hide) only
# the configure-and-build with BUILD_TESTING=OFF is checked, and said so.
set -u
src=$(cd "$1" && pwd)
mode=${2:-hide}
# the packages' names; lib32gcc-N-dev and libx32gcc-N-dev for every N installed
HIDDEN_PKGS="libcmocka-dev nasm gcc-multilib libc6-dev-i386 libc6-dev-x32"

fail() { echo "check_library_only: $*" >&2; exit 1; }

if [ "$mode" = --inside ]; then
	work=$3
	# in the namespace: hide the packages' files, check that they are gone
	gcclibs=$(dpkg-query -W -f '${Package}\n' 'lib32gcc-*-dev' 'libx32gcc-*-dev' 2>/dev/null)
	files=$(for p in $HIDDEN_PKGS $gcclibs; do dpkg -L "$p" 2>/dev/null; done | sort -u)
	top=""
	for f in $files; do
		case $f in
		/usr/include/*/*) ;;
		/usr/include/*)
			# folders are shared with other packages: their files go
			[ -d "$f" ] && [ ! -L "$f" ] && continue
			top="$top ${f#/usr/include/}"; continue ;;
		esac
		[ -f "$f" ] && [ ! -L "$f" ] && mount --bind /dev/null "$f"
	done
	mkdir -p "$work/usr_include"
	mount --rbind /usr/include "$work/usr_include" || fail "cannot bind /usr/include"
	mount -t tmpfs sg_include /usr/include || fail "cannot mount a tmpfs on /usr/include"
	for e in "$work"/usr_include/* "$work"/usr_include/.[!.]*; do
		[ -e "$e" ] || [ -L "$e" ] || continue
		name=${e##*/}
		case " $top " in *" $name "*) continue ;; esac
		ln -s "$e" "/usr/include/$name"
	done
	pkg-config --exists cmocka 2>/dev/null && fail "hiding failed: pkg-config finds cmocka"
	nasm -v >/dev/null 2>&1 && fail "hiding failed: nasm runs"
	printf '#include <asm/unistd.h>\n' | cc -m32 -E - >/dev/null 2>&1 &&
		fail "hiding failed: cc -m32 finds <asm/unistd.h>"
	printf '#include <stdio.h>\nint main(void){return 0;}\n' > "$work/p.c"
	cc -m32 -o "$work/p32" "$work/p.c" >/dev/null 2>&1 &&
		fail "hiding failed: cc -m32 links a program"
	echo "check_library_only: hidden: cmocka, nasm, -m32/-mx32 headers and libraries"
	mode=hidden
else
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
	if [ "$mode" != --no-hide ] && command -v dpkg >/dev/null &&
	   unshare -rm true 2>/dev/null; then
		unshare -rm sh "$0" "$src" --inside "$work"
		exit $?
	fi
	echo "check_library_only: no user namespaces (or --no-hide): packages not hidden"
fi

b=$work/b
# Unoptimised (build type None: no -O, no -g) and one job: what is checked
# is that the tree configures and builds without the packages, which no
# optimisation changes; so built, it takes one core for ~25 s beside the
# other tests instead of both for a minute alone (docs/testing.md).
cmake -S "$src" -B "$b" -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=None > "$work/configure.log" 2>&1 ||
	{ tail -30 "$work/configure.log" >&2; fail "configure with BUILD_TESTING=OFF failed"; }
cmake --build "$b" -j 1 > "$work/build.log" 2>&1 ||
	{ grep -B2 -A10 -m3 -i "error" "$work/build.log" >&2; fail "build with BUILD_TESTING=OFF failed"; }
for f in sysgate libsysgate.a; do
	[ -f "$b/$f" ] || fail "$f not built"
done
ls "$b"/libsysgate.so* >/dev/null 2>&1 || fail "libsysgate.so not built"
"$b/sysgate" --version >/dev/null 2>&1 ||
	fail "the built sysgate does not run"
# no test targets, no tests
targets=$(cmake --build "$b" --target help 2>/dev/null | sed -n 's/^\.\.\. \([^ ]*\).*/\1/p')
bad=$(echo "$targets" | grep -E '^(test_|guest|difftest|fuzz_|trace_|dyn|iso_)' | tr '\n' ' ')
[ -z "$bad" ] || fail "test targets with BUILD_TESTING=OFF: $bad"
[ ! -e "$b/CTestTestfile.cmake" ] || fail "tests registered with BUILD_TESTING=OFF"
n=$(echo "$targets" | grep -c .)
echo "check_library_only: BUILD_TESTING=OFF ($mode): libsysgate.so, libsysgate.a, sysgate built; $n targets, none a test's"
