#!/usr/bin/env bash
# Thesis Fig 3.7's command at a tiny size (results/figures.csv): run-hier-bcast.sh on graphene-gige,
# one rank per node (--cores 1), 8 ranks, 16 KiB, G = 1,2,4,8, Graphene's faithful set. Checks the
# rows: one per G, ranks_per_node 1, the platform named with --cores 1, smpi_bcast ompi at both
# levels (bcast smpi:ompi), G = p equal to the flat broadcast, a host time. < 2 s; 77 without SimGrid.
# usage: fig3_7_smoke.sh SMPI_BIN_DIR
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
bin="${1:-}"
command -v smpirun >/dev/null || { echo "smpirun not found" >&2; exit 77; }
[ -n "$bin" ] && [ -x "$bin/hympi-smpi-hier-bcast" ] || { echo "no SMPI hympi-smpi-hier-bcast in '$bin'" >&2; exit 77; }
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
"$root/apps/smpi/run-hier-bcast.sh" --machine graphene-gige --ranks 8 --cores 1 --bytes 16384 --groups 1,2,4,8 \
  --bin "$bin" --out "$work/fig3_7.csv" > "$work/log" 2>&1 || { cat "$work/log"; exit 1; }
python3 - "$work/fig3_7.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [r["groups"] for r in rows] == ["1", "2", "4", "8"], rows
for r in rows:
    assert r["machine"] == "graphene-gige" and r["ranks_per_node"] == "1", r
    assert "--cores 1" in r["platform"], r["platform"]
    assert r["smpi_bcast"] == "ompi" and r["bcast"] == "smpi:ompi" and r["fidelity"] == "faithful", r
    assert float(r["host_s"]) >= 0 and float(r["time_s"]) > 0, r
assert rows[0]["time_s"] == rows[-1]["time_s"], "G = p must be the flat broadcast again"
print("fig3_7 smoke: ok,", ", ".join(f"G={r['groups']} {float(r['time_s'])*1e3:.4f} ms" for r in rows))
PY
