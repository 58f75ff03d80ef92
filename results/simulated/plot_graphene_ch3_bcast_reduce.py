#!/usr/bin/python3
"""The thesis' chapter-3 hierarchical broadcast, reduce and allreduce figures on simulated Grid'5000
Graphene (apps/smpi/run-graphene-hier-fig3.sh; rows of run-hier-coll.sh), and Fig 3.6's group-creation
cost on BG/P (run-split-cost.sh). Each figure: time vs G
(one line per layout, size and per-level algorithm; G = 1 is the flat collective), the best speedup
over the flat one vs the message size, and, where the figure sweeps p, vs p. Fig 3.16 adds the
group-creation cost (run-split-cost.sh) to the 1 KiB reduce.

usage: plot_graphene_ch3_bcast_reduce.py [--only NAME] [--dir DIR]   (NAME: a PNG's file name; DIR: where
the CSVs are and the PNGs go, default this folder)
"""
import argparse
import collections
import csv
import os
import sys
import textwrap

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # results/plotlib.py
from plotlib import plt  # noqa: E402

HERE = os.path.dirname(os.path.realpath(__file__))


def size_label(b):
    return f"{b} B" if b < 1024 else f"{b // 1024} KiB" if b < 1 << 20 else f"{b >> 20} MiB"


def read(csv_name):
    """(ranks, per_node, bytes, algo [machine]) -> {G: seconds}: the last row of a key and G wins."""
    lines = collections.defaultdict(dict)
    rows = list(csv.DictReader(open(os.path.join(HERE, csv_name))))
    machines = {r["machine"] for r in rows}
    for r in rows:  # the machine named when a figure has two
        algo = r["algo_flat"] + (f" [{r['machine']}]" if len(machines) > 1 else "")
        key = (int(r["ranks"]), int(r["ranks_per_node"]), int(r["bytes"]), algo)
        lines[key][int(r["groups"])] = float(r["time_s"])
    return lines


def best_gain(pts):
    g = min(pts, key=pts.get)
    return pts[1] / pts[g], g


def plot(csv_name, png_name, title, only, split_csv=None):
    if only and only != png_name or not os.path.exists(os.path.join(HERE, csv_name)):
        return
    lines = read(csv_name)
    ranks = sorted({k[0] for k in lines})
    commons = [b for b in {k[2] for k in lines} if all(any(k[0] == p and k[2] == b for k in lines) for p in ranks)]
    sweep_p = len(ranks) > 1 and bool(commons)
    mixed = len(ranks) > 1 and not commons  # each size at its own p (Fig 3.26): every layout in the size panel
    n = 3 if sweep_p else 2
    fig, axes = plt.subplots(1, n, figsize=(5.6 * n, 4.4))
    ax = axes[0]
    split = {}
    if split_csv and os.path.exists(os.path.join(HERE, split_csv)):
        for r in csv.DictReader(open(os.path.join(HERE, split_csv))):
            split[int(r["groups"])] = (float(r["split_s"]), float(r["hympi_create_s"]))
    for (p, c, b, a), pts in sorted(lines.items()):
        if len(ranks) > 1 and p != max(ranks) and not mixed:
            continue
        gs = sorted(pts)
        gain, g = best_gain(pts)
        ax.plot(gs, [pts[x] * 1e3 for x in gs], marker="o", label=f"{p} = {p // c} x {c}, {size_label(b)}, {a}: "
                f"best G = {g}, {gain:.2f}x")
        if split and b == min(k[2] for k in lines):
            sg = [x for x in gs if x in split]
            ax.plot(sg, [(pts[x] + split[x][0]) * 1e3 for x in sg], ls="--", marker="s",
                    label=f"{size_label(b)} {a} + MPI_Comm_split x 2 (thesis)")
            ax.plot(sg, [(pts[x] + split[x][1]) * 1e3 for x in sg], ls=":", marker="^",
                    label=f"{size_label(b)} {a} + hympi's creation (MPI_Comm_create_group)")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("G (groups; G = 1: the flat collective)")
    ax.set_ylabel("time (ms, simulated)")
    ax.set_title("time vs G" + ("" if mixed else f", p = {max(ranks)}"))
    ax.legend(fontsize=6)
    ax = axes[1]  # best speedup vs size at the largest p
    by_algo = collections.defaultdict(dict)
    for (p, c, b, a), pts in lines.items():
        if p == max(ranks) or mixed:
            by_algo[a][b] = best_gain(pts)[0]
    for a, pts in sorted(by_algo.items()):
        bs = sorted(pts)
        ax.plot(bs, [pts[b] for b in bs], marker="o", label=a)
    ax.set_xscale("log", base=2)
    ax.axhline(1, color="grey", lw=0.5)
    ax.set_xlabel("message (bytes)")
    ax.set_ylabel("best speedup over the flat collective")
    ax.set_title("best speedup vs size" + (" (p as in the left panel)" if mixed else f", p = {max(ranks)}"))
    ax.legend(fontsize=7)
    if sweep_p:  # best speedup vs p at the largest size run at every p
        ax = axes[2]
        common = max(commons)
        by_algo = collections.defaultdict(dict)
        for (p, c, b, a), pts in lines.items():
            if b == common:
                by_algo[a][p] = best_gain(pts)[0]
        for a, pts in sorted(by_algo.items()):
            ps = sorted(pts)
            ax.plot(ps, [pts[p] for p in ps], marker="o", label=a)
        ax.set_xscale("log", base=2)
        ax.axhline(1, color="grey", lw=0.5)
        ax.set_xlabel("p (simulated ranks)")
        ax.set_ylabel("best speedup over the flat collective")
        ax.set_title(f"best speedup vs p, {size_label(common)}")
        ax.legend(fontsize=7)
    fig.suptitle("\n".join(textwrap.wrap(title, 150)), fontsize=9)
    fig.tight_layout()
    fig.savefig(os.path.join(HERE, png_name), dpi=110)
    plt.close(fig)
    print("wrote", png_name)


def plot_split(csv_name, png_name, title, only):
    """Group-creation time vs G: two MPI_Comm_split, MPI_Comm_create_group by the members, hympi's creation."""
    if only and only != png_name or not os.path.exists(os.path.join(HERE, csv_name)):
        return
    rows = list(csv.DictReader(open(os.path.join(HERE, csv_name))))
    fig, ax = plt.subplots(figsize=(6.5, 4.4))
    gs = [int(r["groups"]) for r in rows]
    for col, label in (("split_s", "MPI_Comm_split x 2 (the thesis' HiMPI)"),
                       ("create_group_s", "MPI_Comm_create_group by the members"),
                       ("hympi_create_s", "hympi's creation of the grouped collective")):
        ax.plot(gs, [float(r[col]) * 1e3 for r in rows], marker="o", label=label)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("G (groups)")
    ax.set_ylabel("time (ms, simulated)")
    ax.set_title(f"{rows[0]['machine']}, p = {rows[0]['ranks']}", fontsize=9)
    ax.legend(fontsize=7)
    fig.suptitle("\n".join(textwrap.wrap(title, 90)), fontsize=9)
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
    plot_split("bgp-thesis-fig3_6-split.csv", "bgp-thesis-fig3_6-split.png", "thesis Fig 3.6, left panel (simulated on BG/P, SimGrid): group-creation time vs G, 512 ranks (thesis: 2048); SimGrid's own MPI_Comm_split and MPI_Comm_create_group", args.only)
    plot("graphene-thesis-fig3_8-3_9-bcast-128.csv", "graphene-thesis-fig3_8-3_9-bcast-128.png", "thesis Figs 3.8 and 3.9 (simulated on Graphene GigE, SimGrid): chain and pipeline bcast vs G, 128 nodes x 1; SimGrid's ompi_pipeline (segmented by its formula) and the layer's Open MPI chain unsegmented as forced: hympi_chain:4:0 (Fig 3.8) and hympi_chain:1:0 (the pipeline, Fig 3.9)", args.only)
    plot("graphene-thesis-fig3_10-bcast-1pernode.csv", "graphene-thesis-fig3_10-bcast-1pernode.png", "thesis Fig 3.10 (simulated on Graphene GigE, SimGrid): hierarchical bcast speedup, 1 per node, over sizes on 128 nodes and over p at 16 MiB; ompi_pipeline and native (ompi)", args.only)
    plot("graphene-thesis-fig3_11-3_12-bcast-percore.csv", "graphene-thesis-fig3_11-3_12-bcast-percore.png", "thesis Figs 3.11 and 3.12 (simulated on Graphene GigE, SimGrid): pipeline bcast (SimGrid's ompi_pipeline, the stand-in for chain too), 1 per core (4 per node): 512 ranks at 16 KiB-16 MiB, 16 MiB over p = 32-512", args.only)
    plot("graphene-thesis-fig3_16-reduce.csv", "graphene-thesis-fig3_16-reduce.png", "thesis Fig 3.16 (simulated on Graphene 20G InfiniBand, SimGrid): native reduce 1 KiB with the group-creation cost, pipeline reduce 16 KiB (1 KiB segments), 512 ranks = 128 nodes x 4", args.only, split_csv="graphene-thesis-fig3_16-split.csv")
    plot("graphene-thesis-fig3_18-reduce-algorithms.csv", "graphene-thesis-fig3_18-reduce-algorithms.png", "thesis Fig 3.18 (simulated on Graphene 20G InfiniBand, SimGrid): seven Open MPI reduce algorithms at every level, 256 and 512 ranks (64 and 128 nodes x 4), 16 KiB and 1 MiB", args.only)
    plot("graphene-thesis-fig3_21-reduce-1pernode.csv", "graphene-thesis-fig3_21-reduce-1pernode.png", "thesis Fig 3.21 (simulated on Graphene 20G InfiniBand, SimGrid): seven Open MPI reduce algorithms at every level, 64 and 128 nodes x 1, 16 KiB and 1 MiB", args.only)
    plot("graphene-thesis-fig3_25-allreduce-segring.csv", "graphene-thesis-fig3_25-allreduce-segring.png", "thesis Fig 3.25 (simulated on Graphene, SimGrid): segmented ring allreduce (ompi_ring_segmented, 1 MiB segments; thesis 1 and 4 KB), GigE and IB, 128 ranks = 32 nodes x 4 (thesis: 512)", args.only)
    plot("graphene-thesis-fig3_25-allreduce-segring-segments-512.csv", "graphene-thesis-fig3_25-allreduce-segring-segments-512.png", "thesis Fig 3.25 at the thesis' 512 ranks = 128 nodes x 4 (simulated on Graphene, SimGrid): segmented ring allreduce with the thesis' 1 KB and 4 KB segments flat and among the leaders (the layer's hympi_ring_segmented), GigE (graphene-ib not run at 512)", args.only)
    plot("graphene-thesis-fig3_26-allreduce-algorithms.csv", "graphene-thesis-fig3_26-allreduce-algorithms.png", "thesis Fig 3.26 (simulated on Graphene GigE, SimGrid): allreduce native, linear (stand-in default), non-overlapping (redbcast), rdb, ring (lr), segmented ring; 16 KiB on 512 ranks = 128 nodes x 4, 256 KiB on 128 = 32 x 4", args.only)


if __name__ == "__main__":
    main()
