#!/usr/bin/env bash
# The thesis' chapter-3 hierarchical reduce, allreduce, gather and scatter (and broadcast) on
# Grid'5000 Graphene (make_platform.py graphene-gige | graphene-ib, Graphene's faithful fidelity
# set) against the flat collective: hympi-smpi-hier-coll (the core's grouped collectives) for
# every G, one simulation, bounded by --timeout. Each level's algorithm is SimGrid's, chosen by
# name through the simulated MPI layer (glue/sim_levels.cpp): --algo-between among the group
# leaders, --algo-inside inside the groups, --flat for G = 1 (SMPI's smpi/<op> setting, also
# every level not named). Unnamed settings are Open MPI's decision as SimGrid 3.32 has it (ompi).
# Segment sizes are SimGrid's own (no setting exists); the segment column says which one the
# algorithm picks at each level where its source has a rule. The layer's own Open MPI algorithms
# take a segment in their name (hympi_chain:F:SEG, hympi_pipeline:SEG, hympi_ring_segmented:SEG,
# hympi_linear_sync:SEG; glue/sim_segmented.hpp), at any level and for --flat. Rows: see --help.
set -euo pipefail
{  # read whole before running: an edit during a simulation cannot break it
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
bin="${HYMPI_SMPI_BIN:-}"; machine=graphene-gige; ranks=128; cores=4; op=reduce; bytes=16384; groups=1,2,4,8
reps=1; out=""; flat=ompi; algo_between=""; algo_inside=""; algo_inside_bcast=""; timeout=300

usage() {
  cat <<USAGE
usage: run-hier-coll.sh [options]
  --machine M        graphene-gige | graphene-ib                         (default graphene-gige)
  --ranks P          simulated ranks                                     (default 128)
  --cores C          ranks per node, 1..4 (the thesis: 4 = one per core, 1 = one per node) (default 4)
  --op OP            bcast | reduce | allreduce | gather | scatter       (default reduce)
  --bytes B          the message: the vector (bcast/reduce/allreduce) or the root's whole
                     buffer (gather/scatter, B/P per rank)               (default 16384)
  --groups LIST      comma list of G in 1..P, 1 first (the flat collective) (default 1,2,4,8)
  --flat ALG         SimGrid's OP algorithm for G = 1 and every level not named, or a bcast's hympi_chain:F:SEG (default ompi:
                     Open MPI's decision as SimGrid 3.32 has it)
  --algo-between ALG SimGrid's OP algorithm among the group leaders       (default: --flat's)
  --algo-inside ALG  SimGrid's algorithm inside the groups (allreduce: its reduce) (default: --flat's; allreduce ompi)
  --algo-inside-bcast ALG  allreduce only: the broadcast inside the groups  (default ompi)
                     names (SimGrid 3.32's; a bad one is refused with the list), e.g. bcast ompi_pipeline binomial_tree ompi_split_bintree;
                     reduce ompi_chain ompi_pipeline ompi_binary ompi_binomial ompi_in_order_binary
                     ompi_basic_linear; allreduce rdb lr ompi_ring_segmented redbcast; gather/scatter
                     ompi_binomial ompi_basic_linear, gather ompi_linear_sync; and for a bcast level the
                     layer's own hympi_chain:F:SEG (Open MPI's chain, which SimGrid lacks: F chains,
                     SEG-byte segments, 0 = unsegmented; hympi_chain:1:SEG is Open MPI's pipeline);
                     the layer's Open MPI algorithms with a settable segment SEG (bytes, 0 = one
                     segment): reduce hympi_pipeline:SEG, allreduce hympi_ring_segmented:SEG, gather
                     hympi_linear_sync:SEG (its first segment)
  --reps R           repetitions, the minimum is kept                    (default 1)
  --timeout S        stop the simulation after S host seconds (exit 1)   (default 300)
  --out FILE         CSV to append to (default results/simulated/graphene-thesis-fig3-coll.csv)
  --bin DIR          SMPI build's bin/ (default: \$HYMPI_SMPI_BIN or build-smpi/bin or build/smpi/bin)
Rows: kind=simulated, machine, platform (its make_platform.py command), op, ranks, ranks_per_node,
bytes, groups, time_s, gain (flat time / this G's), algo_flat, algo_between, algo_inside,
algo_inside_bcast (the algorithm that ran at each level; G = 1 ran algo_flat only), seg_between /
seg_inside (the segment SimGrid's algorithm picks at that level, bytes, where its source has a rule;
'-' unsegmented or no rule; not settable; a hympi_*:SEG algorithm's SEG), the fidelity columns, host_s and max_rss_mb (the run's), reps (each time the minimum of that many).
Fidelity settings (apps/smpi/README.md; Graphene's faithful set by default):
USAGE
  fidelity_usage
}

script=run-hier-coll.sh
valued="bin machine ranks cores op bytes groups reps out flat algo_between algo_inside algo_inside_bcast timeout"
source "$here/run-common.sh"
fidelity="" sharing="" overheads="" eager_bytes="" bcast="" ring_merge=""
valued+=" $fidelity_options"
read_options "$@"
die() { echo "run-hier-coll.sh: error: $*" >&2; exit 2; }
case "$machine" in graphene-gige|graphene-ib) ;; *) die "--machine must be graphene-gige or graphene-ib, got '$machine'" ;; esac
case "$op" in bcast|reduce|allreduce|gather|scatter) ;; *) die "--op must be bcast, reduce, allreduce, gather or scatter, got '$op'" ;; esac
[[ "$ranks" =~ ^[0-9]+$ ]] && [ "$ranks" -ge 2 ] && [ "$ranks" -le 576 ] || die "bad --ranks '$ranks' (2..576: Graphene's 144 x 4 cores)"
[[ "$cores" =~ ^[1-4]$ ]] || die "bad --cores '$cores' (1..4: Graphene's nodes have 4 cores)"
[ $(( (ranks + cores - 1) / cores )) -le 144 ] || die "--ranks $ranks at --cores $cores needs more than Graphene's 144 nodes"
[[ "$bytes" =~ ^[0-9]+$ ]] && [ "$bytes" -ge 8 ] && [ "$bytes" -le 2147483648 ] || die "bad --bytes '$bytes' (8..2^31)"
case "$op" in gather|scatter) [ "$((bytes / 8))" -ge "$ranks" ] || die "--bytes $bytes: $op needs one double per rank at least" ;; esac
[[ "$reps" =~ ^[1-9][0-9]*$ ]] || die "bad --reps '$reps'"
[[ "$timeout" =~ ^[1-9][0-9]*$ ]] || die "bad --timeout '$timeout' (host seconds)"
[ "${groups%%,*}" = 1 ] || die "--groups must start with 1 (the flat collective)"
for g in ${groups//,/ }; do
  [[ "$g" =~ ^[0-9]+$ ]] && [ "$g" -ge 1 ] && [ "$g" -le "$ranks" ] || die "bad G '$g' in --groups (expected 1..$ranks)"
done
[ -z "$algo_inside_bcast" ] || [ "$op" = allreduce ] || die "--algo-inside-bcast is allreduce's (its broadcast inside the groups)"
fidelity_setup "$machine" ""
require_smpi_bin hympi-smpi-hier-coll
# Names: SimGrid refuses a bad --flat, the layer (glue/sim_levels.cpp) a bad level name, each listing
# the known ones; here only their form.
for a in "$flat" "$algo_between" "$algo_inside" "$algo_inside_bcast"; do
  [[ "$a" =~ ^[A-Za-z0-9_]*(:[0-9]+){0,2}$ ]] || die "bad algorithm name '$a' (letters, digits, _; or hympi_chain:F:SEG, hympi_<alg>:SEG)"
done
[ -n "$flat" ] || die "--flat needs a name"
layer_flat=""  # --flat hympi_<alg>:...: the layer's own algorithm for G = 1 and every level of OP not named
if [[ "$flat" == *:* ]]; then
  case "$op:$flat" in
    bcast:hympi_chain:*|reduce:hympi_pipeline:*|allreduce:hympi_ring_segmented:*|gather:hympi_linear_sync:*) ;;
    *) die "--flat '$flat' is not a $op of the layer's (bcast hympi_chain:F:SEG, reduce hympi_pipeline:SEG, allreduce hympi_ring_segmented:SEG, gather hympi_linear_sync:SEG)" ;;
  esac
  layer_flat="$flat"; algo_between="${algo_between:-$flat}"
  [ "$op" = allreduce ] || algo_inside="${algo_inside:-$flat}"  # allreduce's inside level is a reduce
fi
inside_op="$op"; [ "$op" = allreduce ] && inside_op=reduce
# An unnamed inside level runs smpi/<its op>: --flat's for the same op, Open MPI's decision for allreduce's reduce.
inside_default="$flat"; [ "$op" != allreduce ] || inside_default=ompi
out="${out:-$root/results/simulated/graphene-thesis-fig3-coll.csv}"
source "$here/smpi-flags.sh"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
platform="$work/$machine-$ranks.xml"
python3 "$here/platforms/make_platform.py" "$machine" --ranks "$ranks" --cores "$cores" --placement block \
  "${fidelity_platform[@]}" --out "$platform" >/dev/null
# Open MPI's decision (ompi) for every collective not named, then the flat one's setting.
cfg=("${HYMPI_SMPI_FLAGS[@]}" "${fidelity_cfg[@]}")
for c in reduce allreduce gather scatter; do cfg+=(--cfg=smpi/$c:ompi); done
smpi_flat="$flat"; [ -z "$layer_flat" ] || smpi_flat=ompi  # the layer's runs there (HYMPI_SIM_<OP>_FLAT)
cfg+=(--cfg=smpi/"$op":"$smpi_flat")
upper="${op^^}"
unset HYMPI_SIM_REDUCE_FLAT HYMPI_SIM_ALLREDUCE_FLAT HYMPI_SIM_GATHER_FLAT HYMPI_SIM_SCATTER_FLAT \
  HYMPI_SIM_BCAST_FLAT HYMPI_SIM_BCAST_BETWEEN HYMPI_SIM_BCAST_INSIDE HYMPI_SIM_REDUCE_BETWEEN HYMPI_SIM_REDUCE_INSIDE \
  HYMPI_SIM_ALLREDUCE_BETWEEN HYMPI_SIM_ALLREDUCE_INSIDE HYMPI_SIM_GATHER_BETWEEN HYMPI_SIM_GATHER_INSIDE \
  HYMPI_SIM_SCATTER_BETWEEN HYMPI_SIM_SCATTER_INSIDE
# Gather/scatter's leader level is an MPI_Gatherv/Scatterv (SMPI's gatherv setting, not --flat's):
# name --flat's algorithm there too, so the recorded algo_between is what ran (equal blocks).
case "$op" in gather|scatter) algo_between="${algo_between:-$flat}" ;; esac
[ -z "$layer_flat" ] || export "HYMPI_SIM_${upper}_FLAT=$layer_flat"
[ -z "$algo_between" ] || export "HYMPI_SIM_${upper}_BETWEEN=$algo_between"
[ -z "$algo_inside" ] || export "HYMPI_SIM_${inside_op^^}_INSIDE=$algo_inside"
[ "$op" != allreduce ] || export HYMPI_SIM_BCAST_INSIDE="${algo_inside_bcast:-ompi}"
[ "$bytes" -lt 65536 ] || export HYMPI_SMPI_FOLD_BYTES=65536  # the core's buffers folded (timing only)
rc=0
timeout --kill-after=10 "$timeout" /usr/bin/time -f "%e %M" -o "$work/time" smpirun -np "$ranks" -platform "$platform" \
  -hostfile "${platform%.xml}.hosts" "${cfg[@]}" "$bin/hympi-smpi-hier-coll" "$op" "$bytes" "$groups" "$reps" \
  > "$work/run.out" 2> "$work/log" || rc=$?
if [ "$rc" -ne 0 ]; then
  tail -20 "$work/log" >&2
  [ "$rc" -ne 124 ] && [ "$rc" -ne 137 ] || echo "run-hier-coll.sh: the simulation passed --timeout $timeout s" >&2
  echo "run-hier-coll.sh: the simulation failed (exit $rc)" >&2; exit 1
fi
read -r host_s rss_kb < <(tail -1 "$work/time")
platform_rec="make_platform.py $machine --ranks $ranks --cores $cores --placement block${fidelity_platform[*]:+ ${fidelity_platform[*]}}"
python3 "$here/hier_coll_rows.py" "$work/run.out" "$out" "$machine" "$platform_rec" "$cores" "$flat" \
  "${algo_between:-$flat}" "${algo_inside:-$inside_default}" \
  "$( [ "$op" = allreduce ] && echo "${algo_inside_bcast:-ompi}" || echo -)" \
  "$host_s" "$rss_kb" "$reps" "${fidelity_labels[@]}"
echo "[host $host_s s, max RSS $((rss_kb / 1024)) MB]"
exit 0
}
