#!/usr/bin/env bash
# The thesis' chapter-3 gather and scatter figures still without a counterpart (3.31-3.35, 3.37-3.39,
# 3.41-3.45) on simulated Graphene (run-hier-coll.sh), one command per figure or per panel set: its runs,
# their CSV (results/simulated/graphene-thesis-fig3_*.csv, rewritten) and its plot. Sizes and layouts as
# the thesis ran them (512 = 128 nodes x 4, 64 = 16 x 4, 128 x 1: none coarsened; G on powers of two
# below p); the per-level algorithm is forced at the flat level and at both levels. SimGrid's segment
# sizes stand in for the thesis' (apps/smpi/README.md "Gather and scatter figures").
# usage: run-graphene-gather-scatter.sh FIGURE [--bin DIR] [--machine graphene-gige|graphene-ib] [--lock FILE] [--tiny DIR]
#   FIGURE: fig3_31 | fig3_32-3_33 | fig3_34 | fig3_35 | fig3_37 | fig3_38-3_39 | fig3_41-3_42 | fig3_43-3_45
#           | fig3_31-segments | fig3_32-3_33-segments | fig3_38-3_39-segments (the thesis' own segments)
#   --lock FILE: take flock FILE around each run (the shared host's one-simulation-at-a-time rule)
#   --tiny DIR: the same runs at 8 ranks, <= 64 KiB, G = 1,2,4, CSV and plot into DIR (the ctest smoke)
set -euo pipefail
{
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
me=run-graphene-gather-scatter.sh
usage() { sed -n '8,12p' "$0" | sed 's/^# \{0,1\}//'; }
[ $# -ge 1 ] || { usage >&2; exit 2; }
case "$1" in -h|--help) usage; exit 0 ;; esac
fig="$1"; shift
extra=(); machine=graphene-gige; tiny=""; lock=""
while [ $# -gt 0 ]; do
  [ $# -ge 2 ] || { echo "$me: error: $1 needs a value" >&2; exit 2; }
  case "$1" in
    --bin) extra+=(--bin "$2") ;;
    --tiny) tiny="$2" ;;
    --lock) lock="$2" ;;
    --machine) machine="$2" ;;
    *) echo "$me: error: unknown option '$1'" >&2; exit 2 ;;
  esac
  shift 2
done
script="$me"; source "$here/run-common.sh"
check_graphene_options "$machine" "$(for ((i = 1; i < ${#extra[@]}; i += 2)); do echo "${extra[i]}"; done)"
[ -z "$tiny" ] || [ -d "$tiny" ] || { echo "$me: error: --tiny '$tiny' is not a directory" >&2; exit 2; }
fresh_on_exit  # a CSV rewritten below comes back if the figure's runs fail
sim="$root/results/simulated"; [ -z "$tiny" ] || sim="$tiny"
run() { hier_coll_run "$@"; }  # run-common.sh
MiB=1048576
G512=1,2,4,8,16,32,64,128,256; G64=1,2,4,8,16,32; G128=1,2,4,8,16,32,64
# sweep OUT OP RANKS CORES GROUPS ALGO SIZE_MIB...: ALGO flat and at both levels (ompi: the decision everywhere).
# Named at both levels even for ompi: the leaders' level is an MPI_Gatherv/Scatterv, which unnamed runs SMPI's
# gatherv/scatterv setting, not smpi/gather (a scatter of 1 MiB on 16 ranks, G = 4: 6.887 ms named, 6.733 ms not).
sweep() {
  local out="$1" op="$2" ranks="$3" cores="$4" groups="$5" algo="$6" b; shift 6
  local levels=(--algo-between "$algo" --algo-inside "$algo")
  [ -z "$tiny" ] || set -- "$1"  # --tiny: one size (every size becomes <= 64 KiB)
  for b in "$@"; do
    run --op "$op" --ranks "$ranks" --cores "$cores" --bytes $((b * MiB)) --groups "$groups" --flat "$algo" \
      "${levels[@]}" --out "$out" --timeout 400
  done
}
case "$fig" in
  fig3_31)  # linear-with-sync gather, 512 cores, 128 / 256 MB (thesis: 4 KB segments; SimGrid's 32 KiB)
    out="$sim/graphene-thesis-fig3_31-gather-linsync-512.csv"; fresh "$out"
    sweep "$out" gather 512 4 $G512 ompi_linear_sync 128 256 ;;
  fig3_32-3_33)  # the same on 64 cores: 3.32 (4 KB segments) and 3.33 (32 KB) are one run: SimGrid's 32 KiB
    out="$sim/graphene-thesis-fig3_32-3_33-gather-linsync-64.csv"; fresh "$out"
    sweep "$out" gather 64 4 $G64 ompi_linear_sync 128 256 ;;
  fig3_34)  # linear-with-sync gather, 512 cores, 2 / 4 MB, 1 KB segments (SimGrid's 1 KiB below 90 KiB blocks)
    out="$sim/graphene-thesis-fig3_34-gather-linsync-512-small.csv"; fresh "$out"
    sweep "$out" gather 512 4 $G512 ompi_linear_sync 2 4 ;;
  fig3_35)  # the same on 64 cores (32 / 64 KB blocks: SimGrid's 1 KiB)
    out="$sim/graphene-thesis-fig3_35-gather-linsync-64-small.csv"; fresh "$out"
    sweep "$out" gather 64 4 $G64 ompi_linear_sync 2 4 ;;
  fig3_37)  # native gather (the decision at every level), 512 cores, 2 / 4 / 128 / 256 MB
    out="$sim/graphene-thesis-fig3_37-gather-native-512.csv"; fresh "$out"
    sweep "$out" gather 512 4 $G512 ompi 2 4 128 256 ;;
  fig3_31-segments)  # Fig 3.31 with the thesis' 4 KB segments: the layer's linear_sync (glue/sim_segmented.cpp)
    out="$sim/graphene-thesis-fig3_31-gather-linsync-512-segments.csv"; fresh "$out"
    sweep "$out" gather 512 4 $G512 hympi_linear_sync:4096 128 256 ;;
  fig3_32-3_33-segments)  # Figs 3.32 (4 KB) and 3.33's 64 KB panel, the layer's linear_sync
    out="$sim/graphene-thesis-fig3_32-3_33-gather-linsync-64-segments.csv"; fresh "$out"
    sweep "$out" gather 64 4 $G64 hympi_linear_sync:4096 128 256
    sweep "$out" gather 64 4 $G64 hympi_linear_sync:65536 128 256 ;;
  fig3_38-3_39-segments)  # Figs 3.38 (1 KB) and 3.39's 64 KB panel, the layer's linear_sync
    out="$sim/graphene-thesis-fig3_38-3_39-gather-linsync-128-segments.csv"; fresh "$out"
    sweep "$out" gather 128 1 $G128 hympi_linear_sync:1024 128 256
    sweep "$out" gather 128 1 $G128 hympi_linear_sync:65536 128 256 ;;
  fig3_38-3_39)  # linear-with-sync gather, 128 nodes x 1, 128 / 256 MB (thesis: 1, 32, 64 KB segments; SimGrid's 32 KiB)
    out="$sim/graphene-thesis-fig3_38-3_39-gather-linsync-128.csv"; fresh "$out"
    sweep "$out" gather 128 1 $G128 ompi_linear_sync 128 256 ;;
  fig3_41-3_42)  # linear (3.41) and native (3.42) scatter, 512 cores, 2 / 4 / 128 / 256 MB
    out="$sim/graphene-thesis-fig3_41-3_42-scatter-512.csv"; fresh "$out"
    sweep "$out" scatter 512 4 $G512 ompi_basic_linear 2 4 128 256
    sweep "$out" scatter 512 4 $G512 ompi 2 4 128 256 ;;
  fig3_43-3_45)  # binomial (3.43), linear (3.44), native (3.45) scatter, 64 cores, 2 / 4 / 128 / 256 MB
    out="$sim/graphene-thesis-fig3_43-3_45-scatter-64.csv"; fresh "$out"
    for a in ompi_binomial ompi_basic_linear ompi; do sweep "$out" scatter 64 4 $G64 $a 2 4 128 256; done ;;
  *) echo "$me: error: unknown FIGURE '$fig' (fig3_31 fig3_32-3_33 fig3_34 fig3_35 fig3_37 fig3_38-3_39 fig3_41-3_42 fig3_43-3_45 fig3_31-segments fig3_32-3_33-segments fig3_38-3_39-segments)" >&2
     exit 2 ;;
esac
case "$fig" in *-segments) exit 0 ;; esac  # rows beside the figure's own (README "Gather and scatter figures"), no plot
/usr/bin/python3 "$root/results/simulated/plot_graphene_gather_scatter.py" --only "$(basename "${out%.csv}").png" \
  ${tiny:+--dir "$tiny"}
exit 0
}
