#!/usr/bin/env bash
# The BPMF skeleton's time per iteration against the real hympi-bpmf on THIS host (issue 52, Zhou
# Fig 12), at layouts this host may oversubscribe (4 ranks on 2 cores). Per case RANKS:PER_NODE:POLICY:
#   measured   --runs runs of hympi-bpmf (mpirun --oversubscribe; at real-time priority, chrt -f 10,
#              unless --priority nice|none) on ChEMBL-346, K = 32, 24 iterations, the first 4 dropped;
#              PER_NODE < RANKS emulates nodes of PER_NODE ranks (HYMPI_RANKS_PER_NODE);
#   simulated  hympi-smpi-bpmf-skeleton, 20 iterations, with ALL ranks on ONE simulated XC40 host of
#              --host-cores cores (default: this host's, nproc), the same emulated nodes: SimGrid shares a
#              host's cores among its actors (4 actors of 1 Gflop on a 2-core 1 Gflop/s host take 2 s
#              each, README), as Linux shares this host's cores among 4 processes. Once per --ns-per-cost.
# Rows are appended to --out (default results/simulated/zhou-fig12-bpmf-validation.csv, its columns);
# each simulated row's settings say its error against the mean of the case's measured runs.
# --runs 0: no measured run; the error is against the case's measured rows already in --out (every
# priority; ctest smpi.bpmf_validation reruns the simulation so).
# usage: run-bpmf-validation.sh [--cases LIST] [--runs N] [--priority chrt|nice|none] [--host-cores C]
#                               [--ns-per-cost LIST] [--train FILE] [--test FILE] [--real-bin DIR]
#                               [--bin DIR] [--out FILE]
# Defaults: --cases 4:4:pure,4:4:hybrid,4:2:hybrid --runs 3 --ns-per-cost 1.848e-9,1.93e-9.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
script=run-bpmf-validation.sh
usage() { sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; }
cases=4:4:pure,4:4:hybrid,4:2:hybrid; runs=3; priority=chrt; host_cores="$(nproc)"; ns_per_cost=1.848e-9,1.93e-9
train="$root/data/chembl/chembl-IC50-train.mm"; test=""; real_bin=""; bin="${HYMPI_SMPI_BIN:-}"
out="$root/results/simulated/zhou-fig12-bpmf-validation.csv"
valued="cases runs priority host_cores ns_per_cost train test real_bin bin out"
source "$here/run-common.sh"
read_options "$@"
fail() { echo "$script: error: $*" >&2; exit 2; }
[[ "$cases" =~ ^([1-9][0-9]*:[1-9][0-9]*:(pure|hybrid))(,[1-9][0-9]*:[1-9][0-9]*:(pure|hybrid))*$ ]] ||
  fail "--cases takes RANKS:PER_NODE:pure|hybrid,..., not '$cases'"
[[ "$runs" =~ ^[0-9]+$ ]] || fail "--runs takes a count (0: simulate only), not '$runs'"
[[ "$host_cores" =~ ^[1-9][0-9]*$ ]] || fail "--host-cores takes a positive integer, not '$host_cores'"
test="${test:-${train%-train.mm}-test.mm}"
[ -r "$train" ] && [ -r "$test" ] || fail "cannot read --train '$train' / --test '$test' (data/fetch-chembl.sh)"
case "$priority" in chrt) prio=(chrt -f 10) ;; nice) prio=(nice -n -20) ;; none) prio=() ;;
  *) fail "--priority is chrt, nice or none, not '$priority'" ;; esac
[ -n "$real_bin" ] || for d in "$root/build/apps/bpmf" "$root/build-test-openmpi/apps/bpmf"; do
  [ -x "$d/hympi-bpmf" ] && real_bin="$d" && break; done
[ "$runs" = 0 ] || [ -x "$real_bin/hympi-bpmf" ] || fail "no hympi-bpmf (pass --real-bin: the MPI build's apps/bpmf)"
require_smpi_bin hympi-smpi-bpmf-skeleton
source "$here/smpi-flags.sh"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
python3 "$here/platforms/make_platform.py" xc40-dragonfly --ranks "$host_cores" --cores "$host_cores" \
  --out "$work/p.xml" > /dev/null
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OPENBLAS_NUM_THREADS=1
unset HYMPI_SMPI_FOLD_BYTES HYMPI_SMPI_FOLD_SCOPE  # the skeleton's item counts are live (run-bpmf-xc40.sh)
load() { cut -d' ' -f1 /proc/loadavg; }
for c in ${cases//,/ }; do
  IFS=: read -r np per policy <<< "$c"
  [ "$per" -le "$np" ] || fail "case $c: more ranks per node than ranks"
  layout="one node"; [ "$per" = "$np" ] || layout="$((np / per)) emulated nodes x $per"
  what="$np ranks ($layout) on this $host_cores-core host"
  nodes_env=(); [ "$per" = "$np" ] || nodes_env=(HYMPI_RANKS_PER_NODE="$per")
  for r in $(seq "$runs"); do  # measured: per-iteration means of iterations 5..24 (rank 0's trace)
    rm -f "$work/trace.csv"; l0=$(load)
    env "${nodes_env[@]}" timeout 300 "${prio[@]}" \
      mpirun -np "$np" --oversubscribe "$real_bin/hympi-bpmf" --train "$train" --test "$test" -K 32 --burnin 4 \
      --samples 20 --policy "$policy" --sync flags -q --trace-csv "$work/trace.csv" > "$work/log" 2>&1 ||
      { cat "$work/log" >&2; echo "$script: case $c run $r failed" >&2; exit 1; }
    m=$(python3 - "$work/trace.csv" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if int(r["iteration"]) > 4]
assert len(rows) == 20, len(rows)
print(" ".join(f"{sum(float(r[k]) for r in rows) / len(rows):.4f}" for k in ("seconds", "sampling", "exchange")))
PY
)
    read -r t s e <<< "$m"
    echo "measured,hympi-bpmf (Open MPI; ${prio[*]:-no priority}; mpirun --oversubscribe) $what,$np,$policy,$(basename "$train"),32,24,,$t,$s,$e,run $r of $runs (flags; load $l0 before)" >> "$out"
    echo "$c run $r: $t s per iteration (sampling $s, exchange $e)"
  done
  # the mean of this invocation's runs (--runs 0: of the case's measured rows in --out)
  read -r nmeas mean <<< "$(python3 - "$out" "$np" "$policy" " $what" "$runs" <<'PY'
import csv, sys
out, np, policy, what, runs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
v = [float(r["time_per_iteration_s"]) for r in csv.DictReader(open(out))
     if r["kind"] == "measured" and r["ranks"] == np and r["policy"] == policy and r["what"].endswith(what)]
v = v[-runs:] if runs else v
print(len(v), f"{sum(v) / len(v):.5f}" if v else "none")
PY
)"
  [ "$nmeas" -gt 0 ] || fail "case $c: no measured rows in $out (--runs 0)"
  echo "nid0:$np" > "$work/h.hosts"
  for ns in ${ns_per_cost//,/ }; do  # simulated: all ranks on one host of host_cores cores
    env "${nodes_env[@]}" smpirun -np "$np" -platform "$work/p.xml" \
      -hostfile "$work/h.hosts" "${HYMPI_SMPI_FLAGS[@]}" "$bin/hympi-smpi-bpmf-skeleton" --train "$train" -K 32 \
      --iterations 20 --policy "$policy" --sync flags --ns-per-cost "$ns" --csv "$work/sim.csv" > "$work/log" 2>&1 ||
      { cat "$work/log" >&2; echo "$script: case $c simulation failed" >&2; exit 1; }
    read -r t s e <<< "$(python3 -c "
import csv, sys
r = next(csv.DictReader(open(sys.argv[1]))); n = int(r['iterations'])
print(r['time_per_iteration_s'], f\"{float(r['sampling_s']) / n:.6g}\", f\"{float(r['exchange_s']) / n:.6g}\")" "$work/sim.csv")"
    err=$(python3 -c "import sys; print(f'{100 * (float(sys.argv[1]) / float(sys.argv[2]) - 1):+.1f}')" "$t" "$mean")
    echo "simulated,hympi-smpi-bpmf-skeleton on xc40-dragonfly ($np actors on one $host_cores-core host; $layout; SMPI default fidelity),$np,$policy,$(basename "$train"),32,20,$ns,$t,$s,$e,error $err% against the mean of the $nmeas measured runs ($mean s)" >> "$out"
    echo "$c simulated (ns-per-cost $ns): $t s per iteration, $err% against $mean"
  done
done
echo "rows -> $out"
