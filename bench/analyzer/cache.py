#!/usr/bin/env python3
"""heaplint's result cache and CI speed on a real project, against
clang-tidy and clang++ -fsyntax-only on the same translation units, in the
same run (bench/README.md, "Result cache and CI speed").

  bench/analyzer/cache.py [-n ROUNDS] [-j JOBS] [-H HEAPLINT] [-L LLVM] [-o OUT]
                          [--header REL] [--hook-runs N] [--no-hook] [--no-tidy] SOURCE_DIR
  bench/analyzer/cache.py [-o OUT] --report-only

SOURCE_DIR is a checkout of a CMake project (CLI11 at the commit
bench/README.md names, by default configured with its tests and examples).
It is copied to OUT/src and made a git repository (for --diff), configured
into OUT/build with a compile database, and each of ROUNDS rounds times,
with -j JOBS everywhere:

  syntax   clang++ -fsyntax-only -w on every C++ entry (JOBS at a time)
  tidy     run-clang-tidy -checks=-*,performance-* over the database
           (--no-tidy: not run)
  cold     heaplint -p, --cache-dir empty
  warm     heaplint -p, the same again, nothing changed (3 times)
  header   heaplint -p after a content change to one header (HEADER, a
           comment appended): the units it re-analyzed (-v) must be exactly
           the ones that include it (clang++ -M of every entry)
  line     a one-line change to a main file (a comment appended to the line
           of the cold run's first finding in a .cpp), the header's change
           committed: heaplint --diff (no cache), heaplint -p with the warm
           cache (the whole database), clang-tidy-diff.py on the same diff,
           clang++ -fsyntax-only of that one file

The first three take turns in a rotating order. Times are wall seconds and
the CPU (user+sys) of the children; ratios are taken within each round and
given as the median and the range over the rounds; OUT/results.json keeps
the rounds done (--report-only prints them). Unless --no-hook, the CMake
hook is timed first, on examples/: a clean build (cmake --build -jJOBS
after --target clean) without the hook, with
-DCMAKE_CXX_CLANG_TIDY="<heaplint>;--quiet", with a warm --cache-dir
added, and (unless --no-tidy-hook) with clang-tidy itself as the hook
(--checks), all taking turns, --hook-runs times each after one untimed
build of each.
"""
import argparse
import concurrent.futures
import json
import os
import re
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import time

TOP = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
CXX_EXT = (".cpp", ".cc", ".cxx", ".c++", ".C")
GIT = ["git", "-c", "user.name=bench", "-c", "user.email=bench@localhost", "-c", "commit.gpgsign=false"]


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(fn):
    """(wall, cpu, result) of fn(); cpu is what the children it waited for used."""
    c0, t0 = children_cpu(), time.perf_counter()
    res = fn()
    return time.perf_counter() - t0, children_cpu() - c0, res


def run(cmd, cwd=None, ok=(0,), stdin=None, env=None):
    p = subprocess.run(cmd, cwd=cwd, input=stdin, capture_output=True, text=True, env=env)
    if p.returncode not in ok:
        sys.exit("%s: exit %d\n%s" % (" ".join(cmd), p.returncode, p.stderr[-3000:]))
    return p


def entry_argv(e):
    return e["arguments"] if "arguments" in e else shlex.split(e["command"])


def compile_only(e, clangxx, extra):
    """The entry's command with clang++ and extra instead of -c, -o and the
    dependency-file flags (what heaplint keeps of it; -w as heaplint adds)."""
    out, skip = [clangxx] + extra, False
    for a in entry_argv(e)[1:]:
        if skip:
            skip = False
        elif a in ("-o", "-MF", "-MT", "-MQ"):
            skip = True
        elif a not in ("-c", "-MD", "-MMD"):
            out.append(a)
    return out


def pool(cmds, jobs):
    """Runs (cmd, cwd) pairs, jobs at a time; returns the outputs."""
    with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        return list(ex.map(lambda c: run(c[0], cwd=c[1]).stdout, cmds))


def abspath(e):
    return os.path.realpath(os.path.join(e["directory"], e["file"]))


def setup(a):
    src, build = os.path.join(a.out, "src"), os.path.join(a.out, "build")
    shutil.copytree(a.source, src, symlinks=True, ignore=shutil.ignore_patterns(".git"))
    run(GIT + ["init", "-q"], cwd=src)
    run(GIT + ["add", "-A"], cwd=src)
    run(GIT + ["commit", "-qm", "base"], cwd=src)
    run(GIT + ["tag", "base"], cwd=src)
    run(["cmake", "-S", src, "-B", build, "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON"] + a.cmake_arg)
    with open(os.path.join(build, "compile_commands.json")) as f:
        db = [e for e in json.load(f) if e["file"].endswith(CXX_EXT)]
    return src, build, db


def includers(db, header, a):
    """The entries whose preprocessing reads header (clang++ -M)."""
    deps = pool([(compile_only(e, a.clangxx, ["-M", "-w"]), e["directory"]) for e in db], a.jobs)
    target = os.path.realpath(header)
    found = set()
    for e, d in zip(db, deps):
        files = d.replace("\\\n", " ").split(":", 1)[1].split()
        if any(os.path.realpath(os.path.join(e["directory"], f)) == target for f in files):
            found.add(abspath(e))
    return found


def heaplint(a, build, cache=None, extra=(), cwd=None):
    cmd = [a.heaplint, "-j%d" % a.jobs, "-v", "-p", build] + list(extra)
    if cache:
        cmd.append("--cache-dir=" + cache)
    p = run(cmd, cwd=cwd or build, ok=(0, 1))
    m = re.search(r"cache: (\d+) hits?, (\d+) miss", p.stderr)
    analyzed = set(re.findall(r"^heaplint: remark: (.*?): analyzed", p.stderr, re.M))
    return {"out": p.stdout, "err": p.stderr, "hits": int(m.group(1)) if m else None,
            "misses": int(m.group(2)) if m else None, "analyzed": analyzed}


def first_finding_line(out, src):
    """(file, line) of the first finding in a main file, on a line that does
    not continue a macro, for the one-line change."""
    for m in re.finditer(r"^(\S+?):(\d+):\d+: warning:", out, re.M):
        path = os.path.realpath(os.path.join(src, m.group(1))) if not os.path.isabs(m.group(1)) else m.group(1)
        if path.startswith(os.path.realpath(src)) and path.endswith(CXX_EXT):
            with open(path) as f:
                lines = f.read().split("\n")
            if not lines[int(m.group(2)) - 1].rstrip().endswith("\\"):
                return path, int(m.group(2))
    sys.exit("no finding in a main file to change a line at")


def append_to_line(path, line, text):
    with open(path) as f:
        lines = f.read().split("\n")
    lines[line - 1] += text
    with open(path, "w") as f:
        f.write("\n".join(lines))


def line_round(a, src, build, cache, db, finding, r, res):
    path, line = finding
    append_to_line(path, line, " // bench: one-line change %d" % r)
    diff = run(["git", "diff", "-U0", "HEAD"], cwd=src).stdout
    w, c, h = timed(lambda: heaplint(a, build, extra=["--diff"], cwd=src))
    res["diff"].append((w, c))
    res["diff_out"] = h["out"]
    w, c, h = timed(lambda: heaplint(a, build, cache))
    res["line_cached"].append((w, c, h["misses"]))
    tidy_diff = [a.tidy_diff, "-p1", "-path", build, "-clang-tidy-binary", a.tidy, "-checks=" + a.checks,
                 "-j", str(a.jobs), "-quiet"]
    w, c, _ = timed(lambda: run(tidy_diff, cwd=src, stdin=diff, ok=(0, 1)))
    res["tidy_diff"].append((w, c))
    e = next(e for e in db if abspath(e) == path)
    w, c, _ = timed(lambda: pool([(compile_only(e, a.clangxx, ["-fsyntax-only", "-w"]), e["directory"])], 1))
    res["syntax_one"].append((w, c))


def project_round(a, src, build, db, header, expected, r, res):
    run(GIT + ["reset", "-q", "--hard", "base"], cwd=src)
    cache = os.path.join(a.out, "cache")
    shutil.rmtree(cache, ignore_errors=True)
    syntax = [(compile_only(e, a.clangxx, ["-fsyntax-only", "-w"]), e["directory"]) for e in db]
    tidy = [a.run_tidy, "-p", build, "-j", str(a.jobs), "-clang-tidy-binary", a.tidy, "-checks=" + a.checks, "-quiet"]
    sides = {"syntax": lambda: pool(syntax, a.jobs), "tidy": lambda: run(tidy, ok=(0, 1)),
             "cold": lambda: heaplint(a, build, cache)}
    order = ["syntax", "cold"] if a.no_tidy else ["syntax", "tidy", "cold"]
    order = order[r % len(order):] + order[:r % len(order)]
    for side in order:
        w, c, out = timed(sides[side])
        res[side].append((w, c))
        if side == "cold":
            cold = out
            if cold["misses"] != len(db):
                sys.exit("cold run: %s misses for %d units" % (cold["misses"], len(db)))
    print("round %d: %s" % (r + 1, ", ".join("%s %.1f s" % (s, res[s][-1][0]) for s in order)), file=sys.stderr)
    for _ in range(3):
        w, c, warm = timed(lambda: heaplint(a, build, cache))
        if warm["out"] != cold["out"] or warm["hits"] != len(db):
            sys.exit("warm run: %s hits, output %s" % (warm["hits"], "same" if warm["out"] == cold["out"] else "differs"))
        res["warm"].append((w, c))
    with open(header, "a") as f:
        f.write("// bench: content change %d\n" % r)
    w, c, h = timed(lambda: heaplint(a, build, cache))
    analyzed = {os.path.realpath(os.path.join(build, p)) for p in h["analyzed"]}
    res["header"].append((w, c, h["misses"], analyzed == expected))
    if analyzed != expected:
        print("header: analyzed %d, includers %d; extra %s, missing %s" % (
            len(analyzed), len(expected), sorted(analyzed - expected)[:5], sorted(expected - analyzed)[:5]),
            file=sys.stderr)
    run(GIT + ["commit", "-qam", "header"], cwd=src)
    res.setdefault("finding", first_finding_line(cold["out"], src))
    line_round(a, src, build, cache, db, res["finding"], r, res)


def spread(values, fmt="%.2f"):
    if len(values) == 1:
        return fmt % values[0]
    return (fmt + " (" + fmt + "-" + fmt + ")") % (statistics.median(values), min(values), max(values))


def report_project(a, db, header, expected, res):
    n = len(res["cold"])
    print("\n%d TUs, -j%d, %d rounds; wall seconds, median (min-max), CPU (user+sys) median in brackets\n"
          % (len(db), a.jobs, n))
    print("| run | wall | CPU | / cold (per round) | / clang -fsyntax-only (per round) |")
    print("|---|---:|---:|---:|---:|")
    rows = [("clang++ -fsyntax-only", "syntax"), ("clang-tidy (run-clang-tidy, %s)" % a.checks, "tidy"),
            ("heaplint, cold cache", "cold"), ("heaplint, unchanged re-run", "warm"),
            ("heaplint, one header changed", "header"), ("heaplint, one line changed (whole db, cache)", "line_cached")]
    for name, key in rows:
        v = res[key]
        if not v:
            continue
        walls = [x[0] for x in v]
        cpus = [x[1] for x in v]
        per = 3 if key == "warm" else 1
        cold_ratio = [v[i][0] / res["cold"][i // per][0] for i in range(len(v))]
        syn_ratio = [v[i][0] / res["syntax"][i // per][0] for i in range(len(v))]
        print("| %s | %s s | [%.2f] | %s | %s |" % (name, spread(walls), statistics.median(cpus),
                                                     spread(cold_ratio, "%.3f"), spread(syn_ratio)))
    print("\nheader %s: includers (clang++ -M) %d of %d; re-analyzed per round %s; exactly the includers: %s"
          % (os.path.relpath(header, os.path.join(a.out, "src")), len(expected), len(db),
             [x[2] for x in res["header"]], all(x[3] for x in res["header"])))
    path, line = res["finding"]
    print("\none-line change at %s:%d (1 TU)\n" % (os.path.relpath(path, os.path.join(a.out, "src")), line))
    print("| run | wall | CPU |")
    print("|---|---:|---:|")
    for name, key in [("heaplint --diff (no cache)", "diff"), ("clang-tidy-diff.py (%s)" % a.checks, "tidy_diff"),
                      ("clang++ -fsyntax-only of the file", "syntax_one")]:
        print("| %s | %s s | [%.2f] |" % (name, spread([x[0] for x in res[key]]),
                                          statistics.median([x[1] for x in res[key]])))
    print("\nheaplint --diff reported:\n" + (res["diff_out"] or "(nothing)\n"))


def hook(a):
    cache = os.path.join(a.out, "hook-cache")
    shutil.rmtree(cache, ignore_errors=True)
    variants = {"plain": [], "hook": ["-DCMAKE_CXX_CLANG_TIDY=%s;--quiet" % a.heaplint],
                "hook+cache": ["-DCMAKE_CXX_CLANG_TIDY=%s;--quiet;--cache-dir=%s" % (a.heaplint, cache)]}
    if not a.no_tidy_hook:
        # clang-tidy itself as the hook, with the checks the comparisons
        # below use: what a team pays today for the same place in the build.
        variants["clang-tidy hook"] = ["-DCMAKE_CXX_CLANG_TIDY=%s;-checks=%s;--quiet" % (a.tidy, a.checks)]
    dirs = {}
    for v, args in variants.items():
        d = dirs[v] = os.path.join(a.out, "examples-" + v.replace("+", "-"))
        shutil.rmtree(d, ignore_errors=True)
        run(["cmake", "-S", os.path.join(TOP, "examples"), "-B", d] + args)
        run(["cmake", "--build", d, "-j%d" % a.jobs])
    times = {v: [] for v in variants}
    order = list(variants)
    for r in range(a.hook_runs):
        for v in order[r % len(order):] + order[:r % len(order)]:
            run(["cmake", "--build", dirs[v], "--target", "clean"])
            w, c, _ = timed(lambda: run(["cmake", "--build", dirs[v], "-j%d" % a.jobs]))
            times[v].append((w, c))
    print("\nCMake hook on examples/ (5 TUs), clean build with -j%d, %d runs each, taking turns\n"
          % (a.jobs, a.hook_runs))
    print("| build | wall | CPU | wall / plain (per round) | CPU / plain (per round) |")
    print("|---|---:|---:|---:|---:|")
    for v in variants:
        wr = [times[v][i][0] / times["plain"][i][0] for i in range(a.hook_runs)]
        cr = [times[v][i][1] / times["plain"][i][1] for i in range(a.hook_runs)]
        print("| %s | %s s | %s | %s | %s |" % (v, spread([x[0] for x in times[v]]), spread([x[1] for x in times[v]]),
                                               spread(wr), spread(cr)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("source", nargs="?", help="the project's checkout (CLI11)")
    ap.add_argument("-n", "--rounds", type=int, default=3)
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("-H", "--heaplint", default=os.path.join(TOP, "build", "bin", "heaplint"))
    ap.add_argument("-L", "--llvm", default="/usr/lib/llvm-19")
    ap.add_argument("-o", "--out", default=os.path.join(TOP, "build", "bench-cache"))
    ap.add_argument("--header", default="tests/app_helper.hpp", help="the header to change, in SOURCE")
    ap.add_argument("--checks", default="-*,performance-*", help="clang-tidy's checks")
    ap.add_argument("--cmake-arg", action="append", default=None)
    ap.add_argument("--hook-runs", type=int, default=3)
    ap.add_argument("--no-hook", action="store_true")
    ap.add_argument("--no-tidy-hook", action="store_true", help="leave clang-tidy out of the hook's comparison")
    ap.add_argument("--no-tidy", action="store_true", help="leave out run-clang-tidy over the whole database")
    ap.add_argument("--report-only", action="store_true", help="print the report of the rounds OUT holds")
    a = ap.parse_args()
    a.heaplint, a.out = os.path.abspath(a.heaplint), os.path.abspath(a.out)
    a.clangxx = os.path.join(a.llvm, "bin", "clang++")
    a.tidy = os.path.join(a.llvm, "bin", "clang-tidy")
    a.run_tidy = shutil.which("run-clang-tidy-19") or os.path.join(a.llvm, "bin", "run-clang-tidy")
    a.tidy_diff = shutil.which("clang-tidy-diff-19.py") or os.path.join(a.llvm, "share", "clang", "clang-tidy-diff.py")
    if a.cmake_arg is None:
        a.cmake_arg = ["-DCMAKE_BUILD_TYPE=Release", "-DCLI11_BUILD_TESTS=ON", "-DCLI11_BUILD_EXAMPLES=ON"]
    if not a.report_only:
        shutil.rmtree(a.out, ignore_errors=True)
    os.makedirs(a.out, exist_ok=True)
    print("heaplint %s; %s; load average %s at the start" % (
        run([a.heaplint, "--version"]).stdout.split("\n")[0], run([a.clangxx, "--version"]).stdout.split("\n")[0],
        " ".join("%.1f" % x for x in os.getloadavg())))
    saved = os.path.join(a.out, "results.json")
    if a.report_only:
        with open(saved) as f:
            s = json.load(f)
        res = s["res"]
        res["finding"] = tuple(res["finding"])
        report_project(a, s["db"], s["header"], set(s["expected"]), res)
        return
    if not a.no_hook:
        hook(a)
    if a.source:
        src, build, db = setup(a)
        header = os.path.join(src, a.header)
        if not os.path.isfile(header):
            sys.exit("%s: no such header in %s" % (a.header, a.source))
        expected = includers(db, header, a)
        res = {k: [] for k in ("syntax", "tidy", "cold", "warm", "header", "diff", "line_cached", "tidy_diff",
                               "syntax_one")}
        for r in range(a.rounds):
            project_round(a, src, build, db, header, expected, r, res)
            # What a killed run leaves: --report-only prints the rounds done.
            with open(saved, "w") as f:
                json.dump({"db": db, "header": header, "expected": sorted(expected), "res": res}, f)
        report_project(a, db, header, expected, res)
    print("\nload average %s at the end" % " ".join("%.1f" % x for x in os.getloadavg()))


if __name__ == "__main__":
    main()
