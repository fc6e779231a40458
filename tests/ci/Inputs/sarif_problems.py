"""Counts what the SARIF validator found, per level, in its own SARIF logs:
one line "<log>: E errors, W warnings, N notes" each, and every error and
warning it found (rule, message arguments) below, so a failure shows why."""
import json
import os
import sys

for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as f:
        results = json.load(f)["runs"][0].get("results", [])
    levels = [r.get("level", "warning") for r in results]
    print("%s: %d errors, %d warnings, %d notes" % (os.path.basename(path), levels.count("error"),
                                                   levels.count("warning"), levels.count("note")))
    for r in results:
        if r.get("level", "warning") in ("error", "warning"):
            print("  %s %s: %s" % (r.get("level", "warning"), r.get("ruleId"), r.get("message", {}).get("arguments")))
