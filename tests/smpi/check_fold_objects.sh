#!/usr/bin/env bash
# Regression test of the heap corruption of Zhou Figs 9/10 at 1024+ simulated ranks (issue 52):
# glue/fold_alloc.cpp folded every operator-new block >= HYMPI_SMPI_FOLD_BYTES into one block
# shared by all ranks, also blocks holding objects (the core's agreement: one std::string item
# per rank), so ranks overwrote each other's strings and glibc aborted. At 1024 ranks those
# blocks first reach the 65536 B threshold; here a 1024 B threshold makes 8 ranks hit it.
# Checks, on 2 XC40 nodes x 4 ranks, allgather pure + hybrid-barrier, 1..1024 doubles:
#   * with HYMPI_SMPI_FOLD_BYTES=1024 and HYMPI_SMPI_FOLD_NEW_BYTES=0 (operator new off, the
#     data-only folds of fold_shared.cpp on) the run ends and its rows say fold_new_bytes=0;
#   * its simulated times equal those of a run with no fold at all (1e-9 relative).
# Before the fix (HYMPI_SMPI_FOLD_NEW_BYTES ignored) the first run aborts (exit 134/139).
# usage: check_fold_objects.sh ROOT SMPI_BIN   (exit 0 ok, 1 failed, 2 usage, 77 no SMPI build)
set -euo pipefail
[ $# -eq 2 ] || { echo "check_fold_objects.sh: error: usage: check_fold_objects.sh ROOT SMPI_BIN" >&2; exit 2; }
root="$1" bin="$2"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
run() {  # run OUT: one simulation with the caller's environment
  (cd "$work" && "$root/apps/smpi/run-xc40.sh" fig8 --nodes 2 --cores 4 --grid 1x8 --ops allgather \
    --variants pure,hybrid-barrier --min-size 1 --max-size 1024 --fold-scope all --bin "$bin" --out "$1") > "$work/log" 2>&1
}
set +e
HYMPI_SMPI_FOLD_BYTES=1024 HYMPI_SMPI_FOLD_NEW_BYTES=0 run "$work/folded.csv"; rc=$?
set -e
[ "$rc" -ne 77 ] || { cat "$work/log"; exit 77; }
[ "$rc" -eq 0 ] || { tail -20 "$work/log"; echo "check_fold_objects.sh: FAIL: folded run exited $rc"; exit 1; }
HYMPI_SMPI_FOLD_BYTES=0 run "$work/plain.csv" || { tail -20 "$work/log"; echo "check_fold_objects.sh: FAIL: unfolded run"; exit 1; }
python3 - "$work/folded.csv" "$work/plain.csv" <<'PY'
import csv, sys
def rows(path):
    with open(path) as f:
        return {(r["variant"], r["size_doubles"]): r for r in csv.DictReader(f)}
folded, plain = rows(sys.argv[1]), rows(sys.argv[2])
bad = []
if set(folded) != set(plain) or len(folded) != 2 * 11:
    bad.append(f"rows differ: {sorted(folded)} vs {sorted(plain)}")
for key, r in folded.items():
    if r.get("fold_new_bytes") != "0":
        bad.append(f"{key}: fold_new_bytes={r.get('fold_new_bytes')!r}, expected 0")
    for col in ("min_us", "avg_us", "max_us", "median_us"):
        a, b = float(r[col]), float(plain.get(key, r)[col])
        if abs(a - b) > 1e-9 * max(abs(a), abs(b), 1e-12):
            bad.append(f"{key} {col}: folded {a} != unfolded {b}")
for b in bad:
    print("check_fold_objects.sh: FAIL:", b)
if not bad:
    print(f"check_fold_objects.sh: ok: {len(folded)} rows, folded times = unfolded times")
sys.exit(1 if bad else 0)
PY
