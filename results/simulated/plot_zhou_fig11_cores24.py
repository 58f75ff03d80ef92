#!/usr/bin/env python3
"""Zhou Fig 11 on 24-core XC40 nodes (simulated): Ori_SUMMA / Hy_SUMMA time ratio vs the
per-core block s x s (8, 64, 128, 256), one curve per node count, from
zhou-fig11-xc40-1node-4x6.csv (one node, 4 x 6 grid), zhou-fig11-xc40-nodes-24c.csv
(4 nodes) and zhou-fig11-xc40-16-24c.csv (16 nodes, 8 x 48); barrier and flag sync. Median over reps of time_s_scaled per (nodes, policy, s).

usage: plot_zhou_fig11_cores24.py [--out PNG]
"""
import argparse
import csv
import os
import statistics
import sys
from collections import defaultdict

here = os.path.dirname(os.path.abspath(__file__))


def load(paths):
    t = defaultdict(list)
    for p in paths:
        if not os.path.exists(p):
            continue
        for r in csv.DictReader(open(p)):
            key = (int(r["nodes"]), f'{r["P"]}x{r["Q"]} {r["sync"]} sync', r["policy"], int(r["block_per_core"]))
            t[key].append(float(r["time_s_scaled"]))
    return {k: statistics.median(v) for k, v in t.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=os.path.join(here, "zhou-fig11-xc40-24c.png"))
    a = ap.parse_args()
    med = load([os.path.join(here, f) for f in ("zhou-fig11-xc40-1node-4x6.csv", "zhou-fig11-xc40-nodes-24c.csv",
                                                 "zhou-fig11-xc40-16-24c.csv")])
    if not med:
        sys.exit("plot_zhou_fig11_cores24.py: error: no rows")
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for nodes, grid in sorted({(k[0], k[1]) for k in med}):
        blocks = sorted(k[3] for k in med if k[:3] == (nodes, grid, "pure") and (nodes, grid, "hybrid", k[3]) in med)
        ratios = [med[(nodes, grid, "pure", s)] / med[(nodes, grid, "hybrid", s)] for s in blocks]
        ax.plot(blocks, ratios, marker="o", label=f"{nodes} node(s) x 24 cores, grid {grid}")
        for s, r in zip(blocks, ratios):
            print(f"nodes={nodes} grid={grid} s={s}: Ori/Hy = {r:.3f}")
    ax.axhline(1, color="grey", lw=0.8)
    ax.axhline(5, color="red", lw=0.8, ls="--", label="Zhou: 'as much as five times' (8x8, one node)")
    ax.set_xscale("log", base=2)
    ax.set_xticks([8, 64, 128, 256], ["8x8", "64x64", "128x128", "256x256"])
    ax.set_xlabel("per-core block")
    ax.set_ylabel("Ori_SUMMA / Hy_SUMMA time")
    ax.set_title("Zhou Fig 11 (simulated XC40, 24-core nodes)", fontsize=10)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(a.out, dpi=120)
    print(f"-> {a.out}")


if __name__ == "__main__":
    main()
