#!/usr/bin/env python3
"""The pure policy against OSU's own benchmarks (#54 case 19): osu_table.py RUN_DIR
[date=... git=... mpi=... others=...] reads the OSU and
hympi --osu outputs of each launch (osu-OP-L.txt, hympi-OP-L.txt, both run with
-f -z: size, average, min, max, iterations, P50, P90, P99) and conditions.txt (one
line per launch and operation), writes vs-osu.csv with every parameter and prints
per operation and size the ratios hympi / OSU of each launch and their median, of
the average (OSU's headline number) and of P50 (robust to stolen time slices)."""
import csv
import statistics
import sys
from pathlib import Path

OPS = {"allgather": "MPI_CHAR/MPI_BYTE", "allreduce": "MPI_FLOAT", "bcast": "MPI_CHAR/MPI_BYTE"}


def rows(path):
    """{bytes: (avg_us, iterations, p50_us)} of one OSU-format table run with -f -z."""
    table = {}
    for line in path.read_text().splitlines():
        fields = line.split()
        if fields and fields[0].isdigit():
            table[int(fields[0])] = (float(fields[1]), int(fields[4]), float(fields[5]))
    return table


def main():
    here = Path(sys.argv[1]).resolve()  # the run's directory: its outputs, conditions.txt, vs-osu.csv
    meta = dict(arg.split("=", 1) for arg in sys.argv[2:])  # date=, git=, mpi=, others=
    launches = sorted({int(p.stem.rsplit("-", 1)[1]) for p in here.glob("osu-*-*.txt")})
    conditions = {}
    for line in (here / "conditions.txt").read_text().splitlines():
        if len(line.split()) < 3:
            continue  # e.g. the loop's closing "finished"
        launch, op, *rest = line.split()
        conditions[(int(launch), op)] = " ".join(rest)
    out = []
    for op, dtype in OPS.items():
        osu = [rows(here / f"osu-{op}-{l}.txt") for l in launches]
        ours = [rows(here / f"hympi-{op}-{l}.txt") for l in launches]
        for size in sorted(osu[0]):
            ratios = [h[size][0] / o[size][0] for h, o in zip(ours, osu)]
            p50 = [h[size][2] / o[size][2] for h, o in zip(ours, osu)]
            out.append({
                "date": meta.get("date", ""), "git": meta.get("git", ""), "mpi": meta.get("mpi", ""),
                "ranks": 2, "binding": "core", "launches": len(launches), "op": op, "type": dtype,
                "bytes": size, "iterations": osu[0][size][1], "warmup": 10 if size > 8192 else 100,
                **{f"osu_avg_us_{l}": o[size][0] for l, o in zip(launches, osu)},
                **{f"hympi_avg_us_{l}": h[size][0] for l, h in zip(launches, ours)},
                **{f"osu_p50_us_{l}": o[size][2] for l, o in zip(launches, osu)},
                **{f"hympi_p50_us_{l}": h[size][2] for l, h in zip(launches, ours)},
                **{f"ratio_{l}": round(r, 3) for l, r in zip(launches, ratios)},
                "ratio_median": round(statistics.median(ratios), 3),
                **{f"p50_ratio_{l}": round(r, 3) for l, r in zip(launches, p50)},
                "p50_ratio_median": round(statistics.median(p50), 3),
                "conditions": " | ".join(conditions.get((l, op), "") for l in launches),
                "others_running": meta.get("others", ""),
            })
    with open(here / "vs-osu.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(out[0]))
        writer.writeheader()
        writer.writerows(out)
    print(f"{'op':10}{'bytes':>9}" + "".join(f"{'avg_' + str(l):>8}" for l in launches) + f"{'median':>8}" +
          "".join(f"{'p50_' + str(l):>8}" for l in launches) + f"{'median':>8}   (hympi / OSU)")
    for r in out:
        print(f"{r['op']:10}{r['bytes']:>9}" + "".join(f"{r[f'ratio_{l}']:>8.3f}" for l in launches) +
              f"{r['ratio_median']:>8.3f}" + "".join(f"{r[f'p50_ratio_{l}']:>8.3f}" for l in launches) +
              f"{r['p50_ratio_median']:>8.3f}")
    for op in OPS:
        for key in ("ratio_median", "p50_ratio_median"):
            worst = max((r for r in out if r["op"] == op), key=lambda r: r[key])
            print(f"worst {key} {op}: {worst[key]:.3f} at {worst['bytes']} B")


if __name__ == "__main__":
    main()
