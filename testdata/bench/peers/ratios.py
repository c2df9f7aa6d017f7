#!/usr/bin/env python3
"""ratios.py RESULTS.json: the ratios issue 20's targets are stated in.

For each corpus of a run.sh result (OUT=FILE), and each pair of rows timed in
the same rounds, the median over the counted rounds of that round's ratio of
wall times (A/B: above 1, B is faster), with its range. A round's ratio
compares two commands that ran side by side, so a disturbance of the machine
moves both; the median of the ratios is steadier than the ratio of medians.
"""
import json
import statistics
import sys

PAIRS = [
    ("relurl-links", "relurl", "links -j 1 / rewrite -j 1 (at most 1)"),
    ("relurl", "relurl-j2", "rewrite -j 1 / -j 2 (corpus B: at least 1.8)"),
    ("xnet-tokenize", "relurl", "x/net tokenize / rewrite -j 1 (at least 1.6)"),
    ("lolhtml", "relurl", "lol-html / rewrite -j 1 (at least 2.0)"),
    ("relurl-links", "relurl-links-j2", "links -j 1 / -j 2"),
    ("before", "relurl", "before / after, rewrite -j 1"),
    ("before-links", "relurl-links", "before / after, links -j 1"),
    ("before-j2", "relurl-j2", "before / after, rewrite -j 2"),
    ("before", "before-j2", "before: rewrite -j 1 / -j 2"),
]


def main(path):
    with open(path) as f:
        d = json.load(f)
    for corpus in d["corpora"]:
        walls = {
            p["peer"]: {r["round"]: r["wall_s"] for r in p["runs"] if r.get("counted")}
            for p in corpus["peers"]
        }
        for a, b, what in PAIRS:
            if a not in walls or b not in walls:
                continue
            rs = [walls[a][k] / walls[b][k] for k in walls[b] if k in walls[a]]
            if not rs:
                continue
            print(f"{corpus['name']} {a}/{b}: median {statistics.median(rs):.3f} "
                  f"(min {min(rs):.3f}, max {max(rs):.3f}, {len(rs)} rounds)  {what}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: ratios.py RESULTS.json")
    main(sys.argv[1])
