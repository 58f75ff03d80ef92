#!/usr/bin/env bash
# run-jobscript.sh JOBSCRIPT NAME [VAR=value...]
# Submits one hympi jobscript in its tiny configuration to the local test cluster
# (slurm-local.sh), waits (bounded), and checks that the job COMPLETED and that every
# experiment it ran produced its CSV with at least one row and no failed point.
# Emulated nodes unless HYMPI_EMULATE_NODES=0 is given: then the points run on the real node
# and check-real-node.py checks layout, binding, threads, job id and manifest.
# HYMPI_TEST_EXPECT_FAILURE="text": the job must instead FAIL, saying text in its output.
# Needs SLURM_LOCAL_DIR, HYMPI_ROOT, HYMPI_BUILD. Exit 77 where the test cluster cannot run (skip-unless-slurm.sh).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
jobscript=$1
name=$2
shift 2
# shellcheck source=skip-unless-slurm.sh
source "$HERE/skip-unless-slurm.sh"
slurm_test_needs SLURM_LOCAL_DIR HYMPI_ROOT HYMPI_BUILD
use_running_cluster

out=$HYMPI_BUILD/tmp/slurm-jobs/$name
rm -rf "$out"  # job ids restart at 1 with a fresh cluster: never trust old output
mkdir -p "$out/results"
emulate=1
for kv in "$@"; do [[ $kv == HYMPI_EMULATE_NODES=* ]] && emulate=${kv#*=}; done
exports="ALL,HYMPI_TINY=1,HYMPI_EMULATE_NODES=$emulate,HYMPI_ROOT=$HYMPI_ROOT,HYMPI_BUILD=$HYMPI_BUILD"
exports+=",HYMPI_RESULTS=$out/results"
# srun's PMI for this build's MPI (set by CMake for MPICH: pmi2); unset = the cluster default.
[[ -n ${HYMPI_TEST_SRUN_MPI:-} ]] && exports+=",HYMPI_SRUN_MPI=$HYMPI_TEST_SRUN_MPI"
for kv in "$@"; do [[ $kv == HYMPI_EMULATE_NODES=* ]] || exports+=",$kv"; done

rc=0
"$HERE/slurm-submit-wait.sh" "${HYMPI_SLURM_JOB_LIMIT:-240}" --nodes=1 --ntasks=2 --ntasks-per-node=2 \
  --time=00:10:00 --job-name="hympi-test-$name" --output="$out/job.out" --chdir="$HYMPI_ROOT" \
  --export="$exports" "$jobscript" || rc=$?
echo "---- job output ($out/job.out, last 40 lines)"
tail -n 40 "$out/job.out" 2>/dev/null || echo "(none)"
echo "----"
if [[ -n ${HYMPI_TEST_EXPECT_FAILURE:-} ]]; then
  if ((rc == 1)) && grep -qF -- "$HYMPI_TEST_EXPECT_FAILURE" "$out/job.out"; then
    echo "PASS: $name: the job failed as it should: $(grep -F -- "$HYMPI_TEST_EXPECT_FAILURE" "$out/job.out" | head -n 1)"
    exit 0
  fi
  echo "FAIL: $name: expected the job to fail saying '$HYMPI_TEST_EXPECT_FAILURE' (submit-wait exit $rc)"
  exit 1
fi
if ((rc != 0)); then
  echo "FAIL: $name: job did not complete successfully (submit-wait exit $rc)"
  exit 1
fi

# Every experiment leaves <csv>.state.json; its CSV must hold rows and no point may have failed.
checked=0
while IFS= read -r state; do
  csv=${state%.state.json}.csv
  rows=$(($(wc -l <"$csv" 2>/dev/null || echo 0) - 1))
  if ((rows < 1)); then
    echo "FAIL: $name: $csv has no data rows"
    exit 1
  fi
  if grep -q '"status": "failed"' "$state"; then
    echo "FAIL: $name: failed points in $state"
    exit 1
  fi
  echo "ok: $csv ($rows rows)"
  checked=$((checked + 1))
done < <(find "$out/results" -name '*.state.json' | sort)
if ((checked == 0)); then
  echo "FAIL: $name: the job wrote no experiment CSV under $out/results"
  exit 1
fi
if ((emulate == 0)); then
  launcher=mpirun
  [[ $jobscript == */cray/* ]] && launcher=srun
  for kv in "$@"; do [[ $kv == HYMPI_LAUNCHER=* ]] && launcher=${kv#*=}; done
  "$HERE/check-real-node.py" "$out/results" "$launcher"
fi
echo "PASS: $name: job COMPLETED, $checked experiment CSV(s)"
