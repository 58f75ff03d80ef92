#!/usr/bin/env bash
# The thesis' chapter-3 figures on simulated Graphene (run-hier-coll.sh), each figure one command:
# its runs, their CSV (results/simulated/graphene-thesis-fig3_*.csv, rewritten) and its plot. The
# coarsening (what differs from the thesis' runs, to keep each run to a few minutes of host time and
# a few GB) is printed and in apps/smpi/README.md "Chapter 3 on Graphene". Run one at a time
# (flock /work/sim.lock ...); each run is bounded by --timeout.
# usage: run-graphene-hier-fig3.sh FIGURE [--bin DIR] [--machine graphene-gige|graphene-ib] [--reps R] [--tiny DIR]
#   FIGURE: fig3_19-3_20 | fig3_15-3_17 | fig3_24 | fig3_36 | fig3_40
#   the thesis' segment sizes (the layer's own algorithms; rows only): fig3_17-segments | fig3_20-segments | fig3_25-segments
#   | fig3_25-segments-512 (the thesis' 512 ranks; CSV and plot)
#   HYMPI_SIM_LOCK=FILE: each simulation (one run-hier-coll.sh / run-split-cost.sh) waits for flock FILE, taken per run
#   broadcast/reduce/allreduce: fig3_6 (BG/P) | fig3_8-3_9 | fig3_10 | fig3_11-3_12 | fig3_16 | fig3_18 | fig3_21 | fig3_25 | fig3_26
#   --tiny DIR: the same runs at 8 ranks, <= 64 KiB, G = 1,2,4, CSV and plot into DIR (the ctest smoke)
#   --reps R: every run's time is the minimum of R repetitions after one untimed warm-up (default 3; the
#   CSVs' reps column says each row's; figures not rerun since hold 1-rep rows: their inventory commands say --reps 1)
set -euo pipefail
{
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
usage() { sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; }
[ $# -ge 1 ] || { usage >&2; exit 2; }
case "$1" in -h|--help) usage; exit 0 ;; esac
fig="$1"; shift
extra=(); machine=graphene-gige; tiny=""; reps=3
while [ $# -gt 0 ]; do
  case "$1" in
    --bin) [ $# -ge 2 ] || { echo "run-graphene-hier-fig3.sh: error: --bin needs a value" >&2; exit 2; }; extra+=(--bin "$2"); shift 2 ;;
    --tiny) [ $# -ge 2 ] || { echo "run-graphene-hier-fig3.sh: error: --tiny needs a directory" >&2; exit 2; }; tiny="$2"; shift 2 ;;
    --machine) [ $# -ge 2 ] || { echo "run-graphene-hier-fig3.sh: error: --machine needs a value" >&2; exit 2; }; machine="$2"; shift 2 ;;
    --reps) [ $# -ge 2 ] || { echo "run-graphene-hier-fig3.sh: error: --reps needs a value" >&2; exit 2; }; reps="$2"; shift 2 ;;
    *) echo "run-graphene-hier-fig3.sh: error: unknown option '$1'" >&2; exit 2 ;;
  esac
done
script=run-graphene-hier-fig3.sh; source "$here/run-common.sh"
check_graphene_options "$machine" "$(for ((i = 1; i < ${#extra[@]}; i += 2)); do echo "${extra[i]}"; done)"
[[ "$reps" =~ ^[1-9][0-9]*$ ]] || { echo "$script: error: bad --reps '$reps' (a count >= 1)" >&2; exit 2; }
[ -z "$tiny" ] || [ -d "$tiny" ] || { echo "$script: error: --tiny '$tiny' is not a directory" >&2; exit 2; }
if [ "$fig" = fig3_6 ] && [ "$machine" != graphene-gige ]; then
  echo "$script: error: fig3_6 runs on BG/P (bgp): --machine does not apply" >&2; exit 2
fi
fresh_on_exit  # a CSV rewritten below comes back if the figure's runs fail
sim="$root/results/simulated"; [ -z "$tiny" ] || sim="$tiny"
# Coarsened (the older figures, below the broadcast/reduce/allreduce block): the thesis' 512-core
# figures run on 128 ranks = 32 nodes x 4 (one per core): 512 simulated ranks took over 30 s of host
# time for one 4 KiB allreduce sweep on the shared 2-core host, and SimGrid's 16 MiB reduce buffers
# ~45 MB per rank. Fewer G than the thesis' 1..p (the powers of 4 and 32). The broadcast/reduce/allreduce
# block states its own layouts (several at the thesis' 512 ranks).
case "$fig" in fig3_19-3_20|fig3_15-3_17|fig3_24|fig3_36|fig3_40|fig3_17-segments|fig3_25-segments) echo "coarsened: the thesis' 512-core runs on 128 ranks (32 nodes x 4)" ;; esac
lock=""; [ -n "$tiny" ] || lock="${HYMPI_SIM_LOCK:-}"  # hier_coll_run takes it per run (the shared host's one simulation at a time)
run() { hier_coll_run "$@" --reps "$reps"; }  # run-common.sh
split_cost() { if [ -n "$lock" ]; then flock "$lock" "$@"; else "$@"; fi; }
MiB=1048576
case "$fig" in
  # ---- broadcast, reduce, allreduce (wt-ch3bcast): each block writes its CSV and plots it
  # (plot_graphene_ch3_bcast_reduce.py), then exits. Stand-ins for the thesis' Open MPI 1.4.5/1.8.4
  # algorithms SimGrid 3.32 lacks are named in apps/smpi/README.md "Chapter 3 on Graphene, broadcast".
  fig3_6|fig3_8-3_9|fig3_10|fig3_11-3_12|fig3_16|fig3_18|fig3_21|fig3_25|fig3_26)
    P="ompi_pipeline"; ALL=(--flat "$P" --algo-between "$P" --algo-inside "$P")
    reduce_algos="ompi ompi_basic_linear ompi_chain ompi_pipeline ompi_binary ompi_binomial ompi_in_order_binary"
    # The thesis' reduce ran on 20G InfiniBand (section 3.2's setup): these figures run graphene-ib (a later
    # --machine given on the command line does not change it; bcast and allreduce take --machine, GigE default).
    IB=(--machine graphene-ib)
    # The core's aligned buffers folded too (glue/fold_shared.cpp; timing only): a 64-rank 16 MiB pipeline
    # bcast kept its simulated times (230.74 / 324.97 ms) with 95 MB and 1.7 s of host instead of 1.1 GB, 5.8 s.
    export HYMPI_SMPI_FOLD_SCOPE=all
    # A 16 MiB broadcast takes ~1 min and 2.2 GB at 128 ranks: with HYMPI_SIM_LOCK=FILE every run waits for it (run).
    big() { run "$@"; }
    full() { [ -z "$tiny" ] && echo "$1" || echo "$2"; }  # full FULL TINY: a loop's list, shortened by --tiny (the smoke)
    case "$fig" in
      fig3_6)  # BG/P (not Graphene): the left panel, the group-creation cost, on 512 ranks (coarsened from 2048:
        # 512 took 15 s and 1.4 GB; SMPI's split is a gather at one rank, linear in p). The right panel (6142
        # ranks, 1 KiB-16 MiB): not run (one 2048-rank 1 MiB run-hier-bcast.sh took 104 s of host)
        out="$sim/bgp-thesis-fig3_6-split.csv"; fresh "$out"
        sr=512; gl=1,2,4,8,16,32,64,128,256,512; [ -z "$tiny" ] || { sr=8; gl=1,2,4; }
        split_cost nice -n 5 "$here/run-split-cost.sh" --machine bgp "${extra[@]}" --ranks $sr --op bcast --bytes "$(full 2097152 65536)" --groups $gl \
          --reps "$reps" --out "$out" --timeout 200 ;;
      fig3_8-3_9)  # 128 nodes x 1; SimGrid's ompi_pipeline (a chain of fanout 1, its own segments), then the layer's chains
        out="$sim/graphene-thesis-fig3_8-3_9-bcast-128.csv"; fresh "$out"
        run --op bcast --ranks 128 --cores 1 --bytes 16384 --groups 1,2,4,8,16,32,64,128 "${ALL[@]}" --out "$out" --timeout 120
        big --op bcast --ranks 128 --cores 1 --bytes $((16 * MiB)) --groups 1,2,4,8,16,32,64 "${ALL[@]}" --out "$out" --timeout 300
        # Open MPI's chain (fanout 4, Fig 3.8) and pipeline (fanout 1, Fig 3.9) unsegmented, as the thesis forced them:
        # the layer's hympi_chain at every level (host 3 s at 16 KiB, 18-23 s and 2.2 GB at 16 MiB)
        for f in 1 4; do
          run --op bcast --ranks 128 --cores 1 --bytes 16384 --groups 1,2,4,8,16,32,64 --flat "hympi_chain:$f:0" --out "$out" --timeout 120
          big --op bcast --ranks 128 --cores 1 --bytes $((16 * MiB)) --groups 1,2,4,8,16,32,64 --flat "hympi_chain:$f:0" --out "$out" --timeout 300
        done ;;
      fig3_10)  # 1 per node: 16 MiB over p (left), sizes on 128 nodes (right); pipeline and native (ompi)
        out="$sim/graphene-thesis-fig3_10-bcast-1pernode.csv"; fresh "$out"
        for p in $(full "16 32 64 128" 16); do
          gl=1; g=2; while [ $g -lt $p ]; do gl="$gl,$g"; g=$((g * 2)); done
          big --op bcast --ranks $p --cores 1 --bytes $((16 * MiB)) --groups "$gl" "${ALL[@]}" --out "$out" --timeout 300
        done
        for b in $(full "16384 262144 $MiB $((4 * MiB))" 16384); do
          big --op bcast --ranks 128 --cores 1 --bytes $b --groups 1,2,4,8,16,32,64 "${ALL[@]}" --out "$out" --timeout 300
        done
        # native: G = 16 and 64 at 16 MiB left out (run-hier-bcast.sh's G = 16 did not finish, Fig 3.7's row)
        for b in $(full "16384 262144 $MiB $((4 * MiB)) $((16 * MiB))" 16384); do  # 16 MiB: 96 s at --reps 1, > 300 s at 3
          big --op bcast --ranks 128 --cores 1 --bytes $b --groups 1,2,4,8,32 --out "$out" --timeout 900
        done ;;
      fig3_11-3_12)  # 1 per core (4 per node), the thesis' sizes: p = 512 at 16 KiB and 16 MiB (3.11), 16 MiB over
        # p = 32..512 and 16 KiB..16 MiB at 512 (3.12); the 16 KiB and 16 MiB runs at 512 serve both figures
        out="$sim/graphene-thesis-fig3_11-3_12-bcast-percore.csv"; fresh "$out"
        for p in $(full "32 64 128 256" 32); do
          gl=1; g=2; while [ $g -lt $p ]; do gl="$gl,$g"; g=$((g * 2)); done
          big --op bcast --ranks $p --cores 4 --bytes $((16 * MiB)) --groups "$gl" "${ALL[@]}" --out "$out" --timeout 300
        done
        for b in $(full "16384 262144 $MiB $((4 * MiB)) $((16 * MiB))" 16384); do
          big --op bcast --ranks 512 --cores 4 --bytes $b --groups 1,2,4,8,16,32,64,128,256 "${ALL[@]}" --out "$out" --timeout 300
        done ;;
      fig3_16)  # 512 ranks = 128 nodes x 4 as the thesis: native 1 KiB with the group-creation cost; pipeline 16 KiB
        out="$sim/graphene-thesis-fig3_16-reduce.csv"; fresh "$out"
        gl=1,2,4,8,16,32,64,128,256,512
        run "${IB[@]}" --op reduce --ranks 512 --cores 4 --bytes 1024 --groups $gl --out "$out" --timeout 300
        run "${IB[@]}" --op reduce --ranks 512 --cores 4 --bytes 16384 --groups $gl "${ALL[@]}" --out "$out" --timeout 300
        # the thesis' 1 KB segments at every level (the layer's pipeline reduce): SimGrid's ompi_pipeline takes 1 KiB
        # only where a level has > 10.4 ranks at 16 KiB, 32 KiB among 2-8 leaders and inside groups of 2-8
        run "${IB[@]}" --op reduce --ranks 512 --cores 4 --bytes 16384 --groups $gl --flat hympi_pipeline:1024 --out "$out" --timeout 600
        split="$sim/graphene-thesis-fig3_16-split.csv"; fresh "$split"
        sr=512; [ -z "$tiny" ] || { sr=8; gl=1,2,4; }
        split_cost nice -n 5 "$here/run-split-cost.sh" --machine graphene-ib "${extra[@]}" --ranks $sr --cores 4 --op reduce --bytes 1024 \
          --groups $gl --reps "$reps" --out "$split" --timeout 600 ;;
      fig3_18)  # seven reduce algorithms at every level, 256 and 512 ranks (64 and 128 nodes x 4) as the thesis, 16 KiB and 1 MiB
        out="$sim/graphene-thesis-fig3_18-reduce-algorithms.csv"; fresh "$out"
        for p in $(full "256 512" 256); do
        for a in $(full "$reduce_algos" "ompi_basic_linear ompi_in_order_binary"); do for b in $(full "16384 $MiB" 16384); do
          run "${IB[@]}" --op reduce --ranks $p --cores 4 --bytes $b --groups 1,4,16,32,64,128 --flat $a --algo-between $a \
            --algo-inside $a --out "$out" --timeout 300
        done; done; done ;;
      fig3_21)  # the same, one per node, 64 and 128 nodes
        out="$sim/graphene-thesis-fig3_21-reduce-1pernode.csv"; fresh "$out"
        for p in $(full "64 128" 64); do for a in $(full "$reduce_algos" "ompi_basic_linear ompi_in_order_binary"); do
        for b in $(full "16384 $MiB" 16384); do
          run "${IB[@]}" --op reduce --ranks $p --cores 1 --bytes $b --groups 1,2,4,8,16,32 --flat $a --algo-between $a --algo-inside $a \
            --out "$out" --timeout 300
        done; done; done ;;
      fig3_25)  # segmented ring among the leaders and flat (SimGrid's segment: 1 MiB), 4 KiB, 64 KiB, 1 MiB; the
        # thesis does not name the allreduce network: --machine's (GigE), then graphene-ib beside it
        out="$sim/graphene-thesis-fig3_25-allreduce-segring.csv"; fresh "$out"
        for m in "$machine" graphene-ib; do for b in $(full "4096 65536 $MiB" 4096); do
          run --machine $m --op allreduce --ranks 128 --cores 4 --bytes $b --groups 1,4,16,32,128 --flat ompi_ring_segmented \
            --algo-between ompi_ring_segmented --out "$out" --timeout 300
        done; done
        # sizing: the thesis' 512 ranks at 4 KiB (75 s of host): does coarsening explain the gain's size?
        sizing="$sim/graphene-thesis-fig3_25-sizing-512.csv"; fresh "$sizing"
        run --op allreduce --ranks 512 --cores 4 --bytes 4096 --groups 1,4,16,32,64,128,512 --flat ompi_ring_segmented \
          --algo-between ompi_ring_segmented --out "$sizing" --timeout 300 ;;
      fig3_26)  # six allreduce algorithms (native, BL stand-in default, NOV redbcast, RD rdb, RG lr, SRG): 16 KiB (the left
        # panel's size) on 512 ranks as the thesis; 256 KiB on 128 = 32 x 4 (coarsened: at 512 ranks redbcast passed 300 s)
        out="$sim/graphene-thesis-fig3_26-allreduce-algorithms.csv"; fresh "$out"
        algos=$(full "ompi default redbcast rdb lr ompi_ring_segmented" "default rdb")
        for a in $algos; do
          run --op allreduce --ranks 512 --cores 4 --bytes 16384 --groups 1,4,16,32,64,128,512 --flat $a --algo-between $a \
            --out "$out" --timeout 300
        done
        for a in $algos; do
          run --op allreduce --ranks 128 --cores 4 --bytes 262144 --groups 1,4,16,32,128 --flat $a --algo-between $a \
            --out "$out" --timeout 300
        done
        # sizing: recursive doubling on 128 nodes with 4 ranks per node, then one (no node link shared by 4 senders)
        sizing="$sim/graphene-thesis-fig3_26-sizing-rdb-1pernode.csv"; fresh "$sizing"
        for c in 4 1; do
          run --op allreduce --ranks 128 --cores $c --bytes 16384 --groups 1,4,16,32,128 --flat rdb --algo-between rdb \
            --out "$sizing" --timeout 120
        done ;;
    esac
    /usr/bin/python3 "$root/results/simulated/plot_graphene_ch3_bcast_reduce.py" --only "$(basename "${out%.csv}").png" \
      ${tiny:+--dir "$tiny"}
    exit 0 ;;
  fig3_19-3_20)  # reduce, 128 nodes x 1: native 16 KiB; native and pipeline 4 MiB (coarsened from 16 MiB)
    out="$sim/graphene-thesis-fig3_19-3_20-reduce-128.csv"; fresh "$out"
    run --op reduce --ranks 128 --cores 1 --bytes 16384 --groups 1,2,4,8,16,32,64,128 --out "$out" --timeout 120
    # 16 MiB coarsened to 4 MiB (G = 1,4,16,64 at 16 MiB passed 200 s of host time: SimGrid reduces real
    # data, 5 GB); pipeline's segment rule picks the same 32 KiB flat / 64 KiB in small groups at both sizes
    run --op reduce --ranks 128 --cores 1 --bytes $((4 * MiB)) --groups 1,4,16,64 --out "$out" --timeout 300
    run --op reduce --ranks 128 --cores 1 --bytes $((4 * MiB)) --groups 1,4,16,64 --flat ompi_pipeline \
      --algo-between ompi_pipeline --algo-inside ompi_pipeline --out "$out" --timeout 300 ;;
  fig3_15-3_17)  # reduce, one rank per core: 16 KiB native, 4 MiB (coarsened from 16 MiB) native and pipeline
    out="$sim/graphene-thesis-fig3_15-3_17-reduce.csv"; fresh "$out"
    run --op reduce --ranks 128 --cores 4 --bytes 16384 --groups 1,4,16,32,128 --out "$out" --timeout 200
    run --op reduce --ranks 128 --cores 4 --bytes $((4 * MiB)) --groups 1,4,16,32 --out "$out" --timeout 300
    run --op reduce --ranks 128 --cores 4 --bytes $((4 * MiB)) --groups 1,4,16,32 --flat ompi_pipeline \
      --algo-between ompi_pipeline --algo-inside ompi_pipeline --out "$out" --timeout 300 ;;
  fig3_17-segments)  # Fig 3.17's 32 KB and 64 KB panels at every level (the layer's hympi_pipeline), 4 MiB as fig3_15-3_17
    out="$sim/graphene-thesis-fig3_17-reduce-segments.csv"; fresh "$out"
    for seg in 32768 65536; do
      run --op reduce --ranks 128 --cores 4 --bytes $((4 * MiB)) --groups 1,4,16,32 --flat hympi_pipeline:$seg \
        --out "$out" --timeout 600
    done
    exit 0 ;;
  fig3_20-segments)  # Fig 3.20 with the thesis' 32 KB and 64 KB segments at every level (the layer's
    # hympi_pipeline, glue/sim_segmented.cpp; SimGrid's ompi_pipeline picks 32 KiB flat / 64 KiB in small groups)
    out="$sim/graphene-thesis-fig3_20-reduce-128-segments.csv"; fresh "$out"
    for seg in 32768 65536; do
      run --op reduce --ranks 128 --cores 1 --bytes $((4 * MiB)) --groups 1,4,16,64 --flat hympi_pipeline:$seg \
        --out "$out" --timeout 300
    done
    exit 0 ;;
  fig3_25-segments)  # Fig 3.25 with the thesis' 1 KB and 4 KB segments, flat and among the leaders (the layer's
    # hympi_ring_segmented; SimGrid's ompi_ring_segmented has 1 MiB); the groups' reduce + bcast ompi; --machine's
    # network, then graphene-ib beside it, as fig3_25
    out="$sim/graphene-thesis-fig3_25-allreduce-segring-segments.csv"; fresh "$out"
    export HYMPI_SMPI_FOLD_SCOPE=all  # as fig3_25's own runs (timing only)
    for m in "$machine" graphene-ib; do for seg in 1024 4096; do for b in 4096 65536 $MiB; do
      run --machine $m --op allreduce --ranks 128 --cores 4 --bytes $b --groups 1,4,16,32,128 \
        --flat hympi_ring_segmented:$seg --out "$out" --timeout 300
    done; done; done
    exit 0 ;;
  fig3_25-segments-512)  # fig3_25-segments at the thesis' 512 ranks = 128 nodes x 4 (not coarsened), G as the 512-rank sizing;
    # --machine's network only (GigE default; the thesis names none): one run took 106 s of host and 462 MB at 4 KiB,
    # 1 KiB segments (--reps 3), so both networks would be ~25 min; graphene-ib at 512 not run
    out="$sim/graphene-thesis-fig3_25-allreduce-segring-segments-512.csv"; fresh "$out"
    export HYMPI_SMPI_FOLD_SCOPE=all  # as fig3_25's own runs (timing only)
    for m in "$machine"; do for seg in 1024 4096; do for b in 4096 65536 $MiB; do
      run --machine $m --op allreduce --ranks 512 --cores 4 --bytes $b --groups 1,4,16,32,64,128,512 \
        --flat hympi_ring_segmented:$seg --out "$out" --timeout 900
    done; done; done
    /usr/bin/python3 "$root/results/simulated/plot_graphene_ch3_bcast_reduce.py" --only "$(basename "${out%.csv}").png" \
      ${tiny:+--dir "$tiny"}
    exit 0 ;;
  fig3_24)  # ring allreduce (SimGrid's lr at the flat and leader levels), 4 KiB
    out="$sim/graphene-thesis-fig3_24-allreduce.csv"; fresh "$out"
    run --op allreduce --ranks 128 --cores 4 --bytes 4096 --groups 1,4,16,32,128 --flat lr --algo-between lr \
      --out "$out" --timeout 200
    ;;  # 16 MiB: not run (one 128-rank lr sweep G = 1,4,16,32 passed 200 s of host time on the shared host)
  fig3_36)  # binomial and linear gather, 128 MiB at the root
    out="$sim/graphene-thesis-fig3_36-gather.csv"; fresh "$out"
    for a in ompi_binomial ompi_basic_linear; do
      run --op gather --ranks 128 --cores 4 --bytes $((128 * MiB)) --groups 1,4,16,32,128 --flat $a --algo-between $a \
        --algo-inside $a --out "$out" --timeout 200
    done ;;
  fig3_40)  # binomial scatter, 2 / 4 / 128 MiB at the root (256 MiB: not run)
    out="$sim/graphene-thesis-fig3_40-scatter.csv"; fresh "$out"
    for b in 2 4 128; do
      run --op scatter --ranks 128 --cores 4 --bytes $((b * MiB)) --groups 1,4,16,32,128 --flat ompi_binomial \
        --algo-between ompi_binomial --algo-inside ompi_binomial --out "$out" --timeout 200
    done ;;
  *) echo "run-graphene-hier-fig3.sh: error: unknown FIGURE '$fig' (fig3_19-3_20, fig3_15-3_17, fig3_24, fig3_36, fig3_40, fig3_17-segments, fig3_20-segments, fig3_25-segments, fig3_25-segments-512; see --help)" >&2
     exit 2 ;;
esac
/usr/bin/python3 "$root/results/simulated/plot_graphene_hier_coll.py" --only "$(basename "${out%.csv}").png" \
  ${tiny:+--dir "$tiny"}
exit 0
}
