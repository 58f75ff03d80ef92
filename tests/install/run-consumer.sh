#!/usr/bin/env bash
# One install test. Every consumer uses hympi as a user would, from the prefix the
# install.prefix test filled (or, for subproject, from the source tree), and runs
# its programs on 2 ranks; the expected version is passed to each program.
# Usage: run-consumer.sh <kind> <prefix> <scratch> <mpiexec> <family> <version> <source-dir>
#   kind: install | cxx | c | fortran | all | make | scalapack | readme | subproject | too-new | other-family
#   (readme and subproject take the source tree as <source-dir>, the others the build tree)
set -euo pipefail
kind=$1 prefix=$2 scratch=$3 mpiexec=$4 family=$5 version=$6 source=$7
here=$(cd "$(dirname "$0")" && pwd)
build=$scratch/$kind
rm -rf "$build" && mkdir -p "$build"
flags=()
[[ $family == openmpi ]] && flags=(--oversubscribe)
run() { for exe in "$@"; do "$mpiexec" -n 2 "${flags[@]}" "$build/$exe" "$version"; done; }
configure() {  # configure <source> [cmake args...]
  local src=$1
  shift
  cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" "$@"
}
# Expects configure to fail with a message matching $1 (extended regex).
expect_configure_error() {
  local regex=$1
  shift
  if configure "$@" > "$build/configure.log" 2>&1; then
    echo "install test $kind: configure succeeded, expected an error matching '$regex'"
    exit 1
  fi
  cat "$build/configure.log"
  grep -Eq "$regex" <(tr -s ' \n' ' ' < "$build/configure.log") ||
    { echo "install test $kind: configure failed without a message matching '$regex'"; exit 1; }
  echo "install test $kind: failed as expected"
}

case $kind in
  install)
    rm -rf "$prefix"
    cmake --install "$source" --prefix "$prefix" --component hympi > "$build/install.log"
    # Every header under include/hympi/ (C: hympi/hympi.h), nothing else at the top of include/.
    top=$(ls "$prefix/include" | tr '\n' ' ')
    [[ $top == "hympi " && -f $prefix/include/hympi/hympi.h ]] ||
      { echo "install test install: include/ holds '$top'; expected only hympi/ with hympi/hympi.h"; exit 1; } ;;
  cxx | c | fortran | all)
    configure "$here/consumers/$kind"
    cmake --build "$build"
    case $kind in cxx) run consumer_cxx ;; c) run consumer_c ;; fortran) run consumer_f ;;
                  all) run consumer_cxx consumer_c consumer_f ;; esac ;;
  make)
    export PKG_CONFIG_PATH=$(dirname "$(find "$prefix" -name hympi.pc | head -1)")
    [[ $(pkg-config --modversion hympi) == "$version" ]] || { echo "pkg-config: wrong version"; exit 1; }
    make -f "$here/make/Makefile" OUT="$build"
    run consumer_c consumer_f ;;
  scalapack)
    # The drop-in pdgemm: by find_package (hympi::hympi_scalapack) and by pkg-config.
    pc=$(find "$prefix" -name hympi_scalapack.pc | head -1)
    [[ -n $pc ]] || { echo "install test scalapack: no hympi_scalapack.pc in $prefix"; exit 1; }
    configure "$here/consumers/scalapack"
    cmake --build "$build"
    run consumer_scalapack
    export PKG_CONFIG_PATH=$(dirname "$pc")
    mkdir -p "$build/pc"
    "$(pkg-config --variable=mpicc hympi_scalapack)" -O2 $(pkg-config --cflags hympi_scalapack) \
      -o "$build/pc/consumer_scalapack" "$here/consumers/scalapack/main.c" $(pkg-config --libs hympi_scalapack) -lm
    run pc/consumer_scalapack ;;
  readme)
    # The usage examples of README.md (C++, C) and lib/API.md (Fortran), taken from the
    # Markdown as they stand, built with pkg-config and run on 2 ranks, on one node and
    # on 2 emulated nodes.
    export PKG_CONFIG_PATH=$(dirname "$(find "$prefix" -name hympi.pc | head -1)")
    extract() { python3 "$here/extract_example.py" "$source/$1" "$2" "$build/$3"; }
    extract README.md cpp readme.cpp
    extract README.md c readme.c
    extract lib/API.md fortran api.f90
    # Warnings in the example itself fail the test (MPI's own headers may warn: not ours).
    compile() {  # compile <example> <compiler and flags...>
      local example=$1
      shift
      "$@" 2>&1 | tee "$build/$example.log"
      [[ ${PIPESTATUS[0]} == 0 ]] || { echo "install test readme: $example does not compile"; exit 1; }
      ! grep -q "$example:[0-9]*:[0-9]*: [Ww]arning" "$build/$example.log" ||
        { echo "install test readme: $example compiles with warnings"; exit 1; }
    }
    compile readme.cpp "$(pkg-config --variable=mpicxx hympi)" -std=c++17 -Wall -Wextra -O2 $(pkg-config --cflags hympi) \
      -o "$build/readme_cpp" "$build/readme.cpp" $(pkg-config --libs hympi)
    compile readme.c "$(pkg-config --variable=mpicc hympi)" -std=c99 -Wall -Wextra -O2 $(pkg-config --cflags hympi) \
      -o "$build/readme_c" "$build/readme.c" $(pkg-config --libs hympi)
    cd "$build"  # the Fortran compiler writes the program's .mod here
    compile api.f90 "$(pkg-config --variable=mpifort hympi_fortran)" -Wall -O2 $(pkg-config --cflags hympi_fortran) \
      -o "$build/api_f" "$build/api.f90" $(pkg-config --libs hympi_fortran)
    for exe in readme_cpp readme_c api_f; do
      "$mpiexec" -n 2 "${flags[@]}" "$build/$exe"
      HYMPI_RANKS_PER_NODE=1 "$mpiexec" -n 2 "${flags[@]}" "$build/$exe"
    done ;;
  subproject)
    # No build type, as a parent that sets none (no -O): the library compiles in half the time.
    configure "$here/subproject" -DCMAKE_BUILD_TYPE= -DHYMPI_SOURCE_DIR="$source" -DHYMPI_MPI="$family"
    cmake --build "$build" --target consumer_cxx
    run consumer_cxx ;;
  too-new)
    expect_configure_error "requested version \"99\.0\".*version: $version" "$here/too_new" ;;
  other-family)
    # The other family's compiler wrappers: configure must fail naming both MPIs.
    other=mpich names="Open MPI.*MPICH"
    [[ $family == mpich ]] && other=openmpi names="MPICH.*Open MPI"
    command -v "mpicxx.$other" > /dev/null || { echo "no mpicxx.$other: skipped"; exit 77; }
    expect_configure_error "built with $names" "$here/consumers/cxx" -DCMAKE_CXX_COMPILER="mpicxx.$other" ;;
  *) echo "run-consumer.sh: unknown kind '$kind'" >&2; exit 2 ;;
esac
