# Sourced by the run-*.sh scripts: option reading and the SMPI build lookup they share.
# Needs $script (the script's name for messages) and, for require_smpi_bin, $root.

# An option with a value, "--min-size 8" or "-n 8", sets the variable of its name
# (min_size, n) when that name is in $valued (the script's list); shifted = the
# words used, 0 when "$1" is not such an option.
value_option() {
  local name="${1#-}"
  name="${name#-}"
  name="${name//-/_}"
  shifted=0
  case " $valued " in
    *" $name "*)
      [ $# -ge 2 ] || { echo "$script: $1 needs a value" >&2; exit 2; }
      printf -v "$name" '%s' "$2"
      shifted=2 ;;
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

# Reads the whole command line: value options (value_option), the script's flags
# (its flag_option FLAG returns 1 for an unknown one; optional), -h/--help (its usage).
read_options() {
  while [ $# -gt 0 ]; do
    value_option "$@"
    if [ "$shifted" -gt 0 ]; then shift "$shifted"; continue; fi
    case "$1" in
      -h|--help) usage; exit 0 ;;
    esac
    if declare -F flag_option >/dev/null && flag_option "$1"; then shift; continue; fi
    echo "$script: unknown option '$1'" >&2; usage >&2; exit 2
  done
}
