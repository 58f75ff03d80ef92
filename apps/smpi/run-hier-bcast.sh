#!/usr/bin/env bash
# The thesis' hierarchical broadcast against the flat MPI_Bcast on a simulated machine: the
# thesis' BG/P (make_platform.py bgp, the default; the fidelity settings of apps/smpi/README.md,
# faithful unless --fidelity legacy: smpi/bcast:scatter_LR_allgather as the committed rows) or
# the XC40 (make_platform.py xc40-dragonfly, 24 ranks per node; no preset: give the settings) or
# Grid'5000 Graphene (graphene-gige | graphene-ib, 4 ranks per node; Graphene's faithful set by default).
# hympi-smpi-hier-bcast (the core's grouped broadcast, lib/src/grouped) for every G, one
# simulation; G = auto is the core's groups = auto, fed the machine's parameters
# (HYMPI_MODEL_ALPHA, HYMPI_MODEL_BETA, HYMPI_MODEL_BCAST, HYMPI_MODEL_NODE_RANKS,
# HYMPI_MODEL_SHM_*, and on bgp with block placement HYMPI_MODEL_TORUS; an exported value wins). Rows:
# kind=simulated, machine, placement, platform, smpi_bcast, ranks, bytes, groups (the G used),
# time_s, gain = flat time / this G's time (G = 1 is the flat broadcast), then the fidelity
# columns (fidelity, sharing, overheads, eager_bytes, bcast, ring_merge) and asked (the G asked
# for: a number or auto) and model_s (the auto model's time for the G used); legacy rows keep
# their older columns.
set -euo pipefail
{  # bash reads all of this before running it: an edit of this file during a long simulation cannot break the run
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
bin="${HYMPI_SMPI_BIN:-}"; machine=bgp; ranks=512; bytes=524288; groups=1,16,32,64; placement=block; reps=1; flat_s=""; out=""; cores=""

usage() {
  cat <<USAGE
usage: run-hier-bcast.sh [options]
  --machine M       bgp | xc40-dragonfly | graphene-gige | graphene-ib   (default bgp)
  --ranks P         simulated ranks                          (default 512)
  --bytes B[,B...]  message size(s) in bytes; a list runs every size in one simulation (the start-up of
                    thousands of simulated ranks paid once; not with --flat-s or --remodel)   (default 524288)
  --groups LIST     comma list of G in 1..P or auto, 1 first (balanced groups of P/G rounded) (default 1,16,32,64)
  --placement P     block | xyzt (xyzt: bgp only)             (default block)
  --cores C         ranks per node (make_platform.py --cores; default the machine's: bgp/graphene 4, xc40 24);
                    graphene-* only (the thesis' one process per node: --cores 1)
  --reps R          repetitions, the minimum is kept         (default 1)
  --flat-s T        the flat broadcast's time from an earlier run with the same platform and
                    options: --groups then leaves out 1 (at 6142 ranks the flat scatter + ring
                    broadcast is ~p^2 simulated messages, 40 min of host time; the gain is T / time)
  --out FILE        CSV to append to                         (default results/simulated/bgp-hier-bcast-fidelity.csv;
                    with --fidelity legacy the committed bgp-hier-bcast.csv, in its older columns;
                    xc40-dragonfly: xc40-hier-bcast.csv; graphene-*: graphene-*-hier-bcast.csv)
  --bin DIR         SMPI build's bin/ (default: \$HYMPI_SMPI_BIN or build-smpi/bin or build/smpi/bin)
  --remodel         no simulation: rewrite model_s of --out's rows of this machine, placement, ranks,
                    bytes and fidelity settings with today's closed form (hympi-grouped-model, from
                    --model-bin FILE or build*/apps/grouped_model/); an auto row whose G the form
                    no longer picks is named (re-simulate it with --groups auto)
Fidelity settings (apps/smpi/README.md "Fidelity settings"; legacy --bcast: scatter_LR_allgather, the
thesis' MPICH rule at >= 512 KiB on 8 or more ranks):
USAGE
  fidelity_usage
}

script=run-hier-bcast.sh valued="bin machine ranks bytes groups placement reps out flat_s model_bin cores"
source "$here/run-common.sh"
remodel=0 model_bin=""
flag_option() { case "$1" in --remodel) remodel=1 ;; *) return 1 ;; esac; }
fidelity="" sharing="" overheads="" eager_bytes="" bcast="" ring_merge=""
valued+=" $fidelity_options"
read_options "$@"
case "$machine" in
  bgp) legacy_bcast=scatter_LR_allgather ;;
  xc40-dragonfly|graphene-gige|graphene-ib) legacy_bcast=""
    [ "$placement" = block ] || { echo "run-hier-bcast.sh: --placement $placement is BG/P's; $machine is block only" >&2; exit 2; } ;;
  *) echo "run-hier-bcast.sh: --machine must be bgp, xc40-dragonfly, graphene-gige or graphene-ib, got '$machine'" >&2; exit 2 ;;
esac
fidelity_setup "$machine" "$legacy_bcast"
cores_args=()
if [ -n "$cores" ]; then
  [[ "$machine" == graphene-* ]] || { echo "run-hier-bcast.sh: --cores is for graphene-* only" >&2; exit 2; }
  [[ "$cores" =~ ^[1-4]$ ]] || { echo "run-hier-bcast.sh: bad --cores '$cores' (expected 1..4: Graphene's nodes have 4 cores)" >&2; exit 2; }
  cores_args=(--cores "$cores")
fi
if [ -z "$out" ]; then
  if [ "$machine" = bgp ]; then
    out="$root/results/simulated/bgp-hier-bcast.csv"; [ "$fidelity_in_use" = 0 ] || out="${out%.csv}-fidelity.csv"
  else
    out="$root/results/simulated/$machine-hier-bcast.csv"; out="${out/xc40-dragonfly/xc40}"
  fi
fi
if [ "$remodel" = 1 ]; then
  if [ -z "$model_bin" ]; then
    for d in "$root/build" "$root/build-dev" "$root"/build*; do
      [ -x "$d/apps/grouped_model/hympi-grouped-model" ] && model_bin="$d/apps/grouped_model/hympi-grouped-model" && break
    done
  fi
  [ -n "$model_bin" ] && [ -x "$model_bin" ] ||
    { echo "run-hier-bcast.sh: no hympi-grouped-model (build the project, or pass --model-bin)" >&2; exit 2; }
  [ -s "$out" ] || { echo "run-hier-bcast.sh: --remodel needs rows in $out" >&2; exit 2; }
else
  require_smpi_bin hympi-smpi-hier-bcast
fi
# Sizes: 1..2147483647 (the probe's int), decimal, comma-separated.
[[ "$bytes" =~ ^[1-9][0-9]{0,9}(,[1-9][0-9]{0,9})*$ ]] &&
  python3 -c "import sys; sys.exit(0 if max(map(int, sys.argv[1].split(','))) <= 2147483647 else 1)" "$bytes" ||
  { echo "run-hier-bcast.sh: error: bad --bytes '$bytes' (expected sizes 1..2147483647 in bytes, comma-separated)" >&2; exit 2; }
if [[ "$bytes" == *,* ]] && { [ -n "$flat_s" ] || [ "$remodel" = 1 ]; }; then
  echo "run-hier-bcast.sh: error: --bytes '$bytes': a list of sizes is not for --flat-s or --remodel (one size each)" >&2; exit 2
fi
if [ -z "$flat_s" ]; then
  [ "${groups%%,*}" = 1 ] || { echo "run-hier-bcast.sh: --groups must start with 1 (the flat broadcast), or give --flat-s" >&2; exit 2; }
else
  python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) > 0 else 1)" "$flat_s" 2>/dev/null ||
    { echo "run-hier-bcast.sh: bad --flat-s '$flat_s' (expected seconds > 0)" >&2; exit 2; }
  [[ ",$groups," != *,1,* ]] || { echo "run-hier-bcast.sh: --flat-s replaces G = 1; leave 1 out of --groups" >&2; exit 2; }
fi
for g in ${groups//,/ }; do
  [ "$g" = auto ] || { [[ "$g" =~ ^[0-9]+$ ]] && [ "$g" -ge 1 ] && [ "$g" -le "$ranks" ]; } ||
    { echo "run-hier-bcast.sh: bad G '$g' in --groups (expected 1..$ranks or auto)" >&2; exit 2; }
done
# groups = auto's machine (lib/src/grouped/auto_groups.cpp), from the platform's published figures
# (make_platform.py's docstring), unless exported: bgp 2.5 us of overheads per off-node message plus
# its hops (3 us), 425 MB/s links; xc40-dragonfly 0.3 us per hop over a typical route's 4 hops, 5 GB/s
# Aries links, no software overhead in the platform. On-node: ranks per node, the on-node overhead +
# loopback latency and one core's copy rate (bgp 4, 0.9 + 0.1 us, 1.5 GB/s; xc40 24, 0.3 + 0.05 us,
# 8 GB/s). The rule: BG/P's DCMF or MPICH's (SMPI's own broadcasts are modelled as MPICH's).
case "$machine" in
  bgp) model_alpha=3e-6 model_beta=2.3529411764705882e-09 model_node=4 model_shm_alpha=1.0e-6
       model_shm_beta=6.666666666666667e-10 ;;
  xc40-dragonfly) model_alpha=1.2e-6 model_beta=2e-10 model_node=24 model_shm_alpha=0.35e-6 model_shm_beta=1.25e-10 ;;
  # Graphene in a cabinet (make_platform.py): 48.06 / 2.4 us, 117.6 MB/s / 1.5 GB/s; on-node 0.4 + 0.1 us, 6 GB/s.
  graphene-gige) model_alpha=48.06e-6 model_beta=8.504356e-09 model_node=${cores:-4} model_shm_alpha=0.5e-6
                 model_shm_beta=1.6666666666666667e-10 ;;
  graphene-ib) model_alpha=2.4e-6 model_beta=6.666666666666667e-10 model_node=${cores:-4} model_shm_alpha=0.5e-6
               model_shm_beta=1.6666666666666667e-10 ;;
esac
export HYMPI_MODEL_ALPHA="${HYMPI_MODEL_ALPHA:-$model_alpha}" HYMPI_MODEL_BETA="${HYMPI_MODEL_BETA:-$model_beta}" \
  HYMPI_MODEL_NODE_RANKS="${HYMPI_MODEL_NODE_RANKS:-$model_node}" HYMPI_MODEL_SHM_ALPHA="${HYMPI_MODEL_SHM_ALPHA:-$model_shm_alpha}" \
  HYMPI_MODEL_SHM_BETA="${HYMPI_MODEL_SHM_BETA:-$model_shm_beta}"
[ "$bcast" = dcmf ] && model_bcast=dcmf || model_bcast=mpich
export HYMPI_MODEL_BCAST="${HYMPI_MODEL_BCAST:-$model_bcast}"
source "$here/smpi-flags.sh"
# On a failure after the simulation its rows are kept beside --out (hours of host time at 6142 ranks).
keep_rows() {
  local rc=$? keep
  if [ "$rc" -ne 0 ] && [ -s "$work/run.out" ]; then
    keep="${out%.csv}.failed-$(date +%Y%m%dT%H%M%S).out"
    if ! cp "$work/run.out" "$keep" 2>/dev/null; then
      keep="$(mktemp "${TMPDIR:-/tmp}/hier-bcast.XXXXXX.out")"
      cp "$work/run.out" "$keep"
    fi
    echo "run-hier-bcast.sh: the simulation's own output is kept in $keep" >&2
  fi
  rm -rf "$work"
}
work="$(mktemp -d)"; trap keep_rows EXIT
platform="$work/$machine-$ranks-$placement.xml"
python3 "$here/platforms/make_platform.py" "$machine" --ranks "$ranks" "${cores_args[@]}" --placement "$placement" "${fidelity_platform[@]}" \
  --out "$platform" >/dev/null
# groups = auto's torus (lib/src/grouped/torus_terms.hpp: link sharing, communicator shapes): the bgp
# platform's node dimensions and wrap-around, for block placement (the form places ranks by block).
# Other machines and placements have no torus the form knows: an exported one is dropped, said.
if [ "$machine" = bgp ] && [ "$placement" = block ]; then
  if [ -z "${HYMPI_MODEL_TORUS+set}" ]; then
    dims="$(grep -o -m1 'hympi_bgp_dims" value="[0-9,]*' "$platform" | sed 's/.*value="//')"
    wrap="$(grep -o -m1 'hympi_bgp_wrap" value="[0-9,]*' "$platform" | sed 's/.*value="//')"
    [[ "$dims" =~ ^[0-9]+,[0-9]+,[0-9]+$ && "$wrap" =~ ^[01],[01],[01]$ ]] ||
      { echo "run-hier-bcast.sh: $platform has no hympi_bgp_dims / hympi_bgp_wrap" >&2; exit 1; }
    HYMPI_MODEL_TORUS="${dims//,/x}"; [ "$wrap" = 1,1,1 ] || HYMPI_MODEL_TORUS+=":mesh"
    export HYMPI_MODEL_TORUS
  fi
elif [ -n "${HYMPI_MODEL_TORUS:-}" ]; then
  echo "run-hier-bcast.sh: HYMPI_MODEL_TORUS=$HYMPI_MODEL_TORUS ignored: $machine with $placement placement has no torus the form knows" >&2
  unset HYMPI_MODEL_TORUS
fi
# Refused before the simulation: an output file with other columns (e.g. the committed legacy CSV).
fields="kind,machine,placement,platform,smpi_bcast,ranks,bytes,groups,time_s,gain"
for kv in "${fidelity_labels[@]}"; do fields+=",${kv%%=*}"; done
[ "$fidelity_in_use" = 0 ] || fields+=",asked,model_s"
# Graphene rows (no older rows to keep) also carry the ranks per node and the run's host seconds.
[[ "$machine" != graphene-* ]] || fields+=",ranks_per_node,host_s"
if [ -s "$out" ] && [ "$(head -1 "$out" | tr -d '\r')" != "$fields" ]; then
  echo "run-hier-bcast.sh: $out has other columns (fidelity $fidelity writes $fields); use another --out" >&2; exit 2
fi
if [ "$remodel" = 1 ]; then
  [ "$fidelity_in_use" = 1 ] || { echo "run-hier-bcast.sh: --remodel: legacy rows have no model_s" >&2; exit 2; }
  # Graphene rows also carry their ranks per node (the machine the form was fed): only those of --cores.
  python3 - "$out" "$model_bin" "$machine" "$placement" "$ranks" "$bytes" "${cores:-4}" "${fidelity_labels[@]}" <<'PY'
import csv, os, subprocess, sys
out, tool, machine, placement, ranks, nbytes, per_node = sys.argv[1:8]
fidelity = dict(kv.split("=", 1) for kv in sys.argv[8:])
rows = list(csv.DictReader(open(out)))
if not rows or "model_s" not in rows[0]:
    sys.exit(f"run-hier-bcast.sh: --remodel: {out} has no rows with a model_s column")
fields = list(rows[0].keys())
mine = [r for r in rows if (r["machine"], r["placement"], r["ranks"], r["bytes"]) == (machine, placement, ranks, nbytes)
        and all(r.get(k) == v for k, v in fidelity.items()) and r.get("ranks_per_node", per_node) == per_node]
if not mine:
    sys.exit(f"run-hier-bcast.sh: --remodel: no rows of {machine} {placement} {ranks} ranks {nbytes} B {fidelity} "
             f"{per_node} ranks per node in {out}")
gs = sorted({int(r["groups"]) for r in mine})
run = subprocess.run([tool, "--ranks", ranks, "--bytes", nbytes, "--groups", ",".join(map(str, gs))],
                     capture_output=True, text=True)
if run.returncode != 0:
    sys.exit(f"run-hier-bcast.sh: --remodel: {tool} failed: {run.stderr.strip()}")
text = run.stdout
print("".join(line + "\n" for line in text.splitlines() if line.startswith("#")), end="")
model = {int(r["groups"]): r for r in csv.DictReader(line for line in text.splitlines() if not line.startswith("#"))}
pick = [g for g, r in model.items() if r["auto"] == "1"]
for r in mine:
    old, r["model_s"] = r["model_s"], model[int(r["groups"])]["model_s"]
    print(f"G={r['asked']}->{r['groups']}: model_s {old or '-'} -> {r['model_s']}")
    if r["asked"] == "auto" and pick != [int(r["groups"])]:
        print(f"auto row: the form now picks G = {pick[0] if pick else 'another G (run hympi-grouped-model)'}, "
              f"the row has {r['groups']}: re-simulate with --groups auto")
tmp = out + ".remodel"
with open(tmp, "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=fields)
    w.writeheader()
    w.writerows(rows)
os.replace(tmp, out)
PY
  exit 0
fi
t0=$(date +%s.%N)
# The core's per-rank buffers folded into one (timing only; the payload is never read). Never an
# operator-new block unless HYMPI_SMPI_FOLD_NEW_BYTES says so: the core's per-rank agreement vectors
# (56 B per rank, 344 KB at 6142) hold live objects (fold_alloc.cpp). The probe's buffers come from
# aligned_alloc, which only fold_shared.cpp's scope all folds: one size keeps the default scope (as the
# committed rows ran: with one size nothing is folded, the same times and peak memory as before); a
# list folds every private buffer and window of at least 64 KiB unless HYMPI_SMPI_FOLD_BYTES / _SCOPE
# are exported (16 MiB x 6142 ranks would not fit).
export HYMPI_SMPI_FOLD_NEW_BYTES="${HYMPI_SMPI_FOLD_NEW_BYTES:-0}"
if [[ "$bytes" == *,* ]]; then
  export HYMPI_SMPI_FOLD_BYTES="${HYMPI_SMPI_FOLD_BYTES:-65536}" HYMPI_SMPI_FOLD_SCOPE="${HYMPI_SMPI_FOLD_SCOPE:-all}"
fi
smpirun -np "$ranks" -platform "$platform" -hostfile "${platform%.xml}.hosts" "${HYMPI_SMPI_FLAGS[@]}" \
  "${fidelity_cfg[@]}" "$bin/hympi-smpi-hier-bcast" "$bytes" "$groups" "$reps" > "$work/run.out" 2> "$work/log" \
  || { cat "$work/log" >&2; echo "run-hier-bcast.sh: the simulation failed" >&2; exit 1; }
host_s=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
platform_rec="make_platform.py $machine --ranks $ranks${cores_args[*]:+ ${cores_args[*]}} --placement $placement${fidelity_platform[*]:+ ${fidelity_platform[*]}}"
grep '^# auto' "$work/run.out" || true
python3 - "$work/run.out" "$out" "$machine" "$placement" "$smpi_bcast_column" "$platform_rec" "$flat_s" "$fidelity_in_use" \
  "${cores:-4}" "$host_s" "${fidelity_labels[@]}" <<'PY'
import csv, os, sys
run, out, machine, placement, bcast, platform, flat_s, in_use, per_node, host_s = sys.argv[1:11]
fidelity = dict(kv.split("=", 1) for kv in sys.argv[11:])
rows = list(csv.DictReader(line for line in open(run) if not line.startswith("#")))
# The gain of each size against its own flat broadcast (G = 1 comes first for every size).
flat_of = {}
for r in rows:
    flat_of.setdefault(r["bytes"], float(flat_s) if flat_s else float(r["time_s"]))
fields = ["kind", "machine", "placement", "platform", "smpi_bcast", "ranks", "bytes", "groups", "time_s", "gain"]
fields += list(fidelity) + (["asked", "model_s"] if in_use == "1" else [])
fields += ["ranks_per_node", "host_s"] if machine.startswith("graphene") else []
new = not os.path.exists(out) or os.path.getsize(out) == 0
with open(out, "a", newline="") as f:
    w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
    if new:
        w.writeheader()
    for r in rows:
        flat = flat_of[r["bytes"]]
        w.writerow(dict(kind="simulated", machine=machine, placement=placement, platform=platform, smpi_bcast=bcast,
                        ranks=r["ranks"], bytes=r["bytes"], groups=r["groups"], time_s=r["time_s"],
                        gain=f"{flat / float(r['time_s']):.4f}", asked=r.get("asked", r["groups"]),
                        model_s=r.get("model_s", ""), ranks_per_node=per_node, host_s=host_s, **fidelity))
        print(f"P={r['ranks']} {r['bytes']} B G={r.get('asked', '')}->{r['groups']}: {float(r['time_s']) * 1e3:.4f} ms, "
              f"gain {flat / float(r['time_s']):.3f} (model {r.get('model_s', '')} s)")
PY
echo "[host $host_s s]"
exit 0
}
