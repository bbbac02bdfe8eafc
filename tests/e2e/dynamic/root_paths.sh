#!/bin/sh
# root_paths.sh SYSGATE ROOT TESTDIR: the sysroot as the guest sees it.
# Each check runs a tool of ROOT under `SYSGATE -L ROOT` and compares its
# output with the same fact read natively (never with sysgate's output).
set -u
sg=$1 root=$2 testdir=$3
fail=0
check() { # WHAT EXPECTED ACTUAL
	if [ "$2" = "$3" ]; then
		echo "ok: $1"
	else
		echo "FAIL: $1: expected '$2', got '$3'"
		fail=1
	fi
}
run() { env -i PATH=/usr/bin:/bin "$sg" -L "$root" "$@" 2>/dev/null; }

# a symlink that exists in the root is the root's
check "readlink of a root path" "$(readlink "$root/lib/ld-linux.so.2")" \
	"$(run "$root/bin/readlink" /lib/ld-linux.so.2)"
# stat of a root file: its size, not the host's file of that name
check "stat of a root file" "$(stat -c %s "$root/bin/dash")" \
	"$(run "$root/usr/bin/stat" -c %s /bin/dash)"
# open of a root file
check "cat of a root file" "$(cat "$root/etc/ld.so.conf")" \
	"$(run "$root/bin/cat" /etc/ld.so.conf)"
# a path the root does not have is the host's
check "host path outside the root" "$(stat -c %s "$testdir/two")" \
	"$(run "$root/usr/bin/stat" -c %s "$testdir/two")"
# access(2) through test -x in the root's dash
check "access of a root file" "yes" \
	"$(run "$root/bin/dash" -c 'test -x /usr/bin/sha256sum && echo yes')"
# /proc/self/exe names the guest program, in the root
check "/proc/self/exe" "$(realpath "$root/bin/readlink")" \
	"$(run "$root/bin/readlink" /proc/self/exe)"
# a `#!/bin/sh` script given to sysgate runs the root's (i386) dash
check "#!/bin/sh through the root" "run" "$(run "$testdir/run.sh")"
exit $fail
