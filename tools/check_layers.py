#!/usr/bin/env python3
"""Module layering check: every #include "..." in src/ and include/ (and
every #include <dir/...> whose dir is a src/ folder) against the graph in
docs/architecture.md (ctest unit.layers).

The graph is written once, in docs/architecture.md, as fenced blocks this
script reads:

  ```layers          allowed edges, "module: modules it may include" (and,
                     through them, everything below: the closure is
                     allowed); "*: m ..." lets every module include m;
                     "files m: path ..." and "generated m: name ..." place
                     files the build does not (glob patterns)
  ```layers-known    violations the tree still has, one "file: include"
                     a line; the list may only shrink

It fails when
  - an include goes to a module the includer may not reach (not listed as
    known): a new upward or sideways edge;
  - a known violation is gone (delete its line: the list stays true);
  - the allowed graph has a cycle (then it is not layered);
  - an include cannot be placed in a module;
  - a module's CMake DEPS (sg_module in src/*/CMakeLists.txt) names a
    module it may not reach.

A file's module: a "files" line, else the sg_module() whose SOURCES list
it (a header with the module of its .c twin: table.h with table.c), else
its src/ folder; include/ is module api.

Usage: check_layers.py SOURCE_DIR [--self-test]
--self-test checks that the check fails on an injected forbidden include,
on a known violation that no longer exists, on a cycle, on a forbidden
CMake DEPS edge, and that it reads angle includes.
"""
import fnmatch
import os
import re
import sys

INCLUDE_RE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
# <core/process.h> is the same edge: angle includes that name a src/ folder
ANGLE_INCLUDE_RE = re.compile(r'^\s*#\s*include\s*<([a-z0-9_]+)/([^>]+)>', re.M)
FENCE_RE = re.compile(r'^```(layers(?:-known)?)\s*\n(.*?)^```', re.M | re.S)
SG_MODULE_RE = re.compile(r'sg_module\(\s*(\w+)([^)]*)\)', re.S)


class Graph:
    def __init__(self):
        self.edges = {}      # module -> set of modules it may include
        self.everyone = set()  # modules every module may include
        self.files = []      # (module, path pattern)
        self.generated = []  # (module, basename pattern)
        self.known = set()   # (file, include)
        self.sources = {}    # path -> module, from sg_module(... SOURCES ...)


def parse_doc(text):
    g = Graph()
    blocks = FENCE_RE.findall(text)
    if not any(kind == 'layers' for kind, _ in blocks):
        raise SystemExit('docs/architecture.md: no ```layers block')
    for kind, body in blocks:
        for n, raw in enumerate(body.splitlines(), 1):
            line = raw.split('#', 1)[0].strip()
            if not line:
                continue
            head, sep, rest = line.partition(':')
            if not sep:
                raise SystemExit('```%s line %d: no ":": %s' % (kind, n, raw))
            words = rest.split()
            head = head.strip()
            if kind == 'layers-known':
                if len(words) != 1:
                    raise SystemExit('```layers-known line %d: want "file: include"' % n)
                g.known.add((head, words[0]))
            elif head == '*':
                g.everyone.update(words)
            elif head.startswith('files '):
                g.files += [(head.split()[1], w) for w in words]
            elif head.startswith('generated '):
                g.generated += [(head.split()[1], w) for w in words]
            else:
                g.edges.setdefault(head, set()).update(words)
                for w in words:
                    g.edges.setdefault(w, set())
    for m in g.everyone:
        g.edges.setdefault(m, set())
    return g


def find_cycle(g):
    """A cycle of the allowed graph as a list of modules, or None."""
    state = {}

    def visit(m, path):
        state[m] = 'open'
        for d in sorted(g.edges.get(m, ())):
            if state.get(d) == 'open':
                return path[path.index(d):] + [d] if d in path else [m, d]
            if d not in state:
                c = visit(d, path + [d])
                if c:
                    return c
        state[m] = 'done'
        return None

    for m in sorted(g.edges):
        if m not in state:
            c = visit(m, [m])
            if c:
                return c
    return None


def reachable(g, m):
    seen, todo = set(), [m]
    while todo:
        x = todo.pop()
        for d in g.edges.get(x, ()):
            if d not in seen:
                seen.add(d)
                todo.append(d)
    return seen | g.everyone


def module_of_path(g, rel):
    """rel: path below the source dir ("src/core/thread.c")."""
    for m, pat in g.files:
        if fnmatch.fnmatch(rel, pat):
            return m
    if rel in g.sources:
        return g.sources[rel]
    parts = rel.split('/')
    if parts[0] == 'src' and len(parts) > 2:
        return parts[1]
    if parts[0] == 'include':
        return 'api'
    return None


def place_include(g, root, includer, inc):
    """The repository path an include names, or a generated header's
    module as 'generated:<module>'; None if it cannot be placed."""
    here = os.path.dirname(includer)
    for cand in (os.path.join(here, inc), os.path.join('src', inc),
                 os.path.join('include', inc)):
        if os.path.isfile(os.path.join(root, cand)):
            return os.path.normpath(cand)
    for m, pat in g.generated:
        if fnmatch.fnmatch(os.path.basename(inc), pat):
            return 'generated:' + m
    return None


def scan(root):
    """(file, include) for every quoted include in src/ and include/, and
    every angle include whose first folder is one of src/."""
    edges = []
    folders = set(os.listdir(os.path.join(root, 'src')))
    for top in ('src', 'include'):
        for dirpath, _, names in os.walk(os.path.join(root, top)):
            for name in sorted(names):
                if not name.endswith(('.c', '.h', '.def', '.inc')):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, root)
                with open(path, encoding='utf-8', errors='replace') as f:
                    text = f.read()
                for inc in INCLUDE_RE.findall(text):
                    edges.append((rel, inc))
                for top_dir, rest in ANGLE_INCLUDE_RE.findall(text):
                    if top_dir in folders:
                        edges.append((rel, top_dir + '/' + rest))
    return sorted(set(edges))


def cmake_modules(root):
    """(module, dep) for every sg_module(... DEPS ...) in src/*/CMakeLists.txt,
    and {path: module} for its SOURCES and their .h twins."""
    out = []
    sources = {}
    src = os.path.join(root, 'src')
    for d in sorted(os.listdir(src)):
        path = os.path.join(src, d, 'CMakeLists.txt')
        if not os.path.isfile(path):
            continue
        with open(path, encoding='utf-8') as f:
            text = re.sub(r'#[^\n]*', '', f.read())
        for name, args in SG_MODULE_RE.findall(text):
            words = args.split()
            if 'DEPS' in words:
                out += [(name, w) for w in words[words.index('DEPS') + 1:]]
            if 'SOURCES' in words:
                for w in words[words.index('SOURCES') + 1:]:
                    if w == 'DEPS':
                        break
                    if '$' in w or not w.endswith('.c'):
                        continue
                    path = os.path.normpath(os.path.join('src', d, w))
                    sources[path] = name
                    sources.setdefault(path[:-2] + '.h', name)
    return out, sources


def check(g, root, includes, deps):
    """The problems found, as lines."""
    problems = []
    cycle = find_cycle(g)
    if cycle:
        problems.append('the allowed graph has a cycle: ' + ' -> '.join(cycle))
    seen_known = set()
    for f, inc in includes:
        src_mod = module_of_path(g, f)
        if src_mod is None:
            continue
        target = place_include(g, root, f, inc)
        if target is None:
            problems.append('%s: #include "%s": no file or generated header of that name' % (f, inc))
            continue
        dst_mod = target[len('generated:'):] if target.startswith('generated:') \
            else module_of_path(g, target)
        if dst_mod is None:
            problems.append('%s: #include "%s": %s is in no module' % (f, inc, target))
            continue
        if src_mod not in g.edges:
            problems.append('%s: module %s is not in the graph' % (f, src_mod))
            continue
        if dst_mod == src_mod or dst_mod in reachable(g, src_mod):
            continue
        if (f, inc) in g.known:
            seen_known.add((f, inc))
            continue
        problems.append('%s: #include "%s": %s -> %s is not allowed' % (f, inc, src_mod, dst_mod))
    for f, inc in sorted(g.known - seen_known):
        problems.append('known violation gone (delete its line from ```layers-known): %s: %s' % (f, inc))
    for m, d in deps:
        if m not in g.edges:
            problems.append('CMake module %s is not in the graph' % m)
        elif d != m and d not in reachable(g, m):
            problems.append('CMake: sg_module(%s ... DEPS %s): %s -> %s is not allowed' % (m, d, m, d))
    return problems


def self_test(g, root, includes, deps):
    """The check must fail on what it is there to catch."""
    failures = []
    bad = includes + [('src/mm/mm.h', 'core/process.h')]
    if not any('mm -> core is not allowed' in p for p in check(g, root, bad, deps)):
        failures.append('an include of core/process.h in src/mm/mm.h passed')
    if module_of_path(g, 'src/syscall/table.h') != 'systab':
        failures.append('src/syscall/table.h is not placed in systab by sg_module(systab SOURCES table.c)')
    angle = ANGLE_INCLUDE_RE.findall('#include <core/process.h>\n#include <sys/mman.h>\n')
    if angle != [('core', 'process.h'), ('sys', 'mman.h')]:
        failures.append('#include <core/process.h> is not read as an include')
    if g.known:
        gone = sorted(g.known)[0]
        fewer = [e for e in includes if e != gone]
        if not any('known violation gone' in p for p in check(g, root, fewer, deps)):
            failures.append('a known violation that no longer exists passed')
    looped = parse_doc('```layers\nmm: core\n```\n')
    for k, v in g.edges.items():
        looped.edges.setdefault(k, set()).update(v)
    looped.everyone, looped.files, looped.generated = g.everyone, g.files, g.generated
    if not any('cycle' in p for p in check(looped, root, [], [])):
        failures.append('a cycle mm -> core -> ... -> mm passed')
    if not any('DEPS' in p for p in check(g, root, includes, deps + [('mm', 'core')])):
        failures.append('sg_module(mm ... DEPS core) passed')
    return failures


def main(argv):
    if len(argv) < 2:
        print(__doc__.split('\n\n')[-1], file=sys.stderr)
        return 2
    root = argv[1]
    with open(os.path.join(root, 'docs', 'architecture.md'), encoding='utf-8') as f:
        g = parse_doc(f.read())
    includes = scan(root)
    deps, g.sources = cmake_modules(root)
    if '--self-test' in argv[2:]:
        failures = self_test(g, root, includes, deps)
        for p in failures:
            print('self-test: ' + p)
        print('self-test: %s' % ('FAILED' if failures else 'the check fails on each injected fault'))
        return 1 if failures else 0
    problems = check(g, root, includes, deps)
    for p in problems:
        print(p)
    print('%d includes, %d CMake DEPS checked; %d known violations; %d problems'
          % (len(includes), len(deps), len(g.known), len(problems)))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
