#!/usr/bin/env python3
"""Tables of bench/runtime/run.sh's node-container runs (hl_bench_nodes).

  nodes_report.py times RAW.tsv      RAW: malloc, process, then hl_bench_nodes's columns
  nodes_report.py callgrind DIR...   DIR: one callgrind run per malloc (DIR/<malloc>/callgrind.out.*)

times: each process measured every allocator in turn, round after round, and
printed medians; the std::allocator column is the malloc preloaded into that
process. Per row: the median over processes of each column (std::allocator
under each malloc from that malloc's processes, the others from all), and the
ratios computed inside each process (std::allocator / hl::pool_allocator,
hl::pool_allocator / free list, hl::pool_allocator / bump) with their median and range over processes: the
range is the noise band.

callgrind: instructions per operation, counted (not timed) over the same
workloads, single-threaded; deterministic, but blind to cache misses.
"""
import collections
import glob
import os
import re
import statistics
import sys

MALLOCS = ["glibc", "mimalloc", "jemalloc"]
OTHERS = [("pmr::unsynchronized_pool", "pmr pool"), ("hl::bound_allocator", "hl::bound"),
          ("hl::pool_allocator", "hl"), ("free list", "free list"), ("bump", "bump")]
HL = "hl::pool_allocator"
STD = "std::allocator"
OPS = {"fill": 10000, "churn": 10000}


def fmt(x):
    return "%.1f" % x if x >= 10 else "%.2f" % x


def band(values):
    return "%.2fx (%.2f-%.2f)" % (statistics.median(values), min(values), max(values))


def times(path):
    # (threads, container, pattern) -> allocator -> malloc -> process -> ns
    data = collections.defaultdict(lambda: collections.defaultdict(lambda: collections.defaultdict(dict)))
    order = []
    for line in open(path):
        malloc, proc, threads, container, pattern, allocator, ns = line.rstrip("\n").split("\t")
        key = (int(threads), container, pattern)
        if key not in data:
            order.append(key)
        data[key][allocator][malloc][proc] = float(ns)
    for threads in sorted({k[0] for k in order}):
        for pattern in ("fill", "churn"):
            rows = [k for k in order if k[0] == threads and k[2] == pattern]
            if not rows:
                continue
            what = {"fill": "10,000 inserts then clear(), ns per insert",
                    "churn": "1,000 elements, insert one + erase the oldest, ns per pair"}[pattern]
            print("#### %s, %d thread%s (%s)\n" % (pattern, threads, "" if threads == 1 else "s", what))
            head = ["container"] + MALLOCS + [o[1] for o in OTHERS] + \
                   ["glibc / hl", "mimalloc / hl", "jemalloc / hl", "hl / free list", "hl / bump"]
            print("| " + " | ".join(head) + " |")
            print("|---|" + "---:|" * (len(head) - 1))
            for key in rows:
                row = data[key]
                cells = [key[1]]
                for m in MALLOCS:
                    cells.append(fmt(statistics.median(row[STD][m].values())) if row[STD][m] else "-")
                for alloc, _ in OTHERS:
                    cells.append(fmt(statistics.median([v for m in row[alloc] for v in row[alloc][m].values()])))
                for m in MALLOCS:
                    ratios = [row[STD][m][p] / row[HL][m][p] for p in row[STD][m] if p in row[HL][m]]
                    cells.append(band(ratios) if ratios else "-")
                for other in ("free list", "bump"):
                    ratios = [row[HL][m][p] / row[other][m][p] for m in row[HL] for p in row[HL][m]]
                    cells.append(band(ratios))
                print("| " + " | ".join(cells) + " |")
            print()
    procs = {m: len({p for k in order for p in data[k][STD][m]}) for m in MALLOCS}
    print("Processes per malloc: " + ", ".join("%s %d" % (m, procs[m]) for m in MALLOCS) + ".")


def callgrind(dirs):
    # allocator column per malloc; Ir per op
    data = collections.defaultdict(dict)
    order = []
    for d in dirs:
        malloc = os.path.basename(os.path.normpath(d))
        for f in sorted(glob.glob(os.path.join(d, "callgrind.out.*"))):
            name = ir = None
            for line in open(f):
                m = re.match(r"desc: Trigger: Client Request: (.*)", line)
                if m:
                    name = m.group(1).strip()
                m = re.match(r"(?:summary|totals): (\d+)", line)
                if m:
                    ir = int(m.group(1))
            if not name or ir is None:
                continue
            container, pattern, allocator = name.split("|")
            key = (container, pattern)
            if key not in order:
                order.append(key)
            data[key][(malloc, allocator)] = ir
    rounds = int(os.environ.get("HL_CALLGRIND_ROUNDS", "3"))
    print("| container | pattern | " + " | ".join(MALLOCS) + " | " + " | ".join(o[1] for o in OTHERS) +
          " | mimalloc / hl | hl / free list | hl / bump |")
    print("|---|---|" + "---:|" * (len(MALLOCS) + len(OTHERS) + 3))
    for key in order:
        row = data[key]
        per = lambda ir: ir / (rounds * OPS[key[1]])
        cells = [key[0], key[1]]
        for m in MALLOCS:
            cells.append("%.0f" % per(row[(m, STD)]) if (m, STD) in row else "-")
        base = [m for m in MALLOCS if (m, HL) in row][0]
        for alloc, _ in OTHERS:
            cells.append("%.0f" % per(row[(base, alloc)]))
        hl = row[(base, HL)]
        cells.append("%.2fx" % (row[("mimalloc", STD)] / hl) if ("mimalloc", STD) in row else "-")
        cells.append("%.2fx" % (hl / row[(base, "free list")]))
        cells.append("%.2fx" % (hl / row[(base, "bump")]))
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "times":
        times(sys.argv[2])
    elif len(sys.argv) >= 3 and sys.argv[1] == "callgrind":
        callgrind(sys.argv[2:])
    else:
        sys.stderr.write(__doc__)
        sys.exit(2)
