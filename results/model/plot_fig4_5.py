#!/usr/bin/python3
"""Thesis Fig 4.5 (the exascale prediction): SUMMA and HSUMMA communication time over the
number of groups G from the alpha-beta model (apps/model/hympi-model), p = 2^20,
n = 2^22, b = M = 256, 500 ns, 100 GB/s, 10^18 flop/s in total; one curve per broadcast
model, the thesis' van de Geijn (scatter-allgather) one marked. Modelled, not measured.

usage: plot_fig4_5.py [--csv CSV] [--out PNG]   (defaults: thesis-fig4_5-exascale.csv here)
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # results/plotlib.py
from plotlib import plt, read_rows  # noqa: E402

HERE = os.path.dirname(os.path.realpath(__file__))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--csv", default=os.path.join(HERE, "thesis-fig4_5-exascale.csv"))
    ap.add_argument("--out", default=os.path.join(HERE, "thesis-fig4_5-exascale.png"))
    a = ap.parse_args()
    rows = read_rows(a.csv)
    if not rows:
        sys.exit(f"plot_fig4_5.py: error: no rows in {a.csv}")
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for bcast in sorted({r["bcast"] for r in rows}):
        hs = sorted((int(r["G"]), float(r["t_comm"])) for r in rows if r["bcast"] == bcast and r["algorithm"] == "hsumma")
        summa = next(float(r["t_comm"]) for r in rows if r["bcast"] == bcast and r["algorithm"] == "summa")
        style = "-o" if bcast == "vandegeijn" else "--."
        line, = ax.plot([g for g, _ in hs], [t for _, t in hs], style, ms=3,
                        label=f"HSUMMA, {bcast}" + (" (the thesis' model)" if bcast == "vandegeijn" else ""))
        ax.axhline(summa, color=line.get_color(), lw=0.8, ls=":", label=f"SUMMA, {bcast}")
    r0 = rows[0]
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("groups G")
    ax.set_ylabel("communication time [s] (modelled)")
    ax.set_title(f"thesis Fig 4.5, modelled: p = {r0['p']}, n = {r0['n']}, b = M = {r0['b']}, "
                 f"alpha = {float(r0['alpha']) * 1e9:g} ns, {1 / float(r0['beta']) / 1e9:g} GB/s", fontsize=9)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(a.out, dpi=120)
    print("wrote", a.out)


if __name__ == "__main__":
    main()
