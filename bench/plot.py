#!/usr/bin/env python3
"""Plots of `tilegemm sweep` CSVs (columns: tools/cli/report.c, tg_report_csv_header).

    python3 bench/plot.py bench/results/sweep_squares_h100.csv   # one CSV: its stem prefixes the plots

writes, into --out (default: the first CSV's directory):
  <prefix>_tflops_<type>.png  for every type with square shapes (M = N = K, batch 1; only the
                              rows of squares.txt when the CSVs have any) in the CSVs: TFLOP/s
                              against size, tilegemm and cuBLAS, one pair of lines per CSV
                              that has the type;
  <csv stem>_ratio.png        for every CSV: tilegemm's speed over cuBLAS's per shape, with
                              the 1.0 line (bars right of it: tilegemm is faster).
Titles carry the device, CUDA version and date found in the CSV. Runs whose check failed are
marked FAIL. Needs matplotlib (pip install matplotlib); the tests never run this script.
"""
import argparse
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)

REQUIRED = ("label", "device", "cuda", "date", "m", "n", "k", "batch", "a_type", "b_type", "acc",
            "tflops", "check", "cublas_tflops", "ratio_vs_cublas", "kernel")
DPI = 130
RATIO_BAR_HEIGHT_IN = 0.28  # figure height per shape in the ratio plot
RATIO_MIN_HEIGHT_IN = 3.0
FIG_WIDTH_IN = 9.0


def type_of(row):
    """The run's type as sweep names it: tf32 for tf32 compute, else the A/B type; fp8 runs add
    their scaling and fast accumulation (the CSV's scale and fast_accum columns, when present)."""
    if row["acc"] == "tf32":
        return "tf32"
    a, b = row["a_type"], row["b_type"]
    name = a if a == b else f"{a}/{b}"
    if row.get("scale", "none") not in ("", "none"):
        name += f" {row['scale']}"
    if row.get("fast_accum", "0") == "1":
        name += " fast"
    return name


def shape_of(row):
    m, n, k, batch = (int(row[c]) for c in ("m", "n", "k", "batch"))
    return f"{m}x{n}x{k}" + (f"x{batch}" if batch > 1 else "")


def is_square(row):
    return row["m"] == row["n"] == row["k"] and row["batch"] == "1"


def number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def read(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if rows:
        missing = [c for c in REQUIRED if c not in rows[0]]
        if missing:
            sys.exit(f"plot.py: {path}: not a sweep CSV (missing columns {', '.join(missing)})")
    return rows


def context(rows):
    """'device, CUDA x.y, date' of the rows (every distinct value, in order)."""
    def distinct(col, cut=None):
        seen = []
        for r in rows:
            v = r[col][:cut] if cut else r[col]
            if v and v not in seen:
                seen.append(v)
        return " / ".join(seen)
    return f"{distinct('device')}, CUDA {distinct('cuda')}, {distinct('date', 10)}"


def plot_squares(sources, out_dir, prefix):
    """One figure per type: TFLOP/s of the square shapes against size."""
    written = []
    types = []
    only_label = "squares" if any(r["label"] == "squares" for _, rows in sources for r in rows) else None
    for _, rows in sources:
        for r in rows:
            t = type_of(r)
            if t not in types:
                types.append(t)
    for t in types:
        fig, ax = plt.subplots(figsize=(FIG_WIDTH_IN, 5.0))
        all_rows = []
        per_source = [(path, sorted((r for r in rows if type_of(r) == t and is_square(r) and
                                     (only_label is None or r["label"] == only_label)),
                                    key=lambda r: int(r["m"])))
                      for path, rows in sources]
        per_source = [(path, sq) for path, sq in per_source if sq]
        for path, sq in per_source:
            all_rows += sq
            tag = f" ({os.path.basename(path)})" if len(per_source) > 1 else ""
            sizes = [int(r["m"]) for r in sq]
            ours = [number(r["tflops"]) for r in sq]
            ax.plot(sizes, ours, "o-", label=f"tilegemm{tag}")
            cub = [(s, number(r["cublas_tflops"])) for s, r in zip(sizes, sq) if number(r["cublas_tflops"])]
            if cub:
                ax.plot([s for s, _ in cub], [v for _, v in cub], "s--", label=f"cuBLAS{tag}")
            for s, v, r in zip(sizes, ours, sq):
                if r["check"] == "FAIL":
                    ax.annotate("FAIL", (s, v), color="red", fontsize=8)
        if not all_rows:
            plt.close(fig)
            continue
        ax.set_xscale("log", base=2)
        ticks = sorted({int(r["m"]) for r in all_rows})
        ax.set_xticks(ticks)
        ax.set_xticklabels([str(s) for s in ticks], rotation=45)
        ax.set_xlabel("M = N = K")
        ax.set_ylabel("TFLOP/s (2·M·N·K / median time)")
        ax.set_ylim(bottom=0)
        ax.grid(True, alpha=0.3)
        ax.legend()
        ax.set_title(f"{t} GEMM, square shapes — {context(all_rows)}", fontsize=10)
        fig.tight_layout()
        name = os.path.join(out_dir, f"{prefix}_tflops_{t.replace('/', '-')}.png")
        fig.savefig(name, dpi=DPI)
        plt.close(fig)
        written.append(name)
    return written


def plot_ratio(path, rows, out_dir):
    """tilegemm / cuBLAS per shape of one CSV, as horizontal bars around the 1.0 line."""
    runs = [r for r in rows if number(r["ratio_vs_cublas"])]
    if not runs:
        return None
    labels = [f"{shape_of(r)} {type_of(r)}" + ("  FAIL" if r["check"] == "FAIL" else "") for r in runs]
    ratios = [number(r["ratio_vs_cublas"]) for r in runs]
    height = max(RATIO_MIN_HEIGHT_IN, RATIO_BAR_HEIGHT_IN * len(runs) + 1.5)
    fig, ax = plt.subplots(figsize=(FIG_WIDTH_IN, height))
    ys = list(range(len(runs)))[::-1]
    colors = ["tab:green" if v >= 1.0 else "tab:red" for v in ratios]
    ax.barh(ys, ratios, color=colors)
    ax.axvline(1.0, color="black", linewidth=1)
    for y, v in zip(ys, ratios):
        ax.text(v, y, f" {v:.2f}x", va="center", fontsize=8)
    ax.set_yticks(ys)
    ax.set_yticklabels(labels, fontsize=8)
    ax.set_xlabel("tilegemm speed / cuBLAS speed (cuBLAS time / tilegemm time)")
    ax.set_xlim(0, max(ratios + [1.0]) * 1.15)
    ax.grid(True, axis="x", alpha=0.3)
    stem = os.path.splitext(os.path.basename(path))[0]
    ax.set_title(f"{stem}: tilegemm / cuBLAS — {context(runs)}", fontsize=10)
    fig.tight_layout()
    name = os.path.join(out_dir, f"{stem}_ratio.png")
    fig.savefig(name, dpi=DPI)
    plt.close(fig)
    return name


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv", nargs="+", help="CSV files written by tilegemm sweep")
    ap.add_argument("--out", help="directory for the PNGs (default: the first CSV's directory)")
    ap.add_argument("--prefix", help="name prefix of the TFLOP/s plots (default: the CSV's stem, "
                                     "or 'sweep' for several CSVs)")
    args = ap.parse_args()
    sources = [(p, read(p)) for p in args.csv]
    out_dir = args.out or os.path.dirname(os.path.abspath(args.csv[0]))
    os.makedirs(out_dir, exist_ok=True)
    prefix = args.prefix or (os.path.splitext(os.path.basename(args.csv[0]))[0] if len(args.csv) == 1 else "sweep")
    written = plot_squares(sources, out_dir, prefix)
    for path, rows in sources:
        name = plot_ratio(path, rows, out_dir)
        if name:
            written.append(name)
    for name in written:
        print(name)
    if not written:
        sys.exit("plot.py: nothing to plot (no rows with times)")


if __name__ == "__main__":
    main()
