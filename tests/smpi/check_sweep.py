#!/usr/bin/env python3
"""Checks a simulated SUMMA/HSUMMA sweep CSV (apps/smpi/run-sweep.sh).

usage: check_sweep.py SWEEP_CSV P GROUPS MODEL_DIR [GRID]

What must hold, deterministically, for any P:
- every row is labelled kind=simulated with its platform; every requested G has a row;
- broadcast structure: G = 1 has no outer broadcasts, G = P no inner ones, 1 < G < P both;
- HSUMMA at G = P is SUMMA (same broadcasts on the same communicators, and both are the
  first multiply of their process) to 1e-9; in a one-process sweep (run-sweep.sh
  --one-process, column sweep_process=one) every multiply after the first starts from
  the previous one's barrier skew, so there it must agree to 2% like G = 1;
- HSUMMA at G = 1 runs second in SUMMA's process: the same broadcasts, but its starting
  barrier leaves the ranks with another skew (seen in sync_s), so it must agree to 2%
  (bit-equal at 64 ranks, 1.1% apart at 1024);
- the alpha-beta model CSV of the same configuration was written;
- with GRID (PxQ, e.g. a non-square 4x8), every row ran on that grid.
"""
import csv
import glob
import sys

path, P, groups, model_dir = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
rows = list(csv.DictReader(open(path)))
assert rows and all(r["kind"] == "simulated" and r["platform"] for r in rows), "rows not labelled simulated"
by = {(r["algorithm"], int(r["I"]) * int(r["J"])): r for r in rows}
wanted = [int(g) for g in groups.split(",")]
missing = [g for g in wanted if ("hsumma", g) not in by]
assert not missing and ("summa", 1) in by, f"no rows for G = {missing} (or SUMMA)"

for G in wanted:
    r = by[("hsumma", G)]
    outer, inner = int(r["outer_bcasts"]), int(r["inner_bcasts"])
    expect = (outer == 0) if G == 1 else (inner == 0) if G == P else (outer > 0 and inner > 0)
    assert expect, f"G={G}: outer/inner broadcasts {outer}/{inner} do not fit the grouping"
    assert 0 < float(r["bcast_s"]) < float(r["time_s"]), f"G={G}: broadcast time outside (0, total)"

summa = float(by[("summa", 1)]["time_s"])
assert summa > 0
at_p = float(by[("hsumma", P)]["time_s"])
one_process = rows[0].get("sweep_process") == "one"
tolerance = 0.02 if one_process else 1e-9
assert abs(at_p - summa) <= tolerance * summa, f"HSUMMA G=P took {at_p} s, SUMMA {summa} s (tolerance {tolerance})"
if 1 in wanted:
    at_1 = float(by[("hsumma", 1)]["time_s"])
    assert abs(at_1 - summa) <= 0.02 * summa, f"HSUMMA G=1 took {at_1} s, SUMMA {summa} s (> 2% apart)"
assert glob.glob(model_dir + "/*.model-*.csv"), "no model CSV"
if len(sys.argv) > 5:
    grids = {f"{r['P']}x{r['Q']}" for r in rows}
    assert grids == {sys.argv[5]}, f"rows ran on the grids {grids}, not {sys.argv[5]}"

times = {g: float(by[("hsumma", g)]["time_s"]) for g in wanted}
best = min(times, key=times.get)
print(f"P={P}: SUMMA {summa:.6g} s; HSUMMA " + ", ".join(f"G={g}: {t:.6g}" for g, t in times.items())
      + f"; best G={best} ({summa / times[best]:.3f}x)")
