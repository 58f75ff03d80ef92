#!/usr/bin/env python3
"""step_slope.py: SUMMA/HSUMMA times extrapolated from a slope, with the 1-step
scaling checked against it.

A step-limited simulation (hympi-summa --max-steps S) runs the first S of the
n/b panel steps. Scaling one step by n/b (time_s_scaled) assumes every step costs
the same, including the first, which also pays the pipeline's fill. Here two runs
of the same configuration with S1 < S2 steps give the per-step slope
(T(S2) - T(S1)) / (k_run(S2) - k_run(S1)), and the full multiply is
T(S2) + (k - k_run(S2)) x slope (the fill is counted once). A 1-step scaling of
the same configuration, when there is one, is accepted only within --tolerance
(default 3%) of it.

usage: step_slope.py IN.csv --out OUT.csv [--steps 2,4] [--tolerance 0.03] [--check]
  IN.csv   rows labelled by run-sweep.sh (max_steps, k_run, time_s, ...) on ONE platform, runs with
           --steps S1, S2 and optionally 1 of the same configurations; or run-skeleton.sh's rows:
           its barrier rows as run-sweep.sh's, its step marks (step_basis=mark) from ONE run of
           S2 or more steps (each run's marks a configuration of their own)
  OUT.csv  one row per configuration: the S2 row with time_s_scaled, bcast_s_scaled,
           dgemm_s_scaled replaced by the slope extrapolation, and the columns
           steps_fit, one_step_scaled_s, one_step_vs_slope, one_step_accepted
  --check  exit 1 when a 1-step scaling is off by more than the tolerance
"""
import argparse
import csv
import sys

TIMES = ["time_s", "bcast_s", "dgemm_s"]
# Columns that name a configuration (a run's step count and results are not among them).
KEY = ["machine", "smpi_bcast", "ranks", "algorithm", "policy", "sync", "m", "n", "k", "P", "Q", "I", "J",
       "b", "M"]
# Columns only some rows have: run-sweep.sh --eager-bytes and the fidelity settings; run-skeleton.sh's
# app and step_basis (its barrier rows are runs like run-sweep.sh's, its mark rows the step marks of one run).
OPTIONAL_KEY = ["eager_bytes", "fidelity", "app", "step_basis"]


def configuration(row):
    """The configuration a row belongs to; step marks also by their run (k_simulated): a slope
    from marks takes both step counts from one run."""
    key = tuple(row.get(c, "") for c in KEY + OPTIONAL_KEY)
    return key + (row.get("k_simulated", ""),) if row.get("step_basis") == "mark" else key
EXTRA = ["steps_fit", "one_step_scaled_s", "one_step_vs_slope", "one_step_accepted"]


def extrapolate(rows, low, high, tolerance):
    """One output row per configuration that has runs of `low` and `high` steps."""
    runs = {}
    for r in rows:
        runs.setdefault(configuration(r), {})[int(r["max_steps"] or 0)] = r
    out = []
    for by_steps in runs.values():
        if low not in by_steps or high not in by_steps:
            continue
        a, z = by_steps[low], by_steps[high]
        k, ka, kz = float(z["k"]), float(a["k_run"]), float(z["k_run"])
        row = dict(z)
        for c in TIMES:
            slope = (float(z[c]) - float(a[c])) / (kz - ka)
            row[c + "_scaled"] = f"{float(z[c]) + (k - kz) * slope:.9g}"
        row["steps_fit"] = f"{low},{high}"
        one = by_steps.get(1)
        if one is None:
            row.update(one_step_scaled_s="", one_step_vs_slope="", one_step_accepted="")
        else:
            scaled = float(one["time_s"]) * k / float(one["k_run"])
            diff = scaled / float(row["time_s_scaled"]) - 1
            row.update(one_step_scaled_s=f"{scaled:.9g}", one_step_vs_slope=f"{diff:+.4f}",
                       one_step_accepted=str(int(abs(diff) <= tolerance)))
        out.append(row)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description="Extrapolate step-limited SUMMA/HSUMMA simulations from a slope.")
    ap.add_argument("input")
    ap.add_argument("--out", required=True)
    ap.add_argument("--steps", default="2,4", help="the two step counts of the slope (default 2,4)")
    ap.add_argument("--tolerance", type=float, default=0.03, help="accepted 1-step error (default 0.03)")
    ap.add_argument("--check", action="store_true", help="exit 1 when a 1-step scaling is outside the tolerance")
    a = ap.parse_args(argv)
    try:
        low, high = sorted(int(s) for s in a.steps.split(","))
    except ValueError:
        ap.error(f"--steps wants two step counts such as 2,4, got '{a.steps}'")
    if not 0 < low < high:
        ap.error(f"--steps wants two different positive step counts, got '{a.steps}'")
    with open(a.input) as f:
        rows = list(csv.DictReader(f))
    missing = [c for c in KEY + TIMES + ["max_steps", "k_run"] if rows and c not in rows[0]]
    if not rows or missing:
        sys.exit(f"step_slope.py: {a.input} has no rows or lacks columns {missing}")
    out = extrapolate(rows, low, high, a.tolerance)
    if not out:
        sys.exit(f"step_slope.py: no configuration of {a.input} has runs of both {low} and {high} steps")
    with open(a.out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(out[0].keys()))
        w.writeheader()
        w.writerows(out)
    bad = [r for r in out if r["one_step_accepted"] == "0"]
    for r in out:
        print(f"{r['algorithm']} G={int(r['I']) * int(r['J'])}: slope {r['time_s_scaled']} s"
              + (f", 1 step {r['one_step_scaled_s']} s ({r['one_step_vs_slope']})" if r["one_step_scaled_s"] else ""))
    print(f"{len(out)} rows -> {a.out}; {len(bad)} 1-step scaling(s) outside {a.tolerance:.0%}")
    return 1 if a.check and bad else 0


if __name__ == "__main__":
    sys.exit(main())
