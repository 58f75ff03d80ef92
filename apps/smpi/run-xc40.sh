#!/usr/bin/env bash
# Zhou et al. (ICPP'19) analogues on a simulated Cray XC40 (xc40-dragonfly, 24-core nodes):
#   fig11  Ori_SUMMA (pure) vs Hy_SUMMA (hybrid) time vs per-core block s x s (b = s)
#   fig8   the collective benchmark (allgather, bcast; pure vs hybrid) across nodes vs message size
# Rows are labelled kind=simulated with the platform file (copied to <out dir>/platforms).
# usage: run-xc40.sh fig11|fig8 [--nodes N] [--grid PxQ] [--blocks 8,64,128,256] [--steps S]
#                    [--sync barrier|flags] [--min-size D] [--max-size D] [--ops LIST] [--variants LIST]
#                    [--leaders K] [--cores C] [--ranks R] [--shm-costs on|off] [--fold-scope new|all]
#                    [--fold-new BYTES] [--untimed-write] [--bin DIR] [--out FILE]
# --cores C: cores (= ranks) per node (default 24; Zhou's one-node 8 x 8 SUMMA: --nodes 1 --cores 64 --grid 8x8).
# --ranks R: fig8 only, R ranks in block placement, the last node partly filled (Zhou Fig 10: --ranks 1024
#   --cores 24 = 42 nodes x 24 + 1 x 16); --nodes is then ceil(R / C).
# --fold-scope: which big blocks share one SMPI-shared copy (glue/fold_shared.cpp; data garbage, times
#   unchanged): all (default) also the core's private result buffers and node windows, new only operator new.
#   Every row records it, with the run's host seconds and peak RSS (run_host_s, run_peak_rss_mb).
# --fold-new BYTES: fold operator-new blocks >= BYTES too (default $HYMPI_SMPI_FOLD_NEW_BYTES, else 0 = off):
#   such a block may hold live objects, e.g. the core's per-rank strings, ~112 B x ranks (run-common.sh).
# --shm-costs: on-node copies and overheads charged (default on; off: the older loopback-only platform).
# --leaders K: fig8's hybrid variants with K bridge ranks per node (multi-leader; default: the library's choice).
# --untimed-write: fig8 times the exchange alone (the benchmark's --untimed-write; rows: timed_write=0).
# Fidelity settings (apps/smpi/README.md "Fidelity settings"): --sharing fair|route, --overheads all|smpi,
#   --eager-bytes E, --bcast mpich|smpi:ALG, --ring-merge S (default: none, SMPI's default broadcast);
#   any of them adds the columns fidelity, sharing, overheads, eager_bytes, bcast, ring_merge.
# Host time at 64 nodes (1536 ranks) on 2 busy cores: fig11 25-40 s per block size; fig8 bcast
# 1..2048 doubles 2 min; allgather holds P x size per rank (pure): above 256 doubles > 6 GB unless folded.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
usage() { sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; }
case "${1:-}" in -h|--help) usage; exit 0 ;; esac
part="${1:?usage: run-xc40.sh fig11|fig8 [options] (--help)}"; shift
nodes=64; grid=""; blocks=8,64,128,256; steps=4; sync=barrier; min_size=1; max_size=2048; variants=pure,hybrid-barrier; ops=allgather,bcast; leaders=0; cores=24; ranks=""; shm_costs=on; fold_scope=all; bin="${HYMPI_SMPI_BIN:-}"; out=""
fold_new="${HYMPI_SMPI_FOLD_NEW_BYTES:-0}"
script=run-xc40.sh valued="nodes grid blocks steps sync min_size max_size variants ops leaders cores ranks shm_costs fold_scope fold_new bin out"
untimed=()
flag_option() { case "$1" in --untimed-write) untimed=(--untimed-write) ;; *) return 1 ;; esac; }
source "$here/run-common.sh"
fidelity="" sharing="" overheads="" eager_bytes="" bcast="" ring_merge=""
valued+=" $fidelity_options"
read_options "$@"
fidelity_setup xc40-dragonfly ""
command -v smpirun >/dev/null || { echo "run-xc40.sh: smpirun not found (apt install simgrid)" >&2; exit 77; }
if [ -z "$bin" ]; then
  for d in "$root/build-smpi/bin" "$root/build/smpi/bin"; do [ -x "$d/hympi-summa" ] && bin="$d" && break; done
fi
[ -n "$bin" ] && { [ -x "$bin/hympi-summa" ] || [ -x "$bin/hympi-bench-collectives" ]; } || { echo "run-xc40.sh: no SMPI build (pass --bin)" >&2; exit 77; }
case "$fold_scope" in new|all) ;; *) echo "run-xc40.sh: error: --fold-scope is new or all, not '$fold_scope'" >&2; exit 2 ;; esac
if [ -n "$ranks" ]; then
  [[ "$ranks" =~ ^[1-9][0-9]*$ ]] && [ "$part" = fig8 ] || { echo "run-xc40.sh: error: --ranks R (positive) is for fig8 only" >&2; exit 2; }
  nodes=$(( (ranks + cores - 1) / cores ))
  [ -n "$grid" ] || grid="1x$ranks"
else
  ranks=$((nodes * cores))
fi
# Default grid: 2 nodes per grid row (P x Q = nodes/2 x 48), so a row broadcast spans 2 nodes.
[ -n "$grid" ] || grid="$((nodes / 2))x$((2 * cores))"
P=${grid%x*} Q=${grid#*x}
[ $((P * Q)) -eq "$ranks" ] || { echo "run-xc40.sh: grid $grid is not $ranks ranks" >&2; exit 2; }
# fig8's default file is named by Zhou's figure of its layout: one node = Fig 7, one rank per node = Fig 8, else Fig 9.
fig="$part"
if [ "$part" = fig8 ]; then
  if [ "$nodes" -eq 1 ]; then fig=fig7; elif [ $((nodes * cores)) -ne "$ranks" ]; then fig=fig10
  elif [ "$cores" -gt 1 ]; then fig=fig9; fi
fi
out="${out:-$root/results/simulated/zhou-$fig-xc40-$nodes.csv}"

source "$here/smpi-flags.sh"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
platform="$work/xc40-dragonfly-$ranks-c$cores-shm$shm_costs.xml"
[ "$sharing" = route ] || platform="${platform%.xml}-$sharing.xml"
python3 "$here/platforms/make_platform.py" xc40-dragonfly --ranks "$ranks" --cores "$cores" --shm-costs "$shm_costs" \
  "${fidelity_platform[@]}" --out "$platform" >/dev/null
keep="$(dirname "$out")/platforms"; mkdir -p "$keep"
keep_copy "$keep" "$platform" "${platform%.xml}.hosts"
platform_rec="$(cd "$keep" && pwd)/$(basename "$platform")"; platform_rec="${platform_rec#"$root"/}"
export HYMPI_SMPI_FOLD_BYTES="${HYMPI_SMPI_FOLD_BYTES:-65536}" HYMPI_SMPI_FOLD_SCOPE="$fold_scope" OPENBLAS_NUM_THREADS=1
fold_new_setup  # operator new folds nothing unless --fold-new (run-common.sh: its blocks may hold objects)
# /usr/bin/time -v: the simulation's host seconds and peak resident memory (max RSS: the folded blocks
# are one mapping each, so RSS does not count them once per rank).
run() {
  /usr/bin/time -f '%e %M' -o "$work/time" smpirun -np "$ranks" -platform "$platform" -hostfile "${platform%.xml}.hosts" \
    "${HYMPI_SMPI_FLAGS[@]}" "${fidelity_cfg[@]}" "$@"
}
host_use() { read -r host_s rss_kb < "$work/time" && echo "run_host_s=$host_s run_peak_rss_mb=$((rss_kb / 1024))"; }
label=(kind=simulated machine=xc40-dragonfly platform="$platform_rec" cores_per_node="$cores" shm_costs="$shm_costs"
       "${fidelity_labels[@]}")
label+=(fold_scope="$fold_scope")  # fig11's rows too since 2026-11-29 (with fold_new_bytes, host use)
# operator new's own fold threshold (glue/fold_alloc.cpp), unless it is the fold threshold (older rows)
label+=("${fold_new_label[@]}")
# A failed simulation (killed, out of memory) keeps the rows it finished: label them, then fail.
failed() {  # failed WHAT [LABEL...]
  local what="$1"; shift
  cat "$work/log" >&2
  if [ -s "$work/run.csv" ] && [ "$(wc -l < "$work/run.csv")" -gt 1 ]; then
    python3 "$here/label_csv.py" "$work/run.csv" "$out" "${label[@]}" "$@" >&2
    echo "run-xc40.sh: $what failed; the rows it finished were kept in $out" >&2
  else
    echo "run-xc40.sh: $what failed before any row" >&2
  fi
  exit 1
}

echo "# SIMULATED (SimGrid SMPI) xc40-dragonfly: $nodes nodes x $cores cores = $ranks ranks, $part"
case "$part" in
  fig11)  # per-core block s: C is (P s) x (Q s); only `steps` of the Q identical steps are simulated
    for s in ${blocks//,/ }; do
      t0=$(date +%s)
      # 3 reps: rep 0 of the first policy is the process's first multiply (other barrier skew).
      run "$bin/hympi-summa" -m $((P * s)) -n $((Q * s)) -k $((Q * s)) --max-steps "$steps" --grid "$grid" -b "$s" -a summa \
        --policy pure,hybrid --sync "$sync" --reps 3 --warmup 0 --check none --no-reference-dgemm \
        --csv "$work/run.csv" > "$work/log" 2>&1 || failed "s=$s" block_per_core="$s" k_full=$((Q * s)) --scale auto
      # shellcheck disable=SC2046  # host_use prints two key=value words
      python3 "$here/label_csv.py" "$work/run.csv" "$out" "${label[@]}" block_per_core="$s" \
        k_full=$((Q * s)) $(host_use) --scale auto
      rm -f "$work/run.csv"
      echo "s=$s: $(grep -E '^summa ' "$work/log" | awk '{printf "%s rep%s %.4gs  ", $2, $3, $4}')[host $(( $(date +%s) - t0 )) s; $(host_use)]"
    done ;;
  fig8)
    t0=$(date +%s)
    run "$bin/hympi-bench-collectives" --ops "$ops" --variants "$variants" --leaders "$leaders" \
      --min-size "$min_size" --max-size "$max_size" -i 3 -x 1 "${untimed[@]}" --no-progress --csv "$work/run.csv" > "$work/log" 2>&1 \
      || failed fig8
    extra=(); [ "$leaders" = 0 ] || extra=(leaders="$leaders")
    # shellcheck disable=SC2046  # host_use prints two key=value words
    python3 "$here/label_csv.py" "$work/run.csv" "$out" "${label[@]}" "${extra[@]}" $(host_use)
    echo "[host $(( $(date +%s) - t0 )) s; $(host_use)]" ;;
  *) echo "run-xc40.sh: unknown part '$part'" >&2; exit 2 ;;
esac
