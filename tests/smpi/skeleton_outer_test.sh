#!/usr/bin/env bash
# The skeleton's outer block M > b (thesis Fig 4.8's inner block b under M = 256) against
# hympi-summa -M in the same simulation setup: 64 bgp ranks (8 x 8), n = 1024, b = 32, M = 64,
# 2 outer steps; SUMMA (hympi-summa's SUMMA engine: steps of b), then HSUMMA G = 1, 4, 16 in one
# process each. Every multiply's simulated time, broadcast, sync and dgemm time, k_run and the
# outer/inner broadcast counts must be the same strings, and the skeleton's step marks must rise
# to its multiply's time.
# usage: skeleton_outer_test.sh BIN_DIR      (exit 77: no SimGrid or no SMPI build)
set -euo pipefail
bin="$(cd "$1" 2>/dev/null && pwd || echo "$1")"
here="$(cd "$(dirname "$0")" && pwd)"; root="$(cd "$here/../.." && pwd)"
command -v smpirun >/dev/null || { echo "SKIP: smpirun not installed"; exit 77; }
[ -x "$bin/hympi-summa" ] && [ -x "$bin/hympi-smpi-summa-skeleton" ] || { echo "SKIP: no SMPI build in $bin"; exit 77; }
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
source "$root/apps/smpi/smpi-flags.sh"
python3 "$root/apps/smpi/platforms/make_platform.py" bgp --ranks 64 --out "$work/p.xml" >/dev/null
run() { (cd "$work" && smpirun -np 64 -platform p.xml -hostfile p.hosts "${HYMPI_SMPI_FLAGS[@]}" "$@") > "$work/log" 2>&1 ||
          { cat "$work/log"; echo "FAIL: $*"; exit 1; }; }
run "$bin/hympi-summa" --grid 8x8 -m 1024 -n 1024 -k 1024 --max-steps 2 -b 32 -M 64 --groups 1x1,2x2,4x4 \
  -a summa,hsumma --policy pure --reps 1 --warmup 0 --check none --no-reference-dgemm --csv "$work/app.csv"
run "$bin/hympi-smpi-summa-skeleton" --grid 8x8 -n 1024 -b 32 -M 64 --steps 2 --groups summa,1x1,2x2,4x4 \
  --csv "$work/skeleton.csv"
python3 - "$work/app.csv" "$work/skeleton.csv" <<'PY'
import csv, sys
app = list(csv.DictReader(open(sys.argv[1])))
rows = list(csv.DictReader(open(sys.argv[2])))
barrier = [r for r in rows if r["step_basis"] == "barrier"]
same = ["algorithm", "I", "J", "b", "M", "k_run", "time_s", "bcast_s", "sync_s", "dgemm_s", "outer_bcasts",
        "inner_bcasts"]
errors = [] if len(app) == len(barrier) == 4 else [f"{len(app)} app rows, {len(barrier)} skeleton multiplies, want 4"]
for a, s in zip(app, barrier):
    what = f"{a['algorithm']} {a['I']}x{a['J']} M={a['M']}"
    differ = [f"{c}: app {a[c]} skeleton {s[c]}" for c in same if a[c] != s[c]]
    errors += [f"{what}: {d}" for d in differ]
    print(f"{what}: app {a['time_s']} s, skeleton {s['time_s']} s", "DIFFER" if differ else "equal")
    i = rows.index(s)
    marks = [float(m["time_s"]) for m in rows[i + 1:i + 3] if m["step_basis"] == "mark"]
    if len(marks) != 2 or marks != sorted(marks) or marks[-1] > float(s["time_s"]):
        errors.append(f"{what}: marks {marks} not 2 rising up to {s['time_s']}")
if [a["M"] for a in app] != ["32", "64", "64", "64"]:
    errors.append(f"the app's M {[a['M'] for a in app]}: not SUMMA's b then M = 64")
print("\n".join("FAIL: " + e for e in errors) or "skeleton -M: equal to hympi-summa -M")
sys.exit(1 if errors else 0)
PY
