#!/bin/bash
# binfmt_misc, end to end, without touching the host's registrations: in a
# user namespace of its own (a kernel since 6.7 gives each one its own
# binfmt_misc), sysgate registers its x32 entry and (explicitly) its i386
# entry with a sysroot, then the programs run directly: by path, from a
# shell script, through env and through bash's exec -a. Each run's output
# (argc, argv, /proc/self/exe's name) must equal the x86_64 twin's run the
# same way natively, from a file of the same name; the i386 entry's sysroot
# must be the one given at registration (the program reads a file only
# the sysroot has, as `sysgate -L ROOT prog` does). Then unregister: the
# x32 program no longer runs where the kernel has no x32.
#
#   binfmt_case.sh SYSGATE GUEST_DIR WORK
set -u
SG=$(readlink -f "$1")
G=$(readlink -f "$2")
W=$3
rm -rf "$W" && mkdir -p "$W" || exit 1
W=$(readlink -f "$W")

if ! unshare -Urm sh -c 'mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc' \
	2>"$W/probe.err"; then
	echo "SKIP: no binfmt_misc of its own in a user namespace here (a kernel" \
	     "before 6.7, or unprivileged user namespaces off): $(cat "$W/probe.err")"
	exit 77
fi

for d in native x32 i386; do mkdir -p "$W/$d"; done
cp "$G/argvshow-x86_64" "$W/native/prog"
cp "$G/argvshow-x32" "$W/x32/prog"
cp "$G/argvshow-i386" "$W/i386/prog"
mkdir -p "$W/root" && echo "from-the-sysroot" >"$W/root/sysgate-binfmt-marker"
for d in native x32 i386; do
	printf '#!/bin/sh\nexec ./prog script-arg "$@"\n' >"$W/$d/script.sh"
	chmod +x "$W/$d/script.sh"
done

# the ways a program is started, in the directory given
starts() {
	cd "$1" || exit 1
	echo "== path"; ./prog one "two words" ""; echo "status $?"
	echo "== script"; ./script.sh x; echo "status $?"
	echo "== env"; env ./prog y; echo "status $?"
	echo "== exec -a"; (exec -a chosen-name ./prog z); echo "status $?"
}
export -f starts

starts "$W/native" 2>&1 | sed 's/^marker .*/marker -/' >"$W/expected"
unshare -Urm bash -c '
	set -u
	mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc || exit 1
	"$0" --binfmt=register x32 || exit 1
	"$0" --binfmt=register i386 -L "$1/root" --binfmt-dir "$1/entries" || exit 1
	starts "$1/x32" >"$1/got-x32" 2>&1
	starts "$1/i386" >"$1/got-i386" 2>&1
	cd "$1/i386" && ./prog >"$1/got-i386-root" 2>&1
	"$0" --binfmt=unregister all || exit 1
	ls /proc/sys/fs/binfmt_misc >"$1/left"
	' "$SG" "$W" >"$W/ns.log" 2>&1
rc=$?
cat "$W/ns.log"
[ $rc = 0 ] || { echo "FAIL: the namespace's script failed ($rc)"; exit 1; }
fail=0
for abi in x32 i386; do
	sed 's/^marker .*/marker -/' "$W/got-$abi" >"$W/got-$abi.cmp"
	if ! diff -u "$W/expected" "$W/got-$abi.cmp"; then
		echo "FAIL: $abi through binfmt_misc differs from the native twin"
		fail=1
	fi
done
(cd "$W/i386" && "$SG" -L "$W/root" ./prog) >"$W/want-i386-root" 2>&1
if ! diff -u "$W/want-i386-root" "$W/got-i386-root" || ! grep -q 'marker from-the-sysroot' "$W/got-i386-root"; then
	echo "FAIL: the i386 entry did not keep its sysroot"
	fail=1
fi
if grep -q sysgate "$W/left"; then
	echo "FAIL: entries left after unregister: $(cat "$W/left")"
	fail=1
fi
[ $fail = 0 ] && echo "binfmt: x32 and i386 entries: 4 ways of starting each equal to native; sysroot kept; unregistered"
exit $fail
