#!/usr/bin/env bash
# The thesis' chapter-3 figures on simulated Graphene (run-hier-coll.sh), each figure one command:
# its runs, their CSV (results/simulated/graphene-thesis-fig3_*.csv, rewritten) and its plot. The
# coarsening (what differs from the thesis' runs, to keep each run below ~2 minutes of host time and
# a few GB) is printed and in apps/smpi/README.md "Chapter 3 on Graphene". Run one at a time
# (flock /work/sim.lock ...); each run is bounded by --timeout.
# usage: run-graphene-hier-fig3.sh FIGURE [--bin DIR] [--machine graphene-gige|graphene-ib] [--tiny DIR]
#   FIGURE: fig3_19-3_20 | fig3_15-3_17 | fig3_24 | fig3_36 | fig3_40
#   --tiny DIR: the same runs at 8 ranks, <= 64 KiB, G = 1,2,4, CSV and plot into DIR (the ctest smoke)
set -euo pipefail
{
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
usage() { sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; }
[ $# -ge 1 ] || { usage >&2; exit 2; }
case "$1" in -h|--help) usage; exit 0 ;; esac
fig="$1"; shift
extra=(); machine=graphene-gige; tiny=""
while [ $# -gt 0 ]; do
  case "$1" in
    --bin) [ $# -ge 2 ] || { echo "run-graphene-hier-fig3.sh: error: --bin needs a value" >&2; exit 2; }; extra+=(--bin "$2"); shift 2 ;;
    --tiny) [ $# -ge 2 ] || { echo "run-graphene-hier-fig3.sh: error: --tiny needs a directory" >&2; exit 2; }; tiny="$2"; shift 2 ;;
    --machine) [ $# -ge 2 ] || { echo "run-graphene-hier-fig3.sh: error: --machine needs a value" >&2; exit 2; }; machine="$2"; shift 2 ;;
    *) echo "run-graphene-hier-fig3.sh: error: unknown option '$1'" >&2; exit 2 ;;
  esac
done
sim="$root/results/simulated"; [ -z "$tiny" ] || sim="$tiny"
# Coarsened: the thesis' 512-core figures run on 128 ranks = 32 nodes x 4 (one per core): 512 simulated
# ranks took over 30 s of host time for one 4 KiB allreduce sweep on the shared 2-core host, and
# SimGrid's 16 MiB reduce buffers ~45 MB per rank. Fewer G than the thesis' 1..p (the powers of 4 and 32).
echo "coarsened: the thesis' 512-core runs on 128 ranks (32 nodes x 4)"
run() {
  local a=() v
  while [ $# -gt 0 ]; do  # --tiny: 8 ranks, at most 64 KiB, G = 1,2,4
    v="${2:-}"
    case "$1" in
      --ranks) [ -z "$tiny" ] || v=8 ;;
      --bytes) [ -z "$tiny" ] || [ "$v" -le 65536 ] || v=65536 ;;
      --groups) [ -z "$tiny" ] || v=1,2,4 ;;
      *) a+=("$1"); shift; continue ;;
    esac
    a+=("$1" "$v"); shift 2
  done
  nice -n 5 "$here/run-hier-coll.sh" --machine "$machine" "${extra[@]}" "${a[@]}"
}
MiB=1048576
case "$fig" in
  fig3_19-3_20)  # reduce, 128 nodes x 1: native 16 KiB; native and pipeline 4 MiB (coarsened from 16 MiB)
    out="$sim/graphene-thesis-fig3_19-3_20-reduce-128.csv"; rm -f "$out"
    run --op reduce --ranks 128 --cores 1 --bytes 16384 --groups 1,2,4,8,16,32,64,128 --out "$out" --timeout 120
    # 16 MiB coarsened to 4 MiB (G = 1,4,16,64 at 16 MiB passed 200 s of host time: SimGrid reduces real
    # data, 5 GB); pipeline's segment rule picks the same 32 KiB flat / 64 KiB in small groups at both sizes
    run --op reduce --ranks 128 --cores 1 --bytes $((4 * MiB)) --groups 1,4,16,64 --out "$out" --timeout 300
    run --op reduce --ranks 128 --cores 1 --bytes $((4 * MiB)) --groups 1,4,16,64 --flat ompi_pipeline \
      --algo-between ompi_pipeline --algo-inside ompi_pipeline --out "$out" --timeout 300 ;;
  fig3_15-3_17)  # reduce, one rank per core: 16 KiB native, 4 MiB (coarsened from 16 MiB) native and pipeline
    out="$sim/graphene-thesis-fig3_15-3_17-reduce.csv"; rm -f "$out"
    run --op reduce --ranks 128 --cores 4 --bytes 16384 --groups 1,4,16,32,128 --out "$out" --timeout 200
    run --op reduce --ranks 128 --cores 4 --bytes $((4 * MiB)) --groups 1,4,16,32 --out "$out" --timeout 300
    run --op reduce --ranks 128 --cores 4 --bytes $((4 * MiB)) --groups 1,4,16,32 --flat ompi_pipeline \
      --algo-between ompi_pipeline --algo-inside ompi_pipeline --out "$out" --timeout 300 ;;
  fig3_24)  # ring allreduce (SimGrid's lr at the flat and leader levels), 4 KiB
    out="$sim/graphene-thesis-fig3_24-allreduce.csv"; rm -f "$out"
    run --op allreduce --ranks 128 --cores 4 --bytes 4096 --groups 1,4,16,32,128 --flat lr --algo-between lr \
      --out "$out" --timeout 200
    ;;  # 16 MiB: not run (one 128-rank lr sweep G = 1,4,16,32 passed 200 s of host time on the shared host)
  fig3_36)  # binomial and linear gather, 128 MiB at the root
    out="$sim/graphene-thesis-fig3_36-gather.csv"; rm -f "$out"
    for a in ompi_binomial ompi_basic_linear; do
      run --op gather --ranks 128 --cores 4 --bytes $((128 * MiB)) --groups 1,4,16,32,128 --flat $a --algo-between $a \
        --algo-inside $a --out "$out" --timeout 200
    done ;;
  fig3_40)  # binomial scatter, 2 / 4 / 128 MiB at the root (256 MiB: not run)
    out="$sim/graphene-thesis-fig3_40-scatter.csv"; rm -f "$out"
    for b in 2 4 128; do
      run --op scatter --ranks 128 --cores 4 --bytes $((b * MiB)) --groups 1,4,16,32,128 --flat ompi_binomial \
        --algo-between ompi_binomial --algo-inside ompi_binomial --out "$out" --timeout 200
    done ;;
  *) echo "run-graphene-hier-fig3.sh: error: unknown FIGURE '$fig' (fig3_19-3_20, fig3_15-3_17, fig3_24, fig3_36, fig3_40)" >&2
     exit 2 ;;
esac
/usr/bin/python3 "$root/results/simulated/plot_graphene_hier_coll.py" --only "$(basename "${out%.csv}").png" \
  ${tiny:+--dir "$tiny"}
exit 0
}
