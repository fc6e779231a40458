#!/usr/bin/env python3
"""Rewrites a heaplint cache entry the way only someone who knows its format
can: its JSON changed by a Python statement on `e` (the document), then
framed again with a first line whose checksum and length match, as
analyzer/cache/entry.h describes. The tests use it to craft entries that pass
the checksum and must be refused for what they say.

usage: reentry.py <entry file> '<statement on e>'

The statement may also use `edit`, the first fix edit of the findings
([file, offset, length, line, col, text, hash]), and `size_of(path)`, the
size of an input.
"""
import json
import sys


def fnv1a(data):
    h = 0xcbf29ce484222325
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


path, statement = sys.argv[1], sys.argv[2]
with open(path, "rb") as f:
    head, body = f.read().split(b"\n", 1)
magic, fmt = head.split(b" ")[:2]
e = json.loads(body)
edit = next((x for f in e["result"]["findings"] for x in f["edits"]), None)


def size_of(path):
    return next(i[1] for i in e["inputs"] if i[0] == path)


exec(statement)
body = json.dumps(e, separators=(",", ":"), ensure_ascii=False).encode()
with open(path, "wb") as f:
    f.write(b"%s %s %016x %d\n" % (magic, fmt, fnv1a(body), len(body)) + body)
