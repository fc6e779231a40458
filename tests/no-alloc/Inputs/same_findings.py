"""same_findings.py WHOLE PART...: the findings of the --format=json report
WHOLE are exactly those of the PARTs together (shards and the link step),
compared as sorted lists of (file, line, column, rule, message, notes)."""
import json
import sys


def findings(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    out = []
    for d in doc["findings"]:
        notes = tuple((n["file"], n["line"], n["column"], n["message"]) for n in d.get("notes", []))
        out.append((d["file"], d["line"], d["column"], d["rule"], d["message"], notes))
    return out


whole = sorted(findings(sys.argv[1]))
parts = sorted(f for p in sys.argv[2:] for f in findings(p))
if whole != parts:
    print("whole run:", *whole, sep="\n  ")
    print("shards and link:", *parts, sep="\n  ")
    sys.exit(1)
print(f"same {len(whole)} findings")
