#!/bin/sh
# Build-time generator: tables/syscall_32.tbl + syscall_64.tbl +
# syscall_args.in -> X-macro headers in OUTDIR (see src/syscall/table.c):
#
#   syscalls_i386.h  syscalls_x64.h  syscalls_x32.h
#       SG_SYSCALL(nr, name, entry, RET, nargs, K0, K1, K2, K3, K4, K5)
#       i386: the compat entry point when the row has one, else the entry;
#       x64: rows `common` and `64`; x32: rows `common` and `x32`, always
#       with the 4th column (the kernel's x32 path calls the 64-bit entry
#       for common rows). A row without an entry point gets sys_ni_syscall.
#   syscall_entries.h
#       SG_SYSCALL_ENTRY(entry), each entry point once (for declarations)
#   syscall_shapes.h
#       per entry point whose rows all have a line in syscall_args.in and
#       agree (docs/syscalls.md, "The argument description"):
#       SG_ARGS_<entry>: the PA() list sc_passthrough takes, when every
#         argument has a shape (a pointer without one makes none);
#       SG_PARAMS_<entry>(names...) and SG_ARGV_<entry>: the typed
#         parameters and the conversions of a[] (SG_SYSCALL_DEFINEn).
#
# Usage: systab_gen.sh TBL32 TBL64 ARGS OUTDIR [KINDS]. KINDS
# (src/trace/kinds.in) adds the trace's own argument kinds: each first
# column is accepted as a kind and becomes SYSTAB_ARG_<UPPER> (defined in
# the generated systab_kinds.h, which syscall_entries.h then includes). Outputs are written to temporary files
# and renamed, so a failure leaves no partial header.
set -eu

if [ $# -ne 4 ] && [ $# -ne 5 ]; then
	echo "usage: $0 syscall_32.tbl syscall_64.tbl syscall_args.in outdir [kinds.in]" >&2
	exit 2
fi
tbl32=$1 tbl64=$2 args=$3 out=$4 kinds=${5:-/dev/null}
tmp=$out/.systab_gen.$$
trap 'rm -f "$tmp".*' EXIT

awk -v tbl32="$tbl32" -v tbl64="$tbl64" -v argsf="$args" -v kindsf="$kinds" -v tmp="$tmp" '
function fail(msg) { print "systab_gen: " msg > "/dev/stderr"; failed = 1; exit 1 }

# Slots of one argument kind for a table (off64 takes two i386 registers).
# kind may carry its shape (kind=shape): the trace sees the kind.
function slots(kind, tab) {
	sub(/=.*/, "", kind)
	if (kind == "off64")
		return tab == "i386" ? "LO64 HI64" : "OFF64"
	if (!(kind in known_kind))
		fail(argsf ": unknown argument kind \"" kind "\"")
	return toupper(kind)
}


# --- shapes: how each argument reaches the host (sc_passthrough) and the
# C type a typed handler gets it as: the shape written on the argument
# (kind=shape), else the shape of its kind (built in below, or %shape).
function shape_of(arg,    kind, sh) {
	kind = arg
	sh = ""
	if (index(arg, "=")) {
		kind = substr(arg, 1, index(arg, "=") - 1)
		sh = substr(arg, index(arg, "=") + 1)
	}
	if (sh == "")
		sh = (kind in kind_shape) ? kind_shape[kind] : "none"
	return sh
}

function kind_of(arg) {
	sub(/=.*/, "", arg)
	return arg
}

# A size in a shape: a number, or NAME for sizeof(struct NAME).
function size_expr(sz) {
	if (sz ~ /^[0-9]+$/)
		return sz
	if (sz ~ /^[a-z_][a-z0-9_]*$/)
		return "sizeof(struct " sz ")"
	fail(argsf ": bad size \"" sz "\"")
}

# The register slot of C argument ref ("@N": argument N, "@+1": the next
# one, "@-1": the one before) of argument j; slot_at[] holds the first slot of each C argument.
function ref_slot(ref, j,    n) {
	if (ref ~ /^[-+][0-9]+$/)
		n = j + ref
	else if (ref ~ /^[0-9]+$/)
		n = ref + 0
	else
		fail(argsf ": bad argument reference \"" ref "\"")
	if (!(n in slot_at))
		fail(argsf ": argument reference \"" ref "\" past the last argument")
	return slot_at[n]
}

# The PA() list of one row for its entry point ("" and why_not set when
# an argument has no shape), and its typed parameters and conversions.
function row_shapes(key, tab, entry,    n, k, j, s, sh, kind, compat, p, q, pa, ty, ex, pi) {
	n = split(sigs[key], k, " ")
	compat = entry ~ /^compat_/
	s = 0
	delete slot_at
	for (j = 2; j <= n; j++) {
		slot_at[j - 2] = s
		s += (kind_of(k[j]) == "off64" && tab == "i386") ? 2 : 1
	}
	pa = ""
	ty = ""
	ex = ""
	why_not = ""
	s = 0
	for (j = 2; j <= n; j++) {
		kind = kind_of(k[j])
		sh = shape_of(k[j])
		pi = j - 2
		p = ""
		if (kind == "off64" && tab == "i386") {
			p = "PA(PA_VAL, 0), PA(PA_VAL, 0)"
			ty = ty ", int64_t n" pi
			ex = ex ", (int64_t)(a[" s "] | a[" s + 1 "] << 32)"
			s += 2
			pa = pa (pa == "" ? "" : ", ") p
			continue
		}
		if (sh == "val" || sh == "id" && entry !~ /16$/)
			p = "PA(PA_VAL, 0)"
		else if (sh == "long")
			p = compat ? "PA(PA_S32, 0)" : "PA(PA_VAL, 0)"
		else if (sh == "id")
			p = "PA(PA_ID16, 0)"
		else if (sh == "path")
			p = "PA(PA_PATH, 0)"
		else if (sh == "str")
			p = "PA(PA_STR, 0)"
		else if (sh ~ /^(in|out)@/) {
			q = substr(sh, index(sh, "@") + 1)
			p = "PA(PA_" toupper(substr(sh, 1, index(sh, "@") - 1)) ", " ref_slot(q, pi) ")"
		} else if (sh ~ /^(in|out):/) {
			p = "PA(PA_" toupper(substr(sh, 1, index(sh, ":") - 1)) "N, " size_expr(substr(sh, index(sh, ":") + 1)) ")"
		} else if (sh ~ /^(ine|oute)@[^:]+:/) {
			q = substr(sh, index(sh, "@") + 1)
			p = "PA(PA_" toupper(substr(sh, 1, index(sh, "@") - 1)) ", PA_ELEM(" \
			    ref_slot(substr(q, 1, index(q, ":") - 1), pi) ", " \
			    size_expr(substr(q, index(q, ":") + 1)) "))"
		} else if (sh == "none") {
			if (why_not == "")
				why_not = "argument " pi " (" kind ") has no shape"
		} else
			fail(argsf ": " key ": unknown shape \"" sh "\"")
		pa = pa (pa == "" ? "" : ", ") p
		if (kind == "int" || kind == "fd" || kind == "dirfd") {
			ty = ty ", int n" pi
			ex = ex ", (int)a[" s "]"
		} else if (kind == "long") {
			ty = ty ", long n" pi
			ex = ex ", " (compat ? "sc_s32(a[" s "])" : "(long)a[" s "]")
		} else if (kind == "off64") {
			ty = ty ", int64_t n" pi
			ex = ex ", (int64_t)a[" s "]"
		} else {
			ty = ty ", uint64_t n" pi
			ex = ex ", a[" s "]"
		}
		s++
	}
	if (why_not != "")
		pa = ""
	row_pa = pa
	row_ty = substr(ty, 3)
	row_ex = substr(ex, 3)
	row_n = n - 1
}

# The rows of each entry point must agree; what differs is left out.
function note_shapes(tab, name, entry, key) {
	if (entry == "sys_ni_syscall")
		return
	if (key == "") {
		shapes_bad(entry, "row " name "@" tab " has no line in syscall_args.in", 1)
		return
	}
	row_shapes(key, tab, entry)
	if (!(entry in ent_seen)) {
		ent_seen[entry] = 1
		ent_pa[entry] = row_pa
		ent_why[entry] = why_not
		ent_ty[entry] = row_ty
		ent_ex[entry] = row_ex
		ent_n[entry] = row_n
		return
	}
	if (ent_pa[entry] != row_pa || ent_why[entry] != why_not)
		shapes_bad(entry, "rows disagree (" name "@" tab ")", 0)
	if (ent_ty[entry] != row_ty || ent_ex[entry] != row_ex)
		shapes_bad(entry, "rows disagree (" name "@" tab ")", 1)
}

# The first reason an entry point has no SG_ARGS (typed: no typed form).
function shapes_bad(entry, why, typed) {
	if (!(entry in ent_bad))
		ent_bad[entry] = why
	if (typed && !(entry in ent_tbad))
		ent_tbad[entry] = why
}

# One block per entry point, "entry<TAB>seq<TAB>line" for sort (below).
function shape_line(e, line) {
	print e "\t" (++shape_seq) "\t" line > (tmp ".shapes")
}

function print_shapes(    e, i, names) {
	for (e in ent_seen) {
		shape_line(e, "")
		if (e in ent_bad)
			shape_line(e, "/* " e ": no SG_ARGS: " ent_bad[e] " */")
		else if (ent_why[e] != "")
			shape_line(e, "/* " e ": no SG_ARGS: " ent_why[e] " */")
		else
			shape_line(e, "#define SG_ARGS_" e (ent_pa[e] == "" ? "" : " " ent_pa[e]))
		if (e in ent_tbad) {
			shape_line(e, "/* " e ": no typed form: " ent_tbad[e] " */")
			continue
		}
		if (ent_n[e] == 0)
			continue
		names = ""
		for (i = 0; i < ent_n[e]; i++)
			names = names (i ? ", " : "") "n" i
		shape_line(e, "#define SG_PARAMS_" e "(" names ") " ent_ty[e])
		shape_line(e, "#define SG_ARGV_" e " " ent_ex[e])
	}
	for (e in ent_bad)
		if (!(e in ent_seen)) {
			shape_line(e, "")
			shape_line(e, "/* " e ": no SG_ARGS: " ent_bad[e] " */")
		}
}

function emit(tab, nr, name, entry,    key, sig, n, k, i, ks, nk, m, res) {
	if (entry == "")
		entry = "sys_ni_syscall"
	key = name "@" tab
	if (!(key in sigs))
		key = name
	note_shapes(tab, name, entry, (key in sigs) ? key : "")
	if (key in sigs) {
		used[key] = 1
		n = split(sigs[key], k, " ")
		res = toupper(k[1])
		ks = ""
		nk = 0
		for (i = 2; i <= n; i++) {
			ks = ks " " slots(k[i], tab)
		}
		nk = split(ks, m, " ")
	} else {
		res = "DEC"
		nk = 6
		for (i = 1; i <= 6; i++)
			m[i] = "HEX"
	}
	if (nk > 6)
		fail(key ": more than six argument registers")
	line = "SG_SYSCALL(" nr ", " name ", " entry ", " res ", " nk
	for (i = 1; i <= 6; i++)
		line = line ", " (i <= nk ? m[i] : "NONE")
	print line ")" > (tmp "." tab)
	entries[entry] = 1
	names[name] = 1
}

function header(tab, what) {
	print "/* generated by tools/systab_gen.sh from " what "; do not edit */" > (tmp "." tab)
}

BEGIN {
	split("int long ulong size hex ptr fd dirfd str ibuf obuf oct cmode flags", kk, " ")
	for (i in kk)
		known_kind[kk[i]] = 1
	while ((r = getline l < kindsf) > 0) {
		if (l ~ /^[ \t]*(#|$)/)
			continue
		split(l, f, /[ \t]+/)
		known_kind[f[1]] = 1
		if (f[2] == "flags" || f[2] == "enum")
			kind_shape[f[1]] = "val"
	}
	split("dec hex oct none", rr, " ")
	for (i in rr)
		known_res[rr[i]] = 1

	# the shapes of the base kinds (docs/syscalls.md); a %shape line of
	# syscall_args.in gives a kind of kinds.in its own
	split("int ulong size hex fd dirfd oct cmode flags off64", kk, " ")
	for (i in kk)
		kind_shape[kk[i]] = "val"
	kind_shape["long"] = "long"
	kind_shape["str"] = "path"
	kind_shape["ibuf"] = "in@+1"
	kind_shape["obuf"] = "out@+1"
	while ((r = getline l < argsf) > 0) {
		if (l ~ /^[ \t]*(#|$)/)
			continue
		n = split(l, f, /[ \t]+/)
		if (f[1] == "%shape") {
			if (n != 3 || !(f[2] in known_kind))
				fail(argsf ": bad line: " l)
			kind_shape[f[2]] = f[3]
			continue
		}
		if (!(f[2] in known_res))
			fail(argsf ": " f[1] ": unknown result kind \"" f[2] "\"")
		if (f[1] in sigs)
			fail(argsf ": " f[1] " listed twice")
		s = f[2]
		for (i = 3; i <= n; i++)
			s = s " " f[i]
		sigs[f[1]] = s
	}
	if (r < 0)
		fail("cannot read " argsf)

	header("i386", "tables/syscall_32.tbl")
	header("x64", "tables/syscall_64.tbl (common, 64)")
	header("x32", "tables/syscall_64.tbl (common, x32)")
	while ((r = getline l < tbl32) > 0) {
		if (l ~ /^[ \t]*(#|$)/)
			continue
		split(l, f, /[ \t]+/)
		if (f[2] != "i386")
			fail(tbl32 ": bad abi \"" f[2] "\" in: " l)
		if (f[1] in seen32)
			fail(tbl32 ": number " f[1] " twice")
		seen32[f[1]] = 1
		emit("i386", f[1], f[3], f[5] != "" ? f[5] : f[4])
		delete f
	}
	if (r < 0)
		fail("cannot read " tbl32)
	while ((r = getline l < tbl64) > 0) {
		if (l ~ /^[ \t]*(#|$)/)
			continue
		split(l, f, /[ \t]+/)
		if (f[1] in seen64)
			fail(tbl64 ": number " f[1] " twice")
		seen64[f[1]] = 1
		if (f[2] == "common" || f[2] == "64")
			emit("x64", f[1], f[3], f[4])
		if (f[2] == "common" || f[2] == "x32")
			emit("x32", f[1], f[3], f[4])
		if (f[2] != "common" && f[2] != "64" && f[2] != "x32")
			fail(tbl64 ": bad abi \"" f[2] "\" in: " l)
		delete f
	}
	if (r < 0)
		fail("cannot read " tbl64)

	for (key in sigs) {
		split(key, p, "@")
		if (!(p[1] in names) || (p[2] != "" && p[2] != "i386" && p[2] != "x64" && p[2] != "x32"))
			fail(argsf ": " key " matches no table row")
	}
	for (e in entries)
		print "SG_SYSCALL_ENTRY(" e ")" > (tmp ".entries")
	print_shapes()
}
END { if (failed) exit 1 }
'
{
	echo "/* generated by tools/systab_gen.sh; do not edit */"
	# included at file scope before the tables: the trace's kinds
	[ "$kinds" = /dev/null ] || echo '#include "systab_kinds.h"'
	sort "$tmp.entries"
} > "$tmp.entries.sorted"
mv "$tmp.entries.sorted" "$out/syscall_entries.h"
mv "$tmp.i386" "$out/syscalls_i386.h"
mv "$tmp.x64" "$out/syscalls_x64.h"
mv "$tmp.x32" "$out/syscalls_x32.h"
{
	echo "/* generated by tools/systab_gen.sh from tables/syscall_args.in; do not edit */"
	sort -t "$(printf '\t')" -k1,1 -k2,2n "$tmp.shapes" | cut -f3-
} > "$tmp.shapes.sorted"
mv "$tmp.shapes.sorted" "$out/syscall_shapes.h"
