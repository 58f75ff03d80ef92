#!/usr/bin/env python3
"""Checks that the glue's fold of big blocks (apps/smpi/glue/fold_shared.cpp) is used and
changes no simulated time.

usage: check_fold.py ROOT SMPI_BIN [--nodes N --cores C --size D]

Runs the collective benchmark's allgather (pure, then hybrid with barrier sync; one size, D
doubles per rank, default 16384) on N x C simulated XC40 ranks (default 8 x 4) through
apps/smpi/run-xc40.sh, once with --fold-scope new (operator new only, as before) and once with
all (also the core's private result buffers and the node windows), and checks:
  * every simulated time (min, avg, max, median) of a variant is the same in both (1e-9 relative):
    folding only shares host memory, SMPI charges a message by its size;
  * the folded run's peak RSS is below the unfolded one by at least half of what the fold
    saves: pure, the (P - 1) result buffers of P x D doubles; hybrid, the (N - 1) node windows
    of 2 x P x D doubles (double-buffered), beside one copy kept.
Exit 0 on success, 1 on a failed check, 2 on usage, 77 (skip) without an SMPI build.
"""
import argparse
import csv
import os
import subprocess
import sys
import tempfile

TIMES = ("min_us", "avg_us", "max_us", "median_us")


def run(root, binary, work, variant, scope, a):
    out = os.path.join(work, f"{variant}-{scope}.csv")
    cmd = [os.path.join(root, "apps/smpi/run-xc40.sh"), "fig8", "--nodes", str(a.nodes), "--cores", str(a.cores),
           "--grid", f"1x{a.nodes * a.cores}", "--ops", "allgather", "--variants", variant, "--min-size", str(a.size),
           "--max-size", str(a.size), "--fold-scope", scope, "--bin", binary, "--out", out]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode == 77:
        print(p.stderr, end="")
        sys.exit(77)
    if p.returncode != 0:
        sys.exit(f"check_fold.py: {' '.join(cmd)} failed ({p.returncode}):\n{p.stdout}{p.stderr}")
    with open(out) as f:
        rows = list(csv.DictReader(f))
    if len(rows) != 1 or rows[0]["fold_scope"] != scope:
        sys.exit(f"check_fold.py: expected one {scope} row in {out}, got {len(rows)}")
    return rows[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("root")
    ap.add_argument("bin")
    ap.add_argument("--nodes", type=int, default=8)
    ap.add_argument("--cores", type=int, default=4)
    ap.add_argument("--size", type=int, default=16384, help="doubles per rank")
    a = ap.parse_args()
    if a.nodes < 2 or a.cores < 1 or a.size < 1:
        ap.error("--nodes >= 2, --cores >= 1, --size >= 1")
    ranks = a.nodes * a.cores
    result_mib = ranks * a.size * 8 / 2**20
    saves = {"pure": (ranks - 1) * result_mib, "hybrid-barrier": (a.nodes - 1) * 2 * result_mib}
    bad = 0
    with tempfile.TemporaryDirectory() as work:
        for variant in ("pure", "hybrid-barrier"):
            new, folded = (run(a.root, a.bin, work, variant, s, a) for s in ("new", "all"))
            for c in TIMES:
                x, y = float(new[c]), float(folded[c])
                if abs(x - y) > 1e-9 * max(abs(x), 1e-12):
                    print(f"FAIL {variant} {c}: {x} us unfolded, {y} us folded")
                    bad += 1
            drop = int(new["run_peak_rss_mb"]) - int(folded["run_peak_rss_mb"])
            ok = drop >= saves[variant] / 2
            bad += not ok
            print(f"{'ok  ' if ok else 'FAIL'} {variant}, {ranks} ranks ({a.nodes} x {a.cores}), {a.size} doubles: "
                  f"avg {folded['avg_us']} us both; peak RSS {new['run_peak_rss_mb']} -> {folded['run_peak_rss_mb']} MB "
                  f"(drop {drop} MB, fold saves {saves[variant]:.0f} MB, at least half required); "
                  f"host {new['run_host_s']} -> {folded['run_host_s']} s")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
