#!/usr/bin/env python3
"""ctest 'arch.self': check_arch.py run over the small trees of
tests/arch/Inputs/. Each tree but 'clean' plants one violation of a check
the real tree passes, so a check that stops seeing it (a scanner that loses
a C++ function, a cycle hidden again behind a shared header) fails here
rather than letting the real tree drift; 'clean' holds the C++ the scanner
must read without a false alarm (raw strings, member initializers, lambdas,
extern "C", a dispatch table naming handlers that call back).

usage: check_arch_self.py
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# tree: the problems check_arch must print for it, exactly.
EXPECTED = {
    "clean": [],
    "cpp-long-function": [
        "analyzer/engine/reader.cpp:12: visit() is 81 lines, more than 80",
    ],
    "shared-header-cycle": [
        "cycle: lsp/code_action -> lsp/document -> lsp/diagnostics -> lsp/code_action"
        " (analyzer/lsp/code_action.c calls lsp_with_document, defined in analyzer/lsp/document.c;"
        " analyzer/lsp/document.c calls lsp_publish, defined in analyzer/lsp/diagnostics.c;"
        " analyzer/lsp/diagnostics.c calls lsp_code_actions_plan, defined in analyzer/lsp/code_action.c)",
    ],
    "long-file": [
        "analyzer/util/big.c: 1001 lines, more than 1000 (split it by job)",
    ],
    "cpp-layer": [
        'rules/sbo/reader.cpp: includes "input/config.h", which rules/sbo/reader may not'
        " (it may include: util/, engine/rule, rules/)",
    ],
}


def run(tree):
    p = subprocess.run([sys.executable, os.path.join(HERE, "check_arch.py"), os.path.join(HERE, "Inputs", tree)],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    lines = [l[len("check_arch: "):] for l in p.stdout.splitlines() if l.startswith("check_arch: ")]
    return p.returncode, [l for l in lines if " modules, " not in l], p.stdout


def main():
    trees = sorted(os.listdir(os.path.join(HERE, "Inputs")))
    failed = 0
    if trees != sorted(EXPECTED):
        print("arch.self: the trees of Inputs/ (%s) are not those this script expects (%s)"
              % (", ".join(trees), ", ".join(sorted(EXPECTED))))
        failed += 1
    for tree in sorted(EXPECTED):
        status, problems, out = run(tree)
        want = EXPECTED[tree]
        if problems != want or status != (1 if want else 0):
            failed += 1
            print("arch.self: FAIL %s: exit %d, expected %d; check_arch said:\n%s\nexpected:\n%s\n"
                  % (tree, status, 1 if want else 0, out, "\n".join(want) or "(no problem)"))
        else:
            print("arch.self: ok %s%s" % (tree, "" if want else " (passes)"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
