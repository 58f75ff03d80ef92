#!/usr/bin/env python3
"""Every chapter-3 simulated CSV row says how many repetitions its time is the minimum of.

The chapter-3 figures (results/simulated/graphene-thesis-fig3_*.csv, bgp-thesis-fig3_6-split*.csv,
written by run-hier-coll.sh and run-split-cost.sh) compare times whose steady state can need several
repetitions (apps/smpi/README.md "The flat reference timed warm"), so a row without `reps` cannot be
judged. Checks the committed CSVs, then that a copy with one `reps` cell blanked, and one without the
column, fail (the check can fail).
usage: ch3_reps_check.py [RESULTS_SIMULATED_DIR]"""
import csv
import glob
import os
import shutil
import sys
import tempfile


def ch3_csvs(d):
    """The chapter-3 CSVs of simulated rows (the chain model's CSV is modelled, not simulated)."""
    files = glob.glob(os.path.join(d, "graphene-thesis-fig3_*.csv")) + glob.glob(os.path.join(d, "bgp-thesis-fig3_6-split*.csv"))
    return sorted(f for f in files if not f.endswith("-chain-model.csv"))


def problems(d):
    found = []
    files = ch3_csvs(d)
    if not files:
        return [f"{d}: no chapter-3 CSV"]
    for f in files:
        with open(f, newline="") as fh:
            rows = list(csv.DictReader(fh))
        if not rows:
            found.append(f"{os.path.basename(f)}: no rows")
        elif "reps" not in rows[0]:
            found.append(f"{os.path.basename(f)}: no reps column")
            continue
        for i, r in enumerate(rows, 2):
            v = r.get("reps") or ""
            if not (v.isdigit() and int(v) >= 1):
                found.append(f"{os.path.basename(f)} line {i}: reps '{v}' is not a count >= 1")
    return found


def main(argv):
    if argv[:1] in (["-h"], ["--help"]):
        print(__doc__)
        return 0
    if len(argv) > 1 or (argv and not os.path.isdir(argv[0])):
        print("ch3_reps_check.py: error: usage ch3_reps_check.py [RESULTS_SIMULATED_DIR] (a directory)", file=sys.stderr)
        return 2
    d = argv[0] if argv else os.path.join(os.path.dirname(__file__), "..", "..", "results", "simulated")
    bad = problems(d)
    for b in bad:
        print(f"ch3_reps_check.py: {b}", file=sys.stderr)
    if bad:
        return 1
    n = len(ch3_csvs(d))
    # Mutations: the check must fail on a blanked cell and on a CSV without the column.
    with tempfile.TemporaryDirectory() as t:
        f = ch3_csvs(d)[0]
        lines = open(f).read().splitlines()
        shutil.copy(f, t)
        copy = os.path.join(t, os.path.basename(f))
        open(copy, "w").write("\n".join(lines[:1] + [lines[1].rsplit(",", 1)[0] + ","] + lines[2:]) + "\n")
        assert problems(t), "a blanked reps cell passed"
        open(copy, "w").write("\n".join(l.rsplit(",", 1)[0] for l in lines) + "\n")
        assert any("no reps column" in p for p in problems(t)), "a CSV without reps passed"
    print(f"ch3 reps: ok, {n} CSVs, every row has reps; a blanked cell and a missing column fail")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
