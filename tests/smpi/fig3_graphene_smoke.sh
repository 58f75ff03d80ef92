#!/usr/bin/env bash
# Every chapter-3 figure command of run-graphene-hier-fig3.sh (results/figures.csv) at a tiny size
# (--tiny: 8 ranks, <= 64 KiB, G = 1,2,4): each writes its CSV with a row per G and run, the
# algorithm named at each level as the command asks, and its plot. ~10 s; 77 without SimGrid.
# usage: fig3_graphene_smoke.sh SMPI_BIN_DIR
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
bin="${1:-}"
command -v smpirun >/dev/null || { echo "smpirun not found" >&2; exit 77; }
[ -n "$bin" ] && [ -x "$bin/hympi-smpi-hier-coll" ] || { echo "no SMPI hympi-smpi-hier-coll in '$bin'" >&2; exit 77; }
/usr/bin/python3 -c "import matplotlib" 2>/dev/null || { echo "no matplotlib for /usr/bin/python3" >&2; exit 77; }
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
for f in fig3_19-3_20 fig3_15-3_17 fig3_24 fig3_36 fig3_40; do
  "$root/apps/smpi/run-graphene-hier-fig3.sh" "$f" --bin "$bin" --tiny "$work" > "$work/$f.log" 2>&1 ||
    { cat "$work/$f.log"; echo "$f failed"; exit 1; }
done
python3 - "$work" <<'PY'
import csv, glob, os, sys
want = {"fig3_19-3_20": ("reduce", 3, {"ompi", "ompi_pipeline"}), "fig3_15-3_17": ("reduce", 3, {"ompi", "ompi_pipeline"}),
        "fig3_24": ("allreduce", 1, {"lr"}), "fig3_36": ("gather", 2, {"ompi_binomial", "ompi_basic_linear"}),
        "fig3_40": ("scatter", 3, {"ompi_binomial"})}
for fig, (op, runs, algos) in want.items():
    [path] = glob.glob(os.path.join(sys.argv[1], f"graphene-thesis-{fig}-*.csv"))
    assert os.path.exists(path[:-4] + ".png"), path
    rows = list(csv.DictReader(open(path)))
    assert len(rows) == 3 * runs and {r["op"] for r in rows} == {op}, (fig, len(rows))
    assert [r["groups"] for r in rows] == ["1", "2", "4"] * runs, fig
    assert {r["algo_flat"] for r in rows} == algos, (fig, {r["algo_flat"] for r in rows})
    for r in rows:
        assert r["ranks"] == "8" and float(r["time_s"]) > 0 and float(r["host_s"]) >= 0, r
        if r["groups"] == "2" and r["algo_flat"] != "ompi":  # a forced algorithm runs at both levels
            assert r["algo_between"] == r["algo_flat"], r
print("fig3 graphene smoke: ok, 5 figure commands")
PY
