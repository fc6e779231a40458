#!/usr/bin/env python3
"""Each option of heaplint's --help texts (options_named.py's), completed by
the bash completion from the option itself, where it is typed: after
heaplint for the check's, after the subcommand for a subcommand's. The
reply must hold the option (or "<option>=").

usage: complete_each.py <heaplint> <heaplint.bash> <complete.sh>
Prints "<n> options completed", or each one that is not; exit 0 or 1.
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from options_named import options  # noqa: E402


def main():
    heaplint, script, driver = sys.argv[1:4]
    opts = options(heaplint)
    bad = []
    for sub, opt in opts:
        words = [heaplint] + ([sub] if sub else []) + [opt]
        reply = subprocess.run(["bash", driver, script] + words, stdout=subprocess.PIPE, text=True).stdout.split("\n")
        if opt not in reply and opt + "=" not in reply:
            bad.append("not completed: %s %s (got %s)" % (sub or "heaplint", opt, " ".join(reply).strip()))
    print("\n".join(bad) if bad else "%d options completed" % len(opts))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
