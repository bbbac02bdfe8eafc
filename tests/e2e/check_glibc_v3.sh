#!/bin/sh
# check_glibc_v3.sh SYSGATE LDSO
# e2e.glibc-v3: the host's dynamic loader run under sysgate judges the CPU
# x86-64-v3 capable and searches glibc-hwcaps/x86-64-v3 (`ld.so --help`).
# 77 (skipped) where the loader is missing or does not say "x86-64-v3
# (supported" natively: no glibc 2.33+ hwcaps listing, or no x86-64-v3 CPU.
set -u
sysgate=$1 ldso=$2
[ -x "$ldso" ] && "$ldso" --help | grep -q 'x86-64-v3 (supported' || exit 77
"$sysgate" "$ldso" --help | grep 'x86-64-v3'
"$sysgate" "$ldso" --help | grep -q 'x86-64-v3 (supported, searched)'
