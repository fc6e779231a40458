#!/usr/bin/env python3
"""Every rule of rules/rules.def has what a rule has (docs/architecture.md,
"Adding a rule"), and nothing has a rule that the list does not name.

Fails when:
  - a line of rules/rules.def is not HL_RULE(cname, "id") with a kebab-case
    id and cname the id with '_' for '-', or the lines are not sorted by id;
  - rules/<cname>.c does not define `const hl_rule hl_rule_<cname>` with
    "<id>" in it;
  - docs/rules/<id>.md does not start with "# <id>" and a "> " summary;
  - tests/<id>/ has no lit test (a file with a RUN: line);
  - README.md's rule table has no [<id>](docs/rules/<id>.md) row;
  - a top-level rules/*.c (but registry.c) or a docs/rules/*.md page is not
    a rule of the list.

usage: check_rules.py <top of the source tree>
"""
import os
import re
import sys

LINE = re.compile(r'^HL_RULE\(([a-z0-9_]+), "([a-z][a-z0-9]*(?:-[a-z0-9]+)*)"\)$')


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def rules(top, errs):
    """[(cname, id)] of rules.def, in its order."""
    out = []
    for n, line in enumerate(read(os.path.join(top, "rules/rules.def")).splitlines(), 1):
        if not line.startswith("HL_RULE"):
            continue
        m = LINE.match(line)
        if not m:
            errs.append('rules/rules.def:%d: not HL_RULE(cname, "kebab-case-id"): %s' % (n, line))
        elif m.group(1) != m.group(2).replace("-", "_"):
            errs.append("rules/rules.def:%d: cname %s is not the id %s with '_' for '-'" % (n, m.group(1), m.group(2)))
        else:
            out.append((m.group(1), m.group(2)))
    ids = [i for _, i in out]
    if ids != sorted(ids):
        errs.append("rules/rules.def: the rules are not sorted by id")
    return out


def has_test(folder):
    for d, _, files in os.walk(folder):
        for f in files:
            if "RUN:" in read(os.path.join(d, f)):
                return True
    return False


def check_rule(top, cname, rid, readme, errs):
    src = os.path.join(top, "rules", cname + ".c")
    if not os.path.isfile(src):
        errs.append("%s: no rules/%s.c" % (rid, cname))
    else:
        text = read(src)
        if not re.search(r"\bconst hl_rule hl_rule_%s\s*=" % cname, text) or '"%s"' % rid not in text:
            errs.append('rules/%s.c: does not define const hl_rule hl_rule_%s with "%s"' % (cname, cname, rid))
    page = os.path.join(top, "docs/rules", rid + ".md")
    if not os.path.isfile(page):
        errs.append("%s: no docs/rules/%s.md" % (rid, rid))
    elif not re.match(r"# %s\n\n> \S" % re.escape(rid), read(page)):
        errs.append('docs/rules/%s.md: does not start with "# %s", a blank line and a "> " summary' % (rid, rid))
    if not has_test(os.path.join(top, "tests", rid)):
        errs.append("%s: no lit test in tests/%s/" % (rid, rid))
    if "[%s](docs/rules/%s.md)" % (rid, rid) not in readme:
        errs.append("%s: README.md's rule table has no [%s](docs/rules/%s.md) row" % (rid, rid, rid))


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    top = sys.argv[1]
    errs = []
    listed = rules(top, errs)
    readme = read(os.path.join(top, "README.md"))
    for cname, rid in listed:
        check_rule(top, cname, rid, readme, errs)
    cnames = {c for c, _ in listed} | {"registry"}
    for f in sorted(os.listdir(os.path.join(top, "rules"))):
        if f.endswith(".c") and f[:-2] not in cnames:
            errs.append("rules/%s: not a rule of rules/rules.def" % f)
    ids = {i for _, i in listed}
    for f in sorted(os.listdir(os.path.join(top, "docs/rules"))):
        if f.endswith(".md") and f[:-3] not in ids:
            errs.append("docs/rules/%s: not a rule of rules/rules.def" % f)
    for e in errs:
        print("check_rules: " + e)
    print("check_rules: %d rules, %d problem%s" % (len(listed), len(errs), "" if len(errs) == 1 else "s"))
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main())
