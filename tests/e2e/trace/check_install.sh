#!/bin/sh
# check_install.sh BUILD_DIR SRC_DIR GUEST_DIR STRAIGHT APIREGS [CFLAGS...]
# `cmake --install` into a temporary prefix, then build examples/ against
# the INSTALLED library through pkg-config, shared and static, and run them:
#   sandbox: tests/guest/files writes inside the allowed directory (status
#            0), and is refused outside it (mkstemp: Permission denied,
#            nothing created)
#   block_coverage: straight.asm runs 16 instructions in 4 blocks, 3 distinct
#            (counted from its source), exit status 7
#   api_check.c: step, registers, memory, code patching, hooks, sg_stop
#   sandbox through sh -c: a guest's execve and fork keep the hooks
#   isolation_check.c: a guest in a process of its own (abort, SIGTERM,
#            close(1), chdir/umask, descriptors, fork, guests at once, stdio)
#   api_check.c and api_more_check.c run in both modes (SG_CHECK_MODE)
#   api_more_check.c: hooks per syscall number (i386, x32, x86_64 tables),
#            SG_HOOK_KILL, sg_run_until,
#            map/unmap/protect/regions, x87/SSE/selector registers on
#            APIREGS (apiregs.asm) and GUEST_DIR/int80-x86_64; events on
#            trace-threads and trace-forkexec; sg_load_memory
#   consumer/: a CMake project that find_package()s the installed package
#            and links sysgate::sysgate builds block_coverage.c, which counts as
#            above; asking for version 99 fails
# CFLAGS (e.g. the sanitizer flags the library was built with) are added
# to each example build.
set -u
build=$1 src=$2 guests=$3 straight=$4 apiregs=$5
shift 5
cflags=
for f in "$@"; do [ -n "$f" ] && cflags="$cflags $f"; done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "check_install: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$work/prefix" > "$work/install.log" 2>&1 ||
	{ cat "$work/install.log" >&2; fail "cmake --install failed"; }
for f in bin/sysgate include/sysgate.h share/man/man1/sysgate.1; do
	[ -f "$work/prefix/$f" ] || fail "$f not installed"
done
pc=$(find "$work/prefix" -name sysgate.pc | head -1)
[ -n "$pc" ] || fail "sysgate.pc not installed"
export PKG_CONFIG_PATH=$(dirname "$pc")
libdir=$(pkg-config --variable=libdir sysgate)
[ -f "$libdir/libsysgate.a" ] && [ -e "$libdir/libsysgate.so" ] || fail "libraries not in $libdir"

for ex in sandbox block_coverage; do
	cc $cflags -o "$work/$ex-shared" "$src/examples/$ex.c" \
		$(pkg-config --cflags --libs sysgate) -Wl,-rpath,"$libdir" ||
		fail "$ex: shared build failed"
	cc $cflags -o "$work/$ex-static" "$src/examples/$ex.c" $(pkg-config --cflags sysgate) \
		"$libdir/libsysgate.a" $(pkg-config --static --libs sysgate | sed 's/-lsysgate//') ||
		fail "$ex: static build failed"
done
# the static ones must not need libsysgate.so
ldd "$work/sandbox-static" | grep -q libsysgate && fail "static sandbox links libsysgate.so"

mkdir -p "$work/allowed" "$work/other"
for kind in shared static; do
	"$work/sandbox-$kind" "$work/allowed" "$guests/files-x86_64" "$work/allowed" \
		> "$work/out" 2> "$work/err" || { cat "$work/err" >&2; fail "sandbox-$kind: write inside refused"; }
	"$work/sandbox-$kind" "$work/allowed" "$guests/files-i386" "$work/other" \
		> "$work/out" 2> "$work/err"
	[ $? -ne 0 ] || fail "sandbox-$kind: write outside allowed"
	grep -q "mkstemp: Permission denied" "$work/err" || { cat "$work/err" >&2; fail "sandbox-$kind: no EACCES"; }
	[ -z "$(ls "$work/other")" ] || fail "sandbox-$kind: a file was created outside"

	# a guest's execve and fork keep the hooks (issue 20): a file outside
	# is refused through sh -c as to a direct touch, one inside is made
	# (the exec'd touch runs under the installed sysgate: SYSGATE_EXE
	# for the static build, which cannot find it from the library)
	SYSGATE_EXE="$work/prefix/bin/sysgate" "$work/sandbox-$kind" "$work/allowed" \
		/bin/touch "$work/other/direct" > "$work/out" 2> "$work/err"
	[ $? -ne 0 ] && [ ! -e "$work/other/direct" ] || fail "sandbox-$kind: direct touch outside allowed"
	SYSGATE_EXE="$work/prefix/bin/sysgate" "$work/sandbox-$kind" "$work/allowed" \
		/bin/sh -c "touch '$work/other/via-sh'" > "$work/out" 2> "$work/err"
	[ ! -e "$work/other/via-sh" ] || fail "sandbox-$kind: sh -c 'touch' escaped the sandbox"
	grep -q "denied openat(\"$work/other/via-sh\")" "$work/err" ||
		{ cat "$work/err" >&2; fail "sandbox-$kind: the exec'd touch was not hooked"; }
	# not the last command: sh forks, the child execs touch
	SYSGATE_EXE="$work/prefix/bin/sysgate" "$work/sandbox-$kind" "$work/allowed" \
		/bin/sh -c "touch '$work/other/via-fork'; exit 0" > "$work/out" 2> "$work/err"
	[ ! -e "$work/other/via-fork" ] || fail "sandbox-$kind: sh's forked touch escaped the sandbox"
	grep -q "denied openat(\"$work/other/via-fork\")" "$work/err" ||
		{ cat "$work/err" >&2; fail "sandbox-$kind: the forked touch was not hooked"; }
	# a relative path after the guest's cd: resolved from its directory
	# (/proc/TID/cwd), not the sandbox's
	(cd "$work/allowed" && SYSGATE_EXE="$work/prefix/bin/sysgate" "$work/sandbox-$kind" \
		"$work/allowed" /bin/sh -c "cd '$work/other' && touch relative") > "$work/out" 2> "$work/err"
	[ ! -e "$work/other/relative" ] && [ ! -e "$work/allowed/relative" ] ||
		fail "sandbox-$kind: a relative path after cd escaped the sandbox"
	SYSGATE_EXE="$work/prefix/bin/sysgate" "$work/sandbox-$kind" "$work/allowed" \
		/bin/sh -c "touch '$work/allowed/via-sh'" > "$work/out" 2> "$work/err" &&
		[ -e "$work/allowed/via-sh" ] || { cat "$work/err" >&2; fail "sandbox-$kind: sh -c 'touch' inside refused"; }
	rm -f "$work/allowed/via-sh"

	"$work/block_coverage-$kind" "$straight" 2> "$work/err"
	[ $? -eq 7 ] || fail "block_coverage-$kind: exit status not 7"
	grep -q "coverage: 16 instructions, 4 blocks entered, 3 distinct blocks, 1 system calls" "$work/err" ||
		{ cat "$work/err" >&2; fail "block_coverage-$kind: wrong counts"; }
done
# the CMake package: an embedder's project finds it and links sysgate::sysgate
[ -f "$libdir/cmake/sysgate/sysgateConfig.cmake" ] || fail "sysgateConfig.cmake not installed"
cmake -S "$src/tests/e2e/trace/consumer" -B "$work/consumer" -DCMAKE_PREFIX_PATH="$work/prefix" \
	-DSG_EXAMPLE="$src/examples/block_coverage.c" -DCMAKE_C_FLAGS="$cflags" \
	-DCMAKE_EXE_LINKER_FLAGS="$cflags" > "$work/consumer.log" 2>&1 &&
	cmake --build "$work/consumer" >> "$work/consumer.log" 2>&1 ||
	{ cat "$work/consumer.log" >&2; fail "consumer: find_package(sysgate) project failed to build"; }
ldd "$work/consumer/block_coverage" | grep -q "$work/prefix/.*libsysgate.so" ||
	{ ldd "$work/consumer/block_coverage" >&2; fail "consumer: not linked with the installed libsysgate.so"; }
"$work/consumer/block_coverage" "$straight" 2> "$work/err"
[ $? -eq 7 ] || fail "consumer coverage: exit status not 7"
grep -q "coverage: 16 instructions, 4 blocks entered, 3 distinct blocks, 1 system calls" "$work/err" ||
	{ cat "$work/err" >&2; fail "consumer coverage: wrong counts"; }
cmake -S "$src/tests/e2e/trace/consumer" -B "$work/consumer99" -DCMAKE_PREFIX_PATH="$work/prefix" \
	-DSG_EXAMPLE="$src/examples/block_coverage.c" -DSG_WANT_VERSION=99 > "$work/consumer99.log" 2>&1 &&
	fail "consumer: find_package(sysgate 99) accepted version $(pkg-config --modversion sysgate)"

# the API itself: step, registers, memory, hooks, stop (api_check.c)
start=$(nm "$straight" | awk '$3 == "_start" { print $1 }')
loop=$(nm "$straight" | awk '$3 == "loop" { print $1 }')
cc $cflags -o "$work/api_check" "$src/tests/e2e/trace/api_check.c" \
	$(pkg-config --cflags --libs sysgate) -Wl,-rpath,"$libdir" || fail "api_check: build failed"
# each in both modes: a guest in a process of its own (the default) and
# in-process (SG_CHECK_MODE=in, api_check.h)
for mode in own in; do
	SG_CHECK_MODE=$mode "$work/api_check" "$straight" "$start" "$loop" ||
		fail "api_check failed ($mode)"
done
# the newer calls: hooks per number, KILL, run until, address space, wide
# registers (api_more_check.c); syscall numbers from the kernel headers
nr() { printf '#include <asm/unistd_%s.h>\n__NR_%s\n' "$1" "$2" | cc -E -P - | tail -1; }
nrs="-DNR64_CLONE=$(nr 64 clone) -DNR64_GETPID=$(nr 64 getpid) -DNR64_GETUID=$(nr 64 getuid) -DNR32_GETPID=$(nr 32 getpid)"
nrs="$nrs -DNR32_EXIT=$(nr 32 exit) -DNR32_MKDIR=$(nr 32 mkdir)"
# x32's header adds __X32_SYSCALL_BIT: the hooks take the number without it
nrx32() { nr x32 "$1" | sed 's/.*+ *\([0-9]*\)).*/\1/'; }
nrs="$nrs -DNRX32_GETPID=$(nrx32 getpid) -DNRX32_RT_SIGACTION=$(nrx32 rt_sigaction)"
sym() { nm "$apiregs" | awk -v s="$1" '$3 == s { print $1 }'; }
# natively the two guests end as their sources say (exit 3, exit 14)
"$apiregs"; [ $? -eq 3 ] || fail "apiregs natively: exit status not 3"
# (int80-x86_64 only where the host has the i386 entry: probe-int80-x86_64)
if ("$guests/probe-int80-x86_64") 2>/dev/null; then
	"$guests/int80-x86_64" > /dev/null; [ $? -eq 14 ] || fail "int80-x86_64 natively: exit status not 14"
else
	echo "check_install: int80-x86_64 not run natively: this host has no IA32 emulation"
fi
"$guests/trace-forkexec-x86_64"; [ $? -eq 6 ] || fail "forkexec natively: exit status not 6"
"$guests/trace-threads-x86_64" > /dev/null || fail "threads natively: exit status not 0"
cc $cflags $nrs -o "$work/api_more_check" "$src/tests/e2e/trace/api_more_check.c" \
	$(pkg-config --cflags --libs sysgate) -Wl,-rpath,"$libdir" || fail "api_more_check: build failed"
for mode in own in; do
	SG_CHECK_MODE=$mode "$work/api_more_check" "$apiregs" "$(sym _start)" "$(sym calls)" "$(sym regs_ready)" \
		"$guests/int80-x86_64" "$guests/trace-threads-x86_64" "$guests/trace-forkexec-x86_64" \
		"$guests/int80-i386" "$guests/entry-x32" > "$work/out" || fail "api_more_check failed ($mode)"
done
# examples/hook_cost.c (docs/api.md's measurement) builds and counts the
# calls of getpids natively made (its argument)
cc $cflags -o "$work/hook_cost" "$src/examples/hook_cost.c" \
	$(pkg-config --cflags --libs sysgate) -Wl,-rpath,"$libdir" || fail "hook_cost: build failed"
"$work/hook_cost" "$guests/getpids-x86_64" 1000 | grep -q "^hook_cost: 1000 hooked calls" ||
	fail "hook_cost: not 1000 hooked calls"
# a guest in a process of its own cannot hurt its embedder (isolation_check.c)
"$guests/isolate-x86_64" abort 2> /dev/null; [ $? -eq 134 ] || fail "isolate abort natively: not SIGABRT"
cc $cflags -o "$work/isolation_check" "$src/tests/e2e/trace/isolation_check.c" -pthread \
	$(pkg-config --cflags --libs sysgate) -Wl,-rpath,"$libdir" || fail "isolation_check: build failed"
"$work/isolation_check" "$guests" || fail "isolation_check failed"
echo "check_install: installed, examples built (pkg-config shared and static, find_package) and run, API checked"
