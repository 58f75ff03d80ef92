#!/usr/bin/env python3
"""The thesis' BG/P numbers beside the simulated ones (make_platform.py bgp), one row per
check, from the committed CSVs: the hierarchical broadcast (run-hier-bcast.sh: best G's gain
over the flat broadcast per rank count) and SUMMA/HSUMMA (step_slope.py outputs of run-sweep.sh
--machine bgp: SUMMA total, its communication = total - compute, the best G's total and
communication gains). Communication is the thesis' definition: total minus the local updates.
The basis column says what each number rests on (a slope of 2 and 4 steps, or one
simulated broadcast).
usage: bgp_checks.py [--out results/simulated/bgp-thesis-checks.csv]
"""
import argparse
import csv
import glob
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SIM = os.path.join(ROOT, "results", "simulated")

# (check, ranks, paper value, relative tolerance); thesis Fig 4.6/4.7 and its broadcast section.
PAPER = {("bcast_gain", 2048): (1.87, 0.25), ("bcast_gain", 6142): (3.09, 0.25),
         ("summa_total_s", 16384): (50.2, 0.15), ("summa_comm_s", 16384): (34.9, 0.20),
         ("hsumma_gain_total", 16384): (2.36, 0.20), ("hsumma_gain_comm", 16384): (5.89, 0.20),
         ("hsumma_gain_total", 2048): (1.2, 0.20), ("hsumma_gain_comm", 2048): (2.08, 0.20),
         ("hsumma_gain_total", 1024): (1.0, 0.05)}


def bcast_rows():
    rows = list(csv.DictReader(open(os.path.join(SIM, "bgp-hier-bcast.csv"))))
    for placement, ranks in sorted({(r["placement"], int(r["ranks"])) for r in rows}):
        mine = [r for r in rows if int(r["ranks"]) == ranks and r["placement"] == placement]
        best = max(mine, key=lambda r: float(r["gain"]))
        yield "bcast_gain", ranks, float(best["gain"]), "simulated once", f"G={best['groups']}, {best['bytes']} B, {placement}"


def summa_rows():
    for path in sorted(glob.glob(os.path.join(SIM, "bgp-step-slope-*.csv"))):
        rows = list(csv.DictReader(open(path)))
        basis = "slope 2,4 steps"
        summa = next(r for r in rows if r["algorithm"] == "summa")
        ranks, n = int(summa["ranks"]), summa["n"]
        total = float(summa["time_s_scaled"])
        compute = float(summa["dgemm_s_scaled"])
        eager = f", eager < {summa['eager_bytes']} B" if summa.get("eager_bytes") else ""
        where = f"n={n}, b={summa['b']}, {summa['placement']}{eager}, {os.path.basename(path)}"
        yield "summa_total_s", ranks, total, basis, where
        yield "summa_comm_s", ranks, total - compute, basis, where
        groups = [r for r in rows if r["algorithm"] == "hsumma" and 1 < int(r["I"]) * int(r["J"]) < ranks]
        if not groups:
            continue
        best = min(groups, key=lambda r: float(r["time_s_scaled"]))
        g = int(best["I"]) * int(best["J"])
        best_total = float(best["time_s_scaled"])
        yield "hsumma_gain_total", ranks, total / best_total, basis, f"best G={g}, {where}"
        yield "hsumma_gain_comm", ranks, (total - compute) / (best_total - compute), basis, f"best G={g}, {where}"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(SIM, "bgp-thesis-checks.csv"))
    a = ap.parse_args(argv)
    with open(a.out, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["kind", "machine", "check", "ranks", "simulated", "paper", "tolerance", "within", "basis", "where"])
        for check, ranks, value, basis, where in list(bcast_rows()) + list(summa_rows()):
            paper, tol = PAPER.get((check, ranks), (None, None))
            within = "" if paper is None else ("yes" if abs(value - paper) <= tol * paper else "no")
            w.writerow(["simulated", "bgp", check, ranks, f"{value:.4g}", paper if paper else "", tol or "", within,
                        basis, where])
            print(f"{check:18s} p={ranks:5d} simulated {value:8.4g}" +
                  (f"  paper {paper} (+-{tol:.0%}): {within}" if paper else "") + f"  [{basis}; {where}]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
