#!/bin/sh
# make_testdir.sh DIR: a small directory with fixed contents and fixed
# mtimes (2024-01-02 03:04:05 local time) for the `ls -l` cases.
set -eu
dir=${1:?usage: make_testdir.sh DIR}
rm -rf "$dir"
mkdir -p "$dir/sub"
printf 'a\n' >"$dir/one"
printf 'hello\nworld\n' >"$dir/two"
printf '#!/bin/sh\necho run\n' >"$dir/run.sh"
chmod 755 "$dir/run.sh"
chmod 640 "$dir/two"
ln -s one "$dir/link"
touch -h -d '2024-01-02 03:04:05' "$dir/one" "$dir/two" "$dir/run.sh" \
	"$dir/link" "$dir/sub" "$dir"
