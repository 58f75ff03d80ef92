#!/usr/bin/env python3
"""The committed thesis Fig 4.5 CSV (results/model) is what today's model computes from the
inventory's command: a model change without the CSV regenerated fails here (< 1 s)."""
import csv
import io
import os
import shlex
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CSV = "results/model/thesis-fig4_5-exascale.csv"


def inventory_command():
    with open(os.path.join(ROOT, "results/figures.csv"), newline="") as f:
        row = next(r for r in csv.DictReader(f) if r["paper"] == "thesis" and r["number"] == "Fig 4.5")
    cmd = next(c.strip() for c in row["command"].split(";") if "hympi-model" in c)
    return shlex.split(cmd)


def main():
    args = inventory_command()
    out = args.index("--csv") + 1
    if args[out] != CSV:
        sys.exit(f"FAILED: the inventory's command writes {args[out]}, not {CSV}")
    with tempfile.TemporaryDirectory() as tmp:
        args[out] = os.path.join(tmp, "fig4_5.csv")
        args[0] = os.path.join(ROOT, args[0])
        subprocess.run([sys.executable] + args, check=True, stdout=subprocess.DEVNULL)
        with open(args[out]) as f:
            fresh = f.read()
    with open(os.path.join(ROOT, CSV)) as f:
        committed = f.read()
    if fresh != committed:
        diff = [(a, b) for a, b in zip(io.StringIO(committed), io.StringIO(fresh)) if a != b]
        sys.exit(f"FAILED: {CSV} is not what the model computes today; first difference:\n"
                 f"  committed {diff[0][0] if diff else '(lengths differ)'}  today     {diff[0][1] if diff else ''}")
    print(f"{CSV}: {committed.count(chr(10)) - 1} rows, as the model computes them today")


if __name__ == "__main__":
    main()
