#!/usr/bin/env bash
# ScaLAPACK's pdgemm_ schedule under SMPI (hympi-smpi-pdgemm-skeleton, apps/pdgemm_trace):
#  1. what the simulated ranks execute is the skeleton's trace, the one the scalapack
#     trace test checks against the real library (4x4 NN and TN, 2x3 TN and 3x2 NT with
#     uneven owner pairs): every rank runs the whole schedule through the simulated layer;
#  2. the DGEMM rate table (HYMPI_SMPI_DGEMM_TABLE, glue/sim_dgemm.cpp) charges a
#     512 x 512 x 32 update best/rate(512, 512, 32) times the flat charge, the ratio
#     computed here from the CSV (n = 2048 on 4x4);
#  3. a step-limited run of 32 of 64 chunks (two of the four owner pairs: a whole period)
#     scales to the full run's time within 2% (n = 1024, 4 of 32 chunks: +3.2%, the rings' fill);
#  4. hympi-summa --alg pdgemm (the SMPI build's pdgemm_, glue/scalapack_stubs.cpp) runs the
#     same schedule: its time is the skeleton's within 1% (its closing barrier);
#  5. usage errors exit 2.
# Usage: pdgemm_skeleton_test.sh SMPI_BIN_DIR HYMPI_PDGEMM_SKEL REPO_ROOT
set -euo pipefail
bin="$1" skel="$2" root="$3"
command -v smpirun >/dev/null || { echo "SKIP: smpirun not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$root/apps/smpi/smpi-flags.sh"
python3 "$root/apps/smpi/platforms/make_platform.py" bgp --ranks 16 --out "$work/p.xml" >/dev/null
run() {  # run NP ARGS...: the CSV row on stdout
  local np="$1"; shift
  smpirun -np "$np" -platform "$work/p.xml" -hostfile "$work/p.hosts" "${HYMPI_SMPI_FLAGS[@]}" \
    "$bin/hympi-smpi-pdgemm-skeleton" "$@" | tail -1
}
field() { python3 -c "import sys; print(sys.argv[1].split(',')[int(sys.argv[2])])" "$1" "$2"; }

for c in "16 4x4 NN 1024 64" "16 4x4 TN 1024 64" "6 2x3 TN 250 20" "6 3x2 NT 250 20"; do
  read -r np grid trans n nb <<< "$c"
  run "$np" --grid "$grid" --trans "$trans" -N "$n" --nb "$nb" --trace "$work/sim.txt" > /dev/null
  "$skel" --grid "$grid" --trans "$trans" -N "$n" --nb "$nb" > "$work/skel.txt"
  cmp -s "$work/sim.txt" "$work/skel.txt" || { diff "$work/sim.txt" "$work/skel.txt" | head; echo "FAIL: $c"; exit 1; }
  echo "executed = skeleton trace: $grid $trans n=$n nb=$nb ($(grep -c ' send ' "$work/sim.txt") sends)"
done

flat=$(run 16 --grid 4x4 -N 2048 --nb 64)
table=$(HYMPI_SMPI_DGEMM_TABLE="$root/results/dgemm-rate-host.csv" run 16 --grid 4x4 -N 2048 --nb 64)
python3 - "$flat" "$table" "$root/results/dgemm-rate-host.csv" <<'PY'
import csv, sys
flat, table = (float(row.split(",")[13]) for row in sys.argv[1:3])
rates = {(int(r["m"]), int(r["n"]), int(r["k"])): float(r["best_gflops"]) for r in csv.DictReader(open(sys.argv[3]))}
want = max(rates.values()) / rates[(512, 512, 32)]
got = table / flat
print(f"dgemm charge with the table / flat: {got:.6f}, expected {want:.6f}")
sys.exit(0 if abs(got / want - 1) < 1e-6 else 1)
PY

full=$(field "$flat" 12)
part=$(run 16 --grid 4x4 -N 2048 --nb 64 --chunks 32)
python3 -c "
import sys; full, part = float(sys.argv[1]), float(sys.argv[2].split(',')[12])
print(f'32 of 64 chunks scaled: {part:.6g} s, full {full:.6g} s ({(part/full-1)*100:+.2f}%)')
sys.exit(0 if abs(part / full - 1) < 0.02 else 1)" "$full" "$part"

summa=$(smpirun -np 16 -platform "$work/p.xml" -hostfile "$work/p.hosts" "${HYMPI_SMPI_FLAGS[@]}" \
  "$bin/hympi-summa" -n 1024 --alg pdgemm --pdgemm-nb 64 --check none --reps 1 2>&1 | awk '$1 == "pdgemm" && $3 == "0" {print $4}')
skeleton=$(field "$(run 16 --grid 4x4 -N 1024 --nb 64)" 11)
python3 -c "
import sys; a, b = float(sys.argv[1]), float(sys.argv[2])
print(f'hympi-summa --alg pdgemm {a:.6g} s, skeleton {b:.6g} s')
sys.exit(0 if abs(a / b - 1) < 0.01 else 1)" "${summa:-nan}" "$skeleton"

rc=0
smpirun -np 4 -platform "$work/p.xml" -hostfile "$work/p.hosts" "${HYMPI_SMPI_FLAGS[@]}" \
  "$bin/hympi-smpi-pdgemm-skeleton" --grid 2x3 -N 100 > "$work/bad.log" 2>&1 || rc=$?
grep -q "error: the grid 2x3 has 6 ranks but MPI_COMM_WORLD has 4" "$work/bad.log" && [ "$rc" = 2 ] ||
  { cat "$work/bad.log"; echo "FAIL: bad grid (exit $rc)"; exit 1; }
rc=0
smpirun -np 4 -platform "$work/p.xml" -hostfile "$work/p.hosts" "${HYMPI_SMPI_FLAGS[@]}" \
  "$bin/hympi-smpi-pdgemm-skeleton" --grid 2x2 --chunks x > "$work/bad.log" 2>&1 || rc=$?
grep -q "hympi-smpi-pdgemm-skeleton: error: Could not convert: --chunks = x" "$work/bad.log" && [ "$rc" = 2 ] ||
  { cat "$work/bad.log"; echo "FAIL: bad option (exit $rc)"; exit 1; }
smpirun -np 4 -platform "$work/p.xml" -hostfile "$work/p.hosts" "${HYMPI_SMPI_FLAGS[@]}" \
  "$bin/hympi-smpi-pdgemm-skeleton" -h 2>&1 | grep -q -- "--chunks" || { echo "FAIL: -h"; exit 1; }
echo "pdgemm skeleton under SMPI: ok"
