#!/bin/sh
# check_unique_basenames.sh SRC_DIR
# Fails if two source files (*.c, *.h, *.S) under src/, include/, tests/,
# tools/, bench/ or examples/ share a basename: a name must say which file
# it is (in an #include, a backtrace, a profile, a compiler message)
# without its folder. Prints each shared name with its files.
set -u
cd "$1" || exit 1
dirs=""
for d in src include tests tools bench examples; do
	[ -d "$d" ] && dirs="$dirs $d"
done
list=$(find $dirs -type f \( -name '*.c' -o -name '*.h' -o -name '*.S' \) | sort)
n=$(echo "$list" | grep -c .)
dups=$(echo "$list" | awk -F/ '{ print $NF }' | sort | uniq -d)
if [ -n "$dups" ]; then
	for b in $dups; do
		echo "check_unique_basenames: $b:" $(echo "$list" | awk -F/ -v b="$b" '$NF == b')
	done
	exit 1
fi
echo "check_unique_basenames: $n source files, no basename twice"
