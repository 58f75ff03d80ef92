#!/usr/bin/env bash
# groups=auto's measured probe, simulated live: 256 BG/P-like torus ranks with
# binomial and with van de Geijn broadcasts (about 10 s of host time). Both picks
# must be within 5% of the best G of the committed sweep
# (results/simulated/fig4.6-torus-256.csv); with binomial broadcasts the formula
# model misses the torus' grouping gain there by 10%.
# Usage: auto_probe_test.sh SMPI_BIN_DIR
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
command -v smpirun >/dev/null || { echo "smpirun not found: skipped"; exit 77; }
[ -x "$1/hympi-auto-groups" ] || { echo "no $1/hympi-auto-groups: skipped"; exit 77; }
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
for bcast in binomial_tree scatter_LR_allgather; do
  "$root/apps/smpi/run-auto-probe.sh" --bin "$1" --ranks 256 -n 8192 -b 256 --bcast "$bcast" \
    --out "$work/auto-probe-bgp-torus-256-8192-256-$bcast.csv"
done
python3 "$root/apps/smpi/auto_choice.py" --check --probe-dir "$work" "$root/results/simulated/fig4.6-torus-256.csv"
