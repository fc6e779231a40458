#!/usr/bin/env python3
"""The architecture of analyzer/ and rules/, checked (docs/architecture.md).

Reads every C and C++ source of analyzer/ and rules/ (.c .h .cpp .hpp; a
module is a source with its header, a.c with a.h) and fails when:
  - the modules depend on each other in a cycle, through includes or calls
    (below);
  - a folder includes what its layer may not (LAYERS below): rules/ see the
    engine only through engine/rule.h, never input/, report/ or calibrate/;
    the engine's core never sees input/, report/ or calibrate/;
  - a function is longer than MAX_FUNCTION_LINES, from the first line of
    its signature to its closing brace;
  - a source file is longer than MAX_FILE_LINES;
  - a libclang call that may crash on some types is made outside the one
    module that guards it (GUARDED below).
tests/arch/check_arch_self.py (ctest arch.self) runs it over small trees
under tests/arch/Inputs/ that plant one violation each.

Functions are found by their braces, in the text with its comments, the
insides of string and character literals (raw strings too) and the
preprocessor's lines blanked out. A brace at file, namespace or class scope
opens a function's body when what precedes it (back to the previous ';',
'{' or '}' there) holds a parenthesis and is neither an initializer ('=
{'), nor a class, struct, union or enum head, nor a namespace or extern
"C" block; braces inside parentheses (a default argument's '{}') and a
constructor's member initializers ('a_{x}') belong to the signature, and a
macro invocation on lines of its own before it is not part of it.
Everything up to the body's matching brace is the function's: a lambda, a
block or a local class inside a function counts toward the function that
holds it, while namespaces and classes are scopes whose member functions
are measured one by one (an out-of-line member, 'A::f', is a function like
any other). A lambda stored in a variable at namespace scope is data and
not measured. A file whose braces do not balance without its preprocessor
lines (an '#if' whose branches each open a function) is reported, as its
functions cannot be told apart.

Cycles through shared headers. Includes alone do not show every
dependency: a header may declare the functions of several sources
(lsp/handlers.h declares the handlers of five files), and a source that calls one
of them through it depends on the source that defines it, not on the
header. The include graph then has no edge where the dependency is, and a
cycle goes unseen: code_action.c called lsp_with_document (document.c's,
declared in handlers.h), document.c included diagnostics.h, and
diagnostics.c called code_action.c's lsp_code_actions_plan. So every
function is attributed to the module whose source defines it, and the
graph checked for cycles has an edge from a module to
  - each module whose header it includes, and
  - each module that defines a function its function bodies call by name.
The functions a module offers others are those its sources define with
external linkage (not static, not in an anonymous namespace, not a class
member: C++ calls those through objects, which this reading does not
follow), and the inline ones its header defines. A name the calling file defines itself
is its own; a name several modules define (engine/instances.cpp and its
stand-in instances_none.c) makes an edge to each. Calls through function
pointers make no edge: a dispatch table (lsp.c's) or a rule's hooks name
functions as data, and the handlers calling back into the table's owner
(lsp_reply) is no cycle. A cycle is reported as one shortest path through
its modules, each step with an include or a call that makes it.

usage: check_arch.py <top of the source tree>
"""
import os
import re
import sys

MAX_FUNCTION_LINES = 80
MAX_FILE_LINES = 1000

SOURCES = (".c", ".h", ".cpp", ".hpp")

# The engine's core: what rules/ see through rule.h.
ENGINE_CORE = ["engine/ast", "engine/unit", "engine/typeinfo", "engine/traitmemo", "engine/inst/", "engine/standard", "engine/context", "engine/layout", "engine/loops", "engine/reach", "engine/instances", "engine/flow/",
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
    # The probe programs' C++ headers: embedded text, the C++ standard
    # library and each other only.
    ("calibrate/probes/", ["calibrate/probes/"]),
    ("calibrate/", ["util/", "engine/wrapper", "input/profile", "calibrate/"]),
    # The language server: a front end like check.c, never the rules; it
    # reads the project index a run of the check wrote.
    ("lsp/", ["util/", "engine/", "input/", "report/", "index/db", "cache/cache", "lsp/"]),
    ("rules/", ["util/", "engine/rule", "rules/"]),
    # A host tool of the build (heaplint.1 from --help): not linked into
    # heaplint, it includes nothing of it.
    ("man/", []),
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
    "engine/flow/flow_impl": ["engine/flow/flow", "engine/flow/decls", "engine/flow/copies", "engine/flow/instantiated", "engine/flow/paths"],
}

# libclang calls that crash on some inputs, each with the only module that
# may make it (the guard every other module goes through).
GUARDED = {
    # clang's getTypeInfo is unreachable for placeholder types (an
    # unresolved overload set): engine/ast's hl_type_size/hl_type_align.
    "clang_Type_getSizeOf": "engine/ast",
    "clang_Type_getAlignOf": "engine/ast",
}

# C++ text heaplint embeds and hands to the compiler, never linked with it:
# no part of the call graph (count_new.hpp defines malloc).
EMBEDDED = ("calibrate/probes/",)

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def modules(top):
    """{module: [file, ...]} of analyzer/ and rules/."""
    out = {}
    for base, prefix in (("analyzer", ""), ("rules", "rules/")):
        for d, _, files in os.walk(os.path.join(top, base)):
            for f in sorted(files):
                if not f.endswith(SOURCES):
                    continue
                path = os.path.join(d, f)
                rel = os.path.relpath(path, os.path.join(top, base))
                out.setdefault(prefix + os.path.splitext(rel)[0], []).append(path)
    return out


def read(path):
    with open(path, encoding="utf-8", errors="replace") as fh:
        return fh.read()


def include_target(path, mod, inc):
    """The module an include names: a file next to the includer first (as
    the compiler looks), else a path from analyzer/ (or the top for rules/)."""
    beside = os.path.join(os.path.dirname(path), inc)
    if "/" not in inc and os.path.exists(beside):
        return os.path.join(os.path.dirname(mod), os.path.splitext(inc)[0])
    return os.path.splitext(inc)[0]


def graph(top, mods):
    edges = {m: set() for m in mods}
    for m, files in mods.items():
        for path in files:
            for inc in INCLUDE.findall(read(path)):
                target = include_target(path, m, inc)
                if target != m:
                    edges[m].add((target, os.path.relpath(path, top), inc))
    return edges


def components(succ):
    """Strongly connected components with more than one node (Tarjan) of
    {node: iterable of successors}."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(succ.get(v, ())):
            if w not in succ:
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
    for v in sorted(succ):
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


# ---- Reading the code: comments, literals and directives blanked --------

def blank(text):
    """text with comments, the insides of string and character literals
    (raw strings too) and preprocessor directives replaced by spaces, line
    breaks kept, so that offsets and line numbers stay those of the file."""
    out = list(text)
    n = len(text)

    def wipe(a, b):
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    i = 0
    line_start = True
    while i < n:
        c = text[i]
        if c == "\n":
            line_start = True
            i += 1
            continue
        if line_start and c in " \t":
            i += 1
            continue
        if line_start and c == "#":
            # A directive, with its continuation lines.
            j = i
            while j < n and not (text[j] == "\n" and text[j - 1] != "\\"):
                if text.startswith("/*", j):
                    e = text.find("*/", j + 2)
                    j = n if e < 0 else e + 2
                    continue
                j += 1
            wipe(i, j)
            i = j
            continue
        line_start = False
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            wipe(i, j)
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            wipe(i, j)
            i = j
        elif c == "R" and text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() and text[i - 1] not in "uUL8") and text[i - 1] != "_"):
            mo = re.match(r'R"([^()\\\s]{0,16})\(', text[i:])
            if not mo:
                i += 1
                continue
            end = text.find(")" + mo.group(1) + '"', i + mo.end())
            j = n if end < 0 else end + len(mo.group(1)) + 2
            wipe(i + 2, j - 1)
            i = j
        elif c in "\"'":
            if c == "'" and i > 0 and text[i - 1].isdigit() and i + 1 < n and text[i + 1].isalnum():
                i += 1  # a digit separator: 1'000
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            wipe(i + 1, min(j, n))
            i = j + 1
        else:
            i += 1
    return "".join(out)


SPECIFIERS = r"(?:(?:typedef|static|extern|const|constexpr|inline|volatile|thread_local)\s+)*"
CLASS_HEAD = re.compile(SPECIFIERS + r"(?:struct|class|union)\s*(?:\[\[.*?\]\]\s*)?(?:[\w:]+\s*(?:<.*>)?)?\s*(?:final\s*)?(?::.*)?$", re.S)
ENUM_HEAD = re.compile(SPECIFIERS + r"enum(?:\s+(?:class|struct))?(?:\s+\w+)?\s*(?::[\w:\s]+)?$")
NAMESPACE_HEAD = re.compile(r"(?:inline\s+)?namespace\b\s*([\w:]*)")
LINKAGE_HEAD = re.compile(r'extern\s*"\s*"$')  # extern "C", its literal blanked
TEMPLATE_HEAD = re.compile(r"template\s*<")
LABEL = re.compile(r"(?:(?:public|private|protected)\s*:(?!:)\s*)+")
CTOR_INIT = re.compile(r"\)[^()]*?(?<!:):(?!:)")
NAME_BEFORE_PAREN = re.compile(r"((?:~?[A-Za-z_]\w*\s*(?:<[^()]*>)?\s*::\s*)*(?:operator\s*(?:\(\)|[^\s(]+)|~?[A-Za-z_]\w*))\s*\($")


MACRO_CALL = re.compile(r"\s*[A-Z_][A-Z0-9_]*\s*\(")


def macro_calls(p):
    """The length of the macro invocations that start p, each on lines of its
    own with no ';' after it (HL_PROBE_SIG(...) at namespace scope): they
    declare what the macro says, not what follows them."""
    end = 0
    while True:
        mo = MACRO_CALL.match(p, end)
        if not mo:
            return end
        depth, k = 1, mo.end()
        while k < len(p) and depth:
            depth += {"(": 1, ")": -1}.get(p[k], 0)
            k += 1
        nl = re.match(r"[ \t]*\n", p[k:])
        if depth or not nl or not p[k + nl.end():].strip():
            return end
        end = k + nl.end()


def skip_template(p):
    """p without its leading 'template <...>' heads."""
    while True:
        mo = TEMPLATE_HEAD.match(p)
        if not mo:
            return p
        depth, k = 0, mo.end() - 1
        while k < len(p):
            if p[k] == "<":
                depth += 1
            elif p[k] == ">":
                depth -= 1
                if depth == 0:
                    break
            k += 1
        p = p[k + 1:].lstrip()


def top_level(p):
    """p with what is inside parentheses removed (kept: the parentheses)."""
    out, depth = [], 0
    for c in p:
        if c == "(":
            if depth == 0:
                out.append(c)
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                out.append(c)
        elif depth == 0:
            out.append(c)
    return "".join(out)


def function_name(p):
    """The name a function's signature p defines: what precedes its first
    parameter list ('f', 'ns::C::f', 'operator()')."""
    p = re.sub(r"__attribute__\s*\(\(.*?\)\)", " ", p)
    for mo in re.finditer(r"\(", p):
        head = p[:mo.end()]
        if re.search(r"(?<!\w)operator\s*\($", head):
            continue  # operator()'s first parenthesis
        nm = NAME_BEFORE_PAREN.search(head)
        if nm:
            return re.sub(r"\s+", "", nm.group(1))
    return None


def classify(p):
    """What a '{' after p (at file, namespace or class scope) opens:
    'namespace', 'anonymous', 'class', 'function' or 'data'."""
    p = skip_template(LABEL.sub("", p[macro_calls(p):].strip()).strip())
    mo = NAMESPACE_HEAD.match(p)
    if mo:
        return "namespace" if mo.group(1) else "anonymous"
    if LINKAGE_HEAD.match(p):
        return "namespace"
    if ENUM_HEAD.match(p):
        return "data"
    if CLASS_HEAD.match(p):
        return "class"
    flat = re.sub(r"\boperator\s*[^\s(]*", "operator", top_level(p))
    if "(" in flat and not re.search(r"(?<![=!<>])=(?!=)", flat):
        return "function"
    return "data"  # an initializer


class Function:
    def __init__(self, name, start, end, static, member, anonymous):
        self.name, self.start, self.end = name, start, end
        self.static, self.member, self.anonymous = static, member, anonymous
        self.calls = set()


def functions(code):
    """The functions code (blanked) defines: [Function], and whether its
    braces balance."""
    out = []
    # A scope: (kind, offset where its current declaration starts).
    scopes = [["namespace", 0]]
    parens = 0
    i, n = 0, len(code)
    while i < n:
        c = code[i]
        kind = scopes[-1][0]
        if kind in ("namespace", "anonymous", "class"):
            if c == "(":
                parens += 1
            elif c == ")":
                parens -= 1
            elif c == ";" and parens == 0:
                scopes[-1][1] = i + 1
            elif c == "{":
                p = code[scopes[-1][1]:i]
                if parens > 0 or (CTOR_INIT.search(p) and re.search(r"[\w>]\s*$", p)):
                    scopes.append(["init", None])  # part of the signature
                else:
                    what = classify(p)
                    if what == "function":
                        p = p[macro_calls(p):]
                        lead = len(p) - len(p.lstrip())
                        label = LABEL.match(p[lead:])
                        begin = i - len(p) + lead + (label.end() if label else 0)
                        out.append(Function(function_name(p), begin, None,
                                            re.search(r"\bstatic\b", top_level(p).split("(")[0]) is not None,
                                            kind == "class" or "class" in (s[0] for s in scopes),
                                            any(s[0] == "anonymous" for s in scopes)))
                        scopes.append(["body", out[-1]])
                    else:
                        scopes.append([what, i + 1])
            elif c == "}":
                if len(scopes) == 1:
                    return out, False
                scopes.pop()
                scopes[-1][1] = i + 1
        elif c == "{":
            scopes.append([kind if kind != "body" else "block", None])
        elif c == "}":
            done = scopes.pop()
            if done[0] == "body":
                done[1].end = i
            if done[0] in ("body", "data"):
                scopes[-1][1] = i + 1
            # else a block, or an initializer of the signature: back in it
        i += 1
    return out, len(scopes) == 1


def line_of(text, offset):
    return text.count("\n", 0, offset) + 1


class Source:
    """One file of a module, read once."""

    def __init__(self, top, mod, path):
        self.mod, self.path = mod, path
        self.rel = os.path.relpath(path, top)
        self.text = read(path)
        self.code = blank(self.text)
        self.functions, self.balanced = functions(self.code)
        for f in self.functions:
            if f.end is not None:
                body = self.code[f.start:f.end]
                f.calls = set(re.findall(r"\b([A-Za-z_]\w*)\s*\(", body[body.find("{"):]))

    def lines(self):
        return self.text.count("\n") + (0 if self.text.endswith("\n") or not self.text else 1)


def sources(top, mods):
    return [Source(top, m, p) for m in sorted(mods) for p in mods[m]]


def long_functions(srcs):
    """Functions longer than MAX_FUNCTION_LINES, signature to brace."""
    errs = []
    for s in srcs:
        if not s.balanced:
            errs.append("%s: its braces do not balance outside the preprocessor's lines; "
                        "cannot tell its functions apart" % s.rel)
            continue
        for f in s.functions:
            start, end = line_of(s.text, f.start), line_of(s.text, f.end)
            if end - start + 1 > MAX_FUNCTION_LINES:
                errs.append("%s:%d: %s() is %d lines, more than %d"
                            % (s.rel, start, f.name, end - start + 1, MAX_FUNCTION_LINES))
    return errs


def long_files(srcs):
    return ["%s: %d lines, more than %d (split it by job)" % (s.rel, s.lines(), MAX_FILE_LINES)
            for s in srcs if s.lines() > MAX_FILE_LINES]


def call_graph(srcs):
    """{module: {module it calls: {(caller's file, function, its file)}}}:
    each function attributed to the module whose source defines it."""
    srcs = [s for s in srcs if not s.mod.startswith(EMBEDDED)]
    defined = {}
    for s in srcs:
        header = s.path.endswith((".h", ".hpp"))
        for f in s.functions:
            if f.name is None or "::" in f.name or f.member or f.anonymous or f.end is None:
                continue
            if f.static and not header:
                continue
            defined.setdefault(f.name, set()).add((s.mod, s.rel))
    calls = {s.mod: {} for s in srcs}
    for s in srcs:
        own = {f.name for f in s.functions}
        for f in s.functions:
            for name in f.calls - own:
                for target, where in defined.get(name, ()):
                    if target != s.mod:
                        calls[s.mod].setdefault(target, set()).add((s.rel, name, where))
    return calls


def dependencies(edges, calls):
    """{module: {module it depends on: why}}: what it includes, and the
    modules whose functions it calls (calls named first: they are the edges
    the include graph alone does not show)."""
    deps = {m: {} for m in edges}
    for m, e in edges.items():
        for target, path, inc in sorted(e):
            if target in deps:
                deps[m].setdefault(target, '%s includes "%s"' % (path, inc))
    for m, c in calls.items():
        for target, why in c.items():
            path, name, where = min(why)
            more = len({w[1] for w in why}) - 1
            deps[m][target] = "%s calls %s%s, defined in %s" % (
                path, name, " (and %d more)" % more if more else "", where)
    return deps


def shortest_cycle(deps, comp):
    """A shortest cycle through comp's first module, inside comp."""
    members, start = set(comp), comp[0]
    prev, queue = {start: None}, [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(deps[v]):
            if w == start:
                path = [v]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return path[::-1] + [start]
            if w in members and w not in prev:
                prev[w] = v
                queue.append(w)
    return comp + comp[:1]


def dependency_cycles(deps):
    errs = []
    for comp in components(deps):
        path = shortest_cycle(deps, comp)
        why = [deps[a][b] for a, b in zip(path, path[1:])]
        more = "" if len(comp) == len(path) - 1 else "; all of: %s" % ", ".join(comp)
        errs.append("cycle: %s (%s%s)" % (" -> ".join(path), "; ".join(why), more))
    return errs


def unguarded_calls(srcs):
    errs = []
    for s in srcs:
        for fn, owner in GUARDED.items():
            if s.mod == owner:
                continue
            for mo in re.finditer(r"\b%s\s*\(" % fn, s.code):
                errs.append("%s:%d: %s is called outside %s, which guards it"
                            % (s.rel, line_of(s.text, mo.start()), fn, owner))
    return errs


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    top = sys.argv[1]
    mods = modules(top)
    edges = graph(top, mods)
    srcs = sources(top, mods)
    calls = call_graph(srcs)
    errs = dependency_cycles(dependencies(edges, calls))
    errs += layer_errors(edges)
    errs += long_functions(srcs)
    errs += long_files(srcs)
    errs += unguarded_calls(srcs)
    for e in errs:
        print("check_arch: " + e)
    nedges = sum(len(v) for v in edges.values())
    ncalls = sum(len(v) for v in calls.values())
    nfuncs = sum(len(s.functions) for s in srcs)
    print("check_arch: %d modules, %d includes, %d calls between modules, %d functions, %d problem%s"
          % (len(mods), nedges, ncalls, nfuncs, len(errs), "" if len(errs) == 1 else "s"))
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main())
