#!/usr/bin/env python3
"""heaplint lsp's latency from a didChange to its publishDiagnostics,
against `clang++ -fsyntax-only` of the same file, in the same run
(bench/README.md, "Language server").

  bench/lsp/run.py [-n RUNS] [-H HEAPLINT] [-C CLANGXX] --db BUILD_DIR FILE...
  bench/lsp/run.py [-n RUNS] [-H HEAPLINT] [-C CLANGXX] FILE -- FLAGS...

For each file: one server (debounce 0, so that the time is the analysis's
alone; an editor adds its debounce: by default as long as an analysis of
the file takes, 50 to 500 ms), the file opened and
its first diagnostics awaited (the cold parse, which also builds the
precompiled preamble), then RUNS rounds, each an edit at the end of the
file (a comment, so the findings stay) timed from didChange to the
publishDiagnostics of that version, and a clang++ -fsyntax-only of the same
command. Prints the medians, wall and, in parentheses, CPU (the server's
user+sys over the round; the child's for clang), as a Markdown table.
"""
import argparse
import json
import os
import shlex
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


def bench_file(heaplint, db_dir, entry, clangxx, runs):
    path = os.path.join(entry["directory"], entry["file"])
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        text = f.read()
    c = lspclient.Client([heaplint, "lsp", "--compile-commands-dir=" + db_dir], cwd=entry["directory"])
    c.call("initialize", {"processId": os.getpid(), "rootUri": None, "capabilities": {},
                          "initializationOptions": {"debounce": 0}})
    c.notify("initialized", {})
    u = lspclient.uri(path)
    start = time.perf_counter()
    c.notify("textDocument/didOpen", {"textDocument": {"uri": u, "languageId": "cpp", "version": 1, "text": text}})
    diags = c.diagnostics(u, 1, timeout=600)
    cold = time.perf_counter() - start
    if any(d["severity"] == 1 and d["range"]["start"] == {"line": 0, "character": 0} for d in diags):
        raise SystemExit("run.py: %s is not analyzed: %s" % (path, diags[0]["message"]))
    cmd = syntax_command(entry, clangxx)
    time_clang(cmd, entry["directory"])  # warm the file cache alike
    lsp_wall, lsp_cpu, cl_wall, cl_cpu = [], [], [], []
    lines = text.count("\n")
    for i in range(runs):
        edited = text + "// edit %d\n" % i
        before = cpu_seconds(c.proc.pid)
        start = time.perf_counter()
        c.notify("textDocument/didChange", {"textDocument": {"uri": u, "version": i + 2},
                                            "contentChanges": [{"range": {"start": {"line": lines, "character": 0},
                                                                          "end": {"line": lines + 1, "character": 0}},
                                                                "text": edited[len(text):]}]})
        text = edited
        lines = text.count("\n")
        again = c.diagnostics(u, i + 2, timeout=600)
        lsp_wall.append(time.perf_counter() - start)
        lsp_cpu.append(cpu_seconds(c.proc.pid) - before)
        if len(again) != len(diags):
            raise SystemExit("run.py: the findings changed after a comment was added")
        w, cpu = time_clang(cmd, entry["directory"])
        cl_wall.append(w)
        cl_cpu.append(cpu)
    c.call("shutdown", None)
    c.notify("exit", None)
    c.close()
    m = statistics.median
    return {"file": entry["file"], "findings": len(diags), "cold": cold, "lsp": (m(lsp_wall), m(lsp_cpu)),
            "clang": (m(cl_wall), m(cl_cpu))}


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
    ap.add_argument("--db")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args(argv)
    a.flags = flags
    if (a.db is None) == (flags is None):
        raise SystemExit("run.py: give --db BUILD_DIR or FILE -- FLAGS")
    db_dir, picked = entries(a)
    heaplint = os.path.abspath(a.heaplint)
    print("| file | findings | didOpen -> publish (cold) | clang -fsyntax-only | didChange -> publish | "
          "didChange / clang |")
    print("|---|---:|---:|---:|---:|---:|")
    for e in picked:
        r = bench_file(heaplint, db_dir, e, a.clangxx, a.runs)
        print("| %s | %d | %.2f s | %.2f s (%.2f) | %.2f s (%.2f) | **%.2f** (%.2f) |"
              % (r["file"], r["findings"], r["cold"], r["clang"][0], r["clang"][1], r["lsp"][0], r["lsp"][1],
                 r["lsp"][0] / r["clang"][0], r["lsp"][1] / r["clang"][1] if r["clang"][1] else 0))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
