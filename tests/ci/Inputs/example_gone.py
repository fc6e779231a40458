"""Compares the example before and after --fix: how many of its
function-sbo, any-sbo and function-copy warnings are gone, and the demo's
counted operator new calls. Fails when fewer than 80% are gone or the
count did not drop."""
import re
import sys

RULES = ("function-sbo", "any-sbo", "function-copy")


def warnings(path):
    n = 0
    for line in open(path):
        m = re.search(r": warning: .*\[([a-z-]+)\]$", line.rstrip("\n"))
        n += bool(m and m.group(1) in RULES)
    return n


def count(path):
    return int(re.search(r"operator new calls: (\d+)", open(path).read()).group(1))


before, after = warnings(sys.argv[1]), warnings(sys.argv[2])
c0, c1 = count(sys.argv[3]), count(sys.argv[4])
gone = before - after
print(f"{gone} of {before} warnings gone ({100 * gone // before}%); operator new calls {c0} -> {c1}")
sys.exit(0 if before and gone * 5 >= before * 4 and c1 < c0 else 1)
