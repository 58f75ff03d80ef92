#!/usr/bin/python3
"""The thesis' chapter-3 gather and scatter figures on simulated Grid'5000 Graphene
(apps/smpi/run-graphene-gather-scatter.sh): time vs G, one panel per size, one line per algorithm
(forced flat and at both levels; native = SimGrid 3.32's Open MPI decision at every level), the
legend giving each line's best G and its gain over G = 1. Each figure reads its own CSV.

usage: plot_graphene_gather_scatter.py [--only NAME] [--dir DIR]   (NAME: a PNG's file name; DIR: where
the CSVs are and the PNGs go, default this folder)
"""
import argparse
import collections
import csv
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # results/plotlib.py
from plotlib import plt  # noqa: E402

SIM = "simulated on Graphene GigE, SimGrid"
NAMES = {"ompi_linear_sync": "linear-with-sync", "ompi_basic_linear": "linear", "ompi_binomial": "binomial",
         "ompi": "native (decision)"}


class hc:  # where the CSVs are and the PNGs go
    HERE = os.path.dirname(os.path.realpath(__file__))

    @staticmethod
    def plot(csv_name, png_name, title, only):
        if only and only != png_name:
            return
        lines = collections.defaultdict(dict)  # bytes -> algorithm -> G -> ms
        layout = ""
        for r in csv.DictReader(open(os.path.join(hc.HERE, csv_name))):
            lines[int(r["bytes"])].setdefault(r["algo_flat"], {})[int(r["groups"])] = float(r["time_s"]) * 1e3
            layout = f"p = {r['ranks']} = {int(r['ranks']) // int(r['ranks_per_node'])} nodes x {r['ranks_per_node']}"
            if r["machine"] == "graphene-ib":  # --machine graphene-ib writes the same files
                title = title.replace("Graphene GigE", "Graphene InfiniBand")
        sizes = sorted(lines)
        cols = min(len(sizes), 2)
        rows = math.ceil(len(sizes) / cols)
        fig, axes = plt.subplots(rows, cols, figsize=(6 * cols, 4.2 * rows), squeeze=False)
        for ax, size in zip(axes.flat, sizes):
            for algo, pts in lines[size].items():
                gs = sorted(pts)
                best = min(gs, key=lambda g: pts[g])
                ax.plot(gs, [pts[g] for g in gs], marker="o",
                        label=f"{NAMES.get(algo, algo)}: best G = {best}, {pts[1] / pts[best]:.2f}x")
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            ax.set_xlabel("G (groups; G = 1: the flat collective)")
            ax.set_ylabel("time (ms, simulated)")
            ax.set_title(f"{size >> 20} MiB at the root, {layout}" if size >= 1 << 20 else f"{size >> 10} KiB, {layout}",
                         fontsize=9)
            ax.legend(fontsize=8)
        for ax in list(axes.flat)[len(sizes):]:
            ax.set_visible(False)
        fig.suptitle(title, fontsize=9)
        fig.tight_layout()
        fig.savefig(os.path.join(hc.HERE, png_name), dpi=100)
        plt.close(fig)
        print("wrote", png_name)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="")
    ap.add_argument("--dir", default="")
    args = ap.parse_args()
    hc.HERE = args.dir or hc.HERE
    have = lambda name: os.path.exists(os.path.join(hc.HERE, name))  # noqa: E731
    # One statement per figure: its title beside its files (tests/results checks the labels).
    if have("graphene-thesis-fig3_31-gather-linsync-512.csv"):
        hc.plot("graphene-thesis-fig3_31-gather-linsync-512.csv", "graphene-thesis-fig3_31-gather-linsync-512.png", f"thesis Fig 3.31 ({SIM}): linear-with-sync gather vs G, 512 = 128 nodes x 4, 128 / 256 MiB (SimGrid's 32 KiB first segment for the thesis' 4 KB)", args.only)
    if have("graphene-thesis-fig3_32-3_33-gather-linsync-64.csv"):
        hc.plot("graphene-thesis-fig3_32-3_33-gather-linsync-64.csv", "graphene-thesis-fig3_32-3_33-gather-linsync-64.png", f"thesis Figs 3.32 and 3.33 ({SIM}): linear-with-sync gather vs G, 64 = 16 nodes x 4, 128 / 256 MiB (one run: SimGrid's 32 KiB first segment for the thesis' 4 KB and 32 KB)", args.only)
    if have("graphene-thesis-fig3_34-gather-linsync-512-small.csv"):
        hc.plot("graphene-thesis-fig3_34-gather-linsync-512-small.csv", "graphene-thesis-fig3_34-gather-linsync-512-small.png", f"thesis Fig 3.34 ({SIM}): linear-with-sync gather vs G, 512 = 128 nodes x 4, 2 / 4 MiB, 1 KiB first segment", args.only)
    if have("graphene-thesis-fig3_35-gather-linsync-64-small.csv"):
        hc.plot("graphene-thesis-fig3_35-gather-linsync-64-small.csv", "graphene-thesis-fig3_35-gather-linsync-64-small.png", f"thesis Fig 3.35 ({SIM}): linear-with-sync gather vs G, 64 = 16 nodes x 4, 2 / 4 MiB, 1 KiB first segment", args.only)
    if have("graphene-thesis-fig3_37-gather-native-512.csv"):
        hc.plot("graphene-thesis-fig3_37-gather-native-512.csv", "graphene-thesis-fig3_37-gather-native-512.png", f"thesis Fig 3.37 ({SIM}): native gather (SimGrid 3.32's Open MPI decision at every level) vs G, 512 = 128 nodes x 4", args.only)
    if have("graphene-thesis-fig3_38-3_39-gather-linsync-128.csv"):
        hc.plot("graphene-thesis-fig3_38-3_39-gather-linsync-128.csv", "graphene-thesis-fig3_38-3_39-gather-linsync-128.png", f"thesis Figs 3.38 and 3.39 ({SIM}): linear-with-sync gather vs G, 128 nodes x 1, 128 / 256 MiB (one run: SimGrid's 32 KiB first segment for the thesis' 1, 32 and 64 KB)", args.only)
    if have("graphene-thesis-fig3_41-3_42-scatter-512.csv"):
        hc.plot("graphene-thesis-fig3_41-3_42-scatter-512.csv", "graphene-thesis-fig3_41-3_42-scatter-512.png", f"thesis Figs 3.41 and 3.42 ({SIM}): linear (3.41) and native (3.42) scatter vs G, 512 = 128 nodes x 4", args.only)
    if have("graphene-thesis-fig3_43-3_45-scatter-64.csv"):
        hc.plot("graphene-thesis-fig3_43-3_45-scatter-64.csv", "graphene-thesis-fig3_43-3_45-scatter-64.png", f"thesis Figs 3.43, 3.44 and 3.45 ({SIM}): binomial (3.43), linear (3.44) and native (3.45) scatter vs G, 64 = 16 nodes x 4", args.only)


if __name__ == "__main__":
    main()
