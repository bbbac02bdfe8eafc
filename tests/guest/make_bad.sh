#!/bin/sh
# make_bad.sh KIND INPUT OUTPUT: derive a bad-input file for the e2e tests
# from a good static program.
#   truncated  the first 100 bytes of INPUT (ELF header, cut program headers)
#   machine    a copy of INPUT with e_machine (offset 18, 2 bytes LE) = 40,
#              EM_ARM
#   text       a plain text file (INPUT unused), mode 755
set -eu
kind=$1 in=$2 out=$3
rm -f "$out"
case $kind in
truncated)
	head -c 100 "$in" >"$out.tmp"
	;;
machine)
	cp "$in" "$out.tmp"
	printf '\050\000' | dd of="$out.tmp" bs=1 seek=18 conv=notrunc 2>/dev/null
	;;
text)
	printf 'this is a text file, not a program\nsecond line\n' >"$out.tmp"
	;;
*)
	echo "make_bad.sh: unknown kind $kind" >&2
	exit 2
	;;
esac
chmod 755 "$out.tmp"
mv "$out.tmp" "$out"
