#!/usr/bin/env bash
# Simulated SUMMA vs HSUMMA over G with the skeleton (hympi-smpi-summa-skeleton,
# apps/smpi/probe/summa_skeleton.cpp): run-sweep.sh's options, platform and CSV columns
# where they apply, plus app=skeleton and step_basis. The skeleton runs hympi-summa's
# pure-policy multiply (the engine's communicators, schedule and phase order; MPI_Bcast +
# smpi_execute_flops) at a fraction of its host time and memory; its simulated times are
# hympi-summa's (tests/smpi/skeleton_test.sh checks them to the last printed digit).
#
# Rows: per multiply one step_basis=barrier row (hympi-summa's time: closing barrier
# included, max_steps as run-sweep.sh writes it) and one step_basis=mark row per step
# s = 1..S (the slowest rank's time at the end of step s): one run of --steps 4 gives
# step_slope.py's 2- and 4-step times (apps/smpi/README.md, "The skeleton").
set -euo pipefail
{  # bash reads all of this before running it: an edit of this file during a long simulation cannot break the run
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"

usage() {
  sweep_usage run-skeleton.sh <<USAGE
  --shm-costs on|off  on-node copies and overheads charged (make_platform.py; default on)
  --out FILE        CSV to append to (default results/simulated/skeleton.csv; with the fidelity
                    settings in use, e.g. every --machine bgp run: results/simulated/skeleton-fidelity.csv)
  --one-process     SUMMA and every G in one simulation (as run-sweep.sh --one-process)
  --no-privatization  smpi/privatization:no: one copy of the program for all ranks (host memory and
                    setup time at 16384 ranks); the simulated MPI layer is preloaded; same times under
                    every fidelity set, checked by smpi.skeleton at 64 ranks
  --dry-run         print the commands only
The skeleton is the pure policy only (no --policy/--sync) and marks every step. Unlike run-sweep.sh
it writes no alpha-beta model CSV. Fidelity settings as run-sweep.sh's (apps/smpi/README.md "Fidelity
settings"; the legacy --bcast default is binomial_tree, scatter_LR_allgather for --machine bgp):
USAGE
}

privatization=()
flag_option() {
  case "$1" in
    --one-process) one=1 ;;
    --dry-run) dry=1 ;;
    --no-privatization) privatization=(--cfg=smpi/privatization:no) ;;
    *) return 1 ;;
  esac
}
script=run-skeleton.sh valued=""
source "$here/run-common.sh"
read_sweep_options "$@"
case "$machine" in
  bgp-torus|bgp|xc40-dragonfly|ib-fattree|graphene-gige|graphene-ib) ;;
  *) echo "run-skeleton.sh: --machine must be bgp-torus, bgp, xc40-dragonfly, ib-fattree, graphene-gige or graphene-ib, got '$machine'" >&2; exit 2 ;;
esac
# The settings, grid and groups as run-sweep.sh resolves them; the skeleton links hympi-summa's glue
# (the simulated MPI layer included), so it charges what hympi-summa charges under each of them.
plan_sweep skeleton
require_smpi_bin hympi-smpi-summa-skeleton
preload=(); [ ${#privatization[@]} -gt 0 ] && sim_layer_preload
k=$n
[ "$steps" -gt 0 ] && [ $((steps * b)) -lt "$n" ] && k=$((steps * b))

source "$here/smpi-flags.sh"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
sweep_platform "$work"

echo "# SIMULATED (SimGrid SMPI, skeleton) $machine P=$ranks (${P}x$Q) n=$n b=M=$b k_sim=$k bcast=$bcast groups=$split_list${fidelity_labels[*]:+ fidelity=$fidelity}"
optional_labels=()  # as run-sweep.sh: placement, the fidelity settings (fidelity_setup)
[ "$machine" = bgp ] || [ "$placement" != block ] && optional_labels=(placement="$placement")
optional_labels+=("${fidelity_labels[@]}")
runs=0
git_rev=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
simulate() {  # simulate GROUPS LABEL: one smpirun, its rows labelled and appended to --out
  local csv="$work/run-$runs.csv"; runs=$((runs + 1))
  local cmd=(smpirun -np "$ranks" -platform "$platform" -hostfile "${platform%.xml}.hosts" "${HYMPI_SMPI_FLAGS[@]}"
       "${fidelity_cfg[@]}" "${privatization[@]}" "${preload[@]}" "$bin/hympi-smpi-summa-skeleton" --grid "${P}x$Q" -n "$n" -b "$b"
       --steps "$steps" --groups "$1" --csv "$csv")
  if [ "$dry" = 1 ]; then echo "$(env | grep '^HYMPI_SIM_' | sort | tr '\n' ' ')${cmd[*]}"; return; fi
  local t0; t0=$(date +%s)
  "${cmd[@]}" > "$work/log" 2>&1 || { cat "$work/log" >&2; echo "run-skeleton.sh: $2 failed" >&2; exit 1; }
  echo "$2: $(grep -E '^(summa|hsumma) ' "$work/log" | awk '{printf "%s/%s %.4gs  ", $1, $3, $6}')[host $(( $(date +%s) - t0 )) s]"
  python3 "$here/label_csv.py" "$csv" "$out" kind=simulated app=skeleton machine="$machine" platform="$platform_rec" \
    smpi_bcast="$smpi_bcast_column" "${optional_labels[@]}" k_simulated="$k" k_full="$n" \
    sweep_process="$([ "$one" = 1 ] && echo one || echo per-G)" date="$(date -u +%Y-%m-%dT%H:%M:%SZ)" git="$git_rev" \
    --scale auto
}
if [ "$one" = 1 ]; then
  simulate "summa,$split_list" "SUMMA and G = $split_list (one process)"  # SUMMA first, as run-sweep.sh
else
  for ij in "${splits[@]}"; do
    if [ "$ij" = 1x1 ]; then simulate summa,1x1 "G=1 (1x1)"; else simulate "$ij" "G=$((${ij%x*} * ${ij#*x})) ($ij)"; fi
  done
fi
exit
}
