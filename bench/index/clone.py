#!/usr/bin/env python3
"""Clones a project index to N units for bench/index/scale.sh.

clone.py SEED_DIR SEED_INDEX OUT_DIR N: OUT_DIR/index.sqlite holds N units,
copies of the seed's (round-robin), each copy k in OUT_DIR/c<k>/ with its
main file's rows renamed there (so its sites are its own), the rows of the
seed's headers shared (a header's values are the same in every unit that
includes it, as in a real index); OUT_DIR/compile_commands.json lists the
N units, whose files exist (empty: --link-only parses nothing).
"""
import json
import os
import shutil
import sqlite3
import sys

seed_dir, seed_index, out, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
src = sqlite3.connect(seed_index)
units = [r[0] for r in src.execute("SELECT name FROM units ORDER BY name")]
tables = [r[0] for r in src.execute("SELECT name FROM sqlite_master WHERE type='table' AND name != 'units'")]
shutil.copy(seed_index, os.path.join(out, "index.sqlite"))
db = sqlite3.connect(os.path.join(out, "index.sqlite"))
for t in ["units"] + tables:
    db.execute("DELETE FROM %s" % t)
cols = {t: [r[1] for r in src.execute("PRAGMA table_info(%s)" % t)] for t in ["units"] + tables}
entries = []
for k in range(n):
    unit = units[k % len(units)]
    d = os.path.join(out, "c%d" % k)
    os.makedirs(d, exist_ok=True)
    new = os.path.join(d, os.path.basename(unit))
    open(new, "w").close()
    entries.append({"directory": d, "file": new, "arguments": ["c++", "-std=c++17", "-c", new]})

    def rename(v):
        if isinstance(v, str) and unit in v:
            return v.replace(unit, new)
        return v
    for t in ["units"] + tables:
        key = "name" if t == "units" else "unit"
        rows = src.execute("SELECT * FROM %s WHERE %s = ?" % (t, key), (unit,)).fetchall()
        marks = ",".join("?" * len(cols[t]))
        db.executemany("INSERT INTO %s VALUES (%s)" % (t, marks), [tuple(rename(v) for v in r) for r in rows])
db.commit()
db.execute("VACUUM")
db.close()
with open(os.path.join(out, "compile_commands.json"), "w") as f:
    json.dump(entries, f)
