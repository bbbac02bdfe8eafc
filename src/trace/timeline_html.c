/* --trace-timeline=FILE.html: one self-contained page (no network, no
 * external script) with the trace events embedded, drawing a track per
 * thread with its system calls as slices, signals and exits as marks,
 * clone/fork flows as lines between tracks, and the -c summary computed
 * from the same events. The page lists its tracks and the summary in the
 * DOM too, which is what the headless-browser test reads. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "trace/trace_internal.h"

static const char page_head[] =
"<!DOCTYPE html>\n"
"<html><head><meta charset=\"utf-8\"><title>sysgate trace timeline</title>\n"
"<style>\n"
"body{font:13px sans-serif;margin:12px;color:#222}\n"
"h1{font-size:16px}h2{font-size:14px;margin-top:18px}\n"
"#view{border:1px solid #bbb;cursor:grab;display:block}\n"
"#tip{position:fixed;background:#ffe;border:1px solid #999;padding:4px;font:12px monospace;"
"white-space:pre-wrap;max-width:900px;display:none;pointer-events:none}\n"
"table{border-collapse:collapse;font:12px monospace}td,th{padding:1px 8px;text-align:right}\n"
"th{border-bottom:1px solid #999}td.n{text-align:left}\n"
"#tracks li{font:12px monospace}\n"
"</style></head><body>\n"
"<h1>sysgate trace timeline</h1>\n"
"<div>Wheel: zoom; drag: move; hover a slice for its strace line.</div>\n"
"<canvas id=\"view\" width=\"1200\" height=\"200\"></canvas><div id=\"tip\"></div>\n"
"<h2>Tracks</h2><ul id=\"tracks\"></ul>\n"
"<h2>Summary (as strace -c)</h2><table id=\"summary\"></table>\n"
"<script>\nconst TRACE = ";

static const char page_tail[] =
";\n"
"(function(){\n"
"const ev = TRACE.filter(e => e && e.ph);\n"
"const key = e => e.pid + '/' + e.tid;\n"
"const names = {}, order = [];\n"
"for (const e of ev) {\n"
"  if (e.ph === 'M' && e.name === 'thread_name') names[key(e)] = e.args.name;\n"
"  if (e.ph !== 'M' && !(key(e) in names)) names[key(e)] = 'pid ' + e.pid + ' tid ' + e.tid;\n"
"  if (e.ph !== 'M' && order.indexOf(key(e)) < 0) order.push(key(e));\n"
"}\n"
"const row = {}; order.forEach((k, i) => row[k] = i);\n"
"const list = document.getElementById('tracks');\n"
"for (const k of order) { const li = document.createElement('li'); li.className = 'track';\n"
"  li.textContent = names[k]; list.appendChild(li); }\n"
"let t0 = Infinity, t1 = -Infinity;\n"
"for (const e of ev) if (e.ph !== 'M') { t0 = Math.min(t0, e.ts); t1 = Math.max(t1, e.ts + (e.dur || 0)); }\n"
"if (!isFinite(t0)) { t0 = 0; t1 = 1; }\n"
"const cv = document.getElementById('view'), cx = cv.getContext('2d');\n"
"const LABEL = 260, H = 22, TOP = 24;\n"
"cv.height = TOP + Math.max(1, order.length) * H + 8;\n"
"let from = t0, span = Math.max(t1 - t0, 1);\n"
"const X = t => LABEL + (t - from) / span * (cv.width - LABEL - 10);\n"
"const color = s => { let h = 0; for (const c of s) h = (h * 31 + c.charCodeAt(0)) >>> 0;\n"
"  return 'hsl(' + (h % 360) + ',55%,62%)'; };\n"
"const flows = {};\n"
"for (const e of ev) if (e.ph === 's' || e.ph === 'f') (flows[e.id] = flows[e.id] || {})[e.ph] = e;\n"
"let boxes = [];\n"
"function draw() {\n"
"  boxes = [];\n"
"  cx.clearRect(0, 0, cv.width, cv.height);\n"
"  cx.font = '11px monospace'; cx.fillStyle = '#444';\n"
"  for (let i = 0; i <= 5; i++) { const t = from + span * i / 5;\n"
"    cx.fillText(((t - t0) / 1000).toFixed(3) + ' ms', X(t), 12); }\n"
"  order.forEach((k, i) => { cx.fillStyle = i % 2 ? '#f4f4f4' : '#fff';\n"
"    cx.fillRect(0, TOP + i * H, cv.width, H); cx.fillStyle = '#222';\n"
"    cx.fillText(names[k].slice(0, 38), 4, TOP + i * H + 15); });\n"
"  for (const e of ev) {\n"
"    const y = TOP + row[key(e)] * H;\n"
"    if (e.ph === 'X') { const x = Math.max(X(e.ts), LABEL), w = Math.max(X(e.ts + e.dur) - x, 1);\n"
"      if (x > cv.width) continue; cx.fillStyle = color(e.args ? e.args.call : e.name);\n"
"      cx.fillRect(x, y + 3, w, H - 6); boxes.push([x, y + 3, w, H - 6, e]); }\n"
"    else if (e.ph === 'i') { const x = X(e.ts); if (x < LABEL) continue;\n"
"      cx.fillStyle = e.cat === 'signal' ? '#c00' : '#00c'; cx.beginPath();\n"
"      cx.moveTo(x, y + 2); cx.lineTo(x - 5, y + H - 2); cx.lineTo(x + 5, y + H - 2); cx.fill();\n"
"      boxes.push([x - 5, y, 10, H, e]); }\n"
"  }\n"
"  cx.strokeStyle = '#333';\n"
"  for (const id in flows) { const f = flows[id]; if (!f.s || !f.f) continue;\n"
"    const ys = TOP + row[key(f.s)] * H + H / 2, yf = TOP + row[key(f.f)] * H + H / 2;\n"
"    cx.beginPath(); cx.moveTo(X(f.s.ts), ys); cx.lineTo(X(f.f.ts), yf); cx.stroke(); }\n"
"}\n"
"draw();\n"
"const tip = document.getElementById('tip');\n"
"cv.addEventListener('mousemove', m => { const r = cv.getBoundingClientRect();\n"
"  const x = m.clientX - r.left, y = m.clientY - r.top;\n"
"  const b = boxes.find(b => x >= b[0] && x <= b[0] + b[2] && y >= b[1] && y <= b[1] + b[3]);\n"
"  if (drag !== null) { from -= (x - drag) / (cv.width - LABEL - 10) * span; drag = x; draw(); }\n"
"  if (!b) { tip.style.display = 'none'; return; }\n"
"  tip.textContent = b[4].name + (b[4].dur !== undefined ? '\\n' + b[4].dur + ' us' : '');\n"
"  tip.style.left = (m.clientX + 12) + 'px'; tip.style.top = (m.clientY + 12) + 'px';\n"
"  tip.style.display = 'block'; });\n"
"let drag = null;\n"
"cv.addEventListener('mousedown', m => drag = m.clientX - cv.getBoundingClientRect().left);\n"
"window.addEventListener('mouseup', () => drag = null);\n"
"cv.addEventListener('wheel', w => { w.preventDefault();\n"
"  const r = cv.getBoundingClientRect(), x = w.clientX - r.left;\n"
"  const at = from + (x - LABEL) / (cv.width - LABEL - 10) * span;\n"
"  span *= w.deltaY > 0 ? 1.25 : 0.8; from = at - (x - LABEL) / (cv.width - LABEL - 10) * span;\n"
"  draw(); });\n"
"const sum = {}; let total = 0;\n"
"for (const e of ev) if (e.ph === 'X') { const n = e.args.call;\n"
"  const s = sum[n] = sum[n] || { calls: 0, errors: 0, us: 0 };\n"
"  s.calls++; s.us += e.dur; total += e.dur;\n"
"  if (e.args.result < 0 && e.args.result >= -4095) s.errors++; }\n"
"const tb = document.getElementById('summary');\n"
"tb.innerHTML = '<tr><th>% time</th><th>seconds</th><th>usecs/call</th><th>calls</th>'\n"
"  + '<th>errors</th><th class=\"n\">syscall</th></tr>';\n"
"let calls = 0, errors = 0;\n"
"for (const n of Object.keys(sum).sort((a, b) => sum[b].us - sum[a].us)) {\n"
"  const s = sum[n]; calls += s.calls; errors += s.errors;\n"
"  const tr = document.createElement('tr'); tr.className = 'call';\n"
"  tr.innerHTML = '<td>' + (total ? 100 * s.us / total : 0).toFixed(2) + '</td><td>'\n"
"    + (s.us / 1e6).toFixed(6) + '</td><td>' + Math.round(s.us / s.calls) + '</td><td>'\n"
"    + s.calls + '</td><td>' + (s.errors || '') + '</td><td class=\"n\"></td>';\n"
"  tr.lastChild.textContent = n; tb.appendChild(tr); }\n"
"const tot = document.createElement('tr');\n"
"tot.innerHTML = '<td>100.00</td><td>' + (total / 1e6).toFixed(6) + '</td><td>'\n"
"  + (calls ? Math.round(total / calls) : 0) + '</td><td>' + calls + '</td><td>'\n"
"  + (errors || '') + '</td><td class=\"n\">total</td>';\n"
"tb.appendChild(tot);\n"
"document.body.setAttribute('data-rendered', order.length + ' tracks');\n"
"})();\n"
"</script></body></html>\n";

int timeline_write_html(const char *out_path, const char *events_path)
{
	char buf[65536];
	int in = open(events_path, O_RDONLY | O_CLOEXEC), out;
	ssize_t n;
	int rc = 0;

	if (in < 0)
		return -1;
	out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (out < 0) {
		close(in);
		return -1;
	}
	rc |= trace_write_fd(out, page_head, sizeof(page_head) - 1);
	/* the events as they are: a JSON array (every '<' in them is
	 * already \u003c, so nothing in it can end the script element) */
	while ((n = read(in, buf, sizeof(buf))) > 0)
		rc |= trace_write_fd(out, buf, (size_t)n);
	if (n < 0)
		rc = -1;
	rc |= trace_write_fd(out, page_tail, sizeof(page_tail) - 1);
	close(in);
	if (close(out) < 0)
		rc = -1;
	return rc ? -1 : 0;
}
