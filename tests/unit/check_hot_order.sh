#!/bin/sh
# check_hot_order.sh NM SYSGATE HOT_ORDER_TXT
# The hot functions (src/cpu/hot_order.txt) are linked first, in the
# list's order, none of the rest between them (CMakeLists.txt,
# SG_HOT_ORDER). A name not found there is a function this build inlined
# (gcc -O2 inlines some that -O3 keeps), one gcc made cold (its section
# is .text.unlikely.NAME), or one renamed or gone since the list was
# written: up to 2% of the list may be such, more means the list is stale
# (tools/hot_order.py writes it anew). A header's static function has a
# copy per unit that keeps one out of line: the copies lie together.
set -u
nm=$1 exe=$2 list=$3
"$nm" -n "$exe" | awk -v list="$list" '
	BEGIN {
		while ((getline line < list) > 0)
			if (line ~ /^[A-Za-z_]/) { want[line] = ++n; name[n] = line }
	}
	$2 ~ /^[tT]$/ {
		k++
		if ($3 in want) { if (!($3 in first)) first[$3] = k; last[$3] = k; copies[$3]++ }
	}
	END {
		end = 0; placed = 0
		for (i = 1; i <= n; i++) {
			f = name[i]
			if (!(f in first)) { missing = missing " " f; continue }
			if (end && first[f] != end + 1) { elsewhere = elsewhere " " f; continue }
			if (last[f] - first[f] + 1 != copies[f]) { elsewhere = elsewhere " " f; continue }
			end = last[f]; placed++
		}
		printf "hot functions: %d listed, %d linked first in order; not in this build:%s; elsewhere:%s\n",
		       n, placed, missing, elsewhere
		if (n == 0 || (n - placed) * 50 > n)
			exit 1
	}'
