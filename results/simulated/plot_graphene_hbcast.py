#!/usr/bin/python3
"""Hierarchical broadcast vs G on simulated Grid'5000 Graphene (apps/smpi/run-hier-bcast.sh
--machine graphene-gige|graphene-ib --ranks 128 --cores 1): the core's grouped broadcast with
SMPI's port of Open MPI's tuned decision (smpi:ompi) at both levels, one rank per node, 16 KiB
and 16 MiB, G = 1 (the flat MPI_Bcast) to 128, both networks where simulated. Simulated
(SimGrid SMPI, Graphene's faithful set). The thesis' MPI_Comm_split curve is not simulated.

usage: plot_graphene_hbcast.py [--csv FILE ...] [--out FILE]
"""
import argparse
import collections
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # results/plotlib.py
from plotlib import plt  # noqa: E402

HERE = os.path.dirname(os.path.realpath(__file__))
CSVS = ["graphene-gige-hier-bcast.csv", "graphene-ib-hier-bcast.csv"]
PNG = "graphene-hier-bcast-128.png"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--csv", nargs="*", default=[os.path.join(HERE, c) for c in CSVS])
    ap.add_argument("--out", default=os.path.join(HERE, PNG))
    args = ap.parse_args()
    lines = collections.defaultdict(dict)  # (bytes, machine) -> G -> ms
    for path in args.csv:
        if not os.path.exists(path):
            continue
        for r in csv.DictReader(open(path)):
            if (r["ranks"] == "128" and r.get("ranks_per_node") == "1" and r["bcast"] == "smpi:ompi"
                    and r["asked"] != "auto"):
                lines[(int(r["bytes"]), r["machine"])][int(r["groups"])] = float(r["time_s"]) * 1e3
    if not lines:
        sys.exit("plot_graphene_hbcast.py: no 128-rank, one-per-node, smpi:ompi rows")
    sizes = sorted({b for b, _ in lines})
    fig, axes = plt.subplots(1, len(sizes), figsize=(5 * len(sizes), 4), squeeze=False)
    for ax, size in zip(axes[0], sizes):
        for (b, machine), pts in sorted(lines.items()):
            if b != size:
                continue
            gs = sorted(pts)
            best = min(gs, key=lambda g: pts[g])
            ax.plot(gs, [pts[g] for g in gs], marker="o",
                    label=f"{machine}: best G = {best}, {pts[1] / pts[best]:.2f}x over G = 1")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("G (groups; G = 1 and G = 128: flat MPI_Bcast)")
        ax.set_ylabel("time (ms, simulated)")
        label = f"{size // 1024} KiB" if size < 1 << 20 else f"{size >> 20} MiB"
        ax.set_title(f"{label}, p = 128, 1 rank per node, ompi at both levels")
        ax.legend(fontsize=8)
    fig.suptitle("thesis Fig 3.7 (simulated on Graphene, SimGrid): hierarchical native Open MPI bcast vs G")
    fig.tight_layout()
    fig.savefig(args.out, dpi=120)
    print("wrote", args.out)


if __name__ == "__main__":
    main()
