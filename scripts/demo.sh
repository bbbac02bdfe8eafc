#!/bin/sh
# demo.sh BUILD_DIR: the main job at a glance. For each ABI (i386, x32,
# x86_64), run a libc "hello" and the hand-written programs of each system
# call entry mechanism under `sysgate --trace=entry`: the program's output,
# and on stderr one line per system call with the path it took (ABI,
# mechanism, number, handler). Exits 0 when every program exited with the
# status its source gives (the status of a native run, where this kernel
# can run the program at all). Used by `make run`.
set -u
build=${1:-build}
sg=$build/sysgate
g=$build/guest
if [ ! -x "$sg" ] || [ ! -d "$g" ]; then
	echo "demo: build first (no $sg or $g)" >&2
	exit 1
fi

failed=0

# show TITLE STATUS PROGRAM [ARG]...: run one program, check its status.
show() {
	title=$1 want=$2
	shift 2
	printf '\n=== %s\n$ sysgate --trace=entry %s\n' "$title" "$*"
	"$sg" --trace=entry "$@"
	got=$?
	if [ "$got" = "$want" ]; then
		echo "--- exit status $got (as expected)"
	else
		echo "--- exit status $got, expected $want: FAILED"
		failed=$((failed + 1))
	fi
}

echo "sysgate: x86 Linux programs of three ABIs, each system call passed to this kernel."
echo "stdout is the program's; the trace lines (stderr) show how each call entered."

# Can this kernel run i386 programs itself? (IA32 emulation is often off.)
i386_note=
if ! "$g/probe-i386" 2>/dev/null; then
	i386_note=" (this kernel cannot run it)"
fi

echo
echo "############ i386: 32-bit code, i386 table (int 0x80, or sysenter via the vDSO)$i386_note"
show "i386 hello (static glibc, calls through __kernel_vsyscall)" 3 "$g/hello-i386" one two
show "i386 int 0x80" 11 "$g/int80-i386"
show "i386 sysenter through AT_SYSINFO (__kernel_vsyscall)" 12 "$g/sysenter-i386"

echo
echo "############ x32: 64-bit code, 32-bit pointers, syscall with bit 0x40000000 (this kernel cannot run it)"
show "x32 hello (static glibc)" 3 "$g/hello-x32" one two
show "x32 syscall: the x32 bit picks the x32 table; without it, the 64-bit table" 15 "$g/entry-x32"

echo
echo "############ x86_64: 64-bit code, 64-bit table (syscall); int 0x80 still reaches the i386 table"
show "x86_64 hello (static glibc)" 3 "$g/hello-x86_64" one two
show "x86_64 syscall" 13 "$g/syscall-x86_64"
show "x86_64 int 0x80: i386 numbers from 64-bit code" 14 "$g/int80-x86_64"

echo
if [ "$failed" = 0 ]; then
	echo "demo: every program exited as it does natively (where this kernel can run it)."
	exit 0
fi
echo "demo: $failed program(s) did not exit with the expected status."
exit 1
