#!/usr/bin/env bash
# Every gather/scatter figure command of run-graphene-gather-scatter.sh (thesis Figs 3.31-3.35,
# 3.37-3.39, 3.41-3.45; results/figures.csv) at a tiny size (--tiny: 8 ranks, <= 64 KiB, G = 1,2,4):
# each writes its CSV with a row per G and run, the algorithm forced at the flat level and at both
# levels as the figure asks (native: the decision everywhere), linear_sync's SimGrid segment, and its
# plot; a forced name must reach SimGrid (binomial and linear scatter differ). ~20 s of host time
# (40 s on a loaded host); 77 without SimGrid.
# usage: gather_scatter_smoke.sh SMPI_BIN_DIR
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
bin="${1:-}"
command -v smpirun >/dev/null || { echo "smpirun not found" >&2; exit 77; }
[ -n "$bin" ] && [ -x "$bin/hympi-smpi-hier-coll" ] || { echo "no SMPI hympi-smpi-hier-coll in '$bin'" >&2; exit 77; }
/usr/bin/python3 -c "import matplotlib" 2>/dev/null || { echo "no matplotlib for /usr/bin/python3" >&2; exit 77; }
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
figs="fig3_31 fig3_32-3_33 fig3_34 fig3_35 fig3_37 fig3_38-3_39 fig3_41-3_42 fig3_43-3_45"
for f in $figs; do
  "$root/apps/smpi/run-graphene-gather-scatter.sh" "$f" --bin "$bin" --tiny "$work" > "$work/$f.log" 2>&1 ||
    { cat "$work/$f.log"; echo "$f failed"; exit 1; }
done
rc=0; "$root/apps/smpi/run-graphene-gather-scatter.sh" fig3_99 --tiny "$work" > "$work/bad.log" 2>&1 || rc=$?
[ "$rc" -eq 2 ] && grep -q "error: unknown FIGURE 'fig3_99'" "$work/bad.log" || { cat "$work/bad.log"; echo "a bad FIGURE was not refused (exit $rc)"; exit 1; }
python3 - "$work" <<'PY'
import csv, glob, os, sys
LS, BL, BI = "ompi_linear_sync", "ompi_basic_linear", "ompi_binomial"
# figure: (op, ranks_per_node, the forced algorithms in run order)
want = {"fig3_31": ("gather", "4", [LS]), "fig3_32-3_33": ("gather", "4", [LS]), "fig3_34": ("gather", "4", [LS]),
        "fig3_35": ("gather", "4", [LS]), "fig3_37": ("gather", "4", ["ompi"]),
        "fig3_38-3_39": ("gather", "1", [LS]), "fig3_41-3_42": ("scatter", "4", [BL, "ompi"]),
        "fig3_43-3_45": ("scatter", "4", [BI, BL, "ompi"])}
flat = {}
for fig, (op, cores, algos) in want.items():
    [path] = glob.glob(os.path.join(sys.argv[1], f"graphene-thesis-{fig}-*.csv"))
    assert os.path.exists(path[:-4] + ".png"), path
    rows = list(csv.DictReader(open(path)))
    assert len(rows) == 3 * len(algos) and {r["op"] for r in rows} == {op}, (fig, len(rows))
    assert [r["groups"] for r in rows] == ["1", "2", "4"] * len(algos), fig
    assert [r["algo_flat"] for r in rows] == [a for a in algos for _ in range(3)], fig
    for r in rows:
        assert r["ranks"] == "8" and r["ranks_per_node"] == cores and r["machine"] == "graphene-gige", r
        assert float(r["time_s"]) > 0 and float(r["host_s"]) >= 0 and r["fidelity"] == "faithful", r
        if r["groups"] != "1":  # the figure's algorithm at both levels
            assert r["algo_between"] == r["algo_inside"] == r["algo_flat"], r
        if r["algo_flat"] == LS:  # blocks of 8 KiB (flat) to 32 KiB (2 leaders) < 90 KiB: SimGrid's 1 KiB
            assert r["seg_between"] == "1024", r
        flat[(fig, r["algo_flat"])] = float(r["time_s"]) if r["groups"] == "1" else flat.get((fig, r["algo_flat"]))
assert flat[("fig3_43-3_45", BI)] != flat[("fig3_43-3_45", BL)], flat  # the forced name reaches SimGrid
print("gather/scatter graphene smoke: ok, 8 figure commands")
PY
