#!/usr/bin/python3
"""Rerun every flat (G = 1) row of the committed chapter-3 Graphene CSVs alone, with the probe's
untimed warm-up run, and compare it with the committed time.

Why: until 2026-11-29 hympi-smpi-hier-coll timed its first collective object cold, and SimGrid
charged the process's first collective of some algorithms a one-time cost (redbcast on GigE:
+8.9 ms at 128 ranks and 256 KiB); the first object is the flat one, every gain's reference. The
probe now runs it once untimed. This lists which committed rows that changed: ratio = committed /
warm (above 1: the committed gains were inflated by it).

usage: warmup_audit.py [--max-ranks P] [--csv-glob GLOB] [--out FILE] [--bin DIR]
  rows already in --out are skipped, FAIL rows retried (a killed audit resumes); runs go through run-hier-coll.sh
  (one simulation per row, G = 1 only, Graphene's faithful set as the rows were)."""
import argparse
import csv
import glob
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FIELDS = ["csv", "machine", "op", "ranks", "ranks_per_node", "bytes", "algo_flat", "committed_s", "warm_s",
          "committed_over_warm", "host_s"]


def flat_rows(pattern, max_ranks):
    """(key, committed time) of every G = 1 row, by rank count: key = FIELDS[:7]."""
    todo = {}
    for path in sorted(glob.glob(pattern)):
        rows = list(csv.DictReader(open(path)))
        if not rows or "algo_flat" not in rows[0]:
            continue  # split-cost and model tables
        for r in rows:
            if r["groups"] == "1" and int(r["ranks"]) <= max_ranks:
                key = (os.path.basename(path), r["machine"], r["op"], r["ranks"], r["ranks_per_node"], r["bytes"],
                       r["algo_flat"])
                todo.setdefault(key, r["time_s"])
    return sorted(todo.items(), key=lambda kv: int(kv[0][3]))


def fail(message):
    print(f"warmup_audit.py: error: {message}", file=sys.stderr)
    sys.exit(2)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-ranks", type=int, default=512)
    ap.add_argument("--csv-glob", default=os.path.join(ROOT, "results/simulated/graphene-thesis-fig3_*.csv"))
    ap.add_argument("--out", default="warmup-audit.csv")
    ap.add_argument("--bin", default=os.environ.get("HYMPI_SMPI_BIN", ""))
    args = ap.parse_args()
    if args.max_ranks < 1:
        fail("--max-ranks must be >= 1")
    done = set()
    if os.path.exists(args.out) and os.path.getsize(args.out):
        done = {tuple(r[f] for f in FIELDS[:7]) for r in csv.DictReader(open(args.out)) if r["warm_s"] != "FAIL"}
    todo = [(k, t) for k, t in flat_rows(args.csv_glob, args.max_ranks) if k not in done]
    if not todo and not done:
        fail(f"no G = 1 rows in {args.csv_glob}")
    env = dict(os.environ, **({"HYMPI_SMPI_BIN": args.bin} if args.bin else {}))
    new = not done
    with open(args.out, "a", newline="") as f, tempfile.TemporaryDirectory() as tmp:
        w = csv.writer(f)
        if new:
            w.writerow(FIELDS)
        for n, (key, committed) in enumerate(todo, 1):
            name, machine, op, ranks, per_node, nbytes, flat = key
            run_csv = os.path.join(tmp, f"{n}.csv")
            t0 = time.time()
            p = subprocess.run([os.path.join(HERE, "run-hier-coll.sh"), "--machine", machine, "--op", op, "--ranks", ranks,
                                "--cores", per_node, "--bytes", nbytes, "--groups", "1", "--flat", flat, "--out", run_csv,
                                "--timeout", "600"], capture_output=True, text=True, env=env)
            warm = list(csv.DictReader(open(run_csv)))[0]["time_s"] if p.returncode == 0 else "FAIL"
            ratio = f"{float(committed) / float(warm):.4f}" if warm != "FAIL" else ""
            w.writerow(list(key) + [committed, warm, ratio, f"{time.time() - t0:.1f}"])
            f.flush()
            print(f"[{n}/{len(todo)}] {name} {op} {ranks}x{per_node} {nbytes} B {flat}: committed/warm {ratio or 'FAIL'}",
                  flush=True)


if __name__ == "__main__":
    main()
