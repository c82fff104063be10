#!/usr/bin/env python3
"""Seconds per vector and moment of every run in DIR (naive, augmented, blocked R), by group and
round, and the median over rounds: python3 per_round.py DIR"""
import glob, json, os, re, statistics, sys

runs = {}
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.jsonl"))):
    m = re.match(r"(.*)_(\d+)\.jsonl$", os.path.basename(path))
    if not m:
        continue
    for line in open(path):
        try:
            d = json.loads(line)
        except ValueError:
            continue
        if d.get("kind") != "measurement":
            continue
        key = d["implementation"] if d["implementation"] != "blocked" else "R%d" % d["R"]
        runs.setdefault(m.group(1), {}).setdefault(key, []).append(d["seconds_per_vector_moment"])
for group, cols in runs.items():
    print(group)
    for key, times in cols.items():
        print("  %-9s median %.3e  rounds %s" % (key, statistics.median(times),
                                                   " ".join("%.3e" % t for t in times)))
