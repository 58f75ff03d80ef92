#!/usr/bin/env bash
# Thesis Fig 4.9's command at a tiny size (apps/smpi/run-fig49.sh + fig49_rows.py): 16 bgp
# ranks, n = 1024, b = 64, 4 of 16 steps (PDGEMM: 8 of 32 chunks), SUMMA and G = 4, the
# faithful set. Fails when PDGEMM's row is missing, when a row lacks a setting column or
# carries another value than the run's (fidelity, sharing, overheads, eager_bytes, bcast,
# ring_merge, privatization, dgemm_model, gflops_per_core), when the rows' DGEMM times
# differ (one model: 2 n^3 / p at 2.25 Gflop/s for every kernel) or the slope check is absent;
# the drop-in pdgemm_ (--what dropin: G = 1 and 4) must have its rows too, and its raw rows must say
# the drop-in ran every call itself on the caller's block-cyclic layout (handled = direct > 0), not
# the glue's ScaLAPACK schedule.
# Usage: fig49_smoke_test.sh SMPI_BIN_DIR REPO_ROOT
set -euo pipefail
bin="$1" root="$2"
command -v smpirun >/dev/null || { echo "SKIP: smpirun not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$root/apps/smpi/run-fig49.sh" --bin "$bin" --ranks 16 -n 1024 -b 64 --steps 4 --groups 4 --lock '' \
  --timeout 60 --what pdgemm,summa,dropin --out "$work/fig" > "$work/log" 2>&1 || { cat "$work/log"; echo "FAIL: run-fig49.sh"; exit 1; }
python3 "$root/apps/smpi/fig49_rows.py" "$work/fig" || { echo "FAIL: fig49_rows.py"; exit 1; }
python3 - "$work/fig.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
want = {"kind": "simulated", "figure": "thesis Fig 4.9", "machine": "bgp", "fidelity": "faithful", "sharing": "fair",
        "overheads": "all", "eager_bytes": "1200", "bcast": "dcmf", "ring_merge": "1", "privatization": "yes",
        "dgemm_model": "flat", "gflops_per_core": "2.25", "n": "1024", "b": "64", "ranks": "16"}
errors = []
algs = sorted((r["algorithm"], r["G"]) for r in rows)
if algs != [("dropin", "1"), ("dropin", "4"), ("hsumma", "4"), ("pdgemm", "-"), ("summa", "1")]:
    errors.append(f"rows {algs}, expected PDGEMM, SUMMA, HSUMMA G = 4 and the drop-in at G = 1, 4")
raw = list(csv.DictReader(open(sys.argv[1].removesuffix(".csv") + "-dropin.csv")))
if not raw or any(int(r["handled"]) < 1 or r["handled"] != r["direct"] for r in raw):
    errors.append("the drop-in's calls were not all run by the drop-in's block-cyclic route (handled/direct)")
if any(r["dropin_settings"] != "block=64;policy=pure;lookahead=off" for r in raw):
    errors.append(f"the drop-in's settings {sorted(set(r['dropin_settings'] for r in raw))}")
for r in rows:
    for k, v in want.items():
        if r.get(k) != v:
            errors.append(f"{r['algorithm']}: {k} = {r.get(k)!r}, expected {v!r}")
    if r["fit"] not in ("4,8", "2,4") or not r["check_rel"]:
        errors.append(f"{r['algorithm']}: fit {r['fit']!r} check {r['check_rel']!r}: not a checked slope")
    if not r["host_max_rss_kb"] or not r["host_wall_s"]:
        errors.append(f"{r['algorithm']}: host time or memory missing")
dgemm = 2 * 1024 ** 3 / 16 / 2.25e9
for r in rows:
    if abs(float(r["dgemm_s"]) / dgemm - 1) > 1e-5:
        errors.append(f"{r['algorithm']}: dgemm_s {r['dgemm_s']} != {dgemm:.6g} (one flat model)")
print("\n".join(errors) or f"Fig 4.9 smoke: {len(rows)} rows, settings and DGEMM model alike")
sys.exit(1 if errors else 0)
PY
