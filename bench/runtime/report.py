#!/usr/bin/env python3
"""Tables of bench/runtime/run.sh's frees-from-another-thread and latency runs.

  report.py remote RAW.tsv    RAW: malloc, repetition, then hl_bench_remote's columns
  report.py latency RAW.tsv   RAW: malloc, repetition, then hl_bench_latency's columns

remote: per kind of message and number of consumers, the median over
repetitions of each column's CPU time per message (all threads; the malloc
columns are std::allocator under that malloc, hl is hl::pool_allocator),
each malloc / hl computed inside each repetition (median and range: the
range is the noise band; above 1, hl costs less), the wall-clock
throughput (million messages per second), hl's throughput against each
malloc's inside each repetition (median and range; above 1, hl is faster)
and the peak RSS.

latency: per allocator, the median over repetitions of each percentile of
the per-call latency (ns, from the TSC), and of the largest.
"""
import collections
import statistics
import sys

MALLOCS = ["glibc", "mimalloc", "jemalloc"]


def band(values):
    if not values:
        return "-"
    return "%.2fx (%.2f-%.2f)" % (statistics.median(values), min(values), max(values))


def med(values, fmt="%.1f"):
    return fmt % statistics.median(values) if values else "-"


def remote(path):
    # (kind, consumers) -> column -> repetition -> (Mmsg/s, peak KiB, KiB at a tenth, KiB at the end)
    data = collections.defaultdict(lambda: collections.defaultdict(dict))
    order = []
    messages = set()
    for line in open(path):
        malloc, rep, alloc, kind, consumers, n, _secs, rate, cpu, peak, tenth, end = line.rstrip("\n").split("\t")
        key = (kind, int(consumers))
        if key not in data:
            order.append(key)
        column = "hl" if alloc == "hl" else malloc
        data[key][column][rep] = (float(cpu), float(rate), int(peak), int(tenth), int(end))
        messages.add(int(n))
    cols = [m for m in MALLOCS if any(m in data[k] for k in order)] + ["hl"]
    print("%s messages per run; CPU ns per message (all threads; median over repetitions), malloc / hl per "
          "repetition: median (range); wall-clock million messages per second, and hl's against each malloc's per "
          "repetition (the issue's measure): median (range); peak RSS in MiB.\n"
          % " / ".join("{:,}".format(n) for n in sorted(messages)))
    head = ["message", "1:N"] + ["CPU ns " + c for c in cols] + [m + " / hl" for m in cols[:-1]] + \
           ["Mmsg/s " + c for c in cols] + ["hl / " + m + " Mmsg/s" for m in cols[:-1]] + \
           ["peak RSS " + c for c in cols]
    print("| " + " | ".join(head) + " |")
    print("|---|---:|" + "---:|" * (len(head) - 2))
    for key in order:
        row = [key[0], "1:%d" % key[1]]
        row += [med([v[0] for v in data[key][c].values()]) for c in cols]
        for m in cols[:-1]:
            ratios = [data[key][m][r][0] / data[key]["hl"][r][0] for r in data[key]["hl"] if r in data[key][m]]
            row.append(band(ratios))
        row += [med([v[1] for v in data[key][c].values()]) for c in cols]
        for m in cols[:-1]:
            ratios = [data[key]["hl"][r][1] / data[key][m][r][1] for r in data[key]["hl"] if r in data[key][m]]
            row.append(band(ratios))
        row += [med([v[2] / 1024 for v in data[key][c].values()]) for c in cols]
        print("| " + " | ".join(row) + " |")


def latency(path):
    # allocator -> statistic -> [values over repetitions]
    data = collections.defaultdict(lambda: collections.defaultdict(list))
    order = []
    calls = set()
    names = ["median", "p99", "p99.9", "p99.99", "max"]
    for line in open(path):
        fields = line.rstrip("\n").split("\t")
        malloc, _rep, alloc, n = fields[:4]
        name = malloc if alloc == "std" else alloc
        if name not in data:
            order.append(name)
        calls.add(int(n))
        for stat, value in zip(names, fields[4:]):
            data[name][stat].append(float(value))
    print("%s timed calls per run (allocations and frees); ns per call, median over repetitions "
          "(max: the median of each run's largest).\n" % " / ".join("{:,}".format(n) for n in sorted(calls)))
    print("| allocator | " + " | ".join(names) + " | p99 / median |")
    print("|---|" + "---:|" * (len(names) + 1))
    for name in order:
        d = data[name]
        ratios = [p / m for p, m in zip(d["p99"], d["median"]) if m > 0]
        ratio = "%.1fx" % statistics.median(ratios) if ratios else "- (median under the TSC's step)"
        print("| %s | %s | %s |" % (name, " | ".join(med(d[s]) for s in names), ratio))


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("remote", "latency"):
        sys.exit(__doc__)
    {"remote": remote, "latency": latency}[sys.argv[1]](sys.argv[2])
