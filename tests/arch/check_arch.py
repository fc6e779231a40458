#!/usr/bin/env python3
"""The architecture of analyzer/ and rules/, checked (docs/architecture.md).

Reads every `#include "..."` of analyzer/ and rules/ and fails when:
  - the module graph has a cycle (a module is a .c with its .h: a.c
    including b.h and b.c including a.h is a cycle);
  - a folder includes what its layer may not (LAYERS below): rules/ see the
    engine only through engine/rule.h, never input/, report/ or calibrate/;
    the engine's core never sees input/, report/ or calibrate/;
  - a function in analyzer/ or rules/ is longer than MAX_FUNCTION_LINES;
  - a libclang call that may crash on some types is made outside the one
    module that guards it (GUARDED below).

usage: check_arch.py <top of the source tree>
"""
import os
import re
import sys

MAX_FUNCTION_LINES = 80

# The engine's core: what rules/ see through rule.h.
ENGINE_CORE = ["engine/ast", "engine/unit", "engine/typeinfo", "engine/inst/", "engine/standard", "engine/context", "engine/layout", "engine/loops", "engine/reach", "engine/instances", "engine/flow/",
               "engine/finding", "engine/job", "engine/wrapper", "engine/rule", "engine/summary"]

# (module prefix, the include prefixes it may use); the first match wins.
# Module names are paths without the extension, relative to analyzer/ (or
# the top of the tree for rules/).
LAYERS = [
    ("util/", ["util/"]),
    ("engine/context_impl", ["util/", "engine/"]),
] + [(m, ["util/"] + ENGINE_CORE) for m in ENGINE_CORE] + [
    ("engine/", ["util/", "engine/", "input/"]),
    ("input/", ["util/", "engine/", "input/"]),
    ("report/", ["util/", "engine/finding", "report/", "input/"]),
    ("cache/", ["util/", "engine/analyze", "engine/finding", "engine/job", "engine/rule", "input/", "cache/", "index/serial"]),
    # The project index: summaries in, lookups out; it knows no rule.
    ("index/", ["util/", "engine/summary", "engine/finding", "index/"]),
    ("calibrate/", ["util/", "engine/wrapper", "input/profile", "calibrate/"]),
    # The language server: a front end like check.c, never the rules; it
    # reads the project index a run of the check wrote.
    ("lsp/", ["util/", "engine/", "input/", "report/", "index/db", "lsp/"]),
    ("rules/", ["util/", "engine/rule", "rules/"]),
    ("main", [""]),
    ("check", [""]),
]

# The context's definition: the engine builds it, rules see it opaque.
PRIVATE = {
    "engine/context_impl": ["engine/context", "engine/analyze"],
    # The questions and answers of engine/inst: its own modules only.
    "engine/inst/inst_impl": ["engine/inst/answer", "engine/inst/arbiter", "engine/inst/callsite", "engine/inst/compare",
                              "engine/inst/from_ast", "engine/inst/inst", "engine/inst/probe_parse", "engine/inst/relay",
                              "engine/inst/sites", "engine/inst/splice", "engine/inst/users"],
    # The flow's definition: its own modules build it, rules see it opaque.
    "engine/flow/flow_impl": ["engine/flow/flow", "engine/flow/decls", "engine/flow/copies", "engine/flow/instantiated"],
}

# libclang calls that crash on some inputs, each with the only module that
# may make it (the guard every other module goes through).
GUARDED = {
    # clang's getTypeInfo is unreachable for placeholder types (an
    # unresolved overload set): engine/ast's hl_type_size/hl_type_align.
    "clang_Type_getSizeOf": "engine/ast",
    "clang_Type_getAlignOf": "engine/ast",
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def modules(top):
    """{module: [file, ...]} of analyzer/ and rules/."""
    out = {}
    for base, prefix in (("analyzer", ""), ("rules", "rules/")):
        for d, _, files in os.walk(os.path.join(top, base)):
            for f in files:
                if not f.endswith((".c", ".h")):
                    continue
                path = os.path.join(d, f)
                rel = os.path.relpath(path, os.path.join(top, base))
                out.setdefault(prefix + os.path.splitext(rel)[0], []).append(path)
    return out


def graph(top, mods):
    edges = {m: set() for m in mods}
    for m, files in mods.items():
        for path in files:
            with open(path, encoding="utf-8", errors="replace") as fh:
                for inc in INCLUDE.findall(fh.read()):
                    target = os.path.splitext(inc)[0]
                    if target != m:
                        edges[m].add((target, os.path.relpath(path, top), inc))
    return edges


def cycles(edges):
    """Strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w, _, _ in sorted(edges.get(v, ())):
            if w not in edges:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def layer_errors(edges):
    errs = []
    for m in sorted(edges):
        allowed = next((a for prefix, a in LAYERS if m.startswith(prefix)), None)
        if allowed is None:
            errs.append("%s: no layer says what it may include (add it to LAYERS in tests/arch/check_arch.py)" % m)
            continue
        for target, path, inc in sorted(edges[m]):
            if not any(target.startswith(a) for a in allowed):
                errs.append('%s: includes "%s", which %s may not (it may include: %s)'
                            % (path, inc, m, ", ".join(allowed)))
            if target in PRIVATE and m not in PRIVATE[target]:
                errs.append('%s: includes "%s", which only %s may' % (path, inc, ", ".join(PRIVATE[target])))
    return errs


FUNC_START = re.compile(r"^[A-Za-z_][^;{}()]*\b([A-Za-z_]\w*)\s*\([^;]*$")


def long_functions(mods, top):
    """Functions (a definition starts in column 0, its body ends with a '}'
    in column 0) longer than MAX_FUNCTION_LINES, signature to brace."""
    errs = []
    for files in mods.values():
        for path in files:
            if not path.endswith(".c"):
                continue
            with open(path, encoding="utf-8", errors="replace") as fh:
                lines = fh.read().split("\n")
            start = name = None
            for i, line in enumerate(lines):
                if start is None:
                    mo = FUNC_START.match(line)
                    if mo and not line.startswith(("typedef", "struct", "enum", "union", "#")):
                        # The signature may span lines: it ends with '{'.
                        j = i
                        while j < len(lines) and not lines[j].rstrip().endswith(("{", ";")):
                            j += 1
                        if j < len(lines) and lines[j].rstrip().endswith("{"):
                            start, name = i, mo.group(1)
                elif line.startswith("}"):
                    n = i - start + 1
                    if n > MAX_FUNCTION_LINES:
                        errs.append("%s:%d: %s() is %d lines, more than %d"
                                    % (os.path.relpath(path, top), start + 1, name, n, MAX_FUNCTION_LINES))
                    start = None
    return errs


def unguarded_calls(mods, top):
    errs = []
    for mod, files in mods.items():
        for path in files:
            with open(path, encoding="utf-8", errors="replace") as fh:
                text = fh.read()
            for fn, owner in GUARDED.items():
                if mod == owner:
                    continue
                for mo in re.finditer(r"\b%s\s*\(" % fn, text):
                    errs.append("%s:%d: %s is called outside %s, which guards it"
                                % (os.path.relpath(path, top), text.count("\n", 0, mo.start()) + 1, fn, owner))
    return errs


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    top = sys.argv[1]
    mods = modules(top)
    edges = graph(top, mods)
    errs = ["include cycle: " + " <-> ".join(c) for c in cycles(edges)]
    errs += layer_errors(edges)
    errs += long_functions(mods, top)
    errs += unguarded_calls(mods, top)
    for e in errs:
        print("check_arch: " + e)
    nedges = sum(len(v) for v in edges.values())
    print("check_arch: %d modules, %d includes, %d problem%s"
          % (len(mods), nedges, len(errs), "" if len(errs) == 1 else "s"))
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main())
