#!/usr/bin/env bash
# Both simulated kernels pay DGEMM through one rate model (issue 51): the SUMMA/HSUMMA
# skeleton and the PDGEMM schedule skeleton charge their local updates by
# glue/sim_dgemm.cpp's hympi_smpi_dgemm_flops. A synthetic rate table (written here: the
# updates' shapes at half the table's best) must double both kernels' DGEMM time against
# the flat model, each computed from its own rows; a skeleton that bypasses the table
# (e.g. smpi_execute_flops(2 m n k) in summa_skeleton.cpp) stays at 1.0 and fails.
# Usage: dgemm_alike_test.sh SMPI_BIN_DIR REPO_ROOT
set -euo pipefail
bin="$1" root="$2"
command -v smpirun >/dev/null || { echo "SKIP: smpirun not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$root/apps/smpi/smpi-flags.sh"
python3 "$root/apps/smpi/platforms/make_platform.py" bgp --ranks 16 --out "$work/p.xml" >/dev/null
# 4x4, n = 2048: SUMMA's update 512 x 512 x 64 (b = 64), PDGEMM's 512 x 512 x 32; the
# nearest row of both (in log m, n, k) is 512 x 512 x 64, at half the best row's rate.
printf 'm,n,k,best_gflops\n512,512,64,40\n8192,8192,8192,80\n' > "$work/table.csv"
sim() {  # sim EXE ARGS...: stdout of one 16-rank simulation
  smpirun -np 16 -platform "$work/p.xml" -hostfile "$work/p.hosts" "${HYMPI_SMPI_FLAGS[@]}" "$bin/$@" 2>/dev/null
}
summa_dgemm() {  # the barrier row's dgemm_s (SUMMA, 2 steps)
  sim hympi-smpi-summa-skeleton --grid 4x4 -n 2048 -b 64 --steps 2 --groups summa --csv "$work/s.csv" > /dev/null
  python3 -c "import csv,sys; print([r for r in csv.DictReader(open(sys.argv[1])) if r['step_basis'] == 'barrier'][0]['dgemm_s'])" "$work/s.csv"
}
pdgemm_dgemm() { sim hympi-smpi-pdgemm-skeleton --grid 4x4 -N 2048 --nb 64 --chunks 4 | tail -1 | cut -d, -f14; }
s_flat=$(summa_dgemm); p_flat=$(pdgemm_dgemm)
export HYMPI_SMPI_DGEMM_TABLE="$work/table.csv"
s_table=$(summa_dgemm); p_table=$(pdgemm_dgemm)
python3 - "$s_flat" "$s_table" "$p_flat" "$p_table" <<'PY'
import sys
s_flat, s_table, p_flat, p_table = map(float, sys.argv[1:])
ok = True
for name, flat, table in (("SUMMA skeleton", s_flat, s_table), ("PDGEMM skeleton", p_flat, p_table)):
    ratio = table / flat
    print(f"{name}: dgemm {flat:.9g} s flat, {table:.9g} s with the table: x{ratio:.6f} (expected x2)")
    ok &= abs(ratio - 2) < 1e-6
# flat: both charge 2 n^3 / p over the same share of K (2 steps of 64 = 4 chunks of 32)
print(f"flat charges equal: {s_flat:.9g} vs {p_flat:.9g}")
ok &= abs(s_flat / p_flat - 1) < 1e-9
sys.exit(0 if ok else 1)
PY
echo "both kernels charged by one DGEMM model: ok"
