#!/bin/sh
# fact_lines.sh [REV]: where issue 21's duplicated facts are written, at a
# git revision (default HEAD), as counts of lines (or occurrences) a fixed
# pattern finds, so two revisions compare: the closing note's before/after
# table. Not a build step and not a test; run it from the source tree.
#
# Each row: the fact, what is counted, the count and the files it is in
# (how many, and the first few). The patterns are the measure: a fact
# written once shows as one place, or none where it is generated.
set -eu
rev=${1:-HEAD}
git rev-parse --verify -q "$rev^{commit}" >/dev/null || { echo "fact_lines: no revision $rev" >&2; exit 2; }

# count PATTERN PATHSPEC...: occurrences (-o) of an extended regex at rev
count() {
	pat=$1; shift
	git grep -h -o -I -E "$pat" "$rev" -- "$@" 2>/dev/null | wc -l | tr -d ' '
}
# files PATTERN PATHSPEC...: the files with a match, "n: a b c..."
files() {
	pat=$1; shift
	list=$(git grep -l -I -E "$pat" "$rev" -- "$@" 2>/dev/null | sed "s|^$rev:||")
	n=$(printf '%s' "$list" | grep -c . || true)
	printf '%s: %s' "$n" "$(printf '%s\n' "$list" | head -6 | tr '\n' ' ')"
}
# lines PATH...: lines of the files that exist at rev
lines() {
	t=0
	for p in "$@"; do
		n=$(git show "$rev:$p" 2>/dev/null | wc -l | tr -d ' ')
		t=$((t + n))
	done
	echo "$t"
}
# bodies NAME_REGEX PATH: lines of the C functions (a definition starting
# in column 0, to the "}" in column 0 that ends it) whose name matches, in
# the .c files under PATH but carried.c
bodies() {
	t=0
	for f in $(git ls-tree -r --name-only "$rev" -- "$2" | grep '\.c$'); do
		case $f in */carried.c) continue ;; esac
		n=$(git show "$rev:$f" | awk -v re="$1" '
			/^[A-Za-z_].*\(/ && !/;[[:space:]]*$/ && !in_fn {
				line = $0
				if (match(line, /SG_SYSCALL_DEFINE\([a-z0-9_]+/))
					name = substr(line, RSTART + 18, RLENGTH - 18)
				else if (match(line, /[A-Za-z_][A-Za-z0-9_]*\(/))
					name = substr(line, RSTART, RLENGTH - 1)
				if (name ~ re) in_fn = 1
			}
			in_fn { n++ }
			in_fn && /^}/ { in_fn = 0 }
			END { print n + 0 }')
		t=$((t + n))
	done
	echo "$t"
}
row() { printf '| %s | %s | %s | %s |\n' "$1" "$2" "$3" "$4"; }

echo "revision $(git rev-parse --short "$rev") ($(git log -1 --format=%cd --date=iso "$rev"))"
echo
echo "| fact | counted | count | files |"
echo "|---|---|---:|---|"

# guest struct layouts: the trace's raw offsets into guest structs, and
# the hand-written layout files
p='rd[0-9a-z_]*\([a-z_]+ ?\+ ?[0-9]+'
row "guest struct layouts" "trace reads at raw offsets (rd(b + 24))" "$(count "$p" src/trace)" "$(files "$p" src/trace)"
row "" "lines of compat.h + layout_ref*.c" \
	"$(lines src/syscall/compat/compat.h src/signal/layout_ref.c src/syscall/compat/layout_ref_uapi.c src/syscall/compat/layout_ref_libc.c src/syscall/layout_ref.c)" ""
# guest structs sysgate lays out itself (fixed-width members and asserted
# numbers) against the kernel's declarations written once for the
# generator (kernel_structs.h, compiled per ABI)
p='^struct [a-z0-9_]+ \{'
row "" "hand-written guest struct definitions (compat.h, sigframe_layout.h, task.c's user_desc)" \
	"$(count "$p" src/syscall/compat/compat.h src/syscall/compat/sigframe_layout.h src/syscall/task.c)" \
	"$(files "$p" src/syscall/compat/compat.h src/syscall/compat/sigframe_layout.h src/syscall/task.c)"
p='COMPAT_ASSERT_(SIZE|OFF)\(|_Static_assert\((sizeof|offsetof)\((struct (compat|sc|rt_frame|ucx32|uc32|sigframe)|\(struct (compat|sc))'
row "" "hand-written size/offset asserts of guest structs" "$(count "$p" src)" "$(files "$p" src)"
row "" "user_desc bit positions written as numbers (src/syscall, src/signal, src/trace)" \
	"$(count 'UD_[A-Z_0-9]+ 0x|d\[3\] >> [0-9]|d\[3\] & 1|& 0x08\) /\* read_exec_only|>> 1\) & 3\) <= 1' src/syscall src/signal src/trace)" ""
row "" "the kernel's declarations, once (kernel_structs.h struct definitions)" \
	"$(count "^struct kernel_[a-z0-9_]+ \{" src/syscall/compat/kernel_structs.h)" ""

# argument shapes: the trace's table and passthrough's PA(...) lists
p='\bPA\('
row "argument shapes" "PA(...) argument lists" "$(count "$p" src/syscall)" "$(files "$p" src/syscall)"
row "" "tables/syscall_args.in rows" "$(git show "$rev:tables/syscall_args.in" 2>/dev/null | grep -c -v -E '^[[:space:]]*(#|$)' || true)" ""

# socketcall/ipc: the functions that take the sub-call apart (the
# dispatch's, the trace's, the demultiplexer's) and carried.[ch]
row "socketcall/ipc demultiplexing" "lines of functions named *socketcall*, *_ipc, *ipc_view*, *carried* (+ carried.[ch], the one demultiplexer)" \
	"$(bodies 'socketcall|_ipc$|ipc_view|carried' src) (+ $(lines src/syscall/carried.c src/syscall/carried.h))" \
	"$(files 'socketcall|sys_ipc|ipc_view|sg_carried' 'src/*.c' 'src/*/*.c')"

# block and operand decisions from Capstone (its text in the trace aside)
p='cs_disasm|CS_GRP_|X86_INS_|X86_OP_MEM'
row "Capstone deciding (boundaries, operands)" "calls and groups outside src/trace/cs_lazy.c (insn.c's: the trace's text)" \
	"$(count "$p" src ':!src/trace/cs_lazy.c')" "$(files "$p" src ':!src/trace/cs_lazy.c')"

# opcode properties kept as code keyed by handler pointers (the issue's
# spec_of, moves_rip, ends_run(), lflive's and the register forms' hashes)
p='\b(spec_of|moves_rip|ends_run|lf_hash|reg_form_slot)\(|reg_forms\['
row "opcode properties by handler pointer" "uses of spec_of(), moves_rip(), ends_run(), lf_hash(), reg_forms[] in src/cpu" \
	"$(count "$p" 'src/cpu/*.c')" "$(files "$p" 'src/cpu/*.c')"

# the ABIs as enums (of an ABI, a table, a layout by ABI; not the enums
# of one struct's forms, statfs_form's STATFS_I386)
p='enum [a-z_]*(abi|table|layout)[a-z_]* \{[^}]*(I386|IA32)'
row "ABI enums" "enum definitions naming the ABIs" "$(count "$p" src include)" "$(files "$p" src include)"

# ia32 where sysgate names the ABI (the kernel's own names aside)
p='[Ii][Aa]32'
# the kernel's: its IA32 emulation and int $0x80 entry (and that entry's
# numbers), its entry points and files, its constants; the trace filter's
# accepted spelling
k='sys_ia32|ucontext_ia32|IA32[ _]?[Ee]mulation|IA32_EMULATION|ia32[ _]entry|IA32_NR_|IA32$|\(IA32|IA32_PAGE_OFFSET|check_arch_ia32|DLINFO_IA32|"ia32"'
all=$(git grep -h -I -E "$p" "$rev" -- src include 2>/dev/null | wc -l | tr -d ' ')
kern=$(git grep -h -I -E "$p" "$rev" -- src include 2>/dev/null | grep -c -E "$k" || true)
row "ia32 / i386 spelling" "lines with ia32 in src/ include/ (of them naming the kernel's own things)" "$all ($kern)" "$(files "$p" src include)"

# positional argument reads in the handlers
p='\ba\[[0-5]\]'
row "positional arguments" "a[0]..a[5] in src/syscall/*.c" "$(count "$p" 'src/syscall/*.c')" "$(files "$p" 'src/syscall/*.c')"
