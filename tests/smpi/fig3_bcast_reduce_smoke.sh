#!/usr/bin/env bash
# The broadcast/reduce/allreduce figure commands of run-graphene-hier-fig3.sh (thesis Figs 3.6 on BG/P, 3.8-3.12,
# 3.16, 3.18, 3.21, 3.25, 3.26) at a tiny size (--tiny: 8 ranks, <= 64 KiB, G = 1,2,4, one p, size and two algorithms per loop): each writes its
# CSV (a row per G and run, the algorithm named at each level as asked) and its plot. Two schedule
# checks: the flat ompi_pipeline bcast of 16 KiB on 8 nodes is a 7-hop unsegmented chain, 7 x (alpha +
# m/beta) of Graphene GigE's documented alpha = 48.06 us, beta = 117.59 MB/s (apps/smpi/README.md), as
# results/simulated/model_ompi_chain_bcast.py models it (a binomial tree would be 3 hops); and Fig
# 3.16's MPI_Comm_split (a gather of all p colors) costs more than hympi's creation (MPI_Comm_create_group
# by the members) at every G > 1. 21 simulations, ~15 s of CPU; 77 without SimGrid.
# usage: fig3_bcast_reduce_smoke.sh SMPI_BIN_DIR
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
bin="${1:-}"
command -v smpirun >/dev/null || { echo "smpirun not found" >&2; exit 77; }
for e in hympi-smpi-hier-coll hympi-smpi-split-cost; do
  [ -n "$bin" ] && [ -x "$bin/$e" ] || { echo "no SMPI $e in '$bin'" >&2; exit 77; }
done
/usr/bin/python3 -c "import matplotlib" 2>/dev/null || { echo "no matplotlib for /usr/bin/python3" >&2; exit 77; }
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
figs="fig3_6 fig3_8-3_9 fig3_10 fig3_11-3_12 fig3_16 fig3_18 fig3_21 fig3_25 fig3_26"
for f in $figs; do
  "$root/apps/smpi/run-graphene-hier-fig3.sh" "$f" --bin "$bin" --tiny "$work" > "$work/$f.log" 2>&1 ||
    { cat "$work/$f.log"; echo "$f failed"; exit 1; }
done
ROOT="$root" python3 - "$work" <<'PY'
import csv, glob, os, sys
d = sys.argv[1]
want = {  # figure: (op, the runs' flat algorithms in order; --tiny shortens the loops to one p and size)
    "fig3_8-3_9": ("bcast", ["ompi_pipeline"] * 2 + ["hympi_chain:1:0"] * 2 + ["hympi_chain:4:0"] * 2),
    "fig3_10": ("bcast", ["ompi_pipeline"] * 2 + ["ompi"]),
    "fig3_11-3_12": ("bcast", ["ompi_pipeline"] * 2),
    "fig3_16": ("reduce", ["ompi", "ompi_pipeline", "hympi_pipeline:1024"]),
    "fig3_18": ("reduce", ["ompi_basic_linear", "ompi_in_order_binary"]),
    "fig3_21": ("reduce", ["ompi_basic_linear", "ompi_in_order_binary"]),
    "fig3_25": ("allreduce", ["ompi_ring_segmented"] * 2),
    "fig3_26": ("allreduce", ["default", "rdb"] * 2),
}
for fig, (op, algos) in want.items():
    [path] = [p for p in glob.glob(os.path.join(d, f"graphene-thesis-{fig}-*.csv"))
              if not p.endswith("-split.csv") and "-sizing-" not in p]
    assert os.path.exists(path[:-4] + ".png"), path
    rows = list(csv.DictReader(open(path)))
    assert len(rows) == 3 * len(algos) and {r["op"] for r in rows} == {op}, (fig, len(rows))
    assert [r["groups"] for r in rows] == ["1", "2", "4"] * len(algos), fig
    assert [r["algo_flat"] for r in rows[::3]] == algos, (fig, [r["algo_flat"] for r in rows[::3]])
    for r in rows:
        m = "graphene-ib" if op == "reduce" or (fig == "fig3_25" and rows.index(r) >= 3) else "graphene-gige"
        assert r["ranks"] == "8" and float(r["time_s"]) > 0 and r["machine"] == m, (m, r)
        assert r["fidelity"] == "faithful" and float(r["host_s"]) >= 0, r
        assert r["reps"] == "3", r  # the runner's default --reps: the minimum of 3 after a warm-up
        if r["groups"] != "1":  # a named algorithm runs among the leaders too
            assert r["algo_between"] == r["algo_flat"], r
# The flat chain: 7 hops of alpha + m / beta (16 KiB, eager, one rank per node in one cabinet).
r = next(r for r in csv.DictReader(open(os.path.join(d, "graphene-thesis-fig3_8-3_9-bcast-128.csv")))
         if r["bytes"] == "16384" and r["groups"] == "1")
sys.path.insert(0, os.path.join(os.environ["ROOT"], "results", "simulated"))
from model_ompi_chain_bcast import chain  # noqa: E402  (its alpha, beta: Graphene GigE's documented ones)
hop = 48.06e-6 + 16384 / 117.59e6
model = chain(8, 16384, 1, 48.06e-6, 117.59e6)
assert abs(model / (7 * hop) - 1) < 1e-9, model  # fanout 1 = 7 hops
assert abs(float(r["time_s"]) / model - 1) < 0.03, (r["time_s"], model)
sizing = list(csv.DictReader(open(os.path.join(d, "graphene-thesis-fig3_26-sizing-rdb-1pernode.csv"))))
assert [(s["algo_flat"], s["ranks_per_node"], s["groups"]) for s in sizing] == [("rdb", c, g) for c in "41" for g in "124"], sizing
# Fig 3.16: the split gathers every rank's color; hympi's groups are made by their members.
split = list(csv.DictReader(open(os.path.join(d, "graphene-thesis-fig3_16-split.csv"))))
assert [s["groups"] for s in split] == ["1", "2", "4"], split
for s in split:
    assert float(s["split_s"]) > 0 and float(s["create_group_s"]) > 0 and s["reps"] == "3", s
    if s["groups"] != "1":
        assert float(s["split_s"]) > float(s["hympi_create_s"]), s
bgp = list(csv.DictReader(open(os.path.join(d, "bgp-thesis-fig3_6-split.csv"))))
assert [(s["machine"], s["ranks"], s["groups"]) for s in bgp] == [("bgp", "8", g) for g in "124"], bgp
assert os.path.exists(os.path.join(d, "bgp-thesis-fig3_6-split.png"))
print(f"fig3 bcast/reduce/allreduce smoke: ok, {len(want)} figure commands, chain {float(r['time_s']) / hop:.2f} hops")
PY
# Fig 3.25 at the thesis' 512 ranks with its 1 KB / 4 KB segments (fig3_25-segments-512; own directory: its
# CSV's name shares fig3_25's prefix): 3 sizes x 2 segments, the layer's segmented ring at every level.
mkdir "$work/seg512"
"$root/apps/smpi/run-graphene-hier-fig3.sh" fig3_25-segments-512 --bin "$bin" --tiny "$work/seg512" > "$work/seg512.log" 2>&1 ||
  { cat "$work/seg512.log"; echo "fig3_25-segments-512 failed"; exit 1; }
python3 - "$work/seg512" <<'PY'
import csv, os, sys
path = os.path.join(sys.argv[1], "graphene-thesis-fig3_25-allreduce-segring-segments-512.csv")
assert os.path.exists(path[:-4] + ".png"), path
rows = list(csv.DictReader(open(path)))
assert [r["algo_flat"] for r in rows[::3]] == [f"hympi_ring_segmented:{s}" for s in (1024, 4096) for _ in range(3)], rows
assert all(r["op"] == "allreduce" and r["reps"] == "3" and r["ranks"] == "8" for r in rows), rows
assert all(r["algo_between"] == r["algo_flat"] for r in rows if r["groups"] != "1"), rows
print("fig3_25-segments-512 smoke: ok,", len(rows), "rows")
PY
