#!/usr/bin/env python3
"""Checks the planner's heuristic against measured times, and says how to refit it.

    tilegemm tune --shapes bench/shapes/squares.txt --no-save --csv tune_squares.csv
    python3 bench/fit_heuristic.py tune_squares.csv [more.csv ...] [--min-us 50]

The CSV of `tilegemm tune --csv` has, for every shape, every candidate's median time `us` and
the heuristic's `estimate` (src/plan_cost.c, arbitrary units proportional to predicted time).
The model is right when estimate / us is the same for every candidate of a shape. For each
kernel this prints the median, over shapes whose winner takes at least --min-us, of

    correction = (estimate / us of the kernel) / (estimate / us of the shape's winner)

A correction below 1 means the model thinks the kernel faster than it is: multiply its row's
`efficiency` (kernels/<family>/<family>_rows.c) by the correction; when a family's best row
then drops below 100, scale the family's speed in src/plan_cost.c instead of its rows. It
also prints how often the heuristic's choice was the winner and what the misses cost.
"""
import argparse
import csv
import statistics
import sys
from collections import defaultdict


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv", nargs="+", help="CSV files written by tilegemm tune --csv")
    ap.add_argument("--min-us", type=float, default=50.0,
                    help="ignore shapes whose winner is faster than this (launch-bound; default 50)")
    args = ap.parse_args()
    shapes = defaultdict(list)
    for path in args.csv:
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                key = (row["device"], row["type"], row["m"], row["n"], row["k"], row["batch"],
                       row["a_major"], row["b_major"], row["c_major"])
                shapes[key].append(row)
    corrections = defaultdict(list)
    hits, misses, miss_cost = 0, 0, []
    for key, rows in shapes.items():
        ok = [r for r in rows if r["status"] == "ok" and float(r["us"]) > 0]
        winner = [r for r in rows if r["winner"] == "1"]
        heuristic = [r for r in ok if r["heuristic"] == "1"]
        if not ok or not winner:
            continue
        w = winner[0]
        if heuristic:
            if heuristic[0]["kernel"] == w["kernel"]:
                hits += 1
            else:
                misses += 1
                miss_cost.append(float(heuristic[0]["us"]) / float(w["us"]))
        if float(w["us"]) < args.min_us:
            continue
        speed_w = float(w["estimate"]) / float(w["us"])
        for r in ok:
            corrections[r["kernel"]].append(float(r["estimate"]) / float(r["us"]) / speed_w)
    if not shapes:
        sys.exit("fit_heuristic.py: no rows")
    print(f"heuristic's choice was the winner on {hits} of {hits + misses} shapes", end="")
    if miss_cost:
        print(f"; on the misses it was {statistics.median(miss_cost):.2f}x slower (median), "
              f"{max(miss_cost):.2f}x at worst")
    else:
        print()
    print(f"\n{'kernel':<28} {'shapes':>6} {'correction':>10}   (multiply the row's efficiency)")
    for kernel, c in sorted(corrections.items(), key=lambda kv: -statistics.median(kv[1])):
        print(f"{kernel:<28} {len(c):>6} {statistics.median(c):>10.3f}")


if __name__ == "__main__":
    main()
