#!/usr/bin/env python3
"""One row per algorithm of a calibrated-host validation case (run-host-validation.sh): the real
hympi-summa launches' times (median, min, max, all of them) beside the simulated time of the same
multiply, error = (simulated - real median) / real median, the breakdown of both (broadcast and
DGEMM seconds, the real ones as medians), what else ran during each launch, and the labels given
as KEY=VALUE (the settings). Rows are appended to --out; the header is written when it is new and
must match the file's otherwise (a changed column set goes to a new file)."""
import argparse
import csv
import os
import statistics
import sys

KEYS = ("algorithm", "m", "n", "k", "P", "Q", "I", "J", "b", "M", "pdgemm_nb")


def rows_of(path):
    if not path or not os.path.exists(path) or os.path.getsize(path) == 0:
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def by_case(rows):
    out = {}
    for r in rows:
        out.setdefault(tuple(r[k] for k in KEYS), []).append(r)
    return out


def fail(msg):
    print(f"host_validation_rows.py: error: {msg}", file=sys.stderr)
    sys.exit(2)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True, help="CSV to append to")
    ap.add_argument("--sim", help="the simulated run's hympi-summa CSV")
    ap.add_argument("--real", nargs="*", default=[], help="the real launches' hympi-summa CSVs")
    ap.add_argument("--runs", help="'LAUNCH|what else ran' lines, one per real launch")
    ap.add_argument("--real-from", help="take the real columns (real_*) from this earlier validation CSV's row of the same "
                    "case (ranks, real_prio, algorithm, sizes, grid, groups, blocks) instead of --real")
    ap.add_argument("labels", nargs="*", help="KEY=VALUE columns")
    a = ap.parse_args(argv)
    labels = {}
    for kv in a.labels:
        if "=" not in kv:
            fail(f"label '{kv}' is not KEY=VALUE")
        k, v = kv.split("=", 1)
        labels[k] = v
    sim = by_case(rows_of(a.sim))
    real = by_case([r for p in a.real for r in rows_of(p)])
    earlier = {}
    if a.real_from:
        for r in rows_of(a.real_from):
            earlier[(r["ranks"], r.get("real_prio", "")) + tuple(r[k] for k in KEYS)] = r
        if not earlier:
            fail(f"--real-from {a.real_from}: no rows")
    if not sim and not real:
        fail("no rows: neither a simulated nor a real hympi-summa CSV")
    others = []
    if a.runs and os.path.exists(a.runs):
        others = [line.rstrip("\n").split("|", 1)[1] for line in open(a.runs) if "|" in line]
    out_rows = []
    for key in list(dict.fromkeys(list(real) + list(sim))):
        row = dict(zip(KEYS, key))
        row.update(labels)
        rt = [float(r["time_s"]) for r in real.get(key, [])]
        st = [float(r["time_s"]) for r in sim.get(key, [])]
        med = statistics.median(rt) if rt else None
        s = statistics.median(st) if st else None
        row["real_median_s"] = f"{med:.6g}" if rt else ""
        row["real_min_s"] = f"{min(rt):.6g}" if rt else ""
        row["real_max_s"] = f"{max(rt):.6g}" if rt else ""
        row["real_times_s"] = ";".join(f"{t:.6g}" for t in rt)
        row["sim_s"] = f"{s:.6g}" if st else ""
        row["error_rel"] = f"{(s - med) / med:.4f}" if rt and st and med > 0 else ""
        for part in ("bcast_s", "dgemm_s"):
            rp = [float(r[part]) for r in real.get(key, [])]
            sp = [float(r[part]) for r in sim.get(key, [])]
            row["real_" + part] = f"{statistics.median(rp):.6g}" if rp else ""
            row["sim_" + part] = f"{statistics.median(sp):.6g}" if sp else ""
        row["real_others"] = " | ".join(others)
        row["real_from"] = "this run"
        if a.real_from:  # the earlier run's real columns, the error against them
            old = earlier.get((labels.get("ranks", ""), labels.get("real_prio", "")) + key)
            if old is None:
                fail(f"--real-from {a.real_from}: no row for ranks={labels.get('ranks')} {dict(zip(KEYS, key))}")
            for k in row:
                if k.startswith("real_") and k != "real_from":
                    row[k] = old.get(k, "")
            row["real_from"] = a.real_from
            med = float(old["real_median_s"]) if old.get("real_median_s") else None
            row["error_rel"] = f"{(s - med) / med:.4f}" if med and s is not None else ""
        out_rows.append(row)
    header = list(out_rows[0])
    exists = os.path.exists(a.out) and os.path.getsize(a.out) > 0
    if exists:
        with open(a.out, newline="") as f:
            old = next(csv.reader(f), [])
        if old != header:
            fail(f"{a.out} has other columns than this run's: write to a new file")
    with open(a.out, "a", newline="") as f:
        w = csv.DictWriter(f, fieldnames=header)
        if not exists:
            w.writeheader()
        w.writerows(out_rows)
    for r in out_rows:
        print(f"{r['algorithm']:7s} P{r['P']}xQ{r['Q']} n={r['n']} b={r['b']}: real {r['real_median_s'] or '-'} s "
              f"[{r['real_min_s']}-{r['real_max_s']}], simulated {r['sim_s'] or '-'} s, error {r['error_rel'] or '-'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
