#!/bin/sh
# build.layout_gen: tools/layout_gen.sh's checks fail where they should.
# The real list must give headers that compile with every _Static_assert;
# then each wrong input must fail: a layout that disagrees with the
# numbers the compiler took from the header (a field moved, padding lost,
# a size or signedness changed in the generated struct, a flexible array
# member moved), a row marked i386,x32 whose x32 layout differs (a uapi
# header's, and a declaration planted beside the list as kernel_structs.h
# is), an array not marked [], a member the header does not have, a
# bit-field word naming a member that is not there or one bit-field twice,
# a constant the headers do not define or given to two ABIs.
# Usage: check_layout_gen.sh SOURCE_DIR CC [EXTRA_CFLAG]...
set -eu
src=$1 cc=$2
shift 2
extra="$*" # (flags without spaces in them: -idirafter DIR)
gen=$src/tools/layout_gen.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

compiles() { # header
	printf '#include "%s"\n' "$1" > "$tmp/use.c"
	"$cc" -std=gnu11 -Wall -Wextra -Werror -c -o /dev/null "$tmp/use.c" 2>"$tmp/cc.err"
}

ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; failures=$((failures + 1)); }

# 1. the real list: both headers build, every number checked
mkdir "$tmp/real"
if sh "$gen" "$cc" "$src/src/syscall/compat/layouts.in" "$tmp/real" $extra 2>"$tmp/gen.err"; then
	for h in i386 x32 x86_64; do
		if compiles "$tmp/real/guest_layout_$h.h"; then
			ok "guest_layout_$h.h compiles with its asserts"
		else
			bad "guest_layout_$h.h does not compile"; cat "$tmp/cc.err"
		fi
	done
else
	bad "layout_gen.sh failed on layouts.in"; cat "$tmp/gen.err"
	exit 1
fi

# 2. generated layouts that disagree with the header's numbers do not build
h=$tmp/real/guest_layout_i386.h
grep -q '^LAYOUT_FIELD(compat_stat, st_mode, 8, 2);$' "$h" ||
	{ bad "no LAYOUT_FIELD line for compat_stat.st_mode at 8 (the test is stale)"; exit 1; }
tamper() { # description sed-script
	sed "$2" "$h" > "$tmp/tampered.h"
	if cmp -s "$h" "$tmp/tampered.h"; then
		bad "$1: the edit changed nothing (the test is stale)"
	elif compiles "$tmp/tampered.h"; then
		bad "$1: still compiles"
	else
		ok "$1: $(grep -m1 -o 'static assertion failed: "[^"]*"' "$tmp/cc.err" || echo 'does not compile')"
	fi
}
tamper "a field at another offset than the header's" \
	's/^LAYOUT_FIELD(compat_stat, st_mode, 8, 2);$/LAYOUT_FIELD(compat_stat, st_mode, 10, 2);/'
# compat_sysinfo's padding: the header's _f, not listed
tamper "padding lost" '/^struct compat_sysinfo {$/,/^}/{/uint8_t _pad/d}'
tamper "a 64-bit field aligned as the host aligns it" \
	's/^typedef uint64_t i386_u64_a4 __attribute__((aligned(4)));$/typedef uint64_t i386_u64_a4;/'
tamper "a field's signedness" '/^struct compat_timespec {$/,/^}/s/int32_t tv_sec;/uint32_t tv_sec;/'
# kernel_structs.h's rows: a flexible array member, an array of a
# kernel declaration
tamper "a flexible array member at another offset" \
	's/^LAYOUT_OFFSET(compat_linux_dirent, d_name, 10);$/LAYOUT_OFFSET(compat_linux_dirent, d_name, 12);/'
tamper "a kernel declaration's array shortened" \
	'/^struct compat_sigaction {$/,/^}/s/uint32_t mask\[2\];/uint32_t mask[1];/'
grep -q '^#define SC_USER_DESC_CONTENTS 0x6u ' "$tmp/real/guest_layout_x86_64.h" &&
	grep -q '^#define SC_USER_DESC_LM 0x80u ' "$tmp/real/guest_layout_x86_64.h" &&
	ok "user_desc's bit-field masks generated (contents 0x6, lm 0x80)" ||
	bad "user_desc's bit-field masks missing or not <asm/ldt.h>'s"
grep -q '^#define COMPAT_IPC_64 (256) ' "$tmp/real/guest_layout_i386.h" &&
	ok "a constant generated (COMPAT_IPC_64: <linux/ipc.h>'s IPC_64, 0x100)" ||
	bad "COMPAT_IPC_64 missing or not <linux/ipc.h>'s 0x100"

# 3. wrong lists fail generation
wrong_list() { # description row
	# the list's quoted includes are beside it: those of layouts.in, here
	# by their full path
	{ grep '^include' "$src/src/syscall/compat/layouts.in" |
		sed "s|^include \"\([^/]\)|include \"$src/src/syscall/compat/\1|"
	  echo "$2"; } > "$tmp/wrong.in"
	mkdir -p "$tmp/wrong"
	if sh "$gen" "$cc" "$tmp/wrong.in" "$tmp/wrong" $extra >/dev/null 2>"$tmp/gen.err"; then
		bad "$1: generated anyway"
	else
		ok "$1: $(tail -n 1 "$tmp/gen.err")"
	fi
}
wrong_list "an array not marked []" "compat_sysinfo i386 struct sysinfo :: uptime loads"
wrong_list "a member the header does not have" "compat_tms i386 struct tms :: tms_utime tms_wrong"
wrong_list "a struct field with no :STRUCT or #" "compat_group_req i386 struct group_req :: gr_interface gr_group"
wrong_list "a bit-field word naming a member the header does not have" \
	"sc_user_desc x86_64 struct user_desc :: entry_number base_addr limit flags{seg_32bit,segment_wrong}"
wrong_list "one bit-field twice in a word" \
	"sc_user_desc x86_64 struct user_desc :: entry_number base_addr limit flags{contents,contents}"
wrong_list "a constant the headers do not define" "const i386 COMPAT_WRONG IPC_WRONG"
wrong_list "a constant for two ABIs" "const i386,x32 COMPAT_IPC_64 IPC_64"
wrong_list "a kernel declaration's member not in it" \
	"compat_mmap_arg i386 struct kernel_mmap_arg_struct :: addr len prot flags fd pgoff"
if printf '#include <linux/time_types.h>\n' | "$cc" -mx32 -S -o /dev/null -x c - $extra 2>/dev/null; then
	# __kernel_old_timespec: 32-bit longs on i386, 64-bit on x32
	wrong_list "an i386,x32 row whose x32 layout differs" \
		"compat_timespec i386,x32 struct __kernel_old_timespec :: tv_sec tv_nsec"
	# a declaration of the kernel's in the wrong type: __kernel_long_t is
	# 64-bit on x32, where the compat long is 32
	printf '#include <linux/posix_types.h>\nstruct planted { __kernel_long_t n; void *p; };\n' \
		> "$tmp/planted.h"
	wrong_list "a planted declaration whose x32 layout differs (i386,x32)" \
		'include "planted.h"
planted i386,x32 struct planted :: n p'
else
	echo "skip: $cc cannot target -mx32: the i386,x32 check is not exercised"
fi

[ "$failures" -eq 0 ] || { echo "$failures check(s) failed"; exit 1; }
echo "all checks fail where they should"
