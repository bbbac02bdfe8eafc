#!/bin/sh
# The i386 ld.so-run-as-the-program case's twin (tests/e2e/dynamic/CMakeLists.txt,
# ld-so-direct): the x86_64 ld.so runs the x86_64 build of the program
# named by its first argument (PROG-i386 -> PROG-x86_64), with argv[0]
# the i386 program's path, which is what the i386 ld.so gives.
p=$1
shift
exec /lib64/ld-linux-x86-64.so.2 --argv0 "$p" "${p%-i386}-x86_64" "$@"
