#!/usr/bin/env python3
"""integrations/bazel's heaplint_aspect under a real Bazel (Debian's
bazel-bootstrap, Bazel 4.2.3), offline.

A small workspace in a temporary directory: //lib, a cc_library whose
C++ source stores a 24-byte lambda into std::function (a function-sbo
finding on libstdc++) and whose C source is clean, and //app, a cc_binary with a clean source that depends on
it. Bazel 4 loads @rules_cc and @rules_java even for native rules; offline
they are stand-ins made here that forward to the native rules. Then:

  1. the aspect over //...: one report and one fixes YAML per source, the
     library's report has the finding, as `heaplint -p` gives it on the
     same source, the binary's has no warning, the library's fixes name it;
     the build succeeds (findings alone do not fail it); a .heaplint.yaml in
     the workspace, no input of the actions, is not read;
  2. the same build again runs no heaplint action (Bazel's action cache;
     counted in --execution_log_json_file);
  3. after an edit of app/main.cc, only that source's action runs;
  4. --define=heaplint_format=json: the reports are heaplint's JSON;
  5. --@heaplint//:config=//:heaplint.yaml: that configuration applies, and
     naming it re-runs the actions (it is their input);
  6. --define=heaplint_werror=1 fails the build, with the finding shown;
  7. a heaplint that is not there fails the build and says how to name it.

The Bazel server has a private --output_user_root in the temporary
directory and is shut down at the end, passing or not.

usage: aspect.py --heaplint <path to heaplint> [--bazel <path>] [--keep]
Exits 77 (ctest: skipped) when there is no bazel.
"""
import argparse
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
INTEGRATION = os.path.join(TOP, "integrations", "bazel")
DEFAULT_CONFIG = os.path.join(INTEGRATION, "default.heaplint.yaml")
ASPECT = "@heaplint//:heaplint.bzl%heaplint_aspect"
FINDING = "std::function<void ()> stores this lambda on the heap: 24 bytes"

# What Bazel 4's own BUILD files load from @rules_cc and @rules_java
# (@bazel_tools//tools/cpp, tools/jdk, ...), forwarded to the native rules.
STANDINS = {
    "rules_cc/WORKSPACE": 'workspace(name = "rules_cc")\n',
    "rules_cc/BUILD": "",
    "rules_cc/cc/BUILD": (
        'alias(name = "toolchain_type", actual = "@bazel_tools//tools/cpp:toolchain_type",\n'
        '      visibility = ["//visibility:public"])\n'),
    "rules_cc/cc/defs.bzl": "".join(
        "%s = native.%s\n" % (r, r) for r in [
            "cc_binary", "cc_import", "cc_library", "cc_proto_library", "cc_test",
            "cc_toolchain", "cc_toolchain_suite", "objc_library"]),
    "rules_java/WORKSPACE": 'workspace(name = "rules_java")\n',
    "rules_java/BUILD": "",
    "rules_java/java/BUILD": "",
    "rules_java/java/defs.bzl": "".join(
        "%s = native.%s\n" % (r, r) for r in [
            "java_binary", "java_import", "java_library", "java_proto_library",
            "java_runtime", "java_toolchain"]),
}

WORKSPACE = {
    "ws/WORKSPACE": 'workspace(name = "demo")\n',
    "ws/BUILD": 'exports_files(["heaplint.yaml"])\n',
    "ws/heaplint.yaml": "rules:\n  function-sbo: error\n",
    # Not an input of the actions, so not read: heaplint would find it
    # through the sandbox's links, and Bazel would not re-run an action when
    # it changes.
    "ws/.heaplint.yaml": "rules:\n  function-sbo: off\n",
    "ws/lib/BUILD": (
        'cc_library(\n'
        '    name = "lib",\n'
        '    srcs = ["lib.cc", "count.c"],\n'
        '    hdrs = ["lib.h"],\n'
        '    defines = ["LIB_CAPTURES=3"],\n'
        # heaplint's runtime on the include path (a fix that includes it
        # is made only then): RUNTIME_INCLUDE, filled in below.
        '    copts = ["-isystem", "RUNTIME_INCLUDE"],\n'
        '    visibility = ["//visibility:public"],\n'
        ')\n'),
    "ws/lib/lib.h": "#pragma once\nvoid run_later(long a, long b, long c);\n",
    # The define and the header come from the target: without the aspect's
    # flags this does not compile (and heaplint would exit 3).
    "ws/lib/lib.cc": (
        '#include "lib/lib.h"\n'
        '#include <functional>\n'
        '#if LIB_CAPTURES != 3\n'
        '#error the target\'s define did not arrive\n'
        '#endif\n'
        'static std::function<void()> pending;\n'
        'void run_later(long a, long b, long c) {\n'
        '  pending = [a, b, c] { (void)(a + b + c); };\n'
        '}\n'),
    # A C source: the toolchain's C flags (not -std=c++0x); heaplint
    # analyzes it for what applies to C, nothing here.
    "ws/lib/count.c": (
        '#if defined(__cplusplus) || LIB_CAPTURES != 3\n'
        '#error compiled as C++, or without the target\'s define\n'
        '#endif\n'
        'int count_captures(void) { return LIB_CAPTURES; }\n'),
    "ws/app/BUILD": 'cc_binary(\n    name = "app",\n    srcs = ["main.cc"],\n    deps = ["//lib"],\n)\n',
    "ws/app/main.cc": '#include "lib/lib.h"\nint main() {\n  run_later(1, 2, 3);\n  return 0;\n}\n',
}

LIB_REPORT = "lib/lib.heaplint/lib/lib.cc.heaplint"
C_REPORT = "lib/lib.heaplint/lib/count.c.heaplint"
APP_REPORT = "app/app.heaplint/app/main.cc.heaplint"

failures = []


def check(cond, what):
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        failures.append(what)
    return cond


def write_tree(root, files):
    for rel, text in files.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)


class Bazel:
    def __init__(self, bazel, tmp):
        self.bazel = bazel
        self.tmp = tmp
        self.ws = os.path.join(tmp, "ws")
        # The system's rc file stays: Debian's (/etc/bazel/bazelrc) names
        # the install base and the JDK; the user's and a workspace's would
        # change the test.
        self.startup = [bazel, "--nohome_rc", "--noworkspace_rc",
                        "--output_user_root=" + os.path.join(tmp, "root"), "--max_idle_secs=120"]
        self.common = [
            "--override_repository=rules_cc=" + os.path.join(tmp, "rules_cc"),
            "--override_repository=rules_java=" + os.path.join(tmp, "rules_java"),
            "--override_repository=heaplint=" + INTEGRATION,
            # Debian's rc file turns it on: a page of mount lines per action.
            "--nosandbox_debug",
        ]
        self.count = 0

    def run(self, command, *args, env=None):
        self.count += 1
        argv = self.startup + [command] + self.common + list(args)
        proc = subprocess.run(argv, cwd=self.ws, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              universal_newlines=True)
        with open(os.path.join(self.tmp, "bazel-%d.log" % self.count), "w") as f:
            f.write(" ".join(argv) + "\n" + proc.stdout)
        return proc

    def aspect_build(self, log, *args, env=None):
        """Builds //... with the aspect; returns (status, output, the
        Heaplint spawns of its execution log)."""
        log_path = os.path.join(self.tmp, log)
        proc = self.run("build", "//...", "--aspects=" + ASPECT, "--output_groups=report,fixes",
                        "--execution_log_json_file=" + log_path, *args, env=env)
        return proc.returncode, proc.stdout, heaplint_spawns(log_path)

    def bin(self, rel):
        return os.path.join(self.ws, "bazel-bin", rel)

    def shutdown(self):
        subprocess.run(self.startup + ["shutdown"], cwd=self.ws, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)


def heaplint_spawns(path):
    """The Heaplint actions an --execution_log_json_file lists (Bazel 4
    writes the spawns as JSON objects one after another, not as a list);
    an action the action cache satisfied is not among them."""
    if not os.path.exists(path):
        return []
    with open(path) as f:
        text = f.read()
    decoder = json.JSONDecoder()
    spawns, pos = [], 0
    while True:
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos >= len(text):
            break
        obj, pos = decoder.raw_decode(text, pos)
        if obj.get("mnemonic") == "Heaplint":
            spawns.append(obj)
    return spawns


def spawn_sources(spawns):
    """The source each Heaplint spawn analyzed (run_heaplint.sh's argument
    before the compiler flags' "--")."""
    sources = []
    for s in spawns:
        args = s.get("commandArgs", [])
        sources.append(args[args.index("--") - 1] if "--" in args else "?")
    return sorted(sources)


def read(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return None


def warnings(text):
    return sorted(line for line in (text or "").splitlines() if ": warning: " in line)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--heaplint", required=True)
    ap.add_argument("--bazel")
    ap.add_argument("--keep", action="store_true", help="keep the temporary directory")
    opts = ap.parse_args()
    bazel = opts.bazel or shutil.which("bazel")
    if not bazel:
        print("skipped: no bazel (Debian: apt-get install bazel-bootstrap)")
        return 77
    heaplint = os.path.abspath(opts.heaplint)

    runtime = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "runtime",
                                            "include"))
    WORKSPACE["ws/lib/BUILD"] = WORKSPACE["ws/lib/BUILD"].replace("RUNTIME_INCLUDE", runtime)
    tmp = tempfile.mkdtemp(prefix="heaplint-bazel-")
    b = Bazel(bazel, tmp)
    try:
        write_tree(tmp, STANDINS)
        write_tree(tmp, WORKSPACE)
        env_heaplint = "--action_env=HEAPLINT=" + heaplint

        # 1. the aspect over //...
        status, out, spawns = b.aspect_build("exec1.json", env_heaplint)
        if not check(status == 0, "the aspect's build succeeds with a finding (exit %d)" % status):
            print(out[-4000:])
        check(spawn_sources(spawns) == ["app/main.cc", "lib/count.c", "lib/lib.cc"],
              "one heaplint action per source: %s" % spawn_sources(spawns))
        reports = sorted(os.path.relpath(os.path.join(d, f), b.bin(""))
                         for d, _, files in os.walk(b.bin("")) for f in files if ".heaplint." in f)
        check(reports == sorted(r + e for r in [LIB_REPORT, C_REPORT, APP_REPORT] for e in [".txt", ".yaml"]),
              "one report and one fixes file per source: %s" % reports)
        lib = read(b.bin(LIB_REPORT + ".txt"))
        check(lib is not None and FINDING in lib and "[function-sbo]" in lib,
              "lib.cc's report has the finding (the workspace's .heaplint.yaml is not read):\n%s" % lib)
        app = read(b.bin(APP_REPORT + ".txt"))
        check(app is not None and not warnings(app) and "error" not in app,
              "main.cc's report has no warning: %r" % app)
        c = read(b.bin(C_REPORT + ".txt"))
        check(c == "", "count.c's report (C flags, the target's define) is empty: %r" % c)
        fixes = read(b.bin(LIB_REPORT + ".yaml")) or ""
        check("DiagnosticName:" in fixes and "function-sbo" in fixes and "lib/lib.cc" in fixes,
              "lib.cc's fixes YAML names the finding:\n%s" % fixes)
        app_fixes = read(b.bin(APP_REPORT + ".yaml"))
        check(app_fixes is not None and "function-sbo" not in app_fixes,
              "main.cc's fixes YAML exists and names nothing")

        # The same findings as heaplint -p over a compile database of the
        # workspace gives.
        with open(os.path.join(b.ws, "compile_commands.json"), "w") as f:
            json.dump([{"directory": b.ws, "file": "lib/lib.cc",
                        "arguments": ["c++", "-std=c++17", "-iquote", ".", "-DLIB_CAPTURES=3", "-isystem", runtime,
                                      "-c", "lib/lib.cc"]}],
                      f)
        direct = subprocess.run([heaplint, "-p", ".", "--quiet", "--config-file=" + DEFAULT_CONFIG, "lib/lib.cc"], cwd=b.ws,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
        # heaplint names a file by its real path: in Bazel's sandbox the
        # source is a link to the workspace's, so the report names that.
        in_ws = (lib or "").replace(os.path.realpath(b.ws) + "/", "")
        check(warnings(direct.stdout) and warnings(direct.stdout) == warnings(in_ws),
              "the report's warnings are heaplint -p's:\n%s" % direct.stdout)

        # 2. unchanged: Bazel's cache, no heaplint action.
        status, out, spawns = b.aspect_build("exec2.json", env_heaplint)
        check(status == 0 and not spawns,
              "an unchanged second build runs no heaplint action (exit %d, ran %s)" % (status, spawn_sources(spawns)))

        # 3. an edited source re-runs only its own action.
        with open(os.path.join(b.ws, "app", "main.cc"), "a") as f:
            f.write("// edited\n")
        status, out, spawns = b.aspect_build("exec3.json", env_heaplint)
        check(status == 0 and spawn_sources(spawns) == ["app/main.cc"],
              "after editing app/main.cc only its action runs (ran %s)" % spawn_sources(spawns))

        # 4. JSON reports.
        status, out, spawns = b.aspect_build("exec4.json", env_heaplint, "--define=heaplint_format=json")
        check(status == 0, "--define=heaplint_format=json builds (exit %d)" % status)
        try:
            doc = json.loads(read(b.bin(LIB_REPORT + ".json")) or "")
            check(FINDING in json.dumps(doc), "lib.cc's JSON report has the finding")
        except ValueError as e:
            check(False, "lib.cc's JSON report is JSON: %s" % e)

        # 5. a configuration named with --@heaplint//:config: an input of
        # the actions, so that changing it re-runs them.
        status, out, spawns = b.aspect_build("exec5.json", env_heaplint, "--@heaplint//:config=//:heaplint.yaml")
        lib = read(b.bin(LIB_REPORT + ".txt")) or ""
        check(status == 0 and "error: " + FINDING in lib,
              "--@heaplint//:config=//:heaplint.yaml applies (function-sbo: error; exit %d):\n%s" % (status, lib))
        check(spawn_sources(spawns) == ["app/main.cc", "lib/count.c", "lib/lib.cc"],
              "naming a configuration re-runs every action (ran %s)" % spawn_sources(spawns))

        # 6. werror: the build fails, and says why.
        status, out, spawns = b.aspect_build("exec6.json", env_heaplint, "--define=heaplint_werror=1")
        check(status != 0, "--define=heaplint_werror=1 fails the build (exit %d)" % status)
        check(FINDING in out, "the failing build shows the finding")

        # 7. no heaplint: a failure that says what to do, not empty reports.
        status, out, spawns = b.aspect_build("exec7.json", "--action_env=HEAPLINT=" + os.path.join(tmp, "none"))
        check(status != 0 and "--action_env=HEAPLINT=" in out,
              "without heaplint the build fails and says how to name it (exit %d)" % status)
    finally:
        b.shutdown()
        if opts.keep:
            print("kept", tmp)
        else:
            # Bazel's install and output bases are read-only.
            for d, dirs, _ in os.walk(tmp):
                for x in dirs:
                    p = os.path.join(d, x)
                    if not os.path.islink(p):
                        os.chmod(p, os.stat(p).st_mode | stat.S_IWUSR)
            shutil.rmtree(tmp, ignore_errors=True)

    if failures:
        print("%d check(s) failed" % len(failures))
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
