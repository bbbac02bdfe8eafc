#!/bin/sh
# build.asan_macro: sysgate's code asks "is this an AddressSanitizer
# build?" through SG_ASAN (src/mm/mm.h), which gcc and clang both set: gcc
# defines __SANITIZE_ADDRESS__, clang 14 does not (only __has_feature).
# The CPU's LSan root regions were compiled out of the clang libFuzzer
# builds that way, and every fuzz_cpu job ended in a leak report.
# 1. SG_ASAN is set under -fsanitize=address by each compiler present;
# 2. no source but mm.h tests __SANITIZE_ADDRESS__ (and cpu/cache.h, whose
#    tail dispatch stays on in clang's ASan builds, as the fuzz runs had
#    it: a choice of dispatch, not of correctness).
# Usage: check_asan_macro.sh SOURCE_DIR
src=$1
rc=0
tried=0
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
printf '#include "mm/mm.h"\n#ifndef SG_ASAN\n#error SG_ASAN not set\n#endif\n' >"$probe/p.c"
for cc in gcc clang; do
	command -v "$cc" >/dev/null 2>&1 || continue
	tried=$((tried + 1))
	if ! "$cc" -fsanitize=address -fsyntax-only -I "$src/src" "$probe/p.c" 2>"$probe/err"; then
		echo "FAIL: $cc -fsanitize=address: SG_ASAN not set by mm/mm.h"
		cat "$probe/err"
		rc=1
	fi
done
[ $tried -gt 0 ] || { echo "SKIPPED: no gcc or clang"; exit 77; }
bad=$(grep -rln '__SANITIZE_ADDRESS__' "$src/src" | grep -v -e '/src/mm/mm\.h$' -e '/src/cpu/cache\.h$')
if [ -n "$bad" ]; then
	echo "FAIL: test SG_ASAN (mm/mm.h), not __SANITIZE_ADDRESS__ (clang does not set it):"
	echo "$bad"
	rc=1
fi
[ $rc = 0 ] && echo "asan macro: ok ($tried compilers)"
exit $rc
