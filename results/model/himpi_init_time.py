#!/usr/bin/python3
"""Thesis Tables 5.2 and 5.3 beside groups = auto: the time HiMPI_Init spent benchmarking
every G (the thesis) against the time the core's closed form spends choosing G for the same
sweep of communicator sizes and message sizes (`hympi-grouped-model --time`: the median of
repeated picks, no MPI). One row per (table, ranks, bytes) with auto's G and its pick time,
then the totals over the thesis' ranges.

usage: himpi_init_time.py --tool PATH/hympi-grouped-model [--out-dir DIR]
"""
import argparse
import csv
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.realpath(__file__))
# The thesis' sweeps (ranks; sizes as powers of two, stride 2) and the machine each ran on,
# as the core's model describes it (HYMPI_MODEL_*; lib/README.md "Grouped collectives").
TABLES = {
    "Table 5.2": dict(ranks=[16, 32, 64, 128], lo=4, hi=24,  # 16 B .. 16 MB
                      env={"HYMPI_MODEL_ALPHA": "2.4e-5", "HYMPI_MODEL_BETA": "8.5e-9", "HYMPI_MODEL_BCAST": "mpich",
                           "HYMPI_MODEL_NODE_RANKS": "1"},
                      machine="Graphene over Gigabit Ethernet, one rank per node: alpha 24 us (SMPI's Graphene "
                              "validation file), beta 8.5 ns/B (117.6 MB/s), MPICH's rule"),
    "Table 5.3": dict(ranks=[16, 32, 64, 128, 256, 512, 1024, 2048], lo=10, hi=24,  # 1 kB .. 16 MB
                      env={"HYMPI_MODEL_BCAST": "dcmf", "HYMPI_MODEL_NODE_RANKS": "4", "HYMPI_MODEL_TORUS": "8x8x8"},
                      machine="BG/P: the model's defaults (alpha 3 us, 425 MB/s), DCMF's rule, 4 ranks per node on "
                              "an 8x8x8 torus (block placement)"),
}
# The thesis' totals (../shared/notes/paper-figures.md, B.6): (ranks from, up to, bytes up to) -> text.
THESIS = {
    ("Table 5.2", 128, 128, 24): "native 132.96 s, flat 1508.63 s, chain 356.65 s, pipeline 1309.11 s (128 procs, 16 B-16 MB)",
    ("Table 5.2", 16, 128, 20): "pipeline 141.88 s (16-128 procs, 16 B-1 MB)",
    ("Table 5.3", 16, 2048, 24): "native 214.77 s, linear 5560.96 s, SRG 226.07 s (16-2048 procs)",
    ("Table 5.3", 16, 256, 24): "native 42.43 s, linear 656.24 s, SRG 53.58 s (16-256 procs)",
}


def pick(tool, env, ranks, nbytes):
    out = subprocess.run([tool, "--ranks", str(ranks), "--bytes", str(nbytes), "--groups", "1", "--time"],
                         env={**os.environ, **env}, capture_output=True, text=True, check=True).stdout
    seconds = float(next(l for l in out.splitlines() if l.startswith("# pick_seconds:")).split(":")[1])
    g = next((int(l.split("G = ")[1].split()[0]) for l in out.splitlines() if "auto picks G =" in l), None)
    if g is None:  # auto picked G = 1, the only G asked
        g = 1
    return g, seconds


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tool", required=True, help="path of hympi-grouped-model")
    ap.add_argument("--out-dir", default=HERE)
    a = ap.parse_args()
    if not os.access(a.tool, os.X_OK):
        sys.exit(f"himpi_init_time.py: error: {a.tool} is not an executable")
    points, totals = [], []
    for table, t in TABLES.items():
        for ranks in t["ranks"]:
            for e in range(t["lo"], t["hi"] + 1):  # every power of two ("stride 2")
                g, s = pick(a.tool, t["env"], ranks, 1 << e)
                points.append(dict(table=table, ranks=ranks, bytes=1 << e, auto_groups=g, pick_seconds=s,
                                   machine=t["machine"]))
                print(f"{table}: {ranks} ranks, {1 << e} B: G = {g}, {s * 1e6:.2f} us", file=sys.stderr)
    for (table, lo, up_to, hi), thesis in THESIS.items():
        sel = [p for p in points if p["table"] == table and lo <= p["ranks"] <= up_to and p["bytes"] <= 1 << hi]
        totals.append(dict(table=table, ranks=f"{min(p['ranks'] for p in sel)}-{up_to}",
                           bytes=f"{min(p['bytes'] for p in sel)}-{1 << hi}", points=len(sel),
                           auto_total_seconds=f"{sum(p['pick_seconds'] for p in sel):.3g}", thesis=thesis,
                           machine=TABLES[table]["machine"]))
    for name, rows in (("himpi-init-points.csv", points), ("himpi-init-totals.csv", totals)):
        with open(os.path.join(a.out_dir, name), "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]), lineterminator="\n")
            w.writeheader()
            w.writerows(rows)
        print("wrote", os.path.join(a.out_dir, name))
    for t in totals:
        print(f"{t['table']} {t['ranks']} ranks, {t['bytes']} B ({t['points']} points): auto "
              f"{t['auto_total_seconds']} s; thesis: {t['thesis']}")


if __name__ == "__main__":
    main()
