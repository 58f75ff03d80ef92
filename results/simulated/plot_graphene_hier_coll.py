#!/usr/bin/python3
"""The thesis' chapter-3 hierarchical reduce/allreduce/gather/scatter vs G on simulated Grid'5000
Graphene (apps/smpi/run-hier-coll.sh; SimGrid SMPI, Graphene's faithful set): one panel per message
size, one line per layout (ranks x ranks per node) and per-level algorithms (flat / between /
inside), time vs G (G = 1: the flat collective). Each figure reads its own CSV.

usage: plot_graphene_hier_coll.py [--only NAME] [--dir DIR]   (NAME: a PNG's file name; DIR: where the
CSVs are and the PNGs go, default this folder)
"""
import argparse
import collections
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # results/plotlib.py
from plotlib import plt  # noqa: E402

HERE = os.path.dirname(os.path.realpath(__file__))


def size_label(b):
    return f"{b // 1024} KiB" if b < 1 << 20 else f"{b >> 20} MiB"


def plot(csv_name, png_name, title, only):
    if only and only != png_name:
        return
    lines = collections.defaultdict(dict)  # (bytes, layout, algorithms) -> G -> ms
    for r in csv.DictReader(open(os.path.join(HERE, csv_name))):
        layout = f"{r['ranks']} = {int(r['ranks']) // int(r['ranks_per_node'])} x {r['ranks_per_node']}"
        algos = r["algo_flat"] if r["groups"] == "1" else None
        key = (int(r["bytes"]), r["machine"], layout, r["algo_flat"])
        lines[key][int(r["groups"])] = (float(r["time_s"]) * 1e3, algos or f"{r['algo_between']}/{r['algo_inside']}")
    sizes = sorted({k[0] for k in lines})
    fig, axes = plt.subplots(1, len(sizes), figsize=(5.5 * len(sizes), 4.2), squeeze=False)
    for ax, size in zip(axes[0], sizes):
        for (b, machine, layout, flat), pts in sorted(lines.items()):
            if b != size:
                continue
            gs = sorted(pts)
            best = min(gs, key=lambda g: pts[g][0])
            inner = next((pts[g][1] for g in gs if g > 1 and not pts[g][1].startswith("-")), flat)  # G = p is flat
            ax.plot(gs, [pts[g][0] for g in gs], marker="o",
                    label=f"{machine} {layout}, flat {flat}, levels {inner}: best G = {best}, "
                          f"{pts[1][0] / pts[best][0]:.2f}x")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("G (groups; G = 1: the flat collective)")
        ax.set_ylabel("time (ms, simulated)")
        ax.set_title(size_label(size))
        ax.legend(fontsize=7)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(os.path.join(HERE, png_name), dpi=110)
    plt.close(fig)
    print("wrote", png_name)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="")
    ap.add_argument("--dir", default="")
    args = ap.parse_args()
    global HERE
    HERE = args.dir or HERE
    # One statement per figure: its title beside its files (tests/results checks the labels).
    if os.path.exists(os.path.join(HERE, "graphene-thesis-fig3_15-3_17-reduce.csv")):
        plot("graphene-thesis-fig3_15-3_17-reduce.csv", "graphene-thesis-fig3_15-3_17-reduce.png", "thesis Figs 3.15 and 3.17 (simulated on Graphene, SimGrid): native and pipeline reduce vs G, 128 ranks = 32 nodes x 4 (thesis: 512 cores)", args.only)
    if os.path.exists(os.path.join(HERE, "graphene-thesis-fig3_19-3_20-reduce-128.csv")):
        plot("graphene-thesis-fig3_19-3_20-reduce-128.csv", "graphene-thesis-fig3_19-3_20-reduce-128.png", "thesis Figs 3.19 and 3.20 (simulated on Graphene, SimGrid): native and pipeline reduce vs G, 128 nodes x 1", args.only)
    if os.path.exists(os.path.join(HERE, "graphene-thesis-fig3_24-allreduce.csv")):
        plot("graphene-thesis-fig3_24-allreduce.csv", "graphene-thesis-fig3_24-allreduce.png", "thesis Fig 3.24 (simulated on Graphene, SimGrid): ring allreduce vs G, 128 ranks = 32 nodes x 4 (thesis: 512 cores)", args.only)
    if os.path.exists(os.path.join(HERE, "graphene-thesis-fig3_36-gather.csv")):
        plot("graphene-thesis-fig3_36-gather.csv", "graphene-thesis-fig3_36-gather.png", "thesis Fig 3.36 (simulated on Graphene, SimGrid): binomial and linear gather vs G, 128 ranks = 32 nodes x 4 (thesis: 512 cores)", args.only)
    if os.path.exists(os.path.join(HERE, "graphene-thesis-fig3_40-scatter.csv")):
        plot("graphene-thesis-fig3_40-scatter.csv", "graphene-thesis-fig3_40-scatter.png", "thesis Fig 3.40 (simulated on Graphene, SimGrid): binomial scatter vs G, 128 ranks = 32 nodes x 4 (thesis: 512 cores)", args.only)


if __name__ == "__main__":
    main()
