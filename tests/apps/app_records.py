#!/usr/bin/env python3
"""One app end to end through the apps' shared layer (apps/common): --help exits 0
and lists the shared option groups; a tiny run appends a CSV whose columns start
with the run metadata and whose values say what the problem options meant (-m -n -k
-N -b -M --grid: one meaning in every app); a usage error exits 2 with one message
naming the problem. Usage: app_records.py <work dir> <launcher... app>"""
import csv
import os
import re
import subprocess
import sys

METADATA = ["date", "host", "mpi", "blas", "git", "ranks", "nodes", "ranks_per_node", "layout"]

# Per app: the groups --help shows, a tiny run's arguments and the values its rows
# must hold, and a usage error with the words its message must contain.
CASES = {
    "hympi-summa": dict(
        groups=["Problem", "Node layout", "Output"],
        runs=[(["-m", "8", "-n", "12", "-k", "4", "-b", "4", "--reps", "1", "--warmup", "0", "--no-reference-dgemm",
                "--alg", "summa,hsumma", "--check", "serial"],
               {"m": "8", "n": "12", "k": "4", "b": "4", "M": "4", "P": "1", "Q": "1"}),
              (["-N", "16", "-n", "3", "-b", "4", "-M", "8", "--reps", "1", "--warmup", "0", "--no-reference-dgemm",
                "--alg", "hsumma"], {"m": "16", "n": "16", "k": "16", "M": "8", "algorithm": "hsumma"})],
        bad=(["-b", "4", "-M", "6"], "M=6 must be a multiple of the inner block size b=4")),
    "hympi-auto-groups": dict(
        groups=["Problem", "Node layout", "Output"],
        runs=[(["-m", "64", "-n", "32", "-k", "48", "-b", "8", "--reps", "1"],
               {"m": "64", "n": "32", "k": "48", "b": "8", "M": "8", "P": "1", "Q": "1", "policy": "pure",
                "chosen": "1"})],
        bad=(["--grid", "1x2"], "the grid 1x2 has 2 ranks but the communicator has 1")),
    "hympi-pdgemm-auto": dict(
        groups=["Problem", "Node layout", "Output"],
        runs=[(["-m", "1000", "-n", "2000", "-k", "3000", "-b", "100", "-M", "200", "--grid", "2x2"],
               {"m": "1000", "n": "2000", "k": "3000", "b": "100", "M": "200", "P": "2", "Q": "2",
                "bcast": "vandegeijn"})],
        bad=(["-b", "0"], "the inner block size b must be >= 1")),
    "hympi-pdgemm-bench": dict(
        groups=["Problem", "Node layout", "Output"],
        runs=[(["-N", "24", "--nb", "4", "--reps", "1", "--warmup", "0", "--check"],
               {"n": "24", "nb": "4", "grid": "1x1", "check": "ok"})],
        bad=(["-n", "24"], "-n")),  # square problems only: -n (n alone) is not one of its options
    "hympi-dgemm-bench": dict(
        groups=["Problem", "Node layout", "Output"],
        runs=[(["-m", "8", "-n", "16", "-k", "4", "--min-time", "0.001"], {"m": "8", "n": "16", "k": "4"}),
              (["-N", "5", "--min-time", "0.001"], {"m": "5", "n": "5", "k": "5"})],
        bad=(["-m", "8"], r"matrix sizes must be positive \(m=8, n=0, k=0\)")),
    "hympi-bpmf-synth": dict(
        groups=["Node layout", "Output"],
        runs=[(["--rows", "30", "--cols", "20", "--train", "{work}/t.mm", "--test", "{work}/s.mm"],
               {"rows": "30", "cols": "20", "train": "{work}/t.mm"})],
        bad=(["--train", "{work}/missing/t.mm"], "cannot open")),
}


def fail(message):
    print("FAILED:", message)
    sys.exit(1)


def main(argv):
    work, command = argv[1], argv[2:]
    app = os.path.basename(command[-1])
    case = CASES.get(app) or fail(f"no case for {app}")
    os.makedirs(work, exist_ok=True)
    fill = lambda args: [a.replace("{work}", work) for a in args]

    out = subprocess.run(command + ["--help"], capture_output=True, text=True, timeout=60)
    if out.returncode != 0:
        fail(f"{app} --help exited {out.returncode}")
    for group in case["groups"]:
        if f"\n{group}:" not in out.stdout:
            fail(f"{app} --help has no '{group}:' options")

    for i, (args, want) in enumerate(case["runs"]):
        path = os.path.join(work, f"{app}-{i}.csv")
        if os.path.exists(path):
            os.remove(path)
        out = subprocess.run(command + fill(args) + ["--csv", path], capture_output=True, text=True, timeout=120)
        if out.returncode != 0:
            fail(f"{app} {' '.join(args)} exited {out.returncode}:\n{out.stdout}{out.stderr}")
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
            f.seek(0)
            header = next(csv.reader(f))
        if header[:len(METADATA)] != METADATA:
            fail(f"{app}: the CSV starts {header[:len(METADATA)]}, not the run metadata {METADATA}")
        if not rows:
            fail(f"{app} {' '.join(args)}: no rows")
        for row in rows:
            for column, value in want.items():
                if row.get(column) != value.replace("{work}", work):
                    fail(f"{app} {' '.join(args)}: column {column} is {row.get(column)!r}, not {value!r}")
        print(f"{app} {' '.join(args)}: {len(rows)} rows ok")

    args, words = case["bad"]
    out = subprocess.run(command + fill(args), capture_output=True, text=True, timeout=60)
    text = out.stdout + out.stderr
    if out.returncode != 2 or not re.search(words.replace("{work}", re.escape(work)), text):
        fail(f"{app} {' '.join(args)}: exit {out.returncode}, want 2 and '{words}' in:\n{text}")
    print(f"{app} {' '.join(args)}: exit 2 ok")
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
