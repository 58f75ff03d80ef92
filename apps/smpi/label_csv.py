#!/usr/bin/env python3
"""Appends an SMPI run's CSV rows to a results CSV, labelled as simulated.

usage: label_csv.py SRC OUT key=value... [--scale N/K | --scale auto]

Each key=value becomes a leading column (kind=simulated, machine, platform, ...).
--scale N/K adds time_s_scaled, bcast_s_scaled, dgemm_s_scaled = value * N / K (only
the first K of N identical SUMMA steps were simulated); --scale auto takes N/K = k / k_run
from each row (hympi-summa --max-steps writes k_run). An OUT with other columns is
not appended to, so nothing already written is mixed up: the rows go to the first of
OUT-stem.new-columns.csv, ...new-columns-2.csv, ... that is new or has their columns (a
simulation's rows are never lost), and the exit status is 3.
"""
import csv
import os
import sys

args = sys.argv[1:]
scale = None
if "--scale" in args:
    i = args.index("--scale")
    if args[i + 1] == "auto":
        scale = "auto"
    else:
        num, den = args[i + 1].split("/")
        scale = int(num) / int(den)
    del args[i:i + 2]
src, out, pairs = args[0], args[1], args[2:]
extra = dict(p.split("=", 1) for p in pairs)
rows = list(csv.DictReader(open(src)))
# A killed run may leave its last line cut short: drop it rather than write a wrong row.
whole = [r for r in rows if None not in r and None not in r.values()]
if len(whole) < len(rows):
    print(f"label_csv.py: dropped {len(rows) - len(whole)} incomplete row(s) of {src}", file=sys.stderr)
rows = whole
if not rows:
    sys.exit(f"label_csv.py: no rows in {src}")
scaled = ["time_s", "bcast_s", "dgemm_s"] if scale is not None else []
cols = list(extra) + list(rows[0].keys()) + [c + "_scaled" for c in scaled]


def header_of(path):
    """None for a missing or empty file, else its first row."""
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return None
    with open(path, newline="") as f:
        return next(csv.reader(f), None)


status = 0
if header_of(out) not in (None, cols):
    asked, stem = out, out[:-4] if out.endswith(".csv") else out
    n = 1
    while header_of(out) not in (None, cols):
        out = f"{stem}.new-columns{'' if n == 1 else f'-{n}'}.csv"
        n += 1
    print(f"label_csv.py: error: {asked} has other columns (an older format?); these rows went to "
          f"{out} instead: rename or merge it by hand", file=sys.stderr)
    status = 3
new = header_of(out) is None
with open(out, "a", newline="") as f:
    w = csv.DictWriter(f, fieldnames=cols)
    if new:
        w.writeheader()
    for r in rows:
        r.update(extra)
        factor = float(r["k"]) / float(r["k_run"]) if scale == "auto" else scale
        for c in scaled:
            r[c + "_scaled"] = f"{float(r[c]) * factor:.9g}"
        w.writerow(r)
print(f"{len(rows)} simulated rows -> {out}")
sys.exit(status)
