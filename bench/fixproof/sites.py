#!/usr/bin/env python3
"""Compares two hl_count_new records (bench/fixproof/hl_count_new.c):

  sites.py BEFORE.txt BEFORE_ROOT AFTER.txt AFTER_ROOT

Prints the totals and every source line whose count of global operator new
calls differs, resolved with addr2line (file:line and function, through
inlining). Call sites are compared by source line, relative to each side's
source tree (ROOT), since the two builds place code at different addresses
and come from different directories. A record holding several runs (several
"total" lines) is summed per run and the first run's sites are used.
"""
import collections
import difflib
import os
import subprocess
import sys


def read(path):
    totals, sites, runs = [], collections.Counter(), 0
    for line in open(path):
        f = line.split()
        if f[0] == "total":
            runs += 1
            totals.append(int(f[1]))
        elif f[0] == "site" and runs == 1:
            sites[(f[1], int(f[2], 16))] += int(f[3])
    return totals, sites


def resolve(sites, root):
    """(module, offset) -> "file:line (function)" of the outermost inlined frame."""
    by_module = collections.defaultdict(list)
    for (module, offset) in sites:
        by_module[module].append(offset)
    where = {}
    for module, offsets in by_module.items():
        if module == "?":
            where.update({(module, o): "?" for o in offsets})
            continue
        # The return address follows the call: look up the byte before it.
        # -a prints each address ahead of its frames (innermost first).
        args = ["addr2line", "-a", "-f", "-C", "-i", "-e", module] + ["0x%x" % (o - 1) for o in offsets]
        out = subprocess.run(args, capture_output=True, text=True).stdout.splitlines()
        blocks, cur = [], None
        for line in out:
            if line.startswith("0x") and (cur is None or len(cur) % 2 == 0):
                cur = []
                blocks.append(cur)
            else:
                cur.append(line)
        for o, frames in zip(offsets, blocks):
            where[(module, o)] = "%s (%s)" % (short(frames[-1], root), frames[-2][:70]) if len(frames) >= 2 else "?"
    return where


def short(location, root):
    path, _, line = location.split(" (discriminator")[0].rpartition(":")
    path = os.path.normpath(path)
    if path.startswith(root + os.sep):
        path = os.path.relpath(path, root)
    elif "/include/c++/" in path:
        path = path[path.index("/include/c++/") + 1:]
    return "%s:%s" % (path, line)


class LineMap:
    """Maps a line of a fixed file (AFTER_ROOT) to the same line before the
    fix (BEFORE_ROOT): a fix that inserts an #include moves every line below
    it. A line the fix added or changed keeps its number, marked "[fixed]"."""

    def __init__(self, root_b, root_a):
        self.root_b, self.root_a, self.maps = root_b, root_a, {}

    def back(self, where):
        loc, sep, rest = where.partition(" ")
        path, _, line = loc.rpartition(":")
        if not line.isdigit() or not os.path.exists(os.path.join(self.root_b, path)):
            return where
        if path not in self.maps:
            before = open(os.path.join(self.root_b, path), errors="replace").readlines()
            after = open(os.path.join(self.root_a, path), errors="replace").readlines()
            m = {}
            for a0, b0, size in difflib.SequenceMatcher(None, before, after, autojunk=False).get_matching_blocks():
                for i in range(size):
                    m[b0 + i + 1] = a0 + i + 1
            self.maps[path] = (m, len(after))
        m, size = self.maps[path]
        n = int(line)
        if n > size:  # not a line of this file (a wrong line table entry): as it is
            return where
        if n in m:
            return "%s:%d%s%s" % (path, m[n], sep, rest)
        return "%s:%d [fixed]%s%s" % (path, n, sep, rest)


def main():
    bt, bs = read(sys.argv[1])
    at, as_ = read(sys.argv[3])
    root_b, root_a = os.path.realpath(sys.argv[2]), os.path.realpath(sys.argv[4])
    print("total before: %s" % ", ".join(map(str, bt)))
    print("total after:  %s" % ", ".join(map(str, at)))
    wb, wa = resolve(bs, root_b), resolve(as_, root_a)
    # Keyed by file:line alone: addr2line may name the same function
    # differently in the two builds (a lambda's operator() or not).
    lines_b, lines_a, names = collections.Counter(), collections.Counter(), {}
    moved = LineMap(root_b, root_a)
    for counts, where, sites, remap in ((lines_b, wb, bs, False), (lines_a, wa, as_, True)):
        for k, n in sites.items():
            w = where.get(k, "?")
            if remap:
                w = moved.back(w)
            loc, _, name = w.partition(" (")
            counts[loc] += n
            names.setdefault(loc, " (" + name if name else "")
    print("\n| source line (outermost inlined frame) | before | after | difference |")
    print("|---|---:|---:|---:|")
    diff = 0
    for line in sorted(set(lines_b) | set(lines_a)):
        if lines_b[line] != lines_a[line]:
            d = lines_a[line] - lines_b[line]
            diff += d
            print("| %s%s | %d | %d | %+d |" % (line, names[line], lines_b[line], lines_a[line], d))
    print("\nsum of differences: %+d" % diff)


if __name__ == "__main__":
    main()
