#!/bin/sh
# Laptop-scale SUMMA / HSUMMA / PDGEMM measurements (2 cores; at most 4 ranks,
# emulated node layouts). Appends to the CSVs next to this script; plot with
#   python3 results/summa/plot_summa.py
# Usage: results/summa/run_small.sh BUILD_DIR [n4096|fig11|groups|blocks|sizes|all]
set -eu
build=${1:?usage: run_small.sh BUILD_DIR [part]}
part=${2:-all}
here=$(cd "$(dirname "$0")" && pwd)
exe=$build/apps/summa/hympi-summa
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OPENBLAS_NUM_THREADS=1
run() { np=$1; shift; mpirun --oversubscribe --bind-to none -np "$np" "$exe" "$@"; }

if [ "$part" = n4096 ] || [ "$part" = all ]; then
  # The 2-rank target: best of SUMMA/HSUMMA vs PDGEMM and vs 2x the single-rank DGEMM rate.
  for grid in ${GRIDS:-2x1 1x2}; do
    for b in ${BLOCKS:-256 512}; do
      run 2 -N 4096 --grid "$grid" -b "$b" --alg summa --policy pure,hybrid --reps 3 --warmup 1 \
        --check residual --csv "$here/n4096_np2.csv"
    done
    run 2 -N 4096 --grid "$grid" --groups "$grid" -b 256 -M 512 --alg hsumma --policy pure,hybrid --reps 3 \
      --warmup 1 --check residual --csv "$here/n4096_np2.csv"
    run 2 -N 4096 --grid "$grid" --alg pdgemm --pdgemm-nb 0,64 --reps 3 --warmup 1 --check residual \
      --csv "$here/n4096_np2.csv"
  done
fi

if [ "$part" = fig11 ] || [ "$part" = all ]; then
  # Zhou et al. Fig 11 analogue: Ori_SUMMA (pure) vs Hy_SUMMA (hybrid) per-core block s x s,
  # b = s, one node; 2 ranks (1x2) and 4 ranks (2x2), plus 4 ranks as 2 emulated nodes.
  for s in 8 64 128 256; do
    case $s in 8) batch=400 ;; 64) batch=100 ;; 128) batch=20 ;; *) batch=5 ;; esac
    for cfg in "2 1x2 0" "4 2x2 0" "4 2x2 2"; do
      set -- $cfg
      np=$1 grid=$2 rpn=$3
      P=${grid%x*} Q=${grid#*x}
      for sync in barrier flags; do
        run "$np" -m $((P * s)) -n $((Q * s)) -k $((Q * s)) --grid "$grid" -b "$s" --alg summa \
          --policy pure,hybrid --sync "$sync" --reps 7 --warmup 2 --batch "$batch" --check residual \
          --ranks-per-node "$rpn" --no-reference-dgemm --csv "$here/fig11_ori_hy.csv"
      done
    done
  done
fi

if [ "$part" = groups ] || [ "$part" = all ]; then
  # Thesis Fig 4.7 analogue: time vs number of groups G on 4 ranks (2 emulated nodes of 2;
  # group-major numbering makes a 1x2 group split put one group per node).
  for groups in 1x1 1x2 2x1 2x2; do
    run 4 -N 1024 --grid 2x2 --groups "$groups" --group-major -b 64 -M 256 --alg hsumma --policy pure,hybrid \
      --reps 5 --warmup 1 --ranks-per-node 2 --check residual --csv "$here/hsumma_groups.csv"
  done
fi

if [ "$part" = blocks ] || [ "$part" = all ]; then
  # Thesis Figs 4.8/4.9 analogue: inner block size b at fixed M = 256, G = 2 (groups = nodes).
  for b in 16 32 64 128 256; do
    run 4 -N 1024 --grid 2x2 --groups 1x2 --group-major -b "$b" -M 256 --alg hsumma --policy pure,hybrid \
      --reps 5 --warmup 1 --ranks-per-node 2 --check residual --csv "$here/hsumma_blocks.csv"
  done
fi

if [ "$part" = sizes ] || [ "$part" = all ]; then
  # Thesis Fig 4.10 analogue: SUMMA, HSUMMA and PDGEMM over n on 4 ranks (2 emulated nodes).
  for n in 512 1024 2048; do
    run 4 -N "$n" --grid 2x2 --groups 1x2 --group-major -b 64 -M 256 --alg summa,hsumma,pdgemm \
      --policy pure,hybrid --pdgemm-nb 0,64 --reps 3 --warmup 1 --ranks-per-node 2 --check residual \
      --csv "$here/hsumma_vs_pdgemm.csv"
  done
fi
