#!/usr/bin/python3
"""Thesis Fig 3.6, right panel, simulated: the speedup of the hierarchical broadcast over the
flat one on 6142 BG/P cores, 1 kB - 16 MB, under BG/P's native rule (DCMF as the simulated
layer builds it) and MPICH's (binomial below 12 kB, scatter-ring-allgather = SRGA above at
6142 ranks). Speedup = the flat MPI_Bcast's time / the best swept G > 1's (the curve: below 1
the hierarchy loses), and / the core's groups = auto's (dashed: auto may keep G = 1). Rows of apps/smpi/run-hier-bcast.sh --ranks 6142 --bytes LIST
(SimGrid SMPI, BG/P's faithful set; the MPICH rows with ring merge 16), with the 512 KiB rows of
bgp-hier-bcast-fidelity.csv (Figs 3.4/3.5, the same settings).

usage: plot_bgp_fig3_6_right.py [--csv FILE ...] [--ranks P] [--out FILE]
"""
import argparse
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # results/plotlib.py
from plotlib import plt, read_rows  # noqa: E402

HERE = os.path.dirname(os.path.realpath(__file__))
# The sweep's rows, and the 512 KiB rows of Figs 3.4/3.5 at the same settings (run-hier-bcast.sh's default CSV).
CSVS = [os.path.join(HERE, "bgp-thesis-fig3_6-bcast-6142.csv"), os.path.join(HERE, "bgp-hier-bcast-fidelity.csv")]
PNG = os.path.join(HERE, "bgp-thesis-fig3_6-bcast-6142.png")


def speedups(rows, ranks):
    """{rule: {bytes: (best G, flat / best, flat / auto)}} of the rows of `ranks` ranks."""
    times = collections.defaultdict(dict)  # (rule, bytes) -> asked -> (G used, s)
    for r in rows:
        if r["ranks"] == ranks:
            times[(r["bcast"], int(r["bytes"]))][r["asked"]] = (int(r["groups"]), float(r["time_s"]))
    out = collections.defaultdict(dict)
    for (rule, size), t in times.items():
        if "1" not in t:
            continue
        flat = t["1"][1]
        swept = {a: v for a, v in t.items() if a not in ("auto", "1")}  # the hierarchy's best G (may lose)
        if not swept:
            continue
        best = min(swept, key=lambda a: swept[a][1])
        auto = flat / t["auto"][1] if "auto" in t else None
        out[rule][size] = (swept[best][0], flat / swept[best][1], auto)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--csv", nargs="+", default=CSVS)
    ap.add_argument("--ranks", default="6142", help="the rows' rank count (default 6142, the thesis')")
    ap.add_argument("--out", default=PNG)
    args = ap.parse_args()
    missing = [c for c in args.csv if not os.path.exists(c)]
    if missing:
        sys.exit(f"plot_bgp_fig3_6_right.py: error: no {missing[0]}")
    data = speedups([r for c in args.csv for r in read_rows(c) if r.get("fidelity", "").startswith("faithful")], args.ranks)
    if not data:
        sys.exit(f"plot_bgp_fig3_6_right.py: error: no {args.ranks}-rank rows with G = 1 in {', '.join(args.csv)}")
    names = {"dcmf": "native (DCMF rule)", "mpich": "MPICH rule (SRGA from 12 kB)"}
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for rule, pts in sorted(data.items()):
        sizes = sorted(pts)
        line, = ax.plot(sizes, [pts[s][1] for s in sizes], marker="o", label=f"{names.get(rule, rule)}: best swept G > 1")
        for s in sizes:
            ax.annotate(f"G={pts[s][0]}", (s, pts[s][1]), fontsize=7, textcoords="offset points", xytext=(3, 4))
        auto = [(s, pts[s][2]) for s in sizes if pts[s][2]]
        if auto:
            ax.plot([s for s, _ in auto], [a for _, a in auto], ls="--", marker="x", color=line.get_color(),
                    label=f"{names.get(rule, rule)}: groups = auto")
    ax.axhline(1, color="grey", lw=0.8)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("message size (bytes)")
    ax.set_ylabel("speedup over the flat MPI_Bcast (simulated)")
    ax.legend(fontsize=8)
    ax.set_title(f"thesis Fig 3.6 right (simulated on BG/P, SimGrid): hbcast speedup, p = {args.ranks}", fontsize=10)
    fig.tight_layout()
    fig.savefig(args.out, dpi=120)
    print("wrote", args.out)
    for rule, pts in sorted(data.items()):
        for s in sorted(pts):
            g, sp, auto = pts[s]
            print(f"{rule} {s} B: best G = {g}, {sp:.2f}x; auto {'-' if auto is None else f'{auto:.2f}x'}")


if __name__ == "__main__":
    main()
