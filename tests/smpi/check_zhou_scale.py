#!/usr/bin/env python3
"""Zhou's figures at the paper's scale (apps/smpi/run-zhou-scale.sh): the committed rows carry
their settings, and an irregular layout (Zhou Fig 10's kind: the last node partly filled) runs.

usage: check_zhou_scale.py ROOT [SMPI_BIN]
  * every row of results/simulated/zhou-scale-*.csv is kind=simulated on xc40-dragonfly with its
    platform file committed, shm_costs, fold_scope and the run's host seconds and peak RSS;
    Fig 9's rows are 64 nodes at 3-24 ranks per node, Fig 10's 1024 ranks on 43 nodes; rows of
    1024+ ranks record fold_new_bytes=0 (operator new not folded: glue/fold_alloc.cpp);
  * run-zhou-scale.sh refuses an unknown figure or option (exit 2);
  * with SMPI_BIN: run-xc40.sh fig8 --ranks 10 --cores 4 (nodes of 4, 4, 2 ranks) writes rows of
    10 ranks on 3 nodes, and the hybrid allgather differs from pure (it ran the node path).
Exit 0 on success, 1 on a failed check, 77 (skip) when the SMPI run cannot start.
"""
import csv
import glob
import os
import subprocess
import sys
import tempfile

SETTINGS = ("kind", "machine", "platform", "shm_costs", "fold_scope", "run_host_s", "run_peak_rss_mb")


def rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def committed(root):
    bad = []
    files = sorted(glob.glob(os.path.join(root, "results/simulated/zhou-scale-*.csv")))
    if not files:
        bad.append("no results/simulated/zhou-scale-*.csv")
    for path in files:
        name = os.path.basename(path)
        for i, r in enumerate(rows(path)):
            missing = [c for c in SETTINGS if not r.get(c)]
            if missing:
                bad.append(f"{name} row {i}: no {missing}")
                continue
            if r["kind"] != "simulated" or r["machine"] != "xc40-dragonfly":
                bad.append(f"{name} row {i}: {r['kind']} on {r['machine']}")
            if not os.path.exists(os.path.join(root, r["platform"])):
                bad.append(f"{name} row {i}: platform {r['platform']} is not committed")
            if "fig9" in name and (r["nodes"] != "64" or int(r["ranks_per_node"]) not in (3, 6, 12, 24)):
                bad.append(f"{name} row {i}: {r['nodes']} nodes x {r['ranks_per_node']}, not Fig 9's layouts")
            # From ~1000 ranks operator new's fold would share the core's agreement strings (fold_alloc.cpp).
            if int(r["ranks"]) >= 1024 and r.get("fold_new_bytes") != "0":
                bad.append(f"{name} row {i}: {r['ranks']} ranks with fold_new_bytes={r.get('fold_new_bytes')!r}, not 0")
            if "fig10" in name and (r["ranks"] != "1024" or r["nodes"] != "43"):
                bad.append(f"{name} row {i}: {r['ranks']} ranks on {r['nodes']} nodes, not 42 x 24 + 16")
    return bad


def refusals(root):
    bad = []
    script = os.path.join(root, "apps/smpi/run-zhou-scale.sh")
    for args in (["fig11"], ["fig9", "--no-such"], ["fig9", "--limit"]):
        p = subprocess.run([script] + args, capture_output=True, text=True)
        if p.returncode != 2 or "error" not in p.stderr:
            bad.append(f"run-zhou-scale.sh {' '.join(args)}: exit {p.returncode}, {p.stderr.strip()!r}")
    return bad


def irregular(root, binary):
    with tempfile.TemporaryDirectory() as work:
        out = os.path.join(work, "irregular.csv")
        cmd = [os.path.join(root, "apps/smpi/run-xc40.sh"), "fig8", "--ranks", "10", "--cores", "4", "--ops", "allgather",
               "--variants", "pure,hybrid-barrier", "--min-size", "1", "--max-size", "64", "--bin", binary, "--out", out]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode == 77:
            print(p.stderr, end="")
            sys.exit(77)
        if p.returncode != 0:
            return [f"{' '.join(cmd)}: exit {p.returncode}\n{p.stdout}{p.stderr}"]
        got = rows(out)
    bad = [f"row {r['variant']} {r['size_doubles']}: {r['ranks']} ranks on {r['nodes']} nodes, not 10 on 3"
           for r in got if (r["ranks"], r["nodes"]) != ("10", "3")]
    lat = {(r["variant"], r["size_doubles"]): float(r["avg_us"]) for r in got}
    sizes = sorted({s for (_, s) in lat}, key=int)
    if len(sizes) != 7 or all(lat[("pure", s)] == lat[("hybrid-barrier", s)] for s in sizes):
        bad.append(f"irregular run: sizes {sizes}, pure and hybrid identical or missing")
    print(f"irregular 4+4+2: pure {lat[('pure', '1')]:.3f} us, hybrid {lat[('hybrid-barrier', '1')]:.3f} us at 1 double")
    return bad


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 2
    root = sys.argv[1]
    bad = committed(root) + refusals(root)
    if len(sys.argv) == 3:
        bad += irregular(root, sys.argv[2])
    for b in bad:
        print("FAIL", b)
    print(f"{'ok' if not bad else 'FAILED'}: zhou-scale rows and runs")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
