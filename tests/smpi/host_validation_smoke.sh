#!/usr/bin/env bash
# The calibrated-host validation's runner (apps/smpi/run-host-validation.sh) at a tiny size: 2 ranks
# (1x2) and 4 ranks (2x2, oversubscribed on a 2-core host), n = 256, b = 64, 2 real launches of one
# multiply each, no priority, no lock. Checks the CSV, not the timing: one row per algorithm and
# layout with every setting column, both times positive, real_median_s the median of real_times_s,
# error_rel = (sim_s - real_median_s) / real_median_s, the platform and DGEMM model named; and that
# a bad option exits 2 with "run-host-validation.sh: error:".
# Usage: host_validation_smoke.sh SMPI_BIN_DIR REAL_SUMMA_DIR REPO_ROOT
set -euo pipefail
bin="$1" real="$2" root="$3"
command -v smpirun >/dev/null || { echo "SKIP: smpirun not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
run="$root/apps/smpi/run-host-validation.sh"
if "$run" --layouts 3:1x2 > "$work/bad" 2>&1 || [ $? != 2 ] || ! grep -q "run-host-validation.sh: error:" "$work/bad"; then
  cat "$work/bad"; echo "FAIL: --layouts 3:1x2 (P*Q != ranks) must exit 2 with an error"; exit 1
fi
"$run" --smpi-bin "$bin" --real-bin "$real" --layouts 2:1x2,4:2x2 --sizes 256 --blocks 64 --launches 2 --reps 1 \
  --warmup 0 --prio none --lock '' --timeout 60 --out "$work/v.csv" > "$work/log" 2>&1 ||
  { cat "$work/log"; echo "FAIL: run-host-validation.sh"; exit 1; }
python3 - "$work/v.csv" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
errors = []
got = sorted((r["ranks"], r["algorithm"]) for r in rows)
want = sorted((r, a) for r in ("2", "4") for a in ("pdgemm", "summa", "hsumma"))
if got != want:
    errors.append(f"rows {got}, expected {want}")
need = ("dgemm_model", "platform", "platform_onnode", "sim_gflops_per_core", "smpi_cfg", "eager_bytes", "real_prio", "real_mpi",
        "real_others", "oversubscribed", "command", "git", "date")
for r in rows:
    tag = f"{r.get('ranks')}/{r.get('algorithm')}"
    for k in need:
        if not r.get(k):
            errors.append(f"{tag}: column {k} missing or empty")
    if r.get("oversubscribed") != ("yes" if r["ranks"] == "4" else "no"):
        errors.append(f"{tag}: oversubscribed = {r.get('oversubscribed')!r}")
    if "host_platform.py" not in r.get("platform", "") or not r.get("dgemm_model", "").startswith("table:"):
        errors.append(f"{tag}: platform {r.get('platform')!r} / dgemm_model {r.get('dgemm_model')!r}")
    try:  # one number (a grep of the platform once wrote "ee" and the speed on two lines)
        if float(r["sim_gflops_per_core"]) <= 0:
            raise ValueError
    except ValueError:
        errors.append(f"{tag}: sim_gflops_per_core {r['sim_gflops_per_core']!r} is not a positive number")
    times = [float(t) for t in r["real_times_s"].split(";") if t]
    if len(times) != 2:
        errors.append(f"{tag}: {len(times)} real times, expected 2 launches x 1 rep")
        continue
    med, sim = float(r["real_median_s"]), float(r["sim_s"])
    if not (med > 0 and sim > 0):
        errors.append(f"{tag}: real {med} / simulated {sim} not both positive")
        continue
    if abs(med / statistics.median(times) - 1) > 1e-4:
        errors.append(f"{tag}: real_median_s {med} is not the median of {times}")
    if abs(float(r["error_rel"]) - (sim - med) / med) > 1e-3:
        errors.append(f"{tag}: error_rel {r['error_rel']} != (sim - real) / real = {(sim - med) / med:.4f}")
print("\n".join(errors) or f"host validation smoke: {len(rows)} rows, both times and the error per row")
sys.exit(1 if errors else 0)
PY
