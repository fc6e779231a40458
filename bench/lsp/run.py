#!/usr/bin/env python3
"""heaplint lsp's latency from a didChange to its publishDiagnostics,
against `clang++ -fsyntax-only` of the same file, in the same run
(bench/README.md, "Language server").

  bench/lsp/run.py [-n RUNS] [-H HEAPLINT] [-C CLANGXX] [-D CLANGD] --db BUILD_DIR FILE...
  bench/lsp/run.py [-n RUNS] [-H HEAPLINT] [-C CLANGXX] [-D CLANGD] FILE -- FLAGS...

For each file: one server (debounce 0, so that the time is the analysis's
alone; no refine), the file opened and
its first diagnostics awaited (the cold parse, which also builds the
precompiled preamble), then RUNS rounds, each an edit at the end of the
file (a comment, so the findings stay) timed from didChange to the
publishDiagnostics of that version (the fast unit's, docs/editors.md), and a
clang++ -fsyntax-only of the same command. Then the same with every body
parsed (fastFirst false: each analysis as before the fast unit, and what a
refine costs), and the same edits with the servers' defaults (the delay an
editor sees): heaplint's adaptive debounce, and clangd (-D; clangd-19 by
default, else clangd on the PATH; --background-index=false, the one file)
with its own; in these two sessions, then, RUNS bursts of typing (after a
pause of a second, a comment typed a key every -k seconds, 0.15 by
default), timed from the last key's didChange to its version's publish:
the edit a typist waits for; before each burst, one edit after a second's
rest, timed too: heaplint's refine of the last version runs then (it starts
500 ms after a publish), and that edit must not wait for its parse. Prints
the medians, wall and, in parentheses, CPU (the
server's user+sys over the round; the child's for clang), as a Markdown
table.
"""
import argparse
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "lsp"))
import lspclient  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def syntax_command(entry, clangxx):
    """The entry's command as clang++ -fsyntax-only (what heaplint's job keeps
    of it: no -c, -o or dependency files; -w as heaplint adds it)."""
    argv = entry["arguments"] if "arguments" in entry else shlex.split(entry["command"])
    out, skip = [clangxx, "-fsyntax-only", "-w"], False
    for a in argv[1:]:
        if skip:
            skip = False
        elif a in ("-o", "-MF", "-MT", "-MQ"):
            skip = True
        elif a in ("-c", "-MD", "-MMD") or a == entry["file"]:
            pass
        else:
            out.append(a)
    return out + [entry["file"]]


def time_clang(cmd, cwd):
    start = time.perf_counter()
    p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        raise SystemExit("run.py: %s failed" % " ".join(cmd))
    return wall, ru.ru_utime + ru.ru_stime


def type_burst(c, u, lines, version, word, interval):
    """Types word at the start of the last line, a key every interval
    seconds, then times from the last key's didChange to that version's
    publish. Returns (seconds, the next version, the server's CPU seconds
    over the burst)."""
    before = cpu_seconds(c.proc.pid)
    for col, ch in enumerate(word):
        if col:
            time.sleep(interval)
        start = time.perf_counter()
        c.notify("textDocument/didChange", {"textDocument": {"uri": u, "version": version},
                                            "contentChanges": [{"range": {"start": {"line": lines, "character": col},
                                                                          "end": {"line": lines, "character": col}},
                                                                "text": ch}]})
        version += 1
    c.diagnostics(u, version - 1, timeout=600)
    return time.perf_counter() - start, version, cpu_seconds(c.proc.pid) - before


def session(argv, cwd, options, path, text, runs, between=None, typing=None):
    """One server on path: the cold didOpen -> publish, then runs edits (a
    comment at the end), each timed from didChange to that version's
    publish; between() runs after each round (clang, timed apart). With
    typing (a key interval, s): then runs bursts, each after a pause of a
    second, a comment typed a key at a time, timed from the last key, and
    each before it an edit after a second's rest, timed too (the refine of
    the last burst parses then, 500 ms after its publish). Returns (cold,
    walls, cpus, diagnostics after the open[, bursts, their CPU, the edits
    after a rest])."""
    c = lspclient.Client(argv, cwd=cwd)
    params = {"processId": os.getpid(), "rootUri": None,
              "capabilities": {"textDocument": {"publishDiagnostics": {"versionSupport": True}}}}
    if options is not None:
        params["initializationOptions"] = options
    c.call("initialize", params)
    c.notify("initialized", {})
    u = lspclient.uri(path)
    start = time.perf_counter()
    c.notify("textDocument/didOpen", {"textDocument": {"uri": u, "languageId": "cpp", "version": 1, "text": text}})
    diags = c.diagnostics(u, 1, timeout=600)
    cold = time.perf_counter() - start
    walls, cpus = [], []
    # Inserted at the start of the last line: the text ends with a line end
    # (clangd refuses a range past the end).
    if not text.endswith("\n"):
        raise SystemExit("run.py: %s does not end with a line end" % path)
    lines = text.count("\n")
    for i in range(runs):
        edited = text + "// edit %d\n" % i
        before = cpu_seconds(c.proc.pid)
        start = time.perf_counter()
        c.notify("textDocument/didChange", {"textDocument": {"uri": u, "version": i + 2},
                                            "contentChanges": [{"range": {"start": {"line": lines, "character": 0},
                                                                          "end": {"line": lines, "character": 0}},
                                                                "text": edited[len(text):]}]})
        text = edited
        lines = text.count("\n")
        again = c.diagnostics(u, i + 2, timeout=600)
        walls.append(time.perf_counter() - start)
        cpus.append(cpu_seconds(c.proc.pid) - before)
        if len(again) != len(diags):
            raise SystemExit("run.py: %s: the diagnostics changed after a comment was added" % argv[0])
        if between:
            between()
    bursts, burst_cpus, rests = [], [], []
    version = runs + 2
    for i in range(runs if typing else 0):
        time.sleep(1.0)
        text += "\n"
        start = time.perf_counter()
        c.notify("textDocument/didChange", {"textDocument": {"uri": u, "version": version},
                                            "contentChanges": [{"text": text}]})
        c.diagnostics(u, version, timeout=600)
        rests.append(time.perf_counter() - start)
        time.sleep(1.0)
        took, version, cpu = type_burst(c, u, text.count("\n"), version + 1, "// typed", typing)
        text += "// typed"
        bursts.append(took)
        burst_cpus.append(cpu)
    c.call("shutdown", None)
    c.notify("exit", None)
    c.close()
    if typing:
        return cold, walls, cpus, diags, bursts, burst_cpus, rests
    return cold, walls, cpus, diags


def bench_file(heaplint, db_dir, entry, clangxx, clangd, runs, typing):
    path = os.path.join(entry["directory"], entry["file"])
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        text = f.read()
    cmd = syntax_command(entry, clangxx)
    time_clang(cmd, entry["directory"])  # warm the file cache alike
    cl_wall, cl_cpu = [], []

    def clang_round():
        w, cpu = time_clang(cmd, entry["directory"])
        cl_wall.append(w)
        cl_cpu.append(cpu)

    m = statistics.median
    argv = [heaplint, "lsp", "--compile-commands-dir=" + db_dir]
    # No delay: the analysis alone (clang runs after each round here).
    # The fast unit's publish alone: no refine during the clang runs between.
    cold, walls, cpus, diags = session(argv, entry["directory"], {"debounce": 0, "refineDelay": 60000}, path, text,
                                       runs, clang_round)
    if any(d["severity"] == 1 and d["range"]["start"] == {"line": 0, "character": 0} for d in diags):
        raise SystemExit("run.py: %s is not analyzed: %s" % (path, diags[0]["message"]))
    r = {"file": entry["file"], "findings": len(diags), "cold": cold, "lsp": (m(walls), m(cpus)),
         "clang": (m(cl_wall), m(cl_cpu))}
    # Every body parsed (no fast unit first): what each analysis cost before
    # issue 34's fast unit, and what the refine costs now.
    cold, walls, cpus, full = session(argv, entry["directory"], {"debounce": 0, "fastFirst": False}, path, text, runs)
    if len(full) != len(diags):
        print("run.py: %s: the fast unit's first publish has %d diagnostics, the full unit's %d"
              % (entry["file"], len(diags), len(full)), file=sys.stderr)
    r["full"] = (cold, m(walls), m(cpus))
    # Defaults against defaults: heaplint's adaptive debounce, clangd's.
    # Then typing: the last key of a burst is the edit a typist waits for.
    _, walls, _, _, bursts, bcpu, rests = session(argv, entry["directory"], None, path, text, runs, typing=typing)
    r["lsp_default"] = m(walls)
    r["lsp_typing"] = (m(bursts), m(bcpu))
    r["lsp_rest"] = (m(rests), max(rests))
    if clangd:
        cold, walls, _, _, bursts, bcpu, rests = session([clangd, "--compile-commands-dir=" + db_dir,
                                                   "--background-index=false"],
                                                  entry["directory"], None, path, text, runs, typing=typing)
        r["clangd"] = (cold, m(walls))
        r["clangd_typing"] = (m(bursts), m(bcpu))
        r["clangd_rest"] = (m(rests), max(rests))
    return r


def entries(a):
    if a.flags is not None:
        if len(a.files) != 1:
            raise SystemExit("run.py: FILE -- FLAGS takes one file")
        path = os.path.abspath(a.files[0])
        db_dir = tempfile.mkdtemp(prefix="heaplint-bench-")
        e = {"directory": os.path.dirname(path), "file": os.path.basename(path),
             "arguments": ["clang++"] + a.flags + ["-c", os.path.basename(path)]}
        with open(os.path.join(db_dir, "compile_commands.json"), "w") as f:
            json.dump([e], f)
        return db_dir, [e]
    with open(os.path.join(a.db, "compile_commands.json")) as f:
        db = json.load(f)
    picked = []
    for name in a.files:
        path = os.path.abspath(name)
        hit = [e for e in db if os.path.normpath(os.path.join(e["directory"], e["file"])) == path]
        if not hit:
            raise SystemExit("run.py: %s is not in %s/compile_commands.json" % (name, a.db))
        picked.append(hit[0])
    return os.path.abspath(a.db), picked


def main():
    argv = sys.argv[1:]
    flags = None
    if "--" in argv:
        flags = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    ap = argparse.ArgumentParser(usage=__doc__)
    ap.add_argument("-n", type=int, default=7, dest="runs")
    ap.add_argument("-H", dest="heaplint", default=os.path.join(os.path.dirname(__file__), "../../build/bin/heaplint"))
    ap.add_argument("-C", dest="clangxx", default="/usr/lib/llvm-19/bin/clang++")
    ap.add_argument("-D", dest="clangd", default=shutil.which("clangd-19") or shutil.which("clangd"),
                    help="clangd, timed on the same file and edits (default: clangd-19, else clangd)")
    ap.add_argument("-k", type=float, default=0.15, dest="typing",
                    help="the interval between the keys of a typed burst, s (default 0.15)")
    ap.add_argument("--db")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args(argv)
    a.flags = flags
    if (a.db is None) == (flags is None):
        raise SystemExit("run.py: give --db BUILD_DIR or FILE -- FLAGS")
    db_dir, picked = entries(a)
    heaplint = os.path.abspath(a.heaplint)
    print("| file | findings | didOpen -> publish (cold) | clang -fsyntax-only | didChange -> publish, no delay | "
          "didChange / clang | every body (fastFirst false): didOpen, didChange, no delay | "
          "didChange -> publish, defaults | clangd: didOpen, didChange (defaults) | "
          "heaplint / clangd (defaults) | typing, last key -> publish: heaplint, clangd | heaplint / clangd "
          "(typing) | an edit after a 1 s rest (median, max): heaplint, clangd |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for e in picked:
        r = bench_file(heaplint, db_dir, e, a.clangxx, a.clangd, a.runs, a.typing)
        cd = r.get("clangd")
        print("| %s | %d | %.2f s | %.2f s (%.2f) | %.2f s (%.2f) | **%.2f** (%.2f) | %.2f s, %.2f s (%.2f) | %.2f s "
              "| %s | %s | %s | %s | %s |"
              % (r["file"], r["findings"], r["cold"], r["clang"][0], r["clang"][1], r["lsp"][0], r["lsp"][1],
                 r["lsp"][0] / r["clang"][0], r["lsp"][1] / r["clang"][1] if r["clang"][1] else 0,
                 r["full"][0], r["full"][1], r["full"][2],
                 r["lsp_default"], "%.2f s, %.2f s" % cd if cd else "-",
                 "**%.2f**" % (r["lsp_default"] / cd[1]) if cd else "-",
                 "%.2f s (%.2f), %s" % (r["lsp_typing"] + ("%.2f s (%.2f)" % r["clangd_typing"] if cd else "-",)),
                 "**%.2f**" % (r["lsp_typing"][0] / r["clangd_typing"][0]) if cd else "-",
                 "%.2f s, %.2f s; %s" % (r["lsp_rest"] + ("%.2f s, %.2f s" % r["clangd_rest"] if cd else "-",))))
        sys.stdout.flush()

if __name__ == "__main__":
    main()
