#!/bin/sh
# kinds_gen.sh ARGS_IN OUT: the argument kinds of tables/syscall_args.in as
# a C table for the system call differential tester (sysdiff.c):
#   { "name", "abi or empty", "kind kind ..." },
# The trace's own list is the one source of what each argument is
# (%shape lines and the shapes after "=" are the host's, not needed here).
set -eu
in=$1
out=$2
awk '
/^#/ || /^%/ || NF < 2 { next }
{
	name = $1; abi = ""
	at = index(name, "@")
	if (at) { abi = substr(name, at + 1); name = substr(name, 1, at - 1) }
	kinds = ""
	# the kind without its shape (kind=shape)
	for (i = 3; i <= NF; i++) { k = $i; sub(/=.*/, "", k); kinds = kinds (i > 3 ? " " : "") k }
	printf "{ \"%s\", \"%s\", \"%s\" },\n", name, abi, kinds
}' "$in" > "$out.tmp"
mv "$out.tmp" "$out"
