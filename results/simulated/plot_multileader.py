#!/usr/bin/python3
"""Multi-leader bridge on a simulated XC40 (apps/smpi/run-xc40.sh fig8 --leaders K):
hybrid allgather and bcast latency vs message size for K = 1, 2, 4, 8 bridge ranks per
node (64 nodes x 24 ranks), and the pure policy for reference. Simulated (SimGrid SMPI).

usage: plot_multileader.py [--csv FILE] [--out FILE]
"""
import argparse
import collections
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # results/plotlib.py
from plotlib import plt  # noqa: E402

HERE = os.path.dirname(os.path.realpath(__file__))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--csv", default=os.path.join(HERE, "multileader-xc40-64.csv"))
    ap.add_argument("--out", default=None, help="PNG (default: the CSV's name with .png)")
    args = ap.parse_args()
    rows = list(csv.DictReader(open(args.csv)))
    if not rows:
        sys.exit(f"plot_multileader.py: no rows in {args.csv}")
    lines = collections.defaultdict(dict)  # (op, label) -> size_bytes -> median us
    for r in rows:
        label = "pure" if r["policy"] == "pure" else f"hybrid k={r['leaders']}"
        lines[(r["operation"], label)][int(r["size_bytes"])] = float(r["median_us"])
    ops = sorted({op for op, _ in lines})
    fig, axes = plt.subplots(1, len(ops), figsize=(5 * len(ops), 4), squeeze=False)
    for ax, op in zip(axes[0], ops):
        for (o, label), pts in sorted(lines.items()):
            if o != op:
                continue
            sizes = sorted(pts)
            ax.plot(sizes, [pts[s] for s in sizes], marker="o", label=label)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("bytes per rank" if op != "bcast" else "bytes")
        ax.set_ylabel("median latency (µs, simulated)")
        ax.set_title(f"{op}, 64 XC40-like nodes x 24 ranks (SimGrid)")
        ax.legend(fontsize=8)
    fig.tight_layout()
    out = args.out or args.csv.replace(".csv", ".png")
    fig.savefig(out, dpi=120)
    print("wrote", out)


if __name__ == "__main__":
    main()
