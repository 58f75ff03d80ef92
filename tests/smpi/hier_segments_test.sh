#!/usr/bin/env bash
# The simulated layer's segmented Open MPI algorithms (apps/smpi/glue/sim_segmented.cpp, named
# through run-hier-coll.sh) against their hand-computed schedules and against SimGrid 3.32's own
# versions where those pick the same segment. graphene-gige, 16 ranks, one per node.
# Units, measured here: h = a whole 1 MiB hop (binomial_tree between 8 leaders + inside = 3 + 1 hops,
# rendezvous); t(x) = one x-byte hop = the flat layer chain hympi_chain:1:0 of 16 ranks / 15 (a rank
# receives, then forwards: 15 hops in a row, nothing else on the links).
#  - reduce hympi_pipeline:SEG between 8 leaders (inside: ompi_binomial, 1 hop): one segment = 7 + 1
#    hops (2%); 16 segments of 64 KiB = (7 + 15) segment hops + 1 (h + 22 h / 16, 10%: each segment
#    also pays the latency); at 32 KiB, SimGrid's ompi_pipeline's pick here, equal to ompi_pipeline
#    flat and between (1%);
#  - allreduce hympi_ring_segmented:SEG flat, 1 MiB = 16 blocks of 64 KiB: k phases of 15 steps of
#    one SEG-byte segment, then the 15-step allgather of blocks: 15 k t(SEG) + 15 t(64 KiB) with
#    k = 64 / 16 / 4 at 1 / 4 / 16 KiB (8%: ring steps run in both directions of a link at once);
#    with 1 MiB segments equal to SimGrid's ompi_ring_segmented (1%): at 1 MiB its plain-ring
#    fallback, at 16 MiB two phases among the 8 leaders;
#  - gather hympi_linear_sync:SEG flat, 4 KiB blocks: the root's 15 handshakes in a row, each a
#    0-byte sync and the first segment: SEG 0 (the whole block) 15 (t(8) + t(4 KiB)), SEG 1 KiB
#    15 (t(8) + t(1 KiB)) + t(3 KiB) (the last block's rest; 10%: the sync's own overheads); with
#    1 KiB (4 KiB blocks) and 32 KiB (128 KiB blocks) equal to SimGrid's ompi_linear_sync (1%), and
#    between 8 leaders (4 KiB blocks; inside ompi_basic_linear) equal to it there (1%);
#  - the CSV names the algorithm and its segment; a bad spelling and a --flat of another op stop, named;
#  - the figure commands with the thesis' segments (run-graphene-hier-fig3.sh fig3_17/3_20/3_25-segments,
#    run-graphene-gather-scatter.sh fig3_31/3_32-3_33/3_38-3_39-segments) at --tiny: rows naming the layer's algorithm;
#  - values: hympi-smpi-segmented-check (probe/segmented_check.cpp) on 8 ranks, every root, the three named
#    at every level (flat, inside, between) with segments of 3 doubles / unsegmented / 1 double, 37 doubles.
# ~19 s of CPU, 0.85 GB peak (the 16 MiB allreduces); 77 without SimGrid. usage: hier_segments_test.sh SMPI_BIN_DIR
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
bin="${1:-}"
command -v smpirun >/dev/null || { echo "smpirun not found" >&2; exit 77; }
[ -n "$bin" ] && [ -x "$bin/hympi-smpi-hier-coll" ] || { echo "no SMPI hympi-smpi-hier-coll in '$bin'" >&2; exit 77; }
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
run() {  # run NAME OPTIONS...: one CSV per run
  local name="$1"; shift
  "$root/apps/smpi/run-hier-coll.sh" --machine graphene-gige --ranks 16 --cores 1 --timeout 60 --bin "$bin" \
    --out "$work/$name.csv" "$@" > "$work/$name.log" 2>&1 || { cat "$work/$name.log"; exit 1; }
}
[ -x "$bin/hympi-smpi-segmented-check" ] || { echo "no hympi-smpi-segmented-check in '$bin'"; exit 1; }
source "$root/apps/smpi/smpi-flags.sh"
python3 "$root/apps/smpi/platforms/make_platform.py" graphene-gige --ranks 8 --cores 2 --out "$work/p.xml" > /dev/null
for segs in "24 0 8" "0 8 24"; do
  read -r f i b <<< "$segs"
  HYMPI_SIM_REDUCE_FLAT=hympi_pipeline:$f HYMPI_SIM_REDUCE_INSIDE=hympi_pipeline:$i HYMPI_SIM_REDUCE_BETWEEN=hympi_pipeline:$b \
  HYMPI_SIM_ALLREDUCE_FLAT=hympi_ring_segmented:$f HYMPI_SIM_ALLREDUCE_INSIDE=hympi_ring_segmented:$i \
  HYMPI_SIM_ALLREDUCE_BETWEEN=hympi_ring_segmented:$b HYMPI_SIM_GATHER_FLAT=hympi_linear_sync:$f \
  HYMPI_SIM_GATHER_INSIDE=hympi_linear_sync:$i HYMPI_SIM_GATHER_BETWEEN=hympi_linear_sync:$b \
    timeout 60 smpirun -np 8 -platform "$work/p.xml" -hostfile "$work/p.hosts" "${HYMPI_SMPI_FLAGS[@]}" \
    "$bin/hympi-smpi-segmented-check" 37 > "$work/values.log" 2>&1 || { cat "$work/values.log"; exit 1; }
  grep -q "segmented check: ok" "$work/values.log" || { cat "$work/values.log"; exit 1; }
done
for b in 8 1024 3072 4096 16384 65536; do run "t$b" --op bcast --bytes "$b" --groups 1 --flat hympi_chain:1:0; done
run h --op bcast --bytes 1048576 --groups 1,8 --algo-between binomial_tree --algo-inside binomial_tree
m=(--op reduce --bytes 1048576 --groups 1,8 --algo-inside ompi_binomial)
run r_one "${m[@]}" --flat ompi_binomial --algo-between hympi_pipeline:0
run r_16 "${m[@]}" --flat ompi_binomial --algo-between hympi_pipeline:65536
run r_ompi "${m[@]}" --flat ompi_pipeline --algo-between ompi_pipeline
run r_32k "${m[@]}" --flat hympi_pipeline:32768 --algo-between hympi_pipeline:32768
for s in 1024 4096 16384; do run "a$s" --op allreduce --bytes 1048576 --groups 1 --flat "hympi_ring_segmented:$s"; done
a=(--op allreduce --groups 1,8 --algo-inside ompi_binomial --algo-inside-bcast binomial_tree)
run a_ompi1 "${a[@]}" --bytes 1048576 --flat ompi_ring_segmented
run a_1m1 "${a[@]}" --bytes 1048576 --flat hympi_ring_segmented:1048576
run a_ompi16 "${a[@]}" --bytes 16777216 --flat ompi_ring_segmented
run a_1m16 "${a[@]}" --bytes 16777216 --flat hympi_ring_segmented:1048576
run g_whole --op gather --bytes 65536 --groups 1 --flat hympi_linear_sync:0
run g_1k --op gather --bytes 65536 --groups 1 --flat hympi_linear_sync:1024
run g_ompi --op gather --bytes 65536 --groups 1 --flat ompi_linear_sync
run g_ompi32 --op gather --bytes 2097152 --groups 1 --flat ompi_linear_sync
run g_32k --op gather --bytes 2097152 --groups 1 --flat hympi_linear_sync:32768
g=(--op gather --bytes 32768 --groups 1,8 --flat ompi_basic_linear --algo-inside ompi_basic_linear)
run g_level "${g[@]}" --algo-between hympi_linear_sync:1024
run g_level_ompi "${g[@]}" --algo-between ompi_linear_sync
mkdir "$work/tiny"
for f in fig3_17-segments fig3_20-segments fig3_25-segments; do
  "$root/apps/smpi/run-graphene-hier-fig3.sh" "$f" --tiny "$work/tiny" --bin "$bin" > "$work/$f.log" 2>&1 ||
    { cat "$work/$f.log"; exit 1; }
done
for f in fig3_31-segments fig3_32-3_33-segments fig3_38-3_39-segments; do
  "$root/apps/smpi/run-graphene-gather-scatter.sh" "$f" --tiny "$work/tiny" --bin "$bin" > "$work/$f.log" 2>&1 ||
    { cat "$work/$f.log"; exit 1; }
done
refused() {  # refused NAME MESSAGE OPTIONS...: the run must fail and say MESSAGE
  local name="$1" message="$2"; shift 2
  if "$root/apps/smpi/run-hier-coll.sh" --machine graphene-gige --ranks 16 --cores 1 --bytes 65536 --timeout 60 \
      --bin "$bin" --out "$work/$name.csv" "$@" > "$work/$name.log" 2>&1; then
    echo "$name: accepted"; exit 1
  fi
  grep -qF -- "$message" "$work/$name.log" || { cat "$work/$name.log"; echo "$name: not named"; exit 1; }
}
refused bad_seg "'hympi_pipeline:12:3' is not hympi_pipeline:SEGMENT_BYTES" --op reduce --groups 1,8 \
  --algo-between hympi_pipeline:12:3
refused bad_op "--flat 'hympi_linear_sync:1024' is not a reduce of the layer's" --op reduce --groups 1 \
  --flat hympi_linear_sync:1024
python3 - "$work" <<'PY'
import csv, os, sys
def rows(name):
    return {int(r["groups"]): r for r in csv.DictReader(open(os.path.join(sys.argv[1], name + ".csv")))}
def t(name, g=1):
    return float(rows(name)[g]["time_s"])
def near(what, got, want, tol):
    assert abs(got / want - 1) < tol, (what, got, want, f"{got / want - 1:+.3%} (tolerance {tol:.0%})")
    return f"{what} {got * 1e3:.3f}/{want * 1e3:.3f} ms"
hop = {b: t(f"t{b}") / 15 for b in (8, 1024, 3072, 4096, 16384, 65536)}
h = t("h", 8) / 4
out = [near("pipeline 1 segment", t("r_one", 8), 8 * h, 0.02),
       near("pipeline 16 x 64 KiB", t("r_16", 8), h + 22 * h / 16, 0.10)]
for g in (1, 8):
    out.append(near(f"pipeline 32 KiB vs ompi_pipeline G={g}", t("r_32k", g), t("r_ompi", g), 0.01))
assert rows("r_16")[8]["algo_between"] == "hympi_pipeline:65536" and rows("r_16")[8]["seg_between"] == "65536", rows("r_16")[8]
assert rows("r_ompi")[1]["seg_between"] == "32768" and rows("r_ompi")[8]["seg_between"] == "32768", rows("r_ompi")
# 1 MiB of doubles on 16 ranks: blocks of 64 KiB, k = 64 KiB / SEG phases
for seg, k in ((1024, 64), (4096, 16), (16384, 4)):
    out.append(near(f"segmented ring {seg} B", t(f"a{seg}"), 15 * k * hop[seg] + 15 * hop[65536], 0.08))
for g in (1, 8):
    out.append(near(f"ring 1 MiB segments vs ompi_ring_segmented 1 MiB G={g}", t("a_1m1", g), t("a_ompi1", g), 0.01))
out.append(near("ring 1 MiB segments vs ompi_ring_segmented 16 MiB G=8", t("a_1m16", 8), t("a_ompi16", 8), 0.01))
out.append(near("linear_sync whole block", t("g_whole"), 15 * (hop[8] + hop[4096]), 0.10))
out.append(near("linear_sync 1 KiB", t("g_1k"), 15 * (hop[8] + hop[1024]) + hop[3072], 0.10))
out.append(near("linear_sync 1 KiB between vs ompi_linear_sync", t("g_level", 8), t("g_level_ompi", 8), 0.01))
out.append(near("linear_sync 1 KiB vs ompi_linear_sync", t("g_1k"), t("g_ompi"), 0.01))
out.append(near("linear_sync 32 KiB vs ompi_linear_sync", t("g_32k"), t("g_ompi32"), 0.01))
assert rows("g_level")[8]["algo_between"] == "hympi_linear_sync:1024" and rows("g_level")[8]["seg_between"] == "1024", rows("g_level")[8]
assert rows("g_level_ompi")[8]["seg_between"] == "1024", rows("g_level_ompi")[8]  # SimGrid's pick there
tiny = {"fig3_17-reduce-segments": {"hympi_pipeline:32768", "hympi_pipeline:65536"},
        "fig3_20-reduce-128-segments": {"hympi_pipeline:32768", "hympi_pipeline:65536"},
        "fig3_25-allreduce-segring-segments": {"hympi_ring_segmented:1024", "hympi_ring_segmented:4096"},
        "fig3_31-gather-linsync-512-segments": {"hympi_linear_sync:4096"},
        "fig3_32-3_33-gather-linsync-64-segments": {"hympi_linear_sync:4096", "hympi_linear_sync:65536"},
        "fig3_38-3_39-gather-linsync-128-segments": {"hympi_linear_sync:1024", "hympi_linear_sync:65536"}}
for name, algos in tiny.items():
    got = list(csv.DictReader(open(os.path.join(sys.argv[1], "tiny", f"graphene-thesis-{name}.csv"))))
    assert {r["algo_flat"] for r in got} == algos and all(r["algo_between"] in algos | {"-"} for r in got), (name, got)
print("hier segments: ok;", "; ".join(out))
PY
