"""The temporary project the language server's tests run in, and the CLI's
findings on it in a form the LSP's diagnostics are compared with.

Layout (under a fresh temporary directory):
  proj/compile_commands.json   every proj/src/*.cc, -std=c++17 -Iinclude and
                               -I<the runtime's include directory>
  proj/src/main.cc             findings, a NOLINT, a site after non-ASCII text, a
                               trait query and an instantiation probe
  proj/src/fix.cc              one finding whose fix --fix makes
  proj/src/widget.cc           includes proj/include/widget.h (which has a finding,
                               and includes widget.inl, which has another)
  proj/src/broken.cc           does not compile (and has a finding)
  proj/src/uses_broken.cc      includes proj/include/broken.h, which does not compile
  proj/src/crash.cc            crashes libclang (#pragma clang __debug crash)
  proj/src/deep_parse.cc       crashes libclang's parse (its stack overflows)
  proj/src/deep_walk.cc        crashes the rules' walk (its stack overflows)
  proj/src/cycle_NN.cc         50 files for the open/close cycles
  proj/src/tiny.cc             no #include, no finding (ends the cycles)
  proj/src/flagged.cc          a finding only with -DHL_WIDE, which the
                               database does not give it (until a test adds it)
  proj/src/user.cc             includes nothing (until a test's edit includes
                               proj/include/later.h, open with other text)
  loose/loose.cc               in no compile database; loose/.heaplint.yaml
                               has fallback-flags that define LOOSE
  slow/slow.cc                 a parse that takes minutes (a compile-time loop
                               whose step limit slow/.heaplint.yaml raises)
"""
import json
import os
import subprocess

MAIN = """\
#include <any>
#include <functional>
#include <memory>

void sink(std::function<void()> f);

void shrink(long a, long b, long c) {
  // Gr\u00f6\u00dfe, caf\u00e9, \U0001F600: the site below has non-ASCII text in front of it
  std::function<void()> f = /* \u00fc\U0001F600 */ [a, b, c] { (void)(a + b + c); };
  f();
}

void kept(long a, long b, long c) {
  std::function<void()> g = [a, b, c] { (void)(a + b + c); };  // NOLINT(function-sbo)
  g();
}

void inline_one(long a) {
  std::function<void()> h = [a] { (void)a; };
  h();
}

void shared(std::shared_ptr<int> p) {
  std::function<void()> s = [p] { (void)p; };
  sink(s);
}

struct Big {
  long x[4];
};

void boxed(std::any &out) { out = Big{}; }

// Only the compiler can tell Holder<long>'s traits (a trait query).
template <class T> struct Holder {
  T value;
  Holder() = default;
  Holder(const Holder &other) : value(other.value) {}
};

void held(Holder<long> h) {
  std::function<void()> t = [h] { (void)h.value; };
  t();
}

// Only an instantiation can size what keep() stores (a probe).
template <class F> void keep(F f) {
  std::function<void()> g = f;
  g();
}

void probe_user(long a, long b, long c) { keep([a, b, c] { (void)(a + b + c); }); }
"""

FIX = """\
#include <functional>

void fixme(long a, long b, long c) {
  std::function<void()> g = [a, b, c] { (void)(a + b + c); };
  g();
}
"""

WIDGET_H = """\
#pragma once
#include <functional>

inline void widget_arm(long a, long b, long c) {
  std::function<void()> w = [a, b, c] { (void)(a + b + c); };
  w();
}

#include "widget.inl"
"""

# An .inl of inline definitions, included at the end of widget.h (no unit
# names it): the editor analyzes it through widget.cc, as the CLI does.
WIDGET_INL = """\
inline void widget_more(long a, long b, long c, long d) {
  std::function<void()> m = [a, b, c, d] { (void)(a + b + c + d); };
  m();
}
"""

WIDGET_CC = """\
#include "widget.h"

void widget_use() { widget_arm(1, 2, 3); }
"""

BROKEN = """\
#include <functional>

int broken() { return no_such_thing; }

void still_judged(long a, long b, long c) {
  std::function<void()> f = [a, b, c] { (void)(a + b + c); };
  f();
}
"""

BROKEN_H = """\
#pragma once
inline int header_broken() { return not_declared_here; }
"""

USES_BROKEN = """\
#include <functional>

#include "broken.h"

void uses(long a, long b, long c) {
  std::function<void()> f = [a, b, c] { (void)(a + b + c); };
  f();
}
"""

CRASH = """\
#include <functional>
#pragma clang __debug crash
int crash;
"""

# Crash libclang 19 and heaplint by their depth: the sum's 200000 terms
# overflow the stack of libclang's parse (its own crash recovery cannot
# catch that: its parse thread has no alternate signal stack), and 40000
# the rules' walk of the parsed unit (on the worker's 8 MiB stack the walk
# overflows from about 8000 terms on, the parse from about 80000: the
# parse's frames are libclang's, the walk's partly heaplint's, whose size
# depends on the compiler).
DEEP_PARSE = "int deep_parse() { return " + "+".join(["1"] * 200000) + "; }\n"
DEEP_WALK = "int deep_walk() { return " + "+".join(["1"] * 40000) + "; }\n"

LOOSE = """\
#include <functional>

#ifdef LOOSE
void loose(long a, long b, long c) {
  std::function<void()> f = [a, b, c] { (void)(a + b + c); };
  f();
}
#endif
"""

CYCLE = """\
#include <functional>
#include <map>
#include <string>

void cycle_%d(long a, long b, long c) {
  std::function<void()> f = [a, b, c] { (void)(a + b + c); };
  f();
}
"""

FLAGGED = """\
#include <functional>

void flagged(long a, long b, long c) {
#ifdef HL_WIDE
  std::function<void()> f = [a, b, c] { (void)(a + b + c); };
#else
  std::function<void()> f = [a] { (void)a; };
#endif
  f();
  (void)b;
  (void)c;
}
"""

TINY = """\
int tiny(int x) { return x + 1; }
"""

LATER_H = """\
#pragma once
struct Payload {
  long a;
};
"""

USER = """\
void user() {}
"""

NCYCLES = 50
# With heaplint's runtime on the include path: a fix is offered only where
# the unit would compile with it (loose/loose.cc's fallback flags have none).
RUNTIME_INCLUDE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "runtime", "include")
FLAGS = ["-std=c++17", "-Iinclude", "-I" + os.path.normpath(RUNTIME_INCLUDE)]


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


# A parse that takes minutes: clang evaluates the loop at compile time
# (its step limit raised by the fallback flags of slow/.heaplint.yaml).
SLOW = """\
constexpr long spin() {
  long s = 0;
  for (long i = 0; i < 4000000000L; i++) s += i & 1;
  return s;
}
static_assert(spin() > 0, "");
"""


def make(top):
    """Writes the project under top; returns (proj, loose) directories."""
    proj, loose = os.path.join(top, "proj"), os.path.join(top, "loose")
    files = {"src/main.cc": MAIN, "src/fix.cc": FIX, "src/widget.cc": WIDGET_CC, "src/broken.cc": BROKEN,
             "src/uses_broken.cc": USES_BROKEN, "src/crash.cc": CRASH, "src/deep_parse.cc": DEEP_PARSE,
             "src/deep_walk.cc": DEEP_WALK, "src/tiny.cc": TINY, "src/flagged.cc": FLAGGED, "src/user.cc": USER}
    for i in range(NCYCLES):
        files["src/cycle_%02d.cc" % i] = CYCLE % i
    for name, text in files.items():
        write(os.path.join(proj, name), text)
    write(os.path.join(proj, "include/widget.h"), WIDGET_H)
    write(os.path.join(proj, "include/widget.inl"), WIDGET_INL)
    write(os.path.join(proj, "include/broken.h"), BROKEN_H)
    write(os.path.join(proj, "include/later.h"), LATER_H)
    db = [{"directory": proj, "file": name, "arguments": ["clang++"] + FLAGS + ["-c", name]}
          for name in sorted(files)]
    write(os.path.join(proj, "compile_commands.json"), json.dumps(db, indent=1))
    write(os.path.join(loose, "loose.cc"), LOOSE)
    write(os.path.join(loose, ".heaplint.yaml"), "fallback-flags: [-std=c++17, -DLOOSE]\n")
    write(os.path.join(top, "slow", "slow.cc"), SLOW)
    write(os.path.join(top, "slow", ".heaplint.yaml"), "fallback-flags: [-std=c++17, -fconstexpr-steps=4294967295]\n")
    return proj, loose


def cli_findings(heaplint, cwd, args, only_file):
    """The findings (JSON objects) of `heaplint --format=json <args>` run in
    cwd, in only_file (relative to cwd)."""
    out = subprocess.run([heaplint, "--format=json"] + args, cwd=cwd, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    report = json.loads(out.stdout)
    return [f for f in report["findings"] if f["file"] == only_file]


SEVERITY = {"error": 1, "warning": 2, "note": 3}


def character(text_line, byte_col, encoding):
    """The LSP character offset of a 1-based byte column of a line."""
    prefix = text_line.encode("utf-8")[:byte_col - 1].decode("utf-8")
    if encoding == "utf-8":
        return len(prefix.encode("utf-8"))
    return len(prefix.encode("utf-16-le")) // 2


def position(text, line, col, encoding):
    return {"line": line - 1, "character": character(text.split("\n")[line - 1], col, encoding)}


def expected(findings, cwd, read, encoding, as_dir=None):
    """The CLI's findings as the diagnostics the server must publish: the
    range's end is None where the CLI gives none (a point: the server then
    shows the word there). read(path) is a file's text; the paths are
    relative to as_dir (a copy of the project run in cwd), else cwd."""
    out = []
    for f in findings:
        path = os.path.join(cwd, f["file"])
        start = position(read(path), f["line"], f["column"], encoding)
        end = position(read(path), f["end_line"], f["end_column"], encoding) if "end_line" in f else None
        notes = []
        for n in f["notes"]:
            npath = os.path.join(as_dir or cwd, n["file"])
            notes.append((npath, position(read(npath), n["line"], n["column"], encoding), n["message"]))
        out.append({"code": f["rule"], "severity": SEVERITY[f["severity"]], "message": f["message"],
                    "start": start, "end": end, "notes": notes})
    return sorted(out, key=key)


def actual(diagnostics, uri_path):
    out = []
    for d in diagnostics:
        notes = [(uri_path(r["location"]["uri"]), r["location"]["range"]["start"], r["message"])
                 for r in d.get("relatedInformation", [])]
        out.append({"code": d.get("code"), "severity": d["severity"], "message": d["message"],
                    "start": d["range"]["start"], "end": d["range"]["end"], "notes": notes,
                    "source": d.get("source"), "href": d.get("codeDescription", {}).get("href")})
    return sorted(out, key=key)


def key(d):
    return (d["start"]["line"], d["start"]["character"], d["code"] or "", d["message"])


def compare(exp, act):
    """Problems (strings) where the published diagnostics differ from the
    CLI's findings."""
    problems = []
    if [key(e) for e in exp] != [key(a) for a in act]:
        return ["the diagnostics are not the CLI's findings:\n  CLI: %s\n  LSP: %s"
                % ([key(e) for e in exp], [key(a) for a in act])]
    for e, a in zip(exp, act):
        for field in ("severity", "notes"):
            if e[field] != a[field]:
                problems.append("%s: %s differs: CLI %r, LSP %r" % (key(e), field, e[field], a[field]))
        if e["end"] is not None and e["end"] != a["end"]:
            problems.append("%s: the range ends at %r, the CLI's at %r" % (key(e), a["end"], e["end"]))
        if a["source"] != "heaplint":
            problems.append("%s: source is %r" % (key(e), a["source"]))
    return problems
