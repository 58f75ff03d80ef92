#!/usr/bin/env bash
# The simulated drop-in pdgemm_'s memory per rank must not grow with the matrix (issue 51): every
# simulated rank is inside its call at once, so per-call state of O(m + n) per rank is O(p n) for
# the run (the drop-in's index maps, 12 bytes an item, were 7 MB a rank at n = 65536: 4096 ranks
# killed at 17.9 GB). run-fig49.sh --what dropin on 64 bgp ranks at n = 16384 and 65536 (4 of the
# calls' panels, G = 1 and 4), peak RSS from the runner's own rows: the growth per rank must stay
# below BOUND_MB (default 1.5; measured 2026-11-29: +0.21 MB a rank; with the per-item maps +4.67). The rows of
# both runs must also show a simulated time (the drop-in ran).
# Usage: dropin_memory_test.sh SMPI_BIN_DIR REPO_ROOT [BOUND_MB]
set -euo pipefail
bin="$1" root="$2" bound="${3:-1.5}"
command -v smpirun >/dev/null || { echo "SKIP: smpirun not installed"; exit 77; }
# run-fig49.sh takes peak RSS from GNU time: without it there is nothing to measure here.
[ -x /usr/bin/time ] || { echo "SKIP: /usr/bin/time (GNU time) not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for n in 16384 65536; do
  "$root/apps/smpi/run-fig49.sh" --bin "$bin" --ranks 64 -n "$n" -b 256 --steps 4 --groups 4 --lock '' --timeout 60 \
    --bcast mpich --ring-merge 16 --eager-bytes 0 --what dropin --out "$work/n$n" > "$work/log" 2>&1 ||
    { cat "$work/log"; echo "FAIL: run-fig49.sh at n = $n"; exit 1; }
done
python3 - "$work/n16384-dropin.csv" "$work/n65536-dropin.csv" "$bound" <<'PY'
import csv, sys
small, large = (list(csv.DictReader(open(p))) for p in sys.argv[1:3])
bound = float(sys.argv[3])
errors = [f"{p}: no rows with a simulated time" for p, rows in zip(sys.argv[1:3], (small, large))
          if not rows or any(float(r["time_s"]) <= 0 for r in rows)]
if not errors:
    rss = [int(rows[0]["host_max_rss_kb"]) for rows in (small, large)]
    per_rank = (rss[1] - rss[0]) / 1024 / 64
    print(f"peak RSS n = 16384 {rss[0]} KB, n = 65536 {rss[1]} KB: {per_rank:+.2f} MB a rank (bound {bound})")
    if per_rank > bound:
        errors.append(f"the drop-in's memory grows {per_rank:.2f} MB a rank with n (bound {bound} MB)")
print("\n".join(errors) or "drop-in memory per rank independent of n")
sys.exit(1 if errors else 0)
PY
