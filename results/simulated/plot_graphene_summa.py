#!/usr/bin/python3
"""Thesis Figs 4.10 and 4.11 on the simulated Graphene (apps/smpi/run-skeleton.sh --machine
graphene-*, extrapolated by apps/smpi/step_slope.py): SUMMA and HSUMMA time over the number
of groups G, p = 128, n = 8192. Fig 4.10: Open MPI's broadcast (SimGrid's ompi selector) on
Gigabit Ethernet and 20G InfiniBand, b = M = 256; Fig 4.11: MPICH's rule (the simulated
layer's) on Gigabit Ethernet, b = M = 64 and 256. Simulated, not measured.

usage: plot_graphene_summa.py [--dir DIR]   (reads thesis-fig4_1{0,1}-*-slope.csv there)
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # results/plotlib.py
from plotlib import plt, read_rows  # noqa: E402

HERE = os.path.dirname(os.path.realpath(__file__))


def curve(rows):
    """(G, seconds) of HSUMMA sorted by G, and SUMMA's seconds (the extrapolated full multiply)."""
    summa = next(float(r["time_s_scaled"]) for r in rows if r["algorithm"] == "summa")
    hs = sorted((int(r["I"]) * int(r["J"]), float(r["time_s_scaled"])) for r in rows if r["algorithm"] == "hsumma")
    return hs, summa


def panel(ax, rows, label):
    hs, summa = curve(rows)
    line, = ax.plot([g for g, _ in hs], [t for _, t in hs], "-o", ms=3, label=f"HSUMMA, {label}")
    ax.axhline(summa, color=line.get_color(), ls=":", lw=0.9, label=f"SUMMA, {label}")
    best = min(hs, key=lambda p: p[1])
    print(f"{label}: SUMMA {summa:.3f} s, best HSUMMA {best[1]:.3f} s at G = {best[0]} "
          f"({100 * (1 - best[1] / summa):.1f}% less, {summa / best[1]:.2f}x)")


def figure(paths_labels, title, out):
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for path, label in paths_labels:
        panel(ax, read_rows(path), label)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("groups G")
    ax.set_ylabel("time [s] (simulated, slope of 2 and 4 steps)")
    ax.set_title(title, fontsize=8)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)
    print("wrote", out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", default=HERE)
    d = ap.parse_args().dir
    fig410 = [(os.path.join(d, "thesis-fig4_10-graphene-gige-slope.csv"), "GigE"),
              (os.path.join(d, "thesis-fig4_10-graphene-ib-slope.csv"), "InfiniBand")]
    fig411 = [(os.path.join(d, "thesis-fig4_11-graphene-gige-mpich-b64-slope.csv"), "b = M = 64"),
              (os.path.join(d, "thesis-fig4_11-graphene-gige-mpich-b256-slope.csv"), "b = M = 256")]
    for paths, title, png in (
            (fig410, "thesis Fig 4.10, simulated: Graphene, SimGrid's ompi broadcast, p = 128 (8x16), n = 8192, "
                     "b = M = 256", "thesis-fig4_10-graphene.png"),
            (fig411, "thesis Fig 4.11, simulated: Graphene GigE, MPICH's rule, p = 128 (8x16), n = 8192",
             "thesis-fig4_11-graphene-mpich.png")):
        have = [(p, l) for p, l in paths if os.path.exists(p)]
        if have:
            figure(have, title, os.path.join(d, png))
        else:
            print(f"plot_graphene_summa.py: no CSV for {png}, skipped", file=sys.stderr)


if __name__ == "__main__":
    main()
