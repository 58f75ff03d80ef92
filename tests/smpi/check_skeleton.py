#!/usr/bin/env python3
"""The skeleton's rows against hympi-summa's (tests/smpi/skeleton_test.sh).

usage: check_skeleton.py APP.csv SKELETON.csv STEPS

APP.csv from run-sweep.sh, SKELETON.csv from run-skeleton.sh with the same options. Every
app row has a skeleton step_basis=barrier row, in the same order, whose simulated numbers
are the same strings (the same printed digits) and whose labels agree; every skeleton
multiply has STEPS mark rows, rising, the last one not above its barrier-closed time and
with its broadcast and dgemm sums."""
import csv
import sys

SAME = ["algorithm", "policy", "m", "n", "k", "max_steps", "k_run", "P", "Q", "I", "J", "b", "M", "time_s", "bcast_s",
        "sync_s", "dgemm_s", "outer_bcasts", "inner_bcasts", "kind", "machine", "platform", "smpi_bcast",
        "k_simulated", "k_full", "sweep_process", "time_s_scaled", "bcast_s_scaled", "dgemm_s_scaled"]
FIDELITY = ["fidelity", "sharing", "overheads", "eager_bytes", "bcast", "ring_merge", "placement"]  # where written


def main(app_csv, skeleton_csv, steps):
    app = list(csv.DictReader(open(app_csv)))
    rows = list(csv.DictReader(open(skeleton_csv)))
    barrier = [r for r in rows if r["step_basis"] == "barrier"]
    errors = []
    if not app or len(app) != len(barrier):
        errors.append(f"{len(app)} app rows but {len(barrier)} skeleton multiplies")
    for a, s in zip(app, barrier):
        what = f"{a['algorithm']} {a['I']}x{a['J']} {a['smpi_bcast']} P={a['ranks']}"
        columns = SAME + [c for c in FIDELITY if c in a or c in s]
        differ = [f"{c}: app {a.get(c)} skeleton {s.get(c)}" for c in columns if a.get(c) != s.get(c)]
        errors += [f"{what}: {d}" for d in differ]
        print(f"{what}: app {a['time_s']} s, skeleton {s['time_s']} s" + (" DIFFER" if differ else " equal"))
    for i, s in enumerate(barrier):  # a multiply's mark rows follow its barrier row
        start = rows.index(s)
        marks = rows[start + 1:start + 1 + steps]
        what = f"{s['algorithm']} {s['I']}x{s['J']} marks"
        if [m["step_basis"] for m in marks] != ["mark"] * steps or [int(m["max_steps"]) for m in marks] != list(
                range(1, steps + 1)):
            errors.append(f"{what}: not steps 1..{steps} after the multiply's row")
            continue
        times = [float(m["time_s"]) for m in marks]
        if times != sorted(times) or not 0 < times[-1] <= float(s["time_s"]):
            errors.append(f"{what}: {times} not rising up to the multiply's {s['time_s']} s")
        if (marks[-1]["bcast_s"], marks[-1]["dgemm_s"]) != (s["bcast_s"], s["dgemm_s"]):
            errors.append(f"{what}: the last mark's sums differ from the multiply's")
    for e in errors:
        print("FAIL:", e)
    return 1 if errors else 0


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2], int(sys.argv[3])))
