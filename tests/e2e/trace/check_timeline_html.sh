#!/bin/sh
# check_timeline_html.sh SYSGATE GUEST: `sysgate -f --trace-timeline=X.html
# GUEST`, then the page rendered by headless Chromium (--dump-dom: the DOM
# after its script ran): one track per task and one -c row per call name,
# both against `strace -f` of the native run (its distinct pids, its
# distinct call names). Skipped (77) without chromium or strace.
# SG_TIMELINE_SCREENSHOT=FILE also saves a picture of it.
set -u
sysgate=$1 guest=$2
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "trace-timeline-html: no chromium, skipped"; exit 77; }
command -v strace >/dev/null || { echo "trace-timeline-html: no strace, skipped"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$guest" "$work/prog"
cd "$work" || exit 1
strace -f -q -o native.txt ./prog >/dev/null 2>&1
"$sysgate" -f --trace-timeline=tl.html ./prog >/dev/null 2>&1
[ -s tl.html ] || { echo "trace-timeline-html: no page written" >&2; exit 1; }
grep -q 'src=\|href="http' tl.html && { echo "trace-timeline-html: the page loads something" >&2; exit 1; }
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --dump-dom "file://$work/tl.html" \
	>dom.html 2>browser.err
[ -n "${SG_TIMELINE_SCREENSHOT:-}" ] && timeout 120 "$browser" --headless --no-sandbox \
	--disable-gpu --window-size=1240,520 --screenshot="$SG_TIMELINE_SCREENSHOT" \
	"file://$work/tl.html" >/dev/null 2>&1
tasks=$(sed -E 's/^([0-9]+).*/\1/' native.txt | sort -u | wc -l)
tracks=$(grep -o '<li class="track">' dom.html | wc -l)
rendered=$(grep -o 'data-rendered="[0-9]* tracks"' dom.html)
sed -nE 's/^[0-9]+ +(<\.\.\. )?([a-z_0-9]+)[( ].*/\2/p' native.txt | sort -u >native.calls
# (the rows of the table, not the script's text, which the DOM keeps too)
sed -n 's/.*<table id="summary">\(.*\)<\/table>.*/\1/p' dom.html |
	grep -o '<td class="n">[a-z_0-9]*</td>' | sed -E 's/<[^>]*>//g' | grep -vx total |
	sort -u >page.calls
echo "trace-timeline-html: $tracks tracks ($rendered), strace saw $tasks tasks;" \
	"$(wc -l <page.calls) calls in the summary, strace's: $(wc -l <native.calls)"
status=0
[ "$tracks" -eq "$tasks" ] && [ "$rendered" = "data-rendered=\"$tasks tracks\"" ] || status=1
diff native.calls page.calls || status=1
[ $status -eq 0 ] || { echo "trace-timeline-html: differs from strace" >&2; cat browser.err >&2; }
exit $status
