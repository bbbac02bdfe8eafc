#!/usr/bin/env python3
"""hot_order.py [--object=sysgate] NAME:SHORT.out:LONG.out [...] > src/cpu/hot_order.txt
hot_order.py --self-test

Writes the list of sysgate's hot functions that the build links first, in
this order (CMakeLists.txt, SG_HOT_ORDER; docs/performance.md "The hot
functions' order"), from callgrind profiles of sysgate running each
workload twice, a short and a long run of the same loop:

    valgrind --tool=callgrind --callgrind-out-file=perl.20000.out \\
        build-prof/sysgate /usr/bin/perl bench/compute.pl 20000

A function's count is its own host instructions (callgrind's exclusive
cost) in the long run less the short one's: the loop's, without the
start-up and decoding both runs share. The workloads come in the order
given, each one's functions hottest first, each function once (where an
earlier workload has it); a function is listed when it has at least
1/25,000 of its workload's instructions.
"""
import re
import sys

SHARE = 1 / 25000
COST_LINE = re.compile(r"^[0-9+*-]")
NAME_LINE = re.compile(r"^(c?fn|c?ob)=\((\d+)\)(?: (.*))?$")


def exclusive_costs(path, obj):
    """{function: exclusive Ir} of the object named obj in one callgrind file."""
    names = {"fn": {}, "ob": {}}
    costs = {}
    fn = ob = ""
    after_calls = False
    positions = 1  # "line", or "instr line" with --dump-instr=yes
    with open(path) as f:
        for line in f:
            m = NAME_LINE.match(line)
            if m:  # "fn=(id) name" names id once, "fn=(id)" after; cfn/cob share the ids
                kind = "fn" if m.group(1).endswith("fn") else "ob"
                if m.group(3):
                    names[kind][m.group(2)] = m.group(3)
                if m.group(1) == "fn":  # without a recursion depth ("f'2")
                    fn = re.sub(r"'\d+$", "", names[kind].get(m.group(2), ""))
                elif m.group(1) == "ob":
                    ob = names[kind].get(m.group(2), "")
                continue
            if line.startswith("calls="):
                after_calls = True  # the next cost line is the call's, inclusive
                continue
            if COST_LINE.match(line):
                if after_calls:
                    after_calls = False
                    continue
                parts = line.split()
                if ob.rsplit("/", 1)[-1] == obj:
                    if len(parts) > positions:  # Ir follows the positions
                        costs[fn] = costs.get(fn, 0) + int(parts[positions])
            elif line.startswith("positions:"):
                positions = len(line.split()) - 1
    return costs


def hot_order(workloads, obj):
    """The list: workloads is [(name, short_path, long_path)]."""
    order, seen = [], set()
    for name, short, long_ in workloads:
        a = exclusive_costs(short, obj)
        b = exclusive_costs(long_, obj)
        loop = {fn: b.get(fn, 0) - a.get(fn, 0) for fn in b}
        total = sum(v for v in loop.values() if v > 0)
        if total <= 0:
            sys.exit(f"hot_order.py: {name}: the long run has no more instructions than the short one")
        hot = sorted((fn for fn, v in loop.items() if v >= SHARE * total), key=lambda fn: -loop[fn])
        print(f"# {name}: {len(hot)} functions", file=sys.stderr)
        for fn in hot:
            if fn not in seen:
                seen.add(fn)
                order.append(fn)
    return order


# Two profiles in callgrind's format, as valgrind 3.19 writes them with
# --dump-instr=yes: names given once and then by id (also by cfn=), a
# recursion depth after a name, costs of calls (the line after calls=)
# that are not the caller's own, another object's functions.
SELF_TEST_PROFILE = """version: 1
positions: instr line
events: Ir
ob=(1) /build/sysgate
fl=(1) ???
fn=(1) fast_a
0x10 0 {a}
+2 0 5
cfn=(2) fast_b'2
calls=7 0x40 0
+2 0 100000
fn=(2)
0x40 0 {b}
fn=(3) fast_c
0x50 0 {c}
ob=(2) /lib/libc.so.6
fn=(4) memcpy
0x90 0 900000
"""


def self_test():
    import os
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        paths = []
        for k, (a, b, c) in enumerate(((1000, 1000, 1000), (50000, 30000, 1000))):
            path = os.path.join(d, f"p{k}.out")
            with open(path, "w") as f:
                f.write(SELF_TEST_PROFILE.format(a=a, b=b, c=c))
            paths.append(path)
        costs = exclusive_costs(paths[1], "sysgate")
        want = {"fast_a": 50005, "fast_b": 30000, "fast_c": 1000}
        if costs != want:
            sys.exit(f"self-test: exclusive costs {costs}, not {want}")
        # the loop: fast_a 49,000, fast_b 29,000, fast_c nothing
        got = hot_order([("w", paths[0], paths[1]), ("w2", paths[0], paths[1])], "sysgate")
        if got != ["fast_a", "fast_b"]:
            sys.exit(f"self-test: order {got}, not ['fast_a', 'fast_b']")
    print("self-test: passed")


def main(args):
    if args == ["--self-test"]:
        return self_test()
    if not args:
        sys.exit(__doc__)
    obj = "sysgate"
    if args[0].startswith("--object="):
        obj = args.pop(0).split("=", 1)[1]
    order = hot_order([tuple(spec.split(":")) for spec in args], obj)
    print("# The hot functions, linked first in this order (CMakeLists.txt, SG_HOT_ORDER;")
    print("# docs/performance.md, \"The hot functions' order\"): written by")
    print("# tools/hot_order.py from callgrind profiles of " +
          ", ".join(spec.split(":")[0] for spec in args) + ".")
    for fn in order:
        print(fn)


if __name__ == "__main__":
    main(sys.argv[1:])
