#!/usr/bin/python3
"""Zhou et al. (ICPP'19) Fig 12 by simulation: Ori_BPMF (pure) over Hy_BPMF (hybrid) time per
iteration vs cores on the simulated XC40 (apps/smpi/run-bpmf-xc40.sh: the BPMF skeleton, 24-core
nodes, the sampling charged from the kernel's cost model measured on this host).

usage: plot_zhou_fig12.py [--csv FILE] [--out FILE]
Left: the ratio per core count (one line per compute scale in the CSV); right: time per
iteration, split into sampling and exchange, at compute scale 1. The title says SIMULATED, the
data set and K.
"""
import argparse
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # results/plotlib.py
from plotlib import plt, read_rows  # noqa: E402

HERE = os.path.dirname(os.path.realpath(__file__))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--csv", default=os.path.join(HERE, "zhou-fig12-bpmf-xc40.csv"))
    ap.add_argument("--out", default=None, help="PNG (default: the CSV's name)")
    a = ap.parse_args()
    rows = read_rows(a.csv)
    by = defaultdict(dict)  # (compute_scale, ns_per_cost) -> ranks -> policy -> row
    for r in rows:
        by[(float(r["compute_scale"]), float(r["ns_per_cost"]))].setdefault(int(r["ranks"]), {})[r["policy"]] = r
    if not by:
        sys.exit(f"plot_zhou_fig12.py: no rows in {a.csv}")
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    for (scale, ns), points in sorted(by.items()):
        xs = sorted(p for p, v in points.items() if "pure" in v and "hybrid" in v)
        ratio = [float(points[p]["pure"]["time_per_iteration_s"]) / float(points[p]["hybrid"]["time_per_iteration_s"])
                 for p in xs]
        left.plot(xs, ratio, marker="o", label=f"compute x{scale:g} ({ns * 1e9:.3g} ns per cost unit)")
        for x, y in zip(xs, ratio):
            left.annotate(f"{y:.2f}", (x, y), textcoords="offset points", xytext=(0, 5), fontsize=7, ha="center")
    left.axhline(1.0, color="grey", lw=0.8)
    left.set_xscale("log", base=2)
    left.set_xlabel("cores (24 per node)")
    left.set_ylabel("Ori_BPMF / Hy_BPMF time per iteration")
    left.legend(fontsize=7)
    base = by.get(min(by, key=lambda k: abs(k[0] - 1.0)))
    xs = sorted(base)
    for policy, style in (("pure", "-"), ("hybrid", "--")):
        pts = [p for p in xs if policy in base[p]]
        right.plot(pts, [float(base[p][policy]["time_per_iteration_s"]) * 1e3 for p in pts], style, marker="o",
                   label=f"{policy}: total")
        right.plot(pts, [float(base[p][policy]["exchange_s"]) / float(base[p][policy]["iterations"]) * 1e3 for p in pts],
                   style, marker="x", label=f"{policy}: exchange")
    right.plot(xs, [float(base[p]["pure"]["sampling_s"]) / float(base[p]["pure"]["iterations"]) * 1e3 for p in xs],
               ":", marker=".", label="sampling (both)")
    right.set_xscale("log", base=2)
    right.set_yscale("log")
    right.set_xlabel("cores (24 per node)")
    right.set_ylabel("ms per iteration (slowest rank)")
    right.legend(fontsize=7)
    r0 = rows[0]
    sync = next((r["sync"] for r in rows if r["policy"] == "hybrid"), "-")
    fig.suptitle(f"Zhou Fig 12, SIMULATED on xc40-dragonfly (BPMF skeleton): {r0['train']}, K = {r0['K']}, "
                 f"{'/'.join(sorted({r['iterations'] for r in rows}, key=int))} iterations (per-iteration time), hybrid sync {sync}",
                 fontsize=10)
    fig.tight_layout()
    out = a.out or os.path.splitext(a.csv)[0] + ".png"
    fig.savefig(out, dpi=120)
    print("wrote", out)


main()
