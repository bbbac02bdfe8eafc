#!/bin/sh
# check_lib_exports.sh NM LIBSYSGATE_SO
# libsysgate.so exports sg_* only (src/core/exports.map): names outside the
# API would interpose an embedder's own (its Capstone, say). Fails on any
# other defined dynamic symbol, or when hardly any sg_* is exported.
set -u
nm=$1 lib=$2
syms=$("$nm" -D --defined-only "$lib") || exit 1
bad=$(echo "$syms" | awk '{print $3}' | grep -v '^sg_' | grep -v '^$' | tr '\n' ' ')
n=$(echo "$syms" | grep -c ' sg_')
echo "sg_* exported: $n; others: $bad"
[ -z "$bad" ] && [ "$n" -gt 10 ]
