#!/usr/bin/env bash
# tests/run-all.sh quick: the development loop's test run (1-2 minutes on 2 cores).
# In an existing build directory (configured with Open MPI if absent), builds only what
# the selected tests run, then runs them: the unit tests, the core/api/robust tests on
# 1 and 2 ranks, one SUMMA, one drop-in and one BPMF test (tests/support/quick_tests.py).
# Installs nothing: run cmake/install-deps.sh (or the full tests/run-all.sh) once first.
# Env: HYMPI_BUILD_DIR (default build-dev), HYMPI_JOBS, HYMPI_CTEST_ARGS.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${HYMPI_BUILD_DIR:-$root/build-dev}
jobs=${HYMPI_JOBS:-$(nproc)}
select=(python3 "$root/tests/support/quick_tests.py" "$build")
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
start=$SECONDS

if [[ ! -f $build/CMakeCache.txt ]]; then
  echo "=== quick: configuring $build (Open MPI)"
  launchers=()
  if command -v ccache > /dev/null; then
    launchers=(-DCMAKE_{C,CXX,Fortran}_COMPILER_LAUNCHER=ccache)
  fi
  cmake -G Ninja -S "$root" -B "$build" -DHYMPI_MPI=openmpi "${launchers[@]}" > /dev/null
fi
targets=$("${select[@]}" targets)
echo "=== quick: building $(wc -w <<< "$targets") targets in $build"
log=$build/quick-build.log
if [[ -n $targets ]]; then
  # shellcheck disable=SC2086  # one target a word
  cmake --build "$build" -j "$jobs" --target $targets > "$log" 2>&1 ||
    { tail -50 "$log"; echo "quick: build failed (whole log: $log)" >&2; exit 1; }
fi
# Select again: the unit tests are discovered only once their executables are built.
numbers=$("${select[@]}" numbers)
echo "=== quick: $(tr ',' '\n' <<< "$numbers" | tail -n +4 | wc -l) tests (built in $((SECONDS - start)) s)"
# shellcheck disable=SC2086  # HYMPI_CTEST_ARGS: several words
ctest --test-dir "$build" -j 2 --output-on-failure -I "$numbers" ${HYMPI_CTEST_ARGS:-}
echo "=== quick: done in $((SECONDS - start)) s"
