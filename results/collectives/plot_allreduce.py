#!/usr/bin/python3
"""Plots allreduce.csv (experiment allreduce.toml) in the style of the Fig 7/8
analogues: latency vs size, one panel per layout (one node; emulated nodes) and per
reduction in the CSV, pure MPI under both baselines (the MPI's default collectives
and its hierarchical ones, --baseline) vs hybrid vs the node MPI_Barrier floor.

    /usr/bin/python3 results/collectives/plot_allreduce.py [folder] [--stat avg|median]
"""
import argparse
import os

import plot as base  # results/collectives/plot.py: the Fig 7-10 helpers (and plotlib)

OPS = ["allreduce", "reduce"]
STYLE = {  # (variant, baseline) -> (label, colour, marker, linestyle); node-barrier: any baseline
    ("pure", "default"): ("pure MPI, default collectives", "tab:red", "o", "-"),
    ("pure", "hierarchical"): ("pure MPI, hierarchical (han / smp)", "tab:orange", "v", "--"),
    ("hybrid-barrier", "default"): ("hybrid, barrier sync", "tab:blue", "s", "-"),
    ("hybrid-flags", "default"): ("hybrid, flag sync", "tab:green", "^", "-"),
    ("node-barrier", "default"): ("node MPI_Barrier (floor)", "black", "", ":"),
}


def panel(ax, rows, op):
    for (variant, baseline), (label, colour, marker, line) in STYLE.items():
        pts = sorted((int(r["size_doubles"]), base.stat_of(r)) for r in rows
                     if r["operation"] == op and r["variant"] == variant and r["baseline"] == baseline)
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker=marker, linestyle=line, color=colour,
                    label=label, markersize=4)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    types = sorted({f"{r['type']}, {r['reduce_op']}" for r in rows if r["operation"] == op})
    ax.set_xlabel(f"elements per rank ({'; '.join(types)})")
    ax.set_ylabel(f"{base.STAT} latency (us)")
    ax.grid(True, which="major", alpha=0.3)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("folder", nargs="?", default=os.path.dirname(os.path.abspath(__file__)))
    p.add_argument("--stat", choices=["avg", "median"], default="avg")
    a = p.parse_args()
    base.STAT = a.stat
    info = base.machine(a.folder)
    # Both baselines of one layout land in the same run (row of panels). No load note: machine.txt
    # is written by reproduce-laptop.sh for the whole set, and this figure may be run alone.
    base.sweep_figure(a.folder, "allreduce.csv", "allreduce.png", "Allreduce, Fig 7/8 style", info.get("cores", ""),
                      ops=OPS, panel=panel)


if __name__ == "__main__":
    main()
