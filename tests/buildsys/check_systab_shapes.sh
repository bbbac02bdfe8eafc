#!/bin/sh
# check_systab_shapes.sh SRC_DIR
# tools/systab_gen.sh's argument shapes (docs/syscalls.md, "The argument
# description") on small tables made here, each line's expectation from
# the C signature of the call it imitates (read(int, void *, size_t);
# pread64 with a 64-bit offset that i386 passes in two registers, ...):
# the pass-through lists and typed parameters it generates, the entry
# points it gives none (an argument without a shape, rows that disagree,
# a row without a line) and the lines it refuses (build errors).
set -u
gen="$1/tools/systab_gen.sh"
work=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
fails=0

fail() {
	echo "check_systab_shapes: $*"
	fails=$((fails + 1))
}

# tables: i386 rows 0..5, x86_64 rows 0..4 (common) and 5 (64)
cat > "$work/32.tbl" <<'T'
0	i386	read		sys_read
1	i386	pread64		sys_pread64	compat_sys_ia32_pread64
2	i386	utimes		sys_utimes
3	i386	ftruncate	sys_ftruncate	compat_sys_ftruncate
4	i386	setuid		sys_setuid16
5	i386	sync_file_range	sys_sync_file_range
T
cat > "$work/64.tbl" <<'T'
0	common	read		sys_read
1	common	pread64		sys_pread64
2	common	utimes		sys_utimes
3	common	ftruncate	sys_ftruncate
4	common	setuid32	sys_setuid
5	64	sync_file_range	sys_sync_file_range
T
cat > "$work/kinds.in" <<'T'
filelen struct
uid struct
openflags flags x.h ^O_
T

# gen ARGS: run the generator on the tables with ARGS as syscall_args.in
gen() {
	printf '%s\n' "$@" > "$work/args.in"
	rm -rf "$work/out"
	mkdir "$work/out"
	sh "$gen" "$work/32.tbl" "$work/64.tbl" "$work/args.in" "$work/out" "$work/kinds.in" \
		2> "$work/err"
}

# has LINE: the generated syscall_shapes.h has LINE
has() {
	grep -qxF "$1" "$work/out/syscall_shapes.h" || fail "missing: $1"
}
hasnt() {
	! grep -q "$1" "$work/out/syscall_shapes.h" || fail "unexpected: $1"
}

good='%shape filelen long
%shape uid id
read dec fd obuf size
pread64 dec fd obuf size off64
utimes dec str ptr=in:32
ftruncate dec fd filelen
setuid dec uid
setuid32 dec uid
sync_file_range dec fd off64 off64 flags'
# shellcheck disable=SC2086
IFS='
'
gen $good || fail "good tables refused: $(cat "$work/err")"
unset IFS
has '#define SG_ARGS_sys_read PA(PA_VAL, 0), PA(PA_OUT, 2), PA(PA_VAL, 0)'
has '#define SG_PARAMS_sys_read(n0, n1, n2) int n0, uint64_t n1, uint64_t n2'
has '#define SG_ARGV_sys_read (int)a[0], a[1], a[2]'
# x86_64 pread64: the offset in one register; i386's compat entry: two
has '#define SG_ARGS_sys_pread64 PA(PA_VAL, 0), PA(PA_OUT, 2), PA(PA_VAL, 0), PA(PA_VAL, 0)'
has '#define SG_ARGV_compat_sys_ia32_pread64 (int)a[0], a[1], a[2], (int64_t)(a[3] | a[4] << 32)'
has '#define SG_PARAMS_compat_sys_ia32_pread64(n0, n1, n2, n3) int n0, uint64_t n1, uint64_t n2, int64_t n3'
has '#define SG_ARGS_sys_utimes PA(PA_PATH, 0), PA(PA_INN, 32)'
# compat_off_t: sign-extended in the compat entry point only
has '#define SG_ARGS_compat_sys_ftruncate PA(PA_VAL, 0), PA(PA_S32, 0)'
has '#define SG_ARGS_sys_ftruncate PA(PA_VAL, 0), PA(PA_VAL, 0)'
# 16-bit ids in the *16 entry points only
has '#define SG_ARGS_sys_setuid16 PA(PA_ID16, 0)'
has '#define SG_ARGS_sys_setuid PA(PA_VAL, 0)'
# one entry point for an i386 row (two registers per offset) and an
# x86_64 one: neither a pass-through list nor a typed form fits both
has '/* sys_sync_file_range: no SG_ARGS: rows disagree (sync_file_range@x64) */'
has '/* sys_sync_file_range: no typed form: rows disagree (sync_file_range@x64) */'
hasnt 'SG_ARGS_sys_sync_file_range'
hasnt 'SG_PARAMS_sys_sync_file_range'

# a pointer without a shape: no pass-through list, still a typed form
IFS='
'
gen $(echo "$good" | sed 's/^utimes dec str ptr=in:32$/utimes dec str ptr/') ||
	fail "ptr without a shape refused: $(cat "$work/err")"
unset IFS
has '/* sys_utimes: no SG_ARGS: argument 1 (ptr) has no shape */'
hasnt '#define SG_ARGS_sys_utimes'
has '#define SG_PARAMS_sys_utimes(n0, n1) uint64_t n0, uint64_t n1'

# a row without a line: neither
IFS='
'
gen $(echo "$good" | grep -v '^setuid32 ') || fail "a missing line refused"
unset IFS
has '/* sys_setuid: no SG_ARGS: row setuid32@x64 has no line in syscall_args.in */'
hasnt 'SG_PARAMS_sys_setuid('

# lines the generator refuses
for bad in 'read dec fd obuf=out@+5 size' 'read dec fd obuf=sideways size' \
	'read dec fd obuf=in:9x size' '%shape nosuchkind val' '%shape filelen'; do
	IFS='
'
	if gen $(echo "$good" | grep -v '^read ') "$bad"; then
		fail "accepted: $bad"
	fi
	unset IFS
done

[ "$fails" -eq 0 ] || exit 1
echo "check_systab_shapes: all pass"
