#!/usr/bin/env python3
"""Hostile inputs for heaplint's readers: the shapes that once made a
reader take time quadratic in its input (many keys, deep nesting, many
anchors or %TAG directives, aliases standing for a huge tree, many
entries that are the same), or that test a size bound (a huge scalar).

    hostile.py <shape> <n>     writes one input of that shape to stdout
    hostile.py --seeds <dir>   writes the fuzz harnesses' hostile seeds
                               into <dir>/<harness>/

The lit tests (tests/cli/input-bounds.test) use the first form; the fuzz
smoke runs (tests/fuzz/CMakeLists.txt) the second, so that libFuzzer starts
from these shapes and its -timeout catches a reader that stalls on them.
Each seed stays under 1 MiB: libFuzzer truncates larger ones.
"""
import json
import os
import sys


def yaml_keys(n):
    return "".join("k%d: 0\n" % i for i in range(n))


def yaml_dup_key(n):
    return yaml_keys(n) + "k0: 1\n"


def yaml_deep(n):
    return "rules: " + "[" * n + "]" * n + "\n"


def yaml_block_deep(n):
    return "".join("  " * i + "a:\n" for i in range(n))


def yaml_tags(n):
    return "".join("%%TAG !t%d! tag:h,%d:\n" % (i, i) for i in range(n)) + "--- {}\n"


def yaml_anchors(n):
    anchors = ", ".join("&a%d x" % i for i in range(n))
    aliases = ", ".join("*a%d" % i for i in range(n))
    return "no-alloc-functions: [%s, %s]\n" % (anchors, aliases)


def yaml_laughs(n):
    """Each list holds ten aliases of the one before: 10^n copies of a
    1000-byte scalar, in a file of a few hundred bytes."""
    lines = ['l0: &l0 ["%s"]' % ("x" * 1000)]
    for i in range(1, n + 1):
        lines.append("l%d: &l%d [%s]" % (i, i, ", ".join(["*l%d" % (i - 1)] * 10)))
    return "\n".join(lines) + "\n"


def yaml_scalar(n):
    return "checks: '%s'\n" % ("x" * n)


def profile_wrappers(n):
    """n wrappers of distinct names, then n that lay over them again."""
    entry = "- {name: w%d, rule: function-sbo, buffer: {size: 16, align: 8}}\n"
    return ("heaplint-profile: 1\nwrappers:\n" + "".join(entry % i for i in range(n)) +
            "".join(entry % i for i in range(n)))


def json_deep(n):
    return "[" * n + "]" * n + "\n"


def db_entries(n):
    """n entries, each listed twice (the copies are dropped by hash)."""
    entries = [{"directory": "/tmp", "file": "f%d.cpp" % (i // 2), "command": "c++ -c f%d.cpp" % (i // 2)}
               for i in range(2 * n)]
    return json.dumps(entries) + "\n"


def db_relative(n):
    entries = [{"directory": "d%d/.." % i, "file": "a.cpp", "command": "c++ @r%d.rsp -c a.cpp" % i}
               for i in range(n)]
    return json.dumps(entries) + "\n"


def rsp_words(n):
    return " ".join("-DW%d='a b'\\ c" % i for i in range(n)) + "\n"


def baseline_entries(n):
    """n entries, half of them the same one (a finding recorded many times)."""
    findings = [{"rule": "function-sbo", "file": "a%d" % (i if i % 2 else 0), "fingerprint": "%x" % (i if i % 2 else 0)}
                for i in range(n)]
    return json.dumps({"heaplint-baseline": 1, "findings": findings}) + "\n"


def sarif_results(n):
    rules = [{"id": "rule-%d" % i} for i in range(n)]
    results = [{"ruleId": "rule-%d" % (n - 1 - i), "level": "warning", "message": {"text": "m"},
                "locations": [{"physicalLocation": {"artifactLocation": {"uri": "a%d.cc" % i},
                                                    "region": {"startLine": 1, "startColumn": 1}}}]}
               for i in range(n)]
    log = {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "heaplint", "rules": rules}},
                                         "invocations": [{"executionSuccessful": True,
                                                          "toolExecutionNotifications": []}],
                                         "results": results}]}
    return json.dumps(log) + "\n"


SHAPES = {f.__name__.replace("_", "-"): f for f in (
    yaml_keys, yaml_dup_key, yaml_deep, yaml_block_deep, yaml_tags, yaml_anchors, yaml_laughs, yaml_scalar,
    profile_wrappers, json_deep, db_entries, db_relative, rsp_words, baseline_entries, sarif_results)}

# harness -> [(seed name, shape, n)]: sizes the readers once took seconds to
# minutes on (under the sanitizers: more than the smoke run's -timeout).
SEEDS = {
    "config": [("keys", "yaml-keys", 90000), ("deep", "yaml-deep", 100000), ("block-deep", "yaml-block-deep", 500),
               ("tags", "yaml-tags", 35000), ("anchors", "yaml-anchors", 40000), ("laughs", "yaml-laughs", 6),
               ("scalar", "yaml-scalar", 900000)],
    "profile": [("keys", "yaml-keys", 90000), ("deep", "yaml-deep", 100000), ("wrappers", "profile-wrappers", 7800)],
    "compile_db": [("entries", "db-entries", 6000), ("relative", "db-relative", 2000), ("deep", "json-deep", 100000)],
    "response_file": [("words", "rsp-words", 55000)],
    "baseline": [("entries", "baseline-entries", 16000), ("deep", "json-deep", 100000)],
    "sarif_merge": [("results", "sarif-results", 4000), ("deep", "json-deep", 100000)],
}


def main(argv):
    if len(argv) == 3 and argv[1] == "--seeds":
        for harness, seeds in SEEDS.items():
            os.makedirs(os.path.join(argv[2], harness), exist_ok=True)
            for name, shape, n in seeds:
                with open(os.path.join(argv[2], harness, "hostile-" + name), "w") as f:
                    f.write(SHAPES[shape](n))
        return 0
    if len(argv) == 3 and argv[1] in SHAPES:
        sys.stdout.write(SHAPES[argv[1]](int(argv[2])))
        return 0
    sys.stderr.write(__doc__ + "\nshapes: " + ", ".join(SHAPES) + "\n")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
