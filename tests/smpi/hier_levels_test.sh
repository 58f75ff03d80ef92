#!/usr/bin/env bash
# Per-level algorithms (apps/smpi/glue/sim_levels.cpp through run-hier-coll.sh) change the simulated
# time, each level on its own, in the direction their schedules say. graphene-gige, 16 ranks, one per
# node, 1 MiB, G = 1,2,8:
#  - reduce between the 8 leaders: ompi_basic_linear (the root receives 7 vectors one after the other)
#    slower than ompi_binomial (3 rounds) at G = 8, by > 1.5x; the flat rows (G = 1) equal (the level
#    names do not touch the flat reduce); G = 2's leader level of 2 ranks is the same either way
#    (within 5%: linear and binomial are one message);
#  - reduce inside the groups (G = 2, 8 ranks each): ompi_basic_linear slower than ompi_binomial;
#  - bcast between the 8 leaders: binomial_tree (3 rounds of the whole vector) slower than
#    ompi_pipeline (segments overlap along a chain) at G = 8;
#  - the layer's own chain broadcast between the 8 leaders (hympi_chain:F:SEG, Open MPI's chain that
#    SimGrid lacks) against its hand-computed schedule, in units of one whole-message hop h (binomial
#    between + inside = 3 + 1 hops): fanout 1 unsegmented = 7 + 1 hops (2x binomial's total, 2%),
#    fanout 2 = 4 + 1 (chains of 4 and 3, the root's two sends in turn; 1.25x, 2%), fanout 1 in 16
#    segments of 64 KiB = (7 + 15) segment hops + 1 (h + 22 h / 16, 10%: each segment also pays the
#    latency); a bad spelling stops the run, named;
#  - a scatter with no --algo-between runs --flat's algorithm among the leaders (their level is an
#    MPI_Scatterv, which would otherwise run SMPI's scatterv setting): the same time as naming it;
#  - the CSV names the algorithm that ran at each level; a name SimGrid lacks fails the run, named.
# < 10 s; 77 without SimGrid. usage: hier_levels_test.sh SMPI_BIN_DIR
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
bin="${1:-}"
command -v smpirun >/dev/null || { echo "smpirun not found" >&2; exit 77; }
[ -n "$bin" ] && [ -x "$bin/hympi-smpi-hier-coll" ] || { echo "no SMPI hympi-smpi-hier-coll in '$bin'" >&2; exit 77; }
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
run() {  # run NAME OPTIONS...: one CSV per run
  local name="$1"; shift
  "$root/apps/smpi/run-hier-coll.sh" --machine graphene-gige --ranks 16 --cores 1 --bytes 1048576 --groups 1,2,8 \
    --timeout 60 --bin "$bin" --out "$work/$name.csv" "$@" > "$work/$name.log" 2>&1 || { cat "$work/$name.log"; exit 1; }
}
run r_lin_between --op reduce --algo-between ompi_basic_linear --algo-inside ompi_binomial
run r_bin_between --op reduce --algo-between ompi_binomial --algo-inside ompi_binomial
run r_lin_inside --op reduce --algo-between ompi_binomial --algo-inside ompi_basic_linear
run b_binomial --op bcast --algo-between binomial_tree --algo-inside binomial_tree
run b_pipeline --op bcast --algo-between ompi_pipeline --algo-inside binomial_tree
run b_chain1 --op bcast --algo-between hympi_chain:1:0 --algo-inside binomial_tree --groups 1,8
run b_chain2 --op bcast --algo-between hympi_chain:2:0 --algo-inside binomial_tree --groups 1,8
run b_chain1s --op bcast --algo-between hympi_chain:1:65536 --algo-inside binomial_tree --groups 1,8
run s_unnamed --op scatter --flat ompi_binomial --algo-inside ompi_binomial --groups 1,4
run s_named --op scatter --flat ompi_binomial --algo-between ompi_binomial --algo-inside ompi_binomial --groups 1,4
if "$root/apps/smpi/run-hier-coll.sh" --machine graphene-gige --ranks 16 --cores 1 --op bcast --groups 1,8 \
    --algo-between hympi_chain:0:0 --timeout 60 --bin "$bin" --out "$work/bad2.csv" > "$work/bad2.log" 2>&1; then
  echo "hympi_chain with fanout 0 was accepted"; exit 1
fi
grep -q "'hympi_chain:0:0' is not hympi_chain:FANOUT:SEGMENT_BYTES" "$work/bad2.log" ||
  { cat "$work/bad2.log"; echo "the bad chain spelling was not named"; exit 1; }
if "$root/apps/smpi/run-hier-coll.sh" --machine graphene-gige --ranks 16 --cores 1 --op reduce --groups 1,8 \
    --algo-between no_such_algo --timeout 60 --bin "$bin" --out "$work/bad.csv" > "$work/bad.log" 2>&1; then
  echo "a level algorithm SimGrid lacks was accepted"; exit 1
fi
grep -q "HYMPI_SIM_REDUCE_BETWEEN=no_such_algo is not a SimGrid reduce algorithm" "$work/bad.log" ||
  { cat "$work/bad.log"; echo "the bad name was not named"; exit 1; }
python3 - "$work" <<'PY'
import csv, os, sys
def rows(name):
    return {int(r["groups"]): r for r in csv.DictReader(open(os.path.join(sys.argv[1], name + ".csv")))}
def t(name, g):
    return float(rows(name)[g]["time_s"])
lin, bino, lin_in = rows("r_lin_between"), rows("r_bin_between"), rows("r_lin_inside")
assert lin[1]["time_s"] == bino[1]["time_s"] == lin_in[1]["time_s"], "the flat reduce moved with a level's name"
assert lin[8]["algo_between"] == "ompi_basic_linear" and lin[8]["algo_inside"] == "ompi_binomial", lin[8]
assert lin[1]["algo_between"] == "-" and lin[1]["algo_flat"] == "ompi", lin[1]
assert t("r_lin_between", 8) > 1.5 * t("r_bin_between", 8), (t("r_lin_between", 8), t("r_bin_between", 8))
assert abs(t("r_lin_between", 2) / t("r_bin_between", 2) - 1) < 0.05, (t("r_lin_between", 2), t("r_bin_between", 2))
assert t("r_lin_inside", 2) > 1.5 * t("r_bin_between", 2), (t("r_lin_inside", 2), t("r_bin_between", 2))
assert t("b_binomial", 8) > 1.2 * t("b_pipeline", 8), (t("b_binomial", 8), t("b_pipeline", 8))
assert rows("b_pipeline")[8]["seg_between"] == "16384", rows("b_pipeline")[8]
assert t("s_unnamed", 4) == t("s_named", 4), ("an unnamed leaders' scatter did not run --flat's", t("s_unnamed", 4), t("s_named", 4))
hop = t("b_binomial", 8) / 4  # a whole-message hop: binomial's 3 rounds between + 1 inside
for name, hops, tol in (("b_chain1", 8, 0.02), ("b_chain2", 5, 0.02), ("b_chain1s", 1 + 22 / 16, 0.10)):
    assert rows(name)[8]["algo_between"].startswith("hympi_chain:"), rows(name)[8]
    assert abs(t(name, 8) / (hops * hop) - 1) < tol, (name, t(name, 8), hops * hop)
    assert t(name, 1) == t("b_binomial", 1), "the flat broadcast moved with a level's name"
print("hier levels: ok; reduce G=8 between linear/binomial %.2f/%.2f ms, G=2 inside linear/binomial %.2f/%.2f ms, "
      "bcast G=8 between binomial/pipeline %.2f/%.2f ms, chain 1/2/1 in 16 segments %.2f/%.2f/%.2f ms" % (t("r_lin_between", 8) * 1e3, t("r_bin_between", 8) * 1e3,
      t("r_lin_inside", 2) * 1e3, t("r_bin_between", 2) * 1e3, t("b_binomial", 8) * 1e3, t("b_pipeline", 8) * 1e3,
      t("b_chain1", 8) * 1e3, t("b_chain2", 8) * 1e3, t("b_chain1s", 8) * 1e3))
PY
