#!/usr/bin/env python3
"""check-real-node.py RESULTS_DIR LAUNCHER: the CSVs a real-node (not emulated) job wrote
must show real nodes (layout "real", whatever HYMPI_RANKS_PER_NODE the job exported), the
binding the launcher really applied, one thread per rank, the launcher asked for, the job id,
and a manifest for that job."""
import csv
import glob
import json
import os
import sys


def fail(text):
    print(f"FAIL: {text}")
    sys.exit(1)


def main(results, launcher):
    csvs = [p for p in glob.glob(os.path.join(results, "**", "*.csv"), recursive=True)
            if not p.endswith(".index.csv") and ".logs" not in p]
    if not csvs:
        fail(f"no CSV under {results}")
    jobs = set()
    for path in csvs:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
        if not rows:
            fail(f"{path}: no rows")
        for r in rows:
            where = f"{os.path.basename(path)} point {r['point_id']}"
            if r["layout"] != "real" or r["nodes"] != "1":
                fail(f"{where}: layout {r['layout']!r} on {r['nodes']} node(s): the environment split a real node")
            if r["launcher"] != launcher or r["binding"] != "core":
                fail(f"{where}: launcher {r['launcher']!r} binding {r['binding']!r}, expected {launcher!r}, 'core'")
            ranks = int(r["ranks"])
            bound = r["bound_to"].split()
            if len(bound) != ranks or len({b.split(":", 1)[1] for b in bound}) != ranks:
                fail(f"{where}: bound_to {r['bound_to']!r}: expected {ranks} ranks on distinct cores")
            if "OMP_NUM_THREADS=1" not in r["threads"] or "OPENBLAS_NUM_THREADS=1" not in r["threads"]:
                fail(f"{where}: threads {r['threads']!r}")
            jobs.add(r["slurm_job_id"])
        print(f"ok: {path}: {len(rows)} rows on a real node, bound {rows[0]['bound_to']}, {rows[0]['threads']}")
    if len(jobs) != 1 or not jobs.pop():
        fail("rows without one Slurm job id")
    manifests = glob.glob(os.path.join(results, "manifests", "job-*.json"))
    if len(manifests) != 1:
        fail(f"expected one job manifest, found {manifests}")
    with open(manifests[0]) as f:
        manifest = json.load(f)
    if manifest["launcher"]["binding"] != "core" or not manifest["revision"]:
        fail(f"manifest {manifests[0]} lacks binding or revision")
    print(f"ok: manifest {manifests[0]} (revision {manifest['revision'][:10]}, dirty {manifest['dirty']})")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: check-real-node.py RESULTS_DIR LAUNCHER")
    main(sys.argv[1], sys.argv[2])
