#!/usr/bin/env bash
# The SUMMA runners fold operator new only when asked (issue 52): glue/fold_alloc.cpp makes every
# operator-new block >= HYMPI_SMPI_FOLD_NEW_BYTES ONE block of all ranks, and a block holding objects
# breaks the heap (smpi.fold_objects). run-sweep.sh, run-auto-probe.sh and run-xc40.sh fig11 used to
# fold it at their data threshold (HYMPI_SMPI_FOLD_BYTES, 64 KiB), safe only while no object-holding
# block reached it. Here the data threshold is 1024 B, so at 8-16 ranks hympi-summa's and
# hympi-auto-groups' object blocks reach it:
#   * each runner with HYMPI_SMPI_FOLD_NEW_BYTES unset ends, its rows say fold_new_bytes=0
#     (the old default aborts: exit 134);
#   * run-sweep.sh --fold-new N reaches the simulation's environment (--dry-run), a bad N exits 2.
# usage: check_fold_runners.sh ROOT SMPI_BIN   (exit 0 ok, 1 failed, 2 usage, 77 no SMPI build)
set -euo pipefail
[ $# -eq 2 ] || { echo "check_fold_runners.sh: error: usage: check_fold_runners.sh ROOT SMPI_BIN" >&2; exit 2; }
root="$1" bin="$2" smpi="$1/apps/smpi"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
cd "$work"
export HYMPI_SMPI_FOLD_BYTES=1024
unset HYMPI_SMPI_FOLD_NEW_BYTES
fails=0
check() {  # check NAME CSV COMMAND...: the command ends and every row of CSV says fold_new_bytes=0
  local name="$1" csv="$2" rc=0; shift 2
  "$@" > "$work/log" 2>&1 || rc=$?
  [ "$rc" -ne 77 ] || { cat "$work/log"; exit 77; }
  if [ "$rc" -ne 0 ]; then
    tail -5 "$work/log"; echo "check_fold_runners.sh: FAIL: $name exited $rc"; fails=$((fails + 1)); return
  fi
  if python3 -c "import csv, sys; rows = list(csv.DictReader(open(sys.argv[1])))
sys.exit(not rows or any(r.get('fold_new_bytes') != '0' for r in rows))" "$csv"; then
    echo "check_fold_runners.sh: ok: $name (rows say fold_new_bytes=0)"
  else
    echo "check_fold_runners.sh: FAIL: $name: rows without fold_new_bytes=0"; fails=$((fails + 1))
  fi
}
check run-sweep.sh sw.csv "$smpi/run-sweep.sh" --bin "$bin" --machine bgp-torus --ranks 16 -n 512 -b 64 --steps 2 \
  --groups 1,4 --out sw.csv
check run-auto-probe.sh ap.csv "$smpi/run-auto-probe.sh" --bin "$bin" --ranks 16 -n 512 -b 64 --out ap.csv
check "run-xc40.sh fig11" f11.csv "$smpi/run-xc40.sh" fig11 --nodes 2 --cores 4 --grid 2x4 --blocks 64 --steps 2 \
  --bin "$bin" --out f11.csv
dry=$("$smpi/run-sweep.sh" --bin "$bin" --ranks 16 -n 512 -b 64 --groups 1 --fold-new 4096 --dry-run --out d.csv)
if grep -q "HYMPI_SMPI_FOLD_NEW_BYTES=4096 " <<< "$dry"; then echo "check_fold_runners.sh: ok: --fold-new 4096 reaches smpirun"
else echo "$dry"; echo "check_fold_runners.sh: FAIL: --fold-new 4096 not in the dry run's environment"; fails=$((fails + 1)); fi
rc=0; "$smpi/run-xc40.sh" fig11 --fold-new 64k --bin "$bin" --out bad.csv > "$work/log" 2>&1 || rc=$?
if [ "$rc" -eq 2 ] && grep -q "error: --fold-new" "$work/log"; then echo "check_fold_runners.sh: ok: --fold-new 64k refused"
else cat "$work/log"; echo "check_fold_runners.sh: FAIL: --fold-new 64k gave exit $rc"; fails=$((fails + 1)); fi
[ "$fails" -eq 0 ]
