#!/usr/bin/env python3
"""The result cache's property, checked by difference: a run that restores
units from the cache prints exactly what a run without the cache prints —
stdout, stderr and exit status, byte for byte — apart from the cache's own
words (its -v remark per unit and the summary's "; cache: ..." count).

Over one input of each rule suite and the examples/ project, in one compile
database, the runs vary what a result depends on besides the units' files:
the current directory (messages show paths relative to it), -v (remarks),
$CPATH (an include path no compile command shows) and the output format.
Each variation runs without the cache, then with it twice (stored, then
restored: the second must restore every unit) on one cache directory that
the variations before it filled, so that a key missing one of these things
shows as a restored result that differs.

usage: differential.py <heaplint> <source root> <work dir, with examples/build/compile_commands.json>
"""
import difflib
import json
import os
import re
import shutil
import subprocess
import sys
import time

heaplint, src_root, work = (os.path.abspath(a) for a in sys.argv[1:4])
here = os.path.dirname(os.path.abspath(__file__))
runtime = os.path.join(src_root, "runtime", "include")

# (input of a rule suite, its flags): both standard libraries, a unit with
# compile errors (no-alloc/sites.cpp), one with a site not decided and
# messages that name other places (function-sbo/templates.cpp).
RULE_INPUTS = [
    ("function-sbo/templates.cpp", ["-std=c++17"]),
    ("any-sbo/values.cpp", ["-std=c++17", "-stdlib=libc++"]),
    ("node-container/counts.cpp", ["-std=c++17"]),
    ("no-alloc/sites.cpp", ["-std=c++20", "-I" + runtime]),
    ("string-sso/sources.cpp", ["-std=c++17", "-stdlib=libc++"]),
]

# The environment variables the cache keys on (analyzer/cache/cache.c):
# none set unless a variation sets it.
PARSE_ENV = ["CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH", "OBJC_INCLUDE_PATH", "OBJCPLUS_INCLUDE_PATH", "INCLUDE",
             "EXTERNAL_INCLUDE", "NCC_C_INCLUDE_PATH", "NCC_CPLUS_INCLUDE_PATH", "XCC_C_INCLUDE_PATH",
             "XCC_CPLUS_INCLUDE_PATH", "SDKROOT", "SCE_ORBIS_SDK_DIR", "SCE_PROSPERO_SDK_DIR", "HIP_PATH", "ROCM_PATH",
             "MACOSX_DEPLOYMENT_TARGET", "IPHONEOS_DEPLOYMENT_TARGET", "TVOS_DEPLOYMENT_TARGET",
             "WATCHOS_DEPLOYMENT_TARGET", "XROS_DEPLOYMENT_TARGET", "DRIVERKIT_DEPLOYMENT_TARGET", "COMPILER_PATH",
             "CLANG_NO_DEFAULT_CONFIG", "HEAPLINT_CACHE_DIR"]

CACHE_REMARK = re.compile(rb"^heaplint: remark: .*: (restored from the cache|analyzed \(.*\))\n", re.M)
CACHE_COUNT = re.compile(rb"; cache: (\d+) hits?, (\d+) miss(es)?$", re.M)


def build_db():
    """One compile database: the rule inputs (copied below work/, so that
    their paths are relative to some directories and not to others), the
    CPATH unit and the examples' CMake database."""
    entries = []
    for rel, flags in RULE_INPUTS:
        d = os.path.join(work, "rules", os.path.dirname(rel))
        os.makedirs(d, exist_ok=True)
        shutil.copy(os.path.join(src_root, "tests", rel), d)
        name = os.path.basename(rel)
        entries.append({"directory": d, "file": name, "arguments": ["clang++"] + flags + ["-c", name]})
    d = os.path.join(work, "cpath")
    shutil.copytree(here, d, ignore=shutil.ignore_patterns("*.py"))
    # With a flag only GCC knows, as in a database written for gcc: -v says
    # it is dropped.
    entries.append({"directory": d, "file": "cpath.cc",
                    "arguments": ["g++", "-std=c++17", "-fconserve-stack", "-c", "cpath.cc"]})
    with open(os.path.join(work, "examples", "build", "compile_commands.json")) as f:
        entries += json.load(f)
    os.makedirs(os.path.join(work, "db"), exist_ok=True)
    with open(os.path.join(work, "db", "compile_commands.json"), "w") as f:
        json.dump(entries, f, indent=1)
    return entries


def main():
    entries = build_db()
    templates = os.path.join(work, "rules", "function-sbo", "templates.cpp")
    cpath = os.path.join(work, "cpath", "cpath.cc")
    main_cc = os.path.join(work, "examples", "src", "main.cc")
    few = [templates, cpath, main_cc]
    # (what varies, cwd below work, flags, environment, units: all when empty)
    variations = [
        ("-v, text, from the top", ".", ["-v"], {}, []),
        ("-v, SARIF, from examples/", "examples", ["-v", "--format=sarif"], {}, few),
        ("no -v, JSON, from the top", ".", ["--format=json", "--report-undecided"], {}, few),
        ("CPATH set, text, from rules/", "rules", [], {"CPATH": os.path.join(work, "cpath", "inc")}, [cpath]),
    ]
    base_env = {k: v for k, v in os.environ.items() if k not in PARSE_ENV}
    cache = os.path.join(work, "cache")
    failed, runs, start = 0, 0, time.time()
    for name, cwd, flags, env, units in variations:
        cmd = [heaplint, "-p", os.path.join(work, "db")] + flags + units
        run_env = dict(base_env, **env)

        def run(extra):
            p = subprocess.run(cmd + extra, cwd=os.path.join(work, cwd), env=run_env, capture_output=True)
            return p.returncode, p.stdout, p.stderr

        plain = run([])
        for round in ("stored", "restored"):
            rc, out, err = run(["--cache-dir=" + cache])
            runs += 1
            count = CACHE_COUNT.search(err)
            err = CACHE_COUNT.sub(b"", CACHE_REMARK.sub(b"", err))
            problems = []
            if rc != plain[0]:
                problems.append("exit status %d, without the cache %d" % (rc, plain[0]))
            for what, mine, theirs in (("stdout", out, plain[1]), ("stderr", err, plain[2])):
                if mine != theirs:
                    diff = difflib.unified_diff(theirs.decode(errors="replace").splitlines(),
                                                mine.decode(errors="replace").splitlines(),
                                                "without the cache", "with it (%s)" % round, lineterm="", n=1)
                    problems.append("%s differs:\n%s" % (what, "\n".join(list(diff)[:40])))
            if round == "restored" and (not count or count.group(2) != b"0"):
                problems.append("not every unit was restored: %s" % (count.group(0).decode() if count else "no count"))
            print("%s: %s (%s)" % ("FAIL" if problems else "ok", name, round))
            for p in problems:
                print("  " + p.replace("\n", "\n  "))
            failed += bool(problems)
    print("%d units, %d variations, %d cached runs: %.1f s" % (len(entries), len(variations), runs,
                                                                 time.time() - start))
    return 1 if failed else 0


sys.exit(main())
