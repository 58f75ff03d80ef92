#!/usr/bin/env bash
# The skeleton (apps/smpi/run-skeleton.sh) against the real app (run-sweep.sh, hympi-summa) on
# the same bgp platform: every simulated time, broadcast time, sync and dgemm time and the
# broadcast counts equal to the last printed digit (check_skeleton.py), for SUMMA, G = 4 and
# G = 16, at 64 ranks (one simulation per G, as run-sweep.sh runs them) and at 256 ranks (one
# simulation for all three: the multiplies after the first start from the previous one's skew,
# which the skeleton must reproduce too); with SMPI's binomial_tree and scatter_LR_allgather
# (the legacy fidelity set) and with the faithful set, also unprivatized; then the step marks, and the usage errors
# of both the skeleton and its runner (exit 2).
# usage: skeleton_test.sh BIN_DIR      (exit 77: no SimGrid or no SMPI build)
set -euo pipefail
bin="$1"
here="$(cd "$(dirname "$0")" && pwd)"; root="$(cd "$here/../.." && pwd)"
command -v smpirun >/dev/null || { echo "SKIP: smpirun not installed"; exit 77; }
[ -x "$bin/hympi-summa" ] && [ -x "$bin/hympi-smpi-summa-skeleton" ] || { echo "SKIP: no SMPI build in $bin"; exit 77; }
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
export HYMPI_SMPI_BIN="$bin"

compare() {  # compare RANKS N MODE RUN-OPTIONS...: both programs, then check_skeleton.py (env B: b, default 64)
  local ranks="$1" n="$2" mode=() tag; shift 2
  [ "$1" = one ] && mode=(--one-process)
  shift
  tag="$ranks-$(echo "$*" | tr -c 'a-zA-Z0-9_\n' -)"
  local args=(--machine bgp --ranks "$ranks" -n "$n" -b "${B:-64}" --steps 2 --groups 1,4,16 "${mode[@]}" "$@")
  "$root/apps/smpi/run-sweep.sh" "${args[@]}" --out "$work/app-$tag.csv" | grep -E '^(SUMMA|G=)'
  "$root/apps/smpi/run-skeleton.sh" "${args[@]}" "${skeleton_only[@]}" --out "$work/skeleton-$tag.csv" | grep -E '^(SUMMA|G=)'
  python3 "$here/check_skeleton.py" "$work/app-$tag.csv" "$work/skeleton-$tag.csv" 2
}
skeleton_only=()  # run-skeleton.sh's own options
# The legacy set (SMPI's broadcasts: the committed rows' settings), then bgp's default, the faithful set
# (the simulated MPI layer's charged messages and its own broadcast).
for bcast in binomial_tree scatter_LR_allgather; do
  compare 64 1024 per-G --fidelity legacy --bcast "$bcast"
  compare 256 1024 one --fidelity legacy --bcast "$bcast"
done
# One program copy for all ranks (scale runs), the simulated MPI layer preloaded: the same times,
# under SMPI's broadcast, the layer's MPICH rule (bgp's default) and BG/P's DCMF rule.
skeleton_only=(--no-privatization)
compare 64 1024 per-G --fidelity legacy --bcast binomial_tree
compare 64 1024 per-G
compare 64 1024 per-G --bcast dcmf
skeleton_only=()
# The merged ring (--ring-merge) with 16 broadcasts in flight at once (1 MiB panels: scatter + ring):
# its root snapshots once crashed the simulation (recursive_init_error) whenever two roots started together.
B=256 compare 64 4096 per-G --bcast mpich --ring-merge 2
compare 64 1024 per-G
compare 256 1024 one

# Usage errors: the skeleton itself (inside smpirun, every rank agrees, exit 2) and its runner.
source "$root/apps/smpi/smpi-flags.sh"
python3 "$root/apps/smpi/platforms/make_platform.py" bgp-torus --ranks 16 --out "$work/p.xml" >/dev/null
expect_usage() {  # expect_usage MESSAGE-PART COMMAND...
  local part="$1" rc=0; shift
  "$@" > "$work/usage.log" 2>&1 || rc=$?
  [ "$rc" = 2 ] && grep -qF -- "$part" "$work/usage.log" ||
    { cat "$work/usage.log"; echo "FAIL: expected exit 2 with '$part', got $rc: $*"; exit 1; }
  echo "refused (exit 2): $part"
}
skeleton() {
  smpirun -np 16 -platform "$work/p.xml" -hostfile "$work/p.hosts" "${HYMPI_SMPI_FLAGS[@]}" "$bin/hympi-smpi-summa-skeleton" "$@"
}
skeleton -h > "$work/help.txt" && grep -q -- "--groups LIST" "$work/help.txt" || { echo "FAIL: -h"; exit 1; }
expect_usage "-n 102 must be a multiple of the grid's P = 4 and Q = 4" skeleton -n 102 -b 5
expect_usage "must be multiples of b = 48" skeleton -n 128 -b 48
expect_usage "groups 3x1 must divide the grid 4x4" skeleton -n 128 -b 32 --groups summa,3x1
expect_usage "a --groups entry must be PxQ" skeleton -n 128 -b 32 --groups 2y2
expect_usage "--grid 2x4 has 8 ranks but the simulation has 16" skeleton -n 128 --grid 2x4
expect_usage "--steps must be a non-negative integer" skeleton --steps -1
expect_usage "unknown option '--policy'" skeleton --policy hybrid
expect_usage "cannot write --csv" skeleton -n 128 -b 32 --csv "$work/no/such/dir/x.csv"
expect_usage "run-skeleton.sh: groups 3x3 must divide the grid 8x8" "$root/apps/smpi/run-skeleton.sh" --ranks 64 -b 64 \
  -n 1024 --groups 3x3 --out "$work/bad.csv"
expect_usage "run-skeleton.sh: -n 1001 must be a multiple" "$root/apps/smpi/run-skeleton.sh" --ranks 64 -n 1001 \
  --out "$work/bad.csv"
expect_usage "run-skeleton.sh: unknown option '--policy'" "$root/apps/smpi/run-skeleton.sh" --policy hybrid
[ ! -e "$work/bad.csv" ] || { echo "FAIL: a refused run wrote rows"; exit 1; }
echo "skeleton: equal to hympi-summa; usage errors refused"
