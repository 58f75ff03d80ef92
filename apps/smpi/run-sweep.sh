#!/usr/bin/env bash
# Simulated SUMMA vs HSUMMA sweep over the number of groups G under SimGrid SMPI,
# on a generated platform (apps/smpi/platforms/make_platform.py). Every CSV row is
# labelled kind=simulated and carries the platform file, its machine, the SMPI
# broadcast algorithm and the step scaling. Beside it, the alpha-beta model of the
# same configuration goes to <out>.model.csv (apps/model/hympi-model).
#
# Only the first --steps of the n/b panel steps of the FULL problem are run
# (hympi-summa --max-steps: same panel widths and message sizes as the whole
# multiply); the steps are alike, so time_s_scaled = time_s * n / k_sim with
# k_sim = steps * b. (Before 557bfcf, 2026-11-23, the sweep shrank k instead, which split k
# over the Q process columns into panels narrower than b: more, smaller messages.)
set -euo pipefail
{  # bash reads all of this before running it: an edit of this file during a long simulation cannot break the run
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"

usage() {
  sweep_usage run-sweep.sh <<USAGE
  --policy LIST     pure,hybrid                                  (default pure)
  --sync KIND       barrier | flags (hybrid node sync)           (default barrier)
  --shm-costs on|off  on-node copies and overheads charged (make_platform.py; default on, off: the
                    loopback-only platform of the sweeps made before them)
  --out FILE        CSV to append to (default results/simulated/sweep.csv; with the fidelity settings
                    in use, e.g. every --machine bgp run: results/simulated/sweep-fidelity.csv)
  --one-process     one smpirun for SUMMA and every G (hympi-summa --groups list): setup is paid
                    once (minutes at 16384 ranks); each multiply starts from the previous one's
                    barrier skew, so G = P matches SUMMA to ~1%, not to the last digit
  --dry-run         print the commands only (with the HYMPI_SIM_ and HYMPI_SMPI_FOLD settings)
$(fold_new_usage)
Fidelity settings (apps/smpi/README.md "Fidelity settings"; the legacy --bcast default is binomial_tree,
scatter_LR_allgather for --machine bgp). A smaller --eager-bytes also spares the host SimGrid's scan of
the eager sends in flight at every completion (0: none; README "Host cost"):
USAGE
}

policy=pure; sync=barrier; fold_new="${HYMPI_SMPI_FOLD_NEW_BYTES:-0}"
flag_option() {
  case "$1" in
    --one-process) one=1 ;;
    --dry-run) dry=1 ;;
    *) return 1 ;;
  esac
}
script=run-sweep.sh valued="policy sync fold_new"
source "$here/run-common.sh"
read_sweep_options "$@"
# The grid (apps/harness's most-square rule unless --grid), the checks of the sizes and the
# groups as IxJ (apps/model's group_shapes for a number G), or exit 2.
plan_sweep sweep
require_smpi_bin hympi-summa
k=$n; max_steps=0
if [ "$steps" -gt 0 ] && [ $((steps * b)) -lt "$n" ]; then k=$((steps * b)); max_steps=$steps; fi

source "$here/smpi-flags.sh"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
sweep_platform "$work"
export HYMPI_SMPI_FOLD_BYTES="${HYMPI_SMPI_FOLD_BYTES:-65536}" OPENBLAS_NUM_THREADS=1
fold_new_setup  # operator new folds nothing unless --fold-new (run-common.sh: its blocks may hold objects)

echo "# SIMULATED (SimGrid SMPI) $machine P=$ranks (${P}x$Q) n=$n b=M=$b k_sim=$k bcast=$bcast groups=$groups${fidelity_labels[*]:+ fidelity=$fidelity}"
optional_labels=()  # columns older CSVs lack: placement (block), the fidelity settings (fidelity_setup)
[ "$machine" = bgp ] || [ "$placement" != block ] && optional_labels=(placement="$placement")
optional_labels+=("${fidelity_labels[@]}" "${fold_new_label[@]}")
label_rows() {  # label the finished rows and append them to --out
  python3 "$here/label_csv.py" "$work/run.csv" "$out" kind=simulated machine="$machine" platform="$platform_rec" \
    smpi_bcast="$smpi_bcast_column" "${optional_labels[@]}" k_simulated="$k" k_full="$n" sweep_process="$([ "$one" = 1 ] && echo one || echo per-G)" \
    --scale auto
}
failed() {  # a killed or failed simulation keeps the multiplies it finished
  cat "$work/log" >&2
  if [ -s "$work/run.csv" ] && [ "$(wc -l < "$work/run.csv")" -gt 1 ]; then
    label_rows >&2
    echo "run-sweep.sh: $1 failed; the rows it finished were kept in $out" >&2
  else
    echo "run-sweep.sh: $1 failed before any row" >&2
  fi
  exit 1
}
simulate() {  # simulate ALGS GROUPS LABEL
  local cmd=(smpirun -np "$ranks" -platform "$platform" -hostfile "${platform%.xml}.hosts" "${HYMPI_SMPI_FLAGS[@]}"
       "${fidelity_cfg[@]}" "$bin/hympi-summa" --grid "${P}x$Q" -m "$n" -n "$n" -k "$n" --max-steps "$max_steps" -b "$b" -M "$b" --groups "$2"
       -a "$1" --policy "$policy" --sync "$sync" --reps 1 --warmup 0 --check none --no-reference-dgemm
       --csv "$work/run.csv")
  if [ "$dry" = 1 ]; then echo "$(env | grep -E '^HYMPI_(SIM_|SMPI_FOLD)' | sort | tr '\n' ' ')${cmd[*]}"; return; fi
  local t0; t0=$(date +%s)
  "${cmd[@]}" > "$work/log" 2>&1 || failed "$3"
  echo "$3: $(grep -E '^(summa|hsumma) ' "$work/log" | awk '{printf "%s/%s %.4gs  ", $1, $2, $4}')[host $(( $(date +%s) - t0 )) s]"
}
if [ "$one" = 1 ]; then
  list=$(IFS=,; echo "${splits[*]}")  # SUMMA always runs first: the reference of the sweep
  simulate summa,hsumma "$list" "SUMMA and G = $list (one process)"
else
  for ij in "${splits[@]}"; do
    alg=hsumma; [ "$ij" = 1x1 ] && alg=summa,hsumma
    simulate "$alg" "$ij" "G=$((${ij%x*} * ${ij#*x})) ($ij)"
  done
fi
[ "$dry" = 1 ] && exit 0
label_rows
# The alpha-beta model of the same machine and problem (end-to-end link values of make_platform.py).
case "$machine" in
  bgp-torus) alpha=3e-6; bw=425e6; gf=3.4 ;;
  bgp) alpha=3e-6; bw=425e6; gf=2.25 ;;  # 2.5 us overheads + hops
  xc40-dragonfly) alpha=1.2e-6; bw=5e9; gf=36 ;;
  ib-fattree) alpha=1e-6; bw=11e9; gf=30 ;;
  graphene-gige) alpha=48.06e-6; bw=117.5868e6; gf=4.17 ;;  # 8.75 + 9.31 us overheads + 2 x 15 us links
  graphene-ib) alpha=2.4e-6; bw=1.5e9; gf=4.17 ;;           # 0.5 + 0.5 us overheads + 2 x 0.7 us links
esac
model=binomial; [[ "$bcast" =~ ^(smpi:scatter_LR_allgather|mpich|dcmf)$ ]] && model=vandegeijn  # the layer's: large panels
python3 "$root/apps/model/hympi-model" -n "$n" -b "$b" --grid "${P}x$Q" --alpha "$alpha" --bandwidth "$bw" \
  --gflops "$gf" --bcast "$model" --csv "${out%.csv}.model-$machine-$ranks-$n-$b-$model.csv" --quiet
exit
}
