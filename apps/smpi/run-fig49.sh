#!/usr/bin/env bash
# Thesis Fig 4.9 simulated: ScaLAPACK's PDGEMM schedule (hympi-smpi-pdgemm-skeleton,
# apps/pdgemm_trace) beside SUMMA and HSUMMA over G (hympi-smpi-summa-skeleton) on ONE
# platform, ONE set of fidelity settings and ONE DGEMM model (issue 51). Two simulations
# per call, each under `flock /work/sim.lock` (one heavy simulation at a time on the host)
# and `/usr/bin/time -v` (host seconds and peak memory go into the rows):
#   - PDGEMM: the first S * b / 32 K chunks of pdgemm_ (NN, nb = b), a mark per chunk;
#   - SUMMA and every G in one process: the first S panel steps, a mark per step;
#   - (--what dropin) the drop-in pdgemm_ (hsumma/scalapack, hympi-smpi-dropin-pdgemm) on nb = b
#     block-cyclic descriptors, every G of --groups in one process: calls of k = S/4, S/2, S panels.
# --outer M gives HSUMMA an outer block M > b (thesis Fig 4.8: --figure "thesis Fig 4.8").
# Raw rows go to OUT-pdgemm.csv, OUT-summa.csv and OUT-dropin.csv (appended; every setting a column);
# apps/smpi/fig49_rows.py turns them into the figure's rows (slope of the marks).
set -euo pipefail
{  # read whole before running: an edit during a long simulation cannot break it
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"

usage() {
  sweep_usage run-fig49.sh <<USAGE
  --out PREFIX      raw rows to PREFIX-pdgemm.csv and PREFIX-summa.csv (default results/simulated/fig4.9-bgp)
  --dgemm MODEL     flat (every shape at the host speed) or a rate table CSV (HYMPI_SMPI_DGEMM_TABLE:
                    efficiency by shape relative to its best, glue/sim_dgemm.cpp)          (default flat)
  --what LIST       pdgemm,summa (default): which simulations to run; hsumma = the G of --groups
                    without SUMMA (pdgemm,hsumma: no SUMMA multiply; summa: SUMMA and the G);
                    dropin = the drop-in pdgemm_ with groups 1x1 (SUMMA) and every G of --groups
  --dropin-set LIST the drop-in's settings, comma KEY=VALUE (default policy=pure,lookahead=off: the
                    skeleton's engine settings; block = -b always, so it stages no operand)
  --outer M         HSUMMA's outer block M, a multiple of b; --steps then counts outer steps (default b)
  --figure LABEL    the rows' figure column                                 (default "thesis Fig 4.9")
  --shm-costs on|off  on-node copies and overheads charged (make_platform.py; default on)
  --no-privatization  smpi/privatization:no, the simulated MPI layer preloaded (16384 ranks' memory)
  --lock FILE       the host's simulation lock, taken per simulation (default /work/sim.lock; '' = none)
  --timeout SEC     bound each simulation (default 7200)
  --dry-run         print the commands only
--machine defaults to bgp here. --steps S counts panel steps of b; PDGEMM runs the same share of K
(S * b / 32 chunks); 0 = all.
USAGE
}

privatization=() dgemm=flat what=pdgemm,summa lock=/work/sim.lock timeout=7200 outer=0 figure="thesis Fig 4.9"
dropin_set=policy=pure,lookahead=off
flag_option() {
  case "$1" in
    --dry-run) dry=1 ;;
    --no-privatization) privatization=(--cfg=smpi/privatization:no) ;;
    *) return 1 ;;
  esac
}
script=run-fig49.sh valued="dgemm what lock timeout outer figure dropin_set"
source "$here/run-common.sh"
case " $* " in *" --machine "*) ;; *) set -- --machine bgp "$@" ;; esac  # the thesis' BG/P unless told
read_sweep_options "$@"
[ -n "$out" ] || out="$root/results/simulated/fig4.9-bgp"
out="${out%.csv}"
case "$dgemm" in
  flat) dgemm_model=flat; unset HYMPI_SMPI_DGEMM_TABLE ;;
  *) [ -f "$dgemm" ] || { echo "run-fig49.sh: --dgemm must be flat or a readable rate table, got '$dgemm'" >&2; exit 2; }
     export HYMPI_SMPI_DGEMM_TABLE="$(cd "$(dirname "$dgemm")" && pwd)/$(basename "$dgemm")"
     dgemm_model="table:${HYMPI_SMPI_DGEMM_TABLE#"$root"/}" ;;
esac
[[ "$timeout" =~ ^[0-9]+$ ]] || { echo "run-fig49.sh: --timeout must be seconds, got '$timeout'" >&2; exit 2; }
[[ "$outer" =~ ^[0-9]+$ ]] || { echo "run-fig49.sh: error: --outer must be a whole number, got '$outer'" >&2; exit 2; }
[ "$outer" -gt 0 ] || outer=$b
[ $((outer % b)) = 0 ] || { echo "run-fig49.sh: error: --outer $outer must be a multiple of -b $b" >&2; exit 2; }
[ "$steps" -gt 0 ] || steps=$((n / outer))
[ $(((steps * b) % 32)) = 0 ] || { echo "run-fig49.sh: --steps x -b must be a multiple of PDGEMM's K chunk 32" >&2; exit 2; }
chunks=$((steps * b / 32))
if [ "$chunks" -ge $((n / 32)) ]; then chunks=0; fi  # 0 = the whole call
plan_sweep fig49
require_smpi_bin hympi-smpi-pdgemm-skeleton
require_smpi_bin hympi-smpi-summa-skeleton
[[ ",$what," != *,dropin,* ]] || require_smpi_bin hympi-smpi-dropin-pdgemm
preload=(); [ ${#privatization[@]} -gt 0 ] && sim_layer_preload
source "$here/smpi-flags.sh"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
out_dir="$(dirname "$out")"; mkdir -p "$out_dir"
sweep_platform "$work"
gflops=$(grep -o 'speed="[0-9.]*Gf' "$platform" | head -1 | grep -o '[0-9.]*' || echo "?")  # the host speed (per core)
git_rev=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
labels=(kind=simulated figure="$figure" machine="$machine" platform="$platform_rec" placement="$placement"
        "${fidelity_labels[@]}" privatization="$([ ${#privatization[@]} -gt 0 ] && echo no || echo yes)"
        dgemm_model="$dgemm_model" gflops_per_core="$gflops")
lock_cmd=(); [ -z "$lock" ] || lock_cmd=(flock "$lock")
echo "# SIMULATED (SimGrid SMPI) $figure $machine P=$ranks (${P}x$Q) n=$n b=$b M=$outer steps=$steps (PDGEMM chunks ${chunks:-all}) groups=$split_list fidelity=$fidelity dgemm=$dgemm_model"

simulate() {  # simulate NAME CMD...: one simulation under the lock, timed; sets host_wall host_cpu host_rss
  local name="$1"; shift
  if [ "$dry" = 1 ]; then echo "$(env | grep -E '^HYMPI_(SIM|SMPI)_' | sort | tr '\n' ' ')$*"; return 1; fi
  "${lock_cmd[@]}" /usr/bin/time -v -o "$work/time.txt" timeout "$timeout" "$@" > "$work/$name.log" 2>&1 ||
    { tail -20 "$work/$name.log" >&2; echo "run-fig49.sh: $name failed" >&2; exit 1; }
  # the simulation's own wall time (not the wait for the lock): time's h:mm:ss or m:ss
  host_wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i];
                             printf "%.1f", s}' "$work/time.txt")
  host_cpu=$(awk -F': ' '/User time/ {u=$2} /System time/ {s=$2} END {printf "%.1f", u + s}' "$work/time.txt")
  host_rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$work/time.txt")
}
runner=(smpirun -np "$ranks" -platform "$platform" -hostfile "${platform%.xml}.hosts" "${HYMPI_SMPI_FLAGS[@]}"
        "${fidelity_cfg[@]}" "${privatization[@]}" "${preload[@]}")
host_labels() { echo host_wall_s="$host_wall" host_cpu_s="$host_cpu" host_max_rss_kb="$host_rss" \
                     date="$(date -u +%Y-%m-%dT%H:%M:%SZ)" git="$git_rev"; }

if [[ ",$what," == *,pdgemm,* ]]; then
  cmd=("${runner[@]}" "$bin/hympi-smpi-pdgemm-skeleton" --grid "${P}x$Q" -N "$n" --nb "$b" --chunks "$chunks" --marks)
  if simulate pdgemm "${cmd[@]}"; then
    grep -E '^(alg,|pdgemm-skeleton,)' "$work/pdgemm.log" > "$work/pdgemm.csv"
    echo "PDGEMM: $(tail -1 "$work/pdgemm.csv" | cut -d, -f10-13) [host ${host_wall} s, ${host_rss} KB]"
    # shellcheck disable=SC2046
    python3 "$here/label_csv.py" "$work/pdgemm.csv" "$out-pdgemm.csv" "${labels[@]}" ranks="$ranks" $(host_labels) \
      command="run-fig49.sh --machine $machine --ranks $ranks -n $n -b $b --steps $steps --dgemm $dgemm (pdgemm)"
  fi
fi
if [[ ",$what," == *,summa,* || ",$what," == *,hsumma,* ]]; then
  variants="$split_list"; [[ ",$what," != *,summa,* ]] || variants="summa,$split_list"
  cmd=("${runner[@]}" "$bin/hympi-smpi-summa-skeleton" --grid "${P}x$Q" -n "$n" -b "$b" --steps "$steps"
       -M "$outer" --groups "$variants" --csv "$work/summa.csv")
  if simulate summa "${cmd[@]}"; then
    echo "SUMMA/HSUMMA: $(grep -E '^(summa|hsumma) ' "$work/summa.log" | awk '{printf "%s/%s %.4gs  ", $1, $3, $6}')[host ${host_wall} s, ${host_rss} KB]"
    # shellcheck disable=SC2046
    python3 "$here/label_csv.py" "$work/summa.csv" "$out-summa.csv" "${labels[@]}" $(host_labels) \
      command="run-fig49.sh --machine $machine --ranks $ranks -n $n -b $b --outer $outer --steps $steps --dgemm $dgemm (summa)"
  fi
fi
if [[ ",$what," == *,dropin,* ]]; then
  [ $((steps % 4)) = 0 ] || { echo "run-fig49.sh: error: --what dropin needs --steps a multiple of 4" >&2; exit 2; }
  [ "$outer" = "$b" ] || { echo "run-fig49.sh: error: --what dropin runs M = b (no --outer)" >&2; exit 2; }
  dropin_groups="1x1"; for g in ${split_list//,/ }; do [ "$g" = 1x1 ] || dropin_groups+=",$g"; done
  set_args=(--set "block=$b")  # its panel width: the figure's b
  IFS=, read -r -a kvs <<< "$dropin_set"; for kv in "${kvs[@]}"; do set_args+=(--set "$kv"); done
  # Its panel buffers (the core's aligned_alloc) and node windows are per-rank memory (16 MB a rank at
  # 1024 ranks, n = 65536: killed at 24 GB): folded onto shared blocks (payloads are not read);
  # operator new folds nothing (live objects, issue 52's heap corruption).
  export HYMPI_SMPI_FOLD_SCOPE=all HYMPI_SMPI_FOLD_BYTES=65536 HYMPI_SMPI_FOLD_NEW_BYTES=0
  # Always privatized: the drop-in keeps per-rank state in globals (settings, its grid cache).
  cmd=(smpirun -np "$ranks" -platform "$platform" -hostfile "${platform%.xml}.hosts" "${HYMPI_SMPI_FLAGS[@]}"
       "${fidelity_cfg[@]}" "$bin/hympi-smpi-dropin-pdgemm" --grid "${P}x$Q" -N "$n" --nb "$b" --steps "$steps"
       --groups "$dropin_groups" "${set_args[@]}" --csv "$work/dropin.csv")
  if simulate dropin "${cmd[@]}"; then
    echo "drop-in: $(awk -F, -v s="$steps" 'NR > 1 && $9 == s {printf "%s %.4gs  ", $7, $11}' "$work/dropin.csv")[host ${host_wall} s, ${host_rss} KB]"
    # shellcheck disable=SC2046
    python3 "$here/label_csv.py" "$work/dropin.csv" "$out-dropin.csv" "${labels[@]/#privatization=*/privatization=yes}" $(host_labels) \
      command="run-fig49.sh --machine $machine --ranks $ranks -n $n -b $b --steps $steps --dgemm $dgemm (dropin: $dropin_set)"
  fi
fi
exit
}
