#!/usr/bin/env bash
# Installs the build tree into a scratch prefix, builds the consumer project
# against it with find_package(hympi), and runs the three consumers on 2 ranks.
# Usage: run-consumer.sh <build-dir> <scratch-dir> <mpiexec> <mpi-family>
set -euo pipefail
build=$1 scratch=$2 mpiexec=$3 family=$4
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$scratch" && mkdir -p "$scratch"
cmake --install "$build" --prefix "$scratch/prefix" > "$scratch/install.log"
cmake -S "$here/consumer" -B "$scratch/build" -G Ninja -DCMAKE_PREFIX_PATH="$scratch/prefix" \
  -DCMAKE_BUILD_TYPE=Release > "$scratch/configure.log"
cmake --build "$scratch/build" > "$scratch/build.log"
flags=()
[[ $family == openmpi ]] && flags=(--oversubscribe)
for exe in consumer_cxx consumer_c consumer_f; do
  "$mpiexec" -n 2 "${flags[@]}" "$scratch/build/$exe"
done
