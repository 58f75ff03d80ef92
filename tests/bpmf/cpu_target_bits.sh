#!/usr/bin/env bash
# The sampler's bits do not depend on the CPU: the same chains built for the host's
# CPU target and for the x86-64 baseline, and run with the C library's functions for
# CPUs without FMA/AVX2 (glibc picks log/exp/sin/cos by the CPU), print one digest.
# Usage: cpu_target_bits.sh NATIVE_EXE BASELINE_EXE LAUNCH... (LAUNCH: up to its -np flag)
set -euo pipefail
native=$1 baseline=$2
shift 2
launch=("$@")
run() {  # run <what> <exe> [env...]: the digest line
  local what=$1 exe=$2 out
  shift 2
  local rc=0
  out=$(env "$@" "${launch[@]}" 1 "$exe" 2>&1) || rc=$?
  if [[ $rc -ne 0 ]]; then
    echo "$out"
    grep -q "DIFFERENT" <<< "$out" && echo "FAIL: $what: other cache sizes give other bits" >&2 ||
      echo "FAIL: $what did not run (exit $rc)" >&2
    exit 1
  fi
  grep -o "cpu target bits: .*" <<< "$out" || { echo "$out"; echo "FAIL: $what printed no digest" >&2; exit 1; }
}
a=$(run "the host's CPU target" "$native")
b=$(run "the x86-64 baseline" "$baseline")
c=$(run "the host's CPU target, glibc without FMA/AVX2" "$native" GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2,-FMA,-AVX512F)
printf '%-48s %s\n' "host CPU target:" "$a" "x86-64 baseline:" "$b" "host target, glibc's non-FMA functions:" "$c"
[[ $a == "$b" ]] || { echo "FAIL: the x86-64 baseline build gives other bits" >&2; exit 1; }
[[ $a == "$c" ]] || { echo "FAIL: glibc's non-FMA functions give other bits" >&2; exit 1; }
echo "cpu target bits: the same on every build and library variant"
