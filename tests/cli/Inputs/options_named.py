#!/usr/bin/env python3
"""Every option heaplint's --help texts name, looked for in another file.

usage: options_named.py <heaplint> <file> [--roff]

Runs `heaplint --help` and `heaplint <subcommand> --help` for each
subcommand, takes the options their items name ("  -h, --help  ...",
"  --diff[=<ref>]  ..."), and says which of them <file> does not name as a
word of its own (with --roff: read as roff, "\\-" a hyphen, fonts
dropped). Prints "<n> options named" when none is missing, else each
missing one as "missing: <subcommand> <option>"; exit status 0 or 1.
manpage.test and completion.test use it, so that heaplint.1 and the shell
completions cannot drift from --help.
"""
import re
import subprocess
import sys

SUBCOMMANDS = ["", "lsp", "calibrate", "merge-sarif", "merge-index"]
ITEM = re.compile(r"^  (-\S.*?)(?:  |$)")
OPTION = re.compile(r"(?<![\w-])(--?[A-Za-z][\w-]*)")


def tag(item):
    """An item's tag: where one space does not end it ("-h, --help",
    "-p <dir>"; "--extra-arg-before=<arg> add <arg>" ends at "add")."""
    words = item.split(" ")
    n = 1
    while n < len(words) and (words[n - 1].endswith(",") or words[n][:1] in ("<", "[")):
        n += 1
    return " ".join(words[:n])


def options(heaplint):
    """[(subcommand, option)] in --help's order, each once."""
    out = []
    for sub in SUBCOMMANDS:
        text = subprocess.run([heaplint] + ([sub] if sub else []) + ["--help"], check=True,
                              stdout=subprocess.PIPE, text=True).stdout
        for line in text.splitlines():
            m = ITEM.match(line)
            if not m:
                continue
            for opt in OPTION.findall(tag(m.group(1))):
                if (sub, opt) not in out:
                    out.append((sub, opt))
    return out


def main():
    heaplint, path = sys.argv[1], sys.argv[2]
    text = open(path, encoding="utf-8").read()
    if "--roff" in sys.argv[3:]:
        text = re.sub(r"\\f[BIRP]", "", text.replace("\\-", "-"))
    opts = options(heaplint)
    missing = [(s, o) for s, o in opts if not re.search(r"(?<![\w-])" + re.escape(o) + r"(?![\w-])", text)]
    for s, o in missing:
        print("missing: %s %s" % (s or "heaplint", o))
    if not missing:
        print("%d options named" % len(opts))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
