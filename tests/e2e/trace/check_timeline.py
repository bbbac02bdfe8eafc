#!/usr/bin/env python3
"""check_timeline.py FILE [--lines OUT]

Check FILE (sysgate --trace-timeline) against the Chrome trace-event
format (the "JSON Array Format" of Google's Trace Event Format document,
which chrome://tracing and Perfetto read): a JSON array of event objects,
each with a string "ph"; complete events ("X") with name, ts, dur, pid,
tid; instant events ("i") with a scope "s" of g, p or t; flow events
("s" start, "f" finish) with id and cat, every finish matching a start of
the same id and cat with no later timestamp, "bp": "e" on the finish; metadata
("M") thread_name/process_name with args.name; numeric, non-negative
ts/dur; on one thread, complete events either nest or do not overlap.
Every thread with events has a thread_name.

--lines OUT: write the slices' and instants' names as `TID NAME`, each
thread's in the order strace prints them (a slice at its end), threads by
first event (what compare_strace.sh
--timeline compares with strace -f -o). Exit 0 when valid, 1 with the
reasons otherwise."""
import json
import sys


def main():
    args = sys.argv[1:]
    out = None
    if "--lines" in args:
        i = args.index("--lines")
        out = args[i + 1]
        del args[i:i + 2]
    path = args[0]
    errors = []
    try:
        with open(path) as f:
            events = json.load(f)
    except ValueError as e:
        print(f"check_timeline: {path}: not JSON: {e}")
        return 1
    if not isinstance(events, list):
        print(f"check_timeline: {path}: not a JSON array")
        return 1
    named, seen, starts, finishes = set(), {}, {}, []
    slices = {}
    for n, e in enumerate(events):
        where = f"event {n}"
        if not isinstance(e, dict) or not isinstance(e.get("ph"), str):
            errors.append(f"{where}: no ph")
            continue
        ph = e["ph"]
        for k in ("pid", "tid"):
            if not isinstance(e.get(k), int):
                errors.append(f"{where}: {k} not an integer")
        ts = e.get("ts")
        if not isinstance(ts, (int, float)) or ts < 0:
            errors.append(f"{where}: bad ts {ts!r}")
            continue
        key = (e.get("pid"), e.get("tid"))
        if ph == "M":
            if e.get("name") not in ("thread_name", "process_name", "process_labels"):
                errors.append(f"{where}: unknown metadata {e.get('name')!r}")
            elif e["name"] != "process_labels" and not isinstance(e.get("args", {}).get("name"), str):
                errors.append(f"{where}: metadata without args.name")
            if e.get("name") == "thread_name":
                named.add(key)
            continue
        seen.setdefault(key, n)
        if ph == "X":
            dur = e.get("dur")
            if not isinstance(e.get("name"), str) or not isinstance(dur, (int, float)) or dur < 0:
                errors.append(f"{where}: X without name or with bad dur")
                continue
            slices.setdefault(key, []).append((ts, ts + dur, n))
        elif ph == "i":
            if e.get("s") not in ("g", "p", "t") or not isinstance(e.get("name"), str):
                errors.append(f"{where}: instant without scope or name")
        elif ph in ("s", "f"):
            if "id" not in e or not isinstance(e.get("cat"), str):
                errors.append(f"{where}: flow without id or cat")
            elif ph == "s":
                starts[(e["cat"], e["id"])] = ts
            else:
                if e.get("bp") != "e":
                    errors.append(f"{where}: flow finish without bp e")
                finishes.append((where, e["cat"], e["id"], ts))
        else:
            errors.append(f"{where}: unknown ph {ph!r}")
    # events are in no particular order in the file (each process
    # appends its own): a finish needs a start with no later timestamp
    for where, cat, fid, ts in finishes:
        st = starts.get((cat, fid))
        if st is None or st > ts:
            errors.append(f"{where}: flow finish {fid} without an earlier start")
    for key, sl in slices.items():
        sl.sort()
        stack = []
        for b, end, n in sl:
            while stack and stack[-1] <= b:
                stack.pop()
            if stack and end > stack[-1]:
                errors.append(f"event {n}: overlaps another slice of {key} without nesting")
            stack.append(end)
    for key in seen:
        if key not in named:
            errors.append(f"thread {key}: events but no thread_name")
    if out:
        order = sorted(seen, key=lambda k: seen[k])
        lines = []
        for k in order:
            evs = [e for e in events if isinstance(e, dict) and e.get("ph") in ("X", "i")
                   and (e.get("pid"), e.get("tid")) == k]
            # in the order strace prints them: a call when it returns
            evs.sort(key=lambda e: e["ts"] + e.get("dur", 0))
            lines += [f"{k[1]} {e['name']}" for e in evs]
        with open(out, "w") as f:
            f.write("".join(l + "\n" for l in lines))
    for msg in errors[:20]:
        print(f"check_timeline: {path}: {msg}")
    if errors:
        return 1
    print(f"check_timeline: {path}: {len(events)} events, {len(seen)} threads, valid")
    return 0


if __name__ == "__main__":
    sys.exit(main())
