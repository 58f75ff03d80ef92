# Sourced by run-sweep.sh and run-auto-probe.sh: the options and the checks they share.
# Needs $root (the checkout) and the script's name in $script.

# Takes the shared option at "$1" (its value in "$2") into bin, machine, ranks, n, b or
# bcast; shifted = the words it used (0: not a shared option).
shared_option() {
  shifted=2
  case "$1" in
    --bin) bin="$2" ;;
    --machine) machine="$2" ;;
    --ranks) ranks="$2" ;;
    -n) n="$2" ;;
    -b) b="$2" ;;
    --bcast) bcast="$2" ;;
    *) shifted=0 ;;
  esac
}

# Sets bin to an SMPI build's bin/ holding EXE (--bin, else the usual build folders);
# exits 77 (skip) without smpirun or such a build.
require_smpi_bin() {  # require_smpi_bin EXE
  local d
  if ! command -v smpirun >/dev/null; then echo "$script: smpirun not found (apt install simgrid)" >&2; exit 77; fi
  if [ -z "$bin" ]; then
    for d in "$root/build-smpi/bin" "$root/build/smpi/bin"; do [ -x "$d/$1" ] && bin="$d" && break; done
  fi
  if [ -z "$bin" ] || [ ! -x "$bin/$1" ]; then
    echo "$script: no SMPI $1 (configure with -DHYMPI_SMPI=ON, or pass --bin)" >&2; exit 77
  fi
}
