#!/usr/bin/env bash
# The calibrated-host validation (issue 51 item 3): the same hympi-summa multiplies (ScaLAPACK's
# pdgemm_, SUMMA and HSUMMA) run for real on THIS machine and simulated on a platform of it
# (platforms/host_platform.py: one node of this machine's cores, on-node costs measured here,
# the core's speed = the best rate of the DGEMM table), side by side, with the error per row.
#   real:      mpirun hympi-summa (Debian ScaLAPACK's pdgemm_), LAUNCHES launches of WARMUP + REPS
#              multiplies each, at real-time priority (chrt -f 10) unless told otherwise;
#   simulated: smpirun of the SMPI build of the same hympi-summa (pdgemm_ = ScaLAPACK's schedule,
#              glue/scalapack_stubs.cpp; every cblas_dgemm charged by the DGEMM model).
# Rows (apps/smpi/host_validation_rows.py): real median/min/max, simulated time,
# error = (simulated - real median) / real median, and every setting.
set -euo pipefail
{  # read whole before running
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
script=run-host-validation.sh

usage() {
  cat <<USAGE
usage: $script [options]
Real vs simulated PDGEMM / SUMMA / HSUMMA on this machine (every rank on its one node).
  --layouts LIST    RANKS:PxQ pairs (default 2:1x2,4:2x2); more ranks than cores = oversubscribed
  --sizes LIST      n (m = n = k) (default 1024,2048,4096)
  --blocks LIST     b = M = PDGEMM's nb (default 64,256)
  --algs LIST       pdgemm,summa,hsumma (default all three); hsumma uses G = 2 groups (1x2 or 2x1)
  --launches N      real launches per case (default 3)
  --reps N          timed multiplies per launch (default 3; the simulation runs 1: it is deterministic)
  --warmup N        untimed multiplies per launch (default 1)
  --prio MODE       fifo (chrt -f 10, default), nice (nice -n -20) or none: the real runs' priority
  --dgemm MODEL     a hympi-dgemm-bench CSV (default results/dgemm-rate-host.csv) or flat
  --speed GF        the simulated core's Gflop/s (default: the table's best rate; required with flat)
  --platform-args S extra host_platform.py options (e.g. "--lat-us 0.5 --core-GBps 6")
  --eager-bytes N   SMPI's eager limit (smpi/send-is-detached-thresh; default 4096, Open MPI vader's)
  --real-bin DIR    directory of the real hympi-summa (default build/apps/summa)
  --smpi-bin DIR    directory of the SMPI hympi-summa (default build/smpi/bin)
  --out CSV         rows appended here (default results/simulated/host-validation.csv)
  --lock FILE       taken around each simulation (default /work/sim.lock; '' = none): one at n = 4096 and
                    b = 256 takes 3-5 min of host time (Open MPI's segmented broadcast, thousands of flows
                    for SimGrid's solver); the real launches take no lock (they hold both cores at chrt -f 10)
  --timeout SEC     bound each launch and simulation (default 600)
  --no-real | --no-sim  skip one side (its columns stay empty; error empty)
  --real-from CSV   no real runs: the real columns (and the error) from this earlier --out's rows of the
                    same cases (e.g. another DGEMM model against the same measurements)
  -h, --help
USAGE
}
die() { echo "$script: error: $*" >&2; exit 2; }

layouts=2:1x2,4:2x2 sizes=1024,2048,4096 blocks=64,256 algs=pdgemm,summa,hsumma launches=3 reps=3 warmup=1
prio=fifo dgemm="$root/results/dgemm-rate-host.csv" speed="" platform_args="" eager=4096
real_bin="$root/build/apps/summa" smpi_bin="$root/build/smpi/bin" out="$root/results/simulated/host-validation.csv"
lock=/work/sim.lock timeout=600 do_real=1 do_sim=1 real_from=""
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --no-real) do_real=0; shift; continue ;;
    --no-sim) do_sim=0; shift; continue ;;
    --layouts|--sizes|--blocks|--algs|--launches|--reps|--warmup|--prio|--dgemm|--speed|--platform-args|\
    --eager-bytes|--real-bin|--smpi-bin|--out|--lock|--timeout|--real-from)
      [ $# -ge 2 ] || die "$1 needs a value" ;;
    *) die "unknown option '$1' (see --help)" ;;
  esac
  case "$1" in
    --layouts) layouts="$2" ;; --sizes) sizes="$2" ;; --blocks) blocks="$2" ;; --algs) algs="$2" ;;
    --launches) launches="$2" ;; --reps) reps="$2" ;; --warmup) warmup="$2" ;; --prio) prio="$2" ;;
    --dgemm) dgemm="$2" ;; --speed) speed="$2" ;; --platform-args) platform_args="$2" ;;
    --eager-bytes) eager="$2" ;; --real-bin) real_bin="$2" ;; --smpi-bin) smpi_bin="$2" ;; --out) out="$2" ;;
    --lock) lock="$2" ;; --timeout) timeout="$2" ;; --real-from) real_from="$2"; do_real=0 ;;
  esac
  shift 2
done

num() { [[ "$2" =~ ^[0-9]+$ ]] && [ "$2" -ge "$3" ] || die "$1 must be an integer >= $3, got '$2'"; }
num --launches "$launches" 1; num --reps "$reps" 1; num --warmup "$warmup" 0; num --timeout "$timeout" 1
num --eager-bytes "$eager" 0
for n in ${sizes//,/ }; do num "--sizes entry" "$n" 1; done
for b in ${blocks//,/ }; do num "--blocks entry" "$b" 1; done
for a in ${algs//,/ }; do case "$a" in pdgemm|summa|hsumma) ;; *) die "--algs: pdgemm, summa or hsumma, got '$a'" ;; esac; done
for l in ${layouts//,/ }; do [[ "$l" =~ ^([0-9]+):([0-9]+)x([0-9]+)$ ]] && [ "${BASH_REMATCH[1]}" -ge 1 ] &&
  [ $((BASH_REMATCH[2] * BASH_REMATCH[3])) = "${BASH_REMATCH[1]}" ] || die "--layouts: RANKS:PxQ with P*Q = RANKS, got '$l'"; done
case "$prio" in
  fifo) prio_cmd=(chrt -f 10) ;; nice) prio_cmd=(nice -n -20) ;; none) prio_cmd=() ;;
  *) die "--prio must be fifo, nice or none, got '$prio'" ;;
esac
[ -z "$real_from" ] || [ -r "$real_from" ] || die "--real-from: cannot read '$real_from'"
[ "$dgemm" = flat ] || [ -r "$dgemm" ] || die "--dgemm must be flat or a readable rate table, got '$dgemm'"
[ "$dgemm" != flat ] || [ -n "$speed" ] || die "--dgemm flat needs --speed"
[ -z "$speed" ] || [[ "$speed" =~ ^[0-9]+(\.[0-9]+)?$ ]] || die "--speed must be Gflop/s, got '$speed'"
if [ "$do_real" = 1 ]; then
  [ -x "$real_bin/hympi-summa" ] || die "no real hympi-summa in '$real_bin' (ninja -C build hympi-summa, or --real-bin)"
  command -v mpirun >/dev/null || die "mpirun not found"
fi
if [ "$do_sim" = 1 ]; then
  command -v smpirun >/dev/null || { echo "$script: smpirun not found (apt install simgrid)" >&2; exit 77; }
  [ -x "$smpi_bin/hympi-summa" ] || die "no SMPI hympi-summa in '$smpi_bin' (configure -DHYMPI_SMPI=ON, or --smpi-bin)"
fi
mkdir -p "$(dirname "$out")" 2>/dev/null && touch "$out" 2>/dev/null || die "cannot write --out '$out'"

work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
lock_cmd=(); [ -z "$lock" ] || lock_cmd=(flock "$lock")
if [ "$dgemm" = flat ]; then dgemm_model=flat; unset HYMPI_SMPI_DGEMM_TABLE; speed_args=(--speed "$speed")
else
  HYMPI_SMPI_DGEMM_TABLE="$(cd "$(dirname "$dgemm")" && pwd)/$(basename "$dgemm")"; export HYMPI_SMPI_DGEMM_TABLE
  dgemm_model="table:${HYMPI_SMPI_DGEMM_TABLE#"$root"/}"
  speed_args=(--dgemm-table "$HYMPI_SMPI_DGEMM_TABLE"); [ -z "$speed" ] || speed_args=(--speed "$speed")
fi
export OPENBLAS_NUM_THREADS=1
source "$here/smpi-flags.sh"
# Open MPI's own decision for the broadcasts (as the real run's tuned component), its vader eager limit
smpi_cfg=("${HYMPI_SMPI_FLAGS[@]}" --cfg=smpi/bcast:ompi "--cfg=smpi/send-is-detached-thresh:$eager")
cores=$(nproc)
git_rev=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
# shellcheck disable=SC2206
extra_platform=($platform_args)

others() {  # what else ran: load and the three busiest other commands (ps, by CPU share)
  local load; load=$(cut -d' ' -f1 /proc/loadavg)
  echo "load1=$load; $(ps -eo pcpu=,comm= --sort=-pcpu | awk -v me="$$" 'NR <= 6 && $1 > 5 {printf "%s %s%%; ", $2, $1}')"
}

for l in ${layouts//,/ }; do
  ranks=${l%%:*} grid=${l#*:}; P=${grid%x*} Q=${grid#*x}
  if [ $((Q % 2)) = 0 ]; then groups=1x2; elif [ $((P % 2)) = 0 ]; then groups=2x1; else groups=1x1; fi
  platform="$work/host-$ranks.xml"
  python3 "$here/platforms/host_platform.py" --ranks "$ranks" --cores "$cores" "${speed_args[@]}" \
    "${extra_platform[@]}" --out "$platform" > /dev/null || die "host_platform.py failed"
  platform_rec="host_platform.py $(sed -n 's/^<!-- Generated by apps\/smpi\/platforms\/host_platform.py //p' "$platform" |
    sed "s|$work/||; s|$root/||g")"
  onnode=$(sed -n 's/^on-node messages //p' "$platform")  # the platform's on-node values, as written
  sim_speed=$(sed -n 's/.*<host id="host-0" speed="\([0-9.e+]*\)Gf".*/\1/p' "$platform")
  oversub=(); [ "$ranks" -le "$cores" ] || oversub=(--oversubscribe)
  for n in ${sizes//,/ }; do
    for b in ${blocks//,/ }; do
      [ $((n % (b * P * Q))) = 0 ] || { echo "$script: skip n=$n b=$b on $grid (n not a multiple of b*P*Q)" >&2; continue; }
      args=(-a "$algs" -N "$n" -b "$b" -M "$b" --pdgemm-nb "$b" --grid "$grid" --groups "$groups" --policy pure
            --check none --no-reference-dgemm --threads 1)
      case_id="ranks=$ranks grid=$grid n=$n b=$b"
      rm -f "$work"/real-*.csv; : > "$work/real-runs.txt"; real_csvs=()
      if [ "$do_real" = 1 ]; then
        for ((i = 1; i <= launches; i++)); do
          before=$(others)
          timeout "$timeout" "${prio_cmd[@]}" env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
            mpirun -np "$ranks" "${oversub[@]}" "$real_bin/hympi-summa" "${args[@]}" --reps "$reps" --warmup "$warmup" \
            --csv "$work/real-$i.csv" > "$work/real.log" 2>&1 ||
            { tail -20 "$work/real.log" >&2; echo "$script: real launch $i of $case_id failed (timeout $timeout s?)" >&2; exit 1; }
          echo "$i|$before" >> "$work/real-runs.txt"; real_csvs+=("$work/real-$i.csv")
        done
      fi
      : > "$work/sim-run.csv"; sim_host=""
      if [ "$do_sim" = 1 ]; then
        t0=$(date +%s.%N)
        "${lock_cmd[@]}" timeout "$timeout" smpirun -np "$ranks" -platform "$platform" -hostfile "${platform%.xml}.hosts" \
          "${smpi_cfg[@]}" "$smpi_bin/hympi-summa" "${args[@]}" --reps 1 --warmup 0 --csv "$work/sim-run.csv" \
          > "$work/sim.log" 2>&1 || { tail -20 "$work/sim.log" >&2; echo "$script: simulation of $case_id failed" >&2; exit 1; }
        sim_host=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}')
      fi
      from=(); [ -z "$real_from" ] || from=(--real-from "$real_from")
      python3 "$here/host_validation_rows.py" --out "$out" --sim "$work/sim-run.csv" --runs "$work/real-runs.txt" "${from[@]}" \
        --real "${real_csvs[@]}" -- \
        date="$(date -u +%Y-%m-%dT%H:%M:%SZ)" git="$git_rev" ranks="$ranks" cores="$cores" \
        oversubscribed="$([ "$ranks" -gt "$cores" ] && echo yes || echo no)" \
        real_prio="$prio" real_launches="$launches" real_reps="$reps" real_warmup="$warmup" \
        real_mpi="$(mpirun --version 2>/dev/null | head -1)" dgemm_model="$dgemm_model" sim_gflops_per_core="$sim_speed" \
        platform="$platform_rec" platform_onnode="$onnode" smpi_bcast=ompi eager_bytes="$eager" \
        smpi_cfg="${smpi_cfg[*]}" sim_host_s="$sim_host" \
        command="$script --layouts $l --sizes $n --blocks $b --algs $algs --launches $launches --reps $reps --prio $prio --dgemm ${dgemm#"$root"/}"
    done
  done
done
exit
}
