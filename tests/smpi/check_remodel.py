#!/usr/bin/env python3
"""The committed grouped-broadcast rows' model_s are today's groups = auto closed form: every point of
the run-hier-bcast.sh CSVs with a model_s column is recomputed (run-hier-bcast.sh --remodel, with the
row's own settings, no simulation) on a copy whose model_s were blanked, and must equal the committed
value. A change of lib/src/grouped/auto_groups.cpp or torus_terms.cpp that moves a prediction fails
here until the rows are remodelled (and the auto rows re-simulated if the pick moved).
Graphene rows are remodelled with their own ranks_per_node (--cores): the machine the form was fed.
usage: check_remodel.py MODEL_BIN [CSV ...]   (default: results/simulated/*hier-bcast*.csv with model_s)"""
import csv
import glob
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "apps", "smpi", "run-hier-bcast.sh")


def main(argv):
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    tool, paths = argv[0], argv[1:] or sorted(glob.glob(os.path.join(ROOT, "results", "simulated", "*hier-bcast*.csv")))
    checked = 0
    bad = []
    for path in paths:
        rows = list(csv.DictReader(open(path, newline="")))
        if not rows or "model_s" not in rows[0] or "sharing" not in rows[0]:
            continue  # legacy columns: no fidelity settings to rebuild the machine from
        with tempfile.TemporaryDirectory() as tmp:
            copy = os.path.join(tmp, os.path.basename(path))
            with open(copy, "w", newline="") as f:
                w = csv.DictWriter(f, fieldnames=list(rows[0]))
                w.writeheader()
                w.writerows(dict(r, model_s="") for r in rows)
            points = {(r["machine"], r["placement"], r["ranks"], r["bytes"], r["sharing"], r["overheads"],
                       r["eager_bytes"], r["bcast"], r["ring_merge"], r.get("ranks_per_node", "")) for r in rows}
            for m, pl, p, b, sh, ov, eager, bc, merge, per_node in sorted(points):
                cmd = [SCRIPT, "--remodel", "--model-bin", tool, "--out", copy, "--machine", m, "--placement", pl,
                       "--ranks", p, "--bytes", b, "--sharing", sh, "--overheads", ov, "--eager-bytes", eager,
                       "--bcast", bc, "--ring-merge", merge]
                # The machine the form was fed: Graphene rows say their ranks per node (--cores 1: one per node).
                cmd += ["--cores", per_node] if per_node else []
                env = {k: v for k, v in os.environ.items() if not k.startswith("HYMPI_MODEL_")}  # the script's machine
                run = subprocess.run(cmd, capture_output=True, text=True, env=env)
                if run.returncode != 0:
                    bad.append(f"{' '.join(cmd[1:])}: exit {run.returncode}: {run.stderr.strip()}")
                elif "re-simulate" in run.stdout:
                    bad.append(f"{path} {m} {p} {b} {bc}: {run.stdout.strip().splitlines()[-1]}")
            fresh = list(csv.DictReader(open(copy, newline="")))
        for old, new in zip(rows, fresh):
            checked += 1
            where = f"{os.path.basename(path)} {old['machine']} {old['ranks']} ranks {old['bytes']} B {old['fidelity']} " \
                    f"G = {old['asked']}->{old['groups']}"
            if not new["model_s"] or not old["model_s"] or abs(float(new["model_s"]) - float(old["model_s"])) > \
                    1e-6 * float(old["model_s"] or 1):
                bad.append(f"{where}: committed model_s {old['model_s'] or '-'}, today's form {new['model_s'] or '-'}")
    if bad:
        print("check_remodel: " + "\n  ".join(bad), file=sys.stderr)
        print("(run apps/smpi/run-hier-bcast.sh --remodel for the point, and re-simulate a moved auto row)",
              file=sys.stderr)
        return 1
    if checked == 0:
        print("check_remodel: no rows with model_s and fidelity settings", file=sys.stderr)
        return 2
    print(f"check_remodel: {checked} committed rows' model_s equal today's closed form")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
